// SPDX-License-Identifier: MIT
// The Load tab linked to the graph both ways: a row's nodes highlighted and walked, the nodes
// without a kernel marked, a node selected in the graph selecting its row (LoadCheckPanel,
// loadcheckpanel.h).
#include "ui/load/loadcheckpanel.h"
#include "ui/load/loadcheckwidgets.h"

#include "core/document/document.h"
#include "core/graph/grouping.h"
#include "ui/common/reporttablemodel.h"
#include "ui/graph/graphscene.h"

#include <QSignalBlocker>
#include <QTableView>
#include <QToolButton>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;
using namespace loadcheck;

void LoadCheckPanel::refreshMethod()
{
    m_nodeAt.clear();
    if (m_document && m_document->program && m_context.method >= 0
        && static_cast<std::size_t>(m_context.method) < m_document->methods.size()) {
        const Graph& graph = *m_document->methods[static_cast<std::size_t>(m_context.method)].graph;
        const Method& method = m_document->program->methods[static_cast<std::size_t>(m_context.method)];
        m_nodeAt.resize(method.chains.size());
        for (std::size_t c = 0; c < method.chains.size(); ++c)
            m_nodeAt[c].assign(method.chains[c].instructions.size(), NodeId::none());
        for (const Node& node : graph.nodes)
            if ((node.kind == NodeKind::Operator || node.kind == NodeKind::Delegate) && node.instruction.valid()
                && node.chain >= 0 && static_cast<std::size_t>(node.chain) < m_nodeAt.size()
                && node.instruction.index() < m_nodeAt[static_cast<std::size_t>(node.chain)].size())
                m_nodeAt[static_cast<std::size_t>(node.chain)][node.instruction.index()] = node.id;
    }
    if (m_activeRow >= 0) {
        m_matches = nodesOfSourceRow(m_activeRow);
        m_matchIndex = -1;
        m_matchStatus->setText(tr("%n node(s)", nullptr, static_cast<int>(m_matches.size())));
    }
    updateMarks();
}

void LoadCheckPanel::updateMarks()
{
    m_marks.clear();
    const MethodKernelCheck* method = nullptr;
    if (m_check && m_document && m_context.method >= 0 && !m_context.delegateNode.valid()
        && static_cast<std::size_t>(m_context.method) < m_document->methods.size())
        method = m_check->method(m_document->program->methods[static_cast<std::size_t>(m_context.method)].name);
    if (method && method->missingCalls > 0) {
        const Graph& graph = *m_document->methods[static_cast<std::size_t>(m_context.method)].graph;
        const QString lists = listsText();
        const QColor colour = problemColour();
        std::map<int, int> perGroup;
        // One mark per operator, shared by its nodes (a program without its kernel library has
        // tens of thousands).
        std::map<std::string_view, NodeMark> byOperator;
        for (const NodeId id : missingKernelNodes(graph, *method)) {
            const Node& node = graph.node(id);
            auto it = byOperator.find(node.opType);
            if (it == byOperator.end())
                it = byOperator
                         .emplace(node.opType,
                             NodeMark { colour, QStringLiteral("✕"),
                                 tr("No kernel for %1 in %2").arg(QString::fromStdString(node.opType), lists) })
                         .first;
            m_marks.emplace_hint(m_marks.end(), GraphScene::keyOf({ id, NodeId::none() }), it->second);
            if (m_grouping)
                if (const int group = m_grouping->groupOfNode(id); group >= 0)
                    ++perGroup[group];
        }
        // A closed group shows how many of its operators have no kernel.
        for (const auto& [group, count] : perGroup)
            m_marks[GraphScene::keyOf(NodeOrigin::ofGroup(group))]
                = NodeMark { colour, QStringLiteral("✕ %1").arg(count),
                      tr("%n operator call(s) inside have no kernel in %1", nullptr, count).arg(lists) };
    }
    addDeviceMarks();
    emitMarks();
}

void LoadCheckPanel::emitMarks()
{
    // No temporary copy: a program without its kernel library has tens of thousands of marks.
    static const std::map<std::pair<int, int>, NodeMark> none;
    Q_EMIT marksChanged(m_marksVisible ? m_marks : none);
}

void LoadCheckPanel::setMarksVisible(bool visible)
{
    if (visible == m_marksVisible)
        return;
    m_marksVisible = visible;
    emitMarks();
}

std::vector<NodeOrigin> LoadCheckPanel::nodesOfSourceRow(int sourceRow) const
{
    std::vector<NodeOrigin> nodes;
    if (!m_check || !m_document || sourceRow < 0 || static_cast<std::size_t>(sourceRow) >= m_rows.size()
        || m_context.method < 0 || m_context.delegateNode.valid())
        return nodes;
    const MethodKernelCheck* method
        = m_check->method(m_document->program->methods[static_cast<std::size_t>(m_context.method)].name);
    if (!method)
        return nodes;
    const Row& row = m_rows[static_cast<std::size_t>(sourceRow)];
    const std::vector<CallSite>* calls = nullptr;
    if (row.backend) {
        for (const BackendNeed& need : method->backends)
            if (need.backendId == row.name)
                calls = &need.calls;
    } else {
        for (const OperatorKernel& op : method->operators)
            if (op.name == row.name)
                calls = &op.calls;
    }
    if (!calls)
        return nodes;
    for (const CallSite& call : *calls)
        if (call.chain >= 0 && static_cast<std::size_t>(call.chain) < m_nodeAt.size()
            && call.instruction.index() < m_nodeAt[static_cast<std::size_t>(call.chain)].size())
            if (const NodeId id = m_nodeAt[static_cast<std::size_t>(call.chain)][call.instruction.index()]; id.valid())
                nodes.push_back({ id, NodeId::none() });
    return nodes;
}

