// SPDX-License-Identifier: MIT
#include "core/document/etrecordgraphs.h"

#include "core/debug/edgegraph.h"
#include "core/delegates/delegate.h"
#include "core/util/text.h"

#include <algorithm>
#include <iterator>
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
        for (const auto& [instruction, entry] : it->second) {
            if (auto why = check("delegate_map", instruction, true))
                return why;
            // delegate_map's "name" is the backend id of that DelegateCall (facts sheet §2.3).
            const auto delegate = chain->instructions[static_cast<std::size_t>(instruction)].index;
            if (!entry.backend.empty() && delegate >= 0 && static_cast<std::size_t>(delegate) < method.delegates.size()
                && method.delegates[static_cast<std::size_t>(delegate)].backendId != entry.backend)
                return "delegate_map names backend " + entry.backend + " for instruction " + std::to_string(instruction)
                    + " of '" + method.name + "', which calls "
                    + method.delegates[static_cast<std::size_t>(delegate)].backendId;
        }
    if (const auto it = record.numOutsMap.find(method.name); it != record.numOutsMap.end())
        for (const auto& [instruction, outputs] : it->second)
            if (auto why = check("instruction_id_to_num_outs_map", instruction, true))
                return why;
    return std::nullopt;
}

/// The DelegateCall instructions of `method`'s first chain, as indices into method.delegates.
std::vector<std::int32_t> delegateCalls(const Method& method)
{
    std::vector<std::int32_t> calls;
    if (!method.chains.empty())
        for (const Instruction& instruction : method.chains.front().instructions)
            if (instruction.kind == Instruction::Kind::Delegate)
                calls.push_back(instruction.index);
    return calls;
}

/// Every AOT debug handle carried by a node of `program`, inside lowered modules too.
void collectHandles(const EdgeProgram& program, std::set<DebugHandle>& handles, int depth = 0)
{
    for (const EdgeNode& node : program.nodes) {
        if (node.debugHandle && node.debugHandle->value != 0)
            handles.insert(*node.debugHandle);
        if (node.lowered && node.lowered->originalModule && depth < 8)
            collectHandles(*node.lowered->originalModule, handles, depth + 1);
    }
}

/// For a method with DelegateCalls, whether the record's graphs of that method can describe its
/// delegates. A post-lowering edge graph (facts sheet §5.1: manual generate_etrecord) has one
/// `executorch_call_delegate` per DelegateCall, to the same backends. A pre-lowering one (the
/// usual flow) still has every node the partitions were made of, with the AOT debug handles that
/// XNNPACK keeps per inner node (§2.1, XNode.debug_handle): when at least half of the handles a
/// delegate carries occur in none of the record's graphs of the method, the record is another
/// program's. Half, not one, so that a node a transform pass added never makes a real pair fail.
std::optional<std::string> delegateMismatch(const ETRecord& record, const Program& program, const Method& method)
{
    const auto calls = delegateCalls(method);
    const ETRecordGraph* edge = record.edgeProgram(method.name);
    if (calls.empty() || !edge || !edge->program || edge->program->nodes.empty())
        return std::nullopt;
    std::size_t loweredCalls = 0;
    std::set<std::string> recordBackends;
    for (const EdgeNode& node : edge->program->nodes)
        if (node.isDelegateCall()) {
            ++loweredCalls;
            if (node.lowered && !node.lowered->backendId.empty())
                recordBackends.insert(node.lowered->backendId);
        }
    std::set<std::string> programBackends;
    for (const std::int32_t index : calls)
        if (index >= 0 && static_cast<std::size_t>(index) < method.delegates.size())
            programBackends.insert(method.delegates[static_cast<std::size_t>(index)].backendId);
    const auto backendList = [](const std::set<std::string>& ids) {
        std::string text;
        for (const std::string& id : ids)
            text += (text.empty() ? "" : ", ") + id;
        return text;
    };
    if (loweredCalls > 0) {
        if (loweredCalls != calls.size())
            return "its edge graph of '" + method.name + "' calls " + std::to_string(loweredCalls)
                + " lowered module(s), the program " + std::to_string(calls.size()) + " delegate(s)";
        if (!recordBackends.empty()
            && std::none_of(recordBackends.begin(), recordBackends.end(),
                [&](const std::string& id) { return programBackends.count(id) > 0; }))
            return "its edge graph of '" + method.name + "' lowers to " + backendList(recordBackends)
                + ", the program delegates to " + backendList(programBackends);
        return std::nullopt;
    }
    std::set<DebugHandle> known;
    collectHandles(*edge->program, known);
    for (const ETRecordGraph& graph : record.otherGraphs)
        if (graph.method == method.name && graph.program)
            collectHandles(*graph.program, known);
    for (const std::int32_t index : calls) {
        if (index < 0 || static_cast<std::size_t>(index) >= method.delegates.size())
            continue;
        const DelegateRef& ref = method.delegates[static_cast<std::size_t>(index)];
        const DelegateInfo info = describeDelegate(program, ref, {}, "delegate " + std::to_string(index));
        const Graph* inner = info.innerGraph ? info.innerGraph.get() : nullptr;
        if (!inner)
            continue;
        std::set<DebugHandle> carried;
        for (const Node& node : inner->nodes)
            if (node.debugHandle && node.debugHandle->value != 0)
                carried.insert(*node.debugHandle);
        std::vector<DebugHandle> missing;
        std::copy_if(carried.begin(), carried.end(), std::back_inserter(missing),
            [&](DebugHandle handle) { return known.count(handle) == 0; });
        if (!carried.empty() && missing.size() * 2 >= carried.size()) {
            std::string list;
            for (const DebugHandle handle : missing)
                list += (list.empty() ? "" : ", ") + std::to_string(handle.value);
            return "the program's " + ref.backendId + " delegate carries debug handle(s) " + list + " ("
                + std::to_string(missing.size()) + " of " + std::to_string(carried.size())
                + "), which no node of its graphs of '" + method.name + "' has";
        }
    }
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
    for (const Method& method : program.methods)
        if (auto why = delegateMismatch(record, program, method))
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

std::string foreignETRecordMessage(const std::string& record, const std::string& program, const std::string& why)
{
    return "not used: " + record + " does not look like the ETRecord of " + program + ": " + why;
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
