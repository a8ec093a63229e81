// SPDX-License-Identifier: MIT
#include "ui/window/documentview.h"

#include "core/analysis/timeline.h"
#include "core/debug/edgegraph.h"
#include "core/debug/etrecord.h"
#include "core/debug/eventmapper.h"
#include "core/document/etrecordgraphs.h"

#include "core/graph/search.h"
#include "core/report/reports.h"
#include "ui/common/exports.h"
#include "ui/common/nodestyle.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/timings.h"
#include "ui/etdump/etdumppage.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/memory/memorypanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/operators/operatortablemodel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/properties/propertiesview.h"
#include "ui/search/searchmodel.h"
#include "ui/search/searchpanel.h"
#include "ui/size/sizepanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/warningbanner.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <map>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kGraphColumnMinimum = 600; ///< the graph and timeline column before it is shown

constexpr QSize kToolbarIconSize { 16, 16 };
constexpr int kSearchMinimumWidth = 280; ///< the search box's placeholder stays readable
constexpr QMargins kBreadcrumbMargins { 8, 2, 8, 2 };
constexpr int kRowSpacing = 2; ///< between toolbar, breadcrumb, banner and the panes
/// Initial splitter sizes: graph | side panes, and side tabs above the properties (room for a
/// node's properties without dragging the splitter).
constexpr int kGraphWidth = 900;
constexpr int kSideWidth = 420;
constexpr int kSideTabsHeight = 480;
constexpr int kPropertiesHeight = 340;
constexpr int kSideTabsMinimumHeight = 160;
constexpr int kPropertiesMinimumHeight = 160; ///< about 7 rows and the header
constexpr int kSideMinimumWidth = 220; ///< the side tabs and properties never collapse below this

/// get_delegation_info's op type (an FX node name without its number, "aten_mul_tensor") → the
/// target as a node shows it ("aten.mul.Tensor"), over every graph of `record`; keys that name
/// two targets are left out.
QHash<QString, QString> edgeOperatorNames(const ETRecord& record)
{
    QHash<QString, QString> names;
    QSet<QString> ambiguous;
    const auto collect = [&](const EdgeProgram& program, const auto& self) -> void {
        for (const EdgeNode& node : program.nodes) {
            if (node.lowered && node.lowered->originalModule)
                self(*node.lowered->originalModule, self);
            if (node.target.empty() || node.isDelegateCall())
                continue;
            const QString key = QString::fromStdString(node.opType());
            const QString target = QString::fromStdString(shortEdgeTarget(node.target));
            if (key == target)
                continue;
            if (const auto found = names.constFind(key); found != names.constEnd() && *found != target)
                ambiguous.insert(key);
            names.insert(key, target);
        }
    };
    for (const auto* graphs : { &record.edgePrograms, &record.otherGraphs })
        for (const ETRecordGraph& graph : *graphs)
            if (graph.program)
                collect(*graph.program, collect);
    for (const QString& key : ambiguous)
        names.remove(key);
    return names;
}

} // namespace

