// SPDX-License-Identifier: MIT
// MPS payloads (facts sheet §3.3, deprecated backend): bytes 4–7 "MP00", uint64 offset and size
// of the constant segment at 8 and 16, then the MPSGraph FlatBuffer from byte 24 (its own
// identifier, again "MP00", at byte 28). The node parameter tables are not in the sheet, so the
// graph is described — node types, values, inputs/outputs, constants — but not wired.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/pte/verify.h"
#include "core/util/text.h"
#include "mps_generated.h"

#include <cstring>
#include <map>

namespace etscope::core {
namespace fbm = etscope::fb::mps;

namespace {

constexpr std::size_t kFlatbufferOffset = 24;

/// Node union members by tag (1-based), as the MPS schema lists them.
constexpr const char* kNodeNames[] = { "MPSHardTanh", "MPSReLU", "MPSGELU", "MPSLeakyReLU", "MPSSoftmax",
    "MPSLogSoftmax", "MPSAdd", "MPSSub", "MPSMul", "MPSDiv", "MPSFmod", "MPSRemainder", "MPSMin", "MPSMax", "MPSPow",
    "MPSAtan2", "MPSBitwiseAnd", "MPSBitwiseOr", "MPSBitwiseXor", "MPSMinimum", "MPSExp", "MPSExp2", "MPSReciprocal",
    "MPSSqrt", "MPSNeg", "MPSLog", "MPSLog10", "MPSLog2", "MPSErf", "MPSFloor", "MPSCeil", "MPSRsqrt", "MPSSigmoid",
    "MPSSin", "MPSSign", "MPSCos", "MPSTan", "MPSAbs", "MPSAsin", "MPSAcos", "MPSAtan", "MPSSinh", "MPSCosh", "MPSTanh",
    "MPSAsinh", "MPSAcosh", "MPSAtanh", "MPSBitwiseNot", "MPSIsnan", "MPSIsinf", "MPSRound", "MPSLogicalNot",
    "MPSMatMul", "MPSAddmm", "MPSFull", "MPSFullLike", "MPSClamp", "MPSWhere", "MPSIndexSelect", "MPSEmbedding",
    "MPSIndexTensor", "MPSIndexPut", "MPSScatter", "MPSMean", "MPSPermute", "MPSView", "MPSExpand", "MPSCat",
    "MPSSqueeze", "MPSUnsqueeze", "MPSSelect", "MPSSlice", "MPSPixelShuffle", "MPSSplitWithSizes", "MPSCast",
    "MPSConv2D", "MPSDepthwiseConv2D", "MPSEq", "MPSNe", "MPSGe", "MPSGt", "MPSLe", "MPSLt", "MPSBatchNorm",
    "MPSLayerNorm", "MPSMaxPool2DWithIndices", "MPSAvgPool2D", "MPSConstantPadND", "MPSArange",
    "MPSDequantizePerChannelGroup" };

std::string nodeName(int tag)
{
    if (tag >= 1 && tag <= static_cast<int>(std::size(kNodeNames)))
        return kNodeNames[tag - 1];
    return "MPSNode(" + std::to_string(tag) + ")";
}

std::string dataTypeName(int type)
{
    // The sheet's numbering; 11–14 are not named there.
    static constexpr const char* kNames[]
        = { "invalid", "f16", "f32", "f64", "bf16", "int4", "int8", "int16", "int32", "int64", "uint4" };
    if (type >= 0 && type < static_cast<int>(std::size(kNames)))
        return kNames[type];
    return type == 15 ? "bool" : "mps_dtype(" + std::to_string(type) + ")";
}

template <typename Map> std::string histogram(const Map& counts)
{
    std::string out;
    for (const auto& [name, count] : counts)
        out += (out.empty() ? "" : ", ") + name + " " + std::to_string(count);
    return out;
}

} // namespace

bool decodeMps(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    if (payload.size() < kFlatbufferOffset + 8 || std::memcmp(payload.data() + 4, "MP00", 4) != 0) {
        context.warn(info, "not an MPS payload: no MP00 header", 0);
        return false;
    }
    const std::uint64_t segmentOffset = readLe64(payload.data() + 8);
    const std::uint64_t segmentSize = readLe64(payload.data() + 16);
    info.facts.push_back({ "header", "MP00" });
    info.facts.push_back({ "constant segment",
        std::to_string(segmentSize) + " bytes at payload offset " + std::to_string(segmentOffset) });
    const bool segmentInside = detail::rangeInside(payload.size(), segmentOffset, segmentSize);
    if (!segmentInside)
        context.warn(info, "the MP00 header places the constant segment outside the payload", 8);
    const std::uint64_t graphEnd = segmentInside && segmentOffset >= kFlatbufferOffset ? segmentOffset : payload.size();
    const auto flatbuffer = payload.subspan(kFlatbufferOffset, static_cast<std::size_t>(graphEnd - kFlatbufferOffset));
    if (flatbuffer.size() < 8 || std::memcmp(flatbuffer.data() + 4, "MP00", 4) != 0) {
        context.warn(info, "the MPS graph at byte 24 does not carry the MP00 identifier", kFlatbufferOffset + 4);
        return false;
    }
    if (!verifyFlatbuffer<fbm::MPSGraph>(flatbuffer.data(), flatbuffer.size(), "MP00", false)) {
        context.warn(info, "the FlatBuffers verifier rejected the MPS graph", kFlatbufferOffset);
        return false;
    }
    const fbm::MPSGraph* root = fbm::GetMPSGraph(flatbuffer.data());
    info.format = "mps";
    if (root->version())
        info.facts.push_back({ "graph version", root->version()->str() });
    info.facts.push_back({ "graph type",
        root->graph_type() == 0       ? "mps_graph"
            : root->graph_type() == 1 ? "metal_kernel"
                                      : std::to_string(root->graph_type()) });

    std::map<std::string, int> nodeTypes;
    const std::size_t nodes = root->mps_nodes() ? root->mps_nodes()->size() : 0;
    for (std::size_t n = 0; n < nodes; ++n) {
        const fbm::MPSNode* node = root->mps_nodes()->Get(static_cast<flatbuffers::uoffset_t>(n));
        ++nodeTypes[nodeName(node ? node->mps_node_union_type() : 0)];
    }
    info.facts.push_back({ "nodes", std::to_string(nodes) + (nodes ? " (" + histogram(nodeTypes) + ")" : "") });

    std::map<std::string, int> dtypes;
    std::uint64_t constantBytes = 0;
    const std::size_t values = root->mps_values() ? root->mps_values()->size() : 0;
    for (std::size_t v = 0; v < values; ++v) {
        const fbm::MPSTensor* tensor = root->mps_values()->Get(static_cast<flatbuffers::uoffset_t>(v));
        if (!tensor)
            continue;
        ++dtypes[dataTypeName(tensor->datatype())];
        constantBytes += tensor->constant_buffer_size();
        if (tensor->constant_buffer_size()
            && !detail::rangeInside(
                segmentInside ? segmentSize : 0, tensor->segment_offset(), tensor->constant_buffer_size()))
            context.warn(info, "MPS value " + std::to_string(v) + " places its constant outside the constant segment");
    }
    info.facts.push_back({ "values", std::to_string(values) + (values ? " (" + histogram(dtypes) + ")" : "") });
    const auto count
        = [](const flatbuffers::Vector<std::int32_t>* ids) { return ids ? static_cast<int>(ids->size()) : 0; };
    info.facts.push_back(
        { "constants", std::to_string(count(root->constant_ids())) + " (" + formatBytes(constantBytes) + ")" });
    if (const auto* segment = root->constant_segment())
        info.facts.push_back({ "graph constant segment",
            std::to_string(segment->size()) + " bytes at offset " + std::to_string(segment->offset()) });
    info.inputCount = count(root->input_ids());
    info.outputCount = count(root->output_ids());
    info.summary = "MPS graph: " + detail::plural(nodes, "node", "nodes") + ", "
        + detail::plural(static_cast<std::uint64_t>(*info.inputCount), "input", "inputs") + ", "
        + detail::plural(static_cast<std::uint64_t>(*info.outputCount), "output", "outputs");
    return true;
}

} // namespace etscope::core
