// SPDX-License-Identifier: MIT
// The wiring between a tab's panels: a click in the graph, a search hit, an operator picked or a
// method chosen reaches the properties, the operator table, the search and the panels built so far.
#include "ui/window/documentview.h"

#include "core/debug/edgegraph.h"
#include "core/debug/etrecord.h"
#include "core/document/etrecordgraphs.h"
#include "core/graph/search.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/memory/memorypanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/search/searchpanel.h"
#include "ui/size/sizepanel.h"
#include "ui/timeline/timelineview.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSet>
#include <QTabWidget>

#include <map>

namespace etscope::ui {

using namespace etscope::core;

namespace {

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
        applyNodeFacts(false);
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
    applyNodeFacts(false);
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

} // namespace etscope::ui
