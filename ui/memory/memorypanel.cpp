// SPDX-License-Identifier: MIT
// The Memory tab. Why one file: one panel; its widgets, the plan computed off the UI thread, the
// table beside the chart, the links to the graph (node and tensors) and the export all read the
// plan entry of the method shown (current()).
#include "ui/memory/memorypanel.h"

#include "core/document/document.h"
#include "core/table/table.h"
#include "core/util/jsontext.h"
#include "core/util/text.h"
#include "ui/common/exports.h"
#include "ui/common/reporttablemodel.h"
#include "ui/document/whenfinished.h"
#include "ui/memory/memorychart.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kArenaColumn = 1; ///< of memoryTensorTable
constexpr int kChartShare = 700; ///< initial splitter sizes: chart | table
constexpr int kTableShare = 300;

QString grouped(std::uint64_t value)
{
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

QString bytesText(std::uint64_t bytes)
{
    return QObject::tr("%1 B").arg(grouped(bytes));
}

} // namespace

struct MemoryPanel::Computed {
    std::shared_ptr<const MemoryPlan> plan;
    Table table;
    qint64 milliseconds = 0;
};

MemoryPanel::Computed MemoryPanel::compute(const Document& document, int method)
{
    QElapsedTimer timer;
    timer.start();
    Computed computed;
    computed.plan = std::make_shared<const MemoryPlan>(
        computeMemoryPlan(document, document.program->methods[static_cast<std::size_t>(method)]));
    computed.table = memoryTensorTable(*computed.plan);
    computed.milliseconds = timer.elapsed();
    return computed;
}

MemoryPanel::MemoryPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryPanel"));
    m_arenas = new QComboBox(this);
    m_arenas->setObjectName(QStringLiteral("memoryArenas"));
    m_arenas->setToolTip(tr("The memory arena (mem_id) to show"));
    m_arenas->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_summary->setMinimumWidth(100);
    m_chart = new MemoryChart(this);

    // Tool buttons: the summary beside them needs the width.
    const auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        return b;
    };
    QToolButton* fit = button(tr("Fit"), tr("Show the whole arena (Ctrl+0 in the chart)"));
    QToolButton* zoomOut = button(tr("−"), tr("Zoom out (−, or Ctrl+wheel; Ctrl+Shift+wheel zooms the offsets only)"));
    QToolButton* zoomIn = button(tr("+"), tr("Zoom in (+, or Ctrl+wheel; Ctrl+Shift+wheel zooms the offsets only)"));
    m_tableToggle = new QToolButton(this);
    m_tableToggle->setObjectName(QStringLiteral("memoryTableToggle"));
    m_tableToggle->setText(tr("Table"));
    m_tableToggle->setCheckable(true);
    m_tableToggle->setChecked(true);
    m_tableToggle->setToolTip(tr("Show the planned tensors as a table beside the chart"));
    QToolButton* exportButton = button(tr("Export…"),
        tr("Save the chart (PNG, SVG), the tensors as the table shows them (CSV), the whole plan (JSON) or a Chrome "
           "trace for Perfetto (.trace.json)"));

    m_emptyModel = new ReportTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_emptyModel);
    m_proxy->setSortRole(ReportTableModel::SortRole);
    m_proxy->setFilterKeyColumn(kArenaColumn);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("memoryTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // by offset, as the plan lists them, until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);

    m_split = new QSplitter(Qt::Horizontal, this);
    m_split->addWidget(m_chart);
    m_split->addWidget(m_table);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 1);
    m_split->setChildrenCollapsible(false);
    m_split->setSizes({ kChartShare, kTableShare });

    connect(m_arenas, qOverload<int>(&QComboBox::currentIndexChanged), this, &MemoryPanel::setArena);
    connect(fit, &QToolButton::clicked, m_chart, &MemoryChart::fit);
    connect(zoomIn, &QToolButton::clicked, m_chart, [this] { m_chart->zoomBy(1.25); });
    connect(zoomOut, &QToolButton::clicked, m_chart, [this] { m_chart->zoomBy(1 / 1.25); });
    connect(m_tableToggle, &QToolButton::toggled, this, &MemoryPanel::setTableVisible);
    connect(exportButton, &QToolButton::clicked, this, &MemoryPanel::exportInteractive);
    connect(m_chart, &MemoryChart::tensorClicked, this, &MemoryPanel::onTensorClicked);
    connect(m_chart, &MemoryChart::stepClicked, this, [this](int step) {
        const MemoryPlan* plan = this->plan();
        if (!plan)
            return;
        const MemoryStep& s = plan->steps[static_cast<std::size_t>(step)];
        Q_EMIT statusMessage(tr("Step %1: %2").arg(step).arg(m_chart->stepText(step)));
        if (s.node.valid())
            Q_EMIT nodeRequested(NodeOrigin { s.node, NodeId::none() });
    });
    connect(m_summary, &QLabel::linkActivated, this, [this](const QString& link) {
        const MemoryPlan* plan = this->plan();
        const int step = link.toInt();
        if (plan && step >= 0 && static_cast<std::size_t>(step) < plan->steps.size()
            && plan->steps[static_cast<std::size_t>(step)].node.valid())
            Q_EMIT nodeRequested(NodeOrigin { plan->steps[static_cast<std::size_t>(step)].node, NodeId::none() });
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MemoryPanel::onRowSelected);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_arenas);
    bar->addWidget(m_summary, 1);
    bar->addWidget(fit);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(m_tableToggle);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_split, 1);
    showCurrent();
}

