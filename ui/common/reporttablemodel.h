// SPDX-License-Identifier: MIT
#pragma once

#include "core/table/table.h"

#include <QAbstractTableModel>

namespace etscope::ui {

/// Any report table of core (a profile, run blocks, …) as an item model: text as the command
/// line prints it, numbers right-aligned and sorted as numbers (SortRole).
class ReportTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit ReportTableModel(QObject* parent = nullptr);

    void setTable(core::Table table);
    const core::Table& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    core::Table m_table;
};

} // namespace etscope::ui
