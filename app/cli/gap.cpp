// SPDX-License-Identifier: MIT
// The CLI commands on debug data: gap (most of this file), profile, ops --etrecord, info
// --debug-buffer. Why one file: they share opening a program with its ETRecord and ETDump and the
// one-line errors (openTarget, openDump, openRecord, fail, usage).
#include "app/cli/gap.h"
#include "core/util/jsontext.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/gappairing.h"
#include "core/debug/dumpcheck.h"
#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/debug/eventmapper.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/debug/programgap.h"
#include "core/debug/runtimeprofile.h"
#include "core/document/document.h"
#include "core/document/etrecordgraphs.h"
#include "core/report/reports.h"
#include "core/stats/operatortable.h"

#include <cmath>
#include <iostream>

namespace etscope::app {

using namespace etscope::core;

bool warnOfForeignETRecord(const std::string& command, const ETRecord& record, const Document& document)
{
    // Another program's ETRecord gives wrong names and counts (issue 27): said in the app's words,
    // and not used, as the app does not attach it; the command goes on without it.
    if (!document.program)
        return false;
    const auto why = etrecordMismatch(record, *document.program);
    if (why)
        std::cerr << "etscope " << command << ": warning: " << foreignETRecordMessage(record.path, document.path, *why)
                  << "\n";
    return why.has_value();
}

namespace {

int fail(const std::string& command, const Error& error)
{
    std::cerr << "etscope " << command << ": " << error.message() << "\n";
    return error.code == Error::Code::Usage ? ExitUsage : ExitInput;
}

int usage(const std::string& command, const std::string& message)
{
    std::cerr << "etscope " << command << ": " << message << " (see etscope --help)\n";
    return ExitUsage;
}

/// The program, opened with the ETRecord's delegate output counts so the graph's delegate
/// outputs are read, not inferred.
std::optional<Document> openProgram(
    const std::string& command, const Arguments& args, const ETRecord* record, int& exitCode)
{
    if (args.positional().size() != 1) {
        exitCode = usage(command, "expected exactly one PROGRAM");
        return std::nullopt;
    }
    OpenOptions options;
    options.dataFiles = args.values("data");
    if (record)
        options.delegateOutputCounts = record->allDelegateOutputCounts();
    auto document = openDocument(args.positional().front(), options);
    if (!document) {
        exitCode = fail(command, document.error());
        return std::nullopt;
    }
    if (!document->program) {
        exitCode
            = usage(command, document->path + ": is not a program (" + std::string(fileKindName(document->kind)) + ")");
        return std::nullopt;
    }
    exitCode = ExitOk;
    return std::move(document).value();
}

const Method* methodOf(const std::string& command, const Document& document, const Arguments& args, int& exitCode)
{
    const Method* method = selectMethod(*document.program, args.value("method"));
    if (!method)
        exitCode = usage(command, document.path + ": no method named '" + args.value("method") + "'");
    return method;
}

std::optional<ETRecord> openRecord(
    const std::string& command, const Arguments& args, int& exitCode, std::optional<std::string> path = std::nullopt)
{
    if (!path && !args.has("etrecord"))
        return std::nullopt;
    if (path && path->empty())
        return std::nullopt;
    auto record = readETRecordFile(path ? *path : args.value("etrecord"));
    if (!record) {
        exitCode = fail(command, record.error());
        return std::nullopt;
    }
    return std::move(record).value();
}

std::optional<ETDump> openDump(
    const std::string& command, const std::string& path, const std::string& buffer, int& exitCode)
{
    auto dump = readETDumpFile(path);
    if (!dump) {
        exitCode = fail(command, dump.error());
        return std::nullopt;
    }
    if (auto error = attachDebugBufferOrDefault(dump.value(), buffer)) {
        exitCode = fail(command, *error);
        return std::nullopt;
    }
    return std::move(dump).value();
}

/// What gap and profile work on: the program, its ETRecord when given (--etrecord) and the
/// method (--method); `mapper` joins runtime events to that method's graph.
struct DebugTarget {
    std::optional<ETRecord> record;
    std::optional<Document> document;
    const Method* method = nullptr;
    std::optional<EventMapper> mapper; ///< refers to `record` and `document`: keep the target in place
};

/// Opens the target in place (the mapper refers into it); false with `exitCode` set on failure.
/// `recordPath` overrides --etrecord (empty: none).
bool openTarget(const std::string& command, const Arguments& args, DebugTarget& target, int& exitCode,
    std::optional<std::string> recordPath = std::nullopt)
{
    target.record = openRecord(command, args, exitCode, recordPath);
    if (exitCode != ExitOk)
        return false;
    target.document = openProgram(command, args, target.record ? &*target.record : nullptr, exitCode);
    if (!target.document)
        return false;
    if (target.record && warnOfForeignETRecord(command, *target.record, *target.document))
        target.record.reset();
    const ETRecord* record = target.record ? &*target.record : nullptr;
    target.method = methodOf(command, *target.document, args, exitCode);
    if (!target.method)
        return false;
    target.mapper.emplace(*target.document->analysis(*target.method)->graph, record, target.method->name);
    return true;
}

/// Reads `--name N` into `index` when given; false (usage error printed) when N is no number.
bool indexOption(const Arguments& args, const std::string& name, std::optional<std::size_t>& index, int& exitCode)
{
    if (!args.has(name))
        return true;
    index = parseIndex(args.value(name));
    if (!index)
        exitCode = usage("gap", "--" + name + " expects a number counted from 0, not '" + args.value(name) + "'");
    return index.has_value();
}

/// A usage error unless `block` is one of the Execute blocks of `dump`.
bool checkBlock(const ETDump& dump, const std::string& option, std::size_t block, int& exitCode)
{
    const std::size_t count = dump.executeBlocks().size();
    if (block < count)
        return true;
    exitCode = usage("gap",
        "--" + option + " " + std::to_string(block) + ": " + dump.path() + " has "
            + (count == 0 ? std::string("no Execute block")
                          : std::to_string(count) + " Execute block(s), numbered 0 to " + std::to_string(count - 1)));
    return false;
}

/// Warnings on stderr (also in the notes), and for CSV/TSV, which have no notes, the notes too.
void printDiagnostics(const std::string& command, const std::vector<Warning>& warnings,
    const std::vector<std::string>& notes, TableFormat format)
{
    for (const Warning& warning : warnings)
        std::cerr << "etscope " << command << ": warning: " << warning.message << "\n";
    if (format != TableFormat::Csv && format != TableFormat::Tsv)
        return;
    for (const std::string& note : notes)
        if (note.rfind("warning: ", 0) != 0)
            std::cerr << "etscope " << command << ": " << note << "\n";
}

/// `gap --inspector-table`: the table is read twice and never held. The first pass checks it
/// (nothing is written when it fails), measures the text columns and gathers the warnings JSON
/// lists first; the second renders blocks of rows as they are mapped. A million-row table stays
/// within a few hundred MB.
int streamInspectorGap(
    const Arguments& args, const EventMapper& mapper, std::optional<GapMetric> only, TableFormat format)
{
    const GapMetric metric = only.value_or(GapMetric::Mse);
    constexpr std::size_t kBlockRows = 4096;
    const std::string path = args.value("inspector-table");
    const GapTableLayout layout(only, true, format == TableFormat::Json);
    TableRenderer renderer(
        format, format == TableFormat::Text ? std::string() : gapTableTitle("inspector"), layout.columns());
    std::size_t number = 0;
    auto checked = importInspectorTable(path, mapper, metric, [&](GapRow&& row) {
        if (format == TableFormat::Text)
            renderer.measure({ layout.row(row, number) });
        ++number;
    });
    if (!checked)
        return fail("gap", checked.error());
    const std::vector<std::string> notes = layout.notes(checked.value());

    Output output(args);
    std::vector<std::vector<TableCell>> block;
    bool begun = false;
    const auto flush = [&] {
        if (!begun) {
            output.write(renderer.begin(block.empty() ? nullptr : &block.front(), notes));
            begun = true;
        }
        output.write(renderer.rows(block));
        block.clear();
    };
    number = 0;
    auto rendered = importInspectorTable(path, mapper, metric, [&](GapRow&& row) {
        block.push_back(layout.row(row, number++));
        if (block.size() == kBlockRows)
            flush();
    });
    if (!rendered) // the file changed between the passes
        return fail("gap", rendered.error());
    flush();
    output.write(renderer.end(notes));
    printDiagnostics("gap", checked->warnings, notes, format);
    return output.finish("gap");
}

/// The thresholds of --first-divergence: every --threshold METRIC=VALUE, else the defaults.
std::optional<DivergenceRule> divergenceRule(
    const Arguments& args, std::optional<GapMetric> importedMetric, int& exitCode)
{
    std::vector<DivergenceThreshold> thresholds;
    for (const std::string& text : args.values("threshold")) {
        auto threshold = parseDivergenceThreshold(text);
        if (!threshold) {
            exitCode = usage("gap", "--threshold " + text + ": " + threshold.error().reason);
            return std::nullopt;
        }
        thresholds.push_back(std::move(threshold).value());
    }
    if (thresholds.empty())
        thresholds = defaultDivergenceThresholds(importedMetric.has_value());
    return DivergenceRule(std::move(thresholds), importedMetric);
}

nlohmann::ordered_json metricsJson(const GapMetrics& m)
{
    const auto finite
        = [](double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); };
    return { { "mse", finite(m.mse) }, { "l1", finite(m.l1) }, { "snr", finite(m.snr) }, { "cosine", finite(m.cosine) },
        { "maxabs", finite(m.maxAbs) }, { "reference_max_abs", finite(m.referenceMaxAbs) } };
}

/// `--first-divergence`: the lines of firstDivergenceLines (text and other table formats) or a
/// JSON object; warnings on stderr. Exits 0 whether or not a row diverges.
int printDivergence(const Arguments& args, TableFormat format, const std::optional<FirstDivergence>& divergence,
    const GapRow* diverging, std::size_t rows, std::size_t compared, const DivergenceRule& rule,
    const ProgramGapRow* pair, const std::vector<Warning>& warnings, const std::vector<std::string>& context)
{
    for (const Warning& warning : warnings)
        std::cerr << "etscope gap: warning: " << warning.message << "\n";
    if (format != TableFormat::Json) {
        std::string text;
        for (const std::string& line : firstDivergenceLines(divergence, diverging, rows, compared, rule, pair))
            text += line + "\n";
        for (const std::string& line : context)
            text += line + "\n";
        return emitReport("gap", args, text);
    }
    nlohmann::ordered_json out;
    nlohmann::ordered_json thresholds = nlohmann::ordered_json::array();
    for (const DivergenceThreshold& t : rule.thresholds())
        thresholds.push_back({ { "metric", t.metric }, { "value", t.value } });
    out["thresholds"] = thresholds;
    out["rows"] = rows;
    out["rows_compared"] = compared;
    if (!divergence || !diverging) {
        out["first_divergence"] = nullptr;
    } else {
        const GapRow& row = *diverging;
        nlohmann::ordered_json d;
        d["row"] = divergence->row;
        d["node"] = row.label;
        d["path"] = divergence->path;
        d["node_id"] = row.origin.top.value;
        d["inner_node_id"]
            = row.origin.inner.valid() ? nlohmann::ordered_json(row.origin.inner.value) : nlohmann::ordered_json();
        if (divergence->referenceNode) {
            d["reference_path"] = divergence->referencePath;
            d["reference_node_id"] = divergence->referenceNode->top.value;
            d["reference_inner_node_id"] = divergence->referenceNode->inner.valid()
                ? nlohmann::ordered_json(divergence->referenceNode->inner.value)
                : nlohmann::ordered_json();
        }
        if (pair) {
            d["matched_by"] = pair->matchedBy;
            d["dequantized"] = pair->dequantized;
        }
        d["instruction"] = row.instruction.value;
        d["output"] = row.outputIndex;
        d["shape"] = row.shape;
        d["dtype"] = row.dtype;
        d["metric"] = divergence->crossing.metric;
        d["value"] = std::isfinite(divergence->crossing.value)
            ? nlohmann::ordered_json(divergence->crossing.value)
            : nlohmann::ordered_json(cellText(TableCell(divergence->crossing.value)));
        d["threshold"] = divergence->crossing.threshold;
        d["reason"] = divergence->crossing.text;
        if (row.metrics)
            d["metrics"] = metricsJson(*row.metrics);
        if (!row.imported.empty())
            d["inspector_gap"] = row.imported;
        d["problem"] = row.problem;
        d["compared_before"] = divergence->comparedBefore;
        out["first_divergence"] = d;
    }
    out["notes"] = context;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Warning& warning : warnings)
        list.push_back(warning.message);
    out["warnings"] = list;
    return emitReport("gap", args, core::jsonText(out, 2) + "\n");
}

