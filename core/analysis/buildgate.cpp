// SPDX-License-Identifier: MIT
// The CI gate (issue 25): rules parsed from `--budget`, each evaluated on numbers the other
// analyses already compute, as a table of old, new, limit and verdict.
//
// Why one file: each rule kind's parsing, evaluation (one ...Row function each) and text sit side
// by side, so a new rule touches one file; they share the number and byte formatting at the top.
#include "core/analysis/buildgate.h"

#include "core/cost/cost.h"

#include "core/analysis/programdiff.h"
#include "core/analysis/sizebreakdown.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace etscope::core {

namespace {

constexpr std::string_view kRuleList
    = "size+N% or size+N[B|KB|KiB|MB|MiB|GB|GiB], delegated-share-Npt, arena+N% or "
      "arena+N[B|KiB|…], no-new-fallback, no-new-missing, no-lost-delegate, loads, same-device-facts, macs+N%, "
      "cycles+N%";
constexpr std::size_t kShownItems = 8;
// A percentage or point limit beyond this is a typo, not a budget.
constexpr double kMaxPercent = 1'000'000;

Error ruleError(std::string_view rule, const std::string& reason)
{
    return makeError(Error::Code::Usage, {}, "--budget '" + std::string(rule) + "': " + reason);
}

std::string lowerTrimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// "5%", "100kib", "1.5mb" after the rule's "+": a percentage or a byte count.
Result<GateRule> parseGrowth(std::string_view rule, std::string_view amount, GateRule::Kind kind)
{
    double number = 0;
    const auto [end, ec] = std::from_chars(amount.data(), amount.data() + amount.size(), number);
    if (ec != std::errc() || end == amount.data() || amount.front() == '-' || !std::isfinite(number))
        return ruleError(rule, "expected a growth such as +5% or +100KiB after '+'");
    const std::string_view unit(end, amount.data() + amount.size() - end);
    GateRule out;
    out.kind = kind;
    out.text = std::string(rule);
    if (unit == "%") {
        if (number > kMaxPercent)
            return ruleError(rule, "a growth of more than 1,000,000% is no budget");
        out.unit = GateRule::Unit::Percent;
        out.limit = number;
        return out;
    }
    static const std::map<std::string_view, double> kUnits { { "b", 1.0 }, { "kb", 1e3 }, { "kib", 1024.0 },
        { "mb", 1e6 }, { "mib", 1024.0 * 1024 }, { "gb", 1e9 }, { "gib", 1024.0 * 1024 * 1024 } };
    const auto it = kUnits.find(unit);
    if (it == kUnits.end())
        return ruleError(rule,
            unit.empty() ? "the growth needs a unit: % or bytes (B, KB, KiB, MB, MiB, GB, GiB)"
                         : "unknown unit '" + std::string(unit) + "' (%, B, KB, KiB, MB, MiB, GB or GiB)");
    const double bytes = std::round(number * it->second);
    if (bytes > 9.0e18)
        return ruleError(rule, "the growth is too large");
    out.unit = GateRule::Unit::Bytes;
    out.bytes = static_cast<std::uint64_t>(bytes);
    return out;
}

std::string fixed(double value, const char* format = "%.1f")
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string percentText(double value)
{
    return fixed(value) + "%";
}

/// "+3.1%", "−2.0%" (a real minus sign reads better in a table), "±0%".
std::string signedPercent(double value)
{
    if (std::fabs(value) < 0.05)
        return "±0%";
    return (value > 0 ? "+" : "−") + fixed(std::fabs(value)) + "%";
}

std::string signedBytes(std::int64_t delta)
{
    if (delta == 0)
        return "±0 B";
    return (delta > 0 ? "+" : "−") + formatBytes(static_cast<std::uint64_t>(delta > 0 ? delta : -delta));
}

/// Change of a byte count: "+1.2 MiB (+3.1%)".
std::string byteChange(std::uint64_t oldBytes, std::uint64_t newBytes)
{
    const std::int64_t delta = static_cast<std::int64_t>(newBytes) - static_cast<std::int64_t>(oldBytes);
    std::string text = signedBytes(delta);
    if (oldBytes > 0 && delta != 0)
        text += " (" + signedPercent(100.0 * static_cast<double>(delta) / static_cast<double>(oldBytes)) + ")";
    return text;
}

/// The most a byte count may reach under a growth rule.
double growthLimit(const GateRule& rule, std::uint64_t oldBytes)
{
    return rule.unit == GateRule::Unit::Percent ? static_cast<double>(oldBytes) * (1.0 + rule.limit / 100.0)
                                                : static_cast<double>(oldBytes) + static_cast<double>(rule.bytes);
}

std::string joined(const std::vector<std::string>& items, std::size_t limit = kShownItems)
{
    return joinedList(items, limit);
}

std::uint64_t fileSize(const Document& document)
{
    if (document.program && document.program->file)
        return document.program->file->size();
    return 0;
}

/// One input of a method as a signature: "FLOAT [1, 3, 224, 224]", "Int".
std::string inputSignature(const Method& method, std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= method.values.size())
        return "?";
    const Value& value = method.values[static_cast<std::size_t>(index)];
    if (value.isTensor())
        return scalarTypeName(value.tensor.scalarType) + " " + formatShape(value.tensor.sizes);
    return std::string(valueKindName(value.kind));
}