DocumentView::DocumentView(DocumentController* controller, GraphContext context, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_context(context)
{
    QElapsedTimer building;
    building.start();
    buildUi();
    connect(m_controller, &DocumentController::presentationReady, this,
        [this](std::shared_ptr<const Presentation> presentation) {
            if (presentation->context == m_context
                && presentation->expanded == (m_context.delegateNode.valid() ? std::set<int> {} : m_expanded))
                showPresentation(std::move(presentation));
        });
    connect(m_controller, &DocumentController::deferredDecodeFinished, this, [this] {
        // Problems found building the deferred inner graphs join the banner (the eager open
        // lists them among the document's warnings).
        if (const auto document = m_controller->document()) {
            std::vector<Warning> inner;
            for (const MethodAnalysis& analysis : document->methods)
                for (const DelegateInfo& info : analysis.delegates)
                    for (Warning& warning : info.innerGraph.warnings())
                        inner.push_back(std::move(warning));
            if (!inner.empty()) {
                std::vector<Warning> warnings = m_banner->warnings();
                warnings.insert(warnings.end(), inner.begin(), inner.end());
                m_banner->setWarnings(warnings);
            }
        }
        if (m_operatorsWaiting)
            refreshOperatorTable();
        if (m_loadCheckWaiting)
            refreshLoadCheck();
    });
    connect(m_controller, &DocumentController::debugChanged, this, [this] {
        refreshOperatorTable();
        refreshDebugData();
    });
    // Layout signals name the view they are for: another tab's layout (a delegate's tab of
    // this file) neither shows nor clears this one's "Laying out…" (issue 27 #15).
    connect(m_controller, &DocumentController::layoutStarted, this,
        [this](QObject* requester, const GraphContext& context, const QString& text) {
            if (requester == this && context == m_context)
                showBusy(true, text);
        });
    connect(m_controller, &DocumentController::layoutFailed, this, [this](QObject* requester, const QString& message) {
        if (requester != this)
            return;
        showBusy(false);
        startDeferredWork(); // no first paint to wait for
        Q_EMIT statusMessage(message);
        std::vector<Warning> warnings = m_banner->warnings();
        warnings.insert(warnings.begin(), Warning { message.toStdString(), std::nullopt });
        m_banner->setWarnings(warnings);
    });
    connect(m_controller, &DocumentController::layoutStopped, this, [this](QObject* requester) {
        if (requester != this)
            return;
        showBusy(false);
        startDeferredWork(); // no first paint to wait for
        Q_EMIT statusMessage(tr("Layout stopped"));
    });

    const auto document = m_controller->document();
    // An ETRecord whose graphs could not be read has a program without methods: no graph.
    if (document && document->program && !document->program->methods.empty()) {
        for (std::size_t m = 0; m < document->program->methods.size(); ++m) {
            const Method& method = document->program->methods[m];
            // An ETRecord's graphs have nodes, not instructions.
            const QString count = document->etrecord
                ? tr("%n node(s)", nullptr, static_cast<int>(document->methods[m].graph->nodes.size()))
                : tr("%n instruction(s)", nullptr, method.instructionCounts().total());
            m_methodBox->addItem(QStringLiteral("%1  (%2)").arg(QString::fromStdString(method.name), count));
        }
        if (m_context.method < 0) {
            const Method* preferred = document->program->defaultMethod();
            m_context.method = preferred ? static_cast<int>(preferred - document->program->methods.data()) : 0;
        }
        m_methodBox->setCurrentIndex(m_context.method);
        m_methodBox->setEnabled(!m_context.delegateNode.valid() && document->program->methods.size() > 1);
        m_banner->setWarnings(document->warnings);
        connect(m_methodBox, qOverload<int>(&QComboBox::currentIndexChanged), this, &DocumentView::setMethod);
        updateBreadcrumb();
        refreshOperatorTable();
        refreshDebugData();
        if (m_context.delegateNode.valid())
            m_properties->showNode(*document, m_context.method, { m_context.delegateNode, NodeId::none() },
                m_controller->debug().etrecord.get());
        else
            m_properties->showDocument(*document, m_context.method);
        // The view built, its first layout asked for (issue 27: part of every first paint).
        timings::report("view", timings::millisecondsSince(building));
        request();
    } else if (document) {
        // Files without a graph (external data): their facts fill the tab. An ETDump shows its
        // runs and the time of each event instead.
        m_banner->setWarnings(document->warnings);
        m_properties->showDocument(*document, -1);
        m_graph->hide();
        m_sideTabs->hide();
        m_breadcrumb->hide();
        for (QToolBar* toolbar : findChildren<QToolBar*>())
            toolbar->hide();
        if (document->kind == FileKind::ExternalData)
            showAnalysis(size());
        if (document->etdump) {
            auto* page = new ETDumpPage(document, this);
            connect(page, &ETDumpPage::statusMessage, this, &DocumentView::statusMessage);
            // Its tables are built on a worker: the page is drawn when they are shown.
            connect(page, &ETDumpPage::ready, this, [this] {
                timings::report("etdump-page", m_controller->millisecondsSinceRequest());
                Q_EMIT firstPainted();
            });
            m_panes->hide();
            layout()->addWidget(page);
            static_cast<QVBoxLayout*>(layout())->setStretchFactor(page, 1);
        }
    }
}

DocumentView::~DocumentView() = default;

void DocumentView::buildUi()
{
    QToolBar* toolbar = buildToolbar();
    m_breadcrumb = new QLabel(this);
    m_breadcrumb->setObjectName(QStringLiteral("breadcrumb"));
    m_breadcrumb->setTextFormat(Qt::RichText);
    m_breadcrumb->setContentsMargins(kBreadcrumbMargins);
    connect(m_breadcrumb, &QLabel::linkActivated, this, [this](const QString&) {
        Q_EMIT showParentRequested(GraphContext { m_context.method, NodeId::none() });
    });
    m_banner = new WarningBanner(this);
    QWidget* panes = buildPanes();
    m_panes = panes;

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(kRowSpacing);
    layout->addWidget(toolbar);
    layout->addWidget(m_breadcrumb);
    layout->addWidget(m_banner);
    layout->addWidget(panes, 1);
    connectScene();
}

QToolBar* DocumentView::buildToolbar()
{
    auto* toolbar = new QToolBar(this);
    toolbar->setIconSize(kToolbarIconSize);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_methodBox = new QComboBox(this);
    m_methodBox->setObjectName(QStringLiteral("methodBox"));
    m_methodBox->setToolTip(tr("Method (execution plan) to show"));
    m_methodBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    toolbar->addWidget(new QLabel(tr(" Method "), this));
    toolbar->addWidget(m_methodBox);
    toolbar->addSeparator();
    QAction* expand = toolbar->addAction(tr("Expand all"), this, &DocumentView::expandAll);
    expand->setToolTip(tr("Expand every decoded delegate in place"));
    QAction* collapse = toolbar->addAction(tr("Collapse all"), this, &DocumentView::collapseAll);
    // A delegate's own tab has nothing to expand.
    expand->setEnabled(!m_context.delegateNode.valid());
    collapse->setEnabled(!m_context.delegateNode.valid());
    toolbar->addSeparator();
    toolbar->addAction(tr("Fit"), this, [this] { m_view->fitAll(); })->setToolTip(tr("Show the whole graph (Ctrl+0)"));
    toolbar->addAction(tr("−"), this, [this] { m_view->zoomBy(1 / kZoomStep); })->setToolTip(tr("Zoom out (Ctrl+−)"));
    toolbar->addAction(tr("+"), this, [this] { m_view->zoomBy(kZoomStep); })->setToolTip(tr("Zoom in (Ctrl++)"));
    toolbar->addSeparator();
    m_searchEdit = new QLineEdit(this);
    m_searchEdit->setObjectName(QStringLiteral("searchEdit"));
    m_searchEdit->setPlaceholderText(tr("Search names, op types, backends, shapes (Ctrl+F)"));
    m_searchEdit->setClearButtonEnabled(true);
    m_searchEdit->setMinimumWidth(kSearchMinimumWidth);
    toolbar->addWidget(m_searchEdit);
    toolbar->addSeparator();
    toolbar->addAction(tr("Export image…"), this, &DocumentView::exportImageInteractive)
        ->setToolTip(tr("Save the graph as PNG, SVG or PDF"));
    return toolbar;
}

QWidget* DocumentView::buildPanes()
{
    m_graph = new GraphPanel(this);
    m_scene = m_graph->scene();
    m_view = m_graph->view();
    connect(m_graph, &GraphPanel::cancelRequested, this, [this] { m_controller->stopLayout(this); });
    connect(m_view, &GraphView::painted, this, [this] {
        if (!m_awaitingFirstPaint)
            return;
        m_awaitingFirstPaint = false;
        timings::report("first-paint", m_controller->millisecondsSinceRequest());
        startDeferredWork();
        Q_EMIT firstPainted();
    });

    m_operators = new OperatorPanel(this);
    m_properties = new PropertiesModel(this);
    m_propertiesView = new PropertiesView(this); // expands its rows and keeps the values in view
    m_propertiesView->setObjectName(QStringLiteral("propertiesView"));
    m_propertiesView->setModel(m_properties);

    m_search = new SearchPanel(m_searchEdit, this);
    connect(m_search, &SearchPanel::searchRequested, this, &DocumentView::runSearch);
    connect(m_search, &SearchPanel::nodeRequested, this, &DocumentView::selectNode);

    m_sideTabs = new QTabWidget(this);
    m_sideTabs->addTab(m_operators, tr("Operators"));
    m_sideTabs->addTab(m_search, tr("Search"));
    // The Heatmap and Load panels are built when first needed (issue 27: building every panel
    // here took about a third of a small program's first paint); empty pages hold their tabs.
    m_heatmapPage = new QWidget(this);
    m_sideTabs->addTab(m_heatmapPage, tr("Heatmap"));
    m_loadCheckPage = new QWidget(this);
    m_sideTabs->addTab(m_loadCheckPage, tr("Load"));
    m_sideTabs->setTabToolTip(m_sideTabs->indexOf(m_loadCheckPage),
        tr("Will it load: every operator checked against the kernel lists a runtime links"));
    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_sideTabs);
    side->addWidget(m_propertiesView);
    side->setStretchFactor(0, 3);
    side->setStretchFactor(1, 2);
    // The tabs' pages ask for a tall minimum (the Load tab's lists, the heat map's form): left
    // to it, a small window gave the properties 3 rows. Both sides give way down to a floor,
    // so the split set here holds: the properties keep about 40 % of the column.
    m_sideTabs->setMinimumHeight(kSideTabsMinimumHeight);
    m_propertiesView->setMinimumHeight(kPropertiesMinimumHeight);
    side->setSizes({ kSideTabsHeight, kPropertiesHeight });
    // The analysis panels sit under the graph, as wide as it; hidden until one is asked for.
    m_analysisTabs = new QTabWidget(this);
    m_analysisTabs->setObjectName(QStringLiteral("analysisTabs"));
    m_analysisTabs->setDocumentMode(true);
    m_analysisTabs->hide();
    buildAnalysisPanels();
    m_graphColumn = new QSplitter(Qt::Vertical, this);
    m_graphColumn->addWidget(m_graph);
    m_graphColumn->addWidget(m_analysisTabs);
    m_graphColumn->setStretchFactor(0, 3);
    m_graphColumn->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_graphColumn);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({ kGraphWidth, kSideWidth });
    // Dragged to the edge, the side tabs used to vanish with no sign of how to bring them back:
    // they stop at a narrow but usable width.
    split->setCollapsible(1, false);
    side->setMinimumWidth(kSideMinimumWidth);
    connect(m_operators, &OperatorPanel::opTypeSelected, this, &DocumentView::onOpTypeSelected);
    connect(m_operators, &OperatorPanel::nextRequested, this, [this] { walkMatches(+1); });
    connect(m_operators, &OperatorPanel::previousRequested, this, [this] { walkMatches(-1); });
    connect(m_operators, &OperatorPanel::exportRequested, this, &DocumentView::exportTableInteractive);
    // A placeholder brought to the front (a click on its tab) is replaced by its panel.
    for (QTabWidget* tabs : { m_sideTabs, m_analysisTabs })
        connect(tabs, &QTabWidget::currentChanged, this, [this, tabs](int index) { buildShownPage(tabs, index); });
    return split;
}

