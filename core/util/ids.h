// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace etscope::core {

/// A typed integer id, so that a node id cannot be passed where a value index is expected.
/// The sentinel "none" is -1 and is spelled `Id::none()`, never a bare -1.
template <typename Tag> struct Id {
    std::int32_t value = -1;

    constexpr Id() = default;
    constexpr explicit Id(std::int32_t v)
        : value(v)
    {
    }
    static constexpr Id none() { return Id(); }
    constexpr bool valid() const { return value >= 0; }
    constexpr std::size_t index() const { return static_cast<std::size_t>(value); }
    // Spelled out: moc (Qt 6.4) cannot parse <compare>, which a defaulted <=> would need.
    constexpr bool operator==(const Id& other) const { return value == other.value; }
    constexpr bool operator!=(const Id& other) const { return value != other.value; }
    constexpr bool operator<(const Id& other) const { return value < other.value; }
};

using NodeId = Id<struct NodeIdTag>;
using ValueIndex = Id<struct ValueIndexTag>;
using InstructionId = Id<struct InstructionIdTag>;
using DelegateIndex = Id<struct DelegateIndexTag>;
/// An execution chain of a method (ETDump's chain_index); none for events outside any chain.
using ChainIndex = Id<struct ChainIndexTag>;
/// A delegate's integer debug identifier (ETDump's delegate_debug_id_int); none when the event
/// has none.
using DelegateDebugId = Id<struct DelegateDebugIdTag>;

/// An ahead-of-time debug handle: the exporter's identity of a graph node, which ETRecord's
/// debug_handle_map and delegate_map, an XNNPACK node's debug_handle, an edge program node's
/// meta and the Inspector's tables all refer to. Absent handles are std::optional, not a value.
struct DebugHandle {
    std::int64_t value = 0;

    constexpr DebugHandle() = default;
    constexpr explicit DebugHandle(std::int64_t v)
        : value(v)
    {
    }
    constexpr bool operator==(const DebugHandle& other) const { return value == other.value; }
    constexpr bool operator!=(const DebugHandle& other) const { return value != other.value; }
    constexpr bool operator<(const DebugHandle& other) const { return value < other.value; }
};

/// JSON (nlohmann, found by argument-dependent lookup): a handle is its number.
template <typename Json> void to_json(Json& json, const DebugHandle& handle)
{
    json = handle.value;
}

} // namespace etscope::core

template <typename Tag> struct std::hash<etscope::core::Id<Tag>> {
    std::size_t operator()(const etscope::core::Id<Tag>& id) const noexcept
    {
        return std::hash<std::int32_t>()(id.value);
    }
};
