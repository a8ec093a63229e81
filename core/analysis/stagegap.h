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
