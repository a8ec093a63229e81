// SPDX-License-Identifier: MIT
// Why did this operator stay on the CPU (issue 35): every KernelCall of a program — an operator
// no delegate took — is checked against the rule tables of the program's backends (rules.cpp),
// and the reasons of the user's partition logs (partitionlog.cpp) are placed on their nodes.
#include "core/why/why.h"

#include "core/debug/etrecord.h"
#include "core/document/document.h"
#include "core/opschema/opschema.h"
#include "core/table/table.h"
#include "core/util/scalartype.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace etscope::core {

namespace {

std::string listText(const std::vector<std::int64_t>& items, std::string_view separator)
{
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i ? std::string(separator) : std::string()) + std::to_string(items[i]);
    return text;
}

std::string shapeText(const TensorInfo& tensor)
{
    return "[" + listText(std::vector<std::int64_t>(tensor.sizes.begin(), tensor.sizes.end()), ", ") + "]";
}

std::string storageText(TensorStorage storage)
{
    switch (storage) {
    case TensorStorage::Runtime:
        return "given at run time";
    case TensorStorage::Planned:
        return "computed at run time (memory-planned)";
    case TensorStorage::Mutable:
        return "a mutable buffer (memory-planned, changed at run time)";
    case TensorStorage::ExternalMutable:
        return "an external mutable buffer";
    case TensorStorage::Constant:
    case TensorStorage::External:
        break;
    }
    return "a constant";
}

std::string ordinal(int n)
{
    const int tens = n % 100;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th"
        : n % 10 == 1                               ? "st"
        : n % 10 == 2                               ? "nd"
        : n % 10 == 3                               ? "rd"
                                                    : "th";
    return std::to_string(n) + suffix;
}

bool isQuantizeOp(const std::string& key)
{
    const std::size_t colons = key.find("::");
    const std::string name = colons == std::string::npos ? key : key.substr(colons + 2);
    return name.starts_with("quantize_") || name.starts_with("dequantize_");
}

/// One KernelCall and what the rules may read of it.
class NodeFacts {
public:
    NodeFacts(const Method& method, const Instruction& instruction, const Operator& op)
        : m_method(method)
        , m_instruction(instruction)
    {
        m_names = kernelArgumentNames(op.name, op.overload, instruction.args.size());
    }

    /// The value of argument `name` ("" = the first tensor argument); nullptr when absent.
    const Value* arg(std::string_view name) const
    {
        for (std::size_t i = 0; i < m_instruction.args.size(); ++i) {
            const Value* value = valueAt(m_instruction.args[i]);
            if (name.empty() ? (value && value->isTensor()) : (i < m_names.size() && m_names[i] == name))
                return value;
        }
        return nullptr;
    }

    const Value* valueAt(std::int64_t index) const
    {
        if (index < 0 || static_cast<std::size_t>(index) >= m_method.values.size())
            return nullptr;
        return &m_method.values[static_cast<std::size_t>(index)];
    }

    std::optional<std::vector<std::int64_t>> intList(const Value& value) const
    {
        if (value.kind != Value::Kind::IntList)
            return std::nullopt;
        std::vector<std::int64_t> items;
        for (const std::int64_t index : value.items) {
            const Value* item = valueAt(index);
            if (!item || item->kind != Value::Kind::Int)
                return std::nullopt;
            items.push_back(item->intValue);
        }
        return items;
    }

    /// Tensor arguments (not the out ones: those the kernel writes are the same shapes anyway).
    std::vector<std::pair<std::string, const Value*>> tensors() const
    {
        std::vector<std::pair<std::string, const Value*>> out;
        for (std::size_t i = 0; i < m_instruction.args.size(); ++i)
            if (const Value* value = valueAt(m_instruction.args[i]); value && value->isTensor())
                out.emplace_back(i < m_names.size() ? m_names[i] : "arg " + std::to_string(i), value);
        return out;
    }

private:
    const Method& m_method;
    const Instruction& m_instruction;
    std::vector<std::string> m_names;
};

struct CheckOutcome {
    enum class State { Holds, Fails, Unreadable } state = State::Holds;
    std::string detail; ///< Fails: the actual value; Unreadable: why
};

/// Whether the comma-separated `list` holds `item`.
bool listHas(std::string_view list, std::string_view item)
{
    while (!list.empty()) {
        const std::size_t comma = std::min(list.find(','), list.size());
        if (list.substr(0, comma) == item)
            return true;
        list = comma < list.size() ? list.substr(comma + 1) : std::string_view {};
    }
    return false;
}

