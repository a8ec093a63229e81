// SPDX-License-Identifier: MIT
#pragma once

// What changed between two exports of a model (issue 13): methods, delegates per backend, the
// operator occurrence tables side by side, operators that moved into or out of delegates, sizes,
// and a node-by-node matching of each method's graphs that the side-by-side view colours.

#include "core/debug/etrecord.h"
#include "core/document/document.h"
#include "core/stats/operatortable.h"
#include "core/table/table.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// A node of one side: a top-level node of the method graph, or a node inside the decoded inner
/// graph of the delegate node `node` (`inner` set).
struct DiffNodeRef {
    NodeId node;
    std::optional<NodeId> inner;
    bool operator==(const DiffNodeRef& other) const = default;
};

enum class MatchStatus {
    Same, ///< same operator (or input, output, constant) with the same tensor types and shapes
    Changed, ///< matched, but moved into or out of a delegate, or with other types/shapes/payload
    OnlyInA,
    OnlyInB,
    /// Matched by name only: two inner nodes of delegates whose payloads differ, with nothing
    /// else to compare (no tensors on either, as QNN's context-binary ops): the bytes that
    /// changed may be theirs or not (issue 38 item 3). The reason says what was compared.
    Unverified,
};

/// "same", "changed", "only-in-A", "only-in-B", "unverified".
std::string_view matchStatusName(MatchStatus status);

enum class Movement {
    None,
    IntoDelegate, ///< a top-level operator of A is a node of a delegate in B
    OutOfDelegate, ///< a node of a delegate in A is a top-level operator in B
};

struct NodeMatch {
    std::optional<DiffNodeRef> a;
    std::optional<DiffNodeRef> b;
    MatchStatus status = MatchStatus::Same;
    Movement movement = Movement::None;
    std::string reason; ///< why Changed ("moved into XnnpackBackend (XNNFullyConnected)", …)
    std::string labelA, labelB; ///< "#3 aten::add.out", "#0 XnnpackBackend › XNNAdd", "input 0", …
    /// Paired because their AOT debug handles intersect (both ETRecords attached), not by position.
    bool byDebugHandle = false;
};

/// One op type of the two operator occurrence tables side by side.
struct OperatorDiffRow {
    std::string opType;
    int delegatedA = 0;
    int nonDelegatedA = 0;
    int delegatedB = 0;
    int nonDelegatedB = 0;
};

/// Operators of one type that moved: `count` top-level `from` nodes of A became `to` nodes of a
/// `backend` delegate in B (IntoDelegate), or the reverse (OutOfDelegate).
struct MovedOperators {
    Movement movement = Movement::IntoDelegate;
    std::string from; ///< the op type on the side it left
    std::string to; ///< the op type on the side it reached (the backend id when the delegate is not decoded)
    std::string backend;
    int count = 0;
};

struct MethodDiff {
    std::string name;
    bool inA = false;
    bool inB = false;
    std::vector<OperatorDiffRow> operators; ///< sorted by op type
    OperatorTable tableA; ///< empty when the method is missing on that side
    OperatorTable tableB;
    std::vector<MovedOperators> moved; ///< sorted by movement, from, to
    int movedIntoDelegates = 0;
    int movedOutOfDelegates = 0;
    /// Every node of both graphs appears in exactly one match (top level and decoded delegate
    /// insides), except an undecoded delegate, which also appears in each move into or out of it.
    std::vector<NodeMatch> matches;
    /// "aligned" (execution order aligned by longest common subsequence) or "rank" (too long to
    /// align: the k-th node of each operator matched with the k-th of the same operator); with
    /// both ETRecords "debug handles" (every paired instruction paired by its handles), "debug
    /// handles + aligned" or "debug handles + rank" (the rest aligned between the anchors).
    std::string matching;
    int same = 0, changed = 0, onlyInA = 0, onlyInB = 0, unverified = 0; ///< counted over matches
};

/// Delegates of one backend id over the compared methods.
struct BackendDiff {
    std::string backend;
    int countA = 0, countB = 0; ///< DelegateCall entries (BackendDelegate table entries)
    /// Stored payload bytes, each byte counted once: delegates of several methods that share one
    /// segment (an LLM's prefill and decode) count it once.
    std::uint64_t bytesA = 0, bytesB = 0;
    /// With equal payload sizes on both sides, how many stored payload bytes differ (compared in
    /// file order), and where the first one is in A's file; 0 and empty when they are the same.
    std::uint64_t differingBytes = 0;
    std::optional<std::uint64_t> firstDifferenceA;
};

