// SPDX-License-Identifier: MIT
#include "presentation.h"

#include "nodestyle.h"
#include "util/text.h"

#include <QFontMetricsF>
#include <QStringList>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr double kPaddingX = 10;
constexpr double kPaddingY = 6;
constexpr double kMinWidth = 64;
constexpr double kMaxWidth = 300;
constexpr int kElideAt = 40;

QString nodeCount(std::size_t count)
{
    return count == 1 ? QStringLiteral("1 node") : QStringLiteral("%1 nodes").arg(count);
}

QString elideMiddle(const QString& text)
{
    if (text.size() <= kElideAt)
        return text;
    return text.left(kElideAt / 2 - 1) + QStringLiteral("…") + text.right(kElideAt / 2 - 1);
}

QString subtitleFor(
    const Presentation& presentation, const GraphAdjacency& adjacency, const Node& node, NodeOrigin origin)
{
    const Graph& graph = presentation.flat.graph;
    const auto firstOut = [&]() -> QString {
        const auto& out = adjacency.out[node.id.index()];
        return out.empty() ? QString() : metaText(graph.edges[out.front()].meta);
    };
    const auto firstIn = [&]() -> QString {
        const auto& in = adjacency.in[node.id.index()];
        return in.empty() ? QString() : metaText(graph.edges[in.front()].meta);
    };
    switch (node.kind) {
    case NodeKind::Delegate: {
        const DelegateInfo* info = presentation.delegateInfo(origin.top);
        const Method& method = presentation.method();
        const auto index = static_cast<std::size_t>(node.delegate.value);
        // No size when the payload is not in this file (an ETRecord's lowered modules).
        const QString size = index < method.delegates.size() && method.delegates[index].payload.size > 0
            ? QString::fromStdString(formatBytes(method.delegates[index].payload.size))
            : QString();
        if (info && info->innerGraph)
            return size.isEmpty() ? nodeCount(info->innerGraph->operatorCount())
                                  : nodeCount(info->innerGraph->operatorCount()) + QStringLiteral(" · ") + size;
        return QStringLiteral("%1 · %2").arg(
            info ? QString::fromStdString(info->format) : QStringLiteral("opaque"), size);
    }
    case NodeKind::Output:
        return firstIn();
    case NodeKind::Move:
    case NodeKind::Free:
    case NodeKind::JumpFalse:
    case NodeKind::Unknown:
        return node.instruction.valid() ? QStringLiteral("#%1").arg(node.instruction.value) : QString();
    default:
        return firstOut();
    }
}

} // namespace

QString metaText(const TensorMeta& meta)
{
    if (!meta.known())
        return {};
    const QString dtype = QString::fromStdString(meta.dtype);
    const bool isTensorType = dtype.toUpper() == dtype || dtype.startsWith(QLatin1Char('q'))
        || dtype.startsWith(QLatin1Char('f')) || dtype.startsWith(QLatin1Char('b'))
        || dtype.startsWith(QLatin1Char('i'));
    if (meta.shape.empty() && !isTensorType)
        return dtype;
    return dtype + QLatin1Char(' ') + QString::fromStdString(formatShape(meta.shape));
}

QString nodeTitle(const Node& node)
{
    QString label = QString::fromStdString(node.label);
    if (node.kind == NodeKind::Operator && label.startsWith(QLatin1String("aten::")))
        label = label.mid(6);
    return elideMiddle(label);
}

QString contextTitle(const Document& document, const GraphContext& context)
{
    if (!document.program || context.method < 0
        || static_cast<std::size_t>(context.method) >= document.program->methods.size())
        return {};
    const Method& method = document.program->methods[static_cast<std::size_t>(context.method)];
    QString title = QString::fromStdString(method.name);
    if (context.delegateNode.valid()) {
        const Graph& graph = *document.methods[static_cast<std::size_t>(context.method)].graph;
        const Node& node = graph.node(context.delegateNode);
        title += QStringLiteral(" › %1 #%2").arg(QString::fromStdString(node.label)).arg(node.delegate.value);
    }
    return title;
}

const Method& Presentation::method() const
{
    return document->program->methods[static_cast<std::size_t>(context.method)];
}

