// SPDX-License-Identifier: MIT
#pragma once

// Synthetic attention models for fixtures and benchmarks, in the shape real exports have: an
// attention classifier for the portable CPU backend, and an LLM-like program whose blocks are
// lowered to XNNPACK (one of them holding thousands of inner nodes) beside small getter methods.

#include "core/writer/syntheticmodels.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace etscope::core {

/// Sizes of one attention block. `hidden` is rounded up to a multiple of `heads`.
struct TransformerDims {
    int hidden = 16;
    int heads = 2;
    int sequence = 8; ///< tokens per call
    int ffnRatio = 2; ///< MLP width = ffnRatio × hidden
};

struct TransformerOptions {
    int instructions = 1000; ///< of `forward`; the last block is cut short to hit it exactly
    TransformerDims dims;
    int delegateEvery = 0; ///< every this many blocks, one fp32 XnnpackBackend call instead (0: none)
    /// > 0: widen the model until the stored constants (storedConstantBytes) are about this many MiB.
    double weightsMib = 0;
    std::uint32_t seed = 1;
    /// Exported with a dynamic sequence length: the first instruction is aten::sym_size.int(x, 1)
    /// and every view_copy reads its Int output in its size list in place of S (as torch.export
    /// writes a symbolic dimension), so one SymInt fans out to every view of every block.
    bool dynamicSequence = false;
};

struct LlmOptions {
    int instructions = 1000; ///< of `forward`
    /// Narrower than the classifier: a delegated block is one instruction but a whole payload,
    /// so at hidden 16 a 100k-instruction file would be half again as large.
    TransformerDims dims { .hidden = 8 };
    int delegateEvery = 2; ///< every this many blocks one XnnpackBackend call (0: none)
    /// Inner nodes of the first XNNPACK call, the lowered "decoder stack"; 0: min(instructions,
    /// kMaxDelegateNodes). Later calls hold one layer each.
    int largeDelegateNodes = 0;
    int vocab = 256;
    int maxSeqLen = 128;
    int prefillSequence = 32; ///< tokens of `prefill`
    double weightsMib = 0;
    std::uint32_t seed = 1;
};

/// A generated program with what it was built with, to compare with what the readers find.
struct TransformerProgram {
    SyntheticProgram program; ///< the spec and the tallies of `forward`, as makeMlpProgram gives
    int hidden = 0; ///< the width used (weightsMib changes it)
    int blocks = 0; ///< blocks begun in `forward` (a delegated block counts as one)
    int layers = 0; ///< transformer layers in `forward`, including those inside XNNPACK calls
    int largestDelegateNodes = 0; ///< inner nodes of the largest XNNPACK call in `forward`
};

namespace transformer {
/// Instructions of one portable block, in order (positions 0 … 30):
///   0 aten::native_layer_norm.out(x, [H], ln.weight, ln.bias, eps) → h, mean, rstd
///   1 aten::view_copy.out(h, [S, H])
///   2–4 aten::addmm.out(bias, h, weight) → q, k, v   ([H, H] weights stored as [in, out])
///   5–10 aten::view_copy.out → [1, S, nH, D], aten::permute_copy.out → q [0,2,1,3], kᵀ [0,2,3,1], v
///   11–12 aten::view_copy.out q → [nH, S, D], kᵀ → [nH, D, S]
///   13 aten::bmm.out(q, kᵀ) → scores [nH, S, S]
///   14 aten::div.out(scores, attn_scale) — one FLOAT [] constant shared by every block
///   15 aten::_softmax.out(scores, -1, false)
///   16 aten::view_copy.out(v) → [nH, S, D];  17 aten::bmm.out(probs, v) → context
///   18–20 aten::view_copy.out, aten::permute_copy.out [0,2,1,3], aten::view_copy.out → [S, H]
///   21 aten::addmm.out (output projection);  22 aten::view_copy.out → [1, S, H]
///   23 aten::add.out(attention, x) — the residual of the block input, 24 instructions back
///   24 aten::native_layer_norm.out;  25 aten::view_copy.out → [S, H]
///   26 aten::addmm.out → [S, F];  27 aten::gelu.out(…, "none");  28 aten::addmm.out → [S, H]
///   29 aten::view_copy.out → [1, S, H];  30 aten::add.out(mlp, residual of 23)
constexpr int kBlockInstructions = 31;
/// Inner nodes of one XNNPACK layer: FullyConnected ×6, StaticReshape ×4, StaticTranspose ×4,
/// BatchMatrixMultiply ×2, Multiply (shared scale), Softmax, Add ×2 (residuals), Gelu; the
/// quantised (LLM) layer adds a Convert (dynamic int8 quantisation) before each FC input.
constexpr int kXnnLayerNodes = 21;
constexpr int kXnnQuantizedLayerNodes = 25;
constexpr int kMaxDelegateNodes = 5000;
/// Rotating arena slots: a block input must outlive the 25 allocations before its residual add.
constexpr int kActivationSlots = 40;
} // namespace transformer

/// `forward` of an exported attention classifier (input x FLOAT [1, S, H], output the last
/// activation): blocks of transformer::kBlockInstructions portable instructions, every
/// `delegateEvery`-th block one XnnpackBackend call of kXnnLayerNodes nodes with its fp32 weights
/// in the payload. Activations are memory-planned in rotating slots of arena 1.
TransformerProgram makeTransformerProgram(const TransformerOptions& options = {});

/// An LLM-like program, methods sorted by name as the exporter writes them:
///   `forward` (tokens LONG [1, S]): aten::embedding.out, then blocks as above where every
///     `delegateEvery`-th block is one XnnpackBackend call with int8 per-channel weights; the first
///     such call holds `largeDelegateNodes` inner nodes (weights in named data), the others one layer;
///   `get_max_seq_len`, `get_n_layers`, `get_vocab_size` (Int) and `use_kv_cache` (Bool): no
///     instructions, their output a constant value, as the emitter writes prim getters;
///   `prefill` (tokens LONG [1, prefillSequence]): embedding and two portable blocks.
TransformerProgram makeLlmProgram(const LlmOptions& options = {});

/// Bytes a program stores beside its structure: constant tensors, named data, delegate payloads.
std::uint64_t storedConstantBytes(const ProgramSpec& spec);

/// The width (a multiple of `multiple`) at which `constantBytesAt(width)` is about `targetBytes`,
/// for byte counts that grow with width (weights ∝ width²): probes `probeWidth`, then at most
/// five more widths (each probe builds the model once).
int widthForConstantBytes(
    double targetBytes, int probeWidth, int multiple, const std::function<std::uint64_t(int)>& constantBytesAt);

} // namespace etscope::core
