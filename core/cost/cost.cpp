// SPDX-License-Identifier: MIT
// Per backend, which rule of costrules.h an operator takes and where its shapes come from:
// - top level: the KernelCall's arguments, named by the operator's schema (core/opschema), read
//   from the method's value table; the output from the values the instruction writes;
// - XNNPACK: the port attributes of core/delegates/xnnpacknodes.cpp ("input": "value 3: fp32 [..]")
//   and its parameters ("kernel (h × w)", "group input channels");
// - TOSA: the operand attributes of core/delegates/tosa.cpp ("in 1 (weight)": "w: INT8 [..]");
// - Core ML: the named parameters of core/delegates/coremlprogram.cpp, their shapes looked up by name;
// - Ethos-U: the command stream replayed again (ethosucost.h), joined to the inner graph's kicks
//   by their "stream offset".
// Operand layouts are the operators' own (PyTorch's conv weight [Cout, Cin/groups, kh, kw];
// XNNPACK's parameters; TOSA 1.0's CONV2D weight [OC, KH, KW, IC], DEPTHWISE_CONV2D [KH, KW, C, M],
// TRANSPOSE_CONV2D [OC, KH, KW, IC]; MIL's conv weight [C_out, C_in/groups, *K]).
#include "core/cost/cost.h"

#include "core/cost/costrules.h"
#include "core/delegates/delegate.h"
#include "core/opschema/opschema.h"
#include "core/vendorlogs/vendorjoin.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

