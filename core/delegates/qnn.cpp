// SPDX-License-Identifier: MIT
// Qualcomm QNN payloads (facts sheet §3.4): magic 0x5678ABCD (little-endian), an int64 graph
// signature, a uint64 context-binary size, then the QNN context binary (read by qnncontext.cpp:
// graphs, their tensors and op node names). The header's length changed across ExecuTorch
// versions (backends/qualcomm/runtime/backends/QnnCustomProtocol.{h,cpp} in pytorch/executorch):
//   - 2025-01-04 (3c83553a65, "Support Hybrid Mode for Llama3.2") to 2026-03-06: 20 bytes, the
//     context binary right after the size field (GetContextBinaryOffset = 4 + 8 + 8);
//   - since 2026-03-06 (c3a140ffb9, "CDSP Direct Mode"): zero padding to 256 bytes
//     (QNN_CTX_BIN_ALIGNMENT), the context binary at 256.
// The size field always counts the context binary alone, so it tells the two apart: it equals
// the payload size less 256 or less 20. (Before 2025-01-04 the payload was a qc_binary_info.fbs
// FlatBuffer with no magic; this decoder does not read that.) The "qnn_compile_spec" compile spec
// is a FlatBuffer (QnnExecuTorchOptions, core/schema/qnn.fbs): decoded once the Verifier accepts
// it and its enumerations and booleans hold values of the layout that schema describes.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/delegates/qnncontext.h"
#include "core/delegates/targetfacts.h"
#include "core/pte/verify.h"
#include "core/util/text.h"
#include "qnn_generated.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

namespace etscope::core {
namespace fbq = etscope::fb::qnn;

namespace {

constexpr std::uint32_t kMagic = 0x5678ABCDu;
constexpr std::size_t kHeaderSize = 256; ///< since 2026-03-06
constexpr std::size_t kFieldsEnd = 20; ///< magic (4) + signature (8) + binary size (8): the header until 2026-03-06
constexpr std::size_t kSpecHexLimit = 1024;

std::string hex64(std::uint64_t value)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(value));
    return buffer;
}

/// An enumeration of qc_compiler_spec.fbs: names by value, nullptr-free.
using EnumNames = std::initializer_list<std::pair<int, const char*>>;

const EnumNames kChipsets = { { 0, "UNKNOWN_SM" }, { 30, "SM8350" }, { 36, "SM8450" }, { 39, "SA8295" },
    { 42, "SM8475" }, { 43, "SM8550" }, { 45, "SXR1230P" }, { 46, "SSG2115P" }, { 52, "SA8255" }, { 53, "SXR2230P" },
    { 57, "SM8650" }, { 58, "SSG2125P" }, { 69, "SM8750" }, { 72, "SA8797" }, { 75, "SXR2330P" }, { 77, "QCS9100" },
    { 87, "SM8850" }, { 93, "QCM6490" }, { 95, "SAR2230P" }, { 96, "SW6100" }, { 97, "SM8845" } };
const EnumNames kBackends = { { 0, "kUndefinedBackend" }, { 1, "kGpuBackend" }, { 2, "kHtpBackend" },
    { 3, "kDspBackend" }, { 4, "kLpaiBackend" } };
const EnumNames kHtpPerformance = { { 0, "kHtpDefault" }, { 1, "kHtpSustainedHighPerformance" }, { 2, "kHtpBurst" },
    { 3, "kHtpHighPerformance" }, { 4, "kHtpPowerSaver" }, { 5, "kHtpLowPowerSaver" }, { 6, "kHtpHighPowerSaver" },
    { 7, "kHtpLowBalanced" }, { 8, "kHtpBalanced" } };
const EnumNames kHtpPrecision = { { 0, "kHtpQuantized" }, { 1, "kHtpFp16" } };
const EnumNames kPdSession = { { 0, "kHtpUnsignedPd" }, { 1, "kHtpSignedPd" } };
const EnumNames kGpuPerformance = { { 0, "kGpuPerfHintHigh" }, { 1, "kGpuPerfHintNormal" }, { 2, "kGpuPerfHintLow" } };
const EnumNames kGpuPrecision = { { 0, "kGpuPrecisionFp32" }, { 1, "kGpuPrecisionFp16" }, { 2, "kGpuPrecisionHybrid" },
    { 3, "kGpuPrecisionUserProvided" } };
