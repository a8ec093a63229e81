// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"

#include <iostream>

namespace etscope::app {

int runTimeline(const Arguments&)
{
    std::cerr << "etscope timeline: not built yet\n";
    return ExitUsage;
}

} // namespace etscope::app
