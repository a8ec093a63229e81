// SPDX-License-Identifier: MIT
#include "ui/operators/operatorpanel.h"

#include "ui/common/elidedelegate.h"
#include "ui/operators/operatortablemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace etscope::ui {

OperatorPanel::OperatorPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new OperatorTableModel(this))
    , m_proxy(new OperatorTableProxy(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_source(new QComboBox(this))
    , m_matches(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_debounce(new QTimer(this))
{
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OperatorTableModel::OpType, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    // "NPU Conv2D" and "NPU Depthwise" must not both become "NPU …" in a narrow pane.
    m_view->setItemDelegateForColumn(OperatorTableModel::OpType, new DistinctNameDelegate(m_view));
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(22);
    m_view->horizontalHeader()->setSectionResizeMode(OperatorTableModel::OpType, QHeaderView::Stretch);
    // Not ResizeToContents: that reserves the sort arrow's room in every title (fitCountColumns).
    m_view->horizontalHeader()->setSectionResizeMode(OperatorTableModel::Delegated, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(OperatorTableModel::NonDelegated, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(OperatorTableModel::Macs, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(OperatorTableModel::Bytes, QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(OperatorTableModel::Why, QHeaderView::Interactive);
    // The cost and why columns come with the node facts (setFacts), after the first paint.
    for (const int column : { OperatorTableModel::Macs, OperatorTableModel::Bytes, OperatorTableModel::Why })
        m_view->setColumnHidden(column, true);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    connect(m_view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, &OperatorPanel::fitCountColumns);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setObjectName(QStringLiteral("operatorTable"));

    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setObjectName(QStringLiteral("operatorSummary"));
    // The share lines name backends and can be long: they wrap rather than widen the side pane.
    m_summary->setWordWrap(true);
    m_filter->setPlaceholderText(tr("Filter op types…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("operatorFilter"));
    m_previous->setText(tr("◀ Previous"));
    m_previous->setToolTip(tr("Previous node of the selected op type (Shift+F3)"));
    m_previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    m_next->setText(tr("Next ▶"));
    m_next->setToolTip(tr("Next node of the selected op type (F3)"));
    m_next->setShortcut(QKeySequence(Qt::Key_F3));
    m_previous->setEnabled(false);
    m_next->setEnabled(false);

    auto* walk = new QHBoxLayout();
    walk->addWidget(m_matches, 1);
    walk->addWidget(m_previous);
    walk->addWidget(m_next);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_source->addItems({ tr("Counted from the program"), tr("Counted from the ETRecord (get_delegation_info)") });
    m_source->setObjectName(QStringLiteral("operatorSource"));
    m_source->hide();
    layout->addWidget(m_source);
    layout->addWidget(m_summary);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addLayout(walk);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_filter, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] {
        // Filtering must not move the selection to another op type (that would highlight
        // unrelated nodes): the selected row stays selected while visible, else none is.
        const QString selected = m_view->currentIndex().data(OperatorTableModel::OpTypeRole).toString();
        {
            const QSignalBlocker blocker(m_view->selectionModel());
            m_proxy->setFilterFixedString(m_filter->text());
            m_view->selectionModel()->clearCurrentIndex();
            m_view->clearSelection();
        }
        const QModelIndexList kept = selected.isEmpty()
            ? QModelIndexList()
            : m_proxy->match(m_proxy->index(0, 0), OperatorTableModel::OpTypeRole, selected, 1, Qt::MatchExactly);
        if (!kept.isEmpty())
            m_view->setCurrentIndex(kept.front());
        else if (!selected.isEmpty()) {
            m_previous->setEnabled(false);
            m_next->setEnabled(false);
            Q_EMIT opTypeSelected(QString());
        }
    });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            const QString opType = current.data(OperatorTableModel::OpTypeRole).toString();
            m_previous->setEnabled(!opType.isEmpty());
            m_next->setEnabled(!opType.isEmpty());
            Q_EMIT opTypeSelected(opType);
        });
    connect(m_source, qOverload<int>(&QComboBox::currentIndexChanged), this,
        [this](int index) { setTable(index == 1 && m_etrecordTable ? *m_etrecordTable : m_programTable); });
    connect(m_previous, &QToolButton::clicked, this, &OperatorPanel::previousRequested);
    connect(m_next, &QToolButton::clicked, this, &OperatorPanel::nextRequested);
    connect(m_view, &QWidget::customContextMenuRequested, this, &OperatorPanel::showContextMenu);
}

void OperatorPanel::setTable(const core::OperatorTable& table)
{
    m_model->setTable(table);
    QStringList lines;
    for (const std::string& line : table.summaryLines())
        lines << QString::fromStdString(line);
    if (table.opaqueSubgraphs > 0)
        lines << tr("%n subgraph(s) not decodable: their nodes are not counted", nullptr, table.opaqueSubgraphs);
    for (const std::string& line : table.shareLines())
        lines << QString::fromStdString(line);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_matches->clear();
    fitCountColumns();
}

void OperatorPanel::fitCountColumns()
{
    // As QHeaderView measures a title (bold: a selected row highlights it), with the sort
    // arrow's room only in the sorted column.
    QHeaderView* header = m_view->horizontalHeader();
    QFont bold = header->font();
    bold.setBold(true);
    QStyleOptionHeader option;
    option.initFrom(header);
    option.fontMetrics = QFontMetrics(bold);
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, &option, header);
    for (const int column : { OperatorTableModel::Delegated, OperatorTableModel::NonDelegated, OperatorTableModel::Macs,
             OperatorTableModel::Bytes }) {
        option.section = column;
        option.text = m_proxy->headerData(column, Qt::Horizontal).toString();
        QSize title = header->style()->sizeFromContents(QStyle::CT_HeaderSection, &option, QSize(), header);
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() == column)
            title.rwidth() += title.height() + margin;
        header->resizeSection(
            column, std::max(static_cast<const QAbstractItemView*>(m_view)->sizeHintForColumn(column), title.width()));
    }
}

void OperatorPanel::setTables(const core::OperatorTable& program, const std::optional<core::OperatorTable>& etrecord)
{
    m_programTable = program;
    m_etrecordTable = etrecord;
    m_source->setVisible(etrecord.has_value());
    const QSignalBlocker blocker(m_source);
    if (!etrecord)
        m_source->setCurrentIndex(0);
    setTable(m_source->currentIndex() == 1 && etrecord ? *etrecord : program);
}

void OperatorPanel::setDisplayNames(QHash<QString, QString> names)
{
    m_model->setDisplayNames(std::move(names));
}

void OperatorPanel::setFacts(
    std::shared_ptr<const NodeFacts> facts, const std::string& method, std::optional<int> delegate)
{
    const bool shown = facts != nullptr;
    m_model->setFacts(std::move(facts), method, delegate);
    for (const int column : { OperatorTableModel::Macs, OperatorTableModel::Bytes, OperatorTableModel::Why })
        m_view->setColumnHidden(column, !shown);
    // With the reasons the op types keep a width of their own and the reasons take the rest
    // (their whole text in the tooltip; the table scrolls sideways when the pane is narrow);
    // without, the op types take the rest.
    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionResizeMode(OperatorTableModel::OpType, shown ? QHeaderView::Interactive : QHeaderView::Stretch);
    header->setSectionResizeMode(OperatorTableModel::Why, shown ? QHeaderView::Stretch : QHeaderView::Interactive);
    fitCountColumns();
    if (shown) {
        constexpr int kOpTypeMinimum = 120;
        constexpr int kOpTypeMaximum = 180;
        header->resizeSection(OperatorTableModel::OpType,
            std::clamp(static_cast<const QAbstractItemView*>(m_view)->sizeHintForColumn(OperatorTableModel::OpType),
                kOpTypeMinimum, kOpTypeMaximum));
    }
}

bool OperatorPanel::showingETRecord() const
{
    return m_etrecordTable.has_value() && m_source->currentIndex() == 1;
}

void OperatorPanel::setMatchStatus(const QString& text)
{
    m_matches->setText(text);
}

void OperatorPanel::selectOpType(const QString& opType)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex index = m_proxy->index(row, 0);
        if (index.data(OperatorTableModel::OpTypeRole).toString() == opType) {
            if (m_view->currentIndex().row() != row)
                m_view->selectRow(row);
            return;
        }
    }
}

void OperatorPanel::clearOpType()
{
    const bool had = !m_view->currentIndex().data(OperatorTableModel::OpTypeRole).toString().isEmpty();
    {
        const QSignalBlocker blocker(m_view->selectionModel());
        m_view->selectionModel()->clearCurrentIndex();
        m_view->clearSelection();
    }
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    if (had)
        Q_EMIT opTypeSelected(QString());
}

core::Table OperatorPanel::visibleTable() const
{
    core::Table table;
    table.columns = { "op_type", "occurrences_in_delegated_graphs", "occurrences_in_non_delegated_graphs" };
    if (m_model->hasFacts())
        for (const char* column : { "macs", "bytes_read_written", "why_on_cpu" })
            table.columns.emplace_back(column);
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        std::vector<core::TableCell> cells;
        // The table's own key (what `etscope ops` prints), not a spelling shown for the graph's sake.
        cells.emplace_back(m_proxy->index(row, OperatorTableModel::OpType)
                               .data(OperatorTableModel::SortRole)
                               .toString()
                               .toStdString());
        cells.emplace_back(static_cast<long long>(
            m_proxy->index(row, OperatorTableModel::Delegated).data(OperatorTableModel::SortRole).toInt()));
        cells.emplace_back(static_cast<long long>(
            m_proxy->index(row, OperatorTableModel::NonDelegated).data(OperatorTableModel::SortRole).toInt()));
        if (m_model->hasFacts()) {
            // Counts as numbers; "no rule" and "no shape" as words (never 0), unknown as nothing.
            for (const int column : { OperatorTableModel::Macs, OperatorTableModel::Bytes }) {
                const QModelIndex index = m_proxy->index(row, column);
                const qlonglong value = index.data(OperatorTableModel::SortRole).toLongLong();
                if (value >= 0)
                    cells.emplace_back(static_cast<long long>(value));
                else if (value == -3)
                    cells.emplace_back(core::kNoValue);
                else
                    cells.emplace_back(index.data().toString().toStdString());
            }
            cells.emplace_back(m_proxy->index(row, OperatorTableModel::Why).data().toString().toStdString());
        }
        table.rows.push_back(std::move(cells));
    }
    table.notes = m_model->table().summaryLines();
    for (std::string& line : m_model->table().shareLines())
        table.notes.push_back(std::move(line));
    return table;
}

void OperatorPanel::copyAs(core::TableFormat format)
{
    QApplication::clipboard()->setText(QString::fromStdString(core::renderTable(visibleTable(), format)));
}

void OperatorPanel::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    QMenu* copy = menu.addMenu(tr("Copy table as"));
    QMenu* save = menu.addMenu(tr("Export table as"));
    const std::pair<const char*, core::TableFormat> formats[] = { { "CSV", core::TableFormat::Csv },
        { "TSV", core::TableFormat::Tsv }, { "Markdown", core::TableFormat::Markdown },
        { "HTML", core::TableFormat::Html }, { "JSON", core::TableFormat::Json } };
    for (const auto& [name, format] : formats) {
        const core::TableFormat f = format;
        copy->addAction(QLatin1String(name), this, [this, f] { copyAs(f); });
        save->addAction(QLatin1String(name) + QStringLiteral("…"), this, [this, f] { Q_EMIT exportRequested(f); });
    }
    menu.exec(m_view->viewport()->mapToGlobal(position));
}

} // namespace etscope::ui
