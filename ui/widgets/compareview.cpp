// SPDX-License-Identifier: MIT
#include "ui/widgets/compareview.h"

#include "core/graph/search.h"
#include "core/util/text.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/whenfinished.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/models/nodestyle.h"
#include "ui/models/reporttablemodel.h"
#include "ui/widgets/documentview.h"
#include "ui/widgets/exports.h"
#include "ui/widgets/operatorpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

namespace etscope::ui {

using namespace etscope::core;

/// What one compared method shows, made off the UI thread with the diff.
struct CompareMarks {
    std::map<std::pair<int, int>, int> byKeyA, byKeyB; ///< keyOf(origin) → the match holding it
    std::map<std::pair<int, int>, NodeMark> marksA, marksB;
    Table nodes; ///< one row per match, in the diff's order
    std::vector<char> same; ///< per row of `nodes`: the match is `same`
    Table operators, moved;
};

/// The nodes table without its `same` rows (unless asked for them).
class SameRowsFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setSame(const std::vector<char>* same)
    {
        m_same = same;
        invalidateFilter();
    }
    void setShowSame(bool show)
    {
        m_showSame = show;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex&) const override
    {
        return m_showSame || !m_same || static_cast<std::size_t>(row) >= m_same->size()
            || !(*m_same)[static_cast<std::size_t>(row)];
    }

private:
    const std::vector<char>* m_same = nullptr;
    bool m_showSame = false;
};

