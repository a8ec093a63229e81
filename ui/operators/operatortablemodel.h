// SPDX-License-Identifier: MIT
#pragma once

#include "core/stats/operatortable.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>

namespace etscope::ui {

/// The operator occurrence table (rows sorted by op type) plus its final Total row.
class OperatorTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { OpType, Delegated, NonDelegated, NUM_COLUMNS };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw numbers / op type
        IsTotalRole, ///< true on the Total row
        OpTypeRole, ///< the op type key (empty for Total)
    };

    explicit OperatorTableModel(QObject* parent = nullptr);

    void setTable(const core::OperatorTable& table);
    /// How op types are shown when the key differs from the graph's spelling: an ETRecord's
    /// table (get_delegation_info) keys `aten_mul_tensor` where its nodes say `aten.mul.Tensor`.
    /// The key stays the sort key, OpTypeRole and what exports write.
    void setDisplayNames(QHash<QString, QString> names);
    const core::OperatorTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    core::OperatorTable m_table;
    QHash<QString, QString> m_displayNames;
};

/// Sorts on every column while keeping Total last, and filters op types by a substring.
class OperatorTableProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit OperatorTableProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
};

} // namespace etscope::ui
