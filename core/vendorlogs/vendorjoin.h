// SPDX-License-Identifier: MIT
// Vendor figures joined to a program (issue 34, item 3):
// - a Vela log to an Ethos-U delegate: its register listing compared, command by command, with
//   ETScope's decode of the delegate's command stream; its per-layer rows to the NPU operations
//   (Vela splits one operator into several kicks and fuses activations into them); its network
//   summary to the delegate. A log of another stream is refused, saying why; its summary stays
//   readable from the VelaLog.
// - a runner log to a method: the measured NPU cycles and PMU counters to the Ethos-U delegate
//   call, per-operator CPU cycles to the CPU nodes where the log has them.
//
// Use (what `etscope cost --vela LOG --run-log LOG` needs):
//   auto log = vendor::readVelaLog(path);                 // Result<VelaLog>
//   auto stream = vendor::ethosUStream(program, ref);      // Result<EthosUStream>, per delegate
//   vendor::VelaJoin join = vendor::joinVelaLog(*log, *stream);
//   if (join.verdict == vendor::JoinVerdict::Joined)           // else print join.reason
//       for (const Node& node : innerGraph.nodes)             // the delegate's inner graph
//           if (const vendor::VelaOperation* op = vendor::operationForNode(join, node); op && op->row >= 0)
//               … log->tables[join.table].rows[op->row] …  // op cycles, access cycles, MACs, util
//   // the delegate's Vela estimate: log->summaries[join.summary] (also when not joined)
//   auto run = vendor::readRunLog(path);
//   vendor::RunJoin measured = vendor::joinRunLog(*run, program, method, graph); // graph: buildMethodGraph(method, …)
// Text for printing: vendortext.h.
#pragma once

#include "core/delegates/ethosucommands.h"
#include "core/graph/graph.h"
#include "core/pte/program.h"
#include "core/util/result.h"
#include "core/vendorlogs/runlog.h"
#include "core/vendorlogs/velalog.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace etscope::core::vendor {

/// An Ethos-U delegate's command stream and ETScope's decode of it.
struct EthosUStream {
    std::vector<std::uint8_t> commands; ///< the command words (little endian), after the driver framing
    ethosu::Arch arch = ethosu::Arch::U55;
    std::string archSource; ///< "the stream's CONFIG word", "the compile spec target", "a guess: …"
    std::optional<ethosu::NpuConfig> config; ///< from the stream's CONFIG word
    ethosu::CommandStream decoded;
    std::vector<Warning> warnings;
};

/// Finds cmd_data in a vela_bin_stream payload and decodes it (the framing as core/delegates/
/// ethosu.cpp reads it). `archHint` is used when the stream has no CONFIG word. Fails
/// (Error::BadIdentifier / Truncated, naming `where`) when the payload holds no command stream.
Result<EthosUStream> ethosUStream(
    std::span<const std::uint8_t> payload, std::optional<ethosu::Arch> archHint, const std::string& where);
/// As above, for one delegate entry of a program (its compile specs give the hint).
Result<EthosUStream> ethosUStream(const Program& program, const DelegateRef& ref);
/// Decodes a stream that is just command words (the words of a Vela register listing).
EthosUStream ethosUStreamFromWords(std::span<const std::uint8_t> commands, ethosu::Arch arch);

/// One difference between the register listing and ETScope's decode of the same words.
struct StreamDifference {
    std::uint64_t offset = 0; ///< byte offset of the command in the stream
    std::size_t line = 0; ///< of the listing line (0: none)
    std::string what; ///< "command name", "OFM address", "only in the listing", …
    std::string listed; ///< the listing's value in ETScope's words
    std::string decoded; ///< ETScope's value
};

/// The register listing against ETScope's decode of the delegate's words: per command its
/// offset, code, parameter, payload and name; per operation (NPU_OP_* kick) every fact both
/// show (feature maps: type, shape, layout, address, strides, zero point; kernel, stride,
/// dilation, padding, weight order, clip, block, accumulator; DMA length).
struct StreamComparison {
    std::size_t listedCommands = 0;
    std::size_t decodedCommands = 0;
    std::size_t equalCommands = 0; ///< every command-level field equal
    std::size_t differentCommands = 0;
    std::size_t onlyListed = 0;
    std::size_t onlyDecoded = 0;
    std::size_t operationsCompared = 0;
    std::size_t fieldsCompared = 0; ///< command-level and operation-level fields
    std::size_t fieldsEqual = 0;
    std::map<std::string, std::size_t>
        comparedByField; ///< how often each field was compared ("code", "OFM address", …)
    std::vector<StreamDifference> differences; ///< the first 500
    bool same() const
    {
        return differentCommands == 0 && onlyListed == 0 && onlyDecoded == 0 && fieldsEqual == fieldsCompared;
    }
};
StreamComparison compareListing(const RegisterListing& listing, const EthosUStream& stream);

