// SPDX-License-Identifier: MIT
// Inspector tables as pandas and tabulate print them. Why one file: one reader (PrintedReader) whose
// two families of tables (aligned, bordered) share the row assembly, the brackets left open and the
// hand-over of wrapped blocks; the functions above it are its line and code-point scanners.
#include "core/debug/printedtable.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace etscope::core {

namespace {

/// More columns than any Inspector table has; past this a "header" is noise, and every line
/// would be cut into that many cells.
constexpr std::size_t kMaxColumns = 1024;
/// Longer lines are no printed table's (a torch print stops at 1000 values per tensor).
constexpr std::size_t kMaxLineBytes = 16u << 20;
/// A run of spaces that reaches the end of the line.
constexpr std::size_t kLineEnd = std::numeric_limits<std::size_t>::max();

struct Line {
    std::string_view text; ///< without the line break
    std::size_t number = 0; ///< from 1
    std::size_t offset = 0; ///< of its first byte in the text
};

/// The text, one line at a time ("\n" or "\r\n").
class Lines {
public:
    explicit Lines(std::string_view text)
        : m_text(text)
    {
    }

    bool next(Line& line)
    {
        if (m_pos >= m_text.size())
            return false;
        const std::size_t end = std::min(m_text.find('\n', m_pos), m_text.size());
        std::string_view text = m_text.substr(m_pos, end - m_pos);
        if (!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        line = { text, ++m_number, m_pos };
        m_pos = end + 1;
        return true;
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_number = 0;
};

/// The code point at `pos` of UTF-8 text, `pos` moved past it; a byte that starts no valid
/// sequence is taken alone, as its own value.
char32_t decodeAt(std::string_view s, std::size_t& pos)
{
    const auto lead = static_cast<unsigned char>(s[pos]);
    std::size_t length = 1;
    if ((lead & 0xE0) == 0xC0)
        length = 2;
    else if ((lead & 0xF0) == 0xE0)
        length = 3;
    else if ((lead & 0xF8) == 0xF0)
        length = 4;
    if (pos + length > s.size())
        length = 1;
    for (std::size_t i = 1; i < length; ++i)
        if ((static_cast<unsigned char>(s[pos + i]) & 0xC0) != 0x80)
            length = 1;
    char32_t c = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i)
        c = (c << 6) | (static_cast<unsigned char>(s[pos + i]) & 0x3F);
    pos += length;
    return c;
}

bool isSpace(char32_t c)
{
    return c == ' ' || c == '\t';
}

/// U+2500…U+257F: the box drawing block (fancy_grid, the *_grid and *_outline styles).
bool isBoxDrawing(char32_t c)
{
    return c >= 0x2500 && c <= 0x257F;
}

/// A cell border: '|', '│' (light), '┃' (heavy), '║' (double).
bool isBar(char32_t c)
{
    return c == '|' || c == 0x2502 || c == 0x2503 || c == 0x2551;
}

bool isBlank(std::string_view line)
{
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

std::string_view trimmed(std::string_view s)
{
    const std::size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

/// A line drawn between rows: dashes, equals signs, '+', ':', borders and box drawing only,
/// with at least one stroke that is not a border ("|---|:---:|", "+====+", "╞═╪╡", "--  ---").
bool isRule(std::string_view line)
{
    bool stroke = false;
    for (std::size_t pos = 0; pos < line.size();) {
        const char32_t c = decodeAt(line, pos);
        if (c == '-' || c == '=' || (isBoxDrawing(c) && !isBar(c)))
            stroke = true;
        else if (!isSpace(c) && c != '+' && c != ':' && !isBar(c))
            return false;
    }
    return stroke;
}

/// Whether the line's first visible character is a border.
bool startsWithBar(std::string_view line)
{
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return false;
    std::size_t pos = first;
    return isBar(decodeAt(line, pos));
}

/// pandas' footer "[6 rows x 8 columns]".
bool isShapeFooter(std::string_view line)
{
    const std::string_view t = trimmed(line);
    return t.size() > 2 && t.front() == '[' && t.ends_with(" columns]") && t.find(" rows x ") != std::string_view::npos;
}

/// A cell pandas cut at display.max_colwidth ends in "..." (a torch summary "..., 9.]" never does).
bool isCutShort(std::string_view cell)
{
    return cell.size() > 3 && cell.ends_with("...");
}

bool isEllipsis(std::string_view cell)
{
    return cell == "..." || cell == ".." || cell == "\u2026";
}

/// Brackets and quotes still open in a cell. Quotes count inside brackets only: pandas prints
/// a string at the top level bare, apostrophes and all, and repr() quotes those inside lists
/// and dicts.
struct Nesting {
    std::size_t depth = 0;
    char32_t quote = 0;
    bool escaped = false;

    void feed(char32_t c)
    {
        if (quote) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == quote)
                quote = 0;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            --depth;
        } else if ((c == '\'' || c == '"') && depth > 0) {
            quote = c;
        }
    }

    void feed(std::string_view text)
    {
        for (std::size_t pos = 0; pos < text.size();)
            feed(decodeAt(text, pos));
    }

    bool open() const { return depth > 0 || quote != 0; }
};

/// A run of spaces in a line, in code points: [from, to); `to` is kLineEnd when it reaches the
/// line's end (trailing spaces, or none at all after the last cell).
struct Run {
    std::size_t from = 0;
    std::size_t to = 0;

