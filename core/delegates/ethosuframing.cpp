// SPDX-License-Identifier: MIT
// The names of the Ethos-U commands and the driver framing of a cmd_data block.
//
// Framing facts: the Ethos-U core driver (ethos-u-core-driver src/ethosu_driver.c, ethosu_invoke;
// read in the copy at github.com/electro-smith/DaisyExamples @ 82e3f96f,
// patch/NNWaveshaperB/edge-impulse-sdk/porting/ethos-core-driver/src/ethosu_driver.c): the word
// "COP1", then driver actions, each a 32-bit word with the action in bits 0–7, a reserved byte and
// a 16-bit parameter. OPTIMIZER_CONFIG (1) is followed by the CONFIG and ID register values;
// COMMAND_STREAM (2) by the commands, whose count in words is (reserved << 16) | parameter (the
// driver: `cms_length = (data_ptr->reserved << 16) | data_ptr->length`, and Vela's
// driver_actions.py "use the reserved 8 bit as the length high"); READ_APB_REG (3), DUMP_SHRAM (4)
// and NOP (5) are one word. COP2 (regor tflite/custom_operator_ethosu.hpp, CreateDriverPayload2):
// a 16-byte header ("COP2", version, uint64 length), a command-stream entry (type 1, byte length),
// a metadata block ("VEUM", CONFIG, ID, …) whose length word counts the bytes after it, then the
// commands.
#include "core/delegates/ethosucommands.h"
#include "core/delegates/ethosuregisters.h"
#include "core/util/text.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace etscope::core::ethosu {

