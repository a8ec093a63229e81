// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// TOSA 1.0 numbers (core/schema/tosa.fbs) the fixtures use.
namespace tosa {
namespace dtype {
constexpr std::uint32_t Bool = 1;
constexpr std::uint32_t Int8 = 3;
constexpr std::uint32_t Int16 = 4;
constexpr std::uint32_t Int32 = 5;
constexpr std::uint32_t Fp32 = 7;
constexpr std::uint32_t Shape = 10;
} // namespace dtype
namespace op {
constexpr std::uint32_t Conv2d = 3;
constexpr std::uint32_t DepthwiseConv2d = 5;
constexpr std::uint32_t Add = 15;
constexpr std::uint32_t Transpose = 61;
constexpr std::uint32_t Rescale = 66;
constexpr std::uint32_t Const = 67;
} // namespace op
} // namespace tosa

struct TosaTensorSpec {
    std::string name;
    std::vector<std::int32_t> shape;
    std::uint32_t dtype = tosa::dtype::Int8;
    std::vector<std::uint8_t> data; ///< empty: not a constant
};

/// One operator. The attribute table written follows the op (CONV2D and DEPTHWISE_CONV2D: the
/// convolution fields, RESCALE: its flags, TRANSPOSE: perms, ADD / CONST: an empty table,
/// others: none); `attributeTag` writes that union tag instead (an attribute of another op).
struct TosaOperatorSpec {
    std::uint32_t op = tosa::op::Add;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<std::int32_t> pad { 0, 0, 0, 0 };
    std::vector<std::int32_t> stride { 1, 1 };
    std::vector<std::int32_t> dilation { 1, 1 };
    std::vector<std::int32_t> perms;
    std::uint32_t accType = tosa::dtype::Int32;
    bool scale32 = true;
    std::uint32_t roundingMode = 1; ///< SINGLE_ROUND
    bool perChannel = false;
    std::optional<std::uint8_t> attributeTag;
};

/// Builds a TOSA 1.0 FlatBuffer (identifier "TOSA", one region "main" with one block "main"),
/// as Arm's flow writes them for TOSABackend payloads and Ethos-U side files. Names are written
/// as given, never checked, so tests can make graphs that point nowhere.
class TosaGraphWriter {
public:
    void addTensor(TosaTensorSpec tensor) { m_tensors.push_back(std::move(tensor)); }
    /// A tensor with data and the CONST operator that writes it.
    void addConstant(TosaTensorSpec tensor);
    void addOperator(TosaOperatorSpec op) { m_operators.push_back(std::move(op)); }
    void setInputs(std::vector<std::string> names) { m_inputs = std::move(names); }
    void setOutputs(std::vector<std::string> names) { m_outputs = std::move(names); }
    std::vector<std::uint8_t> write(std::int32_t major = 1, std::int32_t minor = 0) const;

private:
    std::vector<TosaTensorSpec> m_tensors;
    std::vector<TosaOperatorSpec> m_operators;
    std::vector<std::string> m_inputs;
    std::vector<std::string> m_outputs;
};

/// The small fixture graph: input x INT8 [1, 8, 8, 3] → CONV2D (weight w INT8 [4, 1, 1, 3],
/// bias b INT32 [4], input_zp -1, weight_zp 0; pad [0, 1, 0, 1], stride [1, 1]) → conv INT32
/// [1, 8, 8, 4] → ADD with c INT32 [1, 1, 1, 4] → sum → RESCALE (multiplier 1073741824, shift
/// 30, input_zp 0, output_zp -128; scale32, SINGLE_ROUND) → out INT8 [1, 8, 8, 4]. Eleven
/// operators: eight CONST and the three above.
TosaGraphWriter smallTosaGraph();

} // namespace etscope::core
