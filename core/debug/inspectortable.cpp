// SPDX-License-Identifier: MIT
#include "core/debug/inspectortable.h"
#include "core/debug/printedtable.h"
#include "core/util/guard.h"
#include "core/util/jsontext.h"
#include "core/util/mappedfile.h"
#include "core/util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace etscope::core {

using nlohmann::json;

namespace {

constexpr int kMaxNesting = 64;
/// Skipped rows named one by one in the warnings; the rest are counted in one line.
constexpr std::size_t kNamedSkips = 20;
/// How much of a malformed cell a warning quotes.
constexpr std::size_t kCellExcerpt = 40;

bool isIdentifierStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isIdentifierChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

/// A number at `pos` in decimal or exponent notation. The text is a view into a mapped file
/// (not NUL-terminated), so std::from_chars, which stops at the view's end, reads it.
std::optional<double> decimalAt(std::string_view s, std::size_t& pos)
{
    const char* begin = s.data() + pos;
    double value = 0;
    const auto [end, error] = std::from_chars(begin, s.data() + s.size(), value);
    if (error == std::errc::invalid_argument)
        return std::nullopt;
    if (error == std::errc::result_out_of_range) // 1e400 and 1e-400: as strtod has them (±inf, 0)
        value = std::strtod(std::string(begin, end).c_str(), nullptr);
    pos += static_cast<std::size_t>(end - begin);
    return value;
}

/// Reads one number at `pos`: decimal, exponent, nan/inf and True/False as pandas prints them.
std::optional<double> readNumber(std::string_view s, std::size_t& pos)
{
    if (pos >= s.size())
        return std::nullopt;
    if (isIdentifierStart(s[pos])) {
        const std::size_t start = pos;
        while (pos < s.size() && isIdentifierChar(s[pos]))
            ++pos;
        const std::string_view word = s.substr(start, pos - start);
        if (word == "nan" || word == "NaN")
            return std::numeric_limits<double>::quiet_NaN();
        if (word == "inf" || word == "Infinity")
            return std::numeric_limits<double>::infinity();
        if (word == "True")
            return 1.0;
        if (word == "False")
            return 0.0;
        return std::nullopt;
    }
    return decimalAt(s, pos);
}

/// Every number in a cell, skipping wrappers such as `np.float64(` or `tensor(`.
std::vector<double> numbersIn(std::string_view s)
{
    std::vector<double> numbers;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const char c = s[pos];
        const bool signedNumber = (c == '-' || c == '+') && pos + 1 < s.size()
            && (std::isdigit(static_cast<unsigned char>(s[pos + 1])) || s[pos + 1] == '.' || s[pos + 1] == 'i');
        if (std::isdigit(static_cast<unsigned char>(c)) || signedNumber
            || (c == '.' && pos + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[pos + 1])))) {
            const bool negative = c == '-';
            if (signedNumber && s[pos + 1] == 'i') {
                ++pos;
                if (auto v = readNumber(s, pos))
                    numbers.push_back(negative ? -*v : *v);
                continue;
            }
            if (auto v = readNumber(s, pos)) {
                numbers.push_back(*v);
                continue;
            }
            ++pos;
        } else if (isIdentifierStart(c)) {
            if (auto v = readNumber(s, pos))
                numbers.push_back(*v);
        } else {
            ++pos;
        }
    }
    return numbers;
}

void skipSpace(std::string_view s, std::size_t& pos)
{
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
        ++pos;
}

