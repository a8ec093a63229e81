// SPDX-License-Identifier: MIT
// A method's instructions as a graph (nodes, edges with their tensors, argument names from the
// schemas). Why one file: one builder class whose steps share its maps of values to producers and
// readers; the per-value descriptions at the end are what its nodes' attributes say.
#include "core/methodgraph/graphbuilder.h"

#include "core/opschema/opschema.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>

namespace etscope::core {

namespace {

constexpr std::size_t kListDisplayLimit = 32;

std::string numberText(double value)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

bool isStoredTensor(const Value& value)
{
    if (!value.isTensor())
        return false;
    switch (value.tensor.storage) {
    case TensorStorage::Constant:
    case TensorStorage::External:
    case TensorStorage::Mutable:
    case TensorStorage::ExternalMutable:
        return true;
    case TensorStorage::Runtime:
    case TensorStorage::Planned:
        return false;
    }
    return false;
}

/// The emitter writes `None` tensor arguments as BYTE tensors of shape [0] with no storage.
bool isNoneTensor(const Value& value)
{
    return value.isTensor() && value.tensor.storage == TensorStorage::Runtime && value.tensor.scalarType == 0
        && value.tensor.sizes.size() == 1 && value.tensor.sizes[0] == 0;
}

class MethodGraphBuilder {
public:
    MethodGraphBuilder(const Method& method, std::span<const DelegateInfo> delegates, const GraphBuildOptions& options)
        : m_method(method)
        , m_delegates(delegates)
        , m_options(options)
        , m_producer(method.values.size())
        , m_inferredProducer(method.values.size(), false)
    {
        m_graph.name = method.name;
        m_isInput.assign(method.values.size(), false);
        for (const std::int32_t input : method.inputs)
            if (input >= 0 && static_cast<std::size_t>(input) < m_isInput.size())
                m_isInput[static_cast<std::size_t>(input)] = true;
        // A node per input, output and instruction, and at most one per tensor value (a
        // constant, state or view read before anything wrote it); reserved at once, the node
        // table of a 100,000-instruction program is not grown by doubling (which held the old
        // and the new block together: a third more peak memory, issue 27).
        std::size_t instructions = 0;
        for (const Chain& chain : method.chains)
            instructions += chain.instructions.size();
        std::size_t tensors = 0;
        for (const Value& value : method.values)
            tensors += value.isTensor() ? 1 : 0;
        m_graph.nodes.reserve(method.inputs.size() + method.outputs.size() + instructions + tensors);
    }

    Graph build();

private:
    struct AliasEntry {
        std::int32_t value;
        NodeId producer;
        std::uint64_t elements;
    };

    void addInputs();
    void addOutputs();
    void addInstruction(int chainIndex, int instructionIndex, const Instruction& instruction);
    void addKernel(Node& node, const Instruction& instruction);
    void addDelegate(Node& node, const Instruction& instruction, int instructionIndex);
    /// Finds (creating value nodes as needed) the producers of `value`, expanding lists.
    void resolve(std::int32_t value, std::vector<std::int32_t>& resolved, int depth = 0);
    void connect(std::int32_t value, NodeId consumer);
    NodeId valueNode(NodeKind kind, std::int32_t value, std::string label);
    void setProducer(std::int32_t value, NodeId node, bool inferred = false);
    NodeId sourceFor(std::int32_t value);
    std::string valueLabel(const char* prefix, std::int32_t value) const;
    /// Operator `index`'s qualified name and the schema that names a call's arguments, looked
    /// up once per operator and argument count (a method calls a few operators many times).
    const std::string& qualifiedName(std::size_t index);
    const OperatorSchema* schemaFor(std::size_t index, std::size_t args);