    /// How much a cut here is worth: its width, the line's end counting as two spaces (the
    /// least pandas and tabulate put between columns), so a real gap before it wins.
    std::size_t weight() const { return to == kLineEnd ? 2 : to - from; }
};

/// A line of an aligned table in code points (a box or an ellipsis is one column). An ASCII
/// line, the usual, is its own index; another keeps the byte offset of each code point.
struct Measured {
    std::string_view line;
    std::vector<std::uint32_t> bytes; ///< empty for ASCII; else each code point's offset, then the end

    explicit Measured(std::string_view text)
        : line(text)
    {
        if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
            return;
        bytes.reserve(text.size() + 1);
        for (std::size_t pos = 0; pos < text.size();) {
            bytes.push_back(static_cast<std::uint32_t>(pos));
            decodeAt(text, pos);
        }
        bytes.push_back(static_cast<std::uint32_t>(text.size()));
    }

    std::size_t width() const { return bytes.empty() ? line.size() : bytes.size() - 1; }

    char32_t at(std::size_t column) const
    {
        if (bytes.empty())
            return static_cast<unsigned char>(line[column]);
        std::size_t pos = bytes[column];
        return decodeAt(line, pos);
    }

    std::size_t offset(std::size_t column) const { return bytes.empty() ? column : bytes[column]; }

    std::string_view slice(std::size_t from, std::size_t to) const
    {
        from = std::min(from, width());
        to = std::min(to, width());
        return from < to ? line.substr(offset(from), offset(to) - offset(from)) : std::string_view();
    }

    /// pandas cut a cell at `column` (display.max_colwidth): "..." then two spaces or the end.
    bool cutAt(std::size_t column) const
    {
        for (std::size_t i = column; i < column + 3; ++i)
            if (i >= width() || at(i) != '.')
                return false;
        const std::size_t after = column + 3;
        return after >= width() || (at(after) == ' ' && (after + 1 >= width() || at(after + 1) == ' '));
    }

