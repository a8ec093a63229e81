// SPDX-License-Identifier: MIT
#pragma once

namespace etscope::core {
} // namespace etscope::core