enum class JoinVerdict : std::uint8_t {
    Joined, ///< the log belongs to the program: figures attached
    Unverified, ///< nothing contradicts it, but nothing proves it (a summary only): shown, not attached
    Refused, ///< the log is of another program: not attached, `reason` says why
};
std::string_view verdictName(JoinVerdict verdict); ///< "joined", "unverified", "refused"

/// Vela's figures for one NPU operation of the decoded stream.
struct VelaOperation {
    std::size_t operation = 0; ///< index into EthosUStream::decoded.operations
    std::uint64_t offset = 0; ///< its kick's stream offset (the inner graph node's "stream offset")
    int row = -1; ///< index into the table's rows; -1: no row (DMA, or not joined)
    std::vector<int> fusedRows; ///< rows fused into this operation (a Clamp after its Conv2D)
    int part = 1; ///< this kick is part `part` of `parts` of the row (Vela splits operators)
    int parts = 1;
    std::string listed; ///< the listing's "//" line for it, when the log has a listing
};

struct VelaJoin {
    JoinVerdict verdict = JoinVerdict::Unverified;
    std::string reason; ///< why joined, unverified or refused, in one sentence
    int summary = -1; ///< indices into the VelaLog's vectors; -1: none used
    int table = -1;
    int listing = -1;
    std::optional<StreamComparison> comparison; ///< when a listing was compared
    std::vector<VelaOperation> operations; ///< one per decoded operation when joined
    std::size_t rowsJoined = 0;
    std::size_t rowsLeft = 0; ///< rows no operation took
    std::string method; ///< how rows met operations: "by the listing's operations", "by order and kind"
};

/// Joins a Vela log to one Ethos-U stream. Never fails: a log that does not belong is Refused.
VelaJoin joinVelaLog(const VelaLog& log, const EthosUStream& stream);

/// The operation of `join` that an inner-graph node of the same Ethos-U delegate shows (matched
/// by the node's "stream offset" attribute, core/delegates/ethosu.cpp); nullptr for a node that
/// is no NPU operation or has no figures.
const VelaOperation* operationForNode(const VelaJoin& join, const Node& node);

/// The NPU operator kinds a per-layer row's "NNG Operator" may run as ("Conv2D" → Conv).
bool rowMatchesKind(std::string_view nngOperator, ethosu::OpKind kind);

/// Measured figures on one node of a method graph.
struct MeasuredNode {
    NodeId node;
    std::string label;
    std::optional<std::uint64_t> npuCycles; ///< ethosu_pmu_cycle_cntr (delegate nodes)
    std::optional<std::uint64_t> cpuCycles; ///< CPU cycles of the node (the delegate: EthosUBackend::execute)
    std::vector<PmuCounter> counters; ///< the PMU counters (delegate nodes)
    std::string note; ///< what the figures are, or why there are none
};

struct RunJoin {
    JoinVerdict verdict = JoinVerdict::Unverified;
    std::string reason;
    std::vector<MeasuredNode> delegates; ///< the Ethos-U delegate calls of the method
    std::vector<MeasuredNode> cpuNodes; ///< the method's operator nodes (not delegates)
    /// Inference runtime minus the delegate's CPU cycles: the rest of the method, CPU nodes and
    /// framework together (not split per node), per inference; nullopt when not measured.
    std::optional<double> restOfMethodCyclesPerInference;
    std::string cpuNote; ///< e.g. "the log has only the Ethos-U delegate's line …"
};

/// Joins a runner log to a method graph (`graph`, from buildMethodGraph over `method`). The log
/// is refused when the program size it loaded differs from `program`'s, or its NPU delegations
/// per inference differ from the method's Ethos-U delegate calls.
RunJoin joinRunLog(const RunLog& log, const Program& program, const Method& method, const Graph& graph);

} // namespace etscope::core::vendor
