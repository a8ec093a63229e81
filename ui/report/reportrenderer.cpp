// SPDX-License-Identifier: MIT
// The pictures and files of a report (HTML, Markdown, PDF). Why one file: every picture (graph,
// memory chart, treemap, timeline) is drawn here into one DrawnPicture form that the three writers
// below read; the PDF's pagination cuts those same pictures.
#include "ui/report/reportrenderer.h"

#include "core/graph/grouping.h"
#include "core/layout/graphlayout.h"
#include "core/util/atomicfile.h"
#include "ui/common/nodestyle.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/presentation.h"
#include "ui/graph/scenerenderer.h"
#include "ui/memory/memorychart.h"
#include "ui/size/treemap.h"
#include "ui/timeline/timelineview.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <map>

namespace etscope::ui {

namespace {

using core::ReportPicture;

/// Above this many planned tensors a memory chart is drawn as PNG even in HTML: its SVG would
/// hold one rectangle per tensor (tens of MB for an LLM).
constexpr std::size_t kMaxSvgTensors = 4000;

/// Above this many parts a treemap is drawn as PNG even in HTML (an LLM's thousands of constants).
constexpr std::size_t kMaxSvgParts = 1500;

/// A graph whose SVG is larger than this is drawn as PNG instead. A group of an LLM with its
/// delegates expanded is about 4.5 MB of SVG and a tall drawing, which a PNG (at most 16,000
/// pixels a side) would blur: SVG is kept up to well above that.
constexpr qsizetype kMaxSvgBytes = 6 * 1024 * 1024;

/// The most pixels a graph's PNG gets (Markdown, PDF, HTML fallback): 24 M, about 6,000 × 4,000.
constexpr double kMaxPngPixels = 24e6;

/// The longest side a graph's PNG gets: renderScene draws at most 16,000 px a side (and shrinks
/// anything larger); this leaves room for the title and legend above the graph.
constexpr double kMaxPngSide = 15000;

/// Below this many device pixels per CSS pixel a graph's PNG is not drawn: its text would be
/// under 3 px high (the smallest scale the pixel budget ever gave, 0.25, is kept).
constexpr double kMinPngScale = 0.25;

/// A graph too tall for a legible PNG stays SVG in HTML up to this size.
constexpr qsizetype kMaxTallSvgBytes = 12 * 1024 * 1024;

/// Above this many events a timeline is drawn as PNG even in HTML, for the same reason.
constexpr std::size_t kMaxSvgEvents = 6000;

/// The SVG element of QSvgGenerator's output, without the XML declaration and doctype.
QByteArray svgElement(const QByteArray& document)
{
    const qsizetype start = document.indexOf("<svg");
    return start < 0 ? document : document.mid(start);
}

/// The viewBox size of an SVG (what renderScene drew), else `fallback`.
QSize svgSize(const QByteArray& svg, QSize fallback)
{
    static const QRegularExpression viewBox(QStringLiteral("viewBox=\"[-0-9.]+ [-0-9.]+ ([0-9.]+) ([0-9.]+)\""));
    const auto match = viewBox.match(QString::fromUtf8(svg.left(4096)));
    if (!match.hasMatch())
        return fallback;
    return QSize(qRound(match.captured(1).toDouble()), qRound(match.captured(2).toDouble()));
}

/// A picture of `size` painted by `paint`, as SVG (text stays text) or PNG at twice the size.
/// With `deferEncoding`, a PNG is left as the painted bitmap (DrawnPicture::bitmap).
DrawnPicture paintPicture(QSize size, PictureFormat format, const QString& title,
    const std::function<void(QPainter&)>& paint, bool deferEncoding = false)
{
    DrawnPicture drawn;
    drawn.size = size;
    QBuffer buffer(&drawn.bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == PictureFormat::Svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title);
        QPainter painter(&generator);
        painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        paint(painter);
        painter.end();
        drawn.bytes = svgElement(drawn.bytes);
    } else {
        QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
            painter.scale(2, 2);
            paint(painter);
        }
        if (deferEncoding)
            drawn.bitmap = image;
        else
            image.save(&buffer, "PNG");
    }
    return drawn;
}

/// A PNG wrapped for inline HTML: an <img> with a data: URL.
QByteArray inlinePng(const DrawnPicture& png, const QString& alt)
{
    return "<img alt=\"" + alt.toHtmlEscaped().toUtf8() + "\" width=\"" + QByteArray::number(png.size.width())
        + "\" src=\"data:image/png;base64," + png.bytes.toBase64() + "\">";
}

