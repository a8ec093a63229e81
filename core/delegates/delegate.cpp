// SPDX-License-Identifier: MIT
#include "delegate.h"

#include "util/text.h"

#include <cstring>

namespace etscope::core {

namespace {

struct Decoder {
    const char* backendId; ///< exact backend id, or nullptr to try on every payload
    bool (*decode)(const DelegateContext&, DelegateInfo&);
};

// Tried in order: first the decoder registered for the backend id, then the magic-sniffing ones.
constexpr Decoder kDecoders[] = {
    { "XnnpackBackend", &decodeXnnpack },
};

} // namespace

std::optional<std::uint64_t> DelegateContext::namedDataSize(const std::string& key) const
{
    if (const NamedDataEntry* entry = program.findNamedData(key))
        return entry->data.size;
    for (const ExternalData* data : externalData)
        if (const NamedDataEntry* entry = data->find(key))
            return entry->data.size;
    return std::nullopt;
}

void addCommonFacts(const DelegateContext& context, DelegateInfo& info)
{
    const DelegateRef& ref = context.ref;
    info.facts.push_back({ "backend_id", ref.backendId });
    info.facts.push_back({ "location", std::string(ref.locationName()) + " #" + std::to_string(ref.index) });
    info.facts.push_back(
        { "payload size", std::to_string(ref.payload.size) + " bytes (" + formatBytes(ref.payload.size) + ")" });
    info.facts.push_back({ "payload file offset", std::to_string(ref.payload.offset) });
    for (const CompileSpec& spec : ref.compileSpecs)
        info.facts.push_back({ "compile_spec " + spec.key, bytesForDisplay(spec.value) });
    info.facts.push_back({ "first bytes", toHex(context.payload, 32) });
}

DelegateInfo describeDelegate(const Program& program, const DelegateRef& ref,
    std::span<const ExternalData* const> externalData, const std::string& where)
{
    DelegateInfo info;
    info.backendId = ref.backendId;
    info.format = "opaque";
    const auto payload = program.bytes(ref.payload);
    DelegateContext context { program, ref, payload, externalData, where };
    addCommonFacts(context, info);

    bool decoded = false;
    for (const Decoder& decoder : kDecoders) {
        if (decoder.backendId && ref.backendId != decoder.backendId)
            continue;
        DelegateInfo attempt = info;
        if (decoder.decode(context, attempt)) {
            info = std::move(attempt);
            decoded = true;
            break;
        }
        // Keep the reason the known format did not decode; the delegate stays described.
        info.warnings.insert(info.warnings.end(), attempt.warnings.begin(), attempt.warnings.end());
    }
    if (!decoded) {
        info.format = "opaque";
        info.summary = ref.backendId + ": " + formatBytes(ref.payload.size) + " payload, not decoded";
    }
    return info;
}

} // namespace etscope::core
