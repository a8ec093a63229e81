// SPDX-License-Identifier: MIT
// File › Compare…. Why one file: one widget whose parts (the summary, the two embedded
// DocumentViews, their marks, the selection of a match on both sides) follow one diff and one
// method; the tables under the graphs are in comparetables.cpp.
#include "ui/compare/compareview.h"

#include "core/util/text.h"
#include "ui/common/nodestyle.h"
#include "ui/compare/comparemarks.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/whenfinished.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/window/documentview.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

namespace etscope::ui {

using namespace etscope::core;

namespace {

/// Both sides are expanded at first when their decoded delegates hold at most this many
/// nodes in all: the moved operators are then in view (a large model stays collapsed).
constexpr std::size_t kExpandInnerLimit = 300;
constexpr int kGraphsHeight = 600; ///< initial split: the graphs over the tables
constexpr int kTablesHeight = 220;
constexpr int kDialogPathWidth = 520;

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
    QHBoxLayout* top = buildTopBar(page);
    QLabel* legend = buildSummary(page);
    QSplitter* graphs = buildSides(page);
    buildTables(page);

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

QHBoxLayout* CompareView::buildTopBar(QWidget* page)
{
    m_files = new QLabel(page);
    m_files->setTextFormat(Qt::RichText);
    m_files->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_methodBox = new QComboBox(page);
    m_methodBox->setObjectName(QStringLiteral("compareMethod"));
    m_methodBox->setToolTip(tr("The method compared (methods both files have); both graphs follow"));
    m_methodBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_methodBox, qOverload<int>(&QComboBox::currentIndexChanged), this,
        [this](int index) { setMethod(m_methodBox->itemData(index).toString()); });
    QPushButton* exportButton = buildExportButton(page);

    auto* top = new QHBoxLayout;
    top->addWidget(m_files, 1);
    top->addWidget(new QLabel(tr("Method"), page));
    top->addWidget(m_methodBox);
    top->addWidget(exportButton);
    return top;
}

QPushButton* CompareView::buildExportButton(QWidget* page)
{
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
    return exportButton;
}

QLabel* CompareView::buildSummary(QWidget* page)
{
    m_summary = new QLabel(page);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes = new QLabel(page);
    m_notes->setObjectName(QStringLiteral("compareNotes"));
    // One line, clipped at the window's edge (the tooltip has every note in full).
    m_notes->setWordWrap(false);
    m_notes->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* legend = new QLabel(page);
    legend->setText(QStringList { chip(compareColour(MatchStatus::Changed), QStringLiteral("Δ"), tr("changed")),
        chip(compareColour(MatchStatus::OnlyInA), QStringLiteral("−"), tr("only in A")),
        chip(compareColour(MatchStatus::OnlyInB), QStringLiteral("+"), tr("only in B")),
        chip(compareColour(MatchStatus::Unverified), QStringLiteral("?"),
            tr("names equal, contents not comparable (Delegate facts)")),
        chip(backendColour(QStringLiteral("XnnpackBackend")), QStringLiteral("→"),
            tr("moved into or out of a delegate (its backend's colour)")),
        tr("no mark: the same") }
                        .join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));
    legend->setToolTip(tr("Hover a node for the reason; select a node to select its match on the other side"));
    return legend;
}

QSplitter* CompareView::buildSides(QWidget* page)
{
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
    return graphs;
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
    whenFinished(
        this, QtConcurrent::run([a, b, where] {
            Prepared done;
            QElapsedTimer timer;
            timer.start();
            DiffOptions options;
            options.delegateFacts = true; // the Delegate facts tab
            auto diff = diffPrograms(*a, *b, options);
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
                done.methods.push_back(method.inA && method.inB ? std::make_shared<const CompareMarks>(
                                           prepareCompareMarks(method, graphOf(*a), graphOf(*b), where))
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
        },
        [this, generation](const QString& message) {
            if (generation == m_generation)
                showFailure(tr("The comparison failed: %1").arg(message));
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
    // One line, whatever the number of methods only one file has: a note per method (with the
    // file's full path) made the header grow by a line each, beyond the screen for two LLMs.
    // The full notes are in the tooltip.
    QStringList notes;
    QStringList all;
    for (const std::string& note : m_diff->notes) {
        all << QString::fromStdString(note);
        if (note.rfind("method '", 0) != 0)
            notes << QString::fromStdString(note);
    }
    const auto methodList = [](const std::vector<std::string>& names) {
        QStringList list;
        for (const std::string& name : names)
            list << QString::fromStdString(name);
        return list.join(QStringLiteral(", "));
    };
    QStringList only;
    if (!m_diff->methodsOnlyInA.empty())
        only << tr("%n method(s) only in A: %1", nullptr, static_cast<int>(m_diff->methodsOnlyInA.size()))
                    .arg(methodList(m_diff->methodsOnlyInA));
    if (!m_diff->methodsOnlyInB.empty())
        only << tr("%n method(s) only in B: %1", nullptr, static_cast<int>(m_diff->methodsOnlyInB.size()))
                    .arg(methodList(m_diff->methodsOnlyInB));
    if (!only.isEmpty())
        notes.prepend(only.join(QStringLiteral("; ")) + tr(" (not compared)"));
    if (m_diff->commonMethods.empty())
        notes << tr("The files have no method in common: each side shows its own, without marks.");
    m_notes->setText(notes.join(QStringLiteral(" · ")));
    m_notes->setToolTip(all.join(QLatin1Char('\n')));
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
        view(side)->scene()->setMarks(GraphScene::MarkLayer::Compare, {});
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
            marks[GraphScene::keyOf(NodeOrigin::ofGroup(group))] = NodeMark { compareColour(MatchStatus::Changed),
                QString::number(count), tr("%n node(s) inside differ (open the group to see them)", nullptr, count) };
    }
    view(side)->scene()->setMarks(GraphScene::MarkLayer::Compare, std::move(marks));
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
            view(side)->selectNode(diffOrigin(*ref));
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
        view(other)->selectNode(diffOrigin(*partner));
    else
        view(other)->scene()->selectNode(std::nullopt);
    // The row of the match in the nodes table follows (a `same` one is listed only on demand).
    {
        const QSignalBlocker blocker(m_nodesView->selectionModel());
        // Rows are the matches in order; a `same` one is filtered out unless asked for.
        const QModelIndex shown = nodeRowOf(*index);
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

const Graph* CompareView::graph(Side side) const
{
    const MethodDiff* method = methodDiff();
    const auto document = (side == Side::A ? m_controllerA : m_controllerB)->document();
    const int index = method ? methodIndex(side, method->name) : -1;
    return document && index >= 0 ? document->methods[static_cast<std::size_t>(index)].graph.get() : nullptr;
}

} // namespace etscope::ui
