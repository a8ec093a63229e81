// SPDX-License-Identifier: MIT
#pragma once

namespace etscope::ui {

/// The tick step of a chart axis: the smallest 1-2-5 number (…, 0.5, 1, 2, 5, 10, 20, …) of at
/// least `minimum` (nanoseconds on the timeline, steps on the memory chart).
double niceStep(double minimum);

} // namespace etscope::ui
