// SPDX-License-Identifier: MIT
// Arm Ethos-U payloads (facts sheet §3.4): a "vela_bin_stream" of blocks, each a 32-byte header
// (16-byte name, uint32 unpadded size, 1-byte external flag, 11 reserved bytes) and its data
// padded to 16. The I/O layout and memory sizes are read from their blocks; the NPU command
// stream in cmd_data is replayed (ethosucommands.h) into an inner graph of NPU operations.
//
// Data flow: every operation's reads and writes are the exact bytes of a memory region its
// feature maps, weights, scales and copies touch (sorted runs, ethosuflow.h). An edge runs from
// the latest writer of any byte an operation reads, one per writer however many bytes. The
// weight block is region 0 before the first command (drawn as no node); the delegate's inputs
// write their (region, offset, size) before the first command; each output reads its range
// after the last. Inputs map to the DelegateCall's arguments in
// order, outputs after them (the Arm backend's runtime, EthosUBackend.cpp, takes args[i] for
// input i and args[inputs + j] for output j).
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/delegates/ethosucommands.h"
#include "core/delegates/ethosuflow.h"
#include "core/delegates/targetfacts.h"
#include "core/util/text.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace etscope::core {

namespace {

constexpr std::size_t kBlockHeader = 32;
constexpr std::size_t kNameLength = 16;
constexpr std::size_t kIoRecord = 36; ///< shape[6], element size, offset, region: nine int32
constexpr int kRegions = 8;

struct VelaBlock {
    std::string name;
    std::uint32_t size = 0;
    bool external = false;
    std::size_t dataOffset = 0; ///< in the payload
    std::span<const std::uint8_t> data;
};

struct IoRecord {
    std::vector<std::int64_t> shape;
    std::int32_t elementSize = 0;
    std::int32_t offset = 0;
    std::int32_t region = 0;
    std::uint64_t bytes = 0;
};

std::int32_t readI32(const std::uint8_t* p)
{
    return static_cast<std::int32_t>(readLe32(p));
}

/// The inputs/outputs block: a count, then one record per tensor.
std::vector<IoRecord> describeIo(
    const DelegateContext& context, DelegateInfo& info, const VelaBlock& block, const char* singular, int& count)
{
    std::vector<IoRecord> records;
    if (block.data.size() < 4) {
        context.warn(info, "the " + block.name + " block is too small for its count", block.dataOffset);
        return records;
    }
    const std::uint32_t declared = readLe32(block.data.data());
    const std::uint64_t fit = (block.data.size() - 4) / kIoRecord;
    if (declared > fit)
        context.warn(info,
            "the " + block.name + " block announces " + std::to_string(declared) + " tensors but holds "
                + std::to_string(fit),
            block.dataOffset);
    count = static_cast<int>(std::min<std::uint64_t>(declared, fit));
    info.facts.push_back({ block.name, std::to_string(declared) });
    for (int i = 0; i < count; ++i) {
        const std::uint8_t* raw = block.data.data() + 4 + static_cast<std::size_t>(i) * kIoRecord;
        IoRecord record;
        std::uint64_t elements = 1;
        for (int d = 0; d < 6; ++d) {
            const std::int32_t dim = readI32(raw + 4 * static_cast<std::size_t>(d));
            record.shape.push_back(dim);
            elements = dim > 0 ? std::min<std::uint64_t>(elements * static_cast<std::uint64_t>(dim), 1ull << 48) : 0;
        }
        record.elementSize = readI32(raw + 24);
        record.offset = readI32(raw + 28);
        record.region = readI32(raw + 32);
        // Elements are capped at 2^48 and element sizes at 2^8 in this product, so it cannot wrap.
        record.bytes = record.elementSize > 0
            ? elements * std::min<std::uint64_t>(static_cast<std::uint64_t>(record.elementSize), 256)
            : 0;
        info.facts.push_back({ std::string(singular) + " " + std::to_string(i),
            "shape " + formatShape(record.shape) + ", element size " + std::to_string(record.elementSize) + ", "
                + std::to_string(record.bytes) + " bytes at offset " + std::to_string(record.offset) + " of region "
                + std::to_string(record.region) });
        records.push_back(std::move(record));
    }
    return records;
}

/// The register map named by the compile specs ("target" ethos-u85-256, or the compile flags'
/// --accelerator-config=ethos-u55-128); nullopt when they name none.
std::optional<ethosu::Arch> archFromCompileSpecs(const DelegateRef& ref, std::string& source)
{
    for (const char* key : { "target", "compile_flags" }) {
        for (const CompileSpec& spec : ref.compileSpecs) {
            if (spec.key != key)
                continue;
            const std::string value(spec.value.begin(), spec.value.end());
            for (const auto& [needle, arch] : { std::pair { "ethos-u55", ethosu::Arch::U55 },
                     std::pair { "ethos-u65", ethosu::Arch::U65 }, std::pair { "ethos-u85", ethosu::Arch::U85 } }) {
                const auto at = value.find(needle);
                if (at == std::string::npos)
                    continue;
                const auto end = value.find_first_of(" ,", at);
                source = std::string(key) + " " + value.substr(at, end == std::string::npos ? end : end - at);
                return arch;
            }
        }
    }
    return std::nullopt;
}

/// Byte runs one access may expand into before its gaps are counted as touched, and runs a whole
/// stream may expand into before each further access is taken as one range: they bound the
/// time and the memory of the last-writer map (a map entry per run at most) on hostile streams.
/// The real streams make 28 to 117,917 runs (mobilenetv2_lrn's first delegate, 323 operations).
constexpr std::size_t kMaxRunsPerAccess = std::size_t(1) << 17;
constexpr std::uint64_t kMaxRunsPerStream = std::uint64_t(1) << 20;
constexpr int kMaxCoarseWarnings = 5;
constexpr std::size_t kMaxUncoveredListed = 50;

/// Builds the inner graph from the decoded operations and the I/O records.
class FlowBuilder {
public:
    FlowBuilder(const DelegateContext& context, DelegateInfo& info, ethosu::FlowCheck* check)
        : m_context(context)
        , m_info(info)
        , m_check(check)
    {
        m_graph->name = context.ref.backendId;
        m_graph->backendId = context.ref.backendId;
        m_graph->format = "ethos-u";
    }

