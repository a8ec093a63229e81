// SPDX-License-Identifier: MIT
// Qualcomm QNN payloads (facts sheet §3.4): magic 0x5678ABCD (little-endian), an int64 graph
// signature, a uint64 context-binary size, zero padding to 256 bytes, then the proprietary QNN
// context binary, which stays opaque.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstdio>

namespace etscope::core {

namespace {

constexpr std::uint32_t kMagic = 0x5678ABCDu;
constexpr std::size_t kHeaderSize = 256;
constexpr std::size_t kFieldsEnd = 20; ///< magic (4) + signature (8) + binary size (8)
constexpr std::size_t kSpecHexLimit = 1024;

std::string hex64(std::uint64_t value)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(value));
    return buffer;
}

} // namespace

bool decodeQnn(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    if (payload.size() < kFieldsEnd || readLe32(payload.data()) != kMagic) {
        context.warn(info, "not a QNN payload: no 0x5678ABCD header magic", 0);
        return false;
    }
    const auto signature = static_cast<std::int64_t>(readLe64(payload.data() + 4));
    const std::uint64_t binarySize = readLe64(payload.data() + 12);
    info.format = "qnn";
    info.facts.push_back({ "header magic", "0x5678abcd" });
    info.facts.push_back(
        { "graph signature", std::to_string(signature) + " (" + hex64(static_cast<std::uint64_t>(signature)) + ")" });
    info.facts.push_back(
        { "context binary size", std::to_string(binarySize) + " bytes (" + formatBytes(binarySize) + ")" });
    info.facts.push_back({ "header size", std::to_string(kHeaderSize) });

    if (payload.size() < kHeaderSize) {
        context.warn(info, "the 256-byte QNN header is truncated (" + std::to_string(payload.size()) + " bytes)", 0);
    } else {
        const auto padding = payload.subspan(kFieldsEnd, kHeaderSize - kFieldsEnd);
        if (std::any_of(padding.begin(), padding.end(), [](std::uint8_t b) { return b != 0; }))
            info.facts.push_back({ "header padding", "not all zero" });
        const std::uint64_t body = payload.size() - kHeaderSize;
        if (binarySize != body)
            context.warn(info,
                "the header announces a " + std::to_string(binarySize) + "-byte context binary but "
                    + std::to_string(body) + " bytes follow the header",
                12);
        info.facts.push_back({ "context binary first bytes", toHex(payload.subspan(kHeaderSize), 32) });
    }
    for (const CompileSpec& spec : context.ref.compileSpecs)
        if (spec.key == "qnn_compile_spec")
            info.facts.push_back({ "qnn_compile_spec (hex, " + std::to_string(spec.value.size()) + " bytes)",
                toHex(spec.value, kSpecHexLimit) });
    info.summary = "QNN context binary: " + formatBytes(binarySize) + ", graph signature " + std::to_string(signature);
    return true;
}

} // namespace etscope::core
