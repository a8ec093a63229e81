// SPDX-License-Identifier: MIT
#include "ui/common/axisticks.h"

#include <algorithm>
#include <cmath>

namespace etscope::ui {

double niceStep(double minimum)
{
    const double power = std::pow(10.0, std::floor(std::log10(std::max(minimum, 1e-3))));
    for (const double factor : { 1.0, 2.0, 5.0, 10.0 })
        if (factor * power >= minimum)
            return factor * power;
    return 10 * power;
}

} // namespace etscope::ui
