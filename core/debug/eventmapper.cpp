// SPDX-License-Identifier: MIT
#include "core/debug/eventmapper.h"

#include "core/util/text.h"

#include <algorithm>
#include <set>

namespace etscope::core {

namespace {

/// XNNPACK operator families (the text of xnn_operator_type names before the parenthesis) and
/// the ExecuTorch XNNPACK node types that create them.
const std::map<std::string, std::vector<std::string>>& familyTable()
{
    static const std::map<std::string, std::vector<std::string>> table {
        { "Abs", { "XNNAbs" } },
        { "Add", { "XNNAdd" } },
        { "ArgMax Pooling", { "XNNArgMaxPooling2d" } },
        { "Average Pooling", { "XNNAvgPooling2d" } },
        { "Batch Matrix Multiply", { "XNNBatchMatrixMultiply" } },
        { "Ceiling", { "XNNCeiling" } },
        { "Clamp", { "XNNClamp" } },
        { "Constant Pad", { "XNNStaticConstantPad" } },
        { "Convert", { "XNNConvert" } },
        { "Convolution", { "XNNConv2d", "XNNDepthwiseConv2d" } },
        { "Copy",
            { "XNNCopy", "XNNStaticReshape", "XNNConcatenate2", "XNNConcatenate3", "XNNConcatenate4",
                "XNNConcatenate5" } },
        { "Cosine", { "XNNCos" } },
        { "Deconvolution", { "XNNConvTranspose2d" } },
        { "Divide", { "XNNDiv" } },
        { "Dynamic Fully Connected", { "XNNFullyConnected" } },
        { "ELU", { "XNNELU" } },
        { "Exp", { "XNNExp" } },
        { "Floor", { "XNNFloor" } },
        { "Fully Connected", { "XNNFullyConnected" } },
        { "GELU", { "XNNGelu" } },
        { "Global Average Pooling", { "XNNGlobalAvgPooling2d" } },
        { "HardSwish", { "XNNHardswish" } },
        { "Leaky ReLU", { "XNNLeakyReLU" } },
        { "Log", { "XNNLog" } },
        { "Max Pooling", { "XNNMaxPooling2d" } },
        { "Maximum", { "XNNMaximum" } },
        { "Minimum", { "XNNMinimum" } },
        { "Multiply", { "XNNMultiply" } },
        { "Negate", { "XNNNegate" } },
        { "PReLU", { "XNNPReLU" } },
        { "Reciprocal Square Root", { "XNNReciprocalSquareRoot" } },
        { "Resize Bilinear", { "XNNStaticResizeBilinear2D" } },
        { "Scaled Dot-Product Attention", { "XNNScaledDotProductAttention" } },
        { "Sigmoid", { "XNNSigmoid" } },
        { "Sine", { "XNNSin" } },
        { "Slice", { "XNNStaticSlice" } },
        { "Softmax", { "XNNSoftmax" } },
        { "Square", { "XNNSquare" } },
        { "Square Root", { "XNNSquareRoot" } },
        { "Subtract", { "XNNSubtract" } },
        { "Tanh", { "XNNTanh" } },
        { "Transpose", { "XNNStaticTranspose" } },
    };
    return table;
}

/// The Vulkan operator-call id of an inner node: the `delegateDebugId` field once the graph
/// carries it, else an attribute the decoder wrote.
template <typename N> std::optional<std::int64_t> delegateDebugIdOf(const N& node)
{
    if constexpr (requires { node.delegateDebugId; }) {
        if (node.delegateDebugId)
            return static_cast<std::int64_t>(*node.delegateDebugId);
    }
    for (const auto attribute : node.attributes) {
        if (attribute.name != "node id" && attribute.name != "node_id" && attribute.name != "delegate debug id")
            continue;
        const std::string_view text = attribute.value;
        if (!text.empty() && text.size() < 18 && text.find_first_not_of("0123456789") == std::string_view::npos)
            return std::stoll(std::string(text));
    }
    return std::nullopt;
}

} // namespace

std::string delegateIdentifierText(const std::string& identifier)
{
    const bool digits = !identifier.empty() && identifier.find_first_not_of("-0123456789") == std::string::npos;
    return digits ? "id " + identifier : identifier;
}

std::string xnnpackFamily(const std::string& identifier)
{
    std::size_t end = std::min(identifier.find(" ("), identifier.find(" #"));
    if (end == std::string::npos)
        end = identifier.size();
    return identifier.substr(0, end);
}

std::vector<std::string> xnnpackNodeTypes(const std::string& family)
{
    const auto it = familyTable().find(family);
    return it == familyTable().end() ? std::vector<std::string>() : it->second;
}

std::optional<bool> eventNameFits(const Node& node, const std::string& name)
{
    static constexpr std::string_view kKernelPrefix = "native_call_";
    if (name == "OPERATOR_CALL")
        return node.kind == NodeKind::Operator;
    if (name == "DELEGATE_CALL")
        return node.kind == NodeKind::Delegate;
    if (name == "MOVE_CALL")
        return node.kind == NodeKind::Move;
    if (name == "JF_CALL")
        return node.kind == NodeKind::JumpFalse;
    if (name == "FREE_CALL")
        return node.kind == NodeKind::Free;
    if (name.starts_with(kKernelPrefix))
        return node.kind == NodeKind::Operator && name.substr(kKernelPrefix.size()) == withoutNamespace(node.opType);
    return std::nullopt;
}

EventMapper::EventMapper(const Graph& graph, const ETRecord* record, std::string method)
    : m_graph(graph)
    , m_record(record)
    , m_method(std::move(method))
{
    for (const Node& node : graph.nodes)
        if (node.instruction.valid() && node.chain == 0 && !m_byInstruction.count(node.instruction.value))
            m_byInstruction[node.instruction.value] = node.id;
}

NodeId EventMapper::instructionNode(ChainIndex chain, InstructionId instruction) const
{
    if (chain.value != 0)
        return NodeId::none();
    const auto it = m_byInstruction.find(instruction.value);
    return it == m_byInstruction.end() ? NodeId::none() : it->second;
}

EventPlacement EventMapper::placeInstruction(ChainIndex chain, InstructionId instruction) const
{
    EventPlacement placement;
    placement.origin = { instructionNode(chain, instruction), NodeId::none() };
    placement.matched = placement.origin.top.valid();
    placement.rule = placement.matched ? "instruction" : "";
    if (m_record && chain.value == 0)
        placement.debugHandles = m_record->handlesOf(m_method, instruction.value);
    return placement;
}

EventPlacement EventMapper::placeNamedEvent(ChainIndex chain, InstructionId instruction, const std::string& name) const
{
    EventPlacement placement = placeInstruction(chain, instruction);
    if (placement.matched && eventNameFits(m_graph.node(placement.origin.top), name) == false) {
        placement = {};
        placement.nameDisagrees = true;
    }
    return placement;
}

std::map<int, std::vector<std::string>> profiledNames(const RunBlock& block)
{
    std::map<int, std::vector<std::string>> names;
    for (const ProfileEvent& event : block.profileEvents) {
        if (event.isDelegateInternal() || event.chainIndex.value != 0 || event.name.empty())
            continue;
        auto& list = names[event.instructionId.value];
        if (std::find(list.begin(), list.end(), event.name) == list.end())
            list.push_back(event.name);
    }
    return names;
}

EventPlacement EventMapper::placeLoggedValues(
    ChainIndex chain, InstructionId instruction, const std::map<int, std::vector<std::string>>& names) const
{
    EventPlacement placement = placeInstruction(chain, instruction);
    const auto it = names.find(instruction.value);
    if (!placement.matched || it == names.end())
        return placement;
    for (const std::string& name : it->second)
        if (eventNameFits(m_graph.node(placement.origin.top), name) == false) {
            placement = {};
            placement.nameDisagrees = true;
            placement.disagreeingName = name;
            break;
        }
    return placement;
}

EventPlacement EventMapper::placeDelegateEvent(ChainIndex chain, InstructionId instruction, DelegateDebugId idInt,
    const std::string& idStr, DelegateEventCursor& cursor) const
{
    EventPlacement placement = placeInstruction(chain, instruction);
    const std::string identifier = !idStr.empty() ? idStr : std::to_string(idInt.value);
    if (m_record && chain.value == 0) {
        // Inspector rules: a map entry without the identifier yields no handles at all.
        if (auto handles = m_record->delegateHandles(m_method, instruction.value, identifier))
            placement.debugHandles = std::move(*handles);
    }
    if (!placement.matched)
        return placement;
    placement.rule = "delegate";
    const Node& delegate = m_graph.node(placement.origin.top);
    if (delegate.kind != NodeKind::Delegate || !delegate.subgraph)
        return placement;
    const Graph& inner = *delegate.subgraph;
    if (idInt.value != -1 && idStr.empty()) {
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Operator && delegateDebugIdOf(node) == idInt.value) {
                placement.origin.inner = node.id;
                placement.rule = inner.format == "vulkan" ? "vulkan node id" : "delegate debug id";
                return placement;
            }
    }
    if (!idStr.empty()) {
        // Core ML logs each operation under its debug symbol ("<output>:<operator>", facts
        // §2.3), which the decoder keeps on the inner node (core/delegates/coremlprogram.cpp).
        for (const Node& node : inner.nodes)
            if ((node.kind == NodeKind::Operator || node.kind == NodeKind::Constant)
                && node.attributes.find("debug symbol") == std::string_view(idStr)) {
                placement.origin.inner = node.id;
                placement.rule = "debug symbol";
                return placement;
            }
    }
    if (inner.format == "xnnpack" && !idStr.empty()) {
        const std::string family = xnnpackFamily(idStr);
        const std::vector<std::string> types = xnnpackNodeTypes(family);
        std::vector<NodeId> candidates;
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Operator && std::find(types.begin(), types.end(), node.opType) != types.end())
                candidates.push_back(node.id);
        if (!candidates.empty()) {
            // A delegate called again in the same run starts its families over.
            const int k = cursor.seen[{ instruction.value, family }]++;
            placement.origin.inner = candidates[static_cast<std::size_t>(k) % candidates.size()];
            placement.rule = "xnnpack order";
            return placement;
        }
    }
    if (!placement.debugHandles.empty()) {
        // The identifier stands for the ops its handles name; several inner nodes may descend
        // from them (a linear lowered as a matmul and an add): the last one in payload order
        // writes what the group computes, which is what a logged intermediate output holds.
        const std::set<DebugHandle> handles(placement.debugHandles.begin(), placement.debugHandles.end());
        for (auto node = inner.nodes.rbegin(); node != inner.nodes.rend(); ++node)
            if (node->kind == NodeKind::Operator && node->debugHandle && handles.count(*node->debugHandle)) {
                placement.origin.inner = node->id;
                placement.rule = "delegate_map";
                return placement;
            }
    }
    if (inner.format == "xnnpack" && idInt.value >= 0 && idStr.empty()) {
        // No mapping names the integer: XNNPACK's node order, the id as the index of the node
        // in the payload's node list (the decoder's "node index").
        const std::string index = std::to_string(idInt.value);
        for (const Node& node : inner.nodes)
            if (node.kind == NodeKind::Operator && node.attributes.find("node index") == std::string_view(index)) {
                placement.origin.inner = node.id;
                placement.rule = "xnnpack node index";
                return placement;
            }
    }
    return placement;
}