std::string argLabel(std::string_view arg)
{
    return arg.empty() ? std::string("the input") : std::string(arg);
}

CheckOutcome evaluate(const Rule& rule, const NodeFacts& facts)
{
    using State = CheckOutcome::State;
    const auto unreadable = [&](const std::string& why) { return CheckOutcome { State::Unreadable, why }; };
    const auto fails = [&](const std::string& detail) { return CheckOutcome { State::Fails, detail }; };
    if (rule.check == RuleCheck::Covered || rule.check == RuleCheck::NotSupported)
        return {};
    if (rule.check == RuleCheck::StaticShape) {
        for (const auto& [name, value] : facts.tensors())
            if (value->tensor.shapeDynamism != 0)
                return fails(name + " has a dynamic shape (" + shapeText(value->tensor) + ", "
                    + (value->tensor.shapeDynamism == 1 ? "bounded" : "unbounded") + ")");
        return {};
    }
    if (rule.check == RuleCheck::DtypeIn && rule.arg == "*") {
        for (const auto& [name, tensor] : facts.tensors())
            if (!listHas(rule.values, scalarTypeName(tensor->tensor.scalarType)))
                return fails(name + " is " + scalarTypeName(tensor->tensor.scalarType));
        return {};
    }
    const Value* value = facts.arg(rule.arg);
    if (!value)
        return unreadable("no argument " + argLabel(rule.arg));
    switch (rule.check) {
    case RuleCheck::ListLengthAtMost: {
        const auto items = facts.intList(*value);
        if (!items)
            return unreadable(argLabel(rule.arg) + " is not a list of ints");
        if (static_cast<std::int64_t>(items->size()) > rule.limit) {
            const bool kernel = rule.arg.find("kernel") != std::string_view::npos;
            return fails((kernel ? "kernel " + listText(*items, "\u00d7")
                                 : argLabel(rule.arg) + " [" + listText(*items, ", ") + "]")
                + " (" + std::to_string(items->size()) + "-D)");
        }
        return {};
    }
    case RuleCheck::ListItemsAtMost: {
        const auto items = facts.intList(*value);
        if (!items)
            return unreadable(argLabel(rule.arg) + " is not a list of ints");
        if (std::any_of(items->begin(), items->end(), [&](std::int64_t item) { return item > rule.limit; }))
            return fails(argLabel(rule.arg) + " [" + listText(*items, ", ") + "]");
        return {};
    }
    case RuleCheck::RankAtMost:
    case RuleCheck::RankAtLeast: {
        if (!value->isTensor())
            return unreadable(argLabel(rule.arg) + " is not a tensor");
        const auto rank = static_cast<std::int64_t>(value->tensor.sizes.size());
        if (rule.check == RuleCheck::RankAtMost ? rank > rule.limit : rank < rule.limit)
            return fails(argLabel(rule.arg) + " has rank " + std::to_string(rank) + " " + shapeText(value->tensor));
        return {};
    }
    case RuleCheck::DtypeIn: {
        if (!value->isTensor())
            return unreadable(argLabel(rule.arg) + " is not a tensor");
        const std::string dtype = scalarTypeName(value->tensor.scalarType);
        if (listHas(rule.values, dtype))
            return {};
        return fails(argLabel(rule.arg) + " is " + dtype);
    }
    case RuleCheck::ConstantTensor: {
        if (!value->isTensor())
            return unreadable(argLabel(rule.arg) + " is not a tensor");
        const TensorStorage storage = value->tensor.storage;
        if (storage == TensorStorage::Constant || storage == TensorStorage::External)
            return {};
        return fails(argLabel(rule.arg) + " is " + storageText(storage) + ", not a constant");
    }
    case RuleCheck::SameDtype: {
        const Value* other = facts.arg(rule.values);
        if (!other || !value->isTensor() || !other->isTensor())
            return unreadable(argLabel(rule.arg) + " or " + std::string(rule.values) + " is not a tensor");
        if (value->tensor.scalarType == other->tensor.scalarType)
            return {};
        return fails(argLabel(rule.arg) + " is " + scalarTypeName(value->tensor.scalarType) + ", "
            + std::string(rule.values) + " is " + scalarTypeName(other->tensor.scalarType));
    }
    case RuleCheck::ProductOfDimsAtMost: {
        if (!value->isTensor())
            return unreadable(argLabel(rule.arg) + " is not a tensor");
        std::int64_t product = 1;
        for (const std::int64_t size : value->tensor.sizes)
            product = size > 0 && product <= (std::int64_t { 1 } << 40) ? product * size : product;
        if (product > rule.limit)
            return fails("the product of " + argLabel(rule.arg) + "'s dimensions " + shapeText(value->tensor) + " is "
                + std::to_string(product));
        return {};
    }
    case RuleCheck::IntArgIn: {
        if (value->kind != Value::Kind::Int)
            return unreadable(argLabel(rule.arg) + " is not an int");
        const std::string actual = std::to_string(value->intValue);
        if (listHas(rule.values, actual))
            return {};
        return fails(argLabel(rule.arg) + " is " + actual);
    }
    case RuleCheck::Covered:
    case RuleCheck::NotSupported:
    case RuleCheck::StaticShape:
        break;
    }
    return {};
}