MemoryPanel::~MemoryPanel() = default;

QSize MemoryPanel::sizeHint() const
{
    // Tall enough that the analysis area opens at its largest share: the boxes need the height.
    return { 900, 420 };
}

void MemoryPanel::setMethod(std::shared_ptr<const Document> document, int method)
{
    if (document == m_document && method == m_method)
        return;
    if (document != m_document) {
        m_document = std::move(document);
        m_proxy->setSourceModel(m_emptyModel);
        for (auto& [method, entry] : m_plans)
            delete entry.model;
        m_plans.clear();
        ++m_generation;
        m_computing = -1;
    }
    if (method != m_method)
        m_pendingNode.reset();
    m_method = method;
    showCurrent();
    if (isVisible())
        computeInBackground();
}

const MemoryPanel::Entry* MemoryPanel::current() const
{
    const auto it = m_plans.find(m_method);
    return it == m_plans.end() ? nullptr : &it->second;
}

const MemoryPlan* MemoryPanel::plan() const
{
    const Entry* entry = current();
    return entry ? entry->plan.get() : nullptr;
}

qint64 MemoryPanel::computeMilliseconds() const
{
    const Entry* entry = current();
    return entry ? entry->milliseconds : -1;
}

bool MemoryPanel::ensureComputed()
{
    if (current())
        return true;
    if (!m_document || !m_document->program || m_method < 0
        || static_cast<std::size_t>(m_method) >= m_document->program->methods.size())
        return false;
    install(m_method, compute(*m_document, m_method));
    return true;
}

void MemoryPanel::computeInBackground()
{
    if (current() || m_computing >= 0 || !m_document || !m_document->program || m_method < 0
        || static_cast<std::size_t>(m_method) >= m_document->program->methods.size())
        return;
    m_computing = m_method;
    m_chart->setEmptyText(tr("Computing the memory plan…"));
    updateSummary();
    whenFinished(
        this, QtConcurrent::run([document = m_document, method = m_method] { return compute(*document, method); }),
        [this, generation = m_generation, method = m_method](Computed computed) {
            if (generation != m_generation)
                return;
            m_computing = -1;
            if (!m_plans.count(method))
                install(method, std::move(computed));
            else if (method == m_method)
                showCurrent(); // computed meanwhile by ensureComputed: drop "Computing…"
            // The method changed while this one was computed.
            if (isVisible())
                computeInBackground();
        },
        [this, generation = m_generation](const QString& message) {
            if (generation != m_generation)
                return;
            m_computing = -1;
            m_chart->setEmptyText(tr("The memory plan failed: %1").arg(message));
            updateSummary();
        });
}

