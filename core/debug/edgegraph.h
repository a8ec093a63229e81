// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etrecord.h"
#include "core/graph/graph.h"

#include <memory>
#include <string>
#include <vector>

namespace etscope::core {

/// "aten.convolution.default" for "executorch.exir.dialects.edge.ops.aten.convolution.default"
/// (and torch.ops.… / backend ops); "getitem" for "_operator.getitem"; other targets as stored.
std::string shortEdgeTarget(const std::string& target);

/// The data-flow graph of a serialized program (facts sheet §5.2): placeholders become inputs
/// (user inputs) or constants (parameters, buffers, constants, named by their FQN), call_function
/// nodes operators labelled by their short target with get_delegation_info's op_type as their
/// operator-table key, and the graph outputs outputs; edges follow tensor names and carry dtype
/// and shape. An `executorch_call_delegate` node becomes a delegate node of its lowered module's
/// backend that owns the module's original graph (to `maxDepth` levels), its user inputs and
/// outputs numbered by argument position so it expands in place like a decoded payload. Nodes
/// keep their FX name, target, debug handle, stack trace and module stack as attributes.
/// Tensors read but produced by no node become view nodes (marked inferred).
std::shared_ptr<const Graph> buildEdgeGraph(const EdgeProgram& program, const std::string& name, int maxDepth = 8);

/// A graph of an ETRecord, ready to show: the edge program of each method, then the other
/// graphs (the ATen `exported_program`, graph-map graphs such as `edge_after_transform/forward`).
struct ETRecordGraphView {
    std::string name; ///< "forward (edge)", "exported_program/forward (aten)", …
    std::string method;
    std::string entry; ///< archive entry
    std::shared_ptr<const EdgeProgram> program;
    std::shared_ptr<const Graph> graph;
};
std::vector<ETRecordGraphView> etrecordGraphViews(const ETRecord& record);

/// The method whose edge program a view name stands for ("forward (edge)" → "forward"); empty
/// for the record's other graphs.
std::string etrecordEdgeMethod(const std::string& viewName);

/// The view `method` selects: an exact display name or entry name, else the edge program of
/// that method (`forward` when empty), else the first graph for that method; nullptr when none.
const ETRecordGraphView* selectETRecordGraph(const std::vector<ETRecordGraphView>& views, const std::string& method);

} // namespace etscope::core
