// SPDX-License-Identifier: MIT
#include "ui/load/loadcheckpanel.h"

#include "core/document/document.h"
#include "core/graph/grouping.h"
#include "core/util/jsontext.h"
#include "ui/common/elidedelegate.h"
#include "ui/common/exports.h"
#include "ui/common/nodestyle.h"
#include "ui/common/reporttablemodel.h"
#include "ui/document/timings.h"
#include "ui/document/whenfinished.h"
#include "ui/graph/graphscene.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr std::size_t kShownSites = 12;
constexpr int kNameColumn = 0;
constexpr int kCallsColumn = 1;
constexpr int kMethodsColumn = 2;
constexpr int kStatusColumn = 3;
constexpr double kNameShare = 0.65; ///< of the table's width at most, for the name column
constexpr int kKindColumn = 4; ///< exported, not shown: the status says it
constexpr int kInstructionsColumn = 5; ///< exported, shown in the name's tooltip

QString listLabel(const KernelList& list)
{
    return list.builtin ? QString::fromStdString(list.name) : QFileInfo(QString::fromStdString(list.name)).fileName();
}

std::string siteText(const CallSite& call)
{
    const std::string index = std::to_string(call.instruction.value);
    return call.chain == 0 ? index : std::to_string(call.chain) + ":" + index;
}

std::string backendStatus(const BackendNeed& need)
{
    switch (need.status) {
    case BackendNeed::Status::Linked:
        return "linked (" + need.linkedBy + ")";
    case BackendNeed::Status::NotLinked:
        return "NOT linked: no list registers it";
    case BackendNeed::Status::Unverified:
        break;
    }
    return "needs backend " + need.backendId + " linked" + (need.known ? "" : " (unknown backend id)");
}

/// One row over every method: an operator's (or a backend's) calls and the methods calling it.
struct Aggregate {
    std::string status;
    bool problem = false;
    long long calls = 0;
    std::vector<std::string> methods;
    std::vector<std::string> sites; ///< the first kShownSites + 1 only (an LLM calls some 10,000 times)
    std::size_t siteCount = 0;
};

void addCalls(Aggregate& row, const std::string& method, const std::vector<CallSite>& calls, bool manyMethods)
{
    row.calls += static_cast<long long>(calls.size());
    row.methods.push_back(method);
    for (const CallSite& call : calls) {
        if (row.sites.size() <= kShownSites)
            row.sites.push_back(manyMethods ? method + " " + siteText(call) : siteText(call));
        ++row.siteCount;
    }
}

std::string joined(const std::vector<std::string>& items, std::size_t limit, std::size_t total = 0)
{
    total = std::max(total, items.size());
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < limit; ++i)
        text += (i ? ", " : "") + items[i];
    if (total > limit)
        text += ", … (" + std::to_string(total - limit) + " more)";
    return text;
}

} // namespace

/// A word-wrapped label that asks for the height of all its lines: a tab page's layout gives a
/// wrapped label only one line once its text changes (height-for-width is lost on the way).
class WrappedLabel final : public QLabel {
public:
    explicit WrappedLabel(QWidget* parent)
        : QLabel(parent)
    {
        setWordWrap(true);
        setTextFormat(Qt::PlainText);
        setAlignment(Qt::AlignLeft | Qt::AlignTop);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    void setWrappedText(const QString& text)
    {
        setText(text);
        fit();
    }
    /// As tall as its lines at its width (fit() keeps the minimum there); QLabel's own hint is a
    /// taller, narrower box that the layout would honour.
    QSize sizeHint() const override
    {
        return { QLabel::sizeHint().width(), std::max(minimumHeight(), fontMetrics().height()) };
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        fit();
    }

private:
    void fit()
    {
        // Measured here: QLabel::heightForWidth never answers less than the minimum height.
        const QMargins margins = contentsMargins();
        const int available = std::max(width() - margins.left() - margins.right() - 2 * margin(), 1);
        const int lines = text().isEmpty()
            ? 0
            : fontMetrics().boundingRect(QRect(0, 0, available, 1 << 20), Qt::TextWordWrap, text()).height();
        const int height = lines + margins.top() + margins.bottom() + 2 * margin();
        if (height != minimumHeight())
            setMinimumHeight(height);
    }
};

/// The table's rows with the operators and backends that stop a load in the attention colour.
class LoadCheckProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    std::vector<bool> problems; ///< per source row

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role == Qt::ToolTipRole && index.column() == kNameColumn) {
            const QModelIndex source = mapToSource(index);
            const QString sites = sourceModel()->index(source.row(), kInstructionsColumn).data().toString();
            return tr("%1\ncalled at instruction(s) %2").arg(source.data().toString(), sites);
        }
        if (role == Qt::ForegroundRole && (index.column() == kNameColumn || index.column() == kStatusColumn)) {
            const int row = mapToSource(index).row();
            if (row >= 0 && static_cast<std::size_t>(row) < problems.size() && problems[static_cast<std::size_t>(row)])
                return attentionColour();
        }
        return QSortFilterProxyModel::data(index, role);
    }
};