namespace {

/// Both sides are expanded at first when their decoded delegates hold at most this many
/// nodes in all: the moved operators are then in view (a large model stays collapsed).
constexpr std::size_t kExpandInnerLimit = 300;
constexpr int kGraphsHeight = 600; ///< initial split: the graphs over the tables
constexpr int kTablesHeight = 220;
constexpr int kDialogPathWidth = 520;

const QColor kChanged(0xE6, 0x9F, 0x00); ///< Okabe–Ito orange (amber)
/// Crimson: darker than the vermillion of the selection and of attention, apart from amber.
const QColor kOnlyInA(0xB3, 0x26, 0x1E);
const QColor kOnlyInB(0x00, 0x9E, 0x73); ///< bluish green

NodeOrigin originOf(const DiffNodeRef& ref)
{
    return { ref.node, ref.inner.value_or(NodeId::none()) };
}

std::pair<int, int> keyOf(const DiffNodeRef& ref)
{
    return GraphScene::keyOf(originOf(ref));
}

/// How much a mark says: a move over a one-sided node over a change.
int weight(const NodeMatch& match)
{
    if (match.movement != Movement::None)
        return 3;
    if (match.status == MatchStatus::OnlyInA || match.status == MatchStatus::OnlyInB)
        return 2;
    return match.status == MatchStatus::Changed ? 1 : 0;
}

/// The text colour of a badge on `background`, as the graph draws it.
QColor readableOn(const QColor& background)
{
    return background.lightnessF() < 0.55 ? QColor(Qt::white) : QColor(0x1f, 0x23, 0x28);
}

QString chip(const QColor& colour, const QString& badge, const QString& text)
{
    return QStringLiteral("<span style=\"background-color:%1; color:%2;\">&nbsp;%3&nbsp;</span>&nbsp;%4")
        .arg(colour.name(), readableOn(colour).name(), badge.toHtmlEscaped(), text.toHtmlEscaped());
}

/// The file names of the two sides, with their folders when the names alone are equal.
std::pair<QString, QString> shortNames(const QString& a, const QString& b)
{
    const QFileInfo fa(a), fb(b);
    if (fa.fileName() != fb.fileName())
        return { fa.fileName(), fb.fileName() };
    return { fa.dir().dirName() + QLatin1Char('/') + fa.fileName(),
        fb.dir().dirName() + QLatin1Char('/') + fb.fileName() };
}

QTableView* makeTable(QWidget* parent, ReportTableModel*& model, QSortFilterProxyModel*& proxy, const QString& name)
{
    model = new ReportTableModel(parent);
    proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(ReportTableModel::SortRole);
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the diff's own order until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

/// The node of a match's side: a top-level node, or one inside a decoded delegate.
const Node* nodeIn(const Graph* top, const DiffNodeRef& ref)
{
    if (!top || ref.node.value < 0 || static_cast<std::size_t>(ref.node.value) >= top->nodes.size())
        return nullptr;
    const Node& node = top->node(ref.node);
    if (!ref.inner)
        return &node;
    if (!node.subgraph || ref.inner->value < 0
        || static_cast<std::size_t>(ref.inner->value) >= node.subgraph->nodes.size())
        return nullptr;
    return &node.subgraph->node(*ref.inner);
}

/// The backend of the delegate a move crosses: the top-level node of its inner side, which is
/// the delegate, labelled with its backend id.
QString backendOf(const NodeMatch& match, const Graph* graphA, const Graph* graphB)
{
    const bool intoB = match.movement == Movement::IntoDelegate;
    const auto& ref = intoB ? match.b : match.a;
    const Node* delegate = ref ? nodeIn(intoB ? graphB : graphA, DiffNodeRef { ref->node, std::nullopt }) : nullptr;
    return delegate ? QString::fromStdString(delegate->label) : QString();
}

void fitColumns(QTableView* view)
{
    view->resizeColumnsToContents();
    // A long reason or label must not push the other columns out of sight.
    for (int c = 0; c < view->model()->columnCount(); ++c)
        view->setColumnWidth(c, std::min(view->columnWidth(c), 420));
}

/// Marks, lookups and tables of one method of both files (`where` names it in table titles).
CompareMarks prepareMethod(const MethodDiff& method, const Graph* graphA, const Graph* graphB, const QString& where)
{
    CompareMarks prepared;
    std::map<std::pair<int, int>, int> weightA, weightB;
    for (int i = 0; i < static_cast<int>(method.matches.size()); ++i) {
        const NodeMatch& match = method.matches[static_cast<std::size_t>(i)];
        const QString backend = match.movement == Movement::None ? QString() : backendOf(match, graphA, graphB);
        for (const auto side : { CompareView::Side::A, CompareView::Side::B }) {
            const bool onA = side == CompareView::Side::A;
            const auto& ref = onA ? match.a : match.b;
            if (!ref)
                continue;
            const auto key = keyOf(*ref);
            // An undecoded delegate also stands in every move into it: its own match wins.
            auto& byKey = onA ? prepared.byKeyA : prepared.byKeyB;
            const auto [at, inserted] = byKey.emplace(key, i);
            if (!inserted && match.movement == Movement::None
                && method.matches[static_cast<std::size_t>(at->second)].movement != Movement::None)
                at->second = i;
            const auto mark = CompareView::markFor(match, side, backend);
            if (!mark)
                continue;
            auto& marks = onA ? prepared.marksA : prepared.marksB;
            auto& weights = onA ? weightA : weightB;
            const auto it = marks.find(key);
            if (it == marks.end()) {
                marks.emplace(key, *mark);
                weights[key] = weight(match);
                continue;
            }
            // One node in several matches: the strongest mark, every reason.
            const QString tooltip = it->second.tooltip + QLatin1Char('\n') + mark->tooltip;
            if (weight(match) > weights[key]) {
                it->second = *mark;
                weights[key] = weight(match);
            }
            it->second.tooltip = tooltip;
        }
    }
    const QString title = QStringLiteral("'%1' of %2").arg(QString::fromStdString(method.name), where);
    prepared.nodes
        = { QStringLiteral("Nodes of %1").arg(title).toStdString(), { "status", "A", "B", "reason" }, {}, {} };
    prepared.nodes.rows.reserve(method.matches.size());
    prepared.same.reserve(method.matches.size());
    for (const NodeMatch& match : method.matches) {
        prepared.nodes.rows.push_back(
            { std::string(matchStatusName(match.status)), match.labelA, match.labelB, match.reason });
        prepared.same.push_back(match.status == MatchStatus::Same ? 1 : 0);
    }
    prepared.operators = { QStringLiteral("Operators of %1").arg(title).toStdString(),
        { "op type", "A delegated", "A not delegated", "B delegated", "B not delegated", "change delegated",
            "change not delegated" },
        {}, {} };
    for (const OperatorDiffRow& row : method.operators)
        prepared.operators.rows.push_back({ row.opType, static_cast<long long>(row.delegatedA),
            static_cast<long long>(row.nonDelegatedA), static_cast<long long>(row.delegatedB),
            static_cast<long long>(row.nonDelegatedB), static_cast<long long>(row.delegatedB - row.delegatedA),
            static_cast<long long>(row.nonDelegatedB - row.nonDelegatedA) });
    prepared.moved = { QStringLiteral("Operators moved in %1").arg(title).toStdString(),
        { "direction", "from", "to", "backend", "count" }, {}, {} };
    for (const MovedOperators& m : method.moved)
        prepared.moved.rows.push_back({ m.movement == Movement::IntoDelegate ? "into delegate" : "out of delegate",
            m.from, m.to, m.backend, static_cast<long long>(m.count) });
    return prepared;
}

/// What the worker hands back.
struct Prepared {
    std::shared_ptr<const ProgramDiff> diff;
    QString error;
    std::vector<std::shared_ptr<const CompareMarks>> methods;
    qint64 diffMilliseconds = 0, prepareMilliseconds = 0;
};

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("compareView"));
    m_controllerA = new DocumentController(this);
    m_controllerB = new DocumentController(this);
    buildUi();
}

CompareView::~CompareView()
{
    m_controllerA->stop();
    m_controllerB->stop();
}

