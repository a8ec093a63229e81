// SPDX-License-Identifier: MIT
// What makes a file this big: a .pte, .bpte or .ptd as a tree of parts whose leaves partition
// its bytes (sizebreakdown.h). The parts and their settling are in sizeparts.cpp, a program's
// region in sizeprogram.cpp.
#include "core/analysis/sizebreakdown.h"
#include "core/analysis/sizeparts.h"

#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

namespace etscope::core {

using namespace sizing;

namespace {

std::string baseName(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

void collectLeaves(const SizeNode& node, std::vector<const SizeNode*>& out)
{
    if (node.isLeaf()) {
        out.push_back(&node);
        return;
    }
    for (const SizeNode& child : node.children)
        collectLeaves(child, out);
}

/// The partition check: leaf ranges sorted must tile [0, file size) with no gap or overlap.
void checkPartition(SizeTree& tree)
{
    std::vector<ByteRange> ranges;
    for (const SizeNode* node : sizeLeaves(tree))
        ranges.insert(ranges.end(), node->ranges.begin(), node->ranges.end());
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::uint64_t cursor = 0;
    for (const ByteRange& range : ranges) {
        if (range.offset != cursor) {
            tree.warnings.push_back({ "size breakdown: the parts do not tile the file at byte " + std::to_string(cursor)
                    + " (next part starts at " + std::to_string(range.offset) + ")",
                cursor });
            return;
        }
        cursor = range.end();
    }
    if (cursor != tree.fileSize || tree.root.bytes != tree.fileSize)
        tree.warnings.push_back({ "size breakdown: the parts sum to " + std::to_string(tree.root.bytes)
                + " bytes, the file has " + std::to_string(tree.fileSize),
            std::nullopt });
}

SizeTree finish(std::string path, std::string format, std::uint64_t fileSize, Part root)
{
    SizeTree tree;
    tree.path = std::move(path);
    tree.format = std::move(format);
    tree.fileSize = fileSize;
    tree.root = settle(root, { { 0, fileSize } }, tree.warnings);
    tree.root.span = { 0, fileSize };
    checkPartition(tree);
    return tree;
}

} // namespace

std::string_view sizeKindName(SizeKind kind)
{
    switch (kind) {
    case SizeKind::File:
        return "file";
    case SizeKind::Group:
        return "group";
    case SizeKind::Header:
        return "header";
    case SizeKind::ProgramTables:
        return "program_tables";
    case SizeKind::BundledTables:
        return "bundled_tables";
    case SizeKind::BundledTestData:
        return "bundled_test_data";
    case SizeKind::InlineDelegate:
        return "inline_delegate";
    case SizeKind::DelegateSegment:
        return "delegate_segment";
    case SizeKind::Constant:
        return "constant";
    case SizeKind::MutableData:
        return "mutable_data";
    case SizeKind::NamedData:
        return "named_data";
    case SizeKind::UnreferencedSegment:
        return "unreferenced_segment";
    case SizeKind::Padding:
        return "padding";
    case SizeKind::Trailing:
        return "trailing";
    }
    return "unknown";
}

SizeTree programSizeTree(const Program& program, const BundledProgram* bundled)
{
    std::vector<Warning> warnings;
    const std::uint64_t fileSize = program.file->size();
    Part root
        = group(baseName(program.path()), SizeKind::File, { { 0, fileSize } }, { "padding", SizeKind::Padding, true });
    if (!bundled) {
        root.parts = programParts(program, warnings);
        SizeTree tree = finish(program.path(), "pte", fileSize, std::move(root));
        tree.warnings.insert(tree.warnings.begin(), warnings.begin(), warnings.end());
        return tree;
    }

    Part inner
        = group("program (embedded .pte)", SizeKind::Group, { program.region }, { "padding", SizeKind::Padding, true });
    inner.parts = programParts(program, warnings);
    inner.node.detail = "the complete .pte at byte " + std::to_string(program.region.offset);

    std::vector<ByteRange> outside;
    if (program.region.offset > 0)
        outside.push_back({ 0, program.region.offset });
    if (program.region.end() < fileSize)
        outside.push_back({ program.region.end(), fileSize - program.region.end() });
    Part wrapper
        = group("bundled wrapper", SizeKind::Group, outside, { "bundled tables", SizeKind::BundledTables, false });
    wrapper.node.detail = plural(bundled->suites.size(), "test suite");
    for (const BundledTestSuite& suite : bundled->suites) {
        for (const bool outputs : { false, true }) {
            Part data = leaf("'" + suite.methodName + "' " + (outputs ? "expected outputs" : "test inputs"),
                SizeKind::BundledTestData, {});
            for (std::size_t c = 0; c < suite.cases.size(); ++c) {
                const auto& values = outputs ? suite.cases[c].expectedOutputs : suite.cases[c].inputs;
                bool any = false;
                for (const BundledValue& value : values)
                    if (value.kind == BundledValue::Kind::Tensor && value.data.size > 0) {
                        data.declared.push_back(value.data);
                        any = true;
                    }
                if (any) {
                    SizeRef ref;
                    ref.kind = SizeRef::Kind::TestCase;
                    ref.method = suite.methodName;
                    ref.testCase = static_cast<std::int32_t>(c);
                    data.node.refs.push_back(std::move(ref));
                }
            }
            data.node.detail = plural(suite.cases.size(), "test case") + ", tensor bytes";
            if (!data.declared.empty())
                wrapper.parts.push_back(std::move(data));
        }
    }
    root.parts.push_back(std::move(inner));
    root.parts.push_back(std::move(wrapper));
    SizeTree tree = finish(program.path(), "bpte", fileSize, std::move(root));
    tree.warnings.insert(tree.warnings.begin(), warnings.begin(), warnings.end());
    return tree;
}

SizeTree externalDataSizeTree(const ExternalData& data, const Program* program)
{
    std::optional<KeyFinder> finder;
    std::map<std::string, std::vector<StoredTensor>> externals;
    if (program) {
        std::vector<const NamedDataEntry*> entries;
        for (const NamedDataEntry& entry : data.entries)
            entries.push_back(&entry);
        finder.emplace(*program, entries);
        externals = externalTensors(*program);
    }
    const KeyFinder* keys = finder ? &*finder : nullptr;
    const std::uint64_t fileSize = data.file->size();
    const FlatTensorHeader& header = data.header;
    Part root
        = group(baseName(data.path()), SizeKind::File, { { 0, fileSize } }, { "padding", SizeKind::Padding, true });
    const std::uint64_t headerEnd = 8 + static_cast<std::uint64_t>(header.length);
    root.parts.push_back(leaf("file header", SizeKind::Header, { { 0, headerEnd } },
        "root offset, FT01, FH01 header (" + std::to_string(header.length) + " bytes)"));
    if (header.flatbufferOffset > headerEnd)
        root.parts.push_back(
            leaf("header padding", SizeKind::Padding, { { headerEnd, header.flatbufferOffset - headerEnd } }));
    root.parts.push_back(
        leaf("tables (FlatBuffers)", SizeKind::ProgramTables, { { header.flatbufferOffset, header.flatbufferSize } },
            std::string(data.layoutName()) + " layout, " + std::to_string(data.entries.size()) + " entries"));

    std::map<std::uint32_t, std::vector<const NamedDataEntry*>> bySegment;
    for (const NamedDataEntry& entry : data.entries)
        bySegment[entry.segmentIndex].push_back(&entry);
    const auto entryText = [](const NamedDataEntry& entry) {
        if (!entry.layout)
            return std::string("blob");
        return scalarTypeName(entry.layout->scalarType) + " " + formatShape(entry.layout->sizes);
    };
    for (std::size_t i = 0; i < data.segments.size(); ++i) {
        const ByteRange& segment = data.segments[i];
        if (segment.size == 0)
            continue;
        const std::string where = "segment " + std::to_string(i);
        const auto found = bySegment.find(static_cast<std::uint32_t>(i));
        Part part;
        if (found == bySegment.end()) {
            part = leaf(
                "unreferenced segment", SizeKind::UnreferencedSegment, { segment }, where + ": no entry names it");
        } else if (std::all_of(found->second.begin(), found->second.end(), [&](const NamedDataEntry* e) {
                       return e->data.offset == segment.offset && e->data.size == segment.size;
                   })) {
            const NamedDataEntry& first = *found->second.front();
            part = leaf("'" + first.key + "'", SizeKind::NamedData, { segment },
                entryText(first) + ", " + where
                    + (found->second.size() > 1 ? ", shared by " + std::to_string(found->second.size()) + " keys"
                                                : ""));
            attributeNamedData(part.node, found->second, keys, externals);
        } else {
            // The first layout places several tensors in one segment at their own offsets.
            part = group(where, SizeKind::NamedData, { segment }, { "padding", SizeKind::Padding, false });
            part.node.detail = plural(found->second.size(), "tensor");
            for (const NamedDataEntry* entry : found->second) {
                Part tensor = leaf("'" + entry->key + "'", SizeKind::NamedData, { entry->data }, entryText(*entry));
                attributeNamedData(tensor.node, { entry }, keys, externals);
                tensor.node.segment = static_cast<std::int32_t>(i);
                part.parts.push_back(std::move(tensor));
            }
        }
        part.node.segment = static_cast<std::int32_t>(i);
        root.parts.push_back(std::move(part));
    }
    return finish(data.path(), "ptd", fileSize, std::move(root));
}

Result<SizeBreakdown> sizeBreakdown(const Document& document)
{
    SizeBreakdown breakdown;
    if (document.program) {
        breakdown.main = programSizeTree(*document.program, document.bundled ? &*document.bundled : nullptr);
        for (const ExternalData& data : document.externalData)
            breakdown.externalData.push_back(externalDataSizeTree(data, &*document.program));
        return breakdown;
    }
    if (document.kind == FileKind::ExternalData && !document.externalData.empty()) {
        breakdown.main = externalDataSizeTree(document.externalData.front());
        return breakdown;
    }
    return makeError(Error::Code::Usage, document.path,
        "a size breakdown needs a program (.pte, .bpte) or external data (.ptd); this is "
            + std::string(fileKindName(document.kind)));
}

std::vector<const SizeNode*> sizeLeaves(const SizeTree& tree)
{
    std::vector<const SizeNode*> leaves;
    collectLeaves(tree.root, leaves);
    std::stable_sort(leaves.begin(), leaves.end(),
        [](const SizeNode* a, const SizeNode* b) { return a->span.offset < b->span.offset; });
    return leaves;
}

std::vector<SizeGroup> sizeByKind(const SizeTree& tree)
{
    std::map<SizeKind, SizeGroup> groups;
    for (const SizeNode* node : sizeLeaves(tree)) {
        SizeGroup& group = groups[node->kind];
        group.name = std::string(sizeKindName(node->kind));
        group.kind = node->kind;
        group.bytes += node->bytes;
        ++group.parts;
    }
    std::vector<SizeGroup> out;
    for (auto& [kind, group] : groups)
        if (group.bytes > 0)
            out.push_back(group);
    std::stable_sort(out.begin(), out.end(), [](const SizeGroup& a, const SizeGroup& b) { return a.bytes > b.bytes; });
    return out;
}

std::vector<SizeGroup> sizeByBackend(const SizeTree& tree)
{
    std::map<std::string, SizeGroup> groups;
    SizeGroup rest { "(not delegated)", SizeKind::Group, 0, 0 };
    for (const SizeNode* node : sizeLeaves(tree)) {
        if (!node->backend.empty()) {
            SizeGroup& group = groups[node->backend];
            group.name = node->backend;
            group.kind = node->kind;
            group.bytes += node->bytes;
            ++group.parts;
        } else {
            rest.bytes += node->bytes;
            ++rest.parts;
        }
    }
    std::vector<SizeGroup> out;
    out.reserve(groups.size());
    for (auto& [name, group] : groups)
        out.push_back(group);
    std::stable_sort(out.begin(), out.end(), [](const SizeGroup& a, const SizeGroup& b) { return a.bytes > b.bytes; });
    out.push_back(rest);
    return out;
}

} // namespace etscope::core