std::vector<std::string> EventMapper::edgeNodeNames(const std::vector<DebugHandle>& handles) const
{
    std::vector<std::string> names;
    if (!m_record)
        return names;
    const ETRecordGraph* edge = m_record->edgeProgram(m_method);
    if (!edge)
        return names;
    std::set<DebugHandle> seen;
    for (const DebugHandle handle : handles) {
        if (!seen.insert(handle).second)
            continue;
        for (const EdgeNode* node : edge->program->nodesWithHandle(handle))
            if (std::find(names.begin(), names.end(), node->name) == names.end())
                names.push_back(node->name);
    }
    return names;
}

int EventMapper::delegateOutputCount(InstructionId instruction) const
{
    if (m_record) {
        const std::map<int, int> counts = m_record->delegateOutputCounts(m_method);
        if (const auto it = counts.find(instruction.value); it != counts.end())
            return it->second;
    }
    const NodeId id = instructionNode(ChainIndex(0), instruction);
    if (!id.valid())
        return -1;
    const Node& node = m_graph.node(id);
    if (node.kind != NodeKind::Delegate || node.inputCount < 0)
        return -1;
    return static_cast<int>(node.args.size()) - node.inputCount;
}

std::string EventMapper::label(const NodeOrigin& origin) const
{
    if (!origin.top.valid() || origin.top.index() >= m_graph.nodes.size())
        return {};
    const Node& top = m_graph.node(origin.top);
    if (!origin.inner.valid() || !top.subgraph || origin.inner.index() >= top.subgraph->nodes.size())
        return top.label;
    return top.label + " › " + top.subgraph->node(origin.inner).label;
}

} // namespace etscope::core
