// SPDX-License-Identifier: MIT
#include "core/writer/payloads/mpspayloadwriter.h"

#include "mps_generated.h"

#include <flatbuffers/flatbuffers.h>

namespace etscope::core {
namespace fbm = etscope::fb::mps;

namespace {

constexpr std::size_t kGraphOffset = 24;

void putLe64(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

} // namespace

std::vector<std::uint8_t> writeMpsPayload(const MpsGraphSpec& graph)
{
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fbm::MPSNode>> nodes;
    for (const std::uint8_t tag : graph.nodeTags)
        nodes.push_back(fbm::CreateMPSNode(b, tag, fbm::CreateOpaqueTable(b)));
    std::vector<flatbuffers::Offset<fbm::MPSTensor>> values;
    for (const MpsTensorSpec& v : graph.values)
        values.push_back(fbm::CreateMPSTensorDirect(b, static_cast<std::int16_t>(v.datatype),
            static_cast<std::int32_t>(v.dims.size()), &v.dims, v.constantSize, 0, v.segmentOffset));

    // The header holds the segment's payload offset; the graph's own copy is written relative (0).
    const auto segment = fbm::CreateMPSDataSegment(b, 0, graph.constantSegment.size());
    b.Finish(fbm::CreateMPSGraphDirect(b, graph.version.c_str(), &nodes, &values, &graph.inputIds, &graph.outputIds,
                 &graph.constantIds, static_cast<std::int16_t>(graph.graphType), segment),
        "MP00");

    const std::size_t segmentOffset = (kGraphOffset + b.GetSize() + 15) / 16 * 16;
    std::vector<std::uint8_t> out(segmentOffset + graph.constantSegment.size(), 0);
    std::copy(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize(), out.begin() + kGraphOffset);
    std::copy(graph.constantSegment.begin(), graph.constantSegment.end(),
        out.begin() + static_cast<std::ptrdiff_t>(segmentOffset));
    out[4] = 'M';
    out[5] = 'P';
    out[6] = '0';
    out[7] = '0';
    putLe64(out, 8, segmentOffset);
    putLe64(out, 16, graph.constantSegment.size());
    return out;
}

} // namespace etscope::core
