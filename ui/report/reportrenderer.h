// SPDX-License-Identifier: MIT
#pragma once

// Draws the pictures of an `etscope report` with the app's own renderers (graph scene, memory
// chart, treemap, timeline) and writes the report as HTML (pictures inline as SVG), Markdown
// (pictures as PNG files beside it) or PDF (Qt's PDF writer: A4 pages with a header and page
// numbers). Needs a QApplication (the offscreen platform is enough).

#include "core/fullreport/report.h"

#include <QByteArray>
#include <QSize>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace etscope::ui {

enum class PictureFormat { Svg, Png };

struct DrawnPicture {
    QByteArray bytes; ///< SVG (without XML declaration) or PNG
    QSize size; ///< in CSS pixels (PNG: its pixels are 2× this)
    QString error; ///< why nothing was drawn
    /// PNG although SVG was asked for: a graph whose SVG would pass 6 MB (an LLM's group with
    /// its delegates expanded).
    bool png = false;
};

/// Draws one picture of `report` (its data from `document` and the report's analyses).
DrawnPicture drawReportPicture(const core::Report& report, const core::ReportPicture& picture,
    const std::shared_ptr<const core::Document>& document, PictureFormat format);

/// The report as PDF bytes: the rich-text HTML laid out by QTextDocument on A4 pages, the report
/// title in the header and "page N of M" in the footer of every page, pictures as PNG.
QByteArray reportPdf(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const std::function<void(const QString&)>& progress = {});

/// Draws the pictures and writes `path` atomically in the format its extension names (.html,
/// .md, .pdf). Markdown writes its pictures beside it as <stem>-<picture>.png (each atomically).
/// `written` receives every file written. Empty on success, else the reason (naming the file).
/// `progress`, when given, hears each picture's id before it is drawn.
std::optional<QString> writeReport(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const QString& path, std::vector<QString>* written = nullptr,
    const std::function<void(const QString&)>& progress = {});

} // namespace etscope::ui
