// SPDX-License-Identifier: MIT
#pragma once

// Writing what a tab shows to files: graph pictures and tables, atomically (a failed export
// never leaves a half-written file), with the dialogs around them.

#include "core/table/table.h"

#include <QString>

#include <functional>
#include <optional>

class QPainter;
class QSize;
class QWidget;

namespace etscope::ui {

class GraphScene;

/// The drawn graph as PNG, SVG or PDF (by the extension of `path`); `sourcePath` is the file
/// it comes from (named in the picture). Empty on success, else the reason.
std::optional<QString> exportGraphImage(GraphScene& scene, const QString& sourcePath, const QString& path);

/// `table` rendered in `format`. Empty on success, else the reason.
std::optional<QString> exportTableFile(const core::Table& table, core::TableFormat format, const QString& path);

/// Bytes written atomically. Empty on success, else the reason.
std::optional<QString> exportBytes(const QString& path, const QByteArray& bytes);

/// A picture of `size` painted by `paint`, as PNG or SVG by the extension of `path` (PNG on a
/// white background; SVG keeps text as text, titled `title`). Empty on success, else the reason.
std::optional<QString> exportPainting(
    const QString& path, const QSize& size, const QString& title, const std::function<void(QPainter&)>& paint);

/// For the bool-and-error-text API of the panels: true when `failure` is empty, else sets
/// `error` (when given) to it and returns false.
bool succeeded(const std::optional<QString>& failure, QString* error);

/// "<file>-<graph>" for a picture of graph `graphTitle` of `sourcePath`, safe as a file name.
QString graphImageBaseName(const QString& sourcePath, const QString& graphTitle);

/// Asks where to save (starting at `suggested`), then runs `write`; a failure is shown in a
/// message box. The path saved to, empty when cancelled or failed.
QString saveWithDialog(QWidget* parent, const QString& caption, const QString& suggested, const QString& filters,
    const std::function<std::optional<QString>(const QString& path)>& write);

/// saveWithDialog for the panels' exportTo(path, error) functions (the format by the extension).
QString saveWithDialog(QWidget* parent, const QString& caption, const QString& suggested, const QString& filters,
    const std::function<bool(const QString& path, QString* error)>& exportTo);

} // namespace etscope::ui
