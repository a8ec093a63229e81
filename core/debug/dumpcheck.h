// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"
#include "core/debug/eventmapper.h"

#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// How well the events of an ETDump fit the method an EventMapper describes. Nothing in an
/// ETDump names its program, so a dump of another model is only recognised by disagreements.
struct DumpFit {
    std::size_t checked = 0; ///< events, logged values and output counts compared with the program
    std::size_t eventNames = 0; ///< events whose name does not fit the instruction at their id
    std::size_t instructionIds = 0; ///< events at instruction ids the method does not have
    std::size_t tensors = 0; ///< logged tensors whose dtype or shape differs from the program value
    std::size_t outputCounts = 0; ///< blocks that logged another number of program outputs
    std::vector<std::string> examples; ///< a few disagreements, one line each, varied by kind

    std::size_t mismatches() const { return eventNames + instructionIds + tensors + outputCounts; }
};

/// Compares Execute block `executeBlock` (counted among the Execute blocks; nullopt = every
/// one) of `dump` with the method of `mapper` (facts sheet §2.2, §4.3, §4.4):
/// - `native_call_<op>.<overload>` must name the operator of the KernelCall at its instruction
///   id without namespace (`aten::add.out` ↔ `native_call_add.out`); OPERATOR_CALL,
///   DELEGATE_CALL, MOVE_CALL, JF_CALL and FREE_CALL must sit on an instruction of that kind;
///   delegate-internal events on a DelegateCall. Other names (boxed kernels) are not judged.
/// - every event inside an instruction (chain 0) must use an instruction id the method has;
/// - a logged tensor must have the dtype of the program value it stands for (a kernel's out
///   arguments, a delegate call's arguments, a program output) and its shape, or a shape within
///   it of the same rank (DYNAMIC_BOUND tensors store their upper bound); values whose program
///   tensor is not on the graph are skipped;
/// - the number of program outputs logged per block must be the method's, when any is logged.
DumpFit checkDumpFitsProgram(
    const ETDump& dump, const EventMapper& mapper, std::optional<std::size_t> executeBlock = std::nullopt);

/// The fit as warnings: none when everything fits, else one line with the counts and up to
/// three example lines, each starting with `subject` (e.g. "run /path/a.etdp").
std::vector<Warning> dumpFitWarnings(const DumpFit& fit, const std::string& subject, const std::string& method);

/// Whether `warning` is the summary line of dumpFitWarnings ("… checks disagree …").
bool isDumpFitSummary(const Warning& warning);

/// Moves dumpFitWarnings' summary lines to the front, the rest keeping their order: a banner
/// showing the first warning leads with "is this ETDump from another program?".
void leadWithDumpFit(std::vector<Warning>& warnings);

/// A warning when the attached debug buffer is obviously no debug buffer: it starts like an
/// ETDump (`ED00` after a size prefix, or at byte 4), a program (`ET??`), a bundled program
/// (`BP??`), a .ptd (`FT??`) or a ZIP archive such as an ETRecord. nullopt when no buffer is
/// attached or nothing is recognised.
std::optional<Warning> checkDebugBufferKind(const ETDump& dump);

} // namespace etscope::core