/// What clicks in the graph do: select, show properties, expand, open a delegate's tab.
void DocumentView::connectScene()
{
    connect(m_scene, &GraphScene::nodeSelected, this, &DocumentView::onNodeSelected);
    connect(m_scene, &GraphScene::selectionCleared, this, [this] {
        const auto document = m_controller->document();
        if (!document)
            return;
        // The timeline's marks are the selection's: they go with it.
        if (m_timeline)
            m_timeline->view()->showNode(NodeOrigin {});
        // In a delegate's tab, nothing selected means the delegate itself.
        if (m_context.delegateNode.valid())
            m_properties->showNode(*document, m_context.method, { m_context.delegateNode, NodeId::none() },
                m_controller->debug().etrecord.get());
        else
            m_properties->showDocument(*document, m_context.method);
        Q_EMIT placeChanged();
    });
    connect(m_scene, &GraphScene::edgeSelected, this, [this](int edgeIndex) {
        const auto presentation = this->presentation();
        const auto document = m_controller->document();
        if (!presentation || !document)
            return;
        const Edge& edge = presentation->flat.graph.edges[static_cast<std::size_t>(edgeIndex)];
        m_properties->showEdge(
            *document, m_context.method, presentation->flat.graph, presentation->origins[edge.from.index()], edgeIndex);
    });
    connect(m_scene, &GraphScene::expandToggled, this, &DocumentView::toggleExpanded);
    connect(m_scene, &GraphScene::nodeActivated, this, [this](const NodeOrigin& origin) {
        const auto presentation = this->presentation();
        if (origin.group() >= 0) {
            toggleExpanded(origin);
            return;
        }
        if (!presentation || origin.inner.valid())
            return;
        const Node& node = presentation->methodGraph().node(origin.top);
        if (node.kind == NodeKind::Operator || node.kind == NodeKind::Constant) {
            // A value drawn beside its reader (a sym_size.int's Int, a shared scale) goes to
            // where it is computed or first drawn; any other box is already there.
            if (NodeItem* item = m_scene->itemFor(origin)) {
                m_scene->selectNode(origin);
                m_view->centreOn(item->sceneBoundingRect().center());
            }
            return;
        }
        if (node.kind == NodeKind::Delegate && !node.subgraph)
            Q_EMIT statusMessage(tr("%1 #%2 cannot be decoded into a graph: its payload facts are in the properties")
                                     .arg(QString::fromStdString(node.label))
                                     .arg(node.delegate.value));
        else if (node.kind == NodeKind::Delegate && !m_context.delegateNode.valid())
            Q_EMIT openDelegateRequested(m_context.method, origin.top);
    });
}

SearchModel* DocumentView::searchModel() const
{
    return m_search->model();
}

std::shared_ptr<const Presentation> DocumentView::presentation() const
{
    return m_scene->presentation();
}

QString DocumentView::title() const
{
    const auto document = m_controller->document();
    if (!document)
        return QFileInfo(m_controller->path()).fileName();
    const QString file = QFileInfo(QString::fromStdString(document->path)).fileName();
    if (!document->program)
        return file;
    return m_context.delegateNode.valid() ? contextTitle(*document, m_context) : file;
}

void DocumentView::updateBreadcrumb()
{
    const auto document = m_controller->document();
    if (!document || !m_context.delegateNode.valid()) {
        m_breadcrumb->hide();
        return;
    }
    const QString file = QFileInfo(QString::fromStdString(document->path)).fileName().toHtmlEscaped();
    const Method& method = document->program->methods[static_cast<std::size_t>(m_context.method)];
    const Node& node
        = document->methods[static_cast<std::size_t>(m_context.method)].graph->node(m_context.delegateNode);
    m_breadcrumb->setText(QStringLiteral("%1 › <a href=\"parent\">%2</a> › <b>%3 #%4</b>")
                              .arg(file, QString::fromStdString(method.name).toHtmlEscaped(),
                                  QString::fromStdString(node.label).toHtmlEscaped())
                              .arg(node.delegate.value));
    m_breadcrumb->setToolTip(tr("Click the method to go back to the top-level graph"));
    m_breadcrumb->show();
}

void DocumentView::request()
{
    m_controller->requestPresentation(this, m_context, m_context.delegateNode.valid() ? std::set<int> {} : m_expanded);
}

void DocumentView::setMinimapVisible(bool visible)
{
    m_graph->setMinimapVisible(visible);
}

void DocumentView::setEmbedded()
{
    // Another view's marks (a comparison) are what the graph is about here: no kernel marks.
    m_kernelMarksVisible = false;
    if (m_loadCheck)
        m_loadCheck->setMarksVisible(false);
    if (auto* split = qobject_cast<QSplitter*>(m_panes)) {
        split->setCollapsible(1, true);
        split->widget(1)->setMinimumWidth(0);
        split->setSizes({ kGraphWidth + kSideWidth, 0 });
    }
    // The picker, its label before it and the separator after it.
    if (auto* toolbar = qobject_cast<QToolBar*>(m_methodBox->parentWidget())) {
        const QList<QAction*> actions = toolbar->actions();
        for (qsizetype i = 0; i < actions.size(); ++i)
            if (toolbar->widgetForAction(actions[i]) == m_methodBox)
                for (qsizetype j = std::max<qsizetype>(0, i - 1); j <= std::min(i + 1, actions.size() - 1); ++j)
                    actions[j]->setVisible(false);
    }
}

void DocumentView::showBusy(bool busy, const QString& text)
{
    m_graph->showBusy(busy, text);
}

