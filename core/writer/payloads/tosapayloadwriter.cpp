// SPDX-License-Identifier: MIT
#include "core/writer/payloads/tosapayloadwriter.h"

#include "tosa_generated.h"

namespace etscope::core {

namespace fbt = etscope::fb::tosa;

namespace {

std::vector<std::uint8_t> bytesOf(std::int64_t value, std::size_t size)
{
    std::vector<std::uint8_t> out(size);
    for (std::size_t i = 0; i < size; ++i)
        out[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
    return out;
}

flatbuffers::Offset<void> attributeOf(flatbuffers::FlatBufferBuilder& fbb, const TosaOperatorSpec& spec, fbt::Attr& tag)
{
    const auto conv = [&](auto create) {
        return create(fbb, fbb.CreateVector(spec.pad), fbb.CreateVector(spec.stride), fbb.CreateVector(spec.dilation),
            false, static_cast<fbt::DType>(spec.accType))
            .Union();
    };
    const std::uint8_t wanted = spec.attributeTag.value_or(static_cast<std::uint8_t>(spec.op));
    tag = static_cast<fbt::Attr>(wanted);
    switch (tag) {
    case fbt::Attr::ConvAttr:
        return conv([](auto&&... a) { return fbt::CreateConvAttr(a...); });
    case fbt::Attr::DepthwiseAttr:
        return conv([](auto&&... a) { return fbt::CreateDepthwiseAttr(a...); });
    case fbt::Attr::RescaleAttr:
        return fbt::CreateRescaleAttr(
            fbb, spec.scale32, static_cast<fbt::RoundingMode>(spec.roundingMode), spec.perChannel, false, false)
            .Union();
    case fbt::Attr::TransposeAttr:
        return fbt::CreateTransposeAttr(fbb, fbb.CreateVector(spec.perms)).Union();
    case fbt::Attr::AddAttr:
        return fbt::CreateAddAttr(fbb).Union();
    case fbt::Attr::ConstAttr:
        return fbt::CreateConstAttr(fbb).Union();
    default:
        if (spec.attributeTag)
            return fbt::CreateAddAttr(fbb).Union(); // an empty table under a foreign tag
        tag = fbt::Attr::NONE;
        return 0;
    }
}

} // namespace

void TosaGraphWriter::addConstant(TosaTensorSpec tensor)
{
    TosaOperatorSpec op;
    op.op = tosa::op::Const;
    op.outputs = { tensor.name };
    m_operators.push_back(std::move(op));
    m_tensors.push_back(std::move(tensor));
}

std::vector<std::uint8_t> TosaGraphWriter::write(std::int32_t major, std::int32_t minor) const
{
    flatbuffers::FlatBufferBuilder fbb;
    const auto strings = [&](const std::vector<std::string>& names) {
        std::vector<flatbuffers::Offset<flatbuffers::String>> out;
        out.reserve(names.size());
        for (const std::string& n : names)
            out.push_back(fbb.CreateString(n));
        return fbb.CreateVector(out);
    };
    std::vector<flatbuffers::Offset<fbt::Operator>> operators;
    for (const TosaOperatorSpec& spec : m_operators) {
        fbt::Attr tag = fbt::Attr::NONE;
        const auto attribute = attributeOf(fbb, spec, tag);
        const auto inputs = strings(spec.inputs);
        const auto outputs = strings(spec.outputs);
        operators.push_back(fbt::CreateOperator(fbb, static_cast<fbt::Op>(spec.op), tag, attribute, inputs, outputs));
    }
    std::vector<flatbuffers::Offset<fbt::Tensor>> tensors;
    for (const TosaTensorSpec& t : m_tensors) {
        const auto name = fbb.CreateString(t.name);
        const auto shape = fbb.CreateVector(t.shape);
        flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> data;
        if (!t.data.empty()) {
            fbb.ForceVectorAlignment(t.data.size(), 1, 8); // the schema upstream asks for 8
            data = fbb.CreateVector(t.data);
        }
        tensors.push_back(fbt::CreateTensor(fbb, name, shape, static_cast<fbt::DType>(t.dtype), data));
    }
    const auto blockName = fbb.CreateString("main");
    const auto block = fbt::CreateBlock(
        fbb, blockName, fbb.CreateVector(operators), fbb.CreateVector(tensors), strings(m_inputs), strings(m_outputs));
    const auto regionName = fbb.CreateString("main");
    const auto region = fbt::CreateRegion(fbb, regionName, fbb.CreateVector(std::vector { block }));
    const auto version = fbt::CreateVersion(fbb, major, minor, 0, false);
    fbb.Finish(fbt::CreateGraph(fbb, version, fbb.CreateVector(std::vector { region })), "TOSA");
    return { fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize() };
}

TosaGraphWriter smallTosaGraph()
{
    TosaGraphWriter w;
    w.addTensor({ "x", { 1, 8, 8, 3 }, tosa::dtype::Int8, {} });
    std::vector<std::uint8_t> weight(std::size_t { 4 } * 3);
    for (std::size_t i = 0; i < weight.size(); ++i)
        weight[i] = static_cast<std::uint8_t>(i + 1);
    w.addConstant({ "w", { 4, 1, 1, 3 }, tosa::dtype::Int8, weight });
    std::vector<std::uint8_t> bias;
    for (std::int64_t v : { 10, -20, 30, -40 })
        for (std::uint8_t b : bytesOf(v, 4))
            bias.push_back(b);
    w.addConstant({ "b", { 4 }, tosa::dtype::Int32, bias });
    w.addConstant({ "izp", { 1 }, tosa::dtype::Int8, bytesOf(-1, 1) });
    w.addConstant({ "wzp", { 1 }, tosa::dtype::Int8, bytesOf(0, 1) });
    w.addTensor({ "conv", { 1, 8, 8, 4 }, tosa::dtype::Int32, {} });
    TosaOperatorSpec conv;
    conv.op = tosa::op::Conv2d;
    conv.inputs = { "x", "w", "b", "izp", "wzp" };
    conv.outputs = { "conv" };
    conv.pad = { 0, 1, 0, 1 };
    w.addOperator(conv);
    w.addConstant({ "c", { 1, 1, 1, 4 }, tosa::dtype::Int32, std::vector<std::uint8_t>(16, 1) });
    w.addTensor({ "sum", { 1, 8, 8, 4 }, tosa::dtype::Int32, {} });
    w.addOperator({ tosa::op::Add, { "conv", "c" }, { "sum" } });
    w.addConstant({ "mult", { 1 }, tosa::dtype::Int32, bytesOf(1073741824, 4) });
    w.addConstant({ "shift", { 1 }, tosa::dtype::Int8, bytesOf(30, 1) });
    w.addConstant({ "in_zp", { 1 }, tosa::dtype::Int32, bytesOf(0, 4) });
    w.addConstant({ "out_zp", { 1 }, tosa::dtype::Int8, bytesOf(-128, 1) });
    w.addTensor({ "out", { 1, 8, 8, 4 }, tosa::dtype::Int8, {} });
    w.addOperator({ tosa::op::Rescale, { "sum", "mult", "shift", "in_zp", "out_zp" }, { "out" } });
    w.setInputs({ "x" });
    w.setOutputs({ "out" });
    return w;
}

} // namespace etscope::core
