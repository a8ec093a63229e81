// SPDX-License-Identifier: MIT
// Device files (`--device-file`) and what `check --device` and `--list-devices` print.
#include "core/analysis/devicecheck.h"

#include "core/util/mappedfile.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace etscope::core {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxDeviceFileBytes = 1U << 20U;

std::string npuText(const DeviceNpu& npu)
{
    return npu.variant + "-" + std::to_string(npu.macs) + (npu.macsChosenAtLaunch ? " (MACs set at launch)" : "");
}

/// The facts that matter for a check, one line.
std::string profileFacts(const DeviceProfile& p)
{
    std::vector<std::string> parts;
    if (p.htp == Presence::Yes)
        parts.push_back(p.socName + " HTP v" + std::to_string(p.htpArch) + ", VTCM " + std::to_string(p.vtcmMb) + " MB"
            + (p.qnnSdk.empty() ? "" : ", QNN SDK " + p.qnnSdk));
    for (const DeviceNpu& npu : p.npus)
        parts.push_back(npuText(npu));
    if (!p.os.empty())
        parts.push_back(p.os + " " + std::to_string(p.osMajor) + ", Core ML spec " + std::to_string(p.coreMlSpec));
    if (!p.cpu.empty())
        parts.push_back("CPU " + p.cpu);
    std::string backends;
    for (const std::string& b : p.backends)
        backends += (backends.empty() ? "" : " ") + b;
    parts.push_back("runtime " + (p.kernels.empty() ? "preset " + p.preset : joinedList(p.kernels)) + " + "
        + (backends.empty() ? "no backends" : backends));
    return joinedList(parts);
}