    void addConstants(std::uint64_t weightBytes);
    void addInputs(const std::vector<IoRecord>& inputs);
    void addOperations(ethosu::CommandStream& stream);
    void addOutputs(const std::vector<IoRecord>& outputs, int inputCount);
    std::shared_ptr<Graph> graph() { return m_graph; }

private:
    /// A writer of bytes: an input, an operation's feature map or copy, or the weight block.
    struct Source {
        NodeId node;
        std::int32_t value = -1;
        TensorMeta meta;
        bool raw = true; ///< untyped bytes (a DMA copy, an input record)
        bool constant = false; ///< the weight block: read, but no node draws it
    };
    std::uint32_t addSource(Source source);
    std::vector<ethosu::ByteRun> runsOf(const ethosu::RegionAccess& access, const ethosu::Operation& op);
    /// The sources of `runs` not yet connected to the reader `stamp`, in address order.
    std::uint64_t collect(
        int region, std::span<const ethosu::ByteRun> runs, std::uint32_t stamp, std::vector<std::uint32_t>& found);
    void connect(NodeId to, std::uint32_t source, const TensorMeta& readerMeta, bool readerRaw);
    void noteUncovered(
        const ethosu::Operation& op, const ethosu::RegionAccess& access, std::uint64_t bytes, std::uint64_t readBytes);
    static void ioAttributes(Node& node, const IoRecord& record);

