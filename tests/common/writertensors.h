// SPDX-License-Identifier: MIT
// Tensors for writer-made test programs (core/writer/programspec.h), shared by the cost, check
// and app tests that build small programs by hand.
#pragma once

#include "core/writer/programspec.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace etscope::test {

/// A float tensor of `sizes`: a constant stored in the program (zero-filled), or a planned
/// activation (arena 1, offset 0).
inline core::TensorSpec floatTensor(std::vector<std::int32_t> sizes, bool constant = false)
{
    core::TensorSpec t;
    t.sizes = std::move(sizes);
    if (constant)
        t.data = std::vector<std::uint8_t>(t.byteSize(), 0);
    else
        t.allocation = core::AllocationSpec { 1, 0 };
    return t;
}

} // namespace etscope::test
