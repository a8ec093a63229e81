// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "core/stats/operatortable.h"
#include "core/util/ids.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

struct Document;
struct Method;
struct Program;
struct KernelCheck;

/// One set of kernels a runtime may have linked: a built-in library (facts from ExecuTorch's
/// kernel YAML files) or a user's file (selected_operators.yaml, a functions.yaml, a plain list,
/// a registered-kernels dump). Names are the runtime's lookup keys, `namespace::name.overload`.
struct KernelList {
    std::string name; ///< "portable", "prim", … or the file path as given
    std::string origin; ///< where the names come from, one line ("kernels/portable/functions.yaml at …")
    bool builtin = false;
    std::set<std::string> operators; ///< qualified names ("aten::add.out")
    /// Operators every overload of which is listed (selected_operators.yaml `include_all_overloads`).
    std::set<std::string> allOverloads;
    /// selected_operators.yaml `include_all_operators: true`: the build kept every operator of its
    /// kernel libraries, so every operator counts as provided (a warning says so).
    bool includesAll = false;
    /// Backend ids the list says are registered (a dump of get_registered_backend_names, `backend:`
    /// lines). `declaresBackends` is true when the list speaks about backends at all.
    std::set<std::string> backends;
    bool declaresBackends = false;
    std::vector<Warning> warnings;

    bool provides(std::string_view qualifiedName) const;
};

struct RuntimePreset;

/// The lists a check resolves against, in lookup order: the first list that provides an
/// operator resolves it.
struct KernelLists {
    std::vector<KernelList> lists;
    /// The runtime preset the lists are, when they are exactly one preset's (nullptr for lists
    /// ticked or given by --kernels), and whether it was chosen from the program's delegates
    /// (presetForProgram) rather than by the user.
    const RuntimePreset* preset = nullptr;
    bool automatic = false;

    /// The list that provides `qualifiedName`, nullptr when none does.
    const KernelList* resolve(std::string_view qualifiedName) const;
    /// True when some list says which backends are registered.
    bool declaresBackends() const;
    /// The list that declares `backendId` registered, nullptr when none does.
    const KernelList* backendList(std::string_view backendId) const;
};

/// Names of the built-in lists: "portable", "optimized", "quantized", "cortex_m", "prim".
std::vector<std::string_view> builtinKernelListNames();

/// A built-in list by name; nullopt for an unknown name.
std::optional<KernelList> builtinKernelList(std::string_view name);

/// A runtime preset: the built-in lists one of ExecuTorch's own runners links, so that a check
/// can ask "will it load on that runner" without knowing its kernel libraries (facts and the
/// build file each comes from in kernellists.cpp).
struct RuntimePreset {
    std::string_view name; ///< "arm-ethos-u", the CLI's --preset value
    std::string_view title; ///< "Arm Ethos-U executor_runner"
    std::vector<std::string_view> lists; ///< built-in list names, lookup order (prim is added anyway)
    std::string_view source; ///< the ExecuTorch build file that links them, with its commit
    std::string_view note; ///< what the lists leave out (custom ops, backends), may be empty
    std::vector<std::string_view> backends; ///< backend ids the runner links
};

/// The presets, in the order menus show them.
const std::vector<RuntimePreset>& runtimePresets();
/// A preset by name; nullptr for an unknown name.
const RuntimePreset* findRuntimePreset(std::string_view name);

