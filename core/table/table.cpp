// SPDX-License-Identifier: MIT
#include "core/table/table.h"
#include "core/util/jsontext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

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

std::string escapeHtml(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

bool isNumeric(const TableCell& cell)
{
    return !std::holds_alternative<std::string>(cell);
}

// Column widths count UTF-8 code points, so "×" and "…" do not skew the alignment.
std::size_t displayWidth(const std::string& text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string renderText(const Table& table)
{
    std::vector<std::size_t> widths(table.columns.size(), 0);
    for (std::size_t c = 0; c < table.columns.size(); ++c)
        widths[c] = displayWidth(table.columns[c]);
    for (const auto& row : table.rows)
        for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c)
            widths[c] = std::max(widths[c], displayWidth(cellText(row[c])));
    std::ostringstream out;
    if (!table.title.empty())
        out << table.title << "\n";
    const auto line = [&](const std::vector<std::string>& cells, const std::vector<bool>& rightAlign) {
        std::string text;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t pad = widths[c] - std::min(widths[c], displayWidth(cells[c]));
            if (c)
                text += "  ";
            if (rightAlign[c])
                text += std::string(pad, ' ') + cells[c];
            else
                text += cells[c] + (c + 1 < cells.size() ? std::string(pad, ' ') : std::string());
        }
        out << text << "\n";
    };
    line(table.columns, std::vector<bool>(table.columns.size(), false));
    std::string rule;
    for (std::size_t c = 0; c < widths.size(); ++c)
        rule += (c ? "  " : "") + std::string(widths[c], '-');
    out << rule << "\n";
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        std::vector<bool> right;
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            cells.push_back(c < row.size() ? cellText(row[c]) : std::string());
            right.push_back(c < row.size() && isNumeric(row[c]));
        }
        line(cells, right);
    }
    if (!table.notes.empty())
        out << "\n";
    for (const std::string& note : table.notes)
        out << note << "\n";
    return out.str();
}

std::string renderSeparated(const Table& table, char separator)
{
    std::ostringstream out;
    const auto escape = [&](const std::string& text) { return separator == ',' ? escapeCsv(text) : escapeTsv(text); };
    for (std::size_t c = 0; c < table.columns.size(); ++c)
        out << (c ? std::string(1, separator) : std::string()) << escape(table.columns[c]);
    out << "\n";
    for (const auto& row : table.rows) {
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            out << (c ? std::string(1, separator) : std::string())
                << escape(c < row.size() ? cellText(row[c]) : std::string());
        out << "\n";
    }
    return out.str();
}

std::string renderMarkdown(const Table& table)
{
    std::ostringstream out;
    if (!table.title.empty())
        out << "### " << escapeMarkdown(table.title) << "\n\n";
    out << "|";
    for (const std::string& column : table.columns)
        out << " " << escapeMarkdown(column) << " |";
    out << "\n|";
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const bool numeric = !table.rows.empty() && c < table.rows.front().size() && isNumeric(table.rows.front()[c]);
        out << (numeric ? "---:|" : "---|");
    }
    out << "\n";
    for (const auto& row : table.rows) {
        out << "|";
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            out << " " << escapeMarkdown(c < row.size() ? cellText(row[c]) : std::string()) << " |";
        out << "\n";
    }
    if (!table.notes.empty())
        out << "\n";
    for (const std::string& note : table.notes)
        out << escapeMarkdown(note) << "  \n";
    return out.str();
}

std::string renderHtml(const Table& table)
{
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>"
        << escapeHtml(table.title.empty() ? "ETScope table" : table.title)
        << "</title>\n<style>\nbody{font-family:sans-serif}table{border-collapse:collapse}"
           "th,td{border:1px solid #bbb;padding:2px "
           "8px}th{background:#eee}td.n{text-align:right}\n</style>\n</head>\n<body>\n";
    if (!table.title.empty())
        out << "<h3>" << escapeHtml(table.title) << "</h3>\n";
    out << "<table>\n<thead><tr>";
    for (const std::string& column : table.columns)
        out << "<th>" << escapeHtml(column) << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (const auto& row : table.rows) {
        out << "<tr>";
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const bool numeric = c < row.size() && isNumeric(row[c]);
            out << (numeric ? "<td class=\"n\">" : "<td>")
                << escapeHtml(c < row.size() ? cellText(row[c]) : std::string()) << "</td>";
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
    for (const std::string& note : table.notes)
        out << "<p>" << escapeHtml(note) << "</p>\n";
    out << "</body>\n</html>\n";
    return out.str();
}

std::string renderJson(const Table& table)
{
    nlohmann::ordered_json json;
    if (!table.title.empty())
        json["title"] = table.title;
    json["columns"] = table.columns;
    json["rows"] = nlohmann::ordered_json::array();
    for (const auto& row : table.rows) {
        nlohmann::ordered_json object = nlohmann::ordered_json::object();
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (c >= row.size()) {
                object[table.columns[c]] = nullptr;
                continue;
            }
            std::visit([&](const auto& v) { object[table.columns[c]] = v; }, row[c]);
        }
        json["rows"].push_back(std::move(object));
    }
    json["notes"] = table.notes;
    return jsonText(json, 2) + "\n";
}

} // namespace

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
    switch (format) {
    case TableFormat::Text:
        return renderText(table);
    case TableFormat::Csv:
        return renderSeparated(table, ',');
    case TableFormat::Tsv:
        return renderSeparated(table, '\t');
    case TableFormat::Markdown:
        return renderMarkdown(table);
    case TableFormat::Html:
        return renderHtml(table);
    case TableFormat::Json:
        return renderJson(table);
    }
    return {};
}

} // namespace etscope::core