/// A nested list ("[[1., 2.], [3., 4.]]") or a bare number, recording the shape per depth.
bool parseNested(std::string_view s, std::size_t& pos, PrintedTensor& tensor, std::size_t depth)
{
    skipSpace(s, pos);
    if (depth > kMaxNesting || pos >= s.size())
        return false;
    if (s[pos] != '[') {
        const bool negative = s[pos] == '-';
        if (negative || s[pos] == '+')
            ++pos;
        auto value = readNumber(s, pos);
        if (!value)
            return false;
        tensor.values.push_back(negative ? -*value : *value);
        return true;
    }
    ++pos;
    std::int64_t count = 0;
    while (true) {
        skipSpace(s, pos);
        if (pos >= s.size())
            return false;
        if (s[pos] == ']') {
            ++pos;
            break;
        }
        if (s.substr(pos, 3) == "...") {
            tensor.complete = false;
            pos += 3;
        } else {
            if (!parseNested(s, pos, tensor, depth + 1))
                return false;
            ++count;
        }
        skipSpace(s, pos);
        if (pos < s.size() && s[pos] == ',')
            ++pos;
    }
    if (tensor.shape.size() <= depth)
        tensor.shape.resize(depth + 1, count);
    else if (tensor.shape[depth] != count)
        tensor.complete = false; // ragged: not a tensor print we understand
    return true;
}

/// Tensors printed in a cell. `ok` turns false when a print is broken: an unterminated or
/// nested-too-deeply `tensor(…)` or list.
std::vector<PrintedTensor> printedTensors(std::string_view cell, bool& ok)
{
    ok = true;
    std::vector<PrintedTensor> tensors;
    std::size_t pos = cell.find("tensor(");
    if (pos == std::string_view::npos) {
        std::size_t start = 0;
        skipSpace(cell, start);
        PrintedTensor tensor;
        if (start < cell.size()) {
            const bool parsed = parseNested(cell, start, tensor, 0);
            if (parsed && !tensor.values.empty())
                tensors.push_back(std::move(tensor));
            else if (cell[start] == '[')
                ok = false;
        }
        return tensors;
    }
    while (pos != std::string_view::npos) {
        std::size_t at = pos + 7;
        PrintedTensor tensor;
        if (parseNested(cell, at, tensor, 0))
            tensors.push_back(std::move(tensor));
        else
            ok = false;
        pos = cell.find("tensor(", std::max(at, pos + 7));
    }
    return tensors;
}

std::vector<std::string> namesIn(std::string_view s)
{
    std::vector<std::string> names;
    for (std::size_t pos = 0; pos < s.size(); ++pos) {
        if (s[pos] != '\'' && s[pos] != '"')
            continue;
        const std::size_t end = s.find(s[pos], pos + 1);
        if (end == std::string_view::npos)
            break;
        names.emplace_back(s.substr(pos + 1, end - pos - 1));
        pos = end;
    }
    if (!names.empty() || s.empty())
        return names;
    std::string trimmed(s);
    trimmed.erase(
        std::remove_if(trimmed.begin(), trimmed.end(), [](char c) { return c == '[' || c == ']'; }), trimmed.end());
    std::size_t start = 0;
    while (start <= trimmed.size()) {
        const std::size_t comma = trimmed.find(',', start);
        std::string part = trimmed.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        if (!part.empty())
            names.push_back(part);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return names;
}

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

constexpr std::pair<std::string_view, Column> kColumns[] = {
    { "aot_debug_handle", Column::AotHandle },
    { "aot_ops", Column::AotOps },
    { "aot_intermediate_output", Column::AotOutput },
    { "runtime_ops", Column::RuntimeOps },
    { "runtime_debug_handle", Column::RuntimeHandle },
    { "runtime_intermediate_output", Column::RuntimeOutput },
    { "gap", Column::Gap },
    { "stacktraces", Column::StackTraces },
    { "stack_traces", Column::StackTraces },
};

Column columnOf(std::string_view name)
{
    for (const auto& [known, column] : kColumns)
        if (name == known)
            return column;
    return Column::Other;
}

std::string_view columnName(Column column)
{
    for (const auto& [known, c] : kColumns)
        if (c == column)
            return known;
    return "?";
}

/// A cell as read: CSV fields and JSON strings are text; any other JSON value is its JSON text
/// ("[1, 2]", "0.5", "null"). Every conversion below works on the text alone.
struct Cell {
    std::string_view text;
    bool isString = true;
};

bool isEmptyCell(const Cell& cell)
{
    std::size_t start = 0;
    skipSpace(cell.text, start);
    const std::string_view t = cell.text.substr(start);
    return t.empty() || t == "null" || t == "None" || t == "nan" || t == "NaN";
}

/// The cell without the spaces and line breaks at its end.
std::string_view trimmedEnd(std::string_view text)
{
    return text.substr(0, text.find_last_not_of(" \t\r\n") + 1);
}

/// A cell pandas cut at display.max_colwidth: it ends in "..." (a torch summary never does).
bool isCutShort(std::string_view text)
{
    const std::string_view t = trimmedEnd(text);
    return t.size() > 3 && t.ends_with("...");
}

/// A cell cut short by pandas, or shortened by hand with "…": the tensors in it are read as
/// summarised.
bool isSummarisedCell(std::string_view text)
{
    return isCutShort(text) || text.find("\u2026") != std::string_view::npos;
}

/// pandas' print(df) shows a tensor's line breaks as the two characters '\' 'n'.
std::string withLineBreaks(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
            out += '\n';
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

/// Debug handles: "(5,)", "[5, 6]", "5", JSON [5, 6]. Only numbers, brackets, commas and
/// spaces belong in such a cell; `(a,b)` is malformed (false).
bool handlesIn(const Cell& cell, std::vector<DebugHandle>& handles)
{
    if (isEmptyCell(cell))
        return true;
    const std::string_view s = cell.text;
    for (const char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c)) && !std::isspace(static_cast<unsigned char>(c))
            && std::string_view("()[],+-.eE").find(c) == std::string_view::npos)
            return false;
    for (const double v : numbersIn(s))
        if (std::isfinite(v) && std::abs(v) < 9e18)
            handles.emplace_back(static_cast<std::int64_t>(v));
    return true;
}

