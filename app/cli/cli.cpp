// SPDX-License-Identifier: MIT
#include "app/cli/cli.h"

#include "app/cli/analysiscommands.h"
#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "app/cli/exportcommand.h"
#include "app/cli/gap.h"
#include "app/cli/reportcommand.h"

#include "core/layout/layoutwire.h"
#include "core/util/platform.h"

#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

namespace etscope::app {

namespace {

constexpr std::string_view kHelp = R"(etscope — see what ExecuTorch really did with your model

Usage:
  etscope [--theme system|light|dark] [--log CATS] [--timings] [--quit-after-paint] [FILE…]
                                       open the desktop app (the bundled demo without FILE)
  etscope info FILE [--json] [--data PTD] [--debug-buffer BIN]
  etscope ops FILE [--method NAME] [--etrecord R] [--format text|csv|tsv|md|html|json] [-o OUT]
  etscope graph FILE [--method NAME] [--format text|dot|json] [-o OUT]
  etscope graph PROGRAM --tosa FILE|auto [--delegate N] [--format text|dot|json] [-o OUT]
  etscope export FILE -o OUT.png|OUT.svg|OUT.pdf [--method NAME] [--expand none|all|BACKEND_ID]
                 [--delegate N] [--open-at INSTRUCTION[,…]] [--timings]
  etscope gap PROGRAM --etdump A.etdp [--debug-buffer A.bin] [--run N]
              (--reference B.etdp [--reference-buffer B.bin] [--reference-run N]
               | --inspector-table T | --bundled-reference [--test-case N])
              [--etrecord R] [--metric mse|l1|snr|cosine|maxabs] [--method NAME]
              [--first-divergence [--threshold METRIC=VALUE]…]
              [--format text|csv|tsv|md|html|json] [-o OUT]
  etscope gap B.pte --etdump B.etdp --reference-program A.pte --reference A.etdp
              [--etrecord RB --etrecord RA] [--first-divergence [--threshold M=V]…] [--format …]
  etscope gap --stage A.pte:a.etdp[:a.etrecord] --stage B.pte:b.etdp … [--metric NAME]
              [--threshold M=V]… [--plot OUT.png|OUT.svg] [--format …] [-o OUT]
              (a stage may be an Inspector table: --stage A.pte:aot.csv[:a.etrecord])
  etscope profile PROGRAM --etdump A.etdp [--etrecord R] [--method NAME]
              [--format text|csv|tsv|md|html|json] [-o OUT]
  etscope profile A.etdp [--format …] [-o OUT]     (an ETDump alone: per event)
  etscope check PROGRAM [--kernels LIST]… [--preset NAME]… [--format text|json] [-o OUT]
  etscope check NEW.pte --baseline OLD.pte [--budget RULE]… [--kernels LIST]… [--preset NAME]…
              [--format text|json] [-o OUT]
  etscope check PROGRAM --device NAME [--device-file FILE] [--format text|json] [-o OUT]
  etscope check --list-devices [--device-file FILE] [--format text|json]
  etscope memory PROGRAM [--method NAME] [--format text|csv|json|chrome-trace] [-o OUT]
  etscope size PROGRAM [--data PTD] [--format text|json|csv] [-o OUT]
  etscope timeline ETDUMP [--program P] [--run N] [--format csv|chrome-trace] [-o OUT]
  etscope cost PROGRAM [--method NAME] [--vela LOG]... [--run-log LOG]... [--format text|json|csv] [-o OUT]
  etscope diff A.pte B.pte [--etrecord RA --etrecord RB] [--method NAME]
              [--format text|md|json] [-o OUT]
  etscope why PROGRAM [--report LOG]… [--etrecord R] [--backend ID [--target T]] [--format text|json|csv]
              [-o OUT]
  etscope report PROGRAM [ETDUMP [REFERENCE_ETDUMP]] [ETRECORD] [INSPECTOR_TABLE]
                 -o report.html|report.md|report.pdf [--baseline OLD.pte] [--method NAME]
                 [--expand none|all|BACKEND_ID] [--kernels LIST]… [--preset NAME]…
                 [--sections ID,…] [--timings] [--device NAME [--device-file FILE]]
  etscope --help | --version

Subcommands:
  info    Describe a program (.pte), bundled program (.bpte) or external data file (.ptd):
          identifier, extended header, segments, every method with its instruction kinds,
          operators and delegates (backend, location, size, compile specs, inner graph).
          An ETDump (.etdp): run blocks, event counts and names, delegate debug ids and the
          logged tensors (checked against the debug buffer <stem>.debug.bin beside it, or
          --debug-buffer). An ETRecord: entries, methods, graphs with node counts, the maps.
  ops     The operator occurrence table of a method, like ExecuTorch's get_delegation_info:
          op_type, occurrences in delegated and non-delegated graphs, a Total row and the
          three summary lines. Non-delegated ops are KernelCalls named name.overload;
          delegated ops are the nodes of decoded delegate payloads (XNNPACK node types).
          With --etrecord R the table is get_delegation_info's own, from the edge graph.
          Then the delegated share: % of nodes and % of unique op types delegated, overall
          and per backend.
  graph   The data-flow graph of a method: `text` prints it in the style of
          format_delegated_graph (delegates with their inner graph indented), `dot` writes
          Graphviz DOT with expanded delegates as clusters, `json` the full node/edge list.
          On an ETRecord (graph and ops): its edge program (--method picks another graph:
          `forward (edge)`, `aten_dialect_output/forward`, …), lowered modules of every
          backend with their original graphs; ops gives get_delegation_info's exact table.
          --tosa FILE prints instead the TOSA graph Arm's flow wrote for a delegate
          (<prefix>output_tag<N>_TOSA-1.0+INT.tosa), attached to delegate N (--delegate) or
          to the delegate whose inputs and outputs it has; --tosa auto finds such files beside
          the program. A graph whose shapes differ from the delegate's is a warning on stderr.
  export  The graph as a picture, drawn by the same renderer as the desktop app (no display
          needed): PNG, SVG (text stays text) or PDF. --expand all|BACKEND_ID shows delegates
          expanded in place; --delegate N draws the inner graph of delegate N alone.
          Methods of more than 1,200 nodes are drawn as groups of consecutive instructions;
          --open-at I,J opens the groups holding instructions I and J (delegates in closed
          groups stay hidden).
  gap     The numeric gap per node, in execution order: the intermediate outputs of the
          ETDump --etdump against those of --reference (another run of the same program),
          its program outputs against the bundled program's expected outputs
          (--bundled-reference, PROGRAM being the .bpte), or an Inspector
          calculate_numeric_gap table saved as CSV, TSV or JSON, or pasted as printed by
          print(df), df.to_string() or tabulate (fancy_grid, github, plain, grid, psql,
          pipe, Markdown) (--inspector-table; no ETDump needed; a table without debug
          handles is placed by runtime op order). Metrics: MSE, L1 (a sum), SNR (dB),
          cosine similarity, max |a-b| in float64 (all five, or the one --metric names).
          --etrecord adds debug handles, edge op names and delegate output counts.
          An ETDump holds one Execute block per run of the program: --run N and
          --reference-run N pick one (counted from 0, default 0), --test-case N the bundled
          test case (default the run's bundled_input_index, else 0); the notes say which,
          e.g. run: A.etdp (Execute block 1 of 3). Both ETDumps are checked against the
          program (kernel event names vs operators, instruction ids, logged tensor shapes and
          dtypes, debug buffers that are other files): disagreements are a few warnings.
          Metrics that are not finite print as inf, -inf and nan in text, CSV, TSV, Markdown
          and HTML (SNR is inf for identical values, -inf when the reference is all zeros;
          nan comes from inf or nan in the values). JSON has no such numbers: there they are
          null, and the row's non_finite column names them: snr=inf, cosine=nan.
          Warnings go to stderr and into the notes; CSV and TSV have no notes, so their
          notes go to stderr too.
          --reference-program A.pte: the run of PROGRAM (build B) against the run of
          another build of the model (--reference, logged from A). Nodes are paired as
          diff pairs them (debug handles with --etrecord twice, B's first; execution order;
          operator families into delegates); matched_by says how. Integer outputs whose
          program states scale and zero point (quantize/dequantize_per_tensor around them,
          a delegate's output quantization) are dequantized first (column dequantized).
          --first-divergence prints the first row, in execution order, whose gap crosses a
          threshold, with its node path (exit 0 also when none does). Defaults: snr < 20 dB
          or rel > 0.1 (max |a-b| / max |a|); Inspector tables: jump > 1000 (a gap 1000 ×
          the table's median). --threshold METRIC=VALUE (repeatable) replaces them. See
          docs/gap.md.
          --stage PROGRAM:ETDUMP[:ETRECORD], twice or more: builds of one model in one table,
          each compared with the first (its outputs are the rows): per stage the metric (SNR
          by default) and matched_by; each stage's first divergence in the notes. Debug
          buffers are read from beside each ETDump (a.debug.bin). --plot OUT.png|OUT.svg
          draws the metric along the first stage's execution order, a line per stage.
          A stage PROGRAM:TABLE[:ETRECORD] with an Inspector table (.csv, .tsv, .json, .txt
          or .md) in place of the ETDump: its aot_intermediate_output values on PROGRAM's
          nodes (debug handles through the ETRecord), the eager/AOT reference as stage 0.
  profile Per-node timing over the Execute blocks (runs) of an ETDump, as the Inspector
          tabulates it: node, event_name (native_call_<op> for kernels, DELEGATE_CALL for
          delegate calls, the backend's own event for inner nodes such as XNNPACK ops),
          instruction, count (runs), min, p50, p90, avg and max in ms. Ticks are read as
          nanoseconds (the POSIX platform layer); percentiles interpolate linearly.
          --etrecord adds op_types (edge graph node names). The ETDump is checked against
          the program as for gap. Without a program (`etscope profile A.etdp`, or only
          --etdump): one row per event instead, framework events first, delegate-internal
          events named by their delegate debug identifier, with kind, chain and instruction.
  check   Will it load: every KernelCall's operator (name.overload, as the runtime looks it
          up) of every method against kernel lists, every delegate's backend, and the
          delegated share. --kernels names a built-in list (portable, optimized, quantized,
          cortex_m, prim: ExecuTorch's kernel YAML files) or a file: selected_operators.yaml,
          a functions.yaml, or one name per line (also a registered-kernels dump or log;
          backend ids there say which backends are linked). Repeatable; prim is always
          added. --preset adds the lists one of ExecuTorch's runners links: portable
          (portable only), arm-ethos-u (portable + quantized + cortex_m, the Arm Ethos-U
          executor_runner), android-xnnpack (portable + optimized + quantized,
          executorch_jni), llama (portable + optimized + quantized, llama_main; its custom
          ops need a list file). Without --kernels or --preset the runtime is automatic:
          the preset linking the backend of the most delegates (EthosUBackend: arm-ethos-u,
          XnnpackBackend: android-xnnpack; a tie goes to the first in that list), portable
          for a program without such delegates; a Runtime line says which and why, JSON has
          "runtime". --preset portable gives the answer of before automatic existed.
          When operators are missing a Hint line names the built-in
          lists (and the preset) that provide them. Exit 3 when an operator has no kernel (or
          a backend a list leaves out), 0 when every one resolves.
          With --baseline OLD.pte it is a CI gate: is the new build worse than OLD by more
          than the --budget rules allow? A table of each rule with old, new, change, limit
          and verdict, the details (parts that grew, operators that left a delegate, kernels
          newly missing, backends gone), then the new build's kernel check. Rules:
          size+5% or size+100KiB (file size growth), delegated-share-2pt (drop of the
          delegated share of nodes, in points), arena+10% or arena+1MiB (each method's
          declared memory arenas, summed), no-new-fallback (no operator moved out of a
          delegate onto the CPU kernels), no-new-missing (no operator or backend newly
          without a kernel in the lists), no-lost-delegate (every backend of OLD still
          used), loads (the new build loads with the lists). Without --budget:
          no-new-missing and no-lost-delegate. Exit 3 when a rule fails, 0 when all hold
          (the new build loading is only required with --budget loads). A baseline with
          other methods or inputs is noted as a different model; the rules compare what
          both have. See docs/ci-gate.md.
          With --device NAME: will it run on that phone, board or OS? Each delegate's
          "built for" facts (QNN SoC, HTP min_arch, VTCM and SDK; Ethos-U NPU and MACs; Core
          ML specification version) against the device's, one answer per delegate: fits,
          does not fit or unverified (no rule is certain), with the reason; then the kernel
          check against the device's runtime (its kernel lists and linked backends).
          --list-devices shows the profiles (sm8450, sm8550, sm8650, sm8750, corstone-300,
          corstone-320, alif-e8, ios-16/17/18, macos-13/14/15, android-arm64, rpi5);
          --device-file FILE (JSON) adds your own, e.g. a phone with a given QNN SDK
          ("based_on": "sm8650", "qnn_sdk": "2.28.0"). Exit 3 when it will not run (a
          delegate does not fit, a kernel or backend is missing), 0 otherwise. See
          docs/check.md, "Devices".
  memory  The memory plan of a method: per arena (mem_id) the declared size, the highest
          offset + size used, the peak of live bytes and its step, the share of the used
          extent idle at the peak; the stored tensor data by place (constant segment, legacy
          constant_buffer, external, mutable data); then every planned tensor with arena,
          offset, bytes and lifetime: first write to last read in execution order (chains
          one after the other; inputs from step 0, outputs and mutable state to the end;
          backward jumps are loops; elided views share their source's bytes). Overlapping
          live tensors and tensors beyond their arena are warnings. csv: the tensor table;
          json: everything; chrome-trace: one event per live tensor per step (pid = arena,
          row = step, x = byte offset), as ExecuTorch's generate_memory_trace draws it.
  size    What makes the file this big: every byte of a .pte, .bpte or .ptd in exactly one
          part — header, program tables, inline delegate blobs, constants (one per tensor,
          constant segment or the old constant_buffer), mutable data, delegate segments by
          backend, named data by key (counted for the backend whose payload names the key),
          unreferenced segments, padding, trailing bytes; a .bpte's wrapper (test inputs,
          expected outputs) is its own part. A program's .ptd (beside it or --data) gets
          its own breakdown. text: the tree, largest first, with the largest parts and the
          bytes by kind and by backend; json: the full tree with absolute byte ranges and
          links (method + delegate or value index, key); csv: one row per byte range.
  timeline Every profiling event of every run of an ETDump on a time axis: per run (Execute
          block; --run N shows one, counted from 0; default all) a lane for the method
          (Method::execute, instruction spans, kernels, nested as depth levels) and one per
          delegate call site with the backend's own events (XNNPACK's "Fully Connected (NC,
          QS8) GEMM #1"). chrome-trace writes Chrome Trace Event JSON for Perfetto
          (ui.perfetto.dev) or chrome://tracing: a process per run, a thread per lane, times
          in µs on the ETDump's clock (ticks read as ns); the default when -o names a .json
          file. csv (the default otherwise) writes one row per event: run,
          lane, depth, name, kind, start_us (from the run's start), duration_us, chain,
          instruction, delegate id, node, op_types. --program P places events on its nodes
          (as profile does; --method, --data, --etrecord R for edge op names) and checks the
          ETDump against it; warnings go to stderr.
  cost    What each operation costs, from the shapes in the file: MACs (multiply-accumulates
          of convolutions, matrix products, attention), other arithmetic ops (per element:
          elementwise, pooling windows, reductions, softmax, norms), bytes read and written,
          parameter bytes and arithmetic intensity of every operator node, top level and
          inside decoded delegates (XNNPACK, TOSA, Core ML, Ethos-U NPU kicks from their
          registers), with totals per backend, delegate, operator kind and method. A node
          with no rule says "no rule", one whose shapes are missing "no shape" (never 0).
          Ethos-U: kicks grouped into operators, and a cycle ESTIMATE per kick from the
          NPU's MACs per cycle and the memory bandwidths of the --system-config its compile
          flags name (docs/cost.md). text: the totals; json: totals and one row per node;
          csv: one row per node. --vela LOG joins a Vela log (console output or per-layer
          CSV) to each Ethos-U delegate: its register listing is compared with ETScope's
          decode, its per-layer rows go on the NPU kicks, its summary on the delegate; a log
          of another stream is refused, saying why. --run-log LOG joins the Arm executor
          runner's output: measured NPU cycles and PMU counters on the delegate call
          (docs/vendorlogs.md).
  diff    What changed between two programs A and B (.pte or .bpte): a summary line first
          (methods, delegates per backend with payload bytes, operators moved into or out
          of delegates, nodes same/changed/unverified/only in A/only in B, file size), then
          sizes (file, FlatBuffer, segments, constant data, delegate payloads, named data),
          the delegates per backend, and per method the two operator tables side by side,
          the operators that moved (aten::addmm.out → XNNFullyConnected) and the nodes that
          differ. Nodes are matched in execution order (longest common subsequence of the
          operators), delegate insides likewise; an operator that left the top level is
          matched with a node of the same kind in a delegate between the same anchors.
          With --etrecord RA --etrecord RB (the ETRecords of A and B, in that order; both
          or none) nodes whose debug handles intersect are matched first (delegate insides
          through delegate_map) and the execution-order alignment runs between them. A
          method in one file only is reported, not an error. Exit status 0 whatever the
          differences (compare the JSON to script on them).
  report  Everything above in one file: summary (methods, backends, delegated share, will it
          load, peak memory per arena, size by part), each method's graph (long methods as
          their overview plus the groups holding problems), operator tables (an ETRecord's
          exact one too), the load check, memory charts, the size treemap; with an ETDump the
          slowest operators and the timeline, with a second ETDump or an Inspector table the
          numeric gap's worst nodes, with --baseline what changed. Files after PROGRAM are
          recognised by their bytes. .html is one self-contained file (inline SVG, no
          network), .md suits a pull-request comment (pictures as PNG files beside it), .pdf
          has A4 pages with headers and page numbers. An input that cannot be read leaves its
          section out with the reason (and a warning on stderr); the rest is written.
  why     Why each operator outside every delegate stayed on the CPU: checked against the
          rule tables of the program's backends (or --backend ID) and answered as a failing
          constraint with the node's value, "no rule of BACKEND covers OP", or "every known
          constraint holds: the partitioner's log will say why"; quantize/dequantize at
          delegate edges grouped once as boundary conversions. Each answer names its upstream
          source. --report LOG (repeatable; partition_report.txt beside the program is read
          by itself) adds the partitioners' own reasons — Arm's WhyNoPartitionReporter table,
          XNNPACK's WhyNoPartition lines, QNN's op-support and Core ML's skip lines — placed
          by FX node name through --etrecord R, else by operator type and order.

Options:
  --report LOG    why: a partitioner log or partition_report.txt; repeatable
  --backend ID    why: check against this backend's rules (XnnpackBackend, EthosUBackend,
                  VgfBackend, QnnBackend) instead of the program's own
  --target T      why, with --backend: the device the rules are chosen for (Ethos-U55,
                  Ethos-U65, Ethos-U85); without it a target-specific rule stays unverified
  --method NAME   method to use (default: forward if present, else the first with instructions)
  --format F      output format (see each subcommand)
  --json          info: print JSON instead of text
  --data PTD      attach an external data file (.ptd); repeatable. Without it a .ptd beside
                  the program is attached when the program needs one.
  -o, --output F  write to F (atomically) instead of standard output
  --etdump F      gap, profile: the run's ETDump; --debug-buffer its tensor bytes
  --run N         gap: the Execute block of --etdump to compare (from 0; default 0);
                  timeline: the one run to show (default every run)
  --reference-run N  gap: the Execute block of --reference (from 0; default 0)
  --test-case N   gap: the bundled test case for --bundled-reference (from 0)
  --etrecord R    ops, gap, profile: the ETRecord of the program; diff: twice, A's then B's;
                  gap --reference-program: twice, the run's then the reference's
  --reference-program P  gap: the program --reference was logged from (another build)
  --first-divergence  gap: print the first row whose gap crosses a threshold
  --threshold M=V gap --first-divergence: mse, l1, snr, cosine, maxabs, rel or jump; repeatable
  --stage P:E[:R] gap: a build (program, ETDump or Inspector table, ETRecord) of the model;
                  repeatable, ≥ 2
  --plot OUT      gap --stage: draw the metric per stage to OUT.png or OUT.svg
  --kernels LIST  check: a built-in kernel list or a list file; repeatable
  --preset NAME   check: the lists of a runtime (portable, arm-ethos-u, android-xnnpack,
                  llama); repeatable; default: automatic, from the program's delegates
  --baseline OLD  check: the build to compare against (the CI gate); report: the program
                  to compare with (what changed)
  --budget RULE   check: a gate rule (size+5%, delegated-share-2pt, arena+10%,
                  no-new-fallback, no-new-missing, no-lost-delegate, loads,
                  same-device-facts, macs+5%, cycles+5%); repeatable
  --device NAME   check: the device profile to check against (--list-devices names them);
                  report: the device the "will it load" section answers for
  --device-file F check: a JSON file of your own device profiles (docs/check.md)
  --list-devices  check: list the device profiles and exit
  --program P     timeline: the program the ETDump ran, to place events on its nodes
  --tosa FILE     graph: a delegate's TOSA graph (or auto: found beside the program)
  --sections IDS  report: only these sections (summary, graphs, operators, load, memory,
                  size, profile, gap, cost, why, baseline, warnings), comma-separated
  --timings       the desktop app, export, report: how long each phase takes, to stderr
  --theme T       the desktop app: system, light or dark for this run
  --quit-after-paint  the desktop app: exit once the first file's view is painted (benchmarks)
  --log CATS      the desktop app: debug lines of these logging categories to stderr, for a
                  bug report (etscope.open, etscope.layout, etscope.delegates, etscope.debug,
                  etscope.ui, or all; QT_LOGGING_RULES works too), comma-separated

Exit status: 0 success, 1 usage error, 2 unreadable or invalid input (one line on stderr
naming the file, the reason and, where known, the byte offset), 3 check: will not load,
with --device: will not run there, with --baseline: a rule failed.
)";

} // namespace

std::string_view helpText()
{
    return kHelp;
}

std::string subcommandHelp(std::string_view command)
{
    // kHelp's own shape: usage entries start "  etscope NAME " and go on in lines indented
    // further; a subcommand's paragraph starts "  NAME " and goes on in lines of 10 spaces.
    std::string usage;
    std::string about;
    enum class In { Nothing, Usage, About } in = In::Nothing;
    const std::string usagePrefix = "  etscope " + std::string(command) + " ";
    const std::string aboutPrefix = "  " + std::string(command) + " ";
    std::size_t start = 0;
    while (start < kHelp.size()) {
        const std::size_t end = std::min(kHelp.find('\n', start), kHelp.size());
        const std::string_view line = kHelp.substr(start, end - start);
        start = end + 1;
        const bool continued = line.starts_with("      ");
        if (line.starts_with(usagePrefix))
            in = In::Usage;
        else if (line.starts_with(aboutPrefix))
            in = In::About;
        else if (!continued)
            in = In::Nothing;
        if (in == In::Usage)
            (usage += line) += '\n';
        else if (in == In::About)
            (about += line) += '\n';
    }
    if (usage.empty())
        return {};
    return "Usage:\n" + usage + "\n" + about + "\nEvery option and the exit status: etscope --help\n";
}

bool isCliInvocation(int argc, char** argv)
{
    if (argc < 2)
        return false;
    const std::string first = argv[1];
    if (first == "info" || first == "ops" || first == "graph" || first == "export" || first == "gap"
        || first == "profile" || first == "check" || first == "memory" || first == "size" || first == "timeline"
        || first == "diff" || first == "report" || first == "--help" || first == "-h" || first == "help"
        || first == "--version" || first == "-v" || first == core::kLayoutWorkerArgument)
        return true;
    if (first == "why")
        return true;
    if (first == "cost")
        return true;
    // A bare word that names no file is a mistyped subcommand ("etscope inof model.pte"): answer it
    // on the command line instead of starting the desktop app on a file called "inof".
    std::error_code error;
    return !first.empty() && first.front() != '-' && first.find_first_of("/.") == std::string::npos
        && !std::filesystem::exists(first, error);
}

int runCli(int argc, char** argv)
{
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kHelp;
        return ExitOk;
    }
    // The desktop app's Graphviz helper: framed layout requests on stdin, results on stdout.
    if (command == core::kLayoutWorkerArgument) {
        core::platform::dieWithParent(); // never outlive the app that asked
        return core::runLayoutWorker(core::platform::standardInput(), core::platform::standardOutput());
    }
    if (command == "--version" || command == "-v") {
        std::cout << "etscope " << ETSCOPE_VERSION << "\n";
        return ExitOk;
    }
    Arguments::Spec spec;
    spec.flags = { "json", "help", "bundled-reference", "timings", "first-divergence", "list-devices" };
    spec.options = { "method", "format", "data", "output", "expand", "delegate", "etdump", "debug-buffer", "reference",
        "reference-buffer", "inspector-table", "etrecord", "metric", "run", "reference-run", "test-case", "open-at",
        "kernels", "preset", "program", "tosa", "baseline", "budget", "reference-program", "threshold", "sections",
        "stage", "plot", "device", "device-file" };
    spec.options.insert(spec.options.end(), { "report", "backend", "target" }); // why
    spec.options.insert(spec.options.end(), { "vela", "run-log" }); // cost
    spec.shortNames = { { "o", "output" }, { "h", "help" } };
    Arguments args;
    if (!args.parse(argc, argv, 2, spec)) {
        std::cerr << "etscope " << command << ": " << args.error() << " (see etscope --help)\n";
        return ExitUsage;
    }
    if (args.has("help")) {
        const std::string own = subcommandHelp(command);
        std::cout << (own.empty() ? std::string(kHelp) : own);
        return ExitOk;
    }
    if (command == "info")
        return args.has("debug-buffer") ? runInfoWithDebugBuffer(args) : runInfo(args);
    if (command == "ops") {
        // Kernel lists answer "will it load", which is check's table; ops lists what the program
        // runs. Given to ops they were read by nobody and the table came as if they were not there.
        for (const char* option : { "kernels", "preset" })
            if (args.has(option)) {
                std::string lists;
                for (const std::string& value : args.values(option))
                    lists += std::string(" --") + option + " " + value;
                std::cerr << "etscope ops: ops does not take --" << option << "; did you mean `etscope check "
                          << (args.positional().empty() ? std::string("PROGRAM") : args.positional().front()) << lists
                          << "`? (see etscope --help)\n";
                return ExitUsage;
            }
        return args.has("etrecord") ? runOpsWithETRecord(args) : runOps(args);
    }
    if (command == "gap")
        return runGap(args);
    if (command == "profile")
        return runProfile(args);
    if (command == "graph")
        return runGraph(args);
    if (command == "export")
        return runExport(argc, argv, args);
    if (command == "check")
        return runCheck(args);
    if (command == "memory")
        return runMemory(args);
    if (command == "size")
        return runSize(args);
    if (command == "timeline")
        return runTimeline(args);
    if (command == "diff")
        return runDiff(args);
    if (command == "report")
        return runReport(argc, argv, args);
    if (command == "why")
        return runWhy(args);
    if (command == "cost")
        return runCost(args);
    std::cerr
        << "etscope: unknown subcommand '" << command
        << "' (subcommands: info, ops, graph, export, gap, profile, check, memory, size, timeline, diff, report; see "
           "etscope --help)\n";
    return ExitUsage;
}

} // namespace etscope::app
