// SPDX-License-Identifier: MIT
// Kernel lists: which operators a runtime can call. The built-in lists are facts about ExecuTorch's
// kernel libraries, written here in this project's own form (sorted names, space separated):
//
// - pytorch/executorch at cff6f4dd32e6 (2026-08-22), the commit core/opschema/schematable.cpp
//   cites: `portable` = kernels/portable/functions.yaml (every `- op:` / `- func:` entry; the
//   portable_ops_lib registers exactly that file), `optimized` = kernels/optimized/optimized.yaml,
//   `quantized` = kernels/quantized/quantized.yaml, `cortex_m` = backends/cortex_m/ops/operators.yaml,
//   `prim` = the Kernel names of kernels/prim_ops/register_prim_ops.cpp (registered by the runtime
//   itself unless a selective build of prim ops drops some).
// - `op: add.out` in those files is ATen's: `aten::add.out`, the name the runtime looks up
//   (runtime/executor/method.cpp resolves `name.overload` of each KernelCall's operator).
// - Backend ids: the `Backend{"…", …}` registrations under backends/ at the same commit.
//
// Why one file: the built-in lists are data (about 120 lines of names), and the readers of the list
// formats (selected_operators.yaml, functions.yaml, plain lists and runtime logs) share the line
// splitting and the errors naming the file and line.
#include "core/analysis/kernelcheck.h"

#include "core/pte/program.h"
#include "core/util/mappedfile.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace etscope::core {