void MemoryPanel::install(int method, Computed result)
{
    Entry entry { std::move(result.plan), result.milliseconds, new ReportTableModel(this), {} };
    // Filled before any view sees it: cheap.
    entry.model->setTable(std::move(result.table));
    // memoryTensorTable's rows: arena by arena, each by offset.
    for (const MemoryArena& arena : entry.plan->arenas)
        entry.rowTensor.insert(entry.rowTensor.end(), arena.tensors.begin(), arena.tensors.end());
    m_plans[method] = std::move(entry);
    if (method != m_method)
        return;
    showCurrent();
    Q_EMIT computed();
}

void MemoryPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    computeInBackground();
}

void MemoryPanel::showCurrent()
{
    const Entry* entry = current();
    const MemoryPlan* plan = entry ? entry->plan.get() : nullptr;
    {
        const QSignalBlocker blocker(m_arenas);
        m_arenas->clear();
        if (plan)
            for (const MemoryArena& arena : plan->arenas)
                m_arenas->addItem(
                    tr("arena %1 (%n tensor(s))", nullptr, static_cast<int>(arena.tensors.size())).arg(arena.id));
        m_arenas->setVisible(m_arenas->count() > 1);
    }
    // The first arena that holds tensors.
    int first = 0;
    if (plan)
        for (std::size_t a = 0; a < plan->arenas.size(); ++a)
            if (!plan->arenas[a].tensors.empty()) {
                first = static_cast<int>(a);
                break;
            }
    // Filtered to the arena shown before the rows come in: filtering 100,000 rows twice shows.
    filterTable(plan && first < static_cast<int>(plan->arenas.size()) ? &plan->arenas[static_cast<std::size_t>(first)]
                                                                      : nullptr);
    ReportTableModel* model = entry ? entry->model : m_emptyModel;
    if (m_proxy->sourceModel() != model)
        m_proxy->setSourceModel(model);
    m_table->setColumnHidden(kArenaColumn, true); // the table shows the chart's arena only
    m_chart->setPlan(entry ? entry->plan : nullptr, first);
    {
        const QSignalBlocker blocker(m_arenas);
        m_arenas->setCurrentIndex(first);
    }
    setArena(first);
}

void MemoryPanel::setArena(int index)
{
    const MemoryPlan* plan = this->plan();
    if (m_arenas->currentIndex() != index) {
        const QSignalBlocker blocker(m_arenas);
        m_arenas->setCurrentIndex(index);
    }
    if (plan && m_chart->arenaIndex() != index)
        m_chart->setPlan(current()->plan, index);
    filterTable(m_chart->arena());
    if (plan && m_pendingNode)
        m_chart->setMarked(tensorsOf(*m_pendingNode));
    QString empty;
    if (m_computing == m_method && m_method >= 0)
        empty = tr("Computing the memory plan…");
    else if (plan && std::none_of(plan->arenas.begin(), plan->arenas.end(), [](const MemoryArena& arena) {
                 return !arena.tensors.empty();
             }))
        empty = tr("Method '%1' has no memory plan: it places no tensor in a memory arena")
                    .arg(QString::fromStdString(plan->method));
    else if (!plan)
        empty = m_document && m_document->program ? tr("The memory plan is computed when this tab is shown")
                                                  : tr("No program: no memory plan");
    m_chart->setEmptyText(empty);
    updateSummary();
}

void MemoryPanel::filterTable(const MemoryArena* arena)
{
    // One arena (nearly every program): no filter to run over every row.
    const MemoryPlan* plan = this->plan();
    const QRegularExpression filter = arena && plan && plan->arenas.size() > 1
        ? QRegularExpression(QStringLiteral("^%1$").arg(arena->id))
        : QRegularExpression();
    if (m_proxy->filterRegularExpression().pattern() != filter.pattern())
        m_proxy->setFilterRegularExpression(filter);
}

