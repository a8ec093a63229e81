// SPDX-License-Identifier: MIT
#include "core/delegates/payloadheader.h"

#include "core/delegates/decoderutil.h"
#include "core/util/text.h"

#include <cstring>

namespace etscope::core {

bool hasPayloadHeader(std::span<const std::uint8_t> payload, std::string_view magic)
{
    return magic.size() == 4 && payload.size() >= 8 && std::memcmp(payload.data() + 4, magic.data(), 4) == 0;
}

std::optional<PayloadHeader> readPayloadHeader(
    const DelegateContext& context, DelegateInfo& info, std::string_view magic, std::string_view constantsFact)
{
    const auto payload = context.payload;
    const std::string name(magic);
    if (payload.size() < kPayloadHeaderLength) {
        context.warn(info,
            "the " + name + " header is truncated: " + std::to_string(payload.size()) + " of "
                + std::to_string(kPayloadHeaderLength) + " bytes",
            0);
        return std::nullopt;
    }
    const std::uint16_t length = readLe16(payload.data() + 8);
    const std::uint32_t graphOffset = readLe32(payload.data() + 10);
    const std::uint32_t graphSize = readLe32(payload.data() + 14);
    const std::uint32_t constantsOffset = readLe32(payload.data() + 18);
    const std::uint64_t constantsSize = readLe64(payload.data() + 22);
    info.facts.push_back({ "header", name + ", length " + std::to_string(length) });
    info.facts.push_back(
        { "graph bytes", std::to_string(graphSize) + " at payload offset " + std::to_string(graphOffset) });
    info.facts.push_back({ std::string(constantsFact),
        std::to_string(constantsSize) + " at payload offset " + std::to_string(constantsOffset) });
    if (length < kPayloadHeaderLength) {
        context.warn(info, name + " header length " + std::to_string(length) + " is below 30", 8);
        return std::nullopt;
    }
    if (!detail::rangeInside(payload.size(), graphOffset, graphSize) || graphOffset < length) {
        context.warn(info,
            "the " + name + " header places the graph outside the payload (offset " + std::to_string(graphOffset)
                + ", size " + std::to_string(graphSize) + ", payload " + std::to_string(payload.size())
                + ", header length " + std::to_string(length) + ")",
            10);
        return std::nullopt;
    }
    PayloadHeader header;
    header.graph = payload.subspan(graphOffset, graphSize);
    if (detail::rangeInside(payload.size(), constantsOffset, constantsSize)) {
        header.constants = payload.subspan(constantsOffset, static_cast<std::size_t>(constantsSize));
    } else {
        context.warn(info,
            "the " + name + " header places the constant bytes outside the payload (offset "
                + std::to_string(constantsOffset) + ", size " + std::to_string(constantsSize) + ")",
            18);
    }
    return header;
}

} // namespace etscope::core
