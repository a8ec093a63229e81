// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/numericgap.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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

/// An imported table: its rows, and the rows skipped for malformed cells (one warning each,
/// naming the row, the column and the cell).
struct InspectorTable {
    std::vector<InspectorRow> rows;
    std::vector<Warning> warnings;
};

/// Receives each row as soon as it is read.
using InspectorRowSink = std::function<void(InspectorRow&&)>;

/// Inspector tables larger than this are refused (Error::Limit): 256 MiB, about two million
/// rows of small tensors. Reading streams, so memory follows the rows kept, not the file.
constexpr std::uint64_t kMaxInspectorTableBytes = 256ull << 20;

/// Reads the DataFrame saved as CSV, TSV (`to_csv(sep="\t")`) or JSON (`to_json` with orient
/// records, columns, index, split or table), or pasted as printed: pandas' `print(df)` /
/// `df.to_string()` and tabulate's tables (fancy_grid, github, plain, grid, psql, pipe and
/// their kin; Markdown tables), read by readPrintedTable (printedtable.h). Each row goes to
/// `sink`; the format is recognised from the text. Streams: CSV, printed tables and the records,
/// split and table orients hold one row at a time (a pandas frame wrapped into blocks of
/// columns holds the blocks before its last, as text); the columns and index orients hold the
/// table's rows, never a JSON document.
/// Columns are found by name; an unnamed index column, `idx` and unknown columns are ignored;
/// `stacktraces` (or `stack_traces`) is kept as printed. `gap` must exist, and debug handles
/// (`runtime_debug_handle`, `aot_debug_handle`) or op names (`runtime_ops`, `aot_ops`) to place
/// the rows: a table without handles, as people post them (idx, aot_ops,
/// aot_intermediate_output, runtime_ops, runtime_intermediate_output, gap), is placed by
/// runtime op order in InspectorGapMapper. Printed cells are read like CSV's: op lists with or
/// without quotes (`[aten_linear_default]`, `['aten.linear.default']`), tensors with pandas'
/// `\n`, a bare number or a list as the gap. A tensor cell cut short ("..." at its end, as
/// pandas' display.max_colwidth does, or "…" anywhere) is kept as summarised, never compared.
/// A row with a malformed cell (an unterminated `tensor([1., 2.`, handles `(a,b)`) is skipped
/// with a warning; malformed text fails (Error::Corrupt naming `path` and the line, row or byte
/// offset). Returns the warnings.
Result<std::vector<Warning>> readInspectorRows(
    std::string_view text, const std::string& path, const InspectorRowSink& sink);

/// readInspectorRows into a table.
Result<InspectorTable> parseInspectorTable(std::string_view text, const std::string& path);

/// readInspectorRows on a file (at most `maxBytes`, mapped, never copied).
Result<std::vector<Warning>> readInspectorTableFile(
    const std::string& path, const InspectorRowSink& sink, std::uint64_t maxBytes = kMaxInspectorTableBytes);

/// Parses one tensor cell: "tensor(2.)", "tensor([[1., 2.]], dtype=torch.float64)",
/// "[tensor([1.]), tensor([2.])]" or plain nested lists. Empty when the cell holds no numbers.
std::vector<PrintedTensor> parsePrintedTensors(const std::string& cell);

/// Places imported rows on the graph, one at a time: through debug handles (inner XNNPACK
/// nodes carrying them; top-level instructions via the ETRecord's debug_handle_map, the largest
/// instruction id winning as in the Inspector), else by runtime op order (the k-th
/// `native_call_<op>` row ↔ the k-th node of that operator, the k-th `DELEGATE_CALL` ↔ the k-th
/// delegate; by its first runtime op). Rows of a table without handle columns all go by runtime
/// op order, and rows without runtime ops stay unmatched (counted in one warning). Metrics are
/// recomputed from the printed tensors when both sides are complete and
/// of equal size; the Inspector's own gap list is kept in GapRow::imported. `metric` names what
/// that list holds. The printed tensors are not kept.
class InspectorGapMapper {
public:
    /// Receives each mapped row instead of the report (which then keeps none).
    using RowHandler = std::function<void(GapRow&&)>;

    InspectorGapMapper(const EventMapper& mapper, GapMetric metric, const std::string& source, RowHandler handler = {});
    void add(const InspectorRow& row);
    /// The report, with `readWarnings` (skipped rows) first.
    GapReport finish(std::vector<Warning> readWarnings);

private:
    const EventMapper& m_mapper;
    RowHandler m_handler;
    GapReport m_report;
    std::size_t m_rows = 0;
    std::vector<std::pair<NodeOrigin, DebugHandle>> m_handled;
    std::map<std::string, int> m_seenOps;
    std::size_t m_unmatched = 0;
};

/// All rows of `table` through an InspectorGapMapper.
GapReport mapInspectorTable(
    const InspectorTable& table, const EventMapper& mapper, GapMetric metric, const std::string& source);

/// Reads a table file straight onto the graph: rows are mapped as they are read and only the
/// report is kept. With `handler`, each mapped row goes there instead and the report holds the
/// warnings alone (the command line renders a million rows without holding them).
Result<GapReport> importInspectorTable(const std::string& path, const EventMapper& mapper, GapMetric metric,
    const InspectorGapMapper::RowHandler& handler = {}, std::uint64_t maxBytes = kMaxInspectorTableBytes);

} // namespace etscope::core
