// SPDX-License-Identifier: MIT
#include "core/writer/transformerblocks.h"

#include "core/writer/segmentlayout.h"
#include "core/writer/syntheticmodels.h"
#include "core/writer/transformerxnnpack.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace etscope::core {

namespace {

using namespace transformer;

/// In a view's shape: the symbolic sequence length (the sym_size.int output) when the method is
/// dynamic, else S.
constexpr std::int64_t kSymbolicSequence = std::numeric_limits<std::int64_t>::min();

/// Builds one method instruction by instruction: a state machine over the block's positions, so
/// that it can stop after exactly the requested count.
class BlockBuilder {
public:
    BlockBuilder(
        const TransformerMethodConfig& config, ProgramSpec& program, MethodSpec& method, TransformerMethodTally& tally)
        : m_config(config)
        , m_program(program)
        , m_method(method)
        , m_tally(tally)
        , m_seed(config.seed)
    {
        const TransformerDims& d = config.dims;
        // One slot size for every activation: the widest (MLP, scores or LONG tokens) decides.
        const std::uint64_t s = d.sequence;
        const std::uint64_t widest = std::max({ s * d.ffnRatio * d.hidden, s * d.heads * s, s * d.hidden, s * 2 });
        m_slotBytes = alignUp(widest * 4, 16);
    }

    void build();

private:
    bool done() const { return m_tally.instructions >= m_config.instructions; }
    std::int32_t activation(std::vector<std::int32_t> sizes, int scalarType = scalar_type::Float);
    std::int32_t constant(std::vector<std::int32_t> sizes, float scale);
    std::int32_t integer(std::int64_t value);
    std::int32_t ints(const std::vector<std::int64_t>& values);
    std::int32_t attentionScale();
    const std::vector<std::int32_t>& sizes(std::int32_t value) const { return m_method.values[value].tensor.sizes; }
    /// Appends a KernelCall with args `args`, out, out (the out argument and the returned value).
    std::int32_t kernel(
        const char* name, const char* overload, std::vector<std::int32_t> args, std::vector<std::int32_t> outSizes);
    std::int32_t layerNorm(std::int32_t input);
    std::int32_t linear(std::int32_t input, int in, int out);
    std::int32_t view(std::int32_t input, const std::vector<std::int64_t>& shape);
    std::int32_t permute(std::int32_t input, const std::vector<std::int64_t>& perm);
    std::int32_t bmm(std::int32_t a, std::int32_t b);
    void embedding();
    void portableStep();
    void delegatedBlock();

