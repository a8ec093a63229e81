// SPDX-License-Identifier: MIT
#pragma once

// What memory a method's plan needs: every memory-planned tensor with its arena, offset, size
// and lifetime, and per arena the declared size, the extent used, the peak of live bytes and
// the fragmentation there. Lifetimes come from the instruction list alone (facts sheet §1.7):
//
// * Steps: chains run one after the other (runtime Method::execute), so step = the number of
//   instructions of the earlier chains + the instruction's index in its chain.
// * A tensor lives from its first write to its last read, both inclusive, so an instruction's
//   inputs and outputs are live together at its step (as ExecuTorch's memory planner treats them).
//   Method inputs live from step 0, method outputs and mutable state (tensors with an initial
//   value) to the last step. KernelCall writes its out arguments and every argument its schema
//   marks `!` (opschema), else the last argument; DelegateCall the trailing args the method
//   graph found to be outputs; MoveCall its destination; FreeCall ends the value's life.
// * A backward JumpFalse is a loop: a value used inside it and written before it, or read there
//   before its first write inside it, lives across the whole loop. Forward jumps only skip.
// * A planned tensor read but never written is an elided view (§1.8 step 4): it aliases the
//   latest written tensor of the same element count at the same arena and offset and lives from
//   that tensor's write. With no such tensor it is a scratch buffer or placeholder (cortex_m's
//   avg-pool scratch) and lives only from its first to its last read.
// * Live bytes at a step are the bytes of the arena covered by at least one live tensor, so an
//   alias and its source count once. Fragmentation at the peak = 1 − peak live bytes / the
//   arena's used extent (highest offset + size of any tensor in it): the share of the span the
//   plan needs that is idle even at the busiest step.

#include "core/graph/graph.h"
#include "core/pte/program.h"
#include "core/util/ids.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

struct Document;
struct Table;

/// One step of the method in execution order (chains one after the other).
struct MemoryStep {
    int chain = 0;
    InstructionId instruction; ///< position in its chain
    NodeId node; ///< the instruction's node in the method graph (none when no graph node has it)
    std::string label; ///< "aten::add.out", "XnnpackBackend", "move", "jump_false → 3", "free"
};

/// A memory-planned tensor value and when it occupies its bytes.
struct PlannedTensor {
    enum class Role {
        Activation, ///< written by an instruction
        Input, ///< a method input (lives from step 0)
        State, ///< a planned tensor with an initial value (mutable buffer, trainable weight): always live
        View, ///< read but never written: aliases `aliasOf` (an elided static view)
        Unbound, ///< read, never written, nothing to alias (scratch, placeholder): lives where it is read
        Unused, ///< planned, but no instruction touches it and it is no input or output
    };
    ValueIndex value;
    std::uint32_t arena = 0; ///< 1-based mem_id
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0; ///< product(sizes) × element size (upper bound for dynamic shapes)
    int firstStep = -1; ///< inclusive; -1 for Unused
    int lastStep = -1; ///< inclusive; -1 for Unused
    Role role = Role::Activation;
    bool output = false; ///< a method output (lives to the last step)
    ValueIndex aliasOf; ///< View: the tensor whose bytes it reads
    NodeId producer; ///< graph node of the instruction that first writes it (views: their source's)
    int producerStep = -1; ///< the step of that instruction (-1: input, state, unbound, unused)
    std::string dtype;
    std::vector<std::int64_t> shape;
    TensorStorage storage = TensorStorage::Planned;

    bool live(int step) const { return firstStep >= 0 && firstStep <= step && step <= lastStep; }
    std::uint64_t end() const { return offset + bytes; }
};

std::string_view plannedTensorRoleName(PlannedTensor::Role role);

