// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/kernelcheck.h"
#include "core/delegates/delegate.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

struct Document;

/// One Arm Ethos-U NPU a device has: "Ethos-U55" with 128 MACs per cycle. `macsChosenAtLaunch`:
/// a simulator whose MAC count is set when it starts (the Corstone FVPs), so any count Vela
/// builds for fits.
struct DeviceNpu {
    std::string variant; ///< "Ethos-U55", "Ethos-U65", "Ethos-U85"
    int macs = 0;
    bool macsChosenAtLaunch = false;
};

/// Whether a device has a hardware feature, where a profile may not know.
enum class Presence { No, Yes, Unknown };

/// A phone, board or OS release a program may be meant for: the facts the delegates' "built
/// for" facts (DelegateInfo::target) are compared with, and the runtime it links (kernels and
/// backends), so one answer covers both. Built-in profiles cite their public sources
/// (deviceprofiles.cpp); `--device-file` adds the user's own.
struct DeviceProfile {
    std::string id; ///< lower case: "sm8650", "corstone-300", "ios-17"
    std::string title; ///< "Snapdragon 8 Gen 3 (SM8650)"
    std::string source; ///< where the facts come from, one line

    // Qualcomm: the SoC, its HTP (Hexagon) architecture and VTCM, and the QNN SDK its runtime
    // libraries come from (only a device file names that).
    Presence htp = Presence::No;
    std::string socName; ///< "SM8650"
    int htpArch = 0; ///< 75 (0: unknown)
    int vtcmMb = 0; ///< 8 (0: unknown)
    std::string qnnSdk; ///< "2.37.0"; empty: not known

    // Arm Ethos-U NPUs.
    Presence ethosU = Presence::No;
    std::vector<DeviceNpu> npus;

    // Apple: the OS and the newest Core ML specification version it runs.
    std::string os; ///< "iOS", "macOS"; empty: not an Apple OS
    int osMajor = 0; ///< 17
    int coreMlSpec = 0; ///< 8 (0: runs no Core ML)

    std::string cpu; ///< "arm64", "cortex-m55", "cortex-m85"

    // The runtime: a preset's kernel lists (kernellists.cpp) or the user's lists, and the
    // backends it links.
    std::string preset; ///< "android-xnnpack", "arm-ethos-u", "portable"
    std::vector<std::string> kernels; ///< --kernels specs (built-in names or files); replaces the preset's lists
    std::vector<std::string> backends; ///< backend ids the runtime registers
};

/// The built-in profiles, in the order `--list-devices` shows them.
const std::vector<DeviceProfile>& builtinDeviceProfiles();

/// Reads a device file (JSON; docs/check.md "Device files"): one profile object, or
/// `{"devices": [...]}`. A profile may start from a built-in one (`"based_on": "sm8650"`) and
/// change some facts. Fails with an Error naming the file, the reason and, for JSON that does
/// not parse, the byte offset.
Result<std::vector<DeviceProfile>> readDeviceFile(const std::string& path);
/// The same from text (`name` is what errors call the file).
Result<std::vector<DeviceProfile>> parseDeviceFile(std::string_view text, const std::string& name);

/// A profile by id among `extra` (a device file's, searched first) and the built-in ones;
/// a Usage error naming the ids there are when none has it.
Result<DeviceProfile> findDeviceProfile(std::string_view id, const std::vector<DeviceProfile>& extra = {});

/// The kernel lists of a device's runtime: its `kernels` or its preset's lists, plus a list that
/// declares its backends (so a delegate whose backend the runtime lacks is "not linked").
Result<KernelLists> deviceKernelLists(const DeviceProfile& device);

enum class Fit {
    Fits,
    DoesNotFit,
    Unverified, ///< no rule can tell for certain; the reason says what to check
};
std::string_view fitName(Fit fit); ///< "fits", "does not fit", "unverified"

/// The answer for one delegate entry of a method.
struct DelegateFit {
    std::string method;
    int delegate = 0; ///< index into the method's delegates
    std::string backendId;
    std::string builtFor; ///< "SM8650, HTP v75, QNN SDK 2.37.0" — what the delegate says it needs
    Fit fit = Fit::Unverified;
    std::vector<std::string> reasons; ///< why, in words a user can act on; the first is the deciding one
};

/// The answer to "will this program run on that device": every delegate against the device's
/// hardware, and the kernel check against its runtime.
struct DeviceCheck {
    DeviceProfile device;
    std::vector<DelegateFit> delegates; ///< in method order, then delegate order
    KernelCheck kernels;

    /// DoesNotFit when a delegate does not fit or the runtime lacks a kernel or backend;
    /// Unverified when some delegate is unverified; Fits otherwise.
    Fit overall() const;
};

/// One delegate's DelegateInfo against a device (the rules of docs/check.md "Devices").
DelegateFit fitDelegate(const DelegateInfo& info, const DeviceProfile& device);

/// Checks every delegate of `document.program` against `device` and its kernels against
/// `lists` (deviceKernelLists).
DeviceCheck checkDevice(const Document& document, const DeviceProfile& device, const KernelLists& lists);

/// The report as `etscope check --device` prints it.
std::string deviceCheckText(const DeviceCheck& check, const KernelLists& lists);
/// The same as JSON (docs/check.md).
nlohmann::json deviceCheckJson(const DeviceCheck& check, const KernelLists& lists);
/// `etscope check --list-devices`: one line per profile with its key facts.
std::string deviceListText(const std::vector<DeviceProfile>& profiles);
nlohmann::json deviceListJson(const std::vector<DeviceProfile>& profiles);

} // namespace etscope::core
