// SPDX-License-Identifier: MIT
// Readers of the partitioner logs that say why a node stayed outside a delegate (issue 35). The
// formats, all read at pytorch/executorch commit cff6f4dd32e630945b7188512c1f2b4f102b05ad:
//   - exir/backend/utils.py, WhyNoPartitionReporter.get_table_report: tabulate's "fancy_grid"
//     with the columns "Node name", "Target", "Torch func", "Reason", cells wrapped at 35
//     characters (maxcolwidths=35) onto continuation lines, rows parted by ├─┼─┤ lines; or the
//     line "No nodes rejected.". backends/arm/tosa/partitioner.py logs one table per partition
//     call after "The following nodes were rejected for <tosa spec>:" and, with an intermediates
//     folder, writes the same to partition_report.txt.
//   - exir/backend/utils.py, WhyNoPartition.__str__: "WhyNoPartition: Node <name> was not
//     partitioned because <reason>." (logged at DEBUG by backends/xnnpack/partition/config/*).
//   - backends/qualcomm/partition/qnn_partitioner.py, QnnOperatorSupport.is_node_supported:
//     "[<phase>] <op> | <verdict>" (phase "QnnPartitioner"; older releases wrote
//     "[QNN Partitioner Op Support]: <op> | <verdict>"), verdict True, False, Skipped, Forced
//     Fallback, Forced Passed or "No node visitor, unsupported". The line names no node.
//   - backends/apple/coreml/partition/coreml_partitioner.py, log_once: "Skipping op for CoreML
//     delegation because <why>: <op>", "<op> is not supported by CoreML.  Overriding op support."
//     and "torch.ops.aten.{sub, add}.Tensor with alpha != 1 is not supported by CoreML. …";
//     logged once per message, so they too name an operator type, not a node.
#include "core/why/partitionlog.h"

#include "core/util/mappedfile.h"

#include <algorithm>
#include <cctype>

