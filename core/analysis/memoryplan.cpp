// SPDX-License-Identifier: MIT
// The memory plan of a method (`etscope memory`, the Memory tab). Why one file: one PlanBuilder walks
// the instructions once, and every later step (tensors, elided views, loops, arenas, overlaps,
// constants) reads what that walk recorded; Aliases and Coverage are its private helpers.
#include "core/analysis/memoryplan.h"

#include "core/document/document.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/opschema/opschema.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace etscope::core {

namespace {

constexpr std::size_t kMaxListedWarnings = 20;
/// Pairs compared by the overlap check before it gives up (a hostile plan of 100,000 tensors
/// all at offset 0 and live together would otherwise take 10^10 comparisons).
constexpr std::size_t kOverlapWorkBudget = 50'000'000;

/// Reads and writes of one value over the walk.
struct Uses {
    int firstWrite = -1;
    int lastWrite = -1;
    int firstRead = -1;
    int lastRead = -1;
    int freedAt = -1;
    std::vector<int> reads; ///< steps, in order (loops need the reads before the first write)
};

/// Union–find over value indices: a view and its source, a move's two ends.
class Aliases {
public:
    explicit Aliases(std::size_t count)
        : m_parent(count)
    {
        std::iota(m_parent.begin(), m_parent.end(), std::size_t { 0 });
    }
    std::size_t root(std::size_t v)
    {
        while (m_parent[v] != v)
            v = m_parent[v] = m_parent[m_parent[v]];
        return v;
    }
    void join(std::size_t a, std::size_t b) { m_parent[root(a)] = root(b); }

private:
    std::vector<std::size_t> m_parent;
};

/// Bytes covered by at least one of a set of intervals, under insertion and removal: a segment
/// tree over the arena's distinct interval ends (the classic "union length" tree).
class Coverage {
public:
    explicit Coverage(std::vector<std::uint64_t> points)
        : m_points(std::move(points))
    {
        std::sort(m_points.begin(), m_points.end());
        m_points.erase(std::unique(m_points.begin(), m_points.end()), m_points.end());
        const std::size_t leaves = m_points.size() > 1 ? m_points.size() - 1 : 1;
        m_count.assign(4 * leaves, 0);
        m_covered.assign(4 * leaves, 0);
    }
    void add(std::uint64_t begin, std::uint64_t end, int delta)
    {
        if (m_points.size() < 2 || begin >= end)
            return;
        const auto lo
            = static_cast<std::size_t>(std::lower_bound(m_points.begin(), m_points.end(), begin) - m_points.begin());
        const auto hi
            = static_cast<std::size_t>(std::lower_bound(m_points.begin(), m_points.end(), end) - m_points.begin());
        update(1, 0, m_points.size() - 1, lo, hi, delta);
    }
    std::uint64_t covered() const { return m_covered.empty() ? 0 : m_covered[1]; }

private:
    // Node covers points [l, r]; the update covers [lo, hi].
    void update(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi, int delta)
    {
        if (hi <= l || r <= lo)
            return;
        if (lo <= l && r <= hi) {
            m_count[node] += delta;
        } else {
            const std::size_t mid = (l + r) / 2;
            update(2 * node, l, mid, lo, hi, delta);
            update(2 * node + 1, mid, r, lo, hi, delta);
        }
        if (m_count[node] > 0)
            m_covered[node] = m_points[r] - m_points[l];
        else if (r - l == 1)
            m_covered[node] = 0;
        else
            m_covered[node] = m_covered[2 * node] + m_covered[2 * node + 1];
    }

    std::vector<std::uint64_t> m_points;
    std::vector<int> m_count;
    std::vector<std::uint64_t> m_covered;
};

class PlanBuilder {
public:
    PlanBuilder(const Program& program, const Method& method, const Graph& graph)
        : m_program(program)
        , m_method(method)
        , m_graph(graph)
        , m_uses(method.values.size())
        , m_aliases(method.values.size())
    {
        m_plan.method = method.name;
        m_plan.chains = static_cast<int>(method.chains.size());
    }

