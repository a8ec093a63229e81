// SPDX-License-Identifier: MIT
// Joins of vendor figures to a program (vendorjoin.h).
#include "core/vendorlogs/vendorjoin.h"

#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace etscope::core::vendor {

namespace {

constexpr std::size_t kBlockHeader = 32; // name[16], u32 size, u8 external, padding
constexpr std::size_t kNameLength = 16;

std::string hexWord(std::uint32_t w)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "0x%08x", w);
    return buffer;
}

std::optional<ethosu::Arch> archFromSpecs(const DelegateRef& ref)
{
    // Arm's compile specs name the target ("target": "ethos-u85-256") and carry Vela's flags
    // ("--accelerator-config=ethos-u55-128"); shared sample cmsis-executorch/ethos_u_minimal_example_u55.pte.
    for (const CompileSpec& spec : ref.compileSpecs) {
        if (spec.key != "target" && spec.key != "compile_flags")
            continue;
        const std::string value(spec.value.begin(), spec.value.end());
        if (value.find("ethos-u85") != std::string::npos)
            return ethosu::Arch::U85;
        if (value.find("ethos-u65") != std::string::npos)
            return ethosu::Arch::U65;
        if (value.find("ethos-u55") != std::string::npos)
            return ethosu::Arch::U55;
    }
    return std::nullopt;
}

} // namespace

Result<EthosUStream> ethosUStream(
    std::span<const std::uint8_t> payload, std::optional<ethosu::Arch> archHint, const std::string& where)
{
    // The vela_bin_stream framing, as core/delegates/ethosu.cpp reads it: blocks of a 32-byte
    // header (a 16-byte name, the size at byte 16, an external flag at byte 20) and the data,
    // padded to 16 bytes, up to "vela_end_stream".
    if (payload.size() < kBlockHeader || std::memcmp(payload.data(), "vela_bin_stream\0", kNameLength) != 0)
        return makeError(Error::Code::BadIdentifier, where, "not a vela_bin_stream payload");
    std::size_t offset = 0;
    std::optional<std::span<const std::uint8_t>> cmd;
    while (offset + kBlockHeader <= payload.size()) {
        const auto* header = payload.data() + offset;
        const std::string name(
            reinterpret_cast<const char*>(header), strnlen(reinterpret_cast<const char*>(header), kNameLength));
        const std::uint32_t size = readLe32(header + 16);
        const bool external = header[20] != 0;
        const std::size_t data = offset + kBlockHeader;
        if (size > payload.size() - data)
            return makeError(Error::Code::Truncated, where, "block '" + name + "' runs past the payload", offset);
        if (name == "cmd_data" && !external) {
            cmd = payload.subspan(data, size);
            break;
        }
        if (name == "vela_end_stream")
            break;
        offset = data + ((static_cast<std::size_t>(size) + 15) / 16) * 16;
    }
    if (!cmd)
        return makeError(Error::Code::Corrupt, where, "the vela_bin_stream has no inline cmd_data block");
    const ethosu::DriverPayload framing = ethosu::readDriverPayload(*cmd);
    if (!framing.commandOffset)
        return makeError(Error::Code::Corrupt, where, "cmd_data has no command stream after its driver framing");
    EthosUStream out;
    for (const Warning& w : framing.warnings)
        out.warnings.push_back({ where + ": cmd_data: " + w.message, w.offset });
    if (framing.configWord)
        out.config = ethosu::readConfigWord(*framing.configWord);
    if (out.config && out.config->arch) {
        out.arch = *out.config->arch;
        out.archSource = "the stream's CONFIG word";
    } else if (archHint) {
        out.arch = *archHint;
        out.archSource = "the compile specs";
    } else {
        out.archSource = "a guess (Ethos-U55 register map): neither the stream nor the compile specs name the NPU";
    }
    const auto words = cmd->subspan(framing.commandOffset, framing.commandWords * 4);
    out.commands.assign(words.begin(), words.end());
    out.decoded = ethosu::decodeCommands(out.commands, out.arch);
    return out;
}

Result<EthosUStream> ethosUStream(const Program& program, const DelegateRef& ref)
{
    return ethosUStream(program.bytes(ref.payload), archFromSpecs(ref), program.path() + ": delegate " + ref.backendId);
}

