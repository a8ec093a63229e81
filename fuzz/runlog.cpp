// SPDX-License-Identifier: MIT
// libFuzzer target: an Arm executor runner log (core/vendorlogs/runlog.h) read with small
// limits, and its text.
#include "core/vendorlogs/runlog.h"
#include "core/vendorlogs/vendortext.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core::vendor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    LogLimits limits;
    limits.maxLineBytes = 4096;
    limits.maxLines = 20000;
    limits.maxWarnings = 50;
    const RunLog log = parseRunLog(text, "fuzz.log", limits);
    (void)log.ethosU();
    (void)runLogText(log);
    return 0;
}
