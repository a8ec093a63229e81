// SPDX-License-Identifier: MIT
// The numeric gap between the runs of two builds (`etscope gap` across programs, the app's heatmap).
// Why one file: pairing the logged outputs, their quantization, the divergence rule and the table are
// the steps of compareProgramRuns and share its private helpers (logs by node, node texts).
#include "core/debug/programgap.h"

#include "core/debug/dumpcheck.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace etscope::core {

namespace {

std::string lowered(std::string_view text)
{
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(), [](unsigned char c) { return std::tolower(c); });
    return result;
}

/// Short numbers for messages: 6 significant digits, inf and nan spelled out.
std::string number(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::ostringstream out;
    out.precision(6);
    out << value;
    return out.str();
}

/// A metric's value in a line of prose, with the precision a reader uses (issue 27; tables keep
/// one format per column): snr to 0.1 dB ("8.4"); cosine to the second significant digit of its
/// distance from 1, at least 3 decimals ("0.981", "0.99987"), so a cosine short of 1 never reads
/// as 1; every other measure (mse, l1, maxabs, rel, jump, max |a|) to 3 significant digits.
std::string metricNumber(const std::string& metric, double value)
{
    if (!std::isfinite(value))
        return number(value);
    std::ostringstream out;
    if (metric == "snr") {
        out << std::fixed << std::setprecision(1) << value;
    } else if (metric == "cosine") {
        const double distance = std::abs(1.0 - value);
        if (distance == 0)
            return "1";
        const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(distance))), 3, 16);
        out << std::fixed << std::setprecision(decimals) << value;
    } else {
        out << std::setprecision(3) << value;
    }
    return out.str();
}

bool higherIsWorse(const std::string& metric)
{
    if (metric == "rel" || metric == "jump")
        return true;
    const auto parsed = parseGapMetric(metric);
    return !parsed || gapHigherIsWorse(*parsed);
}

std::string unit(const std::string& metric)
{
    return metric == "snr" ? " dB" : "";
}

bool crossesLimit(const std::string& metric, double value, double limit)
{
    if (std::isnan(value))
        return true;
    return higherIsWorse(metric) ? value > limit : value < limit;
}

/// metricNumber of a value that crosses `limit`, with more digits when the rounded value would
/// not show the crossing ("snr 20.0 dB < 20 dB" for 19.96 becomes "snr 19.96 dB < 20 dB").
std::string crossingNumber(const std::string& metric, double value, double limit)
{
    const auto shown = [](const std::string& text) {
        double parsed = 0;
        std::from_chars(text.data(), text.data() + text.size(), parsed);
        return parsed;
    };
    std::string text = metricNumber(metric, value);
    for (int digits = 4; digits <= 17 && !crossesLimit(metric, shown(text), limit); ++digits) {
        std::ostringstream out;
        out << std::setprecision(digits) << value;
        text = out.str();
    }
    return text;
}

// --- logged outputs per node ------------------------------------------------------------------

/// One logged value: an event and which tensor of it.
struct LoggedItem {
    const DebugEvent* event = nullptr;
    std::size_t tensor = 0;
};

/// The outputs one node logged in a run.
struct NodeLog {
    std::vector<LoggedItem> items;
    InstructionId instruction;
    std::string runtimeOp;
    std::string delegateIdentifier;
    std::vector<DebugHandle> debugHandles;
    std::size_t order = 0; ///< position in the run (groups in logging order; program outputs last)
    std::string caveat;
    NodeOrigin origin; ///< the node it landed on (for byHandles: the delegate node)
};

std::uint64_t keyOf(const NodeOrigin& origin)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(origin.top.value + 1)) << 32)
        | static_cast<std::uint32_t>(origin.inner.value + 1);
}

struct SideLog {
    /// Events placed on the node (kernels, delegate calls, program outputs on Output nodes,
    /// delegate-internal events on inner nodes).
    std::unordered_map<std::uint64_t, NodeLog> direct;
    /// A delegate call's output k, also under the inner node that writes the delegate's output
    /// k: the partner of an operator that moved into the delegate.
    std::unordered_map<std::uint64_t, NodeLog> viaDelegateOutput;
    /// Delegate-internal outputs that land on no inner node (a backend whose payload is not
    /// decoded, or whose inner nodes carry no handles) but whose identifier the ETRecord's
    /// delegate_map resolves to AOT handles: paired through those handles.
    std::vector<NodeLog> byHandles;
    std::size_t groups = 0; ///< node outputs logged (groups of events)
    std::size_t unplaced = 0;
    std::size_t unplacedInternal = 0; ///< of them, delegate-internal outputs on no inner node
    bool found = false; ///< the Execute block exists
};

using GroupKey = std::tuple<std::uint64_t, InstructionId, DelegateDebugId, std::string>;

NodeId outputNode(const Graph& graph, std::size_t ordinal)
{
    std::size_t seen = 0;
    for (const Node& node : graph.nodes)
        if (node.kind == NodeKind::Output && seen++ == ordinal)
            return node.id;
    return NodeId::none();
}

/// The inner node writing the inner Output whose argument position is `argPosition`.
NodeId innerProducer(const Graph& inner, int argPosition)
{
    for (const Node& node : inner.nodes) {
        if (node.kind != NodeKind::Output || node.argPosition != argPosition)
            continue;
        for (const Edge& edge : inner.edges)
            if (edge.to == node.id)
                return edge.from;
    }
    return NodeId::none();
}

