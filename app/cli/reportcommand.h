// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/arguments.h"

namespace etscope::app {

/// `etscope report PROGRAM [ETDUMP…] [ETRECORD] [INSPECTOR_TABLE] [--baseline OLD.pte]
/// -o report.html|report.md|report.pdf`: every analysis in one file (docs/report.md).
int runReport(int argc, char** argv, const Arguments& args);

} // namespace etscope::app
