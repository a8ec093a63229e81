// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "core/table/heattable.h"
#include "core/table/table.h"
#include "ui/graph/presentation.h"

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <set>

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTabWidget;
class QToolBar;
class QTreeView;

namespace etscope::ui {

class DocumentController;
struct HeatData;
class GraphPanel;
class GraphScene;
class GraphView;
class HeatmapPanel;
class LoadCheckPanel;
class MemoryPanel;
class TimelinePanel;
class Minimap;
class OperatorPanel;
class PropertiesModel;
class SearchModel;
class SearchPanel;
class SizePanel;
class WarningBanner;

/// One tab: the graph of a method (or of one delegate), its operator table, properties,
/// search, minimap and exports. Shares its DocumentController with the other tabs of the file,
/// and asks it for its own layouts and heat tables (answered to this tab alone). Implemented in
/// parts: documentview.cpp (construction, exports), documentgraph.cpp (layout requests and what
/// they show), documentwiring.cpp (selection, marks, search, method changes between panels),
/// documentpanels.cpp (panels built on demand), documentdebug.cpp (heat tables, divergence, timeline).
class DocumentView : public QWidget {
    Q_OBJECT
public:
    DocumentView(DocumentController* controller, GraphContext context, QWidget* parent = nullptr);
    ~DocumentView() override;

    DocumentController* controller() const { return m_controller; }
    const GraphContext& context() const { return m_context; }
    const std::set<int>& expanded() const { return m_expanded; }
    std::shared_ptr<const Presentation> presentation() const;
    QString title() const;
    /// The last statusMessage this view gave ("669 nodes, 1719 edges"): a view built from a
    /// cached drawing gives it before anyone is connected to hear it.
    QString lastStatus() const { return m_lastStatus; }

    GraphScene* scene() const { return m_scene; }
    GraphView* graphView() const { return m_view; }
    OperatorPanel* operatorPanel() const { return m_operators; }
    /// The side and analysis panels below are built when first shown (their tab brought to the
    /// front), when asked for here, or when they get something to show; until then their tab
    /// holds an empty page. A panel built late shows what it would have shown (issue 27).
    HeatmapPanel* heatmapPanel() const;
    /// The Load tab: will the program load with the chosen kernel lists (its marks on the graph).
    /// Built after the first paint, its check then starts.
    LoadCheckPanel* loadCheckPanel() const;
    /// Brings the Load tab to the front.
    void showLoadCheck();
    /// Marks on the nodes whose operator has no kernel (View › Mark Operators Without Kernel).
    void setKernelMarksVisible(bool visible);
    /// The attached run's timeline under the graph (hidden without a run).
    TimelinePanel* timelinePanel() const;
    /// The file's size breakdown (a tab for programs and .ptd files; computed when first shown).
    SizePanel* sizePanel() const;
    /// The memory plan of the method shown (a tab for programs; computed when first shown).
    MemoryPanel* memoryPanel() const;
    /// Whether a panel built on demand exists yet (tests: hidden panels cost nothing at open).
    enum class Panel { Heatmap, LoadCheck, Timeline, Size, Memory };
    bool isPanelBuilt(Panel panel) const;
    /// The analysis panels under the graph, one tab each (timeline, memory plan, size).
    QTabWidget* analysisTabs() const { return m_analysisTabs; }
    /// Shows the analysis area under the graph with `panel` (one of analysisTabs()' pages)
    /// in front; nullptr hides the area.
    void showAnalysis(QWidget* panel);
    PropertiesModel* propertiesModel() const { return m_properties; }
    SearchModel* searchModel() const;
    QLineEdit* searchEdit() const { return m_searchEdit; }
    QComboBox* methodBox() const { return m_methodBox; }

    /// What a reload keeps: the method (by name), the open delegates and groups, the selection
    /// and where the view looks.
    struct State {
        std::string method;
        std::set<int> expanded;
        std::optional<core::NodeOrigin> selection;
        double zoom = 1.0;
        QPointF centre;
    };
    State state() const;
    /// Comes back to `state` on this view's document, keeping what still exists there: the
    /// method when one has its name, delegates that still have an inner graph, groups when the
    /// method has as many instructions as before, the node selected when it is still there.
    /// Returns what could not be kept (empty when all of it was).
    QStringList restoreState(const State& state, const core::Document& before);

