// SPDX-License-Identifier: MIT
#pragma once

// Fixtures for `etscope gap --reference-program` (issue 24): one small model written three ways,
// each with an ETDump of one run and an ETRecord, whose logged outputs agree up to a planted
// divergence.

#include "core/writer/programspec.h"

#include <cstdint>
#include <vector>

namespace etscope::core {

/// One build: the program, an ETDump of one run with every intermediate output and the program
/// output (and its debug buffer), and an ETRecord whose debug_handle_map (and delegate_map)
/// give each node of the model the same AOT handle in every build.
struct GapBuild {
    ProgramSpec program;
    std::vector<std::uint8_t> etdump;
    std::vector<std::uint8_t> debugBuffer;
    std::vector<std::uint8_t> etrecord;
};

/// The three-layer MLP of makeMlpComparePair (same weights) on one input, written:
///
///   portable  (float):  0 addmm 1 relu 2 addmm 3 relu 4 addmm 5 _softmax            handles 1…6
///   quantized (portable kernels, int8 activations between the linears, symmetric per tensor):
///             0 addmm 1 quantize_per_tensor 2 relu (CHAR) 3 dequantize_per_tensor
///             4 addmm 5 quantize_per_tensor 6 relu (CHAR) 7 dequantize_per_tensor
///             8 addmm 9 _softmax                       handles 1, 7, 2, 8, 3, 9, 4, 10, 5, 6
///   lowered   (XNNPACK): 0 DelegateCall (FullyConnected, Clamp, FullyConnected, Clamp: inner
///             debug handles 1…4) 1 addmm 2 _softmax   handles [1…4], 5, 6
///
///   inside    (XNNPACK, as lowered) whose delegate also logs its four inner nodes' outputs under
///             delegate debug identifiers: integers 0…3 (`inside`) or the strings linear_1,
///             relu_1, linear_2, relu_2 (`insideNamed`), which the ETRecord's delegate_map
///             resolves to handles 1…4.
///
/// Values are the float64 forward pass; the quantized build rounds to int8 (scale max|h|/127,
/// zero point 0) where it quantizes. With `plant`, the quantized and lowered runs add `offset`
/// to element 0 of the last addmm's output (logits), so softmax and the program output follow
/// it: the planted divergence is that addmm (quantized #8, lowered #1, portable #4). The inside
/// runs instead add `offset` to element 0 of the second FullyConnected's output, inside the
/// delegate (portable #2), and everything after it follows.
struct GapFixtureOptions {
    int hidden = 8;
    bool plant = true;
    double offset = 4.0;
};

struct GapFixtures {
    GapBuild portable;
    GapBuild quantized;
    GapBuild lowered;
    GapBuild inside; ///< delegate-internal outputs under integer identifiers
    GapBuild insideNamed; ///< the same under string identifiers
    std::vector<double> input; ///< x, [1, hidden]
    std::vector<double> h0; ///< the first addmm's output (float): what the quantized build quantizes
    std::vector<double> h1; ///< the second addmm's output (float), before any planted offset
    double scale0 = 0; ///< the first quantize_per_tensor's scale
};

GapFixtures makeGapFixtures(const GapFixtureOptions& options = {});

} // namespace etscope::core