namespace etscope::core {

namespace {

// tabulate's box characters (UTF-8) in fancy_grid.
constexpr std::string_view kTopLeft = "\u2552"; // ╒
constexpr std::string_view kHeaderLeft = "\u255e"; // ╞
constexpr std::string_view kRowLeft = "\u251c"; // ├
constexpr std::string_view kBottomLeft = "\u2558"; // ╘
constexpr std::string_view kBar = "\u2502"; // │
constexpr std::size_t kWrapWidth = 35; // maxcolwidths=35 in get_table_report

std::string_view trimmed(std::string_view text)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return text;
}

/// Code points in UTF-8 text (continuation bytes not counted).
std::size_t codePoints(std::string_view text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool identifierChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

class Reader {
public:
    Reader(const std::string& name, const PartitionLogLimits& limits)
        : m_limits(limits)
    {
        m_log.file = name;
    }

    void read(std::string_view text)
    {
        if (text.size() > m_limits.maxBytes) {
            warn(0,
                "the log has " + std::to_string(text.size()) + " bytes; only the first "
                    + std::to_string(m_limits.maxBytes) + " are read");
            text = text.substr(0, m_limits.maxBytes);
        }
        std::size_t start = 0;
        int number = 0;
        while (start < text.size()) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            ++number;
            if (static_cast<std::size_t>(number) > m_limits.maxLines) {
                warn(number, "more than " + std::to_string(m_limits.maxLines) + " lines; the rest is not read");
                break;
            }
            std::string_view line = text.substr(start, end - start);
            start = end + 1;
            m_log.lines = static_cast<std::size_t>(number);
            if (line.size() > m_limits.maxLineBytes) {
                warn(number,
                    "a line of " + std::to_string(line.size()) + " bytes (more than "
                        + std::to_string(m_limits.maxLineBytes) + "); skipped");
                closeTable(number, "a line too long to read");
                continue;
            }
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            readLine(line, number);
        }
        if (m_table.open)
            closeTable(number + 1, "the end of the log");
        if (!m_log.recognised())
            warn(0,
                "no partition report found in " + std::to_string(m_log.lines)
                    + " lines (no WhyNoPartitionReporter table, WhyNoPartition, QNN op-support or Core ML skip "
                      "line)");
        if (m_droppedWarnings > 0)
            m_log.warnings.push_back(
                { m_log.file + ": " + std::to_string(m_droppedWarnings) + " more warnings not shown", std::nullopt });
    }

    PartitionLog take() { return std::move(m_log); }

private:
    struct Table {
        bool open = false;
        bool headerDone = false;
        bool inBody = false;
        int startLine = 0;
        int columns = 0;
        int nodeColumn = -1;
        int targetColumn = -1;
        int torchColumn = -1;
        int reasonColumn = -1;
        std::vector<std::vector<std::string>> pieces; ///< per column: the current row's lines
        int rowLine = 0;
        bool rowDamaged = false;
    };

    void warn(int line, const std::string& reason)
    {
        if (m_log.warnings.size() >= m_limits.maxWarnings) {
            ++m_droppedWarnings;
            return;
        }
        const std::string where = line > 0 ? m_log.file + ":" + std::to_string(line) : m_log.file;
        m_log.warnings.push_back({ where + ": " + reason, std::nullopt });
    }

    void add(LogReason reason)
    {
        if (m_log.reasons.size() >= m_limits.maxReasons) {
            if (!m_reasonsFull)
                warn(
                    reason.line, "more than " + std::to_string(m_limits.maxReasons) + " reasons; the rest is not kept");
            m_reasonsFull = true;
            return;
        }
        reason.file = m_log.file;
        m_log.reasons.push_back(std::move(reason));
    }

    void readLine(std::string_view raw, int number)
    {
        const std::string_view line = trimmed(raw);
        if (line.starts_with(kTopLeft)) {
            if (m_table.open)
                closeTable(number, "a new table");
            m_table = Table {};
            m_table.open = true;
            m_table.startLine = number;
            return;
        }
        if (m_table.open && readTableLine(line, number))
            return;
        if (line.starts_with(kBar) || line.starts_with(kHeaderLeft) || line.starts_with(kRowLeft)
            || line.starts_with(kBottomLeft)) {
            warn(number, "a table line outside any table (its top border is missing); skipped");
            return;
        }
        if (line.find("No nodes rejected.") != std::string_view::npos) {
            ++m_log.emptyTables;
            m_spec.clear();
            return;
        }
        if (const auto at = line.find("The following nodes were rejected for "); at != std::string_view::npos) {
            std::string_view spec = trimmed(line.substr(at + 38));
            if (spec.ends_with(':'))
                spec.remove_suffix(1);
            m_spec = std::string(spec);
            return;
        }
        if (line.find("WhyNoPartition") != std::string_view::npos) {
            readXnnpack(line, number);
            return;
        }
        if (line.find(" | ") != std::string_view::npos && line.find('[') != std::string_view::npos
            && readQnn(line, number))
            return;
        if (line.find("CoreML") != std::string_view::npos)
            readCoreMl(line, number);
    }

    /// A line while a table is open; false when the line is not part of it (the table is then
    /// closed as cut off and the line read on its own).
    bool readTableLine(std::string_view line, int number)
    {
        if (line.starts_with(kHeaderLeft)) {
            if (!m_table.headerDone)
                warn(number, "a table header border without a header row; the columns are unknown");
            m_table.inBody = true;
            return true;
        }
        if (line.starts_with(kRowLeft)) {
            finishRow(false);
            return true;
        }
        if (line.starts_with(kBottomLeft)) {
            finishRow(false);
            if (!m_table.headerDone)
                warn(number, "a table with no header row; its rows cannot be read");
            if (isReasonTable())
                ++m_log.armTables;
            m_table = Table {};
            m_spec.clear();
            return true;
        }
        if (!line.starts_with(kBar))
            return closeTable(number, "a line that is not part of it"), false;
        std::vector<std::string_view> cells;
        std::string_view rest = line.substr(kBar.size());
        while (true) {
            const std::size_t bar = rest.find(kBar);
            if (bar == std::string_view::npos)
                break;
            cells.push_back(rest.substr(0, bar));
            rest = rest.substr(bar + kBar.size());
        }
        if (!trimmed(rest).empty()) {
            // No closing bar: the line itself was cut (a log cut mid-line, or output written over it).
            warn(number, "a table row without its closing border; the row may be incomplete");
            m_table.rowDamaged = true;
            cells.push_back(rest);
        }
        if (!m_table.headerDone) {
            m_table.headerDone = true;
            m_table.columns = static_cast<int>(cells.size());
            for (std::size_t c = 0; c < cells.size(); ++c) {
                const std::string name = lower(trimmed(cells[c]));
                const int index = static_cast<int>(c);
                if (name == "node name" || name == "node")
                    m_table.nodeColumn = index;
                else if (name == "target")
                    m_table.targetColumn = index;
                else if (name == "torch func")
                    m_table.torchColumn = index;
                else if (name == "reason")
                    m_table.reasonColumn = index;
            }
            // get_delegation_info's table (devtools/backend_debug/delegation_info.py; Arm's
            // delegation_info.txt) has op_type counts and no reasons: passed over without a word.
            const bool delegationInfo = std::any_of(
                cells.begin(), cells.end(), [](std::string_view cell) { return trimmed(cell) == "op_type"; });
            if ((m_table.nodeColumn < 0 || m_table.reasonColumn < 0) && !delegationInfo)
                warn(number,
                    "a table whose header has no \"Node name\" or \"Reason\" column; not a WhyNoPartitionReporter "
                    "table, its rows are skipped");
            m_table.pieces.assign(cells.size(), {});
            return true;
        }
        if (static_cast<int>(cells.size()) != m_table.columns) {
            warn(number,
                "a table row with " + std::to_string(cells.size()) + " cells where the header has "
                    + std::to_string(m_table.columns) + "; skipped");
            m_table.rowDamaged = true;
            return true;
        }
        if (m_table.rowLine == 0)
            m_table.rowLine = number;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            // tabulate pads each cell with one space on either side; a continuation line of a
            // shorter cell is blank.
            const std::string_view cell = trimmed(cells[c]);
            if (!cell.empty())
                m_table.pieces[c].emplace_back(cell);
        }
        return true;
    }