SideLog collectSide(const ETDump& dump, std::size_t blockIndex, const EventMapper& mapper)
{
    SideLog side;
    const std::vector<std::size_t> blocks = dump.executeBlocks();
    if (blockIndex >= blocks.size())
        return side;
    side.found = true;
    const RunBlock& block = dump.runs[blocks[blockIndex]];
    std::vector<GroupKey> order;
    std::map<GroupKey, std::vector<const DebugEvent*>> groups;
    std::vector<const DebugEvent*> outputs;
    for (const DebugEvent& event : block.debugEvents) {
        if (event.value.output) {
            outputs.push_back(&event);
            continue;
        }
        GroupKey key { event.chainIndex, event.instructionId, event.delegateDebugIdInt, event.delegateDebugIdStr };
        auto& group = groups[key];
        if (group.empty())
            order.push_back(key);
        group.push_back(&event);
    }
    const Graph& graph = mapper.graph();
    DelegateEventCursor cursor;
    // The block's own profiling names say whose values these are (placeLoggedValues).
    const std::map<int, std::vector<std::string>> names = profiledNames(block);
    const auto itemsOf = [](const std::vector<const DebugEvent*>& events) {
        std::vector<LoggedItem> items;
        for (const DebugEvent* event : events) {
            if (event->value.kind == DebugValue::Kind::TensorList)
                for (std::size_t t = 0; t < event->value.tensors.size(); ++t)
                    items.push_back({ event, t });
            else
                items.push_back({ event, 0 });
        }
        return items;
    };
    for (std::size_t g = 0; g < order.size(); ++g) {
        const auto& [wireChain, instruction, idInt, idStr] = order[g];
        std::vector<const DebugEvent*> events = groups.at(order[g]);
        const ChainIndex chain = events.front()->chain();
        const bool internal = idInt.value != -1 || !idStr.empty();
        const EventPlacement placement = internal ? mapper.placeDelegateEvent(chain, instruction, idInt, idStr, cursor)
                                                  : mapper.placeLoggedValues(chain, instruction, names);
        const bool onHandles
            = internal && placement.matched && !placement.origin.inner.valid() && !placement.debugHandles.empty();
        if (!onHandles && (!placement.matched || (internal && !placement.origin.inner.valid()))) {
            ++side.unplaced; // no node to pair (or only the delegate node, whose own outputs these are not)
            if (internal)
                ++side.unplacedInternal;
            continue;
        }
        ++side.groups;
        NodeLog log;
        log.instruction = instruction;
        log.order = g;
        log.debugHandles = placement.debugHandles;
        log.delegateIdentifier = internal ? (idStr.empty() ? std::to_string(idInt.value) : idStr) : std::string();
        log.origin = placement.origin;
        if (onHandles) {
            log.items = itemsOf(events);
            side.byHandles.push_back(std::move(log));
            continue;
        }
        const Node& top = graph.node(placement.origin.top);
        log.runtimeOp = internal ? top.subgraph && placement.origin.inner.index() < top.subgraph->nodes.size()
                ? top.subgraph->node(placement.origin.inner).opType
                : std::string()
                                 : top.opType;
        const bool delegateCall = !internal && top.kind == NodeKind::Delegate;
        int outs = -1;
        if (delegateCall) {
            // Delegate calls log every argument; only the last num_outs are outputs (facts sheet §4.3).
            log.runtimeOp = "DELEGATE_CALL";
            outs = mapper.delegateOutputCount(instruction);
            if (outs < 0 || static_cast<std::size_t>(outs) > events.size())
                log.caveat = "delegate output count unknown: every logged argument compared";
            else
                events.erase(events.begin(), events.end() - outs);
        }
        log.items = itemsOf(events);
        if (delegateCall && top.subgraph && outs >= 0 && !top.args.empty()) {
            for (std::size_t k = 0; k < log.items.size(); ++k) {
                const int position = static_cast<int>(top.args.size()) - outs + static_cast<int>(k);
                const NodeId producer = innerProducer(*top.subgraph, position);
                if (!producer.valid() || top.subgraph->node(producer).kind != NodeKind::Operator)
                    continue;
                NodeLog via = log;
                via.items = { log.items[k] };
                via.runtimeOp = top.subgraph->node(producer).opType;
                side.viaDelegateOutput.emplace(keyOf({ top.id, producer }), std::move(via));
            }
        }
        side.direct.emplace(keyOf(placement.origin), std::move(log)); // a node logged twice keeps its first
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const NodeId node = outputNode(graph, i);
        if (!node.valid()) {
            ++side.unplaced;
            continue;
        }
        ++side.groups;
        NodeLog log;
        log.runtimeOp = "program output";
        log.order = order.size() + i;
        log.items = { { outputs[i], 0 } };
        log.origin = { node, NodeId::none() };
        side.direct.emplace(keyOf({ node, NodeId::none() }), std::move(log));
    }
    return side;
}

const NodeLog* findLog(const SideLog& side, const NodeOrigin& origin, bool allowViaOutput)
{
    if (const auto it = side.direct.find(keyOf(origin)); it != side.direct.end())
        return &it->second;
    if (allowViaOutput)
        if (const auto it = side.viaDelegateOutput.find(keyOf(origin)); it != side.viaDelegateOutput.end())
            return &it->second;
    return nullptr;
}

bool isFloatType(int type)
{
    return type == scalar_type::Float || type == scalar_type::Double || type == 5 /* Half */
        || type == 15 /* BFloat16 */;
}

/// Integer dtypes a quantize op writes: uint8, int8, int16, int32 (facts sheet §1.5 numbering).
bool isQuantizableType(int type)
{
    return type == scalar_type::Byte || type == scalar_type::Char || type == 2 || type == 3;
}

bool isEightBit(int type)
{
    return type == scalar_type::Byte || type == scalar_type::Char;
}

/// "#4 aten::addmm.out" for an instruction's node, the label alone for others.
std::string topLabel(const Node& node)
{
    const bool instruction
        = node.kind == NodeKind::Operator || node.kind == NodeKind::Delegate || node.kind == NodeKind::Unknown;
    return instruction && node.instruction.valid() ? "#" + std::to_string(node.instruction.value) + " " + node.label
                                                   : node.label;
}

bool sharesHandle(const std::vector<DebugHandle>& a, const std::vector<DebugHandle>& b)
{
    for (const DebugHandle h : a)
        if (std::find(b.begin(), b.end(), h) != b.end())
            return true;
    return false;
}