namespace {

constexpr std::uint8_t kU55Map = 1; ///< U55 and U65
constexpr std::uint8_t kU85Map = 2;
constexpr std::uint8_t kBothMaps = kU55Map | kU85Map;

struct CommandEntry {
    std::uint16_t code;
    bool longForm;
    std::uint8_t maps;
    std::string_view name;
};

// clang-format off
constexpr CommandEntry kCommands[] = {
    { 0x000, false, kBothMaps, "NPU_OP_STOP" },          { 0x001, false, kBothMaps, "NPU_OP_IRQ" },
    { 0x002, false, kBothMaps, "NPU_OP_CONV" },          { 0x003, false, kBothMaps, "NPU_OP_DEPTHWISE" },
    { 0x005, false, kBothMaps, "NPU_OP_POOL" },          { 0x006, false, kBothMaps, "NPU_OP_ELEMENTWISE" },
    { 0x007, false, kU85Map, "NPU_OP_RESIZE" },          { 0x010, false, kBothMaps, "NPU_OP_DMA_START" },
    { 0x011, false, kBothMaps, "NPU_OP_DMA_WAIT" },      { 0x012, false, kBothMaps, "NPU_OP_KERNEL_WAIT" },
    { 0x013, false, kBothMaps, "NPU_OP_PMU_MASK" },
    { 0x100, false, kBothMaps, "NPU_SET_IFM_PAD_TOP" },  { 0x101, false, kBothMaps, "NPU_SET_IFM_PAD_LEFT" },
    { 0x102, false, kBothMaps, "NPU_SET_IFM_PAD_RIGHT" }, { 0x103, false, kBothMaps, "NPU_SET_IFM_PAD_BOTTOM" },
    { 0x104, false, kBothMaps, "NPU_SET_IFM_DEPTH_M1" }, { 0x105, false, kBothMaps, "NPU_SET_IFM_PRECISION" },
    { 0x107, false, kBothMaps, "NPU_SET_IFM_UPSCALE" },  { 0x108, false, kU85Map, "NPU_SET_IFM_BROADCAST" },
    { 0x109, false, kBothMaps, "NPU_SET_IFM_ZERO_POINT" }, { 0x10A, false, kBothMaps, "NPU_SET_IFM_WIDTH0_M1" },
    { 0x10B, false, kBothMaps, "NPU_SET_IFM_HEIGHT0_M1" }, { 0x10C, false, kBothMaps, "NPU_SET_IFM_HEIGHT1_M1" },
    { 0x10D, false, kU55Map, "NPU_SET_IFM_IB_END" },     { 0x10F, false, kBothMaps, "NPU_SET_IFM_REGION" },
    { 0x111, false, kBothMaps, "NPU_SET_OFM_WIDTH_M1" }, { 0x112, false, kBothMaps, "NPU_SET_OFM_HEIGHT_M1" },
    { 0x113, false, kBothMaps, "NPU_SET_OFM_DEPTH_M1" }, { 0x114, false, kBothMaps, "NPU_SET_OFM_PRECISION" },
    { 0x115, false, kBothMaps, "NPU_SET_OFM_BLK_WIDTH_M1" }, { 0x116, false, kBothMaps, "NPU_SET_OFM_BLK_HEIGHT_M1" },
    { 0x117, false, kBothMaps, "NPU_SET_OFM_BLK_DEPTH_M1" }, { 0x118, false, kBothMaps, "NPU_SET_OFM_ZERO_POINT" },
    { 0x11A, false, kBothMaps, "NPU_SET_OFM_WIDTH0_M1" }, { 0x11B, false, kBothMaps, "NPU_SET_OFM_HEIGHT0_M1" },
    { 0x11C, false, kBothMaps, "NPU_SET_OFM_HEIGHT1_M1" }, { 0x11F, false, kBothMaps, "NPU_SET_OFM_REGION" },
    { 0x120, false, kBothMaps, "NPU_SET_KERNEL_WIDTH_M1" }, { 0x121, false, kBothMaps, "NPU_SET_KERNEL_HEIGHT_M1" },
    { 0x122, false, kBothMaps, "NPU_SET_KERNEL_STRIDE" }, { 0x123, false, kU55Map, "NPU_SET_PARALLEL_MODE" },
    { 0x124, false, kBothMaps, "NPU_SET_ACC_FORMAT" },   { 0x125, false, kBothMaps, "NPU_SET_ACTIVATION" },
    { 0x126, false, kBothMaps, "NPU_SET_ACTIVATION_MIN" }, { 0x127, false, kBothMaps, "NPU_SET_ACTIVATION_MAX" },
    { 0x128, false, kBothMaps, "NPU_SET_WEIGHT_REGION" }, { 0x129, false, kBothMaps, "NPU_SET_SCALE_REGION" },
    { 0x12A, false, kU85Map, "NPU_SET_RESIZE_X_SCALE_N_M1" }, { 0x12B, false, kU85Map, "NPU_SET_RESIZE_Y_SCALE_N_M1" },
    { 0x12C, false, kU85Map, "NPU_SET_RESIZE_X_OFFSET" }, { 0x12D, false, kU55Map, "NPU_SET_AB_START" },
    { 0x12D, false, kU85Map, "NPU_SET_RESIZE_Y_OFFSET" }, { 0x12E, false, kU85Map, "NPU_SET_WEIGHT_FORMAT" },
    { 0x12F, false, kBothMaps, "NPU_SET_BLOCKDEP" },     { 0x130, false, kBothMaps, "NPU_SET_DMA0_SRC_REGION" },
    { 0x131, false, kBothMaps, "NPU_SET_DMA0_DST_REGION" }, { 0x132, false, kBothMaps, "NPU_SET_DMA0_SIZE0" },
    { 0x133, false, kBothMaps, "NPU_SET_DMA0_SIZE1" },   { 0x134, false, kU85Map, "NPU_SET_DMA0_IDX_REGION" },
    { 0x180, false, kBothMaps, "NPU_SET_IFM2_BROADCAST" }, { 0x181, false, kU55Map, "NPU_SET_IFM2_SCALAR" },
    { 0x185, false, kBothMaps, "NPU_SET_IFM2_PRECISION" }, { 0x189, false, kBothMaps, "NPU_SET_IFM2_ZERO_POINT" },
    { 0x18A, false, kBothMaps, "NPU_SET_IFM2_WIDTH0_M1" }, { 0x18B, false, kBothMaps, "NPU_SET_IFM2_HEIGHT0_M1" },
    { 0x18C, false, kBothMaps, "NPU_SET_IFM2_HEIGHT1_M1" }, { 0x18D, false, kU55Map, "NPU_SET_IFM2_IB_START" },
    { 0x18F, false, kBothMaps, "NPU_SET_IFM2_REGION" },
    { 0x000, true, kBothMaps, "NPU_SET_IFM_BASE0" },     { 0x001, true, kBothMaps, "NPU_SET_IFM_BASE1" },
    { 0x002, true, kBothMaps, "NPU_SET_IFM_BASE2" },     { 0x003, true, kBothMaps, "NPU_SET_IFM_BASE3" },
    { 0x004, true, kBothMaps, "NPU_SET_IFM_STRIDE_X" },  { 0x005, true, kBothMaps, "NPU_SET_IFM_STRIDE_Y" },
    { 0x006, true, kBothMaps, "NPU_SET_IFM_STRIDE_C" },
    { 0x010, true, kBothMaps, "NPU_SET_OFM_BASE0" },     { 0x011, true, kBothMaps, "NPU_SET_OFM_BASE1" },
    { 0x012, true, kBothMaps, "NPU_SET_OFM_BASE2" },     { 0x013, true, kBothMaps, "NPU_SET_OFM_BASE3" },
    { 0x014, true, kBothMaps, "NPU_SET_OFM_STRIDE_X" },  { 0x015, true, kBothMaps, "NPU_SET_OFM_STRIDE_Y" },
    { 0x016, true, kBothMaps, "NPU_SET_OFM_STRIDE_C" },
    { 0x020, true, kBothMaps, "NPU_SET_WEIGHT_BASE" },   { 0x021, true, kBothMaps, "NPU_SET_WEIGHT_LENGTH" },
    { 0x022, true, kBothMaps, "NPU_SET_SCALE_BASE" },    { 0x023, true, kBothMaps, "NPU_SET_SCALE_LENGTH" },
    { 0x024, true, kBothMaps, "NPU_SET_OFM_SCALE" },     { 0x025, true, kU55Map, "NPU_SET_OPA_SCALE" },
    { 0x025, true, kU85Map, "NPU_SET_IFM_SCALE" },       { 0x026, true, kU55Map, "NPU_SET_OPB_SCALE" },
    { 0x026, true, kU85Map, "NPU_SET_IFM2_SCALE" },      { 0x027, true, kU85Map, "NPU_SET_OP_SCALAR" },
    { 0x030, true, kBothMaps, "NPU_SET_DMA0_SRC" },      { 0x031, true, kBothMaps, "NPU_SET_DMA0_DST" },
    { 0x032, true, kBothMaps, "NPU_SET_DMA0_LEN" },      { 0x033, true, kU55Map, "NPU_SET_DMA0_SKIP0" },
    { 0x034, true, kU55Map, "NPU_SET_DMA0_SKIP1" },      { 0x033, true, kU85Map, "NPU_SET_DMA0_SRC_STRIDE0" },
    { 0x034, true, kU85Map, "NPU_SET_DMA0_SRC_STRIDE1" }, { 0x035, true, kU85Map, "NPU_SET_DMA0_DST_STRIDE0" },
    { 0x036, true, kU85Map, "NPU_SET_DMA0_DST_STRIDE1" }, { 0x037, true, kU85Map, "NPU_SET_DMA0_IDX" },
    { 0x038, true, kU85Map, "NPU_SET_DMA0_IDX_MAX" },    { 0x039, true, kU85Map, "NPU_SET_DMA0_IDX_SKIP1" },
    { 0x080, true, kBothMaps, "NPU_SET_IFM2_BASE0" },    { 0x081, true, kBothMaps, "NPU_SET_IFM2_BASE1" },
    { 0x082, true, kBothMaps, "NPU_SET_IFM2_BASE2" },    { 0x083, true, kBothMaps, "NPU_SET_IFM2_BASE3" },
    { 0x084, true, kBothMaps, "NPU_SET_IFM2_STRIDE_X" }, { 0x085, true, kBothMaps, "NPU_SET_IFM2_STRIDE_Y" },
    { 0x086, true, kBothMaps, "NPU_SET_IFM2_STRIDE_C" },
    { 0x090, true, kBothMaps, "NPU_SET_WEIGHT1_BASE" },  { 0x091, true, kBothMaps, "NPU_SET_WEIGHT1_LENGTH" },
    { 0x092, true, kU55Map, "NPU_SET_SCALE1_BASE" },     { 0x093, true, kU55Map, "NPU_SET_SCALE1_LENGTH" },
    { 0x092, true, kU85Map, "NPU_SET_WEIGHT2_BASE" },    { 0x093, true, kU85Map, "NPU_SET_WEIGHT2_LENGTH" },
    { 0x094, true, kU85Map, "NPU_SET_WEIGHT3_BASE" },    { 0x095, true, kU85Map, "NPU_SET_WEIGHT3_LENGTH" },
    { 0x096, true, kU85Map, "NPU_SET_RESIZE_X_STEP" },   { 0x097, true, kU85Map, "NPU_SET_RESIZE_Y_STEP" },
    { 0x100, true, kU85Map, "NPU_OP_BRANCH" },
};
// clang-format on

enum DriverAction : std::uint8_t {
    kReserved = 0,
    kOptimizerConfig = 1,
    kCommandStream = 2,
    kReadApbRegister = 3,
    kDumpShram = 4,
    kNop = 5,
};

std::string tagText(std::span<const std::uint8_t> block)
{
    const auto first = block.first(std::min<std::size_t>(4, block.size()));
    return isPrintableText(first) ? std::string(reinterpret_cast<const char*>(first.data()), first.size())
                                  : "0x" + toHex(first);
}

void readCop1(std::span<const std::uint8_t> block, DriverPayload& out)
{
    const auto warn = [&](std::string text, std::size_t at) { out.warnings.push_back({ std::move(text), at }); };
    // Each action takes at least one word, so the block size bounds the loop.
    std::size_t at = 4;
    while (at + 4 <= block.size()) {
        const std::uint32_t word = readLe32(block.data() + at);
        const std::uint8_t action = word & 0xFF;
        switch (action) {
        case kOptimizerConfig:
            if (at + 12 > block.size()) {
                warn("the OPTIMIZER_CONFIG action at byte " + std::to_string(at) + " is cut short", at);
                return;
            }
            out.configWord = readLe32(block.data() + at + 4);
            out.idWord = readLe32(block.data() + at + 8);
            at += 12;
            break;
        case kCommandStream: {
            out.announcedWords = (static_cast<std::size_t>((word >> 8) & 0xFF) << 16) | (word >> 16);
            out.commandOffset = at + 4;
            const std::size_t present = (block.size() - out.commandOffset) / 4;
            out.commandWords = std::min(out.announcedWords, present);
            if (out.announcedWords > present)
                warn("the COMMAND_STREAM action announces " + std::to_string(out.announcedWords)
                        + " words but the block holds " + std::to_string(present) + " after it",
                    at);
            // The driver runs one stream per payload (Vela writes exactly one); what follows it
            // is not read.
            return;
        }
        case kReadApbRegister:
        case kDumpShram:
        case kNop:
            at += 4;
            break;
        default:
            warn("unknown driver action " + std::to_string(action) + " at byte " + std::to_string(at)
                    + " (the Ethos-U driver stops there too)",
                at);
            return;
        }
    }
    warn("the driver actions end without a COMMAND_STREAM", at);
}

void readCop2(std::span<const std::uint8_t> block, DriverPayload& out)
{
    const auto warn = [&](std::string text, std::size_t at) { out.warnings.push_back({ std::move(text), at }); };
    constexpr std::size_t kHeader = 16;
    constexpr std::uint32_t kCommandStreamEntry = 1;
    if (block.size() < kHeader + 8 + 4) {
        warn("the COP2 header is cut short", 0);
        return;
    }
    const std::uint32_t entryType = readLe32(block.data() + kHeader);
    const std::uint32_t entryLength = readLe32(block.data() + kHeader + 4);
    if (entryType != kCommandStreamEntry) {
        warn("the first COP2 entry has type " + std::to_string(entryType) + ", not a command stream", kHeader);
        return;
    }
    const std::size_t entryData = kHeader + 8;
    const std::uint32_t metadataLength = readLe32(block.data() + entryData);
    if (metadataLength >= 12 && entryData + 4 + 12 <= block.size()
        && std::memcmp(block.data() + entryData + 4, "VEUM", 4) == 0) {
        // "VEUM", version, data length, then the CONFIG and ID words.
        if (entryData + 4 + 20 <= block.size()) {
            out.configWord = readLe32(block.data() + entryData + 16);
            out.idWord = readLe32(block.data() + entryData + 20);
        }
    }
    const std::uint64_t start = entryData + 4ull + metadataLength;
    if (start > block.size() || metadataLength + 4ull > entryLength) {
        warn("the COP2 metadata length " + std::to_string(metadataLength) + " runs past its entry", entryData);
        return;
    }
    out.commandOffset = static_cast<std::size_t>(start);
    out.announcedWords = (entryLength - metadataLength - 4) / 4;
    const std::size_t present = (block.size() - out.commandOffset) / 4;
    out.commandWords = std::min(out.announcedWords, present);
    if (out.announcedWords > present)
        warn("the COP2 command stream entry announces " + std::to_string(out.announcedWords)
                + " words but the block holds " + std::to_string(present),
            kHeader + 4);
}

} // namespace

