// SPDX-License-Identifier: MIT
#pragma once

// Stages (issue 24, part 3): one model, several builds in order — the float portable run, the
// quantized run, the delegated run, … — in one table. Stage 0 is the reference: its logged
// outputs, in its execution order, are the rows; every later stage is compared with it
// (compareProgramRuns over diff's node pairing, core/analysis/gappairing.h) and gives a column of
// the chosen metric and a column saying how its node was paired. Lives in core/analysis because
// the pairing does (core/debug sits below core/analysis).

#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/debug/eventmapper.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/debug/programgap.h"
#include "core/document/document.h"
#include "core/table/table.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// One stage: a program, one run of it and optionally its ETRecord. Everything is borrowed and
/// must outlive the comparison. `mapper` maps events on `method`'s graph (built with `record`).
struct Stage {
    std::string name; ///< the column's name: the program's file name ("quantized.pte")
    const Document* document = nullptr;
    const Method* method = nullptr;
    const EventMapper* mapper = nullptr;
    const ETDump* dump = nullptr;
    const ETRecord* record = nullptr;
    std::size_t block = 0; ///< the Execute block compared
    /// When set, describes the run in the notes instead of `dump`'s Execute block (a table stage:
    /// "Inspector table t.csv, aot_intermediate_output, 5 of 6 row(s) placed").
    std::string run;
};

/// What one later stage says about one row of stage 0.
struct StageCell {
    bool paired = false; ///< the stage logged a partner of this output
    std::string node; ///< the stage's node ("#8 aten::addmm.out")
    std::string matchedBy; ///< as ProgramGapRow::matchedBy
    std::optional<GapMetrics> metrics;
    std::string problem; ///< why `metrics` is absent, or a caveat
    std::string dequantized;
};

/// One logged output of stage 0, in stage 0's execution order (program outputs last).
struct StageRow {
    NodeOrigin origin; ///< on stage 0's graph
    std::string label; ///< stage 0's node
    InstructionId instruction;
    int outputIndex = 0;
    std::vector<std::int64_t> shape;
    std::string dtype;
    std::vector<StageCell> cells; ///< one per stage; cells[0] (the reference itself) stays empty
};

/// Per later stage: the pairing, the first divergence and what could not be joined.
struct StageSummary {
    std::string matching; ///< diff's method matching
    std::size_t pairs = 0;
    std::size_t compared = 0; ///< rows of this stage with metrics
    std::size_t unjoined = 0; ///< logged outputs of this stage paired with nothing stage 0 logged
    std::optional<std::size_t> firstDivergence; ///< index into StageGapReport::rows
    std::string firstDivergenceText; ///< "forward › #8 aten::addmm.out: snr 3.1 dB < 20 dB", or "none (…)"
};

struct StageGapReport {
    std::string method;
    std::vector<std::string> names; ///< column names, unique ("quantized.pte", "quantized.pte (2)")
    std::vector<std::string> sources; ///< "B.pte, B.etdp (Execute block 0 of 1)"
    std::vector<StageRow> rows;
    std::vector<StageSummary> summaries; ///< one per stage; [0] empty
    std::vector<Warning> warnings; ///< each names the stage's files
    std::vector<DivergenceThreshold> thresholds; ///< those the first divergences were found with
};

/// An Inspector table as a stage (issue 24 #3, "an Inspector table from the eager/AOT model"):
/// the table's aot_intermediate_output values — the eager/AOT model's, never the runtime
/// column — placed on a program's graph by InspectorGapMapper (debug handles through the
/// ETRecord, else runtime op order) and held as a run of one Execute block whose events log
/// them as float32 tensors (the eager model's dtype and the program's; the printed decimals
/// are rounded to it). Such a run then goes through compareStages like any ETDump.
/// Only top-level nodes are filled: a row placed on a node inside a delegate, a row without
/// AOT values, a row whose AOT tensor was printed summarised ("…"), a second row on a node
/// already filled, are left out and counted in one warning each, naming the table.
struct TableStageRun {
    ETDump dump; ///< in memory; its path and its debug buffer's path are the table's
    std::size_t rows = 0; ///< rows read
    std::size_t placed = 0; ///< rows whose AOT values the run logs
    std::string description; ///< "Inspector table t.csv (aot_intermediate_output, 5 of 6 row(s) placed)"
    std::vector<Warning> warnings; ///< the table's reading warnings, then the placement's
};

/// The rows of `table` (already read) as a stage run on `mapper`'s graph.
TableStageRun tableStageRun(const InspectorTable& table, const EventMapper& mapper, const std::string& path);

/// Reads the table file (as readInspectorTableFile: CSV, TSV, JSON or printed; at most
/// `maxBytes`) straight into a stage run; only the placed AOT values are kept. Fails as the
/// reader does (missing file, malformed text, too large).
Result<TableStageRun> readTableStageRun(
    const std::string& path, const EventMapper& mapper, std::uint64_t maxBytes = kMaxInspectorTableBytes);

/// Compares stages 1… with stage 0. Error::Usage with fewer than two stages ("give at least two
/// --stage") or a stage missing its document, method, mapper or run. Never fails on data:
/// different models, runs of different lengths and unpaired nodes leave cells empty and add a
/// warning naming the stage's file.
Result<StageGapReport> compareStages(const std::vector<Stage>& stages, const DivergenceRule& rule = DivergenceRule(),
    const ProgramGapOptions& options = {});

/// The metric a stage table shows when none is asked for: SNR in dB (scale-free, higher is
/// better, read alike across tensors of any magnitude; identical outputs give inf).
constexpr GapMetric kDefaultStageMetric = GapMetric::Snr;

/// #, node, instruction, output, shape, dtype, then per later stage "<name> <metric>" and
/// "<name> matched_by" (and, forJson, "<name> problem"); notes: the stages, each stage's first
/// divergence and counts, warnings. JSON: non-finite metrics are null (a note says so).
Table stageGapTable(const StageGapReport& report, GapMetric metric = kDefaultStageMetric, bool forJson = false);

} // namespace etscope::core