/// "XNNClamp (node 7)": an inner node named as diff names it, its id telling apart the nodes of
/// one delegate that share a label (two FullyConnected, two Clamp).
std::string innerText(const Graph& inner, NodeId id)
{
    return inner.node(id).label + " (node " + std::to_string(id.value) + ")";
}

/// "#0 XnnpackBackend › XNNClamp (node 7)", "#4 aten::addmm.out", "output 0".
std::string nodeText(const EventMapper& mapper, const NodeOrigin& origin)
{
    const Graph& graph = mapper.graph();
    if (!origin.top.valid() || origin.top.index() >= graph.nodes.size())
        return "node " + std::to_string(origin.top.value);
    const Node& top = graph.node(origin.top);
    if (origin.inner.valid() && top.subgraph && origin.inner.index() < top.subgraph->nodes.size())
        return topLabel(top) + " › " + innerText(*top.subgraph, origin.inner);
    return topLabel(top);
}

std::optional<double> attributeNumber(const Node& node, std::string_view name)
{
    const auto text = node.attributes.find(name);
    if (!text)
        return std::nullopt;
    const std::string copy(*text);
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (end == copy.c_str())
        return std::nullopt;
    return value;
}

/// Per-tensor quantization an XNNPACK external Input/Output node states in its attributes.
std::optional<QuantParams> nodeQuantization(const Node& node, const std::string& source)
{
    const auto kind = node.attributes.find("quantization");
    if (!kind || *kind != "per tensor")
        return std::nullopt;
    const auto scale = attributeNumber(node, "scale");
    const auto zeroPoint = attributeNumber(node, "zero point");
    if (!scale || !zeroPoint || !std::isfinite(*scale) || *scale <= 0)
        return std::nullopt;
    return QuantParams { *scale, static_cast<std::int64_t>(*zeroPoint), source };
}

/// scale and zero_point of a quantize/dequantize_per_tensor kernel: arguments 1 and 2, a Double
/// and an Int (quantized_decomposed.quantize_per_tensor(input, scale, zero_point, quant_min,
/// quant_max, dtype); pytorch/executorch kernels/quantized/quantized.yaml).
std::optional<QuantParams> kernelQuantization(const Node& node, const Method& method, const std::string& source)
{
    if (node.args.size() < 3)
        return std::nullopt;
    const auto value = [&](std::int32_t index) -> const Value* {
        return index >= 0 && static_cast<std::size_t>(index) < method.values.size()
            ? &method.values[static_cast<std::size_t>(index)]
            : nullptr;
    };
    const Value* scale = value(node.args[1]);
    const Value* zeroPoint = value(node.args[2]);
    if (!scale || !zeroPoint || scale->kind != Value::Kind::Double || zeroPoint->kind != Value::Kind::Int)
        return std::nullopt;
    if (!std::isfinite(scale->doubleValue) || scale->doubleValue <= 0)
        return std::nullopt;
    return QuantParams { scale->doubleValue, zeroPoint->intValue, source };
}

bool isQuantize(const Node& node)
{
    return node.opType.find("quantize_per_tensor") != std::string::npos
        && node.opType.find("dequantize") == std::string::npos;
}

bool isDequantize(const Node& node)
{
    return node.opType.find("dequantize_per_tensor") != std::string::npos;
}

struct Side {
    const ProgramRun* run = nullptr;
    const SideLog* log = nullptr;
    std::string name; ///< "run" or "reference"
};

} // namespace

// --- thresholds ---------------------------------------------------------------------------------

std::vector<DivergenceThreshold> defaultDivergenceThresholds(bool importedTable)
{
    if (importedTable)
        return { { "jump", 1000.0 } };
    return { { "snr", 20.0 }, { "rel", 0.1 } };
}

Result<DivergenceThreshold> parseDivergenceThreshold(std::string_view text)
{
    const auto equals = text.find('=');
    if (equals == std::string_view::npos)
        return makeError(Error::Code::Usage, std::string(text), "a threshold is METRIC=VALUE, e.g. snr=20");
    std::string metric = lowered(text.substr(0, equals));
    if (metric != "rel" && metric != "jump") {
        const auto parsed = parseGapMetric(metric);
        if (!parsed)
            return makeError(Error::Code::Usage, std::string(text),
                "unknown metric '" + metric + "' (mse, l1, snr, cosine, maxabs, rel or jump)");
        metric = std::string(gapMetricName(*parsed));
    }
    const std::string valueText(text.substr(equals + 1));
    char* end = nullptr;
    const double value = std::strtod(valueText.c_str(), &end);
    if (valueText.empty() || end != valueText.c_str() + valueText.size() || !std::isfinite(value))
        return makeError(Error::Code::Usage, std::string(text), "'" + valueText + "' is no finite number");
    return DivergenceThreshold { metric, value };
}

std::string describeThresholds(const std::vector<DivergenceThreshold>& thresholds)
{
    std::string text;
    for (const DivergenceThreshold& t : thresholds)
        text += (text.empty() ? "" : " or ") + t.metric + (higherIsWorse(t.metric) ? " > " : " < ") + number(t.value)
            + unit(t.metric);
    return text.empty() ? "no threshold" : text;
}

DivergenceRule::DivergenceRule(std::vector<DivergenceThreshold> thresholds, std::optional<GapMetric> importedMetric)
    : m_thresholds(std::move(thresholds))
    , m_imported(importedMetric)
{
}

void DivergenceRule::observe(const GapRow& row)
{
    for (const double gap : row.imported)
        if (std::isfinite(gap) && gap > 0) {
            m_gaps.push_back(gap);
            m_sorted = false;
        }
}

