// SPDX-License-Identifier: MIT
// The operator schema table: facts about operators (names, argument names and types), written in
// this project's own compact format, one schema per line:
//
//     namespace::name.overload arg:type arg:type * arg:type out:T! ->N
//
// Arguments are in schema order. `*` starts the keyword-only arguments. A type ends in `!` when
// the kernel writes that argument (Tensor(a!): out arguments, the self of in-place ops). `->N`
// gives the number of returned values when it is not 1 (`->0` for `-> ()`). Defaults are left
// out: the emitter writes every argument, defaults included. Types: T Tensor, S Scalar, i int
// (SymInt too), f float, b bool, str, dt ScalarType, mf MemoryFormat, lay Layout, dev Device,
// gen Generator; `?` optional, `[]` a list (`T?[]` a list of optional tensors). An operator
// without an overload is written `.default`.
//
// Where the facts come from:
// - ExecuTorch, pytorch/executorch at cff6f4dd32e6 (2026-08-22): which ATen out variants its
//   kernel libraries implement (kernels/portable/functions.yaml, kernels/optimized/optimized.yaml,
//   kernels/aten/functions.yaml) and the schemas of its own operators (files named per group).
// - ATen signatures: PyTorch's native_functions.yaml, read through lutzroeder/netron at
//   38591e39cda4 (2026-08-08, source/pytorch-metadata.json: 212 of the 228 ATen lines), the
//   rest from PyTorch 1.13.1's copy (Debian 12 python3-torch) and ExecuTorch's own comments
//   (sym_numel) and custom_ops.yaml (allclose.out); argument names agree wherever both PyTorch
//   sources have the operator.
// - Checked against the real samples: every KernelCall in ../shared/samples names its arguments
//   from this table (tests/core/tst_opschema.cpp).
#include "core/opschema/schematable.h"

#include <array>