    MemoryPlan build();

private:
    bool isPlanned(std::int32_t value) const
    {
        return value >= 0 && static_cast<std::size_t>(value) < m_method.values.size()
            && m_method.values[static_cast<std::size_t>(value)].isTensor()
            && m_method.values[static_cast<std::size_t>(value)].tensor.hasAllocation;
    }
    /// Calls `f` for each planned tensor `value` stands for (itself, or a list's items).
    template <typename F> void forTensors(std::int32_t value, F&& f) const
    {
        if (value < 0 || static_cast<std::size_t>(value) >= m_method.values.size())
            return;
        const Value& v = m_method.values[static_cast<std::size_t>(value)];
        if (v.kind == Value::Kind::TensorList || v.kind == Value::Kind::OptionalTensorList) {
            for (const std::int64_t item : v.items)
                if (item >= 0 && item <= INT32_MAX && isPlanned(static_cast<std::int32_t>(item)))
                    f(static_cast<std::int32_t>(item));
        } else if (isPlanned(value)) {
            f(value);
        }
    }
    void read(std::int32_t value, int step);
    void write(std::int32_t value, int step);
    void warn(std::string message)
    {
        if (++m_warned <= kMaxListedWarnings)
            m_plan.warnings.push_back({ std::move(message), std::nullopt });
    }

    void indexGraph();
    void walk();
    void walkKernel(const Instruction& instruction, int step);
    void walkDelegate(const Instruction& instruction, int step);
    void makeTensors();
    void resolveViews();
    void applyLoops();
    void buildArenas();
    void sweepArena(MemoryArena& arena);
    void collectConstants();

    const Program& m_program;
    const Method& m_method;
    const Graph& m_graph;
    MemoryPlan m_plan;
    std::vector<Uses> m_uses;
    Aliases m_aliases;
    std::map<std::pair<int, int>, const Node*> m_nodes; ///< (chain, instruction) → graph node
    std::vector<std::size_t> m_tensorOf; ///< value → index in m_plan.tensors, or npos
    std::size_t m_warned = 0;
    int m_lastStep = 0;
};

void PlanBuilder::read(std::int32_t value, int step)
{
    forTensors(value, [&](std::int32_t v) {
        Uses& u = m_uses[static_cast<std::size_t>(v)];
        if (u.freedAt >= 0 && u.freedAt < step)
            warn("v" + std::to_string(v) + " is read at step " + std::to_string(step) + " after a FreeCall at step "
                + std::to_string(u.freedAt));
        if (u.firstRead < 0)
            u.firstRead = step;
        u.lastRead = step;
        if (u.reads.empty() || u.reads.back() != step)
            u.reads.push_back(step);
    });
}

void PlanBuilder::write(std::int32_t value, int step)
{
    forTensors(value, [&](std::int32_t v) {
        Uses& u = m_uses[static_cast<std::size_t>(v)];
        if (u.firstWrite < 0)
            u.firstWrite = step;
        u.lastWrite = step;
    });
}

void PlanBuilder::indexGraph()
{
    for (const Node& node : m_graph.nodes)
        if (node.instruction.valid())
            m_nodes.emplace(std::make_pair(node.chain, node.instruction.value), &node);
}

void PlanBuilder::walkKernel(const Instruction& instruction, int step)
{
    const auto& args = instruction.args;
    std::vector<bool> written(args.size(), false);
    std::vector<bool> alsoRead(args.size(), false);
    const Operator* op
        = instruction.index >= 0 && static_cast<std::size_t>(instruction.index) < m_method.operators.size()
        ? &m_method.operators[static_cast<std::size_t>(instruction.index)]
        : nullptr;
    const OperatorSchema* schema = op ? findSchema(op->name, op->overload, args.size()) : nullptr;
    if (schema) {
        // Schema order, then the returned value(s): `!` arguments are written (out arguments,
        // and the self of in-place ops, which is read first); everything after the schema is the
        // return slot.
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (i >= schema->arguments.size()) {
                written[i] = true;
                continue;
            }
            written[i] = schema->arguments[i].written;
            alsoRead[i] = written[i] && !schema->arguments[i].isOut();
        }
    } else if (!args.empty()) {
        written.back() = true; // §1.7: the last argument is the result
    }
    // The practical rule of §1.7 in any case: a trailing TensorList's items are outputs.
    if (!args.empty() && args.back() >= 0 && static_cast<std::size_t>(args.back()) < m_method.values.size())
        for (const std::int32_t out : kernelOutputs(m_method, instruction))
            for (std::size_t i = 0; i < args.size(); ++i)
                if (args[i] == out)
                    written[i] = true;
    for (std::size_t i = 0; i < args.size(); ++i)
        if (!written[i] || alsoRead[i])
            read(args[i], step);
    for (std::size_t i = 0; i < args.size(); ++i)
        if (written[i])
            write(args[i], step);
}

