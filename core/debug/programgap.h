// SPDX-License-Identifier: MIT
#pragma once

// The numeric gap across two builds of one model (issue 24): the run of program B against the
// run of program A (float portable vs quantized, CPU vs XNNPACK, before vs after a change). The
// node pairs come from outside (core/analysis/gappairing.h: diffPrograms' matching — debug
// handles from both ETRecords first, then execution-order alignment and operator families;
// core/debug sits below core/analysis), and each pair's logged outputs are compared where they
// agree in size, quantized outputs dequantized first. Also: the first divergence, in execution
// order, for this report and for the same-program reports of numericgap.h (two runs, bundled
// outputs, Inspector tables).

#include "core/debug/etdump.h"
#include "core/debug/eventmapper.h"
#include "core/debug/numericgap.h"
#include "core/pte/program.h"
#include "core/table/table.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

// ---------------------------------------------------------------------------------------------
// First divergence

/// One limit: a row diverges when its `metric` crosses `value`. Metrics are the five of
/// GapMetric ("mse", "l1", "snr", "cosine", "maxabs": SNR and cosine cross by falling below,
/// the others by rising above) and two scale-free ones:
///   "rel"  — max |a−b| / max |a|, the largest error relative to the reference's magnitude
///            (inf when the reference is all zeros and the run is not);
///   "jump" — imported Inspector gaps only: the row's gap above `value` × the median of the
///            table's positive gaps (the table says nothing about magnitudes).
struct DivergenceThreshold {
    std::string metric;
    double value = 0;
    bool operator==(const DivergenceThreshold&) const = default;
};

/// The default for compared values: snr < 20 dB or rel > 0.1. 20 dB is an error power of 1% of
/// the signal's; int8 per-tensor quantization of one tensor stays near 40 dB and 1/254 relative,
/// so a float-vs-quantized comparison does not flag rounding, while a wrong kernel, a bad scale
/// or a layout mix-up does. "rel" catches a few elements gone wild in a large tensor, where SNR
/// averages them away. For an imported Inspector table (`importedTable`): jump > 1000 alone —
/// the table's own gap is the Inspector's verdict, its printed tensors are often summarised or
/// rounded to 4 digits, and the gap's scale is unknown, so the outlier row is what stands out.
std::vector<DivergenceThreshold> defaultDivergenceThresholds(bool importedTable = false);

/// "snr=15", "rel=0.05", "maxabs=1e-3" (names as parseGapMetric takes them, plus rel and jump).
/// Error::Usage naming the text when the metric is unknown or the value is no finite number.
Result<DivergenceThreshold> parseDivergenceThreshold(std::string_view text);

/// "snr < 20 dB or rel > 0.1 or jump > 1000".
std::string describeThresholds(const std::vector<DivergenceThreshold>& thresholds);

/// Where a row crossed: the first threshold (in the order given) that it crosses.
struct Crossing {
    std::string metric;
    double value = 0; ///< the row's value of that metric (NaN crosses every limit)
    double threshold = 0;
    std::string text; ///< "snr 3.1 dB < 20 dB", "rel 0.52 > 0.1"
};

/// Applies thresholds to GapRows. "jump" needs every row's imported gap first (observe), since
/// its baseline is the table's median.
class DivergenceRule {
public:
    explicit DivergenceRule(std::vector<DivergenceThreshold> thresholds = defaultDivergenceThresholds(),
        std::optional<GapMetric> importedMetric = std::nullopt);
    /// First pass: the row's imported gaps join the baseline of "jump".
    void observe(const GapRow& row);
    /// The crossing of this row, or nullopt when it stays within every limit (or has nothing to
    /// measure: no metrics, no imported gap).
    std::optional<Crossing> crosses(const GapRow& row) const;
    const std::vector<DivergenceThreshold>& thresholds() const { return m_thresholds; }
    std::optional<double> jumpBaseline() const;

private:
    std::vector<DivergenceThreshold> m_thresholds;
    std::optional<GapMetric> m_imported;
    mutable std::vector<double> m_gaps; ///< positive finite imported gaps (sorted lazily)
    mutable bool m_sorted = true;
};

/// The first row of a report that crosses a threshold. Node origins are the selection the app
/// shows (top-level node, and the inner node of a delegate when the row is inside one); `path`
/// is the same as text: "forward › #0 XnnpackBackend › XNNClamp".
struct FirstDivergence {
    std::size_t row = 0; ///< index into the report's rows
    Crossing crossing;
    NodeOrigin runNode;
    std::vector<std::string> path; ///< method, then the node's label, then the inner node's label
    std::optional<NodeOrigin> referenceNode; ///< program gap: the paired node of the reference program
    std::vector<std::string> referencePath;
    std::size_t comparedBefore = 0; ///< rows with metrics before it, all within the limits
};

/// "forward › #3 aten::relu.out".
std::string joinNodePath(const std::vector<std::string>& path);

/// The node path of a placement: method, the top-level label ("#4 aten::addmm.out" for an
/// instruction), the inner label when inside a delegate.
std::vector<std::string> nodePath(const EventMapper& mapper, const NodeOrigin& origin);

/// The divergence at row `index` of a same-program report (`crossing` found by the rule): its
/// node, its path (the delegate debug identifier last when the row is inside a delegate but on
/// no inner node), and how many compared rows came before it.
FirstDivergence divergenceAt(
    const GapRow& row, std::size_t index, Crossing crossing, const EventMapper& mapper, std::size_t comparedBefore);