LoadCheckPanel::LoadCheckPanel(QWidget* parent)
    : QWidget(parent)
    , m_verdict(new WrappedLabel(this))
    , m_answer(new WrappedLabel(this))
    , m_hint(new WrappedLabel(this))
    , m_preset(new QComboBox(this))
    , m_builtinRow(new QHBoxLayout)
    , m_fileRow(new QVBoxLayout)
    , m_problems(new WrappedLabel(this))
    , m_filter(new QLineEdit(this))
    , m_model(new ReportTableModel(this))
    , m_proxy(new LoadCheckProxy(this))
    , m_view(new QTableView(this))
    , m_share(new WrappedLabel(this))
    , m_matchStatus(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
{
    setObjectName(QStringLiteral("loadCheckPanel"));
    m_verdict->setObjectName(QStringLiteral("loadVerdict"));
    m_answer->setObjectName(QStringLiteral("loadAnswer"));
    QFont bold = m_answer->font();
    bold.setBold(true);
    m_answer->setFont(bold);
    m_answer->hide();
    m_hint->setObjectName(QStringLiteral("loadHint"));
    m_hint->hide();
    m_problems->setObjectName(QStringLiteral("loadProblems"));
    m_problems->hide();
    buildListControls();

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ReportTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setObjectName(QStringLiteral("loadFilter"));
    m_filter->setPlaceholderText(tr("Filter operators and backends…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_view->setObjectName(QStringLiteral("loadTable"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // missing first, as built, until a header is clicked
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(22);
    // Set per column once the table has them (showCheck).
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight); // a status reads from its start
    // quantize_per_tensor.out and dequantize_per_tensor.out must not both read "quantized_d…tensor.out".
    m_view->setItemDelegateForColumn(kNameColumn, new DistinctNameDelegate(m_view));
    m_view->viewport()->installEventFilter(this);
    m_share->setObjectName(QStringLiteral("loadShare"));

    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (m_quiet || !current.isValid())
                return;
            onRowActivated(m_proxy->mapToSource(current).row(), false);
        });
    // Clicking the selected row again goes on to its next node.
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        const int row = m_proxy->mapToSource(index).row();
        if (row == m_activeRow && m_view->property("rowBeforePress").toInt() == row)
            walk(+1);
        else if (row != m_activeRow)
            onRowActivated(row, false);
    });

    m_previous->setText(tr("◀ Previous"));
    m_previous->setToolTip(tr("Previous node of the selected operator"));
    m_next->setText(tr("Next ▶"));
    m_next->setToolTip(tr("Next node of the selected operator (or click its row again)"));
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    connect(m_previous, &QToolButton::clicked, this, [this] { walk(-1); });
    connect(m_next, &QToolButton::clicked, this, [this] { walk(+1); });
    auto* exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("loadExport"));
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Table as CSV…"), this, [this] { exportInteractive(0); });
    exportMenu->addAction(tr("Table as JSON…"), this, [this] { exportInteractive(1); });
    exportMenu->addAction(tr("Check report as JSON (etscope check)…"), this, [this] { exportInteractive(2); });
    exportButton->setMenu(exportMenu);

    auto* walkRow = new QHBoxLayout;
    walkRow->addWidget(m_matchStatus, 1);
    walkRow->addWidget(m_previous);
    walkRow->addWidget(m_next);
    walkRow->addWidget(exportButton);
    auto* listsTitle = new QLabel(tr("Kernel lists the runtime links:"), this);
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(listsTitle);
    presetRow->addStretch(1);
    presetRow->addWidget(new QLabel(tr("Runtime:"), this));
    presetRow->addWidget(m_preset);
    // Everything sits in a scroll area: the wrapped verdict, the list boxes and the table need
    // about 570 px together, and as a minimum that kept the window from being 700 px tall.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_verdict);
    layout->addWidget(m_answer);
    layout->addWidget(m_hint);
    layout->addSpacing(6);
    layout->addLayout(presetRow);
    layout->addLayout(m_builtinRow);
    layout->addLayout(m_fileRow);
    layout->addWidget(m_problems);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_share);
    layout->addLayout(walkRow);

    connect(&KernelListChoice::instance(), &KernelListChoice::changed, this, [this] {
        syncListControls();
        startCheck();
    });
    syncListControls();
    m_verdict->setWrappedText(tr("Open a program to check whether it loads."));
}

