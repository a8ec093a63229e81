// SPDX-License-Identifier: MIT
// What the parts of MainWindow (mainwindow*.cpp) share: the properties that mark a tab's page and
// how long a status message stays. Private to those files.
#pragma once

namespace etscope::ui::mainwindow {

inline const char* const kErrorProperty = "etscopeError";
/// On an "Opening…" page: the DocumentController whose open it stands for (closing the page
/// cancels the open and drops its result).
inline const char* const kOpeningProperty = "etscopeOpening";
/// How long a transient status message stays.
inline constexpr int kStatusMilliseconds = 4000;

} // namespace etscope::ui::mainwindow
