// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace etscope::app {

/// Exit statuses of every subcommand.
enum ExitCode : int {
    ExitOk = 0,
    ExitUsage = 1, ///< bad command line
    ExitInput = 2, ///< unreadable or invalid input, or an output that cannot be written
    ExitMissing = 3, ///< check: some operator has no kernel (or a backend is not linked)
};

/// True when argv[1] names a headless subcommand (or --help/--version).
bool isCliInvocation(int argc, char** argv);

/// Runs a subcommand; never needs a display. Returns an ExitCode.
int runCli(int argc, char** argv);

/// The full --help text (also the source of the man page).
std::string_view helpText();

/// `etscope COMMAND --help`: COMMAND's usage lines and paragraph from helpText(), and where the
/// rest is; empty for a name that is no subcommand.
std::string subcommandHelp(std::string_view command);

} // namespace etscope::app