LoadCheckPanel::~LoadCheckPanel() = default;

void LoadCheckPanel::buildListControls()
{
    // The presets: the kernel libraries ExecuTorch's own runners link (core/analysis/kernellists.cpp).
    m_preset->setObjectName(QStringLiteral("kernelPreset"));
    m_preset->addItem(tr("Custom"), QString());
    m_preset->setItemData(0, tr("The lists ticked below"), Qt::ToolTipRole);
    for (const RuntimePreset& preset : runtimePresets()) {
        QStringList lists;
        for (const std::string_view name : preset.lists)
            lists << QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
        const QString name = QString::fromLatin1(preset.name.data(), static_cast<qsizetype>(preset.name.size()));
        m_preset->addItem(QString::fromUtf8(preset.title.data(), static_cast<qsizetype>(preset.title.size())), name);
        QString tip = tr("%1: %2\nFrom %3")
                          .arg(name, lists.join(QStringLiteral(" + ")),
                              QString::fromUtf8(preset.source.data(), static_cast<qsizetype>(preset.source.size())));
        if (!preset.note.empty())
            tip += QLatin1Char('\n')
                + QString::fromUtf8(preset.note.data(), static_cast<qsizetype>(preset.note.size()));
        m_preset->setItemData(m_preset->count() - 1, tip, Qt::ToolTipRole);
    }
    m_preset->setToolTip(tr("Tick the kernel lists one of ExecuTorch's runners links"));
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString name = m_preset->itemData(index).toString();
        const RuntimePreset* preset = findRuntimePreset(name.toStdString());
        if (!preset)
            return;
        QStringList lists;
        for (const std::string_view list : preset->lists)
            lists << QString::fromLatin1(list.data(), static_cast<qsizetype>(list.size()));
        KernelListChoice::instance().setBuiltins(lists);
    });
    m_builtinRow->setSpacing(10);
    for (const std::string_view name : builtinKernelListNames()) {
        const QString text = QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
        auto* box = new QCheckBox(text, this);
        box->setObjectName(QStringLiteral("kernels_") + text);
        const auto list = builtinKernelList(name);
        QString tip = list ? QString::fromStdString(list->origin) : QString();
        if (list)
            tip = tr("%n operator(s) from %1", nullptr, static_cast<int>(list->operators.size())).arg(tip);
        if (name == "prim") {
            box->setChecked(true);
            box->setEnabled(false);
            tip += tr("\nAlways on: the runtime registers the prim ops itself.");
        }
        box->setToolTip(tip);
        connect(box, &QCheckBox::toggled, this, [text](bool on) { KernelListChoice::instance().setBuiltin(text, on); });
        m_builtinRow->addWidget(box);
        m_builtinBoxes.push_back(box);
    }
    m_builtinRow->addStretch(1);
    auto* add = new QPushButton(tr("Add list file…"), this);
    add->setObjectName(QStringLiteral("addKernelList"));
    add->setToolTip(tr("A selected_operators.yaml of a selective build, a functions.yaml, or a plain list of operator "
                       "names (also what a runtime prints: _get_operator_names(), operator_registry log lines, "
                       "registered backend names)"));
    connect(add, &QPushButton::clicked, this, &LoadCheckPanel::addFileInteractive);
    m_fileRow->setSpacing(2);
    m_fileRow->addWidget(add, 0, Qt::AlignLeft);
}

void LoadCheckPanel::syncListControls()
{
    const KernelListChoice& choice = KernelListChoice::instance();
    {
        const QSignalBlocker blocker(m_preset);
        m_preset->setCurrentIndex(std::max(0, m_preset->findData(choice.preset())));
    }
    for (QCheckBox* box : m_builtinBoxes) {
        if (box->text() == QLatin1String("prim"))
            continue;
        const QSignalBlocker blocker(box);
        box->setChecked(choice.builtins().contains(box->text()));
    }
    // One box per file, after the Add button; unchecked files stay offered for the session.
    // The change may come from one of these boxes (toggled → setFileEnabled → changed): while
    // the files are the same, the boxes stay and only follow; new boxes replace old ones only
    // after the event that changed them (deleteLater), never under the sender's feet.
    if (choice.files() == m_fileBoxPaths) {
        for (std::size_t i = 0; i < m_fileBoxes.size(); ++i) {
            const QSignalBlocker blocker(m_fileBoxes[i]);
            m_fileBoxes[i]->setChecked(choice.fileEnabled(m_fileBoxPaths[static_cast<qsizetype>(i)]));
        }
        return;
    }
    for (QCheckBox* box : m_fileBoxes) {
        box->hide();
        box->setParent(nullptr); // out of the row and of findChildren now, freed after the event
        box->deleteLater();
    }
    m_fileBoxes.clear();
    m_fileBoxPaths = choice.files();
    for (const QString& path : choice.files()) {
        auto* box = new QCheckBox(QFileInfo(path).fileName(), this);
        box->setObjectName(QStringLiteral("kernelFile"));
        box->setChecked(choice.fileEnabled(path));
        box->setToolTip(tr("%1\nRight-click to remove it").arg(path));
        box->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(
            box, &QCheckBox::toggled, this, [path](bool on) { KernelListChoice::instance().setFileEnabled(path, on); });
        connect(box, &QWidget::customContextMenuRequested, this, [this, box, path](const QPoint& position) {
            QMenu menu(this);
            menu.addAction(tr("Remove %1").arg(QFileInfo(path).fileName()), this,
                [path] { KernelListChoice::instance().removeFile(path); });
            menu.exec(box->mapToGlobal(position));
        });
        m_fileRow->addWidget(box);
        m_fileBoxes.push_back(box);
    }
}

