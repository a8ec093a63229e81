// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/document.h"
#include "core/pte/bundledprogram.h"
#include "core/pte/externaldata.h"
#include "core/pte/program.h"
#include "core/util/ids.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

struct Table;

/// What a part of a file is. Leaves are summed by kind in the "by kind" view; groups carry the
/// kind of what they hold (a constant segment split into its tensors is Constant).
enum class SizeKind {
    File, ///< the root of one file
    Group, ///< a neutral container (the program inside a .bpte, the bundled wrapper)
    Header, ///< FlatBuffers root offset + identifier, and the eh00 / FH01 header after it
    ProgramTables, ///< FlatBuffers tables, vtables, strings and vectors of the program (or .ptd)
    BundledTables, ///< the bundled wrapper's own FlatBuffers tables
    BundledTestData, ///< a bundled program's test inputs and expected outputs
    InlineDelegate, ///< a delegate blob inside the FlatBuffer (backend_delegate_data)
    DelegateSegment, ///< a delegate blob in its own segment
    Constant, ///< constant tensor bytes (constant segment or deprecated constant_buffer)
    MutableData, ///< initial values of memory-planned tensors (mutable-data segment)
    NamedData, ///< a named-data blob (in the .pte, or an entry of a .ptd)
    UnreferencedSegment, ///< a segment (or a sub-segment entry) nothing refers to
    Padding, ///< alignment gaps between parts
    Trailing, ///< bytes after the last part
};

/// "file", "group", "header", "program_tables", "bundled_tables", "bundled_test_data",
/// "inline_delegate", "delegate_segment", "constant", "mutable_data", "named_data",
/// "unreferenced_segment", "padding", "trailing".
std::string_view sizeKindName(SizeKind kind);

/// What a part belongs to, so a view can jump to it: a delegate (method + delegate index), a
/// tensor value (method + value index), a named-data key, or a bundled test case.
struct SizeRef {
    enum class Kind { Delegate, Value, NamedData, TestCase };
    Kind kind = Kind::Value;
    std::string method; ///< Delegate, Value, TestCase (the suite's method)
    DelegateIndex delegate; ///< Delegate
    ValueIndex value; ///< Value
    std::string key; ///< NamedData
    std::int32_t testCase = -1; ///< TestCase
};

/// One part of a file. The leaves of a tree partition the file exactly: every byte belongs to
/// exactly one leaf range.
struct SizeNode {
    std::string name; ///< "constant segment (segment 0)", "XnnpackBackend delegate", "program tables"
    SizeKind kind = SizeKind::Group;
    std::uint64_t bytes = 0; ///< leaf: sum of its ranges; group: sum of its children
    /// Leaves: absolute byte ranges in file order — one, except for filler leaves (program
    /// tables, padding) that collect every gap of their parent. Empty for groups.
    std::vector<ByteRange> ranges;
    ByteRange span; ///< first to last byte covered (groups too); {0,0} when empty
    std::string detail; ///< "FLOAT [64, 128]", "forward #0, #1", "3 keys share this segment"
    /// The backend whose bytes these are (the "by backend" view): delegate blobs, and named data
    /// a delegate's payload names by key.
    std::string backend;
    std::int32_t segment = -1; ///< index into the program's (or .ptd's) segments; -1 when none
    std::vector<SizeRef> refs;
    std::vector<SizeNode> children;

    bool isLeaf() const { return children.empty(); }
};

/// The breakdown of one file: `root.bytes == fileSize` when the leaves partition it (always, for
/// files the readers accepted; a mismatch is reported in `warnings`).
struct SizeTree {
    std::string path;
    std::string format; ///< "pte", "bpte", "ptd"
    std::uint64_t fileSize = 0;
    SizeNode root;
    std::vector<Warning> warnings;
};

/// A program's tree, and one tree per attached .ptd (each summing to its own file size).
struct SizeBreakdown {
    SizeTree main; ///< the .pte / .bpte, or the .ptd opened on its own
    std::vector<SizeTree> externalData;
};

/// One row of a grouped view.
struct SizeGroup {
    std::string name; ///< kind name, or backend id
    SizeKind kind = SizeKind::Group;
    std::uint64_t bytes = 0;
    std::size_t parts = 0; ///< leaves counted
};

/// Breaks down a verified program (a .pte, or the program of a .bpte when `bundled` is given —
/// its wrapper becomes its own part). Never fails: overlaps and parts outside the file (only in
/// damaged files) are clipped so the leaves still partition the file, with a warning.
SizeTree programSizeTree(const Program& program, const BundledProgram* bundled = nullptr);

/// Breaks down a verified .ptd file: header, tables, one leaf per entry, padding. With the
/// `program` it belongs to, entries are linked to the delegates and tensors that use them.
SizeTree externalDataSizeTree(const ExternalData& data, const Program* program = nullptr);

/// The breakdown of an opened document: .pte / .bpte (plus its attached .ptd files) or a .ptd.
/// Fails (Error::Code::Usage) for ETDumps and ETRecords, which have no size breakdown here.
Result<SizeBreakdown> sizeBreakdown(const Document& document);

/// Every leaf of `tree`, in file order of its first byte.
std::vector<const SizeNode*> sizeLeaves(const SizeTree& tree);

/// Bytes per leaf kind, largest first (zero-byte kinds left out).
std::vector<SizeGroup> sizeByKind(const SizeTree& tree);

/// Bytes per backend id (delegate blobs, inline or in segments, and the named data their
/// payloads name), largest first; then one row "(not delegated)" with every other byte, so the
/// rows sum to the file size.
std::vector<SizeGroup> sizeByBackend(const SizeTree& tree);

/// "forward delegate #1", "forward value 3", "key <key>", "forward test case 0".
std::string sizeRefText(const SizeRef& ref);

/// One row per byte range of every leaf, in file order per file (the program, then each .ptd):
/// file, offset, bytes, kind, part (the path of names from the root), backend, segment, refs,
/// detail.
Table sizeLeavesTable(const SizeBreakdown& breakdown);

/// One tree: file, format, file_size, parts, tree (name, kind, bytes, offset, end, detail,
/// backend, segment, refs, ranges or children), by_kind, by_backend, warnings.
nlohmann::json sizeTreeJson(const SizeTree& tree);
/// The program's tree with `external_data`: the tree of each .ptd.
nlohmann::json sizeBreakdownJson(const SizeBreakdown& breakdown);

} // namespace etscope::core
