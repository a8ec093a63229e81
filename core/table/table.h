// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace etscope::core {

/// A cell keeps numbers as numbers so JSON stays typed and CSV stays unformatted. A cell with
/// no value (an event's chain or instruction when it has none) is `kNoValue`: blank in text,
/// CSV, TSV, Markdown and HTML, null in JSON.
using TableCell = std::variant<std::string, long long, double, std::monostate>;
inline constexpr std::monostate kNoValue {};

/// A report table: what the GUI shows and the CLI prints, in the order shown.
struct Table {
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<TableCell>> rows;
    std::vector<std::string> notes; ///< lines printed after the table (e.g. summary lines)
};

enum class TableFormat { Text, Csv, Tsv, Markdown, Html, Json };

/// "text", "csv", "tsv", "md", "html", "json" (also "markdown"); nullopt when unknown.
std::optional<TableFormat> parseTableFormat(std::string_view name);
/// The usual file extension without the dot.
std::string_view tableFormatExtension(TableFormat format);

std::string cellText(const TableCell& cell);

/// Renders a table a part at a time, for tables too large to hold at once (a million-row gap
/// table): begin(), then rows() for each part in order, then end(). The concatenation is
/// exactly renderTable's text. Text needs every row's width first (measure() them all before
/// begin()) and JSON its notes; CSV, TSV, Markdown and HTML render in one pass.
class TableRenderer {
public:
    TableRenderer(TableFormat format, std::string title, std::vector<std::string> columns);
    /// Text: widens the columns to fit `rows`. Other formats: nothing.
    void measure(const std::vector<std::vector<TableCell>>& rows);
    /// What comes before the rows. Markdown right-aligns the columns where `firstRow` is numeric.
    /// JSON lists the `notes` here (its keys are sorted), so they must be known first.
    std::string begin(const std::vector<TableCell>* firstRow, const std::vector<std::string>& notes);
    std::string rows(const std::vector<std::vector<TableCell>>& rows);
    /// What comes after the rows, with `notes` where text, Markdown and HTML have them.
    std::string end(const std::vector<std::string>& notes);

private:
    std::string textLine(const std::vector<std::string>& cells, const std::vector<bool>& rightAlign) const;
    std::string separatedLine(const std::vector<std::string>& cells) const; ///< CSV or TSV

    TableFormat m_format;
    std::string m_title;
    std::vector<std::string> m_columns;
    std::vector<std::size_t> m_widths;
    std::size_t m_rows = 0;
};

/// Renders the table. CSV follows RFC 4180 quoting; TSV replaces tabs/newlines in cells by
/// spaces; Markdown escapes pipes; HTML escapes markup; JSON is {"columns", "rows", "notes"}
/// with rows as objects keyed by column name.
std::string renderTable(const Table& table, TableFormat format);

} // namespace etscope::core
