// SPDX-License-Identifier: MIT
#include "core/writer/debug/syntheticdump.h"

#include "core/debug/etdump.h"
#include "core/writer/debug/etdumpwriter.h"

#include <algorithm>
#include <array>
#include <string>

namespace etscope::core {

namespace {

constexpr std::array<const char*, 6> kOps { "addmm", "relu", "add", "mul", "softmax", "view_copy" };

ProfileEvent event(
    std::string name, int chain, int instruction, std::uint64_t start, std::uint64_t end, std::size_t& sequence)
{
    return profileEvent(std::move(name), chain, instruction, start, end, sequence++);
}

} // namespace

std::vector<std::uint8_t> writeSyntheticETDump(const SyntheticDumpOptions& options)
{
    const int runs = std::max(0, options.runs);
    const int instructions = std::max(0, options.instructions);
    std::vector<RunBlock> blocks;
    blocks.reserve(static_cast<std::size_t>(runs) + 1);
    std::size_t sequence = 0;
    RunBlock load;
    load.name = "Default";
    load.profileEvents.push_back(event("Method::init", -1, 0, 1'180'600, 2'390'000, sequence));
    load.profileEvents.push_back(event("Program::load_method", -1, 0, 1'180'000, 2'393'000, sequence));
    blocks.push_back(std::move(load));
    std::uint64_t now = 2'400'000;
    for (int run = 0; run < runs; ++run) {
        RunBlock block;
        block.name = "Execute";
        const std::uint64_t runStart = now;
        now += 500;
        for (int i = 0; i < instructions; ++i) {
            const std::uint64_t start = now;
            // Deterministic variation: a few hundred ns to a few µs, different per run.
            const std::uint64_t work = 300 + static_cast<std::uint64_t>((i * 37 + run * 101) % 4000);
            if (options.delegateEvery > 0 && i % options.delegateEvery == options.delegateEvery - 1) {
                std::uint64_t t = start + 2'100;
                for (int k = 0; k < options.delegateEvents; ++k) {
                    ProfileEvent inner = event({}, 0, i, t, t + work, sequence);
                    inner.delegateDebugIdStr = "Fully Connected (NC, F32) GEMM #" + std::to_string(k + 1);
                    block.profileEvents.push_back(std::move(inner));
                    t += work;
                }
                now = t + 1'500;
                block.profileEvents.push_back(event("DELEGATE_CALL", 0, i, start, now, sequence));
            } else {
                const std::uint64_t inner = start + 420;
                block.profileEvents.push_back(
                    event(std::string("native_call_") + kOps[static_cast<std::size_t>(i) % kOps.size()], 0, i, inner,
                        inner + work, sequence));
                now = inner + work + 330;
                block.profileEvents.push_back(event("OPERATOR_CALL", 0, i, start, now, sequence));
            }
            now += 180;
        }
        block.profileEvents.push_back(event("Method::execute", -1, 0, runStart, now + 350, sequence));
        now += 10'000;
        blocks.push_back(std::move(block));
    }
    return writeETDump(blocks);
}

} // namespace etscope::core