std::string idOf(const json& object)
{
    const auto it = object.find("id");
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// Reads one profile object; `where` names it in errors ("device 2").
Result<DeviceProfile> readProfile(const json& object, const std::string& name, const std::string& where)
{
    const auto fail
        = [&](const std::string& reason) { return makeError(Error::Code::Corrupt, name, where + ": " + reason); };
    if (!object.is_object())
        return fail("is not an object");
    const std::string id = idOf(object);
    if (id.empty())
        return fail("has no \"id\" (a lower-case name such as \"my-phone\")");
    for (const char c : id)
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'
                || c == '_' || c == '.'))
            return fail("id '" + id + "' is not lower case letters, digits, '-', '_' or '.'");
    DeviceProfile p;
    if (const auto base = object.find("based_on"); base != object.end()) {
        if (!base->is_string())
            return fail("\"based_on\" is not a string");
        auto found = findDeviceProfile(base->get<std::string>());
        if (!found)
            return fail("\"based_on\": " + found.error().reason);
        p = *found;
    }
    p.id = id;
    p.source = name;
    std::string problem;
    const auto text = [&](const char* key, std::string& into) {
        if (const auto it = object.find(key); it != object.end()) {
            if (it->is_string())
                into = it->get<std::string>();
            else if (problem.empty())
                problem = std::string("\"") + key + "\" is not a string";
        }
    };
    const auto number = [&](const char* key, int& into) {
        if (const auto it = object.find(key); it != object.end()) {
            if (it->is_number_integer() && it->get<long long>() >= 0 && it->get<long long>() <= 1000000)
                into = it->get<int>();
            else if (problem.empty())
                problem = std::string("\"") + key + "\" is not a whole number from 0 to 1000000";
        }
    };
    const auto strings = [&](const char* key, std::vector<std::string>& into) {
        if (const auto it = object.find(key); it != object.end()) {
            into.clear();
            if (!it->is_array()) {
                if (problem.empty())
                    problem = std::string("\"") + key + "\" is not a list of strings";
                return;
            }
            for (const json& item : *it) {
                if (!item.is_string()) {
                    if (problem.empty())
                        problem = std::string("\"") + key + "\" is not a list of strings";
                    return;
                }
                into.push_back(item.get<std::string>());
            }
        }
    };
    text("title", p.title);
    if (p.title.empty())
        p.title = id;
    text("soc", p.socName);
    number("htp_arch", p.htpArch);
    number("vtcm_mb", p.vtcmMb);
    text("qnn_sdk", p.qnnSdk);
    if (object.contains("htp_arch"))
        p.htp = p.htpArch > 0 ? Presence::Yes : Presence::No;
    std::vector<std::string> npus;
    if (const auto it = object.find("ethos_u"); it != object.end() && it->is_string() && *it == "unknown") {
        p.npus.clear();
        p.ethosU = Presence::Unknown;
    } else if (it != object.end()) {
        strings("ethos_u", npus);
        p.npus.clear();
        for (const std::string& npu : npus) {
            // "ethos-u55-128", as Vela's --accelerator-config names it.
            int variant = 0;
            int macs = 0;
            if (std::sscanf(npu.c_str(), "ethos-u%d-%d", &variant, &macs) != 2 || variant <= 0 || macs <= 0) {
                if (problem.empty())
                    problem = "\"ethos_u\": '" + npu + "' is not an accelerator config such as ethos-u55-128";
                continue;
            }
            p.npus.push_back({ "Ethos-U" + std::to_string(variant), macs, false });
        }
        p.ethosU = p.npus.empty() ? Presence::No : Presence::Yes;
    }
    std::string os;
    text("os", os);
    if (!os.empty()) {
        if (os == "ios" || os == "iOS")
            p.os = "iOS";
        else if (os == "macos" || os == "macOS")
            p.os = "macOS";
        else if (problem.empty())
            problem = "\"os\": '" + os + "' is not ios or macos";
    }
    number("os_version", p.osMajor);
    number("coreml_spec", p.coreMlSpec);
    if (object.contains("os_version") && !object.contains("coreml_spec") && p.osMajor > 0)
        // coremltools: iOS 15 / macOS 12 are specification 6 (targetfacts.cpp).
        p.coreMlSpec = p.os == "macOS" ? p.osMajor - 6 : p.osMajor - 9;
    text("cpu", p.cpu);
    text("preset", p.preset);
    strings("kernels", p.kernels);
    strings("backends", p.backends);
    if (!problem.empty())
        return fail(problem);
    if (!p.preset.empty() && p.kernels.empty() && !findRuntimePreset(p.preset))
        return fail("\"preset\": unknown runtime preset '" + p.preset + "'");
    return p;
}

} // namespace

Result<std::vector<DeviceProfile>> parseDeviceFile(std::string_view text, const std::string& name)
{
    json document;
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        std::string reason = e.what();
        // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1, column 3: …".
        if (const std::size_t colon = reason.find("error: "); colon != std::string::npos)
            reason = reason.substr(colon + 7);
        return makeError(Error::Code::Corrupt, name, "not valid JSON: " + reason,
            e.byte > 0 ? std::optional<std::uint64_t>(e.byte - 1) : std::nullopt);
    }
    std::vector<DeviceProfile> out;
    if (document.is_object() && document.contains("devices")) {
        const json& devices = document["devices"];
        if (!devices.is_array() || devices.empty())
            return makeError(Error::Code::Corrupt, name, "\"devices\" is not a list of device objects");
        for (std::size_t i = 0; i < devices.size(); ++i) {
            auto profile = readProfile(devices[i], name, "device " + std::to_string(i + 1));
            if (!profile)
                return profile.error();
            out.push_back(std::move(*profile));
        }
    } else {
        auto profile = readProfile(document, name, "the device");
        if (!profile)
            return profile.error();
        out.push_back(std::move(*profile));
    }
    return out;
}