/// The runtime a program is built for, judged from its delegates: the preset that links the
/// backend of the most delegate entries (EthosUBackend → arm-ethos-u, XnnpackBackend →
/// android-xnnpack). A tie goes to the preset shown first, so XNNPACK programs get
/// android-xnnpack rather than llama (whose custom ops no built-in list has), and a program with
/// as many Ethos-U as XNNPACK delegates gets arm-ethos-u. A program without delegates, or with
/// only backends no preset links (Vulkan, QNN, …), gets portable. `delegates`: delegate entries by
/// backend id.
const RuntimePreset& presetForBackends(const std::map<std::string, int>& delegates);
/// Delegate entries by backend id, over every method of `program`.
std::map<std::string, int> delegatesPerBackend(const Program& program);
/// presetForBackends(delegatesPerBackend(program)).
const RuntimePreset& presetForProgram(const Program& program);
/// The backend ids of `delegates` (delegatesPerBackend) that `preset` links, sorted: why
/// presetForBackends chose it (empty for portable).
std::vector<std::string> presetReasons(const RuntimePreset& preset, const std::map<std::string, int>& delegates);
/// The lists of `preset` (then prim), marked as that preset and `automatic` or not.
KernelLists presetKernelLists(const RuntimePreset& preset, bool automatic);
/// The runtime the lists stand for, in words: "Arm Ethos-U executor_runner (bare-metal
/// Cortex-M), chosen for the program's EthosUBackend delegates" (automatic), "… (preset
/// arm-ethos-u)" (chosen); empty for lists that are no preset. `delegates`: the program's
/// delegate entries by backend id (delegatesPerBackend), the reasons of an automatic choice.
std::string runtimeText(const KernelLists& lists, const std::map<std::string, int>& delegates);

/// Which built-in lists would resolve the operators a check found missing.
struct MissingKernelHint {
    struct ListHelp {
        std::string list; ///< a built-in list not in use
        std::vector<std::string> operators; ///< missing operators it provides, sorted
    };
    std::vector<ListHelp> lists; ///< most operators first, then built-in order
    std::vector<std::string> unresolved; ///< missing operators no built-in list provides, sorted
    /// A preset whose lists resolve every missing operator some built-in list provides: one
    /// that links a backend the program's delegates need first, then the one with fewest lists;
    /// empty when none does.
    std::string preset;

    bool empty() const { return lists.empty() && unresolved.empty(); }
};

/// The hint for the missing operators of `check` (empty when none is missing).
MissingKernelHint missingKernelHint(const KernelCheck& check, const KernelLists& lists);
/// The hint in one line ("Hint: quantized provides 2 of the 2 missing operators (…); or use
/// --preset arm-ethos-u"); empty when nothing is missing. `cli` words it for the command line
/// (--kernels/--preset), else for the app (lists and presets by name).
std::string missingKernelHintText(const MissingKernelHint& hint, bool cli);

/// Backend ids ExecuTorch's own backends register (XnnpackBackend, VulkanBackend, QnnBackend, …).
const std::vector<std::string_view>& knownBackendIds();

/// Reads a kernel list from text. The format is recognised from the content:
/// - selected_operators.yaml (a top-level `operators:` or `include_all_operators:` key): the keys
///   of its `operators:` map, with their `include_all_overloads`;
/// - a functions.yaml (`- op: add.out`, `- func: ns::name.overload(…)` entries);
/// - otherwise one name per line (`#` comments, blank lines, `- ` items, quotes, a Python list
///   printout `['aten::add.out', …]`, ExecuTorch log lines `I 00:00:00.000 executorch:…] NAME`,
///   a kernel-key suffix `aten::add.out:v1/6;0,1|…`), and backend ids (`XnnpackBackend`, or
///   `backend: NAME`).
/// A name without a namespace is ATen's (`add.out` is `aten::add.out`). Fails with an Error
/// naming `name`, the line and the reason for a line that is no operator name (log lines are
/// skipped, not refused).
Result<KernelList> parseKernelList(std::string_view text, const std::string& name);

/// Reads a kernel list file (at most 64 MiB); fails naming the file and the reason.
Result<KernelList> readKernelListFile(const std::string& path);

/// The lists for `etscope check --kernels SPEC… --preset NAME…`: each SPEC is a built-in name or
/// a file, each preset adds its built-in lists after them. Neither means portable (the CLI then
/// uses presetForProgram instead: see presetKernelLists). One preset alone marks the lists as
/// that preset (not automatic). The prim ops
/// are always added last: the runtime registers them itself. An unknown preset is a Usage error
/// naming the presets there are.
Result<KernelLists> loadKernelLists(
    const std::vector<std::string>& specs, const std::vector<std::string>& presets = {});

