// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace etscope::core {

/// One node a partitioner rejected, as its log shows it.
struct RejectedNode {
    std::string nodeName; ///< FX node name: "aten_avg_pool3d_default"
    std::string target; ///< "aten.avg_pool3d.default"
    std::string torchFunc = "-"; ///< "('avg_pool3d', 'builtin_function_or_method.avg_pool3d')" or "-"
    std::string reason;
};

/// One partitioner call of Arm's TOSA partitioner: the spec it ran for and what it rejected.
struct ArmPartitionCall {
    std::string tosaSpec = "TOSA-1.0+INT+int16+int4+u55";
    std::vector<RejectedNode> rejected; ///< empty: "No nodes rejected."
};

/// Text wrapped as Python's textwrap (tabulate's maxcolwidths) does: greedy at spaces, the
/// spaces at a break dropped, a word longer than `width` cut into full-width pieces.
std::vector<std::string> wrapLikeTextwrap(const std::string& text, std::size_t width);

/// A partition report in Arm's exact format (backends/arm/tosa/partitioner.py and
/// WhyNoPartitionReporter.get_table_report in exir/backend/utils.py, pytorch/executorch @
/// cff6f4dd): per call the "The following nodes were rejected for <spec>:" line, an empty line,
/// tabulate's fancy_grid table (cells wrapped at 35) or "No nodes rejected.", and the
/// "(Placeholders and outputs are not included in this list)" line. With `consolePrefix`, every
/// message line starts with "INFO:executorch.backends.arm.tosa.partitioner:" as
/// logging.basicConfig writes them.
std::string writeArmPartitionReport(const std::vector<ArmPartitionCall>& calls, bool consolePrefix = false);

/// XNNPACK's WhyNoPartition DEBUG lines, "DEBUG:<logger>:WhyNoPartition: Node <name> was not
/// partitioned because <reason>." (exir/backend/utils.py WhyNoPartition.__str__).
std::string writeXnnpackWhyLines(const std::vector<RejectedNode>& rejected);

/// QNN's op-support lines for (target, verdict) pairs; `legacy` writes the print()s of releases
/// up to v1.3.0 ("[QNN Partitioner Op Support]: <op> | <verdict>"), otherwise the logger lines of
/// later ones ("INFO:…qnn_partitioner:[QnnPartitioner] <op> | <verdict>").
std::string writeQnnOpSupportLines(const std::vector<std::pair<std::string, std::string>>& verdicts, bool legacy);

/// Core ML's skip lines ("INFO:…coreml_partitioner:Skipping op for CoreML delegation because it
/// is not supported by CoreML: <op>") for each target, lower case as the partitioner writes them.
std::string writeCoreMlSkipLines(const std::vector<std::string>& targets);

} // namespace etscope::core
