// SPDX-License-Identifier: MIT
// Vulkan delegate payloads for fixtures, written from the facts sheet (§3.2): bytes 0–3 zero,
// "VH00", uint16 header length 30, uint32 flatbuffer offset (32) and size, uint32 offset of the
// constant bytes (16-aligned) and uint64 their size, zero padding to 32; then the VkGraph
// FlatBuffer (identifier VK00) padded to 16, then the constant bytes padded to 16.
#include "core/writer/payloads/vulkanpayloadwriter.h"

#include "vulkan_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <limits>

namespace etscope::core {
namespace fbv = etscope::fb::vulkan;

namespace {

constexpr std::size_t kHeaderSpace = 32;

void putLe(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::size_t align16(std::size_t n)
{
    return (n + 15) / 16 * 16;
}

} // namespace

std::int32_t VulkanPayloadWriter::add(Value value)
{
    m_values.push_back(std::move(value));
    return static_cast<std::int32_t>(m_values.size() - 1);
}

std::int32_t VulkanPayloadWriter::addNull()
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::NullValue);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addInt(std::int64_t value)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::IntValue);
    v.intValue = value;
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addDouble(double value)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::DoubleValue);
    v.doubleValue = value;
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addBool(bool value)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::BoolValue);
    v.boolValue = value;
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addString(std::string value)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::StringValue);
    v.text = std::move(value);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addSymInt(std::int32_t value)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::SymIntValue);
    v.intValue = value;
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addIntList(std::vector<std::int64_t> items)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::IntListValue);
    v.ints = std::move(items);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addDoubleList(std::vector<double> items)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::DoubleListValue);
    v.doubles = std::move(items);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addBoolList(std::vector<bool> items)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::BoolListValue);
    v.bools = std::move(items);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addValueList(std::vector<std::int32_t> valueIds)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::ValueListValue);
    v.ids = std::move(valueIds);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addTensor(VulkanTensorSpec tensor)
{
    Value v;
    v.type = static_cast<int>(fbv::GraphTypes::VkTensor);
    v.tensor = std::move(tensor);
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addRawTag(int tag, bool emptyTable)
{
    Value v;
    v.type = tag;
    v.raw = true;
    v.emptyTable = emptyTable;
    return add(std::move(v));
}

std::int32_t VulkanPayloadWriter::addConstantBytes(std::span<const std::uint8_t> bytes)
{
    m_bytes.resize(align16(m_bytes.size()), 0);
    const std::uint64_t offset = m_bytes.size();
    m_bytes.insert(m_bytes.end(), bytes.begin(), bytes.end());
    return addConstantEntry(offset, bytes.size());
}

std::int32_t VulkanPayloadWriter::addNamedConstant(std::string key)
{
    m_constants.push_back({ std::numeric_limits<std::uint64_t>::max(), 0, std::move(key) });
    return static_cast<std::int32_t>(m_constants.size() - 1);
}

std::int32_t VulkanPayloadWriter::addConstantEntry(std::uint64_t offset, std::uint64_t length)
{
    m_constants.push_back({ offset, length, {} });
    return static_cast<std::int32_t>(m_constants.size() - 1);
}

void VulkanPayloadWriter::addCall(std::uint32_t nodeId, std::string name, std::vector<std::int32_t> args)
{
    m_calls.push_back({ nodeId, std::move(name), std::move(args) });
}

std::vector<std::uint8_t> VulkanPayloadWriter::write(const VulkanWriteOptions& options) const
{
    flatbuffers::FlatBufferBuilder b;
    std::vector<flatbuffers::Offset<fbv::VkValue>> values;
    for (const Value& v : m_values) {
        flatbuffers::Offset<void> member;
        if (v.raw) {
            if (v.emptyTable)
                member = fbv::CreateNullValue(b).Union();
            values.push_back(fbv::CreateVkValue(b, static_cast<fbv::GraphTypes>(v.type), member));
            continue;
        }
        switch (static_cast<fbv::GraphTypes>(v.type)) {
        case fbv::GraphTypes::NullValue:
            member = fbv::CreateNullValue(b).Union();
            break;
        case fbv::GraphTypes::IntValue:
            member = fbv::CreateIntValue(b, v.intValue).Union();
            break;
        case fbv::GraphTypes::DoubleValue:
            member = fbv::CreateDoubleValue(b, v.doubleValue).Union();
            break;
        case fbv::GraphTypes::BoolValue:
            member = fbv::CreateBoolValue(b, v.boolValue).Union();
            break;
        case fbv::GraphTypes::StringValue:
            member = fbv::CreateStringValueDirect(b, v.text.c_str()).Union();
            break;
        case fbv::GraphTypes::SymIntValue:
            member = fbv::CreateSymIntValue(b, static_cast<std::int32_t>(v.intValue)).Union();
            break;
        case fbv::GraphTypes::IntListValue:
            member = fbv::CreateIntListValueDirect(b, &v.ints).Union();
            break;
        case fbv::GraphTypes::DoubleListValue:
            member = fbv::CreateDoubleListValueDirect(b, &v.doubles).Union();
            break;
        case fbv::GraphTypes::BoolListValue: {
            const std::vector<std::uint8_t> bools(v.bools.begin(), v.bools.end());
            member = fbv::CreateBoolListValue(b, b.CreateVector(bools)).Union();
            break;
        }
        case fbv::GraphTypes::ValueListValue:
            member = fbv::CreateValueListValueDirect(b, &v.ids).Union();
            break;
        case fbv::GraphTypes::VkTensor: {
            const VulkanTensorSpec& t = v.tensor;
            member = fbv::CreateVkTensorDirect(b, static_cast<std::int8_t>(t.datatype), &t.dims, t.constantId,
                t.memObjId, static_cast<std::uint8_t>(t.storageType), static_cast<std::uint8_t>(t.memoryLayout),
                static_cast<std::int8_t>(t.stagingDatatype))
                         .Union();
            break;
        }
        default:
            break;
        }
        values.push_back(fbv::CreateVkValue(b, static_cast<fbv::GraphTypes>(v.type), member));
    }
    std::vector<flatbuffers::Offset<fbv::OperatorCall>> chain;
    for (const Call& call : m_calls)
        chain.push_back(fbv::CreateOperatorCallDirect(b, call.nodeId, call.name.c_str(), &call.args));
    std::vector<flatbuffers::Offset<fbv::VkBytes>> constants;
    for (const Constant& c : m_constants)
        constants.push_back(fbv::CreateVkBytesDirect(b, c.offset, c.length, c.key.empty() ? nullptr : c.key.c_str()));
    std::vector<flatbuffers::Offset<fbv::VkBytes>> shaders;
    shaders.reserve(static_cast<std::size_t>(m_shaders));
    for (int s = 0; s < m_shaders; ++s)
        shaders.push_back(fbv::CreateVkBytes(b, 0, 0));
    const auto root = fbv::CreateVkGraphDirect(b, m_version.c_str(), &chain, &values, &m_inputs, &m_outputs, &constants,
        m_shaders ? &shaders : nullptr, static_cast<std::uint8_t>(m_storageOverride),
        static_cast<std::uint8_t>(m_layoutOverride));
    b.Finish(root, "VK00");
    const std::span<const std::uint8_t> graph(b.GetBufferPointer(), b.GetSize());
    if (!options.header)
        return { graph.begin(), graph.end() };

    const std::size_t bytesOffset = kHeaderSpace + align16(graph.size());
    std::vector<std::uint8_t> out(bytesOffset + align16(m_bytes.size()), 0);
    std::copy(graph.begin(), graph.end(), out.begin() + kHeaderSpace);
    std::copy(m_bytes.begin(), m_bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(bytesOffset));
    out[4] = 'V';
    out[5] = 'H';
    out[6] = '0';
    out[7] = '0';
    putLe(out, 8, options.headerLength, 2);
    putLe(out, 10, options.flatbufferOffset.value_or(kHeaderSpace), 4);
    putLe(out, 14, options.flatbufferSize.value_or(static_cast<std::uint32_t>(graph.size())), 4);
    putLe(out, 18, options.bytesOffset.value_or(static_cast<std::uint32_t>(bytesOffset)), 4);
    putLe(out, 22, options.bytesSize.value_or(m_bytes.size()), 8);
    return out;
}

} // namespace etscope::core
