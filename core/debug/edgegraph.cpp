// SPDX-License-Identifier: MIT
#include "core/debug/edgegraph.h"

#include <map>
#include <set>
#include <tuple>

namespace etscope::core {

std::string shortEdgeTarget(const std::string& target)
{
    static const char* const prefixes[] = { "executorch.exir.dialects.edge.ops.",
        "executorch.exir.dialects.backend.ops.", "executorch.exir.dialects.", "torch.ops." };
    for (const char* prefix : prefixes)
        if (target.starts_with(prefix))
            return target.substr(std::string_view(prefix).size());
    if (target == "_operator.getitem" || target == "operator.getitem")
        return "getitem";
    return target;
}

namespace {

/// Edge programs are shown as "<method> (edge)", beside the record's other graphs.
constexpr std::string_view kEdgeSuffix = " (edge)";

/// Builds one graph; tensor names are numbered in the order they are first seen, and those
/// numbers are the edges' value indices (shown as v<k> in properties).
class EdgeGraphBuilder {
public:
    EdgeGraphBuilder(const EdgeProgram& program, const std::string& name, int maxDepth)
        : m_program(program)
        , m_maxDepth(maxDepth)
    {
        m_graph.name = name;
        m_graph.format = "edge";
        m_graph.warnings = program.warnings;
    }

    std::shared_ptr<const Graph> build()
    {
        addPlaceholders();
        int delegateIndex = 0;
        for (const EdgeNode& node : m_program.nodes)
            addCall(node, node.lowered ? delegateIndex++ : -1);
        addOutputs();
        return std::make_shared<const Graph>(std::move(m_graph));
    }

private:
    std::int32_t valueOf(const std::string& tensor)
    {
        const auto [it, fresh] = m_values.try_emplace(tensor, static_cast<std::int32_t>(m_values.size()));
        return it->second;
    }

    TensorMeta metaOf(const std::string& tensor) const
    {
        const auto it = m_program.tensors.find(tensor);
        return it == m_program.tensors.end() ? TensorMeta {} : it->second;
    }

    void produce(const std::string& tensor, NodeId node) { m_producer.try_emplace(tensor, node); }

    /// The node `tensor` comes from: its producer, else a node of that name (a multi-output
    /// call read whole), else a view node made for it (placed before its first reader).
    NodeId source(const std::string& tensor)
    {
        if (const auto it = m_producer.find(tensor); it != m_producer.end())
            return it->second;
        if (const auto it = m_byName.find(tensor); it != m_byName.end())
            return it->second;
        Node view;
        view.kind = NodeKind::View;
        view.label = tensor;
        view.value = ValueIndex(valueOf(tensor));
        view.inferred = true;
        const NodeId id = m_graph.addNode(std::move(view));
        m_producer.emplace(tensor, id);
        return id;
    }

    void consume(const std::string& tensor, NodeId to)
    {
        const NodeId from = source(tensor);
        if (!m_edges.emplace(from.value, to.value, valueOf(tensor)).second)
            return; // the same tensor twice (mul(x, x)): one edge is enough
        m_graph.addEdge({ from, to, ValueIndex(valueOf(tensor)), metaOf(tensor), false });
    }

    void addPlaceholders()
    {
        int position = 0;
        for (const std::string& input : m_program.inputs) {
            const auto spec = m_program.inputSpecs.find(input);
            const bool user = spec == m_program.inputSpecs.end() || spec->second.kind == "user_input";
            Node node;
            node.kind = user ? NodeKind::Input : NodeKind::Constant;
            node.label = !user && !spec->second.target.empty() ? spec->second.target : input;
            node.value = ValueIndex(valueOf(input));
            if (user)
                node.argPosition = position++;
            node.attributes.push_back({ "placeholder", input });
            if (spec != m_program.inputSpecs.end())
                node.attributes.push_back({ "input kind", spec->second.kind });
            produce(input, m_graph.addNode(std::move(node)));
        }
    }

    void addCall(const EdgeNode& edgeNode, int delegateIndex)
    {
        Node node;
        node.kind = edgeNode.lowered ? NodeKind::Delegate : NodeKind::Operator;
        node.label = shortEdgeTarget(edgeNode.target);
        node.opType = edgeNode.opType();
        if (edgeNode.debugHandle && edgeNode.debugHandle->value > 0 && edgeNode.debugHandle->value <= UINT32_MAX)
            node.debugHandle = edgeNode.debugHandle;
        node.attributes.push_back({ "name", edgeNode.name });
        node.attributes.push_back({ "target", edgeNode.target });
        std::vector<std::string> inputs;
        for (std::size_t i = 0; i < edgeNode.inputs.size(); ++i) {
            const EdgeArgument& argument = edgeNode.inputs[i];
            if (edgeNode.lowered && i == 0)
                continue; // the lowered module itself, passed as JSON text
            inputs.insert(inputs.end(), argument.tensors.begin(), argument.tensors.end());
            if (argument.tensors.empty())
                node.attributes.push_back({ argument.name, argument.text });
        }
        if (edgeNode.lowered)
            describeDelegate(*edgeNode.lowered, delegateIndex, inputs, edgeNode.outputs, node);
        if (!edgeNode.nnModuleStack.empty())
            node.attributes.push_back({ "nn_module_stack", edgeNode.nnModuleStack });
        if (!edgeNode.stackTrace.empty())
            node.attributes.push_back({ "stack_trace", edgeNode.stackTrace });
        for (const std::string& tensor : inputs)
            source(tensor); // views first, so that they precede their reader in node order
        const NodeId id = m_graph.addNode(std::move(node));
        m_byName.try_emplace(edgeNode.name, id);
        for (const std::string& tensor : inputs)
            consume(tensor, id);
        for (const std::string& tensor : edgeNode.outputs)
            produce(tensor, id);
    }

