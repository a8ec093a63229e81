// SPDX-License-Identifier: MIT
#pragma once

// A serialized TOSA 1.0 graph (FlatBuffer, identifier "TOSA"; schema core/schema/tosa.fbs): the
// payload of TOSABackend delegates and the side files Arm's flow writes beside Ethos-U programs
// (<prefix>_output_tag<N>_TOSA-1.0+INT.tosa, one per delegate N). Also the element type and
// operator names the VGF decoder reuses for TOSA operations inside SPIR-V graphs.

#include "core/graph/graph.h"
#include "core/util/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// What readTosaGraph found besides the graph: header facts for a properties panel.
struct TosaGraphFacts {
    std::vector<Attribute> facts; ///< version, regions, blocks, operators by kind, tensors, bytes
    int inputCount = 0; ///< inputs of the main block (the first block of the first region)
    int outputCount = 0;
    std::size_t operatorCount = 0; ///< TOSA operators of every block, CONST included
};

/// Reads a TOSA FlatBuffer into a Graph: one Operator node per operator (label "CONV2D", opType
/// "TOSA CONV2D", attributes: the operator's attribute table, each input and output tensor and,
/// where the input is a small constant, its values under the operand's role name such as
/// "input_zp"), one Constant node per CONST/CONST_SHAPE output (or tensor with data read before
/// any operator writes it), Input/Output nodes for the main block's inputs and outputs (with
/// argPosition in DelegateCall order), and edges carrying the tensor's dtype and shape. Other
/// blocks (COND_IF / WHILE_LOOP bodies) are added after the main block, their tensors named
/// "<block>/<tensor>". The FlatBuffers verifier runs first: a buffer it rejects, a missing
/// "TOSA" identifier or a buffer over 2 GiB is an Error (naming `where` and, where known, the
/// byte offset). Semantic problems (unknown op numbers, tensors named by no block, attributes
/// of another op, data shorter than the shape needs) are warnings in Graph::warnings and the
/// graph is still returned. Reads nothing outside `bytes`; never throws.
Result<Graph> readTosaGraph(
    std::span<const std::uint8_t> bytes, const std::string& where, TosaGraphFacts* facts = nullptr);

/// "CONV2D" for TOSA 1.0 op number 3 (schema enum Op); empty for numbers it does not know.
std::string_view tosaOpName(std::uint32_t op);

/// "INT8" for TOSA 1.0 DType 3; empty for numbers it does not know.
std::string_view tosaDTypeName(std::uint32_t dtype);

/// The operand names of a TOSA 1.0 operator in order ("input", "weight", "bias", "input_zp",
/// "weight_zp" for CONV2D), as the TOSA specification and the SPIR-V TOSA grammar name them;
/// empty when the operator is unknown. In a serialized graph the attribute operands are in the
/// attribute table, so `tensorOperandsOnly` leaves them out (they lead the list in SPIR-V).
std::vector<std::string_view> tosaOperandNames(std::uint32_t op, bool tensorOperandsOnly);

} // namespace etscope::core
