// SPDX-License-Identifier: MIT
#include "ui/graph/scenerenderer.h"

#include "core/util/atomicfile.h"
#include "ui/common/nodestyle.h"
#include "ui/graph/presentation.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>
#include <map>

namespace etscope::ui {

namespace {

constexpr double kMaxPngSide = 16000;
constexpr double kHeaderHeight = 44;

bool hasHeader(const RenderOptions& options)
{
    return !options.title.isEmpty() || !options.legend.isEmpty();
}

QSizeF pageSize(const QGraphicsScene& scene, const RenderOptions& options)
{
    const QRectF rect = scene.sceneRect();
    return QSizeF(std::max(rect.width(), 400.0), rect.height() + (hasHeader(options) ? kHeaderHeight : 0));
}

// Everything in scene units: the header band, then the scene.
void paint(QPainter& painter, QGraphicsScene& scene, const RenderOptions& options)
{
    const QSizeF size = pageSize(scene, options);
    painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    double top = 0;
    if (hasHeader(options)) {
        painter.setPen(QColor(0x1f, 0x23, 0x28));
        painter.setFont(titleFont());
        painter.drawText(QRectF(10, 4, size.width() - 20, 18), Qt::AlignLeft | Qt::AlignVCenter, options.title);
        double x = 10;
        QFont font = subtitleFont();
        painter.setFont(font);
        const QFontMetricsF metrics(font);
        for (const auto& [name, colour] : options.legend) {
            painter.setPen(colour.darker(130));
            painter.setBrush(colour);
            painter.drawRect(QRectF(x, 27, 10, 10));
            painter.setPen(QColor(0x1f, 0x23, 0x28));
            painter.drawText(QPointF(x + 14, 36), name);
            x += 14 + metrics.horizontalAdvance(name) + 16;
        }
        top = kHeaderHeight;
    }
    const QRectF source = scene.sceneRect();
    scene.render(&painter, QRectF(0, top, source.width(), source.height()), source, Qt::KeepAspectRatio);
}

} // namespace

RenderOptions reportOptions(const Presentation& presentation, const QString& fileName)
{
    RenderOptions options;
    options.title = QStringLiteral("%1 — %2").arg(fileName, contextTitle(*presentation.document, presentation.context));
    std::map<QString, QColor> backends;
    for (const core::Node& node : presentation.methodGraph().nodes)
        if (node.kind == core::NodeKind::Delegate)
            backends[QString::fromStdString(node.label)] = backendColour(QString::fromStdString(node.label));
    for (const auto& [name, colour] : backends)
        options.legend.push_back({ name, colour });
    return options;
}

std::optional<ImageFormat> imageFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ImageFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ImageFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ImageFormat::Pdf;
    return std::nullopt;
}

QByteArray renderScene(QGraphicsScene& scene, ImageFormat format, const RenderOptions& options)
{
    // Selection and hover marks are screen state, not part of a report picture.
    const QList<QGraphicsItem*> selected = scene.selectedItems();
    scene.clearSelection();
    // So are the expand/collapse buttons (items read this while they paint).
    scene.setProperty(kReportRenderingProperty, true);
    const QSizeF size = pageSize(scene, options);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    switch (format) {
    case ImageFormat::Png: {
        const double scale = std::min({ options.pngScale, kMaxPngSide / size.width(), kMaxPngSide / size.height() });
        QImage image((size * scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHints(
                QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
            painter.scale(scale, scale);
            paint(painter, scene, options);
        }
        image.save(&buffer, "PNG");
        break;
    }
    case ImageFormat::Svg: {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size.toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), size));
        generator.setTitle(options.title.isEmpty() ? QStringLiteral("ETScope graph") : options.title);
        generator.setDescription(QStringLiteral("Exported by ETScope"));
        QPainter painter(&generator);
        paint(painter, scene, options);
        break;
    }
    case ImageFormat::Pdf: {
        QPdfWriter writer(&buffer);
        writer.setResolution(72); // one scene unit = one point
        writer.setPageSize(QPageSize(size, QPageSize::Point, QStringLiteral("graph"), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(options.title);
        writer.setCreator(QStringLiteral("ETScope"));
        QPainter painter(&writer);
        paint(painter, scene, options);
        break;
    }
    }
    scene.setProperty(kReportRenderingProperty, false);
    for (QGraphicsItem* item : selected)
        item->setSelected(true);
    return bytes;
}

bool isReportRendering(const QGraphicsItem& item)
{
    return item.scene() && item.scene()->property(kReportRenderingProperty).toBool();
}

std::optional<core::Error> exportScene(QGraphicsScene& scene, const QString& path, const RenderOptions& options)
{
    const auto format = imageFormatFor(path);
    if (!format)
        return core::makeError(
            core::Error::Code::Usage, path.toStdString(), "unknown picture format (use .png, .svg or .pdf)");
    const QByteArray bytes = renderScene(scene, *format, options);
    if (bytes.isEmpty())
        return core::makeError(core::Error::Code::Io, path.toStdString(), "the picture could not be rendered");
    return core::writeFileAtomically(
        path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace etscope::ui