std::vector<std::string> inputSignatures(const Method& method)
{
    std::vector<std::string> out;
    for (const std::int32_t index : method.inputs)
        out.push_back(inputSignature(method, index));
    return out;
}

std::vector<std::string> methodNames(const Program& program)
{
    std::vector<std::string> names;
    for (const Method& m : program.methods)
        names.push_back(m.name);
    return names;
}

/// Methods or their inputs differ: notes saying how.
void compareModels(const Program& current, const Program& baseline, BuildGate& gate)
{
    std::vector<std::string> onlyOld, onlyNew;
    for (const Method& m : baseline.methods)
        if (!current.method(m.name))
            onlyOld.push_back(m.name);
    for (const Method& m : current.methods)
        if (!baseline.method(m.name))
            onlyNew.push_back(m.name);
    if (!onlyOld.empty() || !onlyNew.empty()) {
        gate.differentModel = true;
        gate.notes.push_back("methods differ: baseline has " + joined(methodNames(baseline)) + "; new build has "
            + joined(methodNames(current)));
    }
    for (const Method& m : current.methods) {
        const Method* old = baseline.method(m.name);
        if (!old)
            continue;
        const auto oldInputs = inputSignatures(*old), newInputs = inputSignatures(m);
        if (oldInputs == newInputs)
            continue;
        gate.differentModel = true;
        gate.notes.push_back("method '" + m.name + "' takes other inputs: baseline (" + joined(oldInputs, 4)
            + "), new build (" + joined(newInputs, 4) + ")");
    }
}

