// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "core/pte/externaldata.h"
#include "core/pte/program.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace etscope::core {

/// Everything ETScope knows about one delegate entry of a method: always described, decoded
/// into an inner graph where the backend's format allows.
struct DelegateInfo {
    std::string backendId;
    std::string format; ///< "xnnpack", "vulkan", "coreml", "ethos-u", "vgf", "qnn", "openvino", "mps", "tosa", "opaque"
    std::string summary; ///< one line for tooltips and printouts
    std::vector<Attribute> facts; ///< header facts, compile specs, sizes
    std::shared_ptr<const Graph> innerGraph; ///< null when the payload is not decodable
    std::optional<int> inputCount; ///< from the decoded payload
    std::optional<int> outputCount; ///< from the decoded payload
    std::vector<Warning> warnings; ///< decoding problems; the delegate is still shown
    /// A graph of the same delegate read from a file beside the program, not from its payload:
    /// the TOSA graph Arm's flow writes before Vela compiles it (core/document/sidegraphs.h).
    std::shared_ptr<const Graph> sideGraph;
    std::string sideGraphPath; ///< the file sideGraph was read from
};

/// What a decoder may look at: the payload, the program (named data) and attached .ptd files.
struct DelegateContext {
    const Program& program;
    const DelegateRef& ref;
    std::span<const std::uint8_t> payload;
    std::span<const ExternalData* const> externalData;
    std::string where; ///< "method 'forward', delegate 0" for messages

    /// Size of a named blob found in the program or in an attached .ptd; nullopt when absent.
    std::optional<std::uint64_t> namedDataSize(const std::string& key) const;
    /// Bytes of a named blob (program or attached .ptd); nullopt when absent.
    std::optional<std::span<const std::uint8_t>> namedData(const std::string& key) const;
    /// Adds a warning that names the delegate and, where known, the file offset of `payloadOffset`.
    void warn(DelegateInfo& info, const std::string& reason, std::optional<std::uint64_t> payloadOffset = {}) const;
};

/// Describes (and where possible decodes) one delegate. Never fails: problems become
/// warnings and the delegate is then shown as an opaque, described node.
DelegateInfo describeDelegate(const Program& program, const DelegateRef& ref,
    std::span<const ExternalData* const> externalData, const std::string& where);

/// As describeDelegate, for payload bytes the caller already holds (fixtures, tests, payloads
/// held in named data). Never fails and never reads outside `payload`.
DelegateInfo describePayload(const Program& program, const DelegateRef& ref, std::span<const std::uint8_t> payload,
    std::span<const ExternalData* const> externalData, const std::string& where);

/// Facts every delegate gets whatever its backend: location, size, compile specs, first bytes.
void addCommonFacts(const DelegateContext& context, DelegateInfo& info);

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

} // namespace etscope::core