    void setMethod(int method);
    /// Shows `method` with `origin` selected (nothing selected when none): how Back and Forward
    /// return to a place.
    void showPlace(int method, const std::optional<core::NodeOrigin>& origin);
    /// Fits the selected node (and its neighbours' wires) in the view; false when none is selected.
    bool zoomToSelection();
    /// Tensor types and shapes on the edges (View › Show Tensor Shapes on Edges).
    void setEdgeLabelsVisible(bool visible);
    /// Lays the graph out again with the current drawing options (small constants inline).
    void redraw();
    /// Expands or collapses a delegate ({top, none}) or opens or closes a group (NodeOrigin::ofGroup).
    void toggleExpanded(const core::NodeOrigin& owner);
    void expandAll();
    void collapseAll();
    /// Shows or hides the minimap (View › Show Minimap; it can cover nodes of a fitted graph).
    void setMinimapVisible(bool visible);
    /// For a view embedded twice side by side (File › Compare): the graph gets the whole width
    /// (the side panes shrink to nothing; dragging the splitter handle brings them back) and
    /// the method picker goes (the embedding picks the method with setMethod).
    void setEmbedded();
    /// Selects and centres a node, expanding its delegate first when it is inside a collapsed one.
    void selectNode(const core::NodeOrigin& origin);
    std::optional<core::NodeOrigin> selectedNode() const;
    void focusSearch();
    void runSearch(const QString& text);
    void activateSearchResult(int row);

    /// The picture on screen, as PNG/SVG/PDF (chosen by extension); false with `error` set.
    bool exportImage(const QString& path, QString* error);
    bool exportTable(const QString& path, core::TableFormat format, QString* error);
    /// Heat tables asked for and not yet shown (they are built on a worker).
    bool debugDataPending() const { return m_heatPending; }
    /// Selects the first divergence of the numeric gap (issue 24 #2), opening its delegate or
    /// group when needed, and centres it; false (with a status message) when there is none
    /// to go to here.
    bool goToFirstDivergence();
    /// The node of the first divergence found for this method, if any.
    std::optional<core::NodeOrigin> firstDivergence() const;
    /// Shows per-node numbers (numeric gaps, latencies) in the heatmap panel and on the graph.
    void setHeatTable(core::HeatTable table);
    /// format_delegated_graph-style printout of what this tab shows.
    QString printout() const;
    /// Asks for a file name, then exports the picture / the operator table.
    void exportImageInteractive();
    void exportTableInteractive(core::TableFormat format);

Q_SIGNALS:
    void openDelegateRequested(int method, core::NodeId delegateNode);
    void showParentRequested(const etscope::ui::GraphContext& parent);
    void statusMessage(const QString& text);
    void presentationShown();
    /// The graph of this tab was painted for the first time (an ETDump alone: its page filled in).
    void firstPainted();
    void titleChanged(const QString& title);
    /// The user went somewhere: another method, or a node selected or cleared.
    void placeChanged();
    /// The heat tables asked for after a change of debug data or method are shown (or their
    /// reading was stopped).
    void debugDataShown();

private:
    void buildUi();
    void connectController();
    void showMethods(const core::Document& document);
    void showWithoutGraph(const std::shared_ptr<const core::Document>& document);
    /// The visible operator rows, titled with the file and this tab.
    core::Table operatorTable() const;
    QToolBar* buildToolbar();
    QWidget* buildPanes();
    void connectScene();
    void request();
    /// Has the document lay out in the background what a click on this drawing most likely
    /// asks for next (DocumentController::layOutAhead), once painted and its insides decoded.
    void layOutAhead();
    /// Runs `step` now, or once the constructor has built the panes: the first layout is asked
    /// for before they are built, and some answers come at once (a drawing from the cache).
    void whenBuilt(std::function<void()> step);
    void onLayoutFailed(const QString& message);
    void onLayoutStopped();
    void showPresentation(std::shared_ptr<const Presentation> presentation);
    void refreshOperatorTable();
    /// The node facts' signals (documentnodefacts.cpp).
    void connectNodeFacts();
    /// Gives the node facts (when computed) to the operator table, Properties, Search and the
    /// graph's notes; `reshow`: they are new, the node shown and the banner take them too.
    void applyNodeFacts(bool reshow);
    /// Gives the load check the document, unless it waits for deferred inner graphs.
    void refreshLoadCheck();
    /// After the first paint (or a failed layout): decode the deferred inner graphs, then count.
    void startDeferredWork();
    void refreshDebugData();
    void showHeatData(std::shared_ptr<const HeatData> data);
    /// What the heatmap says about reading the debug data (kept for a heatmap built later).
    void setHeatNote(const QString& text);
    void refreshTimeline();
    /// The first-divergence line of the heatmap and its marks on the graph, from m_heatData.
    void applyDivergence();
    /// The analysis area's tabs, each with an empty page until its panel is built.
    void buildAnalysisPanels();
    /// Each builds its panel once, connects it and gives it what was set before; then returns it.
    HeatmapPanel* heatmap();
    LoadCheckPanel* loadCheck();
    TimelinePanel* timeline();
    SizePanel* size();
    MemoryPanel* memory();
    /// Puts `panel` in `placeholder`'s tab (the same title, tooltip and place, in front if it was).
    void replacePage(QTabWidget* tabs, QWidget*& placeholder, QWidget* panel);
    /// The tab at `index` of `tabs` came to the front: builds its panel if it is a placeholder.
    void buildShownPage(QTabWidget* tabs, int index);
    void refreshAnalysis();
    void onOpTypeSelected(const QString& opType);
    void walkMatches(int step);
    void onNodeSelected(const core::NodeOrigin& origin);
    void showBusy(bool busy, const QString& text = {});
    void updateBreadcrumb();
    std::optional<QPointF> anchorPosition(const core::NodeOrigin& owner) const;

