// SPDX-License-Identifier: MIT
// Writes NativeBackend ("native_graph") payloads for fixtures (layout: core/schema/native.fbs).
#include "core/writer/payloads/nativegraphwriter.h"

#include "native_generated.h"

namespace etscope::core {
namespace fbn = etscope::fb::native;

namespace {

flatbuffers::Offset<fbn::TensorMeta> floatMeta(
    flatbuffers::FlatBufferBuilder& b, const std::vector<std::int64_t>& shape)
{
    std::vector<flatbuffers::Offset<fbn::Dim>> dims;
    dims.reserve(shape.size());
    for (const std::int64_t dim : shape)
        dims.push_back(fbn::CreateDim(b, dim, dim));
    return fbn::CreateTensorMeta(b, fbn::ScalarType::FLOAT, b.CreateVector(dims));
}

flatbuffers::Offset<fbn::NamedArgument> argument(flatbuffers::FlatBufferBuilder& b, const std::string& name,
    fbn::ArgumentValue type, flatbuffers::Offset<void> value)
{
    return fbn::CreateNamedArgument(b, b.CreateString(name), fbn::CreateArgument(b, type, value));
}

} // namespace

std::vector<std::uint8_t> writeNativeGraphPayload(const NativeGraphSpec& spec)
{
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fbn::Node>> nodes;
    for (const NativeNodeSpec& node : spec.nodes) {
        std::vector<flatbuffers::Offset<fbn::NamedArgument>> args;
        int position = 0;
        for (const std::string& tensor : node.tensorArgs)
            args.push_back(argument(b, "input" + std::to_string(position++), fbn::ArgumentValue::TensorArg,
                fbn::CreateTensorArg(b, b.CreateString(tensor)).Union()));
        if (!node.listArg.empty())
            args.push_back(argument(b, "tensors", fbn::ArgumentValue::TensorListArg,
                fbn::CreateTensorListArg(b, b.CreateVectorOfStrings(node.listArg)).Union()));
        if (node.hasIntArg)
            args.push_back(argument(b, "dim", fbn::ArgumentValue::IntArg, fbn::CreateIntArg(b, node.intArg).Union()));
        const auto inputs = b.CreateVector(args);
        const auto name = b.CreateString(node.name);
        const auto target = b.CreateString(node.target);
        std::vector<flatbuffers::Offset<fbn::Output>> outs;
        if (node.kind == 0)
            outs.push_back(fbn::CreateOutput(b, b.CreateString(node.name)));
        nodes.push_back(
            fbn::CreateNode(b, name, static_cast<fbn::OpKind>(node.kind), target, inputs, b.CreateVector(outs)));
    }
    const auto nodeVector = b.CreateVector(nodes);
    const auto inputs = b.CreateVectorOfStrings(spec.inputs);
    const auto outputs = b.CreateVectorOfStrings(spec.outputs);
    std::vector<flatbuffers::Offset<fbn::TensorValue>> values;
    for (const auto& [name, shape] : spec.tensorValues)
        values.push_back(fbn::CreateTensorValue(b, b.CreateString(name), floatMeta(b, shape)));
    const auto graph = fbn::CreateGraph(b, nodeVector, inputs, outputs, b.CreateVector(values));
    std::vector<flatbuffers::Offset<fbn::NamedTensorRef>> constants;
    for (const NativeConstantSpec& constant : spec.constants)
        constants.push_back(
            fbn::CreateNamedTensorRef(b, b.CreateString(constant.name), b.CreateString(constant.dataKey),
                floatMeta(b, constant.shape), static_cast<fbn::InputKind>(constant.kind)));
    const auto method = fbn::CreateMethod(b, b.CreateString(spec.method), graph, b.CreateVector(constants));
    const auto version = b.CreateString(spec.version);
    b.Finish(fbn::CreateProgram(b, version, b.CreateVector(std::vector { method })), "NPTG");
    return { b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize() };
}

NativeGraphSpec smallNativeGraph()
{
    NativeGraphSpec spec;
    spec.nodes = {
        { "x", 1, "", {}, {} },
        { "w", 1, "", {}, {} },
        { "linear", 0, "aten.linear.default", { "x", "w" }, {} },
        { "relu", 0, "aten.relu.default", { "linear" }, {} },
        { "cat", 0, "aten.cat.default", {}, { "relu", "linear" }, true, 1 },
        { "output", 2, "output", { "cat" }, {} },
    };
    spec.inputs = { "x" };
    spec.outputs = { "cat" };
    spec.constants = { { "w", "weight", 1, { 4, 4 } } };
    spec.tensorValues = { { "x", { 1, 4 } }, { "linear", { 1, 4 } }, { "relu", { 1, 4 } }, { "cat", { 1, 8 } } };
    return spec;
}

} // namespace etscope::core