namespace etscope::core::opschema_detail {

namespace {

// clang-format off
constexpr std::array<std::string_view, 10> kTable {
    // ATen: the out variants of the portable, optimized and ATen-mode kernel libraries, the ops
    // the samples call, and the ATen ops the runtime implements as prim ops (sym_size, …).
    R"(aten::_adaptive_avg_pool2d.out self:T output_size:i[] * out:T!
aten::_cdist_forward.out x1:T x2:T p:f compute_mode:i? * out:T!
aten::_conj_physical.out self:T * out:T!
aten::_fake_quantize_per_tensor_affine_cachemask_tensor_qparams.out self:T scale:T zero_point:T fake_quant_enabled:T quant_min:i quant_max:i * out0:T! out1:T! ->2
aten::_fft_c2r.out self:T dim:i[] normalization:i last_dim_size:i * out:T!
aten::_fft_r2c.out self:T dim:i[] normalization:i onesided:b * out:T!
aten::_linalg_det.result A:T * result:T! LU:T! pivots:T! ->3
aten::_linalg_svd.U A:T full_matrices:b compute_uv:b * driver:str? U:T! S:T! Vh:T! ->3
aten::_local_scalar_dense.default self:T
aten::_log_softmax.out self:T dim:i half_to_float:b * out:T!
aten::_native_batch_norm_legit.no_stats_out input:T weight:T? bias:T? training:b momentum:f eps:f * out:T! save_mean:T! save_invstd:T! ->3
aten::_native_batch_norm_legit.out input:T weight:T? bias:T? running_mean:T! running_var:T! training:b momentum:f eps:f * out:T! save_mean:T! save_invstd:T! ->3
aten::_native_batch_norm_legit_no_training.out input:T weight:T? bias:T? running_mean:T running_var:T momentum:f eps:f * out0:T! out1:T! out2:T! ->3
aten::_pdist_forward.out self:T p:f * out:T!
aten::_reshape_alias_copy.out self:T size:i[] stride:i[] * out:T!
aten::_softmax.out self:T dim:i half_to_float:b * out:T!
aten::_to_copy.out self:T * non_blocking:b memory_format:mf? out:T!
aten::_unique2.out self:T sorted:b return_inverse:b return_counts:b * out0:T! out1:T! out2:T! ->3
aten::_upsample_bilinear2d_aa.out self:T output_size:i[] align_corners:b scales_h:f? scales_w:f? * out:T!
aten::abs.out self:T * out:T!
aten::acos.out self:T * out:T!
aten::acosh.out self:T * out:T!
aten::add.Scalar_out self:T other:S alpha:S * out:T!
aten::add.out self:T other:T * alpha:S out:T!
aten::addmm.out self:T mat1:T mat2:T * beta:S alpha:S out:T!
aten::alias_copy.out self:T * out:T!
aten::allclose.out self:T other:T rtol:f atol:f equal_nan:b dummy_param:b * out:T!
aten::amax.out self:T dim:i[] keepdim:b * out:T!
aten::amin.out self:T dim:i[] keepdim:b * out:T!
aten::any.all_out self:T * out:T!
aten::any.dims_out self:T dim:i[]? keepdim:b * out:T!
aten::any.out self:T dim:i keepdim:b * out:T!
aten::arange.out end:S * out:T!
aten::arange.start_out start:S end:S step:S * out:T!
aten::argmax.out self:T dim:i? keepdim:b * out:T!
aten::argmin.out self:T dim:i? keepdim:b * out:T!
aten::as_strided_copy.out self:T size:i[] stride:i[] storage_offset:i? * out:T!
aten::asin.out self:T * out:T!
aten::asinh.out self:T * out:T!
aten::atan.out self:T * out:T!
aten::atan2.out self:T other:T * out:T!
aten::atanh.out self:T * out:T!
aten::avg_pool2d.out self:T kernel_size:i[] stride:i[] padding:i[] ceil_mode:b count_include_pad:b divisor_override:i? * out:T!
aten::avg_pool3d.out self:T kernel_size:i[] stride:i[] padding:i[] ceil_mode:b count_include_pad:b divisor_override:i? * out:T!
aten::baddbmm.out self:T batch1:T batch2:T * beta:S alpha:S out:T!
aten::bitwise_and.Scalar_out self:T other:S * out:T!
aten::bitwise_and.Tensor_out self:T other:T * out:T!
aten::bitwise_left_shift.Tensor_Scalar_out self:T other:S * out:T!
aten::bitwise_left_shift.Tensor_out self:T other:T * out:T!
aten::bitwise_not.out self:T * out:T!
aten::bitwise_or.Scalar_out self:T other:S * out:T!
aten::bitwise_or.Tensor_out self:T other:T * out:T!
aten::bitwise_right_shift.Tensor_Scalar_out self:T other:S * out:T!
aten::bitwise_right_shift.Tensor_out self:T other:T * out:T!
aten::bitwise_xor.Scalar_out self:T other:S * out:T!
aten::bitwise_xor.Tensor_out self:T other:T * out:T!
aten::bmm.out self:T mat2:T * out:T!
aten::cat.out tensors:T[] dim:i * out:T!
aten::ceil.out self:T * out:T!
aten::clamp.Tensor_out self:T min:T? max:T? * out:T!
aten::clamp.out self:T min:S? max:S? * out:T!
aten::clamp_min.out self:T min:S * out:T!
aten::clone.out self:T * memory_format:mf? out:T!
aten::constant_pad_nd.out self:T pad:i[] value:S * out:T!
aten::convolution.out input:T weight:T bias:T? stride:i[] padding:i[] dilation:i[] transposed:b output_padding:i[] groups:i * out:T!
aten::convolution_backward.out grad_output:T input:T weight:T bias_sizes:i[]? stride:i[] padding:i[] dilation:i[] transposed:b output_padding:i[] groups:i output_mask:b[] * out0:T! out1:T! out2:T! ->3
aten::copy.out self:T src:T non_blocking:b * out:T!
aten::copy_.default self:T! src:T non_blocking:b
aten::cos.out self:T * out:T!
aten::cosh.out self:T * out:T!
aten::cumsum.out self:T dim:i * dtype:dt? out:T!
aten::dequantize.self_out self:T * out:T!
aten::detach_copy.out self:T * out:T!
aten::diagonal_copy.out self:T offset:i dim1:i dim2:i * out:T!
aten::div.Scalar_mode_out self:T other:S * rounding_mode:str? out:T!
aten::div.Scalar_out self:T other:S * out:T!
aten::div.out self:T other:T * out:T!
aten::div.out_mode self:T other:T * rounding_mode:str? out:T!
aten::elu.out self:T alpha:S scale:S input_scale:S * out:T!
aten::embedding.out weight:T indices:T padding_idx:i scale_grad_by_freq:b sparse:b * out:T!
aten::empty.out size:i[] * memory_format:mf? out:T!
aten::eq.Scalar_out self:T other:S * out:T!
aten::eq.Tensor_out self:T other:T * out:T!
aten::erf.out self:T * out:T!
aten::exp.out self:T * out:T!
aten::expand_copy.out self:T size:i[] * implicit:b out:T!
aten::expm1.out self:T * out:T!
aten::eye.out n:i * out:T!
aten::fill.Scalar_out self:T value:S * out:T!
aten::fill.Tensor_out self:T value:T * out:T!
aten::flip.out self:T dims:i[] * out:T!
aten::floor.out self:T * out:T!
aten::floor_divide.out self:T other:T * out:T!
aten::fmod.Scalar_out self:T other:S * out:T!
aten::fmod.Tensor_out self:T other:T * out:T!
aten::full.out size:i[] fill_value:S * out:T!
aten::full_like.out self:T fill_value:S * memory_format:mf? out:T!
aten::gather.out self:T dim:i index:T * sparse_grad:b out:T!
aten::ge.Scalar_out self:T other:S * out:T!
aten::ge.Tensor_out self:T other:T * out:T!
aten::gelu.out self:T * approximate:str out:T!
aten::glu.out self:T dim:i * out:T!
aten::grid_sampler_2d.out input:T grid:T interpolation_mode:i padding_mode:i align_corners:b * out:T!
aten::gt.Scalar_out self:T other:S * out:T!
aten::gt.Tensor_out self:T other:T * out:T!
aten::hardtanh.out self:T min_val:S max_val:S * out:T!
aten::index.Tensor_out self:T indices:T?[] * out:T!
aten::index_put.out self:T indices:T?[] values:T accumulate:b * out:T!
aten::index_put_.default self:T! indices:T?[] values:T accumulate:b
aten::index_select.out self:T dim:i index:T * out:T!
aten::isinf.out self:T * out:T!
aten::isnan.out self:T * out:T!
aten::le.Scalar_out self:T other:S * out:T!
aten::le.Tensor_out self:T other:T * out:T!
aten::leaky_relu.out self:T negative_slope:S * out:T!
aten::lift_fresh_copy.out self:T * out:T!
aten::linalg_inv_ex.inverse A:T * check_errors:b inverse:T! info:T! ->2
aten::linalg_vector_norm.out self:T ord:S dim:i[]? keepdim:b * dtype:dt? out:T!
aten::linear.out input:T weight:T bias:T? * out:T!
aten::log.out self:T * out:T!
aten::log10.out self:T * out:T!
aten::log1p.out self:T * out:T!
aten::log2.out self:T * out:T!
aten::logical_and.out self:T other:T * out:T!
aten::logical_not.out self:T * out:T!
aten::logical_or.out self:T other:T * out:T!
aten::logical_xor.out self:T other:T * out:T!
aten::logit.out self:T eps:f? * out:T!
aten::lt.Scalar_out self:T other:S * out:T!
aten::lt.Tensor_out self:T other:T * out:T!
aten::masked_fill.Scalar_out self:T mask:T value:S * out:T!
aten::masked_scatter.out self:T mask:T source:T * out:T!
aten::masked_select.out self:T mask:T * out:T!
aten::max.dim_max self:T dim:i keepdim:b * max:T! max_values:T! ->2
aten::max.unary_out self:T * out:T!
aten::max_pool2d_with_indices.out self:T kernel_size:i[] stride:i[] padding:i[] dilation:i[] ceil_mode:b * out:T! indices:T! ->2
aten::max_pool2d_with_indices_backward.grad_input grad_output:T self:T kernel_size:i[] stride:i[] padding:i[] dilation:i[] ceil_mode:b indices:T * grad_input:T!
aten::maximum.out self:T other:T * out:T!
aten::mean.dtype_out self:T * dtype:dt? out:T!
aten::mean.out self:T dim:i[]? keepdim:b * dtype:dt? out:T!
aten::min.dim_min self:T dim:i keepdim:b * min:T! min_indices:T! ->2
aten::min.unary_out self:T * out:T!
aten::minimum.out self:T other:T * out:T!
aten::mm.out self:T mat2:T * out:T!
aten::mul.Scalar_out self:T other:S * out:T!
aten::mul.out self:T other:T * out:T!
aten::narrow_copy.out self:T dim:i start:i length:i * out:T!
aten::native_batch_norm.out input:T weight:T? bias:T? running_mean:T? running_var:T? training:b momentum:f eps:f * out:T! save_mean:T! save_invstd:T! ->3
aten::native_dropout.out input:T p:f train:b? * out0:T! out1:T! ->2
aten::native_group_norm.out input:T weight:T? bias:T? N:i C:i HxW:i group:i eps:f * out0:T! out1:T! out2:T! ->3
aten::native_layer_norm.out input:T normalized_shape:i[] weight:T? bias:T? eps:f * out0:T! out1:T! out2:T! ->3
aten::ne.Scalar_out self:T other:S * out:T!
aten::ne.Tensor_out self:T other:T * out:T!
aten::neg.out self:T * out:T!
aten::nonzero.out self:T * out:T!
aten::ones.out size:i[] * out:T!
aten::permute_copy.out self:T dims:i[] * out:T!
aten::pixel_shuffle.out self:T upscale_factor:i * out:T!
aten::pixel_unshuffle.out self:T downscale_factor:i * out:T!
aten::pow.Scalar_out self:S exponent:T * out:T!
aten::pow.Tensor_Scalar_out self:T exponent:S * out:T!
aten::pow.Tensor_Tensor_out self:T exponent:T * out:T!
aten::prod.int_out self:T dim:i keepdim:b * dtype:dt? out:T!
aten::prod.out self:T * dtype:dt? out:T!
aten::rand.out size:i[] * out:T!
aten::randn.out size:i[] * out:T!
aten::reciprocal.out self:T * out:T!
aten::reflection_pad1d.out self:T padding:i[] * out:T!
aten::reflection_pad2d.out self:T padding:i[] * out:T!
aten::reflection_pad3d.out self:T padding:i[] * out:T!
aten::relu.out self:T * out:T!
aten::remainder.Scalar_out self:T other:S * out:T!
aten::remainder.Tensor_out self:T other:T * out:T!
aten::repeat.out self:T repeats:i[] * out:T!
aten::repeat_interleave.Tensor_out repeats:T * output_size:i? out:T!
aten::replication_pad1d.out self:T padding:i[] * out:T!
aten::replication_pad2d.out self:T padding:i[] * out:T!
aten::replication_pad3d.out self:T padding:i[] * out:T!
aten::roll.out self:T shifts:i[] dims:i[] * out:T!
aten::round.out self:T * out:T!
aten::rsqrt.out self:T * out:T!
aten::rsub.Scalar_out self:T other:S alpha:S * out:T!
aten::scalar_tensor.out s:S * out:T!
aten::scatter.src_out self:T dim:i index:T src:T * out:T!
aten::scatter.value_out self:T dim:i index:T value:S * out:T!
aten::scatter_add.out self:T dim:i index:T src:T * out:T!
aten::select_copy.int_out self:T dim:i index:i * out:T!
aten::select_scatter.out self:T src:T dim:i index:i * out:T!
aten::sigmoid.out self:T * out:T!
aten::sign.out self:T * out:T!
aten::sin.out self:T * out:T!
aten::sinh.out self:T * out:T!
aten::slice_copy.Tensor_out self:T dim:i start:i? end:i? step:i * out:T!
aten::slice_scatter.out self:T src:T dim:i start:i? end:i? step:i * out:T!
aten::softplus.out self:T beta:S threshold:S * out:T!
aten::sort.values self:T dim:i descending:b * values:T! indices:T! ->2
aten::split_copy.Tensor_out self:T split_size:i dim:i * out:T[]! ->0
aten::split_with_sizes_copy.out self:T split_sizes:i[] dim:i * out:T[]! ->0
aten::sqrt.out self:T * out:T!
aten::squeeze_copy.dim_out self:T dim:i * out:T!
aten::squeeze_copy.dims_out self:T dim:i[] * out:T!
aten::squeeze_copy.out self:T * out:T!
aten::stack.out tensors:T[] dim:i * out:T!
aten::sub.Scalar_out self:T other:S alpha:S * out:T!
aten::sub.out self:T other:T * alpha:S out:T!
aten::sum.IntList_out self:T dim:i[]? keepdim:b * dtype:dt? out:T!
aten::sym_numel.default self:T
aten::sym_size.int self:T dim:i
aten::t_copy.out self:T * out:T!
aten::tan.out self:T * out:T!
aten::tanh.out self:T * out:T!
aten::topk.values self:T k:i dim:i largest:b sorted:b * values:T! indices:T! ->2
aten::transpose_copy.int_out self:T dim0:i dim1:i * out:T!
aten::tril.out self:T diagonal:i * out:T!
aten::trunc.out self:T * out:T!
aten::unbind_copy.int_out self:T dim:i * out:T[]! ->0
aten::unfold_copy.out self:T dimension:i size:i step:i * out:T!
aten::unsafe_split.Tensor_out self:T split_size:i dim:i * out:T[]! ->0
aten::unsqueeze_copy.out self:T dim:i * out:T!
aten::upsample_bilinear2d.vec_out input:T output_size:i[]? align_corners:b scale_factors:f[]? * out:T!
aten::upsample_nearest2d.vec_out input:T output_size:i[]? scale_factors:f[]? * out:T!
aten::var.correction_out self:T dim:i[]? * correction:S? keepdim:b out:T!
aten::var.out self:T dim:i[]? unbiased:b keepdim:b * out:T!
aten::var_mean.correction_out self:T dim:i[]? * correction:S? keepdim:b out0:T! out1:T! ->2
aten::view_as_real_copy.out self:T * out:T!
aten::view_copy.out self:T size:i[] * out:T!
aten::where.self_out condition:T self:T other:T * out:T!
aten::zeros.out size:i[] * out:T!
aten::zeros_like.out self:T * memory_format:mf? out:T!
)",
    // quantized_decomposed: kernels/quantized/quantized.yaml.
    R"(quantized_decomposed::add.out a:T a_scale:f a_zero_point:i a_quant_min:i a_quant_max:i b:T b_scale:f b_zero_point:i b_quant_min:i b_quant_max:i out_scale:f out_zero_point:i out_quant_min:i out_quant_max:i * out:T!
quantized_decomposed::choose_qparams.Tensor_out input:T quant_min:i quant_max:i eps:f dtype:dt * scale_out:T! zero_point_out:T! ->2
quantized_decomposed::choose_qparams_per_token_asymmetric.out input:T dtype:dt * scale_out:T! zero_point_out:T! ->2
quantized_decomposed::dequantize_per_channel.out input:T scales:T zero_points:T? axis:i quant_min:i quant_max:i dtype:dt * out_dtype:dt? out:T!
quantized_decomposed::dequantize_per_tensor.Tensor_out input:T scale:T zero_point:T quant_min:i quant_max:i dtype:dt * out_dtype:dt? out:T!
quantized_decomposed::dequantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out_dtype:dt? out:T!
quantized_decomposed::dequantize_per_token.out input:T scales:T zero_points:T quant_min:i quant_max:i dtype:dt output_dtype:dt * out:T!
quantized_decomposed::embedding_2bit.dtype_out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T dtype:dt? * out:T!
quantized_decomposed::embedding_2bit.out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T * out:T!
quantized_decomposed::embedding_4bit.dtype_out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T dtype:dt? * out:T!
quantized_decomposed::embedding_4bit.out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T * out:T!
quantized_decomposed::embedding_byte.dtype_out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T * dtype:dt? out:T!
quantized_decomposed::embedding_byte.out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T * out:T!
quantized_decomposed::mixed_linear.out input:T weight:T weight_scales:T weight_zero_points:T? dtype:dt? * out:T!
quantized_decomposed::mixed_mm.out input:T weight:T weight_scales:T weight_zero_points:T? * out:T!
quantized_decomposed::quantize_per_channel.out input:T scales:T zero_points:T axis:i quant_min:i quant_max:i dtype:dt * out:T!
quantized_decomposed::quantize_per_tensor.Tensor_out input:T scale:T zero_point:T quant_min:i quant_max:i dtype:dt * out:T!
quantized_decomposed::quantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
quantized_decomposed::quantize_per_token.out input:T scales:T zero_points:T quant_min:i quant_max:i dtype:dt * out:T!
)",
    // dim_order_ops: kernels/portable/functions.yaml (exir/passes/dim_order_ops_registry.py).
    R"(dim_order_ops::_clone_dim_order.out self:T * non_blocking:b dim_order:i[]? out:T!
dim_order_ops::_empty_dim_order.out size:i[] * dim_order:i[]? out:T!
dim_order_ops::_to_dim_order_copy.out self:T * non_blocking:b dim_order:i[]? out:T!
)",
    // executorch_prim: exir/passes/executorch_prim_ops_registry.py, kernels/prim_ops/ and the
    // emitter (et_view, et_copy_index: three arguments and no returned value).
    R"(executorch_prim::add.Scalar a:S b:S