void PlanBuilder::walkDelegate(const Instruction& instruction, int step)
{
    // The method graph already split the args (decoded payload, ETRecord, or the inferred rule).
    const MemoryStep& s = m_plan.steps[static_cast<std::size_t>(step)];
    int inputs = static_cast<int>(instruction.args.size());
    if (s.node.valid() && s.node.index() < m_graph.nodes.size() && m_graph.node(s.node).inputCount >= 0)
        inputs = std::min(inputs, m_graph.node(s.node).inputCount);
    for (int i = 0; i < static_cast<int>(instruction.args.size()); ++i) {
        if (i < inputs)
            read(instruction.args[static_cast<std::size_t>(i)], step);
        else
            write(instruction.args[static_cast<std::size_t>(i)], step);
    }
}

void PlanBuilder::walk()
{
    for (std::size_t c = 0; c < m_method.chains.size(); ++c) {
        const auto& instructions = m_method.chains[c].instructions;
        const int chainStart = static_cast<int>(m_plan.steps.size());
        for (std::size_t i = 0; i < instructions.size(); ++i) {
            MemoryStep step;
            step.chain = static_cast<int>(c);
            step.instruction = InstructionId(static_cast<std::int32_t>(i));
            const auto it = m_nodes.find({ static_cast<int>(c), static_cast<int>(i) });
            if (it != m_nodes.end()) {
                step.node = it->second->id;
                step.label = it->second->label;
            } else {
                step.label = std::string(instructionKindName(instructions[i].kind));
            }
            m_plan.steps.push_back(std::move(step));
        }
        for (std::size_t i = 0; i < instructions.size(); ++i) {
            const Instruction& instruction = instructions[i];
            const int step = chainStart + static_cast<int>(i);
            switch (instruction.kind) {
            case Instruction::Kind::Kernel:
                walkKernel(instruction, step);
                break;
            case Instruction::Kind::Delegate:
                walkDelegate(instruction, step);
                break;
            case Instruction::Kind::Move:
                read(instruction.moveFrom, step);
                write(instruction.moveTo, step);
                if (isPlanned(instruction.moveFrom) && isPlanned(instruction.moveTo)) {
                    const TensorInfo& a = m_method.values[static_cast<std::size_t>(instruction.moveFrom)].tensor;
                    const TensorInfo& b = m_method.values[static_cast<std::size_t>(instruction.moveTo)].tensor;
                    if (a.memoryId == b.memoryId && a.memoryOffset == b.memoryOffset)
                        m_aliases.join(static_cast<std::size_t>(instruction.moveFrom),
                            static_cast<std::size_t>(instruction.moveTo));
                }
                break;
            case Instruction::Kind::JumpFalse: {
                read(instruction.condition, step);
                const int destination = instruction.destination;
                if (destination < 0 || static_cast<std::size_t>(destination) > instructions.size()) {
                    warn("step " + std::to_string(step) + ": jump_false to instruction " + std::to_string(destination)
                        + ", outside its chain of " + std::to_string(instructions.size()) + " instructions");
                } else if (chainStart + destination <= step) {
                    m_plan.loops.push_back({ chainStart + destination, step });
                }
                break;
            }
            case Instruction::Kind::Free:
                read(instruction.freedValue, step);
                forTensors(instruction.freedValue, [&](std::int32_t v) {
                    Uses& u = m_uses[static_cast<std::size_t>(v)];
                    if (u.freedAt < 0)
                        u.freedAt = step;
                });
                break;
            case Instruction::Kind::Unknown:
            case Instruction::Kind::Missing:
                break;
            }
        }
    }
    m_lastStep = std::max(0, static_cast<int>(m_plan.steps.size()) - 1);
}