void CompareView::buildUi()
{
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("compareMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(m_message);

    auto* page = new QWidget(this);
    m_files = new QLabel(page);
    m_files->setTextFormat(Qt::RichText);
    m_files->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_methodBox = new QComboBox(page);
    m_methodBox->setObjectName(QStringLiteral("compareMethod"));
    m_methodBox->setToolTip(tr("The method compared (methods both files have); both graphs follow"));
    m_methodBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_methodBox, qOverload<int>(&QComboBox::currentIndexChanged), this,
        [this](int index) { setMethod(m_methodBox->itemData(index).toString()); });
    auto* exportButton = new QPushButton(tr("Export…"), page);
    exportButton->setToolTip(
        tr("Save the diff (Markdown, JSON, text), the table below (CSV, JSON) or a side's picture"));
    auto* menu = new QMenu(exportButton);
    const char* items[] = { QT_TR_NOOP("Diff as Markdown…"), QT_TR_NOOP("Diff as JSON…"), QT_TR_NOOP("Diff as Text…"),
        QT_TR_NOOP("This Table as CSV…"), QT_TR_NOOP("This Table as JSON…"), QT_TR_NOOP("Picture of A…"),
        QT_TR_NOOP("Picture of B…") };
    for (int i = 0; i < static_cast<int>(std::size(items)); ++i) {
        if (i == 3 || i == 5)
            menu->addSeparator();
        menu->addAction(tr(items[i]), this, [this, i] { exportInteractive(i); });
    }
    exportButton->setMenu(menu);

    auto* top = new QHBoxLayout;
    top->addWidget(m_files, 1);
    top->addWidget(new QLabel(tr("Method"), page));
    top->addWidget(m_methodBox);
    top->addWidget(exportButton);

    m_summary = new QLabel(page);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes = new QLabel(page);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* legend = new QLabel(page);
    legend->setText(QStringList { chip(kChanged, QStringLiteral("Δ"), tr("changed")),
        chip(kOnlyInA, QStringLiteral("−"), tr("only in A")), chip(kOnlyInB, QStringLiteral("+"), tr("only in B")),
        chip(backendColour(QStringLiteral("XnnpackBackend")), QStringLiteral("→"),
            tr("moved into or out of a delegate (its backend's colour)")),
        tr("no mark: the same") }
                        .join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));
    legend->setToolTip(tr("Hover a node for the reason; select a node to select its match on the other side"));

    // Each side: its file over its graph (a DocumentView added once the documents are open).
    const auto makeSide = [&](QLabel*& header) {
        auto* side = new QWidget(page);
        header = new QLabel(side);
        header->setTextFormat(Qt::RichText);
        header->setContentsMargins(6, 2, 6, 2);
        auto* layout = new QVBoxLayout(side);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(header);
        return side;
    };
    m_sideA = makeSide(m_headerA);
    m_sideB = makeSide(m_headerB);
    auto* graphs = new QSplitter(Qt::Horizontal, page);
    graphs->addWidget(m_sideA);
    graphs->addWidget(m_sideB);
    graphs->setChildrenCollapsible(false);

    m_tables = new QTabWidget(page);
    m_tables->setObjectName(QStringLiteral("compareTables"));
    m_tables->setDocumentMode(true);
    auto* nodesPage = new QWidget(page);
    m_showSame = new QCheckBox(tr("Show the nodes that are the same too"), nodesPage);
    connect(m_showSame, &QCheckBox::toggled, this, [this](bool show) { m_nodesFilter->setShowSame(show); });
    m_nodesView = makeTable(nodesPage, m_nodesModel, m_nodesProxy, QStringLiteral("compareNodes"));
    // model → filter (no `same` rows) → the sorting proxy makeTable made.
    m_nodesFilter = new SameRowsFilter(nodesPage);
    m_nodesFilter->setSourceModel(m_nodesModel);
    m_nodesProxy->setSourceModel(m_nodesFilter);
    auto* nodesLayout = new QVBoxLayout(nodesPage);
    nodesLayout->setContentsMargins(0, 2, 0, 0);
    nodesLayout->addWidget(m_showSame);
    nodesLayout->addWidget(m_nodesView, 1);
    m_operatorsView = makeTable(page, m_operatorsModel, m_operatorsProxy, QStringLiteral("compareOperators"));
    m_movedView = makeTable(page, m_movedModel, m_movedProxy, QStringLiteral("compareMoved"));
    m_sizesView = makeTable(page, m_sizesModel, m_sizesProxy, QStringLiteral("compareSizes"));
    m_tables->addTab(nodesPage, tr("Nodes"));
    m_tables->addTab(m_operatorsView, tr("Operators"));
    m_tables->addTab(m_movedView, tr("Moved"));
    m_tables->addTab(m_sizesView, tr("Sizes"));
    connect(m_nodesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& index) { onNodeRowActivated(index); });
    connect(m_operatorsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& index) { onOperatorRowActivated(index); });
    connect(
        m_movedView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
            m_movedStep = -1;
            onMovedRowActivated(index);
        });
    // Double-click (or Enter) on a moved row walks through its operators.
    connect(m_movedView, &QTableView::activated, this, &CompareView::onMovedRowActivated);

    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(graphs);
    split->addWidget(m_tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({ kGraphsHeight, kTablesHeight });

    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_notes);
    layout->addWidget(legend);
    layout->addWidget(split, 1);
    m_stack->addWidget(page);

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);
}

QString CompareView::title() const
{
    const auto [a, b] = shortNames(m_controllerA->path(), m_controllerB->path());
    return a.isEmpty() && b.isEmpty() ? tr("Compare") : QStringLiteral("%1 ⇄ %2").arg(a, b);
}

