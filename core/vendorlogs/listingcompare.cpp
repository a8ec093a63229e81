// SPDX-License-Identifier: MIT
// The register listing of a Vela log against ETScope's own decode of the same words
// (vendorjoin.h, compareListing): command by command by byte offset, then every fact of each
// operation that both show. The listing's fields are turned into ETScope's wording with the
// field meanings of the register map ETScope decodes with (core/delegates/ethosuregisters.h and
// ethosucommands.cpp cite the sources); the listing's enumerator names (ACTIVATION_TYPE_SIGNED,
// ACTIVATION_PRECISION_B8, KERNEL_DILATION_X2, …) are Vela's, read off the shared sample
// modelnova/rps_model_conversion_20260219_041725.log.
#include "core/vendorlogs/vendorjoin.h"

#include "core/util/text.h"

#include <algorithm>
#include <map>

namespace etscope::core::vendor {

namespace {

constexpr std::size_t kMaxDifferences = 500;

std::string hex(std::uint64_t value)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

std::int64_t signExtend(std::int64_t value, int bits)
{
    const auto u = static_cast<std::uint64_t>(value) & ((std::uint64_t(1) << bits) - 1);
    const std::uint64_t sign = std::uint64_t(1) << (bits - 1);
    return static_cast<std::int64_t>((u ^ sign) - sign);
}

/// The listing's register file: the last command of each name, as ETScope's decoder keeps the
/// last value of each register.
class ListedRegisters {
public:
    void set(const ListedCommand& c) { m_last[c.name] = &c; }
    std::optional<std::int64_t> number(std::string_view command, std::string_view field) const
    {
        const ListedField* f = find(command, field);
        return f ? parseInteger(f->value) : std::nullopt;
    }
    std::optional<std::string> text(std::string_view command, std::string_view field) const
    {
        const ListedField* f = find(command, field);
        return f ? std::optional<std::string>(f->value) : std::nullopt;
    }

private:
    const ListedField* find(std::string_view command, std::string_view field) const
    {
        const auto it = m_last.find(std::string(command));
        return it == m_last.end() ? nullptr : it->second->field(field);
    }
    std::map<std::string, const ListedCommand*> m_last;
};

class Comparer {
public:
    Comparer(const RegisterListing& listing, const EthosUStream& stream)
        : m_listing(listing)
        , m_stream(stream)
    {
    }
    StreamComparison run();

private:
    void differ(const ListedCommand* c, std::uint64_t offset, std::string what, std::string listed, std::string decoded)
    {
        if (m_out.differences.size() < kMaxDifferences)
            m_out.differences.push_back(
                { offset, c ? c->line : 0, std::move(what), std::move(listed), std::move(decoded) });
    }
    /// One field both show: counted, and a difference when unequal.
    void field(const ListedCommand& c, const std::string& what, const std::string& listed, const std::string& decoded)
    {
        ++m_out.fieldsCompared;
        ++m_out.comparedByField[what];
        if (listed == decoded)
            ++m_out.fieldsEqual;
        else
            differ(&c, c.offset, what, listed, decoded);
    }
    /// A fact of an operation: compared when the listing has what it needs; a fact the decoder
    /// does not show is a difference ("(not shown)").
    void fact(const ListedCommand& c, const ethosu::Operation& op, const std::string& name,
        const std::optional<std::string>& listed)
    {
        if (!listed)
            return;
        const auto decoded = op.attributes.find(name);
        field(c, name, *listed, decoded ? std::string(*decoded) : std::string("(not shown)"));
    }
    void featureMapFacts(const ListedCommand& c, const ethosu::Operation& op, const std::string& role, bool shape);
    void operationFacts(const ListedCommand& c, const ethosu::Operation& op);