/// The graph of `picture` flattened and measured, not laid out yet (null: no graph to draw).
std::shared_ptr<Presentation> presentGraph(
    const ReportPicture& picture, const std::shared_ptr<const core::Document>& document)
{
    const int methodIndex = picture.method;
    if (methodIndex < 0 || static_cast<std::size_t>(methodIndex) >= document->methods.size()
        || !document->methods[static_cast<std::size_t>(methodIndex)].graph)
        return nullptr;
    const core::Graph& top = *document->methods[static_cast<std::size_t>(methodIndex)].graph;
    const auto grouping = methodGrouping(*document, methodIndex);
    std::set<int> expanded;
    if (picture.group >= 0)
        expanded.insert(expandKeyOfGroup(picture.group));
    if (picture.expand != "none")
        for (const core::Node& node : top.nodes) {
            if (node.kind != core::NodeKind::Delegate || !node.subgraph
                || (picture.expand != "all" && node.label != picture.expand))
                continue;
            if (picture.expand == "all" && node.subgraph->nodes.size() > core::kReportExpandAllMaxNodes)
                continue;
            // In a long method only the delegates of the opened group are drawn (and expanded).
            const int group = grouping->groupOfNode(node.id);
            if (group < 0 || group == picture.group)
                expanded.insert(node.id.value);
        }
    return preparePresentation(document, GraphContext { methodIndex, core::NodeId::none() }, expanded, grouping);
}

/// A graph picture. With `deferRaster`, a PNG asked for is left as SVG with the scale to
/// rasterise it at (DrawnPicture::rasterScale): the slow part, painting the bitmap and encoding
/// it, then runs where the caller likes (rasterise, on a worker).
DrawnPicture drawGraph(const ReportPicture& picture, const std::shared_ptr<const core::Document>& document,
    PictureFormat format, std::shared_ptr<Presentation> presentation, bool deferRaster = false)
{
    if (!presentation) {
        presentation = presentGraph(picture, document);
        if (!presentation)
            return { {}, {}, QStringLiteral("no graph for this method") };
        auto layout = core::layoutGraph(presentation->request);
        if (!layout)
            return { {}, {}, QString::fromStdString(layout.error().reason) };
        presentation->layout = std::move(layout).value();
    }
    GraphScene scene;
    scene.setPresentation(presentation);
    if (picture.mark) {
        // The first divergence, as the app marks it: on its own box or, for an expanded
        // delegate, on its frame; a closed delegate or group that holds it says "inside".
        const QString text = QString::fromStdString(picture.markText);
        GraphScene::Marks marks;
        marks[GraphScene::keyOf(*picture.mark)]
            = NodeMark { divergenceColour(), QObject::tr("① first divergence"), text };
        if (const int shown = presentation->shownAt(*picture.mark); shown >= 0)
            if (const core::NodeOrigin& at = presentation->origins[static_cast<std::size_t>(shown)];
                !(at == *picture.mark))
                marks[GraphScene::keyOf(at)] = NodeMark { divergenceColour(), QObject::tr("① inside"), text };
        scene.setMarks(GraphScene::MarkLayer::Divergence, std::move(marks));
    }
    RenderOptions options = reportOptions(*presentation, QFileInfo(QString::fromStdString(document->path)).fileName());
    if (picture.group >= 0)
        options.title += QStringLiteral(" — group %1").arg(picture.group + 1);
    DrawnPicture drawn;
    if (format == PictureFormat::Svg || deferRaster) {
        drawn.bytes = svgElement(renderScene(scene, ImageFormat::Svg, options));
        drawn.size = svgSize(drawn.bytes, QSize(800, 600));
    }
    if (format == PictureFormat::Png || drawn.bytes.size() > kMaxSvgBytes) {
        // Twice the scene's size, but at most kMaxPngPixels (a 6,000 × 5,000 graph at 2× would be
        // 600 MB of pixels, more than Qt reads back), and below renderScene's 16,000 px a side
        // (with room for the title), so that the scale asked for is the scale drawn.
        const QSizeF extent = scene.itemsBoundingRect().size();
        const double pixels = std::max(1.0, extent.width() * extent.height());
        const double longest = std::max({ 1.0, extent.width(), extent.height() });
        const double scale = std::min({ std::sqrt(kMaxPngPixels / pixels), kMaxPngSide / longest, 2.0 });
        if (scale < kMinPngScale) {
            // A graph this tall (an LLM's group with a 5,000-node delegate opened: 1,351 ×
            // 296,000 px) fits one bitmap only at a twentieth of its size: the PNG was 73 px wide,
            // shown 1,351 px wide, a blank grey smear in the browser. Keep a moderately large SVG
            // (it zooms), else say why instead of a picture nobody can read.
            if (format == PictureFormat::Svg && drawn.bytes.size() <= kMaxTallSvgBytes)
                return drawn;
            return { {}, {},
                QStringLiteral("the graph is %1 × %2 px, too large for one picture (a bitmap would show it at "
                               "%3%); open it in the app, or draw the delegates closed")
                    .arg(qRound(extent.width()))
                    .arg(qRound(extent.height()))
                    .arg(scale * 100, 0, 'f', 1) };
        }
        if (deferRaster) {
            // The same scale renderScene would draw the PNG at; the SVG (of any size: it is
            // only read back) is painted by finishReport.
            drawn.rasterScale = scale;
            return drawn;
        }
        drawn.png = true;
        options.pngScale = scale;
        drawn.bytes = renderScene(scene, ImageFormat::Png, options);
        QImage image;
        image.loadFromData(drawn.bytes, "PNG");
        // The drawing's own size (from the SVG, else the PNG's pixels over its scale) is the size
        // to show it at.
        if (format == PictureFormat::Png)
            drawn.size = (QSizeF(image.size()) / options.pngScale).toSize();
    }
    return drawn;
}

