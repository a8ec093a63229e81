// SPDX-License-Identifier: MIT
// etscope-synth — writes a synthetic program of a requested size and shape for tests and
// benchmarks (usage below). Like etscope-writedemo it is a tool, so it prints. Exit codes:
// 0 written, 1 the file could not be written, 2 bad arguments (one line on stderr).
#include "core/writer/debug/syntheticdump.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"
#include "core/writer/transformermodels.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

using namespace etscope::core;

constexpr const char* kUsage
    = "usage: etscope-synth --shape mlp|transformer|llm|wide --instructions N [--delegate-every K]\n"
      "                     [--weights-mib M] [--seed S] [--dynamic] -o OUT.pte\n"
      "       etscope-synth --shape etdump --instructions N [--runs R] [--delegate-every K] -o OUT.etdp\n"
      "\n"
      "Writes a synthetic ExecuTorch program whose `forward` has exactly N instructions.\n"
      "  --shape mlp           addmm/relu layers with residual adds, XNNPACK partitions and one\n"
      "                        opaque delegate\n"
      "  --shape transformer   an attention classifier for the portable backend: blocks of 31\n"
      "                        instructions (layer norm, q/k/v, bmm, softmax, residual adds, MLP)\n"
      "  --shape wide          one layer of N/3 parallel addmm/relu branches summed pairwise:\n"
      "                        a graph far wider than high (N >= 2)\n"
      "  --shape llm           embedding, then blocks where every K-th is an XNNPACK call (the\n"
      "                        first holds min(N, 5000) inner nodes); getter methods and `prefill`\n"
      "  --shape etdump        a profiling ETDump (no program): R Execute blocks of N operator\n"
      "                        calls each (OPERATOR_CALL around native_call_<op>), every K-th a\n"
      "                        DELEGATE_CALL around 4 delegate-internal events (default K 8)\n"
      "  --instructions N      instructions of `forward` (etdump: operator calls per run), N >= 1\n"
      "  --runs R              etdump: Execute blocks (default 10)\n"
      "  --delegate-every K    one XNNPACK call every K layers (mlp, default 8) or blocks\n"
      "                        (transformer, default 0; llm, default 2); 0: none\n"
      "  --weights-mib M       widen the model until its stored constants are about M MiB\n"
      "                        (default: small weights)\n"
      "  --seed S              weights are pseudo-random from S (default 1)\n"
      "  --dynamic             transformer: a dynamic sequence length, one aten::sym_size.int\n"
      "                        first whose Int every view_copy reads (as torch.export writes it)\n"
      "  -o, --output OUT.pte  the file to write (atomically)\n"
      "  -h, --help            this text\n";

constexpr int kMaxInstructions = 5'000'000;
constexpr double kMaxWeightsMib = 2048;

struct Arguments {
    std::string shape;
    std::optional<long long> instructions;
    std::optional<long long> delegateEvery;
    long long runs = 10;
    double weightsMib = 0;
    std::uint32_t seed = 1;
    std::string output;
    bool help = false;
    bool dynamic = false;
};

std::optional<long long> wholeNumber(std::string_view text)
{
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

/// Parses argv; returns the message of the first problem, if any.
std::optional<std::string> parse(int argc, char** argv, Arguments& out)
{
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            out.help = true;
            return std::nullopt;
        }
        if (arg == "--dynamic") {
            out.dynamic = true;
            continue;
        }
        std::string_view name = arg;
        std::optional<std::string_view> value;
        if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
        }
        const bool known = name == "--shape" || name == "--instructions" || name == "--delegate-every"
            || name == "--runs" || name == "--weights-mib" || name == "--seed" || name == "-o" || name == "--output";
        if (!known)
            return arg.starts_with("-") ? "unknown option '" + std::string(arg) + "'"
                                        : "unexpected argument '" + std::string(arg) + "'";
        if (!value) {
            if (i + 1 >= argc)
                return std::string(name) + " needs a value";
            value = argv[++i];
        }
        const std::string text(*value);
        if (name == "--shape") {
            if (text != "mlp" && text != "transformer" && text != "llm" && text != "wide" && text != "etdump")
                return "unknown shape '" + text + "' (expected mlp, transformer, llm, wide or etdump)";
            out.shape = text;
        } else if (name == "--instructions") {
            out.instructions = wholeNumber(text);
            if (!out.instructions || *out.instructions < 1 || *out.instructions > kMaxInstructions)
                return "--instructions must be a whole number from 1 to " + std::to_string(kMaxInstructions) + ", not '"
                    + text + "'";
        } else if (name == "--delegate-every") {
            out.delegateEvery = wholeNumber(text);
            if (!out.delegateEvery || *out.delegateEvery < 0 || *out.delegateEvery > kMaxInstructions)
                return "--delegate-every must be a whole number >= 0, not '" + text + "'";
        } else if (name == "--runs") {
            const auto runs = wholeNumber(text);
            if (!runs || *runs < 1 || *runs > 100'000)
                return "--runs must be a whole number from 1 to 100000, not '" + text + "'";
            out.runs = *runs;
        } else if (name == "--weights-mib") {
            char* end = nullptr;
            out.weightsMib = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !(out.weightsMib > 0) || out.weightsMib > kMaxWeightsMib)
                return "--weights-mib must be a number above 0 and at most " + std::to_string(int(kMaxWeightsMib))
                    + ", not '" + text + "'";
        } else if (name == "--seed") {
            const auto seed = wholeNumber(text);
            if (!seed || *seed < 0 || *seed > 0xffffffffLL)
                return "--seed must be a whole number from 0 to 4294967295, not '" + text + "'";
            out.seed = static_cast<std::uint32_t>(*seed);
        } else {
            if (text.empty())
                return "-o needs a file name";
            out.output = text;
        }
    }
    if (out.shape.empty())
        return std::string("missing --shape mlp|transformer|llm|wide|etdump");
    if (!out.instructions)
        return std::string("missing --instructions N");
    if (out.shape == "wide" && *out.instructions < 2)
        return std::string("--shape wide needs --instructions 2 or more");
    if (out.output.empty())
        return std::string("missing -o OUT.pte");
    return std::nullopt;
}