void LoadCheckPanel::setDocument(std::shared_ptr<const Document> document, const GraphContext& context)
{
    const bool newDocument = document != m_document;
    const bool newMethod = !(context == m_context);
    m_document = std::move(document);
    m_context = context;
    if (newDocument) {
        m_check.reset();
        m_grouping.reset();
        startCheck();
    } else if (newMethod) {
        refreshMethod();
    }
}

void LoadCheckPanel::setPresentation(const std::shared_ptr<const Presentation>& presentation)
{
    if (!presentation || presentation->document != m_document || !(presentation->context == m_context))
        return;
    if (presentation->grouping != m_grouping) {
        m_grouping = presentation->grouping;
        updateMarks();
    }
    // A new layout drew new items: the selected operator's nodes are highlighted again.
    if (m_activeRow >= 0)
        highlightActive();
}

void LoadCheckPanel::startCheck()
{
    const auto lists = KernelListChoice::instance().lists();
    if (!m_document || !m_document->program
        || (m_document->kind != FileKind::Program && m_document->kind != FileKind::BundledProgram)) {
        m_check.reset();
        m_answer->hide();
        m_hint->hide();
        m_verdict->setWrappedText(m_document ? tr("The load check reads programs (.pte, .bpte); this file is a %1.")
                                                   .arg(QString::fromLatin1(fileKindName(m_document->kind).data()))
                                             : tr("Open a program to check whether it loads."));
        showCheck();
        return;
    }
    const quint64 generation = ++m_generation;
    m_running = true;
    m_answer->hide();
    m_hint->hide();
    m_verdict->setWrappedText(tr("Checking every operator against %1…").arg(listsText()));
    whenFinished(
        this, QtConcurrent::run([document = m_document, lists] {
            QElapsedTimer timer;
            timer.start();
            auto check = std::make_shared<const KernelCheck>(checkKernels(*document, *lists));
            return std::pair(check, timings::millisecondsSince(timer));
        }),
        [this, generation, lists](std::pair<std::shared_ptr<const KernelCheck>, double> result) {
            if (generation != m_generation)
                return;
            m_running = false;
            timings::report("kernel-check", result.second);
            m_check = std::move(result.first);
            m_checkedLists = lists;
            showCheck();
            Q_EMIT checked();
        },
        [this, generation](const QString& message) {
            if (generation != m_generation)
                return;
            m_running = false;
            m_verdict->setWrappedText(tr("The check failed: %1").arg(message));
        });
}

QString LoadCheckPanel::listsText() const
{
    const auto lists = m_checkedLists && !m_running ? m_checkedLists : KernelListChoice::instance().lists();
    QStringList names;
    for (const KernelList& list : lists->lists)
        names << listLabel(list);
    return names.join(QStringLiteral(" + "));
}