    const DelegateContext& m_context;
    DelegateInfo& m_info;
    ethosu::FlowCheck* m_check = nullptr;
    std::shared_ptr<Graph> m_graph = std::make_shared<Graph>();
    ethosu::LastWriters m_writers;
    std::vector<Source> m_sources;
    std::vector<std::uint32_t> m_stamps; ///< per source: the last reader connected to it
    std::uint32_t m_reader = 0; ///< stamp of the node being connected
    std::optional<Source> m_chained; ///< the operation whose OFM is chained into the next
    std::uint64_t m_runBudget = kMaxRunsPerStream;
    bool m_budgetWarned = false;
    int m_coarseWarnings = 0;
    std::int32_t m_nextValue = 0;
};

std::uint32_t FlowBuilder::addSource(Source source)
{
    m_sources.push_back(std::move(source));
    m_stamps.push_back(0);
    return static_cast<std::uint32_t>(m_sources.size() - 1);
}

std::vector<ethosu::ByteRun> FlowBuilder::runsOf(const ethosu::RegionAccess& access, const ethosu::Operation& op)
{
    const std::size_t cap
        = m_runBudget == 0 ? 1 : static_cast<std::size_t>(std::min<std::uint64_t>(kMaxRunsPerAccess, m_runBudget));
    bool coarsened = false;
    std::vector<ethosu::ByteRun> runs = ethosu::accessRuns(access, cap, coarsened);
    m_runBudget -= std::min<std::uint64_t>(m_runBudget, runs.size());
    if (coarsened && m_runBudget == 0 && !m_budgetWarned) {
        m_budgetWarned = true;
        m_context.warn(m_info,
            "the feature maps of the command stream touch more than " + std::to_string(kMaxRunsPerStream)
                + " separate byte runs; from command " + std::to_string(op.commandIndex)
                + " on, each is taken as its whole range (edges may be drawn from writers of the gaps)");
    } else if (coarsened && m_runBudget > 0 && m_coarseWarnings <= kMaxCoarseWarnings) {
        m_context.warn(m_info,
            m_coarseWarnings++ == kMaxCoarseWarnings ? std::string("further feature maps were coarsened the same way")
                                                     : "the " + std::string(access.role) + " of command "
                    + std::to_string(op.commandIndex) + " touches more than " + std::to_string(kMaxRunsPerAccess)
                    + " separate byte runs; the gaps between its rows are counted as touched");
    }
    return runs;
}

std::uint64_t FlowBuilder::collect(
    int region, std::span<const ethosu::ByteRun> runs, std::uint32_t stamp, std::vector<std::uint32_t>& found)
{
    return m_writers.read(region, runs, [&](std::uint32_t source) {
        if (m_stamps[source] != stamp) {
            m_stamps[source] = stamp; // one edge per producer and value, however many runs it wrote
            found.push_back(source);
        }
    });
}

void FlowBuilder::connect(NodeId to, std::uint32_t index, const TensorMeta& readerMeta, bool readerRaw)
{
    const Source& source = m_sources[index];
    if (source.constant)
        return;
    // The edge carries the producer's tensor; bytes copied or handed in untyped take the type
    // of the feature map that reads them.
    const bool useReader = !source.meta.known() || (source.raw && !readerRaw);
    m_graph->addEdge({ source.node, to, ValueIndex(source.value), useReader ? readerMeta : source.meta, false });
}

void FlowBuilder::noteUncovered(
    const ethosu::Operation& op, const ethosu::RegionAccess& access, std::uint64_t bytes, std::uint64_t readBytes)
{
    if (!m_check)
        return;
    ++m_check->reads;
    m_check->readBytes += readBytes;
    if (bytes == 0)
        return;
    m_check->uncoveredBytes += bytes;
    ++m_check->uncoveredReads;
    if (m_check->uncovered.size() < kMaxUncoveredListed)
        m_check->uncovered.push_back("command " + std::to_string(op.commandIndex) + " (" + op.label + ") reads "
            + std::to_string(bytes) + " of its " + std::to_string(readBytes) + " " + access.role + " bytes (region "
            + std::to_string(access.region) + ", " + std::to_string(access.begin) + "–" + std::to_string(access.end)
            + ") that no earlier operation, input or the weight block wrote");
}

void FlowBuilder::ioAttributes(Node& node, const IoRecord& record)
{
    node.attributes.push_back({ "shape", formatShape(record.shape) });
    node.attributes.push_back({ "element size", std::to_string(record.elementSize) });
    node.attributes.push_back({ "region", std::to_string(record.region) });
    node.attributes.push_back({ "offset", std::to_string(record.offset) });
    node.attributes.push_back({ "bytes", std::to_string(record.bytes) });
}

void FlowBuilder::addConstants(std::uint64_t weightBytes)
{
    // The weight block is bound to region 0 (the Arm backend's runtime, EthosUBackend.cpp, hands
    // the driver the weights as base address 0, the scratch holding the I/O as 1): its bytes are
    // there before the first command, read by DMA copies and kernels, drawn as no node.
    if (weightBytes == 0)
        return;
    const std::uint32_t index = addSource({ NodeId(), -1, {}, true, true });
    const ethosu::ByteRun run { 0, weightBytes };
    m_writers.write(0, { &run, 1 }, index);
}

void FlowBuilder::addInputs(const std::vector<IoRecord>& inputs)
{
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const IoRecord& record = inputs[i];
        Node node;
        node.kind = NodeKind::Input;
        node.label = "input " + std::to_string(i);
        node.argPosition = static_cast<int>(i);
        node.value = ValueIndex(m_nextValue++);
        ioAttributes(node, record);
        const NodeId id = m_graph->addNode(std::move(node));
        // The record says nothing of signedness: the readers' feature maps tell the edge's type.
        const std::uint32_t index = addSource({ id, m_graph->node(id).value.value, {}, true, false });
        if (record.offset >= 0 && record.bytes > 0) {
            const auto begin = static_cast<std::uint64_t>(record.offset);
            const ethosu::ByteRun run { begin, begin + record.bytes };
            m_writers.write(record.region, { &run, 1 }, index);
        }
    }
}

