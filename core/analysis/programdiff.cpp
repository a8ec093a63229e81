// SPDX-License-Identifier: MIT
// `etscope diff`: two programs compared method by method (the node matching in
// methodmatcher.cpp, the alignment it uses in diffalignment.cpp), by operator counts, backends'
// payloads and sizes.
#include "core/analysis/programdiff.h"
#include "core/analysis/methodmatcher.h"

#include "core/report/reports.h"
#include "core/util/text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <span>

namespace etscope::core {

std::string_view matchStatusName(MatchStatus status)
{
    switch (status) {
    case MatchStatus::Same:
        return "same";
    case MatchStatus::Changed:
        return "changed";
    case MatchStatus::OnlyInA:
        return "only-in-A";
    case MatchStatus::OnlyInB:
        return "only-in-B";
    case MatchStatus::Unverified:
        return "unverified";
    }
    return "unknown";
}

namespace {

void summarise(MethodDiff& diff, const Graph* graphA, const Graph* graphB)
{
    std::map<std::string, OperatorDiffRow> rows;
    for (const OperatorRow& row : diff.tableA.rows) {
        OperatorDiffRow& r = rows[row.opType];
        r.opType = row.opType;
        r.delegatedA = row.delegated;
        r.nonDelegatedA = row.nonDelegated;
    }
    for (const OperatorRow& row : diff.tableB.rows) {
        OperatorDiffRow& r = rows[row.opType];
        r.opType = row.opType;
        r.delegatedB = row.delegated;
        r.nonDelegatedB = row.nonDelegated;
    }
    for (auto& [type, row] : rows)
        diff.operators.push_back(std::move(row));

    const auto nodeOf = [](const Graph* graph, const DiffNodeRef& ref) -> const Node& {
        return ref.inner ? graph->node(ref.node).subgraph->node(*ref.inner) : graph->node(ref.node);
    };
    const auto label = [&](const Graph* graph, const DiffNodeRef& ref) {
        const Node& top = graph->node(ref.node);
        std::string text = top.instruction.valid() ? "#" + std::to_string(top.instruction.value) + " " : std::string();
        text += top.label;
        if (ref.inner)
            text += " › " + nodeOf(graph, ref).label + " (node " + std::to_string(ref.inner->value) + ")";
        return text;
    };
    std::map<std::tuple<Movement, std::string, std::string, std::string>, int> moved;
    for (NodeMatch& match : diff.matches) {
        if (match.a)
            match.labelA = label(graphA, *match.a);
        if (match.b)
            match.labelB = label(graphB, *match.b);
        switch (match.status) {
        case MatchStatus::Same:
            ++diff.same;
            break;
        case MatchStatus::Changed:
            ++diff.changed;
            break;
        case MatchStatus::OnlyInA:
            ++diff.onlyInA;
            break;
        case MatchStatus::OnlyInB:
            ++diff.onlyInB;
            break;
        case MatchStatus::Unverified:
            ++diff.unverified;
            break;
        }
        if (match.movement == Movement::None || !match.a || !match.b)
            continue;
        const bool into = match.movement == Movement::IntoDelegate;
        const Node& top = into ? nodeOf(graphA, *match.a) : nodeOf(graphB, *match.b);
        if (top.kind != NodeKind::Operator)
            continue; // constants follow their readers; only operators are counted
        const DiffNodeRef& delegated = into ? *match.b : *match.a;
        const Graph* delegatedGraph = into ? graphB : graphA;
        const Node& delegate = delegatedGraph->node(delegated.node);
        const std::string reached = delegated.inner ? nodeOf(delegatedGraph, delegated).opType : delegate.label;
        ++moved[{ match.movement, into ? top.opType : reached, into ? reached : top.opType, delegate.label }];
        ++(into ? diff.movedIntoDelegates : diff.movedOutOfDelegates);
    }
    for (const auto& [key, count] : moved) {
        const auto& [movement, from, to, backend] = key;
        diff.moved.push_back({ movement, from, to, backend, count });
    }
}

std::uint64_t uniqueBytes(std::vector<ByteRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& x, const ByteRange& y) {
        return std::pair(x.offset, x.size) < std::pair(y.offset, y.size);
    });
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i)
        if (i == 0 || ranges[i].offset != ranges[i - 1].offset || ranges[i].size != ranges[i - 1].size)
            total += ranges[i].size;
    return total;
}

