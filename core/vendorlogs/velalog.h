// SPDX-License-Identifier: MIT
// Vela's own figures, read from its console output (`vela --verbose-performance`,
// `--verbose-all`, as printed by ExecuTorch's Arm export) or from its per-layer CSV
// (`<name>_per-layer.csv`): the network summary, the per-layer performance table and the
// register command stream listing. Issue 34, item 3.
//
// Formats, read in Vela's source (github.com/nxp-imx/ethos-u-vela, a mirror of Arm's Vela):
// - network summary: ethosu/vela/stats_writer.py print_performance_metrics_for_strat
//   ("Network summary for NAME", then "LABEL   VALUE UNIT" lines; @ 0265f402);
// - per-layer table and CSV: ethosu/vela/vela.py print_regor_perlayer_performance and
//   write_regor_perlayer_performance_csv (@ b288ad78): the header "Performance for NPU Grap NAME"
//   (sic), column names Original Operator, NNG Operator, Target, Staging Usage, Peak% (Staging),
//   Op Cycles, Network% (cycles), NPU, SRAM AC, DRAM AC, OnFlash AC, OffFlash AC, MAC Count,
//   Network% (MAC), Util% (MAC), Name; the CSV has the same names comma-separated. Older Vela
//   (npu_performance.py) wrote TFLite_operator / SRAM Usage / Peak% / Network% (twice) / Util%,
//   the aliases Arm's MLIA accepts (github.com/arm/mlia-ethos-u src/mlia/backend/vela/per_layer.py
//   @ c889d30d, performance.py);
// - register listing: "Register command stream: N words", then one line per command
//   "0xOFFSET: [PAYLOAD] PARAM CODE - NAME  PARAM, field = value, …" (hex payload only for
//   commands with a second word) and "// <operation> …" lines before each operation's commands
//   (read off the shared sample modelnova/rps_model_conversion_20260219_041725.log).
//
// Reading never fails on content: anything unreadable becomes a warning "FILE:LINE: reason" and
// the rest is used. readVelaLog fails only when the file cannot be opened.
#pragma once

#include "core/util/result.h"
#include "core/vendorlogs/logtext.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::vendor {

/// One line of a network summary as printed: "Total SRAM used   960.27 KiB".
struct SummaryField {
    std::string label; ///< whitespace collapsed: "Total SRAM used"
    std::string value; ///< the value as printed: "960.27", "Ethos_U85_256"
    std::optional<double> number; ///< the value when it is a number
    std::string unit; ///< the word after the number: "KiB", "cycles/batch"; empty for text values
    std::string rest; ///< what follows the unit: "(batch size 1)"
    std::size_t line = 0;
};

/// "Network summary for NAME" and every field under it. The typed members are the fields the
/// joins and the CLI use; `fields` holds every line read, in order ("every field").
struct VelaSummary {
    std::string network; ///< NAME after "Network summary for"
    std::size_t line = 0;
    std::vector<SummaryField> fields;

    std::string accelerator; ///< "Ethos_U85_256"
    std::string systemConfiguration; ///< "Ethos_U85_SRAM_MRAM"
    std::string memoryMode; ///< "Shared_Sram"
    std::optional<double> clockMHz;
    std::optional<std::int64_t> cpuOperators;
    std::optional<std::int64_t> npuOperators;
    std::optional<std::int64_t> macs; ///< "Neural network macs", MACs per batch
    std::optional<std::int64_t> npuCycles; ///< cycles per batch
    std::optional<std::int64_t> sramAccessCycles;
    std::optional<std::int64_t> dramAccessCycles;
    std::optional<std::int64_t> onChipFlashAccessCycles;
    std::optional<std::int64_t> offChipFlashAccessCycles;
    std::optional<std::int64_t> totalCycles;
    std::optional<double> inferenceTimeMs; ///< "Batch Inference time"
    std::optional<double> inferencesPerSecond;
    std::optional<std::int64_t> batchSize;

    /// The field whose label is `label` (compared with whitespace collapsed, case ignored).
    const SummaryField* find(std::string_view label) const;
};

/// The per-layer table's columns, by meaning (aliases of old and new Vela map to one).
enum class LayerColumn : std::uint8_t {
    OriginalOperator,
    NngOperator,
    Target,
    StagingUsage,
    PeakStagingPercent,
    OpCycles,
    NetworkCyclesPercent,
    NpuCycles,
    SramAccessCycles,
    DramAccessCycles,
    OnChipFlashAccessCycles,
    OffChipFlashAccessCycles,
    MacCount,
    NetworkMacPercent,
    UtilMacPercent,
    Name,
    Count
};
std::string_view layerColumnName(LayerColumn column); ///< the current Vela header: "Op Cycles"

