// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/delegates/delegate.h"
#include "core/graph/graph.h"
#include "core/pte/bundledprogram.h"
#include "core/pte/externaldata.h"
#include "core/pte/program.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

enum class FileKind { Program, BundledProgram, ExternalData, ETDump, ETRecord, Unknown };

/// "pte", "bpte", "ptd", "etdp", "etrecord", "unknown".
std::string_view fileKindName(FileKind kind);

/// Recognises a file by its magic bytes (never by its name).
FileKind detectFileKind(std::span<const std::uint8_t> bytes);

/// The analysis of one method: its delegates described/decoded and its data-flow graph.
struct MethodAnalysis {
    std::vector<DelegateInfo> delegates; ///< parallel to Method::delegates
    std::shared_ptr<const Graph> graph;
};

struct OpenOptions {
    std::vector<std::string> dataFiles; ///< .ptd files given explicitly (--data)
    bool findCompanions = true; ///< look for a .ptd beside the program when it needs one
    /// Attach the TOSA graphs Arm's flow writes beside Ethos-U programs to their delegates
    /// (core/document/sidegraphs.h: DelegateInfo::sideGraph); off by default.
    bool findSideGraphs = false;
    /// Outputs per DelegateCall instruction, per method (e.g. ETRecord's
    /// instruction_id_to_num_outs_map); used when a delegate payload does not say.
    std::map<std::string, std::map<int, int>> delegateOutputCounts;
    /// Decode delegates' inner graphs on first use instead of while opening, where the backend's
    /// decoder can tell everything else without them (XNNPACK, Ethos-U): the app, whose first
    /// paint needs only the top level. Off for the CLI, which prints everything.
    bool deferDelegateGraphs = false;
    std::string debugBuffer; ///< .etdp: the debug buffer; empty = "<stem>.debug.bin" beside it when present
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int percent, const std::string& phase)> progress;
};

/// An opened file and everything derived from it. Program-like files (.pte, .bpte) carry a
/// program and one analysis per method; a .ptd carries only its external data; an ETDump or
/// ETRecord opened on its own carries only itself.
struct Document {
    std::string path;
    FileKind kind = FileKind::Unknown;
    std::optional<Program> program;
    std::optional<BundledProgram> bundled; ///< .bpte: suites (its program is moved to `program`)
    std::vector<ExternalData> externalData; ///< attached .ptd files (or the file itself for a .ptd)
    std::optional<ETDump> etdump; ///< an opened .etdp (its debug buffer attached when found beside it)
    std::optional<ETRecord> etrecord; ///< an opened ETRecord archive
    std::vector<MethodAnalysis> methods; ///< parallel to program->methods
    /// Wall time of openDocument's phases (--timings): map + verify + read, and delegate
    /// decoding + graph building.
    double readMilliseconds = 0;
    double analyseMilliseconds = 0;
    std::vector<Warning> warnings;

    const MethodAnalysis* analysis(const Method& method) const;
    /// Finds external bytes by key in the program's named data or an attached .ptd.
    std::optional<std::pair<std::string, ByteRange>> findNamedData(const std::string& key) const;
};

/// Decodes now every inner graph that was deferred (OpenOptions::deferDelegateGraphs), so that
/// later reads do not wait; stops early when `cancel` is set. Safe beside other readers.
void decodeDeferredGraphs(const Document& document, const std::atomic<bool>* cancel = nullptr);

/// Opens any ExecuTorch file ETScope reads. Program files are verified, their delegates
/// described and their methods' graphs built. Cancellation returns Error::Cancelled.
Result<Document> openDocument(const std::string& path, const OpenOptions& options = {});

/// Runs delegate decoding and graph building for every method of `document.program`.
/// With `options.deferDelegateGraphs`, inner graphs that can wait are decoded on first use.
std::optional<Error> analyseDocument(Document& document, const OpenOptions& options = {});

} // namespace etscope::core
