// SPDX-License-Identifier: MIT
// Arm Ethos-U payloads (facts sheet §3.4): a "vela_bin_stream" of blocks, each a 32-byte header
// (16-byte name, uint32 unpadded size, 1-byte external flag, 11 reserved bytes) and its data
// padded to 16. The command stream stays opaque; the I/O layout and memory sizes are decoded.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/util/text.h"

#include <cstring>

namespace etscope::core {

namespace {

constexpr std::size_t kBlockHeader = 32;
constexpr std::size_t kNameLength = 16;
constexpr std::size_t kIoRecord = 36; ///< shape[6], element size, offset, region: nine int32

struct VelaBlock {
    std::string name;
    std::uint32_t size = 0;
    bool external = false;
    std::size_t dataOffset = 0; ///< in the payload
    std::span<const std::uint8_t> data;
};

std::int32_t readI32(const std::uint8_t* p)
{
    return static_cast<std::int32_t>(readLe32(p));
}

/// The inputs/outputs block: a count, then one record per tensor.
void describeIo(
    const DelegateContext& context, DelegateInfo& info, const VelaBlock& block, const char* singular, int& count)
{
    if (block.data.size() < 4) {
        context.warn(info, "the " + block.name + " block is too small for its count", block.dataOffset);
        return;
    }
    const std::uint32_t declared = readLe32(block.data.data());
    const std::uint64_t fit = (block.data.size() - 4) / kIoRecord;
    if (declared > fit)
        context.warn(info,
            "the " + block.name + " block announces " + std::to_string(declared) + " tensors but holds "
                + std::to_string(fit),
            block.dataOffset);
    count = static_cast<int>(std::min<std::uint64_t>(declared, fit));
    info.facts.push_back({ block.name, std::to_string(declared) });
    for (int i = 0; i < count; ++i) {
        const std::uint8_t* record = block.data.data() + 4 + static_cast<std::size_t>(i) * kIoRecord;
        std::vector<std::int64_t> shape;
        std::uint64_t elements = 1;
        for (int d = 0; d < 6; ++d) {
            const std::int32_t dim = readI32(record + 4 * d);
            shape.push_back(dim);
            elements = dim > 0 ? std::min<std::uint64_t>(elements * static_cast<std::uint64_t>(dim), 1ull << 48) : 0;
        }
        const std::int32_t elementSize = readI32(record + 24);
        const std::int32_t offset = readI32(record + 28);
        const std::int32_t region = readI32(record + 32);
        const std::uint64_t bytes = elementSize > 0 ? elements * static_cast<std::uint64_t>(elementSize) : 0;
        info.facts.push_back({ std::string(singular) + " " + std::to_string(i),
            "shape " + formatShape(shape) + ", element size " + std::to_string(elementSize) + ", "
                + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) + " of region "
                + std::to_string(region) });
    }
}

} // namespace

bool decodeEthosU(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    if (payload.size() < kBlockHeader || std::memcmp(payload.data(), "vela_bin_stream\0", kNameLength) != 0) {
        context.warn(info, "not a vela_bin_stream: the payload does not start with its first block", 0);
        return false;
    }

    std::vector<VelaBlock> blocks;
    bool ended = false;
    std::size_t offset = 0;
    // Every block takes at least 32 bytes, so the payload size bounds the loop.
    while (offset + kBlockHeader <= payload.size()) {
        VelaBlock block;
        const auto* header = payload.data() + offset;
        block.name.assign(
            reinterpret_cast<const char*>(header), strnlen(reinterpret_cast<const char*>(header), kNameLength));
        block.size = readLe32(header + 16);
        block.external = header[20] != 0;
        block.dataOffset = offset + kBlockHeader;
        if (!isPrintableText({ reinterpret_cast<const std::uint8_t*>(block.name.data()), block.name.size() })) {
            context.warn(info, "block at payload offset " + std::to_string(offset) + " has an unreadable name", offset);
            break;
        }
        if (!detail::rangeInside(payload.size(), block.dataOffset, block.size)) {
            context.warn(info,
                "block '" + block.name + "' announces " + std::to_string(block.size) + " bytes but the payload ends "
                    + std::to_string(payload.size() - block.dataOffset) + " bytes later",
                offset + 16);
            break;
        }
        block.data = payload.subspan(block.dataOffset, block.size);
        blocks.push_back(block);
        if (block.name == "vela_end_stream") {
            ended = true;
            break;
        }
        offset = block.dataOffset + ((static_cast<std::size_t>(block.size) + 15) / 16) * 16;
    }
    if (!ended)
        context.warn(info, "the vela_bin_stream has no vela_end_stream block: the payload is cut short", offset);

    info.format = "ethos-u";
    std::string names;
    for (const VelaBlock& block : blocks)
        names += (names.empty() ? "" : ", ") + block.name;
    info.facts.push_back({ "blocks", std::to_string(blocks.size()) + " (" + names + ")" });

    int inputs = -1;
    int outputs = -1;
    std::uint64_t commandBytes = 0;
    std::string commandTag = "none";
    for (const VelaBlock& block : blocks) {
        std::string text = std::to_string(block.size) + " bytes";
        if (block.external) {
            // External blocks live in named data; the block's bytes then name the blob (inferred
            // from the facts sheet: "External blocks come from named data").
            text += ", external";
            if (!block.data.empty() && isPrintableText(block.data)) {
                const std::string key(reinterpret_cast<const char*>(block.data.data()), block.data.size());
                const auto size = context.namedDataSize(key);
                text += " (named data '" + key + "', "
                    + (size ? std::to_string(*size) + " bytes)" : std::string("not found)"));
            }
        }
        info.facts.push_back({ "block " + block.name, text });
        if (block.name == "cmd_data") {
            commandBytes = block.size;
            if (block.data.size() >= 4)
                commandTag = isPrintableText(block.data.first(4))
                    ? std::string(reinterpret_cast<const char*>(block.data.data()), 4)
                    : "0x" + toHex(block.data.first(4));
            info.facts.push_back({ "command stream", std::to_string(block.size) + " bytes, tag " + commandTag });
        } else if (block.name == "weight_data") {
            info.facts.push_back(
                { "weights", std::to_string(block.size) + " bytes (" + formatBytes(block.size) + ")" });
        } else if (block.name == "scratch_size" && block.data.size() >= 4) {
            const std::uint32_t scratch = readLe32(block.data.data());
            info.facts.push_back({ "scratch", std::to_string(scratch) + " bytes (" + formatBytes(scratch) + ")" });
        } else if (block.name == "inputs") {
            describeIo(context, info, block, "input", inputs);
        } else if (block.name == "outputs") {
            describeIo(context, info, block, "output", outputs);
        }
    }
    if (commandTag != "COP1" && commandTag != "COP2" && commandBytes)
        context.warn(info, "the command stream starts with " + commandTag + ", not COP1 or COP2");
    // The counts stay facts: the call's input/output split keeps its inferred wiring, which the
    // graph marks as such (the runtime maps these tensors one-to-one onto the call's args).
    info.summary = "Ethos-U command stream: " + formatBytes(commandBytes) + ", "
        + (inputs >= 0 ? detail::plural(inputs, "input", "inputs") : std::string("inputs unknown")) + ", "
        + (outputs >= 0 ? detail::plural(outputs, "output", "outputs") : std::string("outputs unknown"));
    return true;
}

} // namespace etscope::core
