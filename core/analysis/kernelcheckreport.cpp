// SPDX-License-Identifier: MIT
// The kernel check as `etscope check` prints it (text) and as scripts read it (JSON).
#include "core/analysis/kernelcheck.h"

#include "core/table/table.h"

#include <algorithm>
#include <map>

namespace etscope::core {

namespace {

using nlohmann::json;

constexpr std::size_t kShownCalls = 12;
constexpr std::size_t kShownNames = 6;

std::string site(const CallSite& call)
{
    const std::string index = std::to_string(call.instruction.value);
    return call.chain == 0 ? index : std::to_string(call.chain) + ":" + index;
}

std::string sites(const std::vector<CallSite>& calls)
{
    std::string text;
    for (std::size_t i = 0; i < calls.size() && i < kShownCalls; ++i)
        text += (i ? ", " : "") + site(calls[i]);
    if (calls.size() > kShownCalls)
        text += ", … (" + std::to_string(calls.size() - kShownCalls) + " more)";
    return text;
}

/// A backend over every method: its entries, calls and the methods that use it.
struct BackendSummary {
    BackendNeed need;
    std::vector<std::string> methods;
};

std::map<std::string, BackendSummary> backendSummaries(const KernelCheck& check)
{
    std::map<std::string, BackendSummary> summaries;
    for (const MethodKernelCheck& m : check.methods) {
        for (const BackendNeed& need : m.backends) {
            BackendSummary& s = summaries[need.backendId];
            if (s.methods.empty()) {
                s.need = need;
                s.need.calls.clear();
                s.need.delegates = 0;
            }
            s.need.delegates += need.delegates;
            s.need.calls.insert(s.need.calls.end(), need.calls.begin(), need.calls.end());
            s.methods.push_back(m.method);
        }
    }
    return summaries;
}

std::string backendVerdict(const BackendNeed& need)
{
    const std::string kind
        = need.known ? "an ExecuTorch backend" : "unknown backend id: not one of ExecuTorch's backends";
    switch (need.status) {
    case BackendNeed::Status::Linked:
        return "linked (" + need.linkedBy + "); " + kind;
    case BackendNeed::Status::NotLinked:
        return "NOT linked: no list registers it, loading fails; " + kind;
    case BackendNeed::Status::Unverified:
        break;
    }
    return "needs backend " + need.backendId + " linked; " + kind;
}

std::string tableText(const Table& table)
{
    return renderTable(table, TableFormat::Text);
}

json callsJson(const std::vector<CallSite>& calls)
{
    json out = json::array();
    for (const CallSite& call : calls)
        out.push_back({ { "chain", call.chain }, { "instruction", call.instruction.value } });
    return out;
}

json shareJson(const OperatorTable& table)
{
    int delegatedTypes = 0;
    for (const OperatorRow& row : table.rows)
        delegatedTypes += row.delegated > 0 ? 1 : 0;
    json backends = json::object();
    for (const auto& [id, share] : table.backends)
        backends[id] = { { "subgraphs", share.subgraphs }, { "undecoded_subgraphs", share.opaqueSubgraphs },
            { "nodes", share.nodes }, { "op_types", share.opTypes } };
    return { { "nodes", table.delegatedNodes + table.nonDelegatedNodes }, { "delegated_nodes", table.delegatedNodes },
        { "op_types", static_cast<int>(table.rows.size()) }, { "delegated_op_types", delegatedTypes },
        { "delegated_subgraphs", table.delegatedSubgraphs }, { "undecoded_subgraphs", table.opaqueSubgraphs },
        { "backends", backends }, { "lines", table.shareLines() } };
}

} // namespace

std::string joinedList(const std::vector<std::string>& items, std::size_t limit)
{
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < limit; ++i)
        text += (i ? ", " : "") + items[i];
    if (items.size() > limit)
        text += ", … (" + std::to_string(items.size() - limit) + " more)";
    return text;
}

