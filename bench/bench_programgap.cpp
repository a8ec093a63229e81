// SPDX-License-Identifier: MIT
// etscope_bench_gap — the cost of `etscope gap --reference-program` (issue 24): two synthetic
// programs of N instructions (makeMlpProgram, weights from two seeds: the same model before and
// after a change) with ETDumps logging every instruction's outputs, compared phase by phase:
// open both programs, read both ETDumps, pair the nodes (diff's matching), compare the pairs,
// find the first divergence. Prints wall times and the peak resident size (bench/README.md).
//
//   etscope_bench_gap [--instructions N] [--keep DIR]
//   etscope_bench_gap --write-fixtures DIR   (the gapfixtures.h builds as files, for trying the CLI)
//
// A tool, so it prints. Not part of ctest.
#include "bench/peakrss.h"

#include "core/analysis/gappairing.h"
#include "core/debug/programgap.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <tuple>

#include <unistd.h>

using namespace etscope::core;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

bool write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes)
{
    if (auto error = writeBytesToFile(path.string(), bytes)) {
        std::fprintf(stderr, "%s\n", error->message().c_str());
        return false;
    }
    return true;
}

/// One Execute block in which every instruction of chain 0 logs its outputs as the runtime does:
/// a kernel its out argument (the last), a delegate call every argument. Values are a smooth
/// function of the position, scaled by `gain` (1 vs 1.001: the second run differs a little).
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> runOf(const MethodSpec& method, double gain)
{
    RunBlock block;
    block.name = "Execute";
    DebugBufferWriter buffer(64, 0);
    std::size_t sequence = 0;
    const auto log = [&](int instruction, std::int32_t valueIndex) {
        if (valueIndex < 0 || static_cast<std::size_t>(valueIndex) >= method.values.size())
            return;
        const ValueSpec& value = method.values[static_cast<std::size_t>(valueIndex)];
        if (value.kind != Value::Kind::Tensor)
            return;
        DebugEvent event;
        event.instructionId = InstructionId(instruction);
        event.value.kind = DebugValue::Kind::Tensor;
        event.value.rawKind = 5;
        DebugTensor t;
        t.scalarType = value.tensor.scalarType;
        std::uint64_t count = 1;
        for (const std::int32_t size : value.tensor.sizes) {
            t.sizes.push_back(size);
            count *= static_cast<std::uint64_t>(std::max(size, 0));
        }
        t.strides.assign(t.sizes.size(), 1);
        for (std::size_t d = t.sizes.size(); d-- > 1;)
            t.strides[d - 1] = t.strides[d] * t.sizes[d];
        std::vector<double> values(count);
        for (std::uint64_t i = 0; i < count; ++i)
            values[i] = gain * std::sin(0.01 * static_cast<double>(instruction) + static_cast<double>(i));
        t.offset = buffer.appendValues(t.scalarType, values);
        event.value.tensors.push_back(std::move(t));
        event.sequence = sequence++;
        block.debugEvents.push_back(std::move(event));
    };
    const ChainSpec& chain = method.chains.front();
    for (std::size_t k = 0; k < chain.instructions.size(); ++k) {
        const InstructionSpec& instruction = chain.instructions[k];
        const int id = static_cast<int>(k);
        if (instruction.kind == Instruction::Kind::Delegate)
            for (const std::int32_t arg : instruction.args)
                log(id, arg);
        else if (instruction.kind == Instruction::Kind::Kernel && !instruction.args.empty())
            log(id, instruction.args.back());
    }
    return { writeETDump({ block }), buffer.bytes() };
}