void PlanBuilder::makeTensors()
{
    std::vector<bool> isInput(m_method.values.size(), false);
    std::vector<bool> isOutput(m_method.values.size(), false);
    for (const std::int32_t v : m_method.inputs)
        forTensors(v, [&](std::int32_t t) { isInput[static_cast<std::size_t>(t)] = true; });
    for (const std::int32_t v : m_method.outputs)
        forTensors(v, [&](std::int32_t t) { isOutput[static_cast<std::size_t>(t)] = true; });

    m_tensorOf.assign(m_method.values.size(), SIZE_MAX);
    for (std::size_t v = 0; v < m_method.values.size(); ++v) {
        if (!isPlanned(static_cast<std::int32_t>(v)))
            continue;
        const TensorInfo& t = m_method.values[v].tensor;
        const Uses& u = m_uses[v];
        PlannedTensor tensor;
        tensor.value = ValueIndex(static_cast<std::int32_t>(v));
        tensor.arena = t.memoryId;
        tensor.offset = t.memoryOffset;
        tensor.bytes = t.byteSize();
        tensor.dtype = scalarTypeName(t.scalarType);
        tensor.shape = t.sizes;
        tensor.storage = t.storage;
        tensor.output = isOutput[v];
        const bool state = t.storage == TensorStorage::Mutable || t.storage == TensorStorage::ExternalMutable;
        const int lastUse = std::max({ u.lastRead, u.lastWrite, u.freedAt });
        if (state) {
            tensor.role = PlannedTensor::Role::State;
            tensor.firstStep = 0;
            tensor.lastStep = m_lastStep;
        } else if (isInput[v]) {
            tensor.role = PlannedTensor::Role::Input;
            tensor.firstStep = 0;
            tensor.lastStep = std::max(lastUse, 0);
        } else if (u.firstWrite >= 0) {
            tensor.role = PlannedTensor::Role::Activation;
            tensor.firstStep = u.firstRead >= 0 ? std::min(u.firstWrite, u.firstRead) : u.firstWrite;
            tensor.lastStep = lastUse;
            tensor.producerStep = u.firstWrite;
            if (auto it = m_nodes.find({ m_plan.steps[static_cast<std::size_t>(u.firstWrite)].chain,
                    m_plan.steps[static_cast<std::size_t>(u.firstWrite)].instruction.value });
                it != m_nodes.end())
                tensor.producer = it->second->id;
        } else if (u.firstRead >= 0 || tensor.output) {
            tensor.role = PlannedTensor::Role::View; // resolved (or demoted to Unbound) below
            tensor.firstStep = u.firstRead >= 0 ? u.firstRead : m_lastStep;
            tensor.lastStep = std::max(lastUse, tensor.firstStep);
        } else {
            tensor.role = PlannedTensor::Role::Unused;
        }
        if (tensor.output && tensor.role != PlannedTensor::Role::Unused)
            tensor.lastStep = m_lastStep;
        m_tensorOf[v] = m_plan.tensors.size();
        m_plan.tensors.push_back(std::move(tensor));
    }
}