/// Collects one row's cells and what was wrong with them.
struct RowBuilder {
    InspectorRow row;
    std::uint16_t present = 0; ///< bit per Column seen
    std::string problem; ///< the first malformed cell, empty when the row is sound

    void set(Column column, const Cell& cell)
    {
        if (column == Column::Other)
            return;
        present |= static_cast<std::uint16_t>(1u << static_cast<unsigned>(column));
        const auto malformed = [&](const char* what) {
            if (!problem.empty())
                return;
            std::string excerpt(cell.text.substr(0, kCellExcerpt));
            if (cell.text.size() > kCellExcerpt)
                excerpt += "…";
            problem = std::string(columnName(column)) + " '" + excerpt + "' " + what;
        };
        bool ok = true;
        switch (column) {
        case Column::AotHandle:
            if (!handlesIn(cell, row.aotDebugHandle))
                malformed("is not a list of integers");
            break;
        case Column::RuntimeHandle:
            if (!handlesIn(cell, row.runtimeDebugHandle))
                malformed("is not a list of integers");
            break;
        case Column::AotOps:
        case Column::RuntimeOps: {
            auto& names = column == Column::AotOps ? row.aotOps : row.runtimeOps;
            if (cell.isString || cell.text.starts_with('['))
                names = namesIn(cell.text);
            // Cut short unquoted ("[add.out, mu..."): the last name is a piece.
            if (cell.isString && isCutShort(cell.text) && !names.empty() && names.back().ends_with("..."))
                names.pop_back();
            break;
        }
        case Column::AotOutput:
        case Column::RuntimeOutput: {
            auto& tensors = column == Column::AotOutput ? row.aotOutput : row.runtimeOutput;
            if (isEmptyCell(cell))
                break;
            const std::string text = withLineBreaks(cell.text);
            tensors = printedTensors(text, ok);
            if (isSummarisedCell(text)) {
                // What the cut left is not the tensor: kept as summarised, never compared.
                ok = true;
                if (tensors.empty())
                    tensors.emplace_back();
                for (PrintedTensor& tensor : tensors)
                    tensor.complete = false;
            }
            if (!ok)
                malformed("is not a complete tensor print");
            break;
        }
        case Column::Gap:
            row.gap = numbersIn(cell.text);
            if (const std::string_view t = trimmedEnd(cell.text);
                isCutShort(t) && !row.gap.empty() && std::isdigit(static_cast<unsigned char>(t[t.size() - 4])))
                row.gap.pop_back(); // "[0.25, 0.0833..." : the last number is a piece
            break;
        case Column::StackTraces:
            row.stackTraces = isEmptyCell(cell) ? std::string() : std::string(cell.text);
            break;
        case Column::Other:
            break;
        }
    }

