// SPDX-License-Identifier: MIT
// etscope why PROGRAM [--report LOG]… [--etrecord R] [--backend ID [--target T]] [--format text|json|csv] [-o OUT]:
// why every operator outside a delegate stayed on the CPU (issue 35; docs/why.md).
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/debug/etrecord.h"
#include "core/document/document.h"
#include "core/util/jsontext.h"
#include "core/why/why.h"

#include <filesystem>
#include <iostream>

namespace etscope::app {

using namespace etscope::core;

int runWhy(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "json" && format != "csv") {
        std::cerr << "etscope why: unknown format '" << format << "' (text, json or csv)\n";
        return ExitUsage;
    }
    if (args.values("etrecord").size() > 1) {
        std::cerr << "etscope why: --etrecord is given more than once\n";
        return ExitUsage;
    }
    if (args.has("target") && !args.has("backend")) {
        // The program's own delegates name their targets; a target alone names no rule table.
        std::cerr << "etscope why: --target needs --backend (without it the targets the program's delegates "
                     "name are used)\n";
        return ExitUsage;
    }
    int exitCode = ExitOk;
    const auto document = openForCommand("why", args, exitCode);
    if (!document)
        return exitCode;
    if (!document->program) {
        std::cerr << "etscope why: " << document->path << ": is not a program (" << fileKindName(document->kind)
                  << "); nothing in it ran on a CPU\n";
        return ExitUsage;
    }
    std::optional<ETRecord> record;
    if (args.has("etrecord")) {
        auto read = readETRecordFile(args.value("etrecord"));
        if (!read) {
            std::cerr << "etscope why: " << read.error().message() << "\n";
            return read.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        record = std::move(read).value();
    }
    std::vector<std::string> paths = args.values("report");
    if (paths.empty()) {
        // Arm's flow writes partition_report.txt into its intermediates folder; one lying beside
        // the program is read without being named.
        std::error_code error;
        const auto beside = std::filesystem::path(document->path).parent_path() / "partition_report.txt";
        if (std::filesystem::is_regular_file(beside, error))
            paths.push_back(beside.string());
    }
    std::vector<PartitionLog> logs;
    for (const std::string& path : paths) {
        auto log = readPartitionLogFile(path);
        if (!log) {
            std::cerr << "etscope why: " << log.error().message() << "\n";
            return ExitInput;
        }
        logs.push_back(std::move(log).value());
    }
    WhyOptions options;
    options.backend = args.value("backend");
    options.target = args.value("target");
    const auto report = explainProgram(*document, logs, record ? &*record : nullptr, options);
    if (!report) {
        std::cerr << "etscope why: " << report.error().message() << "\n";
        return report.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    if (format == "json")
        return emitReport("why", args, jsonText(whyJson(*report), 2) + "\n");
    if (format == "csv") {
        // CSV has no room for warnings: they go to stderr (text and JSON hold them).
        for (const Warning& warning : report->warnings)
            std::cerr << "etscope why: warning: " << warning.message << "\n";
        return emitReport("why", args, whyCsv(*report));
    }
    return emitReport("why", args, whyText(*report));
}

} // namespace etscope::app