struct SizeFacts {
    std::uint64_t file = 0, program = 0, segments = 0, segmentBytes = 0, constants = 0, delegateBytes = 0,
                  inlineDelegateBytes = 0, namedData = 0;
};

/// Distinct payload ranges in file order (one range per shared segment).
std::vector<ByteRange> distinctRanges(std::vector<ByteRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& x, const ByteRange& y) {
        return std::pair(x.offset, x.size) < std::pair(y.offset, y.size);
    });
    ranges.erase(std::unique(ranges.begin(), ranges.end(),
                     [](const ByteRange& x, const ByteRange& y) { return x.offset == y.offset && x.size == y.size; }),
        ranges.end());
    return ranges;
}

/// Compares one backend's stored payloads of A and B byte by byte when they have the same sizes
/// in file order: two builds whose FlatBuffers are identical can still carry different
/// payloads (a QNN context binary rebuilt), and sizes alone call them the same.
void comparePayloadContent(const Program& programA, std::vector<ByteRange> rangesA, const Program& programB,
    std::vector<ByteRange> rangesB, BackendDiff& backend)
{
    rangesA = distinctRanges(std::move(rangesA));
    rangesB = distinctRanges(std::move(rangesB));
    if (rangesA.size() != rangesB.size())
        return;
    std::vector<std::pair<std::span<const std::uint8_t>, std::span<const std::uint8_t>>> pairs;
    for (std::size_t r = 0; r < rangesA.size(); ++r) {
        const auto a = programA.bytes(rangesA[r]), b = programB.bytes(rangesB[r]);
        if (rangesA[r].size != rangesB[r].size || a.size() != rangesA[r].size || b.size() != rangesB[r].size)
            return; // sizes differ, or a range lies outside its file
        pairs.emplace_back(a, b);
    }
    for (std::size_t r = 0; r < pairs.size(); ++r) {
        const diff::ByteDifference difference = diff::differingBytes(pairs[r].first, pairs[r].second);
        backend.differingBytes += difference.count;
        if (!backend.firstDifferenceA && difference.first)
            backend.firstDifferenceA = rangesA[r].offset + *difference.first;
    }
}

SizeFacts sizeFacts(const Program& program)
{
    SizeFacts facts;
    facts.file = program.file ? program.file->size() : 0;
    facts.program = program.header ? program.header->programSize : program.region.size;
    facts.segments = program.segments.size();
    for (const ByteRange& segment : program.segments)
        facts.segmentBytes += segment.size;
    if (program.hasConstantSegment && program.constantSegment.segmentIndex < program.segments.size())
        facts.constants += program.segments[program.constantSegment.segmentIndex].size;
    for (const ByteRange& buffer : program.legacyConstantBuffers)
        facts.constants += buffer.size;
    std::vector<ByteRange> payloads;
    for (const Method& method : program.methods)
        for (const DelegateRef& ref : method.delegates)
            payloads.push_back(ref.payload);
    facts.delegateBytes = uniqueBytes(payloads);
    for (const ByteRange& data : program.inlineDelegateData)
        facts.inlineDelegateBytes += data.size;
    std::vector<ByteRange> named;
    for (const NamedDataEntry& entry : program.namedData)
        named.push_back(entry.data);
    facts.namedData = uniqueBytes(named);
    return facts;
}

