// SPDX-License-Identifier: MIT
// The size breakdown as `etscope size` prints it and the app exports it: the leaves table (CSV)
// and the JSON of the trees.
#include "core/analysis/sizebreakdown.h"

#include "core/table/table.h"

#include <algorithm>

namespace etscope::core {

namespace {

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
        refs += (refs.empty() ? "" : "; ") + sizeRefText(ref);
    for (const ByteRange& range : node.ranges)
        table.rows.push_back({ tree.path, static_cast<long long>(range.offset), static_cast<long long>(range.size),
            std::string(sizeKindName(node.kind)), path, node.backend,
            node.segment >= 0 ? TableCell(static_cast<long long>(node.segment)) : TableCell(std::string()), refs,
            node.detail });
}

} // namespace

std::string sizeRefText(const SizeRef& ref)
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

nlohmann::json sizeTreeJson(const SizeTree& tree)
{
    nlohmann::json warnings = nlohmann::json::array();
    for (const Warning& warning : tree.warnings)
        warnings.push_back(warning.message);
    return { { "file", tree.path }, { "format", tree.format }, { "file_size", tree.fileSize },
        { "parts", sizeLeaves(tree).size() }, { "tree", nodeJson(tree.root) },
        { "by_kind", groupsJson(sizeByKind(tree), tree.fileSize) },
        { "by_backend", groupsJson(sizeByBackend(tree), tree.fileSize) }, { "warnings", std::move(warnings) } };
}

nlohmann::json sizeBreakdownJson(const SizeBreakdown& breakdown)
{
    nlohmann::json json = sizeTreeJson(breakdown.main);
    nlohmann::json external = nlohmann::json::array();
    for (const SizeTree& tree : breakdown.externalData)
        external.push_back(sizeTreeJson(tree));
    json["external_data"] = std::move(external);
    return json;
}

Table sizeLeavesTable(const SizeBreakdown& breakdown)
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

} // namespace etscope::core
