// SPDX-License-Identifier: MIT
// etscope cost PROGRAM [--method NAME] [--vela LOG]… [--run-log LOG]… [--format text|json|csv] [-o OUT]: what each
// operation costs (core/cost). The figures of vendor logs (--vela, --run-log: core/vendorlogs) are joined into the same
// CostReport (NodeCost::vendor, DelegateCost::vendor) before it is rendered.
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/cost/cost.h"
#include "core/cost/costreport.h"
#include "core/cost/costvendor.h"
#include "core/document/document.h"
#include "core/util/jsontext.h"

#include <iostream>

namespace etscope::app {

using namespace etscope::core;

int runCost(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "json" && format != "csv") {
        std::cerr << "etscope cost: unknown format '" << format << "' (text, json or csv)\n";
        return ExitUsage;
    }
    int exitCode = ExitOk;
    const auto document = openForCommand("cost", args, exitCode);
    if (!document)
        return exitCode;
    cost::CostOptions options;
    options.method = args.value("method");
    auto report = cost::computeCost(*document, options);
    if (!report) {
        std::cerr << "etscope cost: " << report.error().message() << "\n";
        return report.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    cost::VendorLogs logs;
    logs.vela = args.values("vela");
    logs.runs = args.values("run-log");
    std::string joins;
    if (!logs.vela.empty() || !logs.runs.empty()) {
        auto joined = cost::joinVendorLogs(*report, *document, logs);
        if (!joined) {
            std::cerr << "etscope cost: " << joined.error().message() << "\n";
            return joined.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        joins = *joined;
    }
    // CSV has no room for warnings: they go to stderr (text and JSON hold them).
    if (format == "csv")
        for (const Warning& w : report->warnings)
            std::cerr << "etscope cost: " << document->path << ": warning: " << w.message << "\n";
    if (format == "json")
        return emitReport("cost", args, jsonText(cost::costJson(*report), 2) + "\n");
    if (format == "csv")
        return emitReport("cost", args, cost::costCsv(*report));
    return emitReport("cost", args, cost::costText(*report) + (joins.empty() ? "" : "\nVendor figures:\n" + joins));
}

} // namespace etscope::app