    void describeDelegate(const LoweredModule& lowered, int delegateIndex, const std::vector<std::string>& inputs,
        const std::vector<std::string>& outputs, Node& node)
    {
        node.label = lowered.backendId.empty() ? std::string("executorch_call_delegate") : lowered.backendId;
        node.opType.clear(); // counted by its inner nodes, as get_delegation_info does
        node.delegate = DelegateIndex(delegateIndex);
        for (const std::string& tensor : inputs)
            node.args.push_back(valueOf(tensor));
        for (const std::string& tensor : outputs)
            node.args.push_back(valueOf(tensor));
        node.inputCount = static_cast<int>(inputs.size());
        node.attributes.push_back({ "lowered module", lowered.name });
        node.attributes.push_back({ "payload bytes", std::to_string(lowered.processedBytes) });
        for (const Attribute& spec : lowered.compileSpecs)
            node.attributes.push_back({ "compile_spec " + spec.name, spec.value });
        if (lowered.originalModule && m_maxDepth > 0) {
            auto inner = std::make_shared<Graph>(
                *EdgeGraphBuilder(*lowered.originalModule, lowered.name, m_maxDepth - 1).build());
            inner->backendId = lowered.backendId;
            // The module's outputs follow its inputs in the call's argument positions.
            for (Node& n : inner->nodes)
                if (n.kind == NodeKind::Output)
                    n.argPosition += node.inputCount;
            node.subgraph = std::move(inner);
        }
    }

    void addOutputs()
    {
        for (std::size_t k = 0; k < m_program.outputs.size(); ++k) {
            source(m_program.outputs[k]);
            Node node;
            node.kind = NodeKind::Output;
            node.label = "output " + std::to_string(k);
            node.value = ValueIndex(valueOf(m_program.outputs[k]));
            node.argPosition = static_cast<int>(k);
            consume(m_program.outputs[k], m_graph.addNode(std::move(node)));
        }
    }

    const EdgeProgram& m_program;
    int m_maxDepth;
    Graph m_graph;
    std::map<std::string, std::int32_t> m_values;
    std::map<std::string, NodeId> m_producer;
    std::map<std::string, NodeId> m_byName;
    std::set<std::tuple<std::int32_t, std::int32_t, std::int32_t>> m_edges;
};

} // namespace

std::shared_ptr<const Graph> buildEdgeGraph(const EdgeProgram& program, const std::string& name, int maxDepth)
{
    return EdgeGraphBuilder(program, name, maxDepth).build();
}

std::vector<ETRecordGraphView> etrecordGraphViews(const ETRecord& record)
{
    std::vector<ETRecordGraphView> views;
    const auto add = [&](const ETRecordGraph& graph, const std::string& display) {
        if (!graph.program)
            return;
        views.push_back({ display, graph.method, graph.entry, graph.program, buildEdgeGraph(*graph.program, display) });
    };
    for (const ETRecordGraph& graph : record.edgePrograms)
        add(graph, graph.method + std::string(kEdgeSuffix));
    for (const ETRecordGraph& graph : record.otherGraphs)
        add(graph, graph.name == graph.method || graph.method.empty() ? graph.name : graph.name + "/" + graph.method);
    return views;
}

std::string etrecordEdgeMethod(const std::string& viewName)
{
    return viewName.ends_with(kEdgeSuffix) ? viewName.substr(0, viewName.size() - kEdgeSuffix.size()) : std::string();
}

const ETRecordGraphView* selectETRecordGraph(const std::vector<ETRecordGraphView>& views, const std::string& method)
{
    for (const ETRecordGraphView& view : views)
        if (!method.empty() && (view.name == method || view.entry == method))
            return &view;
    const std::string wanted = method.empty() ? "forward" : method;
    for (const ETRecordGraphView& view : views)
        if (view.method == wanted)
            return &view; // edge programs come first
    return method.empty() && !views.empty() ? &views.front() : nullptr;
}

} // namespace etscope::core