bool CompareView::askForFiles(QWidget* parent, QString& pathA, QString& pathB)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("Compare Two Programs"));
    auto* form = new QFormLayout;
    QLineEdit* edits[2];
    const QString values[2] = { pathA, pathB };
    for (int i = 0; i < 2; ++i) {
        auto* edit = new QLineEdit(values[i], &dialog);
        edit->setMinimumWidth(kDialogPathWidth);
        edit->setPlaceholderText(tr(".pte or .bpte file"));
        auto* browse = new QPushButton(tr("Browse…"), &dialog);
        connect(browse, &QPushButton::clicked, &dialog, [edit, &dialog] {
            const QString chosen = QFileDialog::getOpenFileName(&dialog, tr("Choose a program"),
                QFileInfo(edit->text()).absolutePath(), tr("Programs (*.pte *.bpte);;All files (*)"));
            if (!chosen.isEmpty())
                edit->setText(chosen);
        });
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browse);
        form->addRow(i == 0 ? tr("A (before)") : tr("B (after)"), row);
        edits[i] = edit;
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    const auto update = [&] {
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(!edits[0]->text().trimmed().isEmpty() && !edits[1]->text().trimmed().isEmpty());
    };
    for (QLineEdit* edit : edits)
        connect(edit, &QLineEdit::textChanged, &dialog, update);
    update();
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(tr("Which operators moved into or out of delegates, what changed node by node, "
                                    "and where the bytes went."),
        &dialog));
    layout->addLayout(form);
    layout->addWidget(buttons);
    (pathA.isEmpty() ? edits[0] : edits[1])->setFocus();
    if (dialog.exec() != QDialog::Accepted)
        return false;
    pathA = edits[0]->text().trimmed();
    pathB = edits[1]->text().trimmed();
    return true;
}

void CompareView::compareFiles(const QString& pathA, const QString& pathB, std::shared_ptr<const Document> openA,
    std::shared_ptr<const Document> openB)
{
    ++m_generation;
    m_diff.reset();
    m_method = -1;
    delete m_viewA;
    delete m_viewB;
    m_viewA = m_viewB = nullptr;
    m_stack->setCurrentIndex(0);
    m_message->setText(tr("Opening %1 and %2…").arg(pathA, pathB));
    m_waiting = 2;
    const struct {
        DocumentController* controller;
        QString path;
        std::shared_ptr<const Document> document;
        const char* name;
    } sides[] = { { m_controllerA, pathA, openA, "A" }, { m_controllerB, pathB, openB, "B" } };
    for (const auto& side : sides) {
        side.controller->disconnect(this);
        connect(side.controller, &DocumentController::opened, this, &CompareView::onOpened);
        const QString name = QString::fromLatin1(side.name);
        connect(side.controller, &DocumentController::failed, this,
            [this, name](const QString& message) { showFailure(tr("%1 cannot be opened: %2").arg(name, message)); });
        connect(side.controller, &DocumentController::progress, this, [this, name](int percent, const QString& phase) {
            if (m_waiting > 0)
                m_message->setText(tr("Opening %1: %2 (%3 %)").arg(name, phase).arg(percent));
        });
    }
    for (const auto& side : sides) {
        if (side.document)
            side.controller->adopt(side.document); // emits opened() at once
        else
            side.controller->open(side.path);
    }
}

void CompareView::showFailure(const QString& message)
{
    m_waiting = -1; // the other side's result is not waited for any more
    m_stack->setCurrentIndex(0);
    m_message->setText(message);
    Q_EMIT statusMessage(message);
    Q_EMIT failed(message);
}

void CompareView::onOpened()
{
    if (--m_waiting != 0)
        return;
    const auto a = m_controllerA->document();
    const auto b = m_controllerB->document();
    m_message->setText(tr("Comparing %1…").arg(title()));
    const quint64 generation = m_generation;
    const QString where = title();
    // Aligning two long methods takes seconds, marking and listing 100,000 matches a few hundred
    // milliseconds: all off the UI thread, the documents kept alive.
    whenFinished(this, QtConcurrent::run([a, b, where] {
        Prepared done;
        QElapsedTimer timer;
        timer.start();
        auto diff = diffPrograms(*a, *b);
        done.diffMilliseconds = timer.restart();
        if (!diff) {
            done.error = QString::fromStdString(diff.error().message());
            return done;
        }
        auto shared = std::make_shared<const ProgramDiff>(std::move(diff).value());
        for (const MethodDiff& method : shared->methods) {
            const auto graphOf = [&](const Document& document) -> const Graph* {
                const Method* found = document.program->method(method.name);
                const MethodAnalysis* analysis = found ? document.analysis(*found) : nullptr;
                return analysis ? analysis->graph.get() : nullptr;
            };
            done.methods.push_back(method.inA && method.inB
                    ? std::make_shared<const CompareMarks>(prepareMethod(method, graphOf(*a), graphOf(*b), where))
                    : nullptr);
        }
        done.diff = std::move(shared);
        done.prepareMilliseconds = timer.elapsed();
        return done;
    }),
        [this, generation](Prepared done) {
            if (generation != m_generation)
                return;
            if (!done.diff) {
                showFailure(done.error);
                return;
            }
            Q_EMIT statusMessage(tr("Compared in %1 ms (marks and tables %2 ms)")
                                     .arg(done.diffMilliseconds)
                                     .arg(done.prepareMilliseconds));
            m_prepared = std::move(done.methods);
            showDiff(std::move(done.diff));
        });
}

int CompareView::methodIndex(Side side, const std::string& name) const
{
    const auto document = (side == Side::A ? m_controllerA : m_controllerB)->document();
    if (!document || !document->program)
        return -1;
    const auto& methods = document->program->methods;
    for (std::size_t m = 0; m < methods.size(); ++m)
        if (methods[m].name == name)
            return static_cast<int>(m);
    return -1;
}

