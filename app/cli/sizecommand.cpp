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

std::string refText(const SizeRef& ref)
{
    switch (ref.kind) {
    case SizeRef::Kind::Delegate:
        return ref.method + " delegate #" + std::to_string(ref.delegate.value);
    case SizeRef::Kind::Value:
        return ref.method + " value " + std::to_string(ref.value.value);
    case SizeRef::Kind::NamedData:
        return "key " + ref.key;
    case SizeRef::Kind::TestCase:
        return ref.method + " test case " + std::to_string(ref.testCase);
    }
    return {};
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

nlohmann::json nodeJson(const SizeNode& node)
{
    nlohmann::json json = nlohmann::json::object();
    json["name"] = node.name;
    json["kind"] = std::string(sizeKindName(node.kind));
    json["bytes"] = node.bytes;
    json["offset"] = node.span.offset;
    json["end"] = node.span.end();
    if (!node.detail.empty())
        json["detail"] = node.detail;
    if (!node.backend.empty())
        json["backend"] = node.backend;
    if (node.segment >= 0)
        json["segment"] = node.segment;
    if (!node.refs.empty()) {
        nlohmann::json refs = nlohmann::json::array();
        for (const SizeRef& ref : node.refs) {
            nlohmann::json item = nlohmann::json::object();
            switch (ref.kind) {
            case SizeRef::Kind::Delegate:
                item = { { "kind", "delegate" }, { "method", ref.method }, { "delegate", ref.delegate.value } };
                break;
            case SizeRef::Kind::Value:
                item = { { "kind", "value" }, { "method", ref.method }, { "value", ref.value.value } };
                break;
            case SizeRef::Kind::NamedData:
                item = { { "kind", "named_data" }, { "key", ref.key } };
                break;
            case SizeRef::Kind::TestCase:
                item = { { "kind", "test_case" }, { "method", ref.method }, { "test_case", ref.testCase } };
                break;
            }
            refs.push_back(std::move(item));
        }
        json["refs"] = std::move(refs);
    }
    if (node.isLeaf()) {
        nlohmann::json ranges = nlohmann::json::array();
        for (const ByteRange& range : node.ranges)
            ranges.push_back({ { "offset", range.offset }, { "size", range.size } });
        json["ranges"] = std::move(ranges);
    } else {
        nlohmann::json children = nlohmann::json::array();
        for (const SizeNode& child : node.children)
            children.push_back(nodeJson(child));
        json["children"] = std::move(children);
    }
    return json;
}

nlohmann::json groupsJson(const std::vector<SizeGroup>& groups, std::uint64_t fileSize)
{
    nlohmann::json json = nlohmann::json::array();
    for (const SizeGroup& group : groups)
        json.push_back({ { "name", group.name }, { "bytes", group.bytes }, { "parts", group.parts },
            { "share", fileSize ? static_cast<double>(group.bytes) / static_cast<double>(fileSize) : 0.0 } });
    return json;
}

nlohmann::json treeJson(const SizeTree& tree)
{
    nlohmann::json warnings = nlohmann::json::array();
    for (const Warning& warning : tree.warnings)
        warnings.push_back(warning.message);
    return { { "file", tree.path }, { "format", tree.format }, { "file_size", tree.fileSize },
        { "parts", sizeLeaves(tree).size() }, { "tree", nodeJson(tree.root) },
        { "by_kind", groupsJson(sizeByKind(tree), tree.fileSize) },
        { "by_backend", groupsJson(sizeByBackend(tree), tree.fileSize) }, { "warnings", std::move(warnings) } };
}

void appendLeafRows(Table& table, const SizeTree& tree, const SizeNode& node, const std::string& parent)
{
    const std::string path = parent.empty() ? node.name : parent + " / " + node.name;
    if (!node.isLeaf()) {
        for (const SizeNode& child : node.children)
            appendLeafRows(table, tree, child, &node == &tree.root ? std::string() : path);
        return;
    }
    std::string refs;
    for (const SizeRef& ref : node.refs)
        refs += (refs.empty() ? "" : "; ") + refText(ref);
    for (const ByteRange& range : node.ranges)
        table.rows.push_back({ tree.path, static_cast<long long>(range.offset), static_cast<long long>(range.size),
            std::string(sizeKindName(node.kind)), path, node.backend,
            node.segment >= 0 ? TableCell(static_cast<long long>(node.segment)) : TableCell(std::string()), refs,
            node.detail });
}

Table leavesTable(const SizeBreakdown& breakdown)
{
    Table table;
    table.columns = { "file", "offset", "bytes", "kind", "part", "backend", "segment", "refs", "detail" };
    std::vector<const SizeTree*> trees { &breakdown.main };
    for (const SizeTree& tree : breakdown.externalData)
        trees.push_back(&tree);
    for (const SizeTree* tree : trees) {
        const std::size_t first = table.rows.size();
        appendLeafRows(table, *tree, tree->root, std::string());
        std::stable_sort(table.rows.begin() + static_cast<std::ptrdiff_t>(first), table.rows.end(),
            [](const auto& a, const auto& b) { return std::get<long long>(a[1]) < std::get<long long>(b[1]); });
    }
    return table;
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
        return emit("size", args, renderTable(leavesTable(*breakdown), TableFormat::Csv));
    if (format == "json") {
        nlohmann::json json = treeJson(breakdown->main);
        nlohmann::json external = nlohmann::json::array();
        for (const SizeTree& tree : breakdown->externalData)
            external.push_back(treeJson(tree));
        json["external_data"] = std::move(external);
        return emit("size", args, jsonText(json, 2) + "\n");
    }
    std::string text = treeText(breakdown->main);
    for (const SizeTree& tree : breakdown->externalData)
        text += "\nExternal data " + treeText(tree);
    return emit("size", args, text);
}

} // namespace etscope::app
