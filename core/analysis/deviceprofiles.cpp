// SPDX-License-Identifier: MIT
// The built-in device profiles of `etscope check --device` (issue 33). Every fact names its public
// source; pytorch/executorch is read at cff6f4dd32e6 (2026-08-22) unless said otherwise.
//
// - Snapdragon: backends/qualcomm/serialization/qc_schema.py, `_soc_info_table`: SM8450 → HtpInfo(V69,
//   8 MB VTCM), SM8550 → (V73, 8), SM8650 → (V75, 8), SM8750 → (V79, 8); the QcomChipset numbers
//   36, 43, 57, 69 (the same table at 0e9182a36b1c). Their runtime is ExecuTorch's Android library:
//   extension/android/CMakeLists.txt links optimized and quantized kernels and XnnpackBackend
//   (the android-xnnpack preset) and qnn_executorch_backend when that target is built (line 114).
// - Corstone FVPs: backends/arm/scripts/run_fvp.sh picks FVP_Corstone_SSE-300_Ethos-U55 for
//   ethos-u55 targets and FVP_Corstone_SSE-320 (Ethos-U85) for ethos-u85 ones, and starts it
//   with `ethosu.num_macs` taken from the target name: the MAC count is chosen at launch, among
//   the targets backends/arm/scripts/aot_arm_compiler.py builds for (TARGETS: ethos-u55-32/64/
//   128/256, ethos-u85-128/256/512/1024/2048). examples/arm/run.sh builds for ethos-u55-128 by
//   default. The runner is examples/arm/executor_runner (the arm-ethos-u preset).
// - Alif Ensemble E8: alifsemi/sdk-alif, the Alif E8 Application Kit board page (alif_e8_ak):
//   "1× Arm Ethos-U85 NPU … (256 MAC/cycle)" and "2× Arm Ethos-U55 NPUs (256 MAC/cycle + 128
//   MAC/cycle)", beside Cortex-M55 cores (High-Performance and High-Efficiency).
// - Apple: the Core ML specification version each OS runs is coremltools' target number
//   (targetfacts.cpp: iOS 16 / macOS 13 = 7, iOS 17 / macOS 14 = 8, iOS 18 / macOS 15 = 9). The
//   runtime is ExecuTorch's Swift package (Package.swift): backend_coreml, backend_mps,
//   backend_xnnpack, kernels_optimized, kernels_quantized.
// - Android arm64 and Raspberry Pi 5 (Cortex-A76, arm64): XNNPACK on the CPU, ExecuTorch's
//   Android library as above (android-xnnpack); a generic Android phone may or may not have a
//   Qualcomm HTP, so its profile does not say.
#include "core/analysis/devicecheck.h"