    /// The cut after the cell starting at `cursor`, before the column whose name starts at
    /// `high`, the cell's own column's name ending at `low`: among the runs of spaces that start
    /// at or before `high` and end at or after `low`, the widest outside the cell's brackets and
    /// quotes, else (a tabulate cell whose first line leaves brackets open) the widest of all;
    /// the leftmost of equals. Nothing when no run touches that gap.
    std::optional<Run> cut(std::size_t cursor, std::size_t low, std::size_t high) const
    {
        std::optional<Run> outside;
        std::optional<Run> any;
        const auto consider = [](std::optional<Run>& best, const Run& run) {
            if (!best || run.weight() > best->weight())
                best = run;
        };
        Nesting nesting;
        std::size_t column = cursor;
        while (column < width() && column <= high) {
            if (isSpace(at(column))) {
                const std::size_t from = column;
                while (column < width() && isSpace(at(column)))
                    ++column;
                const Run run { from, column == width() ? kLineEnd : column };
                if (run.to >= low) {
                    consider(any, run);
                    if (!nesting.open())
                        consider(outside, run);
                }
                continue;
            }
            if (nesting.open() && cutAt(column)) { // what the cut left open ends with it
                nesting = {};
                column += 3;
                continue;
            }
            nesting.feed(at(column++));
        }
        if (column == width() && column <= high) { // the line ends before the next column
            const Run end { column, kLineEnd };
            consider(any, end);
            if (!nesting.open())
                consider(outside, end);
        }
        return outside ? outside : any;
    }
};

/// A header name of an aligned table and where it sits (code points).
struct Name {
    std::string text;
    std::size_t from = 0;
    std::size_t to = 0;
};

/// A row being gathered from its lines, with the brackets each cell leaves open.
struct PendingRow {
    std::string index;
    std::vector<std::string> cells;
    std::vector<Nesting> nesting;
    std::size_t line = 0;
    std::size_t offset = 0;
};

/// The rows of the wrapped blocks read so far, waiting for the last block.
struct HeldRow {
    std::string index;
    std::vector<std::string> cells;
    std::size_t line = 0;
    std::size_t offset = 0;
};

/// Reads the tables; both families share the row assembly and the hand-over.
class PrintedReader {
public:
    PrintedReader(const std::string& path, const PrintedHeader& header, const PrintedRecord& record,
        std::vector<Warning>& warnings)
        : m_path(path)
        , m_header(header)
        , m_record(record)
        , m_warnings(warnings)
    {
    }

    std::optional<Error> readBordered(std::string_view text)
    {
        Lines lines(text);
        Line line;
        // A row line, with the lines github broke out of it (a flag beside a Line rather than an
        // optional: GCC 12's -Wmaybe-uninitialized misreads the optional's members in Release).
        Line pending;
        bool hasPending = false;
        std::string joined;
        const auto finishPending = [&]() -> std::optional<Error> {
            if (!hasPending)
                return std::nullopt;
            const Line row { joined, pending.number, pending.offset };
            hasPending = false;
            return borderedLine(row);
        };
        while (lines.next(line)) {
            if (isBlank(line.text)) {
                if (auto error = finishPending())
                    return error;
                continue;
            }
            if (isRule(line.text)) {
                if (auto error = finishPending())
                    return error;
                if (auto error = endRow()) // a rule always ends a row
                    return error;
                continue;
            }
            if (startsWithBar(line.text)) {
                if (auto error = finishPending())
                    return error;
                pending = line;
                hasPending = true;
                joined.assign(line.text);
                continue;
            }
            // github (no multi-line support in tabulate) leaves a cell's line breaks raw.
            if (!hasPending)
                return corrupt(line, "a line of the bordered table that neither starts with '|' nor is a rule");
            joined += '\n';
            joined += line.text;
        }
        if (auto error = finishPending())
            return error;
        return finish();
    }

