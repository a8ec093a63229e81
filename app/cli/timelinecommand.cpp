// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/timeline.h"
#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/debug/eventmapper.h"
#include "core/document/document.h"
#include "core/report/reports.h"

#include <iostream>

namespace etscope::app {

using namespace etscope::core;

namespace {

constexpr const char* kCommand = "timeline";

int fail(const Error& error)
{
    std::cerr << "etscope " << kCommand << ": " << error.message() << "\n";
    return error.code == Error::Code::Usage ? ExitUsage : ExitInput;
}

int usage(const std::string& message)
{
    std::cerr << "etscope " << kCommand << ": " << message << " (see etscope --help)\n";
    return ExitUsage;
}

/// --program (with --etrecord, --method, --data): what places the events on graph nodes. Kept
/// in one place because the mapper refers into the record and the document.
struct ProgramSide {
    std::optional<ETRecord> record;
    std::optional<Document> document;
    std::optional<EventMapper> mapper;
};

/// Opens the program side in place; ExitOk, or the exit code after printing the error.
int openProgramSide(const Arguments& args, ProgramSide& side)
{
    if (args.has("etrecord")) {
        auto record = readETRecordFile(args.value("etrecord"));
        if (!record)
            return fail(record.error());
        side.record = std::move(record).value();
    }
    OpenOptions options;
    options.dataFiles = args.values("data");
    if (side.record)
        options.delegateOutputCounts = side.record->allDelegateOutputCounts();
    auto document = openDocument(args.value("program"), options);
    if (!document)
        return fail(document.error());
    if (!document->program)
        return usage(document->path + ": --program needs a program (.pte or .bpte), not "
            + std::string(fileKindName(document->kind)));
    side.document = std::move(document).value();
    const Method* method = selectMethod(*side.document->program, args.value("method"));
    if (!method)
        return usage(side.document->path + ": no method named '" + args.value("method") + "'");
    side.mapper.emplace(*side.document->analysis(*method)->graph, side.record ? &*side.record : nullptr, method->name);
    return ExitOk;
}

} // namespace

int runTimeline(const Arguments& args)
{
    if (args.positional().size() != 1)
        return usage("expected exactly one ETDUMP");
    // Without --format: a Chrome trace when -o names a .json file (what Perfetto opens), else CSV.
    const std::string output = args.value("output");
    const bool jsonFile = output.size() >= 5 && output.compare(output.size() - 5, 5, ".json") == 0;
    const std::string format = args.has("format") ? args.value("format") : jsonFile ? "chrome-trace" : "csv";
    if (format != "chrome-trace" && format != "csv")
        return usage("unknown format '" + format + "' (chrome-trace or csv)");
    if (!args.has("program") && (args.has("etrecord") || args.has("method") || args.has("data")))
        return usage("--etrecord, --method and --data need --program");
    TimelineOptions options;
    if (args.has("run")) {
        options.run = parseIndex(args.value("run"));
        if (!options.run)
            return usage("--run expects a number counted from 0, not '" + args.value("run") + "'");
    }
    auto dump = readETDumpFile(args.positional().front());
    if (!dump)
        return fail(dump.error());
    ProgramSide side;
    if (args.has("program"))
        if (const int exitCode = openProgramSide(args, side); exitCode != ExitOk)
            return exitCode;
    auto timeline = buildTimeline(*dump, side.mapper ? &*side.mapper : nullptr, options);
    if (!timeline)
        return fail(timeline.error());
    for (const Warning& warning : timeline->warnings)
        std::cerr << "etscope " << kCommand << ": warning: " << warning.message << "\n";
    if (format == "csv")
        return emitReport(kCommand, args, renderTable(timelineTable(*timeline), TableFormat::Csv));
    return emitReport(kCommand, args, timelineChromeTrace(*timeline));
}

} // namespace etscope::app
