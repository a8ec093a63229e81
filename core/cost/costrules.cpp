// SPDX-License-Identifier: MIT
#include "core/cost/costrules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace etscope::core::cost {

namespace {

/// a · b, nullopt on overflow.
std::optional<std::uint64_t> times(std::uint64_t a, std::uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        return std::nullopt;
    return a * b;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

Work shapeProblem(std::string_view what, std::span<const std::int64_t> shape)
{
    Work work;
    work.problem = std::string(what) + " " + shapeProduct(shape)
        + (std::any_of(shape.begin(), shape.end(), [](std::int64_t d) { return d < 0; })
                ? " has a dynamic (negative) dimension"
                : " has too many elements to count");
    return work;
}

/// ops = factor · elements(shape), the shared body of the per-element rules.
Work perElement(std::span<const std::int64_t> shape, std::uint64_t factor, std::string_view what)
{
    const auto n = elementCount(shape);
    if (!n)
        return shapeProblem(what, shape);
    const auto ops = times(*n, factor);
    if (!ops)
        return shapeProblem(what, shape);
    Work work;
    work.ops = *ops;
    work.formula = (factor == 1 ? "" : std::to_string(factor) + " × ") + shapeProduct(shape) + " " + std::string(what)
        + " elements = " + std::to_string(*ops) + " ops";
    return work;
}

} // namespace

std::optional<std::uint64_t> elementCount(std::span<const std::int64_t> shape)
{
    std::uint64_t n = 1;
    for (const std::int64_t d : shape) {
        if (d < 0)
            return std::nullopt;
        const auto next = times(n, static_cast<std::uint64_t>(d));
        if (!next)
            return std::nullopt;
        n = *next;
    }
    return n;
}

std::string shapeProduct(std::span<const std::int64_t> shape)
{
    if (shape.empty())
        return "1";
    std::string out;
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? "·" : "") + std::to_string(shape[i]);
    return out;
}

std::optional<int> dtypeBits(std::string_view dtype)
{
    const std::string name = lower(dtype);
    if (name.empty())
        return std::nullopt;
    // Names without a width (ExecuTorch's ScalarType names, core/util/scalartype.cpp; Core ML's).
    static constexpr std::pair<std::string_view, int> kNamed[] = { { "float", 32 }, { "double", 64 }, { "half", 16 },
        { "bool", 8 }, { "byte", 8 }, { "char", 8 }, { "short", 16 }, { "int", 32 }, { "long", 64 }, { "bfloat16", 16 },
        { "bf16", 16 }, { "quint4x2", 8 }, { "bits8", 8 } };
    for (const auto& [n, bits] : kNamed)
        if (name == n)
            return bits;
    // Otherwise the last run of digits is the width: fp32, int8, qcint4, INT16, uint8, fp16, FP8.
    std::size_t end = name.size();
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(name[end - 1])))
        --end;
    std::size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(name[begin - 1])))
        --begin;
    if (begin == end)
        return std::nullopt;
    int bits = 0;
    std::from_chars(name.data() + begin, name.data() + end, bits);
    if (bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16 || bits == 32 || bits == 48 || bits == 64)
        return bits;
    return std::nullopt;
}

std::optional<std::uint64_t> tensorBytes(std::string_view dtype, std::span<const std::int64_t> shape)
{
    const auto bits = dtypeBits(dtype);
    const auto n = elementCount(shape);
    if (!bits || !n)
        return std::nullopt;
    const auto total = times(*n, static_cast<std::uint64_t>(*bits));
    if (!total)
        return std::nullopt;
    return (*total + 7) / 8;
}

std::optional<Shape> parseIntList(std::string_view text)
{
    Shape out;
    std::size_t i = 0;
    bool any = false;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))
            || (c == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            std::int64_t value = 0;
            const auto [end, error] = std::from_chars(text.data() + i, text.data() + text.size(), value);
            if (error != std::errc())
                return std::nullopt;
            out.push_back(value);
            any = true;
            i = static_cast<std::size_t>(end - text.data());
            continue;
        }
        ++i;
    }
    if (!any)
        return std::nullopt;
    return out;
}

std::optional<ParsedMeta> parseMetaText(std::string_view text)
{
    const std::size_t open = text.find('[');
    if (open == std::string_view::npos)
        return std::nullopt;
    const std::size_t close = text.find(']', open);
    if (close == std::string_view::npos)
        return std::nullopt;
    ParsedMeta meta;
    const std::string_view inside = text.substr(open + 1, close - open - 1);
    if (inside.find_first_not_of(' ') != std::string_view::npos) {
        for (const char c : inside)
            if (!std::isdigit(static_cast<unsigned char>(c)) && c != ',' && c != ' ' && c != '-')
                return std::nullopt; // a symbolic dimension: no shape
        auto shape = parseIntList(inside);
        if (!shape)
            return std::nullopt;
        meta.shape = std::move(*shape);
    }
    // The dtype: the word just before the bracket ("fp32 [", "INT8 [").
    std::size_t end = open;
    while (end > 0 && text[end - 1] == ' ')
        --end;
    std::size_t begin = end;
    while (begin > 0 && text[begin - 1] != ' ' && text[begin - 1] != ':' && text[begin - 1] != '(')
        --begin;
    meta.dtype = std::string(text.substr(begin, end - begin));
    return meta;
}