bool targetMatches(std::string_view ruleTarget, const std::string& target)
{
    // The Ethos-U65 builds with the U55 subset too: backends/arm/ethosu/compile_spec.py
    // (_tosa_spec_for_target adds +u55 for U55 and U65) @ cff6f4dd. A rule for one target does not
    // hold for a node whose target is unknown.
    if (ruleTarget.empty())
        return true;
    return ruleTarget == target || (ruleTarget == "Ethos-U55" && target == "Ethos-U65");
}

/// The rule-based answer for one node and backend.
/// The rules by operator key, in table order (made once).
const std::map<std::string_view, std::vector<const Rule*>, std::less<>>& rulesByOperator()
{
    static const auto index = [] {
        std::map<std::string_view, std::vector<const Rule*>, std::less<>> byOp;
        for (const Rule& rule : partitionRules())
            byOp[rule.op].push_back(&rule);
        return byOp;
    }();
    return index;
}

void answerByRules(NodeWhy& answer, const NodeFacts& facts, const std::string& key)
{
    std::vector<const Rule*> rules;
    std::set<std::string> otherTargets; // targets of rules not applied because the node's is unknown
    if (const auto it = rulesByOperator().find(key); it != rulesByOperator().end())
        for (const Rule* rule : it->second) {
            if (rule->backend != answer.backend)
                continue;
            if (targetMatches(rule->target, answer.target))
                rules.push_back(rule);
            else if (answer.target.empty())
                otherTargets.insert(std::string(rule->target));
        }
    const BackendRules* backend = findRuleBackend(answer.backend);
    answer.matched = "rule table";
    if (!backend) {
        answer.kind = WhyKind::AllHold;
        answer.reason = "ETScope has no rule table for " + answer.backend
            + ": no known constraint to check; the partitioner's log will say why";
        answer.source = "docs/why.md (backends with rule tables)";
        return;
    }
    const auto notSupported = std::find_if(
        rules.begin(), rules.end(), [](const Rule* rule) { return rule->check == RuleCheck::NotSupported; });
    const bool listed = std::find(backend->covered.begin(), backend->covered.end(), key) != backend->covered.end();
    if ((rules.empty() && !listed) || notSupported != rules.end()) {
        answer.kind = WhyKind::NoRule;
        answer.reason = "no rule of " + answer.backend + (answer.target.empty() ? "" : " (" + answer.target + ")")
            + " covers " + key;
        if (notSupported != rules.end()) {
            answer.reason += ": " + std::string((*notSupported)->constraint);
            answer.source = std::string((*notSupported)->source);
        } else {
            answer.source = std::string(backend->operatorListSource);
        }
        return;
    }
    std::vector<std::string> unreadable;
    std::set<std::string> sources;
    std::string since;
    int checked = 0;
    for (const Rule* rule : rules) {
        const CheckOutcome outcome = evaluate(*rule, facts);
        sources.insert(std::string(rule->source));
        if (!rule->since.empty())
            since = std::string(rule->since);
        if (rule->check != RuleCheck::Covered)
            ++checked;
        if (outcome.state == CheckOutcome::State::Fails) {
            answer.kind = WhyKind::Fails;
            answer.reason = outcome.detail + ": " + std::string(rule->constraint);
            answer.source = std::string(rule->source);
            return;
        }
        if (outcome.state == CheckOutcome::State::Unreadable)
            unreadable.push_back(std::string(rule->constraint) + " (unverified: " + outcome.detail + ")");
    }
    if (listed)
        sources.insert(std::string(backend->operatorListSource));
    answer.kind = WhyKind::AllHold;
    answer.reason = answer.backend + " takes " + key + " and every known constraint holds ("
        + std::to_string(checked - static_cast<int>(unreadable.size())) + " checked";
    for (const std::string& note : unreadable)
        answer.reason += "; " + note;
    if (!otherTargets.empty()) {
        answer.reason += "; unverified for";
        for (const std::string& target : otherTargets)
            answer.reason += " " + target;
        answer.reason += ": the target is unknown (no delegate of this backend names it)";
    }
    answer.reason += "): the partitioner's log will say why";
    if (!backend->note.empty())
        answer.reason += " (" + std::string(backend->note) + ")";
    if (!since.empty())
        answer.reason += "; " + answer.backend + " takes it since ExecuTorch " + since
            + ": a program exported with an older release had no rule for it";
    for (const std::string& source : sources)
        answer.source += (answer.source.empty() ? "" : "; ") + source;
}