executorch_prim::ceil.Scalar a:S
executorch_prim::eq.Scalar a:S b:S
executorch_prim::et_copy_index.tensor copy_to:T copy_from:T index:i ->0
executorch_prim::et_view.default self:T size:i[]
executorch_prim::floordiv.Scalar a:S b:S
executorch_prim::floordiv.int a:i b:i
executorch_prim::ge.Scalar a:S b:S
executorch_prim::gt.Scalar a:S b:S
executorch_prim::le.Scalar a:S b:S
executorch_prim::lt.Scalar a:S b:S
executorch_prim::mod.Scalar a:i b:i
executorch_prim::mod.int a:i b:i
executorch_prim::mul.Scalar a:S b:S
executorch_prim::neg.Scalar a:S
executorch_prim::round.Scalar a:S
executorch_prim::sub.Scalar a:S b:S
executorch_prim::sym_float.Scalar a:S
executorch_prim::sym_int.Scalar a:S
executorch_prim::sym_ite.Scalar b:S t:S f:S
executorch_prim::sym_max.Scalar a:S b:S
executorch_prim::sym_min.Scalar a:S b:S
executorch_prim::sym_not.Scalar a:S
executorch_prim::truediv.Scalar a:S b:S
executorch_prim::trunc.Scalar a:S
)",
    // et_copy: kernels/portable/et_copy_ops.yaml.
    R"(et_copy::_d2h_copy.out self:T * out:T!