EthosUStream ethosUStreamFromWords(std::span<const std::uint8_t> commands, ethosu::Arch arch)
{
    EthosUStream out;
    out.arch = arch;
    out.archSource = "given";
    out.commands.assign(commands.begin(), commands.end());
    out.decoded = ethosu::decodeCommands(out.commands, arch);
    return out;
}

std::string_view verdictName(JoinVerdict verdict)
{
    switch (verdict) {
    case JoinVerdict::Joined:
        return "joined";
    case JoinVerdict::Unverified:
        return "unverified";
    case JoinVerdict::Refused:
        return "refused";
    }
    return "?";
}

bool rowMatchesKind(std::string_view op, ethosu::OpKind kind)
{
    using K = ethosu::OpKind;
    // Vela's NNG operator names (regor's OpType) and the NPU operation each is kicked as:
    // convolutions and matrix products on the convolution engine, depthwise on its own, pooling
    // and the data movers (MemoryCopy, Transpose, Concat, Slice, Reshape) as POOL; read off the
    // shared sample modelnova/rps_model_conversion_20260219_041725.log (its "// Transpose" and
    // "// MemoryCopy" operations end in NPU_OP_POOL) and the listing's kick names.
    if (op == "Conv2D" || op == "FullyConnected" || op == "MatMul" || op == "TransposeConv2D" || op == "Conv2DBias"
        || op == "Conv3D")
        return kind == K::Conv;
    if (op == "DepthwiseConv2D" || op == "DepthwiseConv2DBias")
        return kind == K::Depthwise;
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Minimum" || op == "Maximum" || op == "Abs"
        || op == "LeakyRelu" || op == "SHL" || op == "SHR" || op == "Shl" || op == "Shr" || op == "CLZ" || op == "Clz"
        || op == "And" || op == "Or" || op == "Xor" || op == "Not" || op == "Equal" || op == "Greater"
        || op == "GreaterEqual" || op == "NotEqual" || op == "Select" || op == "Exp" || op == "Rsqrt")
        return kind == K::Elementwise;
    if (op.find("Resize") != std::string_view::npos)
        return kind == K::Resize || kind == K::Pool;
    return kind == K::Pool || kind == K::Elementwise;
}

