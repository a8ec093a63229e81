// SPDX-License-Identifier: MIT
// libFuzzer target: one XNNPACK delegate payload (XH00 header + XN00/XN01 graph), described and
// stitched into a method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "XnnpackBackend");
    return 0;
}
