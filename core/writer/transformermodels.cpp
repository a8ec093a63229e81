// SPDX-License-Identifier: MIT
#include "core/writer/transformermodels.h"

#include "core/writer/transformerblocks.h"

#include <algorithm>
#include <cmath>

namespace etscope::core {

namespace {

using Flavor = TransformerMethodConfig::Flavor;

TransformerDims normalized(TransformerDims dims)
{
    dims.heads = std::max(1, dims.heads);
    dims.hidden = std::max(dims.heads, (dims.hidden + dims.heads - 1) / dims.heads * dims.heads);
    dims.sequence = std::max(1, dims.sequence);
    dims.ffnRatio = std::max(1, dims.ffnRatio);
    return dims;
}

TransformerProgram finish(TransformerProgram out, const TransformerMethodTally& tally, int hidden)
{
    out.program.nonDelegated = tally.nonDelegated;
    out.program.delegated = tally.delegated;
    out.program.xnnpackCalls = tally.xnnpackCalls;
    out.program.instructions = tally.instructions;
    out.hidden = hidden;
    out.blocks = tally.blocks;
    out.layers = tally.layers;
    out.largestDelegateNodes = tally.largestDelegateNodes;
    return out;
}

/// A method that only returns a constant, as the emitter writes prim getters: no inputs, one
/// empty chain, the value as its output.
void addGetter(ProgramSpec& spec, const char* name, ValueSpec value)
{
    MethodSpec& method = spec.addMethod(name);
    method.inputSpec.clear();
    method.outputSpec.assign(1, '$'); // a leaf: one flat value
    method.outputs = { method.addValue(std::move(value)) };
    method.chains.emplace_back();
    method.computeArenaSizes();
}

template <typename Options, typename Make>
int solvedWidth(const Options& options, const TransformerDims& dims, Make make)
{
    if (options.weightsMib <= 0)
        return dims.hidden;
    return widthForConstantBytes(options.weightsMib * 1024.0 * 1024.0, dims.hidden, dims.heads, [&](int width) {
        Options probe = options;
        probe.weightsMib = 0;
        probe.dims = dims;
        probe.dims.hidden = width;
        return storedConstantBytes(make(probe).program.spec);
    });
}

} // namespace

TransformerProgram makeTransformerProgram(const TransformerOptions& options)
{
    TransformerMethodConfig config;
    config.dims = normalized(options.dims);
    config.dims.hidden = solvedWidth(options, config.dims, makeTransformerProgram);
    config.instructions = options.instructions;
    config.delegateEvery = options.delegateEvery;
    config.seed = options.seed;
    config.dynamicSequence = options.dynamicSequence;
    TransformerProgram out;
    TransformerMethodTally tally;
    ProgramSpec& spec = out.program.spec;
    buildTransformerMethod(config, spec, spec.addMethod("forward"), tally);
    return finish(std::move(out), tally, config.dims.hidden);
}

TransformerProgram makeLlmProgram(const LlmOptions& options)
{
    TransformerMethodConfig config;
    config.flavor = Flavor::Llm;
    config.dims = normalized(options.dims);
    config.dims.hidden = solvedWidth(options, config.dims, makeLlmProgram);
    config.instructions = options.instructions;
    config.delegateEvery = options.delegateEvery;
    config.largeDelegateNodes = options.largeDelegateNodes > 0
        ? options.largeDelegateNodes
        : std::min(options.instructions, transformer::kMaxDelegateNodes);
    config.vocab = std::max(1, options.vocab);
    config.seed = options.seed;

    // Added in name order, as the exporter sorts methods.
    TransformerProgram out;
    ProgramSpec& spec = out.program.spec;
    TransformerMethodTally tally;
    buildTransformerMethod(config, spec, spec.addMethod("forward"), tally);
    addGetter(spec, "get_max_seq_len", ValueSpec::integer(options.maxSeqLen));
    addGetter(spec, "get_n_layers", ValueSpec::integer(tally.layers));
    addGetter(spec, "get_vocab_size", ValueSpec::integer(config.vocab));

    TransformerMethodConfig prefill = config;
    prefill.dims.sequence = std::max(1, options.prefillSequence);
    prefill.instructions = 1 + 2 * transformer::kBlockInstructions;
    prefill.delegateEvery = 0;
    prefill.seed = options.seed ^ 0x5bd1e995u;
    TransformerMethodTally prefillTally;
    buildTransformerMethod(prefill, spec, spec.addMethod("prefill"), prefillTally);
    addGetter(spec, "use_kv_cache", ValueSpec::boolean(true));
    return finish(std::move(out), tally, config.dims.hidden);
}

std::uint64_t storedConstantBytes(const ProgramSpec& spec)
{
    std::uint64_t total = 0;
    for (const MethodSpec& method : spec.methods) {
        for (const ValueSpec& value : method.values)
            if (value.kind == Value::Kind::Tensor && value.tensor.data && !value.tensor.external)
                total += value.tensor.data->size();
        for (const DelegateSpec& delegate : method.delegates)
            total += delegate.payload.size();
    }
    for (const NamedBlobSpec& blob : spec.namedData)
        total += blob.bytes.size();
    return total;
}

int widthForConstantBytes(
    double targetBytes, int probeWidth, int multiple, const std::function<std::uint64_t(int)>& constantBytesAt)
{
    multiple = std::max(1, multiple);
    const auto rounded
        = [&](double width) { return std::max(multiple, static_cast<int>(std::lround(width / multiple)) * multiple); };
    int width = std::max(multiple, probeWidth);
    if (targetBytes <= 0)
        return width;
    // √bytes is close to linear in the width (weights ∝ width², payload structure and biases add
    // lower terms): scale once, then secant steps on √bytes until the rounded width repeats.
    double lastWidth = width;
    double lastRoot = std::sqrt(static_cast<double>(constantBytesAt(width)));
    if (lastRoot <= 0)
        return width;
    const double goal = std::sqrt(targetBytes);
    int next = rounded(width * goal / lastRoot);
    for (int probe = 0; probe < 5 && next != width; ++probe) {
        width = next;
        const double root = std::sqrt(static_cast<double>(constantBytesAt(width)));
        const double slope = (root - lastRoot) / (width - lastWidth);
        if (!(slope > 0))
            break;
        next = rounded(width + (goal - root) / slope);
        lastWidth = width;
        lastRoot = root;
    }
    return next;
}

} // namespace etscope::core
