// SPDX-License-Identifier: MIT
#include "core/table/table.h"

#include "core/util/jsontext.h"
#include "core/util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <type_traits>

namespace etscope::core {

namespace {

std::string escapeCsv(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string escapeTsv(std::string text)
{
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string escapeMarkdown(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += "<br>";
        else
            out += c;
    }
    return out;
}

bool isNumeric(const TableCell& cell)
{
    return std::holds_alternative<long long>(cell) || std::holds_alternative<double>(cell);
}

// Column widths count UTF-8 code points, so "×" and "…" do not skew the alignment.
std::size_t displayWidth(const std::string& text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// nlohmann's indented dump, placed `indent` spaces in (every line after the first). Like every
/// JSON the tool writes, objects list their keys sorted.
std::string indented(const nlohmann::json& value, std::size_t indent)
{
    const std::string text = jsonText(value, 2);
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        out += c;
        if (c == '\n')
            out.append(indent, ' ');
    }
    return out;
}

} // namespace

TableRenderer::TableRenderer(TableFormat format, std::string title, std::vector<std::string> columns)
    : m_format(format)
    , m_title(std::move(title))
    , m_columns(std::move(columns))
{
    for (const std::string& column : m_columns)
        m_widths.push_back(displayWidth(column));
}

void TableRenderer::measure(const std::vector<std::vector<TableCell>>& rows)
{
    if (m_format != TableFormat::Text)
        return;
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size() && c < m_widths.size(); ++c)
            m_widths[c] = std::max(m_widths[c], displayWidth(cellText(row[c])));
}

std::string TableRenderer::textLine(const std::vector<std::string>& cells, const std::vector<bool>& rightAlign) const
{
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const std::size_t pad = m_widths[c] - std::min(m_widths[c], displayWidth(cells[c]));
        if (c)
            text += "  ";
        if (rightAlign[c])
            text += std::string(pad, ' ') + cells[c];
        else
            text += cells[c] + (c + 1 < cells.size() ? std::string(pad, ' ') : std::string());
    }
    return text + "\n";
}

std::string TableRenderer::separatedLine(const std::vector<std::string>& cells) const
{
    const bool csv = m_format == TableFormat::Csv;
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c)
        line += (c ? (csv ? "," : "\t") : "") + (csv ? escapeCsv(cells[c]) : escapeTsv(cells[c]));
    return line + "\n";
}

std::string TableRenderer::begin(const std::vector<TableCell>* firstRow, const std::vector<std::string>& notes)
{
    std::ostringstream out;
    switch (m_format) {
    case TableFormat::Text: {
        if (!m_title.empty())
            out << m_title << "\n";
        out << textLine(m_columns, std::vector<bool>(m_columns.size(), false));
        std::string rule;
        for (std::size_t c = 0; c < m_widths.size(); ++c)
            rule += (c ? "  " : "") + std::string(m_widths[c], '-');
        out << rule << "\n";
        break;
    }
    case TableFormat::Csv:
    case TableFormat::Tsv:
        out << separatedLine(m_columns);
        break;
    case TableFormat::Markdown:
        if (!m_title.empty())
            out << "### " << escapeMarkdown(m_title) << "\n\n";
        out << "|";
        for (const std::string& column : m_columns)
            out << " " << escapeMarkdown(column) << " |";
        out << "\n|";
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            const bool numeric = firstRow && c < firstRow->size() && isNumeric((*firstRow)[c]);
            out << (numeric ? "---:|" : "---|");
        }
        out << "\n";
        break;
    case TableFormat::Html:
        out << "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>"
            << htmlEscape(m_title.empty() ? "ETScope table" : m_title)
            << "</title>\n<style>\nbody{font-family:sans-serif}table{border-collapse:collapse}"
               "th,td{border:1px solid #bbb;padding:2px "
               "8px}th{background:#eee}td.n{text-align:right}\n</style>\n</head>\n<body>\n";
        if (!m_title.empty())
            out << "<h3>" << htmlEscape(m_title) << "</h3>\n";
        out << "<table>\n<thead><tr>";
        for (const std::string& column : m_columns)
            out << "<th>" << htmlEscape(column) << "</th>";
        out << "</tr></thead>\n<tbody>\n";
        break;
    case TableFormat::Json: // keys in sorted order: columns, notes, rows, title
        out << "{\n  \"columns\": " << indented(nlohmann::json(m_columns), 2)
            << ",\n  \"notes\": " << indented(nlohmann::json(notes), 2) << ",\n  \"rows\": [";
        break;
    }
    return out.str();
}

