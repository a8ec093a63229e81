// SPDX-License-Identifier: MIT
// libFuzzer target: one Vulkan delegate payload (VH00 header + VK00 graph), described and
// stitched into a method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "VulkanBackend");
    return 0;
}
