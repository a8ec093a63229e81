// SPDX-License-Identifier: MIT
// A graph view's drawing before layout: which boxes, clusters and titles a method or delegate
// shows for its expanded set. Why one file: the steps of preparePresentation share the flat graph
// and the cached text widths; the layout and the scene read only the Presentation it returns.
#include "ui/graph/presentation.h"

#include "core/util/text.h"
#include "ui/common/elide.h"
#include "ui/common/nodestyle.h"

#include <QFontMetricsF>
#include <QHash>
#include <QMutex>
#include <QStringList>

#include <algorithm>
#include <atomic>
#include <map>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr double kPaddingX = 10;
constexpr double kPaddingY = 6;
constexpr double kMinWidth = 64;
constexpr double kMaxWidth = 300;
constexpr double kExpandButtonWidth = 22;
/// Expanded delegates with more nodes than this are laid out on their own and placed as one box.
constexpr std::size_t kSeparateClusterAbove = 200;
/// In graphs of more boxes than a screen holds, constants with this many readers (a scale every
/// layer divides by) are drawn beside each reader: their long edges dominate dot's cost and the
/// picture.
constexpr int kConstantPerReaderAbove = 3;
constexpr std::size_t kConstantPerReaderFromNodes = 250;
/// At every size, a scalar (a SymInt from sym_size.int, an Int/Double/Bool a node computes, a
/// constant of at most 4 elements) read by this many nodes is drawn beside each reader: from three
/// readers on its edges cross the others (a real transformer's one sym_size.int feeds every view of
/// every block: a curtain across the canvas), while a copy is one small box next to its reader.
/// Two readers keep their edges: a short fork reads better than two copies.
constexpr int kScalarPerReaderFrom = 3;

/// The widths of texts measured before and the names shortened before, per font. Every click
/// that opens a group or a delegate prepares the whole drawing again, and a long method repeats
/// a few hundred distinct titles and subtitles over its boxes: shaping them again (HarfBuzz)
/// was a third of preparing the presentation of a click on a 100k-instruction LLM (issue 27,
/// bench/README.md "Click timings"). Bounded: past kMaxTexts texts of a font (a few MB), the new
/// ones are measured without being kept.
class TextWidths {
public:
    explicit TextWidths(const QFont& font)
        : m_metrics(font)
        , m_font(font.key())
    {
    }

    double advance(const QString& text)
    {
        {
            const QMutexLocker lock(&s_mutex);
            const auto& widths = s_fonts[m_font].widths;
            if (const auto it = widths.constFind(text); it != widths.constEnd())
                return *it;
        }
        const double width = m_metrics.horizontalAdvance(text);
        const QMutexLocker lock(&s_mutex);
        if (auto& widths = s_fonts[m_font].widths; widths.size() < kMaxTexts)
            widths.insert(text, width);
        return width;
    }

    /// elideNameToWidth(text, metrics, room), remembered.
    QString elided(const QString& text, double room)
    {
        const QString key = QString::number(room) + QLatin1Char('\x1f') + text;
        {
            const QMutexLocker lock(&s_mutex);
            const auto& elided = s_fonts[m_font].elided;
            if (const auto it = elided.constFind(key); it != elided.constEnd())
                return *it;
        }
        QString shown = elideNameToWidth(text, m_metrics, room);
        const QMutexLocker lock(&s_mutex);
        if (auto& elided = s_fonts[m_font].elided; elided.size() < kMaxTexts)
            elided.insert(key, shown);
        return shown;
    }

    const QFontMetricsF& metrics() const { return m_metrics; }

private:
    static constexpr qsizetype kMaxTexts = 20000;
    struct Known {
        QHash<QString, double> widths;
        QHash<QString, QString> elided; ///< room, U+001F, text → shortened text
    };
    static inline QMutex s_mutex;
    static inline std::map<QString, Known> s_fonts; ///< by QFont::key()

    QFontMetricsF m_metrics;
    QString m_font;
};

