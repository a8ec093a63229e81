// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/buildgate.h"
#include "core/analysis/devicecheck.h"
#include "core/analysis/kernelcheck.h"
#include "core/document/document.h"
#include "core/util/jsontext.h"

#include <future>
#include <iostream>

namespace etscope::app {

using namespace etscope::core;

namespace {

/// The baseline of `check --baseline`, opened and checked on a thread of its own while the new
/// build is opened and checked on the caller's: the two are independent, and on a CI runner
/// with two cores the gate then takes the time of the larger program, not of both.
struct OpenedBaseline {
    Result<Document> document = Error { Error::Code::Usage, {}, "not opened" };
    KernelCheck check;
};

/// `lists` null: the runtime is automatic, known once the new build is open, and the baseline
/// is checked then (against the same runtime, so the gate compares like with like).
std::future<OpenedBaseline> openBaseline(const std::string& path, const KernelLists* lists)
{
    return std::async(std::launch::async, [path, lists] {
        OpenedBaseline opened;
        opened.document = openDocument(path);
        if (lists && opened.document && opened.document->program)
            opened.check = checkKernels(*opened.document, *lists);
        return opened;
    });
}

/// No --kernels and no --preset: the runtime the program's delegates say it is built for.
bool automaticRuntime(const Arguments& args)
{
    return args.values("kernels").empty() && args.values("preset").empty();
}

// `check NEW --baseline OLD`: the gate's rules decide the exit status, and the new build's kernel
// check follows the gate's table (in JSON under "kernel_check"). Whether the new build loads is a
// rule like the others (`--budget loads`): a program that already missed kernels in the baseline
// passes `no-new-missing`, which is what a gate on a model with custom operators needs.
int runGate(const Arguments& args, const Document& current, const KernelLists& lists,
    const std::vector<GateRule>& rules, const std::string& format, std::future<OpenedBaseline>& pending)
{
    const KernelCheck check = checkKernels(current, lists);
    OpenedBaseline opened = pending.get();
    auto& baseline = opened.document;
    if (lists.automatic && baseline && baseline->program)
        opened.check = checkKernels(*baseline, lists);
    if (!baseline) {
        std::cerr << "etscope check: baseline " << baseline.error().message() << "\n";
        return baseline.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    if (!baseline->program) {
        std::cerr << "etscope check: baseline " << baseline->path << ": is not a program ("
                  << fileKindName(baseline->kind) << "); --baseline takes a .pte or .bpte file\n";
        return ExitUsage;
    }
    const BuildGate gate = evaluateBuildGate(current, *baseline, check, opened.check, rules);
    std::string text;
    if (format == "json") {
        auto json = buildGateJson(gate);
        json["kernel_check"] = kernelCheckJson(check, lists);
        text = core::jsonText(json, 2) + "\n";
    } else {
        text = buildGateText(gate) + "\nKernel check of the new build\n\n" + kernelCheckText(check, lists);
    }
    const int written = emitReport("check", args, text);
    if (written != ExitOk)
        return written;
    return gate.passed() ? ExitOk : ExitMissing;
}

/// `check --list-devices` and `check PROGRAM --device NAME`: the device's runtime replaces
/// --kernels and --preset, which are refused beside it (one runtime per answer).
int runDeviceCheck(const Arguments& args, const std::string& format)
{
    std::vector<DeviceProfile> own;
    if (args.values("device-file").size() > 1) {
        std::cerr << "etscope check: --device-file is given once (a file may hold several devices)\n";
        return ExitUsage;
    }
    if (args.has("device-file")) {
        auto read = readDeviceFile(args.value("device-file"));
        if (!read) {
            std::cerr << "etscope check: " << read.error().message() << "\n";
            return read.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        own = std::move(*read);
    }
    if (args.has("list-devices")) {
        std::vector<DeviceProfile> all = own;
        all.insert(all.end(), builtinDeviceProfiles().begin(), builtinDeviceProfiles().end());
        const std::string text = format == "json" ? core::jsonText(deviceListJson(all), 2) + "\n" : deviceListText(all);
        return emitReport("check", args, text);
    }
    if (args.has("kernels") || args.has("preset") || args.has("baseline")) {
        std::cerr << "etscope check: --device checks against the device's own runtime; it does not take --kernels, "
                     "--preset or --baseline (a device file can name \"kernels\")\n";
        return ExitUsage;
    }
    std::string id = args.value("device");
    if (id.empty() && own.size() == 1)
        id = own.front().id;
    if (id.empty()) {
        std::cerr << "etscope check: --device NAME is needed (the device file holds " << own.size()
                  << " devices; etscope check --list-devices names them)\n";
        return ExitUsage;
    }
    auto device = findDeviceProfile(id, own);
    if (!device) {
        std::cerr << "etscope check: " << device.error().message() << "\n";
        return ExitUsage;
    }
    auto lists = deviceKernelLists(*device);
    if (!lists) {
        std::cerr << "etscope check: device " << device->id << ": " << lists.error().message() << "\n";
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
    const DeviceCheck check = checkDevice(*document, *device, *lists);
    const std::string text
        = format == "json" ? core::jsonText(deviceCheckJson(check, *lists), 2) + "\n" : deviceCheckText(check, *lists);
    const int written = emitReport("check", args, text);
    if (written != ExitOk)
        return written;
    return check.overall() == Fit::DoesNotFit ? ExitMissing : ExitOk;
}

} // namespace

int runCheck(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "json") {
        std::cerr << "etscope check: unknown format '" << format << "' (text or json)\n";
        return ExitUsage;
    }
    if (args.has("device") || args.has("list-devices") || args.has("device-file"))
        return runDeviceCheck(args, format);
    if (args.has("budget") && !args.has("baseline")) {
        std::cerr << "etscope check: --budget needs --baseline OLD.pte to compare against\n";
        return ExitUsage;
    }
    if (args.values("baseline").size() > 1) {
        std::cerr << "etscope check: --baseline is given once: the build to compare against\n";
        return ExitUsage;
    }
    // A bad rule is a usage error before anything is opened, like a bad list below.
    auto rules = parseGateRules(args.values("budget"));
    if (!rules) {
        std::cerr << "etscope check: " << rules.error().message() << "\n";
        return ExitUsage;
    }
    // The lists first: a typo in --kernels or --preset should not wait for a large program to open.
    // Neither given: the automatic runtime, chosen once the program is open (below).
    const bool automatic = automaticRuntime(args);
    auto lists = loadKernelLists(args.values("kernels"), args.values("preset"));
    if (!lists) {
        std::cerr << "etscope check: " << lists.error().message() << "\n";
        return lists.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    // The baseline opens beside the new build (its errors are reported once the new build opened).
    std::future<OpenedBaseline> baseline;
    if (args.has("baseline"))
        baseline = openBaseline(args.value("baseline"), automatic ? nullptr : &*lists);
    int exitCode = ExitOk;
    const auto document = openForCommand("check", args, exitCode);
    if (!document)
        return exitCode;
    if (!document->program) {
        std::cerr << "etscope check: " << document->path << ": is not a program (" << fileKindName(document->kind)
                  << "); check reads .pte and .bpte files\n";
        return ExitUsage;
    }
    if (automatic)
        *lists = presetKernelLists(presetForProgram(*document->program), true);
    if (args.has("baseline"))
        return runGate(args, *document, *lists, *rules, format, baseline);
    const KernelCheck check = checkKernels(*document, *lists);
    const std::string text
        = format == "json" ? core::jsonText(kernelCheckJson(check, *lists), 2) + "\n" : kernelCheckText(check, *lists);
    const int written = emitReport("check", args, text);
    if (written != ExitOk)
        return written;
    return check.loads() ? ExitOk : ExitMissing;
}

} // namespace etscope::app
