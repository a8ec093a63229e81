// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// Qnn_DataType_t and Qnn_TensorType_t numbers (QnnTypes.h) the fixtures use.
namespace qnnw {
constexpr std::uint32_t kInt32 = 0x0032;
constexpr std::uint32_t kUfixed8 = 0x0408;
constexpr std::uint32_t kUfixed16 = 0x0416;
constexpr std::uint32_t kFloat32 = 0x0232;
constexpr std::uint32_t kAppWrite = 0;
constexpr std::uint32_t kAppRead = 1;
} // namespace qnnw

struct QnnTensorSpec {
    std::string name;
    std::uint32_t id = 0;
    std::uint32_t tensorType = qnnw::kAppWrite;
    std::uint32_t dataType = qnnw::kFloat32;
    std::vector<std::uint32_t> dims;
    /// HTP section: the id of the op node that writes it (2, no node, as the sample's inputs).
    std::uint32_t producer = 2;
};

struct QnnNodeSpec {
    std::uint32_t id = 0;
    std::string name;
};

/// One graph of a context: its tensors go to the metadata, its op nodes to the HTP section.
struct QnnGraphSpec {
    std::string name;
    std::vector<QnnTensorSpec> inputs;
    std::vector<QnnTensorSpec> outputs;
    std::vector<QnnNodeSpec> nodes; ///< written in the order given (the sample stores highest id first)
};

/// Layout choices, and fields to overwrite so that tests can write damaged payloads.
struct QnnWriteOptions {
    /// ExecuTorch header: 256 (since 2026-03-06) or 20 (2025-01-04 to 2026-03-06).
    std::size_t executorchHeader = 256;
    std::int64_t signature = 0x0123456789abcdefLL;
    std::optional<std::uint64_t> binarySizeField; ///< the ExecuTorch header's size field
    std::array<std::uint32_t, 4> words { 2, 3, 0, 1 };
    std::string buildId = "v2.37.0.fixture";
    std::uint32_t socModel = 57;
    std::uint8_t infoTag = 3; ///< union tag of the metadata record
    std::optional<std::uint64_t> metadataSizeField;
    std::optional<std::uint64_t> sectionOffsetField;
    std::optional<std::uint64_t> sectionSizeField;
    std::optional<std::uint64_t> sectionFlatbufferSizeField;
    bool writeSection = true; ///< false: the binary ends after the metadata (header says 0 bytes)
    bool sectionTensors = true; ///< false: the HTP graphs list no inputs and outputs
};

/// A QNN context binary in the layout of core/schema/qnncontext.fbs: 40-byte header, metadata
/// FlatBuffer at 40, backend section (five uint64, an 8-byte field, the HTP FlatBuffer) at the
/// next multiple of 64.
std::vector<std::uint8_t> writeQnnContextBinary(
    const std::vector<QnnGraphSpec>& graphs, const QnnWriteOptions& options);

/// A QnnBackend delegate payload: the ExecuTorch header (magic 0x5678ABCD, signature, context
/// binary size, zero padding for the 256-byte layout) and the context binary.
std::vector<std::uint8_t> writeQnnPayload(const std::vector<QnnGraphSpec>& graphs, const QnnWriteOptions& options = {});

/// Offsets a writer-made context binary has, for tests that damage one field.
struct QnnBinaryLayout {
    std::uint64_t metadataSize = 0;
    std::uint64_t sectionOffset = 0;
    std::uint64_t sectionFlatbufferOffset = 0;
};
QnnBinaryLayout qnnBinaryLayout(const std::vector<std::uint8_t>& binary);

} // namespace etscope::core
