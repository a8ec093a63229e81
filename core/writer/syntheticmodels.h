// SPDX-License-Identifier: MIT
#pragma once

#include "core/writer/programspec.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace etscope::core {

struct MlpOptions {
    int nodes = 1000; ///< operator + delegate nodes of `forward`, i.e. its instructions
    int hidden = 16; ///< feature width of every layer
    int batch = 1;
    int xnnpackEvery = 8; ///< an XNNPACK partition after every this many portable layers (0: none)
    bool opaqueDelegate = true; ///< one AcmeNpuBackend call halfway through
    bool secondMethod = true; ///< a small `classify` method beside `forward`
    std::uint32_t seed = 1; ///< weights are pseudo-random from this seed
};

/// A synthetic program and what it was built with, to compare with what the readers find.
struct SyntheticProgram {
    ProgramSpec spec;
    std::map<std::string, int> nonDelegated; ///< forward: KernelCall "name.overload" → count
    std::map<std::string, int> delegated; ///< forward: XNNPACK node type ("XNNAdd") → count
    int xnnpackCalls = 0; ///< forward
    int opaqueCalls = 0; ///< forward
    int instructions = 0; ///< forward
};

/// A realistic MLP of `options.nodes` instructions in `forward`: layers of portable
/// aten::addmm.out → aten::relu.out, an aten::add.out residual every third layer, constant
/// weights in the constant segment and memory-planned activations (12 rotating arena slots).
/// After every `xnnpackEvery` layers one XnnpackBackend call whose payload (XH00 + XN01) holds
/// FullyConnected → Clamp → FullyConnected → Add, its weights alternately in the program's
/// named data and in the payload's constant data; one opaque AcmeNpuBackend call halfway.
/// `classify` (when asked) is addmm → _softmax. Methods are sorted by name as the exporter does.
SyntheticProgram makeMlpProgram(const MlpOptions& options = {});

/// A wide program: `forward` fans its input out into parallel branches (aten::addmm.out →
/// aten::relu.out each) and sums them back pairwise (a balanced tree of aten::add.out), so
/// that its graph is about as wide as its branches and only a few layers high: the case of a
/// report's picture far wider than a page. `options.nodes` instructions exactly (at least 2):
/// ⌊(nodes + 1) / 3⌋ branches (3 × branches − 1 instructions), then aten::relu.out steps
/// on the sum for the one or two left over. Every activation has its own arena slot. Uses
/// `nodes`, `hidden` and `seed` of MlpOptions.
SyntheticProgram makeWideProgram(const MlpOptions& options);

/// The small program the app opens on first launch (issue 6). Its layout is fixed, because the
/// demo ETDump pair is written against it; change it only together with that pair.
///
/// methods[0] = `embed` (input v0 ids LONG [4]; output y FLOAT [8]):
///   0 KernelCall aten::embedding.out(embedding.weight FLOAT [16, 8] constant, ids) → emb [4, 8]
///   1 KernelCall aten::mean.out(emb, dim=[0]) → m [8]
///   2 KernelCall aten::add.out(m, stats.running FLOAT [8] mutable state, initial 0.5) → y [8]
/// methods[1] = `forward` (input v0 x FLOAT [1, 3, 16, 16]; outputs probs FLOAT [1, 10] and
/// cls LONG [1]):
///   0 DelegateCall delegate 0 XnnpackBackend(x) → a0 FLOAT [1, 8, 16, 16]; inner nodes
///       0 XNNStaticTranspose NCHW→NHWC  debug handle 1
///       1 XNNConv2d 3×3, pad 1, 8 filters (weights in named data)  debug handle 2
///       2 XNNClamp [0, 6]  debug handle 3
///       3 XNNStaticTranspose NHWC→NCHW  debug handle 4
///     external ids: x = 0, a0 = 1
///   1 KernelCall aten::max_pool2d_with_indices.out(a0, [2, 2], [2, 2]) → p0 [1, 8, 8, 8], indices
///   2 KernelCall aten::view_copy.out(p0, [1, 512]) → f0 [1, 512]
///   3 DelegateCall delegate 1 AcmeNpuBackend(f0) → h0 [1, 64] (opaque; printable compile specs)
///   4 KernelCall aten::addmm.out(fc1.bias, h0, fc1.weight) → l0 [1, 32]
///   5 KernelCall aten::relu.out(l0) → r0 [1, 32]
///   6 KernelCall aten::addmm.out(fc2.bias, r0, fc2.weight) → logits [1, 10]
///   7 KernelCall aten::_softmax.out(logits, dim=1) → probs [1, 10]
///   8 KernelCall aten::argmax.out(probs, dim=1) → cls LONG [1]
/// Weights are pseudo-random from fixed seeds, so the bytes are the same on every build.
ProgramSpec makeDemoProgram();

/// Instructions of the demo's `forward`, by what they compute, for tests and the ETDump pair.
namespace demo {
constexpr int kForwardXnnpackCall = 0;
constexpr int kForwardMaxPool = 1;
constexpr int kForwardView = 2;
constexpr int kForwardNpuCall = 3;
constexpr int kForwardFc1 = 4;
constexpr int kForwardRelu = 5;
constexpr int kForwardFc2 = 6;
constexpr int kForwardSoftmax = 7;
constexpr int kForwardArgmax = 8;
constexpr int kForwardInstructions = 9;
constexpr int kEmbedInstructions = 3;
/// Seeds of the demo's weights (pseudoRandomFloats): the demo run (demorun.h) recomputes the
/// forward pass from them. Weights have scale 0.25, the NPU payload body the default 0.5.
constexpr std::uint32_t kConvFilterSeed = 101; ///< [8, 3, 3, 3] OHWI, named data
constexpr std::uint32_t kConvBiasSeed = 102; ///< [8], named data
constexpr std::uint32_t kNpuBodySeed = 201; ///< 512 floats after "ACMENPU1"
constexpr std::uint32_t kEmbeddingSeed = 301; ///< [16, 8]
constexpr std::uint32_t kFc1WeightSeed = 401; ///< [64, 32]
constexpr std::uint32_t kFc1BiasSeed = 402; ///< [32]
constexpr std::uint32_t kFc2WeightSeed = 403; ///< [32, 10]
constexpr std::uint32_t kFc2BiasSeed = 404; ///< [10]
constexpr float kWeightScale = 0.25f;
} // namespace demo

/// `count` little-endian float32 values, uniformly spread in [-scale, scale), from `seed`.
std::vector<std::uint8_t> pseudoRandomFloats(std::size_t count, std::uint32_t seed, float scale = 0.5f);

/// `count` float32 values all equal to `value`, little-endian.
std::vector<std::uint8_t> filledFloats(std::size_t count, float value);

/// A 64-hex-digit key derived from `bytes`. It stands in for the SHA-256 digest XNNPACK uses as
/// a named-data key; it is not a cryptographic digest.
std::string contentKey(std::span<const std::uint8_t> bytes);

} // namespace etscope::core