/// Where upstream leaves the quantize/dequantize at a partition's edge out of it.
std::string boundarySource(const std::string& backend)
{
    if (backend == "EthosUBackend" || backend == "VgfBackend" || backend == "TOSABackend")
        return "pytorch/executorch backends/arm/tosa/partitioner.py (_detag_boundary_nodes: INT-only specs or "
               "preserve_io_quantization) @ cff6f4dd";
    if (backend == "XnnpackBackend")
        return "pytorch/executorch backends/xnnpack/partition/config/generic_node_configs.py (get_node_and_deps: "
               "quantize/dequantize are taken only inside a quantized pattern) @ cff6f4dd";
    return "unverified for " + backend
        + ": ETScope has read no rule of its partitioner about quantize/dequantize at a partition's edge "
          "(docs/why.md)";
}

/// Where a node is: its method and (chain, instruction).
struct NodeAt {
    std::string method;
    int chain = 0;
    int instruction = 0;
    bool operator<(const NodeAt& other) const
    {
        return std::tie(method, chain, instruction) < std::tie(other.method, other.chain, other.instruction);
    }
};

/// The FX node name of each KernelCall, read through the ETRecord: the top-level node of the
/// method's edge program whose debug handle the instruction's debug_handle_map entry holds.
std::map<NodeAt, std::string> fxNames(const Document& document, const ETRecord& record)
{
    std::map<NodeAt, std::string> names;
    for (const Method& method : document.program->methods) {
        const ETRecordGraph* graph = record.edgeProgram(method.name);
        if (!graph || !graph->program)
            continue;
        std::map<DebugHandle, std::string> byHandle;
        for (const EdgeNode& node : graph->program->nodes)
            if (node.debugHandle && !node.isDelegateCall())
                byHandle.emplace(*node.debugHandle, node.name);
        for (std::size_t c = 0; c < method.chains.size(); ++c)
            for (std::size_t i = 0; i < method.chains[c].instructions.size(); ++i) {
                if (method.chains[c].instructions[i].kind != Instruction::Kind::Kernel)
                    continue;
                for (const DebugHandle handle : record.handlesOf(method.name, static_cast<int>(i)))
                    if (const auto it = byHandle.find(handle); it != byHandle.end()) {
                        names[{ method.name, static_cast<int>(c), static_cast<int>(i) }] = it->second;
                        break;
                    }
            }
    }
    return names;
}

/// The operator key a node name stands for: the longest key among `keys` whose spelling as an
/// FX name ("aten_avg_pool3d_") starts the name.
std::string keyOfNodeName(const std::string& name, const std::set<std::string>& keys)
{
    std::string best;
    for (const std::string& key : keys) {
        std::string prefix = key;
        if (const std::size_t colons = prefix.find("::"); colons != std::string::npos)
            prefix.replace(colons, 2, "_");
        const std::string lowerName = [&] {
            std::string out = name;
            for (char& ch : out)
                ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            return out;
        }();
        if ((lowerName == prefix || lowerName.starts_with(prefix + "_")) && key.size() > best.size())
            best = key;
    }
    return best;
}

// The Ethos-U variants a delegate's target facts name (and --target accepts).
constexpr std::array<std::string_view, 3> kEthosUVariants { "Ethos-U55", "Ethos-U65", "Ethos-U85" };

std::string targetOf(const DelegateInfo& info)
{
    if (info.backendId == "VgfBackend")
        return "VGF";
    for (const char* key : { "ethosu.npu", "ethosu.stream_npu" })
        if (const TargetFact* fact = findTarget(info, key)) {
            for (const std::string_view variant : kEthosUVariants)
                if (fact->value.find(variant) != std::string::npos)
                    return std::string(variant);
        }
    return {};
}

/// The targets a backend's rules can be chosen for (WhyOptions::target); empty when its rules
/// do not depend on one.
std::vector<std::string_view> targetsOf(std::string_view backend)
{
    if (backend == "EthosUBackend")
        return { kEthosUVariants.begin(), kEthosUVariants.end() };
    return {};
}

} // namespace