LoadCheckPanel::Verdict LoadCheckPanel::verdict() const
{
    Verdict v;
    if (!m_check)
        return v;
    int missingOps = 0;
    int missingCalls = 0;
    int kernelCalls = 0;
    QStringList failing;
    QStringList unverified;
    QStringList notLinked;
    for (const MethodKernelCheck& m : m_check->methods) {
        kernelCalls += m.kernelCalls;
        missingCalls += m.missingCalls;
        for (const OperatorKernel& op : m.operators)
            missingOps += op.missing() ? 1 : 0;
        if (!m.loads())
            failing << QString::fromStdString(m.method);
        for (const BackendNeed& need : m.backends) {
            const QString id = QString::fromStdString(need.backendId);
            QStringList& into = need.status == BackendNeed::Status::NotLinked ? notLinked : unverified;
            if (need.status != BackendNeed::Status::Linked && !into.contains(id))
                into << id;
        }
    }
    unverified.sort();
    notLinked.sort();
    v.lead = tr("Will load on a runtime with %1 kernels:").arg(listsText());
    if (!m_check->loads()) {
        QStringList why;
        if (missingOps > 0)
            why << tr("%n operator(s) have no kernel", nullptr, missingOps)
                    + tr(" (%1 of %n call(s))", nullptr, kernelCalls).arg(missingCalls);
        if (!notLinked.empty())
            why << tr("backend %1 not linked").arg(notLinked.join(QStringLiteral(", ")));
        v.answer = tr("no");
        v.detail = why.join(QStringLiteral("; "));
        if (m_check->methods.size() > 1)
            v.detail += tr(", in method(s) %1").arg(failing.join(QStringLiteral(", ")));
        v.problem = true;
        return v;
    }
    v.answer = unverified.empty() ? tr("yes")
                                  : tr("yes, if the runtime links %1").arg(unverified.join(QStringLiteral(", ")));
    v.detail = tr("every operator has a kernel (%n call(s))", nullptr, kernelCalls);
    return v;
}

QString LoadCheckPanel::hintText() const
{
    if (!m_check || !m_checkedLists)
        return {};
    return QString::fromStdString(missingKernelHintText(missingKernelHint(*m_check, *m_checkedLists), false));
}

QString LoadCheckPanel::verdictText() const
{
    const Verdict v = verdict();
    return v.answer.isEmpty() ? QString() : QStringLiteral("%1 %2 — %3").arg(v.lead, v.answer, v.detail);
}

void LoadCheckPanel::showCheck()
{
    m_rows.clear();
    Table table;
    table.columns = { "name", "calls", "methods", "status", "kind", "instructions" };
    if (m_check) {
        const Verdict v = verdict();
        m_verdict->setWrappedText(v.lead);
        // The answer on its own line, bold; a problem in the attention colour, a yes in the text's.
        m_answer->setStyleSheet(v.problem ? QStringLiteral("color: %1").arg(attentionColour().name()) : QString());
        m_answer->setWrappedText(QStringLiteral("%1 — %2").arg(v.answer, v.detail));
        m_answer->show();
        const QString hint = hintText();
        m_hint->setWrappedText(hint);
        m_hint->setVisible(!hint.isEmpty());
        const bool many = m_check->methods.size() > 1;
        std::map<std::string, Aggregate> operators;
        std::map<std::string, Aggregate> backends;
        for (const MethodKernelCheck& m : m_check->methods) {
            for (const OperatorKernel& op : m.operators) {
                Aggregate& row = operators[op.name];
                row.problem = op.missing();
                row.status = op.missing() ? "missing"
                                          : "resolved by " + listLabel(*m_checkedLists->resolve(op.name)).toStdString();
                addCalls(row, m.method, op.calls, many);
            }
            for (const BackendNeed& need : m.backends) {
                Aggregate& row = backends[need.backendId];
                row.problem = row.problem || need.status == BackendNeed::Status::NotLinked;
                row.status = backendStatus(need);
                addCalls(row, m.method, need.calls, many);
            }
        }
        const auto add = [&](const std::string& name, const Aggregate& row, bool backend) {
            table.rows.push_back({ name, row.calls, joined(row.methods, 6), row.status,
                std::string(backend ? "backend" : "operator"), joined(row.sites, kShownSites, row.siteCount) });
            m_rows.push_back({ backend, name, row.problem });
        };
        // What stops the load first, then what resolves, then the backends the delegates need.
        for (const auto& [name, row] : operators)
            if (row.problem)
                add(name, row, false);
        for (const auto& [name, row] : operators)
            if (!row.problem)
                add(name, row, false);
        for (const auto& [name, row] : backends)
            add(name, row, true);
        for (std::string& line : m_check->combinedTable().shareLines())
            table.notes.push_back(std::move(line));
    }
    QStringList notes;
    for (const std::string& line : table.notes)
        notes << QString::fromStdString(line);
    m_share->setWrappedText(notes.join(QLatin1Char('\n')));
    m_share->setVisible(!notes.isEmpty());

    QStringList problems = KernelListChoice::instance().problems();
    if (m_check)
        for (const Warning& warning : m_check->warnings)
            problems << QString::fromStdString(warning.message);
    m_problems->setWrappedText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());

    // Clear only this panel's own highlight: an op type picked in the operator table stays lit
    // when a (background) check finishes or the kernel lists change.
    const bool hadActiveRow = m_activeRow >= 0;
    m_activeRow = -1;
    m_matches.clear();
    m_matchIndex = -1;
    m_matchStatus->clear();
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    {
        const QSignalBlocker blocker(m_view->selectionModel());
        m_proxy->problems.clear();
        for (const Row& row : m_rows)
            m_proxy->problems.push_back(row.problem);
        m_model->setTable(std::move(table));
    }
    if (m_model->columnCount() > kInstructionsColumn) {
        // The side pane is narrow: the name first (up to kNameShare), the status takes the rest.
        QHeaderView* header = m_view->horizontalHeader();
        header->setSectionResizeMode(kNameColumn, QHeaderView::Interactive);
        for (const int column : { kCallsColumn, kMethodsColumn })
            header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(kStatusColumn, QHeaderView::Stretch);
        m_view->hideColumn(kKindColumn);
        m_view->hideColumn(kInstructionsColumn);
        // One method: the column would say its name on every row.
        m_view->setColumnHidden(kMethodsColumn, !m_check || m_check->methods.size() < 2);
        fitNameColumn();
    }
    if (hadActiveRow)
        Q_EMIT highlightRequested({});
    refreshMethod();
}

