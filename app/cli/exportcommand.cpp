// SPDX-License-Identifier: MIT
#include "app/cli/exportcommand.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/document/document.h"
#include "core/layout/graphlayout.h"
#include "core/report/reports.h"
#include "ui/document/timings.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/presentation.h"
#include "ui/graph/scenerenderer.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <iostream>
#include <sstream>

namespace etscope::app {

using namespace etscope::core;

int runExport(int argc, char** argv, const Arguments& args)
{
    const std::string output = args.value("output");
    if (output.empty()) {
        std::cerr << "etscope export: give the picture to write with -o OUT.png|.svg|.pdf\n";
        return ExitUsage;
    }
    if (!ui::imageFormatFor(QString::fromStdString(output))) {
        std::cerr << "etscope export: " << output << ": unknown picture format (use .png, .svg or .pdf)\n";
        return ExitUsage;
    }
    const std::string expand = args.value("expand", "none");
    ui::timings::setEnabled(args.has("timings"));
    int exitCode = ExitOk;
    auto document = openForCommand("export", args, exitCode);
    if (!document)
        return exitCode;
    ui::timings::report("open", document->readMilliseconds);
    if (!document->program) {
        std::cerr << "etscope export: " << document->path << ": is not a program; there is no graph to draw\n";
        return ExitUsage;
    }
    const Method* method = selectMethod(*document->program, args.value("method"));
    if (!method) {
        std::cerr << "etscope export: " << document->path << ": no method named '" << args.value("method") << "'\n";
        return ExitUsage;
    }
    const int methodIndex = static_cast<int>(method - document->program->methods.data());
    const Graph& top = *document->methods[static_cast<std::size_t>(methodIndex)].graph;

    ui::GraphContext context { methodIndex, NodeId::none() };
    std::set<int> expanded;
    if (args.has("delegate")) {
        const std::string wanted = args.value("delegate");
        for (const Node& node : top.nodes)
            if (node.kind == NodeKind::Delegate && std::to_string(node.delegate.value) == wanted) {
                context.delegateNode = node.id;
                break;
            }
        if (!context.delegateNode.valid()) {
            std::cerr << "etscope export: " << document->path << ": method '" << method->name << "' has no delegate "
                      << wanted << "\n";
            return ExitUsage;
        }
        if (!top.node(context.delegateNode).subgraph) {
            std::cerr << "etscope export: " << document->path << ": delegate " << wanted << " ("
                      << top.node(context.delegateNode).label << ") has no decodable inner graph\n";
            return ExitInput;
        }
    } else if (expand != "none") {
        bool any = false;
        for (const Node& node : top.nodes) {
            if (node.kind == NodeKind::Delegate && node.subgraph && (expand == "all" || node.label == expand)) {
                expanded.insert(node.id.value);
                any = true;
            }
        }
        if (!any && expand != "all") {
            std::cerr << "etscope export: " << document->path << ": no decodable delegate with backend id '" << expand
                      << "'\n";
            return ExitUsage;
        }
    }

    const auto grouping = ui::firstViewGrouping(*document, methodIndex);
    if (args.has("open-at")) {
        std::stringstream list(args.value("open-at"));
        for (std::string item; std::getline(list, item, ',');) {
            const auto instruction = parseIndex(item);
            const auto holds = [&](const NodeGroup& g) {
                return instruction && static_cast<std::size_t>(g.first.value) <= *instruction
                    && *instruction <= static_cast<std::size_t>(g.last.value);
            };
            const auto group = std::find_if(grouping->groups.begin(), grouping->groups.end(), holds);
            if (group == grouping->groups.end()) {
                std::cerr << "etscope export: " << document->path << ": method '" << method->name
                          << "' has no group holding instruction '" << item << "'"
                          << (grouping->empty() ? " (it is drawn whole)" : "") << "\n";
                return ExitUsage;
            }
            expanded.insert(ui::expandKeyOfGroup(static_cast<int>(group - grouping->groups.begin())));
        }
    }

    // Groups of a long method stay closed unless --open-at opens them; say what that hides.
    const long hidden = std::count_if(expanded.begin(), expanded.end(), [&](int key) {
        if (key < 0)
            return false;
        const int group = grouping->groupOfNode(NodeId(key));
        return group >= 0 && !expanded.count(ui::expandKeyOfGroup(group));
    });
    if (hidden > 0)
        std::cerr << "etscope export: note: " << hidden
                  << " expanded delegate(s) are inside closed groups of this long method and stay hidden; "
                     "open their groups with --open-at INSTRUCTION\n";

    // Same renderer as the GUI: Qt's offscreen platform needs no display. Qt's own chatter
    // (e.g. about XDG_RUNTIME_DIR) would break the one-line error contract on stderr.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::cerr << "etscope export: " << message.toStdString() << "\n";
    });
    QApplication application(argc, argv);
    auto shared = std::make_shared<const Document>(std::move(*document));
    QElapsedTimer phase;
    phase.start();
    auto presentation = ui::preparePresentation(shared, context, expanded, grouping);
    ui::timings::report("graph", shared->analyseMilliseconds + ui::timings::millisecondsSince(phase));
    phase.restart();
    auto layout = layoutGraph(presentation->request);
    ui::timings::report("layout", ui::timings::millisecondsSince(phase));
    if (!layout) {
        std::cerr << "etscope export: " << shared->path << ": " << layout.error().reason << "\n";
        return ExitInput;
    }
    presentation->layout = std::move(layout).value();
    phase.restart();
    ui::GraphScene scene;
    scene.setPresentation(presentation);
    ui::timings::report("scene", ui::timings::millisecondsSince(phase));
    phase.restart();
    const QString fileName = QFileInfo(QString::fromStdString(shared->path)).fileName();
    if (auto error
        = ui::exportScene(scene, QString::fromStdString(output), ui::reportOptions(*presentation, fileName))) {
        std::cerr << "etscope export: " << error->message() << "\n";
        return ExitInput;
    }
    ui::timings::report("render", ui::timings::millisecondsSince(phase));
    return ExitOk;
}

} // namespace etscope::app
