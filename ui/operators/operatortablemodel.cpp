// SPDX-License-Identifier: MIT
#include "ui/operators/operatortablemodel.h"

#include <QFont>

namespace etscope::ui {

OperatorTableModel::OperatorTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void OperatorTableModel::setTable(const core::OperatorTable& table)
{
    beginResetModel();
    m_table = table;
    endResetModel();
}

void OperatorTableModel::setDisplayNames(QHash<QString, QString> names)
{
    beginResetModel();
    m_displayNames = std::move(names);
    endResetModel();
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size()) + 1;
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const bool total = static_cast<std::size_t>(index.row()) == m_table.rows.size();
    const core::OperatorRow row = total
        ? core::OperatorRow { "Total", m_table.delegatedNodes, m_table.nonDelegatedNodes }
        : m_table.rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case OpType:
            if (role == Qt::DisplayRole && !total)
                if (const auto name = m_displayNames.constFind(QString::fromStdString(row.opType));
                    name != m_displayNames.constEnd())
                    return *name;
            return QString::fromStdString(row.opType);
        case Delegated:
            return row.delegated;
        case NonDelegated:
            return row.nonDelegated;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == OpType ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (total) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        if (total)
            return tr("Sum of the column");
        if (index.column() == Delegated)
            return tr("Nodes of this type inside decoded delegate payloads");
        if (index.column() == NonDelegated)
            return tr("Instructions of this operator at the top level (portable / custom kernels)");
        if (const auto name = m_displayNames.constFind(QString::fromStdString(row.opType));
            name != m_displayNames.constEnd())
            return tr("%1 (counted as %2, get_delegation_info's op type)")
                .arg(*name, QString::fromStdString(row.opType));
        return QString::fromStdString(row.opType);
    case IsTotalRole:
        return total;
    case OpTypeRole:
        return total ? QString() : QString::fromStdString(row.opType);
    default:
        return {};
    }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Short titles on screen, so that the count columns stay as narrow as their numbers and the
    // op types get the width; the full get_delegation_info names in tooltips and exports.
    static const char* const kShort[] = { "op_type", "deleg.", "non-deleg." };
    static const char* const kFull[]
        = { "op_type", "occurrences_in_delegated_graphs", "occurrences_in_non_delegated_graphs" };
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QLatin1String(kShort[section]);
    if (role == Qt::ToolTipRole)
        return QLatin1String(kFull[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

OperatorTableProxy::OperatorTableProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(OperatorTableModel::SortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(OperatorTableModel::OpType);
}

bool OperatorTableProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    // Total stays last whatever the order: Qt inverts the comparison for descending sorts.
    const bool leftTotal = left.data(OperatorTableModel::IsTotalRole).toBool();
    const bool rightTotal = right.data(OperatorTableModel::IsTotalRole).toBool();
    if (leftTotal != rightTotal)
        return sortOrder() == Qt::AscendingOrder ? rightTotal : leftTotal;
    return QSortFilterProxyModel::lessThan(left, right);
}

bool OperatorTableProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, OperatorTableModel::OpType, sourceParent);
    if (index.data(OperatorTableModel::IsTotalRole).toBool())
        return true;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace etscope::ui
