// SPDX-License-Identifier: MIT
#pragma once

// Plain descriptions of a program for the writer (programwriter.h). They mirror the schema of
// facts sheet §1.4 but say what a value *is*; the writer decides where bytes go (constant
// segment, mutable-data segment, delegate and named-data segments) and which indices they get.

#include "core/pte/program.h"
#include "core/util/scalartype.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// Memory-planning location (AllocationDetails): a 1-based arena id and a byte offset.
struct AllocationSpec {
    std::uint32_t memoryId = 1;
    std::uint64_t memoryOffset = 0; ///< written as low/high 32-bit halves
};

/// A tensor EValue. Its storage follows the runtime's resolution order (§1.4 "Where a tensor's
/// bytes live"): `external` → ExtraTensorInfo location EXTERNAL keyed by `fullyQualifiedName`;
/// `data` without allocation → constant segment; `data` with allocation → initial value in the
/// mutable-data segment; allocation alone → planned activation; neither → provided at run time.
struct TensorSpec {
    int scalarType = scalar_type::Float;
    std::vector<std::int32_t> sizes;
    std::vector<std::uint8_t> dimOrder; ///< empty: contiguous, 0 … rank-1
    bool requiresGrad = false;
    int storageOffset = 0;
    int layout = 0;
    int shapeDynamism = 0; ///< 0 static, 1 dynamic bound, 2 dynamic unbound
    std::optional<AllocationSpec> allocation;
    std::optional<std::vector<std::uint8_t>> data; ///< constant bytes or mutable initial value; ignored if external
    bool external = false;
    /// Written in ExtraTensorInfo when non-empty (or when external / on a device).
    std::string fullyQualifiedName;
    int deviceType = 0;
    int deviceIndex = 0;

    /// product(sizes) × element size (0 for unknown dtypes or negative sizes).
    std::uint64_t byteSize() const;
};

/// One entry of a method's value table. Use the factories; `kind` selects the union member.
struct ValueSpec {
    Value::Kind kind = Value::Kind::Null;
    int rawTag = 0; ///< Unknown: the union tag written (with an empty table), to test readers
    std::int64_t intValue = 0;
    bool boolValue = false;
    double doubleValue = 0;
    std::string stringValue;
    std::vector<std::int64_t> items; ///< IntList/TensorList/OptionalTensorList: value indices (-1 = None)
    std::vector<double> doubles;
    std::vector<bool> bools;
    TensorSpec tensor;

    static ValueSpec null();
    static ValueSpec integer(std::int64_t value);
    static ValueSpec boolean(bool value);
    static ValueSpec real(double value);
    static ValueSpec string(std::string value);
    static ValueSpec intList(std::vector<std::int64_t> valueIndices);
    static ValueSpec doubleList(std::vector<double> values);
    static ValueSpec boolList(std::vector<bool> values);
    static ValueSpec tensorList(std::vector<std::int64_t> valueIndices);
    static ValueSpec optionalTensorList(std::vector<std::int64_t> valueIndices);
    static ValueSpec ofTensor(TensorSpec tensor);
    static ValueSpec unknown(int rawTag);
};

/// One instruction of a chain (§1.4 "Instruction and its union").
struct InstructionSpec {
    Instruction::Kind kind = Instruction::Kind::Kernel;
    int rawTag = 0; ///< Unknown: the union tag written (with an empty table)
    std::int32_t index = 0; ///< KernelCall op_index / DelegateCall delegate_index
    std::vector<std::int32_t> args;
    std::int32_t moveFrom = 0;
    std::int32_t moveTo = 0;
    std::int32_t condition = 0;
    std::int32_t destination = 0;
    std::int32_t freedValue = 0;

    static InstructionSpec kernel(std::int32_t opIndex, std::vector<std::int32_t> args);
    static InstructionSpec delegate(std::int32_t delegateIndex, std::vector<std::int32_t> args);
    static InstructionSpec move(std::int32_t from, std::int32_t to);
    static InstructionSpec jumpFalse(std::int32_t condition, std::int32_t destination);
    static InstructionSpec free(std::int32_t value);
    static InstructionSpec unknown(int rawTag);
};

struct ChainSpec {
    std::vector<std::int32_t> inputs; ///< the emitter leaves these empty
    std::vector<std::int32_t> outputs;
    std::vector<InstructionSpec> instructions;
    std::vector<std::vector<Frame>> stacktrace; ///< written only when non-empty
};

/// A BackendDelegate: backend id, the processed blob and its compile specs.
struct DelegateSpec {
    enum class Placement {
        Auto, ///< a segment when the writer extracts delegate segments and the blob is not empty
        Inline, ///< Program.backend_delegate_data
        Segment,
    };
    std::string backendId;
    std::vector<std::uint8_t> payload;
    Placement placement = Placement::Auto;
    std::vector<CompileSpec> compileSpecs;
};

struct BufferDeviceSpec {
    std::int32_t bufferIndex = 1; ///< 1-based like non_const_buffer_sizes
    int deviceType = 1;
    int deviceIndex = 0;
};

/// An ExecutionPlan. The helpers append and return the new index.
struct MethodSpec {
    std::string name;
    std::string inputSpec = "T2#1#0(T1#1($),D0())"; ///< pytree strings (§1.10)
    std::string outputSpec = "T1#1($)";
    std::vector<ValueSpec> values;
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
    std::vector<ChainSpec> chains;
    std::vector<Operator> operators;
    std::vector<DelegateSpec> delegates;
    std::vector<std::int64_t> nonConstBufferSizes; ///< entry 0 reserved (see computeArenaSizes)
    std::vector<BufferDeviceSpec> nonConstBufferDevices;

    std::int32_t addValue(ValueSpec value);
    std::int32_t addTensor(TensorSpec tensor) { return addValue(ValueSpec::ofTensor(std::move(tensor))); }
    /// The index of `name.overload`, adding the operator on first use.
    std::int32_t addOperator(const std::string& name, const std::string& overload);
    std::int32_t addDelegate(DelegateSpec delegate);
    /// Appends to chain 0 (created on first use); returns the instruction id.
    std::int32_t addInstruction(InstructionSpec instruction);
    /// non_const_buffer_sizes from the planned tensors: entry 0 = 0, arena k = the end of its
    /// furthest tensor, rounded up to 16.
    void computeArenaSizes();
};

/// A program-level named-data blob (§1.9): its own segment, shared by byte-identical blobs.
struct NamedBlobSpec {
    std::string key;
    std::vector<std::uint8_t> bytes;
    std::uint64_t alignment = 16; ///< XNNPACK asks for 16
};

struct ProgramSpec {
    std::uint32_t version = 0;
    /// Written in this order (the exporter sorts by name). A deque, so that the reference
    /// addMethod returns stays valid while more methods are added.
    std::deque<MethodSpec> methods;
    std::vector<NamedBlobSpec> namedData;

    MethodSpec& addMethod(std::string name);
    const MethodSpec* method(const std::string& name) const;
};

/// Contiguous dim order 0 … rank-1.
std::vector<std::uint8_t> contiguousDimOrder(std::size_t rank);

} // namespace etscope::core
