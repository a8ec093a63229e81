// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/arguments.h"
#include "core/util/atomicfile.h"

#include <optional>
#include <string>
#include <string_view>

namespace etscope::core {
struct Document;
}

namespace etscope::app {

int runInfo(const Arguments& args);
int runOps(const Arguments& args);
int runGraph(const Arguments& args);
/// etscope cost PROGRAM [--method M] [--format text|json|csv]: what each operation costs.
int runCost(const Arguments& args);

/// Opens the single FILE argument of a subcommand, printing the error line and returning
/// nullopt (with `exitCode` set) on failure.
std::optional<core::Document> openForCommand(const std::string& command, const Arguments& args, int& exitCode);

/// A number counted from 0 (block, test case, instruction): decimal digits only, at most nine.
std::optional<std::size_t> parseIndex(const std::string& text);

/// Where a command's result goes: stdout, or `--output` written atomically (the file appears
/// whole at finish(), or not at all). Results too large to hold are written in parts.
class Output {
public:
    explicit Output(const Arguments& args);
    void write(std::string_view text);
    /// ExitOk, or ExitInput after printing what failed.
    int finish(const std::string& command);

private:
    std::optional<core::AtomicFileWriter> m_file;
};

/// Writes `text` to `--output` (atomically) or stdout; returns an ExitCode.
int emitReport(const std::string& command, const Arguments& args, const std::string& text);

} // namespace etscope::app