namespace etscope::core::cost {

namespace {

/// The arithmetic kinds of the rules; each operator name maps to one.
enum class Rule : std::uint8_t {
    Convolution,
    Linear,
    MatrixProduct,
    Pooling,
    GlobalPooling,
    Elementwise,
    Reduction,
    Softmax,
    LayerNorm,
    RmsNorm,
    BatchNorm,
    Attention,
    ResizeNearest,
    ResizeBilinear,
    DataMovement,
};

std::string_view kindName(Rule rule)
{
    switch (rule) {
    case Rule::Convolution:
        return "convolution";
    case Rule::Linear:
        return "linear";
    case Rule::MatrixProduct:
        return "matmul";
    case Rule::Pooling:
    case Rule::GlobalPooling:
        return "pooling";
    case Rule::Elementwise:
        return "elementwise";
    case Rule::Reduction:
        return "reduction";
    case Rule::Softmax:
        return "softmax";
    case Rule::LayerNorm:
        return "layer norm";
    case Rule::RmsNorm:
        return "RMS norm";
    case Rule::BatchNorm:
        return "batch norm";
    case Rule::Attention:
        return "attention";
    case Rule::ResizeNearest:
    case Rule::ResizeBilinear:
        return "resize";
    case Rule::DataMovement:
        return "data movement";
    }
    return "";
}

using RuleTable = std::unordered_map<std::string_view, Rule>;

void addAll(RuleTable& table, std::initializer_list<std::string_view> names, Rule rule)
{
    for (const std::string_view name : names)
        table.emplace(name, rule);
}

/// ATen (and quantized_decomposed) operator names without namespace and overload.
const RuleTable& atenRules()
{
    static const RuleTable table = [] {
        RuleTable t;
        addAll(t,
            { "convolution", "_convolution", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                "conv_transpose3d" },
            Rule::Convolution);
        addAll(t, { "linear" }, Rule::Linear);
        addAll(t, { "mm", "addmm", "bmm", "baddbmm", "matmul" }, Rule::MatrixProduct);
        addAll(t,
            { "max_pool1d", "max_pool2d", "max_pool3d", "max_pool2d_with_indices", "max_pool3d_with_indices",
                "avg_pool1d", "avg_pool2d", "avg_pool3d" },
            Rule::Pooling);
        addAll(t,
            { "adaptive_avg_pool1d", "adaptive_avg_pool2d", "_adaptive_avg_pool2d", "adaptive_max_pool2d",
                "adaptive_avg_pool3d" },
            Rule::GlobalPooling);
        addAll(t,
            { "add", "sub", "rsub", "mul", "div", "relu", "relu6", "gelu", "sigmoid", "tanh", "hardtanh", "hardswish",
                "hardsigmoid", "silu", "leaky_relu", "elu", "prelu", "clamp", "clamp_min", "clamp_max", "exp", "log",
                "log1p", "neg", "abs", "sqrt", "rsqrt", "pow", "reciprocal", "sin", "cos", "erf", "floor", "ceil",
                "round", "trunc", "sign", "where", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge",
                "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_not",
                "bitwise_xor", "masked_fill", "_to_copy", "to", "glu", "softplus", "quantize_per_tensor",
                "dequantize_per_tensor", "quantize_per_channel", "dequantize_per_channel", "quantize_per_token",
                "dequantize_per_token", "fake_quantize_per_tensor_affine", "addcmul", "addcdiv", "lerp", "fmod",
                "remainder", "floor_divide", "atan", "atan2", "tan", "expm1", "mish" },
            Rule::Elementwise);
        addAll(t,
            { "sum", "mean", "amax", "amin", "argmax", "argmin", "max", "min", "var", "std", "var_mean", "prod", "any",
                "all", "cumsum", "logsumexp", "norm", "linalg_vector_norm", "choose_qparams_tensor",
                "choose_qparams_per_token_asymmetric" },
            Rule::Reduction);
        addAll(t, { "softmax", "_softmax", "log_softmax", "_log_softmax" }, Rule::Softmax);
        addAll(t, { "native_layer_norm", "layer_norm", "native_group_norm", "group_norm" }, Rule::LayerNorm);
        addAll(t, { "rms_norm", "_fused_rms_norm" }, Rule::RmsNorm);
        addAll(t,
            { "_native_batch_norm_legit_no_training", "_native_batch_norm_legit", "native_batch_norm", "batch_norm" },
            Rule::BatchNorm);
        addAll(t, { "scaled_dot_product_attention", "_scaled_dot_product_flash_attention_for_cpu" }, Rule::Attention);
        addAll(t, { "upsample_nearest2d", "upsample_nearest1d", "_upsample_nearest_exact2d" }, Rule::ResizeNearest);
        addAll(t, { "upsample_bilinear2d", "_upsample_bilinear2d_aa" }, Rule::ResizeBilinear);
        // Vendor CPU kernels (namespaces cortex_m::, cadence::), read at pytorch/executorch
        // 02f5d39b: cortex_m's quantized_conv2d takes an OHWI weight [Cout, Kh, Kw, Cin]
        // (backends/cortex_m/ops/op_quantized_conv2d.cpp: filter_dims from weight.size(0..3)), so
        // the convolution rule's reduction, the product of weight dims 1.., holds as for OIHW;
        // cadence's NCHW convolutions take OIHW like aten (backends/cadence/reference/operators,
        // quantized_conv_nchw: "weight = [oc, wc, wh, ww]", wc the input channels per group; every
        // *_nchw variant calls it). quantized_depthwise_conv2d is read apart (TopLevel::cost). The
        // linear kernels' first argument is the input (`input`, cadence's `src`), whose last dim is
        // the reduction.
        addAll(t,
            { "quantized_conv2d", "quantized_depthwise_conv2d", "quantized_conv2d_nchw", "quantized_conv_nchw",
                "quantized_conv2d_nchw_asym8sxsym8s_asym8s", "quantized_conv2d_nchw_asym8uxsym8u_asym8u",
                "quantized_conv2d_nchw_depthwise_asym8sxsym8s_asym8s",
                "quantized_conv2d_nchw_depthwise_asym8uxsym8u_asym8u",
                "quantized_conv2d_nchw_dilated_asym8sxsym8s_asym8s",
                "quantized_conv2d_nchw_dilated_asym8uxsym8u_asym8u" },
            Rule::Convolution);
        addAll(t, { "quantized_linear", "quantized_fully_connected" }, Rule::Linear);
        addAll(t, { "quantized_avg_pool2d", "quantized_max_pool2d", "quantized_max_pool2d_nchw" }, Rule::Pooling);
        addAll(t, { "quantized_add", "quantized_mul", "quantized_relu", "quantized_activation", "requantize" },
            Rule::Elementwise);
        addAll(t,
            { "view", "view_copy", "reshape", "_reshape_alias_copy", "permute", "permute_copy", "transpose",
                "transpose_copy", "t_copy", "expand", "expand_copy", "clone", "cat", "concat", "stack", "slice",
                "slice_copy", "select", "select_copy", "squeeze", "squeeze_copy", "unsqueeze", "unsqueeze_copy",
                "split", "split_copy", "split_with_sizes_copy", "unbind_copy", "narrow_copy", "alias_copy", "index",
                "index_select", "index_put", "gather", "scatter", "embedding", "constant_pad_nd", "pad", "repeat",
                "pixel_shuffle", "pixel_unshuffle", "flip", "roll", "copy", "copy_", "fill", "full", "full_like",
                "zeros", "zeros_like", "ones", "ones_like", "arange", "empty", "detach_copy", "_unsafe_view",
                "as_strided_copy", "tril", "triu", "sym_size", "_local_scalar_dense", "scalar_tensor",
                "lift_fresh_copy", "_clone_dim_order", "_to_dim_order_copy", "unfold_copy" },
            Rule::DataMovement);
        return t;
    }();
    return table;
}

/// XNNPACK node types (core/schema/xnnpack.fbs union names).
const RuleTable& xnnpackRules()
{
    static const RuleTable table = [] {
        RuleTable t;
        addAll(t, { "XNNConv2d", "XNNDepthwiseConv2d", "XNNConvTranspose2d" }, Rule::Convolution);
        addAll(t, { "XNNFullyConnected" }, Rule::Linear);
        addAll(t, { "XNNBatchMatrixMultiply" }, Rule::MatrixProduct);
        addAll(t, { "XNNAvgPooling2d", "XNNMaxPooling2d", "XNNArgMaxPooling2d" }, Rule::Pooling);
        addAll(t, { "XNNGlobalAvgPooling2d" }, Rule::GlobalPooling);
        addAll(t,
            { "XNNAdd", "XNNDiv", "XNNMinimum", "XNNMaximum", "XNNMultiply", "XNNSubtract", "XNNPReLU", "XNNSigmoid",
                "XNNClamp", "XNNFloor", "XNNConvert", "XNNSquareRoot", "XNNCeiling", "XNNHardswish", "XNNNegate",
                "XNNSquare", "XNNAbs", "XNNReciprocalSquareRoot", "XNNLog", "XNNGelu", "XNNTanh", "XNNExp", "XNNSin",
                "XNNCos", "XNNELU", "XNNLeakyReLU" },
            Rule::Elementwise);
        addAll(t, { "XNNSoftmax" }, Rule::Softmax);
        addAll(t, { "XNNScaledDotProductAttention" }, Rule::Attention);
        addAll(t, { "XNNStaticResizeBilinear2D" }, Rule::ResizeBilinear);
        addAll(t,
            { "XNNCopy", "XNNConcatenate2", "XNNConcatenate3", "XNNConcatenate4", "XNNConcatenate5",
                "XNNStaticTranspose", "XNNStaticReshape", "XNNStaticSlice", "XNNStaticConstantPad" },
            Rule::DataMovement);
        return t;
    }();
    return table;
}

/// TOSA 1.0 operator names (core/delegates/tosa.cpp's table; opType is "TOSA " + name).
const RuleTable& tosaRules()
{
    static const RuleTable table = [] {
        RuleTable t;
        addAll(t, { "CONV2D", "CONV3D", "DEPTHWISE_CONV2D", "TRANSPOSE_CONV2D" }, Rule::Convolution);
        addAll(t, { "FULLY_CONNECTED" }, Rule::Linear);
        addAll(t, { "MATMUL" }, Rule::MatrixProduct);
        addAll(t, { "AVG_POOL2D", "MAX_POOL2D" }, Rule::Pooling);
        addAll(t,
            { "ADD", "SUB", "MUL", "INTDIV", "MAXIMUM", "MINIMUM", "POW", "ARITHMETIC_RIGHT_SHIFT",
                "LOGICAL_LEFT_SHIFT", "LOGICAL_RIGHT_SHIFT", "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR", "BITWISE_NOT",
                "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR", "LOGICAL_NOT", "EQUAL", "GREATER", "GREATER_EQUAL", "ABS",
                "CEIL", "CLZ", "COS", "EXP", "FLOOR", "LOG", "NEGATE", "RECIPROCAL", "RSQRT", "SIN", "SELECT", "CLAMP",
                "SIGMOID", "TANH", "ERF", "TABLE", "RESCALE", "CAST" },
            Rule::Elementwise);
        addAll(t, { "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PRODUCT", "REDUCE_SUM", "ARGMAX" },
            Rule::Reduction);
        addAll(t, { "RESIZE" }, Rule::ResizeBilinear);
        addAll(t,
            { "CONCAT", "PAD", "RESHAPE", "REVERSE", "SLICE", "TILE", "TRANSPOSE", "GATHER", "SCATTER", "IDENTITY" },
            Rule::DataMovement);
        return t;
    }();
    return table;
}

/// Core ML MIL operation types (coremltools' MIL op names).
const RuleTable& coremlRules()
{
    static const RuleTable table = [] {
        RuleTable t;
        addAll(t, { "conv", "conv_transpose" }, Rule::Convolution);
        addAll(t, { "linear" }, Rule::Linear);
        addAll(t, { "matmul", "einsum" }, Rule::MatrixProduct);
        addAll(t, { "avg_pool", "max_pool", "l2_pool" }, Rule::Pooling);
        addAll(t,
            { "add", "sub", "mul", "real_div", "floor_div", "pow", "maximum", "minimum", "relu", "relu6", "sigmoid",
                "sigmoid_hard", "tanh", "gelu", "silu", "elu", "leaky_relu", "prelu", "softplus", "clip", "exp", "exp2",
                "log", "sqrt", "rsqrt", "inverse", "abs", "neg", "sin", "cos", "erf", "floor", "ceil", "round", "sign",
                "square", "select", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                "logical_and", "logical_or", "logical_not", "logical_xor", "cast", "quantize", "dequantize",
                "thresholded_relu", "scaled_tanh", "linear_activation" },
            Rule::Elementwise);
        addAll(t,
            { "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_argmax", "reduce_argmin",
                "reduce_l1_norm", "reduce_l2_norm", "reduce_log_sum", "reduce_log_sum_exp", "reduce_sum_square",
                "cumsum" },
            Rule::Reduction);
        addAll(t, { "softmax" }, Rule::Softmax);
        addAll(t, { "layer_norm", "instance_norm" }, Rule::LayerNorm);
        addAll(t, { "batch_norm" }, Rule::BatchNorm);
        addAll(t, { "scaled_dot_product_attention" }, Rule::Attention);
        addAll(t, { "upsample_nearest_neighbor" }, Rule::ResizeNearest);
        addAll(t, { "upsample_bilinear", "resize_bilinear" }, Rule::ResizeBilinear);
        addAll(t,
            { "reshape", "transpose", "concat", "split", "slice_by_index", "slice_by_size", "squeeze", "expand_dims",
                "gather", "gather_along_axis", "gather_nd", "scatter", "pad", "tile", "identity", "stack", "reverse",
                "pixel_shuffle", "space_to_depth", "depth_to_space", "shape", "fill", "range_1d", "band_part" },
            Rule::DataMovement);
        return t;
    }();
    return table;
}

Shape shapeOf(const SharedVector<std::int64_t>& shape)
{
    return Shape(shape.begin(), shape.end());
}

/// The reduction factors and formula of a rule that needs them; the remaining rules need only
/// the input or the output. Shared by all backends: every adapter fills one of these.
struct Operands {
    std::optional<Shape> input; ///< the main activation input
    std::optional<Shape> output;
    std::optional<Shape> reduction; ///< dot products: the factors of each output's reduction
    std::string reductionText; ///< "(Cin/groups)·kh·kw"
    std::optional<Shape> window; ///< pooling
    std::optional<Shape> transposedKernel; ///< transposed convolution: (Cout/groups) then the kernel
    std::optional<Shape> query, key, value; ///< attention
    std::string missing; ///< what an adapter could not find, named
};

Work apply(Rule rule, const Operands& o)
{
    Work work;
    const auto need = [&](const std::optional<Shape>& shape, const char* what) {
        if (shape)
            return true;
        work.problem = o.missing.empty() ? std::string("no ") + what + " shape" : o.missing;
        return false;
    };
    switch (rule) {
    case Rule::Convolution:
    case Rule::Linear:
    case Rule::MatrixProduct:
        if (o.transposedKernel) {
            if (need(o.input, "input"))
                work = transposedConvolutionWork(*o.input, o.transposedKernel->front(),
                    std::span<const std::int64_t>(*o.transposedKernel).subspan(1));
            return work;
        }
        if (need(o.output, "output") && need(o.reduction, "weight"))
            work = dotProductWork(*o.output, *o.reduction, o.reductionText);
        return work;
    case Rule::Pooling:
        if (need(o.output, "output") && need(o.window, "kernel window"))
            work = poolingWork(*o.output, *o.window);
        return work;
    case Rule::GlobalPooling:
        if (need(o.input, "input"))
            work = globalPoolingWork(*o.input);
        return work;
    case Rule::Elementwise:
        if (need(o.output, "output"))
            work = elementwiseWork(*o.output);
        return work;
    case Rule::Reduction:
        if (need(o.input, "input"))
            work = reductionWork(*o.input);
        return work;
    case Rule::Softmax:
        if (need(o.input, "input"))
            work = softmaxWork(*o.input);
        return work;
    case Rule::LayerNorm:
        if (need(o.input, "input"))
            work = layerNormWork(*o.input);
        return work;
    case Rule::RmsNorm:
        if (need(o.input, "input"))
            work = rmsNormWork(*o.input);
        return work;
    case Rule::BatchNorm:
        if (need(o.input, "input"))
            work = batchNormWork(*o.input);
        return work;
    case Rule::Attention:
        if (need(o.query, "query") && need(o.key, "key") && need(o.value, "value"))
            work = attentionWork(*o.query, *o.key, *o.value);
        return work;
    case Rule::ResizeNearest:
    case Rule::ResizeBilinear:
        if (need(o.output, "output"))
            work = resizeWork(*o.output, rule == Rule::ResizeBilinear ? 4 : 1);
        return work;
    case Rule::DataMovement:
        return dataMovementWork();
    }
    return work;
}

void setWork(NodeCost& cost, Rule rule, const Work& work)
{
    cost.kind = kindName(rule);
    if (!work.ok()) {
        cost.status = CostStatus::NoShape;
        cost.reason = work.problem;
        return;
    }
    cost.status = CostStatus::Counted;
    cost.macs = work.macs;
    cost.ops = work.ops;
    cost.formula = work.formula;
}

/// "aten::convolution.out" → "convolution".
std::string_view baseName(std::string_view opType)
{
    if (const auto colons = opType.rfind("::"); colons != std::string_view::npos)
        opType.remove_prefix(colons + 2);
    if (const auto dot = opType.find('.'); dot != std::string_view::npos)
        opType = opType.substr(0, dot);
    return opType;
}

// ---- the top level ---------------------------------------------------------------------------

class TopLevel {
public:
    TopLevel(const Method& method)
        : m_method(method)
    {
    }

