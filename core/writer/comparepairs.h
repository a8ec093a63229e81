// SPDX-License-Identifier: MIT
#pragma once

// Pairs of programs of the same network exported two ways, for `etscope diff` and its tests.

#include "core/writer/programspec.h"

#include <cstdint>
#include <vector>

namespace etscope::core {

/// The same three-layer MLP twice (input x FLOAT [1, hidden] planned, output probs [1, 10]):
///
///   portable: 0 aten::addmm.out(b0, x, w0)   1 aten::relu.out
///             2 aten::addmm.out(b1, ·, w1)   3 aten::relu.out
///             4 aten::addmm.out(b2, ·, w2) → logits [1, 10]   5 aten::_softmax.out(logits, 1, false)
///   lowered:  0 DelegateCall XnnpackBackend(x) → h [1, hidden]; inside, in order:
///               XNNFullyConnected(x, w0, b0), XNNClamp [0, +inf), XNNFullyConnected(·, w1, b1), XNNClamp
///               (w0, b0, w1, b1 in the payload's constant data)
///             1 aten::addmm.out(b2, h, w2)   2 aten::_softmax.out(logits, 1, false)
///
/// Weights are the same pseudo-random floats in both (addmm stores [in, out], XNNPACK [out, in]).
/// Portable constants: b0, w0, b1, w1, b2, w2 in the constant segment; lowered: b2, w2.
struct ComparePair {
    ProgramSpec portable;
    ProgramSpec lowered;
    std::uint64_t payloadBytes = 0; ///< the XNNPACK payload as written (XH00 + XN01 + constants)
};

ComparePair makeMlpComparePair(int hidden = 8);

} // namespace etscope::core
