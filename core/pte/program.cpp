// SPDX-License-Identifier: MIT
#include "core/pte/program.h"

#include "core/util/scalartype.h"

#include <algorithm>
#include <limits>

namespace etscope::core {

std::string_view tensorStorageName(TensorStorage storage)
{
    switch (storage) {
    case TensorStorage::Runtime:
        return "runtime";
    case TensorStorage::Planned:
        return "planned";
    case TensorStorage::Constant:
        return "constant";
    case TensorStorage::Mutable:
        return "mutable";
    case TensorStorage::External:
        return "external";
    case TensorStorage::ExternalMutable:
        return "external-mutable";
    }
    return "unknown";
}

std::string_view valueKindName(Value::Kind kind)
{
    switch (kind) {
    case Value::Kind::Null:
        return "Null";
    case Value::Kind::Int:
        return "Int";
    case Value::Kind::Bool:
        return "Bool";
    case Value::Kind::Double:
        return "Double";
    case Value::Kind::Tensor:
        return "Tensor";
    case Value::Kind::String:
        return "String";
    case Value::Kind::IntList:
        return "IntList";
    case Value::Kind::DoubleList:
        return "DoubleList";
    case Value::Kind::BoolList:
        return "BoolList";
    case Value::Kind::TensorList:
        return "TensorList";
    case Value::Kind::OptionalTensorList:
        return "OptionalTensorList";
    case Value::Kind::Unknown:
        return "Unknown";
    case Value::Kind::Missing:
        return "Missing";
    }
    return "Unknown";
}

std::string_view instructionKindName(Instruction::Kind kind)
{
    switch (kind) {
    case Instruction::Kind::Kernel:
        return "KernelCall";
    case Instruction::Kind::Delegate:
        return "DelegateCall";
    case Instruction::Kind::Move:
        return "MoveCall";
    case Instruction::Kind::JumpFalse:
        return "JumpFalseCall";
    case Instruction::Kind::Free:
        return "FreeCall";
    case Instruction::Kind::Unknown:
        return "Unknown";
    case Instruction::Kind::Missing:
        return "Missing";
    }
    return "Unknown";
}

const std::string& Value::stringValue() const
{
    static const std::string none;
    return m_rare ? m_rare->text : none;
}

const std::vector<double>& Value::doubles() const
{
    static const std::vector<double> none;
    return m_rare ? m_rare->doubles : none;
}

const std::vector<bool>& Value::bools() const
{
    static const std::vector<bool> none;
    return m_rare ? m_rare->bools : none;
}

Value::Rare& Value::rare()
{
    // Copies share the block: one being changed takes its own first.
    auto own = m_rare ? std::make_shared<Rare>(*m_rare) : std::make_shared<Rare>();
    Rare& rare = *own;
    m_rare = std::move(own);
    return rare;
}

void Value::setString(std::string text)
{
    rare().text = std::move(text);
}

void Value::setDoubles(std::vector<double> doubles)
{
    rare().doubles = std::move(doubles);
}

void Value::setBools(std::vector<bool> bools)
{
    rare().bools = std::move(bools);
}

std::uint64_t TensorInfo::elementCount() const
{
    std::uint64_t count = 1;
    for (const std::int64_t size : sizes) {
        if (size <= 0)
            return 0;
        const auto s = static_cast<std::uint64_t>(size);
        if (count > std::numeric_limits<std::uint64_t>::max() / s)
            return std::numeric_limits<std::uint64_t>::max();
        count *= s;
    }
    return count;
}

std::uint64_t TensorInfo::byteSize() const
{
    const std::uint64_t count = elementCount();
    const auto element = static_cast<std::uint64_t>(scalarTypeSize(scalarType));
    if (element == 0)
        return 0;
    if (count > std::numeric_limits<std::uint64_t>::max() / element)
        return std::numeric_limits<std::uint64_t>::max();
    return count * element;
}

std::string Operator::qualifiedName() const
{
    return overload.empty() ? name : name + "." + overload;
}

InstructionCounts Method::instructionCounts() const
{
    InstructionCounts counts;
    for (const Chain& chain : chains) {
        for (const Instruction& instruction : chain.instructions) {
            switch (instruction.kind) {
            case Instruction::Kind::Kernel:
                ++counts.kernel;
                break;
            case Instruction::Kind::Delegate:
                ++counts.delegate;
                break;
            case Instruction::Kind::Move:
                ++counts.move;
                break;
            case Instruction::Kind::JumpFalse:
                ++counts.jumpFalse;
                break;
            case Instruction::Kind::Free:
                ++counts.free;
                break;
            case Instruction::Kind::Unknown:
            case Instruction::Kind::Missing:
                ++counts.unknown;
                break;
            }
        }
    }
    return counts;
}

std::size_t Method::instructionTotal() const
{
    std::size_t total = 0;
    for (const Chain& chain : chains)
        total += chain.instructions.size();
    return total;
}

std::span<const std::uint8_t> Program::bytes(const ByteRange& range) const
{
    const auto all = file->bytes();
    if (range.offset > all.size() || range.size > all.size() - range.offset)
        return {};
    return all.subspan(static_cast<std::size_t>(range.offset), static_cast<std::size_t>(range.size));
}

const Method* Program::method(std::string_view name) const
{
    const auto it = std::find_if(methods.begin(), methods.end(), [&](const Method& m) { return m.name == name; });
    return it == methods.end() ? nullptr : &*it;
}

const Method* Program::defaultMethod() const
{
    if (const Method* forward = method("forward"))
        return forward;
    const auto it
        = std::find_if(methods.begin(), methods.end(), [](const Method& m) { return m.instructionTotal() > 0; });
    if (it != methods.end())
        return &*it;
    return methods.empty() ? nullptr : &methods.front();
}

void Program::indexNamedData()
{
    namedDataByKey.clear();
    namedDataByKey.reserve(namedData.size());
    for (std::size_t i = 0; i < namedData.size(); ++i)
        namedDataByKey.try_emplace(namedData[i].key, i);
}

const NamedDataEntry* Program::findNamedData(std::string_view key) const
{
    if (namedDataByKey.size() == namedData.size() && !namedData.empty()) {
        const auto it = namedDataByKey.find(std::string(key));
        return it == namedDataByKey.end() ? nullptr : &namedData[it->second];
    }
    const auto it
        = std::find_if(namedData.begin(), namedData.end(), [&](const NamedDataEntry& e) { return e.key == key; });
    return it == namedData.end() ? nullptr : &*it;
}

} // namespace etscope::core
