// SPDX-License-Identifier: MIT
#pragma once

// The XNNPACK side of the synthetic transformers (transformermodels.h): attention layers as one
// XNNPACK graph, the way a partitioner lowers whole blocks of an exported model.

#include "core/writer/programspec.h"
#include "core/writer/transformermodels.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace etscope::core {

struct XnnBlockOptions {
    TransformerDims dims; ///< hidden already a multiple of heads
    int nodes = 0; ///< exact inner node count (at least 2); 0: one whole layer
    /// Per-channel int8 filters read through dynamically quantising Convert nodes, as LLM exports
    /// with 8-bit dynamic quantisation have; false: fp32 filters.
    bool quantized = false;
    bool namedWeights = false; ///< filters and biases in the program's named data, not the payload
};

struct XnnBlock {
    std::vector<std::uint8_t> payload; ///< XH00 + XN01
    std::map<std::string, int> nodeCounts; ///< by node type name ("XNNFullyConnected")
    int nodes = 0;
    int layers = 0; ///< layers begun (the last may be cut short)
};

/// Layers of kXnnLayerNodes (or kXnnQuantizedLayerNodes) nodes from one external input
/// [1, S, H] to one external output, the last fp32 [1, S, H] value written. When `nodes` ends a
/// layer early, the nodes after that value stay in the graph without a reader, as a truncated
/// layer would. `seed` and `debugHandle` advance; named weights are appended to `namedData`.
XnnBlock makeXnnTransformerBlock(const XnnBlockOptions& options, std::uint32_t& seed, std::uint32_t& debugHandle,
    std::vector<NamedBlobSpec>& namedData);

} // namespace etscope::core
