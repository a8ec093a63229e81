// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace etscope::ui {

/// The device each program's Load tab checks against (issue 33), remembered per document: the
/// QSettings map `deviceCheck/byDocument` from a file's absolute path to a device id
/// (docs/settings.md). At most kRememberedDevices files are kept, the most recently chosen.
inline constexpr int kRememberedDevices = 200;

/// The device id remembered for the file at `path`, empty for none.
QString rememberedDevice(const QString& path);
/// Remembers `id` for the file at `path`; an empty id forgets it.
void rememberDevice(const QString& path, const QString& id);

} // namespace etscope::ui