/// Where an operator is called: a KernelCall instruction of a chain (a method graph's node has the
/// same chain and instruction).
struct CallSite {
    int chain = 0;
    InstructionId instruction;
};

/// One operator of a method and whether a kernel list provides it.
struct OperatorKernel {
    std::string name; ///< qualified, as the runtime looks it up
    std::string resolvedBy; ///< the list's name; empty when missing
    std::vector<CallSite> calls; ///< every KernelCall of it, in chain and instruction order

    bool missing() const { return resolvedBy.empty(); }
};

/// A backend a method's delegates need.
struct BackendNeed {
    enum class Status {
        Unverified, ///< no list says which backends are registered: it must be linked
        Linked, ///< a list declares it registered
        NotLinked, ///< lists declare backends, not this one: loading the method fails
    };
    std::string backendId;
    bool known = false; ///< one of ExecuTorch's own backends (knownBackendIds)
    Status status = Status::Unverified;
    std::string linkedBy; ///< the list that declares it (Status::Linked)
    int delegates = 0; ///< delegate entries of that backend
    std::vector<CallSite> calls; ///< DelegateCall instructions
};

std::string_view backendStatusName(BackendNeed::Status status);

struct MethodKernelCheck {
    std::string method;
    std::vector<OperatorKernel> operators; ///< operators its KernelCalls use, sorted by name
    std::vector<BackendNeed> backends; ///< sorted by backend id
    int kernelCalls = 0;
    int missingCalls = 0; ///< KernelCalls whose operator no list provides
    int delegateCalls = 0;
    OperatorTable table; ///< the operator occurrence table (delegated share), as `etscope ops`
    /// Per chain, per instruction: the index into `operators` of a KernelCall, -1 otherwise.
    std::vector<std::vector<int>> operatorOfInstruction;

    /// The operator a KernelCall at (chain, instruction) uses, nullptr for another instruction.
    const OperatorKernel* operatorAt(int chain, InstructionId instruction) const;
    /// Whether the method loads with these lists (no missing operator, no backend NotLinked).
    bool loads() const;
};

/// The answer to "will this program load on a runtime with these kernels".
struct KernelCheck {
    std::string program;
    std::vector<MethodKernelCheck> methods; ///< in program order
    std::vector<std::string> lists; ///< the lists' names, in lookup order
    std::vector<Warning> warnings; ///< the lists' warnings

    bool loads() const;
    const MethodKernelCheck* method(std::string_view name) const;
    /// Every method's table merged into one (rows summed by op type, backends summed).
    OperatorTable combinedTable() const;
    /// Delegate entries by backend id over every method (what presetForBackends weighs).
    std::map<std::string, int> delegatesPerBackend() const;
};

/// Checks every KernelCall of every method of `document.program` against `lists`, and lists the
/// backends of every delegate. A document without a program gives an empty check.
KernelCheck checkKernels(const Document& document, const KernelLists& lists);

/// The top-level operator nodes of a method graph whose operator no list provides: what the
/// app marks. `graph` is the method's graph (nodes carry the chain and instruction they come from).
std::vector<NodeId> missingKernelNodes(const Graph& graph, const MethodKernelCheck& check);

/// The report as `etscope check` prints it: the answer first, then missing operators with their
/// calls, the resolved operators per list, the backends and the delegated share.
std::string kernelCheckText(const KernelCheck& check, const KernelLists& lists);

/// "a, b, c, … (4 more)": the first `limit` items joined, the rest counted. The one way the
/// check and the gate (buildgate.cpp) list operators, backends, methods and kernel lists.
std::string joinedList(const std::vector<std::string>& items, std::size_t limit = SIZE_MAX);

/// Everything in the check as JSON (schema in docs/check.md, "JSON").
nlohmann::json kernelCheckJson(const KernelCheck& check, const KernelLists& lists);

} // namespace etscope::core
