// SPDX-License-Identifier: MIT
#include "core/analysis/sizebreakdown.h"

namespace etscope::core {
} // namespace etscope::core
