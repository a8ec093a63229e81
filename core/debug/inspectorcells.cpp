// SPDX-License-Identifier: MIT
// An Inspector table's cells: numbers, tensors and op lists as pandas prints them, the
// columns by name, a row built cell by cell and the sink that checks it (inspectorcells.h).
#include "core/debug/inspectorcells.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

namespace etscope::core::inspector {

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

} // namespace

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

namespace {

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
    // Inner lists close first: a depth is set by the first list closing at it (filling the
    // depths above with `count` would make [[1., 2.]] look ragged).
    if (tensor.shape.size() <= depth)
        tensor.shape.resize(depth + 1, -1);
    if (tensor.shape[depth] < 0)
        tensor.shape[depth] = count;
    else if (tensor.shape[depth] != count)
        tensor.complete = false; // ragged: not a tensor print we understand
    return true;
}

} // namespace

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

namespace {

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

} // namespace

Column columnOf(std::string_view name)
{
    for (const auto& [known, column] : kColumns)
        if (name == known)
            return column;
    return Column::Other;
}

namespace {

std::string_view columnName(Column column)
{
    for (const auto& [known, c] : kColumns)
        if (c == column)
            return known;
    return "?";
}

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

} // namespace

void RowBuilder::set(Column column, const Cell& cell)
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

RowSink::RowSink(const std::string& path, const InspectorRowSink& sink)
    : m_path(path)
    , m_sink(sink)
{
}

std::optional<Error> RowSink::emit(RowBuilder&& built, std::size_t index)
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
                { m_path + ": row " + std::to_string(index) + ": " + built.problem + "; row skipped", std::nullopt });
        return std::nullopt;
    }
    m_sink(std::move(built.row));
    return std::nullopt;
}

void RowSink::warn(std::vector<Warning> warnings)
{
    m_warnings.insert(
        m_warnings.begin(), std::make_move_iterator(warnings.begin()), std::make_move_iterator(warnings.end()));
}

std::vector<Warning> RowSink::finish()
{
    if (m_skipped > kNamedSkips)
        m_warnings.push_back(
            { m_path + ": " + std::to_string(m_skipped - kNamedSkips) + " more row(s) with malformed cells skipped",
                std::nullopt });
    return std::move(m_warnings);
}

} // namespace etscope::core::inspector