    const Method& m_method;
    std::span<const DelegateInfo> m_delegates;
    const GraphBuildOptions& m_options;
    Graph m_graph;
    std::vector<NodeId> m_producer;
    std::vector<bool> m_inferredProducer;
    std::vector<bool> m_isInput; ///< per value: a method input
    struct MemoryKeyHash {
        std::size_t operator()(const std::pair<std::uint32_t, std::uint64_t>& key) const
        {
            return std::hash<std::uint64_t>()(key.second * 0x9E3779B97F4A7C15ull ^ key.first);
        }
    };
    std::unordered_map<std::pair<std::uint32_t, std::uint64_t>, std::vector<AliasEntry>, MemoryKeyHash> m_memory;
    /// Edges (producer, value) into the node being connected: every connect() to one consumer
    /// happens while that consumer is added, so duplicates are looked for among its own edges
    /// only (a set of every edge of the graph cost 48 bytes an edge and a tree walk each).
    NodeId m_consumer;
    std::vector<std::pair<std::int32_t, std::int32_t>> m_consumerEdges;
    std::vector<std::optional<std::string>> m_qualifiedNames; ///< per operator, when first needed
    std::map<std::pair<std::size_t, std::size_t>, const OperatorSchema*> m_schemas; ///< (operator, args)
};

const std::string& MethodGraphBuilder::qualifiedName(std::size_t index)
{
    if (m_qualifiedNames.size() <= index)
        m_qualifiedNames.resize(m_method.operators.size() > index ? m_method.operators.size() : index + 1);
    std::optional<std::string>& name = m_qualifiedNames[index];
    if (!name)
        name = m_method.operators[index].qualifiedName();
    return *name;
}

const OperatorSchema* MethodGraphBuilder::schemaFor(std::size_t index, std::size_t args)
{
    const auto [it, inserted] = m_schemas.try_emplace({ index, args }, nullptr);
    if (inserted) {
        const Operator& op = m_method.operators[index];
        it->second = findSchema(op.name, op.overload, args);
    }
    return it->second;
}

std::string MethodGraphBuilder::valueLabel(const char* prefix, std::int32_t value) const
{
    const Value& v = m_method.values[static_cast<std::size_t>(value)];
    if (v.isTensor() && !v.tensor.fullyQualifiedName.empty())
        return v.tensor.fullyQualifiedName;
    return std::string(prefix) + " v" + std::to_string(value);
}

NodeId MethodGraphBuilder::valueNode(NodeKind kind, std::int32_t value, std::string label)
{
    Node node;
    node.kind = kind;
    node.value = ValueIndex(value);
    node.label = std::move(label);
    const Value& v = m_method.values[static_cast<std::size_t>(value)];
    node.attributes.push_back({ "value", describeValue(m_method, value) });
    if (v.isTensor()) {
        const TensorInfo& t = v.tensor;
        node.attributes.push_back({ "storage", std::string(tensorStorageName(t.storage)) });
        node.attributes.push_back({ "bytes", std::to_string(t.byteSize()) });
        if (t.hasAllocation)
            node.attributes.push_back(
                { "allocation", "arena " + std::to_string(t.memoryId) + " + " + std::to_string(t.memoryOffset) });
        if (t.data)
            node.attributes.push_back(
                { "data", std::to_string(t.data->size) + " bytes at file offset " + std::to_string(t.data->offset) });
        if (!t.fullyQualifiedName.empty())
            node.attributes.push_back({ "fully qualified name", t.fullyQualifiedName });
        if (t.shapeDynamism != 0)
            node.attributes.push_back(
                { "shape dynamism", t.shapeDynamism == 1 ? "dynamic (bound)" : "dynamic (unbound)" });
        node.attributes.push_back({ "dim order", describeDimOrder(t.dimOrder, t.sizes.size()) });
    }
    return m_graph.addNode(std::move(node));
}

void MethodGraphBuilder::setProducer(std::int32_t value, NodeId node, bool inferred)
{
    const auto index = static_cast<std::size_t>(value);
    m_producer[index] = node;
    m_inferredProducer[index] = inferred;
    const Value& v = m_method.values[index];
    if (v.isTensor() && v.tensor.hasAllocation)
        m_memory[{ v.tensor.memoryId, v.tensor.memoryOffset }].push_back({ value, node, v.tensor.elementCount() });
}

// A value read before anything produced it: stored tensors get their own node; planned tensors
// are elided static views (or placeholders) re-attached to the latest producer of the same
// memory and element count (facts sheet §1.8 step 4, an inferred rule).
NodeId MethodGraphBuilder::sourceFor(std::int32_t value)
{
    const auto index = static_cast<std::size_t>(value);
    if (m_producer[index].valid())
        return m_producer[index];
    const Value& v = m_method.values[index];
    if (!v.isTensor() || isNoneTensor(v))
        return NodeId::none();
    if (isStoredTensor(v)) {
        const bool mutableState
            = v.tensor.storage == TensorStorage::Mutable || v.tensor.storage == TensorStorage::ExternalMutable;
        const NodeId node = mutableState ? valueNode(NodeKind::State, value, valueLabel("state", value))
                                         : valueNode(NodeKind::Constant, value, valueLabel("const", value));
        setProducer(value, node);
        return node;
    }
    const NodeId view = valueNode(NodeKind::View, value, valueLabel("view", value));
    Node& viewNode = m_graph.node(view);
    viewNode.inferred = true;
    if (v.tensor.hasAllocation) {
        const auto it = m_memory.find({ v.tensor.memoryId, v.tensor.memoryOffset });
        if (it != m_memory.end()) {
            const std::uint64_t elements = v.tensor.elementCount();
            for (auto entry = it->second.rbegin(); entry != it->second.rend(); ++entry) {
                if (entry->elements != elements)
                    continue;
                viewNode.attributes.push_back(
                    { "view of", "v" + std::to_string(entry->value) + " (same memory, inferred)" });
                m_graph.addEdge(
                    { entry->producer, view, ValueIndex(entry->value), valueMeta(m_method, entry->value), true });
                break;
            }
        }
    }
    if (viewNode.attributes.back().name != "view of")
        viewNode.attributes.push_back({ "view of", "nothing found: read before any instruction writes it" });
    setProducer(value, view, true);
    return view;
}

void MethodGraphBuilder::resolve(std::int32_t value, std::vector<std::int32_t>& resolved, int depth)
{
    if (value < 0 || static_cast<std::size_t>(value) >= m_method.values.size() || depth > 2)
        return;
    const Value& v = m_method.values[static_cast<std::size_t>(value)];
    // Lists carry their elements; a list produced as a whole (multi-output) is connected itself.
    if (v.isList() && !m_producer[static_cast<std::size_t>(value)].valid()) {
        for (const std::int64_t item : v.items)
            if (item >= 0)
                resolve(static_cast<std::int32_t>(item), resolved, depth + 1);
        return;
    }
    if (sourceFor(value).valid())
        resolved.push_back(value);
}

void MethodGraphBuilder::connect(std::int32_t value, NodeId consumer)
{
    const NodeId from = m_producer[static_cast<std::size_t>(value)];
    if (!from.valid() || from == consumer)
        return;
    if (consumer != m_consumer) {
        m_consumer = consumer;
        m_consumerEdges.clear();
    }
    const std::pair<std::int32_t, std::int32_t> key { from.value, value };
    if (std::find(m_consumerEdges.begin(), m_consumerEdges.end(), key) != m_consumerEdges.end())
        return;
    m_consumerEdges.push_back(key);
    m_graph.addEdge({ from, consumer, ValueIndex(value), valueMeta(m_method, value),
        m_inferredProducer[static_cast<std::size_t>(value)] && m_graph.node(from).kind == NodeKind::Delegate });
}

void MethodGraphBuilder::addInputs()
{
    for (std::size_t i = 0; i < m_method.inputs.size(); ++i) {
        const std::int32_t value = m_method.inputs[i];
        const NodeId node = valueNode(NodeKind::Input, value, "input " + std::to_string(i));
        m_graph.node(node).argPosition = static_cast<int>(i);
        setProducer(value, node);
    }
}

void MethodGraphBuilder::addOutputs()
{
    for (std::size_t i = 0; i < m_method.outputs.size(); ++i) {
        const std::int32_t value = m_method.outputs[i];
        std::vector<std::int32_t> resolved;
        resolve(value, resolved);
        const NodeId node = valueNode(NodeKind::Output, value, "output " + std::to_string(i));
        m_graph.node(node).argPosition = static_cast<int>(i);
        for (const std::int32_t source : resolved)
            connect(source, node);
    }
}

void MethodGraphBuilder::addKernel(Node& node, const Instruction& instruction)
{
    const auto operatorIndex = static_cast<std::size_t>(instruction.index);
    const Operator& op = m_method.operators[operatorIndex];
    node.kind = NodeKind::Operator;
    node.label = qualifiedName(operatorIndex);
    node.opType = node.label;
    node.attributes.push_back({ "operator", op.name });
    node.attributes.push_back({ "overload", op.overload.empty() ? "(default)" : op.overload });
    // Named after the operator's schema when the table knows it and its arguments fit the call
    // (schema arguments, then the returned value); numbered otherwise.
    const OperatorSchema* schema = schemaFor(operatorIndex, instruction.args.size());
    for (std::size_t i = 0; i < instruction.args.size(); ++i) {
        const std::string value = describeValue(m_method, instruction.args[i]);
        if (!schema)
            node.attributes.add("arg " + std::to_string(i), value);
        else
            node.attributes.add(
                i < schema->arguments.size() ? std::string_view(schema->arguments[i].name) : "return", value);
    }
}

void MethodGraphBuilder::addDelegate(Node& node, const Instruction& instruction, int instructionIndex)
{
    const auto delegateIndex = static_cast<std::size_t>(instruction.index);
    const DelegateRef& ref = m_method.delegates[delegateIndex];
    const DelegateInfo* info = delegateIndex < m_delegates.size() ? &m_delegates[delegateIndex] : nullptr;
    node.kind = NodeKind::Delegate;
    node.label = ref.backendId.empty() ? "(unnamed backend)" : ref.backendId;
    node.opType = node.label;
    node.delegate = DelegateIndex(instruction.index);
    if (info)
        node.subgraph = info->innerGraph;
    node.attributes.push_back({ "backend_id", ref.backendId });
    node.attributes.push_back({ "delegate index", std::to_string(instruction.index) });
    for (std::size_t i = 0; i < instruction.args.size(); ++i)
        node.attributes.push_back({ "arg " + std::to_string(i), describeValue(m_method, instruction.args[i]) });
    (void)instructionIndex;
}

void MethodGraphBuilder::addInstruction(int chainIndex, int instructionIndex, const Instruction& instruction)
{
    Node node;
    node.instruction = InstructionId(instructionIndex);
    node.chain = chainIndex;
    // Shown first: the chain (when not the first) and the instruction index.
    if (chainIndex != 0)
        node.attributes.add("chain", std::to_string(chainIndex));
    node.attributes.add("instruction", std::to_string(instructionIndex));
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
    bool inferredOutputs = false;
    std::string outputRule;

    switch (instruction.kind) {
    case Instruction::Kind::Kernel: {
        addKernel(node, instruction);
        outputs = kernelOutputs(m_method, instruction);
        const std::int32_t last = instruction.args.empty() ? -1 : instruction.args.back();
        for (std::size_t i = 0; i + 1 < instruction.args.size(); ++i) {
            const std::int32_t arg = instruction.args[i];
            if (std::find(outputs.begin(), outputs.end(), arg) == outputs.end() && arg != last)
                inputs.push_back(arg);
        }
        if (last >= 0 && std::find(outputs.begin(), outputs.end(), last) == outputs.end())
            outputs.push_back(last); // the synthetic TensorList of a multi-output op
        break;
    }
    case Instruction::Kind::Delegate: {
        addDelegate(node, instruction, instructionIndex);
        const auto delegateIndex = static_cast<std::size_t>(instruction.index);
        const DelegateInfo* info = delegateIndex < m_delegates.size() ? &m_delegates[delegateIndex] : nullptr;
        const int argCount = static_cast<int>(instruction.args.size());
        int outputCount = -1;
        if (info && info->outputCount && *info->outputCount <= argCount) {
            outputCount = *info->outputCount;
            outputRule = "from the decoded payload";
            if (info->inputCount && *info->inputCount + outputCount != argCount)
                m_graph.warnings.push_back(
                    { "instruction " + std::to_string(instructionIndex) + " (" + node.label + "): the payload has "
                            + std::to_string(*info->inputCount) + " inputs and " + std::to_string(outputCount)
                            + " outputs, but the call passes " + std::to_string(argCount) + " arguments",
                        instruction.fileOffset });
        } else if (m_options.delegateOutputCounts) {
            const auto it = m_options.delegateOutputCounts->find(instructionIndex);
            if (it != m_options.delegateOutputCounts->end() && it->second >= 0 && it->second <= argCount) {
                outputCount = it->second;
                outputRule = "from the ETRecord";
            }
        }
        if (outputCount < 0) {
            outputCount = 0;
            for (int i = argCount - 1; i >= 0; --i) {
                const std::int32_t arg = instruction.args[static_cast<std::size_t>(i)];
                const Value& v = m_method.values[static_cast<std::size_t>(arg)];
                if (m_producer[static_cast<std::size_t>(arg)].valid() || m_isInput[static_cast<std::size_t>(arg)]
                    || isStoredTensor(v) || !v.isTensor())
                    break;
                ++outputCount;
            }
            inferredOutputs = true;
            outputRule = "inferred: trailing arguments no earlier instruction produced";
        }
        const int inputCount = argCount - outputCount;
        for (int i = 0; i < argCount; ++i)
            (i < inputCount ? inputs : outputs).push_back(instruction.args[static_cast<std::size_t>(i)]);
        node.inputCount = inputCount;
        node.attributes.push_back({ "inputs", std::to_string(inputCount) });
        node.attributes.push_back({ "outputs", std::to_string(outputCount) + " (" + outputRule + ")" });
        node.inferred = inferredOutputs;
        break;
    }
    case Instruction::Kind::Move:
        node.kind = NodeKind::Move;
        node.label = "move";
        node.attributes.push_back({ "from", describeValue(m_method, instruction.moveFrom) });
        node.attributes.push_back({ "to", describeValue(m_method, instruction.moveTo) });
        inputs.push_back(instruction.moveFrom);
        outputs.push_back(instruction.moveTo);
        break;
    case Instruction::Kind::JumpFalse:
        node.kind = NodeKind::JumpFalse;
        node.label = "jump_false → " + std::to_string(instruction.destination);
        node.attributes.push_back({ "condition", describeValue(m_method, instruction.condition) });
        node.attributes.push_back({ "destination instruction", std::to_string(instruction.destination) });
        inputs.push_back(instruction.condition);
        break;
    case Instruction::Kind::Free:
        node.kind = NodeKind::Free;
        node.label = "free";
        node.attributes.push_back({ "value", describeValue(m_method, instruction.freedValue) });
        inputs.push_back(instruction.freedValue);
        break;
    case Instruction::Kind::Unknown:
    case Instruction::Kind::Missing:
        node.kind = NodeKind::Unknown;
        node.label = instruction.kind == Instruction::Kind::Missing
            ? "(empty instruction)"
            : "unknown instruction (type " + std::to_string(instruction.rawTag) + ")";
        break;
    }

    if (instruction.kind == Instruction::Kind::Kernel || instruction.kind == Instruction::Kind::Delegate) {
        node.args = instruction.args;
        for (const std::int32_t output : outputs)
            node.writes.emplace_back(output, valueMeta(m_method, output));
    }
    // Sources first, so value nodes (constants, views) precede their consumer in node order.
    std::vector<std::int32_t> resolved;
    for (const std::int32_t input : inputs)
        resolve(input, resolved);
    const NodeId id = m_graph.addNode(std::move(node));
    for (const std::int32_t source : resolved)
        connect(source, id);
    for (const std::int32_t output : outputs)
        setProducer(output, id, inferredOutputs);
}

Graph MethodGraphBuilder::build()
{
    addInputs();
    for (std::size_t c = 0; c < m_method.chains.size(); ++c) {
        const auto& instructions = m_method.chains[c].instructions;
        for (std::size_t i = 0; i < instructions.size(); ++i)
            addInstruction(static_cast<int>(c), static_cast<int>(i), instructions[i]);
    }
    addOutputs();
    return std::move(m_graph);
}

} // namespace

std::vector<std::int32_t> kernelOutputs(const Method& method, const Instruction& instruction)
{
    if (instruction.args.empty())
        return {};
    const std::int32_t last = instruction.args.back();
    const Value& lastValue = method.values[static_cast<std::size_t>(last)];
    if (lastValue.kind == Value::Kind::TensorList && !lastValue.items.empty()) {
        const auto begin = instruction.args.begin();
        const auto end = instruction.args.end() - 1;
        const bool allEarlier = std::all_of(lastValue.items.begin(), lastValue.items.end(),
            [&](std::int64_t item) { return std::find(begin, end, static_cast<std::int32_t>(item)) != end; });
        if (allEarlier) {
            std::vector<std::int32_t> outputs;
            for (const std::int64_t item : lastValue.items)
                outputs.push_back(static_cast<std::int32_t>(item));
            return outputs;
        }
    }
    return { last };
}

TensorMeta valueMeta(const Method& method, std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= method.values.size())
        return {};
    const Value& v = method.values[static_cast<std::size_t>(index)];
    if (v.isTensor())
        return { scalarTypeName(v.tensor.scalarType), v.tensor.sizes };
    return { std::string(valueKindName(v.kind)), {} };
}