et_copy::_h2d_copy.out self:T * out:T!
)",
    // llama and preprocess: extension/llm/custom_ops/*_aot.cpp.
    R"(llama::channelwise_gated_delta_rule.out query:T key:T value:T decay:T beta:T initial_state:T * out:T! final_state_out:T! ->2
llama::custom_quantized_sdpa.out query:T key:T value:T start_pos:i attn_mask:T? drpout_p:f is_causal:b scale:f? q_zero_points:T? q_scales:T? k_zero_points:T? k_scales:T? v_zero_points:T? v_scales:T? is_seq_at_dim_2:b * out:T!
llama::custom_sdpa.out query:T key:T value:T start_pos:i attn_mask:T? drpout_p:f is_causal:b scale:f? * out:T!
llama::fast_hadamard_transform.out mat:T * out:T!
llama::gated_delta_rule.out query:T key:T value:T decay:T beta:T initial_state:T * out:T! final_state_out:T! ->2
llama::quantized_moe_ffn.out x:T gate_weight:T expert_bias:T packed_w13:T packed_w2:T num_activated_experts:i num_experts:i hidden_dim:i dim:i group_size:i weight_nbit:i score_func:str route_scale:f * out:T!
llama::sdpa_with_kv_cache.out query:T key:T value:T key_cache:T! value_cache:T! start_pos:i seq_len:i attn_mask:T? drpout_p:f is_causal:b scale:f? * out:T!
llama::update_cache.out value:T cache:T! start_pos:i * out:T!
llama::update_cache_with_indices.out value:T cache:T! start_pos:i indices:T * out:T!
preprocess::tile_crop.out input:T tile_size:i * out:T!
)",
    // cortex_m: backends/cortex_m/ops/operators.yaml.
    R"(cortex_m::dequantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cortex_m::maximum.out self:T other:T * out:T!