std::optional<double> DivergenceRule::jumpBaseline() const
{
    if (m_gaps.empty())
        return std::nullopt;
    if (!m_sorted) {
        std::sort(m_gaps.begin(), m_gaps.end());
        m_sorted = true;
    }
    const std::size_t n = m_gaps.size();
    return n % 2 ? m_gaps[n / 2] : (m_gaps[n / 2 - 1] + m_gaps[n / 2]) / 2;
}

std::optional<Crossing> DivergenceRule::crosses(const GapRow& row) const
{
    // The imported gap, in the direction of its metric: the worst of a list cell.
    std::optional<double> imported;
    const bool importedHigherIsWorse = !m_imported || gapHigherIsWorse(*m_imported);
    for (const double gap : row.imported)
        if (!imported || (importedHigherIsWorse ? gap > *imported : gap < *imported) || std::isnan(gap))
            imported = gap;
    for (const DivergenceThreshold& t : m_thresholds) {
        std::optional<double> value;
        if (t.metric == "rel") {
            if (row.metrics) {
                const double scale = row.metrics->referenceMaxAbs;
                value = scale > 0             ? row.metrics->maxAbs / scale
                    : row.metrics->maxAbs > 0 ? std::numeric_limits<double>::infinity()
                                              : (std::isnan(row.metrics->maxAbs) ? row.metrics->maxAbs : 0.0);
            }
        } else if (t.metric == "jump") {
            const auto baseline = jumpBaseline();
            if (imported && baseline && std::isfinite(*imported) && (!m_imported || gapHigherIsWorse(*m_imported))) {
                value = *imported / *baseline;
            }
        } else if (const auto metric = parseGapMetric(t.metric)) {
            if (row.metrics)
                value = row.metrics->value(*metric);
            else if (imported && m_imported == metric)
                value = imported;
        }
        if (!value || !crossesLimit(t.metric, *value, t.value))
            continue;
        Crossing crossing;
        crossing.metric = t.metric;
        crossing.value = *value;
        crossing.threshold = t.value;
        if (t.metric == "jump") {
            const std::string gapMetric(m_imported ? gapMetricName(*m_imported) : "mse");
            crossing.text = "gap " + metricNumber(gapMetric, *imported) + " is "
                + crossingNumber("jump", *value, t.value) + " × the table's median gap "
                + metricNumber(gapMetric, *jumpBaseline()) + " (> " + number(t.value) + ")";
        } else {
            crossing.text = t.metric + " " + crossingNumber(t.metric, *value, t.value) + unit(t.metric)
                + (higherIsWorse(t.metric) ? " > " : " < ") + number(t.value) + unit(t.metric);
        }
        return crossing;
    }
    return std::nullopt;
}

std::string joinNodePath(const std::vector<std::string>& path)
{
    std::string text;
    for (const std::string& part : path)
        text += (text.empty() ? "" : " › ") + part;
    return text;
}

std::vector<std::string> nodePath(const EventMapper& mapper, const NodeOrigin& origin)
{
    std::vector<std::string> path { mapper.method() };
    const Graph& graph = mapper.graph();
    if (!origin.top.valid() || origin.top.index() >= graph.nodes.size())
        return path;
    const Node& top = graph.node(origin.top);
    path.push_back(topLabel(top));
    if (origin.inner.valid() && top.subgraph && origin.inner.index() < top.subgraph->nodes.size())
        path.push_back(innerText(*top.subgraph, origin.inner));
    return path;
}

FirstDivergence divergenceAt(
    const GapRow& row, std::size_t index, Crossing crossing, const EventMapper& mapper, std::size_t comparedBefore)
{
    FirstDivergence divergence;
    divergence.row = index;
    divergence.crossing = std::move(crossing);
    divergence.runNode = row.origin;
    divergence.path
        = row.matched ? nodePath(mapper, row.origin) : std::vector<std::string> { mapper.method(), row.label };
    if (row.matched && !row.origin.inner.valid() && !row.delegateIdentifier.empty())
        divergence.path.push_back(delegateIdentifierText(row.delegateIdentifier));
    divergence.comparedBefore = comparedBefore;
    return divergence;
}

std::optional<FirstDivergence> findFirstDivergence(
    const GapReport& report, const EventMapper& mapper, DivergenceRule rule)
{
    for (const GapRow& row : report.rows)
        rule.observe(row);
    std::size_t compared = 0;
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        const GapRow& row = report.rows[r];
        if (auto crossing = rule.crosses(row))
            return divergenceAt(row, r, std::move(*crossing), mapper, compared);
        if (row.metrics || !row.imported.empty())
            ++compared;
    }
    return std::nullopt;
}

// --- quantization -------------------------------------------------------------------------------

std::optional<QuantParams> statedQuantization(
    const Graph& graph, const Method& method, const NodeOrigin& origin, int output, const GraphAdjacency* adjacency)
{
    if (!origin.top.valid() || origin.top.index() >= graph.nodes.size())
        return std::nullopt;
    const Node& top = graph.node(origin.top);
    if (origin.inner.valid()) {
        // Inside a delegate: the external output the inner node writes.
        if (!top.subgraph || origin.inner.index() >= top.subgraph->nodes.size())
            return std::nullopt;
        const Graph& inner = *top.subgraph;
        const Node& node = inner.node(origin.inner);
        if (node.kind == NodeKind::Output || node.kind == NodeKind::Input)
            return nodeQuantization(node, top.label + " " + node.label);
        for (const Edge& edge : inner.edges)
            if (edge.from == node.id && inner.node(edge.to).kind == NodeKind::Output)
                if (auto q = nodeQuantization(inner.node(edge.to), top.label + " " + inner.node(edge.to).label))
                    return q;
        return std::nullopt;
    }
    const std::string where = "#" + std::to_string(top.instruction.value);
    if (isQuantize(top))
        return kernelQuantization(top, method, "quantize_per_tensor " + where);
    if (top.kind == NodeKind::Delegate && top.subgraph && top.inputCount >= 0 && output >= 0) {
        const int position = top.inputCount + output;
        for (const Node& node : top.subgraph->nodes)
            if (node.kind == NodeKind::Output && node.argPosition == position)
                if (auto q = nodeQuantization(node, top.label + " " + node.label))
                    return q;
    }
    // A dequantize_per_tensor reading this output.
    std::optional<std::int32_t> written;
    if (output >= 0 && static_cast<std::size_t>(output) < top.writes.size())
        written = top.writes[static_cast<std::size_t>(output)].first;
    std::vector<std::size_t> outgoing;
    if (adjacency && top.id.index() < adjacency->out.size())
        outgoing = adjacency->out[top.id.index()];
    else
        for (std::size_t e = 0; e < graph.edges.size(); ++e)
            if (graph.edges[e].from == top.id)
                outgoing.push_back(e);
    for (const std::size_t e : outgoing) {
        const Edge& edge = graph.edges[e];
        const Node& reader = graph.node(edge.to);
        if (!isDequantize(reader) || reader.args.empty())
            continue;
        if (written && reader.args[0] != *written)
            continue;
        if (auto q
            = kernelQuantization(reader, method, "dequantize_per_tensor #" + std::to_string(reader.instruction.value)))
            return q;
    }
    return std::nullopt;
}