const EnumNames kLogLevels = { { 0, "kLogOff" }, { 1, "kLogLevelError" }, { 2, "kLogLevelWarn" },
    { 3, "kLogLevelInfo" }, { 4, "kLogLevelVerbose" }, { 5, "kLogLevelDebug" } };
const EnumNames kProfileLevels
    = { { 0, "kProfileOff" }, { 1, "kProfileBasic" }, { 2, "kProfileDetailed" }, { 3, "kProfileOptrace" } };

const char* enumName(const EnumNames& names, int value)
{
    for (const auto& [number, name] : names)
        if (number == value)
            return name;
    return nullptr;
}

/// The facts and targets of a verified QnnExecuTorchOptions. A value that does not belong to the
/// layout of core/schema/qnn.fbs (an enumeration out of range, a boolean other than 0/1: what
/// an older exporter's layout, with its fields in other slots, reads as) is remembered with its
/// offset in the value: the first such makes the whole spec unread.
class SpecReader {
public:
    explicit SpecReader(const std::uint8_t* base)
        : m_base(base)
    {
    }

    std::vector<Attribute> facts;
    std::vector<TargetFact> targets;
    std::optional<std::pair<std::string, std::uint64_t>> firstBad; ///< field and offset in the value

    const char* enumeration(
        const std::string& name, const void* table, flatbuffers::voffset_t field, int value, const EnumNames& names)
    {
        const char* text = enumName(names, value);
        if (!text)
            bad(name + " = " + std::to_string(value) + " (not a value of its enumeration)", table, field);
        facts.push_back({ name, text ? std::string(text) : std::to_string(value) });
        return text;
    }
    void flag(const std::string& name, const void* table, flatbuffers::voffset_t field, std::uint8_t value)
    {
        if (value > 1)
            bad(name + " = " + std::to_string(value) + " (a boolean holds 0 or 1)", table, field);
        facts.push_back({ name, value == 0 ? "false" : value == 1 ? "true" : std::to_string(value) });
    }
    void text(const std::string& name, const flatbuffers::String* value)
    {
        facts.push_back({ name, value ? "\"" + value->str() + "\"" : std::string("(none)") });
    }
    void number(const std::string& name, long long value) { facts.push_back({ name, std::to_string(value) }); }
    void target(std::string key, std::string name, std::string value, std::optional<std::int64_t> number = {})
    {
        targets.push_back(
            { std::move(key), std::move(name), std::move(value), number, "compile spec qnn_compile_spec" });
    }

private:
    void bad(std::string what, const void* table, flatbuffers::voffset_t field)
    {
        if (firstBad)
            return;
        // Generated tables derive privately from flatbuffers::Table and are laid out as one.
        const std::uint8_t* at = reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(field);
        firstBad.emplace(
            std::move(what), static_cast<std::uint64_t>((at ? at : static_cast<const std::uint8_t*>(table)) - m_base));
    }

    const std::uint8_t* m_base;
};

/// "kHtpBurst" → "burst": the enumeration's name as a reader says it, with the name kept.
std::string plainName(const char* name, std::string_view prefix)
{
    std::string text(name ? name : "unknown");
    if (text.starts_with(prefix))
        text = text.substr(prefix.size());
    std::string out;
    for (const char c : text) {
        if (c >= 'A' && c <= 'Z') {
            if (!out.empty())
                out += ' ';
            out += static_cast<char>(c - 'A' + 'a');
        } else {
            out += c;
        }
    }
    return out + " (" + (name ? name : "?") + ")";
}

