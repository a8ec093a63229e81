// SPDX-License-Identifier: MIT
#pragma once

// Lookups tests make on decoded delegates and graphs. For tests that link core.

#include "core/delegates/delegate.h"
#include "core/graph/graph.h"
#include "core/pte/program.h"
#include "core/util/mappedfile.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace etscope::test {

/// A fact's value, or a text naming the missing fact (so a QCOMPARE shows it).
inline std::string fact(const std::vector<core::Attribute>& facts, const std::string& name)
{
    for (const core::Attribute& a : facts)
        if (a.name == name)
            return a.value;
    return "(no fact '" + name + "')";
}

/// A delegate fact's value, or a text naming the missing fact.
inline std::string fact(const core::DelegateInfo& info, const std::string& name)
{
    return fact(info.facts, name);
}

/// Operator nodes of a graph by op type (its own level, not the insides of its delegates).
inline std::map<std::string, int> operatorTypes(const core::Graph& graph)
{
    std::map<std::string, int> types;
    for (const core::Node& node : graph.nodes)
        if (node.kind == core::NodeKind::Operator)
            ++types[node.opType];
    return types;
}

/// A payload described on its own, as `ref` (backend id, compile specs) names it, with an
/// empty program: what the writer's payload fixtures are checked with.
inline core::DelegateInfo describeAlone(const std::vector<std::uint8_t>& payload, core::DelegateRef ref)
{
    static const core::Program empty = [] {
        core::Program p;
        p.file = core::MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
        return p;
    }();
    ref.payload = { 0, payload.size() };
    return core::describePayload(empty, ref, payload, {}, "fixture");
}

/// describeAlone for a payload of `backendId` with no compile specs.
inline core::DelegateInfo describeAlone(const std::vector<std::uint8_t>& payload, const std::string& backendId)
{
    core::DelegateRef ref;
    ref.backendId = backendId;
    return describeAlone(payload, std::move(ref));
}

/// The first node labelled `label` (of `kind`, when given); nullptr when none is.
inline const core::Node* nodeLabelled(
    const core::Graph& graph, const std::string& label, std::optional<core::NodeKind> kind = {})
{
    for (const core::Node& node : graph.nodes)
        if (node.label == label && (!kind || node.kind == *kind))
            return &node;
    return nullptr;
}

/// True when an edge runs from `from` to `to` (carrying value `value`, when given); false when
/// either node is missing.
inline bool hasEdge(
    const core::Graph& graph, const core::Node* from, const core::Node* to, std::optional<std::int64_t> value = {})
{
    if (!from || !to)
        return false;
    for (const core::Edge& edge : graph.edges)
        if (edge.from == from->id && edge.to == to->id && (!value || edge.value.value == *value))
            return true;
    return false;
}

/// A node attribute's value, or a text naming the missing attribute.
inline std::string attribute(const core::Node& node, const std::string& name)
{
    if (const auto value = node.attributes.find(name))
        return std::string(*value);
    return "(no attribute '" + name + "')";
}

/// As attribute(), for a node that may be missing.
inline std::string attribute(const core::Node* node, const std::string& name)
{
    return node ? attribute(*node, name) : std::string("(no node)");
}

/// True when some warning contains `text`.
inline bool anyWarning(const std::vector<core::Warning>& warnings, const std::string& text)
{
    for (const core::Warning& w : warnings)
        if (w.message.find(text) != std::string::npos)
            return true;
    return false;
}

/// True when some warning of the delegate contains `text`.
inline bool anyWarning(const core::DelegateInfo& info, const std::string& text)
{
    return anyWarning(info.warnings, text);
}

/// The first node of `kind` that stands for value `value`, nullptr when none does.
inline const core::Node* nodeWithValue(const core::Graph& graph, core::NodeKind kind, std::int64_t value)
{
    for (const core::Node& node : graph.nodes)
        if (node.kind == kind && node.value.value == value)
            return &node;
    return nullptr;
}

/// Debug handles from numbers, for expectations and fixtures.
inline std::vector<core::DebugHandle> handles(std::initializer_list<std::int64_t> values)
{
    std::vector<core::DebugHandle> out;
    for (const std::int64_t value : values)
        out.push_back(core::DebugHandle(value));
    return out;
}

} // namespace etscope::test
