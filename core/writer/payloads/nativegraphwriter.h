// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// One fx node of a native graph fixture. `kind`: 0 call_function, 1 placeholder, 2 output,
/// anything else written as given. Arguments are tensor names: a name alone is a TensorArg,
/// a list (more than one name in `listArg`) a TensorListArg; `intArg` adds an IntArg "dim".
struct NativeNodeSpec {
    std::string name;
    std::int8_t kind = 0;
    std::string target;
    std::vector<std::string> tensorArgs;
    std::vector<std::string> listArg;
    bool hasIntArg = false;
    std::int64_t intArg = 0;
};

struct NativeConstantSpec {
    std::string name; ///< the placeholder's SSA name
    std::string dataKey;
    std::int8_t kind = 1; ///< InputKind: 1 PARAMETER, 2 BUFFER, 3 CONSTANT_TENSOR
    std::vector<std::int64_t> shape;
};

/// A NativeBackend payload: the NPTG FlatBuffer (core/schema/native.fbs), one method.
struct NativeGraphSpec {
    std::string version = "0";
    std::string method = "forward";
    std::vector<NativeNodeSpec> nodes;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<NativeConstantSpec> constants;
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> tensorValues; ///< FLOAT tensors
};

std::vector<std::uint8_t> writeNativeGraphPayload(const NativeGraphSpec& spec);

/// x (input) and w (PARAMETER "weight") → aten.linear.default → linear [1, 4] →
/// aten.relu.default → relu → aten.cat.default([relu, linear], dim 1) → cat [1, 8], the
/// output. Six fx nodes: two placeholders, three calls, one output.
NativeGraphSpec smallNativeGraph();

} // namespace etscope::core
