// SPDX-License-Identifier: MIT
#include "ui/stageplot/stageplot.h"

#include "ui/common/axisticks.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPainterPath>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>
#include <limits>

namespace etscope::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

} // namespace

QColor stageLineColour(std::size_t index)
{
    // Okabe–Ito's colour-blind-safe set, minus its yellow (poor on white).
    static const QColor colours[] = { QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115),
        QColor(204, 121, 167), QColor(86, 180, 233), QColor(230, 159, 0), QColor(0, 0, 0) };
    return colours[index % (sizeof colours / sizeof colours[0])];
}

StagePlotData stagePlotData(const core::StageGapReport& report, core::GapMetric metric)
{
    using core::GapMetric;
    StagePlotData data;
    const QString name = QString::fromUtf8(core::gapMetricName(metric).data());
    data.logAxis = metric == GapMetric::Mse || metric == GapMetric::L1 || metric == GapMetric::MaxAbs;
    data.axisLabel = metric == GapMetric::Snr ? QStringLiteral("snr (dB, higher is closer)")
        : metric == GapMetric::Cosine         ? QStringLiteral("cosine similarity")
                                              : name + QStringLiteral(" (log scale, lower is closer)");
    data.title = name + QStringLiteral(" against stage 0 (")
        + QString::fromStdString(report.names.empty() ? std::string() : report.names[0])
        + QStringLiteral(") along its execution order, method '") + QString::fromStdString(report.method)
        + QStringLiteral("'");
    for (const core::StageRow& row : report.rows)
        data.rowLabels.push_back(QString::fromStdString(row.label)
            + (row.outputIndex > 0 ? QStringLiteral(" [%1]").arg(row.outputIndex) : QString()));

    // Raw values, then the clamps.
    double finiteMax = -std::numeric_limits<double>::infinity();
    double finiteMin = std::numeric_limits<double>::infinity();
    double positiveMin = std::numeric_limits<double>::infinity();
    for (std::size_t s = 1; s < report.names.size(); ++s) {
        data.names.push_back(QString::fromStdString(report.names[s]));
        data.firstDivergence.push_back(
            s < report.summaries.size() ? report.summaries[s].firstDivergence : std::nullopt);
        std::vector<double> line;
        for (const core::StageRow& row : report.rows) {
            const core::StageCell* cell = s < row.cells.size() ? &row.cells[s] : nullptr;
            const double v = cell && cell->metrics ? cell->metrics->value(metric) : kNaN;
            line.push_back(v);
            if (std::isfinite(v)) {
                finiteMax = std::max(finiteMax, v);
                finiteMin = std::min(finiteMin, v);
                if (v > 0)
                    positiveMin = std::min(positiveMin, v);
            }
        }
        data.values.push_back(std::move(line));
    }
    const bool anyFinite = std::isfinite(finiteMax);
    if (data.logAxis) {
        const double floor
            = std::isfinite(positiveMin) ? std::pow(10.0, std::floor(std::log10(positiveMin)) - 1) : 1e-12;
        bool clamped = false;
        double top = std::isfinite(finiteMax) && finiteMax > 0 ? finiteMax : floor * 10;
        for (auto& line : data.values)
            for (double& v : line) {
                if (std::isnan(v))
                    continue;
                if (v <= 0) {
                    v = floor;
                    clamped = true;
                } else if (std::isinf(v)) {
                    v = top * 10;
                    data.ceiling = v;
                }
                v = std::log10(v);
            }
        if (clamped) {
            data.floor = floor;
            data.clampNote = QStringLiteral("0 (identical) drawn at ") + number(floor);
        }
        data.low = std::log10(floor);
        data.high = std::log10(data.ceiling.value_or(top));
    } else {
        double ceiling = metric == GapMetric::Snr
            ? std::max(60.0, std::ceil(((anyFinite ? finiteMax : 50.0) + 10.0) / 10.0) * 10.0)
            : (anyFinite ? finiteMax : 1.0);
        double floor = anyFinite ? std::min(finiteMin, metric == GapMetric::Snr ? 0.0 : finiteMin) : 0.0;
        if (metric == GapMetric::Cosine) {
            ceiling = 1.0;
            floor = anyFinite ? std::min(finiteMin, 0.9) : 0.0;
        }
        bool up = false;
        bool down = false;
        for (auto& line : data.values)
            for (double& v : line) {
                if (std::isinf(v)) {
                    (v > 0 ? up : down) = true;
                    v = v > 0 ? ceiling : floor;
                }
            }
        if (up) {
            data.ceiling = ceiling;
            data.clampNote = metric == GapMetric::Snr ? QStringLiteral("∞ dB (identical) drawn at %1 dB").arg(ceiling)
                                                      : QStringLiteral("+∞ drawn at ") + number(ceiling);
        }
        if (down) {
            data.floor = floor;
            data.clampNote += (data.clampNote.isEmpty() ? QString() : QStringLiteral("; "))
                + QStringLiteral("−∞ drawn at ") + number(floor);
        }
        data.low = floor;
        data.high = ceiling;
    }
    // The threshold the first divergences were found with, when it is on this metric and within
    // reach of the axis (a dashed line).
    for (const core::DivergenceThreshold& t : report.thresholds) {
        if (t.metric != core::gapMetricName(metric) || !std::isfinite(t.value) || (data.logAxis && t.value <= 0))
            continue;
        const double v = data.logAxis ? std::log10(t.value) : t.value;
        data.threshold = v;
        data.thresholdNote = QStringLiteral("dotted: threshold ") + name
            + (core::gapHigherIsWorse(metric) ? QStringLiteral(" > ") : QStringLiteral(" < ")) + number(t.value)
            + (metric == GapMetric::Snr ? QStringLiteral(" dB") : QString());
        data.low = std::min(data.low, v);
        data.high = std::max(data.high, v);
        break;
    }
    if (!(data.high > data.low)) {
        data.low -= 1;
        data.high += 1;
    }
    return data;
}

