// SPDX-License-Identifier: MIT
// `etscope gap --stage A.pte:a.etdp --stage B.pte:b.etdp …` (issue 24, part 3): several builds of
// one model in one table, each compared with the first stage, and optionally a plot of the
// metric along stage 0's execution order (--plot OUT.png|OUT.svg). A stage may be an Inspector
// table (`--stage A.pte:aot.csv[:a.etrecord]`): its AOT values on A's nodes.
#include "app/cli/gap.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/stagegap.h"
#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/debug/eventmapper.h"
#include "core/document/document.h"
#include "core/report/reports.h"
#include "core/util/atomicfile.h"
#include "ui/stageplot/stageplot.h"

#include <QFileInfo>
#include <QGuiApplication>

#include <iostream>
#include <list>

namespace etscope::app {

using namespace etscope::core;

namespace {

int stageUsage(const std::string& message)
{
    std::cerr << "etscope gap: " << message << " (see etscope --help)\n";
    return ExitUsage;
}

int stageFail(const Error& error)
{
    std::cerr << "etscope gap: " << error.message() << "\n";
    return error.code == Error::Code::Usage ? ExitUsage : ExitInput;
}

/// One --stage, opened and held in place (the mapper refers into the record and document).
struct OpenStage {
    std::string text; ///< as given
    std::string program, etdump, etrecord;
    bool table = false; ///< `etdump` names an Inspector table (isInspectorTablePath)
    std::optional<ETRecord> record;
    std::optional<Document> document;
    std::optional<ETDump> dump;
    const Method* method = nullptr;
    std::optional<EventMapper> mapper;
    std::string run; ///< a table stage's description
};

/// An Inspector table rather than an ETDump, by its extension (case-insensitive): .csv, .tsv,
/// .json, .txt or .md — the files calculate_numeric_gap's DataFrame is saved or pasted as.
/// Anything else is read as an ETDump.
bool isInspectorTablePath(const std::string& path)
{
    const QString suffix = QFileInfo(QString::fromStdString(path)).suffix().toLower();
    for (const char* table : { "csv", "tsv", "json", "txt", "md" })
        if (suffix == QLatin1String(table))
            return true;
    return false;
}

/// PROGRAM:ETDUMP[:ETRECORD], split on ':'. A path holding ':' itself cannot be given here
/// (docs/gap.md: link or rename it); the message says so.
bool splitStage(const std::string& text, OpenStage& stage, std::string& error)
{
    std::vector<std::string> parts;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t colon = text.find(':', begin);
        parts.push_back(text.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin));
        if (colon == std::string::npos)
            break;
        begin = colon + 1;
    }
    if (parts.size() < 2 || parts.size() > 3) {
        error = "--stage " + text
            + ": expected PROGRAM:ETDUMP or PROGRAM:ETDUMP:ETRECORD (or an Inspector table .csv, "
              ".tsv, .json, .txt or .md in place of ETDUMP)"
            + (parts.size() > 3 ? std::string(" (found ") + std::to_string(parts.size() - 1)
                        + " ':'; a path holding ':' cannot be given to --stage: link or rename it)"
                                : std::string());
        return false;
    }
    for (const std::string& part : parts)
        if (part.empty()) {
            error = "--stage " + text + ": an empty path (expected PROGRAM:ETDUMP[:ETRECORD])";
            return false;
        }
    stage.program = parts[0];
    stage.etdump = parts[1];
    stage.etrecord = parts.size() == 3 ? parts[2] : std::string();
    stage.table = isInspectorTablePath(stage.etdump);
    return true;
}

} // namespace

