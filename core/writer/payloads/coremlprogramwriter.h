// SPDX-License-Identifier: MIT
#pragma once

// Core ML models for fixtures: a model.mlmodel holding a small ML Program (MIL), written with
// the classes protoc generates from core/schema/coreml_mil.proto, and a blob-storage weight
// file. Together with writeCoreMlPayload they make a CoreMLBackend payload the decoder draws.

#include "core/writer/payloads/coremlpayloadwriter.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core {

/// MIL data types (MIL.proto DataType).
enum class MilType : int {
    Bool = 1,
    String = 2,
    Fp16 = 10,
    Fp32 = 11,
    Bf16 = 13,
    Int8 = 21,
    Int16 = 22,
    Int32 = 23,
    Int64 = 24,
    UInt8 = 31,
    /// A type number this writer has no name for (a newer spec's sub-byte types).
    Other = 25,
};

struct MilTensorSpec {
    std::string name;
    MilType type = MilType::Fp16;
    std::vector<std::int64_t> shape; ///< empty: a scalar (rank 0)
};

struct MilOperationSpec;

/// A nested block (cond's branches, while_loop's body).
struct MilBlockSpec {
    std::vector<MilTensorSpec> inputs;
    std::vector<std::string> outputs;
    std::vector<MilOperationSpec> operations;
};

/// One operation. A `const` carries its value in the "val" attribute: an immediate list
/// (`ints`, `floats`, `text`, raw little-endian `bytes` as coremltools stores fp16 and 8-bit
/// values) or a blob in a weight file (`blobFile`, `blobOffset`).
struct MilOperationSpec {
    std::string type;
    std::vector<std::pair<std::string, std::vector<std::string>>> inputs; ///< parameter → bound value names
    std::vector<MilTensorSpec> outputs;
    std::optional<std::vector<std::int32_t>> ints;
    std::optional<std::vector<float>> floats;
    std::optional<std::string> text;
    std::optional<std::vector<std::uint8_t>> bytes;
    std::string blobFile; ///< "@model_path/weights/weight.bin"
    std::uint64_t blobOffset = 0;
    std::vector<MilBlockSpec> blocks;
};

struct MilProgramSpec {
    int specificationVersion = 8;
    std::string function = "main";
    std::string opset = "CoreML7";
    std::vector<MilTensorSpec> inputs;
    std::vector<std::string> outputs;
    std::vector<MilOperationSpec> operations;
    std::vector<std::pair<std::string, std::string>> userMetadata; ///< description.metadata.userDefined
    std::vector<MilTensorSpec> modelInputs; ///< description.input (multi-array features)
    std::vector<MilTensorSpec> modelOutputs;
};

/// The serialized Core ML Model protobuf (specificationVersion, description, mlProgram).
std::vector<std::uint8_t> writeMilModel(const MilProgramSpec& spec);

/// A blob-storage (v2) weight file: 64-byte header {count, version 2}, then per blob a 64-byte
/// record {0xDEADBEEF, data type, size, data offset} and its data, each 64-aligned.
/// `recordOffsets` receives where each record starts (the offset a blob value names).
/// Blob data types: 1 fp16, 2 fp32, 3 uint8, 4 int8.
std::vector<std::uint8_t> writeMilWeights(const std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>>& blobs,
    std::vector<std::uint64_t>* recordOffsets = nullptr);

/// The fixture conv → add → relu of one fp16 [1, 3, 8, 8] input "x": const weight in
/// weights/weight.bin (4×3×3×3 fp16, 216 bytes, record at 64), immediate consts, debug_info.json
/// with symbols and handles, metadata.json; the files of an .mlpackage payload. With a
/// `function` other than "main" the program's function has that name and metadata.json is the
/// multifunction form {"identifier", "methods": {function: {inputNames, outputNames}}}.
std::vector<CoreMlFileSpec> convAddReluPackage(const std::string& function = "main");

} // namespace etscope::core
