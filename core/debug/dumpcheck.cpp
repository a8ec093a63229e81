// SPDX-License-Identifier: MIT
#include "core/debug/dumpcheck.h"

#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <map>

namespace etscope::core {

namespace {

enum Kind : std::size_t { EventName, InstructionIdKind, TensorKind, OutputCount, KindCount };

constexpr std::size_t kExamples = 3;

constexpr std::string_view kDumpFitQuestion = "is this ETDump from another program?";

/// Collects disagreements, keeping a few examples of each kind so the summary shows variety.
class Recorder {
public:
    explicit Recorder(DumpFit& fit)
        : m_fit(fit)
    {
    }
    void check() { ++m_fit.checked; }
    void mismatch(Kind kind, std::string example)
    {
        switch (kind) {
        case EventName:
            ++m_fit.eventNames;
            break;
        case InstructionIdKind:
            ++m_fit.instructionIds;
            break;
        case TensorKind:
            ++m_fit.tensors;
            break;
        case OutputCount:
        case KindCount:
            ++m_fit.outputCounts;
            break;
        }
        if (m_examples[kind].size() < kExamples)
            m_examples[kind].push_back(std::move(example));
    }
    /// Round robin over the kinds: the first example of each, then the second, …
    void finish()
    {
        for (std::size_t round = 0; round < kExamples && m_fit.examples.size() < kExamples; ++round)
            for (const auto& examples : m_examples)
                if (round < examples.size() && m_fit.examples.size() < kExamples)
                    m_fit.examples.push_back(examples[round]);
    }

private:
    DumpFit& m_fit;
    std::array<std::vector<std::string>, KindCount> m_examples;
};

/// Value kinds are spelled "Int", "TensorList"; tensor dtypes "FLOAT", "UNKNOWN(40)".
bool isTensorDtype(const std::string& dtype)
{
    return dtype.size() >= 2 && std::isupper(static_cast<unsigned char>(dtype[0]))
        && std::isupper(static_cast<unsigned char>(dtype[1]));
}

/// Program value index → dtype and shape, from the edges that carry the values (a value no
/// node reads, such as a dead kernel output, has none).
std::map<std::int32_t, TensorMeta> valueMetas(const Graph& graph)
{
    std::map<std::int32_t, TensorMeta> metas;
    for (const Edge& edge : graph.edges)
        if (edge.value.valid() && edge.meta.known())
            metas.try_emplace(edge.value.value, edge.meta);
    // Outputs nothing reads (max_pool2d_with_indices' indices) are on no edge.
    for (const Node& node : graph.nodes)
        for (const auto& [value, meta] : node.writes)
            if (meta.known())
                metas.try_emplace(value, meta);
    return metas;
}

std::string describeNode(const Node& node)
{
    switch (node.kind) {
    case NodeKind::Operator:
        return node.opType.empty() ? node.label : node.opType;
    case NodeKind::Delegate:
        return "a delegate call (" + node.label + ")";
    case NodeKind::Move:
        return "a MoveCall";
    case NodeKind::JumpFalse:
        return "a JumpFalseCall";
    case NodeKind::Free:
        return "a FreeCall";
    default:
        return "an instruction of unknown kind";
    }
}

std::optional<std::string> tensorProblem(const DebugTensor& logged, const TensorMeta& program)
{
    if (!isTensorDtype(program.dtype))
        return std::nullopt;
    const std::string dtype = scalarTypeName(logged.scalarType);
    bool fits = dtype == program.dtype;
    if (fits && logged.sizes != program.shape) {
        // DYNAMIC_BOUND tensors store their upper bound: a smaller logged shape of the same rank fits.
        fits = logged.sizes.size() == program.shape.size();
        for (std::size_t d = 0; fits && d < logged.sizes.size(); ++d)
            fits = logged.sizes[d] >= 0 && logged.sizes[d] <= program.shape[d];
    }
    if (fits)
        return std::nullopt;
    return "logged " + dtype + " " + formatShape(logged.sizes) + ", the program's value is " + program.dtype + " "
        + formatShape(program.shape);
}

struct Context {
    const EventMapper& mapper;
    const Graph& graph;
    std::size_t instructions = 0;
    std::map<std::int32_t, TensorMeta> metas;
    std::vector<NodeId> outputs;
    std::map<std::int32_t, std::vector<std::int32_t>> produced; ///< node id → values on its out-edges
    Recorder& recorder;
};

/// The program values a logged value of `node` may stand for. A kernel logs its out arguments
/// (§4.3): the values it writes (also those nothing reads), which its out-edges carry, and
/// its last arg (§1.7). Any of
/// them will do, because a kernel inside a loop logs its outs once per pass. A delegate call
/// logs every argument, in order, once per call.
std::vector<std::int32_t> candidateValues(const Context& c, const Node& node, std::size_t k)
{
    if (node.kind == NodeKind::Delegate)
        return node.args.empty() ? std::vector<std::int32_t>() : std::vector { node.args[k % node.args.size()] };
    if (node.kind != NodeKind::Operator)
        return {};
    std::vector<std::int32_t> values;
    for (const auto& [value, meta] : node.writes)
        values.push_back(value);
    if (const auto it = c.produced.find(node.id.value); it != c.produced.end())
        values.insert(values.end(), it->second.begin(), it->second.end());
    if (!node.args.empty())
        values.push_back(node.args.back());
    return values;
}

std::string instructionRange(std::size_t instructions)
{
    return instructions == 0
        ? std::string("has no instructions")
        : "has " + std::to_string(instructions) + " instruction(s), 0 to " + std::to_string(instructions - 1);
}

/// Looks the instruction up; records an unknown id.
const Node* instructionNode(Context& c, InstructionId instruction, const std::string& what)
{
    const NodeId id = c.mapper.instructionNode(ChainIndex(0), instruction);
    if (id.valid())
        return &c.graph.node(id);
    c.recorder.mismatch(InstructionIdKind,
        what + " at instruction " + std::to_string(instruction.value) + ", but method '" + c.mapper.method() + "' "
            + instructionRange(c.instructions));
    return nullptr;
}

/// An XNNPACK operator event ("Add (ND) #1") of a family the decoded delegate has no node for.
void checkXnnpackFamily(Context& c, const Node& delegate, const ProfileEvent& event)
{
    if (!delegate.subgraph || delegate.subgraph->format != "xnnpack" || event.delegateDebugIdStr.empty())
        return;
    const std::vector<std::string> types = xnnpackNodeTypes(xnnpackFamily(event.delegateDebugIdStr));
    if (types.empty())
        return; // a family this build does not know, or one XNNPACK adds itself
    for (const Node& inner : delegate.subgraph->nodes)
        if (std::find(types.begin(), types.end(), inner.opType) != types.end())
            return;
    c.recorder.mismatch(EventName,
        "delegate event '" + event.delegateDebugIdStr + "' at instruction " + std::to_string(event.instructionId.value)
            + ", but the " + delegate.label + " delegate there has no " + types.front() + " node");
}

void checkProfileEvents(Context& c, const RunBlock& block)
{
    for (const ProfileEvent& event : block.profileEvents) {
        if (event.isFramework() || event.chainIndex.value != 0)
            continue;
        const std::string what = event.isDelegateInternal() ? "delegate event '" + event.delegateIdentifier() + "'"
                                                            : "event " + event.name;
        c.recorder.check();
        const Node* node = instructionNode(c, event.instructionId, what);
        if (!node)
            continue;
        const std::optional<bool> fits = event.isDelegateInternal()
            ? std::optional<bool>(node->kind == NodeKind::Delegate)
            : eventNameFits(*node, event.name);
        if (fits && !*fits)
            c.recorder.mismatch(EventName,
                what + " at instruction " + std::to_string(event.instructionId.value) + ", where the program runs "
                    + describeNode(*node));
        else if (event.isDelegateInternal())
            checkXnnpackFamily(c, *node, event);
    }
}

/// Fine when the tensor fits one of `values` whose program tensor is known; skipped when none is.
void checkTensor(
    Context& c, const DebugTensor& tensor, const std::vector<std::int32_t>& values, const std::string& where)
{
    std::optional<std::string> problem;
    std::int32_t first = -1;
    for (const std::int32_t value : values) {
        const auto meta = c.metas.find(value);
        if (meta == c.metas.end() || !isTensorDtype(meta->second.dtype))
            continue;
        auto mismatch = tensorProblem(tensor, meta->second);
        if (!mismatch) {
            c.recorder.check();
            return;
        }
        if (!problem) {
            problem = std::move(mismatch);
            first = value;
        }
    }
    if (!problem)
        return;
    c.recorder.check();
    c.recorder.mismatch(TensorKind, where + ": " + *problem + " (value " + std::to_string(first) + ")");
}

void checkDebugEvents(Context& c, const RunBlock& block)
{
    // Values an instruction logged, in order (one kernel may log several outs).
    std::vector<InstructionId> order;
    std::map<InstructionId, std::vector<const DebugEvent*>> byInstruction;
    std::vector<const DebugEvent*> outputs;
    for (const DebugEvent& event : block.debugEvents) {
        if (event.value.output)
            outputs.push_back(&event);
        else if (event.chainIndex == 0 && !event.isDelegateInternal()) {
            auto& events = byInstruction[event.instructionId];
            if (events.empty())
                order.push_back(event.instructionId);
            events.push_back(&event);
        }
    }
    for (const InstructionId instruction : order) {
        const auto& events = byInstruction[instruction];
        c.recorder.check();
        const Node* node = instructionNode(c, instruction, "logged value");
        if (!node)
            continue;
        // A delegate call logs every argument (§4.3), so its values come in whole calls.
        if (node->kind == NodeKind::Delegate && (node->args.empty() || events.size() % node->args.size() != 0)) {
            c.recorder.mismatch(TensorKind,
                "instruction " + std::to_string(instruction.value) + " (" + describeNode(*node) + ") logged "
                    + std::to_string(events.size()) + " value(s), the call has " + std::to_string(node->args.size())
                    + " argument(s)");
            continue;
        }
        for (std::size_t k = 0; k < events.size(); ++k)
            if (events[k]->value.kind == DebugValue::Kind::Tensor && !events[k]->value.tensors.empty())
                checkTensor(c, events[k]->value.tensors.front(), candidateValues(c, *node, k),
                    "instruction " + std::to_string(instruction.value) + " (" + describeNode(*node) + ")");
    }
    if (outputs.empty())
        return;
    c.recorder.check();
    if (outputs.size() != c.outputs.size())
        c.recorder.mismatch(OutputCount,
            "logged " + std::to_string(outputs.size()) + " program output(s), method '" + c.mapper.method() + "' has "
                + std::to_string(c.outputs.size()));
    for (std::size_t i = 0; i < outputs.size() && i < c.outputs.size(); ++i) {
        const DebugValue& value = outputs[i]->value;
        const Node& node = c.graph.node(c.outputs[i]);
        if (value.kind == DebugValue::Kind::Tensor && !value.tensors.empty() && node.value.valid())
            checkTensor(c, value.tensors.front(), { node.value.value }, "program output " + std::to_string(i));
    }
}

bool startsWith(std::span<const std::uint8_t> bytes, std::size_t at, std::string_view text)
{
    return bytes.size() >= at + text.size() && std::memcmp(bytes.data() + at, text.data(), text.size()) == 0;
}

bool identifierAt(std::span<const std::uint8_t> bytes, std::size_t at, std::string_view prefix)
{
    if (!startsWith(bytes, at, prefix) || bytes.size() < at + 4)
        return false;
    for (std::size_t i = at + prefix.size(); i < at + 4; ++i)
        if (!std::isalnum(bytes[i]))
            return false;
    return true;
}

} // namespace

DumpFit checkDumpFitsProgram(const ETDump& dump, const EventMapper& mapper, std::optional<std::size_t> executeBlock)
{
    DumpFit fit;
    Recorder recorder(fit);
    const Graph& graph = mapper.graph();
    Context c { mapper, graph, 0, valueMetas(graph), {}, {}, recorder };
    for (const Edge& edge : graph.edges) {
        auto& values = c.produced[edge.from.value];
        if (edge.value.valid() && std::find(values.begin(), values.end(), edge.value.value) == values.end())
            values.push_back(edge.value.value);
    }
    for (const Node& node : graph.nodes) {
        if (node.instruction.valid() && node.chain == 0)
            ++c.instructions;
        if (node.kind == NodeKind::Output)
            c.outputs.push_back(node.id);
    }
    const std::vector<std::size_t> blocks = dump.executeBlocks();
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (executeBlock && *executeBlock != b)
            continue;
        checkProfileEvents(c, dump.runs[blocks[b]]);
        checkDebugEvents(c, dump.runs[blocks[b]]);
    }
    recorder.finish();
    return fit;
}

