// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// One MLX instruction for fixtures: the kinds the tests need, each naming tensor ids (Tid).
struct MlxInstructionSpec {
    enum class Kind {
        Addmm, ///< reads[0] @ reads[1] (+ reads[2] as bias when given) → writes[0]
        Silu, ///< reads[0] → writes[0]
        Softmax, ///< reads[0] → writes[0] along `axis`
        Concatenate, ///< all reads → writes[0] along `axis`
        Rope, ///< reads[0] → writes[0], positions from tensor reads[1] (a VidOrTid naming a tensor), `axis` dims
        RawTag, ///< an empty table under union tag `rawTag` (an op this build may not know)
    };
    Kind kind = Kind::Silu;
    std::vector<std::uint32_t> reads;
    std::vector<std::uint32_t> writes;
    std::int32_t axis = 0;
    std::uint8_t rawTag = 0;
};

struct MlxTensorSpec {
    std::int8_t scalarType = 6; ///< ExecuTorch ScalarType (6 = Float)
    std::vector<std::int32_t> shape; ///< -1: dynamic
};

/// An MLXGraph (core/schema/mlx.fbs) with one instruction chain, the main one, behind the
/// 24-byte "MLX0" header, as ExecuTorch's MLXBackend writes its payloads: FlatBuffer from byte
/// 24, padded to 16, then the data segment (offset and size in the header at bytes 8 and 16).
struct MlxGraphSpec {
    std::string version = "1";
    std::uint32_t constants = 0; ///< tensor ids below this are constants
    std::uint32_t inputTensors = 0;
    std::uint32_t outputTensors = 0;
    std::uint32_t tempTensors = 0;
    std::vector<MlxTensorSpec> tensorMeta; ///< indexed by tensor id
    std::vector<std::pair<std::string, std::uint32_t>> namedSlots; ///< named data key → tensor id
    std::vector<std::uint32_t> inputs; ///< tensor ids in call order
    std::vector<std::uint32_t> outputs;
    std::vector<MlxInstructionSpec> instructions;
    std::uint32_t mainChain = 0;
    std::vector<std::uint8_t> dataSegment;
};

std::vector<std::uint8_t> writeMlxPayload(const MlxGraphSpec& spec);

/// x [1, 4] (tensor 2) → Addmm with w [4, 4] (tensor 0, named "w") and bias b [4] (tensor 1,
/// named "b") → tensor 3 [1, 4] → Silu → tensor 4 [1, 4] → Softmax (axis -1) → tensor 5 [1, 4],
/// the output. Tensor 5 is also concatenated with tensor 3 into tensor 6 [2, 4] (a second
/// output). Four instructions; 16 bytes of data segment (0xAB).
MlxGraphSpec smallMlxGraph();

} // namespace etscope::core