namespace {

// clang-format off
// 209 operators
constexpr std::string_view kPortable = R"(
aten::_adaptive_avg_pool2d.out aten::_cdist_forward.out aten::_conj_physical.out aten::_log_softmax.out
aten::_native_batch_norm_legit.no_stats_out aten::_native_batch_norm_legit.out
aten::_native_batch_norm_legit_no_training.out aten::_pdist_forward.out aten::_softmax.out
aten::_to_copy.out aten::_upsample_bilinear2d_aa.out aten::abs.out aten::acos.out aten::acosh.out
aten::add.Scalar_out aten::add.out aten::addmm.out aten::alias_copy.out aten::amax.out aten::amin.out
aten::any.all_out aten::any.dims_out aten::any.out aten::arange.out aten::arange.start_out aten::argmax.out
aten::argmin.out aten::as_strided_copy.out aten::asin.out aten::asinh.out aten::atan.out aten::atan2.out
aten::atanh.out aten::avg_pool2d.out aten::bitwise_and.Scalar_out aten::bitwise_and.Tensor_out
aten::bitwise_left_shift.Tensor_Scalar_out aten::bitwise_left_shift.Tensor_out aten::bitwise_not.out
aten::bitwise_or.Scalar_out aten::bitwise_or.Tensor_out aten::bitwise_right_shift.Tensor_Scalar_out
aten::bitwise_right_shift.Tensor_out aten::bitwise_xor.Scalar_out aten::bitwise_xor.Tensor_out aten::bmm.out
aten::cat.out aten::ceil.out aten::clamp.Tensor_out aten::clamp.out aten::clone.out
aten::constant_pad_nd.out aten::convolution.out aten::convolution_backward.out aten::copy.out aten::copy_
aten::cos.out aten::cosh.out aten::cumsum.out aten::detach_copy.out aten::diagonal_copy.out
aten::div.Scalar_mode_out aten::div.Scalar_out aten::div.out aten::div.out_mode aten::elu.out
aten::embedding.out aten::empty.out aten::eq.Scalar_out aten::eq.Tensor_out aten::erf.out aten::exp.out
aten::expand_copy.out aten::expm1.out aten::fill.Scalar_out aten::fill.Tensor_out aten::flip.out
aten::floor.out aten::floor_divide.out aten::fmod.Scalar_out aten::fmod.Tensor_out aten::full.out
aten::full_like.out aten::gather.out aten::ge.Scalar_out aten::ge.Tensor_out aten::gelu.out aten::glu.out
aten::grid_sampler_2d.out aten::gt.Scalar_out aten::gt.Tensor_out aten::hardtanh.out aten::index.Tensor_out
aten::index_put.out aten::index_put_ aten::index_select.out aten::isinf.out aten::isnan.out
aten::le.Scalar_out aten::le.Tensor_out aten::leaky_relu.out aten::lift_fresh_copy.out aten::log.out
aten::log10.out aten::log1p.out aten::log2.out aten::logical_and.out aten::logical_not.out
aten::logical_or.out aten::logical_xor.out aten::logit.out aten::lt.Scalar_out aten::lt.Tensor_out
aten::masked_fill.Scalar_out aten::masked_scatter.out aten::masked_select.out aten::max.dim_max
aten::max.unary_out aten::max_pool2d_with_indices.out aten::max_pool2d_with_indices_backward.grad_input
aten::maximum.out aten::mean.dtype_out aten::mean.out aten::min.dim_min aten::min.unary_out
aten::minimum.out aten::mm.out aten::mul.Scalar_out aten::mul.out aten::narrow_copy.out
aten::native_dropout.out aten::native_group_norm.out aten::native_layer_norm.out aten::ne.Scalar_out
aten::ne.Tensor_out aten::neg.out aten::nonzero.out aten::ones.out aten::permute_copy.out
aten::pixel_shuffle.out aten::pixel_unshuffle.out aten::pow.Scalar_out aten::pow.Tensor_Scalar_out
aten::pow.Tensor_Tensor_out aten::prod.int_out aten::prod.out aten::rand.out aten::randn.out
aten::reciprocal.out aten::reflection_pad1d.out aten::reflection_pad2d.out aten::reflection_pad3d.out
aten::relu.out aten::remainder.Scalar_out aten::remainder.Tensor_out aten::repeat.out
aten::repeat_interleave.Tensor_out aten::replication_pad1d.out aten::replication_pad2d.out
aten::replication_pad3d.out aten::roll.out aten::round.out aten::rsqrt.out aten::rsub.Scalar_out
aten::scalar_tensor.out aten::scatter.src_out aten::scatter.value_out aten::scatter_add.out
aten::select_copy.int_out aten::select_scatter.out aten::sigmoid.out aten::sign.out aten::sin.out
aten::sinh.out aten::slice_copy.Tensor_out aten::slice_scatter.out aten::split_copy.Tensor_out
aten::split_with_sizes_copy.out aten::sqrt.out aten::squeeze_copy.dim_out aten::squeeze_copy.dims_out
aten::stack.out aten::sub.Scalar_out aten::sub.out aten::sum.IntList_out aten::t_copy.out aten::tan.out
aten::tanh.out aten::topk.values aten::transpose_copy.int_out aten::tril.out aten::trunc.out
aten::unbind_copy.int_out aten::unfold_copy.out aten::unsqueeze_copy.out aten::upsample_bilinear2d.vec_out
aten::upsample_nearest2d.vec_out aten::var.correction_out aten::var.out aten::var_mean.correction_out
aten::view_as_real_copy.out aten::view_copy.out aten::where.self_out aten::zeros.out
dim_order_ops::_clone_dim_order.out dim_order_ops::_empty_dim_order.out
dim_order_ops::_to_dim_order_copy.out et_copy::_d2h_copy.out et_copy::_h2d_copy.out
)";

// 23 operators
constexpr std::string_view kOptimized = R"(
aten::_fft_c2r.out aten::_fft_r2c.out aten::_log_softmax.out aten::add.Scalar_out aten::add.out
aten::bmm.out aten::div.Scalar_out aten::div.out aten::elu.out aten::exp.out aten::gelu.out
aten::grid_sampler_2d.out aten::le.Scalar_out aten::le.Tensor_out aten::linear.out aten::mm.out
aten::mul.Scalar_out aten::mul.out aten::native_layer_norm.out aten::sub.Scalar_out aten::sub.out
aten::sum.IntList_out aten::where.self_out
)";