DocumentView* CompareView::makeView(Side side, DocumentController* controller, int method)
{
    auto* view
        = new DocumentView(controller, GraphContext { method, NodeId::none() }, side == Side::A ? m_sideA : m_sideB);
    view->setObjectName(side == Side::A ? QStringLiteral("compareA") : QStringLiteral("compareB"));
    view->setEmbedded(); // the method follows the picker above
    view->setMinimapVisible(false); // half a window wide: it would cover the graph
    (side == Side::A ? m_sideA : m_sideB)->layout()->addWidget(view);
    connect(view->scene(), &GraphScene::nodeSelected, this,
        [this, side](const NodeOrigin& origin) { onNodeClicked(side, origin); });
    connect(view, &DocumentView::statusMessage, this, &CompareView::statusMessage);
    // Double-click on a delegate: expand it here rather than open a tab.
    connect(view, &DocumentView::openDelegateRequested, view, [view](int, NodeId node) {
        view->toggleExpanded({ node, NodeId::none() });
    });
    connect(view, &DocumentView::presentationShown, this, [this, side, view] {
        bool& pending = side == Side::A ? m_expandPendingA : m_expandPendingB;
        bool& legible = side == Side::A ? m_legiblePendingA : m_legiblePendingB;
        if (presentationHasGroups(side))
            applyMarks(side);
        if (pending) {
            pending = false;
            legible = expandWhenSmall(side);
        } else if (legible) {
            // expandAll fits the whole graph: too small to read in half a window.
            legible = false;
            view->graphView()->showLegible();
        }
    });
    return view;
}

void CompareView::showDiff(std::shared_ptr<const ProgramDiff> diff)
{
    m_diff = std::move(diff);
    const auto [nameA, nameB] = shortNames(m_controllerA->path(), m_controllerB->path());
    m_files->setText(
        QStringLiteral("<b>A</b> %1 &nbsp;⇄&nbsp; <b>B</b> %2").arg(nameA.toHtmlEscaped(), nameB.toHtmlEscaped()));
    m_files->setToolTip(QStringLiteral("A: %1\nB: %2").arg(m_controllerA->path(), m_controllerB->path()));
    QStringList lines;
    for (const std::string& line : m_diff->summaryLines())
        lines << QString::fromStdString(line).toHtmlEscaped();
    m_summary->setText(lines.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    QStringList notes;
    for (const std::string& note : m_diff->notes)
        notes << QString::fromStdString(note);
    if (m_diff->commonMethods.empty())
        notes << tr("The files have no method in common: each side shows its own, without marks.");
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());

    // The method first shown: the program's default method when both have it.
    const Method* preferred = m_controllerA->document()->program->defaultMethod();
    QString first;
    {
        const QSignalBlocker blocker(m_methodBox);
        m_methodBox->clear();
        for (const std::string& name : m_diff->commonMethods) {
            const QString text = QString::fromStdString(name);
            m_methodBox->addItem(text, text);
            if (preferred && preferred->name == name)
                first = text;
        }
        if (first.isEmpty() && m_methodBox->count() > 0)
            first = m_methodBox->itemData(0).toString();
        m_methodBox->setCurrentIndex(std::max(0, m_methodBox->findData(first)));
        m_methodBox->setEnabled(m_methodBox->count() > 1);
    }
    const std::string method = first.toStdString();
    m_expandPendingA = m_expandPendingB = true;
    m_viewA = makeView(Side::A, m_controllerA, first.isEmpty() ? -1 : methodIndex(Side::A, method));
    m_viewB = makeView(Side::B, m_controllerB, first.isEmpty() ? -1 : methodIndex(Side::B, method));
    m_stack->setCurrentIndex(1);
    setMethod(first);
    Q_EMIT ready();
}

const MethodDiff* CompareView::methodDiff() const
{
    if (!m_diff || m_method < 0)
        return nullptr;
    return &m_diff->methods[static_cast<std::size_t>(m_method)];
}

void CompareView::setMethod(const QString& name)
{
    if (!m_diff || !m_viewA || !m_viewB)
        return;
    m_method = -1;
    for (std::size_t m = 0; m < m_diff->methods.size(); ++m)
        if (m_diff->methods[m].inA && m_diff->methods[m].inB && m_diff->methods[m].name == name.toStdString())
            m_method = static_cast<int>(m);
    if (m_methodBox->currentText() != name && !name.isEmpty()) {
        const QSignalBlocker blocker(m_methodBox);
        m_methodBox->setCurrentIndex(m_methodBox->findData(name));
    }
    if (const MethodDiff* method = methodDiff()) {
        for (const Side side : { Side::A, Side::B }) {
            DocumentView* shown = view(side);
            const int index = methodIndex(side, method->name);
            if (index >= 0 && shown->context().method != index) {
                (side == Side::A ? m_expandPendingA : m_expandPendingB) = true;
                shown->setMethod(index);
            }
        }
    }
    refreshMethod();
}

void CompareView::refreshMethod()
{
    applyMarks(Side::A);
    applyMarks(Side::B);
    fillTables();
    updateHeaders();
}

