// SPDX-License-Identifier: MIT
#include "core/writer/bundledprogramwriter.h"

#include "core/writer/programspec.h"

#include "bundled_program_generated.h"

namespace etscope::core {
namespace fbb = etscope::fb::bundled;

namespace {

flatbuffers::Offset<fbb::Value> writeValue(flatbuffers::FlatBufferBuilder& builder, const BundledValueSpec& value)
{
    using U = fbb::ValueUnion;
    switch (value.kind) {
    case BundledValue::Kind::Tensor: {
        const auto sizes = builder.CreateVector(value.sizes);
        builder.ForceVectorAlignment(value.data.size(), sizeof(std::uint8_t), 16);
        const auto data = builder.CreateVector(value.data);
        const auto dimOrder
            = builder.CreateVector(value.dimOrder.empty() ? contiguousDimOrder(value.sizes.size()) : value.dimOrder);
        const auto tensor
            = fbb::CreateTensorValue(builder, static_cast<std::int8_t>(value.scalarType), sizes, data, dimOrder);
        return fbb::CreateValue(builder, U::TensorValue, tensor.Union());
    }
    case BundledValue::Kind::Int:
        return fbb::CreateValue(builder, U::IntValue, fbb::CreateIntValue(builder, value.intValue).Union());
    case BundledValue::Kind::Bool:
        return fbb::CreateValue(builder, U::BoolValue, fbb::CreateBoolValue(builder, value.boolValue).Union());
    case BundledValue::Kind::Double:
        return fbb::CreateValue(builder, U::DoubleValue, fbb::CreateDoubleValue(builder, value.doubleValue).Union());
    case BundledValue::Kind::Unknown:
        break;
    }
    return fbb::CreateValue(builder);
}

} // namespace

BundledValueSpec BundledValueSpec::tensor(
    int scalarType, std::vector<std::int32_t> sizes, std::vector<std::uint8_t> data)
{
    BundledValueSpec v;
    v.kind = BundledValue::Kind::Tensor;
    v.scalarType = scalarType;
    v.sizes = std::move(sizes);
    v.data = std::move(data);
    return v;
}

BundledValueSpec BundledValueSpec::integer(std::int64_t value)
{
    BundledValueSpec v;
    v.kind = BundledValue::Kind::Int;
    v.intValue = value;
    return v;
}

BundledValueSpec BundledValueSpec::boolean(bool value)
{
    BundledValueSpec v;
    v.kind = BundledValue::Kind::Bool;
    v.boolValue = value;
    return v;
}

BundledValueSpec BundledValueSpec::real(double value)
{
    BundledValueSpec v;
    v.kind = BundledValue::Kind::Double;
    v.doubleValue = value;
    return v;
}

Result<std::vector<std::uint8_t>> writeBundledProgram(const BundledProgramSpec& spec)
{
    flatbuffers::FlatBufferBuilder builder(spec.program.size() + 4096);
    std::vector<flatbuffers::Offset<fbb::MethodTestSuite>> suites;
    for (const BundledSuiteSpec& suite : spec.suites) {
        std::vector<flatbuffers::Offset<fbb::MethodTestCase>> cases;
        for (const BundledTestCaseSpec& testCase : suite.cases) {
            std::vector<flatbuffers::Offset<fbb::Value>> inputs;
            for (const BundledValueSpec& value : testCase.inputs)
                inputs.push_back(writeValue(builder, value));
            const auto inputVector = builder.CreateVector(inputs);
            std::vector<flatbuffers::Offset<fbb::Value>> outputs;
            for (const BundledValueSpec& value : testCase.expectedOutputs)
                outputs.push_back(writeValue(builder, value));
            const auto outputVector = builder.CreateVector(outputs);
            cases.push_back(fbb::CreateMethodTestCase(builder, inputVector, outputVector));
        }
        const auto name = builder.CreateString(suite.methodName);
        const auto caseVector = builder.CreateVector(cases);
        suites.push_back(fbb::CreateMethodTestSuite(builder, name, caseVector));
    }
    const auto suiteVector = builder.CreateVector(suites);
    // The embedded program is read in place, so it keeps the 32-byte alignment the schema asks.
    builder.ForceVectorAlignment(spec.program.size(), sizeof(std::uint8_t), 32);
    const auto program = builder.CreateVector(spec.program);
    builder.Finish(
        fbb::CreateBundledProgram(builder, spec.version, suiteVector, program), fbb::BundledProgramIdentifier());
    return std::vector<std::uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

} // namespace etscope::core