void DocumentView::showPresentation(std::shared_ptr<const Presentation> presentation)
{
    showBusy(false);
    // A selection means the same node only in the same graph: ids of another method (or of a
    // delegate's own tab) name other nodes.
    const auto shown = this->presentation();
    const auto previousSelection
        = shown && shown->context == presentation->context ? m_scene->selectedNode() : std::nullopt;
    QElapsedTimer building;
    building.start();
    m_scene->setPresentation(presentation);
    timings::report("scene", timings::millisecondsSince(building));
    if (m_firstShow)
        m_awaitingFirstPaint = true;
    m_graph->updateLegend(presentation.get());
    // A heatmap not built yet has no table: no heat.
    m_scene->setHeat(m_heatmap ? m_heatmap->graphHeat() : GraphHeat {});
    m_graph->setHeatDescription(m_heatmap ? m_heatmap->graphColouringText() : QString());
    m_graph->minimap()->refit();
    applyDivergence(); // a closed group's box carries the mark of a divergence inside it
    if (m_firstShow) {
        m_firstShow = false;
        m_fitNext = false;
        m_view->showLegible();
    } else if (m_fitNext) {
        m_fitNext = false;
        m_view->fitAll();
    } else if (m_anchorNode && m_anchor) {
        if (const auto position = anchorPosition(*m_anchorNode))
            m_view->centreOn(*position + *m_anchor);
    }
    m_anchor.reset();
    m_anchorNode.reset();
    if (m_restoreView) {
        // A reload: the same view as before, the selection marked where it is without moving.
        m_view->setZoom(m_restoreView->first);
        m_view->centreOn(m_restoreView->second);
        m_restoreView.reset();
        if (m_pending) {
            m_scene->selectNode(*m_pending);
            if (m_scene->itemFor(*m_pending))
                onNodeSelected(*m_pending);
            m_pending.reset();
        }
    } else if (m_pending) {
        const NodeOrigin pending = *m_pending;
        m_pending.reset();
        selectNode(pending);
    } else if (previousSelection) {
        m_scene->selectNode(previousSelection);
    }
    if (!m_matchType.isEmpty())
        onOpTypeSelected(m_matchType);
    Q_EMIT statusMessage(
        tr("%1 nodes, %2 edges").arg(presentation->flat.graph.nodes.size()).arg(presentation->flat.graph.edges.size()));
    Q_EMIT presentationShown();
}

std::optional<QPointF> DocumentView::anchorPosition(const NodeOrigin& owner) const
{
    // The top-left corner: an opening box grows right and down from it (composeOpening).
    if (NodeItem* item = m_scene->itemFor(owner))
        return item->mapRectToScene(item->boxRect()).topLeft();
    for (ClusterItem* cluster : m_scene->clusterItems())
        if (cluster->owner() == owner)
            return cluster->sceneBoundingRect().adjusted(1, 1, -1, -1).topLeft();
    return std::nullopt;
}

DocumentView::State DocumentView::state() const
{
    State state;
    const auto document = m_controller->document();
    if (document && document->program && m_context.method >= 0
        && static_cast<std::size_t>(m_context.method) < document->program->methods.size())
        state.method = document->program->methods[static_cast<std::size_t>(m_context.method)].name;
    state.expanded = m_expanded;
    state.selection = m_scene->selectedNode();
    state.zoom = m_view->zoom();
    state.centre = m_view->mapToScene(m_view->viewport()->rect().center());
    // A reload not yet drawn: what it is about to show.
    if (m_restoreView) {
        state.selection = m_pending;
        state.zoom = m_restoreView->first;
        state.centre = m_restoreView->second;
    }
    return state;
}

QStringList DocumentView::restoreState(const State& state, const Document& before)
{
    QStringList lost;
    const auto document = m_controller->document();
    if (!document || !document->program || document->program->methods.empty())
        return lost;
    const auto& methods = document->program->methods;
    int method = -1;
    for (std::size_t m = 0; m < methods.size(); ++m)
        if (methods[m].name == state.method)
            method = static_cast<int>(m);
    if (method < 0) {
        if (!state.method.empty())
            lost << tr("method %1 is gone").arg(QString::fromStdString(state.method));
        return lost;
    }
    if (!m_context.delegateNode.valid() && method != m_context.method) {
        const QSignalBlocker blocker(m_methodBox);
        m_methodBox->setCurrentIndex(method);
        m_context.method = method;
        m_lastSelected.reset();
        refreshOperatorTable();
        m_properties->showDocument(*document, method);
        refreshDebugData();
        Q_EMIT titleChanged(title());
    }
    const Graph& graph = *document->methods[static_cast<std::size_t>(method)].graph;
    const auto nodeExists
        = [&graph](NodeId id) { return id.valid() && static_cast<std::size_t>(id.value) < graph.nodes.size(); };
    // Groups are cut from the instruction list: the same count gives the same groups.
    const Method* old = nullptr;
    if (before.program)
        for (const Method& m : before.program->methods)
            if (m.name == state.method)
                old = &m;
    const bool sameGroups = old
        && old->instructionCounts().total() == methods[static_cast<std::size_t>(method)].instructionCounts().total();
    std::set<int> expanded;
    for (const int key : state.expanded) {
        if (key < -1) {
            if (sameGroups)
                expanded.insert(key);
            continue;
        }
        const NodeId id(key);
        if (nodeExists(id) && graph.node(id).kind == NodeKind::Delegate && graph.node(id).subgraph)
            expanded.insert(key);
        else
            lost << tr("delegate node %1 is no longer an expandable delegate").arg(key);
    }
    if (!m_context.delegateNode.valid())
        m_expanded = expanded;
    if (const auto& selection = state.selection) {
        bool exists = selection->group() >= 0 ? sameGroups : nodeExists(selection->top);
        if (exists && selection->inner.valid() && selection->group() < 0) {
            const auto& subgraph = graph.node(selection->top).subgraph;
            exists = subgraph && static_cast<std::size_t>(selection->inner.value) < subgraph->nodes.size();
        }
        if (exists)
            m_pending = *selection;
        else
            lost << tr("the selected node is gone");
    }
    m_restoreView = std::make_pair(state.zoom, state.centre);
    m_firstShow = false;
    m_awaitingFirstPaint = true;
    request();
    return lost;
}

void DocumentView::setMethod(int method)
{
    showPlace(method, std::nullopt);
}

void DocumentView::showPlace(int method, const std::optional<NodeOrigin>& origin)
{
    const auto document = m_controller->document();
    if (!document || !document->program || method < 0
        || static_cast<std::size_t>(method) >= document->program->methods.size() || m_context.delegateNode.valid())
        return;
    if (method == m_context.method) {
        if (origin)
            selectNode(*origin);
        else
            m_scene->clearSelection();
        return;
    }
    m_context.method = method;
    if (m_methodBox->currentIndex() != method) {
        const QSignalBlocker blocker(m_methodBox);
        m_methodBox->setCurrentIndex(method);
    }
    m_expanded.clear();
    m_lastSelected.reset();
    m_pending = origin;
    m_operators->clearOpType();
    m_matchType.clear();
    m_matches.clear();
    m_scene->clearSelection();
    m_scene->setHighlighted({});
    m_firstShow = true;
    refreshOperatorTable();
    m_properties->showDocument(*document, method);
    refreshDebugData();
    runSearch(m_searchEdit->text());
    request();
    Q_EMIT titleChanged(title());
    Q_EMIT placeChanged();
}

bool DocumentView::zoomToSelection()
{
    const auto selected = m_scene->selectedNode();
    NodeItem* item = selected ? m_scene->itemFor(*selected) : nullptr;
    if (!item)
        return false;
    m_view->zoomTo(item->sceneBoundingRect());
    return true;
}

void DocumentView::setEdgeLabelsVisible(bool visible)
{
    m_scene->setEdgeLabelsVisible(visible);
}

void DocumentView::redraw()
{
    if (m_controller->document() && m_controller->document()->program)
        request();
}

