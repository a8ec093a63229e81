// SPDX-License-Identifier: MIT
#include "core/writer/programspec.h"

#include "core/writer/segmentlayout.h"

#include <algorithm>
#include <map>

namespace etscope::core {

std::uint64_t TensorSpec::byteSize() const
{
    std::uint64_t elements = 1;
    for (const std::int32_t size : sizes) {
        if (size < 0)
            return 0;
        elements *= static_cast<std::uint64_t>(size);
    }
    return elements * static_cast<std::uint64_t>(std::max(0, scalarTypeSize(scalarType)));
}

ValueSpec ValueSpec::null()
{
    return {};
}

ValueSpec ValueSpec::integer(std::int64_t value)
{
    ValueSpec v;
    v.kind = Value::Kind::Int;
    v.intValue = value;
    return v;
}

ValueSpec ValueSpec::boolean(bool value)
{
    ValueSpec v;
    v.kind = Value::Kind::Bool;
    v.boolValue = value;
    return v;
}

ValueSpec ValueSpec::real(double value)
{
    ValueSpec v;
    v.kind = Value::Kind::Double;
    v.doubleValue = value;
    return v;
}

ValueSpec ValueSpec::string(std::string value)
{
    ValueSpec v;
    v.kind = Value::Kind::String;
    v.stringValue = std::move(value);
    return v;
}

ValueSpec ValueSpec::intList(std::vector<std::int64_t> valueIndices)
{
    ValueSpec v;
    v.kind = Value::Kind::IntList;
    v.items = std::move(valueIndices);
    return v;
}

ValueSpec ValueSpec::doubleList(std::vector<double> values)
{
    ValueSpec v;
    v.kind = Value::Kind::DoubleList;
    v.doubles = std::move(values);
    return v;
}

ValueSpec ValueSpec::boolList(std::vector<bool> values)
{
    ValueSpec v;
    v.kind = Value::Kind::BoolList;
    v.bools = std::move(values);
    return v;
}

ValueSpec ValueSpec::tensorList(std::vector<std::int64_t> valueIndices)
{
    ValueSpec v;
    v.kind = Value::Kind::TensorList;
    v.items = std::move(valueIndices);
    return v;
}

ValueSpec ValueSpec::optionalTensorList(std::vector<std::int64_t> valueIndices)
{
    ValueSpec v;
    v.kind = Value::Kind::OptionalTensorList;
    v.items = std::move(valueIndices);
    return v;
}

ValueSpec ValueSpec::ofTensor(TensorSpec tensor)
{
    ValueSpec v;
    v.kind = Value::Kind::Tensor;
    v.tensor = std::move(tensor);
    return v;
}

ValueSpec ValueSpec::unknown(int rawTag)
{
    ValueSpec v;
    v.kind = Value::Kind::Unknown;
    v.rawTag = rawTag;
    return v;
}

InstructionSpec InstructionSpec::kernel(std::int32_t opIndex, std::vector<std::int32_t> args)
{
    InstructionSpec i;
    i.kind = Instruction::Kind::Kernel;
    i.index = opIndex;
    i.args = std::move(args);
    return i;
}

InstructionSpec InstructionSpec::delegate(std::int32_t delegateIndex, std::vector<std::int32_t> args)
{
    InstructionSpec i;
    i.kind = Instruction::Kind::Delegate;
    i.index = delegateIndex;
    i.args = std::move(args);
    return i;
}

InstructionSpec InstructionSpec::move(std::int32_t from, std::int32_t to)
{
    InstructionSpec i;
    i.kind = Instruction::Kind::Move;
    i.moveFrom = from;
    i.moveTo = to;
    return i;
}

InstructionSpec InstructionSpec::jumpFalse(std::int32_t condition, std::int32_t destination)
{
    InstructionSpec i;
    i.kind = Instruction::Kind::JumpFalse;
    i.condition = condition;
    i.destination = destination;
    return i;
}

InstructionSpec InstructionSpec::free(std::int32_t value)
{
    InstructionSpec i;
    i.kind = Instruction::Kind::Free;
    i.freedValue = value;
    return i;
}

InstructionSpec InstructionSpec::unknown(int rawTag)
{
    InstructionSpec i;
    i.kind = Instruction::Kind::Unknown;
    i.rawTag = rawTag;
    return i;
}

std::int32_t MethodSpec::addValue(ValueSpec value)
{
    values.push_back(std::move(value));
    return static_cast<std::int32_t>(values.size() - 1);
}

std::int32_t MethodSpec::addOperator(const std::string& name, const std::string& overload)
{
    for (std::size_t i = 0; i < operators.size(); ++i)
        if (operators[i].name == name && operators[i].overload == overload)
            return static_cast<std::int32_t>(i);
    operators.push_back({ name, overload });
    return static_cast<std::int32_t>(operators.size() - 1);
}

std::int32_t MethodSpec::addDelegate(DelegateSpec delegate)
{
    delegates.push_back(std::move(delegate));
    return static_cast<std::int32_t>(delegates.size() - 1);
}

std::int32_t MethodSpec::addInstruction(InstructionSpec instruction)
{
    if (chains.empty())
        chains.emplace_back();
    chains.front().instructions.push_back(std::move(instruction));
    return static_cast<std::int32_t>(chains.front().instructions.size() - 1);
}

void MethodSpec::computeArenaSizes()
{
    std::map<std::uint32_t, std::uint64_t> ends;
    for (const ValueSpec& value : values)
        if (value.kind == Value::Kind::Tensor && value.tensor.allocation) {
            const AllocationSpec& a = *value.tensor.allocation;
            std::uint64_t& end = ends[a.memoryId];
            end = std::max(end, a.memoryOffset + value.tensor.byteSize());
        }
    nonConstBufferSizes.assign(1, 0);
    for (const auto& [id, end] : ends) {
        if (id == 0)
            continue;
        if (nonConstBufferSizes.size() <= id)
            nonConstBufferSizes.resize(id + 1, 0);
        nonConstBufferSizes[id] = static_cast<std::int64_t>(alignUp(end, 16));
    }
}

MethodSpec& ProgramSpec::addMethod(std::string name)
{
    methods.emplace_back();
    methods.back().name = std::move(name);
    return methods.back();
}

const MethodSpec* ProgramSpec::method(const std::string& name) const
{
    const auto it = std::find_if(methods.begin(), methods.end(), [&](const MethodSpec& m) { return m.name == name; });
    return it == methods.end() ? nullptr : &*it;
}

std::vector<std::uint8_t> contiguousDimOrder(std::size_t rank)
{
    std::vector<std::uint8_t> order(rank);
    for (std::size_t i = 0; i < rank; ++i)
        order[i] = static_cast<std::uint8_t>(i);
    return order;
}

} // namespace etscope::core
