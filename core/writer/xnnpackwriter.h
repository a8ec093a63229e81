// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core {

/// Constants of the XNNPACK delegate graph (facts sheet §3.1).
namespace xnn {
constexpr std::uint32_t kInvalidId = 0xFFFFFFFFu; ///< "no value": internal values' external id, absent bias
constexpr std::uint32_t kNoDebugHandle = 65535;
constexpr std::uint32_t kFlagExternalInput = 1;
constexpr std::uint32_t kFlagExternalOutput = 2;
constexpr std::uint32_t kFlagPersistent = 4;

/// XNNDatatype numbers.
namespace datatype {
constexpr int Invalid = 0;
constexpr int Fp32 = 1;
constexpr int Fp16 = 2;
constexpr int QInt8 = 3;
constexpr int QUInt8 = 4;
constexpr int QInt32 = 5;
constexpr int QCInt8 = 6;
constexpr int QCInt32 = 7;
constexpr int QCInt4 = 8;
constexpr int QDInt8 = 9;
constexpr int QBInt4 = 10;
constexpr int QPInt8 = 11;
constexpr int Int32 = 12;
constexpr int PFp32 = 13;
constexpr int Bf16 = 14;
} // namespace datatype
} // namespace xnn

/// XNodeUnion tags in declaration order; the parameter table follows from the tag.
enum class XnnNodeType : std::uint8_t {
    Add = 1,
    FullyConnected,
    Softmax,
    Sigmoid,
    StaticTranspose,
    Clamp,
    Conv2d,
    Div,
    StaticResizeBilinear2D,
    StaticConstantPad,
    AvgPooling2d,
    Minimum,
    DepthwiseConv2d,
    MaxPooling2d,
    Multiply,
    Subtract,
    Floor,
    Convert,
    GlobalAvgPooling2d,
    StaticReshape,
    ArgMaxPooling2d,
    SquareRoot,
    Ceiling,
    Hardswish,
    LeakyReLU,
    Maximum,
    Negate,
    Square,
    ELU,
    Abs,
    PReLU,
    Concatenate2,
    Concatenate3,
    Concatenate4,
    StaticSlice,
    ScaledDotProductAttention,
    BatchMatrixMultiply,
    Concatenate5,
    ConvTranspose2d,
    ReciprocalSquareRoot,
    Log,
    Gelu,
    Tanh,
    Exp,
    Sin,
    Copy,
    Cos,
};

/// The name the backend gives a node type ("XNNAdd"), as the reader shows it.
std::string xnnNodeTypeName(XnnNodeType type);

struct XnnQuantSpec {
    enum class Kind { PerTensor, PerChannel, PerTokenDynamic, PerChannelGroup };
    Kind kind = Kind::PerTensor;
    float scale = 1.0f; ///< per tensor
    std::int32_t zeroPoint = 0; ///< per tensor
    std::vector<float> scales; ///< per channel (group)
    std::int32_t channelDim = 0;
    std::int32_t groupSize = 0;
    std::int32_t numNonbatchDims = 1; ///< per token
};

/// One XValue: an XNNTensorValue, or an XNNQuantizedTensorValue when `quant` is set.
struct XnnValueSpec {
    int datatype = xnn::datatype::Fp32;
    std::vector<std::uint32_t> dims;
    /// Position in the outer DelegateCall args. Unset: values listed in the graph's input ids
    /// are numbered by that list, output ids continue after them (§3.1), others get kInvalidId.
    std::optional<std::uint32_t> externalId;
    std::uint32_t flags = 0;
    std::optional<std::vector<std::uint8_t>> constantBytes; ///< stored in the payload's constant data
    std::string namedKey; ///< constant stored in the program's named data (or a .ptd) under this key
    std::uint64_t namedSize = 0; ///< written in ConstantDataOffset.size for named constants
    std::optional<XnnQuantSpec> quant;
    std::optional<std::uint32_t> idOut; ///< unset: the value's position
    bool isConstant() const { return constantBytes.has_value() || !namedKey.empty(); }
};

