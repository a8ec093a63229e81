// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "core/util/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

struct EdgeProgram;

/// One input of a serialized node: the schema argument name and what was passed.
struct EdgeArgument {
    std::string name; ///< schema argument name ("self", "other", "delegate_arg_0", …)
    std::string kind; ///< the Argument union member ("as_tensor", "as_int", "as_string", …)
    std::vector<std::string> tensors; ///< names of the tensors referenced (as_tensor, as_tensors, …)
    std::string text; ///< short display text of non-tensor values
};

/// A lowered module embedded in an `executorch_call_delegate` node (facts sheet §5.3).
struct LoweredModule {
    std::string name; ///< "lowered_module_<k>"
    std::string backendId;
    std::vector<Attribute> compileSpecs; ///< value as text when printable, else hex
    std::uint64_t processedBytes = 0; ///< size of the delegate payload copy
    std::shared_ptr<const EdgeProgram> originalModule; ///< the partition's edge sub-program
};

/// A call_function node of a serialized edge-dialect graph (facts sheet §5.2).
struct EdgeNode {
    std::string name; ///< FX node name ("aten_convolution_default", "getitem_2")
    std::string target; ///< "executorch.exir.dialects.edge.ops.aten.mul.Tensor", …
    std::vector<EdgeArgument> inputs;
    std::vector<std::string> outputs; ///< tensor names the node produces
    std::optional<DebugHandle> debugHandle; ///< AOT debug handle (absent or 0 = unset)
    std::string stackTrace;
    std::string nnModuleStack;
    std::vector<Attribute> metadata; ///< every metadata entry as stored
    std::shared_ptr<const LoweredModule> lowered; ///< executorch_call_delegate nodes

    /// get_delegation_info's op_type: the name minus one trailing "_<digits>".
    std::string opType() const;
    bool isDelegateCall() const;
};

/// What a placeholder of the graph stands for (graph_module.signature.input_specs, §5.2).
struct EdgeInputSpec {
    std::string kind; ///< "user_input", "parameter", "buffer", "tensor_constant", "constant_input", …
    std::string target; ///< the parameter / buffer / constant name ("linear.weight"); empty for user inputs
};

/// A serialized ExportedProgram: its graph's nodes, inputs and outputs.
struct EdgeProgram {
    std::vector<EdgeNode> nodes; ///< call_function nodes in graph order
    std::vector<std::string> inputs; ///< placeholder names
    std::map<std::string, EdgeInputSpec> inputSpecs; ///< placeholder name → what it is, when stored
    std::vector<std::string> outputs; ///< output tensor names
    std::map<std::string, TensorMeta> tensors; ///< tensor_values: dtype name and shape (-1 = symbolic)
    std::string schemaVersion; ///< "major.minor" when stored
    std::vector<Warning> warnings;

    /// Call-function nodes here and inside lowered modules' original modules.
    std::size_t nodeCountRecursive() const;
    std::size_t loweredModuleCount() const;
    /// Nodes carrying `handle`, recursing into lowered modules (graph order, outer first).
    std::vector<const EdgeNode*> nodesWithHandle(DebugHandle handle) const;
};

/// Builds an EdgeProgram from the parsed JSON of a serialized ExportedProgram. Accepts both
/// the compact encoding (one key per union) and the older one that lists every union member
/// with nulls. Lowered modules are parsed recursively up to `maxDepth` levels. Fails
/// (Error::Corrupt, `file` = `where`) only when there is no graph at all; odd nodes become warnings.
Result<EdgeProgram> parseEdgeProgram(const nlohmann::json& root, const std::string& where, int maxDepth = 8);

/// Serializer ScalarType name (facts sheet §5.2 numbering, not §1.5): "FLOAT", "BFLOAT16", …
std::string serializerScalarTypeName(int type);

} // namespace etscope::core