cortex_m::minimum.out self:T other:T * out:T!
cortex_m::pad.out input:T pre_pad:i[] post_pad:i[] pad_value:i * out:T!
cortex_m::quantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cortex_m::quantized_activation.out input:T lut:T * out:T!
cortex_m::quantized_add.out self:T self_zero_point:i self_multiplier:i self_shift:i other:T other_zero_point:i other_multiplier:i other_shift:i output_zero_point:i output_multiplier:i output_shift:i activation_min:i activation_max:i * out:T!
cortex_m::quantized_avg_pool2d.out input:T kernel_size:i[] stride:i[] padding:i[] ceil_mode:b zero_point:i multiplier:i shift:i scratch:T * out:T!
cortex_m::quantized_batch_matmul.out lhs:T lhs_zero_point:i rhs_transposed:T rhs_zero_point:i output_zero_point:i output_multiplier:i output_shift:i scratch:T * out:T!
cortex_m::quantized_conv2d.out input:T weight:T bias:T? stride:i[] padding:i[] dilation:i[] input_offset:i output_offset:i requantize_multipliers:T requantize_shifts:T activation_min:i activation_max:i scratch:T * out:T!
cortex_m::quantized_depthwise_conv2d.out input:T weight:T bias:T? stride:i[] padding:i[] dilation:i[] depth_multiplier:i input_offset:i output_offset:i requantize_multipliers:T requantize_shifts:T activation_min:i activation_max:i scratch:T * out:T!
cortex_m::quantized_div.out self:T self_zero_point:i other:T other_zero_point:i output_zero_point:i output_scale:f * out:T!
cortex_m::quantized_linear.out input:T weights:T bias:T? kernel_sum:T? input_offset:i filter_offset:i output_offset:i requantize_multipliers:i[] requantize_shifts:i[] activation_max:i activation_min:i * out:T!
cortex_m::quantized_max_pool2d.out input:T kernel_size:i[] stride:i[] padding:i[] dilation:i[] ceil_mode:b input_zero_point:i output_zero_point:i activation_min:i activation_max:i * out:T!
cortex_m::quantized_mul.out self:T self_zero_point:i other:T other_zero_point:i output_zero_point:i output_multiplier:i output_shift:i * out:T!
cortex_m::quantized_transpose_conv2d.out input:T weight:T bias:T? stride:i[] padding:i[] output_padding:i[] dilation:i[] input_offset:i output_offset:i requantize_multipliers:T requantize_shifts:T activation_min:i activation_max:i scratch:T output_scratch:T * out:T!
cortex_m::softmax.out input:T dim:i input_zero_point:i output_zero_point:i input_multiplier:i input_shift:i diff_min:i * out:T!
cortex_m::transpose.out input:T perm:i[] * out:T!
)",
    // cadence: backends/cadence/aot/functions*.yaml and ops_registrations.py.
    R"(cadence::_cat_nop.out tensors:T[] dim:i * out:T!
