// SPDX-License-Identifier: MIT
// The partitioners' rules as data (issue 35): one row per rule — backend, target, operator,
// constraint, upstream source. Facts read at pytorch/executorch commit
// cff6f4dd32e630945b7188512c1f2b4f102b05ad ("@ cff6f4dd" below); never copied code. An operator
// of a backend with no row here is "not covered" on the strength of the backend's operator list
// (BackendRules::operatorListSource), so each backend's rows list every operator that list holds
// where ETScope encodes the backend's coverage (XNNPACK), and the operators met in the samples
// otherwise (docs/why.md, "Rule tables").
#include "core/why/rules.h"

#include <algorithm>
#include <string>
#include <vector>

namespace etscope::core {

namespace {

// ---- XNNPACK: backends/xnnpack/partition/config/ @ cff6f4dd -------------------------------
// __init__.py ALL_PARTITIONER_CONFIGS lists the configs; each matches one target name
// (format_target_name: the edge name without its namespace). xnnpack_config.py
// check_common_constraints → _check_node_has_valid_dtype: every tensor input and output must be
// float32 or float16 (bfloat16 only when enabled; int8 and the quantized dtypes only for the
// quantize/dequantize ops), else "invalid dtype"; _check_inputs_are_valid_dtypes also refuses
// mixed input dtypes.
constexpr std::string_view kXnnList
    = "pytorch/executorch backends/xnnpack/partition/config/__init__.py (ALL_PARTITIONER_CONFIGS) @ cff6f4dd";
constexpr std::string_view kXnnGeneric
    = "pytorch/executorch backends/xnnpack/partition/config/generic_node_configs.py @ cff6f4dd";
constexpr std::string_view kXnnGemm = "pytorch/executorch backends/xnnpack/partition/config/gemm_configs.py @ cff6f4dd";
constexpr std::string_view kXnnNode = "pytorch/executorch backends/xnnpack/partition/config/node_configs.py @ cff6f4dd";
constexpr std::string_view kXnnAffine
    = "pytorch/executorch backends/xnnpack/partition/config/quant_affine_configs.py @ cff6f4dd";
constexpr std::string_view kXnnDtype
    = "pytorch/executorch backends/xnnpack/partition/config/xnnpack_config.py (_check_node_has_valid_dtype) @ cff6f4dd";
// The first release whose __init__.py lists a config ("since"), compared over the release tags
// v0.6.0 … v1.4.1: Exp/Gelu/Log/Tanh v0.7.0, ToDimOrderCopy v1.0.0, CloneDimOrder/Cos/Sin v1.2.0,
// ViewCopy/UnsqueezeCopy v1.3.0, Clone v1.4.1.
constexpr std::string_view kXnnFloat = "XNNPACK takes float32 and float16 tensors only (\"invalid dtype\")";

// ---- Arm: backends/arm/ @ cff6f4dd -----------------------------------------------------------
// tosa/partitioner.py tags what operator_support/tosa_supported_operators.py accepts: the
// operators of operator_support/tosa_profile_supported_op_lists.py (TOSA INT and FP profiles)
// and those with a registered tosa_support_check (pool_2d_support.py, convolution_support.py, …);
// anything else is rejected "Not included in BaseTOSASupportList or a registered
// tosa_support_check". ethos_u55_support.py adds the U55 subset's limits. Ethos-U and VGF both
// lower through TOSA; their targets differ in the TOSA spec (+u55 for Ethos-U55/U65, +cf for U85).
constexpr std::string_view kArmList
    = "pytorch/executorch backends/arm/operator_support/tosa_profile_supported_op_lists.py "
      "and tosa_supported_operators.py (registered support checks) @ cff6f4dd";
constexpr std::string_view kArmU55 = "pytorch/executorch backends/arm/operator_support/ethos_u55_support.py @ cff6f4dd";
constexpr std::string_view kArmPool = "pytorch/executorch backends/arm/operator_support/pool_2d_support.py @ cff6f4dd";
constexpr std::string_view kArmPool3d
    = "pytorch/executorch backends/arm/operator_support/pool_2d_support.py (2-D pooling only; 3-D pooling is in no "
      "list of tosa_profile_supported_op_lists.py and has no registered check) @ cff6f4dd";
constexpr std::string_view kArmPool2d
    = "Ethos-U and TOSA pooling is 2-D only (avg_pool2d, max_pool2d); a 3-D pooling is rejected \"Not included in "
      "BaseTOSASupportList or a registered tosa_support_check\"";

// ---- QNN: backends/qualcomm/ @ cff6f4dd ---------------------------------------------------------
// partition/qnn_partitioner.py QnnOperatorSupport.is_node_supported: an operator without a node
// visitor (builders/op_*.py, the `target` of each @register_node_visitor) is "No node visitor,
// unsupported"; partition/common_defs.py lists the operators refused outright
// (not_supported_operator) and those "Skipped, this op can be supported"
// (to_be_implemented_operator). Whether an operator with a builder is taken is then decided by the
// QNN SDK's op validation (IsNodeSupportedByBackend): no static rule can tell, only the log.
constexpr std::string_view kQnnList
    = "pytorch/executorch backends/qualcomm/builders/op_*.py (node visitors' targets) @ cff6f4dd";
constexpr std::string_view kQnnDefs = "pytorch/executorch backends/qualcomm/partition/common_defs.py @ cff6f4dd";

// XNNPACK's configs that take an operator on the common dtype check alone: each gives two rows,
// "takes it" then the dtype check (check_common_constraints runs first), made by partitionRules().
struct XnnConfig {
    std::string_view op;
    std::string_view source;
    std::string_view since = {};
};

constexpr XnnConfig kXnnConfigs[] = {
    { "aten::abs", kXnnGeneric },
    { "aten::add", kXnnGeneric },
    { "aten::avg_pool2d", kXnnGeneric },
    { "aten::cat", kXnnGeneric },
    { "aten::ceil", kXnnGeneric },
    { "aten::clone", kXnnGeneric, "v1.4.1" },
    { "dim_order_ops::_clone_dim_order", kXnnGeneric, "v1.2.0" },
    { "aten::constant_pad_nd", kXnnGeneric },
    { "aten::clamp", kXnnGeneric },
    { "aten::div", kXnnGeneric },
    { "aten::exp", kXnnGeneric, "v0.7.0" },
    { "aten::floor", kXnnGeneric },
    { "aten::gelu", kXnnGeneric, "v0.7.0" },
    { "aten::hardtanh", kXnnGeneric },
    { "aten::hardswish", kXnnGeneric },
    { "aten::leaky_relu", kXnnGeneric },
    { "aten::log", kXnnGeneric, "v0.7.0" },
    { "aten::maximum", kXnnGeneric },
    { "aten::max_pool2d", kXnnGeneric },
    { "aten::mean", kXnnGeneric },
    { "aten::minimum", kXnnGeneric },
    { "aten::mul", kXnnGeneric },
    { "aten::neg", kXnnGeneric },
    { "aten::permute_copy", kXnnGeneric },
    { "aten::pow", kXnnGeneric },
    { "aten::rsqrt", kXnnGeneric },
    { "aten::relu", kXnnGeneric },
    { "aten::tanh", kXnnGeneric, "v0.7.0" },
    { "aten::sigmoid", kXnnGeneric },
    { "aten::sin", kXnnGeneric, "v1.2.0" },
    { "aten::cos", kXnnGeneric, "v1.2.0" },
    { "aten::slice_copy", kXnnGeneric },
    { "aten::_softmax", kXnnGeneric },
    { "aten::sqrt", kXnnGeneric },
    { "aten::sub", kXnnGeneric },
    { "aten::bmm", kXnnGeneric },
    { "aten::unsqueeze_copy", kXnnGeneric, "v1.3.0" },
    { "aten::upsample_bilinear2d", kXnnGeneric },
    { "aten::_native_batch_norm_legit_no_training", kXnnNode },
    { "aten::max", kXnnNode },
    { "aten::prelu", kXnnNode },
    { "aten::linear", kXnnGemm },
    { "aten::convolution", kXnnGemm },
    { "aten::view_copy", kXnnGeneric, "v1.3.0" },
    { "dim_order_ops::_to_dim_order_copy", kXnnGeneric, "v1.0.0" },
    { "aten::addmm", kXnnGemm },
    { "aten::mm", kXnnGemm },
};

// Every other rule; partitionRules() puts each XNNPACK config's two rows first, so that an
// operator's own XNNPACK constraints below run after the dtype check, as check_constraints does.
constexpr Rule kRules[] = {
    // ViewCopyConfig: no symbolic (dynamic) output dims.
    { "XnnpackBackend", "", "aten::view_copy", RuleCheck::StaticShape, "", 0, "",
        "XNNPACK's static reshape takes no symbolic dims (\"Symbolic reshape is not supported\")", kXnnGeneric },
    // ToDimOrderCopyConfig: only dim order changes, never a dtype conversion.
    { "XnnpackBackend", "", "dim_order_ops::_to_dim_order_copy", RuleCheck::SameDtype, "self", 0, "out",
        "XNNPACK converts dim order only (\"dtype conversion … is not supported\")", kXnnGeneric },
    // GEMMConfig (AddmmConfig, MMConfig): _get_weight_deps wants the weight (addmm: args[2] =
    // mat2, mm: args[1] = mat2) to be a static parameter, "Expected weight to be a static param",
    // unless force_non_static_weights_for_f32_linear is set (not recorded in a .pte).
    { "XnnpackBackend", "", "aten::addmm", RuleCheck::ConstantTensor, "mat2", 0, "",
        "XNNPACK's addmm needs its weight to be a static param (\"Expected weight to be a static param\"; unless "
        "force_non_static_weights_for_f32_linear)",
        kXnnGemm },
    { "XnnpackBackend", "", "aten::mm", RuleCheck::ConstantTensor, "mat2", 0, "",
        "XNNPACK's mm needs its weight to be a static param (\"Expected weight to be a static param\"; unless "
        "force_non_static_weights_for_f32_linear)",
        kXnnGemm },
    // Quantize/dequantize configs (taken with the operators they surround).
    { "XnnpackBackend", "", "quantized_decomposed::quantize_per_tensor", RuleCheck::Covered, "", 0, "",
        "XNNPACK takes quantized_decomposed::quantize_per_tensor", kXnnGeneric },
    { "XnnpackBackend", "", "quantized_decomposed::dequantize_per_tensor", RuleCheck::Covered, "", 0, "",
        "XNNPACK takes quantized_decomposed::dequantize_per_tensor", kXnnGeneric },
    { "XnnpackBackend", "", "torchao::quantize_affine", RuleCheck::Covered, "", 0, "",
        "XNNPACK takes torchao::quantize_affine", kXnnAffine },
    { "XnnpackBackend", "", "torchao::dequantize_affine", RuleCheck::Covered, "", 0, "",
        "XNNPACK takes torchao::dequantize_affine", kXnnAffine },
    { "XnnpackBackend", "", "torchao::choose_qparams_affine", RuleCheck::Covered, "", 0, "",
        "XNNPACK takes torchao::choose_qparams_affine", kXnnAffine },

    // Arm: Ethos-U and VGF both lower through TOSA, whose pooling is 2-D.
    { "EthosUBackend", "", "aten::avg_pool3d", RuleCheck::ListLengthAtMost, "kernel_size", 2, "", kArmPool2d,
        kArmPool3d },
    { "EthosUBackend", "", "aten::max_pool3d", RuleCheck::ListLengthAtMost, "kernel_size", 2, "", kArmPool2d,
        kArmPool3d },
    { "EthosUBackend", "", "aten::max_pool3d_with_indices", RuleCheck::ListLengthAtMost, "kernel_size", 2, "",
        kArmPool2d, kArmPool3d },
    { "EthosUBackend", "", "aten::avg_pool2d", RuleCheck::Covered, "", 0, "", "Arm takes avg_pool2d", kArmPool },
    { "EthosUBackend", "", "aten::max_pool2d", RuleCheck::Covered, "", 0, "", "Arm takes max_pool2d", kArmPool },
    { "VgfBackend", "", "aten::avg_pool3d", RuleCheck::ListLengthAtMost, "kernel_size", 2, "", kArmPool2d, kArmPool3d },
    { "VgfBackend", "", "aten::max_pool3d", RuleCheck::ListLengthAtMost, "kernel_size", 2, "", kArmPool2d, kArmPool3d },
    { "VgfBackend", "", "aten::max_pool3d_with_indices", RuleCheck::ListLengthAtMost, "kernel_size", 2, "", kArmPool2d,
        kArmPool3d },
    { "VgfBackend", "", "aten::avg_pool2d", RuleCheck::Covered, "", 0, "", "Arm takes avg_pool2d", kArmPool },
    { "VgfBackend", "", "aten::max_pool2d", RuleCheck::Covered, "", 0, "", "Arm takes max_pool2d", kArmPool },
    // pool_2d_support.py: the U55 subset's limits (Vela 4.2.0).
    { "EthosUBackend", "Ethos-U55", "aten::avg_pool2d", RuleCheck::ListItemsAtMost, "stride", 3, "",
        "Avgpool2d needs stride <= 3 on Ethos-U55", kArmPool },
    { "EthosUBackend", "Ethos-U55", "aten::avg_pool2d", RuleCheck::ListItemsAtMost, "kernel_size", 256, "",
        "Avgpool2d needs kernel_y < 256 on Ethos-U55", kArmPool },
    { "EthosUBackend", "Ethos-U55", "aten::max_pool2d_with_indices", RuleCheck::ListItemsAtMost, "kernel_size", 256, "",
        "Maxpool2d needs kernel_y < 256 on Ethos-U55", kArmPool },
    // ethos_u55_support.py EthosU55NotSupported.unsupported_ops: operators the U55 subset cannot run
    // ("Op is not supported on U55.").
    { "EthosUBackend", "Ethos-U55", "aten::any", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: REDUCE_ANY)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::bitwise_and", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: bitwise)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::bitwise_or", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: bitwise)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::bitwise_xor", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: bitwise)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::bitwise_not", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: bitwise)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::logical_and", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: logical)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::logical_or", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: logical)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::logical_xor", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: logical)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::logical_not", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: logical)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::conv3d", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: CONV3D)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::eq", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: comparison)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::ge", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: comparison)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::gt", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: comparison)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::le", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: comparison)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::lt", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: comparison)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::ne", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: comparison)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::gather", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: GATHER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::grid_sampler_2d", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: GATHER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::index", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: GATHER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::index_select", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: GATHER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::index_put", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: SCATTER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::scatter", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: SCATTER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::select_scatter", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: SCATTER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::scatter_reduce", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: SCATTER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::scatter_add", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: SCATTER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::unfold_copy", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: GATHER)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::upsample_bilinear2d", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: RESIZE)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::reflection_pad1d", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: REVERSE)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::reflection_pad2d", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: REVERSE)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::reflection_pad3d", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: REVERSE)", kArmU55 },
    { "EthosUBackend", "Ethos-U55", "aten::where", RuleCheck::NotSupported, "", 0, "",
        "not supported on Ethos-U55 (EthosU55NotSupported: SELECT)", kArmU55 },

    // QNN: refused outright (not_supported_operator) or not implemented yet (to_be_implemented_operator).
    { "QnnBackend", "", "aten::_embedding_bag", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (not_supported_operator: the output size depends on the data)", kQnnDefs },
    { "QnnBackend", "", "dim_order_ops::_clone_dim_order", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (not_supported_operator)", kQnnDefs },
    { "QnnBackend", "", "quantized_decomposed::embedding_4bit", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (not_supported_operator: no 4-bit embedding)", kQnnDefs },
    { "QnnBackend", "", "aten::adaptive_max_pool3d", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (to_be_implemented_operator)", kQnnDefs },
    { "QnnBackend", "", "aten::max_pool3d_with_indices", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (to_be_implemented_operator)", kQnnDefs },
    { "QnnBackend", "", "aten::median", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (to_be_implemented_operator)", kQnnDefs },
    { "QnnBackend", "", "aten::bitwise_not", RuleCheck::NotSupported, "", 0, "",
        "QNN does not take it (to_be_implemented_operator)", kQnnDefs },
};

// The operators of tosa_profile_supported_op_lists.py (TOSA_PRO_INT_SupportList and
// TOSA_PRO_FP_SupportList) and of the registered support checks' `targets` (as_strided_copy,
// bool_bitwise, clone_dim_order, convolution, embedding, gather, index_put, index_select,
// index_tensor, minmax, pool_2d, reduce_sum, right_shift, slice_copy, to_dim_order_copy,
// unfold_copy, upsample, where), as operator keys.
constexpr std::string_view kArmCovered[] = { "aten::__lshift__", "aten::__rshift__", "aten::_adaptive_avg_pool2d",
    "aten::abs", "aten::acos", "aten::acosh", "aten::add", "aten::alias_copy", "aten::amax", "aten::amin", "aten::any",
    "aten::arange", "aten::argmax", "aten::as_strided_copy", "aten::asin", "aten::asinh", "aten::atan", "aten::atanh",
    "aten::bitwise_and", "aten::bitwise_left_shift", "aten::bitwise_not", "aten::bitwise_or",
    "aten::bitwise_right_shift", "aten::bitwise_xor", "aten::bmm", "aten::cat", "aten::ceil", "aten::celu",
    "aten::clamp", "aten::constant_pad_nd", "aten::convolution", "aten::copy", "aten::cos", "aten::cosh",
    "aten::cumsum", "aten::detach_copy", "aten::div", "aten::elu", "aten::embedding", "aten::eq", "aten::erf",
    "aten::erfinv", "aten::exp", "aten::expand_copy", "aten::expm1", "aten::eye", "aten::flip", "aten::floor",
    "aten::full", "aten::full_like", "aten::gather", "aten::ge", "aten::gelu", "aten::gt", "aten::hardsigmoid",
    "aten::hardswish", "aten::hardtanh", "aten::index", "aten::index_put", "aten::index_select", "aten::le",
    "aten::leaky_relu", "aten::linear", "aten::linspace", "aten::log", "aten::log10", "aten::log1p",
    "aten::logical_and", "aten::logical_not", "aten::logical_or", "aten::logical_xor", "aten::lt", "aten::masked_fill",
    "aten::max", "aten::max_pool2d_with_indices", "aten::maximum", "aten::mean", "aten::min", "aten::minimum",
    "aten::mm", "aten::mul", "aten::neg", "aten::pad", "aten::permute_copy", "aten::pow", "aten::reciprocal",
    "aten::relu", "aten::remainder", "aten::repeat", "aten::round", "aten::rsqrt", "aten::scalar_tensor",
    "aten::select_copy", "aten::selu", "aten::sigmoid", "aten::sign", "aten::silu", "aten::sin", "aten::sinh",
    "aten::slice_copy", "aten::slice_scatter", "aten::split_copy", "aten::split_with_sizes_copy", "aten::squeeze_copy",
    "aten::sub", "aten::sum", "aten::tan", "aten::tanh", "aten::unfold_copy", "aten::unsqueeze_copy",
    "aten::upsample_bilinear2d", "aten::upsample_nearest2d", "aten::view_copy", "aten::where",
    "dim_order_ops::_clone_dim_order", "dim_order_ops::_to_dim_order_copy",
    "quantized_decomposed::dequantize_per_channel", "quantized_decomposed::dequantize_per_tensor",
    "quantized_decomposed::quantize_per_channel", "quantized_decomposed::quantize_per_tensor" };

// The operators QNN has a builder for (operator keys).
constexpr std::string_view kQnnCovered[] = { "aten::_adaptive_avg_pool3d", "aten::_log_softmax",
    "aten::_native_batch_norm_legit", "aten::_native_batch_norm_legit_no_training", "aten::_safe_softmax",
    "aten::_softmax", "aten::_to_copy", "aten::abs", "aten::adaptive_avg_pool2d", "aten::adaptive_max_pool2d",
    "aten::add", "aten::amax", "aten::amin", "aten::arange", "aten::argmax", "aten::argmin", "aten::asin", "aten::atan",
    "aten::avg_pool2d", "aten::avg_pool3d", "aten::bitwise_and", "aten::bitwise_or", "aten::bitwise_xor", "aten::bmm",
    "aten::cat", "aten::ceil", "aten::channel_shuffle", "aten::clamp", "aten::constant_pad_nd", "aten::convolution",
    "aten::copy", "aten::cos", "aten::cumsum", "aten::div", "aten::elu", "aten::embedding", "aten::eq", "aten::exp",
    "aten::expand_copy", "aten::flip", "aten::floor", "aten::floor_divide", "aten::full", "aten::full_like",
    "aten::gather", "aten::ge", "aten::gelu", "aten::grid_sampler_2d", "aten::grid_sampler_3d", "aten::gt",
    "aten::hardsigmoid", "aten::hardswish", "aten::hardtanh", "aten::index", "aten::index_put", "aten::index_select",
    "aten::instance_norm", "aten::isinf", "aten::isnan", "aten::le", "aten::linear", "aten::log", "aten::logical_and",
    "aten::logical_not", "aten::lt", "aten::matmul", "aten::max", "aten::max_pool2d_with_indices", "aten::maximum",
    "aten::mean", "aten::min", "aten::minimum", "aten::mm", "aten::mul", "aten::native_group_norm",
    "aten::native_layer_norm", "aten::ne", "aten::neg", "aten::permute_copy", "aten::pixel_shuffle",
    "aten::pixel_unshuffle", "aten::pow", "aten::prelu", "aten::rand", "aten::rand_like", "aten::randn",
    "aten::randn_like", "aten::reciprocal", "aten::reflection_pad1d", "aten::reflection_pad2d", "aten::relu",
    "aten::repeat", "aten::rms_norm", "aten::round", "aten::rsqrt", "aten::scalar_tensor", "aten::scatter",
    "aten::select", "aten::select_copy", "aten::sigmoid", "aten::sign", "aten::sin", "aten::slice_copy",
    "aten::slice_scatter", "aten::sort", "aten::split_with_sizes", "aten::split_with_sizes_copy", "aten::sqrt",
    "aten::squeeze", "aten::squeeze_copy", "aten::stack", "aten::sub", "aten::sum", "aten::tanh", "aten::topk",
    "aten::unbind", "aten::unsqueeze_copy", "aten::upsample_bicubic2d", "aten::upsample_bilinear2d",
    "aten::upsample_nearest2d", "aten::view_copy", "aten::where", "dim_order_ops::_to_dim_order_copy",
    "quantized_decomposed::dequantize_per_channel", "quantized_decomposed::dequantize_per_tensor",
    "quantized_decomposed::quantize_per_channel", "quantized_decomposed::quantize_per_tensor" };

constexpr BackendRules kBackends[] = {
    { "XnnpackBackend", "XNNPACK", kXnnList, {} },
    { "EthosUBackend", "Arm Ethos-U (TOSA INT, U55 subset for Ethos-U55/U65)", kArmList, kArmCovered },
    { "VgfBackend", "Arm VGF (TOSA)", kArmList, kArmCovered },
    { "QnnBackend", "Qualcomm QNN", kQnnList, kQnnCovered,
        "whether QNN takes an operator it has a builder for is decided by the QNN SDK's op validation, which only the "
        "log shows" },
};

} // namespace

std::span<const Rule> partitionRules()
{
    struct Table {
        std::vector<std::string> takes; ///< "XNNPACK takes <op>": the texts the Covered rows point into
        std::vector<Rule> rules;
    };
    static const Table table = [] {
        Table made;
        made.takes.reserve(std::size(kXnnConfigs)); // never reallocated: the rows keep views into it
        for (const XnnConfig& config : kXnnConfigs) {
            const std::string_view takes = made.takes.emplace_back("XNNPACK takes " + std::string(config.op));
            made.rules.push_back(
                { "XnnpackBackend", "", config.op, RuleCheck::Covered, "", 0, "", takes, config.source, config.since });
            made.rules.push_back(
                { "XnnpackBackend", "", config.op, RuleCheck::DtypeIn, "*", 0, "FLOAT,HALF", kXnnFloat, kXnnDtype });
        }
        made.rules.insert(made.rules.end(), std::begin(kRules), std::end(kRules));
        return made;
    }();
    return table.rules;
}

std::span<const BackendRules> ruleBackends()
{
    return kBackends;
}

const BackendRules* findRuleBackend(std::string_view backend)
{
    const auto it = std::find_if(std::begin(kBackends), std::end(kBackends),
        [&](const BackendRules& rules) { return rules.backend == backend; });
    return it == std::end(kBackends) ? nullptr : &*it;
}

} // namespace etscope::core