namespace {

bool isKick(std::string_view name)
{
    return name == "NPU_OP_CONV" || name == "NPU_OP_DEPTHWISE" || name == "NPU_OP_POOL" || name == "NPU_OP_ELEMENTWISE"
        || name == "NPU_OP_RESIZE" || name == "NPU_OP_DMA_START";
}

/// The operation ETScope decoded at `offset`, or SIZE_MAX.
std::size_t operationAt(const ethosu::CommandStream& stream, std::uint64_t offset)
{
    const auto it = std::lower_bound(stream.operations.begin(), stream.operations.end(), offset,
        [](const ethosu::Operation& op, std::uint64_t at) { return op.offset < at; });
    return it != stream.operations.end() && it->offset == offset
        ? static_cast<std::size_t>(it - stream.operations.begin())
        : SIZE_MAX;
}

/// Rows to operations. `ops` are the operations to give rows to, in stream order, each with the
/// text that tells a split (the same text as the previous one: another part of the same row)
/// and, when known, the operator kind Vela named. Returns false with `why` at the first
/// operation whose kind no next row has.
struct Candidate {
    std::size_t operation;
    std::string splitKey;
    std::string kind; ///< the listing's operator name ("Conv2D"); empty: compare by OpKind
    std::vector<std::string> subOps;
};

bool assignRows(const VelaLayerTable& table, const ethosu::CommandStream& stream,
    const std::vector<Candidate>& candidates, VelaJoin& join, std::string& why)
{
    std::size_t next = 0;
    int lastRow = -1;
    std::string lastKey;
    std::vector<std::size_t> partsOf; // operations per row, to number the parts afterwards
    std::vector<std::size_t> joinedOps;
    for (const Candidate& c : candidates) {
        VelaOperation& vop = join.operations[c.operation];
        if (lastRow >= 0 && !c.splitKey.empty() && c.splitKey == lastKey) {
            vop.row = lastRow;
            vop.fusedRows = join.operations[joinedOps.back()].fusedRows;
            joinedOps.push_back(c.operation);
            continue;
        }
        const ethosu::Operation& op = stream.operations[c.operation];
        if (next >= table.rows.size()) {
            why = "NPU operation at stream offset " + std::to_string(op.offset) + " (" + op.label
                + ") has no per-layer row left: the table has " + std::to_string(table.rows.size()) + " rows";
            return false;
        }
        const VelaLayerRow& row = table.rows[next];
        const bool match = c.kind.empty() ? rowMatchesKind(row.nngOperator, op.kind) : row.nngOperator == c.kind;
        if (!match || !rowMatchesKind(row.nngOperator, op.kind)) {
            why = "per-layer row " + std::to_string(next + 1) + " (" + row.nngOperator + " " + row.name + ", line "
                + std::to_string(row.line) + ") meets NPU operation at stream offset " + std::to_string(op.offset)
                + " (" + op.label + (c.kind.empty() ? "" : ", listed as " + c.kind) + ")";
            return false;
        }
        vop.row = static_cast<int>(next);
        lastRow = static_cast<int>(next);
        lastKey = c.splitKey;
        ++next;
        // Rows of operators Vela fused into this one ("subOps: Clamp") follow it with its name.
        while (next < table.rows.size() && table.rows[next].name == row.name
            && std::find(c.subOps.begin(), c.subOps.end(), table.rows[next].nngOperator) != c.subOps.end()) {
            vop.fusedRows.push_back(static_cast<int>(next));
            ++next;
        }
        joinedOps.push_back(c.operation);
    }
    // Parts: consecutive operations sharing a row.
    for (std::size_t i = 0; i < joinedOps.size();) {
        std::size_t j = i;
        while (j < joinedOps.size() && join.operations[joinedOps[j]].row == join.operations[joinedOps[i]].row)
            ++j;
        for (std::size_t k = i; k < j; ++k) {
            join.operations[joinedOps[k]].part = static_cast<int>(k - i + 1);
            join.operations[joinedOps[k]].parts = static_cast<int>(j - i);
        }
        i = j;
    }
    join.rowsJoined = next;
    join.rowsLeft = table.rows.size() - next;
    return true;
}

/// "Ethos_U55_128" → (U55, 128); nullopt when not of that form.
std::optional<std::pair<ethosu::Arch, int>> acceleratorOf(std::string_view text)
{
    ethosu::Arch arch = ethosu::Arch::U55;
    if (text.find("U85") != text.npos)
        arch = ethosu::Arch::U85;
    else if (text.find("U65") != text.npos)
        arch = ethosu::Arch::U65;
    else if (text.find("U55") == text.npos)
        return std::nullopt;
    const std::size_t last = text.rfind('_');
    const auto macs = last == text.npos ? std::nullopt : parseInteger(text.substr(last + 1));
    return std::pair { arch, macs ? static_cast<int>(*macs) : 0 };
}

} // namespace