void DocumentView::toggleExpanded(const NodeOrigin& owner)
{
    if (m_context.delegateNode.valid())
        return;
    // Remember where the delegate or group sits relative to the view centre, to keep it there.
    const QPointF centre = m_view->mapToScene(m_view->viewport()->rect().center());
    if (const auto position = anchorPosition(owner))
        m_anchor = centre - *position;
    m_anchorNode = owner;
    const int key = expandKeyOf(owner);
    if (!m_expanded.erase(key))
        m_expanded.insert(key);
    request();
}

void DocumentView::expandAll()
{
    const auto presentation = this->presentation();
    if (!presentation || m_context.delegateNode.valid())
        return;
    int delegates = 0;
    int inClosedGroups = 0;
    for (const Node& node : presentation->methodGraph().nodes)
        if (node.kind == NodeKind::Delegate && node.subgraph) {
            m_expanded.insert(node.id.value);
            ++delegates;
            if (presentation->closedGroupOf(node.id) >= 0)
                ++inClosedGroups;
        }
    if (delegates == 0) {
        Q_EMIT statusMessage(tr("No delegate here has a decoded inner graph; their payload facts are in the "
                                "properties of each delegate"));
        return;
    }
    // Groups stay as they are (opening them all would lay out the whole long method at once).
    if (inClosedGroups > 0)
        Q_EMIT statusMessage(tr(
            "%n delegate(s) inside closed groups will show expanded when their group opens", nullptr, inClosedGroups));
    m_fitNext = true;
    request();
}

void DocumentView::collapseAll()
{
    if (m_expanded.empty())
        return;
    m_expanded.clear();
    m_fitNext = true;
    request();
}

std::optional<NodeOrigin> DocumentView::selectedNode() const
{
    return m_scene->selectedNode();
}

void DocumentView::selectNode(const NodeOrigin& origin)
{
    const auto presentation = this->presentation();
    if (!presentation)
        return;
    if (m_context.delegateNode.valid() && origin.top != m_context.delegateNode)
        return;
    if (origin.group() >= 0) {
        m_scene->selectNode(origin);
        if (NodeItem* item = m_scene->itemFor(origin))
            m_view->centreOn(item->pos(), true);
        return;
    }
    // A node inside a closed group: open the group, select once it is drawn.
    if (const int group = presentation->closedGroupOf(origin.top); group >= 0) {
        m_pending = origin;
        m_expanded.insert(expandKeyOfGroup(group));
        request();
        return;
    }
    if (!m_context.delegateNode.valid() && origin.inner.valid() && !m_expanded.count(origin.top.value)) {
        m_pending = origin;
        m_expanded.insert(origin.top.value);
        request();
        return;
    }
    NodeOrigin target = origin;
    if (!m_scene->itemFor(target) && !origin.inner.valid() && m_expanded.count(origin.top.value)) {
        // An expanded delegate is drawn as its cluster: go to its first inner node.
        const Node& node = presentation->methodGraph().node(origin.top);
        if (node.subgraph && !node.subgraph->nodes.empty())
            target.inner = node.subgraph->nodes.front().id;
    }
    m_scene->selectNode(target);
    if (NodeItem* item = m_scene->itemFor(target)) {
        m_view->centreOn(item->pos(), true);
        onNodeSelected(target);
    }
}

void DocumentView::onNodeSelected(const NodeOrigin& origin)
{
    Q_EMIT placeChanged();
    // Panels not built yet are given it when they are.
    m_lastSelected = origin;
    m_lastSizeNode = std::make_pair(m_context.method, origin);
    // Also while the timeline is hidden: shown later, it must not mark an older selection.
    if (m_timeline && m_analysisTabs->indexOf(m_timeline) >= 0)
        m_timeline->view()->showNode(origin);
    if (m_size)
        m_size->showNode(m_context.method, origin);
    if (m_loadCheck)
        m_loadCheck->showNode(origin);
    if (m_memory)
        m_memory->showNode(origin);
    if (const auto presentation = this->presentation(); presentation && presentation->grouping && origin.group() >= 0) {
        m_properties->showGroup(*presentation->grouping, origin.group());
        return;
    }
    if (auto document = m_controller->document())
        m_properties->showNode(*document, m_context.method, origin, m_controller->debug().etrecord.get());
}

void DocumentView::refreshOperatorTable()
{
    const auto document = m_controller->document();
    if (!document || !document->program)
        return;
    const Graph& top = *document->methods[static_cast<std::size_t>(m_context.method)].graph;
    // Counting the operators inside delegates reads their inner graphs: those the open deferred
    // are decoded on a worker after the first paint, and the table is counted when they are
    // (not here on the UI thread before the first paint).
    m_operatorsWaiting = !m_context.delegateNode.valid() && m_controller->graphsPending(m_context.method)
        && (!m_painted || m_controller->decodingDeferredGraphs());
    if (m_operatorsWaiting) {
        m_operators->setTables(OperatorTable {}, std::nullopt);
        return;
    }
    if (!m_context.delegateNode.valid()) {
        const std::string method = document->program->methods[static_cast<std::size_t>(m_context.method)].name;
        OperatorTable table = computeOperatorTable(top);
        // An ETRecord's edge program: get_delegation_info's own table, as `etscope ops` gives it.
        if (document->etrecord && !etrecordEdgeMethod(method).empty())
            if (auto exact = etrecordOperatorTable(*document->etrecord, etrecordEdgeMethod(method)))
                table = std::move(exact).value();
        // Its keys (node names without their number: aten_mul_tensor) shown as the nodes spell
        // their target (aten.mul.Tensor).
        QHash<QString, QString> names;
        if (const ETRecord* record = document->etrecord ? &*document->etrecord : m_controller->debug().etrecord.get())
            names = edgeOperatorNames(*record);
        m_operators->setDisplayNames(std::move(names));
        m_operators->setTables(std::move(table), m_controller->debug().operatorTable(method));
        return;
    }
    // Inside a delegate every node is a delegated one.
    OperatorTable table;
    table.delegatedSubgraphs = 1;
    std::map<std::string, int> counts;
    if (const auto& subgraph = top.node(m_context.delegateNode).subgraph)
        for (const Node& node : subgraph->nodes)
            if (node.kind == NodeKind::Operator)
                ++counts[node.opType];
    for (const auto& [type, count] : counts)
        table.rows.push_back({ type, count, 0 });
    finishOperatorTable(table);
    m_operators->setDisplayNames({});
    m_operators->setTable(table);
}

void DocumentView::onOpTypeSelected(const QString& opType)
{
    // A new layout recomputes the marks of the same type without losing the walk position.
    if (opType != m_matchType)
        m_matchIndex = -1;
    m_matchType = opType;
    m_matches.clear();
    std::set<std::pair<int, int>> marks;
    const auto presentation = this->presentation();
    if (!opType.isEmpty() && presentation) {
        for (const NodeOrigin& origin : nodesOfType(presentation->methodGraph(), opType.toStdString())) {
            if (m_context.delegateNode.valid() && origin.top != m_context.delegateNode)
                continue;
            m_matches.push_back(origin);
            // Matches inside a collapsed delegate or a closed group mark that box.
            if (const int shown = presentation->shownAt(origin); shown >= 0)
                marks.insert(GraphScene::keyOf(presentation->origins[static_cast<std::size_t>(shown)]));
        }
    }
    m_scene->setHighlighted(marks);
    m_operators->setMatchStatus(
        opType.isEmpty() ? QString() : tr("%n node(s)", nullptr, static_cast<int>(m_matches.size())));
}

