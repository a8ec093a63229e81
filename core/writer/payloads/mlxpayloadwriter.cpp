// SPDX-License-Identifier: MIT
// Writes MLX delegate payloads for fixtures (layout: core/delegates/mlx.cpp, core/schema/mlx.fbs).
#include "core/writer/payloads/mlxpayloadwriter.h"

#include "mlx_generated.h"

#include <algorithm>
#include <cstddef>

namespace etscope::core {
namespace fbm = etscope::fb::mlx;

namespace {

void putU64(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i)
        bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

flatbuffers::Offset<fbm::Instruction> writeInstruction(flatbuffers::FlatBufferBuilder& b, const MlxInstructionSpec& op)
{
    const auto tid = [&](const std::vector<std::uint32_t>& ids, std::size_t i) { return fbm::Tid(ids.at(i)); };
    switch (op.kind) {
    case MlxInstructionSpec::Kind::Addmm: {
        const fbm::Tid mat1 = tid(op.reads, 0);
        const fbm::Tid mat2 = tid(op.reads, 1);
        const fbm::Tid out = tid(op.writes, 0);
        const fbm::Tid bias = op.reads.size() > 2 ? tid(op.reads, 2) : fbm::Tid();
        const auto node = fbm::CreateAddmmNode(b, &mat1, &mat2, &out, op.reads.size() > 2 ? &bias : nullptr);
        return fbm::CreateInstruction(b, fbm::OpNode::AddmmNode, node.Union());
    }
    case MlxInstructionSpec::Kind::Silu: {
        const fbm::Tid x = tid(op.reads, 0);
        const fbm::Tid out = tid(op.writes, 0);
        return fbm::CreateInstruction(b, fbm::OpNode::SiluNode, fbm::CreateSiluNode(b, &x, &out).Union());
    }
    case MlxInstructionSpec::Kind::Softmax: {
        const fbm::Tid x = tid(op.reads, 0);
        const fbm::Tid out = tid(op.writes, 0);
        return fbm::CreateInstruction(
            b, fbm::OpNode::SoftmaxNode, fbm::CreateSoftmaxNode(b, &x, &out, op.axis).Union());
    }
    case MlxInstructionSpec::Kind::Concatenate: {
        std::vector<fbm::Tid> tensors;
        for (const std::uint32_t id : op.reads)
            tensors.emplace_back(id);
        const auto list = b.CreateVectorOfStructs(tensors);
        const fbm::Tid out = tid(op.writes, 0);
        return fbm::CreateInstruction(
            b, fbm::OpNode::ConcatenateNode, fbm::CreateConcatenateNode(b, list, &out, op.axis).Union());
    }
    case MlxInstructionSpec::Kind::Rope: {
        const fbm::Tid x = tid(op.reads, 0);
        const fbm::Tid out = tid(op.writes, 0);
        const fbm::Tid positions = tid(op.reads, 1);
        const auto offset = fbm::CreateVidOrTid(b, nullptr, &positions, false);
        return fbm::CreateInstruction(
            b, fbm::OpNode::RopeNode, fbm::CreateRopeNode(b, &x, &out, op.axis, offset).Union());
    }
    case MlxInstructionSpec::Kind::RawTag: {
        const auto empty = fbm::CreateNoopNode(b);
        return fbm::CreateInstruction(b, static_cast<fbm::OpNode>(op.rawTag), empty.Union());
    }
    }
    return {};
}

} // namespace

std::vector<std::uint8_t> writeMlxPayload(const MlxGraphSpec& spec)
{
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fbm::Instruction>> instructions;
    instructions.reserve(spec.instructions.size());
    for (const MlxInstructionSpec& op : spec.instructions)
        instructions.push_back(writeInstruction(b, op));
    const auto chain = fbm::CreateInstructionChain(b, b.CreateVector(instructions));
    const auto chains = b.CreateVector(std::vector { chain });
    const auto slots = [&](const std::vector<std::uint32_t>& ids) {
        std::vector<flatbuffers::Offset<fbm::SlotVariant>> out;
        out.reserve(ids.size());
        for (const std::uint32_t id : ids)
            out.push_back(fbm::CreateSlotVariant(b, id, fbm::SlotType::TensorSlot));
        return b.CreateVector(out);
    };
    const auto inputs = slots(spec.inputs);
    const auto outputs = slots(spec.outputs);
    std::vector<flatbuffers::Offset<fbm::NamedSlot>> named;
    for (const auto& [name, id] : spec.namedSlots)
        named.push_back(
            fbm::CreateNamedSlot(b, b.CreateString(name), fbm::CreateSlotVariant(b, id, fbm::SlotType::TensorSlot)));
    const auto namedSlots = b.CreateVector(named);
    std::vector<flatbuffers::Offset<fbm::TensorMeta>> metas;
    for (const MlxTensorSpec& tensor : spec.tensorMeta) {
        std::vector<flatbuffers::Offset<fbm::ShapeDim>> dims;
        for (const std::int32_t dim : tensor.shape)
            dims.push_back(fbm::CreateShapeDim(b, dim));
        metas.push_back(fbm::CreateTensorMeta(b, b.CreateVector(dims), tensor.scalarType));
    }
    const auto tensorMeta = b.CreateVector(metas);
    const auto version = b.CreateString(spec.version);
    fbm::MLXGraphBuilder graph(b);
    graph.add_version(version);
    graph.add_num_constant_tensors(spec.constants);
    graph.add_num_input_tensors(spec.inputTensors);
    graph.add_num_output_tensors(spec.outputTensors);
    graph.add_num_temp_tensors(spec.tempTensors);
    graph.add_instruction_chains(chains);
    graph.add_main_chain_idx(spec.mainChain);
    graph.add_input_map(inputs);
    graph.add_output_map(outputs);
    graph.add_named_slots(namedSlots);
    graph.add_tensor_meta(tensorMeta);
    b.Finish(graph.Finish());

    // Sized once (header, FlatBuffer padded to 16, data segment), then filled: growing it with
    // insert made GCC 12 warn (-Warray-bounds, a false positive) in Release.
    const std::size_t dataOffset = (std::size_t { 24 } + b.GetSize() + 15) / 16 * 16;
    std::vector<std::uint8_t> payload(dataOffset + spec.dataSegment.size(), 0);
    payload[4] = 'M';
    payload[5] = 'L';
    payload[6] = 'X';
    payload[7] = '0';
    std::copy(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize(), payload.begin() + 24);
    putU64(payload, 8, dataOffset);
    putU64(payload, 16, spec.dataSegment.size());
    std::copy(
        spec.dataSegment.begin(), spec.dataSegment.end(), payload.begin() + static_cast<std::ptrdiff_t>(dataOffset));
    return payload;
}

MlxGraphSpec smallMlxGraph()
{
    using Kind = MlxInstructionSpec::Kind;
    MlxGraphSpec spec;
    spec.constants = 2;
    spec.inputTensors = 1;
    spec.outputTensors = 2;
    spec.tempTensors = 2;
    spec.tensorMeta = { { 6, { 4, 4 } }, { 6, { 4 } }, { 6, { 1, 4 } }, { 6, { 1, 4 } }, { 6, { 1, 4 } },
        { 6, { 1, 4 } }, { 6, { 2, 4 } } };
    spec.namedSlots = { { "w", 0 }, { "b", 1 } };
    spec.inputs = { 2 };
    spec.outputs = { 5, 6 };
    spec.instructions = { { Kind::Addmm, { 2, 0, 1 }, { 3 } }, { Kind::Silu, { 3 }, { 4 } },
        { Kind::Softmax, { 4 }, { 5 }, -1 }, { Kind::Concatenate, { 5, 3 }, { 6 }, 0 } };
    spec.dataSegment.assign(16, 0xAB);
    return spec;
}

} // namespace etscope::core
