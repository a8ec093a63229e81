// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace etscope::core {

/// What a rule checks on a node (rules.cpp reads the node's arguments from the program).
enum class RuleCheck : std::uint8_t {
    Covered, ///< the backend's partitioner takes this operator; no constraint ETScope checks here
    NotSupported, ///< the backend's partitioner names this operator as not supported
    ListLengthAtMost, ///< `arg` (an int list, e.g. kernel_size) has at most `limit` items
    ListItemsAtMost, ///< every item of the int list `arg` is at most `limit` (stride <= 3)
    RankAtMost, ///< the tensor `arg` ("" = the first tensor argument) has at most `limit` dimensions
    RankAtLeast, ///< the tensor `arg` has at least `limit` dimensions
    DtypeIn, ///< the tensor `arg` ("*" = every tensor argument, out included) has one of `values` (ScalarType names,
             ///< comma-separated)
    ConstantTensor, ///< the tensor `arg` is stored in the program (a constant), not computed at run time
    StaticShape, ///< no tensor argument has a dynamic shape
    SameDtype, ///< the tensors `arg` and `values` (an argument name) have the same dtype
    ProductOfDimsAtMost, ///< the product of the dimensions of the tensor `arg` is at most `limit`
    IntArgIn, ///< the int `arg` is one of `values` (comma-separated)
};

/// One rule of a backend's partitioner, as data: which operator, which constraint, for which
/// target, and where upstream says so. Rules with an empty `target` hold for every target of
/// the backend; "Ethos-U55", "Ethos-U85", "VGF" name one.
struct Rule {
    std::string_view backend; ///< backend id: "XnnpackBackend", "EthosUBackend", "VgfBackend", "QnnBackend"
    std::string_view target; ///< "" for all, else the target the rule applies to
    std::string_view op; ///< operator key (operatorKey): "aten::avg_pool3d"
    RuleCheck check = RuleCheck::Covered;
    std::string_view arg; ///< the argument the check reads (schema name), where it reads one
    std::int64_t limit = 0;
    std::string_view values; ///< DtypeIn / IntArgIn / SameDtype: the allowed values
    std::string_view constraint; ///< the constraint in words ("Ethos-U pooling is 2-D only")
    std::string_view source; ///< "pytorch/executorch backends/arm/…py @ cff6f4dd"
    /// Covered rows: the first ExecuTorch release whose partitioner takes the operator ("v1.3.0"),
    /// where older exports had no rule for it (the exporter's release is not in a .pte).
    std::string_view since = {};
};

/// A backend ETScope has rules for: its id, a title, and the upstream list of the operators its
/// partitioner takes — an operator with no rule row is "not covered" on the strength of that list.
struct BackendRules {
    std::string_view backend;
    std::string_view title;
    std::string_view operatorListSource;
    /// Operators the list holds that have no rule row of their own (operator keys).
    std::span<const std::string_view> covered;
    /// What no static rule can tell for this backend, said with every "constraints hold" answer.
    std::string_view note = {};
};

/// Every rule ETScope knows (rules.cpp), grouped by backend.
std::span<const Rule> partitionRules();
/// The backends that have rules.
std::span<const BackendRules> ruleBackends();
/// The entry of `backend`, or nullptr.
const BackendRules* findRuleBackend(std::string_view backend);

} // namespace etscope::core
