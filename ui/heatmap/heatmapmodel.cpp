// SPDX-License-Identifier: MIT
#include "ui/heatmap/heatmapmodel.h"

#include <algorithm>
#include <cmath>

namespace etscope::ui {

std::shared_ptr<const PreparedHeatTable> prepareHeatTable(std::shared_ptr<const core::HeatTable> table)
{
    auto prepared = std::make_shared<PreparedHeatTable>();
    if (!table)
        table = std::make_shared<const core::HeatTable>();
    prepared->table = table;
    prepared->matchedRows = static_cast<std::size_t>(std::count_if(table->rows.begin(), table->rows.end(),
        [](const core::HeatTable::Row& row) { return row.origin.top.valid(); }));
    for (std::size_t c = 0; c < table->columns.size(); ++c) {
        PreparedHeatTable::Column column;
        column.range = table->range(c);
        column.summary = core::summariseHeatColumn(*table, c);
        column.format = core::columnNumberFormat(*table, c);
        const bool higherIsWorse = table->columns[c].higherIsWorse;
        const std::optional<double> identical = table->columns[c].identical;
        const auto keep = [higherIsWorse, identical](
                              std::map<std::pair<int, int>, double>& into, std::pair<int, int> key, double value) {
            const auto [it, fresh] = into.try_emplace(key, value);
            if (!fresh && core::heatWorse(value, it->second, higherIsWorse, identical))
                it->second = value;
        };
        for (const core::HeatTable::Row& row : table->rows) {
            if (c >= row.values.size() || !row.values[c])
                continue;
            const double value = *row.values[c];
            if (!row.origin.top.valid())
                continue;
            keep(column.worst, { row.origin.top.value, row.origin.inner.value }, value);
            if (row.origin.inner.valid())
                keep(column.worstInside, { row.origin.top.value, core::NodeId::none().value }, value);
        }
        prepared->columns.push_back(std::move(column));
    }
    return prepared;
}

core::HeatColumnScale HeatScale::column(const PreparedHeatTable& prepared, std::size_t column) const
{
    const core::HeatTable& table = *prepared.table;
    if (column >= table.columns.size() || column >= prepared.columns.size())
        return {};
    return core::heatColumnScale(
        table.columns[column], prepared.columns[column].summary, { logScale, low, high, threshold(column) });
}

core::HeatColumnScale HeatScale::column(const core::HeatTable& table, std::size_t column) const
{
    if (column >= table.columns.size())
        return {};
    return core::heatColumnScale(
        table.columns[column], core::summariseHeatColumn(table, column), { logScale, low, high, threshold(column) });
}

std::optional<double> HeatScale::threshold(std::size_t column) const
{
    const auto it = thresholds.find(column);
    return it == thresholds.end() ? std::nullopt : std::optional<double>(it->second);
}

HeatmapModel::HeatmapModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void HeatmapModel::setTable(core::HeatTable table)
{
    setTable(std::make_shared<const core::HeatTable>(std::move(table)));
}

void HeatmapModel::setTable(std::shared_ptr<const core::HeatTable> table)
{
    setTable(prepareHeatTable(std::move(table)));
}

void HeatmapModel::setTable(std::shared_ptr<const PreparedHeatTable> prepared)
{
    beginResetModel();
    m_prepared = prepared ? std::move(prepared) : prepareHeatTable(nullptr);
    m_table = m_prepared->table;
    m_order.clear(); // another table: execution order again
    updateBounds();
    endResetModel();
}

int HeatmapModel::sourceRow(int row) const
{
    return m_order.empty() ? row : m_order[static_cast<std::size_t>(row)];
}

void HeatmapModel::sort(int column, Qt::SortOrder order)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> sourceRows;
    for (const QModelIndex& index : before)
        sourceRows.push_back(sourceRow(index.row()));
    if (column < 0 || column > static_cast<int>(m_table->columns.size())) {
        m_order.clear();
    } else {
        m_order.resize(m_table->rows.size());
        for (std::size_t i = 0; i < m_order.size(); ++i)
            m_order[i] = static_cast<int>(i);
        const auto& rows = m_table->rows;
        const bool ascending = order == Qt::AscendingOrder;
        if (column == 0) {
            std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
                const auto& x = rows[static_cast<std::size_t>(a)].label;
                const auto& y = rows[static_cast<std::size_t>(b)].label;
                return ascending ? x < y : y < x;
            });
        } else {
            // Rows without a value go last either way, as an empty cell should.
            const auto c = static_cast<std::size_t>(column - 1);
            const auto value = [&](int r) -> std::optional<double> {
                const auto& values = rows[static_cast<std::size_t>(r)].values;
                return c < values.size() ? values[c] : std::nullopt;
            };
            std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
                const auto x = value(a);
                const auto y = value(b);
                if (!x || !y)
                    return x.has_value() && !y.has_value();
                return ascending ? *x < *y : *y < *x;
            });
        }
    }
    // Persistent indexes (the selection) follow their rows.
    std::vector<int> shownAt(m_table->rows.size());
    for (std::size_t r = 0; r < shownAt.size(); ++r)
        shownAt[static_cast<std::size_t>(sourceRow(static_cast<int>(r)))] = static_cast<int>(r);
    QModelIndexList after;
    for (qsizetype i = 0; i < before.size(); ++i)
        after << index(shownAt[static_cast<std::size_t>(sourceRows[static_cast<std::size_t>(i)])], before[i].column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void HeatmapModel::updateBounds()
{
    m_scales.clear();
    m_formats.clear();
    for (std::size_t c = 0; c < m_table->columns.size(); ++c) {
        m_scales.push_back(m_scale.column(*m_prepared, c));
        m_formats.push_back(c < m_prepared->columns.size() ? m_prepared->columns[c].format : core::NumberFormat {});
    }
}

const core::HeatColumnScale& HeatmapModel::columnScale(std::size_t column) const
{
    static const core::HeatColumnScale kNone;
    return column < m_scales.size() ? m_scales[column] : kNone;
}

QString HeatmapModel::valueText(std::size_t column, double value) const
{
    const core::NumberFormat format = column < m_formats.size() ? m_formats[column] : core::NumberFormat { false, 4 };
    return QString::fromStdString(format.text(value));
}

void HeatmapModel::setScale(const HeatScale& scale)
{
    m_scale = scale;
    updateBounds();
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1), { PositionRole, FlaggedRole });
}

int HeatmapModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table->rows.size());
}

int HeatmapModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table->columns.size()) + 1;
}

QVariant HeatmapModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const core::HeatTable::Row& row = m_table->rows[static_cast<std::size_t>(sourceRow(index.row()))];
    if (role == TopNodeRole)
        return row.origin.top.value;
    if (role == InnerNodeRole)
        return row.origin.inner.value;
    if (index.column() == 0) {
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return QString::fromStdString(row.label);
        return {};
    }
    const auto column = static_cast<std::size_t>(index.column() - 1);
    const std::optional<double> value = column < row.values.size() ? row.values[column] : std::nullopt;
    switch (role) {
    case Qt::DisplayRole:
        return value ? valueText(column, *value) : QStringLiteral("—");
    case ValueRole:
    case SortRole:
        return value ? QVariant(*value) : QVariant();
    case PositionRole:
        return value && column < m_scales.size() ? QVariant(m_scales[column].place(*value).position) : QVariant();
    case FlaggedRole:
        return value && column < m_scales.size() && m_scales[column].beyondThreshold(*value);
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return value ? QStringLiteral("%1: %2").arg(
                   QString::fromStdString(m_table->columns[column].name), QString::number(*value, 'g', 10))
                     : tr("no data for this node");
    default:
        return {};
    }
}

QVariant HeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == 0)
        return tr("node");
    const auto column = static_cast<std::size_t>(section - 1);
    return column < m_table->columns.size() ? QString::fromStdString(m_table->columns[column].name) : QVariant();
}

} // namespace etscope::ui
