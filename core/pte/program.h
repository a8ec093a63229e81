// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/mappedfile.h"
#include "core/util/result.h"
#include "core/util/sharedvector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace etscope::core {

/// Absolute byte range inside the mapped file.
struct ByteRange {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t end() const { return offset + size; }
};

/// Where a tensor's bytes live (facts sheet §1.4, "Where a tensor's bytes live").
enum class TensorStorage : std::uint8_t {
    Runtime, ///< provided at run time: method inputs, placeholders, dynamic-unbound outputs
    Planned, ///< memory-planned activation, no stored data
    Constant, ///< constant segment or legacy constant_buffer
    Mutable, ///< memory-planned with an initial value in the mutable-data segment
    External, ///< bytes in a .ptd / named data, looked up by fully qualified name
    ExternalMutable, ///< external bytes copied into a planned arena at load time
};

std::string_view tensorStorageName(TensorStorage storage);

/// One tensor value. Ordered and typed to stay small (issue 27: a 100,000-instruction LLM holds
/// 150,000 of them): the shape and dim order are shared with every value of the same contents.
struct TensorInfo {
    SharedVector<std::int64_t> sizes;
    SharedVector<std::uint8_t> dimOrder;
    std::string fullyQualifiedName;
    std::optional<ByteRange> data; ///< bytes inside the program file, when stored there
    std::uint64_t memoryOffset = 0;
    std::uint32_t memoryId = 0; ///< 1-based arena id
    std::uint32_t dataBufferIndex = 0;
    int scalarType = 0;
    int storageOffset = 0;
    int layout = 0;
    int shapeDynamism = 0; ///< 0 static, 1 dynamic bound, 2 dynamic unbound
    int dataLocation = 0; ///< 0 segment, 1 external
    int deviceType = 0;
    int deviceIndex = 0;
    TensorStorage storage = TensorStorage::Runtime;
    bool requiresGrad = false;
    bool hasAllocation = false;
    bool hasExtraInfo = false;

    /// Product of sizes, saturating; negative sizes count as 0.
    std::uint64_t elementCount() const;
    /// elementCount × element size (0 for unknown dtypes).
    std::uint64_t byteSize() const;
};

/// One entry of a method's value table. Kept small (issue 27: 168,772 of them in a 100,000-
/// instruction LLM took 320 bytes each): the rare String / DoubleList / BoolList payloads are
/// held apart, behind one pointer.
struct Value {
    enum class Kind : std::uint8_t {
        Null,
        Int,
        Bool,
        Double,
        Tensor,
        String,
        IntList,
        DoubleList,
        BoolList,
        TensorList,
        OptionalTensorList,
        Unknown, ///< a union tag this build does not know
        Missing, ///< no value table at all
    };
    Kind kind = Kind::Missing;
    bool boolValue = false;
    int rawTag = 0;
    std::int64_t intValue = 0;
    double doubleValue = 0;
    std::vector<std::int64_t> items; ///< IntList / TensorList / OptionalTensorList: value indices
    TensorInfo tensor;

    bool isTensor() const { return kind == Kind::Tensor; }
    bool isList() const
    {
        return kind == Kind::IntList || kind == Kind::TensorList || kind == Kind::OptionalTensorList;
    }
    /// String: its text (empty for other kinds).
    const std::string& stringValue() const;
    /// DoubleList: its items (empty for other kinds).
    const std::vector<double>& doubles() const;
    /// BoolList: its items (empty for other kinds).
    const std::vector<bool>& bools() const;
    void setString(std::string text);
    void setDoubles(std::vector<double> doubles);
    void setBools(std::vector<bool> bools);

private:
    struct Rare {
        std::string text;
        std::vector<double> doubles;
        std::vector<bool> bools;
    };
    Rare& rare();
    std::shared_ptr<const Rare> m_rare; ///< String / DoubleList / BoolList only
};

std::string_view valueKindName(Value::Kind kind);

struct Instruction {
    enum class Kind { Kernel, Delegate, Move, JumpFalse, Free, Unknown, Missing };
    Kind kind = Kind::Missing;
    int rawTag = 0;
    std::int32_t index = -1; ///< KernelCall op_index or DelegateCall delegate_index
    std::vector<std::int32_t> args;
    std::int32_t moveFrom = -1;
    std::int32_t moveTo = -1;
    std::int32_t condition = -1;
    std::int32_t destination = -1;
    std::int32_t freedValue = -1;
    std::uint64_t fileOffset = 0; ///< where the instruction's table sits in the file
};

