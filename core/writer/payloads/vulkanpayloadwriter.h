// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace etscope::core {

/// Constants of the Vulkan delegate graph (facts sheet §3.2).
namespace vk {
/// VkDataType numbers.
namespace datatype {
constexpr int Bool = 0;
constexpr int UInt8 = 1;
constexpr int Int8 = 2;
constexpr int Int32 = 3;
constexpr int Float16 = 4;
constexpr int Float32 = 5;
constexpr int Float64 = 6;
constexpr int Int64 = 7;
constexpr int Unset = 127;
} // namespace datatype
constexpr int kDefaultStorage = 255; ///< VkStorageType DEFAULT_STORAGE
constexpr int kDefaultLayout = 255; ///< VkMemoryLayout DEFAULT_LAYOUT
} // namespace vk

/// One VkTensor.
struct VulkanTensorSpec {
    int datatype = vk::datatype::Float32;
    std::vector<std::uint32_t> dims;
    std::int32_t constantId = -1; ///< index into the graph's constants; negative: not a constant
    std::int32_t memObjId = -1; ///< shared-memory group; negative: none
    int storageType = vk::kDefaultStorage;
    int memoryLayout = vk::kDefaultLayout;
    int stagingDatatype = vk::datatype::Unset;
};

/// Options for the bytes around the graph, so tests can also write what the runtime rejects.
struct VulkanWriteOptions {
    bool header = true; ///< false: the bare VK00 FlatBuffer
    std::uint16_t headerLength = 30;
    /// Replace the header's fields (damaged-header fixtures); nullopt writes the true value.
    std::optional<std::uint32_t> flatbufferOffset;
    std::optional<std::uint32_t> flatbufferSize;
    std::optional<std::uint32_t> bytesOffset;
    std::optional<std::uint64_t> bytesSize;
};

/// Builds a Vulkan delegate payload (VH00 header + VkGraph FlatBuffer "VK00" + constant bytes,
/// facts sheet §3.2). Each add* returns the index of what it added; ids are written as given,
/// never checked, so tests can make graphs that point nowhere.
class VulkanPayloadWriter {
public:
    std::int32_t addNull();
    std::int32_t addInt(std::int64_t value);
    std::int32_t addDouble(double value);
    std::int32_t addBool(bool value);
    std::int32_t addString(std::string value);
    std::int32_t addSymInt(std::int32_t value);
    std::int32_t addIntList(std::vector<std::int64_t> items);
    std::int32_t addDoubleList(std::vector<double> items);
    std::int32_t addBoolList(std::vector<bool> items);
    std::int32_t addValueList(std::vector<std::int32_t> valueIds);
    std::int32_t addTensor(VulkanTensorSpec tensor);
    /// A value with union tag `tag` and no table at all (the verifier lets that pass), or, with
    /// `emptyTable`, an empty table under a tag this schema does not know: for reader tests.
    std::int32_t addRawTag(int tag, bool emptyTable);
    /// Appends bytes to the payload's constant area (16-aligned); returns the constant index.
    std::int32_t addConstantBytes(std::span<const std::uint8_t> bytes);
    /// A constant held in named data under `key` (offset UINT64_MAX, length 0 as AOT writes it).
    std::int32_t addNamedConstant(std::string key);
    /// A constant entry with any offset/length, for out-of-range fixtures.
    std::int32_t addConstantEntry(std::uint64_t offset, std::uint64_t length);
    /// An OperatorCall: `args` are value ids, the output id last.
    void addCall(std::uint32_t nodeId, std::string name, std::vector<std::int32_t> args);

    void setInputs(std::vector<std::uint32_t> ids) { m_inputs = std::move(ids); }
    void setOutputs(std::vector<std::uint32_t> ids) { m_outputs = std::move(ids); }
    void setVersion(std::string version) { m_version = std::move(version); }
    void setOverrides(int storageType, int memoryLayout)
    {
        m_storageOverride = storageType;
        m_layoutOverride = memoryLayout;
    }
    void setShaderCount(int count) { m_shaders = count; }

    std::vector<std::uint8_t> write(const VulkanWriteOptions& options = {}) const;

private:
    struct Value {
        int type = 0; ///< GraphTypes tag
        std::int64_t intValue = 0;
        double doubleValue = 0;
        bool boolValue = false;
        std::string text;
        std::vector<std::int64_t> ints;
        std::vector<double> doubles;
        std::vector<bool> bools;
        std::vector<std::int32_t> ids;
        VulkanTensorSpec tensor;
        bool raw = false; ///< addRawTag: `type` written as given
        bool emptyTable = false;
    };
    struct Constant {
        std::uint64_t offset = 0;
        std::uint64_t length = 0;
        std::string key;
    };
    struct Call {
        std::uint32_t nodeId = 0;
        std::string name;
        std::vector<std::int32_t> args;
    };
    std::int32_t add(Value value);

    std::vector<Value> m_values;
    std::vector<Constant> m_constants;
    std::vector<std::uint8_t> m_bytes;
    std::vector<Call> m_calls;
    std::vector<std::uint32_t> m_inputs;
    std::vector<std::uint32_t> m_outputs;
    std::string m_version = "0";
    int m_storageOverride = vk::kDefaultStorage;
    int m_layoutOverride = vk::kDefaultLayout;
    int m_shaders = 0;
};

} // namespace etscope::core