void CompareView::applyMarks(Side side)
{
    const CompareMarks* prepared = m_method >= 0 ? m_prepared[static_cast<std::size_t>(m_method)].get() : nullptr;
    if (!prepared) {
        view(side)->scene()->setMarks({});
        return;
    }
    auto marks = side == Side::A ? prepared->marksA : prepared->marksB;
    // A long method is drawn in groups of instructions: a closed group holding differences says
    // how many, so they can be found without opening every group.
    const auto presentation = view(side)->presentation();
    if (presentation && presentation->grouping && presentation->context.method == view(side)->context().method) {
        std::map<int, int> counts;
        for (const auto& [key, mark] : marks)
            if (key.first >= 0)
                if (const int group = presentation->closedGroupOf(NodeId(key.first)); group >= 0)
                    ++counts[group];
        for (const auto& [group, count] : counts)
            marks[GraphScene::keyOf(NodeOrigin::ofGroup(group))] = NodeMark { kChanged, QString::number(count),
                tr("%n node(s) inside differ (open the group to see them)", nullptr, count) };
    }
    view(side)->scene()->setMarks(std::move(marks));
}

void CompareView::updateHeaders()
{
    for (const Side side : { Side::A, Side::B }) {
        DocumentController* controller = side == Side::A ? m_controllerA : m_controllerB;
        QLabel* header = side == Side::A ? m_headerA : m_headerB;
        const auto document = controller->document();
        const int method = view(side) ? view(side)->context().method : -1;
        if (!document || !document->program || method < 0)
            continue;
        const Method& shown = document->program->methods[static_cast<std::size_t>(method)];
        const auto names = shortNames(m_controllerA->path(), m_controllerB->path());
        header->setText(
            QStringLiteral("<b>%1</b> &nbsp;%2 &nbsp;<span style=\"color:gray\">%3 &nbsp;·&nbsp; %4: %5</span>")
                .arg(side == Side::A ? QLatin1String("A") : QLatin1String("B"),
                    (side == Side::A ? names.first : names.second).toHtmlEscaped(),
                    QString::fromStdString(formatBytes(document->program->file->size())),
                    QString::fromStdString(shown.name).toHtmlEscaped(),
                    tr("%n instruction(s)", nullptr, shown.instructionCounts().total())));
        header->setToolTip(controller->path());
    }
}

std::optional<NodeMark> CompareView::markFor(const NodeMatch& match, Side side, const QString& backend)
{
    const QString other = QString::fromStdString(side == Side::A ? match.labelB : match.labelA);
    const QString partner = other.isEmpty()
        ? QString()
        : tr("\n%1: %2").arg(side == Side::A ? QLatin1String("B") : QLatin1String("A"), other);
    const QString reason = QString::fromStdString(match.reason);
    if (match.movement != Movement::None)
        return NodeMark { backendColour(backend), QStringLiteral("→"), reason + partner };
    switch (match.status) {
    case MatchStatus::Same:
        return std::nullopt;
    case MatchStatus::Changed:
        return NodeMark { kChanged, QStringLiteral("Δ"), tr("changed: %1").arg(reason) + partner };
    case MatchStatus::OnlyInA:
        return NodeMark { kOnlyInA, QStringLiteral("−"), tr("only in A") };
    case MatchStatus::OnlyInB:
        return NodeMark { kOnlyInB, QStringLiteral("+"), tr("only in B") };
    }
    return std::nullopt;
}

bool CompareView::presentationHasGroups(Side side) const
{
    const auto presentation = view(side)->presentation();
    return presentation && presentation->grouping;
}

bool CompareView::expandWhenSmall(Side side)
{
    DocumentView* shown = view(side);
    const auto document = shown->controller()->document();
    const int method = shown->context().method;
    if (!document || !document->program || method < 0)
        return false;
    std::size_t delegates = 0, inner = 0;
    for (const Node& node : document->methods[static_cast<std::size_t>(method)].graph->nodes)
        if (node.kind == NodeKind::Delegate && node.subgraph) {
            ++delegates;
            inner += node.subgraph->nodes.size();
        }
    if (delegates == 0 || inner > kExpandInnerLimit)
        return false;
    shown->expandAll();
    return true;
}

void CompareView::fillTables()
{
    const MethodDiff* method = methodDiff();
    const CompareMarks* prepared = m_method >= 0 ? m_prepared[static_cast<std::size_t>(m_method)].get() : nullptr;
    Table sizes { tr("Sizes of %1").arg(title()).toStdString(), { "what", "A", "B", "change" }, {}, {} };
    if (m_diff) {
        for (const SizeDiff& size : m_diff->sizes)
            sizes.rows.push_back({ size.what + (size.isCount ? " (count)" : ""), static_cast<long long>(size.a),
                static_cast<long long>(size.b), static_cast<long long>(size.b) - static_cast<long long>(size.a) });
        for (const BackendDiff& backend : m_diff->backends) {
            sizes.rows.push_back({ backend.backend + " delegates (count)", static_cast<long long>(backend.countA),
                static_cast<long long>(backend.countB), static_cast<long long>(backend.countB - backend.countA) });
            sizes.rows.push_back({ backend.backend + " payload bytes", static_cast<long long>(backend.bytesA),
                static_cast<long long>(backend.bytesB),
                static_cast<long long>(backend.bytesB) - static_cast<long long>(backend.bytesA) });
        }
    }
    const int differing = method ? method->changed + method->onlyInA + method->onlyInB : 0;
    m_tables->setTabText(0, method ? tr("Nodes (%1 differ)").arg(differing) : tr("Nodes"));
    m_tables->setTabText(
        2, method ? tr("Moved (%1)").arg(method->movedIntoDelegates + method->movedOutOfDelegates) : tr("Moved"));
    m_nodesFilter->setSame(prepared ? &prepared->same : nullptr);
    m_nodesModel->setTable(prepared ? prepared->nodes : Table {});
    m_operatorsModel->setTable(prepared ? prepared->operators : Table {});
    m_movedModel->setTable(prepared ? prepared->moved : Table {});
    m_sizesModel->setTable(std::move(sizes));
    for (QTableView* table : { m_nodesView, m_operatorsView, m_movedView, m_sizesView })
        fitColumns(table);
}

