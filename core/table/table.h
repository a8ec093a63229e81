// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace etscope::core {

/// A cell keeps numbers as numbers so JSON stays typed and CSV stays unformatted.
using TableCell = std::variant<std::string, long long, double>;

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

/// Renders the table. CSV follows RFC 4180 quoting; TSV replaces tabs/newlines in cells by
/// spaces; Markdown escapes pipes; HTML escapes markup; JSON is {"columns", "rows", "notes"}
/// with rows as objects keyed by column name.
std::string renderTable(const Table& table, TableFormat format);

} // namespace etscope::core