/// One memory arena (non_const_buffer_sizes[id]) and how the plan fills it.
struct MemoryArena {
    std::uint32_t id = 0; ///< 1-based mem_id
    std::optional<std::int64_t> declaredSize; ///< absent when the method declares no such arena
    std::uint64_t highestEnd = 0; ///< max(offset + bytes) over its tensors
    std::uint64_t peakLiveBytes = 0;
    int peakStep = -1; ///< first step where live bytes reach the peak (-1: nothing ever live)
    double fragmentation = 0; ///< 1 − peakLiveBytes / highestEnd (0 when highestEnd is 0)
    std::vector<std::size_t> tensors; ///< indices into MemoryPlan::tensors, by offset then first step
    std::vector<std::uint64_t> liveBytes; ///< per step: bytes covered by live tensors
};

/// Two tensors of one arena that are live at the same step in the same bytes and do not alias:
/// a planning error.
struct MemoryOverlap {
    std::uint32_t arena = 0;
    ValueIndex first;
    ValueIndex second;
    int step = 0; ///< the first step both are live
};

/// Stored bytes of the method's constant tensors by where they live.
struct ConstantGroup {
    std::string place; ///< "constant segment", "constant_buffer (legacy)", "external (named data / .ptd)",
                       ///< "mutable data segment", "external, copied into an arena"
    std::optional<std::uint32_t> segment; ///< program segment index, when one holds the bytes
    std::size_t tensors = 0; ///< distinct buffers (values sharing a buffer count once)
    std::uint64_t bytes = 0;
};

struct MemoryLoop {
    int first = 0; ///< step of the jump destination
    int last = 0; ///< step of the backward JumpFalse
};

struct MemoryPlan {
    std::string method;
    int chains = 0;
    std::vector<MemoryStep> steps;
    std::vector<PlannedTensor> tensors; ///< by value index
    std::vector<MemoryArena> arenas; ///< by id; declared arenas first come even when empty
    std::vector<MemoryLoop> loops;
    std::vector<MemoryOverlap> overlaps; ///< the first ones found (at most kMaxListedOverlaps)
    std::size_t overlapCount = 0;
    std::vector<ConstantGroup> constants;
    std::vector<Warning> warnings;

    static constexpr std::size_t kMaxListedOverlaps = 50;
    const PlannedTensor* tensor(ValueIndex value) const;
};

/// The memory plan of `method` of `program`. `graph` is the method's data-flow graph
/// (Document::analysis(method)->graph); it says which DelegateCall arguments are outputs and
/// gives each step its node id. Without it the method graph is built here, delegates opaque.
/// `method` comes from a verified Program (the graph builder relies on that); with a graph given,
/// even indices out of range are only skipped. Never fails: inconsistencies (an arena the method does not declare, a
/// tensor beyond its arena, overlapping live tensors, a jump out of its chain) become warnings.
MemoryPlan computeMemoryPlan(const Program& program, const Method& method, const Graph* graph = nullptr);

/// The same for a method of an opened document, with its graph.
MemoryPlan computeMemoryPlan(const Document& document, const Method& method);

/// One row per arena: arena, declared, highest_end, peak_live, peak_step, peak_instruction,
/// fragmentation, tensors.
Table memoryArenaTable(const MemoryPlan& plan);
/// One row per planned tensor: value, arena, offset, bytes, end, first_step, last_step, role,
/// dtype, shape, producer (the label of the instruction that writes it), alias_of.
Table memoryTensorTable(const MemoryPlan& plan);
/// Everything: steps, arenas (with live bytes per step), tensors, loops, overlaps, constants.
nlohmann::ordered_json memoryPlanJson(const MemoryPlan& plan);
/// A trace for chrome://tracing and Perfetto in the shape of ExecuTorch's generate_memory_trace
/// (enable_memory_offsets): one complete ("X") event per live tensor per step, pid = arena,
/// tid = step, ts = offset and dur = bytes (so the time axis reads as bytes), plus metadata
/// events naming arenas and steps. Written a piece at a time to `sink` (a trace of a long method
/// is far larger than its plan); at most `maxEvents` tensor events.
struct ChromeTraceStats {
    std::size_t events = 0; ///< tensor events written
    bool truncated = false; ///< stopped at maxEvents
};
ChromeTraceStats writeMemoryPlanChromeTrace(
    const MemoryPlan& plan, const std::function<void(std::string_view)>& sink, std::size_t maxEvents = 1'000'000);

} // namespace etscope::core
