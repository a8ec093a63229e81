// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// One argument of an operator schema, in schema order.
struct OperatorArgument {
    std::string name; ///< "self", "mat1", "out"
    std::string type; ///< "Tensor", "Tensor?", "Scalar", "int[]", "int[]?", "bool", "ScalarType?", …
    bool kwargOnly = false; ///< after the `*` of the schema
    bool written = false; ///< the kernel writes it: Tensor(a!) (out arguments, the self of in-place ops)

    /// An out argument: keyword-only and written.
    bool isOut() const { return kwargOnly && written; }
};

/// The schema of one operator overload, as far as naming a KernelCall's arguments needs it.
struct OperatorSchema {
    std::string name; ///< with its namespace: "aten::addmm"
    std::string overload; ///< "out"; "default" for an operator without one
    std::vector<OperatorArgument> arguments;
    int returns = 1; ///< values the operator returns (0 for `-> ()`)

    /// "aten::addmm.out".
    std::string qualifiedName() const;
    /// How many arguments a KernelCall of this operator passes. The emitter passes every schema
    /// argument (defaults included, `None` tensors as empty placeholders), then the returned value
    /// once more (a TensorList when there are several, also for out variants returning `()`);
    /// only an operator that writes no out argument and returns nothing has no such trailing one.
    std::size_t kernelArgumentCount() const;
    bool hasOutArguments() const;
};

/// Every schema of the table (parsed once, on first use; lines that would not parse are left out,
/// and a unit test makes sure there are none).
std::span<const OperatorSchema> operatorSchemas();

/// The current schema of `name` ("aten::addmm") and `overload` ("out"; "" and "default" are the
/// same), or nullptr when the table does not know it.
const OperatorSchema* findSchema(std::string_view name, std::string_view overload);

/// The schema of that operator whose kernelArgumentCount() is `kernelArgs`: the current one, else an
/// older variant the table keeps (a schema an earlier ExecuTorch release had); nullptr when none fits.
const OperatorSchema* findSchema(std::string_view name, std::string_view overload, std::size_t kernelArgs);

/// Names for the `argCount` arguments of a KernelCall: the schema's argument names, then "return"
/// for the trailing returned value. Empty when the operator is unknown or no schema has that many
/// arguments: the caller then numbers them ("arg N").
std::vector<std::string> kernelArgumentNames(std::string_view name, std::string_view overload, std::size_t argCount);

/// Parses one line of the table format (see schematable.cpp); nullopt with `error` set when it
/// does not parse. Comment and blank lines are not schemas (nullopt, empty error).
std::optional<OperatorSchema> parseOperatorSchemaLine(std::string_view line, std::string* error = nullptr);

/// The table's lines that do not parse, each as "line: reason"; empty in a correct build.
std::vector<std::string> operatorSchemaTableErrors();

} // namespace etscope::core