/// `gap --inspector-table T --first-divergence`: two passes over the table, as streamInspectorGap
/// does, holding only the imported gaps (the baseline of "jump") and the diverging row.
int inspectorDivergence(const Arguments& args, const EventMapper& mapper, std::optional<GapMetric> only,
    TableFormat format, DivergenceRule rule)
{
    const GapMetric metric = only.value_or(GapMetric::Mse);
    const std::string path = args.value("inspector-table");
    std::size_t count = 0;
    auto checked = importInspectorTable(path, mapper, metric, [&](GapRow&& row) {
        rule.observe(row);
        ++count;
    });
    if (!checked)
        return fail("gap", checked.error());
    std::optional<GapRow> found;
    std::optional<FirstDivergence> divergence;
    std::size_t number = 0;
    std::size_t compared = 0;
    std::size_t comparedRows = 0;
    auto second = importInspectorTable(path, mapper, metric, [&](GapRow&& row) {
        const std::size_t index = number++;
        if (gapRowCompared(row))
            ++comparedRows;
        if (divergence)
            return;
        if (auto crossing = rule.crosses(row)) {
            divergence = divergenceAt(row, index, std::move(*crossing), mapper, compared);
            found = std::move(row);
            return;
        }
        if (gapRowCompared(row))
            ++compared;
    });
    if (!second)
        return fail("gap", second.error());
    const GapTableLayout layout(only, true, false);
    return printDivergence(args, format, divergence, found ? &*found : nullptr, number, comparedRows, rule, nullptr,
        checked->warnings, layout.notes(*checked));
}