// 19 operators
constexpr std::string_view kQuantized = R"(
quantized_decomposed::add.out quantized_decomposed::choose_qparams.Tensor_out
quantized_decomposed::choose_qparams_per_token_asymmetric.out
quantized_decomposed::dequantize_per_channel.out quantized_decomposed::dequantize_per_tensor.Tensor_out
quantized_decomposed::dequantize_per_tensor.out quantized_decomposed::dequantize_per_token.out
quantized_decomposed::embedding_2bit.dtype_out quantized_decomposed::embedding_2bit.out
quantized_decomposed::embedding_4bit.dtype_out quantized_decomposed::embedding_4bit.out
quantized_decomposed::embedding_byte.dtype_out quantized_decomposed::embedding_byte.out
quantized_decomposed::mixed_linear.out quantized_decomposed::mixed_mm.out
quantized_decomposed::quantize_per_channel.out quantized_decomposed::quantize_per_tensor.Tensor_out
quantized_decomposed::quantize_per_tensor.out quantized_decomposed::quantize_per_token.out
)";

// 18 operators
constexpr std::string_view kCortexM = R"(
cortex_m::dequantize_per_tensor.out cortex_m::maximum.out cortex_m::minimum.out cortex_m::pad.out
cortex_m::quantize_per_tensor.out cortex_m::quantized_activation.out cortex_m::quantized_add.out
cortex_m::quantized_avg_pool2d.out cortex_m::quantized_batch_matmul.out cortex_m::quantized_conv2d.out
cortex_m::quantized_depthwise_conv2d.out cortex_m::quantized_div.out cortex_m::quantized_linear.out
cortex_m::quantized_max_pool2d.out cortex_m::quantized_mul.out cortex_m::quantized_transpose_conv2d.out
cortex_m::softmax.out cortex_m::transpose.out
)";

// 28 operators
constexpr std::string_view kPrim = R"(
aten::_local_scalar_dense aten::sym_numel aten::sym_size.int executorch_prim::add.Scalar
executorch_prim::ceil.Scalar executorch_prim::eq.Scalar executorch_prim::et_copy_index.tensor
executorch_prim::et_view.default executorch_prim::floordiv.Scalar executorch_prim::floordiv.int
executorch_prim::ge.Scalar executorch_prim::gt.Scalar executorch_prim::le.Scalar executorch_prim::lt.Scalar
executorch_prim::mod.Scalar executorch_prim::mod.int executorch_prim::mul.Scalar executorch_prim::neg.Scalar
executorch_prim::round.Scalar executorch_prim::sub.Scalar executorch_prim::sym_float.Scalar
executorch_prim::sym_int.Scalar executorch_prim::sym_ite.Scalar executorch_prim::sym_max.Scalar
executorch_prim::sym_min.Scalar executorch_prim::sym_not.Scalar executorch_prim::truediv.Scalar
executorch_prim::trunc.Scalar
)";
// clang-format on

struct BuiltinList {
    std::string_view name;
    std::string_view origin;
    std::string_view names;
};

constexpr std::array kBuiltins {
    BuiltinList {
        "portable", "ExecuTorch's portable kernels (kernels/portable/functions.yaml at cff6f4dd32e6)", kPortable },
    BuiltinList {
        "optimized", "ExecuTorch's optimized kernels (kernels/optimized/optimized.yaml at cff6f4dd32e6)", kOptimized },
    BuiltinList {
        "quantized", "ExecuTorch's quantized kernels (kernels/quantized/quantized.yaml at cff6f4dd32e6)", kQuantized },
    BuiltinList {
        "cortex_m", "ExecuTorch's Cortex-M kernels (backends/cortex_m/ops/operators.yaml at cff6f4dd32e6)", kCortexM },
    BuiltinList { "prim", "the prim ops the runtime registers itself (kernels/prim_ops/register_prim_ops.cpp)", kPrim },
};

constexpr std::uint64_t kMaxListBytes = 64ull << 20;

std::string_view trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string_view unquote(std::string_view text)
{
    if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front())
        return text.substr(1, text.size() - 2);
    return text;
}

bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':';
}

/// The overload-free part of a qualified name: "aten::add" of "aten::add.out".
std::string_view baseName(std::string_view qualified)
{
    const auto ns = qualified.find("::");
    const auto dot = qualified.find('.', ns == std::string_view::npos ? 0 : ns + 2);
    return dot == std::string_view::npos ? qualified : qualified.substr(0, dot);
}

/// A name as a list writes it, as the runtime looks it up: quotes and a kernel-key suffix
/// (`aten::add.out:v1/6;0,1|…`, `…:default`) dropped, `aten::` added when no namespace is
/// written. nullopt when the text is no operator name.
std::optional<std::string> operatorName(std::string_view text)
{
    text = unquote(trim(text));
    // A single ':' (not part of "::") starts a kernel key.
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != ':')
            continue;
        if (i + 1 < text.size() && text[i + 1] == ':') {
            ++i;
            continue;
        }
        text = trim(text.substr(0, i));
        break;
    }
    if (text.empty() || !std::all_of(text.begin(), text.end(), isNameChar))
        return std::nullopt;
    const auto ns = text.find("::");
    const std::string_view local = ns == std::string_view::npos ? text : text.substr(ns + 2);
    if (ns == 0 || local.empty() || local.front() == '.' || local.back() == '.'
        || local.find(':') != std::string_view::npos)
        return std::nullopt;
    return ns == std::string_view::npos ? "aten::" + std::string(text) : std::string(text);
}

bool isBackendId(std::string_view text)
{
    if (text.empty() || text.find_first_of(":.") != std::string_view::npos
        || !std::all_of(text.begin(), text.end(), isNameChar))
        return false;
    const auto& known = knownBackendIds();
    return text.ends_with("Backend") || std::find(known.begin(), known.end(), text) != known.end();
}

bool yamlTrue(std::string_view value)
{
    value = unquote(trim(value));
    return value == "true" || value == "True" || value == "TRUE" || value == "yes" || value == "Yes" || value == "YES"
        || value == "on" || value == "On" || value == "ON";
}

/// A line cut before its YAML comment (`#` at the start or after a space, outside quotes).
std::string_view withoutComment(std::string_view line)
{
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return line.substr(0, i);
        }
    }
    return line;
}

/// Splits a YAML mapping line `key: value` at the colon that ends the key (a quoted key, or the
/// first ':' followed by a space or the line's end that is not part of "::").
std::optional<std::pair<std::string_view, std::string_view>> splitKey(std::string_view line)
{
    std::size_t i = 0;
    if (!line.empty() && (line.front() == '\'' || line.front() == '"')) {
        const auto close = line.find(line.front(), 1);
        if (close == std::string_view::npos)
            return std::nullopt;
        i = close + 1;
    }
    for (; i < line.size(); ++i) {
        if (line[i] != ':')
            continue;
        if (i + 1 < line.size() && line[i + 1] == ':') {
            ++i;
            continue;
        }
        if (i + 1 == line.size() || line[i + 1] == ' ' || line[i + 1] == '\t')
            return std::pair { unquote(trim(line.substr(0, i))), trim(line.substr(i + 1)) };
    }
    return std::nullopt;
}

struct Line {
    std::size_t number = 0; ///< from 1
    std::string_view text; ///< without the line break
};

std::vector<Line> splitLines(std::string_view text)
{
    std::vector<Line> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back({ lines.size() + 1, line });
        if (end == text.size())
            break;
        start = end + 1;
    }
    return lines;
}

Error lineError(const std::string& name, const Line& line, const std::string& reason)
{
    // Shown as ASCII: the line may be binary (a wrong file given as a list).
    std::string shown(trim(line.text).substr(0, 80));
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            c = '?';
    return makeError(
        Error::Code::Corrupt, name, "line " + std::to_string(line.number) + ": " + reason + ": '" + shown + "'");
}