void paintStagePlot(QPainter& painter, const QRectF& area, const StagePlotData& data)
{
    painter.save();
    painter.fillRect(area, Qt::white);
    QFont font = painter.font();
    font.setPixelSize(12);
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const std::size_t rows = data.rowLabels.size();
    const bool labelEveryRow = rows > 0 && rows <= 40;
    double labelDepth = metrics.height() + 8;
    if (labelEveryRow) {
        double widest = 0;
        for (const QString& label : data.rowLabels)
            widest = std::max(widest, metrics.horizontalAdvance(metrics.elidedText(label, Qt::ElideRight, 160)));
        labelDepth = widest * 0.7072 + metrics.height() + 8;
    }
    const double legendWidth = [&] {
        double w = std::max(metrics.horizontalAdvance(data.clampNote), metrics.horizontalAdvance(data.thresholdNote));
        for (const QString& name : data.names)
            w = std::max(w, metrics.horizontalAdvance(name) + 28);
        return std::min(w + 24, area.width() * 0.35);
    }();
    double widestLabel = 0; // the first row's label leans left of the plot
    if (labelEveryRow)
        widestLabel = metrics.horizontalAdvance(metrics.elidedText(data.rowLabels.front(), Qt::ElideRight, 160));
    const double left = std::max(70.0, widestLabel * 0.7072 + 12);
    const QRectF plot(area.left() + left, area.top() + 36, area.width() - left - legendWidth - 16,
        area.height() - 36 - labelDepth - metrics.height() - 12);
    painter.setPen(Qt::black);
    painter.drawText(QRectF(area.left() + 8, area.top() + 6, area.width() - 16, 24), Qt::AlignLeft | Qt::AlignVCenter,
        metrics.elidedText(data.title, Qt::ElideRight, area.width() - 16));
    if (plot.width() < 20 || plot.height() < 20) {
        painter.restore();
        return;
    }
    const auto xOf = [&](std::size_t row) {
        return rows <= 1 ? plot.center().x() : plot.left() + plot.width() * double(row) / double(rows - 1);
    };
    // The value axis: from a tick below the lowest value to a tick above the highest, and a
    // margin so points on the extremes stay off the frame.
    // (A log axis ticks whole decades.)
    const double step = data.logAxis ? std::max(1.0, std::ceil((data.high - data.low) / 6.0))
                                     : niceStep((data.high - data.low) / 6.0);
    const double low = std::floor(data.low / step + 1e-9) * step;
    const double high = std::ceil(data.high / step - 1e-9) * step;
    const double pad = (high - low) * 0.04;
    const auto yOf = [&](double v) { return plot.bottom() - plot.height() * (v - low + pad) / (high - low + 2 * pad); };

    // Value ticks and grid.
    QPen grid(QColor(225, 225, 225));
    grid.setCosmetic(true);
    for (double v = low; v <= high + step * 1e-9; v += step) {
        const double y = yOf(v);
        painter.setPen(grid);
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(Qt::black);
        const QString text
            = data.logAxis ? QStringLiteral("1e%1").arg(std::lround(v)) : number(std::abs(v) < step * 1e-9 ? 0.0 : v);
        painter.drawText(QRectF(area.left(), y - 10, 64, 20), Qt::AlignRight | Qt::AlignVCenter, text);
    }
    if (data.threshold) {
        QPen dotted(QColor(120, 120, 120), 1.5, Qt::DotLine);
        painter.setPen(dotted);
        painter.drawLine(QPointF(plot.left(), yOf(*data.threshold)), QPointF(plot.right(), yOf(*data.threshold)));
    }
    // Row ticks: every row's node when there are few, else row numbers.
    painter.setPen(Qt::black);
    if (labelEveryRow) {
        for (std::size_t r = 0; r < rows; ++r) {
            const double x = xOf(r);
            painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
            painter.save();
            painter.translate(x, plot.bottom() + 8);
            painter.rotate(-45);
            const QString text = metrics.elidedText(data.rowLabels[r], Qt::ElideRight, 160);
            painter.drawText(QRectF(-metrics.horizontalAdvance(text) - 2, -metrics.height() / 2,
                                 metrics.horizontalAdvance(text) + 2, metrics.height()),
                Qt::AlignRight | Qt::AlignVCenter, text);
            painter.restore();
        }
    } else if (rows > 1) {
        const double rowStep = std::max(1.0, niceStep(double(rows) / 10.0));
        for (double r = 0; r < double(rows); r += rowStep) {
            const double x = xOf(static_cast<std::size_t>(r));
            painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
            painter.drawText(QRectF(x - 40, plot.bottom() + 6, 80, metrics.height()), Qt::AlignHCenter,
                QString::number(static_cast<long long>(r)));
        }
    }
    painter.drawText(QRectF(plot.left(), area.bottom() - metrics.height() - 6, plot.width(), metrics.height()),
        Qt::AlignHCenter, QStringLiteral("stage 0's logged outputs, in execution order (row)"));
    painter.save();
    painter.translate(area.left() + 12, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, -8, plot.height(), 16), Qt::AlignCenter, data.axisLabel);
    painter.restore();
    painter.setPen(QPen(Qt::black, 1));
    painter.drawRect(plot);

    // The lines (broken where a stage has no value), their points, and first-divergence marks.
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t line = 0; line < data.values.size(); ++line) {
        const QColor colour = stageLineColour(line);
        const std::vector<double>& values = data.values[line];
        if (line < data.firstDivergence.size() && data.firstDivergence[line] && *data.firstDivergence[line] < rows) {
            QPen mark(colour, 1.5, Qt::DashLine);
            painter.setPen(mark);
            const double x = xOf(*data.firstDivergence[line]);
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
        QPainterPath path;
        bool open = false;
        for (std::size_t r = 0; r < values.size() && r < rows; ++r) {
            if (std::isnan(values[r])) {
                open = false;
                continue;
            }
            const QPointF p(xOf(r), yOf(values[r]));
            if (open)
                path.lineTo(p);
            else
                path.moveTo(p);
            open = true;
        }
        // Earlier lines wider, so a later line drawn over one with the same values leaves it
        // showing on both sides.
        const double width = 2.5 + 2.0 * double(data.values.size() - 1 - line);
        painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        painter.setBrush(colour);
        painter.setPen(Qt::NoPen);
        // Points on every row when they fit; else only where a point has no line to either side.
        const auto isolated = [&](std::size_t r) {
            return (r == 0 || std::isnan(values[r - 1])) && (r + 1 >= values.size() || std::isnan(values[r + 1]));
        };
        for (std::size_t r = 0; r < values.size() && r < rows; ++r)
            if (!std::isnan(values[r]) && (rows <= 60 || isolated(r)))
                painter.drawEllipse(QPointF(xOf(r), yOf(values[r])), width / 2 + 1.5, width / 2 + 1.5);
    }
    painter.setRenderHint(QPainter::Antialiasing, false);

    // Legend, right of the plot.
    double y = plot.top();
    const double x = plot.right() + 16;
    for (std::size_t line = 0; line < data.names.size(); ++line) {
        const double width = 2.5 + 2.0 * double(data.names.size() - 1 - line); // as the line is drawn
        painter.fillRect(QRectF(x, y + (metrics.height() - width) / 2, 20, width), stageLineColour(line));
        painter.setPen(Qt::black);
        painter.drawText(QRectF(x + 26, y, legendWidth - 26, metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(data.names[line], Qt::ElideMiddle, legendWidth - 26));
        y += metrics.height() + 6;
    }
    painter.setPen(QColor(90, 90, 90));
    y += 4;
    if (!data.clampNote.isEmpty()) {
        const QRectF box(x, y, legendWidth, metrics.height() * 3);
        painter.drawText(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, data.clampNote);
        y += painter.boundingRect(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, data.clampNote).height() + 6;
    }
    if (!data.thresholdNote.isEmpty()) {
        painter.drawText(QRectF(x, y, legendWidth, metrics.height()), Qt::AlignLeft | Qt::AlignTop, data.thresholdNote);
        y += metrics.height() + 6;
    }
    bool anyMark = false;
    for (const auto& d : data.firstDivergence)
        anyMark = anyMark || d.has_value();
    if (anyMark) {
        const QString text = QStringLiteral("dashed: first divergence");
        painter.drawText(
            QRectF(x, y, legendWidth, metrics.height() * 2), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    }
    painter.restore();
}

std::optional<QString> writeStagePlot(const StagePlotData& data, const QString& path)
{
    const QSizeF size(1000, 560);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size.toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), size));
        generator.setTitle(data.title);
        generator.setDescription(QStringLiteral("Exported by ETScope (etscope gap --stage)"));
        QPainter painter(&generator);
        paintStagePlot(painter, QRectF(QPointF(0, 0), size), data);
    } else {
        const qreal scale = 2;
        QImage image((size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::TextAntialiasing, true);
            painter.scale(scale, scale);
            paintStagePlot(painter, QRectF(QPointF(0, 0), size), data);
        }
        if (!image.save(&buffer, "PNG"))
            return path + QStringLiteral(": the PNG could not be encoded");
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return path + QStringLiteral(": cannot write: ") + file.errorString();
    return std::nullopt;
}

} // namespace etscope::ui
