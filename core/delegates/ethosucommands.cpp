// SPDX-License-Identifier: MIT
// Replays an Ethos-U command stream. Register writes update a register file; each operation
// command reads the registers it uses, as the NPU does when it is kicked. The opcodes and bit
// fields are in ethosuregisters.h (with their sources).
//
// Byte ranges (for the data-flow edges): a feature map of H×W×C elements at base B with strides
// (x, y, c) covers, per tile, [B + lowest offset, B + highest offset + element size), where the
// offset of (h, w, ch) is h·y + w·x + ch·element size (NHWC) or h·y + w·x + (ch / 16)·c +
// (ch % 16)·element size (NHCWB16), as the Linux ethosu_gem.c validator computes it. The range
// spans the gaps between rows, so it can only claim too much, never miss a byte. The extent an
// operation reads follows the hardware: a convolution or pooling reads (OFM − 1)·stride +
// dilated kernel − padding rows and columns; an elementwise operation reads the OFM extent, 1 on
// a broadcast axis. Tiles split a feature map at WIDTH0 and HEIGHT0/HEIGHT1 (U55 and U85's 2×2
// layout; U85's 3×1 layout splits rows only). DMA ranges are [address, address + length) for a
// 1D transfer and the ethosu_gem.c bound (length + stride)·size per further dimension otherwise.
#include "core/delegates/ethosucommands.h"
#include "core/delegates/ethosuregisters.h"
#include "core/util/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <concepts>
#include <cstdio>
#include <cstring>

namespace etscope::core::ethosu {

namespace {

using namespace code;

constexpr std::size_t kMaxWarnings = 20;

std::string hex(std::uint64_t value)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

std::int64_t signExtend(std::uint64_t value, int bits)
{
    const std::uint64_t sign = 1ull << (bits - 1);
    return static_cast<std::int64_t>((value ^ sign) - sign);
}

/// One attribute's text, built in a fixed buffer without heap allocations (the decoder formats
/// some twenty per operation); cut at its capacity.
class Text {
public:
    Text& operator<<(std::string_view text)
    {
        const std::size_t n = std::min(text.size(), m_buffer.size() - m_size);
        std::memcpy(m_buffer.data() + m_size, text.data(), n);
        m_size += n;
        return *this;
    }
    template <std::integral T>
    requires(!std::same_as<T, char> && !std::same_as<T, bool>) Text& operator<<(T value)
    {
        const auto [end, error] = std::to_chars(m_buffer.data() + m_size, m_buffer.data() + m_buffer.size(), value);
        if (error == std::errc())
            m_size = static_cast<std::size_t>(end - m_buffer.data());
        return *this;
    }
    Text& hex(std::uint64_t value)
    {
        *this << "0x";
        const auto [end, error] = std::to_chars(m_buffer.data() + m_size, m_buffer.data() + m_buffer.size(), value, 16);
        if (error == std::errc())
            m_size = static_cast<std::size_t>(end - m_buffer.data());
        return *this;
    }
    std::string_view view() const { return { m_buffer.data(), m_size }; }

private:
    std::array<char, 176> m_buffer;
    std::size_t m_size = 0;
};

/// The register file: the last value written by each short and long command.
struct Registers {
    std::array<std::uint16_t, 1024> shortValue {};
    std::array<std::uint64_t, 1024> longValue {}; ///< first word's parameter << 32 | payload

    std::uint16_t param(std::uint16_t c) const { return shortValue[c & 0x3FF]; }
    std::int64_t signedParam(std::uint16_t c) const { return signExtend(param(c), 16); }
    std::uint32_t payload(std::uint16_t c) const { return static_cast<std::uint32_t>(longValue[c & 0x3FF]); }
    std::uint16_t longParam(std::uint16_t c) const { return static_cast<std::uint16_t>(longValue[c & 0x3FF] >> 32); }
    /// 40-bit address: bits 0–7 of the first word's parameter above the payload.
    std::uint64_t address(std::uint16_t c) const
    {
        return (static_cast<std::uint64_t>(longParam(c) & 0xFF) << 32) | payload(c);
    }
    std::int64_t signedAddress(std::uint16_t c) const { return signExtend(address(c), 40); }
};

struct FeatureMap {
    const char* role = "";
    int region = 0;
    std::array<std::uint64_t, 4> base {};
    std::int64_t strideX = 0;
    std::int64_t strideY = 0;
    std::int64_t strideC = 0;
    std::int64_t height0 = 1; ///< tile sizes (the *_M1 registers + 1)
    std::int64_t height1 = 1;
    std::int64_t width0 = 1;
    std::int64_t height = 1; ///< the extent the operation uses
    std::int64_t width = 1;
    std::int64_t depth = 1;
    bool isSigned = false;
    int bits = 8;
    bool nhcwb16 = false;
    int storage = 0; ///< U85: 0 2×2 tiles, 1 3×1 tiles, 2 chained, 3 none
    int transpose = 0; ///< U85 OFM: the order the (h, w, c) axes are stored in, 0 = HWC
    int reverse = 0; ///< U85 OFM: 0 none, 1 H, 2 W, 3 C
    std::int64_t zeroPoint = 0;

