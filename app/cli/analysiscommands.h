// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/arguments.h"

namespace etscope::app {

/// etscope check PROGRAM [--kernels LIST]… [--format text|json]: will it load.
int runCheck(const Arguments& args);
/// etscope memory PROGRAM [--method M] [--format text|csv|json|chrome-trace]: the memory plan.
int runMemory(const Arguments& args);
/// etscope size PROGRAM [--data PTD] [--format text|json|csv]: what makes the file this big.
int runSize(const Arguments& args);
/// etscope timeline ETDUMP [--program P] [--run N] --format chrome-trace|csv -o OUT.
int runTimeline(const Arguments& args);
/// etscope diff A.pte B.pte [--method M] [--format text|md|json]: what changed.
int runDiff(const Arguments& args);
/// etscope why PROGRAM [--report LOG]… [--etrecord R] [--backend ID] [--format text|json|csv]:
/// why each operator outside a delegate stayed on the CPU.
int runWhy(const Arguments& args);

} // namespace etscope::app