cadence::_select_copy_nop.int_out self:T dim:i index:i * out:T!
cadence::_slice_copy_nop.Tensor_out self:T dim:i start:i? end:i? step:i * out:T!
cadence::_softmax_f32_f32.out self:T dim:i half_to_float:b? * out:T!
cadence::avg_pool2d.out input:T kernel_size:i[] stride:i[] padding:i[] ceil_mode:b count_include_pad:b divisor_override:i? in_zero_point:T? channel_last:b * out:T!
cadence::chunk.out self:T chunks:i dim:i * out:T[]! ->0
cadence::contiguous.out self:T * memory_format:mf out:T!
cadence::conv1d.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i * out:T!
cadence::conv2d.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i * out:T!
cadence::conv3d.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i * out:T!
cadence::dequantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::dequantize_per_tensor_asym16s.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::dequantize_per_tensor_asym16u.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::dequantize_per_tensor_asym32s.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::dequantize_per_tensor_asym8s.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::dequantize_per_tensor_asym8u.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::fully_connected.out input:T weight:T bias:T? * out:T!
cadence::idma_copy.out src:T task_num:i channel:i * out:T!
cadence::idma_load.out src:T task_num:i channel:i * out:T!
cadence::idma_store.out src:T task_num:i channel:i * out:T!
cadence::idma_wait.out src:T task_num:i * out:T!
cadence::im2row.out input:T kernel_size:i[] dilation:i[] padding:i[] stride:i[] in_zero_point:T channel_last:b * out:T!
cadence::im2row.per_tensor_out input:T kernel_size:i[] dilation:i[] padding:i[] stride:i[] in_zero_point:i channel_last:b * out:T!
cadence::linalg_svd.out A:T full_matrices:b compute_uv:b driver:str? * U:T! S:T! Vh:T! ->3
cadence::quantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantize_per_tensor_asym16s.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantize_per_tensor_asym16u.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantize_per_tensor_asym32s.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantize_per_tensor_asym8s.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantize_per_tensor_asym8u.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantized_add.out X:T X_scale:T X_zero_point:T Y:T Y_scale:T Y_zero_point:T out_scale:f out_zero_point:i * out:T!
cadence::quantized_add.per_tensor_out X:T X_scale:f X_zero_point:i Y:T Y_scale:f Y_zero_point:i out_scale:f out_zero_point:i * out:T!
cadence::quantized_add_Scalar.out X:T X_scale:T X_zero_point:T Y:S out_scale:f out_zero_point:i * out:T!
cadence::quantized_add_asym8sxasym8s_asym8s.per_tensor_out X:T X_scale:f X_zero_point:i Y:T Y_scale:f Y_zero_point:i out_scale:f out_zero_point:i * out:T!
cadence::quantized_add_asym8uxasym8u_asym8u.per_tensor_out X:T X_scale:f X_zero_point:i Y:T Y_scale:f Y_zero_point:i out_scale:f out_zero_point:i * out:T!
cadence::quantized_conv.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T channel_last:b * out:T!
cadence::quantized_conv.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i channel_last:b * out:T!
cadence::quantized_conv1d_ncl.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_conv1d_ncl.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nlc.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_conv1d_nlc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i offset:T? * out:T!
cadence::quantized_conv2d_depthwise_nhwc.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_conv2d_nchw.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw_depthwise_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw_depthwise_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw_dilated_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw_dilated_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nhwc.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_conv2d_nhwc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i offset:T? * out:T!
cadence::quantized_conv2d_nhwc_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nhwc_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nhwc_depthwise_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nhwc_depthwise_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nhwc_dilated_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nhwc_dilated_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_depthwise_conv1d_ncl.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_depthwise_conv1d_nlc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_embedding_byte.out weight:T weight_scales:T weight_zero_points:T? indices:T pruned_weights:b * out:T!
cadence::quantized_fully_connected.out src:T weight:T bias:T src_zero_point:i weight_zero_point:T out_multiplier:T out_shift:T out_zero_point:i offset:T? * out:T!
cadence::quantized_fully_connected.per_tensor_out src:T weight:T bias:T src_zero_point:i weight_zero_point:i out_multiplier:i out_shift:i out_zero_point:i offset:T? * out:T!
cadence::quantized_fully_connected_asym8sxasym8s_asym8s.per_tensor_out src:T weight:T bias:T src_zero_point:i weight_zero_point:i out_multiplier:i out_shift:i out_zero_point:i offset:T? * out:T!
cadence::quantized_fully_connected_asym8uxasym8u_asym8u.per_tensor_out src:T weight:T bias:T src_zero_point:i weight_zero_point:i out_multiplier:i out_shift:i out_zero_point:i offset:T? * out:T!
cadence::quantized_layer_norm.out input:T in_scale:T in_zero_point:T normalized_shape:i[] weight:T bias:T eps:f output_scale:f output_zero_point:i * out:T!
cadence::quantized_layer_norm.per_tensor_out input:T in_scale:f in_zero_point:i normalized_shape:i[] weight:T bias:T eps:f output_scale:f output_zero_point:i * out:T!
cadence::quantized_linear.out src:T weight:T bias:T src_zero_point:i weight_zero_point:T out_multiplier:T out_shift:T out_zero_point:i offset:T? * out:T!
cadence::quantized_linear.per_tensor_out src:T weight:T bias:T src_zero_point:i weight_zero_point:i out_multiplier:i out_shift:i out_zero_point:i offset:T? * out:T!
cadence::quantized_linear_asym8sxasym8s_asym8s.per_tensor_out src:T weight:T bias:T src_zero_point:i weight_zero_point:i out_multiplier:i out_shift:i out_zero_point:i offset:T? * out:T!
cadence::quantized_linear_asym8uxasym8u_asym8u.per_tensor_out src:T weight:T bias:T src_zero_point:i weight_zero_point:i out_multiplier:i out_shift:i out_zero_point:i offset:T? * out:T!
cadence::quantized_matmul.out X:T X_zero_point:i Y:T Y_zero_point:i bias:T? out_multiplier:i out_shift:i out_zero_point:i transposed:b * out:T!
cadence::quantized_matmul_asym8sxasym8s_asym8s.out X:T X_zero_point:i Y:T Y_zero_point:i bias:T? out_multiplier:i out_shift:i out_zero_point:i transposed:b * out:T!
cadence::quantized_matmul_asym8uxasym8u_asym8u.out X:T X_zero_point:i Y:T Y_zero_point:i bias:T? out_multiplier:i out_shift:i out_zero_point:i transposed:b * out:T!
cadence::quantized_max_pool2d.out input:T kernel_size:i[] stride:i[] padding:i[] dilation:i[] ceil_mode:b * out:T!
cadence::quantized_max_pool2d_nchw.out input:T kernel_size:i[] stride:i[] padding:i[] dilation:i[] ceil_mode:b * out:T!
cadence::quantized_max_pool2d_nhwc.out input:T kernel_size:i[] stride:i[] padding:i[] dilation:i[] ceil_mode:b * out:T!
cadence::quantized_mul.out X:T X_scale:T X_zero_point:T Y:T Y_scale:T Y_zero_point:T out_scale:f out_zero_point:i * out:T!
cadence::quantized_mul.per_tensor_out X:T X_scale:f X_zero_point:i Y:T Y_scale:f Y_zero_point:i out_scale:f out_zero_point:i * out:T!
cadence::quantized_mul_Scalar.out X:T X_scale:T X_zero_point:T Y:S out_scale:f out_zero_point:i * out:T!
cadence::quantized_relu.out X:T X_zero_point:T out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_relu.per_tensor_out X:T X_zero_point:i out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_relu_asym8s_asym8s.per_tensor_out X:T X_zero_point:i out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_relu_asym8u_asym8u.per_tensor_out X:T X_zero_point:i out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_relu_per_tensor.out X:T X_zero_point:T out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_softmax.out input:T mask:T dim:i mask_type:i pos:T in_scale:T in_zero_point:T out_scale:T out_zero_point:T * out:T!
cadence::quantized_softmax.per_tensor_out input:T mask:T dim:i mask_type:i pos:T in_scale:f in_zero_point:i out_scale:f out_zero_point:i * out:T!
cadence::quantized_transposed_conv.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] output_padding:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T channel_last:b * out:T!
cadence::quantized_w8a32_conv.out input:T weight:T w_scale:f bias:T b_scale:f * output:T!
cadence::quantized_w8a32_gru.out inputs:T hidden:T weights_inputs:T w_i_scale:f weights_hidden:T w_h_scale:f bias_inputs:T b_scale:f bias_hidden:T * out:T!
cadence::quantized_w8a32_linear.out input:T weight:T w_scale:f bias:T b_scale:f * output:T!
cadence::requantize.out input:T in_scale:T in_zero_point:T out_scale:T out_zero_point:T out_dtype:dt * out:T!
cadence::requantize.per_tensor_out input:T in_scale:f in_zero_point:i out_scale:f out_zero_point:i out_dtype:dt * out:T!
cadence::roi_align_box_processor.out rois:T output_size_h:i output_size_w:i sampling_ratio:i aligned:b * out:T!
cadence::rope.out input:T sin_tensor:T cos_tensor:T pos:T? * out:T!
cadence::rope_rotate_stacked_halves.out input:T sin_tensor:T cos_tensor:T pos:T? * out:T!
cadence::sdpa_bitwise_mask_gen.out mask:T threshold:f * out:T!
cadence::tensor_split.sections_out self:T sections:i dim:i * out:T[]! ->0
cadence::transposed_convolution.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] output_padding:i[] groups:i channel_last:b * out:T!
cadence::transposed_im2row.out input:T kernel_size:i[] dilation:i[] padding:i[] stride:i[] output_padding:i[] in_zero_point:T channel_last:b * out:T!
cadence::where_Scalar.out condition:T self:f other:f * out:T!
)",
    // etnp: the LSTM kernel of corey-cole/executorch-numpy-runtime (sample djl-executorch-engine/lstm.pte).
    R"(etnp::lstm.out input:T h0:T c0:T w_ih:T w_hh:T b_ih:T? b_hh:T? * output:T! hn:T! cn:T! ->3
)",
    // Older variants, from the history of the files above: a schema an earlier release had, with a
    // different number of arguments (an operator since renamed or removed, or one whose arguments
    // changed). Each comes after the current schema of its name and is tried only when that one
    // does not fit the call.
    R"(aten::dequantize_per_channel.out input:T scales:T zero_points:T axis:i quant_min:i quant_max:i dtype:dt * out:T!
