// SPDX-License-Identifier: MIT
// What each operation of a program costs (issue 34): MACs, other arithmetic, bytes read and
// written, parameter bytes and arithmetic intensity of every node — top-level kernels and the
// nodes inside decoded delegates — with totals per delegate, backend, method, operator kind and
// for the CPU part; for Ethos-U, per NPU kick and per operator (kicks grouped), with a cycle
// ESTIMATE. The rules are in costrules.h (one per kind of arithmetic), the NPU's in ethosucost.h.
#pragma once

#include "core/cost/ethosucost.h"
#include "core/document/document.h"
#include "core/graph/graph.h"
#include "core/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::vendor {
struct EthosUStream;
}

namespace etscope::core::cost {

enum class CostStatus : std::uint8_t {
    Counted, ///< a rule applied: macs, ops (and bytes, where known) are its figures
    NoRule, ///< ETScope has no rule for this operator: nothing is counted (never 0)
    NoShape, ///< a rule exists but the shapes or parameters it needs are missing (reason says which)
};

std::string_view costStatusName(CostStatus status); ///< "counted", "no rule", "no shape"

/// The cost of one operator node.
struct NodeCost {
    std::string method;
    int delegate = -1; ///< index in the method's delegate table; -1 at the top level (the CPU)
    std::string backend; ///< the delegate's backend id; empty at the top level
    std::uint32_t node = 0; ///< NodeId index in its graph (the method graph, or the delegate's inner graph)
    std::string label;
    std::string opType;
    std::string_view kind; ///< a literal: "convolution", "matmul", "elementwise", …; empty when there is no rule
    CostStatus status = CostStatus::NoRule;
    std::string reason; ///< NoRule / NoShape: why; Counted: notes (e.g. "shapes are upper bounds")
    std::string formula;
    std::uint64_t macs = 0; ///< multiply-accumulates (Counted only)
    std::uint64_t ops = 0; ///< other arithmetic, per element (Counted only)
    std::optional<std::uint64_t> bytesRead; ///< activations by dtype, weights and scales
    std::optional<std::uint64_t> bytesWritten;
    std::uint64_t parameterBytes = 0; ///< stored constants read (weights, biases, scales)
    // Ethos-U kicks only:
    std::optional<std::uint64_t> streamOffset; ///< of the kick's command in the command stream
    int npuOperator = -1; ///< index of its group in CostReport::npuOperators
    std::optional<NpuEstimate> estimate; ///< cycles: an ESTIMATE (ethosucost.h), never a measurement
    /// Figures read from vendor logs (Vela per-layer rows, the runner's PMU report) joined to
    /// this node, shown beside ETScope's own: filled by the joins of core/vendorlogs, empty here.
    std::vector<Attribute> vendor;

    /// MACs (and ops) per byte moved; nullopt without bytes or arithmetic.
    std::optional<double> intensity() const;
};

/// Sums over a set of nodes.
struct CostTotals {
    std::string name; ///< the group: "forward", "XnnpackBackend", "convolution", "CPU"
    std::size_t nodes = 0; ///< operator nodes in the group
    std::size_t counted = 0;
    std::size_t noRule = 0;
    std::size_t noShape = 0;
    std::uint64_t macs = 0;
    std::uint64_t ops = 0;
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
    std::uint64_t parameterBytes = 0;
    std::optional<std::uint64_t> estimatedCycles; ///< Ethos-U kicks only: the sum of their estimates

    void add(const NodeCost& node);
};

/// One operator as Vela split it: consecutive kicks grouped (ethosucost.h, groupKicks).
struct NpuOperatorCost {
    std::string method;
    int delegate = -1;
    int index = 0; ///< within the delegate
    std::string label; ///< of its first kernel kick
    std::vector<std::uint32_t> nodes; ///< the kicks' nodes in the inner graph
    CostTotals totals;
};

/// One delegate: its totals and, for Ethos-U, what the estimate was made for.
struct DelegateCost {
    std::string method;
    int delegate = 0;
    std::string backend;
    std::string format; ///< DelegateInfo::format
    std::string note; ///< why nothing inside is counted ("not decoded: …"), if so
    CostTotals totals;
    std::optional<NpuSetup> npu;
    std::vector<Attribute> vendor; ///< vendor summaries joined to this delegate (core/vendorlogs)
    /// Ethos-U: the command stream as counted here, decoded once and read again by the vendor-log
    /// joins (costvendor.h) instead of decoding it a second time; null for other formats.
    std::shared_ptr<const vendor::EthosUStream> stream;
};

struct CostReport {
    std::string path;
    std::vector<NodeCost> nodes; ///< operator nodes, in method, graph and node order
    std::vector<DelegateCost> delegates;
    std::vector<NpuOperatorCost> npuOperators;
    std::vector<CostTotals> perMethod;
    std::vector<CostTotals> perBackend; ///< "CPU" first, then the backends by name
    std::vector<CostTotals> perKind; ///< by operator kind; "(no rule)" collects the rest
    CostTotals cpu; ///< the top-level (non-delegated) kernels
    CostTotals total;
    std::vector<std::string> vendorSources; ///< logs whose figures were joined (core/vendorlogs)
    std::vector<Warning> warnings;
};

struct CostOptions {
    std::string method; ///< only this method; empty: every method
};

/// Counts every operator node of `document`'s methods (inner graphs decoded where needed).
/// Fails only when the document holds no program or names no such method.
Result<CostReport> computeCost(const Document& document, const CostOptions& options = {});

} // namespace etscope::core::cost