// Elided static views (§1.8 step 4): each takes the bytes of the latest tensor of the same element
// count written at the same arena and offset before its first read (the method graph's rule), in
// the order they are first read, so a view of a view finds its resolved source.
void PlanBuilder::resolveViews()
{
    std::vector<std::size_t> views;
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::vector<std::size_t>> byPlace;
    for (std::size_t i = 0; i < m_plan.tensors.size(); ++i) {
        const PlannedTensor& t = m_plan.tensors[i];
        if (t.role == PlannedTensor::Role::View)
            views.push_back(i);
        else if (t.role != PlannedTensor::Role::Unused)
            byPlace[{ t.arena, t.offset }].push_back(i);
    }
    std::stable_sort(views.begin(), views.end(),
        [&](std::size_t a, std::size_t b) { return m_plan.tensors[a].firstStep < m_plan.tensors[b].firstStep; });
    for (const std::size_t i : views) {
        PlannedTensor& view = m_plan.tensors[i];
        std::vector<std::size_t>& candidates = byPlace[{ view.arena, view.offset }];
        const std::uint64_t elements = m_method.values[view.value.index()].tensor.elementCount();
        std::size_t best = SIZE_MAX;
        for (const std::size_t c : candidates) {
            const PlannedTensor& source = m_plan.tensors[c];
            if (source.firstStep > view.firstStep
                || m_method.values[source.value.index()].tensor.elementCount() != elements)
                continue;
            if (best == SIZE_MAX || source.firstStep >= m_plan.tensors[best].firstStep)
                best = c;
        }
        // No source: a scratch buffer or placeholder whose contents do not matter; it needs its
        // bytes only where it is read (cortex_m's quantized_avg_pool2d scratch).
        if (best == SIZE_MAX) {
            view.role = PlannedTensor::Role::Unbound;
            continue;
        }
        PlannedTensor& source = m_plan.tensors[best];
        view.aliasOf = source.value;
        view.firstStep = source.firstStep;
        view.producer = source.producer;
        view.producerStep = source.producerStep;
        source.lastStep = std::max(source.lastStep, view.lastStep);
        m_aliases.join(view.value.index(), source.value.index());
        candidates.push_back(i);
    }
}

void PlanBuilder::applyLoops()
{
    if (m_plan.loops.empty())
        return;
    // Nested loops can extend each other: repeat until nothing changes (at most once per loop).
    for (std::size_t pass = 0; pass <= m_plan.loops.size(); ++pass) {
        bool changed = false;
        for (const MemoryLoop& loop : m_plan.loops) {
            for (PlannedTensor& t : m_plan.tensors) {
                if (t.firstStep < 0 || t.lastStep < loop.first || t.firstStep > loop.last)
                    continue;
                const Uses& u = m_uses[t.value.index()];
                // Lives into the loop from before it: needed again on every iteration.
                const bool fromBefore = t.firstStep < loop.first && t.lastStep < loop.last;
                // Written inside, but read inside before that write: carried between iterations.
                const bool carried = t.firstStep >= loop.first && u.firstWrite >= 0 && u.firstWrite <= loop.last
                    && std::any_of(
                        u.reads.begin(), u.reads.end(), [&](int r) { return r >= loop.first && r < u.firstWrite; });
                if (fromBefore) {
                    t.lastStep = loop.last;
                    changed = true;
                } else if (carried && (t.firstStep != loop.first || t.lastStep < loop.last)) {
                    t.firstStep = loop.first;
                    t.lastStep = std::max(t.lastStep, loop.last);
                    changed = true;
                }
            }
        }
        if (!changed)
            break;
    }
}

void PlanBuilder::buildArenas()
{
    std::map<std::uint32_t, MemoryArena> arenas;
    for (std::size_t id = 1; id < m_method.nonConstBufferSizes.size(); ++id) {
        MemoryArena& arena = arenas[static_cast<std::uint32_t>(id)];
        arena.id = static_cast<std::uint32_t>(id);
        arena.declaredSize = m_method.nonConstBufferSizes[id];
    }
    std::size_t beyond = 0;
    for (std::size_t i = 0; i < m_plan.tensors.size(); ++i) {
        const PlannedTensor& t = m_plan.tensors[i];
        auto [it, added] = arenas.try_emplace(t.arena);
        MemoryArena& arena = it->second;
        if (added) {
            arena.id = t.arena;
            warn("arena " + std::to_string(t.arena) + " (of v" + std::to_string(t.value.value) + ") is "
                + (t.arena == 0 ? "the reserved entry 0 of non_const_buffer_sizes"
                                : "not declared: the method lists "
                            + std::to_string(m_method.nonConstBufferSizes.size()) + " non_const_buffer_sizes entries"));
        }
        arena.tensors.push_back(i);
        const std::uint64_t end = t.end() < t.offset ? UINT64_MAX : t.end();
        arena.highestEnd = std::max(arena.highestEnd, end);
        if (arena.declaredSize && (*arena.declaredSize < 0 || end > static_cast<std::uint64_t>(*arena.declaredSize))) {
            ++beyond;
            warn("v" + std::to_string(t.value.value) + " (" + std::to_string(t.bytes) + " bytes at offset "
                + std::to_string(t.offset) + ") ends beyond arena " + std::to_string(t.arena) + " of "
                + std::to_string(*arena.declaredSize) + " bytes");
        }
    }
    for (auto& [id, arena] : arenas) {
        std::sort(arena.tensors.begin(), arena.tensors.end(), [&](std::size_t a, std::size_t b) {
            const PlannedTensor& x = m_plan.tensors[a];
            const PlannedTensor& y = m_plan.tensors[b];
            return std::tie(x.offset, x.firstStep, x.value) < std::tie(y.offset, y.firstStep, y.value);
        });
        sweepArena(arena);
        m_plan.arenas.push_back(std::move(arena));
    }
    (void)beyond;
}

