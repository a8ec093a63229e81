// SPDX-License-Identifier: MIT
#include "ui/document/debugsession.h"

#include "core/debug/debugheat.h"
#include "core/debug/dumpcheck.h"
#include "core/debug/eventmapper.h"
#include "core/debug/runtimeprofile.h"
#include "core/document/etrecordgraphs.h"
#include "core/vendorlogs/runlog.h"
#include "core/vendorlogs/velalog.h"
#include "core/why/partitionlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;

namespace {

/// Thrown from a row sink when the user stops a read: the core readers have no way to stop
/// but their exception boundary (core/util/guard.h), which turns it into an error; the flag
/// set beside the throw tells that error from a real one. Caught here too, should a reader
/// ever let it through.
struct ReadStopped { };

/// How often a streaming read looks at the cancel flag and reports its rows.
constexpr std::size_t kRowsPerCheck = 4096;

/// The first divergence of `gap` under the default thresholds.
DivergenceSummary summariseDivergence(const GapReport& gap, const EventMapper& mapper)
{
    const DivergenceRule rule;
    DivergenceSummary summary;
    summary.rows = gap.rows.size();
    summary.compared = static_cast<std::size_t>(std::count_if(gap.rows.begin(), gap.rows.end(), gapRowCompared));
    summary.thresholds = describeThresholds(rule.thresholds());
    summary.first = findFirstDivergence(gap, mapper, rule);
    if (summary.first && summary.first->row < gap.rows.size())
        summary.node = gap.rows[summary.first->row].label;
    return summary;
}

/// The run's node latencies as a heat table (nullopt when no node was timed); the profile's
/// problems go to `warnings`.
std::optional<HeatTable> latencyTable(const ETDump& run, const EventMapper& mapper, std::vector<Warning>& warnings)
{
    const RuntimeProfile profile = buildRuntimeProfile(run, mapper);
    warnings.insert(warnings.end(), profile.warnings.begin(), profile.warnings.end());
    if (profile.nodes.empty())
        return std::nullopt;
    HeatTable table = timingHeatTable(profile);
    table.title = "Latency — " + run.path();
    return table;
}

} // namespace

QStringList DebugSession::describe() const
{
    QStringList lines;
    if (etrecord)
        lines << QObject::tr("ETRecord: %1").arg(QString::fromStdString(etrecord->path));
    if (run)
        lines << QObject::tr("run: %1%2")
                     .arg(QString::fromStdString(run->path()),
                         run->buffer ? QObject::tr(" (with debug buffer)") : QString());
    if (reference)
        lines << QObject::tr("reference: %1").arg(QString::fromStdString(reference->path()));
    if (!inspectorPath.isEmpty())
        lines << QObject::tr("Inspector table: %1 (%2 rows)").arg(inspectorPath).arg(inspectorRows);
    for (const std::string& path : logs.vela)
        lines << QObject::tr("Vela log: %1").arg(QString::fromStdString(path));
    for (const std::string& path : logs.runs)
        lines << QObject::tr("runner log: %1").arg(QString::fromStdString(path));
    for (const std::string& path : logs.partitions)
        lines << QObject::tr("partition report: %1").arg(QString::fromStdString(path));
    return lines;
}