std::string TableRenderer::rows(const std::vector<std::vector<TableCell>>& rows)
{
    std::ostringstream out;
    const auto text = [](const std::vector<TableCell>& row, std::size_t c) {
        return c < row.size() ? cellText(row[c]) : std::string();
    };
    for (const auto& row : rows) {
        switch (m_format) {
        case TableFormat::Text: {
            std::vector<std::string> cells;
            std::vector<bool> right;
            for (std::size_t c = 0; c < m_columns.size(); ++c) {
                cells.push_back(text(row, c));
                right.push_back(c < row.size() && isNumeric(row[c]));
            }
            out << textLine(cells, right);
            break;
        }
        case TableFormat::Csv:
        case TableFormat::Tsv: {
            std::vector<std::string> cells;
            for (std::size_t c = 0; c < m_columns.size(); ++c)
                cells.push_back(text(row, c));
            out << separatedLine(cells);
            break;
        }
        case TableFormat::Markdown:
            out << "|";
            for (std::size_t c = 0; c < m_columns.size(); ++c)
                out << " " << escapeMarkdown(text(row, c)) << " |";
            out << "\n";
            break;
        case TableFormat::Html:
            out << "<tr>";
            for (std::size_t c = 0; c < m_columns.size(); ++c)
                out << (c < row.size() && isNumeric(row[c]) ? "<td class=\"n\">" : "<td>") << htmlEscape(text(row, c))
                    << "</td>";
            out << "</tr>\n";
            break;
        case TableFormat::Json: {
            nlohmann::json object = nlohmann::json::object();
            for (std::size_t c = 0; c < m_columns.size(); ++c) {
                if (c >= row.size()) {
                    object[m_columns[c]] = nullptr;
                    continue;
                }
                std::visit(
                    [&](const auto& v) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>)
                            object[m_columns[c]] = nullptr;
                        else
                            object[m_columns[c]] = v;
                    },
                    row[c]);
            }
            out << (m_rows ? ",\n    " : "\n    ") << indented(object, 4);
            break;
        }
        }
        ++m_rows;
    }
    return out.str();
}

std::string TableRenderer::end(const std::vector<std::string>& notes)
{
    std::ostringstream out;
    switch (m_format) {
    case TableFormat::Text:
    case TableFormat::Markdown:
        if (!notes.empty())
            out << "\n";
        for (const std::string& note : notes)
            out << (m_format == TableFormat::Text ? note + "\n" : escapeMarkdown(note) + "  \n");
        break;
    case TableFormat::Csv:
    case TableFormat::Tsv:
        break;
    case TableFormat::Html:
        out << "</tbody>\n</table>\n";
        for (const std::string& note : notes)
            out << "<p>" << htmlEscape(note) << "</p>\n";
        out << "</body>\n</html>\n";
        break;
    case TableFormat::Json:
        out << (m_rows ? "\n  ]" : "]");
        if (!m_title.empty())
            out << ",\n  \"title\": " << jsonText(nlohmann::json(m_title));
        out << "\n}\n";
        break;
    }
    return out.str();
}

std::optional<TableFormat> parseTableFormat(std::string_view name)
{
    if (name == "text" || name == "txt")
        return TableFormat::Text;
    if (name == "csv")
        return TableFormat::Csv;
    if (name == "tsv")
        return TableFormat::Tsv;
    if (name == "md" || name == "markdown")
        return TableFormat::Markdown;
    if (name == "html" || name == "htm")
        return TableFormat::Html;
    if (name == "json")
        return TableFormat::Json;
    return std::nullopt;
}

std::string_view tableFormatExtension(TableFormat format)
{
    switch (format) {
    case TableFormat::Text:
        return "txt";
    case TableFormat::Csv:
        return "csv";
    case TableFormat::Tsv:
        return "tsv";
    case TableFormat::Markdown:
        return "md";
    case TableFormat::Html:
        return "html";
    case TableFormat::Json:
        return "json";
    }
    return "txt";
}

std::string cellText(const TableCell& cell)
{
    if (const auto* text = std::get_if<std::string>(&cell))
        return *text;
    if (const auto* integer = std::get_if<long long>(&cell))
        return std::to_string(*integer);
    if (std::holds_alternative<std::monostate>(cell))
        return {};
    // Spelled the same on every platform and sign: printf writes "-nan" for some NaNs.
    const double value = std::get<double>(cell);
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

std::string renderTable(const Table& table, TableFormat format)
{
    TableRenderer renderer(format, table.title, table.columns);
    renderer.measure(table.rows);
    std::string text = renderer.begin(table.rows.empty() ? nullptr : &table.rows.front(), table.notes);
    text += renderer.rows(table.rows);
    text += renderer.end(table.notes);
    return text;
}

} // namespace etscope::core
