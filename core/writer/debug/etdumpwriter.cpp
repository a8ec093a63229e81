// SPDX-License-Identifier: MIT
#include "core/writer/debug/etdumpwriter.h"

#include "core/util/scalartype.h"

#include <etdump_generated.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace etscope::core {

namespace fbe = etscope::fb::etdump;

namespace {

flatbuffers::Offset<fbe::TensorValue> tensorOffset(flatbuffers::FlatBufferBuilder& fbb, const DebugTensor& tensor)
{
    return fbe::CreateTensorValue(fbb, static_cast<std::int8_t>(tensor.scalarType), fbb.CreateVector(tensor.sizes),
        fbb.CreateVector(tensor.strides), tensor.offset);
}

flatbuffers::Offset<fbe::Value> valueOffset(flatbuffers::FlatBufferBuilder& fbb, const DebugValue& value)
{
    flatbuffers::Offset<fbe::TensorValue> tensor;
    flatbuffers::Offset<fbe::TensorList> list;
    flatbuffers::Offset<fbe::IntValue> intValue;
    flatbuffers::Offset<fbe::FloatValue> floatValue;
    flatbuffers::Offset<fbe::DoubleValue> doubleValue;
    flatbuffers::Offset<fbe::BoolValue> boolValue;
    switch (value.kind) {
    case DebugValue::Kind::Tensor:
        if (!value.tensors.empty())
            tensor = tensorOffset(fbb, value.tensors.front());
        break;
    case DebugValue::Kind::TensorList: {
        std::vector<flatbuffers::Offset<fbe::TensorValue>> tensors;
        for (const DebugTensor& t : value.tensors)
            tensors.push_back(tensorOffset(fbb, t));
        list = fbe::CreateTensorList(fbb, fbb.CreateVector(tensors));
        break;
    }
    case DebugValue::Kind::Int:
        intValue = fbe::CreateIntValue(fbb, value.intValue);
        break;
    case DebugValue::Kind::Float:
        floatValue = fbe::CreateFloatValue(fbb, static_cast<float>(value.doubleValue));
        break;
    case DebugValue::Kind::Double:
        doubleValue = fbe::CreateDoubleValue(fbb, value.doubleValue);
        break;
    case DebugValue::Kind::Bool:
        boolValue = fbe::CreateBoolValue(fbb, value.boolValue);
        break;
    default:
        break;
    }
    // The runtime writes `output` only for program outputs.
    const flatbuffers::Offset<fbe::BoolValue> output = value.output ? fbe::CreateBoolValue(fbb, true) : 0;
    return fbe::CreateValue(fbb, static_cast<std::int8_t>(value.rawKind), tensor, list, intValue, floatValue,
        doubleValue, boolValue, output);
}

flatbuffers::Offset<flatbuffers::String> optionalString(flatbuffers::FlatBufferBuilder& fbb, const std::string& text)
{
    return text.empty() ? 0 : fbb.CreateString(text);
}

flatbuffers::Offset<fbe::RunData> runOffset(flatbuffers::FlatBufferBuilder& fbb, const RunBlock& run)
{
    struct Ordered {
        std::size_t sequence;
        int kind;
        std::size_t index;
    };
    std::vector<Ordered> order;
    for (std::size_t i = 0; i < run.profileEvents.size(); ++i)
        order.push_back({ run.profileEvents[i].sequence, 0, i });
    for (std::size_t i = 0; i < run.allocationEvents.size(); ++i)
        order.push_back({ run.allocationEvents[i].sequence, 1, i });
    for (std::size_t i = 0; i < run.debugEvents.size(); ++i)
        order.push_back({ run.debugEvents[i].sequence, 2, i });
    std::stable_sort(order.begin(), order.end(),
        [](const Ordered& a, const Ordered& b) { return std::tie(a.sequence, a.kind) < std::tie(b.sequence, b.kind); });
    std::vector<flatbuffers::Offset<fbe::Event>> events;
    for (const Ordered& o : order) {
        if (o.kind == 0) {
            const ProfileEvent& p = run.profileEvents[o.index];
            const auto metadata = p.delegateDebugMetadata.empty() ? 0 : fbb.CreateVector(p.delegateDebugMetadata);
            const auto event = fbe::CreateProfileEvent(fbb, optionalString(fbb, p.name), p.chainIndex.value,
                p.instructionId.value, p.delegateDebugIdInt.value, optionalString(fbb, p.delegateDebugIdStr), metadata,
                p.startTime, p.endTime);
            events.push_back(fbe::CreateEvent(fbb, event, 0, 0));
        } else if (o.kind == 1) {
            const AllocationEvent& a = run.allocationEvents[o.index];
            events.push_back(fbe::CreateEvent(fbb, 0, fbe::CreateAllocationEvent(fbb, a.allocatorId, a.size), 0));
        } else {
            const DebugEvent& d = run.debugEvents[o.index];
            const auto value = valueOffset(fbb, d.value);
            const auto event = fbe::CreateDebugEvent(fbb, d.chainIndex, d.instructionId.value, value,
                d.delegateDebugIdInt.value, optionalString(fbb, d.delegateDebugIdStr), optionalString(fbb, d.name));
            events.push_back(fbe::CreateEvent(fbb, 0, 0, event));
        }
    }
    std::vector<flatbuffers::Offset<fbe::Allocator>> allocators;
    for (const std::string& name : run.allocators)
        allocators.push_back(fbe::CreateAllocator(fbb, fbb.CreateString(name)));
    return fbe::CreateRunData(fbb, fbb.CreateString(run.name), run.bundledInputIndex,
        allocators.empty() ? 0 : fbb.CreateVector(allocators), fbb.CreateVector(events));
}

std::uint16_t toHalf(double value)
{
    const float f = static_cast<float>(value);
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
    if (std::isnan(f))
        return sign | 0x7e00;
    const float magnitude = std::fabs(f);
    if (magnitude >= 65520.0f)
        return sign | 0x7c00;
    if (magnitude < std::ldexp(1.0f, -24) / 2)
        return sign;
    int exponent = 0;
    std::frexp(magnitude, &exponent); // magnitude = m · 2^exponent, m in [0.5, 1)
    if (exponent < -13) // subnormal half: units of 2^-24
        return sign | static_cast<std::uint16_t>(std::nearbyint(std::ldexp(magnitude, 24)));
    // Normal: 10 fraction bits; nearbyint rounds half to even; a carry lands in the exponent.
    const double scaled = std::nearbyint(std::ldexp(magnitude, 11 - exponent));
    const auto mantissa = static_cast<std::uint32_t>(scaled);
    const std::uint32_t biased = static_cast<std::uint32_t>(exponent - 1 + 15);
    return sign | static_cast<std::uint16_t>(((biased << 10) + (mantissa - 1024)) & 0x7fff);
}

template <typename T> void put(std::vector<std::uint8_t>& out, T value)
{
    std::uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.insert(out.end(), bytes, bytes + sizeof(T));
}

} // namespace

