// SPDX-License-Identifier: MIT
#include "cli/cli.h"

#include <iostream>

int main(int argc, char** argv)
{
    if (etscope::app::isCliInvocation(argc, argv))
        return etscope::app::runCli(argc, argv);
    std::cerr << etscope::app::helpText();
    return etscope::app::ExitUsage;
}
