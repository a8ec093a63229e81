// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/numericgap.h"

#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// A tensor as pandas printed it ("tensor([[1.0, 2.0]])") or as JSON nested lists.
struct PrintedTensor {
    std::vector<double> values;
    std::vector<std::int64_t> shape;
    bool complete = true; ///< false when the print was summarised with "..."
};

/// One row of the Inspector's calculate_numeric_gap DataFrame (facts sheet §7).
struct InspectorRow {
    std::vector<DebugHandle> aotDebugHandle;
    std::vector<std::string> aotOps;
    std::vector<PrintedTensor> aotOutput; ///< one, or several for a list cell
    std::vector<std::string> runtimeOps;
    std::vector<DebugHandle> runtimeDebugHandle;
    std::vector<PrintedTensor> runtimeOutput;
    std::vector<double> gap;
    std::string stackTraces; ///< the cell as printed
};

/// Parses the DataFrame saved as CSV, TSV (`to_csv(sep="\t")`) or JSON (`to_json` with orient
/// records, columns, index, split or table). The format is recognised from the text. Columns
/// are found by name (an unnamed index column is ignored); `runtime_debug_handle` or
/// `aot_debug_handle`, and `gap`, must exist. Fails (Error::Corrupt, naming `path` and the line
/// or row) on malformed text.
Result<std::vector<InspectorRow>> parseInspectorTable(const std::string& text, const std::string& path);

/// Reads and parses a file (at most `maxBytes`).
Result<std::vector<InspectorRow>> readInspectorTable(const std::string& path, std::uint64_t maxBytes = 256ull << 20);

/// Parses one tensor cell: "tensor(2.)", "tensor([[1., 2.]], dtype=torch.float64)",
/// "[tensor([1.]), tensor([2.])]" or plain nested lists. Empty when the cell holds no numbers.
std::vector<PrintedTensor> parsePrintedTensors(const std::string& cell);

/// Places imported rows on the graph: through debug handles (inner XNNPACK nodes carrying
/// them; top-level instructions via the ETRecord's debug_handle_map, the largest instruction id
/// winning as in the Inspector), else by runtime op order (the k-th `native_call_<op>` row ↔
/// the k-th node of that operator, the k-th `DELEGATE_CALL` ↔ the k-th delegate). Metrics are
/// recomputed from the printed tensors when both sides are complete and of equal size; the
/// Inspector's own gap list is kept in GapRow::imported. `metric` names what that list holds.
GapReport mapInspectorTable(
    const std::vector<InspectorRow>& rows, const EventMapper& mapper, GapMetric metric, const std::string& source);

} // namespace etscope::core