void FlowBuilder::addOperations(ethosu::CommandStream& stream)
{
    std::vector<std::uint32_t> found;
    std::vector<std::pair<std::uint32_t, const ethosu::RegionAccess*>> inputs;
    for (ethosu::Operation& op : stream.operations) {
        Node node;
        node.kind = op.kind == ethosu::OpKind::Unknown ? NodeKind::Unknown : NodeKind::Operator;
        node.label = op.label;
        node.opType = op.opType;
        // Every byte read whose latest writer is an earlier operation (or an input) gives one
        // edge from that writer, read before this operation's own writes land.
        const std::uint32_t stamp = ++m_reader;
        inputs.clear();
        for (const ethosu::RegionAccess& access : op.reads) {
            found.clear();
            const std::vector<ethosu::ByteRun> runs = runsOf(access, op);
            const std::uint64_t uncovered = collect(access.region, runs, stamp, found);
            if (m_check) {
                std::uint64_t bytes = 0;
                for (const ethosu::ByteRun& run : runs)
                    bytes += run.end - run.begin;
                noteUncovered(op, access, uncovered, bytes);
            }
            for (const std::uint32_t source : found)
                inputs.emplace_back(source, &access);
        }
        const std::int32_t value = m_nextValue++;
        node.value = ValueIndex(value);
        node.attributes = std::move(op.attributes);
        node.attributes.add("stream offset", std::to_string(op.offset));
        node.attributes.shrink();
        const NodeId id = m_graph->addNode(std::move(node));
        for (const auto& [source, access] : inputs)
            connect(id, source, access->meta, access->raw);
        if (!op.writes.empty()) {
            // One source for all of the operation's writes (tiles share the tensor): one edge per reader.
            const std::uint32_t index = addSource({ id, value, op.writes.front().meta, op.writes.front().raw, false });
            for (const ethosu::RegionAccess& access : op.writes) {
                const std::vector<ethosu::ByteRun> runs = runsOf(access, op);
                m_writers.write(access.region, runs, index);
            }
        }
        // A chained OFM reaches the next operation without passing through memory.
        // DMA runs beside the kernels and does not break a chain.
        if (op.kind != ethosu::OpKind::Dma) {
            if (op.chainedInput && m_chained) {
                const std::uint32_t index = addSource(*m_chained);
                connect(id, index, *op.chainedInput, false);
            }
            m_chained.reset();
            if (op.chainedOutput)
                m_chained = Source { id, value, *op.chainedOutput, false, false };
        }
    }
}