void DocumentView::walkMatches(int step)
{
    if (m_matches.empty())
        return;
    const int count = static_cast<int>(m_matches.size());
    m_matchIndex = m_matchIndex < 0 ? (step > 0 ? 0 : count - 1) : (m_matchIndex + step + count) % count;
    m_operators->setMatchStatus(tr("%1 of %2").arg(m_matchIndex + 1).arg(count));
    selectNode(m_matches[static_cast<std::size_t>(m_matchIndex)]);
}

void DocumentView::focusSearch()
{
    m_sideTabs->setCurrentWidget(m_search);
    m_searchEdit->setFocus();
    m_searchEdit->selectAll();
}

void DocumentView::runSearch(const QString& text)
{
    const auto document = m_controller->document();
    if (!document || !document->program)
        return;
    const auto presentation = this->presentation();
    m_search->search(*document->methods[static_cast<std::size_t>(m_context.method)].graph, text, m_context.delegateNode,
        presentation && presentation->context.method == m_context.method ? presentation->grouping : nullptr,
        QString::fromStdString(document->program->methods[static_cast<std::size_t>(m_context.method)].name));
    if (!text.trimmed().isEmpty()) {
        // The hits are what the graph marks now: an op type picked earlier would mix in.
        m_operators->clearOpType();
        m_sideTabs->setCurrentWidget(m_search);
    }
}

void DocumentView::activateSearchResult(int row)
{
    m_search->activate(row);
}

bool DocumentView::exportImage(const QString& path, QString* error)
{
    return succeeded(exportGraphImage(*m_scene, m_controller->path(), path), error);
}

bool DocumentView::exportTable(const QString& path, TableFormat format, QString* error)
{
    return succeeded(exportTableFile(operatorTable(), format, path), error);
}

Table DocumentView::operatorTable() const
{
    Table table = m_operators->visibleTable();
    table.title
        = QStringLiteral("Operators of %1 — %2").arg(QFileInfo(m_controller->path()).fileName(), title()).toStdString();
    return table;
}

void DocumentView::refreshDebugData()
{
    const auto document = m_controller->document();
    if (!document || !document->program)
        return;
    const bool nothing = m_controller->debug().empty() && (!m_heatmap || m_heatmap->tableCount() == 0);
    m_heatPending = !nothing;
    refreshAnalysis();
    if (nothing) {
        m_heatData.reset();
        applyDivergence();
        Q_EMIT debugDataShown();
        return;
    }
    // Built on a worker (a million-row Inspector table is read again for it): the heatmap
    // keeps what it shows until the new tables arrive, and says so (issue 27 #13).
    heatmap()->setNote(tr("Reading the debug data for this view…"));
    const int method = m_context.method;
    m_controller->requestHeatTables(
        this, method, m_context.delegateNode, [this, method](std::shared_ptr<const HeatData> data) {
            m_heatPending = false;
            if (!data) {
                heatmap()->setNote(tr("Reading the debug data was stopped: the heatmap shows what it showed before. "
                                      "Switch methods or attach again to read it."));
                Q_EMIT debugDataShown();
                return;
            }
            if (method != m_context.method)
                return;
            showHeatData(std::move(data));
        });
}

void DocumentView::showHeatData(std::shared_ptr<const HeatData> data)
{
    const auto document = m_controller->document();
    heatmap()->setNote({});
    m_heatData = data;
    m_heatMethod = m_context.method;
    const bool hadData = m_heatmap->tableCount() > 0;
    QElapsedTimer showing;
    showing.start();
    m_heatmap->setTables(data->tables);
    applyDivergence();
    refreshTimeline();
    timings::report("heat-table", timings::millisecondsSince(showing));
    if (!data->warnings.empty() || !m_controller->debugWarnings().empty()) {
        std::vector<Warning> all = document->warnings;
        all.insert(all.end(), m_controller->debugWarnings().begin(), m_controller->debugWarnings().end());
        all.insert(all.end(), data->warnings.begin(), data->warnings.end());
        m_banner->setWarnings(all);
    }
    if (!hadData && m_heatmap->tableCount() > 0)
        m_sideTabs->setCurrentWidget(m_heatmap);
    Q_EMIT debugDataShown();
}

std::optional<NodeOrigin> DocumentView::firstDivergence() const
{
    if (!m_heatData || m_heatMethod != m_context.method || !m_heatData->divergence || !m_heatData->divergence->first
        || !m_heatData->divergence->first->runNode.top.valid())
        return std::nullopt;
    return m_heatData->divergence->first->runNode;
}

void DocumentView::applyDivergence()
{
    const DivergenceSummary* summary
        = m_heatData && m_heatMethod == m_context.method && m_heatData->divergence ? &*m_heatData->divergence : nullptr;
    if (!summary) {
        if (m_heatmap) // a heatmap built later starts so
            m_heatmap->setDivergence({}, false);
        m_scene->setMarks(GraphScene::MarkLayer::Divergence, {});
        return;
    }
    const QString thresholds = QString::fromStdString(summary->thresholds);
    if (!summary->first) {
        heatmap()->setDivergence(
            (summary->compared == 1 ? tr("No divergence: 1 row compared, none crosses %1.")
                                    : tr("No divergence: %1 rows compared, none crosses %2.").arg(summary->compared))
                .arg(thresholds),
            false);
        m_scene->setMarks(GraphScene::MarkLayer::Divergence, {});
        return;
    }
    const core::FirstDivergence& first = *summary->first;
    const QString crossing = QString::fromStdString(first.crossing.text);
    const QString path = QString::fromStdString(core::joinNodePath(first.path));
    const NodeOrigin origin = first.runNode;
    // A delegate's tab shows only its own inner nodes.
    const bool here = origin.top.valid() && (!m_context.delegateNode.valid() || origin.top == m_context.delegateNode);
    heatmap()->setDivergence(tr("First divergence: %1 — %2").arg(path, crossing), here,
        here ? tr("Select it on the graph (Go › First Divergence). Thresholds: %1; the CLI's "
                  "`etscope gap … --first-divergence --threshold METRIC=VALUE` sets others.")
                   .arg(thresholds)
             : tr("Not in this tab: it is in the method's tab"));

    GraphScene::Marks marks;
    if (here) {
        const QColor colour = divergenceColour();
        const QString tip = tr("First divergence: %1 (%2)").arg(crossing, thresholds);
        marks[GraphScene::keyOf(origin)] = NodeMark { colour, tr("① first divergence"), tip };
        // Where the node is hidden, the box hiding it says so: a collapsed delegate, a closed
        // group of a long method. Their keys name no drawn box once they are open.
        if (origin.inner.valid() && !m_context.delegateNode.valid())
            marks[GraphScene::keyOf({ origin.top, core::NodeId::none() })] = NodeMark { colour, tr("① inside"),
                tr("The first divergence is inside: %1 — %2").arg(path, crossing) };
        const auto presentation = this->presentation();
        if (presentation && presentation->grouping && presentation->context.method == m_context.method)
            if (const int group = presentation->grouping->groupOfNode(origin.top); group >= 0)
                marks[GraphScene::keyOf(NodeOrigin::ofGroup(group))] = NodeMark { colour, tr("① inside"),
                    tr("The first divergence is inside this group: %1 — %2").arg(path, crossing) };
    }
    m_scene->setMarks(GraphScene::MarkLayer::Divergence, std::move(marks));
}

