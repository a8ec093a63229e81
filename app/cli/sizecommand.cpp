// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"

#include <iostream>

namespace etscope::app {

int runSize(const Arguments&)
{
    std::cerr << "etscope size: not built yet\n";
    return ExitUsage;
}

} // namespace etscope::app
