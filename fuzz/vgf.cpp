// SPDX-License-Identifier: MIT
// libFuzzer target: one VGF file (VgfBackend payload): header, module / sequence / resource
// tables, constants and the SPIR-V graph modules, stitched into a method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "VgfBackend");
    return 0;
}
