// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <string>
#include <string_view>

namespace etscope::core {

/// Writes `contents` to `path` atomically: a temporary file in the same folder, flushed, then
/// renamed over the target. A reader never sees a half-written file and a failure leaves any
/// existing file untouched.
std::optional<Error> writeFileAtomically(const std::string& path, std::string_view contents);

} // namespace etscope::core