/// `gap PROGRAM --etdump B --reference-program A --reference A.etdp`: two builds of a model.
int runProgramGap(const Arguments& args, const GapOptions& options, std::optional<GapMetric> metric, TableFormat format,
    const std::optional<DivergenceRule>& rule)
{
    const std::vector<std::string> records = args.values("etrecord");
    if (records.size() > 2)
        return usage("gap",
            "--etrecord is given " + std::to_string(records.size())
                + " times: with --reference-program, give the run's ETRecord, then the reference's");
    int exitCode = ExitOk;
    DebugTarget run;
    if (!openTarget("gap", args, run, exitCode, records.empty() ? std::string() : records[0]))
        return exitCode;
    DebugTarget reference;
    reference.record = openRecord("gap", args, exitCode, records.size() == 2 ? records[1] : std::string());
    if (exitCode != ExitOk)
        return exitCode;
    {
        OpenOptions open;
        open.dataFiles = args.values("data");
        if (reference.record)
            open.delegateOutputCounts = reference.record->allDelegateOutputCounts();
        auto document = openDocument(args.value("reference-program"), open);
        if (!document)
            return fail("gap", document.error());
        if (!document->program)
            return usage(
                "gap", document->path + ": is not a program (" + std::string(fileKindName(document->kind)) + ")");
        reference.document = std::move(document).value();
    }
    reference.method = selectMethod(*reference.document->program, run.method->name);
    if (!reference.method || reference.method->name != run.method->name) {
        std::string names;
        for (const Method& m : reference.document->program->methods)
            names += (names.empty() ? "" : ", ") + m.name;
        return fail("gap",
            makeError(Error::Code::Usage, reference.document->path,
                "mismatched programs: no method '" + run.method->name + "' (it has " + (names.empty() ? "none" : names)
                    + "), the run's " + run.document->path + " has"));
    }
    reference.mapper.emplace(*reference.document->analysis(*reference.method)->graph,
        reference.record ? &*reference.record : nullptr, reference.method->name);

    const auto runDump = openDump("gap", args.value("etdump"), args.value("debug-buffer"), exitCode);
    if (!runDump)
        return exitCode;
    if (!checkBlock(*runDump, "run", options.runBlock, exitCode))
        return exitCode;
    const auto refDump = openDump("gap", args.value("reference"), args.value("reference-buffer"), exitCode);
    if (!refDump)
        return exitCode;
    if (!checkBlock(*refDump, "reference-run", options.referenceBlock, exitCode))
        return exitCode;

    auto pairing = pairProgramNodes(*reference.document, *run.document, run.method->name,
        reference.record ? &*reference.record : nullptr, run.record ? &*run.record : nullptr);
    if (!pairing)
        return fail("gap", pairing.error());
    ProgramRun runSide { run.document->path, run.method, &*run.mapper, &*runDump, options.runBlock };
    ProgramRun refSide { reference.document->path, reference.method, &*reference.mapper, &*refDump,
        options.referenceBlock };
    ProgramGapOptions gapOptions;
    gapOptions.maxElements = options.maxElements;
    auto report = compareProgramRuns(runSide, refSide, *pairing, gapOptions);
    if (!report)
        return fail("gap", report.error());
    std::vector<Warning> dumpWarnings = runDump->warnings;
    dumpWarnings.insert(dumpWarnings.end(), refDump->warnings.begin(), refDump->warnings.end());
    report->warnings.insert(report->warnings.begin(), dumpWarnings.begin(), dumpWarnings.end());
    if (rule) {
        const auto divergence = findFirstDivergence(*report, *run.mapper, *reference.mapper, *rule);
        std::size_t compared = 0;
        for (const ProgramGapRow& row : report->rows)
            compared += gapRowCompared(row.run) ? 1 : 0;
        Table table = programGapTable(*report, metric, false);
        std::vector<std::string> context;
        for (const std::string& note : table.notes)
            if (note.rfind("warning: ", 0) != 0)
                context.push_back(note);
        const ProgramGapRow* pair = divergence ? &report->rows[divergence->row] : nullptr;
        return printDivergence(args, format, divergence, pair ? &pair->run : nullptr, report->rows.size(), compared,
            *rule, pair, report->warnings, context);
    }
    Table table = programGapTable(*report, metric, format == TableFormat::Json);
    if (format == TableFormat::Text)
        table.title.clear();
    printDiagnostics("gap", report->warnings, table.notes, format);
    return emitReport("gap", args, renderTable(table, format));
}

} // namespace