DrawnPicture drawMemory(
    const core::Report& report, const ReportPicture& picture, PictureFormat format, bool deferEncoding)
{
    if (picture.method < 0 || static_cast<std::size_t>(picture.method) >= report.plans.size()
        || !report.plans[static_cast<std::size_t>(picture.method)])
        return { {}, {}, QStringLiteral("no memory plan for this method") };
    const auto& plan = report.plans[static_cast<std::size_t>(picture.method)];
    MemoryChart chart;
    chart.resize(1000, 560);
    chart.setPlan(plan, picture.arena);
    const MemoryChart::Frame frame = chart.picture();
    return paintPicture(
        frame.size, format, QString::fromStdString(picture.caption),
        [&](QPainter& painter) { chart.paintChart(painter, frame); }, deferEncoding);
}

DrawnPicture drawTreemap(
    const core::Report& report, const ReportPicture& picture, PictureFormat format, bool deferEncoding)
{
    if (!report.size)
        return { {}, {}, QStringLiteral("no size breakdown") };
    TreemapView map;
    map.setTree(&report.size->main);
    const QSize mapSize(1000, 560);
    constexpr int kLegend = 26;
    // The legend: every kind of part the map shows, in its colour.
    std::map<core::SizeKind, std::string> kinds;
    for (const core::SizeNode* leaf : core::sizeLeaves(report.size->main))
        if (leaf->bytes > 0)
            kinds.emplace(leaf->kind, leaf->backend);
    return paintPicture(
        QSize(mapSize.width(), mapSize.height() + kLegend), format, QString::fromStdString(picture.caption),
        [&](QPainter& painter) {
            map.paintMap(painter, mapSize);
            QFont font = painter.font();
            font.setPixelSize(12);
            painter.setFont(font);
            const QFontMetrics metrics(font);
            int x = 6;
            const int y = mapSize.height() + 7;
            for (const auto& [kind, backend] : kinds) {
                const QString label = sizeKindLabel(kind);
                painter.fillRect(QRect(x, y, 12, 12), sizeKindColour(kind, backend));
                painter.setPen(QColor(0x1f, 0x23, 0x28));
                painter.drawText(QPoint(x + 16, y + 11), label);
                x += 16 + metrics.horizontalAdvance(label) + 14;
            }
        },
        deferEncoding);
}

DrawnPicture drawTimeline(
    const core::Report& report, const ReportPicture& picture, PictureFormat format, bool deferEncoding)
{
    if (!report.timeline || report.timeline->runs.empty())
        return { {}, {}, QStringLiteral("no run in the ETDump") };
    TimelineView view;
    view.resize(1000, 400);
    view.setTimeline(report.timeline, 0);
    const TimelineView::Picture frame = view.picture();
    return paintPicture(
        frame.size, format, QString::fromStdString(picture.caption),
        [&](QPainter& painter) { view.paintRun(painter, frame.size, frame.fromNs, frame.nsPerPixel, 0); },
        deferEncoding);
}

std::size_t timelineEvents(const core::Report& report)
{
    std::size_t events = 0;
    if (report.timeline && !report.timeline->runs.empty())
        events = report.timeline->runs.front().eventCount();
    return events;
}

/// The format picture `picture` is drawn in for a report whose pictures are `format`: pictures
/// too detailed for SVG become PNG (inline as a data: URL in HTML).
PictureFormat formatOf(const core::Report& report, const core::ReportPicture& picture, PictureFormat format)
{
    if (format != PictureFormat::Svg)
        return format;
    if (picture.kind == ReportPicture::Kind::MemoryArena && picture.method >= 0
        && static_cast<std::size_t>(picture.method) < report.plans.size()
        && report.plans[static_cast<std::size_t>(picture.method)]
        && report.plans[static_cast<std::size_t>(picture.method)]->tensors.size() > kMaxSvgTensors)
        return PictureFormat::Png;
    if (picture.kind == ReportPicture::Kind::Timeline && timelineEvents(report) > kMaxSvgEvents)
        return PictureFormat::Png;
    if (picture.kind == ReportPicture::Kind::SizeTreemap && report.size
        && core::sizeLeaves(report.size->main).size() > kMaxSvgParts)
        return PictureFormat::Png;
    return format;
}