GateRow sizeRow(const GateRule& rule, const Document& current, const Document& baseline)
{
    GateRow row;
    row.measure = "file size";
    row.unit = "bytes";
    const std::uint64_t oldBytes = fileSize(baseline), newBytes = fileSize(current);
    const double limit = growthLimit(rule, oldBytes);
    row.oldValue = static_cast<double>(oldBytes);
    row.newValue = static_cast<double>(newBytes);
    row.limitValue = std::floor(limit);
    row.oldText = formatBytes(oldBytes);
    row.newText = formatBytes(newBytes);
    row.changeText = byteChange(oldBytes, newBytes);
    row.limitText = "≤ " + formatBytes(static_cast<std::uint64_t>(std::floor(limit)));
    row.pass = static_cast<double>(newBytes) <= limit;
    // Which parts of the file grew: sizebreakdown's bytes by kind on both sides. Only for a
    // failing rule: breaking down two large programs costs about as much as opening them.
    if (row.pass)
        return row;
    const auto oldTree = sizeBreakdown(baseline), newTree = sizeBreakdown(current);
    if (!oldTree || !newTree)
        return row;
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> byKind;
    for (const SizeGroup& group : sizeByKind(oldTree->main))
        byKind[group.name].first = group.bytes;
    for (const SizeGroup& group : sizeByKind(newTree->main))
        byKind[group.name].second = group.bytes;
    // Parts that changed kind (an inline payload moved to a segment) show as one shrinking and
    // one growing, so both directions are listed.
    std::vector<std::pair<std::int64_t, std::string>> grew, shrank;
    for (const auto& [kind, bytes] : byKind) {
        const std::int64_t delta = static_cast<std::int64_t>(bytes.second) - static_cast<std::int64_t>(bytes.first);
        if (delta == 0)
            continue;
        (delta > 0 ? grew : shrank)
            .emplace_back(delta > 0 ? delta : -delta,
                kind + " " + signedBytes(delta) + " (" + formatBytes(bytes.first) + " → " + formatBytes(bytes.second)
                    + ")");
    }
    for (auto* list : { &grew, &shrank }) {
        std::sort(list->begin(), list->end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<std::string> parts;
        for (const auto& [delta, text] : *list)
            parts.push_back(text);
        if (!parts.empty())
            row.details.push_back((list == &grew ? "grew: " : "shrank: ") + joined(parts, 4));
    }
    return row;
}

struct Share {
    int delegated = 0;
    int nodes = 0;
    int opaque = 0;
    double percent() const { return nodes > 0 ? 100.0 * delegated / nodes : 0; }
    std::string text() const
    {
        return nodes > 0
            ? percentText(percent()) + " (" + std::to_string(delegated) + " of " + std::to_string(nodes) + ")"
            : "n/a";
    }
};

Share shareOf(const OperatorTable& table)
{
    return { table.delegatedNodes, table.delegatedNodes + table.nonDelegatedNodes, table.opaqueSubgraphs };
}

GateRow shareRow(const GateRule& rule, const OperatorTable& oldTable, const OperatorTable& newTable)
{
    GateRow row;
    row.measure = "delegated share of nodes";
    row.unit = "percent";
    const Share oldShare = shareOf(oldTable), newShare = shareOf(newTable);
    row.oldText = oldShare.text();
    row.newText = newShare.text();
    if (oldShare.nodes > 0)
        row.oldValue = oldShare.percent();
    if (newShare.nodes > 0)
        row.newValue = newShare.percent();
    if (oldShare.nodes == 0 || newShare.nodes == 0) {
        row.changeText = "n/a";
        row.limitText = "n/a";
        row.details.push_back(std::string("no operator nodes counted in the ")
            + (oldShare.nodes == 0 ? "baseline" : "new build") + ": the share cannot be compared");
    } else {
        const double limit = std::max(0.0, oldShare.percent() - rule.limit);
        const double change = newShare.percent() - oldShare.percent();
        row.limitValue = limit;
        row.limitText = "≥ " + percentText(limit);
        row.changeText
            = std::fabs(change) < 0.05 ? "±0 pt" : (change > 0 ? "+" : "−") + fixed(std::fabs(change)) + " pt";
        // Compared to a tenth of a point below what is printed, so a shown pass is a pass.
        row.pass = newShare.percent() >= limit - 1e-9;
    }
    for (const auto& [who, table] : { std::pair("baseline", &oldTable), std::pair("new build", &newTable) })
        for (const auto& [backend, share] : table->backends)
            if (share.opaqueSubgraphs > 0)
                row.details.push_back(std::string(who) + ": " + std::to_string(share.opaqueSubgraphs) + " " + backend
                    + " delegate(s) not decoded; their nodes are not counted (the share is a lower bound)");
    return row;
}

/// The bytes a runner allocates for a method's planned tensors: the arenas it declares
/// (non_const_buffer_sizes[1…]; entry 0 is reserved), as `etscope memory` lists them.
std::uint64_t declaredArenaBytes(const Method& method, std::vector<std::uint64_t>* perArena = nullptr)
{
    std::uint64_t total = 0;
    for (std::size_t id = 1; id < method.nonConstBufferSizes.size(); ++id) {
        const std::uint64_t bytes
            = static_cast<std::uint64_t>(std::max<std::int64_t>(0, method.nonConstBufferSizes[id]));
        total += bytes;
        if (perArena)
            perArena->push_back(bytes);
    }
    return total;
}

GateRow arenaRow(const GateRule& rule, const Program& current, const Program& baseline)
{
    GateRow row;
    row.measure = "planned arenas";
    row.unit = "bytes";
    struct MethodArenas {
        std::string name;
        std::uint64_t oldBytes = 0, newBytes = 0;
        double limit = 0;
        std::vector<std::uint64_t> oldArenas, newArenas;
    };
    std::vector<MethodArenas> methods;
    for (const Method& m : current.methods) {
        const Method* old = baseline.method(m.name);
        if (!old)
            continue;
        MethodArenas a;
        a.name = m.name;
        a.oldBytes = declaredArenaBytes(*old, &a.oldArenas);
        a.newBytes = declaredArenaBytes(m, &a.newArenas);
        if (a.oldBytes == 0 && a.newBytes == 0)
            continue;
        a.limit = growthLimit(rule, a.oldBytes);
        methods.push_back(std::move(a));
    }
    if (methods.empty()) {
        row.oldText = row.newText = row.changeText = row.limitText = "n/a";
        row.details.emplace_back("no method of both builds declares a memory arena");
        return row;
    }
    // The row shows the method that comes closest to (or furthest beyond) its limit.
    const auto ratio = [](const MethodArenas& a) {
        return a.limit > 0 ? static_cast<double>(a.newBytes) / a.limit : (a.newBytes > 0 ? 1e300 : 0.0);
    };
    const MethodArenas& worst = *std::max_element(
        methods.begin(), methods.end(), [&](const auto& a, const auto& b) { return ratio(a) < ratio(b); });
    if (methods.size() > 1 || current.methods.size() > 1)
        row.measure += " (" + worst.name + ")";
    row.oldValue = static_cast<double>(worst.oldBytes);
    row.newValue = static_cast<double>(worst.newBytes);
    row.limitValue = std::floor(worst.limit);
    row.oldText = formatBytes(worst.oldBytes);
    row.newText = formatBytes(worst.newBytes);
    row.changeText = byteChange(worst.oldBytes, worst.newBytes);
    row.limitText = "≤ " + formatBytes(static_cast<std::uint64_t>(std::floor(worst.limit)));
    for (const MethodArenas& a : methods) {
        if (static_cast<double>(a.newBytes) <= a.limit)
            continue;
        row.pass = false;
        std::string line = a.name + ": " + formatBytes(a.oldBytes) + " → " + formatBytes(a.newBytes) + ", "
            + byteChange(a.oldBytes, a.newBytes) + " > limit " + formatBytes(static_cast<std::uint64_t>(a.limit));
        std::vector<std::string> arenas;
        for (std::size_t i = 0; i < std::max(a.oldArenas.size(), a.newArenas.size()); ++i) {
            const std::uint64_t o = i < a.oldArenas.size() ? a.oldArenas[i] : 0;
            const std::uint64_t n = i < a.newArenas.size() ? a.newArenas[i] : 0;
            if (n > o)
                arenas.push_back("arena " + std::to_string(i + 1) + " " + formatBytes(o) + " → " + formatBytes(n));
        }
        if (!arenas.empty())
            line += "; " + joined(arenas, 4);
        row.details.push_back(line);
    }
    return row;
}

const OperatorKernel* findOperator(const KernelCheck& check, const std::string& method, const std::string& name)
{
    const MethodKernelCheck* m = check.method(method);
    if (!m)
        return nullptr;
    const auto it = std::lower_bound(m->operators.begin(), m->operators.end(), name,
        [](const OperatorKernel& op, const std::string& key) { return op.name < key; });
    return it != m->operators.end() && it->name == name ? &*it : nullptr;
}

GateRow fallbackRow(const Document& current, const Document& baseline, const KernelCheck& currentCheck,
    const OperatorTable& oldTable, const OperatorTable& newTable)
{
    GateRow row;
    row.measure = "operators moved out of delegates";
    row.unit = "count";
    row.oldText = std::to_string(oldTable.nonDelegatedNodes) + " on CPU kernels";
    row.newText = std::to_string(newTable.nonDelegatedNodes) + " on CPU kernels";
    row.oldValue = oldTable.nonDelegatedNodes;
    row.newValue = newTable.nonDelegatedNodes;
    row.limitValue = 0;
    row.limitText = "0 moved out";
    const auto diff = diffPrograms(baseline, current);
    if (!diff) {
        row.changeText = "n/a";
        row.details.push_back("could not match the builds: " + diff.error().message());
        return row;
    }
    int moved = 0;
    for (const MethodDiff& method : diff->methods) {
        for (const MovedOperators& m : method.moved) {
            if (m.movement != Movement::OutOfDelegate)
                continue;
            moved += m.count;
            std::string line = method.name + ": " + std::to_string(m.count) + " × " + m.to + " (was " + m.from
                + (m.from == m.backend ? "" : " in " + m.backend) + ")";
            if (const OperatorKernel* op = findOperator(currentCheck, method.name, m.to))
                line += op->missing() ? ", no kernel in these lists" : ", kernel from " + op->resolvedBy;
            row.details.push_back(std::move(line));
        }
    }
    row.changeText = std::to_string(moved) + " moved out";
    row.violations = moved;
    row.pass = moved == 0;
    if (row.details.size() > kShownItems) {
        const std::size_t more = row.details.size() - kShownItems;
        row.details.resize(kShownItems);
        row.details.push_back("… (" + std::to_string(more) + " more)");
    }
    return row;
}

/// Operators without a kernel, by name, with their calls and methods.
struct MissingOperator {
    int calls = 0;
    std::vector<std::string> methods;
};

std::map<std::string, MissingOperator> missingOperators(const KernelCheck& check)
{
    std::map<std::string, MissingOperator> out;
    for (const MethodKernelCheck& m : check.methods)
        for (const OperatorKernel& op : m.operators)
            if (op.missing()) {
                MissingOperator& missing = out[op.name];
                missing.calls += static_cast<int>(op.calls.size());
                missing.methods.push_back(m.method);
            }
    return out;
}

std::set<std::string> unlinkedBackends(const KernelCheck& check)
{
    std::set<std::string> out;
    for (const MethodKernelCheck& m : check.methods)
        for (const BackendNeed& need : m.backends)
            if (need.status == BackendNeed::Status::NotLinked)
                out.insert(need.backendId);
    return out;
}

GateRow missingRow(const KernelCheck& currentCheck, const KernelCheck& baselineCheck)
{
    GateRow row;
    row.measure = "operators without a kernel";
    row.unit = "count";
    const auto oldMissing = missingOperators(baselineCheck), newMissing = missingOperators(currentCheck);
    const auto oldBackends = unlinkedBackends(baselineCheck), newBackends = unlinkedBackends(currentCheck);
    const auto count = [](std::size_t ops, std::size_t backends) {
        std::string text = std::to_string(ops) + " missing";
        if (backends > 0)
            text += " + " + std::to_string(backends) + " backend(s)";
        return text;
    };
    row.oldText = count(oldMissing.size(), oldBackends.size());
    row.newText = count(newMissing.size(), newBackends.size());
    row.oldValue = static_cast<double>(oldMissing.size() + oldBackends.size());
    row.newValue = static_cast<double>(newMissing.size() + newBackends.size());
    row.limitValue = 0;
    row.limitText = "0 new";
    int newly = 0;
    for (const auto& [name, missing] : newMissing) {
        if (oldMissing.count(name))
            continue;
        ++newly;
        if (row.details.size() < kShownItems)
            row.details.push_back(name + ": no kernel (" + std::to_string(missing.calls) + " call(s) in "
                + joined(missing.methods, 4) + ")");
    }
    for (const std::string& backend : newBackends) {
        if (oldBackends.count(backend))
            continue;
        ++newly;
        if (row.details.size() < kShownItems)
            row.details.push_back(backend + ": backend not registered by any list");
    }
    if (newly > static_cast<int>(row.details.size()))
        row.details.push_back("… (" + std::to_string(newly - static_cast<int>(row.details.size())) + " more)");
    row.changeText = std::to_string(newly) + " new";
    row.violations = newly;
    row.pass = newly == 0;
    return row;
}

std::map<std::string, int> delegatesByBackend(const KernelCheck& check)
{
    std::map<std::string, int> out;
    for (const MethodKernelCheck& m : check.methods)
        for (const BackendNeed& need : m.backends)
            out[need.backendId] += need.delegates;
    return out;
}

std::string backendsText(const std::map<std::string, int>& backends)
{
    if (backends.empty())
        return "none";
    std::vector<std::string> items;
    items.reserve(backends.size());
    for (const auto& [id, count] : backends)
        items.push_back(id + " ×" + std::to_string(count));
    return joined(items, 3);
}

GateRow lostDelegateRow(const KernelCheck& currentCheck, const KernelCheck& baselineCheck)
{
    GateRow row;
    row.measure = "delegate backends";
    row.unit = "count";
    const auto oldBackends = delegatesByBackend(baselineCheck), newBackends = delegatesByBackend(currentCheck);
    row.oldText = backendsText(oldBackends);
    row.newText = backendsText(newBackends);
    row.oldValue = static_cast<double>(oldBackends.size());
    row.newValue = static_cast<double>(newBackends.size());
    row.limitValue = 0;
    row.limitText = "0 lost";
    int lost = 0;
    for (const auto& [id, count] : oldBackends) {
        const auto it = newBackends.find(id);
        if (it == newBackends.end()) {
            ++lost;
            row.details.push_back(
                "lost: " + id + " (" + std::to_string(count) + " delegate(s) in the baseline, none now)");
        } else if (it->second != count) {
            row.details.push_back(
                id + ": " + std::to_string(count) + " → " + std::to_string(it->second) + " delegate(s)");
        }
    }
    for (const auto& [id, count] : newBackends)
        if (!oldBackends.count(id))
            row.details.push_back("new: " + id + " (" + std::to_string(count) + " delegate(s))");
    row.changeText = std::to_string(lost) + " lost";
    row.violations = lost;
    row.pass = lost == 0;
    return row;
}

GateRow loadsRow(const KernelCheck& currentCheck, const KernelCheck& baselineCheck)
{
    GateRow row;
    row.measure = "loads with these kernel lists";
    row.unit = "bool";
    row.oldValue = baselineCheck.loads() ? 1 : 0;
    row.newValue = currentCheck.loads() ? 1 : 0;
    row.limitValue = 0;
    row.violations = currentCheck.loads() ? 0 : 1;
    row.oldText = baselineCheck.loads() ? "yes" : "no";
    row.newText = currentCheck.loads() ? "yes" : "no";
    row.changeText = row.oldText == row.newText ? "same" : row.oldText + " → " + row.newText;
    row.limitText = "yes";
    row.pass = currentCheck.loads();
    if (!row.pass) {
        const auto missing = missingOperators(currentCheck);
        std::vector<std::string> names;
        names.reserve(missing.size());
        for (const auto& [name, m] : missing)
            names.push_back(name);
        if (!names.empty())
            row.details.push_back("no kernel: " + joined(names));
        const auto backends = unlinkedBackends(currentCheck);
        if (!backends.empty())
            row.details.push_back(
                "backends not registered: " + joined(std::vector<std::string>(backends.begin(), backends.end())));
    }
    return row;
}

/// same-device-facts (issue 33): every "built for" fact of the baseline's delegates (SDK, SoC,
/// HTP architecture, NPU, deployment target; DelegateInfo::target) is the same in the new build,
/// delegates paired as `etscope diff` pairs them (diffDeviceFacts).
GateRow deviceFactsRow(const Document& current, const Document& baseline)
{
    GateRow row;
    row.measure = "device facts of the delegates";
    row.unit = "count";
    const auto countFacts = [](const Document& document) {
        std::size_t facts = 0;
        for (const Method& method : document.program->methods)
            if (const MethodAnalysis* analysis = document.analysis(method))
                for (const DelegateInfo& info : analysis->delegates)
                    facts += info.target.size();
        return facts;
    };
    const std::size_t oldFacts = countFacts(baseline), newFacts = countFacts(current);
    row.oldText = std::to_string(oldFacts) + " facts";
    row.newText = std::to_string(newFacts) + " facts";
    row.oldValue = static_cast<double>(oldFacts);
    row.newValue = static_cast<double>(newFacts);
    row.limitValue = 0;
    row.limitText = "0 changed";
    const auto changes = diffDeviceFacts(baseline, current, methodNames(*baseline.program));
    for (const DeviceFactChange& change : changes)
        row.details.push_back(
            change.text() + " (" + change.backend + ": " + joined(change.delegates, kShownItems) + ")");
    if (oldFacts == 0 && newFacts == 0)
        row.details.emplace_back("no delegate of either build states a device fact");
    row.changeText = std::to_string(changes.size()) + " changed";
    row.violations = static_cast<double>(changes.size());
    row.pass = changes.empty();
    return row;
}

/// What core/cost counts of one program for the macs+N% and cycles+N% rules.
struct CostCount {
    std::string error; ///< computeCost failed: why
    cost::CostTotals total;
    std::size_t undecoded = 0; ///< delegates whose inside is not decoded (nothing counted in them)
    std::vector<std::string> noRuleOps; ///< distinct operators with no rule or no shape, first seen first
    std::size_t ethosUKicks = 0; ///< nodes inside Ethos-U delegates
    std::size_t kicksWithoutEstimate = 0; ///< of which without a cycle estimate
};

CostCount countCost(const Document& document)
{
    CostCount out;
    auto report = cost::computeCost(document);
    if (!report) {
        out.error = report.error().message();
        return out;
    }
    out.total = report->total;
    std::set<std::pair<std::string, int>> ethosU;
    for (const cost::DelegateCost& d : report->delegates) {
        if (!d.note.empty())
            ++out.undecoded;
        if (d.format == "ethos-u")
            ethosU.insert({ d.method, d.delegate });
    }
    std::set<std::string> seen;
    for (const cost::NodeCost& node : report->nodes) {
        if (node.status != cost::CostStatus::Counted && seen.insert(node.opType).second)
            out.noRuleOps.push_back(node.opType);
        if (node.delegate >= 0 && ethosU.contains({ node.method, node.delegate })) {
            ++out.ethosUKicks;
            if (!node.estimate)
                ++out.kicksWithoutEstimate;
        }
    }
    return out;
}

/// "1,234,567".
std::string groupedCount(std::uint64_t value)
{
    std::string digits = std::to_string(value);
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

/// Why one side's MAC count is not the program's: "3 of 120 operator nodes have no cost rule
/// (aten::foo.out, …)", "1 delegate not decoded"; empty when every node was counted.
std::string macsGap(const CostCount& count)
{
    std::vector<std::string> parts;
    const std::size_t uncounted = count.total.noRule + count.total.noShape;
    if (uncounted > 0)
        parts.push_back(std::to_string(uncounted) + " of " + std::to_string(count.total.nodes)
            + " operator nodes not counted (no cost rule or no shape: " + joined(count.noRuleOps, 4) + ")");
    if (count.undecoded > 0)
        parts.push_back(std::to_string(count.undecoded) + " delegate(s) whose payload is not decoded");
    return joined(parts, 2);
}

/// Why one side's NPU cycle estimate is not the program's.
std::string cyclesGap(const CostCount& count)
{
    if (count.ethosUKicks == 0)
        return "no Ethos-U delegate: ETScope estimates cycles for Ethos-U NPU kicks only";
    if (count.kicksWithoutEstimate > 0)
        return std::to_string(count.kicksWithoutEstimate) + " of " + std::to_string(count.ethosUKicks)
            + " NPU operations have no cycle estimate (no system configuration or MACs per cycle in the compile "
              "flags)";
    return {};
}

/// macs+N% and cycles+N%: the program's total (every method) may grow by at most N% over the
/// baseline's. Unverified when either side's total misses nodes: a total of what was counted is
/// no total of the program, and comparing two of them could pass a real growth.
GateRow costRow(const GateRule& rule, const CostCount& current, const CostCount& baseline)
{
    const bool cycles = rule.kind == GateRule::Kind::Cycles;
    GateRow row;
    row.measure = cycles ? "estimated NPU cycles (Ethos-U, an ESTIMATE)" : "MACs (static count)";
    row.unit = "count";
    row.limitText = "≤ +" + fixed(rule.limit, "%g") + "%";
    if (!current.error.empty() || !baseline.error.empty()) {
        row.unverified = "cost not computed: " + (current.error.empty() ? baseline.error : current.error);
        row.oldText = row.newText = row.changeText = "n/a";
        return row;
    }
    const auto value = [cycles](const CostCount& count) -> std::optional<std::uint64_t> {
        if (cycles)
            return count.total.estimatedCycles;
        return count.total.macs;
    };
    const auto oldValue = value(baseline), newValue = value(current);
    const std::string oldGap = cycles ? cyclesGap(baseline) : macsGap(baseline);
    const std::string newGap = cycles ? cyclesGap(current) : macsGap(current);
    row.oldText = oldValue ? groupedCount(*oldValue) : "n/a";
    row.newText = newValue ? groupedCount(*newValue) : "n/a";
    if (oldValue)
        row.oldValue = static_cast<double>(*oldValue);
    if (newValue)
        row.newValue = static_cast<double>(*newValue);
    if (oldValue && newValue) {
        const double limit = static_cast<double>(*oldValue) * (1.0 + rule.limit / 100.0);
        row.limitValue = std::floor(limit);
        row.limitText = "≤ " + groupedCount(static_cast<std::uint64_t>(std::floor(limit))) + " (+"
            + fixed(rule.limit, "%g") + "%)";
        const double delta = static_cast<double>(*newValue) - static_cast<double>(*oldValue);
        row.changeText = *oldValue > 0 ? signedPercent(100.0 * delta / static_cast<double>(*oldValue))
                                       : (delta > 0 ? "+" + groupedCount(*newValue) : "±0");
        row.pass = static_cast<double>(*newValue) <= limit;
    } else {
        row.changeText = "n/a";
    }
    if (!oldGap.empty() || !newGap.empty()) {
        // What was counted is shown; the verdict is not given.
        row.pass = true;
        row.unverified = (oldGap.empty() ? std::string() : "baseline: " + oldGap)
            + (!oldGap.empty() && !newGap.empty() ? "; " : "")
            + (newGap.empty() ? std::string() : "new build: " + newGap);
        if (oldValue && !oldGap.empty())
            row.oldText = "≥ " + row.oldText;
        if (newValue && !newGap.empty())
            row.newText = "≥ " + row.newText;
    }
    if (cycles)
        row.details.emplace_back("the estimate covers the NPU kicks only, not the CPU nodes (docs/cost.md)");
    return row;
}

} // namespace

std::string GateRow::verdict() const
{
    if (!unverified.empty())
        return "unverified";
    return pass ? "pass" : "FAIL";
}

Result<GateRule> parseGateRule(std::string_view text)
{
    const std::string rule = lowerTrimmed(text);
    if (rule.empty())
        return ruleError(text, "empty rule (rules: " + std::string(kRuleList) + ")");
    GateRule out;
    out.text = rule;
    if (rule == "no-new-fallback")
        out.kind = GateRule::Kind::NoNewFallback;
    else if (rule == "no-new-missing")
        out.kind = GateRule::Kind::NoNewMissing;
    else if (rule == "no-lost-delegate")
        out.kind = GateRule::Kind::NoLostDelegate;
    else if (rule == "loads")
        out.kind = GateRule::Kind::Loads;
    else if (rule == "same-device-facts")
        out.kind = GateRule::Kind::SameDeviceFacts;
    else if (rule.starts_with("macs+") || rule.starts_with("cycles+")) {
        const bool cycles = rule.starts_with("cycles+");
        auto growth = parseGrowth(rule, std::string_view(rule).substr(cycles ? 7 : 5),
            cycles ? GateRule::Kind::Cycles : GateRule::Kind::Macs);
        if (growth && growth->unit != GateRule::Unit::Percent)
            return ruleError(
                text, std::string("a count grows by a percentage: ") + (cycles ? "cycles" : "macs") + "+5%");
        return growth;
    } else if (rule.starts_with("size+"))
        return parseGrowth(rule, std::string_view(rule).substr(5), GateRule::Kind::Size);
    else if (rule.starts_with("arena+"))
        return parseGrowth(rule, std::string_view(rule).substr(6), GateRule::Kind::Arena);
    else if (rule.starts_with("delegated-share-")) {
        const std::string_view amount = std::string_view(rule).substr(16);
        double points = 0;
        const auto [end, ec] = std::from_chars(amount.data(), amount.data() + amount.size(), points);
        if (ec != std::errc() || end == amount.data() || amount.front() == '-' || !std::isfinite(points)
            || std::string_view(end, amount.data() + amount.size() - end) != "pt")
            return ruleError(text, "expected the allowed drop in percentage points, such as delegated-share-2pt");
        if (points > 100)
            return ruleError(text, "a share cannot drop by more than 100 points");
        out.kind = GateRule::Kind::DelegatedShare;
        out.unit = GateRule::Unit::Points;
        out.limit = points;
    } else if (rule.starts_with("size") || rule.starts_with("arena") || rule.starts_with("macs")
        || rule.starts_with("cycles")) {
        return ruleError(text,
            "a growth budget is written with '+': " + rule.substr(0, rule.find_first_of("-+0123456789")) + "+5% or "
                + rule.substr(0, rule.find_first_of("-+0123456789")) + "+100KiB");
    } else {
        return ruleError(text, "unknown rule (rules: " + std::string(kRuleList) + ")");
    }
    return out;
}

Result<std::vector<GateRule>> parseGateRules(const std::vector<std::string>& texts)
{
    if (texts.empty())
        return defaultGateRules();
    std::vector<GateRule> rules;
    std::set<std::string> seen;
    for (const std::string& text : texts) {
        auto rule = parseGateRule(text);
        if (!rule)
            return rule.error();
        if (seen.insert(rule->text).second)
            rules.push_back(std::move(rule).value());
    }
    return rules;
}

std::vector<GateRule> defaultGateRules()
{
    std::vector<GateRule> rules;
    for (const char* text : { "no-new-missing", "no-lost-delegate" })
        rules.push_back(parseGateRule(text).value());
    return rules;
}

bool BuildGate::passed() const
{
    return failures() == 0;
}

int BuildGate::failures() const
{
    return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const GateRow& row) { return !row.pass; }));
}

