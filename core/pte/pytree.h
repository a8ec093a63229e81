// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// Where each leaf of a pytree spec (ContainerMetadata's encoded_inp_str / encoded_out_str,
/// facts sheet §1.10) sits, in leaf order: "[0]", "[1][0]", "['mask']". A method's input spec is
/// a pair (args, kwargs), so `asArguments` names its two halves: "args[0]", "kwargs['mask']".
/// The single leaf of "$" is "". nullopt when the text is not a pytree spec (or nests deeper
/// than 64 levels); never throws.
std::optional<std::vector<std::string>> pytreeLeafPaths(std::string_view spec, bool asArguments = false);

/// The spec as a Python literal of its containers, leaves named by `leafNames` in leaf order
/// ("•" for leaves past its end): "((x, y), {})", "[a, b]", "{'mask': m}", "(a,)"; with
/// `asArguments`, an (args, kwargs) pair reads "args (x, y) · kwargs {}". nullopt when the text
/// is not a pytree spec; never throws.
std::optional<std::string> pytreeOutline(
    std::string_view spec, const std::vector<std::string>& leafNames, bool asArguments = false);

} // namespace etscope::core