void LoadCheckPanel::refreshMethod()
{
    m_nodeAt.clear();
    if (m_document && m_document->program && m_context.method >= 0
        && static_cast<std::size_t>(m_context.method) < m_document->methods.size()) {
        const Graph& graph = *m_document->methods[static_cast<std::size_t>(m_context.method)].graph;
        const Method& method = m_document->program->methods[static_cast<std::size_t>(m_context.method)];
        m_nodeAt.resize(method.chains.size());
        for (std::size_t c = 0; c < method.chains.size(); ++c)
            m_nodeAt[c].assign(method.chains[c].instructions.size(), NodeId::none());
        for (const Node& node : graph.nodes)
            if ((node.kind == NodeKind::Operator || node.kind == NodeKind::Delegate) && node.instruction.valid()
                && node.chain >= 0 && static_cast<std::size_t>(node.chain) < m_nodeAt.size()
                && node.instruction.index() < m_nodeAt[static_cast<std::size_t>(node.chain)].size())
                m_nodeAt[static_cast<std::size_t>(node.chain)][node.instruction.index()] = node.id;
    }
    if (m_activeRow >= 0) {
        m_matches = nodesOfSourceRow(m_activeRow);
        m_matchIndex = -1;
        m_matchStatus->setText(tr("%n node(s)", nullptr, static_cast<int>(m_matches.size())));
    }
    updateMarks();
}

void LoadCheckPanel::updateMarks()
{
    m_marks.clear();
    const MethodKernelCheck* method = nullptr;
    if (m_check && m_document && m_context.method >= 0 && !m_context.delegateNode.valid()
        && static_cast<std::size_t>(m_context.method) < m_document->methods.size())
        method = m_check->method(m_document->program->methods[static_cast<std::size_t>(m_context.method)].name);
    if (method && method->missingCalls > 0) {
        const Graph& graph = *m_document->methods[static_cast<std::size_t>(m_context.method)].graph;
        const QString lists = listsText();
        const QColor colour = problemColour();
        std::map<int, int> perGroup;
        // One mark per operator, shared by its nodes (a program without its kernel library has
        // tens of thousands).
        std::map<std::string_view, NodeMark> byOperator;
        for (const NodeId id : missingKernelNodes(graph, *method)) {
            const Node& node = graph.node(id);
            auto it = byOperator.find(node.opType);
            if (it == byOperator.end())
                it = byOperator
                         .emplace(node.opType,
                             NodeMark { colour, QStringLiteral("✕"),
                                 tr("No kernel for %1 in %2").arg(QString::fromStdString(node.opType), lists) })
                         .first;
            m_marks.emplace_hint(m_marks.end(), GraphScene::keyOf({ id, NodeId::none() }), it->second);
            if (m_grouping)
                if (const int group = m_grouping->groupOfNode(id); group >= 0)
                    ++perGroup[group];
        }
        // A closed group shows how many of its operators have no kernel.
        for (const auto& [group, count] : perGroup)
            m_marks[GraphScene::keyOf(NodeOrigin::ofGroup(group))]
                = NodeMark { colour, QStringLiteral("✕ %1").arg(count),
                      tr("%n operator call(s) inside have no kernel in %1", nullptr, count).arg(lists) };
    }
    emitMarks();
}

void LoadCheckPanel::emitMarks()
{
    // No temporary copy: a program without its kernel library has tens of thousands of marks.
    static const std::map<std::pair<int, int>, NodeMark> none;
    Q_EMIT marksChanged(m_marksVisible ? m_marks : none);
}

void LoadCheckPanel::setMarksVisible(bool visible)
{
    if (visible == m_marksVisible)
        return;
    m_marksVisible = visible;
    emitMarks();
}