// --- the comparison -----------------------------------------------------------------------------

Result<ProgramGapReport> compareProgramRuns(
    const ProgramRun& run, const ProgramRun& reference, const NodePairing& pairing, const ProgramGapOptions& options)
{
    for (const ProgramRun* side : { &run, &reference })
        if (!side->method || !side->mapper || !side->dump)
            return makeError(Error::Code::Usage, side->program, "no method, program graph or ETDump to compare");
    ProgramGapReport report;
    report.method = run.method->name;
    report.matching = pairing.matching;
    report.run = describeExecuteBlock(*run.dump, run.block) + ", program " + run.program;
    report.reference = describeExecuteBlock(*reference.dump, reference.block) + ", program " + reference.program;
    report.warnings = pairing.warnings;

    const SideLog runLog = collectSide(*run.dump, run.block, *run.mapper);
    const SideLog refLog = collectSide(*reference.dump, reference.block, *reference.mapper);
    for (const auto& [side, log] : { std::pair(&run, &runLog), std::pair(&reference, &refLog) }) {
        if (!log->found) {
            const std::size_t count = side->dump->executeBlocks().size();
            report.warnings.push_back({ side->dump->path() + ": no Execute block " + std::to_string(side->block)
                    + " (it has " + std::to_string(count) + ")",
                std::nullopt });
            continue;
        }
        for (Warning& warning : dumpFitWarnings(checkDumpFitsProgram(*side->dump, *side->mapper, side->block),
                 side->dump->path() + " against " + side->program, side->method->name))
            report.warnings.push_back(std::move(warning));
        if (log->groups == 0)
            report.warnings.push_back({ side->dump->path()
                    + ": the run logged no debug values (was it made with intermediate or program outputs enabled?)",
                std::nullopt });
        if (log->unplaced)
            report.warnings.push_back({ side->dump->path() + ": " + std::to_string(log->unplaced)
                    + " logged value group(s) fall on no node of " + side->program + " and are not compared"
                    + (log->unplacedInternal && !side->mapper->record() ? " (" + std::to_string(log->unplacedInternal)
                                + " logged inside a delegate: give its ETRecord, whose delegate_map names the ops "
                                  "behind each delegate debug identifier)"
                                                                        : std::string()),
                std::nullopt });
    }
    // Runs of different lengths: one run logged a smaller share of its program's instructions
    // (cut short, or made at another debug level) than the other.
    const auto instructionShare = [](const SideLog& log, const Graph& graph) {
        std::size_t total = 0, logged = 0;
        for (const Node& node : graph.nodes) {
            if (node.kind != NodeKind::Operator && node.kind != NodeKind::Delegate)
                continue;
            ++total;
            if (log.direct.count(keyOf({ node.id, NodeId::none() })))
                ++logged;
        }
        return std::pair(logged, total);
    };
    const auto [runLogged, runTotal] = instructionShare(runLog, run.mapper->graph());
    const auto [refLogged, refTotal] = instructionShare(refLog, reference.mapper->graph());
    if (runLog.found && refLog.found && runLogged * refTotal != refLogged * runTotal)
        report.warnings.push_back({ "runs of different lengths: " + run.dump->path() + " logged the outputs of "
                + std::to_string(runLogged) + " of " + std::to_string(runTotal) + " instructions, "
                + reference.dump->path() + " " + std::to_string(refLogged) + " of " + std::to_string(refTotal)
                + "; pairs with one side missing say which",
            std::nullopt });

    // Different models: few operators paired with the same operator.
    std::size_t sameOperator = 0;
    std::map<std::string, std::size_t> runOnlyOps;
    struct Pending {
        ProgramGapRow row;
        std::size_t order = 0;
    };
    std::vector<Pending> pending;
    const Graph& runGraph = run.mapper->graph();
    const Graph& refGraph = reference.mapper->graph();
    std::optional<GraphAdjacency> adjacency[2]; // built on the first quantized output of a side
    std::vector<NodeOrigin> runOnlyNodes, referenceOnlyNodes; // logged, without a partner
    std::unordered_set<std::uint64_t> compared[2]; // delegate calls whose outputs inner pairs compare
    // The rows of one pair of logged nodes: output by output, dequantized where the program
    // states how, compared where the sizes agree.
    const auto compareLogs = [&](const NodeOrigin& runOrigin, const NodeOrigin& refOrigin, const NodeLog* runNode,
                                 const NodeLog* refNode, const std::string& runLabel, const std::string& refLabel,
                                 const std::string& matchedBy, const std::string& change) {
        const Side sides[2] = { { &run, &runLog, "run" }, { &reference, &refLog, "reference" } };
        const std::size_t count = std::max(runNode ? runNode->items.size() : 0, refNode ? refNode->items.size() : 0);
        for (std::size_t i = 0; i < count; ++i) {
            Pending p;
            ProgramGapRow& row = p.row;
            GapRow& g = row.run;
            g.origin = runOrigin;
            g.matched = true;
            g.label = runLabel;
            g.outputIndex = static_cast<int>(i);
            row.referenceOrigin = refOrigin;
            row.referenceLabel = refLabel;
            row.matchedBy = matchedBy;
            row.change = change;
            p.order = runNode ? runNode->order : refNode->order;
            if (runNode) {
                g.runtimeOp = runNode->runtimeOp;
                g.instruction = runNode->instruction;
                g.delegateIdentifier = runNode->delegateIdentifier;
                g.debugHandles = runNode->debugHandles;
                g.aotOps = run.mapper->edgeNodeNames(runNode->debugHandles);
            } else {
                const Node& top = runGraph.node(runOrigin.top);
                g.runtimeOp = top.opType;
                g.instruction = top.instruction;
            }
            if (refNode)
                row.referenceInstruction = refNode->instruction;
            else if (refOrigin.top.valid() && refOrigin.top.index() < refGraph.nodes.size())
                row.referenceInstruction = refGraph.node(refOrigin.top).instruction;
            const NodeLog* logs[2] = { runNode, refNode };
            LoggedNumbers numbers[2];
            bool present[2] = { false, false };
            for (int s = 0; s < 2; ++s) {
                if (!logs[s] || i >= logs[s]->items.size())
                    continue;
                present[s] = true;
                const LoggedItem& item = logs[s]->items[i];
                numbers[s] = loggedNumbers(*sides[s].run->dump, *item.event, item.tensor, options.maxElements);
            }
            g.shape = numbers[0].shape;
            g.dtype = numbers[0].dtype;
            row.referenceShape = numbers[1].shape;
            row.referenceDtype = numbers[1].dtype;
            if (!present[0] || !present[1]) {
                const int missing = present[0] ? 1 : 0;
                g.problem = sides[missing].run->dump->path() + " logged no output " + std::to_string(i) + " for "
                    + (missing == 0 ? g.label : row.referenceLabel) + " (its " + sides[missing].name + ")";
                pending.push_back(std::move(p));
                continue;
            }
            bool comparable = true;
            for (int s = 0; s < 2 && comparable; ++s) {
                if (!numbers[s].problem.empty()) {
                    g.problem = sides[s].name + " " + sides[s].run->dump->path() + ": " + numbers[s].problem;
                    comparable = false;
                }
            }
            // Dequantize the integer side(s) whose program states the parameters.
            const NodeOrigin origins[2] = { runOrigin, refOrigin };
            for (int s = 0; s < 2 && comparable; ++s) {
                const int type = numbers[s].scalarType;
                if (!isQuantizableType(type))
                    continue;
                const int other = 1 - s;
                const bool otherReal = isFloatType(numbers[other].scalarType);
                const bool otherQuantized = isQuantizableType(numbers[other].scalarType);
                const Graph& graph = sides[s].run->mapper->graph();
                if (!adjacency[s])
                    adjacency[s] = graph.adjacency();
                const auto params = statedQuantization(graph, *sides[s].run->method, origins[s],
                    logs[s]->items.size() > 1 || origins[s].inner.valid() ? static_cast<int>(i) : 0, &*adjacency[s]);
                if (!params) {
                    if (otherReal && isEightBit(type)) {
                        g.problem = sides[s].name + " " + sides[s].run->program + ": " + numbers[s].dtype
                            + " output of " + nodeText(*sides[s].run->mapper, origins[s])
                            + " has no quantization parameters in its program (no quantize_per_tensor or "
                              "dequantize_per_tensor around it, no delegate I/O quantization): not compared with "
                            + numbers[other].dtype + " values";
                        comparable = false;
                    }
                    continue;
                }
                if (!otherReal && !otherQuantized)
                    continue;
                for (double& v : numbers[s].values)
                    v = (v - static_cast<double>(params->zeroPoint)) * params->scale;
                row.dequantized += (row.dequantized.empty() ? "" : "; ") + sides[s].name + " dequantized (scale "
                    + number(params->scale) + ", zero_point " + std::to_string(params->zeroPoint) + ", from "
                    + params->source + ")";
            }
            if (comparable && numbers[0].values.size() != numbers[1].values.size()) {
                g.problem = "shapes differ: run " + formatShape(numbers[0].shape) + " (" + run.dump->path()
                    + "), reference " + formatShape(numbers[1].shape) + " (" + reference.dump->path() + ")"
                    + ": not compared";
                comparable = false;
            }
            if (comparable) {
                if (numbers[0].shape != numbers[1].shape && !numbers[0].shape.empty() && !numbers[1].shape.empty())
                    g.problem = "shapes differ: run " + formatShape(numbers[0].shape) + ", reference "
                        + formatShape(numbers[1].shape) + ", as many elements: compared in order";
                g.metrics = computeGapMetrics(numbers[1].values, numbers[0].values);
            }
            if (g.problem.empty() && runNode)
                g.problem = runNode->caveat;
            pending.push_back(std::move(p));
        }
    };
    for (const NodePair& pair : pairing.pairs) {
        if (!pair.reference || !pair.run) {
            if (pair.run && findLog(runLog, *pair.run, false))
                runOnlyNodes.push_back(*pair.run);
            if (pair.reference && findLog(refLog, *pair.reference, false))
                referenceOnlyNodes.push_back(*pair.reference);
            continue;
        }
        ++report.pairs;
        const bool moved = pair.run->inner.valid() != pair.reference->inner.valid();
        const bool operators = pair.run->top.valid() && pair.run->top.index() < runGraph.nodes.size()
            && (runGraph.node(pair.run->top).kind == NodeKind::Operator
                || runGraph.node(pair.run->top).kind == NodeKind::Delegate);
        if (operators && pair.change.rfind("operator ", 0) != 0)
            ++sameOperator;
        const NodeLog* runNode = findLog(runLog, *pair.run, moved);
        const NodeLog* refNode = findLog(refLog, *pair.reference, moved);
        // A delegate call's outputs compared through its inner nodes (the ones writing them, or
        // the inner nodes' own logged outputs): the call has a partner.
        if (runNode && refNode && pair.run->inner.valid())
            compared[0].insert(keyOf({ pair.run->top, NodeId::none() }));
        if (runNode && refNode && pair.reference->inner.valid())
            compared[1].insert(keyOf({ pair.reference->top, NodeId::none() }));
        if (!runNode && !refNode)
            continue;
        if (!runNode || !refNode) {
            const NodeOrigin& missing = !runNode ? *pair.run : *pair.reference;
            if (missing.inner.valid()) {
                ++report.notLoggedInside; // delegates log their calls' arguments, not their insides
                continue;
            }
        }
        compareLogs(*pair.run, *pair.reference, runNode, refNode, nodeText(*run.mapper, *pair.run),
            nodeText(*reference.mapper, *pair.reference), pair.matchedBy, pair.change);
    }
    // Delegate-internal outputs only the ETRecord's delegate_map places (any backend, decoded
    // or not): the partner is the other build's logged output under the same AOT handles — its
    // own delegate-internal output, else the last logged instruction or inner node carrying one
    // of them (a delegate call's own handle list names its whole partition: never a partner).
    std::vector<bool> usedRef(refLog.byHandles.size(), false);
    // handle → the last logged node carrying it, per side (built only when there is something
    // to pair through handles).
    using HandleIndex = std::unordered_map<std::int64_t, const NodeLog*>;
    const auto indexHandles = [](const SideLog& side) {
        HandleIndex index;
        for (const auto& [key, log] : side.direct) {
            if (log.runtimeOp == "DELEGATE_CALL")
                continue;
            for (const DebugHandle h : log.debugHandles) {
                const auto [it, fresh] = index.try_emplace(h.value, &log);
                if (!fresh && log.order > it->second->order)
                    it->second = &log;
            }
        }
        return index;
    };
    const bool anyByHandles = !runLog.byHandles.empty() || !refLog.byHandles.empty();
    const HandleIndex runHandles = anyByHandles ? indexHandles(runLog) : HandleIndex();
    const HandleIndex refHandles = anyByHandles ? indexHandles(refLog) : HandleIndex();
    const auto partnerOf = [&](const SideLog& other, const HandleIndex& index, const NodeLog& log,
                               std::vector<bool>* used) -> const NodeLog* {
        for (std::size_t k = 0; k < other.byHandles.size(); ++k)
            if ((!used || !(*used)[k]) && sharesHandle(other.byHandles[k].debugHandles, log.debugHandles)) {
                if (used)
                    (*used)[k] = true;
                return &other.byHandles[k];
            }
        const NodeLog* best = nullptr;
        for (const DebugHandle h : log.debugHandles)
            if (const auto it = index.find(h.value); it != index.end() && (!best || it->second->order > best->order))
                best = it->second;
        return best;
    };
    const auto logText = [](const EventMapper& mapper, const NodeLog& log) {
        std::string text = nodeText(mapper, log.origin);
        if (!log.origin.inner.valid() && !log.delegateIdentifier.empty())
            text += " › " + delegateIdentifierText(log.delegateIdentifier);
        return text;
    };
    for (const NodeLog& log : runLog.byHandles) {
        const NodeLog* other = partnerOf(refLog, refHandles, log, &usedRef);
        if (!other) {
            ++report.runOnly;
            ++runOnlyOps[logText(*run.mapper, log)];
            continue;
        }
        ++report.pairs;
        compareLogs(log.origin, other->origin, &log, other, logText(*run.mapper, log),
            logText(*reference.mapper, *other), "delegate_map", std::string());
    }
    for (std::size_t k = 0; k < refLog.byHandles.size(); ++k) {
        if (usedRef[k])
            continue;
        const NodeLog& log = refLog.byHandles[k];
        const NodeLog* other = partnerOf(runLog, runHandles, log, nullptr);
        if (!other) {
            ++report.referenceOnly;
            continue;
        }
        ++report.pairs;
        compareLogs(other->origin, log.origin, other, &log, logText(*run.mapper, *other),
            logText(*reference.mapper, log), "delegate_map", std::string());
    }
    std::stable_sort(
        pending.begin(), pending.end(), [](const Pending& a, const Pending& b) { return a.order < b.order; });
    for (Pending& p : pending)
        report.rows.push_back(std::move(p.row));
    for (const NodeOrigin& node : runOnlyNodes) {
        if (compared[0].count(keyOf(node)))
            continue;
        ++report.runOnly;
        std::string op = run.mapper->label(node);
        if (node.top.valid() && node.top.index() < runGraph.nodes.size() && !node.inner.valid()
            && !runGraph.node(node.top).opType.empty())
            op = runGraph.node(node.top).opType;
        ++runOnlyOps[op];
    }
    for (const NodeOrigin& node : referenceOnlyNodes)
        report.referenceOnly += compared[1].count(keyOf(node)) ? 0 : 1;
    for (const auto& [op, n] : runOnlyOps)
        report.runOnlyOps.push_back(op + " ×" + std::to_string(n));

    const std::size_t runOps = runGraph.operatorCount();
    const std::size_t refOps = refGraph.operatorCount();
    if (std::max(runOps, refOps) >= 2 && sameOperator * 2 < std::max(runOps, refOps))
        report.warnings.push_back({ "the programs look like different models: " + std::to_string(sameOperator) + " of "
                + std::to_string(std::max(runOps, refOps)) + " operators of " + run.program + " and "
                + reference.program + " pair with the same operator (matching: " + pairing.matching
                + "); only the pairs below are compared",
            std::nullopt });
    if (report.pairs == 0)
        report.warnings.push_back(
            { run.program + " and " + reference.program + ": no node pairs to compare", std::nullopt });
    return report;
}

