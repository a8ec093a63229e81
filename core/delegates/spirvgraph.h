// SPDX-License-Identifier: MIT
#pragma once

// A bounded reader of the SPIR-V modules inside VGF files: the module header, its extensions,
// and, for graph modules (SPV_ARM_graph + SPV_ARM_tensors), the TOSA operations the graph runs
// through the "TOSA.001000.1" extended instruction set, with the types and constants their
// operands name. Opcodes and operand layouts are facts of the SPIR-V grammar
// (KhronosGroup/SPIRV-Headers include/spirv/unified1/spirv.core.grammar.json and
// extinst.tosa.001000.1.grammar.json, commit 0d25db97cb9b8f725e4c95e4553001710e7fc39d; Debian's
// spirv-headers 1.3.239 predate the ARM graph and tensor instructions).

#include "core/util/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace etscope::core {

struct SpirvType {
    enum class Kind { Unknown, Bool, Int, Float, Array, Tensor, Pointer, Graph, Struct };
    Kind kind = Kind::Unknown;
    std::uint32_t width = 0; ///< Int / Float
    std::uint32_t element = 0; ///< Array / Tensor / Pointer: the element (pointee) type id
    std::uint32_t length = 0; ///< Array: the id of its length constant
    std::uint32_t rank = 0; ///< Tensor: the id of its rank constant (0: unranked)
    std::uint32_t shape = 0; ///< Tensor: the id of its shape constant (0: no shape)
};

struct SpirvConstant {
    enum class Kind { Scalar, True, False, Composite, Replicate, Null, GraphConstant };
    Kind kind = Kind::Scalar;
    std::uint32_t type = 0;
    std::vector<std::uint32_t> words; ///< Scalar: the literal words; Composite: constituent ids;
                                      ///< Replicate: the one id; GraphConstant: its GraphConstantID
};

/// One OpExtInst of the TOSA instruction set inside the graph.
struct SpirvTosaOp {
    std::uint32_t instruction = 0; ///< number in TOSA.001000.1 (TOSA Op enum value - 1)
    std::uint32_t resultType = 0;
    std::uint32_t result = 0;
    std::vector<std::uint32_t> operands; ///< ids, in grammar order (attributes first)
    std::uint64_t byteOffset = 0; ///< of the instruction, from the start of the module
};

struct SpirvModuleInfo {
    std::uint32_t version = 0; ///< 0x00010500 for SPIR-V 1.5
    std::uint32_t generator = 0;
    std::uint32_t bound = 0;
    std::size_t instructions = 0;
    std::vector<std::string> extensions; ///< "SPV_ARM_graph", …
    std::vector<std::string> imports; ///< extended instruction sets
    std::string entryPoint; ///< OpGraphEntryPointARM's name, or OpEntryPoint's
    bool isGraph = false; ///< an OpGraphARM was seen
    // By result id; looked up only, never walked in order (hashed: a graph module holds
    // thousands of constants, and ordered-map inserts were a tenth of a VGF decode).
    std::unordered_map<std::uint32_t, std::string> names; ///< OpName
    std::unordered_map<std::uint32_t, SpirvType> types;
    std::unordered_map<std::uint32_t, SpirvConstant> constants;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> graphInputs; ///< (result id, type id), by InputIndex
    std::vector<std::uint32_t> graphOutputs; ///< value id per OutputIndex
    std::vector<SpirvTosaOp> tosaOps;
    std::size_t otherExtInsts = 0; ///< OpExtInst of other sets inside the graph
    std::vector<Warning> warnings; ///< offsets are bytes from the start of the module

    /// Scalar value of a constant id (ints sign-extended from their width), if it is one.
    std::optional<std::int64_t> scalar(std::uint32_t id) const;
    /// "INT8", "FP32", "BOOL" for a scalar type id; "" when unknown.
    std::string elementName(std::uint32_t typeId) const;
    /// Element type name and shape of a tensor type id ("INT8", [1, 224, 224, 3]).
    std::pair<std::string, std::vector<std::int64_t>> tensorType(std::uint32_t typeId) const;
    /// A constant as text: "1", "true", "[1, 0, 1, 0]", "zeros", "graph constant 5"; "" if none.
    std::string constantText(std::uint32_t id, std::size_t limit = 16) const;
};

/// Reads the SPIR-V words of one module. Stops at the first malformed instruction (a zero word
/// count or one running past the end), keeping what it read, with a warning naming the byte
/// offset; a module without the SPIR-V magic is only a warning. Never throws, never reads past
/// `words`.
SpirvModuleInfo readSpirvModule(std::span<const std::uint32_t> words);

} // namespace etscope::core