int runGap(const Arguments& args)
{
    if (args.has("stage"))
        return runStageGap(args);
    const int modes = (args.has("reference") ? 1 : 0) + (args.has("inspector-table") ? 1 : 0)
        + (args.has("bundled-reference") ? 1 : 0);
    if (modes != 1)
        return usage("gap", "give exactly one of --reference, --inspector-table or --bundled-reference");
    const bool inspector = args.has("inspector-table");
    if (!inspector && !args.has("etdump"))
        return usage("gap", "--etdump FILE is required");
    if (args.has("reference-buffer") && !args.has("reference"))
        return usage("gap", "--reference-buffer needs --reference");
    if (args.has("reference-run") && !args.has("reference"))
        return usage("gap", "--reference-run needs --reference");
    if (args.has("test-case") && !args.has("bundled-reference"))
        return usage("gap", "--test-case needs --bundled-reference");
    if (args.has("run") && inspector)
        return usage("gap", "--run selects a run of --etdump, which --inspector-table does not read");
    if (args.has("reference-program") && !args.has("reference"))
        return usage("gap", "--reference-program needs --reference (the ETDump of the reference program's run)");
    if (args.has("threshold") && !args.has("first-divergence"))
        return usage("gap", "--threshold needs --first-divergence");
    GapOptions options;
    std::optional<std::size_t> runBlock;
    std::optional<std::size_t> referenceBlock;
    std::optional<std::size_t> testCase;
    int parseExit = ExitOk;
    if (!indexOption(args, "run", runBlock, parseExit) || !indexOption(args, "reference-run", referenceBlock, parseExit)
        || !indexOption(args, "test-case", testCase, parseExit))
        return parseExit;
    options.runBlock = runBlock.value_or(0);
    options.referenceBlock = referenceBlock.value_or(0);
    if (testCase)
        options.testCase = static_cast<int>(*testCase);
    std::optional<GapMetric> metric;
    if (args.has("metric")) {
        metric = parseGapMetric(args.value("metric"));
        if (!metric)
            return usage("gap", "unknown metric '" + args.value("metric") + "' (mse, l1, snr, cosine or maxabs)");
    }
    const auto format = parseTableFormat(args.value("format", "text"));
    if (!format)
        return usage("gap", "unknown format '" + args.value("format") + "' (text, csv, tsv, md, html or json)");

    int exitCode = ExitOk;
    std::optional<DivergenceRule> rule;
    if (args.has("first-divergence")) {
        rule
            = divergenceRule(args, inspector ? std::optional(metric.value_or(GapMetric::Mse)) : std::nullopt, exitCode);
        if (!rule)
            return exitCode;
    }
    if (args.has("reference-program"))
        return runProgramGap(args, options, metric, *format, rule);
    DebugTarget target;
    if (!openTarget("gap", args, target, exitCode))
        return exitCode;
    const std::optional<Document>& document = target.document;
    const EventMapper& mapper = *target.mapper;

    if (inspector && rule)
        return inspectorDivergence(args, mapper, metric, *format, std::move(*rule));
    if (inspector)
        return streamInspectorGap(args, mapper, metric, *format);
    GapReport report;
    {
        const auto run = openDump("gap", args.value("etdump"), args.value("debug-buffer"), exitCode);
        if (!run)
            return exitCode;
        if (!checkBlock(*run, "run", options.runBlock, exitCode))
            return exitCode;
        std::vector<Warning> dumpWarnings = run->warnings;
        if (args.has("reference")) {
            const auto reference = openDump("gap", args.value("reference"), args.value("reference-buffer"), exitCode);
            if (!reference)
                return exitCode;
            if (!checkBlock(*reference, "reference-run", options.referenceBlock, exitCode))
                return exitCode;
            if (reference->path() != run->path())
                dumpWarnings.insert(dumpWarnings.end(), reference->warnings.begin(), reference->warnings.end());
            report = compareETDumps(*run, *reference, mapper, options);
        } else {
            if (!document->bundled)
                return usage("gap", document->path + ": --bundled-reference needs a bundled program (.bpte)");
            auto bundled = compareWithBundled(*run, *document->bundled, *document->program, mapper, options);
            if (!bundled)
                return fail("gap", bundled.error());
            report = std::move(bundled).value();
        }
        // The readers' own findings (tensors outside the debug buffer, odd events) come first.
        report.warnings.insert(report.warnings.begin(), dumpWarnings.begin(), dumpWarnings.end());
    }
    if (rule) {
        const auto divergence = findFirstDivergence(report, mapper, *rule);
        std::size_t compared = 0;
        for (const GapRow& row : report.rows)
            compared += gapRowCompared(row) ? 1 : 0;
        const GapTableLayout layout(metric, false, false);
        std::vector<std::string> context;
        for (const std::string& note : layout.notes(report))
            if (note.rfind("warning: ", 0) != 0)
                context.push_back(note);
        return printDivergence(args, *format, divergence, divergence ? &report.rows[divergence->row] : nullptr,
            report.rows.size(), compared, *rule, nullptr, report.warnings, context);
    }
    Table table = gapTable(report, metric, *format == TableFormat::Json);
    if (*format == TableFormat::Text)
        table.title.clear();
    printDiagnostics("gap", report.warnings, table.notes, *format);
    return emitReport("gap", args, renderTable(table, *format));
}

