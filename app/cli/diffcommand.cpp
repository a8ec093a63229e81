// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/programdiff.h"
#include "core/debug/etrecord.h"
#include "core/util/jsontext.h"

#include <iostream>

namespace etscope::app {

using namespace etscope::core;

// Differences are the answer, not a failure: diff exits 0 whatever it finds (1 usage, 2 input).
int runDiff(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "md" && format != "markdown" && format != "json") {
        std::cerr << "etscope diff: unknown format '" << format << "' (text, md or json)\n";
        return ExitUsage;
    }
    if (args.positional().size() != 2) {
        std::cerr << "etscope diff: expected two program files A B (see etscope --help)\n";
        return ExitUsage;
    }
    const std::vector<std::string> recordPaths = args.values("etrecord");
    if (!recordPaths.empty() && recordPaths.size() != 2) {
        std::cerr << "etscope diff: --etrecord is given twice or not at all (A's record, then B's); got "
                  << recordPaths.size() << "\n";
        return ExitUsage;
    }
    std::vector<ETRecord> records;
    for (const std::string& path : recordPaths) {
        auto record = readETRecordFile(path);
        if (!record) {
            std::cerr << "etscope diff: " << record.error().message() << "\n";
            return record.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        records.push_back(std::move(record).value());
    }
    std::vector<Document> documents;
    for (const std::string& path : args.positional()) {
        OpenOptions options;
        options.dataFiles = args.values("data");
        auto document = openDocument(path, options);
        if (!document) {
            std::cerr << "etscope diff: " << document.error().message() << "\n";
            return document.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        documents.push_back(std::move(document).value());
    }
    DiffOptions options;
    options.method = args.value("method");
    if (records.size() == 2) {
        options.recordA = &records[0];
        options.recordB = &records[1];
    }
    const auto diff = diffPrograms(documents[0], documents[1], options);
    if (!diff) {
        std::cerr << "etscope diff: " << diff.error().message() << "\n";
        return diff.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    if (format == "json")
        return emitReport("diff", args, jsonText(programDiffJson(*diff), 2) + "\n");
    return emitReport(
        "diff", args, programDiffText(*diff, format == "text" ? TableFormat::Text : TableFormat::Markdown));
}

} // namespace etscope::app
