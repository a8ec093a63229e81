// SPDX-License-Identifier: MIT
// `etscope check --device`: each delegate's "built for" facts (DelegateInfo::target) against a
// device profile (issue 33). A rule says "does not fit" only where the runtime is known to refuse:
// - QNN: a context binary prepared for HTP vN (min_arch, the compile spec's htp_arch) fails on an
//   older HTP; VTCM requested above the SoC's is refused ("Request feature vtcm size … unsupported",
//   pytorch/executorch issues); QNN's runtime libraries check the SDK build of the binary
//   ("Stub lib id mismatch"), so a device naming another SDK release does not fit. A newer HTP
//   than min_arch is unverified: QNN may reject or accept an older arch's binary.
// - Ethos-U: a Vela command stream is for one NPU (U55, U65, U85: different command sets) and one
//   MAC count; the driver refuses another ("NPU config mismatch: npu.macs_per_cc=8
//   optimizer.macs_per_cc=7", alifsemi/alif_ml-embedded-evaluation-kit docs/sections/
//   troubleshooting.md).
// - Core ML: a model needs an OS whose Core ML runs its specification version (coremltools'
//   target numbers, targetfacts.cpp).
#include "core/analysis/devicecheck.h"

#include "core/delegates/targetfacts.h"
#include "core/document/document.h"

#include <algorithm>