QString nodeCount(std::size_t count)
{
    return count == 1 ? QStringLiteral("1 node") : QStringLiteral("%1 nodes").arg(count);
}

/// The tensor on the first of `edges` (in or out of a node), or nothing without one.
QString firstEdgeText(const Graph& graph, const std::vector<std::size_t>& edges)
{
    return edges.empty() ? QString() : metaText(graph.edges[edges.front()].meta);
}

/// A delegate call: its inner graph's operator count (or its format) and its payload's size.
QString delegateSubtitle(const Presentation& presentation, const Node& node, const NodeOrigin& origin)
{
    const DelegateInfo* info = presentation.delegateInfo(origin.top);
    const Method& method = presentation.method();
    const auto index = static_cast<std::size_t>(node.delegate.value);
    // No size when the payload is not in this file (an ETRecord's lowered modules).
    const QString size = index < method.delegates.size() && method.delegates[index].payload.size > 0
        ? QString::fromStdString(formatBytes(method.delegates[index].payload.size))
        : QString();
    // Its number first, as its tab and its open frame say it ("EthosUBackend #3"): eleven
    // collapsed boxes of one backend could not be told apart (issue 38).
    const QString number = QStringLiteral("#%1 · ").arg(node.delegate.value);
    // The count is known without decoding a deferred inside (drawn before it is decoded).
    if (info && info->innerGraph)
        return number
            + (size.isEmpty() ? nodeCount(info->innerGraph.operatorCount())
                              : nodeCount(info->innerGraph.operatorCount()) + QStringLiteral(" · ") + size);
    return number
        + QStringLiteral("%1 · %2").arg(info ? QString::fromStdString(info->format) : QStringLiteral("opaque"), size);
}

/// A method output: the tensor it receives, or the value it returns as stored.
QString outputSubtitle(const Graph& graph, const GraphAdjacency& adjacency, const Node& node)
{
    if (!adjacency.in[node.id.index()].empty())
        return firstEdgeText(graph, adjacency.in[node.id.index()]);
    // Nothing computes it: a value the method returns as stored (an LLM's get_max_seq_len
    // returns "Int 128"), shown on the node rather than only in the properties.
    for (const auto& [key, text] : node.attributes)
        if (key == "value") {
            const std::size_t colon = text.find(": ");
            return QString::fromUtf8(text.substr(colon == std::string_view::npos ? 0 : colon + 2));
        }
    return QString();
}

/// A closed group: how many operators, how many delegated, and its two most frequent families.
QString groupSubtitle(const Presentation& presentation, const NodeOrigin& origin)
{
    const NodeGroup& group = presentation.grouping->groups[static_cast<std::size_t>(origin.group())];
    QStringList top;
    for (std::size_t i = 0; i < group.topOperators.size() && i < 2; ++i) {
        // "aten::view_copy.out" → "view_copy": the family is what tells blocks apart.
        QString name = QString::fromStdString(group.topOperators[i].first);
        name = name.mid(name.indexOf(QLatin1String("::")) + (name.contains(QLatin1String("::")) ? 2 : 0));
        name = name.left(name.indexOf(QLatin1Char('.')));
        top << QStringLiteral("%1 ×%2").arg(name).arg(group.topOperators[i].second);
    }
    const QString delegated = group.delegates > 0 ? QStringLiteral(" · %1 delegated").arg(group.delegates) : QString();
    return QStringLiteral("%1 ops%2 · %3")
        .arg(group.operators + group.delegates)
        .arg(delegated, top.join(QStringLiteral(", ")));
}

/// "int8 [1, 7, 7, 16] NHWC" (an Ethos-U feature map as ethosucommands.cpp states it) →
/// "1×7×7×16"; empty when the text holds no shape.
QString featureMapShape(std::string_view text)
{
    const std::size_t open = text.find('[');
    const std::size_t close = text.find(']', open == std::string_view::npos ? 0 : open);
    if (open == std::string_view::npos || close == std::string_view::npos)
        return {};
    const QString inside = QString::fromUtf8(text.substr(open + 1, close - open - 1));
    QStringList sizes = inside.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString& size : sizes)
        size = size.trimmed();
    return sizes.join(QStringLiteral("×"));
}