/// ExecuTorch's selected_operators.yaml (PyTorch's SelectiveBuilder): the keys of `operators:`.
std::optional<Error> readSelectedOperators(const std::vector<Line>& lines, KernelList& list)
{
    bool inOperators = false;
    int opIndent = -1;
    std::string current;
    for (const Line& line : lines) {
        const std::string_view content = withoutComment(line.text);
        if (trim(content).empty())
            continue;
        const auto indentEnd = content.find_first_not_of(" \t");
        if (content.substr(0, indentEnd).find('\t') != std::string_view::npos)
            return lineError(list.name, line, "a tab in the indentation (YAML indents with spaces)");
        const int indent = static_cast<int>(indentEnd);
        const auto entry = splitKey(trim(content));
        if (indent == 0) {
            if (!entry)
                return lineError(list.name, line, "expected a top-level 'key:'");
            inOperators = entry->first == "operators";
            if (entry->first == "include_all_operators" && yamlTrue(entry->second))
                list.includesAll = true;
            if (inOperators && !entry->second.empty() && entry->second != "{}")
                return lineError(list.name, line, "a flow-style 'operators:' map is not read; write one key per line");
            opIndent = -1;
            continue;
        }
        if (!inOperators)
            continue;
        if (opIndent < 0)
            opIndent = indent;
        if (indent < opIndent)
            return lineError(list.name, line, "indentation does not match the operators above it");
        if (indent > opIndent) {
            // An operator's property; only include_all_overloads changes what it provides.
            if (entry && entry->first == "include_all_overloads" && yamlTrue(entry->second) && !current.empty())
                list.allOverloads.insert(std::string(baseName(current)));
            continue;
        }
        if (!entry)
            return lineError(list.name, line, "expected 'namespace::name.overload:' in operators");
        const auto op = operatorName(entry->first);
        if (!op)
            return lineError(list.name, line, "not an operator name");
        current = *op;
        list.operators.insert(current);
        if (entry->second.starts_with("{")
            && entry->second.find("include_all_overloads: true") != std::string_view::npos)
            list.allOverloads.insert(std::string(baseName(current)));
    }
    return std::nullopt;
}

/// A kernel library's functions.yaml: `- op: add.out` (ATen) and `- func: ns::name.overload(…)`.
std::optional<Error> readFunctionsYaml(const std::vector<Line>& lines, KernelList& list)
{
    for (const Line& line : lines) {
        std::string_view content = trim(withoutComment(line.text));
        if (content.starts_with("- "))
            content = trim(content.substr(2));
        std::string_view value;
        if (content.starts_with("op:"))
            value = content.substr(3);
        else if (content.starts_with("func:"))
            value = content.substr(5);
        else
            continue;
        value = unquote(trim(value));
        value = trim(value.substr(0, value.find('(')));
        const auto op = operatorName(value);
        if (!op)
            return lineError(list.name, line, "not an operator name");
        list.operators.insert(*op);
    }
    return std::nullopt;
}

/// The message of an ExecuTorch log line (`I 00:00:00.000123 executorch:file.cpp:82] MESSAGE`).
std::optional<std::string_view> logMessage(std::string_view line)
{
    if (line.size() < 3 || std::string_view("DIEFW").find(line[0]) == std::string_view::npos || line[1] != ' ')
        return std::nullopt;
    const auto tag = line.find(" executorch:");
    const auto end = line.find("] ", tag == std::string_view::npos ? 0 : tag);
    if (tag == std::string_view::npos || end == std::string_view::npos)
        return std::nullopt;
    return trim(line.substr(end + 2));
}