cadence::quantized_conv1d_nchw_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nchw_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_ncl_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_ncl_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nhwc_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nhwc_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nlc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nlc_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv1d_nlc_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv2d_nchw.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i channel_last:b * out:T!
cadence::quantized_conv2d_nhwc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_conv_nchw.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i channel_last:b * out:T!
cadence::quantized_conv_nchw_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw_depthwise_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw_depthwise_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw_dilated_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nchw_dilated_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc.out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:T bias_scale:T out_scale:f out_zero_point:i out_multiplier:T out_shift:T * out:T!
cadence::quantized_conv_nhwc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i channel_last:b * out:T!
cadence::quantized_conv_nhwc_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc_depthwise_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc_depthwise_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc_dilated_asym8sxsym8s_asym8s.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_conv_nhwc_dilated_asym8uxsym8u_asym8u.per_tensor_out input:T weight:T bias:T stride:i[] padding:i[] dilation:i[] groups:i input_zero_point:i weight_zero_point:i bias_scale:f out_scale:f out_zero_point:i out_multiplier:i out_shift:i * out:T!
cadence::quantized_relu.out X:T X_zero_point:T * out:T!
cortex_m::quantized_add.out self:T self_zero_point:i self_multiplier:i self_shift:i other:T other_zero_point:i other_multiplier:i other_shift:i output_zero_point:i output_multiplier:i output_shift:i * out:T!
cortex_m::quantized_avg_pool2d.out input:T kernel_size:i[] stride:i[] padding:i[] zero_point:i multiplier:i shift:i scratch:T * out:T!
cortex_m::quantized_avg_pool2d.out input:T kernel_size:i[] stride:i[] padding:i[] zero_point:i multiplier:i shift:i * out:T!
cortex_m::quantized_batch_matmul.out lhs:T lhs_zero_point:i rhs_transposed:T rhs_zero_point:i output_zero_point:i output_multiplier:i output_shift:i * out:T!
cortex_m::quantized_conv2d.out input:T weight:T bias:T? stride:i[] padding:i[] dilation:i[] input_offset:i output_offset:i requantize_multipliers:T requantize_shifts:T activation_min:i activation_max:i * out:T!
cortex_m::quantized_depthwise_conv2d.out input:T weight:T bias:T? stride:i[] padding:i[] dilation:i[] depth_multiplier:i input_offset:i output_offset:i requantize_multipliers:T requantize_shifts:T activation_min:i activation_max:i * out:T!
cortex_m::quantized_linear.out input:T input_zero_point:S input_multiplier:S input_shift:S weights:T weight_zero_point:T weight_multiplier:T weight_shift:T bias:T? bias_multiplier:T bias_shift:T scratch_buffer:T output_zero_point:S in_features:S out_features:S * out:T!
cortex_m::quantized_transpose_conv2d.out input:T weight:T bias:T? stride:i[] padding:i[] output_padding:i[] dilation:i[] input_offset:i output_offset:i requantize_multipliers:T requantize_shifts:T activation_min:i activation_max:i * out:T!
quantized_decomposed::dequantize_per_channel.out input:T scales:T zero_points:T axis:i quant_min:i quant_max:i dtype:dt * out:T!
quantized_decomposed::dequantize_per_tensor.Tensor_out input:T scale:T zero_point:T quant_min:i quant_max:i dtype:dt * out:T!
quantized_decomposed::dequantize_per_tensor.out input:T scale:f zero_point:i quant_min:i quant_max:i dtype:dt * out:T!
quantized_decomposed::embedding_byte.out weight:T weight_scales:T weight_zero_points:T? weight_quant_min:i weight_quant_max:i indices:T * dtype:dt? out:T!
)",
};
// clang-format on

} // namespace

std::span<const std::string_view> schemaTableText()
{
    return kTable;
}

} // namespace etscope::core::opschema_detail