/// Window parameters of Conv/Pooling/ArgMaxPooling nodes; `height`/`width` are the kernel or
/// pooling size, and the new size of StaticResizeBilinear2D.
struct XnnWindowSpec {
    std::uint32_t paddingTop = 0, paddingRight = 0, paddingBottom = 0, paddingLeft = 0;
    std::uint32_t height = 1, width = 1;
    std::uint32_t strideHeight = 1, strideWidth = 1; ///< subsampling for convolutions
    std::uint32_t dilationHeight = 1, dilationWidth = 1;
    std::uint32_t groups = 1, groupInputChannels = 0, groupOutputChannels = 0;
    std::uint32_t adjustmentHeight = 0, adjustmentWidth = 0;
};

/// One XNode. Ids are value ids (id_out). `inputs`/`outputs` are in the parameter table's order:
/// FullyConnected/Conv (input, filter, bias), SDPA (query, key, value, scale, mask),
/// ArgMaxPooling2d outputs (value, index); a missing optional input is kInvalidId.
struct XnnNodeSpec {
    XnnNodeType type = XnnNodeType::Add;
    std::vector<std::uint32_t> inputs;
    std::vector<std::uint32_t> outputs;
    std::uint32_t flags = 0;
    std::uint32_t debugHandle = xnn::kNoDebugHandle;
    std::optional<std::pair<float, float>> outputMinMax; ///< fused clamp (min, max)
    XnnWindowSpec window;
    std::uint32_t axis = 0; ///< Concatenate
    std::vector<std::uint32_t> list; ///< perm / new_shape / slice offsets / pre paddings
    std::vector<std::uint32_t> list2; ///< slice sizes / post paddings
    float scalar = 0; ///< padding value / ELU alpha / LeakyReLU negative slope
    /// Written instead of `type`'s tag, with a Node1x1 table: for readers meeting new node types.
    std::optional<std::uint8_t> rawTag;

    static XnnNodeSpec unary(XnnNodeType type, std::uint32_t input, std::uint32_t output);
    static XnnNodeSpec binary(XnnNodeType type, std::uint32_t a, std::uint32_t b, std::uint32_t output);
    static XnnNodeSpec fullyConnected(
        std::uint32_t input, std::uint32_t filter, std::uint32_t bias, std::uint32_t output);
    static XnnNodeSpec conv2d(std::uint32_t input, std::uint32_t filter, std::uint32_t bias, std::uint32_t output,
        const XnnWindowSpec& window);
    static XnnNodeSpec transpose(std::vector<std::uint32_t> perm, std::uint32_t input, std::uint32_t output);
    static XnnNodeSpec clamp(std::uint32_t input, std::uint32_t output, float min, float max);
};

/// A whole XNNGraph. The add* helpers append and return the value id.
struct XnnGraphSpec {
    std::string version = "0";
    std::vector<XnnValueSpec> values;
    std::vector<XnnNodeSpec> nodes;
    std::vector<std::uint32_t> inputIds;
    std::vector<std::uint32_t> outputIds;
    std::optional<std::uint32_t> numExterns; ///< unset: inputs + outputs

    std::uint32_t addValue(XnnValueSpec value);
    std::uint32_t addExternalInput(int datatype, std::vector<std::uint32_t> dims);
    std::uint32_t addExternalOutput(int datatype, std::vector<std::uint32_t> dims);
    std::uint32_t addInternal(int datatype, std::vector<std::uint32_t> dims);
    std::uint32_t addConstant(int datatype, std::vector<std::uint32_t> dims, std::vector<std::uint8_t> bytes);
    std::uint32_t addNamedConstant(int datatype, std::vector<std::uint32_t> dims, std::string key, std::uint64_t size);
    void addNode(XnnNodeSpec node) { nodes.push_back(std::move(node)); }
};

struct XnnWriteOptions {
    /// XH00 header + FlatBuffer + constant data (every writer since 0.2). false: the oldest
    /// layout, a bare FlatBuffer with constants inline in XNNGraph.constant_buffer.
    bool header = true;
    std::string identifier = "XN01"; ///< "XN00" for release 0.1 payloads
    std::uint64_t constantAlignment = 16;
};

/// Serialises an XNNPACK delegate payload (facts sheet §3.1). constant_data[0] (or
/// constant_buffer[0]) is the reserved dummy entry; constants get 1, 2, … in value order.
/// Fails with Error::Usage for an identifier that is not 4 characters, an alignment of 0 or a
/// named constant in the bare layout; with Error::Limit for sizes the 32-bit header cannot hold.
Result<std::vector<std::uint8_t>> writeXnnpackPayload(const XnnGraphSpec& graph, const XnnWriteOptions& options = {});

} // namespace etscope::core