struct Generated {
    ProgramSpec spec;
    int hidden = 0;
};

/// The transformer-shaped programs take the same four options from the command line.
template <typename Options, typename Make>
Generated generateTransformer(Options options, const Arguments& args, Make make)
{
    options.instructions = static_cast<int>(*args.instructions);
    options.weightsMib = args.weightsMib;
    options.seed = args.seed;
    if (args.delegateEvery)
        options.delegateEvery = static_cast<int>(*args.delegateEvery);
    TransformerProgram program = make(options);
    return { std::move(program.program.spec), program.hidden };
}

Generated generate(const Arguments& args)
{
    const int n = static_cast<int>(*args.instructions);
    if (args.shape == "mlp") {
        MlpOptions options;
        options.nodes = n;
        options.seed = args.seed;
        if (args.delegateEvery)
            options.xnnpackEvery = static_cast<int>(*args.delegateEvery);
        if (args.weightsMib > 0)
            options.hidden = widthForConstantBytes(args.weightsMib * 1024 * 1024, options.hidden, 1, [&](int width) {
                MlpOptions probe = options;
                probe.hidden = width;
                return storedConstantBytes(makeMlpProgram(probe).spec);
            });
        return { makeMlpProgram(options).spec, options.hidden };
    }
    if (args.shape == "wide") {
        MlpOptions options;
        options.nodes = n;
        options.seed = args.seed;
        return { makeWideProgram(options).spec, options.hidden };
    }
    if (args.shape == "transformer") {
        TransformerOptions options;
        options.dynamicSequence = args.dynamic;
        return generateTransformer(options, args, makeTransformerProgram);
    }
    return generateTransformer(LlmOptions {}, args, makeLlmProgram);
}

/// --shape etdump: a runtime trace alone, for the ETDump page's benchmarks.
int writeDump(const Arguments& args)
{
    SyntheticDumpOptions options;
    options.runs = static_cast<int>(args.runs);
    options.instructions = static_cast<int>(*args.instructions);
    if (args.delegateEvery)
        options.delegateEvery = static_cast<int>(*args.delegateEvery);
    const std::vector<std::uint8_t> bytes = writeSyntheticETDump(options);
    if (auto error = writeBytesToFile(args.output, bytes)) {
        std::fprintf(stderr, "etscope-synth: %s\n", error->message().c_str());
        return 1;
    }
    std::printf("wrote %s: etdump, %lld runs of %lld operator calls, %.2f MiB\n", args.output.c_str(), args.runs,
        *args.instructions, static_cast<double>(bytes.size()) / (1024.0 * 1024.0));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Arguments args;
    if (const auto problem = parse(argc, argv, args)) {
        std::fprintf(stderr, "etscope-synth: %s (see --help)\n", problem->c_str());
        return 2;
    }
    if (args.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (args.shape == "etdump")
        return writeDump(args);
    const Generated generated = generate(args);
    auto bytes = writeProgram(generated.spec);
    if (!bytes) {
        std::fprintf(stderr, "etscope-synth: %s\n", bytes.error().message().c_str());
        return 1;
    }
    if (auto error = writeBytesToFile(args.output, bytes.value())) {
        std::fprintf(stderr, "etscope-synth: %s\n", error->message().c_str());
        return 1;
    }
    constexpr double kMib = 1024.0 * 1024.0;
    std::printf("wrote %s: %s, forward %lld instructions, %zu methods, hidden %d, %.2f MiB (constants %.2f MiB)\n",
        args.output.c_str(), args.shape.c_str(), *args.instructions, generated.spec.methods.size(), generated.hidden,
        static_cast<double>(bytes->size()) / kMib, static_cast<double>(storedConstantBytes(generated.spec)) / kMib);
    return 0;
}
