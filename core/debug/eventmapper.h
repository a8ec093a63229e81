// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/graph/flatten.h"
#include "core/graph/graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace etscope::core {

/// Where a runtime event lands on the program graph.
struct EventPlacement {
    NodeOrigin origin; ///< top none when the event matches no node
    bool matched = false;
    /// How it was matched: "instruction", "xnnpack order", "xnnpack node index", "vulkan node
    /// id", "debug symbol" (Core ML), "delegate_map", "delegate" (the delegate node only) or ""
    /// when unmatched.
    std::string rule;
    std::vector<DebugHandle> debugHandles; ///< AOT handles from the ETRecord, when attached
    /// Not placed because the event's name disagrees with the instruction at its id
    /// (placeNamedEvent): native_call_convolution.out at an aten::add.out kernel.
    bool nameDisagrees = false;
    std::string disagreeingName; ///< the name that disagrees (placeLoggedValues), when known
};

/// Whether a named, non-delegate event fits the instruction node it names (facts sheet §4.3):
/// `native_call_<op>.<overload>` ↔ the KernelCall's operator without namespace, OPERATOR_CALL,
/// DELEGATE_CALL, MOVE_CALL, JF_CALL, FREE_CALL ↔ an instruction of that kind; nullopt when the
/// name follows no convention this knows (boxed kernels, custom names).
std::optional<bool> eventNameFits(const Node& node, const std::string& name);

/// Per-run state for delegate-internal events: how many events of each operator family each
/// delegate instruction has seen, so that the k-th "Fully Connected" event meets the k-th
/// XNNFullyConnected node. Use one per run block.
struct DelegateEventCursor {
    std::map<std::pair<int, std::string>, int> seen;
};

/// The XNNPACK operator family of a profiling identifier: the text before " (" or " #"
/// ("Fully Connected (NC, F32) GEMM #1" → "Fully Connected").
std::string xnnpackFamily(const std::string& identifier);

/// The XNNPACK delegate node types (Node::opType of decoded inner graphs) an operator family
/// runs as; empty for families this build does not know.
std::vector<std::string> xnnpackNodeTypes(const std::string& family);

/// "id 3" for an integer delegate debug identifier, a string identifier as it is
/// ("linear_2", "Convolution (NHWC, F32) IGEMM #1").
std::string delegateIdentifierText(const std::string& identifier);

/// Joins runtime identifiers (instruction ids, delegate debug identifiers) to nodes of a
/// method's top-level graph and its decoded delegate graphs, optionally through an ETRecord
/// (facts sheet §2.4). Keeps references: `graph` and `record` must outlive the mapper.
/// The names `block`'s profiling events give each instruction of chain 0 (events inside
/// delegates and framework events left out), for EventMapper::placeLoggedValues.
std::map<int, std::vector<std::string>> profiledNames(const RunBlock& block);

class EventMapper {
public:
    EventMapper(const Graph& graph, const ETRecord* record = nullptr, std::string method = "forward");

    /// The node executing `instruction` of chain 0; none when no node does (or chain != 0).
    NodeId instructionNode(ChainIndex chain, InstructionId instruction) const;

    /// An event logged by the instruction itself (kernel, DELEGATE_CALL, OPERATOR_CALL, …).
    EventPlacement placeInstruction(ChainIndex chain, InstructionId instruction) const;

    /// placeInstruction for an event named `name`, which is not placed (matched false,
    /// nameDisagrees true) when eventNameFits says the name is another instruction's: the
    /// event of another program must not colour this one's node.
    EventPlacement placeNamedEvent(ChainIndex chain, InstructionId instruction, const std::string& name) const;

    /// placeInstruction for the debug values a run logged at `instruction` (not inside a
    /// delegate). A DebugEvent carries no name (the runtime's writer never fills it:
    /// ../shared/docs/executorch-formats.md, DebugEvent.name), but the same block's profiling
    /// events at that instruction do (`names`, from profiledNames): when one of them names another
    /// operator (eventNameFits false) the values are another program's and are not placed
    /// (matched false, nameDisagrees true), as placeNamedEvent does for the events themselves.
    EventPlacement placeLoggedValues(
        ChainIndex chain, InstructionId instruction, const std::map<int, std::vector<std::string>>& names) const;

    /// An event logged inside a delegate: Vulkan integer ids → the node with that delegate
    /// debug id; string ids → the inner node whose "debug symbol" attribute is that string
    /// (Core ML); XNNPACK profiling names → the k-th node of the family in inner execution
    /// order; otherwise the ETRecord delegate_map → the last inner node (payload order) carrying
    /// one of the handles; an XNNPACK integer id no map names → the node of that index. Falls
    /// back to the delegate node itself (rule "delegate"), with the map's handles when it has
    /// some. The inner graph is the one `graph` holds: decode it before mapping.
    EventPlacement placeDelegateEvent(ChainIndex chain, InstructionId instruction, DelegateDebugId idInt,
        const std::string& idStr, DelegateEventCursor& cursor) const;

    /// Edge-graph node names carrying any of `handles` (needs an ETRecord).
    std::vector<std::string> edgeNodeNames(const std::vector<DebugHandle>& handles) const;

    /// Outputs of the DelegateCall at `instruction`: the ETRecord map, else the graph's split
    /// (args − inputs); -1 when unknown.
    int delegateOutputCount(InstructionId instruction) const;

    const Graph& graph() const { return m_graph; }
    const ETRecord* record() const { return m_record; }
    const std::string& method() const { return m_method; }

    /// Display name of a placement: the node label, "label › inner label" for inner nodes.
    std::string label(const NodeOrigin& origin) const;

private:
    const Graph& m_graph;
    const ETRecord* m_record;
    std::string m_method;
    std::map<int, NodeId> m_byInstruction;
};

} // namespace etscope::core
