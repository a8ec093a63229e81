// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/document.h"
#include "core/stats/operatortable.h"
#include "core/table/table.h"

#include <nlohmann/json.hpp>

#include <string>

namespace etscope::core {

/// The operator occurrence table with its final `Total` row and the three summary lines as notes.
Table operatorTableReport(const OperatorTable& table, const std::string& title = {});

/// `etscope info --json`: format, identifier, header, segments and every method with its
/// instruction kinds, operators and delegates (see README for the fields).
nlohmann::ordered_json documentInfoJson(const Document& document);

/// The same facts as readable text.
std::string documentInfoText(const Document& document);

/// Graph exports for `etscope graph`.
std::string graphToDot(const Graph& graph, bool expandDelegates = true);
nlohmann::ordered_json graphToJson(const Graph& graph);

/// A printout in the spirit of ExecuTorch's format_delegated_graph: the top level in execution
/// order, each delegate followed by `backend_id:` and its inner graph indented under it.
std::string delegatedGraphText(const Graph& graph);

/// The method a command should look at: `name` if given (nullptr when absent), else the default.
const Method* selectMethod(const Program& program, const std::string& name);

} // namespace etscope::core
