// SPDX-License-Identifier: MIT
// Writes QnnBackend payloads whose context binary has the structure ETScope reads
// (core/schema/qnncontext.fbs, core/delegates/qnncontext.cpp): no real QNN runtime would load
// them (the HTP section holds no kernels), but every field the decoder reads is where a QNN
// v2.37 context binary has it.
#include "core/writer/payloads/qnnpayloadwriter.h"

#include "qnncontext_generated.h"

#include <flatbuffers/flatbuffers.h>

namespace etscope::core {
namespace fbc = etscope::fb::qnnctx;

namespace {

void putLe(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value, int width)
{
    for (int i = 0; i < width; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

void putBe32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * (3 - i)));
}

std::vector<std::uint8_t> finished(flatbuffers::FlatBufferBuilder& fbb)
{
    return { fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize() };
}

std::vector<flatbuffers::Offset<fbc::HtpTensorRecord>> sectionTensors(
    flatbuffers::FlatBufferBuilder& fbb, const std::vector<QnnTensorSpec>& list)
{
    std::vector<flatbuffers::Offset<fbc::HtpTensorRecord>> out;
    for (const QnnTensorSpec& t : list) {
        const auto tensor = fbc::CreateHtpTensorDirect(fbb, t.id, t.producer, 0, 0, 0, t.dataType, t.name.c_str(),
            static_cast<std::uint32_t>(t.dims.size()), &t.dims);
        out.push_back(fbc::CreateHtpTensorRecord(fbb, fbc::HtpTensorUnion::HtpTensorV1, tensor.Union()));
    }
    return out;
}

std::vector<std::uint8_t> htpFlatbuffer(const std::vector<QnnGraphSpec>& graphs, const QnnWriteOptions& options)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbc::HtpGraphRecord>> records;
    for (const QnnGraphSpec& graph : graphs) {
        std::vector<flatbuffers::Offset<fbc::HtpNode>> nodes;
        for (const QnnNodeSpec& node : graph.nodes)
            nodes.push_back(fbc::CreateHtpNodeDirect(fbb, node.id, node.name.c_str()));
        const auto inputs = sectionTensors(fbb, graph.inputs);
        const auto outputs = sectionTensors(fbb, graph.outputs);
        const auto body = fbc::CreateHtpGraphDirect(fbb, &nodes, options.sectionTensors ? &inputs : nullptr,
            options.sectionTensors ? &outputs : nullptr, graph.name.c_str());
        records.push_back(fbc::CreateHtpGraphRecord(fbb, fbc::HtpGraphUnion::HtpGraphV1, body.Union()));
    }
    fbb.Finish(fbc::CreateHtpRootDirect(fbb, 0, 0, 0, &records));
    return finished(fbb);
}

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fbc::CtxTensor>>> tensors(
    flatbuffers::FlatBufferBuilder& fbb, const std::vector<QnnTensorSpec>& list)
{
    std::vector<flatbuffers::Offset<fbc::CtxTensor>> out;
    out.reserve(list.size());
    for (const QnnTensorSpec& t : list)
        out.push_back(fbc::CreateCtxTensorDirect(fbb, t.id, t.tensorType, 0, t.dataType, 0, 0,
            static_cast<std::uint32_t>(t.dims.size()), &t.dims, 0, t.name.c_str()));
    return fbb.CreateVector(out);
}

