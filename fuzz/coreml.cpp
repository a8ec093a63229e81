// SPDX-License-Identifier: MIT
// libFuzzer target: one CoreMLBackend payload (the flattened file system with model.mlpackage,
// metadata.json and debug_info.json, or a CMJR reference to the payload offered as named data),
// described — the ML Program in model.mlmodel drawn as the inner graph — and stitched into a
// method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "CoreMLBackend");
    return 0;
}
