// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/arguments.h"

#include <optional>
#include <string>

namespace etscope::core {
struct Document;
}

namespace etscope::app {

int runInfo(const Arguments& args);
int runOps(const Arguments& args);
int runGraph(const Arguments& args);

/// Opens the single FILE argument of a subcommand, printing the error line and returning
/// nullopt (with `exitCode` set) on failure.
std::optional<core::Document> openForCommand(const std::string& command, const Arguments& args, int& exitCode);

/// A number counted from 0 (block, test case, instruction): decimal digits only, at most nine.
std::optional<std::size_t> parseIndex(const std::string& text);

/// Writes `text` to `--output` (atomically) or stdout; returns an ExitCode.
int emit(const std::string& command, const Arguments& args, const std::string& text);

} // namespace etscope::app