void FlowBuilder::addOutputs(const std::vector<IoRecord>& outputs, int inputCount)
{
    std::vector<std::uint32_t> found;
    for (std::size_t j = 0; j < outputs.size(); ++j) {
        const IoRecord& record = outputs[j];
        Node node;
        node.kind = NodeKind::Output;
        node.label = "output " + std::to_string(j);
        node.argPosition = inputCount + static_cast<int>(j);
        node.value = ValueIndex(m_nextValue++);
        ioAttributes(node, record);
        const NodeId id = m_graph->addNode(std::move(node));
        const std::uint32_t stamp = ++m_reader;
        found.clear();
        if (record.offset >= 0 && record.bytes > 0) {
            const auto begin = static_cast<std::uint64_t>(record.offset);
            const ethosu::ByteRun run { begin, begin + record.bytes };
            collect(record.region, { &run, 1 }, stamp, found);
        }
        std::erase_if(found, [&](std::uint32_t source) { return m_sources[source].constant; });
        if (found.empty() && record.bytes > 0) {
            const std::string text = "output " + std::to_string(j) + " (region " + std::to_string(record.region) + ", "
                + std::to_string(record.bytes) + " bytes at offset " + std::to_string(record.offset)
                + ") is written by no NPU operation";
            m_context.warn(m_info, text);
            if (m_check)
                m_check->unwrittenOutputs.push_back(text);
        }
        for (const std::uint32_t source : found)
            connect(id, source, { "uint8", { static_cast<std::int64_t>(record.bytes) } }, true);
    }
}

std::string countText(const ethosu::CommandStream& stream, std::size_t& total)
{
    std::map<std::pair<int, std::string>, std::size_t> counts;
    for (const ethosu::Operation& op : stream.operations) {
        if (op.kind == ethosu::OpKind::Unknown)
            continue; // unknown commands have their own fact and are no operator nodes
        std::string name;
        switch (op.kind) {
        case ethosu::OpKind::Conv:
            name = "conv";
            break;
        case ethosu::OpKind::Depthwise:
            name = "depthwise";
            break;
        case ethosu::OpKind::Pool:
            name = op.mode + " pool";
            break;
        case ethosu::OpKind::Resize:
            name = op.mode + " resize";
            break;
        case ethosu::OpKind::Dma:
            name = "DMA";
            break;
        default:
            name = op.mode;
            break;
        }
        ++counts[{ static_cast<int>(op.kind), name }];
        ++total;
    }
    std::string text;
    for (const auto& [key, count] : counts)
        text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + key.second;
    return text;
}

