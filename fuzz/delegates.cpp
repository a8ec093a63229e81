// SPDX-License-Identifier: MIT
// libFuzzer target: the other delegate describers (Core ML, OpenVINO, Ethos-U, VGF, QNN, MPS).
// The first byte picks the backend id (fuzz/fuzzsupport.h, kOtherBackends), the rest is the
// payload. Dispatch goes by backend id first and by magic second (core/delegates/delegate.cpp),
// so a payload under the "wrong" id still reaches the decoder its magic names.
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using etscope::fuzz::kOtherBackends;
    if (size == 0)
        return 0;
    etscope::fuzz::analysePayload({ data + 1, size - 1 }, kOtherBackends[data[0] % kOtherBackends.size()]);
    return 0;
}