std::optional<int> CompareView::matchOf(Side side, const NodeOrigin& origin) const
{
    const CompareMarks* prepared = m_method >= 0 ? m_prepared[static_cast<std::size_t>(m_method)].get() : nullptr;
    if (!prepared)
        return std::nullopt;
    const auto& byKey = side == Side::A ? prepared->byKeyA : prepared->byKeyB;
    const auto it = byKey.find(GraphScene::keyOf(origin));
    if (it == byKey.end())
        return std::nullopt;
    return it->second;
}

void CompareView::selectMatch(int index)
{
    const MethodDiff* method = methodDiff();
    if (!method || index < 0 || static_cast<std::size_t>(index) >= method->matches.size())
        return;
    const NodeMatch& match = method->matches[static_cast<std::size_t>(index)];
    for (const Side side : { Side::A, Side::B }) {
        const auto& ref = side == Side::A ? match.a : match.b;
        if (ref)
            view(side)->selectNode(originOf(*ref));
        else
            view(side)->scene()->selectNode(std::nullopt);
    }
    QString text = QStringLiteral("%1: %2 ⇄ %3")
                       .arg(QString::fromStdString(std::string(matchStatusName(match.status))),
                           match.labelA.empty() ? QStringLiteral("—") : QString::fromStdString(match.labelA),
                           match.labelB.empty() ? QStringLiteral("—") : QString::fromStdString(match.labelB));
    if (!match.reason.empty())
        text += QStringLiteral(" — ") + QString::fromStdString(match.reason);
    Q_EMIT statusMessage(text);
}

