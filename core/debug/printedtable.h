// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// The column names of a printed table, the index column left out.
using PrintedHeader = std::function<std::optional<Error>(const std::vector<std::string>& names)>;
/// One row: as many cells as the header has names, each trimmed, the lines of a multi-line cell
/// joined by '\n'. `line` is the row's first line (counted from 1). An error stops the reading.
using PrintedRecord = std::function<std::optional<Error>(std::vector<std::string>& cells, std::size_t line)>;

/// True when the first line of `text` is the start of a table as Python prints it for a person,
/// not CSV, TSV or JSON: it holds no comma or tab, or begins with a border ('|', '+', a box
/// drawing character).
bool isPrintedTable(std::string_view text);

/// Reads a table printed for a person: pandas' `print(df)` / `df.to_string()` and tabulate's
/// formats. Two families:
///  - aligned (pandas, tabulate plain / simple / rst): cells are cut where the header's names
///    sit: between two names the cut is the widest run of spaces outside the cell's brackets
///    and quotes, so `tensor([[ 0.1250, -2.5000]])` or `File "a.py", line 3` stay whole whether
///    the columns are right-aligned (pandas) or left-aligned (tabulate). An unnamed index (a
///    word at the start of the line, left-aligned as pandas prints it or right-aligned as
///    tabulate does) and the line naming pandas' index are left out. pandas' wrapped frames
///    (`display.expand_frame_repr`: blocks of columns, their header lines ending in '\') are
///    joined row by row, which holds the blocks before the last as cell text; an unwrapped
///    print is read line by line, one row at a time. pandas' summaries: rows of '...'
///    (display.max_rows) are skipped with a warning, a column named "..." (display.max_columns)
///    is warned about, the "[N rows x M columns]" footer is skipped, and cells cut with '...'
///    (display.max_colwidth) are counted in one warning.
///  - bordered (tabulate fancy_grid, grid, psql, pipe, github, orgtbl, the *_grid and
///    *_outline styles; Markdown tables): cells between '|', '│', '┃' or '║' ("\|" stays in the
///    cell), rule lines skipped.
/// Rows spanning several lines are joined cell by cell with '\n' (tabulate's multi-line cells;
/// github's raw line breaks, joined before the cells are split): a line continues the row when
/// its unnamed index is blank, or, without one, when a cell of the row still has a bracket
/// open or the line's first cell is blank; a rule line always ends a row. pandas prints a
/// string inside a dict raw, so a stack trace's further lines start at the left edge: when one
/// cell alone is open, such a line is added to it whole. Text that is not such a table fails
/// with Error::Corrupt naming `path`, the line and its byte offset; more than 1024 columns or a
/// line over 16 MiB is Error::Limit. Warnings are appended to `warnings`.
std::optional<Error> readPrintedTable(std::string_view text, const std::string& path, const PrintedHeader& header,
    const PrintedRecord& record, std::vector<Warning>& warnings);

} // namespace etscope::core
