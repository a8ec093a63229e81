// SPDX-License-Identifier: MIT
// Ethos-U payload fixtures. The framing follows the Ethos-U core driver and Vela's
// driver_actions.py (see core/delegates/ethosuframing.cpp); the opcodes below are written out
// by number, independently of the decoder's tables, from the register maps cited in
// core/delegates/ethosuregisters.h.
#include "core/writer/payloads/ethosupayloadwriter.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace etscope::core {

namespace {

void put32(std::vector<std::uint8_t>& out, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void block(std::vector<std::uint8_t>& out, const char* name, const std::vector<std::uint8_t>& data)
{
    char header[16] = {};
    std::strncpy(header, name, sizeof header - 1);
    out.insert(out.end(), header, header + 16);
    put32(out, static_cast<std::uint32_t>(data.size()));
    out.insert(out.end(), 12, 0); // external flag and reserved bytes
    out.insert(out.end(), data.begin(), data.end());
    out.resize((out.size() + 15) / 16 * 16, 0);
}

std::vector<std::uint8_t> ioBlock(const std::vector<EthosUIoSpec>& records)
{
    std::vector<std::uint8_t> data;
    put32(data, static_cast<std::uint32_t>(records.size()));
    for (const EthosUIoSpec& r : records) {
        for (const std::int32_t d : r.shape)
            put32(data, static_cast<std::uint32_t>(d));
        put32(data, static_cast<std::uint32_t>(r.elementSize));
        put32(data, static_cast<std::uint32_t>(r.offset));
        put32(data, static_cast<std::uint32_t>(r.region));
    }
    return data;
}

// Feature map helpers: region, four tile bases (tile 0 at `base`), tile sizes, strides.
void featureMap(EthosUCommandWriter& w, bool ofm, bool ifm2, std::uint32_t base, std::uint16_t heightM1,
    std::uint16_t widthM1, std::uint32_t strideY, std::uint32_t strideX, std::uint32_t strideC)
{
    // Short: IFM 0x10F region, 0x10B/0x10C/0x10A tiles; OFM 0x11F, 0x11B/0x11C/0x11A; IFM2 0x18F,
    // 0x18B/0x18C/0x18A. Long: IFM bases 0x000–0x003, strides 0x004 x, 0x005 y, 0x006 c; OFM
    // 0x010–0x016; IFM2 0x080–0x086.
    const std::uint16_t s = ofm ? 0x110 : ifm2 ? 0x180 : 0x100;
    const std::uint16_t l = ofm ? 0x010 : ifm2 ? 0x080 : 0x000;
    w.shortCommand(static_cast<std::uint16_t>(s + 0xF), 1);
    w.longCommand(l, base);
    for (std::uint16_t t = 1; t < 4; ++t)
        w.longCommand(static_cast<std::uint16_t>(l + t), 0);
    w.shortCommand(static_cast<std::uint16_t>(s + 0xB), heightM1);
    w.shortCommand(static_cast<std::uint16_t>(s + 0xC), heightM1);
    w.shortCommand(static_cast<std::uint16_t>(s + 0xA), widthM1);
    w.longCommand(static_cast<std::uint16_t>(l + 5), strideY);
    w.longCommand(static_cast<std::uint16_t>(l + 4), strideX);
    w.longCommand(static_cast<std::uint16_t>(l + 6), strideC);
}

void padding(EthosUCommandWriter& w, std::uint16_t all)
{
    for (std::uint16_t c = 0x100; c <= 0x103; ++c) // IFM_PAD_TOP, LEFT, RIGHT, BOTTOM
        w.shortCommand(c, all);
}

void clip(EthosUCommandWriter& w, std::int16_t low, std::int16_t high)
{
    w.shortCommand(0x125, 0); // ACTIVATION: none
    w.shortCommand(0x126, static_cast<std::uint16_t>(low)); // ACTIVATION_MIN
    w.shortCommand(0x127, static_cast<std::uint16_t>(high)); // ACTIVATION_MAX
}

void ofmShape(EthosUCommandWriter& w, std::uint16_t heightM1, std::uint16_t widthM1, std::uint16_t depthM1)
{
    w.shortCommand(0x112, heightM1); // OFM_HEIGHT_M1
    w.shortCommand(0x111, widthM1); // OFM_WIDTH_M1
    w.shortCommand(0x113, depthM1); // OFM_DEPTH_M1
}

void dma(EthosUCommandWriter& w, std::uint32_t source, std::uint32_t destination, std::uint32_t length)
{
    w.shortCommand(0x130, 0); // DMA0_SRC_REGION: region 0, 1D
    w.longCommand(0x030, source); // DMA0_SRC
    w.shortCommand(0x131, 1); // DMA0_DST_REGION: region 1
    w.longCommand(0x031, destination); // DMA0_DST
    w.longCommand(0x032, length); // DMA0_LEN
    w.shortCommand(0x010); // DMA_START
    w.shortCommand(0x011); // DMA_WAIT
}

} // namespace

EthosUCommandWriter& EthosUCommandWriter::shortCommand(std::uint16_t opcode, std::uint16_t param)
{
    m_words.push_back(static_cast<std::uint32_t>(opcode & 0x3FF) | (static_cast<std::uint32_t>(param) << 16));
    return *this;
}

EthosUCommandWriter& EthosUCommandWriter::longCommand(std::uint16_t opcode, std::uint32_t payload, std::uint16_t high)
{
    m_words.push_back(static_cast<std::uint32_t>(opcode & 0x3FF) | 0x4000u | (static_cast<std::uint32_t>(high) << 16));
    m_words.push_back(payload);
    return *this;
}

EthosUCommandWriter& EthosUCommandWriter::word(std::uint32_t raw)
{
    m_words.push_back(raw);
    return *this;
}

std::vector<std::uint8_t> writeEthosUCommandData(const EthosUPayloadSpec& spec)
{
    std::vector<std::uint8_t> data;
    if (spec.cop2) {
        const auto commandBytes = static_cast<std::uint32_t>(spec.commands.size() * 4);
        constexpr std::uint32_t kPadding = 4; // 16 + 8 + 16 + 20 = 60 bytes before it
        put32(data, 0x32504F43); // "COP2"
        put32(data, 0x00000001); // version 1.0 (two uint16)
        const std::uint64_t total = 8 + 16 + 20 + kPadding + commandBytes;
        put32(data, static_cast<std::uint32_t>(total));
        put32(data, static_cast<std::uint32_t>(total >> 32));
        put32(data, 1); // entry type: command stream
        put32(data, 36 + kPadding + commandBytes); // entry data length
        put32(data, 32 + kPadding); // metadata length after this word
        put32(data, 0x4D554556); // "VEUM"
        put32(data, 0x00000001);
        put32(data, 20);
        put32(data, spec.configWord);
        put32(data, spec.idWord);
        put32(data, 1); // network-wide addressing
        put32(data, 0); // staging usage, uint64
        put32(data, 0);
        data.insert(data.end(), kPadding, 0xFF);
        for (const std::uint32_t word : spec.commands)
            put32(data, word);
        return data;
    }
    put32(data, 0x31504F43); // "COP1"
    put32(data, 0x00100001); // OPTIMIZER_CONFIG, optimizer 0.1
    put32(data, spec.configWord);
    put32(data, spec.idWord);
    while ((data.size() + 4) % 16)
        put32(data, 0x00000005); // NOP
    const std::uint32_t length = spec.announcedWords.value_or(static_cast<std::uint32_t>(spec.commands.size()));
    put32(data, 0x02u | ((length >> 16) & 0xFF) << 8 | (length & 0xFFFF) << 16); // COMMAND_STREAM
    for (const std::uint32_t word : spec.commands)
        put32(data, word);
    if (spec.commandDataBytes)
        data.resize(std::min(data.size(), *spec.commandDataBytes));
    return data;
}

std::vector<std::uint8_t> writeEthosUPayload(const EthosUPayloadSpec& spec)
{
    std::vector<std::uint8_t> out;
    block(out, "vela_bin_stream", {});
    block(out, "cmd_data", writeEthosUCommandData(spec));
    block(out, "weight_data", spec.weights);
    std::vector<std::uint8_t> scratch;
    put32(scratch, spec.scratchSize);
    block(out, "scratch_size", scratch);
    block(out, "inputs", ioBlock(spec.inputs));
    block(out, "outputs", ioBlock(spec.outputs));
    block(out, "vela_end_stream", {});
    return out;
}

EthosUPayloadSpec ethosUFixtureU55(bool unknownCommand)
{
    EthosUPayloadSpec spec;
    spec.configWord = 0x00001807; // product 0 (U55), 24 KiB SHRAM, 2^7 = 128 MACs
    spec.idWord = 0x10066001; // architecture 1.0.6
    spec.weights.assign(0x500, 0);
    spec.scratchSize = 0x800;
    spec.inputs.push_back({ { 1, 1, 1, 8, 8, 4 }, 1, 0x000, 1 }); // 256 bytes
    spec.outputs.push_back({ { 1, 1, 1, 4, 4, 8 }, 1, 0x700, 1 }); // 128 bytes
    EthosUCommandWriter w;

    // Conv 3×3, stride 1, padding 1: int8 8×8×4 at region 1 + 0 → int8 8×8×8 at region 1 + 0x100.
    featureMap(w, false, false, 0x000, 7, 7, 32, 4, 1);
    w.shortCommand(0x104, 3); // IFM_DEPTH_M1
    w.shortCommand(0x109, 0xFFFD); // IFM_ZERO_POINT −3
    w.shortCommand(0x105, 0x0001); // IFM_PRECISION: signed, 8 bit, NHWC
    padding(w, 1);
    featureMap(w, true, false, 0x100, 7, 7, 64, 8, 1);
    ofmShape(w, 7, 7, 7);
    w.shortCommand(0x118, 5); // OFM_ZERO_POINT
    w.shortCommand(0x114, 0x0001); // OFM_PRECISION: signed, 8 bit, NHWC, per-channel scales
    w.shortCommand(0x121, 2).shortCommand(0x120, 2); // KERNEL_HEIGHT_M1, KERNEL_WIDTH_M1
    w.shortCommand(0x122, 0); // KERNEL_STRIDE: 1×1, dilation 1, depth first
    w.shortCommand(0x128, 0); // WEIGHT_REGION
    w.longCommand(0x020, 0x000).longCommand(0x021, 0x120); // WEIGHT_BASE, WEIGHT_LENGTH
    w.shortCommand(0x129, 0); // SCALE_REGION
    w.longCommand(0x022, 0x200).longCommand(0x023, 0x50); // SCALE_BASE, SCALE_LENGTH
    clip(w, -128, 127);
    w.shortCommand(0x116, 7).shortCommand(0x115, 7).shortCommand(0x117, 7); // OFM block 8×8×8
    w.shortCommand(0x124, 0); // ACC_FORMAT int32
    w.shortCommand(0x002); // NPU_OP_CONV

    // DMA 512 bytes: region 0 + 0x300 → region 1 + 0x300 (the add's second operand).
    dma(w, 0x300, 0x300, 512);
    if (unknownCommand)
        w.shortCommand(0x007, 2); // NPU_OP_RESIZE exists on U85 only

    // Add: IFM = the conv's OFM, IFM2 = the DMA'd tensor, OFM int8 8×8×8 at region 1 + 0x500.
    w.longCommand(0x000, 0x100); // IFM_BASE0
    w.shortCommand(0x104, 7); // IFM_DEPTH_M1
    w.longCommand(0x005, 64).longCommand(0x004, 8); // IFM_STRIDE_Y, IFM_STRIDE_X
    w.shortCommand(0x109, 5); // IFM_ZERO_POINT
    featureMap(w, false, true, 0x300, 7, 7, 64, 8, 1);
    w.shortCommand(0x189, 0xFFFE); // IFM2_ZERO_POINT −2
    w.shortCommand(0x185, 0x0001); // IFM2_PRECISION
    w.shortCommand(0x180, 0); // IFM2_BROADCAST: none
    w.longCommand(0x010, 0x500); // OFM_BASE0
    w.shortCommand(0x118, 0xFFFF); // OFM_ZERO_POINT −1
    clip(w, 0, 127);
    w.longCommand(0x024, 0x40000000, 30); // OFM_SCALE: scale 2^30, shift 30
    w.shortCommand(0x006, 1); // NPU_OP_ELEMENTWISE, mode 1 = add

    // Max pool 2×2 stride 2: int8 8×8×8 at 0x500 → int8 4×4×8 at region 1 + 0x700.
    w.longCommand(0x000, 0x500); // IFM_BASE0
    w.shortCommand(0x109, 0xFFFF); // IFM_ZERO_POINT −1
    padding(w, 0);
    featureMap(w, true, false, 0x700, 3, 3, 32, 8, 1);
    ofmShape(w, 3, 3, 7);
    w.shortCommand(0x121, 1).shortCommand(0x120, 1); // kernel 2×2
    w.shortCommand(0x122, 0x0003); // KERNEL_STRIDE: x and y stride 2 (low bits 0 and 1)
    clip(w, -128, 127);
    w.shortCommand(0x005, 0); // NPU_OP_POOL, mode 0 = max
    w.shortCommand(0x000, 0xFFFF); // NPU_OP_STOP
    spec.commands = w.words();
    return spec;
}

EthosUPayloadSpec ethosUFixtureU85(bool unknownCommand)
{
    EthosUPayloadSpec spec;
    spec.configWord = 0x20000118; // product 2 (U85), command stream version 1, 2^8 = 256 MACs
    spec.idWord = 0x20007000; // architecture 2.0.0
    spec.weights.assign(0x400, 0);
    spec.scratchSize = 0x700;
    spec.inputs.push_back({ { 1, 1, 1, 9, 9, 4 }, 1, 0x000, 1 }); // 324 bytes
    spec.outputs.push_back({ { 1, 1, 1, 2, 2, 8 }, 1, 0x600, 1 }); // 32 bytes
    EthosUCommandWriter w;

    // Conv 3×3, stride 3 (U85's stride extension bits), no padding: int8 9×9×4 → int8 3×3×8.
    featureMap(w, false, false, 0x000, 8, 8, 36, 4, 1);
    w.shortCommand(0x104, 3); // IFM_DEPTH_M1
    w.shortCommand(0x109, 0); // IFM_ZERO_POINT
    w.shortCommand(0x105, 0x0001); // IFM_PRECISION: signed, 8 bit, NHWC, 2×2 tile storage
    padding(w, 0);
    featureMap(w, true, false, 0x200, 2, 2, 24, 8, 1);
    ofmShape(w, 2, 2, 7);
    w.shortCommand(0x118, 0); // OFM_ZERO_POINT
    w.shortCommand(0x114, 0x0001); // OFM_PRECISION: signed, 8 bit, NHWC, per-channel scales
    w.shortCommand(0x121, 2).shortCommand(0x120, 2); // kernel 3×3
    // KERNEL_STRIDE: stride − 1 = 2 in both axes, i.e. the extension bits 6 (x) and 9 (y);
    // bit 2 = part-kernel-first weight order.
    w.shortCommand(0x122, 0x0244);
    w.shortCommand(0x128, 0); // WEIGHT_REGION
    w.longCommand(0x020, 0x000).longCommand(0x021, 0x100); // WEIGHT_BASE, WEIGHT_LENGTH
    w.shortCommand(0x129, 0); // SCALE_REGION
    w.longCommand(0x022, 0x100).longCommand(0x023, 0x40); // SCALE_BASE, SCALE_LENGTH
    clip(w, -128, 127);
    w.shortCommand(0x116, 2).shortCommand(0x115, 2).shortCommand(0x117, 15); // OFM block 3×3×16
    w.shortCommand(0x124, 0x0100); // ACC_FORMAT: int32, microblock 1×2
    w.shortCommand(0x002, 0); // NPU_OP_CONV (weights from the weight stream)

    dma(w, 0x300, 0x300, 72);
    if (unknownCommand)
        w.shortCommand(0x181, 9); // NPU_SET_IFM2_SCALAR exists on U55/U65 only

    // Add: IFM = the conv's OFM, IFM2 = the DMA'd tensor → int8 3×3×8 at region 1 + 0x400.
    featureMap(w, false, false, 0x200, 2, 2, 24, 8, 1);
    w.shortCommand(0x104, 7); // IFM_DEPTH_M1
    w.shortCommand(0x108, 0); // IFM_BROADCAST: none
    featureMap(w, false, true, 0x300, 2, 2, 24, 8, 1);
    w.shortCommand(0x189, 3); // IFM2_ZERO_POINT
    w.shortCommand(0x185, 0x0001); // IFM2_PRECISION
    w.shortCommand(0x180, 0x0004); // IFM2_BROADCAST: mode 4 = C (IFM2 is 3×3×1)
    w.longCommand(0x010, 0x400); // OFM_BASE0
    w.longCommand(0x025, 0x40000000, 0x0001); // IFM_SCALE
    w.longCommand(0x026, 0x40000000, 0x0001); // IFM2_SCALE
    w.longCommand(0x024, 0x20000000, 0x001E); // OFM_SCALE: shift 30
    w.shortCommand(0x006, 1); // NPU_OP_ELEMENTWISE, mode 1 = add

    // Average pool 3×3 over the add's 3×3×8 → int8 1×1×8 at region 1 + 0x500, global scale.
    featureMap(w, false, false, 0x400, 2, 2, 24, 8, 1);
    featureMap(w, true, false, 0x500, 0, 0, 8, 8, 1);
    ofmShape(w, 0, 0, 7);
    w.shortCommand(0x114, 0x0101); // OFM_PRECISION: signed, 8 bit, NHWC, global scale (bit 8)
    w.shortCommand(0x122, 0); // KERNEL_STRIDE 1×1
    w.shortCommand(0x005, 1); // NPU_OP_POOL, mode 1 = average

    // Nearest resize 1×1×8 → 2×2×8 at region 1 + 0x600.
    featureMap(w, false, false, 0x500, 0, 0, 8, 8, 1);
    featureMap(w, true, false, 0x600, 1, 1, 16, 8, 1);
    ofmShape(w, 1, 1, 7);
    w.shortCommand(0x12A, 1).shortCommand(0x12B, 1); // RESIZE_X/Y_SCALE_N_M1: n = 2
    w.shortCommand(0x12C, 0).shortCommand(0x12D, 0); // RESIZE_X/Y_OFFSET
    w.shortCommand(0x007, 2); // NPU_OP_RESIZE, mode 2 = nearest
    w.shortCommand(0x000, 0xFFFF); // NPU_OP_STOP
    spec.commands = w.words();
    return spec;
}

} // namespace etscope::core
