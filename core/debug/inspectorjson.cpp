// SPDX-License-Identifier: MIT
// An Inspector table saved with pandas' to_json (records, columns, index, split or table
// orient), read as a stream of SAX events (inspectorcells.h).
#include "core/debug/inspectorcells.h"
#include "core/util/jsontext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

namespace etscope::core::inspector {

using nlohmann::json;

namespace {

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

} // namespace

std::optional<Error> readJsonTable(std::string_view text, const std::string& path, RowSink& rows)
{
    if (const auto deep = jsonTooDeepAt(text))
        return makeError(
            Error::Code::Limit, path, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", *deep);
    JsonTableReader reader(path, rows);
    json::sax_parse(text.begin(), text.end(), &reader);
    return reader.finish();
}

} // namespace etscope::core::inspector