std::string describeDimOrder(const std::vector<std::uint8_t>& dimOrder, std::size_t rank)
{
    if (dimOrder.empty())
        return rank == 0 ? "[] (scalar)" : "none stored";
    std::string text = "[";
    bool identity = true;
    for (std::size_t i = 0; i < dimOrder.size(); ++i) {
        text += (i ? ", " : "") + std::to_string(dimOrder[i]);
        identity = identity && dimOrder[i] == i;
    }
    text += "]";
    if (dimOrder.size() != rank)
        return text + " (" + std::to_string(rank) + " dimensions in the shape)";
    if (identity)
        return text + " (contiguous)";
    if (dimOrder == std::vector<std::uint8_t> { 0, 2, 3, 1 })
        return text + " (channels last)";
    if (dimOrder == std::vector<std::uint8_t> { 0, 2, 3, 4, 1 })
        return text + " (channels last 3d)";
    return text + " (permuted)";
}

std::vector<Attribute> tensorPlan(const Method& method, std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= method.values.size())
        return {};
    const Value& v = method.values[static_cast<std::size_t>(index)];
    if (!v.isTensor())
        return {};
    const TensorInfo& t = v.tensor;
    std::vector<Attribute> plan;
    if (t.hasAllocation) {
        plan.push_back({ "mem_id", std::to_string(t.memoryId) });
        plan.push_back({ "offset", std::to_string(t.memoryOffset) });
    } else {
        plan.push_back({ "storage", std::string(tensorStorageName(t.storage)) + " (not memory-planned)" });
    }
    plan.push_back({ "bytes", std::to_string(t.byteSize()) });
    plan.push_back({ "dim order", describeDimOrder(t.dimOrder, t.sizes.size()) });
    return plan;
}