/// One name per line, a Python list printout, log lines of the runtime, `backend:` lines.
std::optional<Error> readPlainList(const std::vector<Line>& lines, KernelList& list)
{
    auto addBackend = [&](std::string_view id) {
        list.backends.insert(std::string(id));
        list.declaresBackends = true;
    };
    for (const Line& line : lines) {
        if (const auto message = logMessage(line.text)) {
            // A runtime log: take the lines that are a name (the registry's dump), skip the rest
            // ("key: v1/…", "Missing operator: …" and every other message).
            if (message->find("::") != std::string_view::npos && message->find(' ') == std::string_view::npos) {
                if (const auto op = operatorName(*message))
                    list.operators.insert(*op);
            } else if (isBackendId(*message)) {
                addBackend(*message);
            }
            continue;
        }
        std::string_view content = trim(withoutComment(line.text));
        if (content.empty())
            continue;
        if (content.starts_with("- "))
            content = trim(content.substr(2));
        const std::string_view lower = content.substr(0, 8);
        if (lower == "backend:" || lower == "backend " || lower == "Backend:") {
            const std::string_view id = unquote(trim(content.substr(8)));
            if (!isBackendId(id) && (id.empty() || id.find_first_of(" :.") != std::string_view::npos))
                return lineError(list.name, line, "not a backend id");
            addBackend(id);
            continue;
        }
        // A Python list (printed on one line or spread over several): quoted items between
        // commas. An unquoted line is one name (a kernel key after it may hold commas).
        const bool pythonList = content.find_first_of("[]'\"") != std::string_view::npos;
        std::string stripped(content);
        std::erase_if(stripped, [](char c) { return c == '[' || c == ']'; });
        std::string_view rest = stripped;
        while (!rest.empty()) {
            const auto comma = pythonList ? rest.find(',') : std::string_view::npos;
            std::string_view item = trim(rest.substr(0, comma));
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            item = unquote(item);
            if (item.empty())
                continue;
            // "aten::add.out v1/6;0,1|…": a kernel key after a space.
            if (const auto space = item.find_first_of(" \t"); space != std::string_view::npos) {
                const std::string_view after = trim(item.substr(space));
                if (!after.starts_with("v1/") && !after.starts_with("default") && !after.starts_with("key:"))
                    return lineError(list.name, line, "not an operator name or backend id");
                item = item.substr(0, space);
            }
            if (isBackendId(item)) {
                addBackend(item);
                continue;
            }
            const auto op = operatorName(item);
            if (!op)
                return lineError(list.name, line, "not an operator name or backend id");
            list.operators.insert(*op);
        }
    }
    return std::nullopt;
}

} // namespace

bool KernelList::provides(std::string_view qualifiedName) const
{
    if (includesAll || operators.count(std::string(qualifiedName)))
        return true;
    return !allOverloads.empty() && allOverloads.count(std::string(baseName(qualifiedName)));
}

const KernelList* KernelLists::resolve(std::string_view qualifiedName) const
{
    for (const KernelList& list : lists)
        if (list.provides(qualifiedName))
            return &list;
    return nullptr;
}

bool KernelLists::declaresBackends() const
{
    return std::any_of(lists.begin(), lists.end(), [](const KernelList& l) { return l.declaresBackends; });
}

const KernelList* KernelLists::backendList(std::string_view backendId) const
{
    for (const KernelList& list : lists)
        if (list.backends.count(std::string(backendId)))
            return &list;
    return nullptr;
}

std::vector<std::string_view> builtinKernelListNames()
{
    std::vector<std::string_view> names;
    names.reserve(kBuiltins.size());
    for (const BuiltinList& builtin : kBuiltins)
        names.push_back(builtin.name);
    return names;
}

std::optional<KernelList> builtinKernelList(std::string_view name)
{
    for (const BuiltinList& builtin : kBuiltins) {
        if (builtin.name != name)
            continue;
        KernelList list;
        list.name = builtin.name;
        list.origin = builtin.origin;
        list.builtin = true;
        std::string_view rest = builtin.names;
        while (!rest.empty()) {
            const auto start = rest.find_first_not_of(" \n");
            if (start == std::string_view::npos)
                break;
            rest = rest.substr(start);
            const auto end = rest.find_first_of(" \n");
            list.operators.insert(std::string(rest.substr(0, end)));
            rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
        }
        return list;
    }
    return std::nullopt;
}