    /// The cell text of one column: its wrapped lines joined. tabulate wraps with textwrap
    /// (width 35): a break at whitespace drops the space, and a word is cut only when it is longer
    /// than the whole width (textwrap's _handle_long_word), filling the line to the width. So a
    /// full-width piece whose last word and the next piece's first word together exceed the
    /// width was a cut word (joined as is); any other break was a space (put back). Exact for
    /// tabulate's own output; a log rewrapped by something else may join differently.
    std::string joined(int column) const
    {
        if (column < 0 || static_cast<std::size_t>(column) >= m_table.pieces.size())
            return {};
        std::string text;
        std::string_view previous;
        for (const std::string& piece : m_table.pieces[static_cast<std::size_t>(column)]) {
            if (!previous.empty()) {
                const std::string_view tail = previous.substr(previous.find_last_of(' ') + 1);
                const std::string_view head = std::string_view(piece).substr(0, piece.find(' '));
                const bool cutWord
                    = codePoints(previous) >= kWrapWidth && codePoints(tail) + codePoints(head) > kWrapWidth;
                if (!cutWord)
                    text += ' ';
            }
            text += piece;
            previous = piece;
        }
        return text;
    }

    /// A WhyNoPartitionReporter table: one with node names and reasons.
    bool isReasonTable() const { return m_table.headerDone && m_table.nodeColumn >= 0 && m_table.reasonColumn >= 0; }

    void finishRow(bool cut)
    {
        if (!m_table.headerDone || m_table.rowLine == 0) {
            m_table.rowDamaged = false;
            return;
        }
        const bool anyText = std::any_of(
            m_table.pieces.begin(), m_table.pieces.end(), [](const auto& column) { return !column.empty(); });
        if (m_table.nodeColumn >= 0 && m_table.reasonColumn >= 0 && anyText) {
            LogReason reason;
            reason.format = PartitionLogFormat::ArmTable;
            reason.line = m_table.rowLine;
            reason.nodeName = joined(m_table.nodeColumn);
            reason.target = joined(m_table.targetColumn);
            reason.torchFunc = joined(m_table.torchColumn);
            reason.reason = joined(m_table.reasonColumn);
            reason.spec = m_spec;
            reason.table = m_log.armTables;
            reason.cut = cut || m_table.rowDamaged;
            if (reason.nodeName.empty())
                warn(reason.line, "a table row with no node name; skipped");
            else
                add(std::move(reason));
        }
        for (auto& column : m_table.pieces)
            column.clear();
        m_table.rowLine = 0;
        m_table.rowDamaged = false;
    }

    void closeTable(int number, const std::string& by)
    {
        if (!m_table.open)
            return;
        warn(number,
            "the table that starts at line " + std::to_string(m_table.startLine) + " is cut off by " + by
                + " before its bottom border; the rows read so far are kept");
        finishRow(true);
        if (isReasonTable())
            ++m_log.armTables;
        m_table = Table {};
        m_spec.clear();
    }

    void readXnnpack(std::string_view line, int number)
    {
        constexpr std::string_view kHead = "WhyNoPartition: Node ";
        constexpr std::string_view kBecause = " was not partitioned because ";
        const std::size_t head = line.find(kHead);
        const std::size_t because = head == std::string_view::npos ? head : line.find(kBecause, head + kHead.size());
        if (because == std::string_view::npos) {
            warn(number, "a WhyNoPartition line without \"Node … was not partitioned because …\"; skipped");
            return;
        }
        LogReason reason;
        reason.format = PartitionLogFormat::Xnnpack;
        reason.line = number;
        reason.nodeName = std::string(trimmed(line.substr(head + kHead.size(), because - head - kHead.size())));
        std::string_view why = trimmed(line.substr(because + kBecause.size()));
        if (why.ends_with('.'))
            why.remove_suffix(1); // __str__ ends the sentence with its own full stop
        reason.reason = std::string(why);
        if (reason.nodeName.empty() || reason.reason.empty()) {
            warn(number, "a WhyNoPartition line with no node name or no reason; skipped");
            return;
        }
        add(std::move(reason));
    }