/// One row of the per-layer table: one operation as Vela scheduled it. A value missing from the
/// row (column absent or unreadable) is nullopt / empty.
struct VelaLayerRow {
    std::size_t line = 0;
    std::string originalOperator; ///< "Conv2D"
    std::string nngOperator; ///< "Conv2D", "MemoryCopy", "Clamp"
    std::string target; ///< "NPU" or "CPU"
    std::string name; ///< the FX/TOSA name: "aten_clamp_default_3"
    std::optional<std::int64_t> stagingUsage;
    std::optional<double> peakStagingPercent;
    std::optional<std::int64_t> opCycles;
    std::optional<double> networkCyclesPercent;
    std::optional<std::int64_t> npuCycles;
    std::optional<std::int64_t> sramAccessCycles;
    std::optional<std::int64_t> dramAccessCycles;
    std::optional<std::int64_t> onChipFlashAccessCycles;
    std::optional<std::int64_t> offChipFlashAccessCycles;
    std::optional<std::int64_t> macCount;
    std::optional<double> networkMacPercent;
    std::optional<double> utilMacPercent;
};

struct VelaLayerTable {
    std::string graph; ///< after "Performance for NPU Grap" ("" for a CSV)
    std::size_t line = 0; ///< of the title (or the CSV header)
    bool csv = false;
    std::vector<std::string> columns; ///< as printed, in order
    std::vector<VelaLayerRow> rows;
};

/// One `field = value` of a listed command.
struct ListedField {
    std::string name; ///< "addr", "activation_precision"
    std::string value; ///< "0xc4000", "ACTIVATION_PRECISION_B8"
};

/// One command of the register listing.
struct ListedCommand {
    std::size_t line = 0;
    std::uint32_t offset = 0; ///< byte offset in the command stream
    std::uint16_t code = 0; ///< the first word's low half (opcode and control bits)
    std::uint16_t param = 0; ///< the first word's high half
    std::optional<std::uint32_t> payload; ///< the second word, for commands that have one
    std::string name; ///< "NPU_SET_IFM_BASE0"
    std::vector<ListedField> fields;
    int operation = -1; ///< index into RegisterListing::operations of the "//" line above, -1 none

    std::uint32_t word() const { return static_cast<std::uint32_t>(param) << 16 | code; }
    std::uint32_t size() const { return payload ? 8 : 4; }
    const ListedField* field(std::string_view fieldName) const;
};

/// A "// <Op> , subOps: …, size=…" (or "// DMA src: …") line and the commands after it.
struct ListedOperation {
    std::size_t line = 0;
    std::string text; ///< the line after "// "
    std::string kind; ///< its first word: "Conv2D", "MemoryCopy", "DMA"
    std::vector<std::string> subOps; ///< fused operators after "subOps:" ("Clamp"); empty for "-"
    std::size_t firstCommand = 0; ///< index into RegisterListing::commands
};

/// "Register command stream: N words" and the listing under it.
struct RegisterListing {
    std::size_t line = 0;
    std::optional<std::uint64_t> announcedWords;
    std::vector<ListedCommand> commands;
    std::vector<ListedOperation> operations;
    /// Offsets where commands are missing (a command does not start where the previous ended).
    std::vector<std::uint32_t> gaps;

    /// Every command is present, back to back, covering the announced words.
    bool complete() const;
    /// The words the listing shows, little-endian bytes in stream order (commands back to back;
    /// a gap leaves the rest out).
    std::vector<std::uint8_t> bytes() const;
    std::uint64_t listedWords() const;
};

/// Everything read from one Vela log. A log may hold several Vela runs (one per delegate).
struct VelaLog {
    std::string path;
    std::vector<VelaSummary> summaries;
    std::vector<VelaLayerTable> tables;
    std::vector<RegisterListing> listings;
    std::vector<Warning> warnings;
    std::size_t lines = 0;

    bool empty() const { return summaries.empty() && tables.empty() && listings.empty(); }
};

/// Reads Vela console output or a per-layer CSV from `text`; `name` names it in warnings.
/// Never fails: a log with nothing Vela wrote gives an empty VelaLog and a warning.
VelaLog parseVelaLog(std::string_view text, std::string_view name, const LogLimits& limits = {});

/// As parseVelaLog, from a file (mapped, read line by line). Fails only when the file cannot
/// be opened or is empty (Error::Io / Error::Empty, naming the file).
Result<VelaLog> readVelaLog(const std::string& path, const LogLimits& limits = {});

namespace detail {
/// One listing line ("0x000008: 000c4000 0000 4000 - NPU_SET_IFM_BASE0  0, addr = 0xc4000");
/// nullopt with `why` set when it is not one. For velalisting.cpp and its tests.
std::optional<ListedCommand> parseListedCommand(std::string_view text, std::string& why);
} // namespace detail

} // namespace etscope::core::vendor
