// SPDX-License-Identifier: MIT
// libFuzzer target: one QnnBackend delegate payload (ExecuTorch header + QNN context binary:
// metadata and HTP FlatBuffers, core/delegates/qnncontext.cpp), described and stitched into a
// method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "QnnBackend");
    return 0;
}