namespace etscope::core {

namespace {

constexpr std::int64_t kBytesPerMiB = std::int64_t { 1024 } * 1024;

std::optional<std::int64_t> numberOf(const DelegateInfo& info, std::string_view key)
{
    const TargetFact* fact = findTarget(info, key);
    if (!fact || !fact->number)
        return std::nullopt;
    return fact->number;
}

std::string valueOf(const DelegateInfo& info, std::string_view key)
{
    const TargetFact* fact = findTarget(info, key);
    return fact ? fact->value : std::string();
}

/// "2.37.0" → "2.37": QNN's runtime and the binary must come from one release.
std::string release(const std::string& version)
{
    const std::size_t first = version.find('.');
    if (first == std::string::npos)
        return version;
    const std::size_t second = version.find('.', first + 1);
    return second == std::string::npos ? version : version.substr(0, second);
}

void fitQnn(const DelegateInfo& info, const DeviceProfile& device, DelegateFit& out)
{
    const auto minArch = numberOf(info, "qnn.min_arch");
    const auto specArch = numberOf(info, "qnn.htp_arch");
    const std::int64_t arch = minArch.value_or(specArch.value_or(0));
    std::string soc = valueOf(info, "qnn.soc_type");
    if (soc.empty())
        if (const TargetFact* f = findTarget(info, "qnn.soc_model"))
            soc = f->value.substr(0, f->value.find(' '));
    const std::string sdk = valueOf(info, "qnn.sdk_version");
    out.builtFor = (soc.empty() ? std::string("an unknown SoC") : soc)
        + (arch > 0 ? " (HTP v" + std::to_string(arch) + (minArch ? ", min_arch " + std::to_string(*minArch) : "") + ")"
                    : "")
        + (sdk.empty() ? "" : ", QNN SDK " + sdk);
    const std::string built = "compiled for " + out.builtFor;

    if (device.htp == Presence::No) {
        out.fit = Fit::DoesNotFit;
        out.reasons.push_back(built + "; " + device.id + " has no Qualcomm HTP: QNN HTP delegates run only there");
        return;
    }
    if (device.htp == Presence::Unknown || device.htpArch == 0) {
        out.fit = Fit::Unverified;
        out.reasons.push_back(built + "; the " + device.id
            + " profile does not say which HTP it has: use a Snapdragon profile (sm8650, …) or a device file with"
              " htp_arch");
        return;
    }
    const std::string has = device.id + " has HTP v" + std::to_string(device.htpArch);
    out.fit = Fit::Fits;
    if (arch == 0) {
        out.fit = Fit::Unverified;
        out.reasons.push_back("the delegate names no HTP architecture (no min_arch, no htp_arch); " + has);
    } else if (device.htpArch < arch) {
        out.fit = Fit::DoesNotFit;
        out.reasons.push_back(
            built + "; " + has + ": QNN context binaries need an HTP at least as new as the one they were built for");
    } else if (device.htpArch > arch) {
        out.fit = Fit::Unverified;
        out.reasons.push_back(built + "; " + has
            + ": a context binary of an older HTP may or may not be accepted; export for " + device.socName
            + " to be sure");
    } else {
        out.reasons.push_back(built + "; " + has + ": fits");
    }
    std::optional<std::int64_t> vtcmMb;
    if (const auto bytes = numberOf(info, "qnn.vtcm_bytes"); bytes && *bytes > 0)
        vtcmMb = *bytes / kBytesPerMiB;
    else if (const auto mb = numberOf(info, "qnn.vtcm_mb"); mb && *mb > 0)
        vtcmMb = *mb;
    if (vtcmMb && device.vtcmMb > 0 && *vtcmMb > device.vtcmMb) {
        out.fit = Fit::DoesNotFit;
        out.reasons.insert(out.reasons.begin(),
            "asks for " + std::to_string(*vtcmMb) + " MB of VTCM; " + device.id + " has "
                + std::to_string(device.vtcmMb) + " MB: the HTP refuses a larger VTCM request");
    }
    if (!device.qnnSdk.empty()) {
        if (sdk.empty()) {
            out.reasons.push_back("the delegate does not say which QNN SDK built it; the device has " + device.qnnSdk
                + ": check they are one release");
            if (out.fit == Fit::Fits)
                out.fit = Fit::Unverified;
        } else if (release(sdk) != release(device.qnnSdk)) {
            out.fit = Fit::DoesNotFit;
            out.reasons.insert(out.reasons.begin(),
                "built with QNN SDK " + sdk + "; the device profile has " + device.qnnSdk
                    + ": the runtime libraries must match the build's SDK");
        } else {
            out.reasons.push_back("built with QNN SDK " + sdk + "; the device has " + device.qnnSdk);
        }
    } else if (!sdk.empty()) {
        out.reasons.push_back("the device's QNN runtime libraries must come from SDK " + release(sdk)
            + " (the profile names no SDK; a device file can: \"qnn_sdk\")");
    }
}

void fitEthosU(const DelegateInfo& info, const DeviceProfile& device, DelegateFit& out)
{
    // The command stream's CONFIG word is what the driver checks; the compile spec says the same
    // unless the payload did not decode.
    std::string variant = valueOf(info, "ethosu.stream_npu");
    std::int64_t macs = numberOf(info, "ethosu.stream_macs").value_or(0);
    if (variant.rfind("Ethos-U", 0) != 0) {
        const auto npu = numberOf(info, "ethosu.npu");
        variant = npu ? "Ethos-U" + std::to_string(*npu) : std::string();
    }
    if (macs == 0)
        macs = numberOf(info, "ethosu.macs").value_or(0);
    if (variant.empty()) {
        out.fit = Fit::Unverified;
        out.builtFor = "an unknown Ethos-U";
        out.reasons.emplace_back(
            "the delegate names no Ethos-U NPU (no target compile spec, no readable command stream)");
        return;
    }
    out.builtFor = variant + (macs > 0 ? "-" + std::to_string(macs) : "");
    const std::string built = "Vela stream for " + out.builtFor;
    if (device.ethosU == Presence::Unknown) {
        out.fit = Fit::Unverified;
        out.reasons.push_back(built + "; the " + device.id
            + " profile does not say which Ethos-U it has: give its accelerator config (\"ethos_u\": "
              "[\"ethos-u55-128\"])");
        return;
    }
    if (device.ethosU == Presence::No || device.npus.empty()) {
        out.fit = Fit::DoesNotFit;
        out.reasons.push_back(built + "; " + device.id + " has no Ethos-U NPU");
        return;
    }
    std::vector<const DeviceNpu*> sameVariant;
    for (const DeviceNpu& npu : device.npus)
        if (npu.variant == variant)
            sameVariant.push_back(&npu);
    if (sameVariant.empty()) {
        std::string has;
        for (const DeviceNpu& npu : device.npus)
            has += (has.empty() ? "" : ", ") + npu.variant + "-" + std::to_string(npu.macs);
        out.fit = Fit::DoesNotFit;
        out.reasons.push_back(built + "; " + device.id + " has " + has + ": command streams are not portable between "
            + variant.substr(6) + " and " + device.npus.front().variant.substr(6));
        return;
    }
    for (const DeviceNpu* npu : sameVariant) {
        if (npu->macs == macs) {
            out.fit = Fit::Fits;
            out.reasons.push_back(
                built + "; " + device.id + " has " + npu->variant + "-" + std::to_string(npu->macs) + ": fits");
            return;
        }
        if (npu->macsChosenAtLaunch && macs > 0) {
            out.fit = Fit::Fits;
            out.reasons.push_back(built + "; " + device.id + " simulates " + npu->variant
                + " with the MAC count chosen at launch: start it with " + std::to_string(macs)
                + " MACs (run_fvp.sh does, from --target)");
            return;
        }
    }
    if (macs == 0) {
        out.fit = Fit::Unverified;
        out.reasons.push_back(built
            + "; the delegate does not say its MAC count: the driver refuses a stream built"
              " for another MAC count than the NPU's");
        return;
    }
    out.fit = Fit::DoesNotFit;
    out.reasons.push_back(built + "; " + device.id + " has " + variant + "-" + std::to_string(sameVariant.front()->macs)
        + ": the driver refuses a stream built for another MAC count (NPU config mismatch); compile with"
          " --accelerator-config="
        + "ethos-u" + variant.substr(7) + "-" + std::to_string(sameVariant.front()->macs));
}

std::string appleOsVersion(const DeviceProfile& device, std::int64_t spec)
{
    // Specification version 7 is iOS 16 / macOS 13 (targetfacts.cpp): iOS major = spec + 9.
    if (device.os == "macOS")
        return "macOS " + std::to_string(spec >= 7 ? spec + 6 : spec == 6 ? 12 : spec == 5 ? 11 : 10);
    return "iOS " + std::to_string(spec + 9);
}

void fitCoreMl(const DelegateInfo& info, const DeviceProfile& device, DelegateFit& out)
{
    const auto target = numberOf(info, "coreml.min_deployment_target");
    const auto spec = numberOf(info, "coreml.spec_version");
    const std::int64_t needs = std::max(target.value_or(0), spec.value_or(0));
    out.builtFor = needs > 0 ? "Core ML specification " + std::to_string(needs) + " (" + coreMlOsText(needs) + ")"
                             : "an unknown Core ML version";
    if (!device.os.empty() && device.coreMlSpec == 0) {
        out.fit = Fit::Unverified;
        out.reasons.push_back(out.builtFor + "; the " + device.id + " profile does not say which " + device.os
            + " version it runs (\"os_version\")");
        return;
    }
    if (device.os.empty() || device.coreMlSpec == 0) {
        out.fit = Fit::DoesNotFit;
        out.reasons.push_back(device.id + " is not an Apple OS: Core ML runs only on iOS, macOS, watchOS and tvOS");
        return;
    }
    if (needs == 0) {
        out.fit = Fit::Unverified;
        out.reasons.emplace_back("the delegate names no deployment target and no specification version");
        return;
    }
    const std::string runs = device.os + " " + std::to_string(device.osMajor);
    const std::string wants = "needs " + appleOsVersion(device, needs) + " or later";
    if (needs <= device.coreMlSpec) {
        out.fit = Fit::Fits;
        out.reasons.push_back(wants + "; the device runs " + runs + ": fits");
    } else {
        out.fit = Fit::DoesNotFit;
        out.reasons.push_back(wants + "; the device runs " + runs + " (Core ML specification "
            + std::to_string(device.coreMlSpec) + "): it cannot load the model");
    }
}

void fitXnnpack(const DelegateInfo& info, const DeviceProfile& device, DelegateFit& out)
{
    out.builtFor = "the CPU" + (findTarget(info, "xnnpack.header") ? " (" + valueOf(info, "xnnpack.header") + ")" : "");
    if (device.cpu.rfind("cortex-m", 0) == 0) {
        out.fit = Fit::Unverified;
        out.reasons.push_back(device.id + " has a " + device.cpu
            + ": ExecuTorch builds XNNPACK for application processors; a Cortex-M build is not one of its"
              " targets");
        return;
    }
    out.fit = Fit::Fits;
    out.reasons.push_back("XNNPACK runs on the " + device.cpu + " CPU of " + device.id);
}

} // namespace

std::string_view fitName(Fit fit)
{
    switch (fit) {
    case Fit::Fits:
        return "fits";
    case Fit::DoesNotFit:
        return "does not fit";
    case Fit::Unverified:
        return "unverified";
    }
    return "unverified";
}

DelegateFit fitDelegate(const DelegateInfo& info, const DeviceProfile& device)
{
    DelegateFit out;
    out.backendId = info.backendId;
    if (info.backendId == "QnnBackend")
        fitQnn(info, device, out);
    else if (info.backendId == "EthosUBackend")
        fitEthosU(info, device, out);
    else if (info.backendId == "CoreMLBackend")
        fitCoreMl(info, device, out);
    else if (info.backendId == "XnnpackBackend")
        fitXnnpack(info, device, out);
    else {
        out.fit = Fit::Unverified;
        out.reasons.push_back("no device rule for " + info.backendId + " yet: check its hardware needs by hand");
    }
    // A runtime that does not link the backend cannot run the delegate, whatever its hardware.
    if (std::find(device.backends.begin(), device.backends.end(), info.backendId) == device.backends.end()
        && out.fit != Fit::DoesNotFit) {
        out.fit = Fit::DoesNotFit;
        out.reasons.insert(out.reasons.begin(), "the " + device.id + " runtime does not link " + info.backendId);
    }
    return out;
}

Fit DeviceCheck::overall() const
{
    if (!kernels.loads())
        return Fit::DoesNotFit;
    Fit worst = Fit::Fits;
    for (const DelegateFit& d : delegates) {
        if (d.fit == Fit::DoesNotFit)
            return Fit::DoesNotFit;
        if (d.fit == Fit::Unverified)
            worst = Fit::Unverified;
    }
    return worst;
}

DeviceCheck checkDevice(const Document& document, const DeviceProfile& device, const KernelLists& lists)
{
    DeviceCheck check;
    check.device = device;
    check.kernels = checkKernels(document, lists);
    if (!document.program)
        return check;
    for (std::size_t m = 0; m < document.program->methods.size() && m < document.methods.size(); ++m) {
        const auto& delegates = document.methods[m].delegates;
        for (std::size_t d = 0; d < delegates.size(); ++d) {
            DelegateFit fit = fitDelegate(delegates[d], device);
            fit.method = document.program->methods[m].name;
            fit.delegate = static_cast<int>(d);
            check.delegates.push_back(std::move(fit));
        }
    }
    return check;
}

} // namespace etscope::core