int BuildGate::unverified() const
{
    return static_cast<int>(
        std::count_if(rows.begin(), rows.end(), [](const GateRow& row) { return !row.unverified.empty(); }));
}

BuildGate evaluateBuildGate(const Document& current, const Document& baseline, const KernelCheck& currentCheck,
    const KernelCheck& baselineCheck, const std::vector<GateRule>& rules)
{
    BuildGate gate;
    gate.program = current.path;
    gate.baseline = baseline.path;
    gate.kernelLists = currentCheck.lists;
    if (!current.program || !baseline.program) {
        gate.notes.emplace_back("one of the files holds no program: nothing to compare");
        return gate;
    }
    compareModels(*current.program, *baseline.program, gate);
    const OperatorTable oldTable = baselineCheck.combinedTable(), newTable = currentCheck.combinedTable();
    // Counted once for both cost rules, only when one is given (as long as opening the program).
    std::optional<std::pair<CostCount, CostCount>> costs;
    for (const GateRule& rule : rules) {
        GateRow row;
        switch (rule.kind) {
        case GateRule::Kind::Size:
            row = sizeRow(rule, current, baseline);
            break;
        case GateRule::Kind::DelegatedShare:
            row = shareRow(rule, oldTable, newTable);
            break;
        case GateRule::Kind::Arena:
            row = arenaRow(rule, *current.program, *baseline.program);
            break;
        case GateRule::Kind::NoNewFallback:
            row = fallbackRow(current, baseline, currentCheck, oldTable, newTable);
            break;
        case GateRule::Kind::NoNewMissing:
            row = missingRow(currentCheck, baselineCheck);
            break;
        case GateRule::Kind::NoLostDelegate:
            row = lostDelegateRow(currentCheck, baselineCheck);
            break;
        case GateRule::Kind::Loads:
            row = loadsRow(currentCheck, baselineCheck);
            break;
        case GateRule::Kind::SameDeviceFacts:
            row = deviceFactsRow(current, baseline);
            break;
        case GateRule::Kind::Macs:
        case GateRule::Kind::Cycles:
            if (!costs)
                costs.emplace(countCost(current), countCost(baseline));
            row = costRow(rule, costs->first, costs->second);
            break;
        }
        row.rule = rule.text;
        gate.rows.push_back(std::move(row));
    }
    return gate;
}

