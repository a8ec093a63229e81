// SPDX-License-Identifier: MIT
#include "ui/search/searchmodel.h"

#include "core/util/text.h"

#include <array>
#include <map>
#include <utility>

namespace etscope::ui {

namespace {

/// The attribute each decoder puts its own node number in, and how a row names it.
constexpr std::array<std::pair<std::string_view, const char*>, 4> kNumbers { {
    { "command index", "cmd" }, // Ethos-U: position in the command stream
    { "qnn node id", "node" }, // QNN: op node id of the context binary
    { "node index", "node" }, // XNNPACK: position in the serialized node list
    { "node id", "node" }, // Vulkan: OperatorCall.node_id
} };

/// " · cmd 776 · int8 [1, 112, 112, 32]": the inner node's number (its index in the inner
/// graph when the decoder stores none) and the type and shape of the first value it writes.
QString innerTag(const core::Graph& inner, core::NodeId id, const std::vector<int>& firstOut)
{
    const core::Node& node = inner.node(id);
    QString tag;
    for (const auto& [name, word] : kNumbers)
        if (const auto value = node.attributes.find(name)) {
            tag = QStringLiteral(" · %1 %2").arg(QLatin1String(word), QString::fromUtf8(value->data(), value->size()));
            break;
        }
    if (tag.isEmpty())
        tag = QStringLiteral(" · node %1").arg(id.value);
    const int edge = firstOut[id.index()];
    if (edge >= 0) {
        const core::TensorMeta& meta = inner.edges[static_cast<std::size_t>(edge)].meta;
        tag += QStringLiteral(" · %1 %2")
                   .arg(QString::fromStdString(meta.dtype),
                       QString::fromStdString(core::formatShape(meta.shape.vector())));
    }
    return tag;
}

} // namespace

SearchModel::SearchModel(QObject* parent)
    : QAbstractListModel(parent)
{
}

void SearchModel::setResults(const core::Graph* top, std::vector<core::SearchHit> hits,
    std::shared_ptr<const core::Grouping> grouping, QString method)
{
    beginResetModel();
    m_top = top;
    m_hits = std::move(hits);
    m_grouping = std::move(grouping);
    m_method = std::move(method);
    // Inner hits: one pass over each searched delegate's edges finds every node's first typed
    // output (a delegate holds thousands of nodes and hundreds of hits may share it).
    m_innerTags.assign(m_hits.size(), {});
    std::map<std::int32_t, std::vector<int>> firstOut; ///< per delegate node: edge index or -1
    for (std::size_t i = 0; top && i < m_hits.size(); ++i) {
        const core::SearchHit& hit = m_hits[i];
        const core::Node& outer = top->node(hit.origin.top);
        if (!hit.origin.inner.valid() || !outer.subgraph)
            continue;
        const core::Graph& inner = *outer.subgraph;
        if (hit.origin.inner.index() >= inner.nodes.size())
            continue;
        auto [it, added] = firstOut.try_emplace(hit.origin.top.value);
        if (added) {
            it->second.assign(inner.nodes.size(), -1);
            for (std::size_t e = 0; e < inner.edges.size(); ++e) {
                const core::Edge& edge = inner.edges[e];
                if (edge.from.valid() && edge.from.index() < inner.nodes.size() && it->second[edge.from.index()] < 0
                    && edge.meta.known())
                    it->second[edge.from.index()] = static_cast<int>(e);
            }
        }
        m_innerTags[i] = innerTag(inner, hit.origin.inner, it->second);
    }
    endResetModel();
}

int SearchModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_hits.size());
}

QVariant SearchModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_top)
        return {};
    const core::SearchHit& hit = m_hits[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        const core::Node& top = m_top->node(hit.origin.top);
        QString where;
        QString label = QString::fromStdString(top.label);
        if (top.kind == core::NodeKind::Delegate && !hit.origin.inner.valid())
            label += QStringLiteral(" #%1").arg(top.delegate.value);
        // Tell equal labels apart: the instruction they run as, else the node (constants and
        // values have no instruction: a long program has hundreds of equal ones), and the group
        // of a long method they are drawn in.
        if (!hit.origin.inner.valid())
            where = top.instruction.valid() ? tr("instruction %1").arg(top.instruction.value)
                                            : tr("node %1").arg(hit.origin.top.value);
        if (hit.origin.inner.valid() && top.subgraph) {
            label = QString::fromStdString(top.subgraph->node(hit.origin.inner).label)
                + m_innerTags[static_cast<std::size_t>(index.row())];
            where = QStringLiteral("in %1 #%2").arg(QString::fromStdString(top.label)).arg(top.delegate.value);
        }
        if (m_grouping)
            if (const int group = m_grouping->groupOfNode(hit.origin.top); group >= 0)
                where += QStringLiteral(", ")
                    + QString::fromStdString(core::groupLabel(m_grouping->groups[static_cast<std::size_t>(group)]));
        return QStringLiteral("%1 (%2) — %3: %4")
            .arg(label, where, QString::fromStdString(hit.field), QString::fromStdString(hit.text));
    }
    case Qt::ToolTipRole:
        return m_method.isEmpty() ? data(index, Qt::DisplayRole)
                                  : tr("method %1: %2").arg(m_method, data(index, Qt::DisplayRole).toString());
    case TopNodeRole:
        return hit.origin.top.value;
    case InnerNodeRole:
        return hit.origin.inner.value;
    default:
        return {};
    }
}

} // namespace etscope::ui