    const TransformerMethodConfig& m_config;
    ProgramSpec& m_program;
    MethodSpec& m_method;
    TransformerMethodTally& m_tally;
    std::uint32_t m_seed;
    std::uint32_t m_debugHandle = 1;
    std::uint64_t m_slotBytes = 16;
    int m_slot = 0;
    int m_step = 0; ///< position in the current portable block
    bool m_largeDelegateDone = false;
    std::map<std::int64_t, std::int32_t> m_ints; ///< shared Int values by value
    std::map<std::vector<std::int64_t>, std::int32_t> m_lists; ///< shared IntLists by items
    std::int32_t m_false = -1, m_eps = -1, m_geluApproximation = -1, m_scale = -1;
    std::int32_t m_symSequence = -1; ///< the Int written by sym_size.int (dynamic methods)
    std::int32_t m_current = -1; ///< the latest activation: what the next instruction reads
    std::int32_t m_blockInput = -1, m_normed = -1, m_q = -1, m_k = -1, m_v = -1, m_scores = -1, m_residual = -1;
};

std::int32_t BlockBuilder::activation(std::vector<std::int32_t> sizes, int scalarType)
{
    TensorSpec t;
    t.scalarType = scalarType;
    t.sizes = std::move(sizes);
    t.allocation = AllocationSpec { 1, m_slotBytes * static_cast<std::uint64_t>(m_slot) };
    m_slot = (m_slot + 1) % kActivationSlots;
    return m_method.addTensor(std::move(t));
}

std::int32_t BlockBuilder::constant(std::vector<std::int32_t> sizes, float scale)
{
    TensorSpec t;
    t.sizes = std::move(sizes);
    t.data = pseudoRandomFloats(t.byteSize() / 4, m_seed++, scale);
    return m_method.addTensor(std::move(t));
}

std::int32_t BlockBuilder::integer(std::int64_t value)
{
    // The emitter writes a fresh Int per argument; sharing them keeps 100k-instruction files small.
    const auto [it, added] = m_ints.try_emplace(value, 0);
    if (added)
        it->second = m_method.addValue(ValueSpec::integer(value));
    return it->second;
}

std::int32_t BlockBuilder::ints(const std::vector<std::int64_t>& values)
{
    if (const auto it = m_lists.find(values); it != m_lists.end())
        return it->second;
    std::vector<std::int64_t> items;
    items.reserve(values.size());
    for (const std::int64_t v : values)
        items.push_back(v == kSymbolicSequence ? m_symSequence : integer(v));
    return m_lists[values] = m_method.addValue(ValueSpec::intList(std::move(items)));
}

std::int32_t BlockBuilder::attentionScale()
{
    // One lifted constant read by every block's scores: the fan-out of shared scalars in real exports.
    if (m_scale < 0) {
        TensorSpec t;
        t.sizes = {};
        const int headDim = m_config.dims.hidden / m_config.dims.heads;
        t.data = filledFloats(1, std::sqrt(static_cast<float>(headDim)));
        t.fullyQualifiedName = "attn_scale";
        m_scale = m_method.addTensor(std::move(t));
    }
    return m_scale;
}

std::int32_t BlockBuilder::kernel(
    const char* name, const char* overload, std::vector<std::int32_t> args, std::vector<std::int32_t> outSizes)
{
    const std::int32_t out = activation(std::move(outSizes));
    args.push_back(out);
    args.push_back(out);
    m_method.addInstruction(InstructionSpec::kernel(m_method.addOperator(name, overload), std::move(args)));
    ++m_tally.nonDelegated[std::string(name) + "." + overload];
    ++m_tally.instructions;
    m_current = out;
    return out;
}

std::int32_t BlockBuilder::layerNorm(std::int32_t input)
{
    const std::int32_t h = m_config.dims.hidden;
    const std::int32_t weight = constant({ h }, 0.1f);
    const std::int32_t bias = constant({ h }, 0.1f);
    std::vector<std::int32_t> stats = sizes(input);
    stats.back() = 1;
    const std::int32_t out = activation(sizes(input));
    const std::int32_t mean = activation(stats);
    const std::int32_t rstd = activation(stats);
    // Three outputs, then the TensorList of them the emitter appends for multi-output ops.
    const std::int32_t results = m_method.addValue(ValueSpec::tensorList({ out, mean, rstd }));
    m_method.addInstruction(InstructionSpec::kernel(m_method.addOperator("aten::native_layer_norm", "out"),
        { input, ints({ h }), weight, bias, m_eps, out, mean, rstd, results }));
    ++m_tally.nonDelegated["aten::native_layer_norm.out"];
    ++m_tally.instructions;
    m_current = out;
    return out;
}

std::int32_t BlockBuilder::linear(std::int32_t input, int in, int out)
{
    // addmm(bias, x, Wᵀ): the exporter folds the transpose of a frozen weight into the constant.
    const std::int32_t bias = constant({ out }, 0.1f);
    const std::int32_t weight = constant({ in, out }, 0.5f);
    const std::int32_t one = integer(1);
    return kernel("aten::addmm", "out", { bias, input, weight, one, one }, { sizes(input)[0], out });
}

std::int32_t BlockBuilder::view(std::int32_t input, const std::vector<std::int64_t>& shape)
{
    std::vector<std::int32_t> outSizes;
    outSizes.reserve(shape.size());
    for (const std::int64_t d : shape)
        outSizes.push_back(static_cast<std::int32_t>(d == kSymbolicSequence ? m_config.dims.sequence : d));
    return kernel("aten::view_copy", "out", { input, ints(shape) }, outSizes);
}

std::int32_t BlockBuilder::permute(std::int32_t input, const std::vector<std::int64_t>& perm)
{
    std::vector<std::int32_t> outSizes;
    outSizes.reserve(perm.size());
    for (const std::int64_t axis : perm)
        outSizes.push_back(sizes(input)[static_cast<std::size_t>(axis)]);
    return kernel("aten::permute_copy", "out", { input, ints(perm) }, outSizes);
}

std::int32_t BlockBuilder::bmm(std::int32_t a, std::int32_t b)
{
    return kernel("aten::bmm", "out", { a, b }, { sizes(a)[0], sizes(a)[1], sizes(b)[2] });
}

void BlockBuilder::embedding()
{
    const std::int32_t table = constant({ m_config.vocab, m_config.dims.hidden }, 0.5f);
    const std::int32_t tokens = m_current;
    kernel("aten::embedding", "out", { table, tokens, integer(-1), m_false, m_false },
        { 1, m_config.dims.sequence, m_config.dims.hidden });
}

void BlockBuilder::portableStep()
{
    // View shapes name the sequence length symbolically in a dynamic method.
    const std::int64_t s = m_config.dynamicSequence ? kSymbolicSequence : m_config.dims.sequence;
    const std::int64_t h = m_config.dims.hidden, heads = m_config.dims.heads;
    const std::int64_t d = h / heads, f = h * m_config.dims.ffnRatio;
    const auto same = [&](const char* name, const char* overload, std::vector<std::int32_t> args) {
        const std::vector<std::int32_t> outSizes = sizes(args.front());
        return kernel(name, overload, std::move(args), outSizes);
    };
    // Positions as listed in transformermodels.h (transformer::kBlockInstructions).
    switch (m_step) {
    case 0:
        m_blockInput = m_current;
        layerNorm(m_current);
        break;
    case 1:
        m_normed = view(m_current, { s, h });
        break;
    case 2:
        m_q = linear(m_normed, int(h), int(h));
        break;
    case 3:
        m_k = linear(m_normed, int(h), int(h));
        break;
    case 4:
        m_v = linear(m_normed, int(h), int(h));
        break;
    case 5:
        m_q = view(m_q, { 1, s, heads, d });
        break;
    case 6:
        m_q = permute(m_q, { 0, 2, 1, 3 });
        break;
    case 7:
        m_k = view(m_k, { 1, s, heads, d });
        break;
    case 8:
        m_k = permute(m_k, { 0, 2, 3, 1 });
        break;
    case 9:
        m_v = view(m_v, { 1, s, heads, d });
        break;
    case 10:
        m_v = permute(m_v, { 0, 2, 1, 3 });
        break;
    case 11:
        m_q = view(m_q, { heads, s, d });
        break;
    case 12:
        m_k = view(m_k, { heads, d, s });
        break;
    case 13:
        bmm(m_q, m_k);
        break;
    case 14:
        same("aten::div", "out", { m_current, attentionScale() });
        break;
    case 15:
        m_scores = same("aten::_softmax", "out", { m_current, integer(-1), m_false });
        break;
    case 16:
        m_v = view(m_v, { heads, s, d });
        break;
    case 17:
        bmm(m_scores, m_v);
        break;
    case 18:
        view(m_current, { 1, heads, s, d });
        break;
    case 19:
        permute(m_current, { 0, 2, 1, 3 });
        break;
    case 20:
        view(m_current, { s, h });
        break;
    case 21:
        linear(m_current, int(h), int(h));
        break;
    case 22:
        view(m_current, { 1, s, h });
        break;
    case 23:
        m_residual = same("aten::add", "out", { m_current, m_blockInput, integer(1) });
        break;
    case 24:
        layerNorm(m_current);
        break;
    case 25:
        view(m_current, { s, h });
        break;
    case 26:
        linear(m_current, int(h), int(f));
        break;
    case 27:
        same("aten::gelu", "out", { m_current, m_geluApproximation });
        break;
    case 28:
        linear(m_current, int(f), int(h));
        break;
    case 29:
        view(m_current, { 1, s, h });
        break;
    default:
        same("aten::add", "out", { m_current, m_residual, integer(1) });
        break;
    }
    m_step = (m_step + 1) % kBlockInstructions;
}

void BlockBuilder::delegatedBlock()
{
    XnnBlockOptions options;
    options.dims = m_config.dims;
    options.quantized = m_config.flavor == TransformerMethodConfig::Flavor::Llm;
    if (options.quantized && !m_largeDelegateDone) {
        // The bulk of the decoder stack lowered as one partition, its weights in named data.
        options.nodes = m_config.largeDelegateNodes;
        options.namedWeights = true;
        m_largeDelegateDone = true;
    }
    XnnBlock block = makeXnnTransformerBlock(options, m_seed, m_debugHandle, m_program.namedData);
    DelegateSpec delegate;
    delegate.backendId = "XnnpackBackend";
    delegate.payload = std::move(block.payload);
    const std::int32_t out = activation({ 1, m_config.dims.sequence, m_config.dims.hidden });
    const std::int32_t index = m_method.addDelegate(std::move(delegate));
    m_method.addInstruction(InstructionSpec::delegate(index, { m_current, out }));
    for (const auto& [type, count] : block.nodeCounts)
        m_tally.delegated[type] += count;
    ++m_tally.xnnpackCalls;
    ++m_tally.instructions;
    m_tally.layers += block.layers;
    m_tally.largestDelegateNodes = std::max(m_tally.largestDelegateNodes, block.nodes);
    m_current = out;
}

void BlockBuilder::build()
{
    m_false = m_method.addValue(ValueSpec::boolean(false));
    m_eps = m_method.addValue(ValueSpec::real(1e-5));
    m_geluApproximation = m_method.addValue(ValueSpec::string("none"));
    const TransformerDims& d = m_config.dims;
    const bool llm = m_config.flavor == TransformerMethodConfig::Flavor::Llm;
    m_current = llm ? activation({ 1, d.sequence }, scalar_type::Long) : activation({ 1, d.sequence, d.hidden });
    m_method.inputs = { m_current };
    if (llm && !done())
        embedding();
    if (m_config.dynamicSequence && !done()) {
        // aten::sym_size.int(self, dim) → Int: args self, dim, out (a prim op's value output).
        m_symSequence = m_method.addValue(ValueSpec::integer(d.sequence));
        m_method.addInstruction(InstructionSpec::kernel(
            m_method.addOperator("aten::sym_size", "int"), { m_current, integer(1), m_symSequence }));
        ++m_tally.nonDelegated["aten::sym_size.int"];
        ++m_tally.instructions;
    }
    while (!done()) {
        if (m_step == 0) {
            const int block = m_tally.blocks++;
            if (m_config.delegateEvery > 0 && (block + 1) % m_config.delegateEvery == 0) {
                delegatedBlock();
                continue;
            }
            ++m_tally.layers;
        }
        portableStep();
    }
    m_method.outputs = { m_current };
    m_method.computeArenaSizes();
}

} // namespace

void buildTransformerMethod(
    const TransformerMethodConfig& config, ProgramSpec& program, MethodSpec& method, TransformerMethodTally& tally)
{
    BlockBuilder(config, program, method, tally).build();
}

} // namespace etscope::core
