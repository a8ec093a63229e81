// SPDX-License-Identifier: MIT
// libFuzzer target: one serialized TOSA graph, read as a side file (readTosaGraph) and as a
// TOSABackend payload stitched into a method graph as the app does.
#include "core/delegates/tosa.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto graph = etscope::core::readTosaGraph({ data, size }, "fuzz.tosa");
    if (graph)
        (void)graph->adjacency();
    etscope::fuzz::analysePayload({ data, size }, "TOSABackend");
    return 0;
}