/// The first divergence of a same-program report (numericgap.h), in row order.
std::optional<FirstDivergence> findFirstDivergence(
    const GapReport& report, const EventMapper& mapper, DivergenceRule rule = DivergenceRule());

// ---------------------------------------------------------------------------------------------
// Gap across two programs

/// One side of the comparison: the method compared, the mapper of its events on that method's
/// graph (built with that side's ETRecord when there is one) and its ETDump run.
struct ProgramRun {
    std::string program; ///< the program's path, for messages
    const Method* method = nullptr;
    const EventMapper* mapper = nullptr;
    const ETDump* dump = nullptr;
    std::size_t block = 0; ///< Execute block (0-based among Execute blocks)
};

struct ProgramGapRow {
    GapRow run; ///< the run's node, its shape and dtype, the metrics and the problem
    NodeOrigin referenceOrigin;
    std::string referenceLabel; ///< "#3 aten::relu.out", "XnnpackBackend › XNNClamp", "output 0"
    InstructionId referenceInstruction;
    std::vector<std::int64_t> referenceShape;
    std::string referenceDtype;
    /// How the two nodes were paired: "debug handle", "execution order", "rank",
    /// "operator family" (moved into or out of a delegate), "position" (program inputs/outputs).
    std::string matchedBy;
    std::string change; ///< diff's reason when the pair is not the same ("operator aten::relu.out → XNNClamp")
    /// "run dequantized (scale 0.05, zero_point -3)", "; "-joined for both sides; empty when neither was.
    std::string dequantized;
};

struct ProgramGapReport {
    std::string run; ///< "B.etdp (Execute block 0 of 1), program B.pte"
    std::string reference;
    std::string method;
    std::string matching; ///< diff's method matching: "aligned", "rank", "debug handles + aligned", …
    std::vector<ProgramGapRow> rows; ///< the run's execution order, program outputs last
    std::size_t pairs = 0; ///< node pairs diff found
    std::size_t runOnly = 0; ///< logged nodes of the run with no partner in the reference
    std::size_t referenceOnly = 0;
    std::vector<std::string> runOnlyOps; ///< "quantized_decomposed::quantize_per_tensor.out ×3", …
    std::size_t notLoggedInside = 0; ///< pairs whose delegate-inner side logged nothing (not shown)
    std::vector<Warning> warnings;
};

/// A node of the reference and its partner in the run; one side empty for a node only one
/// program has.
struct NodePair {
    std::optional<NodeOrigin> reference;
    std::optional<NodeOrigin> run;
    std::string matchedBy; ///< as ProgramGapRow::matchedBy
    std::string change;
};

struct NodePairing {
    std::string matching; ///< how the method was matched as a whole ("aligned", "debug handles + rank", …)
    std::vector<NodePair> pairs;
    std::vector<Warning> warnings;
};

struct ProgramGapOptions {
    std::uint64_t maxElements = 1ull << 26;
};

/// Compares the outputs each pair of `pairing` logged. Never fails on data: what cannot be
/// compared becomes a row problem or a warning naming the file (different models, runs of
/// different lengths, shapes that disagree, an 8-bit output without quantization parameters).
/// Error::Usage only when an argument is missing (a null method, mapper or dump).
Result<ProgramGapReport> compareProgramRuns(const ProgramRun& run, const ProgramRun& reference,
    const NodePairing& pairing, const ProgramGapOptions& options = {});

/// The quantization parameters a program states for output `output` of a node (top-level or
/// inner): its own arguments when it is quantize_per_tensor; else those of a
/// dequantize_per_tensor reading it; else, for a delegate call or a delegate's inner node, the
/// per-tensor quantization of the delegate's external output it writes. nullopt when none.
struct QuantParams {
    double scale = 1;
    std::int64_t zeroPoint = 0;
    std::string source; ///< "quantize_per_tensor #4", "dequantize_per_tensor #5", "XnnpackBackend output 1"
};
/// `adjacency` (graph.adjacency(), optional) spares a scan of every edge per call.
std::optional<QuantParams> statedQuantization(const Graph& graph, const Method& method, const NodeOrigin& origin,
    int output, const GraphAdjacency* adjacency = nullptr);

/// The table: #, node (run), node (reference), matched_by, instruction, output, shape, dtype,
/// the chosen metric (or all five), dequantized, change, problem; notes: reference and run,
/// matching, counts of unpaired nodes, warnings. `forJson` as in gapTable.
Table programGapTable(
    const ProgramGapReport& report, std::optional<GapMetric> only = std::nullopt, bool forJson = false);

/// The first divergence of a program report.
std::optional<FirstDivergence> findFirstDivergence(const ProgramGapReport& report, const EventMapper& runMapper,
    const EventMapper& referenceMapper, const DivergenceRule& rule = DivergenceRule());

/// Rows with something to measure (metrics or an imported gap).
bool gapRowCompared(const GapRow& row);

/// What `gap --first-divergence` prints: the node and path, the crossing, the row's facts (`row`:
/// the diverging row, `pair` its program-gap row when there is one); or "no divergence" with the
/// number of rows compared.
std::vector<std::string> firstDivergenceLines(const std::optional<FirstDivergence>& divergence, const GapRow* row,
    std::size_t rows, std::size_t compared, const DivergenceRule& rule, const ProgramGapRow* pair = nullptr);

} // namespace etscope::core
