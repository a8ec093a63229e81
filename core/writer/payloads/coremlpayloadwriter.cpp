// SPDX-License-Identifier: MIT
#include "core/writer/payloads/coremlpayloadwriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>

namespace etscope::core {

namespace {

using json = nlohmann::json;

struct TreeNode {
    const CoreMlFileSpec* file = nullptr;
    std::map<std::string, std::unique_ptr<TreeNode>> children;
};

std::size_t alignUp(std::size_t n, std::size_t alignment)
{
    return (n + alignment - 1) / alignment * alignment;
}

/// Appends `node` after its children (post-order, as the runtime's flattening does) and
/// returns its index; files get the next aligned region of `data`.
std::size_t flatten(
    const std::string& name, const TreeNode& node, std::size_t alignment, json& nodes, std::vector<std::uint8_t>& data)
{
    json entry = { { "name", name } };
    if (node.file) {
        const std::size_t offset = alignUp(data.size(), alignment);
        data.resize(offset, 0);
        data.insert(data.end(), node.file->content.begin(), node.file->content.end());
        entry["kind"] = 0;
        entry["dataRegion"] = { { "offset", offset }, { "size", node.file->content.size() } };
        entry["children"] = json::object();
    } else {
        json children = json::object();
        for (const auto& [childName, child] : node.children)
            children[childName] = flatten(childName, *child, alignment, nodes, data);
        entry["kind"] = 1;
        entry["dataRegion"] = { { "offset", 0 }, { "size", 0 } };
        entry["children"] = std::move(children);
    }
    nodes.push_back(std::move(entry));
    return nodes.size() - 1;
}

} // namespace

std::vector<std::uint8_t> writeCoreMlPayload(
    const std::vector<CoreMlFileSpec>& files, std::size_t alignment, const std::string& rootName)
{
    alignment = std::max<std::size_t>(alignment, 1);
    TreeNode root;
    for (const CoreMlFileSpec& file : files) {
        TreeNode* at = &root;
        std::size_t start = 0;
        while (true) {
            const std::size_t slash = file.path.find('/', start);
            auto& child = at->children[file.path.substr(start, slash == std::string::npos ? slash : slash - start)];
            if (!child)
                child = std::make_unique<TreeNode>();
            at = child.get();
            if (slash == std::string::npos)
                break;
            start = slash + 1;
        }
        at->file = &file;
    }
    json nodes = json::array();
    std::vector<std::uint8_t> out;
    flatten(rootName, root, alignment, nodes, out);
    out.resize(alignUp(out.size(), alignment), 0);
    std::string table = json { { "nodes", nodes } }.dump();
    std::reverse(table.begin(), table.end());
    out.insert(out.end(), table.begin(), table.end());
    return out;
}

std::vector<std::uint8_t> writeCoreMlReference(const std::string& key, const std::string& functionName)
{
    const std::string text
        = "CMJR" + json { { "version", 1 }, { "key", key }, { "functionName", functionName } }.dump();
    return { text.begin(), text.end() };
}

} // namespace etscope::core