std::optional<QString> writeBytes(const QString& path, const QByteArray& bytes, std::vector<QString>* written)
{
    if (auto error = core::writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), bytes.size())))
        return QString::fromStdString(error->message());
    if (written)
        written->push_back(path);
    return std::nullopt;
}

} // namespace

DrawnPicture drawReportPicture(const core::Report& report, const core::ReportPicture& picture,
    const std::shared_ptr<const core::Document>& document, PictureFormat format)
{
    switch (picture.kind) {
    case ReportPicture::Kind::Graph:
        return drawGraph(picture, document, format, nullptr);
    case ReportPicture::Kind::MemoryArena:
        return drawMemory(report, picture, format, false);
    case ReportPicture::Kind::SizeTreemap:
        return drawTreemap(report, picture, format, false);
    case ReportPicture::Kind::Timeline:
        return drawTimeline(report, picture, format, false);
    }
    return { {}, {}, QStringLiteral("unknown picture") };
}

namespace {

/// A deferred graph's bitmap: its SVG painted at its scale (on any thread: QSvgRenderer paints
/// onto a QImage). The same size and scale renderScene's PNG would have.
QImage rasterise(const ReportDrawings::Vector& vector)
{
    QSvgRenderer renderer(vector.svg);
    const QSizeF size = renderer.viewBoxF().size();
    if (!renderer.isValid() || size.isEmpty())
        return {};
    QImage image((size * vector.scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    painter.scale(vector.scale, vector.scale);
    renderer.render(&painter, QRectF(QPointF(0, 0), size));
    return image;
}

QByteArray pngBytes(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

/// The smallest scale a graph is shown at on a PDF page: its operator names (titleFont, 12 px
/// = 9 pt at the writer's 96 dpi) stay at `points` (6 pt: the smallest readable size) at least.
double minimumGraphScale(double points = 6.0)
{
    constexpr double kPointsPerPixel = 72.0 / 96.0;
    const int pixels = std::max(1, titleFont().pixelSize());
    return std::min(1.0, points / (pixels * kPointsPerPixel));
}

/// The PDF's body text: DejaVu Sans at 8.5 pt.
QFont pdfFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8.5);
    return font;
}

/// The rich text of the PDF's body, set up as the PDF lays it out: `html` on pages of `body`
/// CSS pixels, its fonts measured on `device`, `images` as its resources. The same setup places
/// the probes of cutPictureForPdf, so a place found there is the place on the page.
void setUpPdfText(QTextDocument& text, QPaintDevice* device, const QSizeF& body,
    const std::map<std::string, QImage>& images, const std::string& html)
{
    text.documentLayout()->setPaintDevice(device);
    text.setDefaultFont(pdfFont());
    text.setDocumentMargin(0);
    text.setDefaultStyleSheet(QStringLiteral("h1{font-size:16pt} h2{font-size:13pt; color:#1f2328} "
                                             "h3{font-size:10pt} th{background-color:#eef1f4} small{color:#59636e}"));
    for (const auto& [name, image] : images)
        text.addResource(QTextDocument::ImageResource, QUrl(QString::fromStdString(name)), image);
    text.setHtml(QString::fromStdString(html));
    text.setPageSize(body);
}

/// The top of the line that holds image `name` in `text`, in the paged layout's coordinates
/// (page i spans [i·h, (i+1)·h) for pages h high); -1 when the image is not there.
double imageTop(const QTextDocument& text, const QString& name)
{
    for (QTextBlock block = text.begin(); block.isValid(); block = block.next()) {
        for (auto part = block.begin(); !part.atEnd(); ++part) {
            const QTextFragment fragment = part.fragment();
            if (!fragment.charFormat().isImageFormat() || fragment.charFormat().toImageFormat().name() != name)
                continue;
            const QTextLine line = block.layout()->lineForTextPosition(fragment.position() - block.position());
            return text.documentLayout()->blockBoundingRect(block).top() + (line.isValid() ? line.y() : 0.0);
        }
    }
    return -1;
}

/// The page geometry cutPictureForPdf packs pictures into.
struct PdfPage {
    QSizeF body; ///< the text's page, CSS pixels
    int maxWidth = 0; ///< room for a picture shown whole: the body's width…
    int maxHeight = 0; ///< …and its height less the caption and spacing
};

/// The image line's descent below the picture and rounding: kept free at the foot of a page.
constexpr double kPieceSlack = 8;
/// Under the piece of a picture cut into columns: its "part i of n" line.
constexpr double kLabelRoom = 24;
/// A piece of a picture is not cut shorter than this (about 4 cm): with less room left on the
/// page the picture goes on at the top of the next one.
constexpr double kMinPieceHeight = 150;

/// A graph may be shrunk below minimumGraphScale to save a page (a column's last piece, a tail
/// of a few rows, fitted onto the pieces before it), down to this many points of text: 5 pt is
/// the fine print of a data sheet, still read on paper without a loupe; the 4.2 pt that fitting
/// stress_mlp's 1,466-px graph to the page's width gave was not.
constexpr double kSavingPagePoints = 5.0;

/// A picture cut for the PDF: its pieces, their images, and for each column of more than one
/// piece the scale that would fit it in one piece less (where its pieces before the last are).
struct PdfCut {
    std::vector<core::ReportPicturePiece> pieces;
    std::vector<QImage> images;
    std::vector<double> fewerPiecesScales;
};

/// `picture` (drawn as `image`) shown at `scale` and cut into pieces down the pages: in columns
/// when wider than the page at that scale (each overlapping its neighbour by a tenth, so that
/// an edge cut through on one is whole on the next, each labelled "part i of n"), each column
/// cut into pieces that fill the room left on their page (`probe` after the pieces so far).
PdfCut cutAtScale(core::ReportPicture& picture, const QImage& image, const PdfPage& page, double scale,
    const std::function<double()>& probe)
{
    PdfCut cut;
    const double pixelsPerCss = static_cast<double>(image.width()) / picture.width;
    const double tile = std::min<double>(picture.width, std::floor(page.maxWidth / scale));
    const double overlap = tile / 10;
    const int columns
        = tile < picture.width ? static_cast<int>(std::ceil((picture.width - overlap) / (tile - overlap))) : 1;
    const double step = columns > 1 ? (picture.width - tile) / (columns - 1) : 0;
    const double label = columns > 1 ? kLabelRoom : 0;
    const double shown = std::floor(picture.height * scale);
    const double pageHeight = page.body.height();
    // Room on a page of its own when the last one had too little left: the page less its
    // paragraph's margins (12 px above and below), the slack and the label.
    const double freshRoom = pageHeight - 2 * 12 - kPieceSlack - label;
    const int tilePixels = static_cast<int>(std::lround(tile * pixelsPerCss));
    for (int c = 0; c < columns; ++c) {
        const int x = static_cast<int>(std::lround(c * step * pixelsPerCss));
        const int width = std::min(image.width() - x, tilePixels);
        if (width <= 0)
            continue;
        const std::size_t first = cut.pieces.size();
        double filled = 0; // the rooms of the pieces before the last
        for (double done = 0; done < shown;) {
            picture.pieces = cut.pieces;
            const double top = probe();
            const double left
                = top < 0 ? freshRoom : (std::floor(top / pageHeight) + 1) * pageHeight - top - kPieceSlack - label;
            const double room = std::floor(left >= std::min(kMinPieceHeight, shown - done) ? left : freshRoom);
            const double height = std::max(1.0, std::min(room, shown - done));
            if (height < shown - done)
                filled += room;
            const int y = static_cast<int>(std::lround(done / scale * pixelsPerCss));
            const int bottom
                = std::min(image.height(), static_cast<int>(std::lround((done + height) / scale * pixelsPerCss)));
            done += height;
            if (bottom <= y)
                continue;
            core::ReportPicturePiece piece;
            piece.file
                = "picture:" + picture.id + "#" + std::to_string(c) + "." + std::to_string(cut.pieces.size() - first);
            cut.images.push_back(image.copy(x, y, width, bottom - y));
            piece.width = std::max(1, static_cast<int>(std::lround(width / pixelsPerCss * scale)));
            piece.height = static_cast<int>(height);
            // Probed with a provisional label of the same one line; the final one below.
            piece.label = columns > 1 ? std::string("part") : std::string();
            cut.pieces.push_back(std::move(piece));
        }
        const std::size_t rows = cut.pieces.size() - first;
        if (rows > 1)
            cut.fewerPiecesScales.push_back(scale * filled / shown);
        for (std::size_t r = 0; columns > 1 && r < rows; ++r)
            cut.pieces[first + r].label = "part " + std::to_string(c + 1) + " of " + std::to_string(columns) + " (x "
                + std::to_string(static_cast<int>(c * step)) + "–"
                + std::to_string(static_cast<int>(std::min<double>(c * step + tile, picture.width))) + " of "
                + std::to_string(picture.width) + " px"
                + (rows > 1 ? ", row " + std::to_string(r + 1) + " of " + std::to_string(rows) : std::string()) + ")";
    }
    picture.pieces.clear();
    return cut;
}

/// How `picture` (drawn as `image`) goes on the PDF's pages; fills picture.pieces (empty: shown
/// as one image, scaled down to fit a page by the writer) and adds their images to `images`.
/// `probe()` lays the report out up to the picture's pieces so far and tells where the next
/// piece would start (its top, in the paged layout's coordinates).
///
/// The pages are used, not left half empty: a piece that does not fit the rest of a page is
/// cut at the room left there (when at least kMinPieceHeight) and the picture goes on at the
/// top of the next page. A graph taller than a page is shown smaller to fit one page, but never
/// below minimumGraphScale (its operator names at 6 pt, the smallest readable scale); below
/// that it is cut at that scale. A graph that fits a page but not the rest of this one is cut
/// too when this page would otherwise stay less than half full. A graph too wide to read at the
/// page's width is cut into columns at the readable scale (cutAtScale). When a graph's columns
/// end in a short tail on a page of their own, it is shrunk to fit them in a piece less if its
/// text stays at kSavingPagePoints at least. Other pictures (charts) are cut only when taller
/// than one and a half pages.
void cutPictureForPdf(core::ReportPicture& picture, const QImage& image, const PdfPage& page,
    const std::function<double()>& probe, std::map<std::string, QImage>& images)
{
    picture.pieces.clear();
    if (picture.width <= 0 || picture.height <= 0 || image.isNull())
        return;
    const bool graph = picture.kind == ReportPicture::Kind::Graph;
    const double readable = minimumGraphScale();
    double scale = std::min(1.0, static_cast<double>(page.maxWidth) / picture.width);
    if (graph && scale < readable)
        scale = readable; // in columns
    const double label = picture.width * scale > page.maxWidth ? kLabelRoom : 0;
    if (graph && picture.height * scale > page.maxHeight - label)
        scale = std::min(scale, std::max(readable, (page.maxHeight - label) / picture.height));
    const double shown = std::floor(picture.height * scale);
    if (picture.width * scale <= page.maxWidth) {
        if (!graph && shown <= page.maxHeight * 1.5)
            return; // a chart a little taller than a page: the writer fits it to one
        if (graph && shown <= page.maxHeight) {
            // Fits a page: cut only when it does not fit the rest of this one and that rest is
            // more than half the page.
            const double top = probe();
            const double pageHeight = page.body.height();
            const double left = (std::floor(top / pageHeight) + 1) * pageHeight - top - kPieceSlack;
            if (top < 0 || left >= shown || left < pageHeight / 2)
                return;
        }
    }
    PdfCut cut = cutAtScale(picture, image, page, scale, probe);
    // The largest scale that saves a piece first: a column shrunk to fit its pieces moves the
    // columns after it, so each candidate is cut again and kept only if it has fewer pieces.
    std::vector<double> candidates = cut.fewerPiecesScales;
    std::sort(candidates.begin(), candidates.end(), std::greater<>());
    const double saving = minimumGraphScale(kSavingPagePoints);
    for (const double candidate : candidates) {
        if (!graph || candidate < saving || candidate >= scale)
            continue;
        // Slightly under the exact fit: the pieces' heights are whole pixels.
        PdfCut smaller = cutAtScale(picture, image, page, candidate * 0.995, probe);
        if (smaller.pieces.size() < cut.pieces.size()) {
            cut = std::move(smaller);
            break;
        }
    }
    for (std::size_t i = 0; i < cut.pieces.size(); ++i)
        images[cut.pieces[i].file] = cut.images[i];
    picture.pieces = std::move(cut.pieces);
}

/// The PDF of a report whose pictures are drawn (as PNG, in `drawings`).
QByteArray pdfBytes(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const ReportDrawings& drawings, const std::function<QImage(const ReportPicture&)>& paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setResolution(96); // one CSS pixel = one device pixel, as the HTML sizes assume
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(14, 12, 14, 12), QPageLayout::Millimeter);
    writer.setTitle(QString::fromStdString(report.title));
    writer.setCreator(QStringLiteral("ETScope"));

    const QRect page = writer.pageLayout().paintRectPixels(writer.resolution());
    constexpr int kHeader = 28;
    constexpr int kFooter = 24;
    PdfPage geometry;
    geometry.body = QSizeF(page.width(), page.height() - kHeader - kFooter);
    // Room for a picture on a page: the body less its caption and spacing.
    geometry.maxWidth = static_cast<int>(geometry.body.width());
    geometry.maxHeight = static_cast<int>(geometry.body.height()) - 60;
    const QSizeF body = geometry.body;

    core::HtmlOptions options;
    options.richText = true;
    options.pictureMaxWidth = geometry.maxWidth;
    options.pictureMaxHeight = geometry.maxHeight;
    std::map<std::string, QImage> images;
    // The probe: a 1-px image put where a picture's next piece would go, the report laid out up
    // to it (the text after it left out: it cannot move what comes before).
    const std::string probeName = "picture:probe";
    images[probeName] = QImage(1, 1, QImage::Format_RGB32);
    images[probeName].fill(Qt::white);
    for (core::ReportPicture& picture : report.pictures) {
        QImage image;
        if (const auto vector = drawings.vector.find(picture.id); vector != drawings.vector.end()) {
            image = paint(picture);
        } else if (const auto bitmap = drawings.bitmaps.find(picture.id); bitmap != drawings.bitmaps.end()) {
            image = bitmap->second;
        } else if (const auto drawn = drawings.png.find(picture.id); drawn != drawings.png.end()) {
            image.loadFromData(drawn->second, "PNG");
        } else {
            continue;
        }
        picture.file = "picture:" + picture.id;
        images[picture.file] = image;
        const auto probe = [&]() -> double {
            picture.pieces.push_back({ probeName, 1, 1, {} });
            std::string html = core::reportHtml(report, options);
            picture.pieces.pop_back();
            if (const auto at = html.find("src=\"" + probeName + "\""); at != std::string::npos)
                if (const auto end = html.find("</p>", at); end != std::string::npos)
                    html.resize(end + 4);
            QTextDocument text;
            setUpPdfText(text, &writer, body, images, html);
            return imageTop(text, QString::fromStdString(probeName));
        };
        cutPictureForPdf(picture, image, geometry, probe, images);
        if (!picture.pieces.empty())
            images.erase(picture.file); // only its pieces are shown
    }
    images.erase(probeName);

    QTextDocument text;
    setUpPdfText(text, &writer, body, images, core::reportHtml(report, options));

    const int pages = text.pageCount();
    QPainter painter(&writer);
    QFont small = pdfFont();
    small.setPointSizeF(7.5);
    const QString title = QString::fromStdString(report.title);
    for (int index = 0; index < pages; ++index) {
        if (index > 0)
            writer.newPage();
        // Header: the report's title, a rule under it; footer: the file and "page N of M".
        painter.setFont(small);
        painter.setPen(QColor(0x59, 0x63, 0x6e));
        painter.drawText(QRect(0, 0, page.width(), kHeader - 8), Qt::AlignLeft | Qt::AlignVCenter, title);
        painter.drawText(QRect(0, 0, page.width(), kHeader - 8), Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("etscope report"));
        painter.drawLine(0, kHeader - 6, page.width(), kHeader - 6);
        const int footerTop = page.height() - kFooter + 6;
        painter.drawLine(0, footerTop, page.width(), footerTop);
        painter.drawText(QRect(0, footerTop + 2, page.width(), kFooter - 8), Qt::AlignLeft | Qt::AlignVCenter,
            QFileInfo(QString::fromStdString(document->path)).fileName());
        painter.drawText(QRect(0, footerTop + 2, page.width(), kFooter - 8), Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("Page %1 of %2").arg(index + 1).arg(pages));
        painter.save();
        painter.translate(0, kHeader);
        painter.setClipRect(QRectF(QPointF(0, 0), body));
        painter.translate(0, -index * body.height());
        text.drawContents(&painter, QRectF(QPointF(0, index * body.height()), body));
        painter.restore();
    }
    painter.end();
    return bytes;
}

} // namespace

