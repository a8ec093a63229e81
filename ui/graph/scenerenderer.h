// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QColor>
#include <QString>
#include <QVector>

#include <optional>
#include <utility>

class QGraphicsItem;
class QGraphicsScene;

namespace etscope::ui {

enum class ImageFormat { Png, Svg, Pdf };

/// Set on a scene while renderScene paints it: items leave out their on-screen controls.
inline constexpr const char* kReportRenderingProperty = "etscopeReportRendering";

/// True while `item`'s scene is being rendered into a report picture.
bool isReportRendering(const QGraphicsItem& item);

struct RenderOptions {
    QString title; ///< printed above the graph (file and method)
    QVector<std::pair<QString, QColor>> legend; ///< backend colours shown under the title
    double pngScale = 2.0; ///< device pixels per scene unit for PNG (reduced for huge graphs)
};

struct Presentation;

/// The options a report picture of `presentation` gets everywhere (GUI and CLI): a title with the
/// file and graph name, and the colours of the backends present.
RenderOptions reportOptions(const Presentation& presentation, const QString& fileName);

/// The format implied by a file name's extension (.png, .svg, .pdf), nullopt otherwise.
std::optional<ImageFormat> imageFormatFor(const QString& path);

/// Renders the whole scene — exactly what the GUI draws — into PNG, SVG or PDF bytes.
/// Needs a QGuiApplication (the offscreen platform is enough).
QByteArray renderScene(QGraphicsScene& scene, ImageFormat format, const RenderOptions& options);

/// renderScene + an atomic write of `path`. Errors name the file and the reason.
std::optional<core::Error> exportScene(QGraphicsScene& scene, const QString& path, const RenderOptions& options);

} // namespace etscope::ui