std::string kernelCheckText(const KernelCheck& check, const KernelLists& lists)
{
    std::string out = "Program: " + check.program + "\n";
    // An automatic runtime says which and why; lists the user chose print as they always did.
    const std::string runtime = lists.automatic ? runtimeText(lists, check.delegatesPerBackend()) : std::string();
    if (!runtime.empty())
        out += "Runtime: automatic: " + runtime + " (--preset NAME or --kernels LIST to choose another)\n";
    std::vector<std::string> listNames;
    for (const KernelList& list : lists.lists) {
        std::string text = list.name + " (";
        const std::size_t count = list.operators.size();
        text += list.includesAll ? "every operator" : std::to_string(count) + (count == 1 ? " operator" : " operators");
        if (!list.allOverloads.empty())
            text += ", all overloads of " + std::to_string(list.allOverloads.size());
        if (list.declaresBackends)
            text += ", " + std::to_string(list.backends.size()) + " backends";
        listNames.push_back(text + ")");
    }
    out += "Kernel lists: " + joinedList(listNames) + "\n";

    int missingOps = 0;
    int missingCalls = 0;
    int kernelCalls = 0;
    std::vector<std::string> failingMethods;
    for (const MethodKernelCheck& m : check.methods) {
        kernelCalls += m.kernelCalls;
        missingCalls += m.missingCalls;
        for (const OperatorKernel& op : m.operators)
            missingOps += op.missing() ? 1 : 0;
        if (!m.loads())
            failingMethods.push_back(m.method);
    }
    const auto backends = backendSummaries(check);
    std::vector<std::string> unverified;
    std::vector<std::string> notLinked;
    for (const auto& [id, s] : backends) {
        if (s.need.status == BackendNeed::Status::Unverified)
            unverified.push_back(id);
        else if (s.need.status == BackendNeed::Status::NotLinked)
            notLinked.push_back(id);
    }

    std::string lead = "Will load";
    if (!runtime.empty()) {
        std::string names;
        for (const KernelList& list : lists.lists)
            names += (names.empty() ? "" : " + ") + list.name;
        lead += " on " + std::string(lists.preset->title) + " (" + names + " kernels)";
    }
    if (!check.loads())
        out += lead + ": no\n";
    else if (!unverified.empty())
        out += lead + ": yes, if the runtime links " + joinedList(unverified) + "\n";
    else
        out += lead + ": yes\n";
    if (missingOps > 0)
        out += "  " + std::to_string(missingOps)
            + " operator(s) have no kernel in these lists: " + std::to_string(missingCalls) + " of "
            + std::to_string(kernelCalls) + " kernel call(s), in method(s) " + joinedList(failingMethods) + "\n";
    else
        out += "  every operator has a kernel: " + std::to_string(kernelCalls) + " kernel call(s) in "
            + std::to_string(check.methods.size()) + " method(s)\n";
    if (!notLinked.empty())
        out += "  backend(s) " + joinedList(notLinked) + " not registered by the runtime the lists describe\n";
    if (const std::string hint = missingKernelHintText(missingKernelHint(check, lists), true); !hint.empty())
        out += "  " + hint + "\n";
    for (const Warning& warning : check.warnings)
        out += "  warning: " + warning.message + "\n";

    if (missingOps > 0) {
        Table table;
        table.title = "\nMissing operators";
        table.columns = { "operator", "method", "calls", "instructions (chain:index)" };
        for (const MethodKernelCheck& m : check.methods)
            for (const OperatorKernel& op : m.operators)
                if (op.missing())
                    table.rows.push_back(
                        { op.name, m.method, static_cast<long long>(op.calls.size()), sites(op.calls) });
        out += tableText(table);
    }

    // Per list: the operators it resolved (unique per method and name) and their calls.
    std::map<std::string, std::pair<std::vector<std::string>, long long>> byList;
    for (const KernelList& list : lists.lists)
        byList[list.name];
    for (const MethodKernelCheck& m : check.methods)
        for (const OperatorKernel& op : m.operators)
            if (!op.missing()) {
                auto& [names, calls] = byList[op.resolvedBy];
                if (std::find(names.begin(), names.end(), op.name) == names.end())
                    names.push_back(op.name);
                calls += static_cast<long long>(op.calls.size());
            }
    Table resolved;
    resolved.title = "\nResolved operators";
    resolved.columns = { "list", "operators", "calls", "names" };
    for (const KernelList& list : lists.lists) {
        auto [names, calls] = byList[list.name];
        std::sort(names.begin(), names.end());
        resolved.rows.push_back({ list.name, static_cast<long long>(names.size()), calls,
            names.empty() ? std::string("-") : joinedList(names, kShownNames) });
    }
    out += tableText(resolved);

    if (!backends.empty()) {
        Table table;
        table.title = "\nBackends";
        table.columns = { "backend", "delegates", "calls", "methods", "status" };
        for (const auto& [id, s] : backends)
            table.rows.push_back(
                { id, static_cast<long long>(s.need.delegates), static_cast<long long>(s.need.calls.size()),
                    joinedList(s.methods, kShownNames), backendVerdict(s.need) });
        out += tableText(table);
    }

    if (check.methods.size() > 1) {
        Table table;
        table.title = "\nMethods";
        table.columns = { "method", "kernel calls", "missing", "delegate calls", "loads" };
        // Methods without calls (an LLM's get_max_seq_len, …) always load: counted, not listed.
        int quiet = 0;
        for (const MethodKernelCheck& m : check.methods) {
            if (m.kernelCalls == 0 && m.delegateCalls == 0) {
                ++quiet;
                continue;
            }
            table.rows.push_back(
                { m.method, static_cast<long long>(m.kernelCalls), static_cast<long long>(m.missingCalls),
                    static_cast<long long>(m.delegateCalls), std::string(m.loads() ? "yes" : "no") });
        }
        if (quiet > 0)
            table.notes.push_back(std::to_string(quiet) + " other method(s) call no operator or delegate");
        out += tableText(table);
    }

    out += "\n";
    for (const std::string& line : check.combinedTable().shareLines())
        out += line + "\n";
    return out;
}

