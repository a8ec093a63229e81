// SPDX-License-Identifier: MIT
#pragma once

#include "core/stats/operatortable.h"
#include "ui/document/nodefacts.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>

namespace etscope::ui {

/// The operator occurrence table (rows sorted by op type) plus its final Total row; with the
/// node facts (nodefacts.h), what each op type costs (MACs, bytes moved) and why its nodes
/// stayed on the CPU.
class OperatorTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { OpType, Delegated, NonDelegated, Macs, Bytes, Why, NUM_COLUMNS };
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
    /// The facts of `method` (of its delegate `delegate` only, when given: a delegate's tab;
    /// nullptr: not computed yet, the cost and why cells are empty).
    void setFacts(
        std::shared_ptr<const NodeFacts> facts, const std::string& method, std::optional<int> delegate = std::nullopt);
    bool hasFacts() const { return m_facts != nullptr; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// The cost and why cells of one row (the op types' facts, or their sums for Total).
    QVariant factData(const std::string& opType, bool total, int column, int role) const;
    /// The facts of `opType`, nullptr when there are none.
    const OpTypeFacts* typeFacts(const std::string& opType) const;

    core::OperatorTable m_table;
    QHash<QString, QString> m_displayNames;
    std::shared_ptr<const NodeFacts> m_facts;
    std::map<std::string, OpTypeFacts> m_types; ///< m_facts per op type, of the method shown
    OpTypeFacts m_total; ///< summed over m_types
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
