// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace etscope::core {

/// Emits Ethos-U command words: short commands (opcode in bits 0–9, 16-bit parameter in bits
/// 16–31) and long ones (bit 14 set, then a 32-bit payload word). The opcodes are the caller's;
/// this class knows none, so fixtures state every number they write.
class EthosUCommandWriter {
public:
    EthosUCommandWriter& shortCommand(std::uint16_t opcode, std::uint16_t param = 0);
    /// `high`: bits 16–31 of the first word (address bits 32–39 for base and stride registers).
    EthosUCommandWriter& longCommand(std::uint16_t opcode, std::uint32_t payload, std::uint16_t high = 0);
    EthosUCommandWriter& word(std::uint32_t raw);
    const std::vector<std::uint32_t>& words() const { return m_words; }

private:
    std::vector<std::uint32_t> m_words;
};

/// One record of the inputs/outputs block: shape[6], element size, offset, region.
struct EthosUIoSpec {
    std::array<std::int32_t, 6> shape {};
    std::int32_t elementSize = 1;
    std::int32_t offset = 0;
    std::int32_t region = 1;
};

/// A vela_bin_stream (facts sheet §3.4) with a COP1 cmd_data block.
struct EthosUPayloadSpec {
    std::uint32_t configWord = 0; ///< the NPU CONFIG value in the OPTIMIZER_CONFIG action
    std::uint32_t idWord = 0; ///< the NPU ID value
    bool cop2 = false; ///< frame cmd_data as regor's COP2 instead of COP1
    std::vector<std::uint32_t> commands;
    /// The COMMAND_STREAM length written; nullopt: the true word count.
    std::optional<std::uint32_t> announcedWords;
    /// Cuts cmd_data to this many bytes after framing (a damaged payload); nullopt: whole.
    std::optional<std::size_t> commandDataBytes;
    std::vector<std::uint8_t> weights;
    std::uint32_t scratchSize = 0;
    std::vector<EthosUIoSpec> inputs;
    std::vector<EthosUIoSpec> outputs;
};

/// The cmd_data block: "COP1", OPTIMIZER_CONFIG (config, id), NOPs up to 16-byte alignment,
/// COMMAND_STREAM (length low 16 bits in the parameter, high 8 in the reserved byte), commands.
/// With `cop2`: "COP2", version 1.0, uint64 length of what follows the 16-byte header, a
/// command-stream entry (type 1, byte length), its metadata (length of what follows the length
/// word, "VEUM", version 1.0, 20, config, id, features 1, uint64 staging size), 0xFF padding to
/// 16 bytes, then the commands (regor tflite/custom_operator_ethosu.hpp, CreateDriverPayload2).
std::vector<std::uint8_t> writeEthosUCommandData(const EthosUPayloadSpec& spec);

/// The whole payload: vela_bin_stream, cmd_data, weight_data, scratch_size, inputs, outputs,
/// vela_end_stream blocks, each a 32-byte header (16-byte name, uint32 size, external flag,
/// reserved) and its data padded to 16 bytes.
std::vector<std::uint8_t> writeEthosUPayload(const EthosUPayloadSpec& spec);

/// The fixture networks the tests decode: conv → elementwise add (whose second operand a DMA
/// copies from the weights) → pool, with one input and one output record in region 1. U85's adds
/// a nearest resize after the pool and uses its own register layout (see the .cpp for every
/// word). `unknownCommand` inserts a command the map lacks before the add.
EthosUPayloadSpec ethosUFixtureU55(bool unknownCommand = false);
EthosUPayloadSpec ethosUFixtureU85(bool unknownCommand = false);

} // namespace etscope::core
