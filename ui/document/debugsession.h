// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/debug/programgap.h"
#include "core/document/document.h"
#include "core/stats/operatortable.h"
#include "core/table/heattable.h"
#include "ui/document/nodefacts.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace etscope::ui {

/// Lets a worker reading debug data stop early and say how far it got (issue 27 #13: reads
/// of ETDumps, ETRecords and Inspector tables run off the UI thread).
struct DebugWork {
    const std::atomic<bool>* cancel = nullptr;
    /// `percent` in [0, 100], or -1 when the end is not known (a table being counted).
    std::function<void(int percent, const QString& text)> progress;
    bool stopped() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(int percent, const QString& text) const
    {
        if (progress)
            progress(percent, text);
    }
};

/// The first divergence of a method's numeric gap (issue 24 #2): the first row, in execution
/// order, whose gap crosses the default thresholds (core::defaultDivergenceThresholds), found on
/// the heat worker beside the gap table it comes from.
struct DivergenceSummary {
    std::optional<core::FirstDivergence> first; ///< nullopt: no row crosses
    std::string node; ///< first: the node as the row names it ("#8 aten::addmm.out")
    std::size_t rows = 0; ///< rows of the gap report
    std::size_t compared = 0; ///< rows with something measured
    std::string thresholds; ///< "snr < 20 dB or rel > 0.1"
};

/// The debug artifacts attached to one open program: an ETRecord, the ETDump of a run (with its
/// debug buffer), a reference ETDump, an imported Inspector gap table. Plain data; the heat
/// tables for a method are derived on demand.
struct DebugSession {
    std::shared_ptr<const core::ETRecord> etrecord;
    std::shared_ptr<const core::ETDump> run;
    std::shared_ptr<const core::ETDump> reference;
    /// An attached Inspector table is read again, streaming, whenever its heat table is built:
    /// a million-row table is never held, only what is shown.
    QString inspectorPath;
    std::size_t inspectorRows = 0; ///< counted when attached
    core::GapMetric inspectorMetric = core::GapMetric::Mse;
    /// Logs read by the node facts (nodefacts.h): each checked when attached, read again when
    /// the facts are computed (no more than a few MiB of text).
    FactLogs logs;

    bool empty() const { return !etrecord && !run && !reference && inspectorPath.isEmpty(); }
    /// One line per attachment, for the status bar and the heatmap panel.
    QStringList describe() const;

    /// Heat tables for `method` of `document`: the numeric gap (run vs reference ETDump, else
    /// run vs the bundled program's expected outputs, else the imported Inspector table) and the
    /// run's node timings. Problems go to `warnings`; never fails. Reads an attached Inspector
    /// table again: with `work`, says how far (rows of inspectorRows) and stops when asked
    /// (nullopt then). Safe on a worker thread: reads only this session and `document`.
    /// `divergence`, when given, receives the first divergence of the numeric gap when one was
    /// computed from two runs or a run and the bundled outputs (left unset for an imported
    /// Inspector table, whose rows are streamed, and without a gap).
    std::optional<std::vector<core::HeatTable>> heatTables(const core::Document& document, int method,
        std::vector<core::Warning>& warnings, const DebugWork* work = nullptr,
        std::optional<DivergenceSummary>* divergence = nullptr) const;

    /// The exact get_delegation_info table from the ETRecord, when one is attached and holds
    /// the method's edge program.
    std::optional<core::OperatorTable> operatorTable(const std::string& method) const;
};

/// What can be attached to a program: debug artifacts (the heat tables' data) and logs (the
/// node facts': a Vela log or its per-layer CSV, a runner log with its PMU report, a partition
/// report).
enum class AttachKind { Run, Reference, ETRecord, InspectorTable, VelaLog, RunLog, PartitionLog };

/// What a file is as a debug artifact, by its name: an ETDump (.etdp: the run, or the reference
/// when `haveRun`), an ETRecord (etrecord.bin, *.etrecord) or an Inspector gap table (.csv,
/// .tsv, .json (pandas to_json), .txt, .md: what the attach dialog offers); nullopt for anything
/// else (programs, .ptd, unknown files). A text file (.log, .txt, .csv, .out) is first looked
/// into (logKinds): a log found there wins over the Inspector table its extension suggests.
std::optional<AttachKind> debugArtifactKind(const QString& path, bool haveRun);

/// The logs a text file holds, by its content (its first MiB): a partition report
/// ("partition_report.txt" by name, or any format core/why reads), a runner's PMU report, Vela
/// output or its per-layer CSV. One file may hold several (an Arm export's console log holds
/// the partition report and Vela's output). Empty for anything else or a file not read.
std::vector<AttachKind> logKinds(const QString& path);

/// Reads one artifact into `session`; the error names the file and the reason. An ETDump's
/// debug buffer is taken from `debugBuffer`, else from "<stem>.debug.bin" beside it. With
/// `work`, an Inspector table says how many rows it has read and the read stops when asked
/// (Error::Code::Cancelled; `session` is then unchanged). Runs on any thread.
std::optional<core::Error> attach(DebugSession& session, AttachKind kind, const QString& path,
    const QString& debugBuffer = {}, const DebugWork* work = nullptr);

/// Artifacts lying beside a program, by name: "etrecord.bin", "<stem>.etdp" (run) and
/// "<stem>.reference.etdp" (reference), each ETDump with "<stem>….debug.bin", and the
/// partition report Arm's flow writes, "partition_report.txt". An ETRecord that
/// is clearly another program's (etrecordMismatch) is left out. Returns what was attached;
/// failures and left-out files become warnings. Runs on any thread (the open worker calls it).
QStringList attachCompanions(DebugSession& session, const core::Program& program, const QString& programPath,
    std::vector<core::Warning>& warnings, const DebugWork* work = nullptr);

} // namespace etscope::ui