    DocumentController* m_controller;
    GraphContext m_context;
    std::set<int> m_expanded;
    std::optional<core::NodeOrigin> m_pending; ///< to select once the next layout is shown
    std::optional<QPointF> m_anchor; ///< view centre minus the toggled delegate's position
    std::optional<core::NodeOrigin> m_anchorNode;
    std::vector<core::NodeOrigin> m_matches;
    int m_matchIndex = -1;
    QString m_matchType;
    QString m_lastStatus; ///< see lastStatus()

    GraphPanel* m_graph = nullptr;
    QWidget* m_panes = nullptr; ///< graph | side tabs and properties
    GraphScene* m_scene = nullptr; ///< m_graph's
    GraphView* m_view = nullptr; ///< m_graph's
    QLabel* m_breadcrumb = nullptr;
    WarningBanner* m_banner = nullptr;
    QComboBox* m_methodBox = nullptr;
    QLineEdit* m_searchEdit = nullptr;
    SearchPanel* m_search = nullptr;
    QTabWidget* m_sideTabs = nullptr;
    OperatorPanel* m_operators = nullptr;
    // Built on demand (nullptr until then); the placeholders hold their tabs meanwhile.
    HeatmapPanel* m_heatmap = nullptr;
    LoadCheckPanel* m_loadCheck = nullptr;
    TimelinePanel* m_timeline = nullptr;
    SizePanel* m_size = nullptr;
    MemoryPanel* m_memory = nullptr;
    QWidget* m_heatmapPage = nullptr;
    QWidget* m_loadCheckPage = nullptr;
    QWidget* m_sizePage = nullptr;
    QWidget* m_memoryPage = nullptr;
    bool m_swappingPage = false;
    bool m_analysisRefreshed = false; ///< refreshAnalysis ran: panels built later catch up
    bool m_kernelMarksVisible = true; ///< for the Load panel, also before it is built
    /// The node last selected since the method last changed: what the panels built later show.
    std::optional<core::NodeOrigin> m_lastSelected;
    /// The node last selected and its method, whatever happened since (the Size panel keeps it).
    std::optional<std::pair<int, core::NodeOrigin>> m_lastSizeNode;
    QSplitter* m_graphColumn = nullptr; ///< the graph over the analysis tabs
    QTabWidget* m_analysisTabs = nullptr;
    PropertiesModel* m_properties = nullptr;
    QTreeView* m_propertiesView = nullptr;
    std::shared_ptr<const HeatData> m_heatData; ///< shown in the heatmap
    QString m_heatNote; ///< the heatmap's note on reading the debug data
    bool m_heatPending = false; ///< heat tables asked for and not yet shown
    int m_heatMethod = -1; ///< the method m_heatData is of
    bool m_firstShow = true;
    bool m_built = false; ///< the constructor has built the panes (whenBuilt)
    std::vector<std::function<void()>> m_untilBuilt; ///< answers that came before
    bool m_awaitingFirstPaint = false;
    bool m_painted = false; ///< first painted (or its layout failed): deferred work may start
    bool m_operatorsWaiting = false; ///< the operator table waits for deferred inner graphs
    bool m_loadCheckWaiting = false; ///< the load check waits for deferred inner graphs
    bool m_fitNext = false; ///< fit the whole graph after the next layout (expand/collapse all)
    std::optional<std::pair<double, QPointF>> m_restoreView; ///< zoom and centre after the next layout
};

} // namespace etscope::ui