    bool has(Column column) const { return present & (1u << static_cast<unsigned>(column)); }
};

/// Where rows go: checked, then handed on (or skipped with a warning).
class RowSink {
public:
    RowSink(const std::string& path, const InspectorRowSink& sink)
        : m_path(path)
        , m_sink(sink)
    {
    }

    /// Error::Corrupt when the row lacks the columns every gap table has: 'gap', and debug
    /// handles or op names to place the row by.
    std::optional<Error> emit(RowBuilder&& built, std::size_t index)
    {
        const bool placeable = built.has(Column::RuntimeHandle) || built.has(Column::AotHandle)
            || built.has(Column::RuntimeOps) || built.has(Column::AotOps);
        if (!built.has(Column::Gap) || !placeable)
            return makeError(Error::Code::Corrupt, m_path,
                "row " + std::to_string(index)
                    + " has no 'gap' column, or none of debug handles and op names: not a calculate_numeric_gap "
                      "table");
        if (!built.problem.empty()) {
            if (++m_skipped <= kNamedSkips)
                m_warnings.push_back(
                    { m_path + ": row " + std::to_string(index) + ": " + built.problem + "; row skipped",
                        std::nullopt });
            return std::nullopt;
        }
        m_sink(std::move(built.row));
        return std::nullopt;
    }

    /// Warnings of the reading itself (a printed table's summaries), before the skipped rows'.
    void warn(std::vector<Warning> warnings)
    {
        m_warnings.insert(
            m_warnings.begin(), std::make_move_iterator(warnings.begin()), std::make_move_iterator(warnings.end()));
    }

    std::vector<Warning> finish()
    {
        if (m_skipped > kNamedSkips)
            m_warnings.push_back(
                { m_path + ": " + std::to_string(m_skipped - kNamedSkips) + " more row(s) with malformed cells skipped",
                    std::nullopt });
        return std::move(m_warnings);
    }

private:
    const std::string& m_path;
    const InspectorRowSink& m_sink;
    std::vector<Warning> m_warnings;
    std::size_t m_skipped = 0;
};

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

/// pandas' to_json orients, read as a stream of SAX events: rows of the records, table and split
/// orients go out as soon as they close; the columns and index orients ({column: {index: cell}}
/// and {index: {column: cell}}) are gathered first. A cell that is itself an array or object is
/// kept as its JSON text. Nothing like a DOM of the file is ever built.
class JsonTableReader : public nlohmann::json_sax<json> {
public:
    JsonTableReader(const std::string& path, RowSink& rows)
        : m_path(path)
        , m_rows(rows)
    {
    }

    std::optional<Error> finish()
    {
        if (m_error)
            return m_error;
        if (m_orient == Orient::Unknown && !m_rootSeen)
            return makeError(Error::Code::Corrupt, m_path, "not valid JSON");
        if (m_orient == Orient::Nested)
            return emitGathered();
        if (m_orient == Orient::Unknown)
            return notADataFrame();
        return std::nullopt;
    }