VelaJoin joinVelaLog(const VelaLog& log, const EthosUStream& stream)
{
    VelaJoin join;
    join.operations.resize(stream.decoded.operations.size());
    for (std::size_t i = 0; i < join.operations.size(); ++i) {
        join.operations[i].operation = i;
        join.operations[i].offset = stream.decoded.operations[i].offset;
    }
    // 1. The register listing, when there is one, decides: the very words or another stream.
    if (!log.listings.empty()) {
        std::string firstWhy;
        for (std::size_t l = 0; l < log.listings.size(); ++l) {
            const RegisterListing& listing = log.listings[l];
            const std::vector<std::uint8_t> words = listing.bytes();
            const std::size_t common = std::min(words.size(), stream.commands.size());
            const auto mismatch = std::mismatch(
                words.begin(), words.begin() + static_cast<std::ptrdiff_t>(common), stream.commands.begin());
            const std::size_t at = static_cast<std::size_t>(mismatch.first - words.begin()) / 4 * 4;
            const bool prefixEqual = mismatch.first == words.begin() + static_cast<std::ptrdiff_t>(common);
            const bool whole = prefixEqual && words.size() == stream.commands.size();
            const bool cutButEqual = prefixEqual && !listing.complete() && words.size() < stream.commands.size();
            if (whole || cutButEqual) {
                join.listing = static_cast<int>(l);
                join.comparison = compareListing(listing, stream);
                join.verdict = JoinVerdict::Joined;
                join.reason = whole ? "its register listing has the delegate's " + std::to_string(words.size() / 4)
                        + " command words, word for word"
                                    : "its register listing is cut short; its " + std::to_string(words.size() / 4)
                        + " words equal the first of the delegate's " + std::to_string(stream.commands.size() / 4);
                break;
            }
            if (firstWhy.empty()) {
                if (prefixEqual)
                    firstWhy = "its register listing (line " + std::to_string(listing.line) + ") has "
                        + std::to_string(words.size() / 4) + " words, the delegate's command stream "
                        + std::to_string(stream.commands.size() / 4);
                else {
                    const auto word
                        = [](const std::vector<std::uint8_t>& b, std::size_t i) { return readLe32(b.data() + i); };
                    firstWhy = "its register listing (line " + std::to_string(listing.line)
                        + ") differs from the delegate's command stream at byte " + std::to_string(at) + ": "
                        + hexWord(word(words, at)) + " listed, " + hexWord(word(stream.commands, at))
                        + " in the program";
                }
            }
        }
        if (join.listing < 0) {
            join.verdict = JoinVerdict::Refused;
            join.reason = "the log is of another command stream: " + firstWhy;
            if (!log.summaries.empty())
                join.summary = 0;
            return join;
        }
        const auto index = static_cast<std::size_t>(join.listing);
        if (index < log.summaries.size())
            join.summary = static_cast<int>(index);
        if (index < log.tables.size())
            join.table = static_cast<int>(index);
        else if (log.tables.size() == 1)
            join.table = 0;
    } else if (!log.tables.empty() && !log.tables[0].rows.empty()) {
        join.table = 0;
        if (!log.summaries.empty())
            join.summary = 0;
    } else if (!log.summaries.empty()) {
        join.summary = 0;
    }

    // 2. Per-layer rows to operations.
    if (join.table >= 0) {
        const VelaLayerTable& table = log.tables[static_cast<std::size_t>(join.table)];
        std::vector<Candidate> candidates;
        if (join.listing >= 0) {
            // The listing's "//" operations name each kick's operator; a part of a split repeats
            // its line exactly (read off the RPS log: 13 repeated lines, 39 Conv2D kicks, 26 rows).
            join.method
                = "by the listing's operations (kind and order; a repeated line is another part of the same row)";
            const RegisterListing& listing = log.listings[static_cast<std::size_t>(join.listing)];
            for (std::size_t o = 0; o < listing.operations.size(); ++o) {
                const ListedOperation& lop = listing.operations[o];
                const std::size_t end = o + 1 < listing.operations.size() ? listing.operations[o + 1].firstCommand
                                                                          : listing.commands.size();
                for (std::size_t c = lop.firstCommand; c < end; ++c) {
                    if (!isKick(listing.commands[c].name))
                        continue;
                    const std::size_t op = operationAt(stream.decoded, listing.commands[c].offset);
                    if (op != SIZE_MAX) {
                        join.operations[op].listed = lop.text;
                        if (lop.kind != "DMA" && listing.commands[c].name != "NPU_OP_DMA_START")
                            candidates.push_back({ op, lop.text, lop.kind, lop.subOps });
                    }
                    break;
                }
            }
        } else {
            // Without a listing: the decoded operations in order; the same label, IFM address,
            // kernel and stride as the previous one counts as another part of the same row.
            join.method = "by order and kind (no register listing in the log); a kick with the previous one's label, "
                          "IFM address, kernel and stride is taken as another part of the same row";
            for (std::size_t i = 0; i < stream.decoded.operations.size(); ++i) {
                const ethosu::Operation& op = stream.decoded.operations[i];
                if (op.kind == ethosu::OpKind::Dma || op.kind == ethosu::OpKind::Branch
                    || op.kind == ethosu::OpKind::Unknown)
                    continue;
                std::string key = op.label;
                for (const std::string_view name : { "IFM address", "kernel", "stride" })
                    key += "|" + std::string(op.attributes.find(name).value_or(""));
                candidates.push_back({ i, key, {}, {} });
            }
        }
        std::string why;
        if (!assignRows(table, stream.decoded, candidates, join, why)) {
            for (VelaOperation& op : join.operations) {
                op.row = -1;
                op.fusedRows.clear();
                op.part = op.parts = 1;
            }
            join.rowsJoined = 0;
            join.rowsLeft = table.rows.size();
            if (join.listing >= 0) {
                join.reason += "; its per-layer rows could not be matched to the operations: " + why;
            } else {
                join.verdict = JoinVerdict::Refused;
                join.reason = "the per-layer table does not fit the delegate's operations: " + why;
            }
            return join;
        }
        if (join.listing < 0 && join.rowsLeft > 0) {
            // Without the words, rows the operations do not account for mean another network.
            for (VelaOperation& op : join.operations) {
                op.row = -1;
                op.fusedRows.clear();
                op.part = op.parts = 1;
            }
            join.verdict = JoinVerdict::Refused;
            join.reason = "the per-layer table has " + std::to_string(table.rows.size()) + " rows but the delegate's "
                + std::to_string(candidates.size()) + " NPU operations take only " + std::to_string(join.rowsJoined);
            join.rowsLeft = table.rows.size();
            join.rowsJoined = 0;
            return join;
        }
        if (join.listing < 0) {
            join.verdict = JoinVerdict::Joined;
            join.reason = "its " + std::to_string(join.rowsJoined)
                + " per-layer rows meet the delegate's NPU operations kind by kind, in order (no register listing to "
                  "compare words)";
        }
        if (join.rowsLeft > 0)
            join.reason += "; " + std::to_string(join.rowsLeft) + " per-layer rows were left over";
        return join;
    }

    // 3. A summary only: check what it names against the stream.
    if (join.summary >= 0) {
        const VelaSummary& summary = log.summaries[static_cast<std::size_t>(join.summary)];
        const auto accel = acceleratorOf(summary.accelerator);
        if (accel && stream.config && stream.config->arch
            && ((accel->first == ethosu::Arch::U85) != (*stream.config->arch == ethosu::Arch::U85)
                || (accel->second && stream.config->macsPerCycle && accel->second != stream.config->macsPerCycle))) {
            join.verdict = JoinVerdict::Refused;
            join.reason = "the log's accelerator (" + summary.accelerator
                + ") is not the one the stream was built for (" + stream.config->text + ")";
            return join;
        }
        join.verdict = JoinVerdict::Unverified;
        join.reason = "the log has only a network summary"
            + std::string(
                accel && stream.config ? " (its accelerator " + summary.accelerator + " matches the stream's)" : "")
            + ": nothing in it can be compared with the command stream, so it is shown but not attached";
        return join;
    }
    join.verdict = JoinVerdict::Refused;
    join.reason = "the log has no network summary, per-layer table or register listing";
    return join;
}

