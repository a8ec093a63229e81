// SPDX-License-Identifier: MIT
#include "ui/common/exports.h"

#include "core/util/atomicfile.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/scenerenderer.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

namespace etscope::ui {

std::optional<QString> exportGraphImage(GraphScene& scene, const QString& sourcePath, const QString& path)
{
    const auto presentation = scene.presentation();
    if (!presentation)
        return QObject::tr("Nothing to export yet: the layout is still running.");
    const RenderOptions options = reportOptions(*presentation, QFileInfo(sourcePath).fileName());
    if (auto failure = exportScene(scene, path, options))
        return QString::fromStdString(failure->message());
    return std::nullopt;
}

std::optional<QString> exportTableFile(const core::Table& table, core::TableFormat format, const QString& path)
{
    if (auto failure = core::writeFileAtomically(path.toStdString(), core::renderTable(table, format)))
        return QString::fromStdString(failure->message());
    return std::nullopt;
}

std::optional<QString> exportBytes(const QString& path, const QByteArray& bytes)
{
    if (auto failure = core::writeFileAtomically(
            path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))))
        return QString::fromStdString(failure->message());
    return std::nullopt;
}

std::optional<QString> exportPainting(
    const QString& path, const QSize& size, const QString& title, const std::function<void(QPainter&)>& paint)
{
    const auto format = imageFormatFor(path);
    if (!format || *format == ImageFormat::Pdf)
        return QObject::tr("%1: this picture exports as .png or .svg").arg(path);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (*format == ImageFormat::Png) {
        QImage image(size, QImage::Format_ARGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            paint(painter);
        }
        if (!image.save(&buffer, "PNG"))
            return QObject::tr("%1: the PNG could not be encoded").arg(path);
    } else {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title);
        QPainter painter(&generator);
        paint(painter);
    }
    return exportBytes(path, bytes);
}

bool succeeded(const std::optional<QString>& failure, QString* error)
{
    if (failure && error)
        *error = *failure;
    return !failure;
}

QString graphImageBaseName(const QString& sourcePath, const QString& graphTitle)
{
    QString graph = graphTitle;
    graph.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    if (graph.isEmpty())
        graph = QStringLiteral("graph");
    return QFileInfo(sourcePath).completeBaseName() + QLatin1Char('-') + graph;
}

QString saveWithDialog(QWidget* parent, const QString& caption, const QString& suggested, const QString& filters,
    const std::function<std::optional<QString>(const QString& path)>& write)
{
    const QString path = QFileDialog::getSaveFileName(parent, caption, suggested, filters);
    if (path.isEmpty())
        return {};
    if (const auto error = write(path)) {
        QMessageBox::critical(parent, QObject::tr("Export failed"), *error);
        return {};
    }
    return path;
}

QString saveWithDialog(QWidget* parent, const QString& caption, const QString& suggested, const QString& filters,
    const std::function<bool(const QString& path, QString* error)>& exportTo)
{
    return saveWithDialog(
        parent, caption, suggested, filters, [&exportTo](const QString& path) -> std::optional<QString> {
            QString error;
            if (exportTo(path, &error))
                return std::nullopt;
            return error;
        });
}

} // namespace etscope::ui