void decodeCompileSpec(std::span<const std::uint8_t> value, SpecReader& r)
{
    const auto* options = flatbuffers::GetRoot<fbq::QnnExecuTorchOptions>(value.data());
    const std::string p = "compile spec ";
    if (const fbq::SocInfo* soc = options->soc_info()) {
        const char* chipset = enumName(kChipsets, soc->soc_model());
        r.facts.push_back({ p + "soc_model",
            (chipset ? std::string(chipset) + " (" : std::string("(")) + std::to_string(soc->soc_model()) + ")" });
        r.target("qnn.soc_model", "SoC model",
            (chipset ? std::string(chipset) : std::string("unknown")) + " (" + std::to_string(soc->soc_model()) + ")",
            soc->soc_model());
        if (const fbq::HtpInfo* htp = soc->htp_info()) {
            r.facts.push_back({ p + "htp_arch", htp->htp_arch() ? "V" + std::to_string(htp->htp_arch()) : "NONE" });
            r.number(p + "vtcm_size_in_mb", htp->vtcm_size_in_mb());
            r.target("qnn.htp_arch", "HTP architecture", htpArchText(htp->htp_arch()), htp->htp_arch());
            r.target("qnn.vtcm_mb", "VTCM (compile spec)", std::to_string(htp->vtcm_size_in_mb()) + " MB",
                htp->vtcm_size_in_mb());
        }
        if (const fbq::LpaiInfo* lpai = soc->lpai_info()) {
            r.number(p + "lpai_hardware_version", lpai->lpai_hardware_version());
            r.target("qnn.lpai_hardware_version", "LPAI hardware version",
                "v" + std::to_string(lpai->lpai_hardware_version()), lpai->lpai_hardware_version());
        }
    }
    if (const fbq::BackendOptions* backend = options->backend_options()) {
        const char* type = r.enumeration(
            p + "backend_type", backend, fbq::BackendOptions::VT_BACKEND_TYPE, backend->backend_type(), kBackends);
        r.target("qnn.backend", "QNN backend", plainName(type, "k"), backend->backend_type());
        if (const fbq::HtpBackendOptions* htp = backend->htp_options()) {
            const std::string h = p + "htp ";
            using O = fbq::HtpBackendOptions;
            r.number(h + "max_sf_buf_size", htp->max_sf_buf_size());
            const char* perf = r.enumeration(
                h + "performance_mode", htp, O::VT_PERFORMANCE_MODE, htp->performance_mode(), kHtpPerformance);
            const char* precision
                = r.enumeration(h + "precision", htp, O::VT_PRECISION, htp->precision(), kHtpPrecision);
            const char* pd = r.enumeration(h + "pd_session", htp, O::VT_PD_SESSION, htp->pd_session(), kPdSession);
            r.flag(h + "use_conv_hmx", htp, O::VT_USE_CONV_HMX, htp->use_conv_hmx());
            r.flag(h + "use_dlbc", htp, O::VT_USE_DLBC, htp->use_dlbc());
            r.flag(h + "use_fold_relu", htp, O::VT_USE_FOLD_RELU, htp->use_fold_relu());
            r.flag(h + "use_multi_contexts", htp, O::VT_USE_MULTI_CONTEXTS, htp->use_multi_contexts());
            r.flag(h + "use_weight_sharing", htp, O::VT_USE_WEIGHT_SHARING, htp->use_weight_sharing());
            r.flag(h + "use_slc_allocator", htp, O::VT_USE_SLC_ALLOCATOR, htp->use_slc_allocator());
            r.target("qnn.precision", "HTP precision", plainName(precision, "kHtp"), htp->precision());
            r.target("qnn.performance_mode", "HTP performance mode", plainName(perf, "kHtp"), htp->performance_mode());
            r.target("qnn.pd_session", "HTP PD session", plainName(pd, "kHtp"), htp->pd_session());
            r.target("qnn.weight_sharing", "weight sharing", htp->use_weight_sharing() ? "yes" : "no");
        }
        if (const fbq::GpuBackendOptions* gpu = backend->gpu_options()) {
            const std::string g = p + "gpu ";
            using O = fbq::GpuBackendOptions;
            const char* perf = r.enumeration(
                g + "performance_mode", gpu, O::VT_PERFORMANCE_MODE, gpu->performance_mode(), kGpuPerformance);
            const char* precision
                = r.enumeration(g + "precision", gpu, O::VT_PRECISION, gpu->precision(), kGpuPrecision);
            r.flag(
                g + "use_memory_optimizations", gpu, O::VT_USE_MEMORY_OPTIMIZATIONS, gpu->use_memory_optimizations());
            r.flag(g + "use_node_optimizations", gpu, O::VT_USE_NODE_OPTIMIZATIONS, gpu->use_node_optimizations());
            r.flag(g + "use_queue_recording", gpu, O::VT_USE_QUEUE_RECORDING, gpu->use_queue_recording());
            r.flag(g + "use_weight_sharing", gpu, O::VT_USE_WEIGHT_SHARING, gpu->use_weight_sharing());
            r.target("qnn.gpu_precision", "GPU precision", plainName(precision, "kGpuPrecision"), gpu->precision());
            r.target("qnn.gpu_performance_mode", "GPU performance hint", plainName(perf, "kGpuPerfHint"),
                gpu->performance_mode());
        }
        if (const fbq::LpaiBackendOptions* lpai = backend->lpai_options()) {
            const std::string l = p + "lpai ";
            r.number(l + "fps", lpai->fps());
            r.number(l + "ftrt_ratio", lpai->ftrt_ratio());
            r.number(l + "client_perf_type", lpai->client_perf_type());
            r.number(l + "affinity", lpai->affinity());
            r.number(l + "core_selection", lpai->core_selection());
            r.number(l + "target_env", lpai->target_env());
        }
    }
    using O = fbq::QnnExecuTorchOptions;
    r.text(p + "library_path", options->library_path());
    r.enumeration(p + "log_level", options, O::VT_LOG_LEVEL, options->log_level(), kLogLevels);
    r.flag(p + "online_prepare", options, O::VT_ONLINE_PREPARE, options->online_prepare());
    r.flag(p + "dump_intermediate_outputs", options, O::VT_DUMP_INTERMEDIATE_OUTPUTS,
        options->dump_intermediate_outputs());
    const char* profile
        = r.enumeration(p + "profile_level", options, O::VT_PROFILE_LEVEL, options->profile_level(), kProfileLevels);
    r.flag(p + "shared_buffer", options, O::VT_SHARED_BUFFER, options->shared_buffer());
    r.flag(p + "is_from_context_binary", options, O::VT_IS_FROM_CONTEXT_BINARY, options->is_from_context_binary());
    r.flag(p + "saver", options, O::VT_SAVER, options->saver());
    r.text(p + "saver_output_dir", options->saver_output_dir());
    std::string packages;
    std::size_t packageCount = 0;
    if (const fbq::OpPackageOptions* op = options->op_package_options())
        if (const auto* infos = op->op_package_infos())
            for (const fbq::OpPackageInfo* info : *infos) {
                ++packageCount;
                if (info && info->op_package_name())
                    packages += (packages.empty() ? ": " : ", ") + info->op_package_name()->str();
            }
    r.facts.push_back({ p + "op packages", std::to_string(packageCount) + packages });
    r.flag(p + "use_mha2sha", options, O::VT_USE_MHA2SHA, options->use_mha2sha());
    r.target("qnn.profile_level", "profiling", plainName(profile, "kProfile"), options->profile_level());
    r.target("qnn.shared_buffer", "shared buffer", options->shared_buffer() ? "yes" : "no");
    r.target("qnn.online_prepare", "online prepare", options->online_prepare() ? "yes" : "no");
    r.target("qnn.op_packages", "op packages", std::to_string(packageCount) + packages,
        static_cast<std::int64_t>(packageCount));
}

