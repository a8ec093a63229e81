// SPDX-License-Identifier: MIT
#include "ui/common/reporttablemodel.h"

#include <variant>

namespace etscope::ui {

ReportTableModel::ReportTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ReportTableModel::setTable(core::Table table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || static_cast<std::size_t>(index.row()) >= m_table.rows.size())
        return {};
    const auto& row = m_table.rows[static_cast<std::size_t>(index.row())];
    if (static_cast<std::size_t>(index.column()) >= row.size())
        return {};
    const core::TableCell& cell = row[static_cast<std::size_t>(index.column())];
    const bool number = std::holds_alternative<long long>(cell) || std::holds_alternative<double>(cell);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return QString::fromStdString(core::cellText(cell));
    case SortRole:
        if (const auto* integer = std::get_if<long long>(&cell))
            return QVariant::fromValue(*integer);
        if (const auto* real = std::get_if<double>(&cell))
            return *real;
        if (const auto* text = std::get_if<std::string>(&cell))
            return QString::fromStdString(*text);
        return QString(); // no value (kNoValue)
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignVCenter | (number ? Qt::AlignRight : Qt::AlignLeft));
    default:
        return {};
    }
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || static_cast<std::size_t>(section) >= m_table.columns.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    return QString::fromStdString(m_table.columns[static_cast<std::size_t>(section)]);
}

} // namespace etscope::ui
