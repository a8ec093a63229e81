// SPDX-License-Identifier: MIT
#pragma once

#include "core/stats/operatortable.h"
#include "core/table/table.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;
class QTimer;

namespace etscope::ui {

class OperatorTableModel;
struct NodeFacts;
class OperatorTableProxy;

/// The operator occurrence table with its summary lines, a filter box and Previous/Next
/// buttons that walk through the nodes of the selected op type.
class OperatorPanel : public QWidget {
    Q_OBJECT
public:
    explicit OperatorPanel(QWidget* parent = nullptr);

    void setTable(const core::OperatorTable& table);
    /// The table counted from the program and, when an ETRecord is attached, the exact
    /// get_delegation_info one; a combo switches between them.
    void setTables(const core::OperatorTable& program, const std::optional<core::OperatorTable>& etrecord);
    /// How op types whose key differs from the graph's spelling are shown (see
    /// OperatorTableModel::setDisplayNames).
    void setDisplayNames(QHash<QString, QString> names);
    bool showingETRecord() const;
    /// What each op type of `method` costs and why its nodes stayed on the CPU (nullptr: not
    /// computed yet).
    void setFacts(
        std::shared_ptr<const NodeFacts> facts, const std::string& method, std::optional<int> delegate = std::nullopt);
    /// What the user sees, in the order shown (filter and sort applied), with the summary lines.
    core::Table visibleTable() const;
    QTableView* view() const { return m_view; }
    OperatorTableProxy* proxy() const { return m_proxy; }
    QLineEdit* filterEdit() const { return m_filter; }
    void setMatchStatus(const QString& text);
    /// Selects the row of an op type (no signal when it is already selected).
    void selectOpType(const QString& opType);
    /// No op type selected any more (its marks on the graph go with it).
    void clearOpType();

Q_SIGNALS:
    void opTypeSelected(const QString& opType); ///< empty when the selection is cleared or Total
    void nextRequested();
    void previousRequested();
    void exportRequested(core::TableFormat format);

private:
    void showContextMenu(const QPoint& position);
    /// Each count column as wide as its numbers or its short title (with room for the sort
    /// arrow only where it shows): the op types take the rest.
    void fitCountColumns();
    void copyAs(core::TableFormat format);

    OperatorTableModel* m_model;
    OperatorTableProxy* m_proxy;
    QTableView* m_view;
    QLabel* m_summary;
    QComboBox* m_source;
    core::OperatorTable m_programTable;
    std::optional<core::OperatorTable> m_etrecordTable;
    QLabel* m_matches;
    QLineEdit* m_filter;
    QToolButton* m_previous;
    QToolButton* m_next;
    QTimer* m_debounce;
};

} // namespace etscope::ui
