// SPDX-License-Identifier: MIT
#pragma once

#include "core/delegates/delegate.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// What ETScope reads from a Qualcomm QNN (HTP) context binary, the body of a QnnBackend
/// payload (schema and offsets: core/schema/qnncontext.fbs). The format is Qualcomm's and
/// unpublished; only what the sample's bytes show consistently is read: the graphs, their input
/// and output tensors (name, id, tensor type, data type, dimensions), their op nodes (id and
/// name) and, per graph output, the op node that produces it. The op nodes store no operator
/// type and no tensor names, so no other data flow is known.
namespace qnnctx {

/// Bytes of the context binary's own header: four big-endian uint32 and three uint64.
constexpr std::size_t kHeaderSize = 40;
/// Header words of every context binary seen (the QNN v2.37 sample); others are only shown.
constexpr std::array<std::uint32_t, 4> kKnownWords { 2, 3, 0, 1 };
/// Bounds against hostile input (a real context holds a few graphs of a few thousand nodes).
constexpr std::size_t kMaxGraphs = 1024;
constexpr std::size_t kMaxTensors = 100'000;
constexpr std::size_t kMaxNodes = 2'000'000;
constexpr std::size_t kMaxConfigEntries = 4096;

struct Tensor {
    std::string name;
    std::uint32_t id = 0;
    std::uint32_t tensorType = 0; ///< Qnn_TensorType_t
    std::uint32_t dataType = 0; ///< Qnn_DataType_t
    std::vector<std::int64_t> dims;
    bool hasDims = false;
    std::uint64_t offset = 0; ///< of its table, within the context binary
};

/// A graph of the metadata: name and tensors.
struct GraphIo {
    std::string name;
    std::uint32_t declaredInputs = 0;
    std::uint32_t declaredOutputs = 0;
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    std::uint64_t offset = 0;
};

struct OpNode {
    std::uint32_t id = 0;
    std::string name;
    std::uint64_t offset = 0;
};

/// A graph input or output as the HTP section lists it.
struct SectionTensor {
    Tensor tensor; ///< tensorType unused (not stored here)
    std::uint32_t producer = 0; ///< id of the op node that writes it (outputs)
};

/// A graph of the HTP section: name, op nodes in stored order, inputs and outputs.
struct OpGraph {
    std::string name;
    std::vector<OpNode> nodes;
    std::vector<SectionTensor> inputs;
    std::vector<SectionTensor> outputs;
    std::uint64_t offset = 0;
};

struct Problem {
    std::string message;
    std::uint64_t offset = 0; ///< within the context binary
};

struct Context {
    bool headerRead = false;
    std::array<std::uint32_t, 4> words {};
    std::uint64_t metadataSize = 0;
    std::uint64_t sectionOffset = 0;
    std::uint64_t sectionSize = 0;

    bool metadataRead = false;
    std::uint32_t recordVersion = 0;
    std::optional<std::uint32_t> backendId;
    std::string buildId;
    std::string coreApiVersion; ///< "2.27.0"; empty when absent
    std::string backendApiVersion;
    std::optional<std::uint64_t> contextBlobSize;
    std::optional<std::uint32_t> socModel;
    std::vector<GraphIo> graphs;

    bool sectionRead = false;
    std::uint64_t sectionFlatbufferOffset = 0;
    std::vector<OpGraph> opGraphs;

    /// The HTP backend's configuration string (readConfig in qnncontext.cpp): the entries whose
    /// key is written out whole, in stored order, the first of each key; offsets within the
    /// context binary. Empty when the section holds none.
    struct ConfigEntry {
        std::string key;
        std::string value;
        std::uint64_t offset = 0; ///< of the value
    };
    std::vector<ConfigEntry> config;

    std::vector<Problem> problems;
};

/// Reads a context binary. Never fails and never reads outside `binary`: what cannot be read
/// becomes a Problem naming its offset, and everything read before it is kept.
Context read(std::span<const std::uint8_t> binary);

/// "UFIXED_POINT_8" for 0x0408 (QnnTypes.h); "0x…" for a number it does not name.
std::string dataTypeName(std::uint32_t dataType);
/// "APP_WRITE" for 0 (Qnn_TensorType_t); the number for others.
std::string tensorTypeName(std::uint32_t tensorType);

/// The operator an ExecuTorch edge node name stands for: "aten_convolution_default_35" →
/// "aten.convolution.default", "aten__softmax_default_3_h_1" → "aten._softmax.default",
/// "aten_add_tensor_24" → "aten.add.Tensor". A name with no operator namespace gives none
/// (empty: "args_0_h_3", the split-head pass's piece of input args_0, names no op type). The uniquifying counter and
/// the split-head suffixes (_h_N, _sha_concat) of the Qualcomm passes are dropped.
std::string operatorFamily(std::string_view nodeName);

/// The position among the delegate's runtime arguments of each graph input: ExecuTorch's QNN
/// runtime sorts inputs by the number N of their "input_N_" prefix and passes no argument for
/// a mutable-buffer input ("mutbuf_"); -1 where a name has no such prefix (the order is then
/// unknown and every input gets -1).
std::vector<int> inputArgPositions(const std::vector<Tensor>& inputs);
/// Same for outputs, which follow the inputs in the stored order; only names starting with
/// "output_" and not holding "mutbuf_" take an argument.
std::vector<int> outputArgPositions(const std::vector<Tensor>& outputs, int firstPosition);

} // namespace qnnctx

/// Decodes the context binary at `binaryOffset` of the payload into `info` (facts, inner graph
/// of the graph named `method`, or of the only graph). Problems become warnings with offsets.
void decodeQnnContext(
    const DelegateContext& context, DelegateInfo& info, std::uint64_t binaryOffset, const std::string& method);

} // namespace etscope::core
