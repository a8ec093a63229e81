// SPDX-License-Identifier: MIT
#pragma once

// Graphs of a program's delegates kept in files beside it. Arm's Ethos-U flow (ExecuTorch
// backends/arm, intermediate path) writes the TOSA graph of each partition before Vela compiles
// it, as <prefix>output_tag<N>_TOSA-<spec>.tosa for delegate N: the view of what the NPU runs
// that the Vela command stream in the payload no longer shows.

#include "core/document/document.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// One TOSA side file found beside a program.
struct SideFile {
    std::size_t delegate = 0; ///< N of output_tag<N>
    std::string path;
};

/// The TOSA side files beside `programPath` (same directory): names containing
/// "output_tag<N>_TOSA" and ending in ".tosa". When files of several prefixes are there (the
/// part before "output_tag"), those whose prefix shares the longest common prefix with the
/// program's file name win. Sorted by N; at most one file per N. Looks at no more than 10,000
/// directory entries; an unreadable directory gives an empty list. Never throws.
std::vector<SideFile> findTosaSideFiles(const std::string& programPath);

/// Where a side graph went.
struct SideGraphAttachment {
    std::size_t delegate = 0; ///< index in the default method's delegate table
    std::vector<Warning> warnings;
};

/// Reads `path` as a TOSA graph and attaches it to a delegate of the program's default method
/// (forward, else the first method with delegates): DelegateInfo::sideGraph, sideGraphPath and
/// a "side graph" fact. The delegate is `delegate` when given; otherwise the one whose
/// DelegateCall arguments have the shapes of the graph's main block inputs and outputs, else
/// the N of "output_tag<N>" in the file name. (Tags need not follow the delegate order: in the
/// Arm lab sample tag0 is delegate 1.) Fails, leaving the document unchanged, when the
/// document has no program, the delegate does not exist or cannot be chosen, or the file cannot
/// be read or is no valid TOSA graph. The warnings are the reader's own and, when the graph's
/// inputs/outputs differ from the chosen delegate's (the file may belong to another program),
/// one saying so; they are also added to the delegate's warnings.
Result<SideGraphAttachment> attachTosaSideGraph(
    Document& document, const std::string& path, std::optional<std::size_t> delegate = std::nullopt);

/// findTosaSideFiles + attachTosaSideGraph (delegate chosen by shape, else by tag) for each file
/// found, in tag order (a later file chosen for the same delegate replaces an earlier one);
/// files that cannot be attached become warnings. Documents without a program get nothing.
std::vector<Warning> attachTosaSideGraphs(Document& document);

} // namespace etscope::core
