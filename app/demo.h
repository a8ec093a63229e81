// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace etscope::app {

/// Where the bundled demo program is: beside the binary in the build tree, or in the installed
/// share folder. Empty when neither exists.
QString demoProgramPath();

} // namespace etscope::app
