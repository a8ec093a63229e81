// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/sizebreakdown.h"
#include "core/graph/flatten.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;

namespace etscope::ui {

class TreemapView;

/// Bytes by kind and by backend as sorted bars, each with its share of the file. Clicking a
/// row marks its parts in the treemap.
class SizeSummary final : public QWidget {
    Q_OBJECT
public:
    struct Row {
        QString label;
        QColor colour;
        std::uint64_t bytes = 0;
        std::size_t parts = 0;
        bool title = false;
        std::optional<core::SizeKind> kind; ///< a "by kind" row
        std::optional<std::string> backend; ///< a "by backend" row ("" for not delegated)
    };
    explicit SizeSummary(QWidget* parent = nullptr);
    void setTree(const core::SizeTree* tree);
    const std::vector<Row>& rows() const { return m_rows; }
    int rowAt(QPoint point) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    int rowHeight() const;
    std::vector<Row> m_rows;
    std::uint64_t m_fileSize = 0;
};

/// What makes the file this big: the size breakdown of the document (the program, and each
/// attached .ptd as a second root) as a treemap, with bytes by kind and by backend beside it.
/// Computed the first time the panel is shown. Clicking a constant or a delegate blob asks for
/// its graph node; a node selected in the graph marks its parts. Exports the picture (PNG,
/// SVG), the parts (CSV, one row per byte range) and the breakdown (JSON, as `etscope size`).
class SizePanel final : public QWidget {
    Q_OBJECT
public:
    explicit SizePanel(QWidget* parent = nullptr);
    ~SizePanel() override;

    /// The document to break down; nothing is computed until the panel is shown (then on a
    /// worker: a 100,000-instruction program takes about half a second) or ensureComputed is
    /// called. The same document again keeps what was computed.
    void setDocument(std::shared_ptr<const core::Document> document);
    /// Computes the breakdown now (on this thread) when it is not yet; false when the document
    /// has none.
    bool ensureComputed();
    /// Null until computed.
    const core::SizeBreakdown* breakdown() const { return m_breakdown.get(); }
    /// Milliseconds the breakdown took (-1 before it ran).
    qint64 computeMilliseconds() const { return m_computeMs; }

    /// 0 for the program (or the .ptd opened alone), 1… for each attached .ptd.
    void setTreeIndex(int index);
    int treeIndex() const;
    TreemapView* treemap() const { return m_map; }
    SizeSummary* summary() const { return m_summary; }

    /// The graph node a part belongs to, as (method index, origin): the Constant (or State) node
    /// of a tensor value, or the Delegate node of a delegate blob and of the named data its
    /// payload uses.
    std::optional<std::pair<int, core::NodeOrigin>> nodeOf(const core::SizeNode& part) const;
    /// The parts of the shown tree that node `origin` of method `method` uses.
    std::vector<const core::SizeNode*> partsOf(int method, const core::NodeOrigin& origin) const;
    /// Marks the parts of a node selected in the graph (kept until computed when not yet);
    /// returns how many are marked.
    int showNode(int method, const core::NodeOrigin& origin);

    /// The treemap (.png, .svg), the parts (.csv) or the breakdown (.json), by the extension of
    /// `path`. False with `error` set when it failed.
    bool exportTo(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    void placeRequested(int method, const etscope::core::NodeOrigin& origin);
    void statusMessage(const QString& text);
    /// The breakdown is there (computed in the background or by ensureComputed).
    void computed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    const core::SizeTree* currentTree() const;
    void computeInBackground();
    bool install(core::Result<core::SizeBreakdown> breakdown, qint64 milliseconds);
    void updateHeader();
    void onPartClicked(const core::SizeNode* part);
    void onSummaryRow(int row);
    void exportInteractive();
    QString caption() const;

    std::shared_ptr<const core::Document> m_document;
    std::unique_ptr<core::SizeBreakdown> m_breakdown;
    QString m_failure;
    qint64 m_computeMs = -1;
    quint64 m_generation = 0; ///< drops a background result for a document no longer shown
    bool m_computing = false;
    std::optional<std::pair<int, core::NodeOrigin>> m_pendingNode;
    QComboBox* m_trees = nullptr;
    QLabel* m_total = nullptr;
    QLabel* m_breadcrumb = nullptr;
    TreemapView* m_map = nullptr;
    SizeSummary* m_summary = nullptr;
};

} // namespace etscope::ui