QByteArray reportPdf(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const std::function<void(const QString&)>& progress)
{
    ReportDrawings drawings;
    drawings.format = "pdf";
    for (std::size_t index = 0; index < report.pictures.size(); ++index) {
        if (progress)
            progress(QString::fromStdString(report.pictures[index].id));
        drawReportPictureFor(report, index, document, drawings);
    }
    return pdfBytes(report, document, drawings,
        [&drawings](const ReportPicture& picture) { return rasterise(drawings.vector.at(picture.id)); });
}

std::shared_ptr<Presentation> presentReportGraph(
    const core::Report& report, std::size_t index, const std::shared_ptr<const core::Document>& document)
{
    if (index >= report.pictures.size() || report.pictures[index].kind != ReportPicture::Kind::Graph)
        return nullptr;
    return presentGraph(report.pictures[index], document);
}

void drawReportPictureFor(core::Report& report, std::size_t index,
    const std::shared_ptr<const core::Document>& document, ReportDrawings& drawings,
    std::shared_ptr<Presentation> laidOut)
{
    if (index >= report.pictures.size())
        return;
    core::ReportPicture& picture = report.pictures[index];
    PictureFormat used = formatOf(report, picture, drawings.format == "html" ? PictureFormat::Svg : PictureFormat::Png);
    // A graph's bitmap (Markdown, PDF, and HTML's graph too detailed for SVG) is painted later,
    // and a chart's PNG encoded later, by finishReport (a worker in the app).
    DrawnPicture drawn;
    switch (picture.kind) {
    case ReportPicture::Kind::Graph:
        drawn = drawGraph(picture, document, used, std::move(laidOut), true);
        break;
    case ReportPicture::Kind::MemoryArena:
        drawn = drawMemory(report, picture, used, true);
        break;
    case ReportPicture::Kind::SizeTreemap:
        drawn = drawTreemap(report, picture, used, true);
        break;
    case ReportPicture::Kind::Timeline:
        drawn = drawTimeline(report, picture, used, true);
        break;
    }
    if (drawn.png)
        used = PictureFormat::Png;
    if (!drawn.error.isEmpty() || (drawn.bytes.isEmpty() && drawn.bitmap.isNull())) {
        picture.failed = drawn.error.isEmpty() ? std::string("nothing was drawn") : drawn.error.toStdString();
        return;
    }
    picture.width = drawn.size.width();
    picture.height = drawn.size.height();
    if (drawn.rasterScale > 0)
        drawings.vector[picture.id] = { drawn.bytes, drawn.rasterScale };
    else if (!drawn.bitmap.isNull())
        drawings.bitmaps[picture.id] = drawn.bitmap;
    else if (drawings.format == "html")
        picture.svg = used == PictureFormat::Svg
            ? drawn.bytes.toStdString()
            : inlinePng(drawn, QString::fromStdString(picture.caption)).toStdString();
    else
        drawings.png[picture.id] = drawn.bytes;
}

