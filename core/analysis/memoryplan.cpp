// SPDX-License-Identifier: MIT
#include "core/analysis/memoryplan.h"

namespace etscope::core {
} // namespace etscope::core
