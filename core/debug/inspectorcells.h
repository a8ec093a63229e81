// SPDX-License-Identifier: MIT
// The cells of an imported Inspector table, shared by its readers (inspectortable.cpp: CSV, TSV
// and printed tables; inspectorjson.cpp: pandas' to_json orients): numbers and tensors as
// printed, the calculate_numeric_gap columns, a row built cell by cell and the sink that checks
// rows and hands them on. Private to core/debug.
#pragma once

#include "core/debug/inspectortable.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::inspector {

void skipSpace(std::string_view s, std::size_t& pos);

/// Every number in a cell, skipping wrappers such as `np.float64(` or `tensor(`.
std::vector<double> numbersIn(std::string_view s);

/// Tensors printed in a cell. `ok` turns false when a print is broken: an unterminated or
/// nested-too-deeply `tensor(…)` or list.
std::vector<PrintedTensor> printedTensors(std::string_view cell, bool& ok);

/// The calculate_numeric_gap columns ETScope reads.
enum class Column : std::uint8_t {
    AotHandle,
    AotOps,
    AotOutput,
    RuntimeOps,
    RuntimeHandle,
    RuntimeOutput,
    Gap,
    StackTraces,
    Other,
};

Column columnOf(std::string_view name);

/// A cell as read: CSV fields and JSON strings are text; any other JSON value is its JSON text
/// ("[1, 2]", "0.5", "null"). Every conversion works on the text alone.
struct Cell {
    std::string_view text;
    bool isString = true;
};

/// Collects one row's cells and what was wrong with them.
struct RowBuilder {
    InspectorRow row;
    std::uint16_t present = 0; ///< bit per Column seen
    std::string problem; ///< the first malformed cell, empty when the row is sound

    void set(Column column, const Cell& cell);
    bool has(Column column) const { return present & (1u << static_cast<unsigned>(column)); }
};

/// Where rows go: checked, then handed on (or skipped with a warning).
class RowSink {
public:
    RowSink(const std::string& path, const InspectorRowSink& sink);

    /// Error::Corrupt when the row lacks the columns every gap table has: 'gap', and debug
    /// handles or op names to place the row by.
    std::optional<Error> emit(RowBuilder&& built, std::size_t index);
    /// Warnings of the reading itself (a printed table's summaries), before the skipped rows'.
    void warn(std::vector<Warning> warnings);
    std::vector<Warning> finish();

private:
    const std::string& m_path;
    const InspectorRowSink& m_sink;
    std::vector<Warning> m_warnings;
    std::size_t m_skipped = 0;
};

/// pandas' to_json orients (records, columns, index, split, table) read as a stream of SAX
/// events into `rows` (inspectorjson.cpp).
std::optional<Error> readJsonTable(std::string_view text, const std::string& path, RowSink& rows);

} // namespace etscope::core::inspector