std::vector<std::uint8_t> metadataFlatbuffer(
    const std::vector<QnnGraphSpec>& graphs, const QnnWriteOptions& options, std::uint64_t sectionSize)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbc::CtxGraphRecord>> records;
    for (const QnnGraphSpec& graph : graphs) {
        const auto inputs = tensors(fbb, graph.inputs);
        const auto outputs = tensors(fbb, graph.outputs);
        const auto io
            = fbc::CreateCtxGraphIo(fbb, fbb.CreateString(graph.name), static_cast<std::uint32_t>(graph.inputs.size()),
                inputs, static_cast<std::uint32_t>(graph.outputs.size()), outputs);
        const auto body = fbc::CreateCtxGraphBody(fbb, fbc::CreateCtxGraphInner(fbb, io));
        records.push_back(fbc::CreateCtxGraphRecord(fbb, 3, fbc::CtxGraphUnion::CtxGraphV3, body.Union()));
    }
    const fbc::CtxVersion core(2, 27, 0);
    const fbc::CtxVersion backend(5, 37, 0);
    const auto info = fbc::CreateCtxInfoDirect(fbb, 6, options.buildId.c_str(), &core, &backend, 0, 0, 0, 0, 0, 0,
        &records, sectionSize, 0, 0, 0, 0, options.socModel);
    const auto record = fbc::CreateCtxRecord(fbb, 3, static_cast<fbc::CtxInfoUnion>(options.infoTag), info.Union());
    fbb.Finish(fbc::CreateCtxRoot(fbb, record));
    return finished(fbb);
}

} // namespace

std::vector<std::uint8_t> writeQnnContextBinary(const std::vector<QnnGraphSpec>& graphs, const QnnWriteOptions& options)
{
    std::vector<std::uint8_t> section;
    if (options.writeSection) {
        const std::vector<std::uint8_t> fb = htpFlatbuffer(graphs, options);
        section.assign(48 + fb.size(), 0);
        putLe(section, 0, 3, 8);
        putLe(section, 8, 3, 8);
        putLe(section, 16, 3, 8);
        putLe(section, 24, options.sectionFlatbufferSizeField.value_or(fb.size()), 8);
        putLe(section, 32, 8, 8); // length of the field at 40
        std::copy(fb.begin(), fb.end(), section.begin() + 48);
    }
    const std::vector<std::uint8_t> metadata = metadataFlatbuffer(graphs, options, section.size());
    const std::size_t sectionOffset
        = options.writeSection ? (40 + metadata.size() + 63) / 64 * 64 : 40 + metadata.size();
    std::vector<std::uint8_t> out(sectionOffset + section.size(), 0);
    for (std::size_t i = 0; i < 4; ++i)
        putBe32(out, 4 * i, options.words[i]);
    putLe(out, 16, options.metadataSizeField.value_or(metadata.size()), 8);
    putLe(out, 24, options.sectionOffsetField.value_or(options.writeSection ? sectionOffset : 0), 8);
    putLe(out, 32, options.sectionSizeField.value_or(section.size()), 8);
    std::copy(metadata.begin(), metadata.end(), out.begin() + 40);
    std::copy(section.begin(), section.end(), out.begin() + static_cast<std::ptrdiff_t>(sectionOffset));
    return out;
}

std::vector<std::uint8_t> writeQnnPayload(const std::vector<QnnGraphSpec>& graphs, const QnnWriteOptions& options)
{
    const std::vector<std::uint8_t> binary = writeQnnContextBinary(graphs, options);
    const std::size_t header = options.executorchHeader < 20 ? 20 : options.executorchHeader;
    std::vector<std::uint8_t> out(header + binary.size(), 0);
    putLe(out, 0, 0x5678ABCDu, 4);
    putLe(out, 4, static_cast<std::uint64_t>(options.signature), 8);
    putLe(out, 12, options.binarySizeField.value_or(binary.size()), 8);
    std::copy(binary.begin(), binary.end(), out.begin() + static_cast<std::ptrdiff_t>(header));
    return out;
}

QnnBinaryLayout qnnBinaryLayout(const std::vector<std::uint8_t>& binary)
{
    QnnBinaryLayout layout;
    if (binary.size() < 40)
        return layout;
    const auto le64 = [&](std::size_t at) {
        std::uint64_t v = 0;
        for (int i = 7; i >= 0; --i)
            v = (v << 8) | binary[at + static_cast<std::size_t>(i)];
        return v;
    };
    layout.metadataSize = le64(16);
    layout.sectionOffset = le64(24);
    layout.sectionFlatbufferOffset = layout.sectionOffset + 48;
    return layout;
}

} // namespace etscope::core
