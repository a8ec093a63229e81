// SPDX-License-Identifier: MIT
#pragma once

#include "core/delegates/delegate.h"
#include "core/graph/graph.h"
#include "core/pte/program.h"

#include <map>
#include <span>

namespace etscope::core {

struct GraphBuildOptions {
    /// Outputs per DelegateCall instruction id, e.g. from ETRecord's
    /// instruction_id_to_num_outs_map. Used when the payload does not say.
    const std::map<int, int>* delegateOutputCounts = nullptr;
};

/// Rebuilds the data-flow graph of one method from its instruction list (facts sheet §1.7–1.8).
/// `delegates` is parallel to `method.delegates` (may be empty: delegates are then opaque).
/// Never fails: inconsistencies become Graph::warnings and inferred edges are marked.
Graph buildMethodGraph(
    const Method& method, std::span<const DelegateInfo> delegates, const GraphBuildOptions& options = {});

/// Outputs of a KernelCall per the practical rule of §1.7: the trailing TensorList's items
/// when they all appear earlier in the args, else the last argument.
std::vector<std::int32_t> kernelOutputs(const Method& method, const Instruction& instruction);

/// One-line description of a value for properties and printouts: "v3: Tensor FLOAT [1, 3]",
/// "Int 4", "IntList [1, 3, 224, 224]" (list items dereferenced).
std::string describeValue(const Method& method, std::int32_t index);

/// A dim order as written and what it means: "[0, 1, 2, 3] (contiguous)", "[0, 2, 3, 1] (channels
/// last)", "[1, 0] (permuted)"; "none stored" for an empty order of a tensor with dimensions.
std::string describeDimOrder(const std::vector<std::uint8_t>& dimOrder, std::size_t rank);

/// The memory plan of a tensor value: "mem_id" (the 1-based arena) and "offset" when planned,
/// else "storage" (constant, mutable, runtime …); then "bytes" and "dim order". Empty for a
/// value that is not a tensor.
std::vector<Attribute> tensorPlan(const Method& method, std::int32_t index);

/// Edge metadata of a value (dtype name and shape for tensors, the value kind otherwise).
TensorMeta valueMeta(const Method& method, std::int32_t index);

} // namespace etscope::core