// Runtime presets: the kernel libraries ExecuTorch's own runners link, read off their build files
// (pytorch/executorch; the commit each file was read at is in `source`). A runner's
// `*_ops_lib` registers the kernels of the YAML the built-in list of the same name comes from;
// optimized_native_cpu_ops_lib registers optimized.yaml and portable kernels for the rest, so it
// counts as optimized + portable.
const std::vector<RuntimePreset>& runtimePresets()
{
    static const std::vector<RuntimePreset> presets {
        { "portable", "executor_runner with portable kernels only", { "portable" },
            "the portable_ops_lib branch of examples/models/llama/CMakeLists.txt (0113189aa2e1) and "
            "extension/android/CMakeLists.txt (00946af3b57b), taken when the optimized kernels are not built",
            "", {} },
        { "arm-ethos-u", "Arm Ethos-U executor_runner (bare-metal Cortex-M)", { "portable", "quantized", "cortex_m" },
            "examples/arm/executor_runner/CMakeLists.txt (018f7dbc2624): portable_kernels (arm_portable_ops_lib), "
            "quantized_ops_lib, cortex_m_ops_lib, executorch_delegate_ethos_u",
            "links EthosUBackend; a selective build keeps only the portable operators the .pte names",
            { "EthosUBackend" } },
        { "android-xnnpack", "Android (executorch_jni) with XNNPACK", { "portable", "optimized", "quantized" },
            "extension/android/CMakeLists.txt (00946af3b57b): optimized_native_cpu_ops_lib, quantized_ops_lib, "
            "xnnpack_backend",
            "links XnnpackBackend (and QNN or Vulkan when built); custom_ops only with EXECUTORCH_BUILD_KERNELS_CUSTOM",
            { "XnnpackBackend" } },
        { "llama", "llama_main (examples/models/llama)", { "portable", "optimized", "quantized" },
            "examples/models/llama/CMakeLists.txt (0113189aa2e1): optimized_native_cpu_ops_lib, quantized_ops_lib, "
            "custom_ops",
            "custom_ops (llama::sdpa_with_kv_cache, …) are in no built-in list: add them as a list file",
            { "XnnpackBackend" } },
    };
    return presets;
}

const RuntimePreset* findRuntimePreset(std::string_view name)
{
    for (const RuntimePreset& preset : runtimePresets())
        if (preset.name == name)
            return &preset;
    return nullptr;
}

const RuntimePreset& presetForBackends(const std::map<std::string, int>& delegates)
{
    const auto& presets = runtimePresets();
    const RuntimePreset* best = &presets.front(); // portable: links no backend
    int bestCount = 0;
    for (const RuntimePreset& preset : presets) {
        int count = 0;
        for (const std::string_view id : preset.backends)
            if (const auto found = delegates.find(std::string(id)); found != delegates.end())
                count += found->second;
        // Strictly more: a tie keeps the preset shown first.
        if (count > bestCount) {
            best = &preset;
            bestCount = count;
        }
    }
    return *best;
}

std::map<std::string, int> delegatesPerBackend(const Program& program)
{
    std::map<std::string, int> counts;
    for (const Method& method : program.methods)
        for (const DelegateRef& ref : method.delegates)
            ++counts[ref.backendId];
    return counts;
}

const RuntimePreset& presetForProgram(const Program& program)
{
    return presetForBackends(delegatesPerBackend(program));
}

std::vector<std::string> presetReasons(const RuntimePreset& preset, const std::map<std::string, int>& delegates)
{
    std::vector<std::string> reasons;
    for (const auto& [id, count] : delegates)
        if (std::find(preset.backends.begin(), preset.backends.end(), id) != preset.backends.end())
            reasons.push_back(id);
    return reasons;
}

KernelLists presetKernelLists(const RuntimePreset& preset, bool automatic)
{
    KernelLists lists;
    for (const std::string_view name : preset.lists)
        lists.lists.push_back(*builtinKernelList(name));
    lists.lists.push_back(*builtinKernelList("prim"));
    lists.preset = &preset;
    lists.automatic = automatic;
    return lists;
}

