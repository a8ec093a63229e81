// SPDX-License-Identifier: MIT
// Operator families: the names one operation has in ATen and in the backends' payloads, so that
// a diff can tell that aten::addmm.out moved into XNNPACK as XNNFullyConnected, or aten::add.out
// into a VGF delegate as TOSA ADD.
#include "core/analysis/programdiff.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

namespace etscope::core {

std::string operatorFamily(const std::string& opType)
{
    // XNNPACK node types → the ATen operators the XNNPACK partitioner lowers to them. Several
    // ATen operators become one node type (relu, hardtanh and clamp are all XNNClamp), so the
    // family is the coarser name. Node types without an ATen counterpart (XNNConvert for
    // dynamic quantisation, layout transposes) keep their own name and never match an operator.
    static const std::map<std::string, std::string, std::less<>> kXnn {
        { "XNNFullyConnected", "linear" },
        { "XNNClamp", "clamp" },
        { "XNNConv2d", "conv" },
        { "XNNDepthwiseConv2d", "conv" },
        { "XNNConvTranspose2d", "conv" },
        { "XNNStaticTranspose", "permute" },
        { "XNNStaticReshape", "view" },
        { "XNNSoftmax", "softmax" },
        { "XNNBatchMatrixMultiply", "bmm" },
        { "XNNMultiply", "mul" },
        { "XNNAdd", "add" },
        { "XNNSubtract", "sub" },
        { "XNNDiv", "div" },
        { "XNNGelu", "gelu" },
        { "XNNSigmoid", "sigmoid" },
        { "XNNTanh", "tanh" },
        { "XNNHardswish", "hardswish" },
        { "XNNLeakyReLU", "leaky_relu" },
        { "XNNELU", "elu" },
        { "XNNMaxPooling2d", "max_pool2d" },
        { "XNNArgMaxPooling2d", "max_pool2d" },
        { "XNNAvgPooling2d", "avg_pool2d" },
        { "XNNGlobalAvgPooling2d", "mean" },
        { "XNNConcatenate2", "cat" },
        { "XNNConcatenate3", "cat" },
        { "XNNConcatenate4", "cat" },
        { "XNNConcatenate5", "cat" },
        { "XNNStaticSlice", "slice" },
        { "XNNStaticConstantPad", "pad" },
        { "XNNMaximum", "maximum" },
        { "XNNMinimum", "minimum" },
        { "XNNNegate", "neg" },
        { "XNNAbs", "abs" },
        { "XNNSquareRoot", "sqrt" },
        { "XNNReciprocalSquareRoot", "rsqrt" },
        { "XNNExp", "exp" },
        { "XNNLog", "log" },
        { "XNNSin", "sin" },
        { "XNNCos", "cos" },
        { "XNNFloor", "floor" },
        { "XNNCeiling", "ceil" },
        { "XNNSquare", "square" },
        { "XNNPReLU", "prelu" },
        { "XNNCopy", "clone" },
        { "XNNStaticResizeBilinear2D", "upsample_bilinear2d" },
        { "XNNScaledDotProductAttention", "scaled_dot_product_attention" },
    };
    if (const auto it = kXnn.find(opType); it != kXnn.end())
        return it->second;
    // The other decoders' names, each to a base name in lower case with underscores:
    //   ATen "aten::add.out", an edge name "aten.add.Tensor" (Vulkan, QNN: the namespace, the
    //     operator, the overload), "quantized_decomposed.quantize_per_tensor.default" (QNN);
    //   TOSA / VGF "TOSA ADD", "TOSA DEPTHWISE_CONV2D" (core/delegates/tosa.cpp, vgf.cpp);
    //   Ethos-U NPU "Conv", "Depthwise", "MaxPool", "Add", "Leaky relu" (ethosuoperations.cpp);
    //   Core ML MIL "conv", "real_div", "avg_pool", "reduce_mean" (coremlprogram.cpp);
    //   MLX "Addmm", "Conv2D", "Multiply", "Sdpa", "QuantizedMatmul" (mlx.cpp: the union
    //     member without "Node").
    std::string base = opType;
    if (base.starts_with("TOSA "))
        base = base.substr(5);
    if (const auto colons = base.rfind("::"); colons != std::string::npos) {
        base = base.substr(colons + 2);
    } else if (std::count(base.begin(), base.end(), '.') >= 2 || base.starts_with("aten.")
        || base.starts_with("et_vk.")) {
        base = base.substr(base.find('.') + 1); // "namespace.op.overload": drop the namespace
    }
    if (const auto dot = base.find('.'); dot != std::string::npos)
        base.resize(dot);
    for (char& c : base)
        c = c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (base.ends_with("_copy"))
        base.resize(base.size() - 5);
    static const std::map<std::string, std::string, std::less<>> kAliases {
        { "addmm", "linear" }, { "mm", "linear" }, { "matmul", "linear" }, { "fully_connected", "linear" }, // TOSA
        { "quantizedmatmul", "linear" }, // MLX
        { "relu", "clamp" }, { "hardtanh", "clamp" }, { "relu6", "clamp" }, { "clip", "clamp" }, // Core ML, MLX
        { "_softmax", "softmax" }, { "convolution", "conv" }, { "conv1d", "conv" }, { "conv2d", "conv" },
        { "conv3d", "conv" }, { "depthwise_conv2d", "conv" }, // TOSA
        { "transpose_conv2d", "conv" }, // TOSA
        { "conv_transpose", "conv" }, // Core ML
        { "convtranspose1d", "conv" }, // MLX
        { "convtranspose2d", "conv" }, { "convtranspose3d", "conv" }, { "depthwise", "conv" }, // Ethos-U
        { "max_pool2d_with_indices", "max_pool2d" }, { "max_pool", "max_pool2d" }, // Core ML
        { "maxpool", "max_pool2d" }, // Ethos-U
        { "avg_pool", "avg_pool2d" }, // Core ML
        { "avgpool", "avg_pool2d" }, // Ethos-U
        { "transpose", "permute" }, { "t", "permute" }, { "reshape", "view" }, { "_unsafe_view", "view" },
        { "squeeze", "view" }, { "unsqueeze", "view" }, { "mean", "mean" }, { "reduce_mean", "mean" }, // Core ML
        { "reduce_sum", "sum" }, // TOSA, Core ML
        { "reducesum", "sum" }, // Ethos-U
        { "concat", "cat" }, { "concatenate", "cat" }, // MLX
        { "clone", "clone" }, { "multiply", "mul" }, // MLX
        { "subtract", "sub" }, // MLX
        { "divide", "div" }, // MLX
        { "real_div", "div" }, // Core ML
        { "negate", "neg" }, // TOSA
        { "min", "minimum" }, // Ethos-U elementwise
        { "max", "maximum" }, { "sdpa", "scaled_dot_product_attention" }, // MLX
    };
    if (const auto it = kAliases.find(base); it != kAliases.end())
        return it->second;
    return base;
}

} // namespace etscope::core