/// An Ethos-U command inside its delegate: its command index and the shape it writes ("#12 · →
/// 1×7×7×16"). Walls of "Conv 1×1" and "AvgPool 1×1" boxes could not be told apart by their
/// titles (issue 38); the index is the one Properties and the Vela listings name. Empty for
/// nodes that are no stream command.
QString commandSubtitle(const Node& node, const QString& firstOut)
{
    const auto index = node.attributes.find("command index");
    if (!index)
        return {};
    QString text = QStringLiteral("#") + QString::fromUtf8(*index);
    const auto ofm = node.attributes.find("OFM");
    const QString shape = ofm ? featureMapShape(*ofm) : QString();
    if (!shape.isEmpty())
        text += QStringLiteral(" · → ") + shape;
    else if (!firstOut.isEmpty())
        text += QStringLiteral(" · ") + firstOut;
    return text;
}

/// An operator: its first output's tensor; for a scalar drawn beside its reader, the
/// instruction that gives it; for one whose value is drawn beside its readers, how many read it.
QString operatorSubtitle(const Presentation& presentation, const GraphAdjacency& adjacency, std::size_t index,
    const GraphAdjacency* methodAdjacency)
{
    const Graph& graph = presentation.flat.graph;
    const Node& node = graph.nodes[index];
    const NodeOrigin origin = presentation.origins[index];
    const QString firstOut = firstEdgeText(graph, adjacency.out[node.id.index()]);
    if (origin.inner.valid() || presentation.context.delegateNode.valid())
        if (QString command = commandSubtitle(node, firstOut); !command.isEmpty())
            return command;
    if (presentation.flat.copies[index] && !origin.inner.valid()) {
        // A computed scalar beside its reader: what it is and which instruction gives it.
        const Node& producer = presentation.methodGraph().node(origin.top);
        return producer.instruction.valid()
            ? QStringLiteral("%1 · from #%2").arg(firstOut).arg(producer.instruction.value)
            : firstOut;
    }
    if (adjacency.out[node.id.index()].empty() && methodAdjacency && !origin.inner.valid()) {
        // Its value is drawn beside each reader (or read inside closed groups): say what it
        // is and how many read it, from the method's own edges.
        const auto& out = methodAdjacency->out[origin.top.index()];
        if (!out.empty())
            return QStringLiteral("%1 · read by %2")
                .arg(metaText(presentation.methodGraph().edges[out.front()].meta))
                .arg(out.size());
    }
    return firstOut;
}

/// `methodAdjacency`: of the method's top-level graph (top-level views only, else nullptr).
QString subtitleFor(const Presentation& presentation, const GraphAdjacency& adjacency, std::size_t index,
    const GraphAdjacency* methodAdjacency)
{
    const Graph& graph = presentation.flat.graph;
    const Node& node = graph.nodes[index];
    const NodeOrigin origin = presentation.origins[index];
    switch (node.kind) {
    case NodeKind::Delegate:
        return delegateSubtitle(presentation, node, origin);
    case NodeKind::Output:
        return outputSubtitle(graph, adjacency, node);
    case NodeKind::Group:
        return groupSubtitle(presentation, origin);
    case NodeKind::Move:
    case NodeKind::Free:
    case NodeKind::JumpFalse:
    case NodeKind::Unknown:
        return node.instruction.valid() ? QStringLiteral("#%1").arg(node.instruction.value) : QString();
    case NodeKind::Operator:
        return operatorSubtitle(presentation, adjacency, index, methodAdjacency);
    default:
        return firstEdgeText(graph, adjacency.out[node.id.index()]);
    }
}