    const RegisterListing& m_listing;
    const EthosUStream& m_stream;
    StreamComparison m_out;
    ListedRegisters m_regs;
};

void Comparer::featureMapFacts(const ListedCommand& c, const ethosu::Operation& op, const std::string& role, bool shape)
{
    const std::string prefix = "NPU_SET_" + role + "_";
    const auto type = m_regs.text(prefix + "PRECISION", "activation_type");
    const auto precision = m_regs.text(prefix + "PRECISION", "activation_precision");
    const auto format = m_regs.text(prefix + "PRECISION", "activation_format");
    const auto storage = m_regs.text(prefix + "PRECISION", "activation_storage");
    if (storage && (*storage == "ACTIVATION_STORAGE_CHAINED" || *storage == "ACTIVATION_STORAGE_NONE"))
        return; // not in memory: the decoder shows no address
    int bits = 0;
    if (precision && precision->size() > 22 && startsWith(*precision, "ACTIVATION_PRECISION_B"))
        bits = static_cast<int>(parseInteger(precision->substr(22)).value_or(0));
    const bool isSigned = type && *type == "ACTIVATION_TYPE_SIGNED";
    const auto region = m_regs.number(prefix + "REGION", "region");
    const auto base = m_regs.number(prefix + "BASE0", "addr");
    if (region && base)
        fact(c, op, role + " address",
            "region " + std::to_string(*region) + " + " + hex(static_cast<std::uint64_t>(*base)));
    const auto sx = m_regs.number(prefix + "STRIDE_X", "addr");
    const auto sy = m_regs.number(prefix + "STRIDE_Y", "addr");
    const auto sc = m_regs.number(prefix + "STRIDE_C", "addr");
    if (sx && sy && sc)
        fact(c, op, role + " strides",
            "x " + std::to_string(signExtend(*sx, 40)) + ", y " + std::to_string(signExtend(*sy, 40)) + ", c "
                + std::to_string(signExtend(*sc, 40)));
    if (const auto zp = m_regs.number(prefix + "ZERO_POINT", "zero_point"); zp && bits && type) {
        // As the decoder reads it: 16-bit two's complement for signed or 8-bit feature maps.
        const std::int64_t value = isSigned || bits == 8 ? signExtend(*zp, 16) : *zp;
        fact(c, op, role + " zero point", std::to_string(value));
    }
    if (!shape || !type || !bits || !format)
        return;
    auto h = m_regs.number(prefix + "HEIGHT_M1", "height_m1");
    auto w = m_regs.number(prefix + "WIDTH_M1", "width_m1");
    auto d = m_regs.number(prefix + "DEPTH_M1", "depth_m1");
    if (!h || !w || !d)
        return;
    std::int64_t dims[3] = { *h + 1, *w + 1, *d + 1 };
    // ACTIVATION_TRANSPOSE_<order>: the stored axis order of a U85 OFM.
    if (const auto transpose = m_regs.text(prefix + "PRECISION", "activation_transpose");
        transpose && startsWith(*transpose, "ACTIVATION_TRANSPOSE_") && transpose->size() == 24) {
        const std::string order = transpose->substr(21);
        const std::int64_t registers[3] = { dims[0], dims[1], dims[2] };
        for (int i = 0; i < 3; ++i)
            dims[i] = order[static_cast<std::size_t>(i)] == 'H' ? registers[0]
                : order[static_cast<std::size_t>(i)] == 'W'     ? registers[1]
                                                                : registers[2];
    }
    const std::string layout = *format == "ACTIVATION_FORMAT_NHCWB16" ? "NHCWB16" : "NHWC";
    fact(c, op, role,
        std::string(isSigned ? "int" : "uint") + std::to_string(bits) + " [1, " + std::to_string(dims[0]) + ", "
            + std::to_string(dims[1]) + ", " + std::to_string(dims[2]) + "] " + layout);
}

void Comparer::operationFacts(const ListedCommand& c, const ethosu::Operation& op)
{
    ++m_out.operationsCompared;
    using K = ethosu::OpKind;
    const K expected = c.name == "NPU_OP_CONV" ? K::Conv
        : c.name == "NPU_OP_DEPTHWISE"         ? K::Depthwise
        : c.name == "NPU_OP_POOL"              ? K::Pool
        : c.name == "NPU_OP_ELEMENTWISE"       ? K::Elementwise
        : c.name == "NPU_OP_RESIZE"            ? K::Resize
                                               : K::Dma;
    static constexpr const char* kKinds[]
        = { "Conv", "Depthwise", "Pool", "Elementwise", "Resize", "DMA", "Branch", "Unknown" };
    field(c, "operation kind", kKinds[static_cast<int>(expected)], kKinds[static_cast<int>(op.kind)]);
    if (expected == K::Dma) {
        if (const auto length = m_regs.number("NPU_SET_DMA0_LEN", "addr"))
            fact(c, op, "length", std::to_string(*length) + " bytes");
        // "region R + 0xADDR", or the NPU's internal memory (region mode internal).
        for (const auto& [role, which] : { std::pair { "source", "SRC" }, std::pair { "destination", "DST" } }) {
            const std::string regionCommand = std::string("NPU_SET_DMA0_") + which + "_REGION";
            const auto region = m_regs.number(regionCommand, "region");
            const auto mode = m_regs.text(regionCommand, "region_mode");
            const auto address = m_regs.number(std::string("NPU_SET_DMA0_") + which, "addr");
            if (region && mode && address)
                fact(c, op, role,
                    (*mode == "DMA_REGION_MODE_INTERNAL" ? std::string("internal memory")
                                                         : "region " + std::to_string(*region & 7))
                        + " + " + hex(static_cast<std::uint64_t>(*address)));
        }
        return;
    }
    if (expected == K::Resize)
        return;
    featureMapFacts(c, op, "OFM", true);
    if (expected != K::Elementwise)
        featureMapFacts(c, op, "IFM", false);
    if (expected == K::Conv || expected == K::Depthwise || expected == K::Pool) {
        const auto kw = m_regs.number("NPU_SET_KERNEL_WIDTH_M1", "width_m1");
        const auto kh = m_regs.number("NPU_SET_KERNEL_HEIGHT_M1", "height_m1");
        const auto dx = m_regs.text("NPU_SET_KERNEL_STRIDE", "dilation_x");
        const auto dy = m_regs.text("NPU_SET_KERNEL_STRIDE", "dilation_y");
        const auto dil = [](const std::optional<std::string>& t) { return t && *t == "KERNEL_DILATION_X2" ? 2 : 1; };
        if (kw && kh && dx && dy)
            fact(c, op, "kernel", std::to_string(*kw / dil(dx) + 1) + "×" + std::to_string(*kh / dil(dy) + 1));
        if (dx && dy)
            fact(c, op, "dilation", std::to_string(dil(dx)) + "×" + std::to_string(dil(dy)));
        const auto xl = m_regs.number("NPU_SET_KERNEL_STRIDE", "stride_x_lsb");
        const auto yl = m_regs.number("NPU_SET_KERNEL_STRIDE", "stride_y_lsb");
        const auto xm = m_regs.number("NPU_SET_KERNEL_STRIDE", "stride_x_msb").value_or(0);
        const auto ym = m_regs.number("NPU_SET_KERNEL_STRIDE", "stride_y_msb").value_or(0);
        if (xl && yl)
            fact(c, op, "stride", std::to_string(*xl + xm * 2 + 1) + "×" + std::to_string(*yl + ym * 2 + 1));
        const auto top = m_regs.number("NPU_SET_IFM_PAD_TOP", "pad");
        const auto left = m_regs.number("NPU_SET_IFM_PAD_LEFT", "pad");
        const auto bottom = m_regs.number("NPU_SET_IFM_PAD_BOTTOM", "pad");
        const auto right = m_regs.number("NPU_SET_IFM_PAD_RIGHT", "pad");
        if (top && left && bottom && right)
            fact(c, op, "padding",
                "top " + std::to_string(*top) + ", left " + std::to_string(*left) + ", bottom "
                    + std::to_string(*bottom) + ", right " + std::to_string(*right));
        if (const auto order = m_regs.text("NPU_SET_KERNEL_STRIDE", "weight_order"))
            fact(c, op, "weight order",
                *order == "WEIGHT_ORDER_PART_KERNEL_FIRST" ? "part-kernel first" : "depth first");
    }
    if (expected == K::Pool)
        if (const ListedField* mode = c.field("pooling_mode"); mode && startsWith(mode->value, "POOLING_MODE_")) {
            // The listing's POOLING_MODE_<NAME> and the decoder's words for the same modes.
            static constexpr std::pair<std::string_view, std::string_view> kModes[]
                = { { "MAX", "max" }, { "AVERAGE", "avg" }, { "REDUCE_SUM", "reduce sum" }, { "SUM", "sum" },
                      { "NONE", "none" }, { "MIN", "min" }, { "ARGMAX_X", "argmax x" }, { "ARGMAX_Y", "argmax y" } };
            const std::string_view name = std::string_view(mode->value).substr(13);
            for (const auto& [listed, decoded] : kModes)
                if (listed == name)
                    fact(c, op, "pooling", std::string(decoded));
        }
    // Weights and per-channel scales: "region R + 0xBASE, N bytes" where the decoder shows them.
    for (const auto& [role, which] : { std::pair { "weights", "WEIGHT" }, std::pair { "scales", "SCALE" } }) {
        if (!op.attributes.find(role))
            continue;
        const auto region = m_regs.number(std::string("NPU_SET_") + which + "_REGION", "region");
        const auto base = m_regs.number(std::string("NPU_SET_") + which + "_BASE", "addr");
        const auto length = m_regs.number(std::string("NPU_SET_") + which + "_LENGTH", "length");
        if (region && base && length)
            fact(c, op, role,
                "region " + std::to_string(*region & 7) + " + " + hex(static_cast<std::uint64_t>(*base)) + ", "
                    + std::to_string(*length) + " bytes");
    }
    const auto type = m_regs.text("NPU_SET_OFM_PRECISION", "activation_type");
    const auto precision = m_regs.text("NPU_SET_OFM_PRECISION", "activation_precision");
    const auto lo = m_regs.number("NPU_SET_ACTIVATION_MIN", "clip_boundary");
    const auto hi = m_regs.number("NPU_SET_ACTIVATION_MAX", "clip_boundary");
    if (type && precision && lo && hi) {
        const bool unsigned16 = *type == "ACTIVATION_TYPE_UNSIGNED" && *precision == "ACTIVATION_PRECISION_B16";
        const auto bound = [&](std::int64_t v) { return unsigned16 ? v : signExtend(v, 16); };
        fact(c, op, "clip", "[" + std::to_string(bound(*lo)) + ", " + std::to_string(bound(*hi)) + "]");
    }
    const auto bh = m_regs.number("NPU_SET_OFM_BLK_HEIGHT_M1", "height_m1");
    const auto bw = m_regs.number("NPU_SET_OFM_BLK_WIDTH_M1", "width_m1");
    const auto bd = m_regs.number("NPU_SET_OFM_BLK_DEPTH_M1", "depth_m1");
    if (bh && bw && bd)
        fact(c, op, "block (h×w×c)",
            std::to_string(*bh + 1) + "×" + std::to_string(*bw + 1) + "×" + std::to_string(*bd + 1));
    if (const auto acc = m_regs.text("NPU_SET_ACC_FORMAT", "acc_format")) {
        std::string name = *acc;
        if (startsWith(name, "ACC_FORMAT_")) {
            name = name.substr(11);
            if (name == "I32" || name == "I40" || name == "I48")
                name = "int" + name.substr(1);
            else if (name == "F16")
                name = "fp16";
        }
        fact(c, op, "accumulator", name);
    }
    if (op.attributes.find("OFM scale")) {
        const auto shift = m_regs.number("NPU_SET_OFM_SCALE", "shift");
        const auto scale = m_regs.number("NPU_SET_OFM_SCALE", "scale");
        if (shift && scale)
            fact(c, op, "OFM scale", "scale " + std::to_string(*scale) + ", shift " + std::to_string(*shift & 0x3F));
    }
}

StreamComparison Comparer::run()
{
    // ETScope's side: the commands as the decoder frames them (a payload word whenever bit 14
    // of the first word is set, ethosucommands.cpp) and named from its register map.
    struct Decoded {
        std::uint32_t word = 0;
        std::optional<std::uint32_t> payload;
        std::string name;
    };
    std::map<std::uint64_t, Decoded> decoded;
    const auto& bytes = m_stream.commands;
    const std::size_t words = bytes.size() / 4;
    for (std::size_t i = 0; i < words;) {
        Decoded d;
        d.word = readLe32(bytes.data() + i * 4);
        const bool hasPayload = (d.word >> 14) & 1;
        if (hasPayload && i + 1 >= words)
            break;
        if (hasPayload)
            d.payload = readLe32(bytes.data() + i * 4 + 4);
        const int control = static_cast<int>((d.word >> 14) & 3);
        d.name = ethosu::commandName(m_stream.arch, static_cast<std::uint16_t>(d.word & 0x3FF), control == 1);
        if (d.name.empty())
            d.name = "(unknown " + hex(d.word & 0xFFFF) + ")";
        decoded.emplace(i * 4, std::move(d));
        i += hasPayload ? 2 : 1;
    }
    m_out.listedCommands = m_listing.commands.size();
    m_out.decodedCommands = decoded.size();
    std::map<std::uint64_t, bool> seen;
    for (const ListedCommand& c : m_listing.commands) {
        const auto it = decoded.find(c.offset);
        if (it == decoded.end()) {
            ++m_out.onlyListed;
            differ(&c, c.offset, "command only in the listing", c.name, "");
            continue;
        }
        seen[c.offset] = true;
        const Decoded& d = it->second;
        const std::size_t before = m_out.fieldsCompared - m_out.fieldsEqual;
        field(c, "code", hex(c.code), hex(d.word & 0xFFFF));
        field(c, "parameter", hex(c.param), hex(d.word >> 16));
        field(c, "payload", c.payload ? hex(*c.payload) : "none", d.payload ? hex(*d.payload) : "none");
        field(c, "command name", c.name, d.name);
        if (m_out.fieldsCompared - m_out.fieldsEqual == before)
            ++m_out.equalCommands;
        else
            ++m_out.differentCommands;
        m_regs.set(c);
        if (c.name.starts_with("NPU_OP_") && c.name != "NPU_OP_STOP" && c.name != "NPU_OP_DMA_WAIT"
            && c.name != "NPU_OP_KERNEL_WAIT" && c.name != "NPU_OP_IRQ" && c.name != "NPU_OP_PMU_MASK") {
            const auto& ops = m_stream.decoded.operations;
            const auto op = std::lower_bound(ops.begin(), ops.end(), std::uint64_t(c.offset),
                [](const ethosu::Operation& o, std::uint64_t at) { return o.offset < at; });
            if (op == ops.end() || op->offset != c.offset) {
                ++m_out.fieldsCompared;
                differ(&c, c.offset, "operation", c.name, "(no operation decoded here)");
            } else {
                operationFacts(c, *op);
            }
        }
    }
    for (const auto& [offset, d] : decoded)
        if (!seen.count(offset)) {
            ++m_out.onlyDecoded;
            differ(nullptr, offset, "command only in the decode", "", d.name);
        }
    return std::move(m_out);
}

} // namespace

StreamComparison compareListing(const RegisterListing& listing, const EthosUStream& stream)
{
    return Comparer(listing, stream).run();
}

} // namespace etscope::core::vendor
