// SPDX-License-Identifier: MIT
#include "gap.h"
#include "util/jsontext.h"

#include "cli.h"
#include "commands.h"
#include "debug/etdump.h"
#include "debug/etrecord.h"
#include "debug/eventmapper.h"
#include "debug/inspectortable.h"
#include "debug/numericgap.h"
#include "document/document.h"
#include "report/reports.h"

#include <iostream>

namespace etscope::app {

using namespace etscope::core;

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

std::optional<ETRecord> openRecord(const std::string& command, const Arguments& args, int& exitCode)
{
    if (!args.has("etrecord"))
        return std::nullopt;
    auto record = readETRecordFile(args.value("etrecord"));
    if (!record) {
        exitCode = fail(command, record.error());
        return std::nullopt;
    }
    return std::move(record).value();
}

std::optional<ETDump> openDump(const std::string& path, const std::string& buffer, int& exitCode)
{
    auto dump = readETDumpFile(path);
    if (!dump) {
        exitCode = fail("gap", dump.error());
        return std::nullopt;
    }
    if (auto error = attachDebugBufferOrDefault(dump.value(), buffer)) {
        exitCode = fail("gap", *error);
        return std::nullopt;
    }
    return std::move(dump).value();
}

} // namespace

int runGap(const Arguments& args)
{
    const int modes = (args.has("reference") ? 1 : 0) + (args.has("inspector-table") ? 1 : 0)
        + (args.has("bundled-reference") ? 1 : 0);
    if (modes != 1)
        return usage("gap", "give exactly one of --reference, --inspector-table or --bundled-reference");
    const bool inspector = args.has("inspector-table");
    if (!inspector && !args.has("etdump"))
        return usage("gap", "--etdump FILE is required");
    if (args.has("reference-buffer") && !args.has("reference"))
        return usage("gap", "--reference-buffer needs --reference");
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
    const std::optional<ETRecord> record = openRecord("gap", args, exitCode);
    if (exitCode != ExitOk)
        return exitCode;
    const auto document = openProgram("gap", args, record ? &*record : nullptr, exitCode);
    if (!document)
        return exitCode;
    const Method* method = methodOf("gap", *document, args, exitCode);
    if (!method)
        return exitCode;
    const EventMapper mapper(*document->analysis(*method)->graph, record ? &*record : nullptr, method->name);

    GapReport report;
    if (inspector) {
        auto rows = readInspectorTable(args.value("inspector-table"));
        if (!rows)
            return fail("gap", rows.error());
        report
            = mapInspectorTable(rows.value(), mapper, metric.value_or(GapMetric::Mse), args.value("inspector-table"));
    } else {
        const auto run = openDump(args.value("etdump"), args.value("debug-buffer"), exitCode);
        if (!run)
            return exitCode;
        if (args.has("reference")) {
            const auto reference = openDump(args.value("reference"), args.value("reference-buffer"), exitCode);
            if (!reference)
                return exitCode;
            report = compareETDumps(*run, *reference, mapper);
        } else {
            if (!document->bundled)
                return usage("gap", document->path + ": --bundled-reference needs a bundled program (.bpte)");
            auto bundled = compareWithBundled(*run, *document->bundled, *document->program, mapper);
            if (!bundled)
                return fail("gap", bundled.error());
            report = std::move(bundled).value();
        }
    }
    for (const Warning& warning : report.warnings)
        std::cerr << "etscope gap: warning: " << warning.message << "\n";
    Table table = gapTable(report, metric);
    if (*format == TableFormat::Text)
        table.title.clear();
    return emit("gap", args, renderTable(table, *format));
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
    auto table = etrecordOperatorTable(*record, method->name);
    if (!table)
        return fail("ops", table.error());
    const std::string title = *format == TableFormat::Text
        ? std::string()
        : "Operators of method '" + method->name + "' (" + table->source + ")";
    return emit("ops", args, renderTable(operatorTableReport(table.value(), title), *format));
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
        return emit("info", args, core::jsonText(documentInfoJson(*document), 2) + "\n");
    return emit("info", args, documentInfoText(*document));
}

} // namespace etscope::app