/// One method of both programs: operator tables, the node matching and its summary.
MethodDiff diffMethod(const std::string& name, const Document& a, const Document& b, const DiffOptions& options,
    std::vector<std::string>& notes)
{
    const Program& pa = *a.program;
    const Program& pb = *b.program;
    MethodDiff method;
    method.name = name;
    const Method* ma = pa.method(name);
    const Method* mb = pb.method(name);
    method.inA = ma != nullptr;
    method.inB = mb != nullptr;
    if (!ma || !mb)
        notes.push_back("method '" + name + "' is only in " + (ma ? "A (" + a.path : "B (" + b.path) + ")");
    const MethodAnalysis* aa = ma ? a.analysis(*ma) : nullptr;
    const MethodAnalysis* ab = mb ? b.analysis(*mb) : nullptr;
    const Graph* ga = aa && aa->graph ? aa->graph.get() : nullptr;
    const Graph* gb = ab && ab->graph ? ab->graph.get() : nullptr;
    if (ga)
        method.tableA = computeOperatorTable(*ga);
    if (gb)
        method.tableB = computeOperatorTable(*gb);
    diff::MethodMatcher(ma, ga, mb, gb, options, method).withPrograms(pa, pb).run();
    summarise(method, ga, gb);
    return method;
}

/// Per backend over the compared methods: delegate counts, payload bytes and (both files at
/// hand) payload content.
void compareBackends(const Program& pa, const Program& pb, const std::vector<std::string>& compared, ProgramDiff& diff)
{
    std::map<std::string, BackendDiff> backends;
    std::map<std::string, std::pair<std::vector<ByteRange>, std::vector<ByteRange>>> payloadRanges;
    for (const std::string& name : compared)
        for (const auto& [m, side] : { std::pair(pa.method(name), 0), std::pair(pb.method(name), 1) }) {
            if (!m)
                continue;
            for (const DelegateRef& ref : m->delegates) {
                BackendDiff& backend = backends[ref.backendId];
                backend.backend = ref.backendId;
                ++(side == 0 ? backend.countA : backend.countB);
                auto& ranges = payloadRanges[ref.backendId];
                (side == 0 ? ranges.first : ranges.second).push_back(ref.payload);
            }
        }
    for (auto& [id, backend] : backends) {
        auto& [rangesA, rangesB] = payloadRanges[id];
        backend.bytesA = uniqueBytes(rangesA);
        backend.bytesB = uniqueBytes(rangesB);
        if (pa.file && pb.file)
            comparePayloadContent(pa, std::move(rangesA), pb, std::move(rangesB), backend);
        diff.backends.push_back(std::move(backend));
    }
}

void compareSizes(const Program& pa, const Program& pb, ProgramDiff& diff)
{
    const SizeFacts sa = sizeFacts(pa), sb = sizeFacts(pb);
    if (pa.file && pb.file) {
        const auto bytesA = pa.file->bytes(), bytesB = pb.file->bytes();
        diff.identicalBytes = std::equal(bytesA.begin(), bytesA.end(), bytesB.begin(), bytesB.end());
    }
    diff.sizes = {
        { "file", sa.file, sb.file },
        { "program (FlatBuffer and header)", sa.program, sb.program },
        { "segments", sa.segments, sb.segments, true },
        { "segment bytes", sa.segmentBytes, sb.segmentBytes },
        { "constant data", sa.constants, sb.constants },
        { "delegate payloads", sa.delegateBytes, sb.delegateBytes },
        { "inline delegate data", sa.inlineDelegateBytes, sb.inlineDelegateBytes },
        { "named data", sa.namedData, sb.namedData },
    };
}

/// The family a fact key belongs to as people name it, for labels that say which hardware a
/// fact is about ("target" alone could be Ethos-U's or VGF's).
std::string factFamily(const std::string& key, const std::string& backend)
{
    const std::string prefix = key.substr(0, key.find('.'));
    if (prefix == "qnn")
        return "QNN";
    if (prefix == "ethosu")
        return "Ethos-U";
    if (prefix == "coreml")
        return "Core ML";
    if (prefix == "xnnpack")
        return "XNNPACK";
    if (prefix == "vulkan")
        return "Vulkan";
    if (prefix == "vgf")
        return "VGF";
    if (prefix == "mlx")
        return "MLX";
    if (prefix == "arm") // Arm's compile specs are shared by its Ethos-U and VGF backends
        return backend.find("Vgf") != std::string::npos  ? "VGF"
            : backend.find("Ethos") != std::string::npos ? "Ethos-U"
                                                         : "Arm";
    return backend;
}

