// SPDX-License-Identifier: MIT
// The Arm executor runner's measurements, read from its console output on a Corstone FVP or a
// board: the "Profiler report, CPU cycles per operator" block, the inference runtime and CPU/NPU
// ratios, cpu_wait_for_npu_cntr, the "Ethos-U PMU report" (ethosu_pmu_cycle_cntr and the event
// counters) and the counters' event names ("Ethos-U PMU Events:[…]"). Issue 34, item 3.
//
// Line forms, read in the runner's source, github.com/pytorch/executorch
// examples/arm/executor_runner/arm_perf_monitor.cpp @ 14f76720 (StopMeasurements; older
// versions print the same lines without "(X per inference)"):
//   NPU Inferences : N
//   NPU delegations: N (X per inference)
//   Profiler report, CPU cycles per operator:
//   ethos-u : cycle_cnt : N cycles (X per inference)   <- the only operator line it prints: the
//                                                        CPU cycles of EthosUBackend::execute
//   Operator(s) total: N CPU cycles (X per inference)
//   Inference runtime: N CPU cycles total (X per inference)
//   Inference CPU ratio: P %      Inference NPU ratio: P %     ("?.?? %" when not measured)
//   cpu_wait_for_npu_cntr : N CPU cycles (X per inference)
//   Ethos-U PMU report:
//   ethosu_pmu_cycle_cntr : N (X per inference)
//   ethosu_pmu_cntrI : N (X per inference)               (I = 0..3 on U55/U65, 0..6 on U85)
//   Ethos-U PMU Events:[ETHOSU_PMU_…, …]
// Every line may carry ET_LOG's prefix "I [executorch:arm_perf_monitor.cpp:171 StopMeasurements()] "
// (arm_executor_runner.cpp et_pal_emit_log_message), so the forms are found inside the line.
// Operator lines of the same "<tag> : cycle_cnt : N cycles" form for other tags are read too
// (the runner's comment: other delegates may be listed there "in the future").
#pragma once

#include "core/util/result.h"
#include "core/vendorlogs/logtext.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::vendor {

/// "<tag> : cycle_cnt : N cycles": CPU cycles of one operator (the runner prints only "ethos-u").
struct OperatorCycles {
    std::string tag; ///< "ethos-u"
    std::uint64_t cycles = 0; ///< over all inferences
    std::optional<double> perInference;
    std::size_t line = 0;
};

/// "ethosu_pmu_cntrI : N": one PMU event counter and, from the Events line, what it counts.
struct PmuCounter {
    int index = 0;
    std::uint64_t count = 0;
    std::optional<double> perInference;
    std::string event; ///< "ETHOSU_PMU_AXI0_RD_DATA_BEAT_RECEIVED"; empty when no Events line names it
    std::size_t line = 0;
};

struct RunLog {
    std::string path;
    std::optional<std::int64_t> npuInferences;
    std::optional<std::uint64_t> npuDelegations;
    bool profilerReport = false; ///< the "Profiler report, CPU cycles per operator:" line was seen
    std::vector<OperatorCycles> operatorCycles;
    std::optional<std::uint64_t> operatorsTotal; ///< "Operator(s) total", CPU cycles
    std::optional<std::uint64_t> inferenceRuntime; ///< "Inference runtime", CPU cycles, all inferences
    std::optional<double> inferenceRuntimePerInference;
    std::optional<double> cpuRatioPercent;
    std::optional<double> npuRatioPercent;
    std::optional<std::uint64_t> cpuWaitForNpu; ///< cpu_wait_for_npu_cntr, CPU cycles
    bool pmuReport = false; ///< "Ethos-U PMU report:" was seen
    std::optional<std::uint64_t> npuCycles; ///< ethosu_pmu_cycle_cntr: NPU cycles, all inferences
    std::optional<double> npuCyclesPerInference;
    std::vector<PmuCounter> counters;
    std::vector<std::string> events; ///< from "Ethos-U PMU Events:[…]", in counter order
    std::optional<std::uint64_t> programSize; ///< "PTE Model data loaded. Size: N bytes." / "model_pte_program_size:"
    std::optional<std::int64_t> inferences; ///< "Starting running N inferences..." / "N inferences finished"
    std::vector<Warning> warnings;
    std::size_t lines = 0;

    bool empty() const { return !profilerReport && !pmuReport && !npuCycles && operatorCycles.empty(); }
    /// The "ethos-u" operator line, nullptr when absent.
    const OperatorCycles* ethosU() const;
};

/// Reads runner output from `text`; `name` names it in warnings. Never fails: a log without the
/// runner's report gives an empty RunLog and a warning.
RunLog parseRunLog(std::string_view text, std::string_view name, const LogLimits& limits = {});
/// As parseRunLog, from a file. Fails only when the file cannot be opened or is empty.
Result<RunLog> readRunLog(const std::string& path, const LogLimits& limits = {});

} // namespace etscope::core::vendor
