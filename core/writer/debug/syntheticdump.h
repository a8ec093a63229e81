// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace etscope::core {

/// The shape of a synthetic runtime trace (benchmarks and tests of the ETDump page).
struct SyntheticDumpOptions {
    int runs = 10; ///< Execute blocks, one per inference
    int instructions = 1000; ///< operator calls per run
    int delegateEvery = 8; ///< every K-th instruction is a DELEGATE_CALL instead; 0: none
    int delegateEvents = 4; ///< delegate-internal events inside each DELEGATE_CALL
};

/// Writes an ETDump as the runtime's profiler would for a program of `instructions` portable
/// kernels: a "Default" block (Program::load_method, Method::init), then `runs` "Execute" blocks,
/// each Method::execute around one OPERATOR_CALL › native_call_<op> pair per instruction or, every
/// `delegateEvery`-th instruction, a DELEGATE_CALL around `delegateEvents` XNNPACK-style internal
/// events named by string identifiers ("Fully Connected (NC, F32) GEMM #k"). Durations vary
/// deterministically by run and instruction. Event count: 2 + runs × (1 + 2 × operators +
/// (1 + delegateEvents) × delegate calls).
std::vector<std::uint8_t> writeSyntheticETDump(const SyntheticDumpOptions& options);

} // namespace etscope::core