std::optional<std::vector<HeatTable>> DebugSession::heatTables(const Document& document, int methodIndex,
    std::vector<Warning>& warnings, const DebugWork* work, std::optional<DivergenceSummary>* divergence) const
{
    std::vector<HeatTable> tables;
    if (!document.program || methodIndex < 0 || static_cast<std::size_t>(methodIndex) >= document.methods.size())
        return tables;
    const Method& method = document.program->methods[static_cast<std::size_t>(methodIndex)];
    const Graph& graph = *document.methods[static_cast<std::size_t>(methodIndex)].graph;
    const EventMapper mapper(graph, etrecord.get(), method.name);

    std::optional<GapReport> gap;
    std::vector<HeatTable::Row> streamed; // Inspector rows, mapped as they are read
    if (run && reference) {
        gap = compareETDumps(*run, *reference, mapper);
    } else if (!inspectorPath.isEmpty()) {
        const QString name = QFileInfo(inspectorPath).fileName();
        std::optional<Result<GapReport>> imported;
        bool stopped = false;
        try {
            streamed.reserve(inspectorRows);
            imported = importInspectorTable(inspectorPath.toStdString(), mapper, inspectorMetric, [&](GapRow&& row) {
                streamed.push_back(gapHeatRow(row, true));
                if (work && streamed.size() % kRowsPerCheck == 0) {
                    if (work->stopped()) {
                        stopped = true;
                        throw ReadStopped {};
                    }
                    const std::size_t total = std::max<std::size_t>(inspectorRows, streamed.size());
                    work->report(static_cast<int>(streamed.size() * 100 / total),
                        QObject::tr("Mapping %1 onto %2: %L3 of %L4 rows")
                            .arg(name, QString::fromStdString(method.name))
                            .arg(streamed.size())
                            .arg(total));
                }
            });
        } catch (const ReadStopped&) {
            return std::nullopt;
        }
        if (stopped)
            return std::nullopt;
        if (*imported)
            gap = std::move(*imported).value();
        else
            warnings.push_back({ imported->error().message(), std::nullopt });
    } else if (run && document.bundled) {
        auto bundled = compareWithBundled(*run, *document.bundled, *document.program, mapper);
        if (bundled)
            gap = std::move(bundled).value();
        else
            warnings.push_back({ bundled.error().message(), std::nullopt });
    }
    if (gap) {
        warnings.insert(warnings.end(), gap->warnings.begin(), gap->warnings.end());
        // Streamed Inspector rows are not kept as GapRows: its first divergence is the CLI's
        // (`etscope gap --inspector … --first-divergence`).
        if (divergence && streamed.empty() && inspectorPath.isEmpty())
            *divergence = summariseDivergence(*gap, mapper);
        HeatTable table = gapHeatTable(*gap);
        if (!streamed.empty())
            table.rows = std::move(streamed);
        table.title = "Numeric gap — " + (gap->run.empty() ? std::string("run") : gap->run) + " vs "
            + (gap->reference.empty() ? std::string("reference") : gap->reference);
        tables.push_back(std::move(table));
    }
    // The gap comparisons check the run against the program themselves; a run shown only for
    // its timings is checked here, so another model's ETDump does not pass in silence.
    const bool runChecked = run && (reference || (document.bundled && inspectorPath.isEmpty()));
    if (run && !runChecked) {
        const auto fit = dumpFitWarnings(checkDumpFitsProgram(*run, mapper), "run " + run->path(), method.name);
        warnings.insert(warnings.end(), fit.begin(), fit.end());
    }
    if (run)
        if (auto latency = latencyTable(*run, mapper, warnings))
            tables.push_back(std::move(*latency));
    return tables;
}

std::optional<OperatorTable> DebugSession::operatorTable(const std::string& method) const
{
    if (!etrecord)
        return std::nullopt;
    auto table = etrecordOperatorTable(*etrecord, method);
    if (!table)
        return std::nullopt;
    return std::move(table).value();
}

std::optional<Error> attach(
    DebugSession& session, AttachKind kind, const QString& path, const QString& debugBuffer, const DebugWork* work)
{
    const std::string file = path.toStdString();
    const QString name = QFileInfo(path).fileName();
    if (work) {
        if (work->stopped())
            return makeError(Error::Code::Cancelled, file, "attaching stopped by the user");
        work->report(-1, QObject::tr("Reading %1…").arg(name));
    }
    switch (kind) {
    case AttachKind::Run:
    case AttachKind::Reference: {
        auto dump = readETDumpFile(file);
        if (!dump)
            return dump.error();
        if (!debugBuffer.isEmpty()) {
            if (auto error = attachDebugBuffer(*dump, debugBuffer.toStdString()))
                return error;
        } else if (auto error = attachDebugBufferOrDefault(*dump, {})) {
            return error;
        }
        auto shared = std::make_shared<const ETDump>(std::move(dump).value());
        (kind == AttachKind::Run ? session.run : session.reference) = std::move(shared);
        return std::nullopt;
    }
    case AttachKind::ETRecord: {
        auto record = readETRecordFile(file);
        if (!record)
            return record.error();
        session.etrecord = std::make_shared<const ETRecord>(std::move(record).value());
        return std::nullopt;
    }
    case AttachKind::InspectorTable: {
        // Checked whole now, so a bad table is refused when attached; its rows are not kept.
        std::size_t rows = 0;
        std::optional<Result<std::vector<Warning>>> checked;
        bool stopped = false;
        try {
            checked = readInspectorTableFile(file, [&](InspectorRow&&) {
                ++rows;
                if (work && rows % kRowsPerCheck == 0) {
                    if (work->stopped()) {
                        stopped = true;
                        throw ReadStopped {};
                    }
                    work->report(-1, QObject::tr("Reading %1: %L2 rows").arg(name).arg(rows));
                }
            });
        } catch (const ReadStopped&) {
            stopped = true;
        }
        if (stopped)
            return makeError(Error::Code::Cancelled, file, "attaching stopped by the user");
        if (!*checked)
            return checked->error();
        session.inspectorPath = path;
        session.inspectorRows = rows;
        return std::nullopt;
    }
    // Logs: read whole now, so a file that is no such log is refused when attached (naming it
    // and why); the node facts read it again when they are computed.
    case AttachKind::VelaLog: {
        auto log = vendor::readVelaLog(file);
        if (!log)
            return log.error();
        if (log->empty())
            return makeError(Error::Code::BadIdentifier, file,
                "is not a Vela log: no network summary, per-layer table or register listing in it");
        session.logs.vela.push_back(file);
        return std::nullopt;
    }
    case AttachKind::RunLog: {
        auto log = vendor::readRunLog(file);
        if (!log)
            return log.error();
        if (log->empty())
            return makeError(Error::Code::BadIdentifier, file,
                "is not a runner log: no \"Profiler report\" or \"Ethos-U PMU report\" in it");
        session.logs.runs.push_back(file);
        return std::nullopt;
    }
    case AttachKind::PartitionLog: {
        auto log = readPartitionLogFile(file);
        if (!log)
            return log.error();
        if (!log->recognised())
            return makeError(Error::Code::BadIdentifier, file,
                "is not a partition report: no Arm table, XNNPACK, QNN or Core ML partitioner line in it");
        session.logs.partitions.push_back(file);
        return std::nullopt;
    }
    }
    return std::nullopt;
}

