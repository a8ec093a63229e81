// SPDX-License-Identifier: MIT
#pragma once

// Draws the pictures of an `etscope report` with the app's own renderers (graph scene, memory
// chart, treemap, timeline) and writes the report as HTML (pictures inline as SVG), Markdown
// (pictures as PNG files beside it) or PDF (Qt's PDF writer: A4 pages with a header and page
// numbers). Needs a QApplication (the offscreen platform is enough).

#include "core/fullreport/report.h"

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etscope::ui {

struct Presentation;

enum class PictureFormat { Svg, Png };

struct DrawnPicture {
    QByteArray bytes; ///< SVG (without XML declaration) or PNG
    QSize size; ///< in CSS pixels (PNG: its pixels are 2× this)
    QString error; ///< why nothing was drawn
    /// PNG although SVG was asked for: a graph whose SVG would pass 6 MB (an LLM's group with
    /// its delegates expanded).
    bool png = false;
    /// A graph asked for as a bitmap but left as SVG (`bytes`), to be rasterised at this many
    /// device pixels per CSS pixel off the GUI thread (0: not deferred).
    double rasterScale = 0;
    /// A chart asked for as PNG, painted but not encoded yet (the encoding runs off the GUI
    /// thread, in finishReport); `bytes` is then empty.
    QImage bitmap;
};

/// Draws one picture of `report` (its data from `document` and the report's analyses).
DrawnPicture drawReportPicture(const core::Report& report, const core::ReportPicture& picture,
    const std::shared_ptr<const core::Document>& document, PictureFormat format);

/// The pictures of a report drawn for one output file, kept until the file is written.
struct ReportDrawings {
    std::string format; ///< the file's format: "html", "md" or "pdf" (core::reportFormatFor)
    /// Markdown and PDF: each drawn picture's PNG, by picture id (HTML keeps its pictures inline,
    /// in ReportPicture::svg).
    std::map<std::string, QByteArray> png;
    /// The graphs wanted as bitmaps (Markdown, PDF; HTML: a graph whose SVG would pass 6 MB), by
    /// picture id, drawn on the GUI thread only as far as SVG (the scene is a QGraphicsScene) and
    /// rasterised by finishReport on its worker, at DrawnPicture::rasterScale: painting a large
    /// graph's bitmap and encoding it took about a second on the GUI thread (HTML: 0.5 s for a
    /// 100k-instruction LLM's largest group).
    struct Vector {
        QByteArray svg;
        double scale = 1;
    };
    std::map<std::string, Vector> vector;
    /// The charts wanted as PNG, by picture id, painted on the GUI thread (through their widgets)
    /// and encoded by finishReport on its worker: painting the 100k-instruction LLM's treemap
    /// takes 90 ms, encoding its PNG 160 ms more (Debug).
    std::map<std::string, QImage> bitmaps;
};

/// Draws picture `index` of `report` as a file of drawings.format needs it. GUI thread only:
/// the graph is drawn through a QGraphicsScene (its constructor registers it with the
/// QApplication, unguarded) and the charts through their widgets.
/// `laidOut`, for a graph picture: its presentation from presentReportGraph with the layout
/// filled in (on a worker); null lays the graph out here.
void drawReportPictureFor(core::Report& report, std::size_t index,
    const std::shared_ptr<const core::Document>& document, ReportDrawings& drawings,
    std::shared_ptr<Presentation> laidOut = nullptr);

/// The graph of picture `index` flattened and measured (GUI thread: fonts), not laid out: its
/// layout (core::layoutGraph on ->request, plain C++) can then run on a worker. Null when the
/// picture is not a graph or has none.
std::shared_ptr<Presentation> presentReportGraph(
    const core::Report& report, std::size_t index, const std::shared_ptr<const core::Document>& document);

/// Writes `path` (atomically; Markdown: its PNG files beside it first) once every picture is in
/// `drawings`. Safe on a worker thread: it paints only onto QImage and QPdfWriter and lays the
/// PDF out with QTextDocument; the graphs left as SVG (ReportDrawings::vector) are painted here.
/// Empty on success, else the reason naming the file. When `cancel` is set before a file is
/// written, that file and the ones after it are not written (and no further graph is painted).
/// `progress` hears each graph's caption before its bitmap is painted, with the number of graphs
/// painted before it and how many there are.
std::optional<QString> finishReport(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const QString& path, const ReportDrawings& drawings, std::vector<QString>* written = nullptr,
    const std::atomic<bool>* cancel = nullptr, const std::function<void(const QString&, int, int)>& progress = {});

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