std::string_view instructionKindName(Instruction::Kind kind);

struct Frame {
    std::string filename;
    int line = 0;
    std::string function;
    std::string context;
};

struct Chain {
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
    std::vector<Instruction> instructions;
    std::vector<std::vector<Frame>> stacktrace;
};

struct Operator {
    std::string name;
    std::string overload;
    /// The runtime's lookup key: name, plus "." + overload when the overload is not empty.
    std::string qualifiedName() const;
};

struct CompileSpec {
    std::string key;
    std::vector<std::uint8_t> value;
    std::optional<std::uint64_t> valueOffset; ///< file offset of value[0] when read from a file
};

struct DelegateRef {
    std::string backendId;
    int location = 0; ///< 0 inline, 1 segment (other values kept as read)
    std::uint32_t index = 0;
    std::vector<CompileSpec> compileSpecs;
    ByteRange payload; ///< resolved, absolute
    std::string_view locationName() const { return location == 0 ? "inline" : location == 1 ? "segment" : "unknown"; }
};

struct InstructionCounts {
    int kernel = 0;
    int delegate = 0;
    int move = 0;
    int jumpFalse = 0;
    int free = 0;
    int unknown = 0;
    int total() const { return kernel + delegate + move + jumpFalse + free + unknown; }
};

struct Method {
    std::string name;
    std::string inputSpec;
    std::string outputSpec;
    std::vector<Value> values;
    std::vector<std::int32_t> inputs;
    std::vector<std::int32_t> outputs;
    std::vector<Chain> chains;
    std::vector<Operator> operators;
    std::vector<DelegateRef> delegates;
    std::vector<std::int64_t> nonConstBufferSizes;

    InstructionCounts instructionCounts() const;
    std::size_t instructionTotal() const;
};

struct ExtendedHeader {
    std::uint32_t length = 0;
    std::uint64_t programSize = 0;
    std::uint64_t segmentBaseOffset = 0;
    std::uint64_t segmentDataSize = 0;
};

struct TensorLayout {
    int scalarType = 0;
    std::vector<std::int64_t> sizes;
    std::vector<std::uint8_t> dimOrder;
};

struct NamedDataEntry {
    std::string key;
    std::uint32_t segmentIndex = 0;
    ByteRange data; ///< absolute
    std::optional<TensorLayout> layout; ///< .ptd entries only
};

struct SubsegmentOffsets {
    std::uint32_t segmentIndex = 0;
    std::vector<std::uint64_t> offsets;
};

/// A verified, decoded ExecuTorch program. Owns its mapped bytes; ranges point into them.
struct Program {
    std::shared_ptr<const MappedFile> file;
    ByteRange region; ///< the program inside the file (the whole file for a .pte)
    std::string identifier;
    std::optional<ExtendedHeader> header;
    std::uint32_t version = 0;
    std::vector<Method> methods;
    std::vector<ByteRange> segments; ///< absolute ranges
    bool hasConstantSegment = false;
    SubsegmentOffsets constantSegment;
    std::vector<ByteRange> legacyConstantBuffers;
    std::vector<ByteRange> inlineDelegateData;
    std::vector<SubsegmentOffsets> mutableDataSegments;
    std::vector<NamedDataEntry> namedData;
    /// namedData by key (the first entry of each key), filled by indexNamedData().
    std::unordered_map<std::string, std::size_t> namedDataByKey;
    std::vector<Warning> warnings;

    const std::string& path() const { return file->path(); }
    /// Bytes of an absolute range (already checked against the file when read).
    std::span<const std::uint8_t> bytes(const ByteRange& range) const;
    const Method* method(std::string_view name) const;
    /// `forward` if present, else the first method with instructions, else the first.
    const Method* defaultMethod() const;
    /// Constant time once indexNamedData() ran (the reader does), a scan otherwise: every
    /// delegate constant of an LLM is looked up here.
    const NamedDataEntry* findNamedData(std::string_view key) const;
    void indexNamedData();
};

/// Reads the program that occupies `region` of `file` (the whole file when `region` is empty).
/// Order of checks: size → identifier → extended header → FlatBuffers Verifier → semantic
/// checks (indices, offsets). Fails with an Error naming the file, the reason and, where
/// known, the byte offset; recoverable oddities go into Program::warnings.
Result<Program> readProgram(std::shared_ptr<const MappedFile> file, std::optional<ByteRange> region = std::nullopt);

/// Maps `path` and reads it as a program.
Result<Program> readProgramFile(const std::string& path);

} // namespace etscope::core
