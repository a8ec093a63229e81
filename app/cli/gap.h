// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/arguments.h"

#include <string>

namespace etscope::core {
struct Document;
struct ETRecord;
} // namespace etscope::core

namespace etscope::app {

/// On stderr, "etscope COMMAND: warning: not used: R does not look like the ETRecord of P: WHY"
/// (core::foreignETRecordMessage, the app's words) when core::etrecordMismatch finds `record` is
/// another program's (ops, gap, profile, gap --stage). True then: the caller drops the record, as
/// the app does not attach it.
bool warnOfForeignETRecord(const std::string& command, const core::ETRecord& record, const core::Document& document);

/// `etscope gap PROGRAM --etdump A.etdp (--reference B.etdp | --inspector-table T | --bundled-reference) …`:
/// the per-node numeric gap table of one Execute block (--run, --reference-run) or test case
/// (--test-case). Returns an ExitCode.
int runGap(const Arguments& args);

/// `etscope gap --stage A.pte:a.etdp[:a.etrecord] --stage B.pte:b.etdp … [--plot OUT.png|OUT.svg]`:
/// several builds of one model in one table, each compared with the first (app/cli/gapstages.cpp).
int runStageGap(const Arguments& args);

/// `etscope profile PROGRAM --etdump A.etdp [--etrecord R] …`: per-node timing statistics over
/// the Execute blocks of the ETDump (count, min, p50, p90, avg, max in ms). Returns an ExitCode.
int runProfile(const Arguments& args);

/// `etscope ops PROGRAM --etrecord R`: the operator table exactly as get_delegation_info
/// computes it from the ETRecord's edge graph; for another program's record (warned of), the
/// table counted from the program, as `ops PROGRAM` prints it, said so on stderr.
int runOpsWithETRecord(const Arguments& args);

/// `etscope info FILE.etdp --debug-buffer BIN`: info with an explicit debug buffer.
int runInfoWithDebugBuffer(const Arguments& args);

} // namespace etscope::app
