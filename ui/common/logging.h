// SPDX-License-Identifier: MIT
#pragma once
// The app's logging categories (issue 26 #6), so that a bug report can carry a debug log.
// Every category is off below warnings by default; turn one on with `etscope --log
// etscope.open,etscope.layout FILE` or Qt's own QT_LOGGING_RULES="etscope.*.debug=true"
// (docs/troubleshooting.md, "Reporting a bug"). Lines go to stderr through Qt's message handler.
//   etscope.open       opening a file: started, finished (ms, methods, delegates), failed, stopped
//   etscope.layout     graph layouts: requested (view, nodes, edges), finished (ms), cancelled, failed
//   etscope.delegates  what was decoded inside each delegate of an opened program, and its warnings
//   etscope.debug      attaching ETDumps, ETRecords and Inspector tables: started, finished, failed
//   etscope.ui         the window: files given on the command line, tabs opened and closed

#include <QLoggingCategory>
#include <QString>
#include <QStringList>

namespace etscope::ui {

Q_DECLARE_LOGGING_CATEGORY(logOpen)
Q_DECLARE_LOGGING_CATEGORY(logLayout)
Q_DECLARE_LOGGING_CATEGORY(logDelegates)
Q_DECLARE_LOGGING_CATEGORY(logDebug)
Q_DECLARE_LOGGING_CATEGORY(logUi)

/// The names of the categories above, in that order (for --log and its help text).
QStringList loggingCategoryNames();

/// Turns on debug output for the comma-separated categories in `spec` ("etscope.open,etscope.layout";
/// "all" or "etscope" for every one; "etscope.*" patterns as Qt's rules allow). Rules already set
/// by QT_LOGGING_RULES stay in force besides. Returns the first unknown name, or an empty string.
QString enableLogging(const QString& spec);

} // namespace etscope::ui