bool DocumentView::goToFirstDivergence()
{
    const auto origin = firstDivergence();
    if (!origin || (m_context.delegateNode.valid() && origin->top != m_context.delegateNode)) {
        const DivergenceSummary* summary = m_heatData && m_heatMethod == m_context.method && m_heatData->divergence
            ? &*m_heatData->divergence
            : nullptr;
        QString why;
        if (origin)
            why = tr("The first divergence is outside this delegate: see the method's tab");
        else if (summary && summary->first)
            why = tr("The first divergence matched no node of the graph: %1")
                      .arg(QString::fromStdString(core::joinNodePath(summary->first->path)));
        else if (summary)
            why = tr("No divergence: none of the %1 compared rows crosses %2")
                      .arg(summary->compared)
                      .arg(QString::fromStdString(summary->thresholds));
        else if (!m_controller->debug().inspectorPath.isEmpty())
            why = tr("The first divergence of an imported Inspector table is the CLI's: "
                     "etscope gap … --inspector-table FILE --first-divergence");
        else
            why = tr("No numeric gap here: attach a run and a reference ETDump (File › Attach Debug Data)");
        Q_EMIT statusMessage(why);
        return false;
    }
    selectNode(*origin);
    return true;
}

void DocumentView::buildAnalysisPanels()
{
    // What makes the file this big: for programs and .ptd files (computed when first shown).
    if (const auto document = m_controller->document(); document && document->kind != FileKind::ETDump
        && document->kind != FileKind::ETRecord && document->kind != FileKind::Unknown) {
        m_sizePage = new QWidget(this);
        m_analysisTabs->addTab(m_sizePage, tr("Size"));
    }
    // The memory plan of the method shown: for programs, in the method's own tab.
    if (const auto document = m_controller->document(); document && document->program && !document->etrecord
        && (document->kind == FileKind::Program || document->kind == FileKind::BundledProgram)
        && !m_context.delegateNode.valid()) {
        m_memoryPage = new QWidget(this);
        m_analysisTabs->addTab(m_memoryPage, tr("Memory"));
    }
    // The timeline of an attached run has a tab only while a run is attached (refreshTimeline).
}

void DocumentView::replacePage(QTabWidget* tabs, QWidget*& placeholder, QWidget* panel)
{
    const int index = placeholder ? tabs->indexOf(placeholder) : -1;
    if (index < 0)
        return;
    m_swappingPage = true;
    const bool current = tabs->currentIndex() == index;
    const QString tooltip = tabs->tabToolTip(index);
    tabs->insertTab(index, panel, tabs->tabText(index));
    tabs->setTabToolTip(index, tooltip);
    // In front before the placeholder goes, so that no other page comes to the front meanwhile.
    if (current)
        tabs->setCurrentIndex(index);
    tabs->removeTab(index + 1);
    m_swappingPage = false;
    placeholder->deleteLater();
    placeholder = nullptr;
}

void DocumentView::buildShownPage(QTabWidget* tabs, int index)
{
    QWidget* page = tabs->widget(index);
    if (m_swappingPage || !page)
        return;
    if (page == m_heatmapPage)
        heatmap();
    else if (page == m_loadCheckPage)
        loadCheck();
    else if (page == m_sizePage)
        size();
    else if (page == m_memoryPage)
        memory();
}

HeatmapPanel* DocumentView::heatmap()
{
    if (m_heatmap)
        return m_heatmap;
    m_heatmap = new HeatmapPanel(this);
    connect(m_heatmap, &HeatmapPanel::graphColouringChanged, this, [this] {
        m_scene->setHeat(m_heatmap->graphHeat());
        m_graph->setHeatDescription(m_heatmap->graphColouringText());
    });
    connect(m_heatmap, &HeatmapPanel::nodeRequested, this, &DocumentView::selectNode);
    connect(m_heatmap, &HeatmapPanel::divergenceRequested, this, &DocumentView::goToFirstDivergence);
    // Until built, the only thing it was told is "no divergence" (applyDivergence): anything
    // else builds it first.
    if (m_analysisRefreshed)
        m_heatmap->setDivergence({}, false);
    replacePage(m_sideTabs, m_heatmapPage, m_heatmap);
    return m_heatmap;
}

LoadCheckPanel* DocumentView::loadCheck()
{
    if (m_loadCheck)
        return m_loadCheck;
    m_loadCheck = new LoadCheckPanel(this);
    connect(m_loadCheck, &LoadCheckPanel::nodeRequested, this, &DocumentView::selectNode);
    connect(m_loadCheck, &LoadCheckPanel::statusMessage, this, &DocumentView::statusMessage);
    connect(m_loadCheck, &LoadCheckPanel::marksChanged, m_scene, [this](const GraphScene::Marks& marks) {
        m_scene->setMarks(GraphScene::MarkLayer::LoadCheck, marks);
        // The badge's meaning in the legend while some node carries it.
        const QColor colour = problemColour();
        m_graph->setMarksDescription(marks.empty()
                ? QString()
                : tr("<span style=\"background:%1;color:%2\">&nbsp;✕&nbsp;</span>&nbsp;no kernel in the "
                     "Load tab's lists")
                      .arg(colour.name(),
                          colour.lightnessF() > 0.6 ? QStringLiteral("black") : QStringLiteral("white")));
    });
    connect(m_loadCheck, &LoadCheckPanel::highlightRequested, this, [this](const std::set<std::pair<int, int>>& keys) {
        m_operators->clearOpType(); // one operator highlighted at a time
        m_scene->setHighlighted(keys);
    });
    connect(m_operators, &OperatorPanel::opTypeSelected, m_loadCheck, [this](const QString& opType) {
        if (!opType.isEmpty())
            m_loadCheck->clearActive();
    });
    connect(
        this, &DocumentView::presentationShown, m_loadCheck, [this] { m_loadCheck->setPresentation(presentation()); });

    m_loadCheck->setMarksVisible(m_kernelMarksVisible);
    replacePage(m_sideTabs, m_loadCheckPage, m_loadCheck);
    // What it would have been given: the document (unless it waits for deferred inner graphs),
    // the drawn graph and the node selected.
    if (m_analysisRefreshed)
        refreshLoadCheck();
    if (const auto shown = presentation())
        m_loadCheck->setPresentation(shown);
    if (m_lastSelected)
        m_loadCheck->showNode(*m_lastSelected);
    return m_loadCheck;
}

TimelinePanel* DocumentView::timeline()
{
    if (m_timeline)
        return m_timeline;
    m_timeline = new TimelinePanel(this);
    connect(m_timeline, &TimelinePanel::nodeRequested, this, &DocumentView::selectNode);
    connect(m_timeline, &TimelinePanel::statusMessage, this, &DocumentView::statusMessage);
    m_timeline->hide();
    return m_timeline;
}