/// `etscope profile` on an ETDump without its program: per event, nothing placed on a graph.
int runDumpProfile(const Arguments& args, const std::string& path, TableFormat format)
{
    if (args.has("etrecord") || args.has("method"))
        return usage("profile", "--etrecord and --method need the PROGRAM the ETDump was logged from");
    auto dump = readETDumpFile(path);
    if (!dump)
        return fail("profile", dump.error());
    const RuntimeProfile profile = buildDumpProfile(*dump);
    std::vector<Warning> warnings = dump->warnings;
    if (profile.executeBlocks == 0)
        warnings.push_back(
            { dump->path() + ": no Execute block: the program never ran while it was logged", std::nullopt });
    Table table = eventProfileTable(profile);
    table.notes.insert(table.notes.begin(), "run: " + dump->path() + " (no program: events are not placed on nodes)");
    for (const Warning& warning : warnings)
        table.notes.push_back("warning: " + warning.message);
    if (format == TableFormat::Text)
        table.title.clear();
    printDiagnostics("profile", warnings, table.notes, format);
    return emitReport("profile", args, renderTable(table, format));
}

int runProfile(const Arguments& args)
{
    const auto format = parseTableFormat(args.value("format", "text"));
    if (!format)
        return usage("profile", "unknown format '" + args.value("format") + "' (text, csv, tsv, md, html or json)");
    if (args.positional().empty() && args.has("etdump"))
        return runDumpProfile(args, args.value("etdump"), *format);
    if (args.positional().size() == 1 && !args.has("etdump"))
        if (const auto file = MappedFile::open(args.positional().front());
            file && detectFileKind(file.value()->bytes()) == FileKind::ETDump)
            return runDumpProfile(args, args.positional().front(), *format);
    if (!args.has("etdump"))
        return usage("profile", "--etdump FILE is required");
    int exitCode = ExitOk;
    DebugTarget target;
    if (!openTarget("profile", args, target, exitCode))
        return exitCode;
    const Method* method = target.method;
    const EventMapper& mapper = *target.mapper;
    auto dump = readETDumpFile(args.value("etdump"));
    if (!dump)
        return fail("profile", dump.error());

    const RuntimeProfile profile = buildRuntimeProfile(*dump, mapper);
    std::vector<Warning> warnings = dump->warnings;
    if (profile.executeBlocks == 0)
        warnings.push_back(
            { dump->path() + ": no Execute block: the program never ran while it was logged", std::nullopt });
    for (Warning& warning : dumpFitWarnings(checkDumpFitsProgram(*dump, mapper), dump->path(), method->name))
        warnings.push_back(std::move(warning));
    warnings.insert(warnings.end(), profile.warnings.begin(), profile.warnings.end());

    Table table = nodeTimingTable(profile);
    table.notes.insert(table.notes.begin(), "run: " + dump->path() + ", method '" + method->name + "'");
    for (const Warning& warning : warnings)
        table.notes.push_back("warning: " + warning.message);
    if (*format == TableFormat::Text)
        table.title.clear();
    printDiagnostics("profile", warnings, table.notes, *format);
    return emitReport("profile", args, renderTable(table, *format));
}

