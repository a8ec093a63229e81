// SPDX-License-Identifier: MIT
#include "cli.h"

#include "arguments.h"
#include "commands.h"
#include "exportcommand.h"

#include <cstring>
#include <iostream>
#include <string>

namespace etscope::app {

namespace {

constexpr std::string_view kHelp = R"(etscope — see what ExecuTorch really did with your model

Usage:
  etscope [FILE…]                      open the desktop app (the bundled demo without FILE)
  etscope info FILE [--json] [--data PTD]
  etscope ops FILE [--method NAME] [--format text|csv|tsv|md|html|json] [-o OUT]
  etscope graph FILE [--method NAME] --format text|dot|json [-o OUT]
  etscope export FILE -o OUT.png|OUT.svg|OUT.pdf [--method NAME] [--expand none|all|BACKEND_ID]
                 [--delegate N]
  etscope --help | --version

Subcommands:
  info    Describe a program (.pte), bundled program (.bpte) or external data file (.ptd):
          identifier, extended header, segments, every method with its instruction kinds,
          operators and delegates (backend, location, size, compile specs, inner graph).
  ops     The operator occurrence table of a method, like ExecuTorch's get_delegation_info:
          op_type, occurrences in delegated and non-delegated graphs, a Total row and the
          three summary lines. Non-delegated ops are KernelCalls named name.overload;
          delegated ops are the nodes of decoded delegate payloads (XNNPACK node types).
  graph   The data-flow graph of a method: `text` prints it in the style of
          format_delegated_graph (delegates with their inner graph indented), `dot` writes
          Graphviz DOT with expanded delegates as clusters, `json` the full node/edge list.
  export  The graph as a picture, drawn by the same renderer as the desktop app (no display
          needed): PNG, SVG (text stays text) or PDF. --expand all|BACKEND_ID shows delegates
          expanded in place; --delegate N draws the inner graph of delegate N alone.

Options:
  --method NAME   method to use (default: forward if present, else the first with instructions)
  --format F      output format (see each subcommand)
  --json          info: print JSON instead of text
  --data PTD      attach an external data file (.ptd); repeatable. Without it a .ptd beside
                  the program is attached when the program needs one.
  -o, --output F  write to F (atomically) instead of standard output

Exit status: 0 success, 1 usage error, 2 unreadable or invalid input (one line on stderr
naming the file, the reason and, where known, the byte offset).
)";

} // namespace

std::string_view helpText()
{
    return kHelp;
}

bool isCliInvocation(int argc, char** argv)
{
    if (argc < 2)
        return false;
    const std::string first = argv[1];
    return first == "info" || first == "ops" || first == "graph" || first == "export" || first == "--help"
        || first == "-h" || first == "help" || first == "--version" || first == "-v";
}

int runCli(int argc, char** argv)
{
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kHelp;
        return ExitOk;
    }
    if (command == "--version" || command == "-v") {
        std::cout << "etscope " << ETSCOPE_VERSION << "\n";
        return ExitOk;
    }
    Arguments::Spec spec;
    spec.flags = { "json", "help" };
    spec.options = { "method", "format", "data", "output", "expand", "delegate" };
    spec.shortNames = { { "o", "output" }, { "h", "help" } };
    Arguments args;
    if (!args.parse(argc, argv, 2, spec)) {
        std::cerr << "etscope " << command << ": " << args.error() << " (see etscope --help)\n";
        return ExitUsage;
    }
    if (args.has("help")) {
        std::cout << kHelp;
        return ExitOk;
    }
    if (command == "info")
        return runInfo(args);
    if (command == "ops")
        return runOps(args);
    if (command == "graph")
        return runGraph(args);
    if (command == "export")
        return runExport(argc, argv, args);
    std::cerr << "etscope: unknown subcommand '" << command << "' (see etscope --help)\n";
    return ExitUsage;
}

} // namespace etscope::app
