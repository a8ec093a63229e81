// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "core/pte/externaldata.h"
#include "core/pte/program.h"

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace etscope::core {

/// One fact about the device or OS a delegate was built for (issue 33: "will this build run on
/// my phone or board?"), read from its compile specs or its payload's header. `key` is stable
/// (`etscope info --format json`, `check --device` compare by it), `name` and `value` are shown.
struct TargetFact {
    std::string key; ///< "qnn.soc_model", "qnn.htp_arch", "coreml.min_deployment_target", "ethosu.macs", …
    std::string name; ///< "SoC model"
    std::string value; ///< "SM8650 (57)"
    std::optional<std::int64_t> number; ///< the value as a number where it is one (57, 75, 8388608)
    std::string source; ///< where it was read: "compile spec qnn_compile_spec", "context binary, file offset 187656"
};

/// Everything ETScope knows about one delegate entry of a method: always described, decoded
/// into an inner graph where the backend's format allows.
struct DelegateInfo {
    std::string backendId;
    std::string format; ///< "xnnpack", "vulkan", "coreml", "ethos-u", "vgf", "qnn", "openvino", "mps", "tosa", "mlx",
                        ///< "native_graph", "opaque"
    std::string summary; ///< one line for tooltips and printouts
    std::vector<Attribute> facts; ///< header facts, compile specs, sizes
    std::vector<TargetFact> target; ///< what the delegate was built for (TargetFact), in reading order
    /// The decoded inside; false when the payload is not decodable. Deferred (decoded on first
    /// use, from any thread) when described with `DescribeOptions::deferInnerGraph` by a decoder
    /// that can tell its facts, summary, counts and operator count without building it.
    SubgraphRef innerGraph;
    std::optional<int> inputCount; ///< from the decoded payload
    std::optional<int> outputCount; ///< from the decoded payload
    std::vector<Warning> warnings; ///< decoding problems; the delegate is still shown
    /// A graph of the same delegate read from a file beside the program, not from its payload:
    /// the TOSA graph Arm's flow writes before Vela compiles it (core/document/sidegraphs.h).
    std::shared_ptr<const Graph> sideGraph;
    std::string sideGraphPath; ///< the file sideGraph was read from
};

/// Decoded payload parts shared by the delegates of one opened program: two delegates whose
/// payloads are one segment (QNN's hybrid LLMs store one context binary for their prefill and
/// decode methods) read, verify and decode it once. Keyed by what was decoded and the very bytes
/// (address and length within the mapped file), so it must not outlive the program it was used
/// for. Safe to use from several threads: each value is made once, others wait for it.
class DecodeCache {
public:
    /// The value stored for (`kind`, `bytes`), made by `make` on the first call.
    template <class T, class Make>
    std::shared_ptr<const T> get(std::string_view kind, std::span<const std::uint8_t> bytes, Make&& make)
    {
        Entry& entry = entryFor(kind, bytes);
        // Held while making: a second caller for the same bytes waits for the first's value
        // (one that throws leaves the entry empty for the next caller to try again).
        const std::lock_guard lock(entry.mutex);
        if (!entry.value) {
            entry.value = std::make_shared<const T>(make());
            m_made.fetch_add(1, std::memory_order_relaxed);
        }
        return std::static_pointer_cast<const T>(entry.value);
    }

    /// How many values were made (not found) so far; for tests.
    std::size_t made() const { return m_made.load(std::memory_order_relaxed); }

private:
    struct Entry {
        std::mutex mutex;
        std::shared_ptr<const void> value;
    };
    using Key = std::tuple<std::string, const std::uint8_t*, std::size_t>;

    Entry& entryFor(std::string_view kind, std::span<const std::uint8_t> bytes)
    {
        const std::lock_guard lock(m_mutex);
        auto& entry = m_entries[Key(std::string(kind), bytes.data(), bytes.size())];
        if (!entry)
            entry = std::make_unique<Entry>();
        return *entry;
    }

    std::mutex m_mutex;
    std::map<Key, std::unique_ptr<Entry>> m_entries;
    std::atomic<std::size_t> m_made { 0 };
};

/// What a decoder may look at: the payload, the program (named data) and attached .ptd files.
struct DelegateContext {
    const Program& program;
    const DelegateRef& ref;
    std::span<const std::uint8_t> payload;
    std::span<const ExternalData* const> externalData;
    std::string where; ///< "method 'forward', delegate 0" for messages
    DecodeCache* cache = nullptr; ///< shared decoded parts of this program; null: decode afresh
    /// The caller wants the inner graph later: a decoder that can fill everything else without
    /// building it sets `info.innerGraph = deferredInnerGraph(operators)` instead (the graph is
    /// then made by running it again without this flag, on first use).
    bool deferInnerGraph = false;

    /// Size of a named blob found in the program or in an attached .ptd; nullopt when absent.
    std::optional<std::uint64_t> namedDataSize(const std::string& key) const;
    /// Bytes of a named blob (program or attached .ptd); nullopt when absent.
    std::optional<std::span<const std::uint8_t>> namedData(const std::string& key) const;
    /// Adds a warning that names the delegate and, where known, the file offset of `payloadOffset`.
    void warn(DelegateInfo& info, const std::string& reason, std::optional<std::uint64_t> payloadOffset = {}) const;
    /// The end of a decoder that built an inner graph: its input and output counts and a summary
    /// "HEAD: N units, I inputs, O outputs" go into `info`, the graph's own warnings are copied
    /// with this delegate's name in front, and the graph becomes `info.innerGraph`.
    void adoptInnerGraph(DelegateInfo& info, std::shared_ptr<Graph> graph, const std::string& summaryHead,
        std::uint64_t units, const char* unitSingular, const char* unitPlural, int inputCount, int outputCount) const;
};

/// What a decoder sets as its inner graph when it defers it (`DelegateContext::deferInnerGraph`):
/// `operators` is the operator-node count the graph will have. describeDelegate replaces it with
/// a SubgraphRef that decodes the graph on first use.
SubgraphRef deferredInnerGraph(std::size_t operators);

/// What deferred inner-graph decodes read after the open: the program's mapped file and named
/// data and the attached .ptd files, copied once per opened program (a Program moves with its
/// Document, so a decode run later cannot hold a reference to it), and the program's DecodeCache.
class DeferredDecodeSources {
public:
    DeferredDecodeSources(const Program& program, std::span<const ExternalData* const> externalData);
    const Program& program() const { return m_program; }
    std::span<const ExternalData* const> externalData() const { return m_externalPointers; }
    DecodeCache& cache() { return m_cache; }

private:
    Program m_program; ///< file, region and named data only
    std::vector<ExternalData> m_external;
    std::vector<const ExternalData*> m_externalPointers;
    DecodeCache m_cache;
};

/// Describes (and where possible decodes) one delegate. Never fails: problems become
/// warnings and the delegate is then shown as an opaque, described node.
/// `cache`, when given, shares decoded payload parts with the program's other delegates.
DelegateInfo describeDelegate(const Program& program, const DelegateRef& ref,
    std::span<const ExternalData* const> externalData, const std::string& where, DecodeCache* cache = nullptr);

/// As describeDelegate, deferring inner graphs where the backend's decoder can: the delegate's
/// facts, summary, warnings, input/output counts and inner operator count are those of
/// describeDelegate; `innerGraph` is decoded on first use from `sources` (made once per program
/// from the same program and .ptd files), giving the graph describeDelegate gives, with the
/// warnings found while building it in SubgraphRef::warnings().
DelegateInfo describeDelegateDeferred(const Program& program, const DelegateRef& ref,
    std::span<const ExternalData* const> externalData, const std::string& where,
    const std::shared_ptr<DeferredDecodeSources>& sources);

/// As describeDelegate, for payload bytes the caller already holds (fixtures, tests, payloads
/// held in named data). Never fails and never reads outside `payload`.
DelegateInfo describePayload(const Program& program, const DelegateRef& ref, std::span<const std::uint8_t> payload,
    std::span<const ExternalData* const> externalData, const std::string& where, DecodeCache* cache = nullptr);

/// Facts every delegate gets whatever its backend: location, size, compile specs, first bytes.
void addCommonFacts(const DelegateContext& context, DelegateInfo& info);

/// The first TargetFact of `info` with this key; nullptr when there is none.
const TargetFact* findTarget(const DelegateInfo& info, std::string_view key);

/// Reads the compile specs that name a target (QNN's qnn_compile_spec, Core ML's deployment
/// target, compute units and precision, Arm's target, compile flags and TOSA spec) into
/// `info.target` and `info.facts`, whether the payload decoded or not. A value that cannot be
/// read becomes a warning naming the delegate, the compile spec and its byte offset in the file
/// (targetfacts.cpp).
void addCompileSpecTargets(const DelegateContext& context, DelegateInfo& info);

// Decoders, one per backend family (facts sheet §3). Each returns false when the payload is
// not in its format or cannot be read (the caller then describes it as opaque, keeping the
// decoder's warnings) and fills `info` otherwise. None reads outside the payload.
bool decodeXnnpack(const DelegateContext& context, DelegateInfo& info);
bool decodeVulkan(const DelegateContext& context, DelegateInfo& info);
bool decodeMps(const DelegateContext& context, DelegateInfo& info);
bool decodeCoreMl(const DelegateContext& context, DelegateInfo& info);
bool decodeEthosU(const DelegateContext& context, DelegateInfo& info);
bool decodeVgf(const DelegateContext& context, DelegateInfo& info);
bool decodeQnn(const DelegateContext& context, DelegateInfo& info);
bool decodeOpenvino(const DelegateContext& context, DelegateInfo& info);
bool decodeTosa(const DelegateContext& context, DelegateInfo& info);
bool decodeMlx(const DelegateContext& context, DelegateInfo& info);
bool decodeNativeGraph(const DelegateContext& context, DelegateInfo& info);

} // namespace etscope::core