    bool readQnn(std::string_view line, int number)
    {
        // The bracketed phase: "[QnnPartitioner]", "[QNN Partitioner Op Support]:", another
        // checker's label. Only labels naming QNN, LPAI or a partitioner count.
        std::size_t open = line.find('[');
        while (open != std::string_view::npos) {
            const std::size_t close = line.find(']', open);
            if (close == std::string_view::npos)
                return false;
            const std::string phase(line.substr(open + 1, close - open - 1));
            const std::string lowered = lower(phase);
            if (lowered.find("qnn") != std::string::npos || lowered.find("partitioner") != std::string::npos
                || lowered.find("lpai") != std::string::npos) {
                std::string_view rest = line.substr(close + 1);
                if (rest.starts_with(':'))
                    rest.remove_prefix(1);
                rest = trimmed(rest);
                const std::size_t bar = rest.find(" | ");
                if (bar == std::string_view::npos)
                    return false;
                const std::string_view op = trimmed(rest.substr(0, bar));
                const std::string_view verdict = trimmed(rest.substr(bar + 3));
                if (op.empty() || op.find(' ') != std::string_view::npos || operatorKey(op).empty()) {
                    warn(number, "a QNN op-support line whose operator cannot be read; skipped");
                    return true;
                }
                if (verdict == "True" || verdict == "Forced Passed") {
                    ++m_log.supportedLines;
                    return true;
                }
                if (verdict.empty()) {
                    warn(number, "a QNN op-support line with no verdict; skipped");
                    return true;
                }
                LogReason reason;
                reason.format = PartitionLogFormat::Qnn;
                reason.line = number;
                reason.target = std::string(op);
                reason.spec = phase;
                reason.reason = verdict == "False"
                    ? std::string(
                        "QNN op validation answered False (the backend refused this operator's configuration)")
                    : std::string(verdict);
                add(std::move(reason));
                return true;
            }
            open = line.find('[', close);
        }
        return false;
    }

    void addCoreMl(std::string_view op, std::string why, int number)
    {
        LogReason reason;
        reason.format = PartitionLogFormat::CoreMl;
        reason.line = number;
        reason.target = std::string(op);
        reason.reason = std::move(why);
        add(std::move(reason));
    }

