// SPDX-License-Identifier: MIT
#include "core/delegates/delegate.h"
#include "core/delegates/decoderutil.h"
#include "core/delegates/deferredpayload.h"
#include "core/util/guard.h"

#include "core/util/text.h"

#include <algorithm>
#include <cstring>

namespace etscope::core {

namespace {

bool magicAt(std::span<const std::uint8_t> payload, std::size_t offset, const char* magic)
{
    const std::size_t length = std::strlen(magic);
    return payload.size() >= offset + length && std::memcmp(payload.data() + offset, magic, length) == 0;
}

bool looksXnnpack(std::span<const std::uint8_t> p)
{
    return magicAt(p, 4, "XH00") || magicAt(p, 4, "XN00") || magicAt(p, 4, "XN01");
}
bool looksVulkan(std::span<const std::uint8_t> p)
{
    return magicAt(p, 4, "VH00") || magicAt(p, 4, "VK00");
}
bool looksMps(std::span<const std::uint8_t> p)
{
    return magicAt(p, 4, "MP00");
}
bool looksQnn(std::span<const std::uint8_t> p)
{
    return magicAt(p, 0, "\xCD\xAB\x78\x56");
}
bool looksEthosU(std::span<const std::uint8_t> p)
{
    return p.size() >= 16 && magicAt(p, 0, "vela_bin_stream");
}
bool looksVgf(std::span<const std::uint8_t> p)
{
    return magicAt(p, 0, "VGF1");
}
bool looksTosa(std::span<const std::uint8_t> p)
{
    return magicAt(p, 4, "TOSA");
}
bool looksMlx(std::span<const std::uint8_t> p)
{
    return magicAt(p, 4, "MLX0");
}
bool looksNativeGraph(std::span<const std::uint8_t> p)
{
    return magicAt(p, 4, "NPTG");
}
bool looksCoreMlReference(std::span<const std::uint8_t> p)
{
    return magicAt(p, 0, "CMJR");
}

struct Decoder {
    const char* backendId; ///< the backend id this decoder is registered for
    bool (*sniff)(std::span<const std::uint8_t>); ///< magic check for other ids; nullptr: by id only
    bool (*decode)(const DelegateContext&, DelegateInfo&);
};

// First the decoder registered for the backend id; when that is missing or fails, the ones
// whose magic matches (a renamed or wrapped backend still shows its graph).
constexpr Decoder kDecoders[] = {
    { "XnnpackBackend", &looksXnnpack, &decodeXnnpack },
    { "VulkanBackend", &looksVulkan, &decodeVulkan },
    { "MPSBackend", &looksMps, &decodeMps },
    { "CoreMLBackend", &looksCoreMlReference, &decodeCoreMl },
    { "EthosUBackend", &looksEthosU, &decodeEthosU },
    { "VgfBackend", &looksVgf, &decodeVgf },
    { "QnnBackend", &looksQnn, &decodeQnn },
    { "OpenvinoBackend", nullptr, &decodeOpenvino },
    { "TOSABackend", &looksTosa, &decodeTosa },
    { "MLXBackend", &looksMlx, &decodeMlx },
    { "NativeBackend", &looksNativeGraph, &decodeNativeGraph },
};

/// Runs one decoder on a copy of `info`. On failure only the warnings survive, plus, for the
/// backend's own decoder, the header facts it read before giving up (true facts of a damaged
/// payload); a decoder tried on a magic alone leaves no facts behind.
bool attempt(const Decoder& decoder, const DelegateContext& context, DelegateInfo& info, bool keepFacts)
{
    DelegateInfo trial = info;
    bool decoded = false;
    try {
        decoded = decoder.decode(context, trial);
    } catch (...) {
        // The describer's exception boundary: whatever a decoder throws becomes a warning and
        // the delegate is shown as an opaque, described node.
        context.warn(
            trial, std::string(decoder.backendId) + " decoder stopped: " + exceptionText(std::current_exception()));
    }
    if (decoded) {
        info = std::move(trial);
        return true;
    }
    if (keepFacts && trial.facts.size() > info.facts.size())
        info.facts.insert(
            info.facts.end(), trial.facts.begin() + static_cast<std::ptrdiff_t>(info.facts.size()), trial.facts.end());
    info.warnings.insert(info.warnings.end(),
        trial.warnings.begin() + static_cast<std::ptrdiff_t>(info.warnings.size()), trial.warnings.end());
    return false;
}

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

std::optional<std::span<const std::uint8_t>> DelegateContext::namedData(const std::string& key) const
{
    const auto slice
        = [](const MappedFile* file, const ByteRange& range) -> std::optional<std::span<const std::uint8_t>> {
        if (!file)
            return std::nullopt;
        const auto all = file->bytes();
        if (range.offset > all.size() || range.size > all.size() - range.offset)
            return std::nullopt;
        return all.subspan(static_cast<std::size_t>(range.offset), static_cast<std::size_t>(range.size));
    };
    if (const NamedDataEntry* entry = program.findNamedData(key))
        return slice(program.file.get(), entry->data);
    for (const ExternalData* data : externalData)
        if (const NamedDataEntry* entry = data->find(key))
            return slice(data->file.get(), entry->data);
    return std::nullopt;
}

void DelegateContext::warn(
    DelegateInfo& info, const std::string& reason, std::optional<std::uint64_t> payloadOffset) const
{
    std::optional<std::uint64_t> offset;
    if (payloadOffset)
        offset = ref.payload.offset + *payloadOffset;
    info.warnings.push_back({ where + " (" + ref.backendId + "): " + reason, offset });
}

void DelegateContext::adoptInnerGraph(DelegateInfo& info, std::shared_ptr<Graph> graph, const std::string& summaryHead,
    std::uint64_t units, const char* unitSingular, const char* unitPlural, int inputCount, int outputCount) const
{
    info.inputCount = inputCount;
    info.outputCount = outputCount;
    info.summary = summaryHead + ": " + detail::plural(units, unitSingular, unitPlural) + ", "
        + detail::plural(static_cast<std::uint64_t>(inputCount), "input", "inputs") + ", "
        + detail::plural(static_cast<std::uint64_t>(outputCount), "output", "outputs");
    for (const Warning& w : graph->warnings)
        info.warnings.push_back({ where + ": " + w.message, w.offset });
    info.innerGraph = std::move(graph);
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
        // A FlatBuffer with a schema is read into named facts (qnn.cpp), its hex kept only when
        // it cannot be read.
        info.facts.push_back({ "compile_spec " + spec.key,
            spec.key == "qnn_compile_spec"
                ? std::to_string(spec.value.size()) + " bytes, a QnnExecuTorchOptions FlatBuffer (its fields follow)"
                : bytesForDisplay(spec.value) });
    info.facts.push_back({ "first bytes", toHex(context.payload, 32) });
}

namespace {

DelegateInfo describeWith(const Program& program, const DelegateRef& ref, std::span<const std::uint8_t> payload,
    std::span<const ExternalData* const> externalData, const std::string& where, DecodeCache* cache, bool defer)
{
    DelegateInfo info;
    info.backendId = ref.backendId;
    info.format = "opaque";
    DelegateContext context { program, ref, payload, externalData, where, cache, defer };
    addCommonFacts(context, info);

    bool decoded = false;
    for (const Decoder& decoder : kDecoders) {
        if (ref.backendId == decoder.backendId && attempt(decoder, context, info, true)) {
            decoded = true;
            break;
        }
    }
    for (const Decoder& decoder : kDecoders) {
        if (decoded)
            break;
        if (ref.backendId == decoder.backendId || !decoder.sniff || !decoder.sniff(payload))
            continue;
        if (attempt(decoder, context, info, false)) {
            decoded = true;
            info.facts.push_back({ "recognised by", std::string("the ") + decoder.backendId + " payload magic" });
        }
    }
    if (!decoded) {
        info.format = "opaque";
        info.summary = ref.backendId + ": " + formatBytes(payload.size()) + " payload, not decoded";
    }
    // After the payload: what the compile specs say the delegate was built for holds even when
    // the payload could not be read.
    // They are listed first: what was asked for, then what the payload's header confirms.
    const auto fromPayload = static_cast<std::ptrdiff_t>(info.target.size());
    addCompileSpecTargets(context, info);
    std::rotate(info.target.begin(), info.target.begin() + fromPayload, info.target.end());
    return info;
}

std::span<const std::uint8_t> payloadOf(const Program& program, const DelegateRef& ref)
{
    return program.file ? program.bytes(ref.payload) : std::span<const std::uint8_t> {};
}

} // namespace

SubgraphRef deferredInnerGraph(std::size_t operators)
{
    return SubgraphRef::deferred(operators, {});
}

DeferredDecodeSources::DeferredDecodeSources(const Program& program, std::span<const ExternalData* const> externalData)
{
    m_program.file = program.file;
    m_program.region = program.region;
    m_program.identifier = program.identifier;
    m_program.namedData = program.namedData;
    m_program.namedDataByKey = program.namedDataByKey;
    m_external.reserve(externalData.size());
    for (const ExternalData* data : externalData)
        m_external.push_back(*data);
    for (const ExternalData& data : m_external)
        m_externalPointers.push_back(&data);
}

namespace {

/// `payload`: nullopt to read the delegate's own bytes from the program's file.
DelegateInfo describeDeferred(const Program& program, const DelegateRef& ref,
    std::optional<std::span<const std::uint8_t>> payload, std::span<const ExternalData* const> externalData,
    const std::string& where, const std::shared_ptr<DeferredDecodeSources>& sources)
{
    DelegateInfo info = describeWith(
        program, ref, payload ? *payload : payloadOf(program, ref), externalData, where, &sources->cache(), true);
    if (!info.innerGraph.deferredDecode())
        return info; // decoded whole (a backend that cannot defer), or no inside
    // The decoder said what it could without the graph; the graph is its eager run, later. That
    // run repeats the warnings found so far, so it keeps only those after them.
    const std::size_t known = info.warnings.size();
    info.innerGraph = SubgraphRef::deferred(info.innerGraph.operatorCount(),
        [sources, ref, payload, where, known, backend = ref.backendId]() -> SubgraphRef::Decoded {
            SubgraphRef::Decoded decoded;
            const Program& shell = sources->program();
            DelegateInfo full = describeWith(shell, ref, payload ? *payload : payloadOf(shell, ref),
                sources->externalData(), where, &sources->cache(), false);
            decoded.graph = full.innerGraph.shared();
            if (full.warnings.size() > known)
                decoded.warnings.assign(
                    full.warnings.begin() + static_cast<std::ptrdiff_t>(known), full.warnings.end());
            if (!decoded.graph)
                decoded.warnings.push_back(
                    { where + " (" + backend + "): the inner graph could not be decoded", std::nullopt });
            return decoded;
        });
    return info;
}

} // namespace

DelegateInfo describeDelegateDeferred(const Program& program, const DelegateRef& ref,
    std::span<const ExternalData* const> externalData, const std::string& where,
    const std::shared_ptr<DeferredDecodeSources>& sources)
{
    return describeDeferred(program, ref, std::nullopt, externalData, where, sources);
}

DelegateInfo describePayloadDeferred(const Program& program, const DelegateRef& ref,
    std::span<const std::uint8_t> payload, std::span<const ExternalData* const> externalData, const std::string& where,
    const std::shared_ptr<DeferredDecodeSources>& sources)
{
    return describeDeferred(program, ref, payload, externalData, where, sources);
}

DelegateInfo describePayload(const Program& program, const DelegateRef& ref, std::span<const std::uint8_t> payload,
    std::span<const ExternalData* const> externalData, const std::string& where, DecodeCache* cache)
{
    return describeWith(program, ref, payload, externalData, where, cache, false);
}

DelegateInfo describeDelegate(const Program& program, const DelegateRef& ref,
    std::span<const ExternalData* const> externalData, const std::string& where, DecodeCache* cache)
{
    return describeWith(program, ref, payloadOf(program, ref), externalData, where, cache, false);
}

} // namespace etscope::core
