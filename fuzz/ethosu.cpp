// SPDX-License-Identifier: MIT
// libFuzzer target: one Ethos-U delegate payload (a vela_bin_stream whose cmd_data holds the
// NPU command stream), described — the command stream replayed into an inner graph — and
// stitched into a method graph as the app does.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    etscope::fuzz::analysePayload({ data, size }, "EthosUBackend");
    return 0;
}