Work dotProductWork(
    std::span<const std::int64_t> output, std::span<const std::int64_t> reductionFactors, std::string_view what)
{
    const auto outputs = elementCount(output);
    if (!outputs)
        return shapeProblem("output", output);
    const auto reduction = elementCount(reductionFactors);
    if (!reduction)
        return shapeProblem("reduction", reductionFactors);
    const auto macs = times(*outputs, *reduction);
    if (!macs)
        return shapeProblem("output", output);
    Work work;
    work.macs = *macs;
    work.formula = shapeProduct(output) + " outputs × " + std::string(what) + " " + shapeProduct(reductionFactors)
        + " = " + std::to_string(*macs) + " MACs";
    return work;
}

Work transposedConvolutionWork(
    std::span<const std::int64_t> input, std::int64_t outChannelsPerGroup, std::span<const std::int64_t> kernel)
{
    Shape factors { outChannelsPerGroup };
    factors.insert(factors.end(), kernel.begin(), kernel.end());
    const auto inputs = elementCount(input);
    if (!inputs)
        return shapeProblem("input", input);
    const auto perInput = elementCount(factors);
    if (!perInput)
        return shapeProblem("kernel", factors);
    const auto macs = times(*inputs, *perInput);
    if (!macs)
        return shapeProblem("input", input);
    Work work;
    work.macs = *macs;
    work.formula = shapeProduct(input) + " inputs × (Cout/groups)·kernel " + shapeProduct(factors) + " = "
        + std::to_string(*macs) + " MACs";
    return work;
}

Work poolingWork(std::span<const std::int64_t> output, std::span<const std::int64_t> window)
{
    const auto taps = elementCount(window);
    if (!taps || *taps == 0)
        return shapeProblem("window", window);
    Work work = perElement(output, *taps, "output");
    if (work.ok())
        work.formula = shapeProduct(output) + " outputs × window " + shapeProduct(window) + " = "
            + std::to_string(work.ops) + " ops";
    return work;
}

Work globalPoolingWork(std::span<const std::int64_t> input)
{
    return perElement(input, 1, "input");
}

Work elementwiseWork(std::span<const std::int64_t> output)
{
    return perElement(output, 1, "output");
}

Work reductionWork(std::span<const std::int64_t> input)
{
    return perElement(input, 1, "input");
}

Work softmaxWork(std::span<const std::int64_t> input)
{
    return perElement(input, 5, "input");
}

Work layerNormWork(std::span<const std::int64_t> input)
{
    return perElement(input, 6, "input");
}

Work rmsNormWork(std::span<const std::int64_t> input)
{
    return perElement(input, 3, "input");
}

Work batchNormWork(std::span<const std::int64_t> input)
{
    return perElement(input, 2, "input");
}

Work resizeWork(std::span<const std::int64_t> output, int taps)
{
    return perElement(output, static_cast<std::uint64_t>(std::max(1, taps)), "output");
}

Work attentionWork(
    std::span<const std::int64_t> query, std::span<const std::int64_t> key, std::span<const std::int64_t> value)
{
    Work work;
    if (query.size() < 2 || key.size() < 2 || value.size() < 2) {
        work.problem = "attention needs query, key and value of rank 2 or more";
        return work;
    }
    const std::int64_t l = query[query.size() - 2];
    const std::int64_t e = query.back();
    const std::int64_t s = key[key.size() - 2];
    const std::int64_t ev = value.back();
    const Shape batchShape(query.begin(), query.end() - 2);
    const auto batch = elementCount(batchShape);
    const auto scores = batch ? elementCount(Shape { static_cast<std::int64_t>(*batch), l, s }) : std::nullopt;
    const auto qk = scores ? times(*scores, static_cast<std::uint64_t>(std::max<std::int64_t>(e, 0))) : std::nullopt;
    const auto pv = scores ? times(*scores, static_cast<std::uint64_t>(std::max<std::int64_t>(ev, 0))) : std::nullopt;
    if (e < 0 || ev < 0 || !qk || !pv || *qk > std::numeric_limits<std::uint64_t>::max() - *pv
        || *scores > std::numeric_limits<std::uint64_t>::max() / 5)
        return shapeProblem("query", query);
    work.macs = *qk + *pv;
    work.ops = 5 * *scores;
    work.formula = "B·L·S·E + B·L·S·Ev = " + shapeProduct(batchShape) + "·" + std::to_string(l) + "·"
        + std::to_string(s) + "·(" + std::to_string(e) + " + " + std::to_string(ev) + ") = " + std::to_string(work.macs)
        + " MACs; 5·B·L·S = " + std::to_string(work.ops) + " ops (softmax)";
    return work;
}

Work dataMovementWork()
{
    return {}; // the kind says it: no formula to build for every reshape of a long method
}

} // namespace etscope::core::cost