Result<std::vector<DeviceProfile>> readDeviceFile(const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    if ((*file)->size() > kMaxDeviceFileBytes)
        return makeError(Error::Code::Limit, path,
            "device file of " + std::to_string((*file)->size()) + " bytes is larger than the 1 MiB this reader takes");
    const auto bytes = (*file)->bytes();
    return parseDeviceFile(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

std::string deviceCheckText(const DeviceCheck& check, const KernelLists& lists)
{
    std::ostringstream out;
    const Fit overall = check.overall();
    out << "Program: " << check.kernels.program << "\n";
    out << "Device: " << check.device.id << " — " << check.device.title << "\n";
    out << "  " << profileFacts(check.device) << "\n";
    out << "  facts from: " << check.device.source << "\n";
    out << "Will it run on " << check.device.id << ": "
        << (overall == Fit::Fits                ? "yes"
                   : overall == Fit::DoesNotFit ? "no"
                                                : "unverified (no rule says no; see the delegates below)")
        << "\n\nDelegates\n";
    if (check.delegates.empty())
        out << "  none: only the kernels below decide\n";
    for (const DelegateFit& d : check.delegates) {
        // A payload that names no target (VGF, …) says so rather than "built for )".
        out << "  " << d.method << " delegate " << d.delegate << " (" << d.backendId << ", "
            << (d.builtFor.empty() ? std::string("no target named in the file") : "built for " + d.builtFor)
            << "): " << fitName(d.fit) << "\n";
        for (const std::string& reason : d.reasons)
            out << "    " << reason << "\n";
    }
    out << "\nKernels and backends of the " << check.device.id << " runtime\n\n";
    out << kernelCheckText(check.kernels, lists);
    return out.str();
}

json deviceCheckJson(const DeviceCheck& check, const KernelLists& lists)
{
    json delegates = json::array();
    for (const DelegateFit& d : check.delegates)
        delegates.push_back({ { "method", d.method }, { "delegate", d.delegate }, { "backend_id", d.backendId },
            { "built_for", d.builtFor }, { "fit", std::string(fitName(d.fit)) }, { "reasons", d.reasons } });
    return { { "device", deviceListJson({ check.device })[0] }, { "fit", std::string(fitName(check.overall())) },
        { "will_run", check.overall() != Fit::DoesNotFit }, { "delegates", std::move(delegates) },
        { "kernel_check", kernelCheckJson(check.kernels, lists) } };
}

std::string deviceListText(const std::vector<DeviceProfile>& profiles)
{
    std::size_t width = 2;
    for (const DeviceProfile& p : profiles)
        width = std::max(width, p.id.size());
    std::ostringstream out;
    for (const DeviceProfile& p : profiles) {
        out << p.id << std::string(width + 2 - p.id.size(), ' ') << p.title << "\n";
        out << std::string(width + 2, ' ') << profileFacts(p) << "\n";
    }
    return out.str();
}

json deviceListJson(const std::vector<DeviceProfile>& profiles)
{
    json out = json::array();
    for (const DeviceProfile& p : profiles) {
        json npus = json::array();
        for (const DeviceNpu& npu : p.npus)
            npus.push_back({ { "variant", npu.variant }, { "macs", npu.macs },
                { "macs_chosen_at_launch", npu.macsChosenAtLaunch } });
        json item = { { "id", p.id }, { "title", p.title }, { "source", p.source }, { "cpu", p.cpu },
            { "ethos_u", std::move(npus) }, { "backends", p.backends } };
        item["htp"] = p.htp == Presence::Yes ? json { { "soc", p.socName }, { "htp_arch", p.htpArch },
            { "vtcm_mb", p.vtcmMb }, { "qnn_sdk", p.qnnSdk.empty() ? json() : json(p.qnnSdk) } }
            : p.htp == Presence::Unknown ? json("unknown")
                                             : json();
        item["apple"] = p.os.empty()
            ? json()
            : json { { "os", p.os }, { "version", p.osMajor }, { "coreml_spec", p.coreMlSpec } };
        item["runtime"] = p.kernels.empty() ? json { { "preset", p.preset } } : json { { "kernels", p.kernels } };
        out.push_back(std::move(item));
    }
    return out;
}

} // namespace etscope::core
