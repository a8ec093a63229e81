// SPDX-License-Identifier: MIT
#pragma once

// The node pairs `etscope gap --reference-program` compares (issue 24): diffPrograms' matching of
// two builds of a model, as the NodePairing core/debug/programgap.h takes.

#include "core/debug/etrecord.h"
#include "core/debug/programgap.h"
#include "core/document/document.h"

#include <string>

namespace etscope::core {

/// Pairs the nodes of `method` in both programs with diffPrograms (A = reference, B = run; with
/// both records, debug handles first). Every pair diff found, top level and inside decoded
/// delegates, with how it was paired: "debug handle" (the pair's AOT handles intersect),
/// "operator family" (an operator that moved into or out of a delegate, paired with the inner
/// node of its family), "position" (program and delegate inputs and outputs), "argument"
/// (constants read by a pair), else "execution order" (aligned) or "rank" (the k-th node of an
/// operator with the k-th: methods too long to align). Nodes of one side only come as pairs with
/// the other side empty. A method missing from one program is a warning naming that file (every
/// node unpaired); Error::Usage when the method is in neither or a document holds no program.
Result<NodePairing> pairProgramNodes(const Document& reference, const Document& run, const std::string& method,
    const ETRecord* referenceRecord = nullptr, const ETRecord* runRecord = nullptr,
    std::size_t maxAlignCells = 8'000'000);

} // namespace etscope::core
