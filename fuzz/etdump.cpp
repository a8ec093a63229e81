// SPDX-License-Identifier: MIT
// libFuzzer target: an ETDump and its debug buffer in one input. A size-prefixed ETDump says
// where it ends; the bytes after it are attached as the debug buffer (the seeds are a .etdp and
// its .debug.bin concatenated). Then what the app and the CLI do with a dump: every tensor
// decoded, the info printouts, the runtime profile and its tables, and the numeric gap of the
// dump against itself.
#include "core/debug/etdump.h"
#include "core/analysis/timeline.h"
#include "core/debug/debugheat.h"
#include "core/debug/debugreports.h"
#include "core/debug/eventmapper.h"
#include "core/debug/numericgap.h"
#include "core/debug/programgap.h"
#include "core/debug/runtimeprofile.h"
#include "core/util/jsontext.h"
#include "core/util/mappedfile.h"
#include "core/util/text.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace {

using namespace etscope::core;

// Well above any real debug tensor here, low enough that one input cannot spend seconds
// converting elements (the rss limit catches larger blow-ups anyway).
constexpr std::uint64_t kMaxElements = 1u << 22;

std::span<const std::uint8_t> debugBufferAfterDump(std::span<const std::uint8_t> input)
{
    if (input.size() < 12 || std::memcmp(input.data() + 8, "ED00", 4) != 0)
        return {};
    const std::uint64_t dumpEnd = 4 + static_cast<std::uint64_t>(readLe32(input.data()));
    return dumpEnd <= input.size() ? input.subspan(dumpEnd) : std::span<const std::uint8_t> {};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::uint8_t> input(data, size);
    auto dump = readETDump(MappedFile::fromBytes("fuzz.etdp", input));
    if (!dump)
        return 0;
    attachDebugBuffer(*dump, MappedFile::fromBytes("fuzz.debug.bin", debugBufferAfterDump(input)));
    for (const RunBlock& run : dump->runs)
        for (const DebugEvent& event : run.debugEvents)
            for (const DebugTensor& tensor : event.value.tensors)
                (void)tensorValues(*dump, tensor, kMaxElements);
    (void)dump->executeBlocks();
    (void)etdumpInfoText(*dump);
    (void)jsonText(etdumpInfoJson(*dump), 2);

    // No program: events match no node, which is the path of an ETDump opened on its own.
    const Graph graph;
    const EventMapper mapper(graph);
    const RuntimeProfile profile = buildRuntimeProfile(*dump, mapper);
    etscope::fuzz::renderEverywhere(runtimeProfileTable(profile, mapper, true));
    etscope::fuzz::renderEverywhere(nodeTimingTable(profile));
    (void)timingHeatTable(profile);
    if (auto timeline = buildTimeline(*dump, &mapper)) {
        (void)timelineChromeTrace(*timeline);
        etscope::fuzz::renderEverywhere(timelineTable(*timeline));
    }

    GapOptions options;
    options.maxElements = kMaxElements;
    const GapReport gap = compareETDumps(*dump, *dump, mapper, options);
    etscope::fuzz::renderEverywhere(gapTable(gap, std::nullopt, true));
    (void)gapHeatTable(gap);
    (void)findFirstDivergence(gap, mapper);

    // `gap --reference-program`: the first Execute block against the last, on a program of eight
    // one-output kernels (instructions 0…7, each the partner of itself) and an output, so that the
    // logged values land on paired nodes; integer tensors look for quantization parameters the
    // (empty) method does not state.
    Graph kernels;
    NodePairing pairing;
    pairing.matching = "aligned";
    for (int i = 0; i < 8; ++i) {
        Node node;
        node.kind = NodeKind::Operator;
        node.label = "aten::relu.out";
        node.opType = "aten::relu.out";
        node.instruction = InstructionId(i);
        const NodeId id = kernels.addNode(std::move(node));
        pairing.pairs.push_back(
            { NodeOrigin { id, NodeId::none() }, NodeOrigin { id, NodeId::none() }, "execution order", {} });
    }
    Node output;
    output.kind = NodeKind::Output;
    output.label = "output 0";
    const NodeId out = kernels.addNode(std::move(output));
    pairing.pairs.push_back({ NodeOrigin { out, NodeId::none() }, NodeOrigin { out, NodeId::none() }, "position", {} });
    const EventMapper kernelMapper(kernels);
    const Method method;
    const std::size_t blocks = dump->executeBlocks().size();
    const ProgramRun run { "fuzz.pte", &method, &kernelMapper, &*dump, 0 };
    const ProgramRun reference { "fuzz.pte", &method, &kernelMapper, &*dump, blocks ? blocks - 1 : 0 };
    ProgramGapOptions programOptions;
    programOptions.maxElements = kMaxElements;
    if (auto report = compareProgramRuns(run, reference, pairing, programOptions)) {
        etscope::fuzz::renderEverywhere(programGapTable(*report, std::nullopt, true));
        const DivergenceRule rule;
        const auto divergence = findFirstDivergence(*report, kernelMapper, kernelMapper, rule);
        const ProgramGapRow* row = divergence ? &report->rows[divergence->row] : nullptr;
        (void)firstDivergenceLines(divergence, row ? &row->run : nullptr, report->rows.size(), 0, rule, row);
    }
    return 0;
}