    std::optional<Error> readAligned(std::string_view text)
    {
        Lines lines(text);
        Line line;
        enum class Phase { Header, IndexName, Rows, AfterBlock } phase = Phase::Header;
        while (lines.next(line)) {
            if (isBlank(line.text)) {
                if (phase == Phase::Rows || phase == Phase::IndexName) {
                    if (auto error = endBlock(line))
                        return error;
                    phase = Phase::AfterBlock;
                }
                continue;
            }
            if (isRule(line.text) || isShapeFooter(line.text))
                continue;
            if (phase == Phase::AfterBlock) {
                if (!m_wrapped)
                    return corrupt(line, "text after the table");
                phase = Phase::Header;
            }
            if (phase == Phase::Header) {
                if (auto error = alignedHeader(line))
                    return error;
                phase = Phase::IndexName;
                continue;
            }
            if (phase == Phase::IndexName) {
                phase = Phase::Rows;
                if (isIndexName(line))
                    continue;
            }
            if (auto error = alignedRow(line))
                return error;
        }
        if (phase == Phase::Header && !m_headerSeen)
            return makeError(Error::Code::Empty, m_path, "no header line");
        if (phase != Phase::AfterBlock)
            if (auto error = endBlock(line))
                return error;
        if (m_wrapped)
            return corrupt(line,
                "the table ends after a block whose header line ends in '\\' (pandas' wrapped frame): its last "
                "block is missing");
        return finish();
    }

private:
    Error corrupt(const Line& line, const std::string& reason) const
    {
        return makeError(
            Error::Code::Corrupt, m_path, "line " + std::to_string(line.number) + ": " + reason, line.offset);
    }

    Error tooWide(const Line& line) const
    {
        return makeError(Error::Code::Limit, m_path,
            "line " + std::to_string(line.number) + ": more than " + std::to_string(kMaxColumns) + " columns",
            line.offset);
    }

    Error tooLong(const Line& line) const
    {
        return makeError(Error::Code::Limit, m_path,
            "line " + std::to_string(line.number) + " is longer than 16 MiB: not a printed table", line.offset);
    }

    // --- bordered --------------------------------------------------------------------------

    /// The cells between the borders of a row line ("\|" is a '|' inside a cell); past
    /// kMaxColumns + 1 the rest of the line is left out (no table has that many).
    static std::vector<std::string> splitBars(std::string_view text)
    {
        std::vector<std::string> cells;
        std::string cell;
        std::size_t pos = text.find_first_not_of(" \t");
        decodeAt(text, pos); // the opening border
        while (pos < text.size() && cells.size() <= kMaxColumns) {
            const std::size_t at = pos;
            const char32_t c = decodeAt(text, pos);
            if (c == '\\' && pos < text.size() && text[pos] == '|') {
                cell += '|';
                ++pos;
            } else if (isBar(c)) {
                cells.emplace_back(trimmed(cell));
                cell.clear();
            } else {
                cell.append(text.substr(at, pos - at));
            }
        }
        if (!trimmed(cell).empty()) // a Markdown row may leave out the closing '|'
            cells.emplace_back(trimmed(cell));
        return cells;
    }

    std::optional<Error> borderedLine(const Line& line)
    {
        std::vector<std::string> cells = splitBars(line.text);
        if (!m_headerSeen) {
            if (cells.size() > kMaxColumns)
                return tooWide(line);
            m_headerSeen = true;
            m_columns = cells.size();
            m_hasIndex = !cells.empty() && cells[0].empty();
            if (m_hasIndex)
                cells.erase(cells.begin());
            return announce(cells);
        }
        if (cells.size() != m_columns)
            return corrupt(line,
                "a row of " + std::to_string(cells.size()) + " cells under a header of " + std::to_string(m_columns));
        std::string index;
        if (m_hasIndex) {
            index = std::move(cells[0]);
            cells.erase(cells.begin());
        }
        // Read before the move: the order in which arguments are evaluated is unspecified.
        const std::optional<bool> indexEmpty = m_hasIndex ? std::optional<bool>(index.empty()) : std::nullopt;
        return addLine(std::move(index), std::move(cells), line, indexEmpty);
    }

    // --- aligned ---------------------------------------------------------------------------

