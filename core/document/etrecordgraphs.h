// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/edgegraph.h"
#include "core/document/document.h"

namespace etscope::core {

/// Gives an ETRecord opened on its own the shape the app draws: a graph-only program with one
/// "method" per graph of the record (etrecordGraphViews: "forward (edge)", the ATen program,
/// graph-map graphs) — no values, no instructions — and one analysis per method holding the
/// graph, its lowered modules described as delegates (backend id, payload size, compile specs,
/// the original graph as the inner graph). The program's identifier is "ETRECORD_V0" and its
/// file the record itself, mapped read-only again. A record without a readable graph gets no
/// program, only a warning (it is shown as facts). Leaves other documents alone; fails only
/// when the record can no longer be mapped.
std::optional<Error> addETRecordGraphs(Document& document);

/// Why `record` is clearly not the ETRecord of `program`, or nullopt when it may be: none of
/// its edge programs is named like a method of the program; a map names an instruction the
/// method does not have, or a delegate map / output count an instruction that is no
/// DelegateCall; or, for a program without delegates, its edge graph shares no operator with
/// the program's kernels (`aten.mul.Tensor` and `aten::mul.out` share `mul`).
std::optional<std::string> etrecordMismatch(const ETRecord& record, const Program& program);

/// What the app and the CLI both say of a record etrecordMismatch rejects, which neither uses:
/// "not used: RECORD does not look like the ETRecord of PROGRAM: WHY".
std::string foreignETRecordMessage(const std::string& record, const std::string& program, const std::string& why);

} // namespace etscope::core