// --- rendering ----------------------------------------------------------------------------------

Table programGapTable(const ProgramGapReport& report, std::optional<GapMetric> only, bool forJson)
{
    const std::vector<GapMetric> metrics = gapMetricColumns(only);
    Table table;
    table.title = "Numeric gap (programs)";
    table.columns = { "#", "node", "reference_node", "matched_by", "instruction", "output", "shape", "dtype" };
    for (const GapMetric m : metrics)
        table.columns.emplace_back(gapMetricName(m));
    for (const char* name : { "dequantized", "change", "problem" })
        table.columns.emplace_back(name);
    if (forJson)
        table.columns.emplace_back("non_finite");
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        const ProgramGapRow& row = report.rows[r];
        const GapRow& g = row.run;
        std::vector<TableCell> cells { static_cast<long long>(r), g.label, row.referenceLabel, row.matchedBy,
            g.instruction.valid() ? TableCell(static_cast<long long>(g.instruction.value)) : TableCell(kNoValue),
            static_cast<long long>(g.outputIndex),
            g.shape.empty() && g.dtype.empty() ? std::string() : formatShape(g.shape), g.dtype };
        const std::string nonFinite = appendMetricCells(cells, g.metrics, metrics);
        cells.emplace_back(row.dequantized);
        cells.emplace_back(row.change);
        cells.emplace_back(g.problem);
        if (forJson)
            cells.emplace_back(nonFinite);
        table.rows.push_back(std::move(cells));
    }
    table.notes = { "reference: " + report.reference, "run: " + report.run,
        "method '" + report.method + "', nodes paired by diff's matching (" + report.matching
            + "): " + std::to_string(report.pairs) + " pairs" };
    if (report.runOnly) {
        std::string ops;
        for (const std::string& op : report.runOnlyOps)
            ops += (ops.empty() ? "" : ", ") + op;
        table.notes.push_back(std::to_string(report.runOnly) + " logged node(s) of the run have no partner: " + ops);
    }
    if (report.referenceOnly)
        table.notes.push_back(
            std::to_string(report.referenceOnly) + " logged node(s) of the reference have no partner");
    if (report.notLoggedInside)
        table.notes.push_back(std::to_string(report.notLoggedInside)
            + " pair(s) inside a delegate not shown: one side logged nothing there");
    if (forJson)
        table.notes.emplace_back("JSON has no inf or nan: such metrics are null, and non_finite names them");
    for (const Warning& warning : report.warnings)
        table.notes.push_back("warning: " + warning.message);
    return table;
}