std::vector<NodeOrigin> LoadCheckPanel::nodesOfSourceRow(int sourceRow) const
{
    std::vector<NodeOrigin> nodes;
    if (!m_check || !m_document || sourceRow < 0 || static_cast<std::size_t>(sourceRow) >= m_rows.size()
        || m_context.method < 0 || m_context.delegateNode.valid())
        return nodes;
    const MethodKernelCheck* method
        = m_check->method(m_document->program->methods[static_cast<std::size_t>(m_context.method)].name);
    if (!method)
        return nodes;
    const Row& row = m_rows[static_cast<std::size_t>(sourceRow)];
    const std::vector<CallSite>* calls = nullptr;
    if (row.backend) {
        for (const BackendNeed& need : method->backends)
            if (need.backendId == row.name)
                calls = &need.calls;
    } else {
        for (const OperatorKernel& op : method->operators)
            if (op.name == row.name)
                calls = &op.calls;
    }
    if (!calls)
        return nodes;
    for (const CallSite& call : *calls)
        if (call.chain >= 0 && static_cast<std::size_t>(call.chain) < m_nodeAt.size()
            && call.instruction.index() < m_nodeAt[static_cast<std::size_t>(call.chain)].size())
            if (const NodeId id = m_nodeAt[static_cast<std::size_t>(call.chain)][call.instruction.index()]; id.valid())
                nodes.push_back({ id, NodeId::none() });
    return nodes;
}

std::vector<NodeOrigin> LoadCheckPanel::nodesOfRow(int row) const
{
    return nodesOfSourceRow(m_proxy->mapToSource(m_proxy->index(row, 0)).row());
}

int LoadCheckPanel::rowOf(const QString& name) const
{
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        if (m_proxy->index(row, kNameColumn).data().toString() == name)
            return row;
    return -1;
}

void LoadCheckPanel::onRowActivated(int sourceRow, bool advance)
{
    m_activeRow = sourceRow;
    m_matches = nodesOfSourceRow(sourceRow);
    m_matchIndex = -1;
    m_previous->setEnabled(!m_matches.empty());
    m_next->setEnabled(!m_matches.empty());
    highlightActive();
    if (m_matches.empty()) {
        const Row& row = m_rows[static_cast<std::size_t>(sourceRow)];
        m_matchStatus->setText(m_context.delegateNode.valid() ? tr("Open the method's graph to find its nodes")
                                                              : tr("Not called in this method"));
        Q_EMIT statusMessage(tr("%1 is not called in this method").arg(QString::fromStdString(row.name)));
        return;
    }
    m_matchStatus->setText(tr("%n node(s)", nullptr, static_cast<int>(m_matches.size())));
    if (!advance)
        walk(+1);
}

void LoadCheckPanel::highlightActive()
{
    std::set<std::pair<int, int>> keys;
    for (const NodeOrigin& origin : m_matches) {
        keys.insert(GraphScene::keyOf(origin));
        // Inside a closed group the group's box stands for it (an open group draws the node).
        if (m_grouping)
            if (const int group = m_grouping->groupOfNode(origin.top); group >= 0)
                keys.insert(GraphScene::keyOf(NodeOrigin::ofGroup(group)));
    }
    Q_EMIT highlightRequested(keys);
}

void LoadCheckPanel::clearActive()
{
    m_activeRow = -1;
    m_matches.clear();
    m_matchIndex = -1;
    m_matchStatus->clear();
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    const QSignalBlocker blocker(m_view->selectionModel());
    m_view->selectionModel()->clearCurrentIndex();
    m_view->clearSelection();
}

void LoadCheckPanel::walk(int step)
{
    if (m_matches.empty())
        return;
    const int count = static_cast<int>(m_matches.size());
    m_matchIndex = m_matchIndex < 0 ? (step > 0 ? 0 : count - 1) : (m_matchIndex + step + count) % count;
    m_matchStatus->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(count));
    Q_EMIT nodeRequested(m_matches[static_cast<std::size_t>(m_matchIndex)]);
}