/// Keeps the groups of a long method in program order from top to bottom when some are open:
/// an ordering-only edge from each group to the next (box or frame: its first or last
/// instruction). Two ranks down to a frame's first instruction leave room for the constants it
/// reads, which dot would otherwise rank beside the closed group above.
void orderGroupFrames(Presentation& presentation)
{
    const FlatGraph& flat = presentation.flat;
    if (!presentation.grouping || presentation.grouping->empty())
        return;
    const std::size_t groups = presentation.grouping->groups.size();
    std::vector<int> box(groups, -1);
    std::vector<int> first(groups, -1); ///< open groups: the node of the first instruction
    std::vector<int> last(groups, -1);
    for (std::size_t i = 0; i < flat.origins.size(); ++i) {
        if (const int g = flat.origins[i].group(); g >= 0) {
            box[static_cast<std::size_t>(g)] = static_cast<int>(i);
            continue;
        }
        const NodeOrigin& origin = flat.origins[i];
        const int g = origin.inner.valid() ? -1 : presentation.grouping->groupOfNode(origin.top);
        const Node& node = flat.graph.nodes[i];
        if (g < 0 || !node.instruction.valid())
            continue;
        const auto order = [&](int index) { return flat.graph.nodes[static_cast<std::size_t>(index)].instruction; };
        int& head = first[static_cast<std::size_t>(g)];
        int& tail = last[static_cast<std::size_t>(g)];
        if (head < 0 || node.instruction < order(head))
            head = static_cast<int>(i);
        if (tail < 0 || order(tail) < node.instruction)
            tail = static_cast<int>(i);
    }
    for (std::size_t g = 1; g < groups; ++g) {
        const bool fromOpen = box[g - 1] < 0;
        const bool toOpen = box[g] < 0;
        const int from = fromOpen ? last[g - 1] : box[g - 1];
        const int to = toOpen ? first[g] : box[g];
        if ((fromOpen || toOpen) && from >= 0 && to >= 0)
            presentation.request.edges.push_back({ from, to, toOpen ? 2 : 1 });
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
    return label;
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

int Presentation::closedGroupOf(NodeId topNode) const
{
    if (!grouping || context.delegateNode.valid())
        return -1;
    const int group = grouping->groupOfNode(topNode);
    return group >= 0 && !expanded.count(expandKeyOfGroup(group)) ? group : -1;
}

int Presentation::shownAt(const NodeOrigin& origin) const
{
    if (const int index = indexOf(origin); index >= 0)
        return index;
    if (const int group = closedGroupOf(origin.top); group >= 0)
        return indexOf(NodeOrigin::ofGroup(group));
    return origin.inner.valid() ? indexOf({ origin.top, NodeId::none() }) : -1;
}

QString presentationKey(const GraphContext& context, const std::set<int>& expanded, bool smallConstantsInline)
{
    QStringList parts { QString::number(context.method), QString::number(context.delegateNode.value) };
    for (const int id : expanded)
        parts << QString::number(id);
    if (smallConstantsInline)
        parts << QStringLiteral("inline");
    return parts.join(QLatin1Char(':'));
}

QString Presentation::key() const
{
    return presentationKey(context, expanded, smallConstantsInline);
}

namespace {

std::atomic<bool> g_smallConstantsInline { false };

} // namespace

void setSmallConstantsInline(bool on)
{
    g_smallConstantsInline = on;
}

bool smallConstantsInline()
{
    return g_smallConstantsInline;
}

namespace {

/// The cluster of a flattened graph that shows expanded-set key `key`, -1 when none does.
int clusterOfKey(const FlatGraph& flat, int key)
{
    for (std::size_t c = 0; c < flat.clusters.size(); ++c) {
        const Cluster& cluster = flat.clusters[c];
        if (key >= 0 ? cluster.group < 0 && cluster.owner == NodeId(key) : cluster.group == -2 - key)
            return static_cast<int>(c);
    }
    return -1;
}

/// How `opened` differs from `closed` when its expanded set has `key` more (the plan without
/// its base), empty when the key's box or cluster is not drawn (hidden in a closed group, or
/// not expandable).
std::optional<OpeningPlan> describeOpening(const Presentation& closed, const Presentation& opened, int key)
{
    const NodeOrigin origin = key >= 0 ? NodeOrigin { NodeId(key), NodeId::none() } : NodeOrigin::ofGroup(-2 - key);
    OpeningPlan plan;
    core::LayoutOpening& opening = plan.opening;
    opening.box = closed.indexOf(origin);
    opening.cluster = clusterOfKey(opened.flat, key);
    if (opening.box < 0 || opening.cluster < 0)
        return std::nullopt;
    for (const Cluster& c : opened.flat.clusters) {
        int previous = -1;
        for (std::size_t b = 0; b < closed.flat.clusters.size() && previous < 0; ++b)
            if (closed.flat.clusters[b].owner == c.owner && closed.flat.clusters[b].group == c.group)
                previous = static_cast<int>(b);
        opening.previousCluster.push_back(previous);
    }
    // Closed boxes by origin, in order (a constant drawn beside each reader has several).
    std::map<std::pair<int, int>, std::vector<int>> earlier;
    for (std::size_t i = closed.origins.size(); i-- > 0;)
        if (static_cast<int>(i) != opening.box)
            earlier[{ closed.origins[i].top.value, closed.origins[i].inner.value }].push_back(static_cast<int>(i));
    plan.part = clusterPart(opened.request, opening.cluster);
    std::vector<bool> inside(opened.origins.size(), false);
    for (const int member : plan.part.nodes)
        inside[static_cast<std::size_t>(member)] = true;
    for (std::size_t i = 0; i < opened.origins.size(); ++i) {
        int previous = -1;
        if (!inside[i]) {
            auto& candidates = earlier[{ opened.origins[i].top.value, opened.origins[i].inner.value }];
            if (!candidates.empty()) {
                previous = candidates.back();
                candidates.pop_back();
            }
        }
        opening.previousNode.push_back(previous);
    }
    return plan;
}

bool laidOutWhole(const std::shared_ptr<const Presentation>& presentation)
{
    return presentation && presentation->layout.nodes.size() == presentation->request.nodes.size();
}

} // namespace

std::optional<OpeningPlan> planOpening(const Presentation& presentation,
    const std::function<std::shared_ptr<const Presentation>(const QString& key)>& laidOut)
{
    if (presentation.context.delegateNode.valid())
        return std::nullopt;
    for (const int key : presentation.expanded) {
        std::set<int> fewer = presentation.expanded;
        fewer.erase(key);
        // The same drawing options: with small constants inline (the app's default) the keys
        // end in ":inline", and a lookup without it never found the drawing to open from, so
        // every opening laid out the whole graph again (issue 27).
        auto base = laidOut(presentationKey(presentation.context, fewer, presentation.smallConstantsInline));
        if (!laidOutWhole(base))
            continue;
        auto plan = describeOpening(*base, presentation, key);
        if (!plan)
            continue;
        plan->base = std::move(base);
        return plan;
    }
    return std::nullopt;
}

std::optional<core::LayoutResult> layoutByClosing(const Presentation& presentation,
    const std::function<std::shared_ptr<const Presentation>(const QString& key)>& laidOut)
{
    if (presentation.context.delegateNode.valid())
        return std::nullopt;
    for (std::size_t i = 0; i < presentation.origins.size(); ++i) {
        const core::Node& node = presentation.flat.graph.nodes[i];
        if (presentation.origins[i].inner.valid()
            || !((node.kind == core::NodeKind::Delegate && node.subgraph) || node.kind == core::NodeKind::Group))
            continue;
        const int key = expandKeyOf(presentation.origins[i]);
        std::set<int> more = presentation.expanded;
        more.insert(key);
        const auto opened = laidOut(presentationKey(presentation.context, more, presentation.smallConstantsInline));
        if (!laidOutWhole(opened))
            continue;
        const auto plan = describeOpening(presentation, *opened, key);
        if (!plan)
            continue;
        if (auto layout = core::composeClosing(presentation.request, opened->request, opened->layout, plan->opening))
            return layout;
    }
    return std::nullopt;
}

std::map<int, std::string> instructionModules(const ETRecord& etrecord, const Graph& graph, const std::string& method)
{
    std::map<int, std::string> modules;
    const ETRecordGraph* edge = etrecord.edgeProgram(method);
    if (!edge || !edge->program)
        return modules;
    // debug_handle_map: instruction → handles; the edge program's nodes: handle → nn_module_stack.
    std::map<std::int64_t, std::string> moduleOfHandle;
    for (const EdgeNode& node : edge->program->nodes)
        if (node.debugHandle && !node.nnModuleStack.empty())
            if (std::string module = innermostModule(node.nnModuleStack); !module.empty())
                moduleOfHandle.try_emplace(node.debugHandle->value, std::move(module));
    if (moduleOfHandle.empty())
        return modules;
    for (const Node& node : graph.nodes) {
        if (!node.instruction.valid())
            continue;
        for (const DebugHandle handle : etrecord.handlesOf(method, node.instruction.value))
            if (const auto it = moduleOfHandle.find(handle.value); it != moduleOfHandle.end()) {
                modules.emplace(node.instruction.value, it->second);
                break;
            }
    }
    return modules;
}

std::shared_ptr<const Grouping> methodGrouping(const Document& document, int method)
{
    if (method < 0 || static_cast<std::size_t>(method) >= document.methods.size()
        || !document.methods[static_cast<std::size_t>(method)].graph)
        return std::make_shared<const Grouping>();
    return std::make_shared<const Grouping>(groupLongGraph(*document.methods[static_cast<std::size_t>(method)].graph));
}

std::shared_ptr<const Grouping> firstViewGrouping(const Document& document, int method, const ETRecord* etrecord)
{
    if (method < 0 || static_cast<std::size_t>(method) >= document.methods.size()
        || !document.methods[static_cast<std::size_t>(method)].graph)
        return std::make_shared<const Grouping>();
    const Graph& graph = *document.methods[static_cast<std::size_t>(method)].graph;
    if (!etrecord && document.etrecord)
        etrecord = &*document.etrecord;
    if (etrecord && document.program && static_cast<std::size_t>(method) < document.program->methods.size()) {
        const auto modules
            = instructionModules(*etrecord, graph, document.program->methods[static_cast<std::size_t>(method)].name);
        return std::make_shared<const Grouping>(groupMethodGraph(graph, modules.empty() ? nullptr : &modules));
    }
    return std::make_shared<const Grouping>(groupMethodGraph(graph));
}

namespace {

// A delegate's inner graph drawn alone: its origins point into the delegate.
void flattenDelegate(Presentation& presentation, const GraphContext& context)
{
    const Node& delegate = presentation.methodGraph().node(context.delegateNode);
    static const Graph empty;
    const Graph& inner = delegate.subgraph ? *delegate.subgraph : empty;
    FlattenOptions options;
    options.constantPerReaderAbove = inner.nodes.size() > kConstantPerReaderFromNodes ? kConstantPerReaderAbove : 0;
    options.scalarPerReaderAbove = kScalarPerReaderFrom;
    options.inlineSmallConstants = presentation.smallConstantsInline;
    presentation.flat = flattenGraph(inner, options);
    for (const NodeOrigin& origin : presentation.flat.origins)
        presentation.origins.push_back({ context.delegateNode, origin.top });
}

// The method's graph with the expanded delegates and open groups drawn in place.
void flattenMethod(Presentation& presentation, const Document& document, const GraphContext& context,
    const std::set<int>& expanded, std::shared_ptr<const Grouping> grouping)
{
    const Graph& top = presentation.methodGraph();
    presentation.expanded = expanded;
    presentation.grouping = grouping ? std::move(grouping) : firstViewGrouping(document, context.method);
    FlattenOptions options;
    options.expand = [&](const Node& node) { return expanded.count(node.id.value) > 0; };
    options.grouping = presentation.grouping.get();
    options.openGroup = [&](int group) { return expanded.count(expandKeyOfGroup(group)) > 0; };
    std::size_t drawn = top.nodes.size();
    for (const Node& node : top.nodes)
        if (node.subgraph && expanded.count(node.id.value))
            drawn += node.subgraph->nodes.size();
    options.constantPerReaderAbove = drawn > kConstantPerReaderFromNodes ? kConstantPerReaderAbove : 0;
    options.scalarPerReaderAbove = kScalarPerReaderFrom;
    options.inlineSmallConstants = presentation.smallConstantsInline;
    presentation.flat = flattenGraph(top, options);
    presentation.origins = presentation.flat.origins;
}

// Each cluster's title (with its operator count) and its place in the layout request.
void addClusters(Presentation& presentation)
{
    // Graphviz sizes cluster labels itself (pango): give it the font the title is drawn with.
    presentation.request.fontSize = titleFont().pixelSize();
    presentation.request.fontName = titleFont().family().toStdString() + (titleFont().bold() ? " Bold" : "");
    for (const Cluster& cluster : presentation.flat.clusters) {
        QString title = QString::fromStdString(cluster.label);
        if (cluster.group >= 0) {
            const NodeGroup& group = presentation.grouping->groups[static_cast<std::size_t>(cluster.group)];
            title += QStringLiteral(" · %1 ops").arg(group.operators + group.delegates);
        } else if (const DelegateInfo* info = presentation.delegateInfo(cluster.owner); info && info->innerGraph) {
            title += QStringLiteral(" · ") + nodeCount(info->innerGraph.operatorCount());
        }
        presentation.clusterTitles.push_back(title);
        // Room for the collapse button after the title. Large delegates are laid out alone.
        const bool separate = cluster.owner.valid() && cluster.members.size() > kSeparateClusterAbove;
        presentation.request.clusters.push_back({ title.toStdString() + "      ", cluster.parent, separate });
    }
}

// Whether a node's box carries the ⊞ button (a delegate with an inner graph, a group).
bool hasExpandButton(const Node& node)
{
    return (node.kind == NodeKind::Delegate && node.subgraph) || node.kind == NodeKind::Group;
}

// Titles too wide for a box shorten keeping what tells them from the other too-wide titles
// (group titles of repeated layers, quantize/dequantize): measured once, the few that do not
// fit shortened together. Per node: the part to keep, or (-1, -1) when the title fits.
std::vector<std::pair<int, int>> titlePartsToKeep(
    const Graph& graph, const std::vector<QString>& nodeTitles, TextWidths& titleWidths)
{
    std::vector<std::size_t> tooWide;
    QStringList tooWideTitles;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const bool button = hasExpandButton(graph.nodes[i]);
        if (titleWidths.advance(nodeTitles[i]) > kMaxWidth - 2 * kPaddingX - (button ? kExpandButtonWidth : 0)) {
            tooWide.push_back(i);
            tooWideTitles << nodeTitles[i];
        }
    }
    std::vector<std::pair<int, int>> titleParts(graph.nodes.size(), { -1, -1 });
    const auto parts = distinctParts(tooWideTitles);
    for (std::size_t k = 0; k < tooWide.size(); ++k)
        titleParts[tooWide[k]] = parts[k];
    return titleParts;
}

// What every node box is measured with, and the edges its subtitle counts.
struct NodeText {
    TextWidths& titleWidths;
    TextWidths& subtitleWidths;
    const GraphAdjacency& adjacency;
    const GraphAdjacency* methodAdjacency;
};

// Node i's title, subtitle and inlined constants, fitted to the widest box, and its size
// in the layout request.
void addNodeBox(
    Presentation& presentation, std::size_t i, const QString& nodeTitle, std::pair<int, int> titlePart, NodeText& text)
{
    const Node& node = presentation.flat.graph.nodes[i];
    const bool button = hasExpandButton(node);
    // The widest text a box holds; longer names shorten where they differ least. Each line
    // is measured once when it fits (nearly always), and again only when shortened.
    const double room = kMaxWidth - 2 * kPaddingX - (button ? kExpandButtonWidth : 0);
    double width = 0;
    const auto fitted = [&](const QString& line, TextWidths& widths) {
        double advance = widths.advance(line);
        QString shown = line;
        if (advance > room) {
            shown = widths.elided(line, room);
            advance = widths.advance(shown);
        }
        width = std::max(width, advance);
        return shown;
    };
    QString title = nodeTitle;
    if (titlePart.first >= 0) {
        title = elideAroundToWidth(title, titlePart, text.titleWidths.metrics(), room);
        width = std::max(width, text.titleWidths.advance(title));
    } else {
        title = fitted(title, text.titleWidths);
    }
    QString subtitle = fitted(subtitleFor(presentation, text.adjacency, i, text.methodAdjacency), text.subtitleWidths);
    int lines = subtitle.isEmpty() ? 0 : 1;
    // Small constants read by this node, one line each, as Netron lists them.
    for (const std::string& constant : presentation.flat.inlined[i]) {
        subtitle += (subtitle.isEmpty() ? QString() : QStringLiteral("\n"))
            + fitted(QString::fromStdString(constant), text.subtitleWidths);
        ++lines;
    }
    presentation.titles.push_back(title);
    presentation.subtitles.push_back(subtitle);
    double height = text.titleWidths.metrics().height();
    if (lines > 0)
        height += text.subtitleWidths.metrics().height() * lines + 2;
    if (button)
        width += kExpandButtonWidth;
    width = std::clamp(width + 2 * kPaddingX, kMinWidth, kMaxWidth);
    height += 2 * kPaddingY;
    presentation.request.nodes.push_back({ width, height, presentation.flat.clusterOf(node.id) });
}

// Every node's box: titles, subtitles and sizes.
void addNodeBoxes(Presentation& presentation)
{
    TextWidths titleWidths(titleFont());
    TextWidths subtitleWidths(subtitleFont());
    const Graph& graph = presentation.flat.graph;
    const GraphAdjacency adjacency = graph.adjacency();
    // The method's own edges, only when an operator here has lost its out edges (its scalar is
    // drawn beside each reader): its subtitle counts the readers.
    std::optional<GraphAdjacency> methodAdjacency;
    if (!presentation.context.delegateNode.valid())
        for (std::size_t i = 0; i < graph.nodes.size() && !methodAdjacency; ++i)
            if (graph.nodes[i].kind == NodeKind::Operator && adjacency.out[i].empty()
                && !presentation.origins[i].inner.valid())
                methodAdjacency = presentation.methodGraph().adjacency();
    std::vector<QString> nodeTitles(graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        nodeTitles[i] = nodeTitle(graph.nodes[i]);
    const std::vector<std::pair<int, int>> titleParts = titlePartsToKeep(graph, nodeTitles, titleWidths);
    NodeText text { titleWidths, subtitleWidths, adjacency, methodAdjacency ? &*methodAdjacency : nullptr };
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        addNodeBox(presentation, i, nodeTitles[i], titleParts[i], text);
}

} // namespace

std::shared_ptr<Presentation> preparePresentation(std::shared_ptr<const Document> document, const GraphContext& context,
    const std::set<int>& expanded, std::shared_ptr<const Grouping> grouping)
{
    auto presentation = std::make_shared<Presentation>();
    presentation->document = document;
    presentation->context = context;
    presentation->smallConstantsInline = smallConstantsInline();
    if (context.delegateNode.valid())
        flattenDelegate(*presentation, context);
    else
        flattenMethod(*presentation, *document, context, expanded, std::move(grouping));

    for (std::size_t i = 0; i < presentation->origins.size(); ++i)
        // A constant drawn again in each group that reads it is found at its first place.
        presentation->indexByOrigin.try_emplace(
            { presentation->origins[i].top.value, presentation->origins[i].inner.value }, static_cast<int>(i));

    addClusters(*presentation);
    addNodeBoxes(*presentation);
    for (const Edge& edge : presentation->flat.graph.edges)
        presentation->request.edges.push_back({ edge.from.value, edge.to.value });
    orderGroupFrames(*presentation);
    return presentation;
}

} // namespace etscope::ui
