// SPDX-License-Identifier: MIT
#include "core/debug/inspectortable.h"
#include "core/util/jsontext.h"
#include "core/util/text.h"

#include "core/util/mappedfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>

namespace etscope::core {

using nlohmann::json;

namespace {

constexpr int kMaxNesting = 64;

bool isIdentifierStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool isIdentifierChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

/// Reads one number at `pos`: decimal, exponent, nan/inf and True/False as pandas prints them.
std::optional<double> readNumber(const std::string& s, std::size_t& pos)
{
    if (pos >= s.size())
        return std::nullopt;
    if (isIdentifierStart(s[pos])) {
        const std::size_t start = pos;
        while (pos < s.size() && isIdentifierChar(s[pos]))
            ++pos;
        const std::string word = s.substr(start, pos - start);
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
    const char* begin = s.c_str() + pos;
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin)
        return std::nullopt;
    pos += static_cast<std::size_t>(end - begin);
    return value;
}

/// Every number in a cell, skipping wrappers such as `np.float64(` or `tensor(`.
std::vector<double> numbersIn(const std::string& s)
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

void skipSpace(const std::string& s, std::size_t& pos)
{
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
        ++pos;
}

/// A nested list ("[[1., 2.], [3., 4.]]") or a bare number, recording the shape per depth.
bool parseNested(const std::string& s, std::size_t& pos, PrintedTensor& tensor, std::size_t depth)
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
        if (s.compare(pos, 3, "...") == 0) {
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

std::vector<std::int64_t> integersIn(const json& cell, int depth = 0)
{
    std::vector<std::int64_t> result;
    if (depth > kMaxNesting)
        return result;
    if (cell.is_string()) {
        for (const double v : numbersIn(cell.get<std::string>()))
            if (std::isfinite(v) && std::abs(v) < 9e18)
                result.push_back(static_cast<std::int64_t>(v));
    } else if (cell.is_number_integer()) {
        result.push_back(cell.get<std::int64_t>());
    } else if (cell.is_number() && std::isfinite(cell.get<double>()) && std::abs(cell.get<double>()) < 9e18) {
        result.push_back(static_cast<std::int64_t>(cell.get<double>()));
    } else if (cell.is_array()) {
        for (const json& item : cell)
            for (const std::int64_t v : integersIn(item, depth + 1))
                result.push_back(v);
    }
    return result;
}

std::vector<DebugHandle> handlesIn(const json& cell)
{
    std::vector<DebugHandle> handles;
    for (const std::int64_t v : integersIn(cell))
        handles.push_back(DebugHandle(v));
    return handles;
}

std::vector<double> floatsIn(const json& cell, int depth = 0)
{
    std::vector<double> result;
    if (depth > kMaxNesting)
        return result;
    if (cell.is_string())
        return numbersIn(cell.get<std::string>());
    if (cell.is_number())
        result.push_back(cell.get<double>());
    else if (cell.is_array())
        for (const json& item : cell)
            for (const double v : floatsIn(item, depth + 1))
                result.push_back(v);
    return result;
}

std::vector<std::string> namesIn(const json& cell)
{
    std::vector<std::string> names;
    if (cell.is_array()) {
        for (const json& item : cell)
            if (item.is_string())
                names.push_back(item.get<std::string>());
        return names;
    }
    if (!cell.is_string())
        return names;
    const std::string s = cell.get<std::string>();
    for (std::size_t pos = 0; pos < s.size(); ++pos) {
        if (s[pos] != '\'' && s[pos] != '"')
            continue;
        const std::size_t end = s.find(s[pos], pos + 1);
        if (end == std::string::npos)
            break;
        names.push_back(s.substr(pos + 1, end - pos - 1));
        pos = end;
    }
    if (names.empty() && !s.empty()) {
        std::string trimmed = s;
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
    }
    return names;
}

std::vector<PrintedTensor> tensorsIn(const json& cell)
{
    if (cell.is_string())
        return parsePrintedTensors(cell.get<std::string>());
    if (cell.is_number())
        return { PrintedTensor { { cell.get<double>() }, {}, true } };
    if (cell.is_array())
        return parsePrintedTensors(jsonDisplayText(cell));
    return {};
}

/// RFC 4180 records with `delimiter`; quoted fields may hold delimiters and line breaks.
Result<std::vector<std::vector<std::string>>> parseDelimited(
    const std::string& text, char delimiter, const std::string& path)
{
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    bool fieldStarted = false;
    std::size_t line = 1;
    std::size_t quoteLine = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
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
            record.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            ++line;
            record.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
            if (!(record.size() == 1 && record[0].empty()))
                records.push_back(std::move(record));
            record.clear();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        return makeError(
            Error::Code::Corrupt, path, "a quoted field opened on line " + std::to_string(quoteLine) + " never closes");
    if (fieldStarted || !record.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
    }
    return records;
}

using CellTable = std::vector<std::map<std::string, json>>;

Result<CellTable> cellsFromJson(const json& root, const std::string& path)
{
    CellTable table;
    const auto fromRecords = [&](const json& records) -> bool {
        if (!records.is_array())
            return false;
        for (const json& record : records) {
            if (!record.is_object())
                return false;
            std::map<std::string, json> row;
            for (auto it = record.begin(); it != record.end(); ++it)
                row[it.key()] = it.value();
            table.push_back(std::move(row));
        }
        return true;
    };
    if (root.is_array() && fromRecords(root))
        return table;
    if (root.is_object() && root.contains("data") && root.contains("schema") && fromRecords(root.at("data")))
        return table;
    if (root.is_object() && root.contains("columns") && root.contains("data") && root.at("columns").is_array()
        && root.at("data").is_array()) {
        const json& columns = root.at("columns");
        for (const json& values : root.at("data")) {
            if (!values.is_array() || values.size() != columns.size())
                return makeError(Error::Code::Corrupt, path, "a row of the split JSON has the wrong number of cells");
            std::map<std::string, json> row;
            for (std::size_t c = 0; c < columns.size(); ++c)
                row[jsonDisplayText(columns[c])] = values[c];
            table.push_back(std::move(row));
        }
        return table;
    }
    if (root.is_object() && !root.empty() && root.begin().value().is_object()) {
        // orient "columns" ({column: {index: value}}) or "index" ({index: {column: value}}).
        const bool byColumn
            = root.contains("gap") || root.contains("runtime_debug_handle") || root.contains("aot_debug_handle");
        std::map<std::string, std::map<std::string, json>> rows;
        std::vector<std::string> order;
        for (auto outer = root.begin(); outer != root.end(); ++outer) {
            if (!outer.value().is_object())
                return makeError(Error::Code::Corrupt, path, "'" + outer.key() + "' is not an object");
            for (auto inner = outer.value().begin(); inner != outer.value().end(); ++inner) {
                const std::string& index = byColumn ? inner.key() : outer.key();
                const std::string& column = byColumn ? outer.key() : inner.key();
                if (!rows.count(index))
                    order.push_back(index);
                rows[index][column] = inner.value();
            }
        }
        std::stable_sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
            const bool numeric = !a.empty() && !b.empty() && a.find_first_not_of("0123456789") == std::string::npos
                && b.find_first_not_of("0123456789") == std::string::npos && a.size() < 18 && b.size() < 18;
            return numeric ? std::stoll(a) < std::stoll(b) : false;
        });
        for (const std::string& index : order)
            table.push_back(std::move(rows[index]));
        return table;
    }
    return makeError(
        Error::Code::Corrupt, path, "JSON that is not a DataFrame (records, columns, index, split or table orient)");
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
    std::vector<PrintedTensor> tensors;
    std::size_t pos = cell.find("tensor(");
    if (pos == std::string::npos) {
        std::size_t start = 0;
        skipSpace(cell, start);
        PrintedTensor tensor;
        if (start < cell.size() && parseNested(cell, start, tensor, 0) && !tensor.values.empty())
            tensors.push_back(std::move(tensor));
        return tensors;
    }
    while (pos != std::string::npos) {
        std::size_t at = pos + 7;
        PrintedTensor tensor;
        if (parseNested(cell, at, tensor, 0))
            tensors.push_back(std::move(tensor));
        pos = cell.find("tensor(", std::max(at, pos + 7));
    }
    return tensors;
}

Result<std::vector<InspectorRow>> parseInspectorTable(const std::string& text, const std::string& path)
{
    std::size_t first = 0;
    skipSpace(text, first);
    CellTable cells;
    if (first < text.size() && (text[first] == '{' || text[first] == '[')) {
        const json root = json::parse(text, nullptr, false);
        if (root.is_discarded())
            return makeError(Error::Code::Corrupt, path, "not valid JSON");
        if (jsonDepth(root) > kMaxJsonDepth)
            return makeError(
                Error::Code::Limit, path, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        auto table = cellsFromJson(root, path);
        if (!table)
            return table.error();
        cells = std::move(table).value();
    } else {
        const std::size_t lineEnd = text.find('\n');
        const std::string header = text.substr(0, lineEnd);
        const char delimiter = header.find('\t') != std::string::npos ? '\t' : ',';
        auto records = parseDelimited(text, delimiter, path);
        if (!records)
            return records.error();
        if (records->empty())
            return makeError(Error::Code::Empty, path, "no header line");
        const std::vector<std::string>& columns = records->front();
        for (std::size_t r = 1; r < records->size(); ++r) {
            const auto& record = (*records)[r];
            if (record.size() != columns.size())
                return makeError(Error::Code::Corrupt, path,
                    "record " + std::to_string(r) + " has " + std::to_string(record.size()) + " fields, the header "
                        + std::to_string(columns.size()));
            std::map<std::string, json> row;
            for (std::size_t c = 0; c < columns.size(); ++c)
                if (!columns[c].empty())
                    row[columns[c]] = record[c];
            cells.push_back(std::move(row));
        }
    }
    std::vector<InspectorRow> rows;
    for (std::size_t r = 0; r < cells.size(); ++r) {
        const auto& row = cells[r];
        const auto cell = [&](const char* name) -> const json& {
            static const json none;
            const auto it = row.find(name);
            return it == row.end() ? none : it->second;
        };
        if (!row.count("gap") || (!row.count("runtime_debug_handle") && !row.count("aot_debug_handle")))
            return makeError(Error::Code::Corrupt, path,
                "row " + std::to_string(r)
                    + " has no 'gap' or no debug-handle column: not a calculate_numeric_gap table");
        InspectorRow parsed;
        parsed.aotDebugHandle = handlesIn(cell("aot_debug_handle"));
        parsed.aotOps = namesIn(cell("aot_ops"));
        parsed.aotOutput = tensorsIn(cell("aot_intermediate_output"));
        parsed.runtimeOps = namesIn(cell("runtime_ops"));
        parsed.runtimeDebugHandle = handlesIn(cell("runtime_debug_handle"));
        parsed.runtimeOutput = tensorsIn(cell("runtime_intermediate_output"));
        parsed.gap = floatsIn(cell("gap"));
        const json& traces = cell("stacktraces");
        parsed.stackTraces = traces.is_null() ? "" : jsonDisplayText(traces);
        rows.push_back(std::move(parsed));
    }
    return rows;
}

Result<std::vector<InspectorRow>> readInspectorTable(const std::string& path, std::uint64_t maxBytes)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    if (file.value()->size() > maxBytes)
        return makeError(Error::Code::Limit, path,
            std::to_string(file.value()->size()) + " bytes (limit " + std::to_string(maxBytes) + ")");
    const auto bytes = file.value()->bytes();
    return parseInspectorTable(std::string(bytes.begin(), bytes.end()), path);
}

GapReport mapInspectorTable(
    const std::vector<InspectorRow>& rows, const EventMapper& mapper, GapMetric metric, const std::string& source)
{
    GapReport report;
    report.mode = "inspector";
    report.reference = source + " (aot_intermediate_output)";
    report.run = source + " (runtime_intermediate_output)";
    report.importedMetric = metric;
    const Graph& graph = mapper.graph();

    // Inner nodes carrying AOT handles (XNNPACK stores one per node), in execution order.
    std::vector<std::pair<NodeOrigin, DebugHandle>> handled;
    for (const Node& top : graph.nodes)
        if (top.kind == NodeKind::Delegate && top.subgraph)
            for (const Node& inner : top.subgraph->nodes)
                if (inner.kind == NodeKind::Operator && inner.debugHandle)
                    handled.push_back({ { top.id, inner.id }, *inner.debugHandle });
    std::map<std::string, int> seenOps;
    std::size_t unmatched = 0;
    for (const InspectorRow& in : rows) {
        GapRow row;
        const std::vector<DebugHandle>& handles
            = in.runtimeDebugHandle.empty() ? in.aotDebugHandle : in.runtimeDebugHandle;
        const std::set<DebugHandle> handleSet(handles.begin(), handles.end());
        row.debugHandles = handles;
        row.aotOps = in.aotOps;
        row.imported = in.gap;
        for (const std::string& op : in.runtimeOps)
            row.runtimeOp += (row.runtimeOp.empty() ? "" : ", ") + op;
        const std::string firstOp = in.runtimeOps.empty() ? std::string() : in.runtimeOps.front();
        const int ordinal = seenOps[firstOp]++;

        std::optional<NodeOrigin> inner;
        for (const auto& [origin, handle] : handled)
            if (!handles.empty() && handle == handles.back())
                inner = origin;
        if (!inner)
            for (const auto& [origin, handle] : handled)
                if (handleSet.count(handle))
                    inner = origin;
        std::optional<int> instruction;
        if (const ETRecord* record = mapper.record()) {
            if (const auto map = record->debugHandleMap.find(mapper.method()); map != record->debugHandleMap.end())
                for (const auto& [id, entry] : map->second)
                    for (const DebugHandle h : entry.handles)
                        if (handleSet.count(h))
                            instruction = std::max(instruction.value_or(id), id);
        }
        if (instruction) {
            row.instruction = InstructionId(*instruction);
            row.origin = { mapper.instructionNode(ChainIndex(0), row.instruction), NodeId::none() };
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
                else if (node.kind == NodeKind::Operator) {
                    same = withoutNamespace(node.opType) == kernel || node.opType == kernel;
                }
                if (same && k++ == ordinal) {
                    row.origin = { node.id, NodeId::none() };
                    break;
                }
            }
        }
        row.matched = row.origin.top.valid();
        if (row.matched) {
            row.label = mapper.label(row.origin);
            if (row.instruction.value < 0)
                row.instruction = graph.node(row.origin.top).instruction;
        } else {
            ++unmatched;
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
        report.rows.push_back(std::move(row));
    }
    if (unmatched)
        report.warnings.push_back({ std::to_string(unmatched) + " of " + std::to_string(rows.size())
                + " Inspector row(s) match no node (attach the ETRecord for debug handles)",
            std::nullopt });
    return report;
}

} // namespace etscope::core