const VelaOperation* operationForNode(const VelaJoin& join, const Node& node)
{
    const auto text = node.attributes.find("stream offset");
    const auto offset = text ? parseInteger(*text) : std::nullopt;
    if (!offset || *offset < 0)
        return nullptr;
    const auto it = std::lower_bound(join.operations.begin(), join.operations.end(),
        static_cast<std::uint64_t>(*offset), [](const VelaOperation& op, std::uint64_t at) { return op.offset < at; });
    return it != join.operations.end() && it->offset == static_cast<std::uint64_t>(*offset) ? &*it : nullptr;
}

RunJoin joinRunLog(const RunLog& log, const Program& program, const Method& method, const Graph& graph)
{
    RunJoin join;
    // Ethos-U delegate calls per execution of the method.
    std::size_t ethosCalls = 0;
    for (const Chain& chain : method.chains)
        for (const Instruction& instruction : chain.instructions)
            if (instruction.kind == Instruction::Kind::Delegate && instruction.index >= 0
                && static_cast<std::size_t>(instruction.index) < method.delegates.size()
                && method.delegates[static_cast<std::size_t>(instruction.index)].backendId == "EthosUBackend")
                ++ethosCalls;
    const std::uint64_t fileSize = program.file ? program.file->size() : 0;
    if (log.programSize && fileSize && *log.programSize != fileSize && *log.programSize != program.region.size) {
        join.verdict = JoinVerdict::Refused;
        join.reason = "the run loaded a program of " + std::to_string(*log.programSize) + " bytes; this one has "
            + std::to_string(fileSize);
        return join;
    }
    const std::int64_t inferences = log.npuInferences.value_or(log.inferences.value_or(1));
    if (log.npuDelegations && inferences > 0
        && *log.npuDelegations != ethosCalls * static_cast<std::uint64_t>(inferences)) {
        join.verdict = JoinVerdict::Refused;
        join.reason = "the run made " + std::to_string(*log.npuDelegations) + " NPU delegations in "
            + std::to_string(inferences) + " inferences; method '" + method.name + "' calls the Ethos-U delegate "
            + std::to_string(ethosCalls) + " times";
        return join;
    }
    join.verdict = log.programSize ? JoinVerdict::Joined : JoinVerdict::Unverified;
    join.reason = log.programSize
        ? "the run loaded a program of the same size (" + std::to_string(*log.programSize) + " bytes)"
            + (log.npuDelegations
                    ? " and made " + std::to_string(ethosCalls) + " NPU delegation(s) per inference, as the method does"
                    : std::string())
        : "the log does not say which program it ran (no \"PTE Model data loaded. Size:\" line)";

    const OperatorCycles* ethos = log.ethosU();
    const auto runs = static_cast<std::uint64_t>(inferences > 0 ? inferences : 1);
    // Per inference, rounded to the nearest cycle.
    const auto perRun = [runs](std::uint64_t total) { return (total + runs / 2) / runs; };
    for (const Node& node : graph.nodes) {
        if (node.kind == NodeKind::Delegate) {
            const std::size_t d = node.delegate.valid() ? node.delegate.index() : SIZE_MAX;
            if (d >= method.delegates.size() || method.delegates[d].backendId != "EthosUBackend")
                continue;
            MeasuredNode m;
            m.node = node.id;
            m.label = node.label;
            if (ethosCalls == 1) {
                if (log.npuCycles)
                    m.npuCycles = perRun(*log.npuCycles);
                if (ethos)
                    m.cpuCycles = perRun(ethos->cycles);
                m.counters = log.counters;
                for (PmuCounter& c : m.counters) {
                    c.count = perRun(c.count);
                    c.perInference.reset();
                }
                m.note = "measured per inference: NPU cycles from ethosu_pmu_cycle_cntr, CPU cycles of "
                         "EthosUBackend::execute from \"ethos-u : cycle_cnt\"";
            } else {
                m.note = "unverified: the runner sums its " + std::to_string(ethosCalls)
                    + " Ethos-U delegate calls into one count, which cannot be split per call";
            }
            join.delegates.push_back(std::move(m));
        } else if (node.kind == NodeKind::Operator) {
            MeasuredNode m;
            m.node = node.id;
            m.label = node.label;
            for (const OperatorCycles& op : log.operatorCycles)
                if (op.tag != "ethos-u" && (op.tag == node.opType || op.tag == node.label))
                    m.cpuCycles = perRun(op.cycles);
            m.note = m.cpuCycles ? "measured CPU cycles per inference (the runner's operator line)"
                                 : "no CPU cycles for this operator in the log";
            join.cpuNodes.push_back(std::move(m));
        }
    }
    const bool otherOperators = std::any_of(log.operatorCycles.begin(), log.operatorCycles.end(),
        [](const OperatorCycles& op) { return op.tag != "ethos-u"; });
    if (log.inferenceRuntime && ethos && *log.inferenceRuntime >= ethos->cycles)
        join.restOfMethodCyclesPerInference
            = static_cast<double>(*log.inferenceRuntime - ethos->cycles) / static_cast<double>(runs);
    if (!otherOperators)
        join.cpuNote = std::string("the log has only the Ethos-U delegate's line (\"ethos-u : cycle_cnt\"): the Arm "
                                   "executor runner prints no CPU cycles for other operators "
                                   "(examples/arm/executor_runner/arm_perf_monitor.cpp), so the CPU nodes get none")
            + (join.restOfMethodCyclesPerInference
                    ? "; the rest of the method (Inference runtime minus the delegate call) took "
                        + std::to_string(std::llround(*join.restOfMethodCyclesPerInference))
                        + " CPU cycles per inference, CPU nodes and runtime together"
                    : std::string())
            + ". The runner notes that CPU cycle values need an FPGA with identical CPU/NPU frequency.";
    return join;
}

} // namespace etscope::core::vendor
