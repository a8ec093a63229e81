// SPDX-License-Identifier: MIT
#pragma once

// The method builder behind transformermodels.h: one method of attention blocks, portable or
// lowered to XNNPACK, instruction by instruction.

#include "core/writer/programspec.h"
#include "core/writer/transformermodels.h"

#include <cstdint>
#include <map>
#include <string>

namespace etscope::core {

struct TransformerMethodConfig {
    enum class Flavor {
        Classifier, ///< input x FLOAT [1, S, H]; XNNPACK blocks fp32, weights in the payload
        Llm, ///< input tokens LONG [1, S] and an embedding first; XNNPACK blocks int8, the first large
    };
    Flavor flavor = Flavor::Classifier;
    TransformerDims dims; ///< hidden already a multiple of heads
    int instructions = 0; ///< exact count of the method
    int delegateEvery = 0; ///< every this many blocks one XnnpackBackend call (0: none)
    int largeDelegateNodes = 0; ///< Llm: inner nodes of the first XNNPACK call
    int vocab = 256; ///< Llm: rows of the embedding table
    std::uint32_t seed = 1;
    bool dynamicSequence = false; ///< sym_size.int first, its Int in every view size list
};

/// What the builder made, for TransformerProgram and the getters.
struct TransformerMethodTally {
    std::map<std::string, int> nonDelegated; ///< KernelCall "name.overload" → count
    std::map<std::string, int> delegated; ///< XNNPACK node type → count
    int xnnpackCalls = 0;
    int instructions = 0;
    int blocks = 0; ///< begun, a delegated block counting as one
    int layers = 0; ///< portable blocks plus the layers inside XNNPACK calls
    int largestDelegateNodes = 0;
};

/// Fills `method` (inputs, values, one chain, operators, delegates, arena sizes) with the blocks
/// transformermodels.h describes; XNNPACK weights kept in named data go to `program`.
void buildTransformerMethod(
    const TransformerMethodConfig& config, ProgramSpec& program, MethodSpec& method, TransformerMethodTally& tally);

} // namespace etscope::core