void MemoryPanel::updateSummary()
{
    const MemoryPlan* plan = this->plan();
    const MemoryArena* arena = m_chart->arena();
    if (!plan || !arena || arena->tensors.empty()) {
        m_summary->setText(m_computing == m_method && m_method >= 0 ? tr("Computing the memory plan…") : QString());
        return;
    }
    QStringList parts;
    parts << (arena->declaredSize
            ? tr("declared %1")
                  .arg(bytesText(static_cast<std::uint64_t>(std::max<std::int64_t>(0, *arena->declaredSize))))
            : tr("<b>not declared by the method</b>"));
    if (arena->peakStep >= 0) {
        const MemoryStep& step = plan->steps[static_cast<std::size_t>(arena->peakStep)];
        const QString where = m_chart->stepText(arena->peakStep).toHtmlEscaped();
        parts << tr("peak live %1 at step %2 (%3)")
                     .arg(bytesText(arena->peakLiveBytes))
                     .arg(arena->peakStep)
                     .arg(step.node.valid() ? QStringLiteral("<a href=\"%1\">%2</a>").arg(arena->peakStep).arg(where)
                                            : where);
    }
    parts << tr("fragmentation %1%").arg(arena->fragmentation * 100, 0, 'f', 1);
    parts << tr("%n tensor(s)", nullptr, static_cast<int>(arena->tensors.size()));
    QString text = parts.join(QStringLiteral(" · "));
    QString tip = tr("Arena %1: declared %2, highest end %3, peak of live bytes %4; fragmentation is the share of the "
                     "used extent (up to the highest end) idle even at the peak")
                      .arg(arena->id)
                      .arg(arena->declaredSize ? QString::fromStdString(
                               formatBytes(static_cast<std::uint64_t>(std::max<std::int64_t>(0, *arena->declaredSize))))
                                               : tr("nothing"),
                          QString::fromStdString(formatBytes(arena->highestEnd)),
                          QString::fromStdString(formatBytes(arena->peakLiveBytes)));
    if (!plan->warnings.empty()) {
        QStringList warnings;
        for (const Warning& warning : plan->warnings)
            warnings << QString::fromStdString(warning.message);
        text += QStringLiteral(" · <span style=\"color:#b45309\">⚠ %1</span>")
                    .arg(tr("%n warning(s)", nullptr, static_cast<int>(plan->warnings.size())));
        tip += QStringLiteral("\n\n") + warnings.join(QLatin1Char('\n'));
    }
    m_summary->setText(text);
    m_summary->setToolTip(tip);
}

void MemoryPanel::setTableVisible(bool visible)
{
    m_table->setVisible(visible);
    if (m_tableToggle->isChecked() != visible) {
        const QSignalBlocker blocker(m_tableToggle);
        m_tableToggle->setChecked(visible);
    }
}

std::optional<NodeOrigin> MemoryPanel::nodeOf(std::size_t tensor) const
{
    const MemoryPlan* plan = this->plan();
    if (!plan || tensor >= plan->tensors.size() || !m_document || m_method < 0
        || static_cast<std::size_t>(m_method) >= m_document->methods.size())
        return std::nullopt;
    const PlannedTensor& t = plan->tensors[tensor];
    if (t.producer.valid())
        return NodeOrigin { t.producer, NodeId::none() };
    const Graph* graph = m_document->methods[static_cast<std::size_t>(m_method)].graph.get();
    if (!graph)
        return std::nullopt;
    for (const Node& node : graph->nodes)
        if ((node.kind == NodeKind::Input || node.kind == NodeKind::State || node.kind == NodeKind::View)
            && node.value == t.value)
            return NodeOrigin { node.id, NodeId::none() };
    return std::nullopt;
}