    std::optional<Error> alignedHeader(const Line& line)
    {
        std::string_view text = line.text;
        if (text.size() > kMaxLineBytes)
            return tooLong(line);
        const std::size_t end = text.find_last_not_of(" \t");
        const bool wrapped = text[end] == '\\' && (end == 0 || text[end - 1] == ' ');
        if (wrapped)
            text = text.substr(0, end);
        std::vector<Name> names;
        std::size_t column = 0;
        for (std::size_t pos = 0; pos < text.size(); ++column) {
            const std::size_t at = pos;
            const char32_t c = decodeAt(text, pos);
            if (isSpace(c))
                continue;
            if (names.empty() || names.back().to != column) {
                if (names.size() == kMaxColumns)
                    return tooWide(line);
                names.push_back({ {}, column, column });
            }
            names.back().text.append(text.substr(at, pos - at));
            names.back().to = column + 1;
        }
        if (names.empty())
            return corrupt(line, "a header line with no names");
        m_headerSeen = true;
        m_names = std::move(names);
        m_indented = m_names.front().from > 0;
        m_hasIndex = false;
        m_indexKnown = false;
        m_blockRows = 0;
        m_wrapped = wrapped;
        ++m_block;
        for (const Name& name : m_names)
            m_allNames.push_back(name.text);
        if (m_allNames.size() > kMaxColumns)
            return tooWide(line);
        if (!m_wrapped)
            return announce(m_allNames);
        return std::nullopt;
    }

    /// pandas names its index on a line of its own under the header ("idx" at the start).
    bool isIndexName(const Line& line)
    {
        if (!m_indented)
            return false;
        const std::string_view name = trimmed(line.text);
        if (line.text.front() == ' ' || name.find_first_of(" \t") != std::string_view::npos
            || name.find_first_not_of("0123456789") == std::string_view::npos)
            return false;
        if (Measured(name).width() >= m_names.front().from)
            return false;
        m_hasIndex = true;
        m_indexKnown = true;
        m_indexFrom = 0;
        return true;
    }

    std::optional<Error> alignedRow(const Line& line)
    {
        if (line.text.size() > kMaxLineBytes)
            return tooLong(line);
        const Measured m(line.text);
        // Spaces and tabs are one byte and one column each: the first visible column.
        const std::size_t first = line.text.find_first_not_of(" \t");
        std::size_t wordEnd = first;
        while (wordEnd < m.width() && !isSpace(m.at(wordEnd)))
            ++wordEnd;
        // The index: the first word, ending before the first name starts, and aligned like the
        // first row's (pandas' starts at the left edge, tabulate's numbers end in one column).
        const bool indexShaped
            = m_indented && wordEnd < m_names.front().from && wordEnd < m.width() && first < m_names.front().from;
        if (!m_indexKnown) {
            m_hasIndex = indexShaped;
            m_indexKnown = true;
            m_indexFrom = first;
            m_indexTo = wordEnd;
        }
        std::string index;
        std::size_t cursor = 0;
        if (m_hasIndex && indexShaped && (m_indexFrom == 0 ? first == 0 : wordEnd == m_indexTo)) {
            index = m.slice(first, wordEnd);
            cursor = wordEnd;
        }
        std::vector<std::string> cells;
        cells.reserve(m_names.size());
        for (std::size_t k = 0; k + 1 < m_names.size(); ++k) {
            const std::size_t low = m_names[k].to;
            const std::size_t high = m_names[k + 1].from;
            const std::optional<Run> run = m.cut(cursor, low, high);
            if (!run) {
                if (cursor >= low) { // the cut before took this gap too: an empty cell
                    cells.emplace_back();
                    continue;
                }
                return corrupt(line,
                    "the cells do not line up under the header's names (column '" + m_names[k].text + "' runs into '"
                        + m_names[k + 1].text + "')");
            }
            cells.emplace_back(trimmed(m.slice(cursor, run->from)));
            cursor = run->to;
        }
        cells.emplace_back(trimmed(m.slice(cursor, m.width())));
        std::optional<bool> continues;
        if (m_hasIndex)
            continues = index.empty();
        return addLine(std::move(index), std::move(cells), line, continues, line.text);
    }

    std::optional<Error> endBlock(const Line& line)
    {
        if (auto error = endRow())
            return error;
        if (m_block > 1 && m_blockRows != m_held.size())
            return corrupt(line,
                "block " + std::to_string(m_block) + " of the wrapped table has " + std::to_string(m_blockRows)
                    + " rows, the first " + std::to_string(m_held.size()));
        return std::nullopt;
    }

