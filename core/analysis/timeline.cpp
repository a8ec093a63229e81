// SPDX-License-Identifier: MIT
#include "core/analysis/timeline.h"

namespace etscope::core {
} // namespace etscope::core
