// SPDX-License-Identifier: MIT
// The compile specs that say which device a delegate was built for (issue 33), read into
// named TargetFacts whether the payload decoded or not.
//
// Core ML (pytorch/executorch backends/apple/coreml/compiler/coreml_preprocess.py, snapshot
// cff6f4dd32e6): "min_deployment_target" is the decimal text of coremltools' target number,
// empty for none; "compute_units" the lower-case ComputeUnit name (all, cpu_only, cpu_and_gpu,
// cpu_and_ne); "model_compute_precision" the coremltools precision text (float16, float32);
// "model_type" model or compiled_model. coremltools' target numbers are Core ML specification
// versions: apple/coremltools coremltools/__init__.py (_SPECIFICATION_VERSION_IOS_13 = 4 up to
// _SPECIFICATION_VERSION_IOS_18 = 9, commit 07f72f5155) and the aliases of AvailableTarget in
// coremltools/converters/mil/_deployment_compatibility.py (commit 1902a6dfd4: macOS 10.15,
// watchOS 6 and tvOS 13 are iOS 13's number, macOS 11 iOS 14's, macOS 12 iOS 15's, macOS 13
// iOS 16's, macOS 14 iOS 17's; coremltools 8 adds iOS 18 = macOS 15 = watchOS 11 = tvOS 18).
//
// Arm Ethos-U and VGF (backends/arm: arm_compile_spec.py, ethosu/compile_spec.py): "target"
// (ethos-u55-128), "compile_flags" (Vela's command line: --accelerator-config, --system-config,
// --memory-mode, --config and the rest), "tosa_spec" (TOSA-1.0+INT+…), "output_format".
#include "core/delegates/targetfacts.h"

#include <charconv>
#include <sstream>
#include <vector>

namespace etscope::core {

namespace {

std::string specText(const CompileSpec& spec)
{
    return { spec.value.begin(), spec.value.end() };
}

std::string specSource(const CompileSpec& spec)
{
    return "compile spec " + spec.key;
}

/// Warns about one compile spec's value, naming the delegate, the spec and the value's file offset.
void warnSpec(const DelegateContext& context, DelegateInfo& info, const CompileSpec& spec, const std::string& reason,
    std::uint64_t within = 0)
{
    std::optional<std::uint64_t> offset;
    if (spec.valueOffset)
        offset = *spec.valueOffset + within;
    info.warnings.push_back({ context.where + " (" + context.ref.backendId + "): compile spec " + spec.key + ": "
            + reason + (spec.valueOffset ? "" : " (byte " + std::to_string(within) + " of its value)"),
        offset });
}

bool printable(const std::string& text)
{
    for (const char c : text)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
            return false;
    return true;
}

void readCoreMlSpec(const DelegateContext& context, DelegateInfo& info, const CompileSpec& spec)
{
    const std::string text = specText(spec);
    if (spec.key == "min_deployment_target") {
        if (text.empty()) {
            addTarget(info, "coreml.min_deployment_target", "minimum deployment target",
                "none given (coremltools picks the lowest its model needs)", std::nullopt, specSource(spec));
            return;
        }
        std::int64_t number = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
        if (error != std::errc() || end != text.data() + text.size()) {
            warnSpec(context, info, spec,
                "'" + (printable(text) ? text : std::string("(binary)"))
                    + "' is not a coremltools target number; the deployment target is unknown");
            return;
        }
        const std::string os = coreMlOsText(number);
        addTarget(info, "coreml.min_deployment_target", "minimum deployment target",
            (os.empty() ? "unknown to coremltools 8" : os) + " (coremltools target " + text + ")", number,
            specSource(spec));
        if (os.empty())
            warnSpec(context, info, spec, "target number " + text + " names no OS version coremltools 8 knows");
    } else if (spec.key == "compute_units") {
        const char* meaning = text == "all" ? "CPU, GPU and Neural Engine"
            : text == "cpu_only"            ? "CPU only"
            : text == "cpu_and_gpu"         ? "CPU and GPU"
            : text == "cpu_and_ne"          ? "CPU and Neural Engine"
                                            : nullptr;
        if (!meaning)
            warnSpec(context, info, spec,
                "'" + (printable(text) ? text : std::string("(binary)")) + "' is not a coremltools ComputeUnit");
        addTarget(info, "coreml.compute_units", "compute units",
            meaning ? text + " (" + meaning + ")" : (printable(text) ? text : std::string("(unreadable)")),
            std::nullopt, specSource(spec));
    } else if (spec.key == "model_compute_precision") {
        if (text != "float16" && text != "float32")
            warnSpec(context, info, spec,
                "'" + (printable(text) ? text : std::string("(binary)")) + "' is not a coremltools precision");
        addTarget(info, "coreml.compute_precision", "compute precision",
            printable(text) ? text : std::string("(unreadable)"), std::nullopt, specSource(spec));
    } else if (spec.key == "model_type") {
        addTarget(info, "coreml.model_type", "model type", printable(text) ? text : std::string("(unreadable)"),
            std::nullopt, specSource(spec));
    }
}

/// Vela's flags, one "--name=value" or "--name" a word.
std::vector<std::pair<std::string, std::size_t>> words(const std::string& text)
{
    std::vector<std::pair<std::string, std::size_t>> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t begin = text.find_first_not_of(' ', at);
        if (begin == std::string::npos)
            break;
        std::size_t end = text.find(' ', begin);
        if (end == std::string::npos)
            end = text.size();
        out.emplace_back(text.substr(begin, end - begin), begin);
        at = end;
    }
    return out;
}

/// "ethos-u55-128" → (55, 128); nullopt when it is not of that form.
std::optional<std::pair<int, int>> ethosTarget(const std::string& text)
{
    int variant = 0;
    int macs = 0;
    const std::string prefix = "ethos-u";
    if (!text.starts_with(prefix))
        return std::nullopt;
    const char* p = text.data() + prefix.size();
    const char* end = text.data() + text.size();
    const auto [afterVariant, e1] = std::from_chars(p, end, variant);
    if (e1 != std::errc() || afterVariant == end || *afterVariant != '-')
        return std::nullopt;
    const auto [afterMacs, e2] = std::from_chars(afterVariant + 1, end, macs);
    if (e2 != std::errc() || afterMacs != end)
        return std::nullopt;
    return std::pair { variant, macs };
}

void readArmSpec(const DelegateContext& context, DelegateInfo& info, const CompileSpec& spec)
{
    const std::string text = specText(spec);
    if (!printable(text)) {
        if (spec.key == "target" || spec.key == "compile_flags" || spec.key == "tosa_spec")
            warnSpec(context, info, spec, "holds bytes that are not text; not read");
        return;
    }
    if (spec.key == "target") {
        const auto parsed = ethosTarget(text);
        if (parsed) {
            addTarget(info, "ethosu.npu", "NPU (compiled for)", "Ethos-U" + std::to_string(parsed->first),
                parsed->first, specSource(spec));
            addTarget(info, "ethosu.macs", "MACs per cycle (compiled for)", std::to_string(parsed->second),
                parsed->second, specSource(spec));
        } else {
            addTarget(info, "arm.target", "target", text, std::nullopt, specSource(spec));
        }
    } else if (spec.key == "tosa_spec") {
        addTarget(info, "arm.tosa_spec", "TOSA specification", text, std::nullopt, specSource(spec));
    } else if (spec.key == "output_format") {
        addTarget(info, "arm.output_format", "output format", text, std::nullopt, specSource(spec));
    } else if (spec.key == "compile_flags") {
        std::string others;
        for (const auto& [word, at] : words(text)) {
            const std::size_t equals = word.find('=');
            const std::string name = word.substr(0, equals);
            const std::string value = equals == std::string::npos ? std::string() : word.substr(equals + 1);
            if (name == "--accelerator-config" || name == "--system-config" || name == "--memory-mode"
                || name == "--config") {
                if (value.empty()) {
                    warnSpec(context, info, spec, name + " has no value", at);
                    continue;
                }
                const std::string key = name == "--accelerator-config" ? "ethosu.accelerator_config"
                    : name == "--system-config"                        ? "ethosu.system_config"
                    : name == "--memory-mode"                          ? "ethosu.memory_mode"
                                                                       : "ethosu.vela_config_file";
                const std::string shown = name == "--accelerator-config" ? "accelerator config"
                    : name == "--system-config"                          ? "system config"
                    : name == "--memory-mode"                            ? "memory mode"
                                                                         : "Vela config file";
                addTarget(info, key, shown, value, std::nullopt, specSource(spec) + " " + name);
            } else {
                others += (others.empty() ? "" : " ") + word;
            }
        }
        if (!others.empty())
            addTarget(info, "ethosu.vela_flags", "other Vela flags", others, std::nullopt, specSource(spec));
    }
}

} // namespace

