// SPDX-License-Identifier: MIT
#pragma once

// The Core ML model inside a CoreMLBackend payload: an ML Program (MIL) read into an inner graph.
// Private to core/delegates (coreml.cpp reads the container, coremlprogram.cpp the model); no
// protobuf type appears here.

#include "core/delegates/delegate.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace etscope::core::coreml {

/// A file of the container: its bytes and, when the container is the payload itself, its offset
/// there (nullopt for a model held in named data).
struct ContainerFile {
    std::span<const std::uint8_t> bytes;
    std::optional<std::uint64_t> payloadOffset;
};

/// What the container around model.mlmodel tells the program reader.
struct ModelInputs {
    ContainerFile model; ///< model.mlmodel (protobuf)
    std::string modelPath; ///< its path in the container, for messages
    /// A file named by a blob value relative to the package's Data/com.apple.CoreML folder
    /// ("weights/weight.bin" for "@model_path/weights/weight.bin"); nullopt when absent.
    std::function<std::optional<ContainerFile>(const std::string& relativePath)> packageFile;
    std::vector<std::string> inputNames; ///< metadata.json: the DelegateCall's input order
    std::vector<std::string> outputNames; ///< metadata.json: the DelegateCall's output order
    /// debug_info.json debugSymbolToHandles: debug symbol → AOT debug handles.
    std::map<std::string, std::vector<std::int64_t>> symbolHandles;
    /// debug_info.json debugSymbolToOperationPath, inverted: operationKey(function, output,
    /// operator) → debug symbol.
    std::map<std::string, std::string> symbolByOperation;
    std::string functionName; ///< the function to draw (CMJR reference); empty: "main", else the first
};

/// The key of symbolByOperation for an operation path that ends in (function, operation output,
/// operator type).
std::string operationKey(const std::string& function, const std::string& output, const std::string& op);

/// Reads the model into `info.innerGraph` and adds facts. False (with a warning) when the model
/// holds no readable ML Program; warnings for damage after which what was read is still drawn.
bool decodeModel(const DelegateContext& context, DelegateInfo& info, const ModelInputs& model);

} // namespace etscope::core::coreml
