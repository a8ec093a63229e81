// SPDX-License-Identifier: MIT
// The node facts in a tab (issues 34 and 35): asked for after the first paint (and after the
// deferred inner graphs are decoded), then shown where they belong — the operator table's cost
// and why columns, Properties' Cost and "Why on the CPU" groups, Search's "Left on the CPU",
// the "?" on the graph's nodes with a failing constraint or a logged reason, and the warnings
// of the logs (a log refused for this program among them) in the banner.
#include "ui/window/documentview.h"

#include "ui/document/documentcontroller.h"
#include "ui/graph/graphscene.h"
#include "ui/operators/operatorpanel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/search/searchpanel.h"
#include "ui/window/warningbanner.h"

#include <QTreeView>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;

void DocumentView::connectNodeFacts()
{
    connect(m_controller, &DocumentController::nodeFactsReady, this, [this] { applyNodeFacts(true); });
    connect(m_scene, &GraphScene::noteClicked, this, [this](const NodeOrigin&) {
        // The node is selected (Properties shows it): its answer comes into view.
        const QModelIndex why = m_properties->whyGroup();
        if (!why.isValid())
            return;
        m_propertiesView->expand(why);
        m_propertiesView->scrollTo(why, QAbstractItemView::PositionAtTop);
        m_propertiesView->setCurrentIndex(why);
    });
}

void DocumentView::applyNodeFacts(bool reshow)
{
    const auto document = m_controller->document();
    if (!document || !document->program || m_context.method < 0
        || static_cast<std::size_t>(m_context.method) >= document->program->methods.size())
        return;
    const auto facts = m_controller->nodeFacts();
    const std::string& method = document->program->methods[static_cast<std::size_t>(m_context.method)].name;
    const Graph& top = *document->methods[static_cast<std::size_t>(m_context.method)].graph;
    std::optional<int> delegate;
    if (m_context.delegateNode.valid() && m_context.delegateNode.index() < top.nodes.size()
        && top.node(m_context.delegateNode).delegate.valid())
        delegate = static_cast<int>(top.node(m_context.delegateNode).delegate.index());
    // An ETRecord's own table has other keys: the facts' op types are the program's.
    m_operators->setFacts(m_operators->showingETRecord() ? nullptr : facts, method, delegate);
    m_properties->setFacts(facts);
    m_search->setFacts(facts);

    // The "?" on the top-level operators whose answer is worth reading.
    std::map<std::pair<int, int>, QString> notes;
    if (facts && !m_context.delegateNode.valid())
        for (const Node& node : top.nodes) {
            if (node.kind != NodeKind::Operator || !node.instruction.valid())
                continue;
            QStringList lines;
            for (const NodeWhy* answer : facts->whyOf(method, node.chain, static_cast<int>(node.instruction.value)))
                if (whyBadgeWorthy(*answer))
                    lines << whyLine(*facts, *answer);
            if (!lines.isEmpty())
                notes[GraphScene::keyOf({ node.id, NodeId::none() })] = lines.join(QLatin1Char('\n'));
        }
    m_scene->setNotes(std::move(notes));

    if (!reshow || !facts)
        return;
    // The node shown gains its groups.
    if (const auto selected = m_scene->selectedNode(); selected && selected->group() < 0)
        m_properties->showNode(*document, m_context.method, *selected, m_controller->debug().etrecord.get());
    else if (m_context.delegateNode.valid() && !selected)
        m_properties->showNode(*document, m_context.method, { m_context.delegateNode, NodeId::none() },
            m_controller->debug().etrecord.get());
    // The logs' problems (a log refused for this program: which and why) join the banner once.
    if (!facts->warnings.empty()) {
        std::vector<Warning> warnings = m_banner->warnings();
        for (const Warning& warning : facts->warnings)
            if (std::none_of(warnings.begin(), warnings.end(),
                    [&](const Warning& shown) { return shown.message == warning.message; }))
                warnings.push_back(warning);
        m_banner->setWarnings(warnings);
    }
}

} // namespace etscope::ui