std::vector<std::pair<std::size_t, bool>> MemoryPanel::tensorsOf(const NodeOrigin& origin) const
{
    std::vector<std::pair<std::size_t, bool>> found;
    const MemoryPlan* plan = this->plan();
    if (!plan || !m_document || !m_document->program || origin.group() >= 0 || !origin.top.valid() || m_method < 0
        || static_cast<std::size_t>(m_method) >= m_document->methods.size())
        return found;
    const Graph* graph = m_document->methods[static_cast<std::size_t>(m_method)].graph.get();
    if (!graph || origin.top.index() >= graph->nodes.size())
        return found;
    // A node inside a delegate counts as its delegate call: the tensors live at the top level.
    const Node& node = graph->node(origin.top);
    std::map<std::size_t, bool> tensors;
    const auto add = [&](std::int32_t value, bool written) {
        if (const PlannedTensor* t = plan->tensor(ValueIndex(value)))
            tensors[static_cast<std::size_t>(t - plan->tensors.data())] |= written;
    };
    switch (node.kind) {
    case NodeKind::Operator:
    case NodeKind::Delegate:
        for (const auto& [value, meta] : node.writes)
            add(value, true);
        for (const std::int32_t value : node.args)
            add(value, false);
        break;
    case NodeKind::Move:
    case NodeKind::Free: {
        const Method& method = m_document->program->methods[static_cast<std::size_t>(m_method)];
        if (node.chain >= 0 && static_cast<std::size_t>(node.chain) < method.chains.size() && node.instruction.valid()
            && node.instruction.index() < method.chains[static_cast<std::size_t>(node.chain)].instructions.size()) {
            const Instruction& instruction
                = method.chains[static_cast<std::size_t>(node.chain)].instructions[node.instruction.index()];
            if (node.kind == NodeKind::Move) {
                add(instruction.moveFrom, false);
                add(instruction.moveTo, true);
            } else {
                add(instruction.freedValue, false);
            }
        }
        break;
    }
    case NodeKind::Input:
    case NodeKind::State:
        add(node.value.value, true);
        break;
    case NodeKind::Output:
    case NodeKind::View:
        add(node.value.value, false);
        break;
    default:
        break;
    }
    for (std::size_t i = 0; i < plan->tensors.size(); ++i)
        if (plan->tensors[i].producer == origin.top)
            tensors[i] = true;
    for (const auto& [tensor, written] : tensors)
        if (plan->tensors[tensor].firstStep >= 0)
            found.emplace_back(tensor, written);
    return found;
}

int MemoryPanel::showNode(const NodeOrigin& origin)
{
    m_pendingNode = origin;
    if (!plan())
        return 0;
    const auto marked = tensorsOf(origin);
    const MemoryArena* arena = m_chart->arena();
    const auto inArena = [&](std::size_t i) { return arena && plan()->tensors[i].arena == arena->id; };
    if (!marked.empty()
        && std::none_of(marked.begin(), marked.end(), [&](const auto& m) { return inArena(m.first); })) {
        // All in another arena: show that one.
        for (std::size_t a = 0; a < plan()->arenas.size(); ++a)
            if (plan()->arenas[a].id == plan()->tensors[marked.front().first].arena)
                setArena(static_cast<int>(a));
        arena = m_chart->arena();
    }
    m_chart->setMarked(marked);
    // Scroll only when none of them is in view (a click on a box keeps the chart where it is).
    const QRect view = m_chart->viewport()->rect();
    bool seen = false;
    for (const auto& [i, written] : marked)
        seen = seen || (inArena(i) && view.intersects(m_chart->tensorRect(i).toAlignedRect()));
    for (const auto& [i, written] : marked)
        if (!seen && inArena(i)) {
            m_chart->scrollTo(i);
            break;
        }
    return static_cast<int>(marked.size());
}

void MemoryPanel::selectTensor(std::size_t tensor)
{
    const MemoryPlan* plan = this->plan();
    if (!plan || tensor >= plan->tensors.size())
        return;
    const MemoryArena* arena = m_chart->arena();
    if (!arena || arena->id != plan->tensors[tensor].arena)
        for (std::size_t a = 0; a < plan->arenas.size(); ++a)
            if (plan->arenas[a].id == plan->tensors[tensor].arena)
                setArena(static_cast<int>(a));
    m_chart->setSelected(tensor);
    m_chart->scrollTo(tensor);
    const auto& rows = current()->rowTensor;
    const auto row = std::find(rows.begin(), rows.end(), tensor);
    if (row == rows.end())
        return;
    const QModelIndex index = m_proxy->mapFromSource(current()->model->index(static_cast<int>(row - rows.begin()), 0));
    m_syncing = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    m_syncing = false;
}

