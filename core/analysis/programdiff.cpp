// SPDX-License-Identifier: MIT
// `etscope diff`: two programs compared method by method (the node matching in
// methodmatcher.cpp, the alignment it uses in diffalignment.cpp), by operator counts, backends'
// payloads and sizes.
#include "core/analysis/programdiff.h"
#include "core/analysis/methodmatcher.h"

#include "core/report/reports.h"
#include "core/util/text.h"

#include <algorithm>
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

} // namespace

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
    compareSizes(pa, pb, diff);
    return diff;
}

} // namespace etscope::core