/// The method whose delegate this is: the program's method holding this very DelegateRef, else
/// the name in "method 'x', delegate n" (the document's wording); empty when neither tells.
std::string methodOf(const DelegateContext& context)
{
    for (const Method& method : context.program.methods)
        for (const DelegateRef& ref : method.delegates)
            if (&ref == &context.ref)
                return method.name;
    const std::string prefix = "method '";
    if (context.where.starts_with(prefix)) {
        const std::size_t end = context.where.find('\'', prefix.size());
        if (end != std::string::npos)
            return context.where.substr(prefix.size(), end - prefix.size());
    }
    return {};
}

} // namespace

std::string qnnChipsetName(std::int64_t socModel)
{
    const char* name = socModel >= 0 && socModel <= 0xFFFF ? enumName(kChipsets, static_cast<int>(socModel)) : nullptr;
    return name ? name : "unknown";
}

void readQnnCompileSpec(const DelegateContext& context, DelegateInfo& info, const CompileSpec& spec)
{
    const auto value = std::span<const std::uint8_t>(spec.value);
    const std::string where = context.where + " (" + context.ref.backendId + "): compile spec qnn_compile_spec";
    const auto keepHex = [&](const std::string& problem, std::uint64_t within) {
        info.warnings.push_back({ where + ": " + problem + "; shown as hex",
            spec.valueOffset ? std::optional<std::uint64_t>(*spec.valueOffset + within) : std::nullopt });
        info.facts.push_back({ "qnn_compile_spec not decoded", problem });
        info.facts.push_back(
            { "qnn_compile_spec (hex, " + std::to_string(spec.value.size()) + " bytes)", toHex(value, kSpecHexLimit) });
    };
    if (value.empty()) {
        keepHex("it is empty", 0);
        return;
    }
    // The verifier reads scalars in place: the value is a std::vector's block, aligned for them.
    if (!verifyFlatbuffer<fbq::QnnExecuTorchOptions>(value.data(), value.size(), nullptr, false)) {
        keepHex("the FlatBuffers verifier rejected it as QnnExecuTorchOptions", 0);
        return;
    }
    SpecReader reader(value.data());
    decodeCompileSpec(value, reader);
    if (reader.firstBad) {
        keepHex("its values do not fit the layout of qc_compiler_spec.fbs since 2025-12 (an older exporter "
                "wrote its fields in other slots): "
                + reader.firstBad->first + " at byte " + std::to_string(reader.firstBad->second) + " of the value",
            reader.firstBad->second);
        return;
    }
    info.facts.insert(info.facts.end(), reader.facts.begin(), reader.facts.end());
    info.target.insert(info.target.end(), reader.targets.begin(), reader.targets.end());
}

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

    // Which header: the size field counts the context binary alone (see the top of this file).
    const std::uint64_t size = payload.size();
    const bool padded = size >= kHeaderSize
        && std::all_of(
            payload.begin() + kFieldsEnd, payload.begin() + kHeaderSize, [](std::uint8_t b) { return b == 0; });
    std::size_t headerSize = kHeaderSize;
    if (size >= kHeaderSize && binarySize == size - kHeaderSize) {
        info.facts.push_back({ "header size", "256 (ExecuTorch since 2026-03-06)" });
    } else if (binarySize == size - kFieldsEnd) {
        headerSize = kFieldsEnd;
        info.facts.push_back({ "header size", "20 (ExecuTorch 2025-01-04 to 2026-03-06)" });
    } else {
        headerSize = padded ? kHeaderSize : kFieldsEnd;
        std::string follow = std::to_string(size - kFieldsEnd) + " bytes follow a 20-byte header";
        if (size >= kHeaderSize)
            follow += " and " + std::to_string(size - kHeaderSize) + " a 256-byte one";
        context.warn(
            info, "the header announces a " + std::to_string(binarySize) + "-byte context binary but " + follow, 12);
        info.facts.push_back({ "header size", std::to_string(headerSize) + " (assumed: the size field fits neither)" });
    }
    if (headerSize == kHeaderSize && !padded)
        info.facts.push_back({ "header padding", "not all zero" });
    info.facts.push_back({ "context binary first bytes", toHex(payload.subspan(headerSize), 32) });
    info.summary = "QNN context binary: " + formatBytes(binarySize) + ", graph signature " + std::to_string(signature);
    decodeQnnContext(context, info, headerSize, methodOf(context));
    return true;
}

} // namespace etscope::core