std::string factLabel(const TargetFact& fact, const std::string& backend)
{
    const std::string family = factFamily(fact.key, backend);
    const auto lower = [](std::string text) {
        std::transform(
            text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return text;
    };
    if (family.empty() || lower(fact.name).starts_with(lower(family)))
        return fact.name;
    return family + " " + fact.name;
}

/// Arm's compile spec "target" as written ("ethos-u55-128"), when it is printable text; empty
/// otherwise. The delegate's facts split it into NPU and MACs (targetfacts.cpp); `diff` states
/// it whole, as the user wrote it in the export script.
std::string armTargetText(const DelegateRef* ref)
{
    if (!ref)
        return {};
    for (const CompileSpec& spec : ref->compileSpecs)
        if (spec.key == "target") {
            std::string text(spec.value.begin(), spec.value.end());
            while (!text.empty() && text.back() == '\0')
                text.pop_back();
            const bool printable = !text.empty() && text.size() <= 256
                && std::all_of(text.begin(), text.end(), [](unsigned char c) { return c >= 0x20 && c < 0x7f; });
            return printable ? text : std::string();
        }
    return {};
}

/// A delegate's facts by key; a key stated twice keeps its occurrences apart ("key#2"). An Arm
/// delegate whose compile spec names its target has that text as "arm.target" in place of the
/// NPU and MACs read from it.
std::vector<std::pair<std::string, TargetFact>> factsByKey(const DelegateInfo& info, const DelegateRef* ref)
{
    std::vector<std::pair<std::string, TargetFact>> facts;
    std::map<std::string, int> seen;
    const std::string target = armTargetText(ref);
    const bool whole = !target.empty() && (findTarget(info, "ethosu.npu") || findTarget(info, "ethosu.macs"));
    if (whole) {
        seen["arm.target"] = 1;
        facts.emplace_back(
            "arm.target", TargetFact { "arm.target", "target", target, std::nullopt, "compile spec target" });
    }
    for (const TargetFact& fact : info.target) {
        if (whole && (fact.key == "ethosu.npu" || fact.key == "ethosu.macs"))
            continue;
        const int n = ++seen[fact.key];
        facts.emplace_back(n == 1 ? fact.key : fact.key + "#" + std::to_string(n), fact);
    }
    return facts;
}

/// The facts of both sides by key that differ, merged with an equal change of another delegate
/// (an LLM's prefill and decode over one context binary) into one change listing both.
void compareFacts(const std::string& where, const std::string& backend,
    const std::vector<std::pair<std::string, TargetFact>>& factsA,
    const std::vector<std::pair<std::string, TargetFact>>& factsB, bool deviceLabels,
    std::vector<DeviceFactChange>& changes)
{
    const auto find = [](const auto& facts, const std::string& key) -> const TargetFact* {
        for (const auto& [k, fact] : facts)
            if (k == key)
                return &fact;
        return nullptr;
    };
    std::vector<std::string> keys;
    for (const auto* facts : { &factsA, &factsB })
        for (const auto& [key, fact] : *facts)
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                keys.push_back(key);
    for (const std::string& key : keys) {
        const TargetFact* fa = find(factsA, key);
        const TargetFact* fb = find(factsB, key);
        if (fa && fb && fa->value == fb->value)
            continue;
        DeviceFactChange change;
        change.backend = backend;
        change.key = (fa ? fa : fb)->key;
        change.label = deviceLabels ? factLabel(*(fa ? fa : fb), backend) : (fa ? fa : fb)->name;
        if (fa)
            change.a = fa->value;
        if (fb)
            change.b = fb->value;
        const auto same = std::find_if(changes.begin(), changes.end(), [&](const DeviceFactChange& c) {
            return c.backend == change.backend && c.key == change.key && c.a == change.a && c.b == change.b;
        });
        if (same != changes.end()) {
            if (std::find(same->delegates.begin(), same->delegates.end(), where) == same->delegates.end())
                same->delegates.push_back(where);
            continue;
        }
        change.delegates.push_back(where);
        changes.push_back(std::move(change));
    }
}

void compareDelegateFacts(const std::string& where, const DelegateInfo& a, const DelegateRef* refA,
    const DelegateInfo& b, const DelegateRef* refB, std::vector<DeviceFactChange>& changes)
{
    compareFacts(where, a.backendId, factsByKey(a, refA), factsByKey(b, refB), true, changes);
}

/// The k-th delegate of a backend in a method of A against the k-th of that backend in the same
/// method of B, for each of `methods` found in both: `visit(where, infoA, refA, infoB, refB)`.
template <class Visit>
void forEachDelegatePair(const Document& a, const Document& b, const std::vector<std::string>& methods, Visit&& visit)
{
    if (!a.program || !b.program)
        return;
    for (const std::string& name : methods) {
        const Method* ma = a.program->method(name);
        const Method* mb = b.program->method(name);
        const MethodAnalysis* aa = ma ? a.analysis(*ma) : nullptr;
        const MethodAnalysis* ab = mb ? b.analysis(*mb) : nullptr;
        if (!aa || !ab)
            continue;
        std::map<std::string, std::vector<std::size_t>> ofBackendB;
        for (std::size_t d = 0; d < ab->delegates.size(); ++d)
            ofBackendB[ab->delegates[d].backendId].push_back(d);
        std::map<std::string, std::size_t> used;
        for (std::size_t d = 0; d < aa->delegates.size(); ++d) {
            const DelegateInfo& da = aa->delegates[d];
            const auto& candidates = ofBackendB[da.backendId];
            std::size_t& k = used[da.backendId];
            if (k >= candidates.size())
                continue;
            const std::size_t db = candidates[k++];
            std::string where = name + " #" + std::to_string(d);
            if (db != d)
                where += " (B #" + std::to_string(db) + ")";
            const auto refOf = [](const Method* method, std::size_t index) {
                return index < method->delegates.size() ? &method->delegates[index] : nullptr;
            };
            visit(where, da, refOf(ma, d), ab->delegates[db], refOf(mb, db));
        }
    }
}

/// FNV-1a, 64 bits (offset basis 14695981039346656037, prime 1099511628211: the FNV
/// specification, draft-eastlake-fnv): enough to tell two payloads apart at a glance.
std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes)
{
    std::uint64_t hash = 14695981039346656037ULL;
    for (const std::uint8_t byte : bytes) {
        hash ^= byte;
        hash *= 1099511628211ULL;
    }
    return hash;
}