Table buildGateTable(const BuildGate& gate)
{
    Table table;
    table.columns = { "rule", "measure", "old", "new", "change", "limit", "verdict" };
    for (const GateRow& row : gate.rows)
        table.rows.push_back(
            { row.rule, row.measure, row.oldText, row.newText, row.changeText, row.limitText, row.verdict() });
    return table;
}

std::string buildGateText(const BuildGate& gate)
{
    const int unverified = gate.unverified();
    const std::string held = unverified == 0 ? "all " + std::to_string(gate.rows.size()) + " rule(s) hold"
                                             : std::to_string(static_cast<int>(gate.rows.size()) - unverified) + " of "
            + std::to_string(gate.rows.size()) + " rule(s) hold";
    std::string text = "Gate: " + std::string(gate.passed() ? "pass" : "FAIL") + " — "
        + (gate.passed()
                ? held
                : std::to_string(gate.failures()) + " of " + std::to_string(gate.rows.size()) + " rule(s) failed")
        + (unverified > 0 ? ", " + std::to_string(unverified) + " unverified (not checked: see below)" : std::string())
        + "\n";
    text += "New build: " + gate.program + "\nBaseline:  " + gate.baseline + "\n";
    if (gate.differentModel)
        text += "The baseline looks like a different model; the rules compare what both builds have.\n";
    for (const std::string& note : gate.notes)
        text += "Note: " + note + "\n";
    text += "\n" + renderTable(buildGateTable(gate), TableFormat::Text);
    bool any = false;
    for (const GateRow& row : gate.rows) {
        if (row.details.empty() && row.unverified.empty())
            continue;
        if (!any)
            text += "\n";
        any = true;
        text += row.rule + (row.pass ? "" : " (FAIL)") + ":\n";
        if (!row.unverified.empty())
            text += "  unverified: " + row.unverified + "\n";
        for (const std::string& detail : row.details)
            text += "  " + detail + "\n";
    }
    return text;
}

