// SPDX-License-Identifier: MIT
// The cost rules: one function per kind of arithmetic, each written once and used by every
// backend (top-level ATen kernels, XNNPACK nodes, TOSA operators, Core ML MIL operations, Ethos-U
// NPU kicks). A rule takes shapes and the few parameters it needs and returns what it counts,
// with its formula as text. Counting conventions (docs/cost.md, "What is counted"):
// - MACs: multiply-accumulates of dot products (convolution, matrix products, attention). One MAC
//   is one multiply and one add; FLOPs ≈ 2 × MACs.
// - ops: every other arithmetic operation, counted per element (elementwise, pooling windows,
//   reductions, softmax, normalisations). Never added to MACs.
// - data movement (reshape, transpose, copy, concat, …): no arithmetic; a rule that counts 0.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::cost {

using Shape = std::vector<std::int64_t>;

/// What a rule counts, or why it could not (`problem` non-empty: the shapes it needs are missing
/// or do not fit; the node is then "no shape" with that reason, never a guess).
struct Work {
    std::uint64_t macs = 0;
    std::uint64_t ops = 0;
    std::string formula; ///< "1·16·32·32 outputs × 3·3·3 = 442368"
    std::string problem;

    bool ok() const { return problem.empty(); }
};

/// Product of the dimensions; nullopt when a dimension is negative (dynamic) or the product
/// overflows 64 bits.
std::optional<std::uint64_t> elementCount(std::span<const std::int64_t> shape);

/// "1·16·32·32" (a 0-D shape is "1").
std::string shapeProduct(std::span<const std::int64_t> shape);

/// Bits per element of a dtype as any format spells it ("FLOAT", "fp32", "int8", "qcint4",
/// "INT16", "bf16", "uint8"); nullopt when the name says no width.
std::optional<int> dtypeBits(std::string_view dtype);

/// Bytes of a tensor: ⌈elements × bits / 8⌉; nullopt when the dtype or the shape is unknown.
std::optional<std::uint64_t> tensorBytes(std::string_view dtype, std::span<const std::int64_t> shape);

/// Reads "[1, 3, 224, 224]" out of a text such as "value 3: fp32 [1, 3, 224, 224], qint8 …" or
/// "x: INT8 [1, 8]": the first bracketed list of integers; the dtype is the word before it.
/// nullopt when the text holds no such list.
struct ParsedMeta {
    std::string dtype;
    Shape shape;
};
std::optional<ParsedMeta> parseMetaText(std::string_view text);

/// Reads a list of integers in any of the spellings the decoders use: "[3, 3]", "3 × 3", "3×3",
/// "(1, 1, 1, 1)"; nullopt when the text holds none.
std::optional<Shape> parseIntList(std::string_view text);

// ---- the rules ---------------------------------------------------------------------------

/// Dot products: every output element is a dot product of `reduction` terms.
///   MACs = elements(output) · reduction
/// Convolution (2-D): N·Cout·Hout·Wout · (Cin/groups)·kh·kw; depthwise: Cin/groups = 1;
/// linear / mm / addmm / bmm / matmul: elements(output) · K. `what` names the reduction
/// ("(Cin/groups)·kh·kw = 3·3·3") for the formula.
Work dotProductWork(
    std::span<const std::int64_t> output, std::span<const std::int64_t> reductionFactors, std::string_view what);

/// Transposed convolution: every input element is scattered into (Cout/groups)·kh·kw outputs.
///   MACs = elements(input) · (Cout/groups) · Π kernel
Work transposedConvolutionWork(
    std::span<const std::int64_t> input, std::int64_t outChannelsPerGroup, std::span<const std::int64_t> kernel);

/// Pooling: one op (compare or add) per kernel-window element per output element.
///   ops = elements(output) · Π window
Work poolingWork(std::span<const std::int64_t> output, std::span<const std::int64_t> window);

/// Global / adaptive pooling (window = whole input plane): one op per input element.
///   ops = elements(input)
Work globalPoolingWork(std::span<const std::int64_t> input);

/// Elementwise (unary, binary, activation, quantize, cast, compare): one op per output element.
///   ops = elements(output)
Work elementwiseWork(std::span<const std::int64_t> output);

/// Reductions (sum, mean, max, argmax, …): one op per input element.
///   ops = elements(input)
Work reductionWork(std::span<const std::int64_t> input);

/// Softmax and log-softmax: max, subtract, exp, sum, divide — 5 ops per element.
///   ops = 5 · elements(input)
Work softmaxWork(std::span<const std::int64_t> input);

/// Layer norm: mean, subtract, square-sum, normalise, affine scale+shift (2) — 6 ops per element.
///   ops = 6 · elements(input)
/// RMS norm: square-sum, normalise, scale — 3 ops per element.
///   ops = 3 · elements(input)
/// Batch norm at inference: scale and shift — 2 ops per element.
///   ops = 2 · elements(input)
Work layerNormWork(std::span<const std::int64_t> input);
Work rmsNormWork(std::span<const std::int64_t> input);
Work batchNormWork(std::span<const std::int64_t> input);

/// Resize (bilinear: 4 taps, nearest: 1): ops = taps · elements(output).
Work resizeWork(std::span<const std::int64_t> output, int taps);

/// Scaled dot-product attention, query [..., L, E], key [..., S, E], value [..., S, Ev]:
///   MACs = B·L·S·E (Q·Kᵀ) + B·L·S·Ev (P·V), B = product of the leading (batch, head) dims
///   ops  = 5 · B·L·S (scale and softmax of the scores)
/// Heads of grouped-query attention broadcast: B is taken from the query.
Work attentionWork(
    std::span<const std::int64_t> query, std::span<const std::int64_t> key, std::span<const std::int64_t> value);

/// Data movement: no arithmetic (reshape, view, transpose, permute, slice, concat, copy, pad,
/// gather, embedding lookup). Counts 0 MACs and 0 ops; its bytes are still counted.
Work dataMovementWork();

} // namespace etscope::core::cost
