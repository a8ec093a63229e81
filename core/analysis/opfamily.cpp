// SPDX-License-Identifier: MIT
// Operator families: the names one operation has in ATen and in the backends' payloads, so that
// a diff can tell that aten::addmm.out moved into XNNPACK as XNNFullyConnected.
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
    // "aten::add.out", "aten.add.Tensor" (Vulkan), "add": the base name without namespace and overload.
    std::string base = opType;
    if (const auto colons = base.rfind("::"); colons != std::string::npos)
        base = base.substr(colons + 2);
    else if (base.starts_with("aten.") || base.starts_with("et_vk."))
        base = base.substr(base.find('.') + 1);
    if (const auto dot = base.find('.'); dot != std::string::npos)
        base.resize(dot);
    for (char& c : base)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (base.ends_with("_copy"))
        base.resize(base.size() - 5);
    static const std::map<std::string, std::string, std::less<>> kAliases {
        { "addmm", "linear" },
        { "mm", "linear" },
        { "matmul", "linear" },
        { "relu", "clamp" },
        { "hardtanh", "clamp" },
        { "relu6", "clamp" },
        { "_softmax", "softmax" },
        { "convolution", "conv" },
        { "conv2d", "conv" },
        { "max_pool2d_with_indices", "max_pool2d" },
        { "transpose", "permute" },
        { "t", "permute" },
        { "reshape", "view" },
        { "_unsafe_view", "view" },
        { "squeeze", "view" },
        { "unsqueeze", "view" },
        { "mean", "mean" },
        { "concat", "cat" },
        { "clone", "clone" },
    };
    if (const auto it = kAliases.find(base); it != kAliases.end())
        return it->second;
    return base;
}

} // namespace etscope::core