nlohmann::ordered_json buildGateJson(const BuildGate& gate)
{
    using nlohmann::ordered_json;
    const auto number = [](const std::optional<double>& value) {
        if (!value)
            return ordered_json(nullptr);
        // Bytes and counts are whole numbers; keep them integers in JSON.
        if (std::floor(*value) == *value && std::fabs(*value) < 9.0e15)
            return ordered_json(static_cast<std::int64_t>(*value));
        return ordered_json(*value);
    };
    ordered_json rules = ordered_json::array();
    for (const GateRow& row : gate.rows) {
        rules.push_back({
            { "rule", row.rule },
            { "measure", row.measure },
            { "unit", row.unit },
            { "old", number(row.oldValue) },
            { "new", number(row.newValue) },
            { "limit", number(row.limitValue) },
            { "violations", number(row.violations) },
            { "old_text", row.oldText },
            { "new_text", row.newText },
            { "change", row.changeText },
            { "limit_text", row.limitText },
            { "verdict", row.unverified.empty() ? (row.pass ? "pass" : "fail") : "unverified" },
            { "unverified", row.unverified.empty() ? ordered_json(nullptr) : ordered_json(row.unverified) },
            { "details", row.details },
        });
    }
    return {
        { "verdict", gate.passed() ? "pass" : "fail" },
        { "failures", gate.failures() },
        { "unverified", gate.unverified() },
        { "program", gate.program },
        { "baseline", gate.baseline },
        { "different_model", gate.differentModel },
        { "notes", gate.notes },
        { "kernel_lists", gate.kernelLists },
        { "rules", std::move(rules) },
    };
}

} // namespace etscope::core