    std::int64_t elementSize() const { return bits / 8; }
    std::string dtype() const { return (isSigned ? "int" : "uint") + std::to_string(bits); }
    TensorMeta meta() const { return { dtype(), { 1, height, width, depth } }; }
};

struct Which {
    const char* role;
    std::uint16_t region, precision, zeroPoint, width0, height0, height1;
    std::uint16_t base0, strideX, strideY, strideC;
};
constexpr Which kIfm { "IFM", kIfmRegion, kIfmPrecision, kIfmZeroPoint, kIfmWidth0M1, kIfmHeight0M1, kIfmHeight1M1,
    kIfmBase0, kIfmStrideX, kIfmStrideY, kIfmStrideC };
constexpr Which kIfm2 { "IFM2", kIfm2Region, kIfm2Precision, kIfm2ZeroPoint, kIfm2Width0M1, kIfm2Height0M1,
    kIfm2Height1M1, kIfm2Base0, kIfm2StrideX, kIfm2StrideY, kIfm2StrideC };
constexpr Which kOfm { "OFM", kOfmRegion, kOfmPrecision, kOfmZeroPoint, kOfmWidth0M1, kOfmHeight0M1, kOfmHeight1M1,
    kOfmBase0, kOfmStrideX, kOfmStrideY, kOfmStrideC };

class Replayer {
public:
    Replayer(std::span<const std::uint8_t> bytes, Arch arch)
        : m_bytes(bytes)
        , m_arch(arch)
    {
    }
    CommandStream run();

private:
    bool u85() const { return m_arch == Arch::U85; }
    void warn(std::string text, std::uint64_t at);
    FeatureMap featureMap(const Which& which) const;
    void addFeatureMap(Operation& op, const FeatureMap& fm, bool write) const;
    void addBuffer(Operation& op, const char* role, int region, std::uint16_t baseCode, std::uint16_t lengthCode) const;
    void kernelFacts(Operation& op, std::int64_t& strideX, std::int64_t& strideY, std::int64_t& kernelW,
        std::int64_t& kernelH) const;
    void activationFacts(Operation& op, const FeatureMap& ofm) const;
    void blockFacts(Operation& op) const;
    void scaleFacts(Operation& op, std::uint16_t c, const char* name) const;
    Operation started(OpKind kind) const;
    Operation kernelOperation(OpKind kind, std::uint16_t param);
    Operation elementwiseOperation(std::uint16_t param);
    Operation resizeOperation(std::uint16_t param);
    Operation dmaOperation();

