// SPDX-License-Identifier: MIT
// Replays an Ethos-U command stream. Register writes update a register file; each operation
// command reads the registers it uses, as the NPU does when it is kicked. The opcodes and bit
// fields are in ethosuregisters.h (with their sources).
//
// Bytes (for the data-flow edges): a feature map of H×W×C elements at base B with strides
// (x, y, c) covers, per tile, the bytes at B + h·y + w·x + ch·element size (NHWC) or
// B + h·y + w·x + (ch / 16)·c + (ch % 16)·element size (NHCWB16): each tile's access carries
// these as strided blocks (RegionAccess::blocks, expanded in ethosuflow.cpp) and, as its range,
// [B + lowest offset, B + highest offset + element size), as the Linux ethosu_gem.c validator
// bounds it. The extent an
// operation reads follows the hardware: a convolution or pooling reads (OFM − 1)·stride +
// dilated kernel − padding rows and columns; an elementwise operation reads the OFM extent, 1 on
// a broadcast axis. Tiles split a feature map at WIDTH0 and HEIGHT0/HEIGHT1 (U55 and U85's 2×2
// layout; U85's 3×1 layout splits rows only). A DMA touches LEN bytes per row: one row
// (1D), SIZE0 rows (2D) or SIZE1 blocks of SIZE0 rows (3D), each side at its own strides
// (ethosuoperations.cpp, dmaOperation, with the sources of that reading).
#include "core/delegates/ethosucommands.h"
#include "core/delegates/ethosureplayer.h"
#include "core/util/text.h"

namespace etscope::core::ethosu {

namespace replay {

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
            // The exact bytes: element (h, w, ch) of a tile sits at its base + h·y + w·x, plus
            // ch·size (NHWC) or (ch / 16)·c + (ch % 16)·size (NHCWB16) — Vela's get_address in
            // ethos-u-vela ethosu/vela/register_command_stream_util.py (github.com/nxp-imx/
            // ethos-u-vela @ 199e8e66). Channels beyond the depth (a brick's padding) are not touched.
            const AccessAxis cols { t.cols, fm.strideX };
            const AccessAxis rows { t.rows, fm.strideY };
            if (!fm.nhcwb16) {
                access.blocks.push_back({ base, fm.depth * element, { cols, rows, AccessAxis {} } });
            } else {
                const std::int64_t full = fm.depth / 16;
                const std::int64_t rest = fm.depth % 16;
                if (full > 0)
                    access.blocks.push_back({ base, 16 * element, { AccessAxis { full, fm.strideC }, cols, rows } });
                if (rest > 0)
                    access.blocks.push_back(
                        { base + full * fm.strideC, rest * element, { cols, rows, AccessAxis {} } });
            }
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
        const int control = static_cast<int>((word >> 14) & 3);
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
            op.opType = "Unknown command";
            op.label = op.opType + " " + hex(opcode);
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
                op.opType = "Branch";
                op.label = op.opType;
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
            case kStop:
                // The end of the command stream, not work the NPU does: no operation, no node.
                m_out.stopped = true;
                m_out.stopCommand = index;
                break;
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

} // namespace replay

CommandStream decodeCommands(std::span<const std::uint8_t> commands, Arch arch)
{
    return replay::Replayer(commands, arch).run();
}

} // namespace etscope::core::ethosu