// Walks the steps once: tensors starting at a step are checked against the live ones and added,
// the covered bytes are recorded, then tensors ending there leave.
void PlanBuilder::sweepArena(MemoryArena& arena)
{
    const std::size_t stepCount = static_cast<std::size_t>(m_lastStep) + 1;
    std::vector<std::vector<std::size_t>> starts(stepCount);
    std::vector<std::vector<std::size_t>> ends(stepCount);
    std::vector<std::uint64_t> points;
    std::uint64_t largest = 0;
    for (const std::size_t i : arena.tensors) {
        const PlannedTensor& t = m_plan.tensors[i];
        if (t.firstStep < 0 || t.bytes == 0 || t.end() < t.offset)
            continue;
        starts[static_cast<std::size_t>(std::min(t.firstStep, m_lastStep))].push_back(i);
        ends[static_cast<std::size_t>(std::min(t.lastStep, m_lastStep))].push_back(i);
        points.push_back(t.offset);
        points.push_back(t.end());
        largest = std::max(largest, t.bytes);
    }
    Coverage coverage(std::move(points));
    std::multimap<std::uint64_t, std::size_t> live; // offset → tensor
    arena.liveBytes.assign(stepCount, 0);
    std::size_t work = 0;
    bool stopped = false;
    for (std::size_t step = 0; step < stepCount; ++step) {
        for (const std::size_t i : starts[step]) {
            const PlannedTensor& t = m_plan.tensors[i];
            if (!stopped) {
                const std::uint64_t from = t.offset > largest ? t.offset - largest : 0;
                for (auto it = live.lower_bound(from); it != live.end() && it->first < t.end(); ++it) {
                    if (++work > kOverlapWorkBudget) {
                        stopped = true;
                        warn("arena " + std::to_string(arena.id) + ": overlap check stopped after "
                            + std::to_string(kOverlapWorkBudget) + " comparisons");
                        break;
                    }
                    const PlannedTensor& other = m_plan.tensors[it->second];
                    if (other.end() <= t.offset
                        || m_aliases.root(t.value.index()) == m_aliases.root(other.value.index()))
                        continue;
                    if (++m_plan.overlapCount <= MemoryPlan::kMaxListedOverlaps)
                        m_plan.overlaps.push_back({ arena.id, other.value, t.value, static_cast<int>(step) });
                }
            }
            live.emplace(t.offset, i);
            coverage.add(t.offset, t.end(), 1);
        }
        arena.liveBytes[step] = coverage.covered();
        if (arena.liveBytes[step] > arena.peakLiveBytes) {
            arena.peakLiveBytes = arena.liveBytes[step];
            arena.peakStep = static_cast<int>(step);
        }
        for (const std::size_t i : ends[step]) {
            const PlannedTensor& t = m_plan.tensors[i];
            auto [first, last] = live.equal_range(t.offset);
            for (auto it = first; it != last; ++it)
                if (it->second == i) {
                    live.erase(it);
                    break;
                }
            coverage.add(t.offset, t.end(), -1);
        }
    }
    arena.fragmentation = arena.highestEnd > 0
        ? 1.0 - static_cast<double>(arena.peakLiveBytes) / static_cast<double>(arena.highestEnd)
        : 0.0;
}