void addTarget(DelegateInfo& info, std::string key, std::string name, std::string value,
    std::optional<std::int64_t> number, std::string source)
{
    info.target.push_back({ std::move(key), std::move(name), std::move(value), number, std::move(source) });
}

const TargetFact* findTarget(const DelegateInfo& info, std::string_view key)
{
    for (const TargetFact& fact : info.target)
        if (fact.key == key)
            return &fact;
    return nullptr;
}

std::string coreMlOsText(std::int64_t specificationVersion)
{
    switch (specificationVersion) {
    case 4:
        return "iOS 13, macOS 10.15, watchOS 6, tvOS 13";
    case 5:
        return "iOS 14, macOS 11, watchOS 7, tvOS 14";
    case 6:
        return "iOS 15, macOS 12, watchOS 8, tvOS 15";
    case 7:
        return "iOS 16, macOS 13, watchOS 9, tvOS 16";
    case 8:
        return "iOS 17, macOS 14, watchOS 10, tvOS 17";
    case 9:
        return "iOS 18, macOS 15, watchOS 11, tvOS 18";
    default:
        return {};
    }
}

std::string htpArchText(std::int64_t arch)
{
    return arch > 0 ? "v" + std::to_string(arch) : "none";
}

void addCompileSpecTargets(const DelegateContext& context, DelegateInfo& info)
{
    const std::string& backend = context.ref.backendId;
    for (const CompileSpec& spec : context.ref.compileSpecs) {
        if (spec.key == "qnn_compile_spec")
            readQnnCompileSpec(context, info, spec);
        else if (backend == "CoreMLBackend")
            readCoreMlSpec(context, info, spec);
        else if (backend == "EthosUBackend" || backend == "VgfBackend")
            readArmSpec(context, info, spec);
    }
}

} // namespace etscope::core