    // --- rows ------------------------------------------------------------------------------

    /// A line of cells: a row of its own, or the next line of the row being gathered
    /// (`continues` says which when the table has an index; otherwise open brackets or an
    /// empty first cell tell). `aligned` is the line of an aligned table: pandas right-aligns a
    /// multi-line cell as one string, so the lines after its first start at the left edge, under
    /// other columns; when one cell alone is open and the line reaches into other columns,
    /// the whole line continues that cell.
    std::optional<Error> addLine(std::string index, std::vector<std::string> cells, const Line& line,
        std::optional<bool> continues, std::string_view aligned = {})
    {
        if (m_row) {
            bool more = continues.value_or(false);
            if (!continues) {
                more = cells.empty() || cells[0].empty();
                for (std::size_t c = 0; c < m_row->cells.size() && !more; ++c)
                    more = m_row->nesting[c].open() && !isCutShort(m_row->cells[c]);
            }
            if (more && !aligned.empty()) {
                std::optional<std::size_t> openCell;
                std::size_t open = 0;
                for (std::size_t c = 0; c < m_row->cells.size(); ++c)
                    if (m_row->nesting[c].open() && !isCutShort(m_row->cells[c])) {
                        openCell = c;
                        ++open;
                    }
                bool elsewhere = false;
                for (std::size_t c = 0; c < cells.size(); ++c)
                    elsewhere = elsewhere || (!cells[c].empty() && c != openCell);
                if (open == 1 && elsewhere) {
                    cells.assign(m_row->cells.size(), std::string());
                    cells[*openCell] = std::string(aligned.substr(0, aligned.find_last_not_of(" \t") + 1));
                }
            }
            if (more) {
                for (std::size_t c = 0; c < cells.size() && c < m_row->cells.size(); ++c) {
                    if (cells[c].empty())
                        continue;
                    std::string& cell = m_row->cells[c];
                    if (!cell.empty()) {
                        cell += '\n';
                        m_row->nesting[c].feed('\n');
                    }
                    cell += cells[c];
                    m_row->nesting[c].feed(cells[c]);
                }
                return std::nullopt;
            }
            if (auto error = endRow())
                return error;
        }
        m_row.emplace();
        m_row->index = std::move(index);
        m_row->cells = std::move(cells);
        m_row->line = line.number;
        m_row->offset = line.offset;
        m_row->nesting.resize(m_row->cells.size());
        for (std::size_t c = 0; c < m_row->cells.size(); ++c)
            m_row->nesting[c].feed(m_row->cells[c]);
        return std::nullopt;
    }

    /// The gathered row goes on: held for the next block of a wrapped frame, joined to the
    /// blocks before, or handed over.
    std::optional<Error> endRow()
    {
        if (!m_row)
            return std::nullopt;
        PendingRow row = std::move(*m_row);
        m_row.reset();
        const std::size_t position = m_blockRows++;
        if (m_block > 1) {
            const Line at { {}, row.line, row.offset };
            if (position >= m_held.size())
                return corrupt(at,
                    "block " + std::to_string(m_block) + " of the wrapped table has more rows than the first ("
                        + std::to_string(m_held.size()) + ")");
            HeldRow& held = m_held[position];
            if (held.index != row.index)
                return corrupt(at,
                    "block " + std::to_string(m_block) + " has row '" + row.index + "' where the first block has '"
                        + held.index + "'");
            held.cells.insert(
                held.cells.end(), std::make_move_iterator(row.cells.begin()), std::make_move_iterator(row.cells.end()));
            if (m_wrapped)
                return std::nullopt;
            std::vector<std::string> cells = std::move(held.cells);
            held.cells = {};
            return deliver(cells, held.line);
        }
        if (m_wrapped) {
            m_held.push_back({ std::move(row.index), std::move(row.cells), row.line, row.offset });
            return std::nullopt;
        }
        return deliver(row.cells, row.line);
    }

