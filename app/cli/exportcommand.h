// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/arguments.h"

namespace etscope::app {

/// `etscope export FILE -o OUT.{png,svg,pdf} [--method M] [--expand none|all|BACKEND_ID] [--delegate N]`:
/// the same renderer as the GUI, on Qt's offscreen platform (no display needed).
int runExport(int argc, char** argv, const Arguments& args);

} // namespace etscope::app
