// SPDX-License-Identifier: MIT
#include "app/cli/reportcommand.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/devicecheck.h"
#include "core/analysis/kernelcheck.h"
#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/document/document.h"
#include "core/fullreport/report.h"
#include "core/report/reports.h"
#include "core/util/atomicfile.h"
#include "core/util/mappedfile.h"
#include "ui/document/timings.h"
#include "ui/report/reportrenderer.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

namespace etscope::app {

using namespace etscope::core;

namespace {

bool endsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// What the files after PROGRAM are, read or not: an input that cannot be read becomes an
/// omission in the section it was meant for (and a warning on stderr), never a failure.
struct ReportFiles {
    std::optional<ETDump> run;
    std::optional<ETDump> reference;
    std::optional<ETRecord> record;
    std::string inspectorTable;
    std::vector<ReportOmission> omissions;
    int dumps = 0; ///< ETDumps given so far, read or not
};

void omit(ReportFiles& files, const std::string& section, const std::string& reason)
{
    std::cerr << "etscope report: warning: " << reason << " (" << section << " left out)\n";
    files.omissions.push_back({ section, reason });
}

/// The section a file was meant for, guessed from its name when its bytes do not say.
std::string sectionByName(const std::string& path, const ReportFiles& files)
{
    if (endsWith(path, ".etdp"))
        return files.dumps == 0 ? "profile" : "gap";
    if (path.find("etrecord") != std::string::npos)
        return "operators";
    return "gap";
}

/// The first ETDump given is the run, the second the reference, whether or not the first could
/// be read (a damaged run leaves the profile out; it does not make the reference the run).
void readDump(ReportFiles& files, const std::string& path)
{
    const int position = files.dumps++;
    if (position >= 2) {
        std::cerr << "etscope report: warning: " << path << ": a third ETDump is not used (the first is the run, "
                  << "the second the reference)\n";
        return;
    }
    const std::string section = position == 0 ? "profile" : "gap";
    auto dump = readETDumpFile(path);
    if (!dump) {
        omit(files, section, dump.error().message());
        return;
    }
    if (auto error = attachDebugBufferOrDefault(dump.value(), {}))
        std::cerr << "etscope report: warning: " << error->message() << "\n";
    (position == 0 ? files.run : files.reference) = std::move(dump).value();
}

ReportFiles readFiles(const std::vector<std::string>& paths)
{
    ReportFiles files;
    for (const std::string& path : paths) {
        auto file = MappedFile::open(path);
        if (!file) {
            const std::string section = sectionByName(path, files);
            if (endsWith(path, ".etdp"))
                ++files.dumps;
            omit(files, section, file.error().message());
            continue;
        }
        switch (detectFileKind(file.value()->bytes())) {
        case FileKind::ETDump:
            readDump(files, path);
            break;
        case FileKind::ETRecord: {
            if (files.record) {
                std::cerr << "etscope report: warning: " << path << ": only the first ETRecord is used\n";
                break;
            }
            auto record = readETRecordFile(path);
            if (record)
                files.record = std::move(record).value();
            else
                omit(files, "operators", record.error().message());
            break;
        }
        case FileKind::Program:
        case FileKind::BundledProgram:
        case FileKind::ExternalData:
            std::cerr << "etscope report: warning: " << path
                      << ": a program is not an artifact of PROGRAM (give an older program with --baseline, "
                         "external data with --data); not used\n";
            break;
        case FileKind::Unknown:
            if (endsWith(path, ".etdp")) {
                omit(files, files.dumps++ == 0 ? "profile" : "gap",
                    path + ": not an ETDump (no ED00 identifier at byte 4)");
            } else if (!files.inspectorTable.empty()) {
                std::cerr << "etscope report: warning: " << path << ": only the first Inspector table is used\n";
            } else {
                files.inspectorTable = path; // read (and checked) when the gap is computed
            }
            break;
        }
    }
    return files;
}

} // namespace

int runReport(int argc, char** argv, const Arguments& args)
{
    const std::string output = args.value("output");
    if (output.empty()) {
        std::cerr << "etscope report: give the report to write with -o report.html|report.md|report.pdf\n";
        return ExitUsage;
    }
    if (reportFormatFor(output).empty()) {
        std::cerr << "etscope report: " << output << ": unknown report format (use .html, .md or .pdf)\n";
        return ExitUsage;
    }
    // Said before any work: every written file names its folder when that is the problem
    // (core), but the first one here is a picture beside the report, written after the analyses.
    if (const auto error = checkFolderFor(output)) {
        std::cerr << "etscope report: " << error->message() << "\n";
        return ExitInput;
    }
    if (args.positional().empty()) {
        std::cerr << "etscope report: expected PROGRAM [ETDUMP…] [ETRECORD] [INSPECTOR_TABLE] (see etscope --help)\n";
        return ExitUsage;
    }
    const std::string expand = args.value("expand", "all");
    std::set<std::string> sections;
    if (args.has("sections")) {
        std::stringstream list(args.value("sections"));
        for (std::string id; std::getline(list, id, ',');) {
            const auto& known = reportSectionIds();
            if (std::none_of(known.begin(), known.end(), [&](const auto& entry) { return entry.first == id; })) {
                std::string names;
                for (const auto& entry : known)
                    names += (names.empty() ? "" : ", ") + entry.first;
                std::cerr << "etscope report: unknown section '" << id << "' (sections: " << names << ")\n";
                return ExitUsage;
            }
            sections.insert(id);
        }
    }
    ui::timings::setEnabled(args.has("timings"));
    QElapsedTimer phase;
    phase.start();
    auto lists = loadKernelLists(args.values("kernels"), args.values("preset"));
    if (!lists) {
        std::cerr << "etscope report: " << lists.error().message() << "\n";
        return lists.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }

    // --device NAME (issue 33): the device's runtime replaces --kernels/--preset, as in check.
    std::optional<DeviceProfile> device;
    if (args.has("device") || args.has("device-file")) {
        if (!args.values("kernels").empty() || !args.values("preset").empty()) {
            std::cerr << "etscope report: --device checks against the device's own runtime; it does not take "
                         "--kernels or --preset\n";
            return ExitUsage;
        }
        std::vector<DeviceProfile> own;
        if (args.has("device-file")) {
            auto read = readDeviceFile(args.value("device-file"));
            if (!read) {
                std::cerr << "etscope report: " << read.error().message() << "\n";
                return read.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
            }
            own = std::move(*read);
        }
        std::string id = args.value("device");
        if (id.empty() && own.size() == 1)
            id = own.front().id;
        auto found = findDeviceProfile(id, own);
        if (!found) {
            std::cerr << "etscope report: " << found.error().message() << "\n";
            return ExitUsage;
        }
        auto deviceLists = deviceKernelLists(*found);
        if (!deviceLists) {
            std::cerr << "etscope report: device " << found->id << ": " << deviceLists.error().message() << "\n";
            return deviceLists.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        lists = std::move(deviceLists);
        device = std::move(found).value();
    }

    ReportFiles files = readFiles(std::vector<std::string>(args.positional().begin() + 1, args.positional().end()));
    OpenOptions options;
    options.dataFiles = args.values("data");
    if (files.record)
        options.delegateOutputCounts = files.record->allDelegateOutputCounts();
    auto opened = openDocument(args.positional().front(), options);
    if (!opened) {
        std::cerr << "etscope report: " << opened.error().message() << "\n";
        return opened.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    if (!opened->program) {
        std::cerr << "etscope report: " << opened->path << ": is not a program (" << fileKindName(opened->kind)
                  << "); report reads .pte and .bpte files\n";
        return ExitUsage;
    }
    auto document = std::make_shared<const Document>(std::move(opened).value());
    ui::timings::report("open", ui::timings::millisecondsSince(phase));
    phase.restart();
    if (args.has("method") && !selectMethod(*document->program, args.value("method"))) {
        std::cerr << "etscope report: " << document->path << ": no method named '" << args.value("method") << "'\n";
        return ExitUsage;
    }

    if (expand != "none" && expand != "all") {
        bool any = false;
        for (const MethodAnalysis& method : document->methods)
            if (method.graph)
                for (const Node& node : method.graph->nodes)
                    any = any || (node.kind == NodeKind::Delegate && node.subgraph && node.label == expand);
        if (!any) {
            std::cerr << "etscope report: " << document->path << ": no decodable delegate with backend id '" << expand
                      << "' (--expand none, all or a backend id)\n";
            return ExitUsage;
        }
    }

    std::optional<Document> baseline;
    if (args.has("baseline")) {
        OpenOptions baselineOptions;
        auto old = openDocument(args.value("baseline"), baselineOptions);
        if (!old)
            omit(files, "baseline", old.error().message());
        else if (!old->program)
            omit(files, "baseline", old->path + ": is not a program (" + std::string(fileKindName(old->kind)) + ")");
        else
            baseline = std::move(old).value();
    }

    ReportInputs inputs;
    inputs.document = document.get();
    inputs.run = files.run ? &*files.run : nullptr;
    inputs.reference = files.reference ? &*files.reference : nullptr;
    inputs.record = files.record ? &*files.record : nullptr;
    inputs.inspectorTable = files.inspectorTable;
    inputs.baseline = baseline ? &*baseline : nullptr;
    // Neither --kernels nor --preset: null, the builder takes the automatic runtime as check does.
    if (!args.values("kernels").empty() || !args.values("preset").empty() || device)
        inputs.kernels = &lists.value();
    inputs.device = device ? &*device : nullptr;
    inputs.method = args.value("method");
    inputs.expand = expand;
    inputs.omissions = files.omissions;
    inputs.sections = sections;
    // --timings: each step of the analyses ("analyse section memory"), then their total.
    QElapsedTimer step;
    step.start();
    std::string stepName;
    ReportControl control;
    control.progress = [&](const std::string& name, int, int) {
        if (!stepName.empty())
            ui::timings::report(stepName.c_str(), ui::timings::millisecondsSince(step));
        stepName = "analyse " + name;
        step.restart();
    };
    Report report = std::move(buildReport(inputs, control)).value(); // never cancelled here
    if (!stepName.empty())
        ui::timings::report(stepName.c_str(), ui::timings::millisecondsSince(step));
    ui::timings::report("analyse", ui::timings::millisecondsSince(phase));
    // Sections the inputs could not fill (the omissions above were printed when they happened).
    for (const std::string& warning : report.warnings)
        std::cerr << "etscope report: warning: " << warning << "\n";

    // The pictures come from the app's own renderers on Qt's offscreen platform (no display).
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::cerr << "etscope report: " << message.toStdString() << "\n";
    });
    QApplication application(argc, argv);
    // --timings: each picture's drawing time, then the writing of the file.
    std::string drawing;
    phase.restart();
    const auto progress = [&](const QString& id) {
        if (!drawing.empty())
            ui::timings::report(drawing.c_str(), ui::timings::millisecondsSince(phase));
        drawing = "picture " + id.toStdString();
        phase.restart();
    };
    auto error = ui::writeReport(report, document, QString::fromStdString(output), nullptr, progress);
    ui::timings::report(
        drawing.empty() ? "write" : (drawing + " + write").c_str(), ui::timings::millisecondsSince(phase));
    if (error) {
        std::cerr << "etscope report: " << error->toStdString() << "\n";
        return ExitInput;
    }
    for (const ReportPicture& picture : report.pictures)
        if (!picture.failed.empty())
            std::cerr << "etscope report: warning: picture '" << picture.id << "' not drawn: " << picture.failed
                      << "\n";
    return ExitOk;
}

} // namespace etscope::app
