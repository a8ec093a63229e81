// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/memoryplan.h"
#include "core/graph/flatten.h"

#include <QWidget>

#include <map>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QToolButton;

namespace etscope::core {
struct Document;
}

namespace etscope::ui {

class MemoryChart;
class ReportTableModel;

/// The memory plan of a method: the offset × time chart of an arena (MemoryChart), a summary
/// (declared size, peak of live bytes and where, fragmentation), a table of the planned tensors
/// beside it, and exports. Computed on a worker the first time the panel is shown for a method,
/// then kept per method. Clicking a tensor (box or row) selects the node that writes it; a node
/// selected in the graph outlines the tensors it writes and reads.
class MemoryPanel final : public QWidget {
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget* parent = nullptr);
    ~MemoryPanel() override;
    QSize sizeHint() const override;

    /// The method to show; nothing is computed until the panel is shown or ensureComputed is
    /// called. Plans computed for the same document are kept.
    void setMethod(std::shared_ptr<const core::Document> document, int method);
    int method() const { return m_method; }
    /// Computes the plan of the method now (on this thread) when it is not yet; false when there
    /// is no method.
    bool ensureComputed();
    /// Null until computed.
    const core::MemoryPlan* plan() const;
    /// Milliseconds the plan of the method shown and its table took (-1 before they ran).
    qint64 computeMilliseconds() const;

    /// Shows arena `index` (into plan()->arenas).
    void setArena(int index);
    MemoryChart* chart() const { return m_chart; }
    QTableView* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }
    void setTableVisible(bool visible);

    /// The graph node to select for a tensor: the node that writes it, else its Input, State or
    /// View node.
    std::optional<core::NodeOrigin> nodeOf(std::size_t tensor) const;
    /// The tensors (indices into plan()->tensors) node `origin` writes (true) or reads (false).
    std::vector<std::pair<std::size_t, bool>> tensorsOf(const core::NodeOrigin& origin) const;
    /// Outlines the tensors of a node selected in the graph (kept until computed when not yet),
    /// switching to their arena and scrolling to them when none is in view; returns how many.
    int showNode(const core::NodeOrigin& origin);
    /// Selects a tensor in the chart and the table, without asking for its node.
    void selectTensor(std::size_t tensor);

    /// The chart (.png, .svg), the tensors (.csv, as the table shows them), the plan (.json) or
    /// a Chrome trace (.trace.json), by the name of `path`. False with `error` set when it failed.
    bool exportTo(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    void nodeRequested(const etscope::core::NodeOrigin& origin);
    void statusMessage(const QString& text);
    /// The plan of the method shown is there.
    void computed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Entry {
        std::shared_ptr<const core::MemoryPlan> plan;
        qint64 milliseconds = -1;
        ReportTableModel* model = nullptr; ///< its tensor table (kept: rebuilding a big one takes 100 ms)
        std::vector<std::size_t> rowTensor; ///< row of the model → tensor
    };
    const Entry* current() const;
    void computeInBackground();
    /// What a worker hands over: the plan and its table (a 100,000-step method's table takes
    /// 100 ms to build, too long for the UI thread).
    struct Computed;
    static Computed compute(const core::Document& document, int method);
    void install(int method, Computed result);
    void filterTable(const core::MemoryArena* arena);
    void showCurrent();
    void updateSummary();
    void onTensorClicked(std::size_t tensor);
    void onRowSelected();
    void exportInteractive();
    core::Table visibleTable() const;
    QString baseName() const;

    std::shared_ptr<const core::Document> m_document;
    int m_method = -1;
    std::map<int, Entry> m_plans;
    quint64 m_generation = 0; ///< drops a background result for a document no longer shown
    int m_computing = -1; ///< the method being computed on a worker
    std::optional<core::NodeOrigin> m_pendingNode;
    bool m_syncing = false; ///< selection being copied between chart and table

    QComboBox* m_arenas = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_tableToggle = nullptr;
    QSplitter* m_split = nullptr;
    MemoryChart* m_chart = nullptr;
    ReportTableModel* m_emptyModel = nullptr; ///< the table without a plan
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace etscope::ui
