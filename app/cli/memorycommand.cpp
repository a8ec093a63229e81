// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"

#include <iostream>

namespace etscope::app {

int runMemory(const Arguments&)
{
    std::cerr << "etscope memory: not built yet\n";
    return ExitUsage;
}

} // namespace etscope::app