std::optional<QString> finishReport(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const QString& path, const ReportDrawings& drawings, std::vector<QString>* written, const std::atomic<bool>* cancel,
    const std::function<void(const QString&, int, int)>& progress)
{
    // Checked before each file is written: a cancelled export writes nothing after it.
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    const std::string format = core::reportFormatFor(path.toStdString());
    if (format.empty() || format != drawings.format)
        return QStringLiteral("%1: unknown report format (use .html, .md or .pdf)").arg(path);
    const QString why = QStringLiteral("%1: not written, the export was cancelled").arg(path);
    // The deferred graphs' bitmaps, each told before it is painted; none once cancelled.
    int painted = 0;
    const int toPaint = static_cast<int>(drawings.vector.size());
    const auto paint = [&](const ReportPicture& picture) -> QImage {
        if (cancelled())
            return {};
        if (progress)
            progress(QString::fromStdString(picture.caption), painted, toPaint);
        ++painted;
        return rasterise(drawings.vector.at(picture.id));
    };
    if (format == "html") {
        // A graph too detailed for SVG (drawGraph kept its SVG and the scale): inline as PNG.
        for (core::ReportPicture& picture : report.pictures) {
            if (const auto bitmap = drawings.bitmaps.find(picture.id); bitmap != drawings.bitmaps.end()) {
                if (cancelled())
                    return why;
                picture.svg = inlinePng({ pngBytes(bitmap->second), QSize(picture.width, picture.height) },
                    QString::fromStdString(picture.caption))
                                  .toStdString();
            }
            if (!drawings.vector.count(picture.id))
                continue;
            const QImage image = paint(picture);
            if (cancelled())
                return why;
            if (image.isNull()) {
                picture.failed = "the graph's bitmap could not be painted";
                continue;
            }
            picture.svg = inlinePng(
                { pngBytes(image), QSize(picture.width, picture.height) }, QString::fromStdString(picture.caption))
                              .toStdString();
        }
        const QByteArray html = QByteArray::fromStdString(core::reportHtml(report));
        return cancelled() ? std::optional(why) : writeBytes(path, html, written);
    }
    if (format == "md") {
        const QFileInfo info(path);
        std::optional<QString> failure;
        for (core::ReportPicture& picture : report.pictures) {
            QByteArray png;
            if (drawings.vector.count(picture.id)) {
                png = pngBytes(paint(picture));
                if (cancelled())
                    return why;
            } else if (const auto bitmap = drawings.bitmaps.find(picture.id); bitmap != drawings.bitmaps.end()) {
                png = pngBytes(bitmap->second);
            } else if (const auto drawn = drawings.png.find(picture.id); drawn != drawings.png.end()) {
                png = drawn->second;
            } else {
                continue;
            }
            const QString name = info.completeBaseName() + QLatin1Char('-') + QString::fromStdString(picture.id)
                + QStringLiteral(".png");
            if (cancelled())
                return why;
            if (auto error = writeBytes(info.dir().filePath(name), png, written)) {
                picture.failed = error->toStdString();
                if (!failure)
                    failure = error;
                continue;
            }
            picture.file = name.toStdString();
        }
        if (failure)
            return failure;
        const QByteArray markdown = QByteArray::fromStdString(core::reportMarkdown(report));
        return cancelled() ? std::optional(why) : writeBytes(path, markdown, written);
    }
    const QByteArray pdf = pdfBytes(report, document, drawings, paint);
    return cancelled() ? std::optional(why) : writeBytes(path, pdf, written);
}

std::optional<QString> writeReport(core::Report& report, const std::shared_ptr<const core::Document>& document,
    const QString& path, std::vector<QString>* written, const std::function<void(const QString&)>& progress)
{
    ReportDrawings drawings;
    drawings.format = core::reportFormatFor(path.toStdString());
    if (drawings.format.empty())
        return QStringLiteral("%1: unknown report format (use .html, .md or .pdf)").arg(path);
    for (std::size_t index = 0; index < report.pictures.size(); ++index) {
        if (progress)
            progress(QString::fromStdString(report.pictures[index].id));
        drawReportPictureFor(report, index, document, drawings);
    }
    return finishReport(report, document, path, drawings, written);
}

} // namespace etscope::ui