/// Replays cmd_data and builds the inner graph; false when there is no stream to replay.
bool decodeStream(const DelegateContext& context, DelegateInfo& info, const VelaBlock& block,
    const std::vector<IoRecord>& inputs, const std::vector<IoRecord>& outputs, std::uint64_t weightBytes,
    std::string& summary, ethosu::FlowCheck* check)
{
    const ethosu::DriverPayload framing = ethosu::readDriverPayload(block.data);
    for (const Warning& w : framing.warnings)
        context.warn(info, "cmd_data: " + w.message, block.dataOffset + w.offset.value_or(0));
    if (!framing.commandOffset)
        return false;

    std::string specSource;
    const auto specArch = archFromCompileSpecs(context.ref, specSource);
    std::optional<ethosu::NpuConfig> config;
    if (framing.configWord)
        config = ethosu::readConfigWord(*framing.configWord);
    ethosu::Arch arch = ethosu::Arch::U55;
    std::string archSource;
    if (config && config->arch) {
        arch = *config->arch;
        archSource = "the OPTIMIZER_CONFIG word";
        const bool u85Spec = specArch && *specArch == ethosu::Arch::U85;
        if (specArch && u85Spec != (arch == ethosu::Arch::U85))
            context.warn(info,
                "the compile specs name " + std::string(ethosu::archName(*specArch)) + " (" + specSource
                    + ") but the command stream was built for " + std::string(ethosu::archName(arch)),
                block.dataOffset);
    } else if (specArch) {
        arch = *specArch;
        archSource = "the compile spec " + specSource;
    } else {
        archSource = "a guess: neither the compile specs nor the command stream name the NPU";
        context.warn(
            info, "the NPU is not named; the command stream is read with the Ethos-U55 register map", block.dataOffset);
    }
    if (config) {
        char word[16];
        std::snprintf(word, sizeof word, "0x%08x", *framing.configWord);
        info.facts.push_back({ "NPU", config->text + " (CONFIG " + word + ")" });
        const std::string source = std::string("command stream CONFIG word ") + word;
        if (config->arch)
            addTarget(info, "ethosu.stream_npu", "NPU (command stream)", std::string(ethosu::archName(*config->arch)),
                config->product, source);
        else
            addTarget(info, "ethosu.stream_npu", "NPU (command stream)",
                "unknown product " + std::to_string(config->product), config->product, source);
        addTarget(info, "ethosu.stream_macs", "MACs per cycle (command stream)", std::to_string(config->macsPerCycle),
            config->macsPerCycle, source);
        if (config->shramKiB >= 0)
            addTarget(
                info, "ethosu.shram_kib", "SHRAM", std::to_string(config->shramKiB) + " KiB", config->shramKiB, source);
        addTarget(info, "ethosu.cmd_stream_version", "command stream version",
            std::to_string(config->commandStreamVersion), config->commandStreamVersion, source);
    }
    if (framing.idWord) {
        info.facts.push_back({ "NPU architecture", ethosu::archVersionText(*framing.idWord) });
        char word[16];
        std::snprintf(word, sizeof word, "0x%08x", *framing.idWord);
        addTarget(info, "ethosu.arch_version", "NPU architecture version", ethosu::archVersionText(*framing.idWord),
            std::nullopt, std::string("command stream ID word ") + word);
    }
    info.facts.push_back({ "register map",
        std::string(arch == ethosu::Arch::U85 ? "Ethos-U85" : "Ethos-U55/U65") + " (from " + archSource + ")" });

    const auto commands = block.data.subspan(framing.commandOffset, framing.commandWords * 4);
    ethosu::CommandStream stream = ethosu::decodeCommands(commands, arch);
    const std::uint64_t streamOffset = block.dataOffset + framing.commandOffset;
    for (const Warning& w : stream.warnings)
        context.warn(info, "cmd_data: " + w.message, streamOffset + w.offset.value_or(0));
    if (!stream.stopped && stream.operations.size() < ethosu::kMaxOperations)
        context.warn(info,
            "cmd_data: the command stream ends after command " + std::to_string(stream.commands)
                + " without NPU_OP_STOP (cut short?)",
            streamOffset + commands.size());

    // Deferred (DelegateContext::deferInnerGraph): everything below but the data flow, which
    // comes, with its warnings, on first use. Each operation becomes one node, an operator
    // unless its command is unknown (FlowBuilder::addOperations).
    std::optional<FlowBuilder> builder;
    if (!context.deferInnerGraph) {
        builder.emplace(context, info, check);
        builder->addConstants(weightBytes);
        builder->addInputs(inputs);
        builder->addOperations(stream);
        builder->addOutputs(outputs, static_cast<int>(inputs.size()));
    }

    std::size_t total = 0;
    const std::string counts = countText(stream, total);
    info.facts.push_back({ "commands",
        std::to_string(stream.commands) + " (" + std::to_string(framing.commandWords) + " words at byte "
            + std::to_string(framing.commandOffset) + " of cmd_data)" });
    if (stream.stopped)
        info.facts.push_back({ "stream end",
            "NPU_OP_STOP at command " + std::to_string(stream.stopCommand) + " (the end, not an operation)" });
    info.facts.push_back({ "NPU operations", std::to_string(total) + (counts.empty() ? "" : " (" + counts + ")") });
    info.facts.push_back(
        { "waits", std::to_string(stream.dmaWaits) + " DMA, " + std::to_string(stream.kernelWaits) + " kernel" });
    if (stream.unknownCommands)
        info.facts.push_back({ "unknown commands", std::to_string(stream.unknownCommands) });
    summary = std::string(config && config->arch ? config->text.substr(0, config->text.find(", command"))
                                                 : ethosu::archName(arch))
        + ": " + detail::plural(total, "NPU operation", "NPU operations") + (counts.empty() ? "" : " (" + counts + ")");
    if (builder) {
        info.innerGraph = builder->graph();
    } else {
        const auto operators = std::count_if(stream.operations.begin(), stream.operations.end(),
            [](const ethosu::Operation& op) { return op.kind != ethosu::OpKind::Unknown; });
        info.innerGraph = deferredInnerGraph(static_cast<std::size_t>(operators));
    }
    return true;
}