std::string describeValue(const Method& method, std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= method.values.size())
        return "v" + std::to_string(index) + " (out of range)";
    const Value& v = method.values[static_cast<std::size_t>(index)];
    std::string prefix = "v" + std::to_string(index) + ": "; // not const: returned (moved) when nothing follows
    const auto listOf = [&](auto count, auto item) {
        std::string text = "[";
        const std::size_t n = static_cast<std::size_t>(count);
        for (std::size_t i = 0; i < n && i < kListDisplayLimit; ++i) {
            if (i)
                text += ", ";
            text += item(i);
        }
        if (n > kListDisplayLimit)
            text += ", … (" + std::to_string(n) + " items)";
        return text + "]";
    };
    switch (v.kind) {
    case Value::Kind::Tensor: {
        std::string text = prefix + "Tensor " + scalarTypeName(v.tensor.scalarType) + " " + formatShape(v.tensor.sizes);
        if (isNoneTensor(v))
            text += " (None placeholder)";
        return text;
    }
    case Value::Kind::Int:
        return prefix + "Int " + std::to_string(v.intValue);
    case Value::Kind::Bool:
        return prefix + "Bool " + (v.boolValue ? "true" : "false");
    case Value::Kind::Double:
        return prefix + "Double " + numberText(v.doubleValue);
    case Value::Kind::String:
        return prefix + "String \"" + v.stringValue() + "\"";
    case Value::Kind::Null:
        return prefix + "None";
    case Value::Kind::IntList:
        return prefix + "IntList " + listOf(v.items.size(), [&](std::size_t i) {
            const std::int64_t item = v.items[i];
            if (item >= 0 && static_cast<std::size_t>(item) < method.values.size()
                && method.values[static_cast<std::size_t>(item)].kind == Value::Kind::Int)
                return std::to_string(method.values[static_cast<std::size_t>(item)].intValue);
            return "v" + std::to_string(item);
        });
    case Value::Kind::DoubleList:
        return prefix + "DoubleList "
            + listOf(v.doubles().size(), [&](std::size_t i) { return numberText(v.doubles()[i]); });
    case Value::Kind::BoolList:
        return prefix + "BoolList "
            + listOf(v.bools().size(), [&](std::size_t i) { return std::string(v.bools()[i] ? "true" : "false"); });
    case Value::Kind::TensorList:
    case Value::Kind::OptionalTensorList:
        return prefix + std::string(valueKindName(v.kind)) + " " + listOf(v.items.size(), [&](std::size_t i) {
            return v.items[i] < 0 ? std::string("None") : "v" + std::to_string(v.items[i]);
        });
    case Value::Kind::Unknown:
        return prefix + "unknown value type " + std::to_string(v.rawTag);
    case Value::Kind::Missing:
        return prefix + "(empty)";
    }
    return prefix;
}

Graph buildMethodGraph(const Method& method, std::span<const DelegateInfo> delegates, const GraphBuildOptions& options)
{
    return MethodGraphBuilder(method, delegates, options).build();
}

} // namespace etscope::core