void MemoryPanel::onTensorClicked(std::size_t tensor)
{
    selectTensor(tensor);
    Q_EMIT statusMessage(m_chart->describe(tensor).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    if (const auto node = nodeOf(tensor))
        Q_EMIT nodeRequested(*node);
}

void MemoryPanel::onRowSelected()
{
    if (m_syncing)
        return;
    const QModelIndex index = m_proxy->mapToSource(m_table->selectionModel()->currentIndex());
    const Entry* entry = current();
    if (!entry || !index.isValid() || static_cast<std::size_t>(index.row()) >= entry->rowTensor.size())
        return;
    const std::size_t tensor = entry->rowTensor[static_cast<std::size_t>(index.row())];
    m_chart->setSelected(tensor);
    m_chart->scrollTo(tensor);
    Q_EMIT statusMessage(m_chart->describe(tensor).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    if (const auto node = nodeOf(tensor))
        Q_EMIT nodeRequested(*node);
}

Table MemoryPanel::visibleTable() const
{
    // What the table shows: the arena's rows in the order they are sorted.
    const Table& all = current() ? current()->model->table() : m_emptyModel->table();
    Table table;
    table.title = all.title;
    table.columns = all.columns;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        table.rows.push_back(all.rows[static_cast<std::size_t>(m_proxy->mapToSource(m_proxy->index(row, 0)).row())]);
    return table;
}

QString MemoryPanel::baseName() const
{
    const MemoryPlan* plan = this->plan();
    QString name = m_document ? QFileInfo(QString::fromStdString(m_document->path)).completeBaseName() : QString();
    if (plan)
        name += QLatin1Char('-') + QString::fromStdString(plan->method);
    if (const MemoryArena* arena = m_chart->arena(); arena && plan && plan->arenas.size() > 1)
        name += QStringLiteral("-arena%1").arg(arena->id);
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    return name + QStringLiteral("-memory");
}

bool MemoryPanel::exportTo(const QString& path, QString* error)
{
    if (!ensureComputed()) {
        if (error)
            *error = tr("No memory plan to export");
        return false;
    }
    const MemoryPlan& plan = *this->plan();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (path.endsWith(QLatin1String(".trace.json"), Qt::CaseInsensitive)) {
        std::string trace;
        const ChromeTraceStats stats
            = writeMemoryPlanChromeTrace(plan, [&](std::string_view piece) { trace += piece; });
        if (stats.truncated)
            Q_EMIT statusMessage(tr("The trace stops after %1 tensor events").arg(grouped(stats.events)));
        return succeeded(exportBytes(path, QByteArray::fromStdString(trace)), error);
    }
    if (suffix == QLatin1String("json"))
        return succeeded(exportBytes(path, QByteArray::fromStdString(jsonText(memoryPlanJson(plan), 2) + "\n")), error);
    if (suffix == QLatin1String("csv"))
        return succeeded(exportTableFile(visibleTable(), TableFormat::Csv, path), error);
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        if (error)
            *error = tr("Export the memory plan as .png, .svg, .csv, .json or .trace.json");
        return false;
    }
    if (!m_chart->arena()) {
        if (error)
            *error = tr("Method '%1' plans no tensor in a memory arena").arg(QString::fromStdString(plan.method));
        return false;
    }
    // The chart under a caption naming the file, the method and the summary.
    const MemoryChart::Frame frame = m_chart->picture();
    const int captionHeight = fontMetrics().height() + 10;
    const QSize size(frame.size.width(), frame.size.height() + captionHeight);
    QString caption = QStringLiteral("%1 — method '%2' — %3")
                          .arg(m_document ? QFileInfo(QString::fromStdString(m_document->path)).fileName() : QString(),
                              QString::fromStdString(plan.method), m_summary->text());
    caption.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return succeeded(exportPainting(path, size, caption,
                         [&](QPainter& painter) {
                             painter.fillRect(QRect(0, 0, size.width(), captionHeight), Qt::white);
                             painter.setPen(QColor(0x1f, 0x23, 0x28));
                             painter.drawText(QRect(6, 0, size.width() - 12, captionHeight),
                                 Qt::AlignVCenter | Qt::AlignLeft, caption);
                             painter.translate(0, captionHeight);
                             m_chart->paintChart(painter, frame);
                         }),
        error);
}

void MemoryPanel::exportInteractive()
{
    if (!ensureComputed())
        return;
    const QString saved = saveWithDialog(this, tr("Export memory plan"), baseName() + QStringLiteral(".png"),
        tr("PNG picture (*.png);;SVG picture (*.svg);;Tensors as CSV (*.csv);;Plan as JSON (*.json);;Chrome trace "
           "for Perfetto (*.trace.json)"),
        [this](const QString& path) -> std::optional<QString> {
            QString error;
            if (exportTo(path, &error))
                return std::nullopt;
            return error;
        });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