std::string_view whyKindName(WhyKind kind)
{
    switch (kind) {
    case WhyKind::Fails:
        return "constraint fails";
    case WhyKind::NoRule:
        return "no rule";
    case WhyKind::AllHold:
        return "constraints hold";
    case WhyKind::Boundary:
        break;
    }
    return "boundary";
}

int WhyReport::count(WhyKind kind) const
{
    return static_cast<int>(
        std::count_if(nodes.begin(), nodes.end(), [&](const NodeWhy& n) { return n.kind == kind; }));
}

std::vector<const NodeWhy*> WhyReport::answersFor(std::string_view method, int chain, int instruction) const
{
    std::vector<const NodeWhy*> out;
    for (const NodeWhy& node : nodes)
        if (node.method == method && node.chain == chain && node.instruction == instruction)
            out.push_back(&node);
    return out;
}

Result<WhyReport> explainProgram(const Document& document, const std::vector<PartitionLog>& logs,
    const ETRecord* etrecord, const WhyOptions& options)
{
    if (!document.program)
        return makeError(Error::Code::Usage, document.path,
            "is not a program (" + std::string(fileKindName(document.kind)) + "); nothing ran on a CPU");
    if (!options.backend.empty() && !findRuleBackend(options.backend)) {
        std::string known;
        for (const BackendRules& backend : ruleBackends())
            known += (known.empty() ? "" : ", ") + std::string(backend.backend);
        return makeError(Error::Code::Usage, document.path,
            "no rule table for backend '" + options.backend + "' (backends with rules: " + known + ")");
    }
    if (!options.target.empty()) {
        const std::vector<std::string_view> targets = targetsOf(options.backend);
        if (options.backend.empty())
            return makeError(Error::Code::Usage, document.path,
                "a target ('" + options.target + "') needs a backend: the program's own delegates name theirs");
        if (std::find(targets.begin(), targets.end(), options.target) == targets.end()) {
            std::string known;
            for (const std::string_view target : targets)
                known += (known.empty() ? "" : ", ") + std::string(target);
            return makeError(Error::Code::Usage, document.path,
                "no target '" + options.target + "' for " + options.backend
                    + (known.empty() ? " (its rules do not depend on a target)" : " (targets: " + known + ")"));
        }
    }
    WhyReport report;
    report.program = document.path;
    const Program& program = *document.program;
    const std::map<NodeAt, std::string> names
        = etrecord ? fxNames(document, *etrecord) : std::map<NodeAt, std::string> {};
    std::set<std::string> checkedBackends;

    for (const Method& method : program.methods) {
        const MethodAnalysis* analysis = document.analysis(method);
        // The backends (and targets) of this method's delegates, and the values their calls read
        // and write: a quantize or dequantize touching one sits on a delegate's edge.
        std::vector<std::pair<std::string, std::string>> backends;
        std::map<std::int64_t, std::string> delegateValues;
        for (std::size_t d = 0; d < method.delegates.size(); ++d) {
            std::string target;
            if (analysis && d < analysis->delegates.size())
                target = targetOf(analysis->delegates[d]);
            const std::pair<std::string, std::string> entry { method.delegates[d].backendId, target };
            if (std::find(backends.begin(), backends.end(), entry) == backends.end())
                backends.push_back(entry);
        }
        for (const Chain& chain : method.chains)
            for (const Instruction& instruction : chain.instructions)
                if (instruction.kind == Instruction::Kind::Delegate && instruction.index >= 0
                    && static_cast<std::size_t>(instruction.index) < method.delegates.size())
                    for (const std::int32_t arg : instruction.args)
                        delegateValues.emplace(
                            arg, method.delegates[static_cast<std::size_t>(instruction.index)].backendId);
        if (!options.backend.empty())
            backends = { { options.backend, options.target } };
        if (backends.empty())
            continue;
        for (const auto& [backend, target] : backends)
            checkedBackends.insert(backend);

        std::map<std::string, int> groupOf; // backend → index into report.groups
        for (std::size_t c = 0; c < method.chains.size(); ++c) {
            const auto& instructions = method.chains[c].instructions;
            for (std::size_t i = 0; i < instructions.size(); ++i) {
                const Instruction& instruction = instructions[i];
                if (instruction.kind != Instruction::Kind::Kernel || instruction.index < 0
                    || static_cast<std::size_t>(instruction.index) >= method.operators.size())
                    continue;
                const Operator& op = method.operators[static_cast<std::size_t>(instruction.index)];
                const NodeFacts facts(method, instruction, op);
                const std::string key = operatorKey(op.qualifiedName());
                NodeWhy base;
                base.method = method.name;
                base.chain = static_cast<int>(c);
                base.instruction = static_cast<int>(i);
                base.opType = op.qualifiedName();
                if (const auto it = names.find({ method.name, base.chain, base.instruction }); it != names.end())
                    base.fxName = it->second;

                std::string boundaryBackend;
                if (isQuantizeOp(key))
                    for (const std::int32_t arg : instruction.args)
                        if (const auto it = delegateValues.find(arg); it != delegateValues.end()) {
                            boundaryBackend = it->second;
                            break;
                        }
                if (!boundaryBackend.empty()) {
                    NodeWhy answer = base;
                    answer.backend = boundaryBackend;
                    answer.kind = WhyKind::Boundary;
                    answer.matched = "boundary: reads or writes a value of a " + boundaryBackend + " call";
                    auto [it, added] = groupOf.emplace(boundaryBackend, static_cast<int>(report.groups.size()));
                    if (added) {
                        WhyGroup group;
                        group.method = method.name;
                        group.backend = boundaryBackend;
                        group.reason = "boundary conversion, by design: a quantize whose input comes from outside the "
                            + boundaryBackend
                            + " partition, or a dequantize whose user is outside it, is left out of "
                              "the partition and converts at the delegate's edge";
                        group.source = boundarySource(boundaryBackend);
                        report.groups.push_back(group);
                    }
                    WhyGroup& group = report.groups[static_cast<std::size_t>(it->second)];
                    ++group.nodes;
                    if (std::find(group.opTypes.begin(), group.opTypes.end(), base.opType) == group.opTypes.end())
                        group.opTypes.push_back(base.opType);
                    answer.group = it->second;
                    answer.reason = group.reason;
                    answer.source = group.source;
                    report.nodes.push_back(std::move(answer));
                    continue;
                }
                for (const auto& [backend, target] : backends) {
                    NodeWhy answer = base;
                    answer.backend = backend;
                    answer.target = target;
                    answerByRules(answer, facts, key);
                    report.nodes.push_back(std::move(answer));
                }
            }
        }
    }
    report.backends.assign(checkedBackends.begin(), checkedBackends.end());

    // Place the logged reasons. Node indices per operator key (first answer of each node), for
    // matching by type and order.
    std::map<std::string, std::vector<std::size_t>> byKey;
    std::map<std::string, std::size_t> byFxName;
    // With an ETRecord, a name it does not know is placed by order among the nodes it names none
    // for (a record without a debug handle map names none).
    std::map<std::string, std::vector<std::size_t>> unnamedByKey;
    {
        std::set<NodeAt> seen;
        for (std::size_t n = 0; n < report.nodes.size(); ++n) {
            const NodeWhy& node = report.nodes[n];
            if (!seen.insert({ node.method, node.chain, node.instruction }).second)
                continue;
            byKey[operatorKey(node.opType)].push_back(n);
            if (!node.fxName.empty())
                byFxName.emplace(node.fxName, n);
            else
                unnamedByKey[operatorKey(node.opType)].push_back(n);
        }
    }
    std::set<std::string> keys;
    for (const auto& [key, list] : byKey)
        keys.insert(key);
    std::map<std::string, std::size_t> placedByName; // node name → node, for names seen again
    std::map<std::string, int> nextOfKey; // key → how many named reasons of it were placed in order
    const auto place = [&](std::size_t n, const LogReason& reason, const std::string& matched) {
        // Every answer of that node (one per backend, pushed one after the other) carries the
        // reason, once: a log repeats a line each time the partitioner asks again.
        const NodeWhy& first = report.nodes[n];
        const auto same = [&](const PlacedReason& placed) {
            return placed.reason.format == reason.format && placed.reason.reason == reason.reason
                && placed.reason.target == reason.target && placed.reason.nodeName == reason.nodeName;
        };
        if (std::any_of(first.logged.begin(), first.logged.end(), same))
            return;
        const std::string method = first.method;
        const int chain = first.chain;
        const int instruction = first.instruction;
        for (std::size_t k = n; k < report.nodes.size() && report.nodes[k].method == method
             && report.nodes[k].chain == chain && report.nodes[k].instruction == instruction;
             ++k)
            report.nodes[k].logged.push_back({ reason, matched });
    };
    std::set<std::tuple<int, std::string, std::string>> typeReasons; // (format, key, reason) placed by type
    for (const PartitionLog& log : logs) {
        report.logs.push_back(log.file);
        report.warnings.insert(report.warnings.end(), log.warnings.begin(), log.warnings.end());
        for (const LogReason& reason : log.reasons) {
            ++report.logReasons;
            const std::string where = reason.file + ":" + std::to_string(reason.line);
            if (reason.nodeName.empty()) {
                // QNN and Core ML lines name an operator type only: every node of that type.
                const std::string key = operatorKey(reason.target);
                const auto it = byKey.find(key);
                if (it == byKey.end()) {
                    report.warnings.push_back({ where + ": the reason for " + reason.target
                            + " matches no operator left on the CPU; not placed",
                        std::nullopt });
                    continue;
                }
                ++report.placedReasons;
                if (!typeReasons.insert({ static_cast<int>(reason.format), key, reason.reason }).second)
                    continue; // the same line again (one per query): already on every node of the type
                for (const std::size_t n : it->second)
                    place(n, reason, "operator type (the line names no node)");
                continue;
            }
            if (const auto again = placedByName.find(reason.nodeName); again != placedByName.end()) {
                place(again->second, reason,
                    report.nodes[again->second].logged.empty() ? "node name"
                                                               : report.nodes[again->second].logged.front().matched);
                ++report.placedReasons;
                continue;
            }
            if (etrecord) {
                if (const auto it = byFxName.find(reason.nodeName); it != byFxName.end()) {
                    place(it->second, reason, "FX node name through the ETRecord");
                    placedByName.emplace(reason.nodeName, it->second);
                    ++report.placedReasons;
                    continue;
                }
            }
            std::string key = operatorKey(reason.target);
            if (key.empty() || !byKey.contains(key))
                key = keyOfNodeName(reason.nodeName, keys);
            const auto& candidates = etrecord ? unnamedByKey : byKey;
            const auto it = candidates.find(key);
            const int order = key.empty() ? 0 : nextOfKey[key];
            if (it == candidates.end() || static_cast<std::size_t>(order) >= it->second.size()) {
                report.warnings.push_back({ where + ": node " + reason.nodeName
                        + (reason.target.empty() ? std::string() : " (" + reason.target + ")")
                        + (it == candidates.end() ? std::string(" matches no operator left on the CPU (delegated after "
                                                                "all, or decomposed later)")
                                                  : " has no " + ordinal(order + 1) + " " + key + " left on the CPU")
                        + (etrecord ? " (and the ETRecord does not name it)" : std::string()) + "; not placed",
                    std::nullopt });
                continue;
            }
            const std::size_t n = it->second[static_cast<std::size_t>(order)];
            ++nextOfKey[key];
            place(n, reason, "operator type and order (" + ordinal(order + 1) + " " + key + ")");
            placedByName.emplace(reason.nodeName, n);
            ++report.placedReasons;
        }
    }
    return report;
}