    std::optional<Error> announce(const std::vector<std::string>& names)
    {
        if (std::find(names.begin(), names.end(), "...") != names.end())
            m_warnings.push_back({ m_path
                    + ": pandas left out columns where it printed '...' (display.max_columns); print with "
                      "pd.set_option('display.max_columns', None) to read them",
                std::nullopt });
        return m_header(names);
    }

    std::optional<Error> deliver(std::vector<std::string>& cells, std::size_t line)
    {
        if (!cells.empty() && std::all_of(cells.begin(), cells.end(), isEllipsis)) {
            if (m_leftOutRows++ == 0)
                m_leftOutLine = line;
            return std::nullopt;
        }
        for (const std::string& cell : cells)
            if (isCutShort(cell))
                ++m_cutCells;
        return m_record(cells, line);
    }

    std::optional<Error> finish()
    {
        if (auto error = endRow())
            return error;
        if (!m_headerSeen)
            return makeError(Error::Code::Empty, m_path, "no header line");
        if (m_leftOutRows)
            m_warnings.push_back({ m_path + ": line " + std::to_string(m_leftOutLine)
                    + ": pandas left out rows where it printed '...' (display.max_rows); only the rows shown are read",
                std::nullopt });
        if (m_cutCells)
            m_warnings.push_back({ m_path + ": " + std::to_string(m_cutCells)
                    + " cell(s) end in '...', cut short by pandas (display.max_colwidth): tensors in them are not "
                      "compared",
                std::nullopt });
        return std::nullopt;
    }

    const std::string& m_path;
    const PrintedHeader& m_header;
    const PrintedRecord& m_record;
    std::vector<Warning>& m_warnings;
    bool m_headerSeen = false;
    std::size_t m_columns = 0; ///< bordered: cells a line has, index included
    bool m_hasIndex = false; ///< an unnamed index column comes first
    std::optional<PendingRow> m_row;
    // Aligned tables.
    std::vector<Name> m_names; ///< of the current block
    std::vector<std::string> m_allNames;
    bool m_indented = false; ///< the header starts with spaces (room for an unnamed index)
    bool m_indexKnown = false;
    std::size_t m_indexFrom = 0; ///< where the first row's index starts and ends
    std::size_t m_indexTo = 0;
    bool m_wrapped = false; ///< the current block's header ends in '\': more blocks follow
    std::size_t m_block = 0;
    std::size_t m_blockRows = 0;
    std::vector<HeldRow> m_held;
    // Summaries.
    std::size_t m_leftOutRows = 0;
    std::size_t m_leftOutLine = 0;
    std::size_t m_cutCells = 0;
};

} // namespace

bool isPrintedTable(std::string_view text)
{
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos)
        return false;
    const std::size_t lineStart = text.rfind('\n', start);
    const std::size_t from = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    const std::string_view first = text.substr(from, text.find('\n', start) - from);
    std::size_t pos = start - from;
    const char32_t c = decodeAt(first, pos);
    if (isBar(c) || isBoxDrawing(c) || c == '+')
        return true;
    return first.find(',') == std::string_view::npos && first.find('\t') == std::string_view::npos;
}

std::optional<Error> readPrintedTable(std::string_view text, const std::string& path, const PrintedHeader& header,
    const PrintedRecord& record, std::vector<Warning>& warnings)
{
    PrintedReader reader(path, header, record, warnings);
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos)
        return makeError(Error::Code::Empty, path, "no header line");
    // The first visible line decides: a border or a rule before it ("+---", "╒═══") makes it
    // bordered; otherwise columns are told apart by where the header's names sit.
    const std::size_t lineStart = text.rfind('\n', start);
    const std::size_t from = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    const std::string_view first = text.substr(from, text.find('\n', start) - from);
    std::size_t pos = start - from;
    const char32_t c = decodeAt(first, pos);
    const bool bordered = isBar(c) || isBoxDrawing(c) || (c == '+' && isRule(first));
    return bordered ? reader.readBordered(text) : reader.readAligned(text);
}

} // namespace etscope::core
