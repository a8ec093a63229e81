// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"
#include "core/util/jsontext.h"

#include "app/cli/cli.h"
#include "core/debug/edgegraph.h"
#include "core/document/document.h"
#include "core/document/sidegraphs.h"
#include "core/report/reports.h"
#include "core/stats/operatortable.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <iostream>

namespace etscope::app {

using namespace etscope::core;

std::optional<std::size_t> parseIndex(const std::string& text)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return static_cast<std::size_t>(std::stoul(text));
}

std::optional<Document> openForCommand(const std::string& command, const Arguments& args, int& exitCode)
{
    if (args.positional().size() != 1) {
        std::cerr << "etscope " << command << ": expected exactly one FILE (see etscope --help)\n";
        exitCode = ExitUsage;
        return std::nullopt;
    }
    OpenOptions options;
    options.dataFiles = args.values("data");
    auto document = openDocument(args.positional().front(), options);
    if (!document) {
        std::cerr << "etscope " << command << ": " << document.error().message() << "\n";
        exitCode = document.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        return std::nullopt;
    }
    exitCode = ExitOk;
    return std::move(document).value();
}

Output::Output(const Arguments& args)
{
    if (args.has("output"))
        m_file.emplace(args.value("output"));
}

void Output::write(std::string_view text)
{
    if (m_file)
        m_file->write(text);
    else
        std::cout << text;
}

int Output::finish(const std::string& command)
{
    if (!m_file) {
        std::cout.flush();
        return std::cout ? ExitOk : ExitInput;
    }
    if (auto error = m_file->commit()) {
        std::cerr << "etscope " << command << ": " << error->message() << "\n";
        return ExitInput;
    }
    return ExitOk;
}

int emitReport(const std::string& command, const Arguments& args, const std::string& text)
{
    Output output(args);
    output.write(text);
    return output.finish(command);
}

namespace {

const Method* methodForCommand(
    const std::string& command, const Document& document, const Arguments& args, int& exitCode)
{
    if (!document.program) {
        std::cerr << "etscope " << command << ": " << document.path << ": is not a program ("
                  << fileKindName(document.kind) << "); it has no methods\n";
        exitCode = ExitUsage;
        return nullptr;
    }
    const std::string name = args.value("method");
    const Method* method = selectMethod(*document.program, name);
    if (!method) {
        std::string known;
        for (const Method& m : document.program->methods)
            known += (known.empty() ? "" : ", ") + m.name;
        std::cerr << "etscope " << command << ": " << document.path << ": no method named '" << name
                  << "' (methods: " << known << ")\n";
        exitCode = ExitUsage;
        return nullptr;
    }
    return method;
}

/// The graph a graph-shaped command works on: a program's method, or one of an ETRecord's
/// graphs (its edge program per method, the ATen program, graph-map graphs).
struct CommandGraph {
    std::shared_ptr<const Graph> graph;
    std::string name;
    const ETRecordGraphView* record = nullptr; ///< set for ETRecord graphs
};

std::optional<CommandGraph> graphForCommand(const std::string& command, const Document& document,
    const std::vector<ETRecordGraphView>& views, const Arguments& args, int& exitCode)
{
    if (!document.etrecord) {
        const Method* method = methodForCommand(command, document, args, exitCode);
        if (!method)
            return std::nullopt;
        return CommandGraph { document.analysis(*method)->graph, method->name };
    }
    if (views.empty()) {
        // Bad input, not a usage error: say why the record holds no graph (an entry that did
        // not parse names itself and its JSON error among the warnings).
        std::string why = "the ETRecord holds no graph to show";
        const auto& warnings = document.etrecord->warnings;
        auto reason = std::find_if(warnings.begin(), warnings.end(), [](const Warning& w) {
            return w.message.find("entry 'edge_dialect_exported_program") != std::string::npos;
        });
        if (reason == warnings.end())
            reason = std::find_if(warnings.begin(), warnings.end(),
                [](const Warning& w) { return w.message.find("entry '") != std::string::npos; });
        if (reason != warnings.end()) {
            const std::string prefix = document.path + ": ";
            why += ": "
                + (reason->message.starts_with(prefix) ? reason->message.substr(prefix.size()) : reason->message);
        }
        std::cerr << "etscope " << command << ": " << document.path << ": " << why << "\n";
        exitCode = ExitInput;
        return std::nullopt;
    }
    const ETRecordGraphView* view = selectETRecordGraph(views, args.value("method"));
    if (!view) {
        std::string known;
        for (const ETRecordGraphView& v : views)
            known += (known.empty() ? "" : ", ") + v.name;
        std::cerr << "etscope " << command << ": " << document.path << ": no graph for '" << args.value("method")
                  << "' (graphs: " << known << ")\n";
        exitCode = ExitUsage;
        return std::nullopt;
    }
    return CommandGraph { view->graph, view->name, view };
}

/// `graph PROGRAM --tosa FILE|auto [--delegate N]`: the TOSA graph of one delegate, read from
/// FILE or found beside the program, printed like a method's graph.
int printSideGraph(Document& document, const Arguments& args, const std::string& format)
{
    std::optional<std::size_t> wanted;
    if (args.has("delegate")) {
        wanted = parseIndex(args.value("delegate"));
        if (!wanted) {
            std::cerr << "etscope graph: --delegate needs a delegate index (0, 1, …), not '" << args.value("delegate")
                      << "'\n";
            return ExitUsage;
        }
    }
    std::vector<Warning> warnings;
    std::optional<std::size_t> attachedTo;
    const std::string file = args.value("tosa");
    if (file == "auto") {
        warnings = attachTosaSideGraphs(document);
    } else {
        auto attached = attachTosaSideGraph(document, file, wanted);
        if (!attached) {
            std::cerr << "etscope graph: " << attached.error().message() << "\n";
            return attached.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
        }
        warnings = attached->warnings;
        attachedTo = attached->delegate;
    }
    for (const Warning& w : warnings)
        std::cerr << "etscope graph: warning: " << w.message << "\n";
    const Graph* graph = nullptr;
    for (const MethodAnalysis& analysis : document.methods)
        for (std::size_t d = 0; d < analysis.delegates.size() && !graph; ++d)
            if (analysis.delegates[d].sideGraph && (wanted ? d == *wanted : !attachedTo || d == *attachedTo))
                graph = analysis.delegates[d].sideGraph.get();
    if (!graph) {
        std::cerr << "etscope graph: " << document.path << ": no TOSA graph "
                  << (wanted ? "for delegate " + std::to_string(*wanted) : std::string("beside it"))
                  << " (Arm's flow writes <prefix>output_tag<N>_TOSA-<spec>.tosa)\n";
        return ExitInput;
    }
    if (format == "dot")
        return emitReport("graph", args, graphToDot(*graph));
    if (format == "json")
        return emitReport("graph", args, core::jsonText(graphToJson(*graph), 2) + "\n");
    return emitReport("graph", args, delegatedGraphText(*graph));
}

} // namespace

