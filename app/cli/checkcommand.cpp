// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/kernelcheck.h"
#include "core/document/document.h"
#include "core/util/jsontext.h"

#include <iostream>

namespace etscope::app {

using namespace etscope::core;

int runCheck(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "json") {
        std::cerr << "etscope check: unknown format '" << format << "' (text or json)\n";
        return ExitUsage;
    }
    // The lists first: a typo in --kernels or --preset should not wait for a large program to open.
    auto lists = loadKernelLists(args.values("kernels"), args.values("preset"));
    if (!lists) {
        std::cerr << "etscope check: " << lists.error().message() << "\n";
        return lists.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    int exitCode = ExitOk;
    const auto document = openForCommand("check", args, exitCode);
    if (!document)
        return exitCode;
    if (!document->program) {
        std::cerr << "etscope check: " << document->path << ": is not a program (" << fileKindName(document->kind)
                  << "); check reads .pte and .bpte files\n";
        return ExitUsage;
    }
    const KernelCheck check = checkKernels(*document, *lists);
    const std::string text
        = format == "json" ? core::jsonText(kernelCheckJson(check, *lists), 2) + "\n" : kernelCheckText(check, *lists);
    const int written = emitReport("check", args, text);
    if (written != ExitOk)
        return written;
    return check.loads() ? ExitOk : ExitMissing;
}

} // namespace etscope::app
