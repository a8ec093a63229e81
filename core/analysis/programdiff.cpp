// SPDX-License-Identifier: MIT
#include "core/analysis/programdiff.h"

namespace etscope::core {
} // namespace etscope::core