std::string hexHash(std::uint64_t hash)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text = "0x";
    for (int shift = 60; shift >= 0; shift -= 4)
        text += kDigits[(hash >> shift) & 0xF];
    return text;
}

} // namespace

std::string DeviceFactChange::text() const
{
    return label + " " + a.value_or("(not stated)") + " → " + b.value_or("(not stated)");
}

std::vector<DeviceFactChange> diffDeviceFacts(
    const Document& a, const Document& b, const std::vector<std::string>& methods)
{
    std::vector<DeviceFactChange> changes;
    forEachDelegatePair(a, b, methods,
        [&](const std::string& where, const DelegateInfo& da, const DelegateRef* refA, const DelegateInfo& db,
            const DelegateRef* refB) { compareDelegateFacts(where, da, refA, db, refB, changes); });
    return changes;
}

std::vector<DeviceFactChange> diffDelegateFacts(
    const Document& a, const Document& b, const std::vector<std::string>& methods)
{
    std::vector<DeviceFactChange> changes;
    // A payload range is hashed once per side (the delegates of an LLM's methods share one).
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::string> hashesA, hashesB;
    const auto hashOf = [](const Program& program, const ByteRange& range, auto& cache) {
        auto [it, added] = cache.try_emplace({ range.offset, range.size });
        if (added)
            it->second = hexHash(fnv1a64(program.bytes(range)));
        return it->second;
    };
    forEachDelegatePair(a, b, methods,
        [&](const std::string& where, const DelegateInfo& da, const DelegateRef* refA, const DelegateInfo& db,
            const DelegateRef* refB) {
            compareDelegateFacts(where, da, refA, db, refB, changes);
            const auto decoded = [](const DelegateInfo& info) {
                std::vector<std::pair<std::string, TargetFact>> facts;
                std::map<std::string, int> seen;
                for (const Attribute& fact : info.facts) {
                    const std::string key = "fact." + fact.name;
                    const int n = ++seen[key];
                    facts.emplace_back(n == 1 ? key : key + "#" + std::to_string(n),
                        TargetFact { key, fact.name, fact.value, std::nullopt, "decoder" });
                }
                return facts;
            };
            compareFacts(where, da.backendId, decoded(da), decoded(db), false, changes);
            if (!refA || !refB)
                return;
            const std::span<const std::uint8_t> bytesA = a.program->bytes(refA->payload);
            const std::span<const std::uint8_t> bytesB = b.program->bytes(refB->payload);
            if (bytesA.size() == bytesB.size() && std::equal(bytesA.begin(), bytesA.end(), bytesB.begin()))
                return;
            std::vector<std::pair<std::string, TargetFact>> payloadA, payloadB;
            const auto add = [&](auto& into, const DelegateRef& ref, const Program& program, auto& cache) {
                into.emplace_back("payload.size",
                    TargetFact { "payload.size", "payload size", std::to_string(ref.payload.size) + " B",
                        static_cast<std::int64_t>(ref.payload.size), "program" });
                into.emplace_back("payload.fnv1a64",
                    TargetFact { "payload.fnv1a64", "payload hash (FNV-1a 64)", hashOf(program, ref.payload, cache),
                        std::nullopt, "payload bytes" });
            };
            add(payloadA, *refA, *a.program, hashesA);
            add(payloadB, *refB, *b.program, hashesB);
            compareFacts(where, da.backendId, payloadA, payloadB, false, changes);
        });
    return changes;
}