int runStageGap(const Arguments& args)
{
    for (const char* option : { "etdump", "reference", "inspector-table", "bundled-reference", "reference-program",
             "etrecord", "debug-buffer", "reference-buffer", "run", "reference-run", "test-case", "first-divergence" })
        if (args.has(option))
            return stageUsage(std::string("--") + option
                + " does not go with --stage (each stage is PROGRAM:ETDUMP[:ETRECORD]; the first divergence of "
                  "every stage is in the notes)");
    if (!args.positional().empty())
        return stageUsage("with --stage, give no PROGRAM (" + args.positional().front()
            + "): every program comes in a --stage PROGRAM:ETDUMP[:ETRECORD]");
    const std::vector<std::string> texts = args.values("stage");
    if (texts.size() < 2)
        return stageUsage("give at least two --stage (the reference first, then the builds compared with it); got "
            + std::to_string(texts.size()));
    GapMetric metric = kDefaultStageMetric;
    if (args.has("metric")) {
        const auto parsed = parseGapMetric(args.value("metric"));
        if (!parsed)
            return stageUsage("unknown metric '" + args.value("metric") + "' (mse, l1, snr, cosine or maxabs)");
        metric = *parsed;
    }
    const auto format = parseTableFormat(args.value("format", "text"));
    if (!format)
        return stageUsage("unknown format '" + args.value("format") + "' (text, csv, tsv, md, html or json)");
    std::vector<DivergenceThreshold> thresholds;
    for (const std::string& text : args.values("threshold")) {
        auto threshold = parseDivergenceThreshold(text);
        if (!threshold)
            return stageUsage("--threshold " + text + ": " + threshold.error().reason);
        thresholds.push_back(std::move(threshold).value());
    }
    if (thresholds.empty())
        thresholds = defaultDivergenceThresholds();
    const QString plotPath = QString::fromStdString(args.value("plot"));
    if (args.has("plot")) {
        const QString suffix = QFileInfo(plotPath).suffix().toLower();
        if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg"))
            return stageUsage("--plot " + args.value("plot") + ": give a file ending in .png or .svg");
        // The plot is written last, after every stage is read: a folder that cannot take it is said first.
        if (const auto error = checkFolderFor(args.value("plot"))) {
            std::cerr << "etscope gap: " << error->message() << "\n";
            return ExitInput;
        }
    }

    // Open every stage: its ETRecord first (the program's delegate output counts come from it).
    std::list<OpenStage> opened; // stable addresses: the mappers refer into their stage
    for (const std::string& text : texts) {
        OpenStage& stage = opened.emplace_back();
        stage.text = text;
        std::string error;
        if (!splitStage(text, stage, error))
            return stageUsage(error);
        if (!stage.etrecord.empty()) {
            auto record = readETRecordFile(stage.etrecord);
            if (!record)
                return stageFail(record.error());
            stage.record = std::move(record).value();
        }
        OpenOptions options;
        options.dataFiles = args.values("data");
        if (stage.record)
            options.delegateOutputCounts = stage.record->allDelegateOutputCounts();
        auto document = openDocument(stage.program, options);
        if (!document)
            return stageFail(document.error());
        if (!document->program)
            return stageUsage("--stage " + text + ": " + document->path + " is not a program ("
                + std::string(fileKindName(document->kind)) + ")");
        stage.document = std::move(document).value();
        if (stage.record && warnOfForeignETRecord("gap", *stage.record, *stage.document))
            stage.record.reset();
        const std::string wanted = opened.size() == 1 ? args.value("method") : opened.front().method->name;
        stage.method = selectMethod(*stage.document->program, wanted);
        if (!stage.method || (opened.size() > 1 && stage.method->name != wanted)) {
            std::string names;
            for (const Method& m : stage.document->program->methods)
                names += (names.empty() ? "" : ", ") + m.name;
            return stageFail(makeError(Error::Code::Usage, stage.document->path,
                std::string(opened.size() > 1 ? "mismatched programs: " : "") + "no method '" + wanted + "' (it has "
                    + (names.empty() ? "none" : names) + ")"
                    + (opened.size() > 1 ? ", stage 0's " + opened.front().document->path + " has" : "")));
        }
        stage.mapper.emplace(*stage.document->analysis(*stage.method)->graph, stage.record ? &*stage.record : nullptr,
            stage.method->name);
        if (stage.table) {
            // The table's AOT values, placed on this program's nodes, stand in for a run.
            auto run = readTableStageRun(stage.etdump, *stage.mapper);
            if (!run)
                return stageFail(run.error());
            stage.dump = std::move(run->dump);
            stage.dump->warnings = std::move(run->warnings);
            stage.run = std::move(run->description);
            continue;
        }
        auto dump = readETDumpFile(stage.etdump);
        if (!dump)
            return stageFail(dump.error());
        if (auto bufferError = attachDebugBufferOrDefault(dump.value(), std::string()))
            return stageFail(*bufferError);
        stage.dump = std::move(dump).value();
    }

    std::vector<Stage> stages;
    std::vector<Warning> dumpWarnings;
    for (const OpenStage& stage : opened) {
        // A stage is named after its program, a table stage after its table (the table and a
        // run of the same program are often stages 0 and 1).
        stages.push_back(
            { QFileInfo(QString::fromStdString(stage.table ? stage.etdump : stage.program)).fileName().toStdString(),
                &*stage.document, stage.method, &*stage.mapper, &*stage.dump, stage.record ? &*stage.record : nullptr,
                0, stage.run });
        for (const Warning& w : stage.dump->warnings)
            dumpWarnings.push_back(w);
    }
    auto report = compareStages(stages, DivergenceRule(thresholds));
    if (!report)
        return stageFail(report.error());
    report->warnings.insert(report->warnings.begin(), dumpWarnings.begin(), dumpWarnings.end());

    if (args.has("plot")) {
        // QPainter's text needs a GUI application; Qt's offscreen platform needs no display.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
            if (type == QtCriticalMsg || type == QtFatalMsg)
                std::cerr << "etscope gap: " << message.toStdString() << "\n";
        });
        int argc = 1;
        char name[] = "etscope";
        char* argv[] = { name, nullptr };
        QGuiApplication application(argc, argv);
        const ui::StagePlotData data = ui::stagePlotData(*report, metric);
        if (auto error = ui::writeStagePlot(data, plotPath)) {
            std::cerr << "etscope gap: " << error->toStdString() << "\n";
            return ExitInput;
        }
    }

    Table table = stageGapTable(*report, metric, *format == TableFormat::Json);
    if (*format == TableFormat::Text)
        table.title.clear();
    for (const Warning& warning : report->warnings)
        std::cerr << "etscope gap: warning: " << warning.message << "\n";
    if (*format == TableFormat::Csv || *format == TableFormat::Tsv)
        for (const std::string& note : table.notes)
            if (note.rfind("warning: ", 0) != 0)
                std::cerr << "etscope gap: " << note << "\n";
    return emitReport("gap", args, renderTable(table, *format));
}

} // namespace etscope::app