SizePanel* DocumentView::size()
{
    if (m_size)
        return m_size;
    m_size = new SizePanel(this);
    connect(m_size, &SizePanel::placeRequested, this, &DocumentView::showPlace);
    connect(m_size, &SizePanel::statusMessage, this, &DocumentView::statusMessage);
    if (m_sizePage)
        m_size->setDocument(m_controller->document());
    else
        m_size->hide();
    if (m_lastSizeNode)
        m_size->showNode(m_lastSizeNode->first, m_lastSizeNode->second);
    replacePage(m_analysisTabs, m_sizePage, m_size);
    return m_size;
}

MemoryPanel* DocumentView::memory()
{
    if (m_memory)
        return m_memory;
    m_memory = new MemoryPanel(this);
    connect(m_memory, &MemoryPanel::nodeRequested, this, &DocumentView::selectNode);
    connect(m_memory, &MemoryPanel::statusMessage, this, &DocumentView::statusMessage);
    if (!m_memoryPage)
        m_memory->hide();
    // The method shown, then the node selected since it was (setMethod forgets older ones).
    if (m_analysisRefreshed)
        m_memory->setMethod(m_controller->document(), m_context.method);
    if (m_lastSelected)
        m_memory->showNode(*m_lastSelected);
    replacePage(m_analysisTabs, m_memoryPage, m_memory);
    return m_memory;
}

HeatmapPanel* DocumentView::heatmapPanel() const
{
    return const_cast<DocumentView*>(this)->heatmap();
}

LoadCheckPanel* DocumentView::loadCheckPanel() const
{
    return const_cast<DocumentView*>(this)->loadCheck();
}

TimelinePanel* DocumentView::timelinePanel() const
{
    return const_cast<DocumentView*>(this)->timeline();
}

SizePanel* DocumentView::sizePanel() const
{
    return const_cast<DocumentView*>(this)->size();
}

MemoryPanel* DocumentView::memoryPanel() const
{
    return const_cast<DocumentView*>(this)->memory();
}

bool DocumentView::isPanelBuilt(Panel panel) const
{
    switch (panel) {
    case Panel::Heatmap:
        return m_heatmap != nullptr;
    case Panel::LoadCheck:
        return m_loadCheck != nullptr;
    case Panel::Timeline:
        return m_timeline != nullptr;
    case Panel::Size:
        return m_size != nullptr;
    case Panel::Memory:
        return m_memory != nullptr;
    }
    return false;
}

void DocumentView::refreshAnalysis()
{
    m_analysisRefreshed = true;
    refreshTimeline();
    refreshLoadCheck();
    if (m_memory)
        m_memory->setMethod(m_controller->document(), m_context.method);
}

void DocumentView::startDeferredWork()
{
    if (m_painted)
        return;
    // Inner graphs the open deferred are decoded now, off the first paint's path.
    m_painted = true;
    // The Load tab is built now, off the first paint's path (its check marks the graph).
    QTimer::singleShot(0, this, [this] { loadCheck(); });
    m_controller->decodeDeferredGraphs();
    if (m_controller->decodingDeferredGraphs())
        return; // deferredDecodeFinished counts them
    if (m_operatorsWaiting)
        refreshOperatorTable();
    if (m_loadCheckWaiting)
        refreshLoadCheck();
}

void DocumentView::refreshLoadCheck()
{
    // The check counts the operators inside delegates (the delegated share): like the operator
    // table it waits for the inner graphs the open deferred, decoded after the first paint.
    m_loadCheckWaiting = m_controller->graphsPending() && (!m_painted || m_controller->decodingDeferredGraphs());
    // Not built yet: it is given the document when it is (loadCheck()).
    if (!m_loadCheckWaiting && m_loadCheck)
        m_loadCheck->setDocument(m_controller->document(), m_context);
}

void DocumentView::showLoadCheck()
{
    m_sideTabs->setCurrentWidget(loadCheck());
}

void DocumentView::setKernelMarksVisible(bool visible)
{
    m_kernelMarksVisible = visible;
    if (m_loadCheck)
        m_loadCheck->setMarksVisible(visible);
}

void DocumentView::showAnalysis(QWidget* panel)
{
    if (!panel || m_analysisTabs->indexOf(panel) < 0) {
        m_analysisTabs->hide();
        return;
    }
    const bool wasHidden = m_analysisTabs->isHidden();
    m_analysisTabs->setCurrentWidget(panel);
    m_analysisTabs->show();
    if (wasHidden) {
        // Room for the panel, up to two fifths of the column: the graph stays the main view. (A
        // third left the Size panel's list of kinds clipped and the memory chart cramped at
        // 1600×1000.)
        const int total = std::max(m_graphColumn->height(), kGraphColumnMinimum);
        const int wanted = panel->sizeHint().height() + m_analysisTabs->tabBar()->sizeHint().height();
        const int height = std::clamp(wanted, total / 4, total * 2 / 5);
        m_graphColumn->setSizes({ total - height, height });
    }
}

void DocumentView::refreshTimeline()
{
    // Built with the heat tables, on a worker (showHeatData): until those of this method
    // arrive, the timeline shown stays.
    const bool haveRun = m_controller->debug().run && !m_context.delegateNode.valid();
    const bool current = m_heatData && m_heatMethod == m_context.method;
    if (haveRun && !current && m_heatPending)
        return;
    const auto timeline = haveRun && current ? m_heatData->timeline : nullptr;
    const int index = m_timeline ? m_analysisTabs->indexOf(m_timeline) : -1;
    if (!timeline) {
        if (m_timeline)
            m_timeline->setTimeline(nullptr);
        if (index >= 0) {
            m_analysisTabs->removeTab(index);
            if (m_analysisTabs->count() == 0)
                m_analysisTabs->hide();
        }
        return;
    }
    this->timeline()->setTimeline(timeline);
    if (index < 0) {
        // A run just attached: its timeline comes to the front.
        m_analysisTabs->insertTab(0, m_timeline, tr("Timeline"));
        showAnalysis(m_timeline);
    }
}

void DocumentView::setHeatTable(HeatTable table)
{
    heatmap()->setTable(std::move(table));
    m_sideTabs->setCurrentWidget(m_heatmap);
}

QString DocumentView::printout() const
{
    const auto document = m_controller->document();
    if (!document || !document->program)
        return {};
    const Graph& top = *document->methods[static_cast<std::size_t>(m_context.method)].graph;
    if (m_context.delegateNode.valid() && top.node(m_context.delegateNode).subgraph)
        return QString::fromStdString(delegatedGraphText(*top.node(m_context.delegateNode).subgraph));
    return QString::fromStdString(delegatedGraphText(top));
}

void DocumentView::exportImageInteractive()
{
    const auto document = m_controller->document();
    const QString base
        = graphImageBaseName(m_controller->path(), document ? contextTitle(*document, m_context) : QString());
    const QString saved = saveWithDialog(this, tr("Export image"), base + QStringLiteral(".svg"),
        tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"),
        [this](const QString& path) { return exportGraphImage(*m_scene, m_controller->path(), path); });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

void DocumentView::exportTableInteractive(TableFormat format)
{
    const QString extension = QString::fromLatin1(tableFormatExtension(format).data());
    const QString base = QFileInfo(m_controller->path()).completeBaseName() + QStringLiteral("-operators.") + extension;
    const QString saved = saveWithDialog(this, tr("Export operator table"), base, tr("Table (*.%1)").arg(extension),
        [this, format](const QString& path) { return exportTableFile(operatorTable(), format, path); });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
