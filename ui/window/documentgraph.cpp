// SPDX-License-Identifier: MIT
// What a tab asks its document to lay out, and what it does with the answer: the first layout,
// expanding and collapsing delegates and groups, keeping the view still across a re-layout, and
// coming back to a reloaded file's state.
#include "ui/window/documentview.h"

#include "ui/document/documentcontroller.h"
#include "ui/document/timings.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/window/warningbanner.h"

#include <QComboBox>
#include <QElapsedTimer>

namespace etscope::ui {

using namespace etscope::core;

void DocumentView::request()
{
    // Answered to this view alone: another tab's layout (a delegate's tab of this file) neither
    // shows nor clears this one's "Laying out…" (issue 27 #15), and an answer superseded by this
    // view's newer request never comes.
    LayoutAnswer answer;
    answer.started = [this](const QString& what) { whenBuilt([this, what] { showBusy(true, what); }); };
    answer.ready = [this](std::shared_ptr<const Presentation> presentation) {
        whenBuilt([this, presentation] { showPresentation(presentation); });
    };
    answer.failed = [this](const QString& message) { whenBuilt([this, message] { onLayoutFailed(message); }); };
    answer.stopped = [this] { whenBuilt([this] { onLayoutStopped(); }); };
    m_controller->requestPresentation(
        this, m_context, m_context.delegateNode.valid() ? std::set<int> {} : m_expanded, std::move(answer));
}

void DocumentView::onLayoutFailed(const QString& message)
{
    showBusy(false);
    startDeferredWork(); // no first paint to wait for
    Q_EMIT statusMessage(message);
    std::vector<Warning> warnings = m_banner->warnings();
    warnings.insert(warnings.begin(), Warning { message.toStdString(), std::nullopt });
    m_banner->setWarnings(warnings);
}

void DocumentView::onLayoutStopped()
{
    showBusy(false);
    startDeferredWork(); // no first paint to wait for
    Q_EMIT statusMessage(tr("Layout stopped"));
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
        tr("%1 boxes, %2 edges").arg(presentation->flat.graph.nodes.size()).arg(presentation->flat.graph.edges.size()));
    Q_EMIT presentationShown();
    layOutAhead();
}

void DocumentView::layOutAhead()
{
    if (m_painted && !m_controller->decodingDeferredGraphs())
        m_controller->layOutAhead(presentation());
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

} // namespace etscope::ui