    void cost(const Node& node, NodeCost& out);

private:
    const Value* value(std::int32_t index) const
    {
        return index >= 0 && static_cast<std::size_t>(index) < m_method.values.size()
            ? &m_method.values[static_cast<std::size_t>(index)]
            : nullptr;
    }
    const TensorInfo* tensor(std::int32_t index) const
    {
        const Value* v = value(index);
        return v && v->isTensor() ? &v->tensor : nullptr;
    }
    const std::vector<std::string>& names(const Node& node);
    std::int32_t arg(const Node& node, std::string_view name, std::size_t fallback) const;
    std::optional<Shape> intList(std::int32_t index) const;

    const Method& m_method;
    /// (opType, arg count) → names; the views point into the method graph, which outlives this.
    std::map<std::pair<std::string_view, std::size_t>, std::vector<std::string>> m_names;
    const std::vector<std::string>* m_current = nullptr;
};

const std::vector<std::string>& TopLevel::names(const Node& node)
{
    const std::pair<std::string_view, std::size_t> key(node.opType, node.args.size());
    auto it = m_names.find(key);
    if (it == m_names.end()) {
        const std::string_view op = node.opType;
        const auto dot = op.find('.', op.rfind("::") == std::string_view::npos ? 0 : op.rfind("::"));
        const std::string name(op.substr(0, dot));
        const std::string overload(dot == std::string_view::npos ? std::string_view() : op.substr(dot + 1));
        it = m_names.emplace(key, kernelArgumentNames(name, overload, node.args.size())).first;
    }
    return it->second;
}

std::int32_t TopLevel::arg(const Node& node, std::string_view name, std::size_t fallback) const
{
    if (m_current && !m_current->empty()) {
        for (std::size_t i = 0; i < m_current->size() && i < node.args.size(); ++i)
            if ((*m_current)[i] == name)
                return node.args[i];
        return -1;
    }
    return fallback < node.args.size() ? node.args[fallback] : -1;
}

std::optional<Shape> TopLevel::intList(std::int32_t index) const
{
    const Value* v = value(index);
    if (!v || v->kind != Value::Kind::IntList)
        return std::nullopt;
    Shape out;
    for (const std::int64_t item : v->items) {
        const Value* element = item >= 0 && item <= INT32_MAX ? value(static_cast<std::int32_t>(item)) : nullptr;
        if (!element || element->kind != Value::Kind::Int)
            return std::nullopt;
        out.push_back(element->intValue);
    }
    return out;
}

void TopLevel::cost(const Node& node, NodeCost& out)
{
    m_current = &names(node);
    // Bytes: every tensor argument the kernel does not write is read once; constants are parameters.
    // A kernel has a handful of arguments: small vectors searched linearly beat node-based sets.
    std::vector<std::int32_t> written;
    written.reserve(node.writes.size());
    std::uint64_t bytesWritten = 0;
    bool bytesKnown = true;
    bool dynamic = false;
    for (const auto& [index, meta] : node.writes) {
        written.push_back(index);
        const TensorInfo* t = tensor(index);
        const auto bytes
            = t ? tensorBytes(meta.dtype, t->sizes.vector()) : tensorBytes(meta.dtype, meta.shape.vector());
        if (bytes)
            bytesWritten += *bytes;
        else if (t || meta.known())
            bytesKnown = false;
        dynamic = dynamic || (t && t->shapeDynamism != 0);
    }
    std::uint64_t bytesRead = 0;
    std::vector<std::int32_t> seen;
    const auto has = [](const std::vector<std::int32_t>& list, std::int32_t index) {
        return std::find(list.begin(), list.end(), index) != list.end();
    };
    const auto readTensor = [&](std::int32_t index) {
        if (has(written, index) || has(seen, index))
            return;
        seen.push_back(index);
        const TensorInfo* t = tensor(index);
        if (!t)
            return;
        const std::uint64_t bytes = t->byteSize();
        if (bytes == 0 && t->elementCount() > 0)
            bytesKnown = false;
        bytesRead += bytes;
        dynamic = dynamic || t->shapeDynamism != 0;
        if (t->storage == TensorStorage::Constant || t->storage == TensorStorage::External)
            out.parameterBytes += bytes;
    };
    for (const std::int32_t a : node.args) {
        readTensor(a);
        const Value* v = value(a);
        if (v && (v->kind == Value::Kind::TensorList || v->kind == Value::Kind::OptionalTensorList))
            for (const std::int64_t item : v->items)
                if (item >= 0 && item <= INT32_MAX)
                    readTensor(static_cast<std::int32_t>(item));
    }
    if (bytesKnown) {
        out.bytesRead = bytesRead;
        out.bytesWritten = bytesWritten;
    }

    const auto rule = atenRules().find(baseName(node.opType));
    if (rule == atenRules().end()) {
        out.status = CostStatus::NoRule;
        out.reason = "no cost rule for " + node.opType;
        return;
    }
    Operands o;
    const auto shapeAt = [&](std::int32_t index) -> std::optional<Shape> {
        if (const TensorInfo* t = tensor(index))
            return shapeOf(t->sizes);
        return std::nullopt;
    };
    if (!node.writes.empty()) {
        const TensorInfo* t = tensor(node.writes.front().first);
        o.output = t ? shapeOf(t->sizes) : shapeOf(node.writes.front().second.shape);
    } else {
        o.missing = "the kernel writes no tensor ETScope can see";
    }
    const std::string_view base = baseName(node.opType);
    const auto firstTensor = [&](std::initializer_list<const char*> candidates) -> std::optional<Shape> {
        for (const char* name : candidates)
            if (auto shape = shapeAt(arg(node, name, 0)))
                return shape;
        return std::nullopt;
    };
    o.input = firstTensor({ "self", "input", "query" });
    switch (rule->second) {
    case Rule::Convolution: {
        const auto weight = shapeAt(arg(node, "weight", 1));
        const Value* transposed = value(arg(node, "transposed", 6));
        const bool isTransposed = base.starts_with("conv_transpose")
            || (transposed && transposed->kind == Value::Kind::Bool && transposed->boolValue);
        if (!weight || weight->size() < 2) {
            o.missing = "no weight shape";
        } else if (base == "quantized_depthwise_conv2d") {
            // cortex_m's depthwise weight is IHWO [1, Kh, Kw, Cout] (op_quantized_depthwise_conv2d.cpp
            // @ 02f5d39b, "weight is in IHWO layout"): each output reads one input channel's window.
            if (weight->size() == 4) {
                o.reduction = Shape { (*weight)[1], (*weight)[2] };
                o.reductionText = "kernel (depthwise, IHWO weight)";
            } else {
                o.missing = "a depthwise weight that is not 4-D [1, Kh, Kw, Cout]";
            }
        } else if (isTransposed) {
            // Transposed weights are [Cin, Cout/groups, k…].
            Shape factors { (*weight)[1] };
            factors.insert(factors.end(), weight->begin() + 2, weight->end());
            o.transposedKernel = factors;
        } else {
            // Weights are [Cout, Cin/groups, k…]: the reduction per output element.
            o.reduction = Shape(weight->begin() + 1, weight->end());
            o.reductionText = "(Cin/groups)·kernel";
        }
        break;
    }
    case Rule::Linear:
        if (const auto input = shapeAt(arg(node, "input", 0)); input && !input->empty()) {
            o.reduction = Shape { input->back() };
            o.reductionText = "in features";
        }
        break;
    case Rule::MatrixProduct: {
        const auto first = firstTensor({ "mat1", "batch1", "self" });
        if (first && !first->empty()) {
            o.reduction = Shape { first->back() };
            o.reductionText = "K";
        }
        break;
    }
    case Rule::Pooling:
        if (auto kernel = intList(arg(node, "kernel_size", 1))) {
            const std::size_t spatial = base.ends_with("1d") ? 1 : base.find("3d") != std::string_view::npos ? 3 : 2;
            if (kernel->size() == 1 && spatial > 1)
                kernel->resize(spatial, kernel->front()); // PyTorch: one value for every dimension
            o.window = kernel;
        }
        break;
    case Rule::Attention:
        o.query = shapeAt(arg(node, "query", 0));
        o.key = shapeAt(arg(node, "key", 1));
        o.value = shapeAt(arg(node, "value", 2));
        break;
    default:
        break;
    }
    setWork(out, rule->second, apply(rule->second, o));
    if (dynamic && out.status == CostStatus::Counted)
        out.reason = "dynamic shapes: counted at their upper bounds";
}

// ---- inner graphs ----------------------------------------------------------------------------

std::optional<Shape> attributeShape(const Node& node, std::string_view name)
{
    const auto text = node.attributes.find(name);
    if (!text)
        return std::nullopt;
    const auto meta = parseMetaText(*text);
    return meta ? std::optional<Shape>(meta->shape) : std::nullopt;
}

std::optional<Shape> attributeInts(const Node& node, std::string_view name)
{
    const auto text = node.attributes.find(name);
    return text ? parseIntList(*text) : std::nullopt;
}

std::optional<std::int64_t> attributeInt(const Node& node, std::string_view name)
{
    const auto list = attributeInts(node, name);
    return list && list->size() == 1 ? std::optional<std::int64_t>(list->front()) : std::nullopt;
}

Operands xnnpackOperands(const Node& node, Rule rule)
{
    Operands o;
    o.input = attributeShape(node, node.attributes.find("input") ? "input" : "input1");
    o.output = attributeShape(node, "output");
    if (!o.output)
        o.output = attributeShape(node, "output value");
    switch (rule) {
    case Rule::Convolution: {
        const auto kernel = attributeInts(node, "kernel (h × w)");
        if (!kernel || kernel->size() != 2) {
            o.missing = "no kernel size";
            break;
        }
        if (node.opType == "XNNConvTranspose2d") {
            const auto outPerGroup = attributeInt(node, "group output channels");
            if (outPerGroup)
                o.transposedKernel = Shape { *outPerGroup, (*kernel)[0], (*kernel)[1] };
            break;
        }
        // Depthwise: XNNPACK stores group input channels 1 (one group per input channel).
        const auto inPerGroup = attributeInt(node, "group input channels");
        if (inPerGroup) {
            o.reduction = Shape { *inPerGroup, (*kernel)[0], (*kernel)[1] };
            o.reductionText = "group input channels·kh·kw";
        }
        break;
    }
    case Rule::Linear:
    case Rule::MatrixProduct:
        if (o.input && !o.input->empty()) {
            o.reduction = Shape { o.input->back() };
            o.reductionText = "K";
        }
        break;
    case Rule::Pooling:
        o.window = attributeInts(node, "pooling (h × w)");
        break;
    case Rule::Attention:
        o.query = attributeShape(node, "query");
        o.key = attributeShape(node, "key");
        o.value = attributeShape(node, "value");
        break;
    default:
        break;
    }
    return o;
}

/// TOSA operands by role. From a TOSA flatbuffer (tosa.cpp): the attribute "in N (role)". From
/// a VGF's SPIR-V graph (vgf.cpp): a graph constant is the attribute named by its role, an
/// activation is an edge, in operand order (the first is the input), and the output "result".
struct TosaLookup {
    const Graph& graph;
    const GraphAdjacency& adjacency;
    std::size_t index;
    bool vgf;