Result<ProgramDiff> diffPrograms(const Document& a, const Document& b, const DiffOptions& options)
{
    for (const Document* document : { &a, &b })
        if (!document->program)
            return makeError(Error::Code::Usage, document->path,
                "is not a program (" + std::string(fileKindName(document->kind))
                    + "); diff compares .pte and .bpte files");
    const Program& pa = *a.program;
    const Program& pb = *b.program;
    ProgramDiff diff;
    diff.pathA = a.path;
    diff.pathB = b.path;

    std::set<std::string> names;
    for (const Method& m : pa.methods)
        names.insert(m.name);
    for (const Method& m : pb.methods)
        names.insert(m.name);
    for (const std::string& name : names) {
        const bool inA = pa.method(name) != nullptr, inB = pb.method(name) != nullptr;
        (inA && inB ? diff.commonMethods : inA ? diff.methodsOnlyInA : diff.methodsOnlyInB).push_back(name);
    }
    std::vector<std::string> compared;
    if (!options.method.empty()) {
        if (!names.count(options.method))
            return makeError(
                Error::Code::Usage, a.path + ", " + b.path, "neither file has a method named '" + options.method + "'");
        compared.push_back(options.method);
    } else {
        compared.assign(names.begin(), names.end());
    }
    for (const std::string& name : compared)
        diff.methods.push_back(diffMethod(name, a, b, options, diff.notes));
    compareBackends(pa, pb, compared, diff);
    diff.deviceFacts = diffDeviceFacts(a, b, compared);
    if (options.delegateFacts)
        diff.delegateFacts = diffDelegateFacts(a, b, compared);
    compareSizes(pa, pb, diff);
    return diff;
}

} // namespace etscope::core
