// SPDX-License-Identifier: MIT
// Partition logs for fixtures (issue 35), written from the format facts (pytorch/executorch @
// cff6f4dd32e630945b7188512c1f2b4f102b05ad: exir/backend/utils.py, backends/arm/tosa/partitioner.py,
// backends/qualcomm/partition/qnn_partitioner.py, backends/apple/coreml/partition/coreml_partitioner.py;
// tabulate's fancy_grid: astanin/python-tabulate v0.9.0).
#include "core/writer/partitionlogwriter.h"

#include <algorithm>
#include <cctype>

namespace etscope::core {

namespace {

std::size_t codePoints(const std::string& text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string repeat(const std::string& glyph, std::size_t count)
{
    std::string out;
    for (std::size_t i = 0; i < count; ++i)
        out += glyph;
    return out;
}

std::string border(
    const std::vector<std::size_t>& widths, const char* left, const char* fill, const char* middle, const char* right)
{
    std::string line = left;
    for (std::size_t c = 0; c < widths.size(); ++c) {
        line += repeat(fill, widths[c] + 2);
        line += c + 1 < widths.size() ? middle : right;
    }
    return line + "\n";
}

std::string padded(const std::string& text, std::size_t width)
{
    return text + std::string(width - std::min(width, codePoints(text)), ' ');
}

std::string table(const std::vector<RejectedNode>& rows)
{
    constexpr std::size_t kWidth = 35; // maxcolwidths=35
    const std::vector<std::string> headers { "Node name", "Target", "Torch func", "Reason" };
    std::vector<std::vector<std::vector<std::string>>> cells; // row → column → lines
    std::vector<std::size_t> widths;
    widths.reserve(headers.size());
    for (const std::string& header : headers)
        widths.push_back(codePoints(header) + 2); // tabulate's MIN_PADDING for headers
    for (const RejectedNode& row : rows) {
        auto& wrapped = cells.emplace_back();
        for (const std::string* text : { &row.nodeName, &row.target, &row.torchFunc, &row.reason })
            wrapped.push_back(wrapLikeTextwrap(*text, kWidth));
        for (std::size_t c = 0; c < headers.size(); ++c)
            for (const std::string& line : wrapped[c])
                widths[c] = std::max(widths[c], codePoints(line));
    }
    const auto rowLines = [&](const std::vector<std::vector<std::string>>& row) {
        std::size_t height = 1;
        for (const auto& column : row)
            height = std::max(height, column.size());
        std::string text;
        for (std::size_t l = 0; l < height; ++l) {
            text += "\u2502";
            for (std::size_t c = 0; c < row.size(); ++c)
                text += " " + padded(l < row[c].size() ? row[c][l] : std::string(), widths[c]) + " \u2502";
            text += "\n";
        }
        return text;
    };
    std::string text = border(widths, "\u2552", "\u2550", "\u2564", "\u2555");
    std::vector<std::vector<std::string>> headerRow;
    headerRow.reserve(headers.size());
    for (const std::string& header : headers)
        headerRow.push_back({ header });
    text += rowLines(headerRow);
    text += border(widths, "\u255e", "\u2550", "\u256a", "\u2561");
    for (std::size_t r = 0; r < cells.size(); ++r) {
        if (r > 0)
            text += border(widths, "\u251c", "\u2500", "\u253c", "\u2524");
        text += rowLines(cells[r]);
    }
    text += border(widths, "\u2558", "\u2550", "\u2567", "\u255b");
    return text;
}

} // namespace

std::vector<std::string> wrapLikeTextwrap(const std::string& text, std::size_t width)
{
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t space = std::min(text.find(' ', start), text.size());
        if (space > start)
            words.push_back(text.substr(start, space - start));
        start = space + 1;
    }
    std::vector<std::string> lines;
    std::string line;
    for (std::string word : words) {
        // A word that fits on a line of its own moves whole; a longer one fills the line.
        if (!line.empty() && codePoints(line) + 1 + codePoints(word) <= width) {
            line += " " + word;
            continue;
        }
        if (codePoints(word) <= width) {
            if (!line.empty())
                lines.push_back(line);
            line = word;
            continue;
        }
        if (!line.empty())
            line += " ";
        while (codePoints(line) + codePoints(word) > width) {
            const std::size_t room = width - codePoints(line);
            // Fixture text is ASCII: bytes are code points here.
            line += word.substr(0, room);
            lines.push_back(line);
            line.clear();
            word = word.substr(room);
        }
        line += word;
    }
    if (!line.empty() || lines.empty())
        lines.push_back(line);
    return lines;
}

std::string writeArmPartitionReport(const std::vector<ArmPartitionCall>& calls, bool consolePrefix)
{
    const std::string prefix = consolePrefix ? "INFO:executorch.backends.arm.tosa.partitioner:" : "";
    std::string text;
    for (const ArmPartitionCall& call : calls) {
        text += prefix + "The following nodes were rejected for " + call.tosaSpec + ":\n";
        // logger.info("\n" + table): the message starts with a newline.
        text += prefix + "\n";
        text += call.rejected.empty() ? std::string("No nodes rejected.\n") : table(call.rejected);
        text += prefix + "(Placeholders and outputs are not included in this list)\n";
    }
    return text;
}

std::string writeXnnpackWhyLines(const std::vector<RejectedNode>& rejected)
{
    std::string text;
    for (const RejectedNode& node : rejected)
        text += "DEBUG:executorch.backends.xnnpack.partition.config.generic_node_configs:WhyNoPartition: Node "
            + node.nodeName + " was not partitioned because " + node.reason + ".\n";
    return text;
}

std::string writeQnnOpSupportLines(const std::vector<std::pair<std::string, std::string>>& verdicts, bool legacy)
{
    std::string text;
    for (const auto& [op, verdict] : verdicts)
        text += legacy ? "[QNN Partitioner Op Support]: " + op + " | " + verdict + "\n"
                       : "INFO:executorch.backends.qualcomm.partition.qnn_partitioner:[QnnPartitioner] " + op + " | "
                + verdict + "\n";
    return text;
}

std::string writeCoreMlSkipLines(const std::vector<std::string>& targets)
{
    std::string text;
    for (const std::string& target : targets) {
        std::string lower = target;
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        text += "INFO:executorch.backends.apple.coreml.partition.coreml_partitioner:Skipping op for CoreML delegation "
                "because it is not supported by CoreML: "
            + lower + "\n";
    }
    return text;
}

} // namespace etscope::core