std::optional<FirstDivergence> findFirstDivergence(const ProgramGapReport& report, const EventMapper& runMapper,
    const EventMapper& referenceMapper, const DivergenceRule& rule)
{
    std::size_t compared = 0;
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        const ProgramGapRow& row = report.rows[r];
        if (auto crossing = rule.crosses(row.run)) {
            FirstDivergence divergence;
            divergence.row = r;
            divergence.crossing = std::move(*crossing);
            divergence.runNode = row.run.origin;
            divergence.path = nodePath(runMapper, row.run.origin);
            if (!row.run.origin.inner.valid() && !row.run.delegateIdentifier.empty())
                divergence.path.push_back(delegateIdentifierText(row.run.delegateIdentifier));
            divergence.referenceNode = row.referenceOrigin;
            divergence.referencePath = nodePath(referenceMapper, row.referenceOrigin);
            divergence.comparedBefore = compared;
            return divergence;
        }
        if (row.run.metrics)
            ++compared;
    }
    return std::nullopt;
}

bool gapRowCompared(const GapRow& row)
{
    return row.metrics.has_value() || !row.imported.empty();
}

std::vector<std::string> firstDivergenceLines(const std::optional<FirstDivergence>& divergence, const GapRow* diverging,
    std::size_t rows, std::size_t compared, const DivergenceRule& rule, const ProgramGapRow* pair)
{
    std::vector<std::string> lines;
    const std::string limits = describeThresholds(rule.thresholds());
    if (!divergence || !diverging) {
        lines.push_back("no divergence: " + std::to_string(compared) + " of " + std::to_string(rows)
            + " rows compared, none crosses " + limits);
        return lines;
    }
    const GapRow& row = *diverging;
    lines.push_back("first divergence: row " + std::to_string(divergence->row) + ", " + joinNodePath(divergence->path));
    if (divergence->referenceNode)
        lines.push_back("  reference node: " + joinNodePath(divergence->referencePath)
            + (pair && !pair->matchedBy.empty() ? " (matched by " + pair->matchedBy + ")" : std::string()));
    lines.push_back("  " + divergence->crossing.text + " (thresholds: " + limits + ")");
    std::string facts
        = "  instruction " + std::to_string(row.instruction.value) + ", output " + std::to_string(row.outputIndex);
    if (!row.shape.empty() || !row.dtype.empty())
        facts += ", " + formatShape(row.shape) + " " + row.dtype;
    if (!row.runtimeOp.empty())
        facts += ", " + row.runtimeOp;
    lines.push_back(facts);
    if (row.metrics)
        lines.push_back("  mse " + metricNumber("mse", row.metrics->mse) + ", snr "
            + metricNumber("snr", row.metrics->snr) + " dB, cosine " + metricNumber("cosine", row.metrics->cosine)
            + ", maxabs " + metricNumber("maxabs", row.metrics->maxAbs) + " (reference max |a| "
            + metricNumber("maxabs", row.metrics->referenceMaxAbs) + ")");
    if (pair && !pair->dequantized.empty())
        lines.push_back("  " + pair->dequantized);
    if (!row.problem.empty())
        lines.push_back("  note: " + row.problem);
    lines.push_back(
        "  " + std::to_string(divergence->comparedBefore) + " compared row(s) before it stay within the thresholds");
    return lines;
}

} // namespace etscope::core