int writeFixtures(const std::filesystem::path& dir)
{
    std::filesystem::create_directories(dir);
    const GapFixtures f = makeGapFixtures();
    for (const auto& [name, build] : { std::pair<const char*, const GapBuild*>("portable", &f.portable),
             std::pair<const char*, const GapBuild*>("quantized", &f.quantized),
             std::pair<const char*, const GapBuild*>("lowered", &f.lowered),
             std::pair<const char*, const GapBuild*>("inside", &f.inside),
             std::pair<const char*, const GapBuild*>("inside-named", &f.insideNamed) }) {
        const std::string base = name;
        if (!write(dir / (base + ".pte"), writeProgram(build->program).value())
            || !write(dir / (base + ".etdp"), build->etdump) || !write(dir / (base + ".debug.bin"), build->debugBuffer)
            || !write(dir / (base + ".etrecord"), build->etrecord))
            return 1;
    }
    std::printf("wrote portable, quantized, lowered, inside and inside-named .pte/.etdp/.debug.bin/.etrecord to %s\n",
        dir.c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    int instructions = 100'000;
    std::filesystem::path keep;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--write-fixtures" && i + 1 < argc)
            return writeFixtures(argv[++i]);
        if (arg == "--instructions" && i + 1 < argc)
            instructions = std::atoi(argv[++i]);
        else if (arg == "--keep" && i + 1 < argc)
            keep = argv[++i];
        else {
            std::fprintf(stderr, "usage: etscope_bench_gap [--instructions N] [--keep DIR] | --write-fixtures DIR\n");
            return 2;
        }
    }
    const std::filesystem::path dir = keep.empty()
        ? std::filesystem::temp_directory_path() / ("etscope-bench-gap-" + std::to_string(getpid()))
        : keep;
    std::filesystem::create_directories(dir);
    // Two builds: the same model with other weights (before and after a change).
    for (const auto& [name, seed, gain] : { std::tuple("a", 1u, 1.0), std::tuple("b", 2u, 1.001) }) {
        MlpOptions options;
        options.nodes = instructions;
        options.seed = seed;
        const SyntheticProgram program = makeMlpProgram(options);
        const MethodSpec* forward = program.spec.method("forward");
        const auto [etdump, buffer] = runOf(*forward, gain);
        const std::string base = name;
        if (!write(dir / (base + ".pte"), writeProgram(program.spec).value()) || !write(dir / (base + ".etdp"), etdump)
            || !write(dir / (base + ".debug.bin"), buffer))
            return 1;
    }
    std::printf("programs and runs of %d instructions in %s\n", instructions, dir.c_str());

    const etscope::bench::PeakRss peak;
    const auto start = Clock::now();
    const std::clock_t cpuStart = std::clock();
    auto t = Clock::now();
    auto a = openDocument((dir / "a.pte").string());
    auto b = openDocument((dir / "b.pte").string());
    if (!a || !b) {
        std::fprintf(stderr, "cannot open the programs\n");
        return 1;
    }
    const double open = seconds(t);
    const double mib = 1024.0 * 1024.0;
    const double rssOpen = static_cast<double>(etscope::bench::residentBytes()) / mib;
    t = Clock::now();
    auto dumpA = readETDumpFile((dir / "a.etdp").string());
    auto dumpB = readETDumpFile((dir / "b.etdp").string());
    if (!dumpA || !dumpB || attachDebugBufferOrDefault(dumpA.value(), {})
        || attachDebugBufferOrDefault(dumpB.value(), {})) {
        std::fprintf(stderr, "cannot read the ETDumps\n");
        return 1;
    }
    const double read = seconds(t);
    const double rssRead = static_cast<double>(etscope::bench::residentBytes()) / mib;
    const Method* methodA = nullptr;
    const Method* methodB = nullptr;
    for (const Method& m : a->program->methods)
        if (m.name == "forward")
            methodA = &m;
    for (const Method& m : b->program->methods)
        if (m.name == "forward")
            methodB = &m;
    const EventMapper mapperA(*a->analysis(*methodA)->graph, nullptr, "forward");
    const EventMapper mapperB(*b->analysis(*methodB)->graph, nullptr, "forward");
    t = Clock::now();
    auto pairing = pairProgramNodes(*a, *b, "forward");
    if (!pairing) {
        std::fprintf(stderr, "%s\n", pairing.error().message().c_str());
        return 1;
    }
    const double pair = seconds(t);
    const double rssPair = static_cast<double>(etscope::bench::residentBytes()) / mib;
    t = Clock::now();
    auto report = compareProgramRuns(
        { b->path, methodB, &mapperB, &*dumpB, 0 }, { a->path, methodA, &mapperA, &*dumpA, 0 }, *pairing);
    if (!report) {
        std::fprintf(stderr, "%s\n", report.error().message().c_str());
        return 1;
    }
    const double compare = seconds(t);
    const double rssCompare = static_cast<double>(etscope::bench::residentBytes()) / mib;
    t = Clock::now();
    const auto divergence = findFirstDivergence(*report, mapperB, mapperA);
    const double first = seconds(t);
    const double total = seconds(start);
    const double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    std::size_t compared = 0;
    for (const ProgramGapRow& row : report->rows)
        compared += row.run.metrics ? 1 : 0;
    std::printf("matching %s: %zu pairs, %zu rows, %zu compared, %s\n", report->matching.c_str(), report->pairs,
        report->rows.size(), compared,
        divergence ? ("first divergence at row " + std::to_string(divergence->row)).c_str() : "no divergence");
    std::printf("open %.3f s, read ETDumps %.3f s, pair %.3f s, compare %.3f s, first divergence %.3f s\n", open, read,
        pair, compare, first);
    std::printf(
        "resident after open %.0f MiB, after reading %.0f MiB, after pairing %.0f MiB, after comparing %.0f MiB\n",
        rssOpen, rssRead, rssPair, rssCompare);
    std::printf("total %.3f s wall, %.3f s CPU, peak RSS delta %.1f MiB%s\n", total, cpu,
        static_cast<double>(peak.deltaBytes()) / (1024.0 * 1024.0), peak.reset() ? "" : " (high-water mark not reset)");
    if (keep.empty())
        std::filesystem::remove_all(dir);
    return 0;
}