    std::optional<Shape> operand(const Node& node, std::string_view role) const
    {
        if (vgf) {
            if (auto meta = attributeShape(node, role))
                return meta;
            if (role == "input" || role == "input1" || role == "A")
                for (const std::size_t e : adjacency.in[index]) {
                    const Edge& edge = graph.edges[e];
                    if (graph.node(edge.from).kind != NodeKind::Constant && edge.meta.known())
                        return shapeOf(edge.meta.shape);
                }
            return std::nullopt;
        }
        const std::string suffix = "(" + std::string(role) + ")";
        for (const auto& [name, value] : node.attributes)
            if (name.starts_with("in ") && name.ends_with(suffix))
                if (const auto meta = parseMetaText(value))
                    return meta->shape;
        return std::nullopt;
    }
    std::optional<Shape> output(const Node& node) const { return attributeShape(node, vgf ? "result" : "out 0"); }
};

Operands tosaOperands(const Node& node, Rule rule, std::string_view op, const TosaLookup& lookup)
{
    Operands o;
    o.input = lookup.operand(node, "input");
    if (!o.input)
        o.input = lookup.operand(node, "input1");
    o.output = lookup.output(node);
    const auto weight = lookup.operand(node, "weight");
    switch (rule) {
    case Rule::Convolution:
        if (!weight || weight->size() < 3) {
            o.missing = "no weight shape";
        } else if (op == "DEPTHWISE_CONV2D") { // weight [KH, KW, C, M]
            o.reduction = Shape { (*weight)[0], (*weight)[1] };
            o.reductionText = "KH·KW";
        } else if (op == "TRANSPOSE_CONV2D") { // weight [OC, KH, KW, IC]
            o.transposedKernel = Shape { (*weight)[0], (*weight)[1], (*weight)[2] };
        } else { // CONV2D [OC, KH, KW, IC], CONV3D [OC, KD, KH, KW, IC]
            o.reduction = Shape(weight->begin() + 1, weight->end());
            o.reductionText = "kernel·IC";
        }
        break;
    case Rule::Linear:
        if (weight && weight->size() == 2) {
            o.reduction = Shape { (*weight)[1] };
            o.reductionText = "IC";
        }
        break;
    case Rule::MatrixProduct:
        if (const auto a = lookup.operand(node, "A"); a && !a->empty()) { // A [N, H, C] · B [N, C, W]
            o.reduction = Shape { a->back() };
            o.reductionText = "C";
        }
        break;
    case Rule::Pooling:
        o.window = attributeInts(node, "kernel");
        break;
    default:
        break;
    }
    return o;
}

/// Core ML: the shapes of named values, from the operations' "output" attributes, the inputs'
/// "name"/"type" and the constants' outgoing edges.
std::unordered_map<std::string, Shape> coremlShapes(const Graph& graph)
{
    std::unordered_map<std::string, Shape> shapes;
    for (const Node& node : graph.nodes) {
        for (const auto& [name, value] : node.attributes) {
            if (name != "output" && !name.starts_with("output "))
                continue;
            const auto colon = value.find(':');
            if (colon == std::string_view::npos)
                continue;
            if (const auto meta = parseMetaText(value.substr(colon)))
                shapes.emplace(std::string(value.substr(0, colon)), meta->shape);
        }
        if (node.kind == NodeKind::Input)
            if (const auto name = node.attributes.find("name"))
                if (const auto shape = attributeShape(node, "type"))
                    shapes.emplace(std::string(*name), *shape);
    }
    for (const Edge& edge : graph.edges) {
        const Node& from = graph.node(edge.from);
        if (from.kind == NodeKind::Constant && edge.meta.known())
            shapes.emplace(from.label, shapeOf(edge.meta.shape));
    }
    return shapes;
}

Operands coremlOperands(const Node& node, Rule rule, const std::unordered_map<std::string, Shape>& shapes)
{
    Operands o;
    const auto operand = [&](std::string_view key) -> std::optional<Shape> {
        const auto text = node.attributes.find(key);
        if (!text)
            return std::nullopt;
        // The binding's name, then maybe " = …" (a constant's preview).
        const std::string name(text->substr(0, text->find_first_of(" ,")));
        const auto it = shapes.find(name);
        return it == shapes.end() ? std::nullopt : std::optional<Shape>(it->second);
    };
    o.input = operand("x");
    if (const auto output = node.attributes.find("output")) {
        const auto colon = output->find(':');
        if (const auto meta = parseMetaText(colon == std::string_view::npos ? *output : output->substr(colon)))
            o.output = meta->shape;
    }
    const auto weight = operand("weight");
    switch (rule) {
    case Rule::Convolution:
        if (!weight || weight->size() < 3) {
            o.missing = "no weight shape";
        } else if (node.opType == "conv_transpose") { // weight [C_in, C_out/groups, *K]
            Shape factors { (*weight)[1] };
            factors.insert(factors.end(), weight->begin() + 2, weight->end());
            o.transposedKernel = factors;
        } else { // weight [C_out, C_in/groups, *K]
            o.reduction = Shape(weight->begin() + 1, weight->end());
            o.reductionText = "(C_in/groups)·kernel";
        }
        break;
    case Rule::Linear:
        if (weight && weight->size() == 2) {
            o.reduction = Shape { (*weight)[1] };
            o.reductionText = "in features";
        }
        break;
    case Rule::MatrixProduct:
        if (const auto x = operand("x"); x && !x->empty() && node.opType == "matmul") {
            const auto transposeX = node.attributes.find("transpose_x");
            const bool transposed = transposeX && transposeX->find("true") != std::string_view::npos;
            o.reduction = Shape { transposed && x->size() >= 2 ? (*x)[x->size() - 2] : x->back() };
            o.reductionText = "K";
        }
        break;
    case Rule::Pooling:
        o.window = attributeInts(node, "kernel_sizes");
        break;
    case Rule::Attention:
        o.query = operand("query");
        o.key = operand("key");
        o.value = operand("value");
        break;
    default:
        break;
    }
    return o;
}

/// Bytes of an inner node from its edges: each value read once (constants are parameters), each
/// value written once; unknown when an edge has no dtype or the output is read by no edge.
void innerBytes(const Graph& graph, const GraphAdjacency& adjacency, std::size_t index, NodeCost& cost)
{
    std::uint64_t read = 0;
    std::uint64_t written = 0;
    bool known = true;
    std::vector<std::int32_t> seen;
    const auto first = [&](std::int32_t value) {
        if (std::find(seen.begin(), seen.end(), value) != seen.end())
            return false;
        seen.push_back(value);
        return true;
    };
    for (const std::size_t e : adjacency.in[index]) {
        const Edge& edge = graph.edges[e];
        if (!first(edge.value.value))
            continue;
        const auto bytes = tensorBytes(edge.meta.dtype, edge.meta.shape.vector());
        if (!bytes) {
            // A scalar without a width (Core ML's string parameters: pad_type "custom") is no
            // tensor traffic; anything else unknown leaves the node's bytes unknown.
            if (!edge.meta.shape.empty() || dtypeBits(edge.meta.dtype) || !edge.meta.known())
                known = false;
            continue;
        }
        read += *bytes;
        if (graph.node(edge.from).kind == NodeKind::Constant)
            cost.parameterBytes += *bytes;
    }
    seen.clear();
    for (const std::size_t e : adjacency.out[index]) {
        const Edge& edge = graph.edges[e];
        if (!first(edge.value.value))
            continue;
        const auto bytes = tensorBytes(edge.meta.dtype, edge.meta.shape.vector());
        if (!bytes) {
            known = false;
            continue;
        }
        written += *bytes;
    }
    if (seen.empty())
        known = false; // no edge says the output's dtype
    if (known) {
        cost.bytesRead = read;
        cost.bytesWritten = written;
    }
}

/// A new row at the end of `rows`, made in place (a long method has 180,000 of them).
NodeCost& baseRow(std::vector<NodeCost>& rows, const std::string& method, int delegate, const std::string& backend,
    std::size_t index, const Node& node)
{
    NodeCost& row = rows.emplace_back();
    row.method = method;
    row.delegate = delegate;
    row.backend = backend;
    row.node = static_cast<std::uint32_t>(index);
    row.label = node.label;
    row.opType = node.opType;
    return row;
}

void costInnerGraph(const Graph& graph, const std::string& method, int delegate, const std::string& backend,
    const std::string& format, std::vector<NodeCost>& rows)
{
    const RuleTable* table = format == "xnnpack" ? &xnnpackRules()
        : format == "tosa" || format == "vgf"    ? &tosaRules()
        : format == "coreml"                     ? &coremlRules()
                                                 : nullptr;
    const GraphAdjacency adjacency = graph.adjacency();
    std::unordered_map<std::string, Shape> shapes;
    if (format == "coreml")
        shapes = coremlShapes(graph);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const Node& node = graph.nodes[i];
        if (node.kind != NodeKind::Operator)
            continue;
        NodeCost& row = baseRow(rows, method, delegate, backend, i, node);
        std::string_view key = node.opType;
        if ((format == "tosa" || format == "vgf") && key.starts_with("TOSA "))
            key.remove_prefix(5);
        const auto rule = table ? table->find(key) : RuleTable::const_iterator();
        Operands o;
        if (!table || rule == table->end()) {
            row.status = CostStatus::NoRule;
            row.reason = table ? "no cost rule for " + node.opType
                               : "no cost rules for " + (format.empty() ? backend : format) + " nodes";
        } else {
            o = format == "xnnpack" ? xnnpackOperands(node, rule->second)
                : format == "coreml"
                ? coremlOperands(node, rule->second, shapes)
                : tosaOperands(node, rule->second, key, TosaLookup { graph, adjacency, i, format == "vgf" });
            setWork(row, rule->second, apply(rule->second, o));
        }
        innerBytes(graph, adjacency, i, row);
    }
}

// ---- Ethos-U ---------------------------------------------------------------------------------

NpuSetup npuSetup(const DelegateInfo& info)
{
    NpuSetup setup;
    if (const TargetFact* npu = findTarget(info, "ethosu.stream_npu"); npu && npu->number && *npu->number <= 2) {
        setup.arch = static_cast<ethosu::Arch>(*npu->number); // CONFIG product: 0 U55, 1 U65, 2 U85
        setup.archSource = npu->source;
    } else if (const TargetFact* spec = findTarget(info, "ethosu.npu"); spec && spec->number) {
        setup.arch = *spec->number == 85 ? ethosu::Arch::U85
            : *spec->number == 65        ? ethosu::Arch::U65
                                         : ethosu::Arch::U55;
        setup.archSource = spec->source;
    } else {
        setup.archSource = "not named; read as Ethos-U55";
        setup.notes.emplace_back("the NPU is not named: the stream is read with the Ethos-U55 register map");
    }
    setup.axiBytesPerCycle = setup.arch == ethosu::Arch::U55 ? 8 : 16;
    for (const char* key : { "ethosu.macs", "ethosu.stream_macs" }) {
        const TargetFact* macs = findTarget(info, key);
        if (macs && macs->number && *macs->number > 0) {
            setup.macsPerCycle = static_cast<int>(*macs->number);
            setup.macsSource = macs->source;
            break;
        }
    }
    if (setup.macsPerCycle == 0)
        setup.notes.emplace_back("no MACs per cycle in the compile specs or the stream: no compute term");
    if (const TargetFact* system = findTarget(info, "ethosu.system_config")) {
        if (const NpuSystemConfig* known = findSystemConfig(system->value))
            setup.system = *known;
        else
            setup.notes.emplace_back("system config '" + system->value
                + "' is not one of Arm/vela.ini's that this build knows: no memory term");
    } else {
        setup.notes.emplace_back("the compile flags name no --system-config: no memory term");
    }
    if (const TargetFact* mode = findTarget(info, "ethosu.memory_mode")) {
        if (const NpuMemoryMode* known = findMemoryMode(mode->value))
            setup.memoryMode = *known;
        else
            setup.notes.emplace_back("memory mode '" + mode->value + "' is unknown: Shared_Sram assumed");
    } else if (setup.system) {
        setup.notes.emplace_back("the compile flags name no --memory-mode: Shared_Sram assumed");
    }
    if (const TargetFact* config = findTarget(info, "ethosu.vela_config_file");
        config && config->value != "Arm/vela.ini")
        setup.notes.emplace_back("the Vela config file is '" + config->value
            + "': its sections may differ from Arm/vela.ini's, which the estimate uses");
    return setup;
}

void costEthosU(const Program& program, const DelegateRef& ref, const DelegateInfo& info, const Graph* graph,
    const std::string& method, int delegate, DelegateCost& summary, CostReport& report)
{
    std::string why;
    const auto block = findCommandBlock(program.bytes(ref.payload), why);
    if (!block) {
        summary.note = "not counted: " + why;
        return;
    }
    const ethosu::DriverPayload framing = ethosu::readDriverPayload(*block);
    if (!framing.commandOffset) {
        summary.note = "not counted: no command stream in cmd_data";
        return;
    }
    NpuSetup setup = npuSetup(info);
    // Decoded once: the Vela joins (costvendor.cpp) read this same decode.
    auto shared = std::make_shared<vendor::EthosUStream>();
    const auto words = block->subspan(framing.commandOffset, framing.commandWords * 4);
    shared->commands.assign(words.begin(), words.end());
    shared->arch = setup.arch;
    shared->archSource = setup.archSource;
    if (framing.configWord)
        shared->config = ethosu::readConfigWord(*framing.configWord);
    shared->decoded = ethosu::decodeCommands(shared->commands, setup.arch);
    summary.stream = shared;
    const ethosu::CommandStream& stream = shared->decoded;
    const std::vector<int> groups = groupKicks(stream.operations);
    std::unordered_map<std::uint64_t, std::uint32_t> nodeAt;
    if (graph)
        for (std::size_t i = 0; i < graph->nodes.size(); ++i)
            if (const auto offset = graph->nodes[i].attributes.find("stream offset"))
                if (const auto value = parseIntList(*offset); value && value->size() == 1)
                    nodeAt.emplace(static_cast<std::uint64_t>(value->front()), static_cast<std::uint32_t>(i));
    const std::size_t firstGroup = report.npuOperators.size();
    for (std::size_t k = 0; k < stream.operations.size(); ++k) {
        const ethosu::Operation& op = stream.operations[k];
        if (op.kind == ethosu::OpKind::Unknown)
            continue; // an unknown command: no operator node
        NodeCost row;
        row.method = method;
        row.delegate = delegate;
        row.backend = ref.backendId;
        const auto node = nodeAt.find(op.offset);
        row.node = node != nodeAt.end() ? node->second : static_cast<std::uint32_t>(k);
        row.label = op.label;
        row.opType = op.opType;
        row.streamOffset = op.offset;
        NpuKickCost cost = kickCost(op);
        addTraffic(op, setup, cost);
        if (cost.kind.empty()) {
            row.status = CostStatus::NoRule;
            row.reason = "no cost rule for NPU command " + op.opType;
        } else {
            row.kind = cost.kind;
            if (cost.work.ok()) {
                row.status = CostStatus::Counted;
                row.macs = cost.work.macs;
                row.ops = cost.work.ops;
                row.formula = cost.work.formula;
                row.estimate = estimateKick(cost, setup);
            } else {
                row.status = CostStatus::NoShape;
                row.reason = cost.work.problem;
            }
        }
        row.bytesRead = cost.bytesRead;
        row.bytesWritten = cost.bytesWritten;
        row.parameterBytes = cost.parameterBytes;
        if (groups[k] >= 0) {
            const std::size_t g = firstGroup + static_cast<std::size_t>(groups[k]);
            while (report.npuOperators.size() <= g) {
                NpuOperatorCost group;
                group.method = method;
                group.delegate = delegate;
                group.index = static_cast<int>(report.npuOperators.size() - firstGroup);
                report.npuOperators.push_back(std::move(group));
            }
            NpuOperatorCost& group = report.npuOperators[g];
            if (group.label.empty() && op.kind != ethosu::OpKind::Dma)
                group.label = op.label;
            group.nodes.push_back(row.node);
            group.totals.add(row);
            row.npuOperator = static_cast<int>(g);
        }
        report.nodes.push_back(std::move(row));
    }
    for (std::size_t g = firstGroup; g < report.npuOperators.size(); ++g)
        if (report.npuOperators[g].label.empty())
            report.npuOperators[g].label = "DMA";
    summary.npu = std::move(setup);
}

CostTotals& totalsFor(std::vector<CostTotals>& list, std::string_view name)
{
    // The groups of consecutive nodes repeat: look at the last one used first.
    if (!list.empty() && list.back().name == name)
        return list.back();
    for (CostTotals& totals : list)
        if (totals.name == name)
            return totals;
    list.push_back({});
    list.back().name = std::string(name);
    return list.back();
}

} // namespace