std::string whyText(const WhyReport& report)
{
    std::set<NodeAt> distinct;
    for (const NodeWhy& node : report.nodes)
        distinct.insert({ node.method, node.chain, node.instruction });
    std::string text = report.program + ": " + std::to_string(distinct.size()) + " operator node"
        + (distinct.size() == 1 ? "" : "s") + " outside every delegate";
    if (report.backends.empty()) {
        text += "; no delegate to check them against (name one with --backend ID)\n";
    } else {
        text += ", checked against ";
        for (std::size_t b = 0; b < report.backends.size(); ++b)
            text += (b ? ", " : "") + report.backends[b];
        text += "\n";
    }
    std::string method;
    std::set<int> groupsShown;
    for (const NodeWhy& node : report.nodes) {
        if (node.method != method) {
            method = node.method;
            text += "\nmethod '" + method + "'\n";
        }
        if (node.kind == WhyKind::Boundary) {
            if (!groupsShown.insert(node.group).second)
                continue;
            const WhyGroup& group = report.groups[static_cast<std::size_t>(node.group)];
            std::string instructions;
            for (const NodeWhy& other : report.nodes)
                if (other.group == node.group)
                    instructions += (instructions.empty() ? "#" : ", #") + std::to_string(other.instruction);
            text += "  " + instructions + "  boundary  " + std::to_string(group.nodes) + " node"
                + (group.nodes == 1 ? "" : "s") + " (";
            for (std::size_t t = 0; t < group.opTypes.size(); ++t)
                text += (t ? ", " : "") + group.opTypes[t];
            text += "): " + group.reason + "\n      source: " + group.source + "\n";
            continue;
        }
        text += "  #" + std::to_string(node.instruction)
            + (node.chain ? " (chain " + std::to_string(node.chain) + ")" : "") + " " + node.opType
            + (node.fxName.empty() ? "" : " [" + node.fxName + "]") + "  " + std::string(whyKindName(node.kind)) + "  "
            + node.backend + (node.target.empty() ? "" : " (" + node.target + ")") + ": " + node.reason
            + "\n      source: " + node.source + "; matched by " + node.matched + "\n";
        for (const PlacedReason& placed : node.logged)
            text += "      logged (" + std::string(partitionLogFormatName(placed.reason.format)) + ", "
                + placed.reason.file + ":" + std::to_string(placed.reason.line) + ", matched by " + placed.matched
                + "): " + (placed.reason.target.empty() ? "" : placed.reason.target + ": ") + placed.reason.reason
                + (placed.reason.cut ? " (row cut off)" : "") + "\n";
    }
    text += "\ntotals: " + std::to_string(report.count(WhyKind::Fails)) + " constraint fails, "
        + std::to_string(report.count(WhyKind::NoRule)) + " no rule, " + std::to_string(report.count(WhyKind::AllHold))
        + " constraints hold, " + std::to_string(report.count(WhyKind::Boundary)) + " boundary (in "
        + std::to_string(report.groups.size()) + (report.groups.size() == 1 ? " group)" : " groups)");
    if (!report.logs.empty())
        text += "; " + std::to_string(report.placedReasons) + " of " + std::to_string(report.logReasons)
            + " logged reasons placed from " + std::to_string(report.logs.size())
            + (report.logs.size() == 1 ? " log" : " logs");
    text += "\n";
    if (!report.warnings.empty()) {
        text += "\nwarnings:\n";
        for (const Warning& warning : report.warnings)
            text += "  " + warning.message + "\n";
    }
    return text;
}

