// SPDX-License-Identifier: MIT
#include "core/document/etrecordgraphs.h"

#include "core/debug/edgegraph.h"
#include "core/util/text.h"

#include <algorithm>
#include <set>

namespace etscope::core {

namespace {

/// The lowered modules of `graph` (delegate nodes, in node order) as the app's delegate facts.
void describeLoweredModules(const Graph& graph, Method& method, MethodAnalysis& analysis)
{
    for (const Node& node : graph.nodes) {
        if (node.kind != NodeKind::Delegate)
            continue;
        DelegateRef ref;
        ref.backendId = node.label;
        method.delegates.push_back(ref);
        DelegateInfo info;
        info.backendId = node.label;
        info.format = "edge";
        info.innerGraph = node.subgraph;
        info.inputCount = node.inputCount;
        info.outputCount = static_cast<int>(node.args.size()) - node.inputCount;
        for (const auto attribute : node.attributes)
            if (attribute.name != "name" && attribute.name != "target")
                info.facts.push_back({ std::string(attribute.name), std::string(attribute.value) });
        info.summary = "lowered module of " + node.label + ": "
            + (node.subgraph ? std::to_string(node.subgraph->operatorCount()) + " edge nodes in its original graph"
                             : std::string("original graph not stored"));
        analysis.delegates.push_back(std::move(info));
    }
}

/// "mul" for "aten::mul" (program operators) and "aten.mul.Tensor" (edge targets, shortened).
std::string baseOperator(const std::string& name, bool edge)
{
    if (!edge)
        return withoutNamespace(name);
    std::string rest = name;
    if (const auto dot = rest.find('.'); dot != std::string::npos)
        rest = rest.substr(dot + 1); // namespace
    return rest.substr(0, rest.find('.')); // overload
}

std::optional<std::string> instructionMismatch(const ETRecord& record, const Method& method)
{
    const Chain* chain = method.chains.empty() ? nullptr : &method.chains.front();
    const auto count = chain ? chain->instructions.size() : 0;
    const auto isDelegate = [&](int instruction) {
        return chain && instruction >= 0 && static_cast<std::size_t>(instruction) < count
            && chain->instructions[static_cast<std::size_t>(instruction)].kind == Instruction::Kind::Delegate;
    };
    const auto check = [&](const char* map, int instruction, bool delegateOnly) -> std::optional<std::string> {
        if (instruction < 0 || static_cast<std::size_t>(instruction) >= count)
            return std::string(map) + " names instruction " + std::to_string(instruction) + " of '" + method.name
                + "', which has " + std::to_string(count) + " instructions";
        if (delegateOnly && !isDelegate(instruction))
            return std::string(map) + " names instruction " + std::to_string(instruction) + " of '" + method.name
                + "', which is no DelegateCall";
        return std::nullopt;
    };
    if (const auto it = record.debugHandleMap.find(method.name); it != record.debugHandleMap.end())
        for (const auto& [instruction, entry] : it->second)
            if (auto why = check("debug_handle_map", instruction, false))
                return why;
    if (const auto it = record.delegateMap.find(method.name); it != record.delegateMap.end())
        for (const auto& [instruction, entry] : it->second)
            if (auto why = check("delegate_map", instruction, true))
                return why;
    if (const auto it = record.numOutsMap.find(method.name); it != record.numOutsMap.end())
        for (const auto& [instruction, outputs] : it->second)
            if (auto why = check("instruction_id_to_num_outs_map", instruction, true))
                return why;
    return std::nullopt;
}

} // namespace

std::optional<std::string> etrecordMismatch(const ETRecord& record, const Program& program)
{
    bool named = false;
    for (const ETRecordGraph& graph : record.edgePrograms)
        named = named || program.method(graph.method) != nullptr;
    if (!record.edgePrograms.empty() && !named) {
        std::string graphs;
        for (const ETRecordGraph& graph : record.edgePrograms)
            graphs += (graphs.empty() ? "" : ", ") + graph.method;
        return "its edge programs are for " + graphs + ", a method this program does not have";
    }
    for (const Method& method : program.methods)
        if (auto why = instructionMismatch(record, method))
            return why;
    for (const Method& method : program.methods) {
        const ETRecordGraph* edge = record.edgeProgram(method.name);
        if (!edge || edge->program->nodes.empty() || !method.delegates.empty() || method.operators.empty())
            continue;
        std::set<std::string> kernels;
        for (const Operator& op : method.operators)
            kernels.insert(baseOperator(op.name, false));
        const bool shared = std::any_of(edge->program->nodes.begin(), edge->program->nodes.end(),
            [&](const EdgeNode& node) { return kernels.count(baseOperator(shortEdgeTarget(node.target), true)) > 0; });
        if (!shared)
            return "its edge graph of '" + method.name + "' shares no operator with the program's kernels";
    }
    return std::nullopt;
}

std::optional<Error> addETRecordGraphs(Document& document)
{
    if (!document.etrecord || document.program)
        return std::nullopt;
    auto file = MappedFile::open(document.path);
    if (!file)
        return file.error();
    Program program;
    program.file = std::move(file).value();
    program.region = { 0, program.file->size() };
    program.identifier = "ETRECORD_V0";
    std::vector<MethodAnalysis> analyses;
    for (const ETRecordGraphView& view : etrecordGraphViews(*document.etrecord)) {
        Method method;
        method.name = view.name;
        MethodAnalysis analysis;
        analysis.graph = view.graph;
        describeLoweredModules(*view.graph, method, analysis);
        program.methods.push_back(std::move(method));
        analyses.push_back(std::move(analysis));
    }
    if (program.methods.empty()) {
        // Nothing to draw: the record is shown as facts (entries, maps, warnings), like a .ptd.
        document.warnings.push_back({ "the ETRecord holds no graph that could be read", std::nullopt });
        return std::nullopt;
    }
    document.program = std::move(program);
    document.methods = std::move(analyses);
    return std::nullopt;
}

} // namespace etscope::core