int runOpsWithETRecord(const Arguments& args)
{
    const auto format = parseTableFormat(args.value("format", "text"));
    if (!format)
        return usage("ops", "unknown format '" + args.value("format") + "' (text, csv, tsv, md, html or json)");
    int exitCode = ExitOk;
    const std::optional<ETRecord> record = openRecord("ops", args, exitCode);
    if (!record)
        return exitCode;
    const auto document = openProgram("ops", args, &*record, exitCode);
    if (!document)
        return exitCode;
    const Method* method = methodOf("ops", *document, args, exitCode);
    if (!method)
        return exitCode;
    if (warnOfForeignETRecord("ops", *record, *document)) {
        std::cerr << "etscope ops: counted from the program instead\n";
        const std::string title
            = *format == TableFormat::Text ? std::string() : "Operators of method '" + method->name + "'";
        return emitReport("ops", args,
            renderTable(
                operatorTableReport(computeOperatorTable(*document->analysis(*method)->graph), title), *format));
    }
    auto table = etrecordOperatorTable(*record, method->name);
    if (!table)
        return fail("ops", table.error());
    const std::string title = *format == TableFormat::Text
        ? std::string()
        : "Operators of method '" + method->name + "' (" + table->source + ")";
    return emitReport("ops", args, renderTable(operatorTableReport(table.value(), title), *format));
}

int runInfoWithDebugBuffer(const Arguments& args)
{
    if (args.positional().size() != 1)
        return usage("info", "expected exactly one FILE");
    OpenOptions options;
    options.debugBuffer = args.value("debug-buffer");
    auto document = openDocument(args.positional().front(), options);
    if (!document)
        return fail("info", document.error());
    if (!document->etdump)
        return usage("info", document->path + ": --debug-buffer applies to ETDump files only");
    if (args.has("json"))
        return emitReport("info", args, core::jsonText(documentInfoJson(*document), 2) + "\n");
    return emitReport("info", args, documentInfoText(*document));
}

} // namespace etscope::app