nlohmann::json whyJson(const WhyReport& report)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeWhy& node : report.nodes) {
        nlohmann::json logged = nlohmann::json::array();
        for (const PlacedReason& placed : node.logged)
            logged.push_back({ { "format", partitionLogFormatName(placed.reason.format) },
                { "file", placed.reason.file }, { "line", placed.reason.line }, { "node_name", placed.reason.nodeName },
                { "target", placed.reason.target }, { "reason", placed.reason.reason }, { "cut", placed.reason.cut },
                { "matched", placed.matched } });
        nlohmann::json entry { { "method", node.method }, { "chain", node.chain }, { "instruction", node.instruction },
            { "op", node.opType }, { "backend", node.backend }, { "target", node.target },
            { "kind", whyKindName(node.kind) }, { "reason", node.reason }, { "source", node.source },
            { "matched", node.matched }, { "logged", logged } };
        entry["fx_name"] = node.fxName.empty() ? nlohmann::json() : nlohmann::json(node.fxName);
        entry["group"] = node.group < 0 ? nlohmann::json() : nlohmann::json(node.group);
        nodes.push_back(std::move(entry));
    }
    nlohmann::json groups = nlohmann::json::array();
    for (const WhyGroup& group : report.groups)
        groups.push_back({ { "method", group.method }, { "backend", group.backend }, { "ops", group.opTypes },
            { "nodes", group.nodes }, { "reason", group.reason }, { "source", group.source } });
    nlohmann::json warnings = nlohmann::json::array();
    for (const Warning& warning : report.warnings)
        warnings.push_back(warning.message);
    return { { "program", report.program }, { "backends", report.backends }, { "nodes", nodes }, { "groups", groups },
        { "logs", report.logs }, { "log_reasons", report.logReasons }, { "placed_reasons", report.placedReasons },
        { "totals",
            { { "constraint_fails", report.count(WhyKind::Fails) }, { "no_rule", report.count(WhyKind::NoRule) },
                { "constraints_hold", report.count(WhyKind::AllHold) },
                { "boundary", report.count(WhyKind::Boundary) } } },
        { "warnings", warnings } };
}

std::string whyCsv(const WhyReport& report)
{
    Table table;
    table.columns = { "method", "chain", "instruction", "op", "fx_name", "backend", "target", "kind", "reason",
        "source", "matched", "logged" };
    for (const NodeWhy& node : report.nodes) {
        std::string logged;
        for (const PlacedReason& placed : node.logged)
            logged += (logged.empty() ? "" : " | ") + placed.reason.file + ":" + std::to_string(placed.reason.line)
                + ": " + placed.reason.reason + " (matched by " + placed.matched + ")";
        table.rows.push_back({ node.method, static_cast<long long>(node.chain),
            static_cast<long long>(node.instruction), node.opType, node.fxName, node.backend, node.target,
            std::string(whyKindName(node.kind)), node.reason, node.source, node.matched, logged });
    }
    return renderTable(table, TableFormat::Csv);
}

} // namespace etscope::core