std::vector<AttachKind> logKinds(const QString& path)
{
    std::vector<AttachKind> kinds;
    if (QFileInfo(path).fileName().compare(QLatin1String("partition_report.txt"), Qt::CaseInsensitive) == 0)
        kinds.push_back(AttachKind::PartitionLog);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return kinds;
    // The first MiB tells: the readers are bounded and never fail on text they do not know.
    constexpr qint64 kLook = qint64 { 1 } << 20;
    const QByteArray head = file.read(kLook);
    const std::string_view text(head.constData(), static_cast<std::size_t>(head.size()));
    const std::string name = path.toStdString();
    if (kinds.empty() && parsePartitionLog(text, name).recognised())
        kinds.push_back(AttachKind::PartitionLog);
    if (!vendor::parseRunLog(text, name).empty())
        kinds.push_back(AttachKind::RunLog);
    if (!vendor::parseVelaLog(text, name).empty())
        kinds.push_back(AttachKind::VelaLog);
    return kinds;
}

std::optional<AttachKind> debugArtifactKind(const QString& path, bool haveRun)
{
    const QString name = QFileInfo(path).fileName().toLower();
    if (name.endsWith(QLatin1String(".etdp")) || name.endsWith(QLatin1String(".etdump")))
        return haveRun ? AttachKind::Reference : AttachKind::Run;
    if (name == QLatin1String("etrecord.bin") || name.endsWith(QLatin1String(".etrecord")))
        return AttachKind::ETRecord;
    // A log, by its content, before the Inspector table its extension may suggest.
    for (const char* extension : { ".log", ".txt", ".csv", ".out" })
        if (name.endsWith(QLatin1String(extension)))
            if (const auto kinds = logKinds(path); !kinds.empty())
                return kinds.front();
    // Tables as the Inspector saved them, or as printed and pasted into a text or Markdown file.
    for (const char* extension : { ".csv", ".tsv", ".json", ".txt", ".md" })
        if (name.endsWith(QLatin1String(extension)))
            return AttachKind::InspectorTable;
    return std::nullopt;
}

QStringList attachCompanions(DebugSession& session, const Program& programData, const QString& programPath,
    std::vector<Warning>& warnings, const DebugWork* work)
{
    QStringList attached;
    const QFileInfo program(programPath);
    const QDir folder = program.absoluteDir();
    const QString stem = program.completeBaseName();
    const std::pair<AttachKind, QString> candidates[] = {
        { AttachKind::ETRecord, folder.filePath(QStringLiteral("etrecord.bin")) },
        { AttachKind::ETRecord, folder.filePath(stem + QStringLiteral(".etrecord")) },
        { AttachKind::Run, folder.filePath(stem + QStringLiteral(".etdp")) },
        { AttachKind::Reference, folder.filePath(stem + QStringLiteral(".reference.etdp")) },
        // Arm's flow writes it into its intermediates folder (the CLI's `why` reads it too).
        { AttachKind::PartitionLog, folder.filePath(QStringLiteral("partition_report.txt")) },
    };
    for (const auto& [kind, path] : candidates) {
        if (!QFileInfo(path).isFile() || (kind == AttachKind::ETRecord && session.etrecord))
            continue;
        if (work && work->stopped())
            break;
        if (auto error = attach(session, kind, path, {}, work)) {
            if (error->code != Error::Code::Cancelled)
                warnings.push_back({ "not attached: " + error->message(), std::nullopt });
            continue;
        }
        if (kind == AttachKind::ETRecord)
            if (const auto why = etrecordMismatch(*session.etrecord, programData)) {
                warnings.push_back(
                    { foreignETRecordMessage(path.toStdString(), programPath.toStdString(), *why), std::nullopt });
                session.etrecord = nullptr;
                continue;
            }
        attached << path;
    }
    return attached;
}

} // namespace etscope::ui