namespace etscope::core {

namespace {

DeviceProfile snapdragon(std::string id, std::string title, std::string soc, int arch)
{
    DeviceProfile p;
    p.id = std::move(id);
    p.title = std::move(title);
    p.source = "pytorch/executorch backends/qualcomm/serialization/qc_schema.py _soc_info_table (cff6f4dd32e6)";
    p.htp = Presence::Yes;
    p.socName = std::move(soc);
    p.htpArch = arch;
    p.vtcmMb = 8;
    p.cpu = "arm64";
    p.preset = "android-xnnpack";
    p.backends = { "XnnpackBackend", "QnnBackend" };
    return p;
}

DeviceProfile apple(std::string os, int major, int spec)
{
    DeviceProfile p;
    p.id = (os == "iOS" ? "ios-" : "macos-") + std::to_string(major);
    p.title = os + " " + std::to_string(major);
    p.source = "coremltools specification versions (_SPECIFICATION_VERSION_IOS_*); ExecuTorch Package.swift";
    p.os = std::move(os);
    p.osMajor = major;
    p.coreMlSpec = spec;
    p.cpu = "arm64";
    p.kernels = { "portable", "optimized", "quantized" };
    p.backends = { "CoreMLBackend", "MPSBackend", "XnnpackBackend" };
    return p;
}

std::vector<DeviceProfile> makeProfiles()
{
    std::vector<DeviceProfile> out;
    out.push_back(snapdragon("sm8450", "Snapdragon 8 Gen 1 (SM8450)", "SM8450", 69));
    out.push_back(snapdragon("sm8550", "Snapdragon 8 Gen 2 (SM8550)", "SM8550", 73));
    out.push_back(snapdragon("sm8650", "Snapdragon 8 Gen 3 (SM8650)", "SM8650", 75));
    out.push_back(snapdragon("sm8750", "Snapdragon 8 Elite (SM8750)", "SM8750", 79));

    DeviceProfile c300;
    c300.id = "corstone-300";
    c300.title = "Arm Corstone-300 FVP (Cortex-M55 + Ethos-U55)";
    c300.source = "pytorch/executorch backends/arm/scripts/run_fvp.sh, examples/arm/run.sh (cff6f4dd32e6)";
    c300.ethosU = Presence::Yes;
    c300.npus = { { "Ethos-U55", 128, true } };
    c300.cpu = "cortex-m55";
    c300.preset = "arm-ethos-u";
    c300.backends = { "EthosUBackend" };
    out.push_back(c300);

    DeviceProfile c320 = c300;
    c320.id = "corstone-320";
    c320.title = "Arm Corstone-320 FVP (Cortex-M85 + Ethos-U85)";
    c320.npus = { { "Ethos-U85", 256, true } };
    c320.cpu = "cortex-m85";
    out.push_back(c320);

    DeviceProfile alif = c300;
    alif.id = "alif-e8";
    alif.title = "Alif Ensemble E8 (Cortex-M55, Ethos-U85-256, Ethos-U55-256 and -128)";
    alif.source = "alifsemi/sdk-alif, Alif E8 Application Kit board page (alif_e8_ak)";
    alif.npus = { { "Ethos-U85", 256, false }, { "Ethos-U55", 256, false }, { "Ethos-U55", 128, false } };
    out.push_back(alif);

    for (const auto& [major, spec] : { std::pair { 16, 7 }, { 17, 8 }, { 18, 9 } })
        out.push_back(apple("iOS", major, spec));
    for (const auto& [major, spec] : { std::pair { 13, 7 }, { 14, 8 }, { 15, 9 } })
        out.push_back(apple("macOS", major, spec));

    DeviceProfile android;
    android.id = "android-arm64";
    android.title = "Android phone, arm64 (XNNPACK on the CPU)";
    android.source = "pytorch/executorch extension/android/CMakeLists.txt (cff6f4dd32e6)";
    android.htp = Presence::Unknown;
    android.cpu = "arm64";
    android.preset = "android-xnnpack";
    android.backends = { "XnnpackBackend" };
    out.push_back(android);

    DeviceProfile rpi = android;
    rpi.id = "rpi5";
    rpi.title = "Raspberry Pi 5 (Cortex-A76, arm64 Linux; XNNPACK on the CPU)";
    rpi.source = "raspberrypi.com product brief (Cortex-A76); XNNPACK as extension/android links it";
    rpi.htp = Presence::No;
    out.push_back(rpi);
    return out;
}

} // namespace

const std::vector<DeviceProfile>& builtinDeviceProfiles()
{
    static const std::vector<DeviceProfile> profiles = makeProfiles();
    return profiles;
}

Result<DeviceProfile> findDeviceProfile(std::string_view id, const std::vector<DeviceProfile>& extra)
{
    for (const DeviceProfile& p : extra)
        if (p.id == id)
            return p;
    for (const DeviceProfile& p : builtinDeviceProfiles())
        if (p.id == id)
            return p;
    std::string ids;
    for (const DeviceProfile& p : extra)
        ids += (ids.empty() ? "" : ", ") + p.id;
    for (const DeviceProfile& p : builtinDeviceProfiles())
        ids += (ids.empty() ? "" : ", ") + p.id;
    return makeError(Error::Code::Usage, {}, "unknown device '" + std::string(id) + "' (devices: " + ids + ")");
}

Result<KernelLists> deviceKernelLists(const DeviceProfile& device)
{
    auto lists = !device.kernels.empty() ? loadKernelLists(device.kernels)
                                         : loadKernelLists({}, { device.preset.empty() ? "portable" : device.preset });
    if (!lists)
        return lists.error();
    KernelList backends;
    backends.name = "device " + device.id;
    backends.origin = "the backends the " + device.id + " runtime links";
    backends.builtin = true;
    backends.declaresBackends = true;
    backends.backends.insert(device.backends.begin(), device.backends.end());
    lists->lists.push_back(std::move(backends));
    return lists;
}

} // namespace etscope::core
