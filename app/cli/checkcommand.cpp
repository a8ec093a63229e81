// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"

#include <iostream>

namespace etscope::app {

int runCheck(const Arguments&)
{
    std::cerr << "etscope check: not built yet\n";
    return ExitUsage;
}

} // namespace etscope::app
