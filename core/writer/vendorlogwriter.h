// SPDX-License-Identifier: MIT
// Writers of vendor logs from given figures, for tests and fuzz seeds (issue 34): a Vela
// console log (network summary, per-layer table, register listing) or per-layer CSV in the
// layout core/vendorlogs/velalog.h reads (and cites), and an Arm executor runner log
// (core/vendorlogs/runlog.h). Damage options make the broken variants real logs have: CRLF line
// ends, tabs, foreign lines interleaved, an unknown or missing column, a very long line, a log
// cut off at a byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// One row of Vela's per-layer table.
struct VelaRowSpec {
    std::string originalOperator = "Conv2D";
    std::string nngOperator = "Conv2D";
    std::string target = "NPU";
    std::int64_t stagingUsage = 0;
    double peakPercent = 0;
    std::int64_t opCycles = 0;
    double networkCyclesPercent = 0;
    std::int64_t npuCycles = 0;
    std::int64_t sramAc = 0;
    std::int64_t dramAc = 0;
    std::int64_t onFlashAc = 0;
    std::int64_t offFlashAc = 0;
    std::int64_t macs = 0;
    double networkMacPercent = 0;
    double utilPercent = 0;
    std::string name = "aten_convolution_default";
};

/// One line of the register listing: the words, the name and the fields as Vela prints them.
struct VelaListedCommandSpec {
    std::uint32_t word = 0; ///< param << 16 | code
    std::optional<std::uint32_t> payload;
    std::string name; ///< "NPU_SET_IFM_BASE0"
    std::string fields; ///< "addr = 0xc4000" (empty: none)
    std::string operation; ///< when set, a "// <operation>" line is written before this command
};

struct VelaLogDamage {
    bool crlf = false;
    bool tabs = false; ///< summary label/value gaps as tabs
    bool interleave = false; ///< foreign lines inside the table and the listing
    std::string unknownColumn; ///< an extra column with this name, before Name
    std::string dropColumn; ///< leave this column out ("Op Cycles")
    std::size_t longLineBytes = 0; ///< a line of this many 'x' before the table
    std::optional<std::size_t> cutAtByte; ///< the log ends here
};

struct VelaLogSpec {
    std::string network = "out";
    std::string accelerator = "Ethos_U55_128";
    std::string systemConfiguration = "Ethos_U55_High_End_Embedded";
    std::string memoryMode = "Shared_Sram";
    int clockMHz = 500;
    double sramUsedKiB = 0;
    double flashUsedKiB = 0;
    int cpuOperators = 0;
    int npuOperators = 0;
    std::int64_t macs = 0;
    std::int64_t npuCycles = 0;
    std::int64_t sramAccessCycles = 0;
    std::int64_t dramAccessCycles = 0;
    std::int64_t onChipFlashAccessCycles = 0;
    std::int64_t offChipFlashAccessCycles = 0;
    std::int64_t totalCycles = 0;
    double inferenceMs = 0;
    double inferencesPerSecond = 0;
    bool summary = true;
    std::vector<VelaRowSpec> rows; ///< empty: no per-layer table
    std::vector<VelaListedCommandSpec> listing; ///< empty: no register listing
    std::optional<std::size_t> announcedWords; ///< nullopt: the listing's true word count
    VelaLogDamage damage;
};

/// Vela console output: the listing, then the per-layer table, then the summary (Vela's order),
/// with unrelated export output around them.
std::string writeVelaLog(const VelaLogSpec& spec);
/// Vela's `<name>_per-layer.csv` for the rows (damage: crlf, unknownColumn, dropColumn, cutAtByte).
std::string writeVelaPerLayerCsv(const VelaLogSpec& spec);

struct RunLogSpec {
    std::uint64_t programSize = 0; ///< 0: no "PTE Model data loaded" line
    int inferences = 1;
    int delegations = 1;
    std::vector<std::pair<std::string, std::uint64_t>> operatorCycles { { "ethos-u", 0 } };
    std::uint64_t inferenceRuntime = 0;
    double cpuRatio = 0;
    double npuRatio = 0;
    std::uint64_t cpuWaitForNpu = 0;
    std::uint64_t npuCycles = 0;
    std::vector<std::uint64_t> counters;
    std::vector<std::string> events;
    bool etLogPrefix = false; ///< "I [executorch:arm_perf_monitor.cpp:N StopMeasurements()] " before each line
    bool crlf = false;
    std::optional<std::size_t> cutAtByte;
};

/// The Arm executor runner's output around its StopMeasurements() report.
std::string writeRunLog(const RunLogSpec& spec);

} // namespace etscope::core
