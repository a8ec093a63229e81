// SPDX-License-Identifier: MIT
// Arm Ethos-U NPU command streams (the cmd_data block of a vela_bin_stream): the driver framing
// around them and a decoder that replays the commands as the NPU would, register state and all,
// into a list of operations with the byte ranges each reads and writes.
#pragma once

#include "core/graph/graph.h"
#include "core/util/result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::ethosu {

/// The register map a stream is written for. U55 and U65 share one map; U85 has its own.
enum class Arch : std::uint8_t { U55, U65, U85 };

std::string_view archName(Arch arch); ///< "Ethos-U55"

/// The name of a command in `arch`'s map ("NPU_SET_IFM_BASE0"); empty when the map has none.
/// `longForm`: a command with a 32-bit payload word (bits 14–15 of its first word are 1).
std::string_view commandName(Arch arch, std::uint16_t opcode, bool longForm);

/// The words ahead of the commands (the Ethos-U driver's "custom operator payload").
struct DriverPayload {
    std::string tag; ///< "COP1", "COP2", or the first four bytes in hex
    std::optional<std::uint32_t> configWord; ///< the NPU CONFIG register value the stream was built for
    std::optional<std::uint32_t> idWord; ///< the NPU ID register value (architecture version)
    std::size_t commandOffset = 0; ///< byte offset of the first command in the block
    std::size_t commandWords = 0; ///< command words present (after clamping to the block)
    std::size_t announcedWords = 0; ///< command words the framing announces
    std::vector<Warning> warnings; ///< offsets relative to the block
};

/// Reads the COP1 driver actions (or the COP2 header) of a cmd_data block. Never reads outside
/// `block`; a damaged framing gives what was read plus warnings.
DriverPayload readDriverPayload(std::span<const std::uint8_t> block);

/// What a CONFIG word says: product 0 U55, 1 U65, 2 U85 (regor's ArchEthosU55/65/85::ConfigRegister).
struct NpuConfig {
    std::optional<Arch> arch; ///< nullopt for an unknown product number
    int product = 0;
    int macsPerCycle = 0; ///< 2^macs_per_cc
    int commandStreamVersion = 0;
    int shramKiB = -1; ///< U55/U65 only
    std::string text; ///< "Ethos-U55, 128 MACs/cycle, 24 KiB SHRAM"
};
NpuConfig readConfigWord(std::uint32_t word);
/// "1.0.6" from the ID word's architecture fields.
std::string archVersionText(std::uint32_t idWord);

/// One axis of a strided block: `count` steps of `stride` bytes (negative: downwards).
struct AccessAxis {
    std::int64_t count = 1;
    std::int64_t stride = 0;
};

/// `runBytes` contiguous bytes at every base + i·axes[0].stride + j·axes[1].stride + k·axes[2].stride
/// (0 ≤ i < axes[0].count, …): the bytes one feature-map tile, or its full or last partial
/// NHCWB16 bricks, occupies.
struct AccessBlock {
    std::int64_t base = 0;
    std::int64_t runBytes = 0;
    std::array<AccessAxis, 3> axes {};
};

/// Bytes of one memory region that an operation reads or writes.
struct RegionAccess {
    const char* role = ""; ///< "IFM", "IFM2", "OFM", "weights", "scales", "source", "destination"
    int region = 0;
    std::uint64_t begin = 0; ///< the lowest byte touched
    std::uint64_t end = 0; ///< exclusive: past the highest byte touched; begin < end
    TensorMeta meta; ///< of the tensor the range holds ("int8", NHWC shape; "uint8" [bytes] for raw bytes)
    bool raw = false; ///< bytes without a tensor type (DMA, weights, scales)
    /// The exact bytes inside [begin, end) (ethosuflow.h expands them); empty: all of [begin, end).
    std::vector<AccessBlock> blocks;
};

enum class OpKind : std::uint8_t { Conv, Depthwise, Pool, Elementwise, Resize, Dma, Branch, Unknown };

/// One kick of the NPU (or a command this build does not know), with the registers it used.
struct Operation {
    OpKind kind = OpKind::Unknown;
    std::uint32_t commandIndex = 0; ///< position of the command in the stream
    std::uint64_t offset = 0; ///< byte offset of the command, relative to the decoded span
    /// The operator table's key and the first words of the label, one naming for both: "Conv",
    /// "AvgPool", "Add", "Resize nearest", "DMA", "Branch".
    std::string opType;
    std::string label; ///< opType and what this kick adds: "Conv 3×3 /2", "Add scalar"
    std::string mode; ///< "avg", "add", … (the counting key with the kind)
    AttributeList attributes;
    std::vector<RegionAccess> reads;
    std::vector<RegionAccess> writes;
    /// U85 chaining: feature maps passed to the next operation inside the NPU, not in memory.
    std::optional<TensorMeta> chainedOutput; ///< this operation's OFM goes to the next one
    std::optional<TensorMeta> chainedInput; ///< this operation reads the previous one's OFM
};

/// The decoded stream.
struct CommandStream {
    std::vector<Operation> operations; ///< kicks, branches and unknown commands, in stream order
    std::vector<Warning> warnings; ///< offsets relative to the decoded span
    std::uint32_t commands = 0; ///< commands read
    std::uint32_t dmaWaits = 0;
    std::uint32_t kernelWaits = 0;
    std::uint32_t unknownCommands = 0;
    bool stopped = false; ///< an NPU_OP_STOP was reached (the end of the stream, no operation)
    std::uint32_t stopCommand = 0; ///< its command index, when stopped
};

/// At most this many operations are kept; a longer stream ends with a warning.
constexpr std::size_t kMaxOperations = 100000;

/// Replays the command words in `commands` (whole 32-bit words, little endian) for `arch`.
/// Never reads outside the span and never fails: an unknown command becomes an Unknown
/// operation, a cut command a warning naming its index and byte offset.
CommandStream decodeCommands(std::span<const std::uint8_t> commands, Arch arch);

} // namespace etscope::core::ethosu