std::vector<std::uint8_t> writeETDump(const std::vector<RunBlock>& runs, const ETDumpWriteOptions& options)
{
    flatbuffers::FlatBufferBuilder fbb;
    fbb.ForceDefaults(!options.omitDefaults);
    std::vector<flatbuffers::Offset<fbe::RunData>> blocks;
    blocks.reserve(runs.size());
    for (const RunBlock& run : runs)
        blocks.push_back(runOffset(fbb, run));
    const auto root = fbe::CreateETDump(fbb, options.version, fbb.CreateVector(blocks));
    if (options.sizePrefixed)
        fbb.FinishSizePrefixed(root, "ED00");
    else
        fbb.Finish(root, "ED00");
    return { fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize() };
}

DebugBufferWriter::DebugBufferWriter(std::size_t alignment, std::size_t firstOffset)
    : m_alignment(std::max<std::size_t>(alignment, 1))
    , m_first(firstOffset)
{
}

std::int64_t DebugBufferWriter::append(std::span<const std::uint8_t> bytes)
{
    if (bytes.empty())
        return -1;
    // Offsets stay congruent to the first one: the sink aligns absolute addresses, and the
    // block itself starts `firstOffset` short of an aligned address.
    const std::size_t offset
        = m_next <= m_first ? m_first : m_first + (m_next - m_first + m_alignment - 1) / m_alignment * m_alignment;
    m_bytes.resize(offset, 0);
    m_bytes.insert(m_bytes.end(), bytes.begin(), bytes.end());
    m_next = m_bytes.size();
    return static_cast<std::int64_t>(offset);
}

std::int64_t DebugBufferWriter::appendValues(int scalarType, const std::vector<double>& values)
{
    return append(encodeElements(scalarType, values));
}

std::vector<std::uint8_t> encodeElements(int scalarType, const std::vector<double>& values)
{
    std::vector<std::uint8_t> out;
    for (const double v : values) {
        switch (scalarType) {
        case scalar_type::Byte:
            put(out, static_cast<std::uint8_t>(v));
            break;
        case scalar_type::Char:
            put(out, static_cast<std::int8_t>(v));
            break;
        case scalar_type::Short:
            put(out, static_cast<std::int16_t>(v));
            break;
        case scalar_type::Int:
            put(out, static_cast<std::int32_t>(v));
            break;
        case scalar_type::Long:
            put(out, static_cast<std::int64_t>(v));
            break;
        case scalar_type::Float:
            put(out, static_cast<float>(v));
            break;
        case scalar_type::Double:
            put(out, v);
            break;
        case scalar_type::Bool:
            put(out, static_cast<std::uint8_t>(v != 0 ? 1 : 0));
            break;
        case scalar_type::Bits16:
        case scalar_type::UInt16:
            put(out, static_cast<std::uint16_t>(v));
            break;
        case scalar_type::Half:
            put(out, toHalf(v));
            break;
        case scalar_type::BFloat16: {
            const std::uint32_t bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
            const std::uint32_t rounded = bits + 0x7fff + ((bits >> 16) & 1);
            put(out, static_cast<std::uint16_t>(rounded >> 16));
            break;
        }
        default:
            return {};
        }
    }
    return out;
}

ProfileEvent profileEvent(
    std::string name, int chain, int instruction, std::uint64_t start, std::uint64_t end, std::size_t sequence)
{
    ProfileEvent event;
    event.name = std::move(name);
    event.chainIndex = ChainIndex(chain);
    event.instructionId = InstructionId(instruction);
    event.startTime = start;
    event.endTime = end;
    event.sequence = sequence;
    return event;
}

DebugEvent tensorDebugEvent(DebugBufferWriter& buffer, InstructionId instruction, int scalarType,
    std::vector<std::int64_t> sizes, const std::vector<double>& values, bool output)
{
    DebugEvent event;
    event.chainIndex = output ? std::numeric_limits<std::uint64_t>::max() : 0;
    event.instructionId = instruction;
    event.value.kind = DebugValue::Kind::Tensor;
    event.value.rawKind = 5;
    event.value.output = output;
    DebugTensor t;
    t.scalarType = scalarType;
    t.strides.assign(sizes.size(), 1);
    for (std::size_t d = sizes.size(); d-- > 1;)
        t.strides[d - 1] = t.strides[d] * sizes[d];
    t.sizes = std::move(sizes);
    t.offset = buffer.appendValues(scalarType, values);
    event.value.tensors.push_back(std::move(t));
    return event;
}

} // namespace etscope::core
