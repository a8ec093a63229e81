// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// The partitioner log formats ETScope reads (issue 35; facts in docs/why.md).
enum class PartitionLogFormat : std::uint8_t {
    ArmTable, ///< WhyNoPartitionReporter's table (Arm: logged and partition_report.txt)
    Xnnpack, ///< "WhyNoPartition: Node … was not partitioned because …."
    Qnn, ///< "[QnnPartitioner] <op> | False", "[QNN Partitioner Op Support]: <op> | False"
    CoreMl, ///< "Skipping op for CoreML delegation because …: <op>", "<op> is not supported by CoreML."
};

/// "arm-table", "xnnpack", "qnn", "coreml".
std::string_view partitionLogFormatName(PartitionLogFormat format);

/// One reason a partitioner logged for leaving a node (or, for QNN and Core ML, an operator type)
/// out of its partitions, with where it was read.
struct LogReason {
    PartitionLogFormat format = PartitionLogFormat::ArmTable;
    std::string file;
    int line = 0; ///< 1-based line where the entry starts
    std::string nodeName; ///< FX node name ("aten_avg_pool3d_default"); empty when the format names none
    std::string target; ///< the operator as logged ("aten.avg_pool3d.default"); may be empty (XNNPACK)
    std::string torchFunc; ///< Arm's "Torch func" cell ("-" when the node had none)
    std::string reason; ///< the reason as logged (wrapped cells joined)
    std::string spec; ///< Arm: the TOSA spec of "The following nodes were rejected for …:"; QNN: the phase
    int table = -1; ///< Arm: which table of the file (0-based)
    bool cut = false; ///< the row was cut off (table without its bottom border): the reason may be incomplete
};

/// What one log gave: its reasons in file order, the tables found, and problems naming lines.
struct PartitionLog {
    std::string file;
    std::vector<LogReason> reasons;
    int armTables = 0; ///< Arm tables read (each partitioner call writes one)
    int emptyTables = 0; ///< "No nodes rejected." lines
    int supportedLines = 0; ///< QNN lines that say an operator is supported ("| True", "Forced Passed")
    std::size_t lines = 0; ///< lines looked at
    std::vector<Warning> warnings; ///< each names the file and the line

    /// True when anything of a partition log was found (a reason, a table, an empty table, a QNN line).
    bool recognised() const { return !reasons.empty() || armTables > 0 || emptyTables > 0 || supportedLines > 0; }
};

/// Bounds for reading a log: longer lines are skipped with a warning, reading stops after
/// `maxLines` lines or `maxBytes` bytes (with a warning), at most `maxWarnings` warnings are kept.
struct PartitionLogLimits {
    std::size_t maxLineBytes = std::size_t { 64 } * 1024;
    std::size_t maxLines = 2'000'000;
    std::uint64_t maxBytes = 512ull << 20;
    std::size_t maxWarnings = 200;
    std::size_t maxReasons = 200'000;
};

/// Reads every known format from `text` at once (a log may hold several, interleaved with other
/// output): CRLF and LF line ends, tabs and leading spaces are accepted. Never fails: damaged or
/// unknown content becomes a warning naming `name` and the line, and the rest is still used.
PartitionLog parsePartitionLog(std::string_view text, const std::string& name, const PartitionLogLimits& limits = {});

/// The same from a file. Fails (Error::Io / Error::Empty) only when the file cannot be read.
Result<PartitionLog> readPartitionLogFile(const std::string& path, const PartitionLogLimits& limits = {});

/// The operator key reasons and program operators are matched by: "aten::avg_pool3d" for
/// "aten.avg_pool3d.default", "aten::avg_pool3d.out", "torch.ops.aten.avg_pool3d.default" and
/// "avg_pool3d.default" (no namespace: "aten" is assumed); lower case; "" when `op` names no operator.
std::string operatorKey(std::string_view op);

} // namespace etscope::core