std::string runtimeText(const KernelLists& lists, const std::map<std::string, int>& delegates)
{
    if (!lists.preset)
        return {};
    std::string text(lists.preset->title);
    if (!lists.automatic)
        return text + " (preset " + std::string(lists.preset->name) + ")";
    const std::vector<std::string> reasons = presetReasons(*lists.preset, delegates);
    if (!reasons.empty())
        return text + ", chosen for the program's " + joinedList(reasons) + " delegates";
    return text
        + (!delegates.empty() ? ", chosen because no runtime preset links the program's delegates' backends"
                              : ", chosen because the program has no delegates");
}

const std::vector<std::string_view>& knownBackendIds()
{
    static const std::vector<std::string_view> ids { "CoreMLBackend", "CudaBackend", "EnnBackend", "EthosUBackend",
        "MLXBackend", "MPSBackend", "MetalBackend", "NeuropilotBackend", "NeutronBackend", "OpenvinoBackend",
        "QnnBackend", "VgfBackend", "VulkanBackend", "XnnpackBackend" };
    return ids;
}

Result<KernelList> parseKernelList(std::string_view text, const std::string& name)
{
    KernelList list;
    list.name = name;
    const std::vector<Line> lines = splitLines(text);
    bool selected = false;
    bool functions = false;
    for (const Line& line : lines) {
        const std::string_view t = line.text;
        selected = selected || t.starts_with("operators:") || t.starts_with("include_all_operators:");
        functions = functions || t.starts_with("- op:") || t.starts_with("- func:");
    }
    std::optional<Error> error;
    if (selected) {
        list.origin = "selected_operators.yaml";
        error = readSelectedOperators(lines, list);
    } else if (functions) {
        list.origin = "functions.yaml";
        error = readFunctionsYaml(lines, list);
    } else {
        list.origin = "list of names";
        error = readPlainList(lines, list);
    }
    if (error)
        return *error;
    if (list.includesAll)
        list.warnings.push_back({ name
            + ": include_all_operators is true: the build kept every operator of its kernel libraries, so this "
              "list counts every operator as provided" });
    else if (list.operators.empty() && list.allOverloads.empty() && list.backends.empty())
        list.warnings.push_back({ name + ": no operator names or backend ids found" });
    return list;
}

Result<KernelList> readKernelListFile(const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    if ((*file)->size() > kMaxListBytes)
        return makeError(Error::Code::Limit, path,
            "kernel list of " + std::to_string((*file)->size()) + " bytes is larger than the 64 MiB this reader takes");
    const auto bytes = (*file)->bytes();
    return parseKernelList(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

Result<KernelLists> loadKernelLists(const std::vector<std::string>& specs, const std::vector<std::string>& presets)
{
    KernelLists lists;
    std::vector<std::string> wanted = specs;
    for (const std::string& name : presets) {
        const RuntimePreset* preset = findRuntimePreset(name);
        if (!preset) {
            std::string known;
            for (const RuntimePreset& p : runtimePresets())
                known += (known.empty() ? "" : ", ") + std::string(p.name);
            return makeError(Error::Code::Usage, name, "unknown runtime preset (presets: " + known + ")");
        }
        for (const std::string_view list : preset->lists)
            wanted.emplace_back(list);
    }
    if (wanted.empty())
        wanted.emplace_back("portable");
    auto present = [&](const std::string& name) {
        return std::any_of(lists.lists.begin(), lists.lists.end(), [&](const KernelList& l) { return l.name == name; });
    };
    for (const std::string& spec : wanted) {
        if (present(spec))
            continue;
        if (auto builtin = builtinKernelList(spec)) {
            lists.lists.push_back(std::move(*builtin));
            continue;
        }
        auto list = readKernelListFile(spec);
        if (!list)
            return list.error();
        lists.lists.push_back(std::move(list).value());
    }
    if (!present("prim"))
        lists.lists.push_back(*builtinKernelList("prim"));
    if (specs.empty() && presets.size() == 1)
        lists.preset = findRuntimePreset(presets.front());
    return lists;
}

} // namespace etscope::core
