// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "xnnpack_generated.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core::xnnpack {

constexpr std::uint32_t kInvalidId = 0xFFFFFFFFu; ///< XNN_INVALID_VALUE_ID: an absent optional input

/// The value ids a node reads and writes, by port name, plus its parameters as attributes.
struct NodePorts {
    std::vector<std::pair<std::string, std::uint32_t>> inputs;
    std::vector<std::pair<std::string, std::uint32_t>> outputs;
    std::vector<Attribute> params;

    void in(const char* name, std::uint32_t id) { inputs.emplace_back(name, id); }
    void out(const char* name, std::uint32_t id) { outputs.emplace_back(name, id); }
    void param(const char* name, std::uint64_t value) { params.push_back({ name, std::to_string(value) }); }
    void param(const char* name, std::string value) { params.push_back({ name, std::move(value) }); }
};

/// Fills `ports` for a node (facts sheet §3.1, parameter tables); false for a union tag this
/// build does not know or a node without its parameter table.
bool nodePorts(const fb::xnnpack::XNode& node, NodePorts& ports);

/// "fp32", "qcint8", …; "xnn_datatype(N)" for values this build does not know.
std::string datatypeName(int type);

} // namespace etscope::core::xnnpack
