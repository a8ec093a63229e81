// SPDX-License-Identifier: MIT
// The Vela log reader: one pass over the lines, a small state machine (idle, summary, table,
// CSV, listing). Sources of the formats are in velalog.h.
#include "core/vendorlogs/velalog.h"
#include "core/vendorlogs/velatable.h"

#include "core/util/mappedfile.h"

#include <algorithm>
#include <array>
#include <utility>

namespace etscope::core::vendor {

namespace {

class Reader {
public:
    Reader(std::string_view name, const LogLimits& limits)
        : m_warnings(std::string(name), limits.maxWarnings)
        , m_limits(limits)
    {
        m_log.path = name;
    }
    VelaLog run(std::string_view text);

private:
    enum class State : std::uint8_t { Idle, Summary, TableHeader, Table, Csv, Listing };
    void idle(const LogLine& line);
    bool summaryLine(const LogLine& line);
    void tableHeader(const LogLine& line);
    bool tableRow(const LogLine& line);
    bool csvRow(const LogLine& line);
    bool listingLine(const LogLine& line);
    void setColumns(const LogLine& line, const std::vector<std::string>& names);
    void endTable();
    bool startsSection(std::string_view text) const;

    VelaLog m_log;
    LogWarnings m_warnings;
    LogLimits m_limits;
    State m_state = State::Idle;
    std::size_t m_strayLines = 0; ///< lines in a section that are not part of it, in a row
    // Table state.
    std::string m_headerText;
    std::size_t m_headerLine = 0;
    std::vector<std::pair<std::size_t, std::size_t>> m_spans; ///< from the dash line
    std::vector<std::optional<LayerColumn>> m_columns;
    std::string m_csvHeader;
};

constexpr std::size_t kMaxStrayLines = 3;
constexpr std::size_t kMaxSummaryLines = 400;
constexpr std::string_view kTableTitle = "Performance for NPU Grap"; // Vela's spelling ("Grap", sic)

bool Reader::startsSection(std::string_view text) const
{
    return startsWith(text, "Network summary for") || startsWith(text, kTableTitle)
        || startsWith(text, "Register command stream:");
}

void Reader::idle(const LogLine& line)
{
    const std::string_view text = trim(line.text);
    if (startsWith(text, "Network summary for")) {
        VelaSummary summary;
        summary.network = trim(text.substr(std::string_view("Network summary for").size()));
        summary.line = line.number;
        m_log.summaries.push_back(std::move(summary));
        m_state = State::Summary;
    } else if (startsWith(text, kTableTitle)) {
        VelaLayerTable table;
        std::string_view graph = text.substr(kTableTitle.size());
        // "Graph"/"Subgraph" spellings of other versions.
        if (startsWith(graph, "h"))
            graph.remove_prefix(1);
        table.graph = trim(graph);
        table.line = line.number;
        m_log.tables.push_back(std::move(table));
        m_headerText.clear();
        m_spans.clear();
        m_columns.clear();
        m_state = State::TableHeader;
    } else if (startsWith(text, "Performance for NPU Subgraph")) {
        VelaLayerTable table;
        table.graph = trim(text.substr(std::string_view("Performance for NPU Subgraph").size()));
        table.line = line.number;
        m_log.tables.push_back(std::move(table));
        m_headerText.clear();
        m_spans.clear();
        m_columns.clear();
        m_state = State::TableHeader;
    } else if (startsWith(text, "Register command stream:")) {
        RegisterListing listing;
        listing.line = line.number;
        const auto words = tokens(text.substr(std::string_view("Register command stream:").size()), 4);
        if (!words.empty())
            if (auto n = parseInteger(words[0]); n && *n >= 0)
                listing.announcedWords = static_cast<std::uint64_t>(*n);
        if (!listing.announcedWords)
            m_warnings.add(line, "the register listing does not say how many words it has");
        m_log.listings.push_back(std::move(listing));
        m_state = State::Listing;
    } else if (text.find("NNG Operator") != text.npos && text.find("Op Cycles") != text.npos
        && text.find(',') != text.npos) {
        // A per-layer CSV (its header names the columns; velalog.h).
        VelaLayerTable table;
        table.csv = true;
        table.line = line.number;
        m_log.tables.push_back(std::move(table));
        std::vector<std::string> names;
        for (const std::string_view cell : perlayer::csvCells(text))
            names.emplace_back(cell);
        m_csvHeader = text;
        setColumns(line, names);
        m_state = State::Csv;
    }
}

bool Reader::summaryLine(const LogLine& line)
{
    VelaSummary& summary = m_log.summaries.back();
    const std::string_view text = trim(line.text);
    if (text.empty())
        return true;
    if (line.number - summary.line > kMaxSummaryLines || startsSection(text))
        return false;
    // Vela's notes inside the summary.
    if (startsWith(text, "Info:") || startsWith(text, "For performance numbers") || startsWith(text, "Warning:"))
        return true;
    const auto words = tokens(text, 64);
    SummaryField field;
    field.line = line.number;
    // "CPU operators = 0 (0.0%)"
    if (const std::size_t eq = text.find(" = "); eq != text.npos) {
        const auto after = tokens(text.substr(eq + 3), 8);
        if (after.empty() || !parseInteger(after[0]))
            return false;
        field.label = trim(text.substr(0, eq));
        field.value = after[0];
        field.number = static_cast<double>(*parseInteger(after[0]));
        if (after.size() > 1)
            field.rest = trim(text.substr(eq + 3 + (after[1].data() - text.substr(eq + 3).data())));
    } else {
        std::size_t numberAt = words.size();
        for (std::size_t i = 0; i < words.size(); ++i) {
            std::string_view w = words[i];
            if (!w.empty() && w.back() == ',')
                w.remove_suffix(1);
            if (parseNumber(w)) {
                numberAt = i;
                break;
            }
        }
        if (numberAt < words.size()) {
            std::string label;
            for (std::size_t i = 0; i < numberAt; ++i)
                label += (label.empty() ? "" : " ") + std::string(words[i]);
            std::string_view value = words[numberAt];
            if (!value.empty() && value.back() == ',')
                value.remove_suffix(1);
            field.label = label.empty() ? std::string(text) : label;
            field.value = value;
            field.number = parseNumber(value);
            if (numberAt + 1 < words.size()) {
                std::string_view unit = words[numberAt + 1];
                if (!unit.empty() && unit.back() == ',')
                    unit.remove_suffix(1);
                field.unit = unit;
                if (numberAt + 2 < words.size())
                    field.rest = trim(text.substr(static_cast<std::size_t>(words[numberAt + 2].data() - text.data())));
            }
        } else {
            // "Accelerator configuration     Ethos_U85_256": label and value apart by a run of spaces.
            // The gap: two or more spaces, or a tab (logs passed through other tools).
            std::size_t gap = text.find("  ");
            gap = std::min(gap, text.find('\t'));
            if (gap == text.npos)
                return false;
            field.label = trim(text.substr(0, gap));
            field.value = trim(text.substr(gap));
            if (field.label.empty() || field.value.empty())
                return false;
        }
    }
    {
        std::string label;
        for (const std::string_view w : tokens(field.label))
            label += (label.empty() ? "" : " ") + std::string(w);
        field.label = label;
    }
    const std::string key = normalizeLabel(field.label);
    const auto integer = [&]() -> std::optional<std::int64_t> {
        if (!field.number || *field.number < -9.2e18 || *field.number > 9.2e18)
            return std::nullopt;
        return static_cast<std::int64_t>(*field.number);
    };
    // The summary's labels (normalised) and the member each fills: text, a count or a number.
    struct TextField {
        std::string_view key;
        std::string VelaSummary::*member;
    };
    struct CountField {
        std::string_view key;
        std::optional<std::int64_t> VelaSummary::*member;
    };
    static constexpr TextField kText[] = {
        { "accelerator configuration", &VelaSummary::accelerator },
        { "system configuration", &VelaSummary::systemConfiguration },
        { "memory mode", &VelaSummary::memoryMode },
    };
    static constexpr CountField kCounts[] = {
        { "cpu operators", &VelaSummary::cpuOperators },
        { "npu operators", &VelaSummary::npuOperators },
        { "neural network macs", &VelaSummary::macs },
        { "npu cycles", &VelaSummary::npuCycles },
        { "sram access cycles", &VelaSummary::sramAccessCycles },
        { "dram access cycles", &VelaSummary::dramAccessCycles },
        { "on-chip flash access cycles", &VelaSummary::onChipFlashAccessCycles },
        { "off-chip flash access cycles", &VelaSummary::offChipFlashAccessCycles },
        { "total cycles", &VelaSummary::totalCycles },
    };
    for (const TextField& f : kText)
        if (key == f.key)
            summary.*f.member = field.value;
    for (const CountField& f : kCounts)
        if (key == f.key)
            summary.*f.member = integer();
    if (key == "accelerator clock") {
        summary.clockMHz = field.number;
    } else if (key == "batch inference time") {
        summary.inferenceTimeMs = field.number;
        // "12.71 ms,   78.69 inferences/s (batch size 1)"
        const auto rest = tokens(field.rest, 8);
        if (!rest.empty())
            summary.inferencesPerSecond = parseNumber(rest[0]);
    }
    // "(batch size N)" closes the bandwidth-per-input and inference-time lines.
    if (const std::size_t at = field.rest.find("(batch size "); at != std::string::npos) {
        std::string_view n = std::string_view(field.rest).substr(at + 12);
        n = n.substr(0, n.find(')'));
        if (auto b = parseInteger(trim(n)))
            summary.batchSize = b;
    }
    summary.fields.push_back(std::move(field));
    return true;
}

void Reader::setColumns(const LogLine& line, const std::vector<std::string>& names)
{
    VelaLayerTable& table = m_log.tables.back();
    table.columns = names;
    m_columns.clear();
    bool networkSeen = false;
    std::array<bool, static_cast<std::size_t>(LayerColumn::Count)> present {};
    for (const std::string& name : names) {
        auto column = perlayer::columnFor(name, networkSeen);
        if (!column) {
            m_warnings.add(line, "unknown column '" + name + "' in the per-layer table (ignored)");
        } else if (present[static_cast<std::size_t>(*column)]) {
            m_warnings.add(line, "column '" + name + "' appears twice in the per-layer table (the second is ignored)");
            column.reset();
        } else {
            present[static_cast<std::size_t>(*column)] = true;
        }
        m_columns.push_back(column);
    }
    for (std::size_t c = 0; c < present.size(); ++c)
        if (!present[c])
            m_warnings.add(line,
                "the per-layer table has no column '" + std::string(layerColumnName(static_cast<LayerColumn>(c)))
                    + "'");
}

void Reader::tableHeader(const LogLine& line)
{
    const std::string_view text = line.text;
    if (trim(text).empty())
        return;
    if (m_headerText.empty()) {
        m_headerText = text;
        m_headerLine = line.number;
        return;
    }
    // The dash line under the header gives each column's span.
    const std::string_view trimmed = trim(text);
    if (!trimmed.empty() && trimmed.find_first_not_of("- ") == trimmed.npos) {
        m_spans.clear();
        std::size_t i = 0;
        while (i < text.size()) {
            while (i < text.size() && text[i] != '-')
                ++i;
            const std::size_t start = i;
            while (i < text.size() && text[i] == '-')
                ++i;
            if (i > start)
                m_spans.emplace_back(start, i);
        }
        std::vector<std::string> names;
        for (std::size_t s = 0; s < m_spans.size(); ++s) {
            const std::size_t start = m_spans[s].first;
            const std::size_t end = s + 1 < m_spans.size() ? m_spans[s + 1].first : std::string::npos;
            names.emplace_back(start < m_headerText.size()
                    ? trim(std::string_view(m_headerText).substr(start, end - start))
                    : std::string_view());
        }
        LogLine header = line;
        header.number = m_headerLine;
        setColumns(header, names);
        m_state = State::Table;
        return;
    }
    // No dash line: name the columns by finding the known names in the header, left to right.
    std::vector<std::string> names;
    std::string_view rest = m_headerText;
    while (!trim(rest).empty()) {
        rest = trim(rest);
        std::string_view best = perlayer::knownColumnAt(rest);
        if (best.empty())
            best = tokens(rest, 1).front();
        names.emplace_back(best);
        rest.remove_prefix(best.size());
    }
    LogLine header = line;
    header.number = m_headerLine;
    m_warnings.add(header, "the per-layer table has no dashed line under its header; columns named from the header");
    setColumns(header, names);
    m_state = State::Table;
    if (!tableRow(line))
        endTable();
}

bool Reader::tableRow(const LogLine& line)
{
    const std::string_view text = line.text;
    if (trim(text).empty() || startsSection(trim(text)))
        return false;
    VelaLayerTable& table = m_log.tables.back();
    const auto cells = tokens(text, m_columns.size() + 8);
    VelaLayerRow row;
    row.line = line.number;
    bool ok = true;
    if (cells.size() == m_columns.size()) {
        for (std::size_t c = 0; c < cells.size(); ++c)
            if (m_columns[c] && !perlayer::setCell(row, *m_columns[c], cells[c]))
                ok = false;
    } else if (!m_spans.empty() && cells.size() + 4 >= m_columns.size()) {
        // Not one word per column (a name with spaces, a cut-off row): read each column's span.
        for (std::size_t c = 0; c < m_columns.size() && c < m_spans.size(); ++c) {
            const std::size_t start = m_spans[c].first;
            if (start >= text.size())
                break;
            const std::size_t end = c + 1 < m_spans.size() ? m_spans[c + 1].first : std::string::npos;
            const std::string_view cell = trim(text.substr(start, end == std::string::npos ? end : end - start));
            if (m_columns[c] && !cell.empty() && !perlayer::setCell(row, *m_columns[c], cell))
                ok = false;
        }
        m_warnings.add(line,
            "per-layer row has " + std::to_string(cells.size()) + " cells for " + std::to_string(m_columns.size())
                + " columns; read by column position");
    } else {
        ok = false;
    }
    if (!ok || row.nngOperator.empty()) {
        ++m_strayLines;
        m_warnings.add(line, "not a per-layer row (skipped)");
        return m_strayLines < kMaxStrayLines;
    }
    m_strayLines = 0;
    if (line.cut())
        m_warnings.add(line, "the row is longer than the line limit; its end is cut off");
    table.rows.push_back(std::move(row));
    return true;
}

bool Reader::csvRow(const LogLine& line)
{
    const std::string_view text = trim(line.text);
    if (text.empty())
        return false;
    if (text == m_csvHeader)
        return true; // a repeated header row (one per subgraph)
    const auto cells = perlayer::csvCells(text, m_columns.size() + 8);
    if (cells.size() != m_columns.size()) {
        ++m_strayLines;
        m_warnings.add(line,
            "CSV row has " + std::to_string(cells.size()) + " cells for " + std::to_string(m_columns.size())
                + " columns (skipped)");
        return m_strayLines < kMaxStrayLines;
    }
    VelaLayerRow row;
    row.line = line.number;
    bool ok = true;
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (m_columns[c] && !perlayer::setCell(row, *m_columns[c], cells[c]))
            ok = false;
    if (!ok)
        m_warnings.add(line, "CSV row has a cell that is not a number where one is expected (left empty)");
    m_strayLines = 0;
    m_log.tables.back().rows.push_back(std::move(row));
    return true;
}

void Reader::endTable()
{
    m_state = State::Idle;
}

bool Reader::listingLine(const LogLine& line)
{
    RegisterListing& listing = m_log.listings.back();
    const std::string_view text = trim(line.text);
    if (text.empty())
        return listing.commands.empty(); // a blank line ends the listing once it has begun
    if (startsWith(text, "Offset:"))
        return true; // the column header
    if (startsWith(text, "//")) {
        ListedOperation op;
        op.line = line.number;
        op.text = trim(text.substr(2));
        const auto words = tokens(op.text, 2);
        if (!words.empty()) {
            std::string_view kind = words[0];
            if (!kind.empty() && kind.back() == ',')
                kind.remove_suffix(1);
            op.kind = kind;
        }
        if (const std::size_t at = op.text.find("subOps:"); at != std::string::npos) {
            std::string_view list = std::string_view(op.text).substr(at + 7);
            list = list.substr(0, list.find(", size="));
            for (std::string_view rest = list; !trim(rest).empty();) {
                const std::size_t comma = rest.find(',');
                const std::string_view item = trim(rest.substr(0, comma));
                if (!item.empty() && item != "-")
                    op.subOps.emplace_back(item);
                if (comma == rest.npos)
                    break;
                rest.remove_prefix(comma + 1);
            }
        }
        op.firstCommand = listing.commands.size();
        listing.operations.push_back(std::move(op));
        m_strayLines = 0;
        return true;
    }
    std::string why;
    auto command = detail::parseListedCommand(text, why);
    if (!command) {
        if (startsSection(text))
            return false;
        ++m_strayLines;
        m_warnings.add(line, "not a register listing line (" + why + ")");
        return m_strayLines < kMaxStrayLines;
    }
    m_strayLines = 0;
    command->line = line.number;
    command->operation = listing.operations.empty() ? -1 : static_cast<int>(listing.operations.size() - 1);
    const std::uint32_t expected
        = listing.commands.empty() ? 0 : listing.commands.back().offset + listing.commands.back().size();
    if (command->offset != expected) {
        listing.gaps.push_back(expected);
        m_warnings.add(line,
            "command at offset " + std::to_string(command->offset) + " does not follow the previous one (expected "
                + std::to_string(expected) + "): commands are missing");
    }
    if (line.cut())
        m_warnings.add(line, "the line is longer than the line limit; its fields are cut off");
    listing.commands.push_back(std::move(*command));
    return true;
}

VelaLog Reader::run(std::string_view text)
{
    LineCursor cursor(text, m_limits);
    LogLine line;
    while (cursor.next(line)) {
        if (line.cut())
            m_warnings.add(line,
                "line of " + std::to_string(line.fullLength) + " bytes; only its first "
                    + std::to_string(line.text.size()) + " are read");
        bool stay = true;
        switch (m_state) {
        case State::Idle:
            idle(line);
            break;
        case State::Summary:
            stay = summaryLine(line);
            break;
        case State::TableHeader:
            tableHeader(line);
            break;
        case State::Table:
            stay = tableRow(line);
            break;
        case State::Csv:
            stay = csvRow(line);
            break;
        case State::Listing:
            stay = listingLine(line);
            break;
        }
        if (!stay) {
            m_state = State::Idle;
            m_strayLines = 0;
            idle(line); // the line that ended a section may start the next
        }
        m_log.lines = line.number;
    }
    if (!cursor.stoppedAt().empty())
        m_warnings.add(line.number, line.offset, "reading stopped at the " + std::string(cursor.stoppedAt()));
    for (const RegisterListing& listing : m_log.listings)
        if (listing.announcedWords && listing.listedWords() != *listing.announcedWords)
            m_warnings.add(listing.line, 0,
                "the register listing announces " + std::to_string(*listing.announcedWords) + " words but lists "
                    + std::to_string(listing.listedWords()) + " (cut short?)");
    for (const VelaLayerTable& table : m_log.tables)
        if (table.rows.empty())
            m_warnings.add(table.line, 0, "the per-layer table has no rows");
    if (m_log.empty())
        m_warnings.add(0, 0, "no Vela network summary, per-layer table or register listing found");
    m_log.warnings = m_warnings.take();
    return std::move(m_log);
}

} // namespace

const SummaryField* VelaSummary::find(std::string_view label) const
{
    const std::string key = normalizeLabel(label);
    for (const SummaryField& field : fields)
        if (normalizeLabel(field.label) == key)
            return &field;
    return nullptr;
}

VelaLog parseVelaLog(std::string_view text, std::string_view name, const LogLimits& limits)
{
    return Reader(name, limits).run(text);
}

Result<VelaLog> readVelaLog(const std::string& path, const LogLimits& limits)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    const auto bytes = (*file)->bytes();
    return parseVelaLog({ reinterpret_cast<const char*>(bytes.data()), bytes.size() }, path, limits);
}

} // namespace etscope::core::vendor