    void readCoreMl(std::string_view line, int number)
    {
        constexpr std::string_view kSkipping = "Skipping op for CoreML delegation because ";
        constexpr std::string_view kNotSupported = " is not supported by CoreML.";
        if (const std::size_t at = line.find(kSkipping); at != std::string_view::npos) {
            const std::string_view rest = line.substr(at + kSkipping.size());
            const std::size_t colon = rest.rfind(": ");
            if (colon == std::string_view::npos) {
                warn(number, "a Core ML skip line without \": <op>\"; skipped");
                return;
            }
            const std::string_view op = trimmed(rest.substr(colon + 2));
            // "… is not get_attr or call_function: placeholder" names a node kind, not an operator.
            if (op.find('.') == std::string_view::npos && op.find("::") == std::string_view::npos)
                return;
            if (operatorKey(op).empty()) {
                warn(number, "a Core ML skip line whose operator cannot be read; skipped");
                return;
            }
            addCoreMl(op, std::string(trimmed(rest.substr(0, colon))), number);
            return;
        }
        std::size_t at = line.find(" with ");
        const std::size_t unsupported = line.find(kNotSupported);
        if (unsupported == std::string_view::npos)
            return;
        if (at == std::string_view::npos || at > unsupported)
            at = unsupported;
        // The operator is the last word before " with …" or " is not supported": a logging prefix
        // ("INFO:executorch…coreml_partitioner:") may stand before it.
        std::string_view head = line.substr(0, at);
        if (const std::size_t space = head.rfind(' '); space != std::string_view::npos)
            head = head.substr(space + 1);
        std::string why = std::string(trimmed(line.substr(at)));
        if (why.starts_with("is "))
            why = "it " + why;
        // "{node.target} is not supported …" prints the target's repr: "<EdgeOpOverload:
        // aten.x.default>: schema = aten::x(…) -> Tensor", whose schema holds spaces.
        if (const std::size_t edge = line.find("<EdgeOpOverload: "); edge != std::string_view::npos && edge < at) {
            const std::size_t close = line.find('>', edge);
            const std::string_view op
                = close == std::string_view::npos ? std::string_view {} : line.substr(edge, close - edge + 1);
            if (op.size() < 19 || operatorKey(op).empty()) {
                warn(number, "a Core ML \"not supported\" line whose operator cannot be read; skipped");
                return;
            }
            addCoreMl(op.substr(17, op.size() - 18), why, number);
            return;
        }
        // "torch.ops.aten.{sub, add}.Tensor": one reason per operator in the braces. The space
        // inside the braces split the word; take it from the line.
        const std::size_t brace = line.rfind('{', at);
        if (brace != std::string_view::npos && line.find('}', brace) != std::string_view::npos
            && line.find('}', brace) < at) {
            std::size_t wordStart = line.rfind(' ', brace);
            wordStart = wordStart == std::string_view::npos ? 0 : wordStart + 1;
            const std::string_view prefix = line.substr(wordStart, brace - wordStart);
            const std::size_t closeBrace = line.find('}', brace);
            const std::string_view suffix = line.substr(closeBrace + 1, at - closeBrace - 1);
            std::string_view inside = line.substr(brace + 1, closeBrace - brace - 1);
            while (!inside.empty()) {
                const std::size_t comma = std::min(inside.find(','), inside.size());
                const std::string op
                    = std::string(prefix) + std::string(trimmed(inside.substr(0, comma))) + std::string(suffix);
                if (!operatorKey(op).empty())
                    addCoreMl(op, why, number);
                inside = comma < inside.size() ? inside.substr(comma + 1) : std::string_view {};
            }
            return;
        }
        if (const std::size_t colon = head.rfind(':');
            colon != std::string_view::npos && head.find("::") == std::string_view::npos)
            head = head.substr(colon + 1);
        if (operatorKey(head).empty()) {
            warn(number, "a Core ML \"not supported\" line whose operator cannot be read; skipped");
            return;
        }
        addCoreMl(head, why, number);
    }

    PartitionLogLimits m_limits;
    PartitionLog m_log;
    Table m_table;
    std::string m_spec;
    std::size_t m_droppedWarnings = 0;
    bool m_reasonsFull = false;
};

} // namespace

std::string_view partitionLogFormatName(PartitionLogFormat format)
{
    switch (format) {
    case PartitionLogFormat::ArmTable:
        return "arm-table";
    case PartitionLogFormat::Xnnpack:
        return "xnnpack";
    case PartitionLogFormat::Qnn:
        return "qnn";
    case PartitionLogFormat::CoreMl:
        break;
    }
    return "coreml";
}

std::string operatorKey(std::string_view op)
{
    op = trimmed(op);
    if (const std::size_t edge = op.find("EdgeOpOverload: "); edge != std::string_view::npos) {
        op = op.substr(edge + 16);
        op = op.substr(0, std::min(op.find_first_of(">: "), op.size()));
    }
    for (const std::string_view prefix : { "torch.ops.", "exir_ops.edge.", "ops." })
        if (op.starts_with(prefix))
            op.remove_prefix(prefix.size());
    std::string_view space;
    std::string_view name;
    if (const std::size_t colons = op.find("::"); colons != std::string_view::npos) {
        space = op.substr(0, colons);
        name = op.substr(colons + 2);
        name = name.substr(0, std::min(name.find('.'), name.size()));
    } else {
        const std::size_t first = op.find('.');
        const std::size_t second = first == std::string_view::npos ? first : op.find('.', first + 1);
        if (second != std::string_view::npos) {
            space = op.substr(0, first);
            name = op.substr(first + 1, second - first - 1);
        } else if (first != std::string_view::npos) {
            space = "aten"; // "add.Tensor": an OpOverload's own __name__, always ATen's
            name = op.substr(0, first);
        }
    }
    if (space.empty() || name.empty() || !std::all_of(space.begin(), space.end(), identifierChar)
        || !std::all_of(name.begin(), name.end(), identifierChar))
        return {};
    return lower(space) + "::" + lower(name);
}

PartitionLog parsePartitionLog(std::string_view text, const std::string& name, const PartitionLogLimits& limits)
{
    Reader reader(name, limits);
    reader.read(text);
    return reader.take();
}

Result<PartitionLog> readPartitionLogFile(const std::string& path, const PartitionLogLimits& limits)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    const auto bytes = (*file)->bytes();
    return parsePartitionLog(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path, limits);
}

} // namespace etscope::core