std::string_view archName(Arch arch)
{
    switch (arch) {
    case Arch::U55:
        return "Ethos-U55";
    case Arch::U65:
        return "Ethos-U65";
    case Arch::U85:
        return "Ethos-U85";
    }
    return "Ethos-U";
}

std::string_view commandName(Arch arch, std::uint16_t opcode, bool longForm)
{
    // Indexed once: [map][form][opcode], for the decoder's one lookup per command.
    using Table = std::array<std::string_view, 1024>;
    static const std::array<Table, 4> kIndex = [] {
        std::array<Table, 4> index {};
        for (const CommandEntry& entry : kCommands)
            for (int map = 0; map < 2; ++map)
                if (entry.maps & (map == 0 ? kU55Map : kU85Map))
                    index[(static_cast<std::size_t>(map) * 2) + (entry.longForm ? 1 : 0)][entry.code & 0x3FF]
                        = entry.name;
        return index;
    }();
    if (opcode > 0x3FF)
        return {};
    return kIndex[(arch == Arch::U85 ? 2U : 0U) + (longForm ? 1U : 0U)][opcode];
}

DriverPayload readDriverPayload(std::span<const std::uint8_t> block)
{
    DriverPayload out;
    out.tag = tagText(block);
    if (block.size() < 4) {
        out.warnings.push_back({ "the command stream block is too small for its tag", 0 });
        return out;
    }
    if (out.tag == "COP1")
        readCop1(block, out);
    else if (out.tag == "COP2")
        readCop2(block, out);
    else
        out.warnings.push_back({ "the command stream starts with " + out.tag + ", not COP1 or COP2", 0 });
    return out;
}