/// One size fact of both files, in bytes (or a count, `isCount`).
struct SizeDiff {
    std::string what; ///< "file", "constant data", "segments", "segment bytes", …
    std::uint64_t a = 0, b = 0;
    bool isCount = false;
};

/// One "built for" fact (DelegateInfo::target, issue 33) that differs between paired delegates
/// of A and B: the k-th delegate of a backend in a method of A against the k-th of that backend
/// in the same method of B. Delegates that share a change (an LLM's prefill and decode over one
/// context binary) give one change listing them all.
struct DeviceFactChange {
    std::string backend; ///< "QnnBackend"
    std::string key; ///< TargetFact::key: "qnn.sdk_version"
    std::string label; ///< the fact as people read it, naming its family: "QNN SDK version", "Ethos-U target"
    std::optional<std::string> a, b; ///< the values; absent when that side does not state the fact
    std::vector<std::string> delegates; ///< where: "kv_forward #0", "prefill_forward #0"

    /// "QNN SDK version 2.45.0 → 2.37.0"; an absent side reads "(not stated)".
    std::string text() const;
};

/// Every decoded fact of paired delegates that differs (issue 38 item 3), for the Compare view's
/// facts table: the "built for" facts (as diffDeviceFacts), the other facts the decoder read
/// (DelegateInfo::facts: graph names, header fields, compile specs; key "fact.NAME") and, when
/// the payloads differ, their sizes ("payload.size") and FNV-1a 64 hashes ("payload.fnv1a64",
/// "0x…"; read only for payloads that differ, each at most once). Paired and merged as
/// diffDeviceFacts pairs them.
std::vector<DeviceFactChange> diffDelegateFacts(
    const Document& a, const Document& b, const std::vector<std::string>& methods);

/// The device-fact changes between the delegates of `methods` (each looked up in both files;
/// a method missing on one side pairs nothing), in method order, then delegate order, then the
/// facts' reading order. Needs no file bytes beyond the opened documents.
std::vector<DeviceFactChange> diffDeviceFacts(
    const Document& a, const Document& b, const std::vector<std::string>& methods);

struct ProgramDiff {
    std::string pathA, pathB;
    std::vector<std::string> methodsOnlyInA, methodsOnlyInB, commonMethods; ///< all methods of the files
    std::vector<BackendDiff> backends; ///< sorted by backend id
    std::vector<SizeDiff> sizes;
    std::vector<DeviceFactChange> deviceFacts; ///< "built for" facts that changed (diffDeviceFacts)
    std::vector<DeviceFactChange> delegateFacts; ///< every delegate fact that changed (diffDelegateFacts)
    std::vector<MethodDiff> methods; ///< the compared methods (one with DiffOptions::method)
    std::vector<std::string> notes; ///< e.g. "method 'x' is only in A"
    bool identicalBytes = false; ///< the two files hold the same bytes

    /// The one-paragraph answer: methods, delegates per backend, moved operators, node counts, file size.
    std::vector<std::string> summaryLines() const;
};

struct DiffOptions {
    std::string method; ///< empty: every method of either file
    /// Also fill ProgramDiff::delegateFacts (diffDelegateFacts: reads the differing payloads
    /// once more to hash them); the Compare view asks for it, `diff` does not.
    bool delegateFacts = false;
    /// Alignment of longer graphs falls back to rank matching above this many cells (n × m).
    std::size_t maxAlignCells = 8'000'000;
    /// The ETRecords of A and B. With both, instructions (and delegate inner nodes, through
    /// delegate_map) whose AOT debug-handle sets intersect are paired first, one to one, the
    /// largest overlap first; execution-order alignment runs only between these anchors. With
    /// one or none, matching ignores them.
    const ETRecord* recordA = nullptr;
    const ETRecord* recordB = nullptr;
};

/// Compares two opened programs (.pte or .bpte). Fails with Error::Usage when a document holds
/// no program, or when `options.method` is in neither file; a method present in one file only
/// is compared against nothing (every node only-in-A or only-in-B) and named in `notes`.
Result<ProgramDiff> diffPrograms(const Document& a, const Document& b, const DiffOptions& options = {});

/// The family an operator belongs to across namings, for matching a top-level operator with the
/// backend node it was lowered to: "aten::addmm.out" and "XNNFullyConnected" are both "linear",
/// "aten::relu.out" and "XNNClamp" "clamp". Unknown names give their bare lower-case base name.
std::string operatorFamily(const std::string& opType);

/// Reports: summary lines first, then tables (text, Markdown) or everything (JSON).
std::string programDiffText(const ProgramDiff& diff, TableFormat format);
nlohmann::ordered_json programDiffJson(const ProgramDiff& diff);

} // namespace etscope::core
