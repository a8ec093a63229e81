// SPDX-License-Identifier: MIT
// Will it load: the runtime resolves the operator of every KernelCall by its `name.overload`
// when a method is loaded (runtime/executor/method.cpp, "Missing operator: [i] name" and
// Error::OperatorMissing), and initialises every delegate entry with the backend registered
// under its id ("Backend … is not registered"). This checks both without running anything.
#include "core/analysis/kernelcheck.h"

#include "core/document/document.h"
#include "core/table/table.h"

#include <algorithm>
#include <map>
#include <set>

namespace etscope::core {

namespace {

bool knownBackend(std::string_view id)
{
    const auto& known = knownBackendIds();
    return std::find(known.begin(), known.end(), id) != known.end();
}

MethodKernelCheck checkMethod(const Document& document, const Method& method, const KernelLists& lists)
{
    MethodKernelCheck check;
    check.method = method.name;
    std::map<std::string, OperatorKernel> operators;
    std::map<std::string, BackendNeed> backends;
    check.operatorOfInstruction.resize(method.chains.size());
    std::vector<std::vector<std::string>> names(method.chains.size());
    for (std::size_t c = 0; c < method.chains.size(); ++c) {
        const auto& instructions = method.chains[c].instructions;
        check.operatorOfInstruction[c].assign(instructions.size(), -1);
        names[c].resize(instructions.size());
        for (std::size_t i = 0; i < instructions.size(); ++i) {
            const Instruction& instruction = instructions[i];
            const CallSite site { static_cast<int>(c), InstructionId(static_cast<std::int32_t>(i)) };
            if (instruction.kind == Instruction::Kind::Kernel && instruction.index >= 0
                && static_cast<std::size_t>(instruction.index) < method.operators.size()) {
                const std::string name = method.operators[static_cast<std::size_t>(instruction.index)].qualifiedName();
                OperatorKernel& op = operators[name];
                op.name = name;
                op.calls.push_back(site);
                names[c][i] = name;
                ++check.kernelCalls;
            } else if (instruction.kind == Instruction::Kind::Delegate && instruction.index >= 0
                && static_cast<std::size_t>(instruction.index) < method.delegates.size()) {
                const std::string& id = method.delegates[static_cast<std::size_t>(instruction.index)].backendId;
                backends[id].calls.push_back(site);
                ++check.delegateCalls;
            }
        }
    }
    for (const DelegateRef& ref : method.delegates)
        ++backends[ref.backendId].delegates;

    for (auto& [name, op] : operators) {
        if (const KernelList* list = lists.resolve(name))
            op.resolvedBy = list->name;
        else
            check.missingCalls += static_cast<int>(op.calls.size());
        check.operators.push_back(std::move(op));
    }
    std::map<std::string, int> position;
    for (std::size_t k = 0; k < check.operators.size(); ++k)
        position[check.operators[k].name] = static_cast<int>(k);
    for (std::size_t c = 0; c < names.size(); ++c)
        for (std::size_t i = 0; i < names[c].size(); ++i)
            if (!names[c][i].empty())
                check.operatorOfInstruction[c][i] = position[names[c][i]];

    const bool declared = lists.declaresBackends();
    for (auto& [id, need] : backends) {
        need.backendId = id;
        need.known = knownBackend(id);
        const auto& presetLinks = lists.preset ? lists.preset->backends : std::vector<std::string_view> {};
        if (const KernelList* list = lists.backendList(id)) {
            need.status = BackendNeed::Status::Linked;
            need.linkedBy = list->name;
        } else if (std::find(presetLinks.begin(), presetLinks.end(), id) != presetLinks.end()) {
            // The runner the preset stands for links this backend (its build file says so): the
            // Ethos-U runner read "yes, if the runtime links EthosUBackend". Backends it does not
            // name stay unverified (a runner may be built with more), never "not linked".
            need.status = BackendNeed::Status::Linked;
            need.linkedBy = std::string(lists.preset->name) + " runtime";
        } else {
            need.status = declared ? BackendNeed::Status::NotLinked : BackendNeed::Status::Unverified;
        }
        check.backends.push_back(std::move(need));
    }
    if (const MethodAnalysis* analysis = document.analysis(method); analysis && analysis->graph)
        check.table = computeOperatorTable(*analysis->graph);
    return check;
}

} // namespace

std::string_view backendStatusName(BackendNeed::Status status)
{
    switch (status) {
    case BackendNeed::Status::Linked:
        return "linked";
    case BackendNeed::Status::NotLinked:
        return "not linked";
    case BackendNeed::Status::Unverified:
        break;
    }
    return "needs linking";
}

const OperatorKernel* MethodKernelCheck::operatorAt(int chain, InstructionId instruction) const
{
    if (chain < 0 || static_cast<std::size_t>(chain) >= operatorOfInstruction.size() || !instruction.valid())
        return nullptr;
    const auto& row = operatorOfInstruction[static_cast<std::size_t>(chain)];
    if (instruction.index() >= row.size() || row[instruction.index()] < 0)
        return nullptr;
    return &operators[static_cast<std::size_t>(row[instruction.index()])];
}

bool MethodKernelCheck::loads() const
{
    return missingCalls == 0 && std::none_of(backends.begin(), backends.end(), [](const BackendNeed& b) {
        return b.status == BackendNeed::Status::NotLinked;
    });
}

bool KernelCheck::loads() const
{
    return std::all_of(methods.begin(), methods.end(), [](const MethodKernelCheck& m) { return m.loads(); });
}

const MethodKernelCheck* KernelCheck::method(std::string_view name) const
{
    for (const MethodKernelCheck& m : methods)
        if (m.method == name)
            return &m;
    return nullptr;
}

OperatorTable KernelCheck::combinedTable() const
{
    OperatorTable combined;
    combined.source = "program";
    std::map<std::string, OperatorRow> rows;
    for (const MethodKernelCheck& m : methods) {
        for (const OperatorRow& row : m.table.rows) {
            OperatorRow& into = rows[row.opType];
            into.opType = row.opType;
            into.delegated += row.delegated;
            into.nonDelegated += row.nonDelegated;
            for (const auto& [backend, count] : row.delegatedByBackend)
                into.delegatedByBackend[backend] += count;
        }
        combined.delegatedSubgraphs += m.table.delegatedSubgraphs;
        combined.opaqueSubgraphs += m.table.opaqueSubgraphs;
        combined.dataMovements += m.table.dataMovements;
        for (const auto& [backend, share] : m.table.backends) {
            BackendShare& into = combined.backends[backend];
            into.subgraphs += share.subgraphs;
            into.opaqueSubgraphs += share.opaqueSubgraphs;
            into.dataMovements += share.dataMovements;
        }
    }
    for (auto& [type, row] : rows)
        combined.rows.push_back(std::move(row));
    finishOperatorTable(combined);
    return combined;
}

KernelCheck checkKernels(const Document& document, const KernelLists& lists)
{
    KernelCheck check;
    check.program = document.path;
    for (const KernelList& list : lists.lists) {
        check.lists.push_back(list.name);
        check.warnings.insert(check.warnings.end(), list.warnings.begin(), list.warnings.end());
    }
    if (!document.program)
        return check;
    for (const Method& method : document.program->methods)
        check.methods.push_back(checkMethod(document, method, lists));
    return check;
}

std::map<std::string, int> KernelCheck::delegatesPerBackend() const
{
    std::map<std::string, int> counts;
    for (const MethodKernelCheck& m : methods)
        for (const BackendNeed& need : m.backends)
            counts[need.backendId] += need.delegates;
    return counts;
}

MissingKernelHint missingKernelHint(const KernelCheck& check, const KernelLists& lists)
{
    MissingKernelHint hint;
    std::set<std::string> missing;
    for (const MethodKernelCheck& m : check.methods)
        for (const OperatorKernel& op : m.operators)
            if (op.missing())
                missing.insert(op.name);
    if (missing.empty())
        return hint;
    std::set<std::string> inUse;
    for (const KernelList& list : lists.lists)
        inUse.insert(list.name);
    std::set<std::string> helped;
    for (const std::string_view name : builtinKernelListNames()) {
        if (inUse.count(std::string(name)))
            continue;
        const auto list = builtinKernelList(name);
        MissingKernelHint::ListHelp help { std::string(name), {} };
        for (const std::string& op : missing)
            if (list->provides(op))
                help.operators.push_back(op);
        helped.insert(help.operators.begin(), help.operators.end());
        if (!help.operators.empty())
            hint.lists.push_back(std::move(help));
    }
    std::stable_sort(hint.lists.begin(), hint.lists.end(),
        [](const auto& a, const auto& b) { return a.operators.size() > b.operators.size(); });
    for (const std::string& op : missing)
        if (!helped.count(op))
            hint.unresolved.push_back(op);
    // A preset that covers what the built-in lists can cover: one linking a backend the
    // delegates need first, then the fewest lists.
    std::set<std::string> needed;
    for (const MethodKernelCheck& m : check.methods)
        for (const BackendNeed& need : m.backends)
            needed.insert(need.backendId);
    std::pair<int, std::size_t> best { 2, SIZE_MAX };
    for (const RuntimePreset& preset : runtimePresets()) {
        const bool linksNeeded = std::any_of(preset.backends.begin(), preset.backends.end(),
            [&](std::string_view id) { return needed.count(std::string(id)) > 0; });
        const std::pair<int, std::size_t> rank { linksNeeded ? 0 : 1, preset.lists.size() };
        if (helped.empty() || !(rank < best))
            continue;
        const bool covers = std::all_of(helped.begin(), helped.end(), [&](const std::string& op) {
            return std::any_of(preset.lists.begin(), preset.lists.end(),
                [&](std::string_view name) { return builtinKernelList(name)->provides(op); });
        });
        if (covers) {
            best = rank;
            hint.preset = std::string(preset.name);
        }
    }
    return hint;
}

std::string missingKernelHintText(const MissingKernelHint& hint, bool cli)
{
    if (hint.empty())
        return {};
    const auto names = [](const std::vector<std::string>& ops) {
        std::string text;
        for (std::size_t i = 0; i < ops.size() && i < 3; ++i)
            text += (i ? ", " : "") + ops[i];
        if (ops.size() > 3)
            text += ", …";
        return text;
    };
    std::string text = "Hint: ";
    std::vector<std::string> parts;
    for (const auto& help : hint.lists)
        parts.push_back((cli ? "--kernels " : "the ") + help.list + (cli ? "" : " list") + " provides "
            + std::to_string(help.operators.size()) + " missing operator(s) (" + names(help.operators) + ")");
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i ? "; " : "") + parts[i];
    if (!hint.preset.empty())
        text += cli ? "; or use --preset " + hint.preset : "; or choose the " + hint.preset + " preset";
    if (!hint.unresolved.empty())
        text += std::string(parts.empty() ? "" : "; ") + std::to_string(hint.unresolved.size())
            + " missing operator(s) are in no built-in list (" + names(hint.unresolved)
            + "): add the runtime's own list as a file";
    return text;
}

std::vector<NodeId> missingKernelNodes(const Graph& graph, const MethodKernelCheck& check)
{
    std::vector<NodeId> nodes;
    for (const Node& node : graph.nodes) {
        if (node.kind != NodeKind::Operator)
            continue;
        const OperatorKernel* op = check.operatorAt(node.chain, node.instruction);
        if (op && op->missing() && node.opType == op->name)
            nodes.push_back(node.id);
    }
    return nodes;
}

} // namespace etscope::core
