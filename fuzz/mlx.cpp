// SPDX-License-Identifier: MIT
// libFuzzer target: one MLX delegate payload (MLX0 header + MLXGraph FlatBuffer), described and
// stitched into a method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "MLXBackend");
    return 0;
}