int runInfo(const Arguments& args)
{
    int exitCode = ExitOk;
    const auto document = openForCommand("info", args, exitCode);
    if (!document)
        return exitCode;
    if (args.has("json"))
        return emitReport("info", args, core::jsonText(documentInfoJson(*document), 2) + "\n");
    return emitReport("info", args, documentInfoText(*document));
}

int runOps(const Arguments& args)
{
    const auto format = parseTableFormat(args.value("format", "text"));
    if (!format) {
        std::cerr << "etscope ops: unknown format '" << args.value("format")
                  << "' (text, csv, tsv, md, html or json)\n";
        return ExitUsage;
    }
    int exitCode = ExitOk;
    const auto document = openForCommand("ops", args, exitCode);
    if (!document)
        return exitCode;
    const auto views = document->etrecord ? etrecordGraphViews(*document->etrecord) : std::vector<ETRecordGraphView>();
    const auto graph = graphForCommand("ops", *document, views, args, exitCode);
    if (!graph)
        return exitCode;
    OperatorTable table = computeOperatorTable(*graph->graph);
    // An ETRecord's edge program: get_delegation_info's own table (exact after lowering, else
    // the approximation through debug_handle_map).
    if (graph->record && !etrecordEdgeMethod(graph->name).empty())
        if (auto exact = etrecordOperatorTable(*document->etrecord, etrecordEdgeMethod(graph->name)))
            table = std::move(exact).value();
    // Text has no title, unless the method was chosen for the user among several: then it says
    // which (a QNN LLM's 29 methods gave kv_forward's table without a word).
    const std::size_t methods = document->program ? document->program->methods.size() : 0;
    const bool chosen = *format == TableFormat::Text && !graph->record && methods > 1 && !args.has("method");
    std::string title = *format == TableFormat::Text && !chosen
        ? std::string()
        : (graph->record ? "Operators of graph '" : "Operators of method '") + graph->name + "'";
    if (chosen)
        title += " (one of " + std::to_string(methods) + " methods; --method NAME for another)";
    return emitReport("ops", args, renderTable(operatorTableReport(table, title), *format));
}

int runGraph(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "dot" && format != "json") {
        std::cerr << "etscope graph: unknown format '" << format << "' (text, dot or json)\n";
        return ExitUsage;
    }
    int exitCode = ExitOk;
    auto document = openForCommand("graph", args, exitCode);
    if (!document)
        return exitCode;
    if (args.has("tosa"))
        return printSideGraph(*document, args, format);
    // Every format already carries each decoded delegate's inner graph (text indents it, DOT
    // draws clusters, JSON nests a `subgraph`): --expand, which decides that for pictures, would
    // change nothing here, so it is refused rather than silently ignored (issue 36).
    if (args.has("expand")) {
        std::cerr << "etscope graph: --expand is for pictures (export, report); graph's text, dot and json always "
                     "hold every decoded delegate's inner graph (--delegate N prints one alone)\n";
        return ExitUsage;
    }
    const auto views = document->etrecord ? etrecordGraphViews(*document->etrecord) : std::vector<ETRecordGraphView>();
    const auto selected = graphForCommand("graph", *document, views, args, exitCode);
    if (!selected)
        return exitCode;
    const Graph* chosen = selected->graph.get();
    // --delegate N: the inner graph of delegate N alone, as export draws it.
    if (args.has("delegate")) {
        const std::string wanted = args.value("delegate");
        const Node* delegate = nullptr;
        for (const Node& node : chosen->nodes)
            if (node.kind == NodeKind::Delegate && std::to_string(node.delegate.value) == wanted) {
                delegate = &node;
                break;
            }
        if (!delegate) {
            std::cerr << "etscope graph: " << document->path << ": graph '" << selected->name << "' has no delegate "
                      << wanted << "\n";
            return ExitUsage;
        }
        chosen = delegate->subgraph ? delegate->subgraph.get() : nullptr;
        if (!chosen) {
            std::cerr << "etscope graph: " << document->path << ": delegate " << wanted << " (" << delegate->label
                      << ") has no decodable inner graph\n";
            return ExitInput;
        }
    }
    const Graph& graph = *chosen;
    if (format == "dot")
        return emitReport("graph", args, graphToDot(graph));
    if (format == "json")
        return emitReport("graph", args, core::jsonText(graphToJson(graph), 2) + "\n");
    return emitReport("graph", args, delegatedGraphText(graph));
}

} // namespace etscope::app