std::vector<Warning> dumpFitWarnings(const DumpFit& fit, const std::string& subject, const std::string& method)
{
    std::vector<Warning> warnings;
    if (fit.mismatches() == 0)
        return warnings;
    std::string kinds;
    const auto add = [&](std::size_t count, const char* what) {
        if (count)
            kinds += (kinds.empty() ? "" : ", ") + std::to_string(count) + " " + what;
    };
    add(fit.eventNames, "event name(s)");
    add(fit.instructionIds, "instruction id(s)");
    add(fit.tensors, "tensor dtype/shape(s)");
    add(fit.outputCounts, "output count(s)");
    warnings.push_back({ subject + ": " + std::to_string(fit.mismatches()) + " of " + std::to_string(fit.checked)
            + " checks disagree with method '" + method + "' (" + kinds + "): " + std::string(kDumpFitQuestion)
            + " Its numbers are not this program's; events whose name disagrees are not placed.",
        std::nullopt });
    for (const std::string& example : fit.examples)
        warnings.push_back({ subject + ": " + example, std::nullopt });
    return warnings;
}

bool isDumpFitSummary(const Warning& warning)
{
    return warning.message.find(kDumpFitQuestion) != std::string::npos;
}

void leadWithDumpFit(std::vector<Warning>& warnings)
{
    std::stable_partition(warnings.begin(), warnings.end(), isDumpFitSummary);
}

std::optional<Warning> checkDebugBufferKind(const ETDump& dump)
{
    if (!dump.buffer)
        return std::nullopt;
    const std::span<const std::uint8_t> bytes = dump.buffer->file->bytes();
    const char* kind = nullptr;
    if (startsWith(bytes, 8, "ED00") || startsWith(bytes, 4, "ED00"))
        kind = "an ETDump";
    else if (identifierAt(bytes, 4, "ET"))
        kind = "an ExecuTorch program";
    else if (identifierAt(bytes, 4, "BP"))
        kind = "a bundled program";
    else if (identifierAt(bytes, 4, "FT"))
        kind = "an external data file (.ptd)";
    else if (startsWith(bytes, 0, "PK\x03\x04"))
        kind = "a ZIP archive (an ETRecord?)";
    if (!kind)
        return std::nullopt;
    return Warning { dump.buffer->path() + ": the debug buffer of " + dump.path() + " starts like " + kind
            + ", not like tensor bytes: values read from it are meaningless",
        std::nullopt };
}

} // namespace etscope::core