void LoadCheckPanel::showNode(const NodeOrigin& origin)
{
    if (!m_check || !m_document || origin.group() >= 0 || !origin.top.valid() || m_context.method < 0)
        return;
    const auto method = static_cast<std::size_t>(m_context.method);
    const Graph& graph = *m_document->methods[method].graph;
    if (origin.top.index() >= graph.nodes.size())
        return;
    const Node& node = graph.node(origin.top);
    std::string name;
    bool backend = false;
    if (node.kind == NodeKind::Delegate && node.delegate.valid()
        && node.delegate.index() < m_document->program->methods[method].delegates.size()) {
        name = m_document->program->methods[method].delegates[node.delegate.index()].backendId;
        backend = true;
    } else if (node.kind == NodeKind::Operator && !origin.inner.valid()) {
        if (const MethodKernelCheck* check = m_check->method(m_document->program->methods[method].name))
            if (const OperatorKernel* op = check->operatorAt(node.chain, node.instruction))
                name = op->name;
    }
    int sourceRow = -1;
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].backend == backend && m_rows[r].name == name && !name.empty())
            sourceRow = static_cast<int>(r);
    if (sourceRow < 0)
        return;
    const QModelIndex shown = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (sourceRow != m_activeRow) {
        // Another operator's highlight would now mislead.
        if (m_activeRow >= 0)
            Q_EMIT highlightRequested({});
        m_activeRow = sourceRow;
        m_matches = nodesOfSourceRow(sourceRow);
        m_previous->setEnabled(!m_matches.empty());
        m_next->setEnabled(!m_matches.empty());
        if (shown.isValid()) {
            const QSignalBlocker blocker(m_view->selectionModel());
            m_view->selectionModel()->setCurrentIndex(
                shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_view->scrollTo(shown);
        }
    }
    const NodeOrigin top { origin.top, NodeId::none() };
    const auto it = std::find(m_matches.begin(), m_matches.end(), top);
    if (it != m_matches.end()) {
        m_matchIndex = static_cast<int>(it - m_matches.begin());
        m_matchStatus->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(m_matches.size()));
    }
}

void LoadCheckPanel::fitNameColumn()
{
    if (m_model->columnCount() <= kNameColumn)
        return;
    const int wanted = static_cast<const QAbstractItemView*>(m_view)->sizeHintForColumn(kNameColumn)
        + m_view->fontMetrics().averageCharWidth();
    m_view->setColumnWidth(kNameColumn, std::min(wanted, static_cast<int>(m_view->viewport()->width() * kNameShare)));
}

bool LoadCheckPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fitNameColumn();
    if (watched == m_view->viewport() && event->type() == QEvent::MouseButtonPress)
        m_view->setProperty("rowBeforePress", m_activeRow);
    return QWidget::eventFilter(watched, event);
}

Table LoadCheckPanel::visibleTable() const
{
    Table table;
    const Table& source = m_model->table();
    table.title = m_document
        ? "Will it load: " + QFileInfo(QString::fromStdString(m_document->path)).fileName().toStdString() + " with "
            + listsText().toStdString()
        : std::string();
    table.columns = source.columns;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        table.rows.push_back(source.rows[static_cast<std::size_t>(m_proxy->mapToSource(m_proxy->index(row, 0)).row())]);
    table.notes.push_back(verdictText().toStdString());
    table.notes.insert(table.notes.end(), source.notes.begin(), source.notes.end());
    return table;
}

bool LoadCheckPanel::exportTable(const QString& path, TableFormat format, QString* error) const
{
    if (!m_check)
        return succeeded(tr("No check to export yet"), error);
    return succeeded(exportTableFile(visibleTable(), format, path), error);
}

bool LoadCheckPanel::exportReport(const QString& path, QString* error) const
{
    if (!m_check)
        return succeeded(tr("No check to export yet"), error);
    return succeeded(
        exportBytes(path, QByteArray::fromStdString(jsonText(kernelCheckJson(*m_check, *m_checkedLists), 2) + "\n")),
        error);
}

void LoadCheckPanel::addFileInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add a kernel list"), QString(), tr("Kernel lists (*.yaml *.yml *.txt *.log);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const auto failure = KernelListChoice::instance().addFile(path)) {
        m_problems->setWrappedText(*failure);
        m_problems->show();
        Q_EMIT statusMessage(*failure);
    }
}

void LoadCheckPanel::exportInteractive(int kind)
{
    if (!m_check || !m_document)
        return;
    const QString base = QFileInfo(QString::fromStdString(m_document->path)).completeBaseName();
    QString saved;
    if (kind == 2)
        saved = saveWithDialog(this, tr("Export check report"), base + QStringLiteral("-check.json"),
            tr("JSON (*.json)"), [this](const QString& path) -> std::optional<QString> {
                QString error;
                return exportReport(path, &error) ? std::nullopt : std::optional(error);
            });
    else {
        const TableFormat format = kind == 0 ? TableFormat::Csv : TableFormat::Json;
        const QString extension = QString::fromLatin1(tableFormatExtension(format).data());
        saved = saveWithDialog(this, tr("Export load check table"), base + QStringLiteral("-load.") + extension,
            tr("Table (*.%1)").arg(extension), [this, format](const QString& path) -> std::optional<QString> {
                QString error;
                return exportTable(path, format, &error) ? std::nullopt : std::optional(error);
            });
    }
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui

#include "loadcheckpanel.moc"