void PlanBuilder::collectConstants()
{
    struct Group {
        ConstantGroup group;
        std::set<std::string> seen;
    };
    std::map<std::string, Group> groups;
    const auto add = [&](const std::string& place, std::optional<std::uint32_t> segment, const std::string& key,
                         std::uint64_t bytes) {
        Group& g = groups[place];
        g.group.place = place;
        g.group.segment = segment;
        if (!g.seen.insert(key).second)
            return;
        ++g.group.tensors;
        g.group.bytes += bytes;
    };
    for (const Value& value : m_method.values) {
        if (!value.isTensor())
            continue;
        const TensorInfo& t = value.tensor;
        const std::string index = std::to_string(t.dataBufferIndex);
        switch (t.storage) {
        case TensorStorage::Constant:
            if (m_program.hasConstantSegment)
                add("constant segment", m_program.constantSegment.segmentIndex, index, t.byteSize());
            else
                add("constant_buffer (legacy)", std::nullopt, index, t.byteSize());
            break;
        case TensorStorage::Mutable:
            add("mutable data segment",
                m_program.mutableDataSegments.empty()
                    ? std::nullopt
                    : std::optional<std::uint32_t>(m_program.mutableDataSegments.front().segmentIndex),
                index, t.byteSize());
            break;
        case TensorStorage::External:
            add("external (named data / .ptd)", std::nullopt, t.fullyQualifiedName, t.byteSize());
            break;
        case TensorStorage::ExternalMutable:
            add("external, copied into an arena", std::nullopt, t.fullyQualifiedName, t.byteSize());
            break;
        case TensorStorage::Runtime:
        case TensorStorage::Planned:
            break;
        }
    }
    for (auto& [place, g] : groups)
        m_plan.constants.push_back(std::move(g.group));
}

MemoryPlan PlanBuilder::build()
{
    indexGraph();
    walk();
    makeTensors();
    resolveViews();
    applyLoops();
    buildArenas();
    collectConstants();
    if (m_plan.overlapCount > 0)
        m_plan.warnings.insert(m_plan.warnings.begin(),
            { std::to_string(m_plan.overlapCount)
                    + " pairs of tensors are live at the same step in the same bytes (a planning error)",
                std::nullopt });
    if (m_warned > kMaxListedWarnings)
        m_plan.warnings.push_back(
            { "… and " + std::to_string(m_warned - kMaxListedWarnings) + " more warnings like these", std::nullopt });
    return std::move(m_plan);
}

} // namespace

std::string_view plannedTensorRoleName(PlannedTensor::Role role)
{
    switch (role) {
    case PlannedTensor::Role::Activation:
        return "activation";
    case PlannedTensor::Role::Input:
        return "input";
    case PlannedTensor::Role::State:
        return "state";
    case PlannedTensor::Role::View:
        return "view";
    case PlannedTensor::Role::Unbound:
        return "unbound";
    case PlannedTensor::Role::Unused:
        return "unused";
    }
    return "unknown";
}

const PlannedTensor* MemoryPlan::tensor(ValueIndex value) const
{
    const auto it = std::lower_bound(
        tensors.begin(), tensors.end(), value, [](const PlannedTensor& t, ValueIndex v) { return t.value < v; });
    return it != tensors.end() && it->value == value ? &*it : nullptr;
}

MemoryPlan computeMemoryPlan(const Program& program, const Method& method, const Graph* graph)
{
    if (graph)
        return PlanBuilder(program, method, *graph).build();
    const Graph built = buildMethodGraph(method, {});
    return PlanBuilder(program, method, built).build();
}

MemoryPlan computeMemoryPlan(const Document& document, const Method& method)
{
    const MethodAnalysis* analysis = document.analysis(method);
    const Graph* graph = analysis && analysis->graph ? analysis->graph.get() : nullptr;
    return computeMemoryPlan(*document.program, method, graph);
}

} // namespace etscope::core
