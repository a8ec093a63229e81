// SPDX-License-Identifier: MIT
#include "core/analysis/kernelcheck.h"

namespace etscope::core {
} // namespace etscope::core