std::string_view costStatusName(CostStatus status)
{
    switch (status) {
    case CostStatus::Counted:
        return "counted";
    case CostStatus::NoRule:
        return "no rule";
    case CostStatus::NoShape:
        return "no shape";
    }
    return "";
}

std::optional<double> NodeCost::intensity() const
{
    if (status != CostStatus::Counted || !bytesRead || !bytesWritten)
        return std::nullopt;
    const std::uint64_t bytes = *bytesRead + *bytesWritten;
    if (bytes == 0 || macs + ops == 0)
        return std::nullopt;
    return static_cast<double>(macs + ops) / static_cast<double>(bytes);
}

void CostTotals::add(const NodeCost& node)
{
    ++nodes;
    switch (node.status) {
    case CostStatus::Counted:
        ++counted;
        macs += node.macs;
        ops += node.ops;
        break;
    case CostStatus::NoRule:
        ++noRule;
        break;
    case CostStatus::NoShape:
        ++noShape;
        break;
    }
    bytesRead += node.bytesRead.value_or(0);
    bytesWritten += node.bytesWritten.value_or(0);
    parameterBytes += node.parameterBytes;
    if (node.estimate)
        estimatedCycles = estimatedCycles.value_or(0) + node.estimate->cycles;
}

Result<CostReport> computeCost(const Document& document, const CostOptions& options)
{
    if (!document.program)
        return makeError(Error::Code::Usage, document.path,
            "is not a program (" + std::string(fileKindName(document.kind)) + "); it has no operators to count");
    const Program& program = *document.program;
    CostReport report;
    report.path = document.path;
    bool found = options.method.empty();
    // One reservation for every method's rows: a reservation per method moved all the rows of
    // the methods before it each time (NodeCost holds strings; 180,014 rows on the 100k LLM).
    std::size_t rows = 0;
    for (std::size_t m = 0; m < program.methods.size() && m < document.methods.size(); ++m)
        if ((options.method.empty() || program.methods[m].name == options.method) && document.methods[m].graph)
            rows += document.methods[m].graph->operatorCount(true);
    report.nodes.reserve(rows);
    for (std::size_t m = 0; m < program.methods.size() && m < document.methods.size(); ++m) {
        const Method& method = program.methods[m];
        if (!options.method.empty() && method.name != options.method)
            continue;
        found = true;
        const MethodAnalysis& analysis = document.methods[m];
        if (!analysis.graph)
            continue;
        TopLevel top(method);
        const Graph& graph = *analysis.graph;
        for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
            const Node& node = graph.nodes[i];
            if (node.kind != NodeKind::Operator)
                continue;
            top.cost(node, baseRow(report.nodes, method.name, -1, "", i, node));
        }
        for (std::size_t d = 0; d < method.delegates.size() && d < analysis.delegates.size(); ++d) {
            const DelegateRef& ref = method.delegates[d];
            const DelegateInfo& info = analysis.delegates[d];
            DelegateCost summary;
            summary.method = method.name;
            summary.delegate = static_cast<int>(d);
            summary.backend = ref.backendId;
            summary.format = info.format;
            const std::size_t before = report.nodes.size();
            const Graph* inner = info.innerGraph ? info.innerGraph.get() : nullptr;
            if (info.format == "ethos-u")
                costEthosU(program, ref, info, inner, method.name, static_cast<int>(d), summary, report);
            else if (inner)
                costInnerGraph(*inner, method.name, static_cast<int>(d), ref.backendId, info.format, report.nodes);
            else
                summary.note = "not counted: the payload is not decoded (" + info.summary + ")";
            for (std::size_t r = before; r < report.nodes.size(); ++r)
                summary.totals.add(report.nodes[r]);
            summary.totals.name = ref.backendId + " #" + std::to_string(d);
            report.delegates.push_back(std::move(summary));
        }
    }
    if (!found) {
        std::string known;
        for (const Method& method : program.methods)
            known += (known.empty() ? "" : ", ") + method.name;
        return makeError(
            Error::Code::Usage, document.path, "no method named '" + options.method + "' (methods: " + known + ")");
    }
    report.cpu.name = "CPU";
    report.total.name = "total";
    totalsFor(report.perBackend, "CPU");
    for (const NodeCost& node : report.nodes) {
        report.total.add(node);
        totalsFor(report.perMethod, node.method).add(node);
        const bool cpu = node.delegate < 0;
        if (cpu)
            report.cpu.add(node);
        totalsFor(report.perBackend, cpu ? std::string_view("CPU") : std::string_view(node.backend)).add(node);
        totalsFor(report.perKind, node.kind.empty() ? std::string_view("(no rule)") : node.kind).add(node);
    }
    std::stable_sort(report.perBackend.begin() + 1, report.perBackend.end(),
        [](const CostTotals& a, const CostTotals& b) { return a.name < b.name; });
    std::stable_sort(report.perKind.begin(), report.perKind.end(), [](const CostTotals& a, const CostTotals& b) {
        return a.macs + a.ops != b.macs + b.ops ? a.macs + a.ops > b.macs + b.ops : a.name < b.name;
    });
    return report;
}

} // namespace etscope::core::cost