NpuConfig readConfigWord(std::uint32_t word)
{
    NpuConfig config;
    config.product = static_cast<int>(word >> 28);
    config.macsPerCycle = 1 << (word & 0xF);
    config.commandStreamVersion = static_cast<int>((word >> 4) & 0xF);
    switch (config.product) {
    case 0:
        config.arch = Arch::U55;
        break;
    case 1:
        config.arch = Arch::U65;
        break;
    case 2:
        config.arch = Arch::U85;
        break;
    default:
        break;
    }
    config.text
        = config.arch ? std::string(archName(*config.arch)) : "unknown product " + std::to_string(config.product);
    config.text += ", " + std::to_string(config.macsPerCycle) + " MACs/cycle";
    if (config.arch && *config.arch != Arch::U85) {
        // U55/U65 CONFIG: shram_size in KiB at bits 8–15 (U85 has AXI port counts there).
        config.shramKiB = static_cast<int>((word >> 8) & 0xFF);
        config.text += ", " + std::to_string(config.shramKiB) + " KiB SHRAM";
    }
    config.text += ", command stream version " + std::to_string(config.commandStreamVersion);
    return config;
}

std::string archVersionText(std::uint32_t idWord)
{
    return std::to_string(idWord >> 28) + "." + std::to_string((idWord >> 20) & 0xFF) + "."
        + std::to_string((idWord >> 16) & 0xF);
}

} // namespace etscope::core::ethosu