    std::span<const std::uint8_t> m_bytes;
    Arch m_arch;
    Registers m_regs;
    CommandStream m_out;
    std::uint32_t m_index = 0; ///< of the command being replayed
    std::uint64_t m_at = 0; ///< its byte offset
};

void Replayer::warn(std::string text, std::uint64_t at)
{
    if (m_out.warnings.size() < kMaxWarnings)
        m_out.warnings.push_back({ std::move(text), at });
    else if (m_out.warnings.size() == kMaxWarnings)
        m_out.warnings.push_back({ "further command stream warnings left out", at });
}

Operation Replayer::started(OpKind kind) const
{
    Operation op;
    op.kind = kind;
    op.commandIndex = m_index;
    op.offset = m_at;
    op.attributes.add("command index", std::to_string(m_index));
    return op;
}

FeatureMap Replayer::featureMap(const Which& which) const
{
    FeatureMap fm;
    fm.role = which.role;
    fm.region = m_regs.param(which.region) & 0x7;
    for (std::uint16_t t = 0; t < 4; ++t)
        fm.base[t] = m_regs.address(static_cast<std::uint16_t>(which.base0 + t));
    fm.strideX = m_regs.signedAddress(which.strideX);
    fm.strideY = m_regs.signedAddress(which.strideY);
    fm.strideC = m_regs.signedAddress(which.strideC);
    fm.width0 = m_regs.param(which.width0) + 1;
    fm.height0 = m_regs.param(which.height0) + 1;
    fm.height1 = m_regs.param(which.height1) + 1;
    const std::uint16_t precision = m_regs.param(which.precision);
    fm.isSigned = precision & 1;
    // OFM precision holds its size at bits 1–2, IFM and IFM2 precision at bits 2–3.
    const int sizeField = which.precision == kOfmPrecision ? (precision >> 1) & 3 : (precision >> 2) & 3;
    fm.bits = 8 << sizeField;
    fm.nhcwb16 = ((precision >> 6) & 3) == 1;
    if (u85()) {
        fm.storage = (precision >> 14) & 3;
        if (which.precision == kOfmPrecision) {
            fm.reverse = (precision >> 9) & 3;
            fm.transpose = (precision >> 11) & 7;
        }
    }
    const std::int64_t zp = m_regs.param(which.zeroPoint);
    fm.zeroPoint = fm.isSigned || fm.bits == 8 ? signExtend(static_cast<std::uint64_t>(zp), 16) : zp;
    return fm;
}

/// Lowest and highest byte offset of `count` steps of `stride`.
void spread(std::int64_t count, std::int64_t stride, std::int64_t& low, std::int64_t& high)
{
    const std::int64_t last = (std::max<std::int64_t>(count, 1) - 1) * stride;
    low += std::min<std::int64_t>(0, last);
    high += std::max<std::int64_t>(0, last);
}

/// U85 OFM transpose codes (activation_transpose): the stored axis order.
const char* transposeName(int code)
{
    static constexpr const char* kNames[] = { "HWC", "WHC", "HCW", "WCH", nullptr, nullptr, "CHW", "CWH" };
    return kNames[code & 7];
}

void Replayer::addFeatureMap(Operation& op, const FeatureMap& registers, bool write) const
{
    FeatureMap fm = registers;
    if (fm.transpose != 0 && transposeName(fm.transpose)) {
        // The stored tensor has the registers' axes in the named order.
        const std::string order = transposeName(fm.transpose);
        const auto axis = [&](char name) {
            return name == 'H' ? registers.height : name == 'W' ? registers.width : registers.depth;
        };
        fm.height = axis(order[0]);
        fm.width = axis(order[1]);
        fm.depth = axis(order[2]);
    }
    const std::string_view role = fm.role;
    op.attributes.add(role,
        (Text() << (fm.isSigned ? "int" : "uint") << fm.bits << " [1, " << fm.height << ", " << fm.width << ", "
                << fm.depth << (fm.nhcwb16 ? "] NHCWB16" : "] NHWC"))
            .view());
    if (fm.transpose != 0) {
        const char* name = transposeName(fm.transpose);
        op.attributes.add((Text() << role << " transpose").view(),
            name ? (Text() << name << " (stored shape)").view() : (Text() << "code " << fm.transpose).view());
    }
    if (fm.reverse != 0)
        op.attributes.add((Text() << role << " reverse").view(), fm.reverse == 1 ? "H" : fm.reverse == 2 ? "W" : "C");
    if (u85() && fm.storage >= 2) {
        op.attributes.add((Text() << role << " storage").view(), fm.storage == 2 ? "chained" : "none");
        if (fm.storage == 2)
            (write ? op.chainedOutput : op.chainedInput) = fm.meta();
        return; // not in memory
    }
    op.attributes.add(
        (Text() << role << " address").view(), (Text() << "region " << fm.region << " + ").hex(fm.base[0]).view());
    op.attributes.add((Text() << role << " strides").view(),
        (Text() << "x " << fm.strideX << ", y " << fm.strideY << ", c " << fm.strideC).view());
    op.attributes.add((Text() << role << " zero point").view(), (Text() << fm.zeroPoint).view());

    // Tiles: rows and columns each covers, then its byte range.
    struct Tile {
        int index;
        std::int64_t rows;
        std::int64_t cols;
    };
    std::vector<Tile> tiles;
    const std::int64_t w0 = std::min(fm.width, fm.width0);
    if (u85() && fm.storage == 1) {
        const std::int64_t r0 = std::min(fm.height, fm.height0);
        const std::int64_t r1 = std::min(fm.height - r0, fm.height1);
        tiles.push_back({ 0, r0, fm.width });
        if (r1 > 0)
            tiles.push_back({ 1, r1, fm.width });
        if (fm.height - r0 - r1 > 0)
            tiles.push_back({ 2, fm.height - r0 - r1, fm.width });
    } else {
        tiles.push_back({ 0, std::min(fm.height, fm.height0), w0 });
        if (fm.width > fm.width0)
            tiles.push_back({ 1, std::min(fm.height, fm.height1), fm.width - fm.width0 });
        if (fm.height > fm.height0)
            tiles.push_back({ 2, fm.height - fm.height0, w0 });
        if (fm.width > fm.width0 && fm.height > fm.height1)
            tiles.push_back({ 3, fm.height - fm.height1, fm.width - fm.width0 });
    }
    if (tiles.size() > 1) {
        Text list;
        for (const Tile& t : tiles)
            (list << (&t == &tiles.front() ? "" : ", ") << t.index << " at ")
                .hex(fm.base[static_cast<std::size_t>(t.index)]);
        op.attributes.add((Text() << role << " tiles").view(), list.view());
    }
    const std::int64_t element = fm.elementSize();
    for (const Tile& t : tiles) {
        std::int64_t low = 0;
        std::int64_t high = 0;
        spread(t.rows, fm.strideY, low, high);
        spread(t.cols, fm.strideX, low, high);
        if (fm.nhcwb16) {
            spread((fm.depth - 1) / 16 + 1, fm.strideC, low, high);
            high += std::min<std::int64_t>(fm.depth - 1, 15) * element;
        } else {
            high += (fm.depth - 1) * element;
        }
        const std::int64_t base = static_cast<std::int64_t>(fm.base[t.index]);
        const std::int64_t begin = std::max<std::int64_t>(0, base + low);
        const std::int64_t end = base + high + element;
        if (end > begin) {
            RegionAccess access { fm.role, fm.region, static_cast<std::uint64_t>(begin),
                static_cast<std::uint64_t>(end), fm.meta() };
            (write ? op.writes : op.reads).push_back(std::move(access));
        }
    }
}

void Replayer::addBuffer(
    Operation& op, const char* role, int region, std::uint16_t baseCode, std::uint16_t lengthCode) const
{
    const std::uint64_t base = m_regs.address(baseCode);
    const std::uint64_t length = m_regs.payload(lengthCode);
    op.attributes.add(role, ((Text() << "region " << region << " + ").hex(base) << ", " << length << " bytes").view());
    if (length > 0)
        op.reads.push_back(
            { role, region, base, base + length, { "uint8", { static_cast<std::int64_t>(length) } }, true });
}

void Replayer::kernelFacts(
    Operation& op, std::int64_t& strideX, std::int64_t& strideY, std::int64_t& kernelW, std::int64_t& kernelH) const
{
    const std::uint16_t s = m_regs.param(kKernelStride);
    strideX = (s & 1) + ((s >> 6) & 1) * 2 + 1;
    strideY = ((s >> 1) & 1) + ((s >> 9) & 1) * 2 + 1;
    const std::int64_t dilationX = ((s >> 3) & 1) + 1;
    const std::int64_t dilationY = ((s >> 4) & 1) + 1;
    // KERNEL_*_M1 hold the dilated extent − 1 (Vela: dilation · (size − 1)).
    kernelW = m_regs.param(kKernelWidthM1) + 1;
    kernelH = m_regs.param(kKernelHeightM1) + 1;
    const std::int64_t sizeW = (kernelW - 1) / dilationX + 1;
    const std::int64_t sizeH = (kernelH - 1) / dilationY + 1;
    op.attributes.add("kernel", (Text() << sizeW << "×" << sizeH).view());
    op.attributes.add("stride", (Text() << strideX << "×" << strideY).view());
    op.attributes.add("dilation", (Text() << dilationX << "×" << dilationY).view());
    op.attributes.add("padding",
        (Text() << "top " << m_regs.param(kIfmPadTop) << ", left " << m_regs.param(kIfmPadLeft) << ", bottom "
                << m_regs.param(kIfmPadBottom) << ", right " << m_regs.param(kIfmPadRight))
            .view());
    op.attributes.add("weight order", (s >> 2) & 1 ? "part-kernel first" : "depth first");
}

void Replayer::activationFacts(Operation& op, const FeatureMap& ofm) const
{
    const std::uint16_t a = m_regs.param(kActivation);
    const int function = a & 0x1F;
    Text name;
    if (u85()) {
        static constexpr const char* kNames[] = { "none", "LUT u8→u8", nullptr, nullptr, "LUT s8→s8", "LUT s8→s16",
            nullptr, "LUT s8→s32", "LUT s16→s16", "LUT s16→s32", "tanh", "sigmoid" };
        if (function < 12 && kNames[function])
            name << kNames[function];
        else
            name << "function " << function;
        if (function != 0 && function < 10)
            name << ", table " << ((a >> 5) & 7);
        if ((a >> 12) & 1)
            name << ", no clipping";
    } else {
        if (function == 0)
            name << "none";
        else if (function == 3)
            name << "tanh";
        else if (function == 4)
            name << "sigmoid";
        else if (function >= 16 && function <= 23)
            name << "table " << (function - 16);
        else
            name << "function " << function;
        static constexpr const char* kClip[]
            = { nullptr, nullptr, "clip to uint8", "clip to int8", nullptr, "clip to int16", nullptr, nullptr };
        const int clip = (a >> 12) & 7;
        if (clip != 0 && kClip[clip])
            name << ", " << kClip[clip];
        else if (clip != 0)
            name << ", clip range " << clip;
    }
    op.attributes.add("activation", name.view());
    const bool unsigned16 = !ofm.isSigned && ofm.bits == 16;
    const auto bound = [&](std::uint16_t c) {
        return unsigned16 ? static_cast<std::int64_t>(m_regs.param(c)) : m_regs.signedParam(c);
    };
    op.attributes.add("clip", (Text() << "[" << bound(kActivationMin) << ", " << bound(kActivationMax) << "]").view());
}

void Replayer::blockFacts(Operation& op) const
{
    op.attributes.add("block (h×w×c)",
        (Text() << m_regs.param(kOfmBlkHeightM1) + 1 << "×" << m_regs.param(kOfmBlkWidthM1) + 1 << "×"
                << m_regs.param(kOfmBlkDepthM1) + 1)
            .view());
    const int acc = m_regs.param(kAccFormat) & 3;
    static constexpr const char* kU55Acc[] = { "int32", "int40", "fp16", "format 3" };
    static constexpr const char* kU85Acc[] = { "int32", "int48", "format 2", "format 3" };
    op.attributes.add("accumulator", u85() ? kU85Acc[acc] : kU55Acc[acc]);
}

void Replayer::scaleFacts(Operation& op, std::uint16_t c, const char* name) const
{
    const std::uint16_t p = m_regs.longParam(c);
    const std::uint32_t scale = u85() ? m_regs.payload(c) & 0x7FFFFFFF : m_regs.payload(c);
    op.attributes.add(name, (Text() << "scale " << scale << ", shift " << (p & 0x3F)).view());
}

Operation Replayer::kernelOperation(OpKind kind, std::uint16_t param)
{
    Operation op = started(kind);
    const FeatureMap ofmRegs = featureMap(kOfm);
    FeatureMap ofm = ofmRegs;
    ofm.height = m_regs.param(kOfmHeightM1) + 1;
    ofm.width = m_regs.param(kOfmWidthM1) + 1;
    ofm.depth = m_regs.param(kOfmDepthM1) + 1;
    std::int64_t strideX = 1, strideY = 1, kernelW = 1, kernelH = 1;
    kernelFacts(op, strideX, strideY, kernelW, kernelH);

    FeatureMap ifm = featureMap(kIfm);
    ifm.depth = m_regs.param(kIfmDepthM1) + 1;
    ifm.height = std::max<std::int64_t>(
        1, (ofm.height - 1) * strideY + kernelH - m_regs.param(kIfmPadTop) - m_regs.param(kIfmPadBottom));
    ifm.width = std::max<std::int64_t>(
        1, (ofm.width - 1) * strideX + kernelW - m_regs.param(kIfmPadLeft) - m_regs.param(kIfmPadRight));
    const int upscale = m_regs.param(kIfmUpscale) & 3;
    if (upscale != 0) {
        ifm.height = (ifm.height + 1) / 2;
        ifm.width = (ifm.width + 1) / 2;
        op.attributes.add("IFM upscale", upscale == 1 ? "nearest" : "zeros");
    }

    const std::string kernelText(op.attributes[1].value);
    const std::string strideText = strideX == 1 && strideY == 1
        ? ""
        : (strideX == strideY ? " /" + std::to_string(strideX) : " /" + std::string(op.attributes[2].value));
    bool readsIfm = true;
    bool weightsFromIfm2 = false;
    switch (kind) {
    case OpKind::Conv:
        op.opType = "NPU Conv2D";
        op.mode = "conv";
        weightsFromIfm2 = u85() && (param & 1);
        op.label = (weightsFromIfm2 ? "MatMul " : "Conv " + kernelText) + strideText;
        break;
    case OpKind::Depthwise:
        op.opType = "NPU Depthwise";
        op.mode = "depthwise";
        op.label = "Depthwise " + kernelText + strideText;
        break;
    default: {
        const int mode = param & 7;
        static constexpr const char* kModes[]
            = { "max", "avg", "reduce sum", "sum", "none", "min", "argmax x", "argmax y" };
        const bool known = u85() ? true : mode <= 2;
        op.mode = known ? kModes[mode] : "mode " + std::to_string(param);
        op.opType = "NPU Pool (" + op.mode + ")";
        static constexpr const char* kLabels[]
            = { "MaxPool", "AvgPool", "ReduceSum", "SumPool", "NullPool", "MinPool", "ArgMax x", "ArgMax y" };
        op.label = (known ? std::string(kLabels[mode]) : "Pool " + op.mode) + " " + kernelText + strideText;
        // A pool without a mode reads no IFM (ethosu_gem.c: use_ifm = mode != NONE).
        readsIfm = !(u85() && mode == 4);
        op.attributes.add("pooling", op.mode);
        break;
    }
    }
    if (readsIfm)
        addFeatureMap(op, ifm, false);
    if (weightsFromIfm2) {
        FeatureMap ifm2 = featureMap(kIfm2);
        ifm2.height = 1;
        ifm2.width = ifm.depth;
        ifm2.depth = ofm.depth;
        addFeatureMap(op, ifm2, false);
    }
    addFeatureMap(op, ofm, true);
    if (kind == OpKind::Conv || kind == OpKind::Depthwise) {
        if (!weightsFromIfm2) {
            const int region = m_regs.param(kWeightRegion) & 7;
            addBuffer(op, "weights", region, kWeightBase, kWeightLength);
            if (m_regs.payload(kWeight1Length))
                addBuffer(op, "weights 1", region, kWeight1Base, kWeight1Length);
            if (u85() && m_regs.payload(kScale1OrWeight2Length))
                addBuffer(op, "weights 2", region, kScale1OrWeight2Base, kScale1OrWeight2Length);
            if (u85() && m_regs.payload(kWeight3Length))
                addBuffer(op, "weights 3", region, kWeight3Base, kWeight3Length);
        }
    }
    // Per-channel scales are read unless the OFM precision asks for the global scale (bit 8).
    const bool globalScale = (m_regs.param(kOfmPrecision) >> 8) & 1;
    if (!globalScale) {
        const int region = m_regs.param(kScaleRegion) & 7;
        addBuffer(op, "scales", region, kScaleBase, kScaleLength);
        if (!u85() && m_regs.payload(kScale1OrWeight2Length))
            addBuffer(op, "scales 1", region, kScale1OrWeight2Base, kScale1OrWeight2Length);
    } else {
        scaleFacts(op, kOfmScale, "OFM scale");
    }
    activationFacts(op, ofm);
    blockFacts(op);
    return op;
}

Operation Replayer::elementwiseOperation(std::uint16_t param)
{
    Operation op = started(OpKind::Elementwise);
    const int mode = param & 0x3F;
    static constexpr const char* kModes[]
        = { "mul", "add", "sub", "min", "max", "leaky relu", "abs", "clz", "shr", "shl", "lsr", "div" };
    std::string name;
    if (mode <= 9 || (u85() && mode <= 11))
        name = kModes[mode];
    else if (u85() && mode >= 16 && mode <= 19)
        name = std::array<const char*, 4> { "cmp eq", "cmp ne", "cmp ge",
            "cmp gt" }[static_cast<std::size_t>(mode - 16)];
    else if (u85() && mode >= 33 && mode <= 36)
        name = std::array<const char*, 4> { "and", "or", "xor", "not" }[static_cast<std::size_t>(mode - 33)];
    else if (u85() && mode == 42)
        name = "and not";
    else
        name = "mode " + std::to_string(mode);
    op.mode = name;
    op.opType = "NPU Elementwise (" + name + ")";
    std::string label = name;
    label[0] = static_cast<char>(label[0] - 'a' + 'A');
    op.label = label;

    FeatureMap ofm = featureMap(kOfm);
    ofm.height = m_regs.param(kOfmHeightM1) + 1;
    ofm.width = m_regs.param(kOfmWidthM1) + 1;
    ofm.depth = m_regs.param(kOfmDepthM1) + 1;
    const auto broadcastInto = [&](FeatureMap& fm, std::uint16_t b) {
        fm.height = (b & 1) ? 1 : ofm.height;
        fm.width = (b & 2) ? 1 : ofm.width;
        fm.depth = (b & 4) ? 1 : ofm.depth;
    };
    const auto broadcastText = [](std::uint16_t b) {
        std::string out;
        for (const auto& [bit, axis] : { std::pair { 1, "H" }, std::pair { 2, "W" }, std::pair { 4, "C" } })
            if (b & bit)
                out += (out.empty() ? "" : ", ") + std::string(axis);
        return out.empty() ? std::string("none") : out;
    };

    const bool unary = mode == 5 || mode == 6 || mode == 7 || (u85() && mode == 36);
    FeatureMap ifm = featureMap(kIfm);
    const std::uint16_t ifmBroadcast = u85() ? m_regs.param(kIfmBroadcast) : 0;
    const bool ifmScalar = u85() && (ifmBroadcast & 0xF) == 8;
    broadcastInto(ifm, ifmScalar ? 0 : ifmBroadcast);
    if (!ifmScalar)
        addFeatureMap(op, ifm, false);
    else
        op.attributes.add("IFM", "scalar " + std::to_string(m_regs.payload(kOpScalar)));
    if (u85() && ifmBroadcast && !ifmScalar)
        op.attributes.add("IFM broadcast", broadcastText(ifmBroadcast));

    if (!unary) {
        const std::uint16_t b = m_regs.param(kIfm2Broadcast);
        const bool scalar = u85() ? (b & 0xF) == 8 : (b & 0x80) != 0;
        if (scalar) {
            const std::int64_t value
                = u85() ? static_cast<std::int32_t>(m_regs.payload(kOpScalar)) : m_regs.signedParam(kIfm2Scalar);
            op.attributes.add("IFM2", "scalar " + std::to_string(value));
            op.label += " scalar";
        } else {
            FeatureMap ifm2 = featureMap(kIfm2);
            broadcastInto(ifm2, b);
            addFeatureMap(op, ifm2, false);
            op.attributes.add("IFM2 broadcast", broadcastText(b));
        }
        if (!u85() && (b & 0x40))
            op.attributes.add("operand order", "reversed (IFM2 first)");
    }
    addFeatureMap(op, ofm, true);
    if (u85()) {
        scaleFacts(op, kOpaScaleOrIfmScale, "IFM scale");
        if (!unary)
            scaleFacts(op, kOpbScaleOrIfm2Scale, "IFM2 scale");
    } else {
        scaleFacts(op, kOpaScaleOrIfmScale, "OPA scale");
    }
    scaleFacts(op, kOfmScale, "OFM scale");
    activationFacts(op, ofm);
    blockFacts(op);
    return op;
}

Operation Replayer::resizeOperation(std::uint16_t param)
{
    Operation op = started(OpKind::Resize);
    static constexpr const char* kModes[] = { "bilinear", "replicate", "nearest", "mode 3" };
    op.mode = kModes[param & 3];
    op.opType = "NPU Resize (" + op.mode + ")";
    op.label = "Resize " + op.mode;
    FeatureMap ifm = featureMap(kIfm);
    ifm.height = ifm.height0;
    ifm.width = ifm.width0;
    ifm.depth = m_regs.param(kIfmDepthM1) + 1;
    FeatureMap ofm = featureMap(kOfm);
    ofm.height = m_regs.param(kOfmHeightM1) + 1;
    ofm.width = m_regs.param(kOfmWidthM1) + 1;
    ofm.depth = m_regs.param(kOfmDepthM1) + 1;
    addFeatureMap(op, ifm, false);
    addFeatureMap(op, ofm, true);
    op.attributes.add("resize scale (x, y)",
        std::to_string(m_regs.param(kResizeXScaleNM1) + 1) + ", " + std::to_string(m_regs.param(kResizeYScaleNM1) + 1));
    op.attributes.add("resize offset (x, y)",
        std::to_string(signExtend(m_regs.param(kResizeXOffset) & 0xFFF, 12)) + ", "
            + std::to_string(signExtend(m_regs.param(kAbStartOrResizeYOffset) & 0xFFF, 12)));
    activationFacts(op, ofm);
    blockFacts(op);
    return op;
}

Operation Replayer::dmaOperation()
{
    Operation op = started(OpKind::Dma);
    op.mode = "dma";
    op.opType = "NPU DMA";
    const std::uint16_t srcRegion = m_regs.param(kDmaSrcRegion);
    const std::uint16_t dstRegion = m_regs.param(kDmaDstRegion);
    const std::uint64_t length = m_regs.address(kDmaLen);
    const int mode = (srcRegion >> 9) & 3;
    const std::int64_t size0 = m_regs.param(kDmaSize0);
    const std::int64_t size1 = m_regs.param(kDmaSize1);
    const auto extent = [&](std::uint16_t stride0, std::uint16_t stride1) {
        // ethosu_gem.c dma_length: (len + stride0) · size0, then (+ stride1) · size1.
        std::int64_t total = static_cast<std::int64_t>(std::min<std::uint64_t>(length, 1ull << 40));
        if (mode >= 1)
            total = (total + std::max<std::int64_t>(0, m_regs.signedAddress(stride0))) * size0;
        if (mode == 2)
            total = (total + std::max<std::int64_t>(0, m_regs.signedAddress(stride1))) * size1;
        return static_cast<std::uint64_t>(std::max<std::int64_t>(0, total));
    };
    const std::uint64_t srcBytes = extent(kDmaSkip0OrSrcStride0, kDmaSkip1OrSrcStride1);
    const std::uint64_t dstBytes = u85() ? extent(kDmaDstStride0, kDmaDstStride1) : srcBytes;
    // Region mode bit 8: 1 means the NPU's internal memory (U55/U65 SHRAM, e.g. a lookup table).
    const bool srcInternal = (srcRegion >> 8) & 1;
    const bool dstInternal = (dstRegion >> 8) & 1;
    const std::uint64_t src = m_regs.address(kDmaSrc);
    const std::uint64_t dst = m_regs.address(kDmaDst);
    const auto where = [](bool internal, int region, std::uint64_t address) {
        Text text;
        if (internal)
            text << "internal memory";
        else
            text << "region " << region;
        return (text << " + ").hex(address);
    };
    op.attributes.add("source", where(srcInternal, srcRegion & 7, src).view());
    op.attributes.add("destination", where(dstInternal, dstRegion & 7, dst).view());
    op.attributes.add("length", (Text() << length << " bytes").view());
    static constexpr const char* kModes[] = { "1D", "2D", "3D", "mode 3" };
    op.attributes.add("transfer", kModes[mode]);
    if (mode == 1)
        op.attributes.add("sizes", (Text() << size0).view());
    else if (mode == 2)
        op.attributes.add("sizes", (Text() << size0 << ", " << size1).view());
    op.label = "DMA " + formatBytes(length) + (dstInternal ? " → internal" : "");
    const TensorMeta srcMeta { "uint8", { static_cast<std::int64_t>(srcBytes) } };
    const TensorMeta dstMeta { "uint8", { static_cast<std::int64_t>(dstBytes) } };
    if (!srcInternal && srcBytes > 0)
        op.reads.push_back({ "source", srcRegion & 7, src, src + srcBytes, srcMeta, true });
    if (!dstInternal && dstBytes > 0)
        op.writes.push_back({ "destination", dstRegion & 7, dst, dst + dstBytes, dstMeta, true });
    return op;
}

CommandStream Replayer::run()
{
    const std::size_t words = m_bytes.size() / 4;
    m_out.operations.reserve(std::min<std::size_t>(words / 8, kMaxOperations));
    if (m_bytes.size() % 4)
        warn("the command stream ends in a partial word", words * 4);
    std::size_t i = 0;
    while (i < words) {
        const std::uint64_t at = i * 4;
        const std::uint32_t word = readLe32(m_bytes.data() + at);
        const std::uint16_t opcode = word & 0x3FF;
        const std::uint16_t param = static_cast<std::uint16_t>(word >> 16);
        const int control = (word >> 14) & 3;
        const bool longForm = control == 1;
        // The kernel's validator takes a payload word whenever bit 14 is set; so do we.
        const bool hasPayload = (word >> 14) & 1;
        const std::uint32_t index = m_out.commands++;
        m_index = index;
        m_at = at;
        if (hasPayload && i + 1 >= words) {
            warn("command " + std::to_string(index) + " at byte " + std::to_string(at)
                    + " is cut short: its payload word is missing",
                at);
            break;
        }
        const std::uint32_t payload = hasPayload ? readLe32(m_bytes.data() + at + 4) : 0;
        i += hasPayload ? 2 : 1;

        const bool known = ((word >> 10) & 0xF) == 0 && control <= 1 && !commandName(m_arch, opcode, longForm).empty();
        if (!known) {
            ++m_out.unknownCommands;
            Operation op = started(OpKind::Unknown);
            op.mode = "unknown";
            op.opType = "NPU unknown command";
            op.label = "unknown command " + hex(opcode);
            op.attributes.add("word", hex(word) + (hasPayload ? " " + hex(payload) : ""));
            warn("command " + std::to_string(index) + " at byte " + std::to_string(at) + " (" + hex(word)
                    + ") is not in the " + std::string(archName(m_arch)) + " command set",
                at);
            m_out.operations.push_back(std::move(op));
        } else if (longForm) {
            m_regs.longValue[opcode] = (static_cast<std::uint64_t>(param) << 32) | payload;
            if (opcode == kBranch) {
                Operation op = started(OpKind::Branch);
                op.mode = "branch";
                op.opType = "NPU Branch";
                op.label = "Branch";
                op.attributes.add("target", hex(payload));
                op.attributes.add("condition", std::to_string(param & 1));
                m_out.operations.push_back(std::move(op));
            }
        } else if (opcode >= 0x100) {
            m_regs.shortValue[opcode] = param;
        } else {
            std::optional<Operation> op;
            switch (opcode) {
            case kConv:
                op = kernelOperation(OpKind::Conv, param);
                break;
            case kDepthwise:
                op = kernelOperation(OpKind::Depthwise, param);
                break;
            case kPool:
                op = kernelOperation(OpKind::Pool, param);
                break;
            case kElementwise:
                op = elementwiseOperation(param);
                break;
            case kResize:
                op = resizeOperation(param);
                break;
            case kDmaStart:
                op = dmaOperation();
                break;
            case kStop: {
                Operation stop = started(OpKind::Stop);
                stop.mode = "stop";
                stop.opType = "NPU Stop";
                stop.label = "Stop";
                op = std::move(stop);
                m_out.stopped = true;
                break;
            }
            case kDmaWait:
                ++m_out.dmaWaits;
                break;
            case kKernelWait:
                ++m_out.kernelWaits;
                break;
            default: // IRQ, PMU mask: no data movement
                break;
            }
            if (op)
                m_out.operations.push_back(std::move(*op));
        }
        if (m_out.stopped)
            break;
        if (m_out.operations.size() >= kMaxOperations) {
            warn("the command stream has more than " + std::to_string(kMaxOperations)
                    + " operations; the rest is not shown",
                i * 4);
            break;
        }
    }
    return std::move(m_out);
}

} // namespace

CommandStream decodeCommands(std::span<const std::uint8_t> commands, Arch arch)
{
    return Replayer(commands, arch).run();
}

} // namespace etscope::core::ethosu