std::vector<NodeOrigin> LoadCheckPanel::nodesOfRow(int row) const
{
    return nodesOfSourceRow(m_proxy->mapToSource(m_proxy->index(row, 0)).row());
}

int LoadCheckPanel::rowOf(const QString& name) const
{
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        if (m_proxy->index(row, kNameColumn).data().toString() == name)
            return row;
    return -1;
}

void LoadCheckPanel::onRowActivated(int sourceRow, bool advance)
{
    m_activeRow = sourceRow;
    m_matches = nodesOfSourceRow(sourceRow);
    m_matchIndex = -1;
    m_previous->setEnabled(!m_matches.empty());
    m_next->setEnabled(!m_matches.empty());
    highlightActive();
    if (m_matches.empty()) {
        const Row& row = m_rows[static_cast<std::size_t>(sourceRow)];
        m_matchStatus->setText(m_context.delegateNode.valid() ? tr("Open the method's graph to find its nodes")
                                                              : tr("Not called in this method"));
        Q_EMIT statusMessage(tr("%1 is not called in this method").arg(QString::fromStdString(row.name)));
        return;
    }
    m_matchStatus->setText(tr("%n node(s)", nullptr, static_cast<int>(m_matches.size())));
    if (!advance)
        walk(+1);
}

void LoadCheckPanel::highlightActive()
{
    std::set<std::pair<int, int>> keys;
    for (const NodeOrigin& origin : m_matches) {
        keys.insert(GraphScene::keyOf(origin));
        // Inside a closed group the group's box stands for it (an open group draws the node).
        if (m_grouping)
            if (const int group = m_grouping->groupOfNode(origin.top); group >= 0)
                keys.insert(GraphScene::keyOf(NodeOrigin::ofGroup(group)));
    }
    Q_EMIT highlightRequested(keys);
}

void LoadCheckPanel::forgetActiveRow()
{
    m_activeRow = -1;
    m_matches.clear();
    m_matchIndex = -1;
    m_matchStatus->clear();
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
}

void LoadCheckPanel::clearActive()
{
    forgetActiveRow();
    const QSignalBlocker blocker(m_view->selectionModel());
    m_view->selectionModel()->clearCurrentIndex();
    m_view->clearSelection();
}

void LoadCheckPanel::walk(int step)
{
    if (m_matches.empty())
        return;
    const int count = static_cast<int>(m_matches.size());
    m_matchIndex = m_matchIndex < 0 ? (step > 0 ? 0 : count - 1) : (m_matchIndex + step + count) % count;
    m_matchStatus->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(count));
    Q_EMIT nodeRequested(m_matches[static_cast<std::size_t>(m_matchIndex)]);
}

void LoadCheckPanel::showNode(const NodeOrigin& origin)
{
    if (!m_check || !m_document || origin.group() >= 0 || !origin.top.valid() || m_context.method < 0)
        return;
    const auto method = static_cast<std::size_t>(m_context.method);
    const Graph& graph = *m_document->methods[method].graph;
    if (origin.top.index() >= graph.nodes.size())
        return;
    const Node& node = graph.node(origin.top);
    std::string name;
    bool backend = false;
    if (node.kind == NodeKind::Delegate && node.delegate.valid()
        && node.delegate.index() < m_document->program->methods[method].delegates.size()) {
        name = m_document->program->methods[method].delegates[node.delegate.index()].backendId;
        backend = true;
    } else if (node.kind == NodeKind::Operator && !origin.inner.valid()) {
        if (const MethodKernelCheck* check = m_check->method(m_document->program->methods[method].name))
            if (const OperatorKernel* op = check->operatorAt(node.chain, node.instruction))
                name = op->name;
    }
    int sourceRow = -1;
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].backend == backend && m_rows[r].name == name && !name.empty())
            sourceRow = static_cast<int>(r);
    if (sourceRow < 0)
        return;
    const QModelIndex shown = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (sourceRow != m_activeRow) {
        // Another operator's highlight would now mislead.
        if (m_activeRow >= 0)
            Q_EMIT highlightRequested({});
        m_activeRow = sourceRow;
        m_matches = nodesOfSourceRow(sourceRow);
        m_previous->setEnabled(!m_matches.empty());
        m_next->setEnabled(!m_matches.empty());
        if (shown.isValid()) {
            const QSignalBlocker blocker(m_view->selectionModel());
            m_view->selectionModel()->setCurrentIndex(
                shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_view->scrollTo(shown);
        }
    }
    const NodeOrigin top { origin.top, NodeId::none() };
    const auto it = std::find(m_matches.begin(), m_matches.end(), top);
    if (it != m_matches.end()) {
        m_matchIndex = static_cast<int>(it - m_matches.begin());
        m_matchStatus->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(m_matches.size()));
    }
}

} // namespace etscope::ui
