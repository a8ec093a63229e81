// SPDX-License-Identifier: MIT
#include "app/cli/analysiscommands.h"

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/analysis/sizebreakdown.h"
#include "core/table/table.h"
#include "core/util/jsontext.h"
#include "core/util/text.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace etscope::app {

using namespace etscope::core;

namespace {

/// Children shown per group in the text tree; the rest are summed on one line.
constexpr std::size_t kShownChildren = 12;
constexpr std::size_t kLargestLeaves = 10;

std::string percent(std::uint64_t part, std::uint64_t whole)
{
    char text[32];
    std::snprintf(
        text, sizeof text, "%5.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return text;
}

std::string padLeft(const std::string& text, std::size_t width)
{
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string rangeText(const SizeNode& node)
{
    if (node.bytes == 0)
        return {};
    std::string text = "@" + std::to_string(node.span.offset);
    if (node.ranges.size() > 1)
        text += " (" + std::to_string(node.ranges.size()) + " pieces)";
    return text;
}

/// Long names (64-digit hash keys) keep their start and end.
std::string shortName(const std::string& name)
{
    constexpr std::size_t kMax = 48;
    return name.size() <= kMax ? name : name.substr(0, kMax - 12) + "…" + name.substr(name.size() - 10);
}

std::string line(const SizeNode& node, std::uint64_t fileSize, int depth, bool showRange = true)
{
    std::string text = padLeft(formatBytes(node.bytes), 10) + padLeft(std::to_string(node.bytes), 12) + " "
        + percent(node.bytes, fileSize) + "  " + std::string(static_cast<std::size_t>(depth) * 2, ' ')
        + shortName(node.name);
    if (!node.detail.empty())
        text += " — " + node.detail;
    const std::string where = showRange ? rangeText(node) : std::string();
    if (!where.empty())
        text += "  " + where;
    return text + "\n";
}

void appendTree(std::string& out, const SizeNode& node, std::uint64_t fileSize, int depth)
{
    out += line(node, fileSize, depth);
    std::vector<const SizeNode*> children;
    for (const SizeNode& child : node.children)
        children.push_back(&child);
    // Largest first: the question is what makes the file this big.
    std::stable_sort(
        children.begin(), children.end(), [](const SizeNode* a, const SizeNode* b) { return a->bytes > b->bytes; });
    std::uint64_t restBytes = 0;
    for (std::size_t i = 0; i < children.size(); ++i) {
        if (i < kShownChildren)
            appendTree(out, *children[i], fileSize, depth + 1);
        else
            restBytes += children[i]->bytes;
    }
    if (children.size() > kShownChildren) {
        SizeNode rest;
        rest.name = "… " + std::to_string(children.size() - kShownChildren) + " more parts";
        rest.bytes = restBytes;
        out += line(rest, fileSize, depth + 1, false);
    }
}

std::string groupsText(const std::string& title, const std::vector<SizeGroup>& groups, std::uint64_t fileSize)
{
    std::string out = title + ":\n";
    for (const SizeGroup& group : groups)
        out += padLeft(formatBytes(group.bytes), 10) + padLeft(std::to_string(group.bytes), 12) + " "
            + percent(group.bytes, fileSize) + "  " + group.name + " (" + std::to_string(group.parts)
            + (group.parts == 1 ? " part)\n" : " parts)\n");
    return out;
}

std::string treeText(const SizeTree& tree)
{
    const auto leaves = sizeLeaves(tree);
    std::string out = tree.path + ": " + tree.format + ", " + std::to_string(tree.fileSize) + " bytes ("
        + formatBytes(tree.fileSize) + "), " + std::to_string(leaves.size()) + " parts\n\n";
    out += "      size       bytes  share  part\n";
    appendTree(out, tree.root, tree.fileSize, 0);

    std::vector<const SizeNode*> largest = leaves;
    std::stable_sort(
        largest.begin(), largest.end(), [](const SizeNode* a, const SizeNode* b) { return a->bytes > b->bytes; });
    if (largest.size() > kLargestLeaves)
        largest.resize(kLargestLeaves);
    out += "\nLargest parts:\n";
    for (const SizeNode* node : largest)
        out += padLeft(formatBytes(node->bytes), 10) + padLeft(std::to_string(node->bytes), 12) + " "
            + percent(node->bytes, tree.fileSize) + "  " + shortName(node->name) + " ("
            + std::string(sizeKindName(node->kind)) + ")  " + rangeText(*node) + "\n";
    out += "\n" + groupsText("By kind", sizeByKind(tree), tree.fileSize);
    const auto backends = sizeByBackend(tree);
    if (backends.size() > 1)
        out += "\n" + groupsText("By backend (delegate blobs and the named data they use)", backends, tree.fileSize);
    return out;
}

} // namespace

int runSize(const Arguments& args)
{
    const std::string format = args.value("format", "text");
    if (format != "text" && format != "json" && format != "csv") {
        std::cerr << "etscope size: unknown format '" << format << "' (text, json or csv) (see etscope --help)\n";
        return ExitUsage;
    }
    int exitCode = ExitOk;
    const auto document = openForCommand("size", args, exitCode);
    if (!document)
        return exitCode;
    auto breakdown = sizeBreakdown(*document);
    if (!breakdown) {
        std::cerr << "etscope size: " << breakdown.error().message() << "\n";
        return breakdown.error().code == Error::Code::Usage ? ExitUsage : ExitInput;
    }
    for (const Warning& warning : document->warnings)
        std::cerr << "etscope size: warning: " << warning.message << "\n";
    std::vector<const SizeTree*> trees { &breakdown->main };
    for (const SizeTree& tree : breakdown->externalData)
        trees.push_back(&tree);
    for (const SizeTree* tree : trees)
        for (const Warning& warning : tree->warnings)
            std::cerr << "etscope size: warning: " << tree->path << ": " << warning.message << "\n";

    if (format == "csv")
        return emitReport("size", args, renderTable(sizeLeavesTable(*breakdown), TableFormat::Csv));
    if (format == "json") {
        return emitReport("size", args, jsonText(sizeBreakdownJson(*breakdown), 2) + "\n");
    }
    std::string text = treeText(breakdown->main);
    for (const SizeTree& tree : breakdown->externalData)
        text += "\nExternal data " + treeText(tree);
    return emitReport("size", args, text);
}

} // namespace etscope::app