    bool null() override { return scalar("null", false); }
    bool boolean(bool value) override { return scalar(value ? "true" : "false", false); }
    bool number_integer(number_integer_t value) override { return scalar(std::to_string(value), false); }
    bool number_unsigned(number_unsigned_t value) override { return scalar(std::to_string(value), false); }
    bool number_float(number_float_t, const string_t& text) override { return scalar(text, false); }
    bool string(string_t& value) override { return scalar(value, true); }
    bool binary(binary_t&) override { return scalar("null", false); }

    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& name) override
    {
        if (capturing()) {
            separate();
            m_capture += quoted(name);
            m_capture += ':';
            return true;
        }
        m_stack.back().key = name;
        if (m_stack.size() == 1 && m_orient == Orient::Unknown) {
            // The first key of the root object tells the orient.
            if (name == "schema" || name == "data")
                m_orient = Orient::Table;
            else if (name == "columns")
                m_orient = Orient::Split;
            else
                m_orient = Orient::Nested;
            m_byColumn = columnOf(name) != Column::Other || name.find_first_not_of("0123456789") != std::string::npos;
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override
    {
        m_error = makeError(Error::Code::Corrupt, m_path, "not valid JSON: " + jsonErrorText(error),
            position > 0 ? position - 1 : position);
        return false;
    }

private:
    enum class Orient { Unknown, Records, Table, Split, Nested };
    enum class Target { None, Cell, ColumnName };

    struct Frame {
        bool array = false;
        std::size_t position = 0; ///< index in the parent array
        std::size_t count = 0; ///< elements so far (arrays)
        std::string key; ///< current key (objects)
    };

    bool capturing() const { return m_captureDepth > 0; }

    static std::string quoted(std::string_view text)
    {
        std::string out = "\"";
        for (const char c : text) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        }
        return out + "\"";
    }

    /// A comma before the next element of a captured container.
    void separate()
    {
        if (m_captureFirst.back())
            m_captureFirst.back() = false;
        else
            m_capture += ',';
    }

    /// Where a value starting now belongs. Sets m_row / m_column for cells.
    Target target()
    {
        const std::size_t depth = m_stack.size();
        switch (m_orient) {
        case Orient::Records:
            if (depth == 1 && !m_stack[0].array)
                return Target::None;
            if (depth == 2 && !m_stack[1].array) {
                m_row = m_stack[1].position;
                m_column = m_stack[1].key;
                return Target::Cell;
            }
            return Target::None;
        case Orient::Table:
            if (depth == 3 && m_stack[0].key == "data" && !m_stack[2].array) {
                m_row = m_stack[2].position;
                m_column = m_stack[2].key;
                return Target::Cell;
            }
            return Target::None;
        case Orient::Split:
            if (depth == 2 && m_stack[0].key == "columns")
                return Target::ColumnName;
            if (depth == 3 && m_stack[0].key == "data" && m_stack[2].array) {
                m_row = m_stack[2].position;
                const std::size_t c = m_stack[2].count;
                m_column = c < m_columnNames.size() ? m_columnNames[c] : std::string();
                return Target::Cell;
            }
            return Target::None;
        case Orient::Nested:
            if (depth == 2 && !m_stack[1].array) {
                m_column = m_byColumn ? m_stack[0].key : m_stack[1].key;
                m_row = gatheredRow(m_byColumn ? m_stack[1].key : m_stack[0].key);
                return Target::Cell;
            }
            return Target::None;
        case Orient::Unknown:
            return Target::None;
        }
        return Target::None;
    }

    /// Advances the element count of the enclosing array once a value starts in it.
    void counted()
    {
        if (!m_stack.empty() && m_stack.back().array)
            ++m_stack.back().count;
    }

    bool scalar(std::string_view text, bool isString)
    {
        if (capturing()) {
            if (m_stack.back().array)
                separate();
            m_capture += isString ? quoted(text) : std::string(text);
            return true;
        }
        if (m_stack.empty()) {
            m_rootSeen = true;
            return fail(notADataFrame());
        }
        if (m_orient == Orient::Nested && m_stack.size() == 1)
            return fail(makeError(Error::Code::Corrupt, m_path, "'" + m_stack[0].key + "' is not an object"));
        if (m_orient == Orient::Records && m_stack.size() == 1)
            return fail(notADataFrame());
        const Target where = target();
        if (where == Target::ColumnName)
            m_columnNames.emplace_back(text);
        else if (where == Target::Cell)
            cell(Cell { text, isString });
        counted();
        return true;
    }

    bool open(bool array)
    {
        if (capturing()) {
            if (m_stack.back().array)
                separate();
            m_capture += array ? '[' : '{';
            m_captureFirst.push_back(true);
            m_stack.push_back({ array, 0, 0, {} });
            return true;
        }
        if (m_stack.empty()) {
            m_rootSeen = true;
            if (array)
                m_orient = Orient::Records;
        } else if (target() == Target::Cell) {
            // A structured cell: its JSON text is the cell.
            m_captureDepth = m_stack.size() + 1;
            m_capture = array ? "[" : "{";
            m_captureFirst.assign(1, true);
        } else if ((m_orient == Orient::Records && m_stack.size() == 1 && array)
            || (m_orient == Orient::Split && m_stack.size() == 2 && m_stack[0].key == "data" && !array)) {
            return fail(notADataFrame());
        } else if (m_orient == Orient::Nested && m_stack.size() == 1 && array) {
            return fail(makeError(Error::Code::Corrupt, m_path, "'" + m_stack[0].key + "' is not an object"));
        }
        const std::size_t position = !m_stack.empty() && m_stack.back().array ? m_stack.back().count : 0;
        counted();
        m_stack.push_back({ array, position, 0, {} });
        return true;
    }

    bool close()
    {
        const Frame closed = std::move(m_stack.back());
        m_stack.pop_back();
        if (capturing()) {
            m_capture += closed.array ? ']' : '}';
            m_captureFirst.pop_back();
            if (m_stack.size() + 1 == m_captureDepth) {
                m_captureDepth = 0;
                cell(Cell { m_capture, false });
            }
            return true;
        }
        // A streamed row closes: records ([{…}]), table ({"data": [{…}]}), split ({"data": [[…]]}).
        const bool rowClosed = (m_orient == Orient::Records && m_stack.size() == 1)
            || ((m_orient == Orient::Table || m_orient == Orient::Split) && m_stack.size() == 2
                && m_stack[0].key == "data");
        if (rowClosed) {
            if (m_orient == Orient::Split && closed.count != m_columnNames.size())
                return fail(
                    makeError(Error::Code::Corrupt, m_path, "a row of the split JSON has the wrong number of cells"));
            auto error = m_rows.emit(std::move(m_current), m_emitted++);
            m_current = RowBuilder();
            if (error)
                return fail(std::move(*error));
        }
        return true;
    }

    void cell(const Cell& value)
    {
        if (m_orient == Orient::Nested)
            m_gathered[m_row].set(columnOf(m_column), value);
        else
            m_current.set(columnOf(m_column), value);
    }

    std::size_t gatheredRow(const std::string& key)
    {
        const auto [it, added] = m_rowIndex.try_emplace(key, m_gathered.size());
        if (added) {
            m_gathered.emplace_back();
            m_gatheredKeys.push_back(key);
        }
        return it->second;
    }

    std::optional<Error> emitGathered()
    {
        std::vector<std::size_t> order(m_gathered.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const auto numeric = [](const std::string& k) {
            return !k.empty() && k.size() < 18 && k.find_first_not_of("0123456789") == std::string::npos;
        };
        // A strict weak ordering on mixed keys (issue 27 #16: "numeric pairs by value, all else
        // equal" is not transitive, and std::stable_sort's behaviour is then undefined): numeric
        // keys first by value, then the others in the order they came.
        const auto rank = [&](std::size_t i) {
            const std::string& key = m_gatheredKeys[i];
            return numeric(key) ? std::tuple(0, std::stoll(key), std::size_t(0)) : std::tuple(1, 0LL, i);
        };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
        for (std::size_t i = 0; i < order.size(); ++i)
            if (auto error = m_rows.emit(std::move(m_gathered[order[i]]), i))
                return error;
        return std::nullopt;
    }

    Error notADataFrame() const
    {
        return makeError(Error::Code::Corrupt, m_path,
            "JSON that is not a DataFrame (records, columns, index, split or table orient)");
    }

    bool fail(Error error)
    {
        if (!m_error)
            m_error = std::move(error);
        return false;
    }

    const std::string& m_path;
    RowSink& m_rows;
    std::optional<Error> m_error;
    Orient m_orient = Orient::Unknown;
    bool m_rootSeen = false;
    bool m_byColumn = true;
    std::vector<Frame> m_stack;
    std::size_t m_captureDepth = 0; ///< stack depth of the captured cell's container; 0 when none
    std::string m_capture;
    std::vector<bool> m_captureFirst;
    std::size_t m_row = 0;
    std::string m_column;
    std::vector<std::string> m_columnNames; ///< split orient
    RowBuilder m_current;
    std::size_t m_emitted = 0;
    std::vector<RowBuilder> m_gathered; ///< columns / index orients
    std::vector<std::string> m_gatheredKeys;
    std::unordered_map<std::string, std::size_t> m_rowIndex;
};

std::optional<Error> readJsonTable(std::string_view text, const std::string& path, RowSink& rows)
{
    if (const auto deep = jsonTooDeepAt(text))
        return makeError(
            Error::Code::Limit, path, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", *deep);
    JsonTableReader reader(path, rows);
    json::sax_parse(text.begin(), text.end(), &reader);
    return reader.finish();
}

/// The last pair the Inspector would compare: the AOT value against the runtime value of equal
/// size (the unique one of equal shape when several were logged, else the last).
std::optional<std::pair<const PrintedTensor*, const PrintedTensor*>> comparable(const InspectorRow& row)
{
    if (row.aotOutput.empty() || row.runtimeOutput.empty())
        return std::nullopt;
    const PrintedTensor& aot = row.aotOutput.back();
    const PrintedTensor* runtime = &row.runtimeOutput.back();
    if (row.runtimeOutput.size() > 1) {
        std::vector<const PrintedTensor*> same;
        for (const PrintedTensor& t : row.runtimeOutput)
            if (t.shape == aot.shape)
                same.push_back(&t);
        if (same.size() == 1)
            runtime = same.front();
    }
    return std::make_pair(&aot, runtime);
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

InspectorGapMapper::InspectorGapMapper(
    const EventMapper& mapper, GapMetric metric, const std::string& source, RowHandler handler)
    : m_mapper(mapper)
    , m_handler(std::move(handler))
{
    m_report.mode = "inspector";
    m_report.reference = source + " (aot_intermediate_output)";
    m_report.run = source + " (runtime_intermediate_output)";
    m_report.importedMetric = metric;
    // Inner nodes carrying AOT handles (XNNPACK stores one per node), in execution order.
    for (const Node& top : mapper.graph().nodes)
        if (top.kind == NodeKind::Delegate && top.subgraph)
            for (const Node& inner : top.subgraph->nodes)
                if (inner.kind == NodeKind::Operator && inner.debugHandle)
                    m_handled.push_back({ { top.id, inner.id }, *inner.debugHandle });
}

void InspectorGapMapper::add(const InspectorRow& in)
{
    const Graph& graph = m_mapper.graph();
    GapRow row;
    const std::vector<DebugHandle>& handles = in.runtimeDebugHandle.empty() ? in.aotDebugHandle : in.runtimeDebugHandle;
    const std::set<DebugHandle> handleSet(handles.begin(), handles.end());
    row.debugHandles = handles;
    row.aotOps = in.aotOps;
    row.imported = in.gap;
    for (const std::string& op : in.runtimeOps)
        row.runtimeOp += (row.runtimeOp.empty() ? "" : ", ") + op;
    const std::string firstOp = in.runtimeOps.empty() ? std::string() : in.runtimeOps.front();
    const int ordinal = m_seenOps[firstOp]++;

    std::optional<NodeOrigin> inner;
    for (const auto& [origin, handle] : m_handled)
        if (!handles.empty() && handle == handles.back())
            inner = origin;
    if (!inner)
        for (const auto& [origin, handle] : m_handled)
            if (handleSet.count(handle))
                inner = origin;
    std::optional<int> instruction;
    if (const ETRecord* record = m_mapper.record()) {
        if (const auto map = record->debugHandleMap.find(m_mapper.method()); map != record->debugHandleMap.end())
            for (const auto& [id, entry] : map->second)
                for (const DebugHandle h : entry.handles)
                    if (handleSet.count(h))
                        instruction = std::max(instruction.value_or(id), id);
    }
    if (instruction) {
        row.instruction = InstructionId(*instruction);
        row.origin = { m_mapper.instructionNode(ChainIndex(0), row.instruction), NodeId::none() };
        if (inner && inner->top == row.origin.top)
            row.origin = *inner;
    } else if (inner) {
        row.origin = *inner;
    } else if (!firstOp.empty()) {
        // Runtime op order: the k-th row of an op meets the k-th node of that op.
        const bool delegate = firstOp == "DELEGATE_CALL";
        const std::string kernel = firstOp.starts_with("native_call_") ? firstOp.substr(12) : firstOp;
        int k = 0;
        for (const Node& node : graph.nodes) {
            bool same = false;
            if (delegate)
                same = node.kind == NodeKind::Delegate;
            else if (node.kind == NodeKind::Operator)
                same = withoutNamespace(node.opType) == kernel || node.opType == kernel;
            if (same && k++ == ordinal) {
                row.origin = { node.id, NodeId::none() };
                break;
            }
        }
    }
    row.matched = row.origin.top.valid();
    if (row.matched) {
        row.label = m_mapper.label(row.origin);
        if (row.instruction.value < 0)
            row.instruction = graph.node(row.origin.top).instruction;
    } else {
        ++m_unmatched;
        row.label = in.aotOps.empty() ? "(no node)" : in.aotOps.back();
    }
    if (const auto pair = comparable(in)) {
        const auto& [aot, runtime] = *pair;
        row.shape = runtime->shape;
        if (!aot->complete || !runtime->complete)
            row.problem = "the table printed a summarised tensor (…): metrics not recomputed";
        else if (aot->values.size() != runtime->values.size())
            row.problem = "printed tensors differ in size: metrics not recomputed";
        else
            row.metrics = computeGapMetrics(aot->values, runtime->values);
    }
    ++m_rows;
    if (m_handler)
        m_handler(std::move(row));
    else
        m_report.rows.push_back(std::move(row));
}

GapReport InspectorGapMapper::finish(std::vector<Warning> readWarnings)
{
    m_report.warnings = std::move(readWarnings);
    if (m_unmatched)
        m_report.warnings.push_back({ std::to_string(m_unmatched) + " of " + std::to_string(m_rows)
                + " Inspector row(s) match no node (attach the ETRecord for debug handles)",
            std::nullopt });
    return std::move(m_report);
}

GapReport mapInspectorTable(
    const InspectorTable& table, const EventMapper& mapper, GapMetric metric, const std::string& source)
{
    InspectorGapMapper gap(mapper, metric, source);
    for (const InspectorRow& row : table.rows)
        gap.add(row);
    return gap.finish(table.warnings);
}

Result<GapReport> importInspectorTable(const std::string& path, const EventMapper& mapper, GapMetric metric,
    const InspectorGapMapper::RowHandler& handler, std::uint64_t maxBytes)
{
    InspectorGapMapper gap(mapper, metric, path, handler);
    auto warnings = readInspectorTableFile(
        path, [&](InspectorRow&& row) { gap.add(row); }, maxBytes);
    if (!warnings)
        return warnings.error();
    return gap.finish(std::move(warnings).value());
}

} // namespace etscope::core
