// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/eventmapper.h"
#include "core/pte/bundledprogram.h"
#include "core/table/table.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

enum class GapMetric { Mse, L1, Snr, Cosine, MaxAbs };

/// "mse", "l1", "snr", "cosine", "maxabs".
std::string_view gapMetricName(GapMetric metric);
/// Case-insensitive; nullopt for unknown names.
std::optional<GapMetric> parseGapMetric(std::string_view name);
/// False for SNR and cosine similarity, where larger means closer.
bool gapHigherIsWorse(GapMetric metric);
/// What a metric is for two equal tensors: 0 for mse, l1 and maxabs, +inf for SNR, 1 for cosine.
double gapIdenticalValue(GapMetric metric);

/// The five distances between a reference (a) and a run (b), computed in float64 after
/// replacing NaN by 0 (facts sheet §7): MSE = mean((a−b)²); L1 = Σ|a−b| (a sum, as the
/// Inspector has it); SNR = 10·log10(mean(a²)/MSE) dB (+inf when identical, also for two
/// all-zero tensors where the Inspector prints nan); cosine = a·b / (|a|·|b|), 1 when both
/// norms are 0 (identical) and 0 when only one is; max |a−b|. inf in the values can make any
/// of them NaN (inf − inf), max |a−b| included.
struct GapMetrics {
    double mse = 0;
    double l1 = 0;
    double snr = 0;
    double cosine = 0;
    double maxAbs = 0;
    double referenceMaxAbs = 0; ///< max |a| (NaN read as 0): the scale of "relative" thresholds (programgap.h)
    double value(GapMetric metric) const;
};

/// Both spans must have the same, non-zero length (the caller checks).
GapMetrics computeGapMetrics(std::span<const double> reference, std::span<const double> run);

/// The numbers of one logged value, in logical order, or why there are none.
struct LoggedNumbers {
    std::vector<double> values;
    std::vector<std::int64_t> shape;
    std::string dtype; ///< "FLOAT", "CHAR" for tensors; "Int", "Double" for scalars
    int scalarType = -1; ///< tensors: the §1.5 scalar type
    std::string problem;
};

/// Tensor `tensorIndex` of a Tensor/TensorList event (at most `maxElements` values), or the
/// scalar of an Int/Bool/Float/Double event.
LoggedNumbers loggedNumbers(
    const ETDump& dump, const DebugEvent& event, std::size_t tensorIndex, std::uint64_t maxElements);

/// One compared value: an output of one node in execution order.
struct GapRow {
    NodeOrigin origin;
    bool matched = false; ///< the row found a node of the graph
    std::string label; ///< node label ("aten::add.out", "XnnpackBackend › XNNConv2d", "output 0")
    std::string runtimeOp; ///< event or op name as the runtime knows it
    InstructionId instruction;
    int outputIndex = 0; ///< which output of the node
    std::string delegateIdentifier;
    std::vector<std::int64_t> shape; ///< of the run side
    std::string dtype; ///< of the run side
    std::vector<DebugHandle> debugHandles;
    std::vector<std::string> aotOps; ///< ETRecord / Inspector node names
    std::optional<GapMetrics> metrics; ///< absent when the values could not be compared
    std::vector<double> imported; ///< the Inspector's own `gap` list (imported tables)
    std::string problem; ///< why `metrics` is absent, or a caveat
};

struct GapReport {
    std::string mode; ///< "etdump", "bundled" or "inspector"
    /// What the reference side is: "FILE (Execute block 0 of 3)", "FILE (test case 2 of 10: expected outputs)".
    std::string reference;
    std::string run; ///< "FILE (Execute block 1 of 3)"
    std::size_t runBlock = 0; ///< the Execute block of the run compared (0-based among Execute blocks)
    std::size_t runBlocks = 0; ///< how many Execute blocks the run has
    std::size_t referenceBlock = 0; ///< etdump mode: the Execute block of the reference compared
    std::size_t referenceBlocks = 0;
    std::optional<int> testCase; ///< bundled mode: the test case compared
    std::size_t testCases = 0; ///< bundled mode: how many the method's suite has
    std::optional<GapMetric> importedMetric; ///< inspector mode: the distance the table holds
    std::vector<GapRow> rows; ///< execution order
    std::vector<Warning> warnings;
};

struct GapOptions {
    std::size_t runBlock = 0; ///< which Execute block of the run (0 = the first)
    std::size_t referenceBlock = 0; ///< which Execute block of the reference ETDump
    std::optional<int> testCase; ///< bundled mode: default the run's bundled_input_index, else 0
    std::uint64_t maxElements = 1ull << 26;
};

/// "FILE (Execute block 1 of 3)": which run of a file a report used (block 0-based).
std::string describeExecuteBlock(const ETDump& dump, std::size_t block);

/// Compares the intermediate outputs of two ETDumps of the same program, per instruction (and
/// delegate identifier), plus the program outputs. Delegate calls compare only their outputs:
/// the last num_outs logged args (ETRecord map, else the graph's input/output split). Never
/// fails: values that cannot be read become rows with `problem` set ("shapes differ: …" when
/// run and reference logged different shapes); missing blocks a warning. Both compared blocks
/// are checked against the program (checkDumpFitsProgram) and both debug buffers against
/// other file kinds (checkDebugBufferKind): disagreements become a few warnings.
GapReport compareETDumps(
    const ETDump& run, const ETDump& reference, const EventMapper& mapper, const GapOptions& options = {});

/// Compares the program outputs of one ETDump run with the expected outputs of a bundled test
/// case (`program` supplies the bytes: the bundled file). Error::Usage when the bundled program
/// has no suite for the mapper's method or no such test case.
Result<GapReport> compareWithBundled(const ETDump& run, const BundledProgram& bundled, const Program& program,
    const EventMapper& mapper, const GapOptions& options = {});

/// The report as a table: index, node, runtime op, instruction, output, shape, dtype, then the
/// chosen metric (or all five), the imported gap when present, aot_ops and the problem column.
/// Notes: the reference and the run (with their Execute block or test case), then every warning.
/// Metrics that are not finite stay doubles: +inf, -inf and a NaN of positive sign, which text
/// prints as inf, -inf and nan. JSON has no such numbers: with `forJson` a last column
/// `non_finite` names them per row ("snr=inf, cosine=nan"; empty when all are finite), because
/// JSON writes each of them as null.
Table gapTable(const GapReport& report, std::optional<GapMetric> only = std::nullopt, bool forJson = false);

/// "Numeric gap (inspector)" for the report mode "inspector".
std::string gapTableTitle(std::string_view mode);

/// The metric columns of a gap table: `only`, or all five.
std::vector<GapMetric> gapMetricColumns(std::optional<GapMetric> only);

/// Appends one cell per metric of `metrics` (empty cells when `values` is absent) and returns
/// what the JSON column non_finite says of them ("snr=inf, cosine=nan"; empty when finite).
std::string appendMetricCells(
    std::vector<TableCell>& cells, const std::optional<GapMetrics>& values, const std::vector<GapMetric>& metrics);

/// The parts of gapTable, for rendering a report a block of rows at a time (TableRenderer).
struct GapTableLayout {
    GapTableLayout(std::optional<GapMetric> only, bool imported, bool forJson);
    std::vector<std::string> columns() const;
    /// The cells of one row; `number` fills the "#" column.
    std::vector<TableCell> row(const GapRow& row, std::size_t number) const;
    /// Reference, run, what inspector_gap holds and the report's warnings.
    std::vector<std::string> notes(const GapReport& report) const;

    std::vector<GapMetric> metrics;
    bool imported = false;
    bool forJson = false;
};

} // namespace etscope::core
