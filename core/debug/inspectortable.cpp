// SPDX-License-Identifier: MIT
// Reading an Inspector table: the format told from the text, CSV and TSV records, printed
// tables (printedtable.h); JSON in inspectorjson.cpp, the cells in inspectorcells.cpp and the
// placing of rows on the graph in inspectormapper.cpp.
#include "core/debug/inspectortable.h"
#include "core/debug/inspectorcells.h"
#include "core/debug/printedtable.h"
#include "core/util/guard.h"
#include "core/util/mappedfile.h"
#include "core/util/text.h"

#include <algorithm>
#include <string>

namespace etscope::core {

using namespace inspector;

namespace {

/// RFC 4180 records with `delimiter`, one at a time; quoted fields may hold delimiters and
/// line breaks. `record(fields)` returns an error to stop.
template <typename OnRecord>
std::optional<Error> forEachRecord(std::string_view text, char delimiter, const std::string& path, OnRecord record)
{
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    bool fieldStarted = false;
    std::size_t line = 1;
    std::size_t quoteLine = 0;
    const auto endRecord = [&]() -> std::optional<Error> {
        fields.push_back(std::move(field));
        field.clear();
        fieldStarted = false;
        std::optional<Error> error;
        if (!(fields.size() == 1 && fields[0].empty()))
            error = record(fields);
        fields.clear();
        return error;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted && c != '"') {
            // The run up to the next quote, in one append (a 100 MB table is mostly field text).
            const std::size_t end = std::min(text.find('"', i), text.size());
            const std::string_view run = text.substr(i, end - i);
            line += static_cast<std::size_t>(std::count(run.begin(), run.end(), '\n'));
            field += run;
            i = end - 1;
            continue;
        }
        if (!quoted && c != '"' && c != delimiter && c != '\n' && c != '\r') {
            std::size_t end = i + 1;
            while (end < text.size() && text[end] != delimiter && text[end] != '\n' && text[end] != '\r')
                ++end;
            field += text.substr(i, end - i);
            fieldStarted = true;
            i = end - 1;
            continue;
        }
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                line += c == '\n' ? 1 : 0;
                field += c;
            }
            continue;
        }
        if (c == '"' && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
            quoteLine = line;
        } else if (c == delimiter) {
            fields.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            ++line;
            if (auto error = endRecord())
                return error;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        return makeError(
            Error::Code::Corrupt, path, "a quoted field opened on line " + std::to_string(quoteLine) + " never closes");
    if (fieldStarted || !fields.empty())
        return endRecord();
    return std::nullopt;
}

std::optional<Error> readDelimited(std::string_view text, const std::string& path, RowSink& rows)
{
    const std::string_view header = text.substr(0, text.find('\n'));
    const char delimiter = header.find('\t') != std::string_view::npos ? '\t' : ',';
    std::vector<Column> columns;
    bool haveHeader = false;
    std::size_t index = 0;
    auto error
        = forEachRecord(text, delimiter, path, [&](const std::vector<std::string>& fields) -> std::optional<Error> {
              if (!haveHeader) {
                  haveHeader = true;
                  for (const std::string& name : fields)
                      columns.push_back(columnOf(name));
                  return std::nullopt;
              }
              if (fields.size() != columns.size())
                  return makeError(Error::Code::Corrupt, path,
                      "record " + std::to_string(index + 1) + " has " + std::to_string(fields.size())
                          + " fields, the header " + std::to_string(columns.size()));
              RowBuilder row;
              for (std::size_t c = 0; c < columns.size(); ++c)
                  row.set(columns[c], Cell { fields[c], true });
              return rows.emit(std::move(row), index++);
          });
    if (error)
        return error;
    if (!haveHeader)
        return makeError(Error::Code::Empty, path, "no header line");
    return std::nullopt;
}

/// A table printed for a person (pandas' print(df), tabulate): columns by name as in CSV.
std::optional<Error> readPrinted(std::string_view text, const std::string& path, RowSink& rows)
{
    std::vector<Column> columns;
    std::size_t index = 0;
    std::vector<Warning> warnings;
    auto error = readPrintedTable(
        text, path,
        [&](const std::vector<std::string>& names) -> std::optional<Error> {
            for (const std::string& name : names)
                columns.push_back(columnOf(name));
            const bool gap = std::find(columns.begin(), columns.end(), Column::Gap) != columns.end();
            if (!gap && std::find(names.begin(), names.end(), "...") != names.end())
                return makeError(Error::Code::Corrupt, path,
                    "pandas left the 'gap' column out where it printed '...' (display.max_columns): print with "
                    "pd.set_option('display.max_columns', None), or save with to_csv");
            return std::nullopt;
        },
        [&](std::vector<std::string>& cells, std::size_t) -> std::optional<Error> {
            RowBuilder row;
            for (std::size_t c = 0; c < columns.size() && c < cells.size(); ++c)
                row.set(columns[c], Cell { cells[c], true });
            return rows.emit(std::move(row), index++);
        },
        warnings);
    rows.warn(std::move(warnings));
    return error;
}

} // namespace

std::vector<PrintedTensor> parsePrintedTensors(const std::string& cell)
{
    bool ok = true;
    return printedTensors(cell, ok);
}

Result<std::vector<Warning>> readInspectorRows(
    std::string_view text, const std::string& path, const InspectorRowSink& sink)
{
    return guardedRead<std::vector<Warning>>(path, "the Inspector table", [&]() -> Result<std::vector<Warning>> {
        RowSink rows(path, sink);
        std::size_t first = 0;
        skipSpace(text, first);
        const bool isJson = first < text.size() && (text[first] == '{' || text[first] == '[');
        std::optional<Error> error;
        if (isJson)
            error = readJsonTable(text, path, rows);
        else if (isPrintedTable(text))
            error = readPrinted(text, path, rows);
        else
            error = readDelimited(text, path, rows);
        if (error)
            return *error;
        return rows.finish();
    });
}

Result<InspectorTable> parseInspectorTable(std::string_view text, const std::string& path)
{
    InspectorTable table;
    auto warnings = readInspectorRows(text, path, [&](InspectorRow&& row) { table.rows.push_back(std::move(row)); });
    if (!warnings)
        return warnings.error();
    table.warnings = std::move(warnings).value();
    return table;
}

Result<std::vector<Warning>> readInspectorTableFile(
    const std::string& path, const InspectorRowSink& sink, std::uint64_t maxBytes)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    if (file.value()->size() > maxBytes)
        return makeError(Error::Code::Limit, path,
            std::to_string(file.value()->size()) + " bytes: larger than the " + formatBytes(maxBytes)
                + " an Inspector table may have");
    const auto bytes = file.value()->bytes();
    return readInspectorRows({ reinterpret_cast<const char*>(bytes.data()), bytes.size() }, path, sink);
}

} // namespace etscope::core