const Graph& Presentation::methodGraph() const
{
    return *document->methods[static_cast<std::size_t>(context.method)].graph;
}

const DelegateInfo* Presentation::delegateInfo(NodeId topNode) const
{
    const Node& node = methodGraph().node(topNode);
    const auto& delegates = document->methods[static_cast<std::size_t>(context.method)].delegates;
    const auto index = static_cast<std::size_t>(node.delegate.value);
    return node.kind == NodeKind::Delegate && index < delegates.size() ? &delegates[index] : nullptr;
}

int Presentation::indexOf(const NodeOrigin& origin) const
{
    const auto it = indexByOrigin.find({ origin.top.value, origin.inner.value });
    return it == indexByOrigin.end() ? -1 : it->second;
}

QString Presentation::key() const
{
    QStringList parts { QString::number(context.method), QString::number(context.delegateNode.value) };
    for (const int id : expanded)
        parts << QString::number(id);
    return parts.join(QLatin1Char(':'));
}

std::shared_ptr<Presentation> preparePresentation(
    std::shared_ptr<const Document> document, const GraphContext& context, const std::set<int>& expanded)
{
    auto presentation = std::make_shared<Presentation>();
    presentation->document = document;
    presentation->context = context;
    const Graph& top = presentation->methodGraph();
    if (context.delegateNode.valid()) {
        const Node& delegate = top.node(context.delegateNode);
        static const Graph empty;
        const Graph& inner = delegate.subgraph ? *delegate.subgraph : empty;
        presentation->flat = flattenGraph(inner, [](const Node&) { return false; });
        for (const NodeOrigin& origin : presentation->flat.origins)
            presentation->origins.push_back({ context.delegateNode, origin.top });
    } else {
        presentation->expanded = expanded;
        presentation->flat = flattenGraph(top, [&](const Node& node) { return expanded.count(node.id.value) > 0; });
        presentation->origins = presentation->flat.origins;
    }

    for (std::size_t i = 0; i < presentation->origins.size(); ++i)
        presentation->indexByOrigin[{ presentation->origins[i].top.value, presentation->origins[i].inner.value }]
            = static_cast<int>(i);

    const QFontMetricsF titleMetrics(titleFont());
    const QFontMetricsF subtitleMetrics(subtitleFont());
    const Graph& graph = presentation->flat.graph;
    // Graphviz sizes cluster labels itself (pango): give it the font the title is drawn with.
    presentation->request.fontSize = titleFont().pixelSize();
    presentation->request.fontName = titleFont().family().toStdString() + (titleFont().bold() ? " Bold" : "");
    for (const Cluster& cluster : presentation->flat.clusters) {
        const DelegateInfo* info = presentation->delegateInfo(cluster.owner);
        QString title = QString::fromStdString(cluster.label);
        if (info && info->innerGraph)
            title += QStringLiteral(" · ") + nodeCount(info->innerGraph->operatorCount());
        presentation->clusterTitles.push_back(title);
        presentation->request.clusters.push_back({ title.toStdString() + "      " }); // room for the collapse button
    }
    const GraphAdjacency adjacency = graph.adjacency();
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        const QString title = nodeTitle(node);
        const QString subtitle = subtitleFor(*presentation, adjacency, node, presentation->origins[i]);
        presentation->titles.push_back(title);
        presentation->subtitles.push_back(subtitle);
        double width = titleMetrics.horizontalAdvance(title);
        double height = titleMetrics.height();
        if (!subtitle.isEmpty()) {
            width = std::max(width, subtitleMetrics.horizontalAdvance(subtitle));
            height += subtitleMetrics.height() + 2;
        }
        if (node.kind == NodeKind::Delegate && node.subgraph)
            width += 22; // the expand button
        width = std::clamp(width + 2 * kPaddingX, kMinWidth, kMaxWidth);
        height += 2 * kPaddingY;
        presentation->request.nodes.push_back({ width, height, presentation->flat.clusterOf(node.id) });
    }
    for (const Edge& edge : graph.edges)
        presentation->request.edges.push_back({ edge.from.value, edge.to.value });
    return presentation;
}

} // namespace etscope::ui