/// decodeEthosU, with the reads nothing wrote reported into `check` when given.
bool decodeVela(const DelegateContext& context, DelegateInfo& info, ethosu::FlowCheck* check);

} // namespace

bool decodeEthosU(const DelegateContext& context, DelegateInfo& info)
{
    return decodeVela(context, info, nullptr);
}

ethosu::FlowCheck ethosu::checkDataFlow(
    const Program& program, const DelegateRef& ref, std::span<const std::uint8_t> payload)
{
    FlowCheck check;
    DelegateInfo info;
    const DelegateContext context { program, ref, payload, {}, "Ethos-U data-flow check", nullptr, false };
    check.decoded = decodeVela(context, info, &check) && info.innerGraph;
    return check;
}

namespace {

bool decodeVela(const DelegateContext& context, DelegateInfo& info, ethosu::FlowCheck* check)
{
    const auto payload = context.payload;
    if (payload.size() < kBlockHeader || std::memcmp(payload.data(), "vela_bin_stream\0", kNameLength) != 0) {
        context.warn(info, "not a vela_bin_stream: the payload does not start with its first block", 0);
        return false;
    }

    std::vector<VelaBlock> blocks;
    bool ended = false;
    std::size_t offset = 0;
    // Every block takes at least 32 bytes, so the payload size bounds the loop.
    while (offset + kBlockHeader <= payload.size()) {
        VelaBlock block;
        const auto* header = payload.data() + offset;
        block.name.assign(
            reinterpret_cast<const char*>(header), strnlen(reinterpret_cast<const char*>(header), kNameLength));
        block.size = readLe32(header + 16);
        block.external = header[20] != 0;
        block.dataOffset = offset + kBlockHeader;
        if (!isPrintableText({ reinterpret_cast<const std::uint8_t*>(block.name.data()), block.name.size() })) {
            context.warn(info, "block at payload offset " + std::to_string(offset) + " has an unreadable name", offset);
            break;
        }
        if (!detail::rangeInside(payload.size(), block.dataOffset, block.size)) {
            context.warn(info,
                "block '" + block.name + "' announces " + std::to_string(block.size) + " bytes but the payload ends "
                    + std::to_string(payload.size() - block.dataOffset) + " bytes later",
                offset + 16);
            break;
        }
        block.data = payload.subspan(block.dataOffset, block.size);
        blocks.push_back(block);
        if (block.name == "vela_end_stream") {
            ended = true;
            break;
        }
        offset = block.dataOffset + ((static_cast<std::size_t>(block.size) + 15) / 16) * 16;
    }
    if (!ended)
        context.warn(info, "the vela_bin_stream has no vela_end_stream block: the payload is cut short", offset);

    info.format = "ethos-u";
    std::string names;
    for (const VelaBlock& block : blocks)
        names += (names.empty() ? "" : ", ") + block.name;
    info.facts.push_back({ "blocks", std::to_string(blocks.size()) + " (" + names + ")" });

    int inputs = -1;
    int outputs = -1;
    std::vector<IoRecord> inputRecords;
    std::vector<IoRecord> outputRecords;
    std::uint64_t commandBytes = 0;
    std::string commandTag = "none";
    const VelaBlock* commandBlock = nullptr;
    std::uint64_t weightBytes = 0;
    for (const VelaBlock& block : blocks) {
        std::string text = std::to_string(block.size) + " bytes";
        if (block.external) {
            // External blocks live in named data; the block's bytes then name the blob (inferred
            // from the facts sheet: "External blocks come from named data").
            text += ", external";
            if (!block.data.empty() && isPrintableText(block.data)) {
                const std::string key(reinterpret_cast<const char*>(block.data.data()), block.data.size());
                const auto size = context.namedDataSize(key);
                text += " (named data '" + key + "', "
                    + (size ? std::to_string(*size) + " bytes)" : std::string("not found)"));
                if (block.name == "weight_data" && size)
                    weightBytes = *size;
            }
        }
        info.facts.push_back({ "block " + block.name, text });
        if (block.name == "cmd_data") {
            commandBytes = block.size;
            if (block.data.size() >= 4)
                commandTag = isPrintableText(block.data.first(4))
                    ? std::string(reinterpret_cast<const char*>(block.data.data()), 4)
                    : "0x" + toHex(block.data.first(4));
            info.facts.push_back({ "command stream", std::to_string(block.size) + " bytes, tag " + commandTag });
            if (!block.external && !commandBlock)
                commandBlock = &block;
        } else if (block.name == "weight_data") {
            if (!block.external)
                weightBytes = block.size;
            info.facts.push_back(
                { "weights", std::to_string(block.size) + " bytes (" + formatBytes(block.size) + ")" });
        } else if (block.name == "scratch_size" && block.data.size() >= 4) {
            const std::uint32_t scratch = readLe32(block.data.data());
            info.facts.push_back({ "scratch", std::to_string(scratch) + " bytes (" + formatBytes(scratch) + ")" });
        } else if (block.name == "inputs") {
            inputRecords = describeIo(context, info, block, "input", inputs);
        } else if (block.name == "outputs") {
            outputRecords = describeIo(context, info, block, "output", outputs);
        }
    }
    // The counts stay facts: the call's input/output split keeps its inferred wiring, which the
    // graph marks as such (the runtime maps these tensors one-to-one onto the call's args).
    const std::string ioText = ", "
        + (inputs >= 0 ? detail::plural(inputs, "input", "inputs") : std::string("inputs unknown")) + ", "
        + (outputs >= 0 ? detail::plural(outputs, "output", "outputs") : std::string("outputs unknown"));
    std::string streamSummary;
    if (commandBlock
        && decodeStream(context, info, *commandBlock, inputRecords, outputRecords, weightBytes, streamSummary, check))
        info.summary = streamSummary + ioText;
    else
        info.summary = "Ethos-U command stream: " + formatBytes(commandBytes) + ioText;
    return true;
}

} // namespace

} // namespace etscope::core