void CompareView::onNodeClicked(Side side, const NodeOrigin& origin)
{
    const auto index = matchOf(side, origin);
    if (!index) {
        // A group of a long method, or a constant drawn inside its reader: nothing to match.
        view(side == Side::A ? Side::B : Side::A)->scene()->selectNode(std::nullopt);
        return;
    }
    const NodeMatch& match = methodDiff()->matches[static_cast<std::size_t>(*index)];
    const Side other = side == Side::A ? Side::B : Side::A;
    if (const auto& partner = other == Side::A ? match.a : match.b)
        view(other)->selectNode(originOf(*partner));
    else
        view(other)->scene()->selectNode(std::nullopt);
    // The row of the match in the nodes table follows (a `same` one is listed only on demand).
    {
        const QSignalBlocker blocker(m_nodesView->selectionModel());
        // Rows are the matches in order; a `same` one is filtered out unless asked for.
        const QModelIndex shown
            = m_nodesProxy->mapFromSource(m_nodesFilter->mapFromSource(m_nodesModel->index(*index, 0)));
        if (!shown.isValid()) {
            m_nodesView->selectionModel()->clearCurrentIndex();
            m_nodesView->clearSelection();
        } else {
            m_nodesView->selectionModel()->setCurrentIndex(
                shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_nodesView->scrollTo(shown);
        }
    }
    QString text = QString::fromStdString(std::string(matchStatusName(match.status)));
    if (!match.reason.empty())
        text += QStringLiteral(": ") + QString::fromStdString(match.reason);
    const std::string& partnerLabel = other == Side::A ? match.labelA : match.labelB;
    if (!partnerLabel.empty())
        text += tr(" (%1: %2)")
                    .arg(other == Side::A ? QLatin1String("A") : QLatin1String("B"),
                        QString::fromStdString(partnerLabel));
    Q_EMIT statusMessage(text);
}

void CompareView::onNodeRowActivated(const QModelIndex& index)
{
    if (index.isValid())
        selectMatch(m_nodesFilter->mapToSource(m_nodesProxy->mapToSource(index)).row());
}

void CompareView::onOperatorRowActivated(const QModelIndex& index)
{
    const MethodDiff* method = methodDiff();
    if (!index.isValid() || !method)
        return;
    const int row = m_operatorsProxy->mapToSource(index).row();
    const QString opType = QString::fromStdString(method->operators[static_cast<std::size_t>(row)].opType);
    // Each side marks its nodes of the type (as its own operator table would) and shows the first.
    for (const Side side : { Side::A, Side::B }) {
        DocumentView* shown = view(side);
        const auto document = shown->controller()->document();
        const auto nodes = nodesOfType(
            *document->methods[static_cast<std::size_t>(shown->context().method)].graph, opType.toStdString());
        if (nodes.empty()) {
            shown->operatorPanel()->clearOpType();
            shown->scene()->selectNode(std::nullopt);
            continue;
        }
        shown->operatorPanel()->selectOpType(opType);
        shown->selectNode(nodes.front());
    }
    const OperatorDiffRow& r = method->operators[static_cast<std::size_t>(row)];
    Q_EMIT statusMessage(tr("%1: A %2, B %3 (the first of each selected, all marked)")
                             .arg(opType)
                             .arg(r.delegatedA + r.nonDelegatedA)
                             .arg(r.delegatedB + r.nonDelegatedB));
}

void CompareView::onMovedRowActivated(const QModelIndex& index)
{
    const MethodDiff* method = methodDiff();
    if (!index.isValid() || !method)
        return;
    const int row = m_movedProxy->mapToSource(index).row();
    const MovedOperators& moved = method->moved[static_cast<std::size_t>(row)];
    const auto token = [](const Node* node) {
        return !node ? std::string() : node->opType.empty() ? node->label : node->opType;
    };
    std::vector<int> found;
    for (int i = 0; i < static_cast<int>(method->matches.size()); ++i) {
        const NodeMatch& match = method->matches[static_cast<std::size_t>(i)];
        if (match.movement != moved.movement || !match.a || !match.b)
            continue;
        const bool into = moved.movement == Movement::IntoDelegate;
        const std::string from = token(nodeIn(graph(into ? Side::A : Side::B), into ? *match.a : *match.b));
        const std::string to = token(nodeIn(graph(into ? Side::B : Side::A), into ? *match.b : *match.a));
        if (from == moved.from && to == moved.to)
            found.push_back(i);
    }
    if (found.empty())
        return;
    if (m_movedRow != row)
        m_movedStep = -1;
    m_movedRow = row;
    m_movedStep = (m_movedStep + 1) % static_cast<int>(found.size());
    selectMatch(found[static_cast<std::size_t>(m_movedStep)]);
    Q_EMIT statusMessage(tr("%1 → %2: %3 of %4 (double-click the row for the next)")
                             .arg(QString::fromStdString(moved.from), QString::fromStdString(moved.to))
                             .arg(m_movedStep + 1)
                             .arg(found.size()));
}

const Graph* CompareView::graph(Side side) const
{
    const MethodDiff* method = methodDiff();
    const auto document = (side == Side::A ? m_controllerA : m_controllerB)->document();
    const int index = method ? methodIndex(side, method->name) : -1;
    return document && index >= 0 ? document->methods[static_cast<std::size_t>(index)].graph.get() : nullptr;
}

Table CompareView::currentTable() const
{
    const std::pair<ReportTableModel*, QSortFilterProxyModel*> tables[] = { { m_nodesModel, m_nodesProxy },
        { m_operatorsModel, m_operatorsProxy }, { m_movedModel, m_movedProxy }, { m_sizesModel, m_sizesProxy } };
    const auto [model, proxy] = tables[std::clamp(m_tables->currentIndex(), 0, 3)];
    const Table& all = model->table();
    Table table { all.title, all.columns, {}, all.notes };
    for (int row = 0; row < proxy->rowCount(); ++row) {
        QModelIndex index = proxy->mapToSource(proxy->index(row, 0));
        if (model == m_nodesModel)
            index = m_nodesFilter->mapToSource(index);
        table.rows.push_back(all.rows[static_cast<std::size_t>(index.row())]);
    }
    return table;
}

bool CompareView::exportDiff(const QString& path, TableFormat format, QString* error) const
{
    if (!m_diff) {
        if (error)
            *error = tr("Nothing compared yet");
        return false;
    }
    const std::string text
        = format == TableFormat::Json ? programDiffJson(*m_diff).dump(2) + "\n" : programDiffText(*m_diff, format);
    return succeeded(exportBytes(path, QByteArray::fromStdString(text)), error);
}

bool CompareView::exportTable(const QString& path, TableFormat format, QString* error) const
{
    return succeeded(exportTableFile(currentTable(), format, path), error);
}

void CompareView::exportInteractive(int what)
{
    if (!m_diff)
        return;
    if (what >= 5) {
        if (DocumentView* shown = view(what == 5 ? Side::A : Side::B))
            shown->exportImageInteractive();
        return;
    }
    const QString base = QFileInfo(m_controllerA->path()).completeBaseName() + QStringLiteral("-vs-")
        + QFileInfo(m_controllerB->path()).completeBaseName();
    QString saved;
    if (what < 3) {
        const TableFormat formats[] = { TableFormat::Markdown, TableFormat::Json, TableFormat::Text };
        const QString extensions[] = { QStringLiteral("md"), QStringLiteral("json"), QStringLiteral("txt") };
        const TableFormat format = formats[what];
        saved = saveWithDialog(this, tr("Export the diff"), base + QLatin1Char('.') + extensions[what],
            tr("Diff (*.%1)").arg(extensions[what]), [this, format](const QString& path) -> std::optional<QString> {
                QString error;
                return exportDiff(path, format, &error) ? std::nullopt : std::optional(error);
            });
    } else {
        const TableFormat format = what == 3 ? TableFormat::Csv : TableFormat::Json;
        const QString extension = what == 3 ? QStringLiteral("csv") : QStringLiteral("json");
        const QString tab = m_tables->tabText(m_tables->currentIndex()).section(QLatin1Char(' '), 0, 0).toLower();
        saved = saveWithDialog(this, tr("Export the table"),
            base + QLatin1Char('-') + tab + QLatin1Char('.') + extension, tr("Table (*.%1)").arg(extension),
            [this, format](const QString& path) { return exportTableFile(currentTable(), format, path); });
    }
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
