// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/ids.h"
#include "core/util/mappedfile.h"
#include "core/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// A tensor logged by a debug event; its bytes live in the debug buffer (facts sheet §4.3).
struct DebugTensor {
    int scalarType = 0; ///< §1.5 numbering
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides; ///< in elements
    std::int64_t offset = -1; ///< byte offset in the debug buffer; -1 = empty tensor
    bool inBuffer = false; ///< set when a debug buffer is attached and holds all its bytes

    /// Product of sizes (1 for zero-dim tensors), saturating; negative sizes count as 0.
    std::uint64_t elementCount() const;
    /// elementCount × element size, saturating; 0 for unknown dtypes.
    std::uint64_t byteSize() const;
};

/// The value of a debug event (`Value`, not a FlatBuffers union: `val` says which field counts).
struct DebugValue {
    enum class Kind { Null, Int, Bool, Float, Double, Tensor, TensorList, String, Unknown };
    Kind kind = Kind::Null;
    int rawKind = 0;
    std::int64_t intValue = 0;
    bool boolValue = false;
    double doubleValue = 0; ///< Float and Double
    std::vector<DebugTensor> tensors; ///< one for Tensor, the list for TensorList
    bool output = false; ///< `Value.output` true: a program output, not an intermediate
};

std::string_view debugValueKindName(DebugValue::Kind kind);

struct ProfileEvent {
    std::string name; ///< empty for delegate-internal events
    ChainIndex chainIndex { 0 }; ///< none outside any instruction (framework events)
    InstructionId instructionId;
    DelegateDebugId delegateDebugIdInt;
    std::string delegateDebugIdStr;
    std::vector<std::uint8_t> delegateDebugMetadata;
    std::uint64_t startTime = 0;
    std::uint64_t endTime = 0;
    std::size_t sequence = 0; ///< position in RunData.events

    bool isDelegateInternal() const { return delegateDebugIdInt.value != -1 || !delegateDebugIdStr.empty(); }
    bool isFramework() const { return chainIndex.value == -1; }
    /// The delegate identifier as text (the string, else the integer), empty when none.
    std::string delegateIdentifier() const;
    /// end − start in ticks, allowing one 32-bit wrap-around as the Inspector does.
    std::uint64_t duration() const;
};

struct AllocationEvent {
    std::int32_t allocatorId = 0; ///< 1-based position in RunBlock::allocators (inferred, §4.2)
    std::uint64_t size = 0;
    std::size_t sequence = 0;
};

struct DebugEvent {
    std::uint64_t chainIndex = 0; ///< the wire's u64; UINT64_MAX for program outputs logged after execution
    InstructionId instructionId;
    DelegateDebugId delegateDebugIdInt;
    std::string delegateDebugIdStr;
    std::string name;
    DebugValue value;
    std::size_t sequence = 0;

    bool isDelegateInternal() const { return delegateDebugIdInt.value != -1 || !delegateDebugIdStr.empty(); }
    std::string delegateIdentifier() const;
    /// The chain as an id: none for UINT64_MAX (after execution) and values no chain can have.
    ChainIndex chain() const;
};

/// One `RunData` block: `Default` (load) or `Execute` (one per Method::execute).
struct RunBlock {
    std::string name;
    std::int32_t bundledInputIndex = -1;
    std::vector<std::string> allocators;
    std::vector<ProfileEvent> profileEvents;
    std::vector<AllocationEvent> allocationEvents;
    std::vector<DebugEvent> debugEvents;
    std::size_t emptyEvents = 0; ///< Event tables with none of the three members
};

/// The debug buffer holding the bytes of logged tensors.
struct DebugBuffer {
    std::shared_ptr<const MappedFile> file;
    const std::string& path() const { return file->path(); }
};

/// A verified, decoded ETDump (facts sheet §4).
struct ETDump {
    std::shared_ptr<const MappedFile> file;
    bool sizePrefixed = true;
    /// Size-prefixed, with fields aligned from the byte after the prefix (ExecuTorch's Python
    /// serializer) rather than from the file's start (the runtime).
    bool alignedAfterPrefix = false;
    std::uint32_t version = 0;
    std::vector<RunBlock> runs;
    std::optional<DebugBuffer> buffer;
    std::vector<Warning> warnings;

    const std::string& path() const { return file->path(); }
    /// Indices of the blocks named `Execute`, in order.
    std::vector<std::size_t> executeBlocks() const;
    std::size_t tensorCount() const;
};

/// Reads an ETDump: size-prefixed (`ED00` at bytes 8–11) or plain (`ED00` at 4–7). Order of
/// checks: size → identifier → size prefix → FlatBuffers Verifier → semantic checks. Fails with
/// an Error naming the file, the reason and, where known, the offset. Oddities (unknown value
/// kinds, empty events, allocator ids out of range) become warnings.
Result<ETDump> readETDump(std::shared_ptr<const MappedFile> file);
Result<ETDump> readETDumpFile(const std::string& path);

/// Where the debug buffer of `etdumpPath` sits by the generated/ naming: "<dir>/<stem>.debug.bin"
/// ("add.intermediates.etdp" → "add.intermediates.debug.bin").
std::string defaultDebugBufferPath(const std::string& etdumpPath);

/// Attaches a debug buffer and checks every tensor: `offset + byteSize` must lie inside it.
/// Tensors outside are marked `inBuffer = false` and reported in warnings (at most a few lines
/// plus a count). Fails only when the buffer cannot be mapped.
std::optional<Error> attachDebugBuffer(ETDump& dump, const std::string& path);
void attachDebugBuffer(ETDump& dump, std::shared_ptr<const MappedFile> buffer);

/// Attaches `path` when given, else the default companion when it exists; a missing default
/// is not an error (profile-only dumps have none).
std::optional<Error> attachDebugBufferOrDefault(ETDump& dump, const std::string& path);

/// The tensor's elements as float64 in logical (row-major) order, following `strides`.
/// Fails (Error::Corrupt naming the buffer and offset) when no buffer is attached, the tensor
/// lies outside it, its dtype cannot be decoded or its strides do not describe its bytes;
/// Error::Limit when it has more than `maxElements` elements.
Result<std::vector<double>> tensorValues(
    const ETDump& dump, const DebugTensor& tensor, std::uint64_t maxElements = 1ull << 26);

/// Rewrites `values`, stored in the memory order `strides` (elements) describes, into logical
/// row-major order. Returns why it cannot (strides that do not match the sizes or point outside
/// the values); empty strides mean contiguous.
std::optional<std::string> reorderByStrides(
    std::vector<double>& values, const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides);

/// Decodes `count` elements of `scalarType` stored little-endian at `bytes` into float64 (HALF
/// and BFLOAT16 included). False for dtypes that have no numeric reading (unknown, complex…).
bool decodeElements(int scalarType, const std::uint8_t* bytes, std::uint64_t count, std::vector<double>& out);

} // namespace etscope::core