json kernelCheckJson(const KernelCheck& check, const KernelLists& lists)
{
    json out;
    out["program"] = check.program;
    out["will_load"] = check.loads();
    // The runtime the lists are: a preset chosen by the user or from the program's delegates
    // (automatic, the default), or null for lists that are no preset.
    if (lists.preset) {
        const auto delegates = check.delegatesPerBackend();
        json runtime = json::object();
        runtime["preset"] = std::string(lists.preset->name);
        runtime["title"] = std::string(lists.preset->title);
        runtime["automatic"] = lists.automatic;
        runtime["chosen_for"] = lists.automatic ? presetReasons(*lists.preset, delegates) : std::vector<std::string> {};
        runtime["description"] = runtimeText(lists, delegates);
        out["runtime"] = std::move(runtime);
    } else {
        out["runtime"] = nullptr;
    }
    json listsJson = json::array();
    for (const KernelList& list : lists.lists) {
        json item = { { "name", list.name }, { "origin", list.origin }, { "builtin", list.builtin },
            { "operators", list.operators.size() }, { "all_overloads_of", list.allOverloads },
            { "includes_all_operators", list.includesAll } };
        if (list.declaresBackends)
            item["backends"] = list.backends;
        listsJson.push_back(std::move(item));
    }
    out["kernel_lists"] = std::move(listsJson);
    json warnings = json::array();
    for (const Warning& warning : check.warnings)
        warnings.push_back(warning.message);
    out["warnings"] = std::move(warnings);
    const MissingKernelHint hint = missingKernelHint(check, lists);
    json helps = json::array();
    for (const auto& help : hint.lists)
        helps.push_back({ { "list", help.list }, { "operators", help.operators } });
    out["missing_hint"] = { { "lists", std::move(helps) }, { "unresolved", hint.unresolved },
        { "preset", hint.preset.empty() ? json(nullptr) : json(hint.preset) } };

    json missing = json::array();
    json methods = json::array();
    for (const MethodKernelCheck& m : check.methods) {
        json ops = json::array();
        for (const OperatorKernel& op : m.operators) {
            ops.push_back({ { "name", op.name }, { "missing", op.missing() },
                { "resolved_by", op.missing() ? json(nullptr) : json(op.resolvedBy) },
                { "calls", callsJson(op.calls) } });
            if (op.missing())
                missing.push_back({ { "name", op.name }, { "method", m.method }, { "calls", callsJson(op.calls) } });
        }
        json needs = json::array();
        for (const BackendNeed& need : m.backends)
            needs.push_back({ { "backend_id", need.backendId }, { "known", need.known },
                { "status", std::string(backendStatusName(need.status)) },
                { "linked_by", need.linkedBy.empty() ? json(nullptr) : json(need.linkedBy) },
                { "delegates", need.delegates }, { "calls", callsJson(need.calls) } });
        methods.push_back({ { "method", m.method }, { "will_load", m.loads() }, { "kernel_calls", m.kernelCalls },
            { "missing_calls", m.missingCalls }, { "delegate_calls", m.delegateCalls }, { "operators", std::move(ops) },
            { "backends", std::move(needs) }, { "delegated_share", shareJson(m.table) } });
    }
    out["missing"] = std::move(missing);
    json backends = json::array();
    for (const auto& [id, s] : backendSummaries(check))
        backends.push_back({ { "backend_id", id }, { "known", s.need.known },
            { "status", std::string(backendStatusName(s.need.status)) },
            { "linked_by", s.need.linkedBy.empty() ? json(nullptr) : json(s.need.linkedBy) },
            { "delegates", s.need.delegates }, { "methods", s.methods } });
    out["backends"] = std::move(backends);
    out["methods"] = std::move(methods);
    out["delegated_share"] = shareJson(check.combinedTable());
    return out;
}

} // namespace etscope::core
