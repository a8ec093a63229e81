// SPDX-License-Identifier: MIT
#include "ui/stageplot/stageplot.h"

#include "ui/common/axisticks.h"
#include "ui/common/exports.h"

#include <QBuffer>
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

namespace {

// The finite extremes among the raw values.
struct ValueRange {
    double finiteMax = -std::numeric_limits<double>::infinity();
    double finiteMin = std::numeric_limits<double>::infinity();
    double positiveMin = std::numeric_limits<double>::infinity();
};

// The title, the value axis's label and one label per row (with the output index past the first).
void labelStagePlot(StagePlotData& data, const core::StageGapReport& report, core::GapMetric metric)
{
    using core::GapMetric;
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
}

// Each later stage's name, first divergence and raw values (NaN where it has none); their extremes.
ValueRange collectStageValues(StagePlotData& data, const core::StageGapReport& report, core::GapMetric metric)
{
    ValueRange range;
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
                range.finiteMax = std::max(range.finiteMax, v);
                range.finiteMin = std::min(range.finiteMin, v);
                if (v > 0)
                    range.positiveMin = std::min(range.positiveMin, v);
            }
        }
        data.values.push_back(std::move(line));
    }
    return range;
}

// A log axis: zeros drawn a decade below the smallest positive value, +∞ a decade above the largest;
// then every value as its log10.
void clampToLogAxis(StagePlotData& data, const ValueRange& range)
{
    const double floor
        = std::isfinite(range.positiveMin) ? std::pow(10.0, std::floor(std::log10(range.positiveMin)) - 1) : 1e-12;
    bool clamped = false;
    double top = std::isfinite(range.finiteMax) && range.finiteMax > 0 ? range.finiteMax : floor * 10;
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
}

// A linear axis: ±∞ drawn at a ceiling and floor chosen per metric (SNR's ∞ dB above its largest
// finite value, cosine up to 1).
void clampToLinearAxis(StagePlotData& data, const ValueRange& range, core::GapMetric metric)
{
    using core::GapMetric;
    const bool anyFinite = std::isfinite(range.finiteMax);
    double ceiling = metric == GapMetric::Snr
        ? std::max(60.0, std::ceil(((anyFinite ? range.finiteMax : 50.0) + 10.0) / 10.0) * 10.0)
        : (anyFinite ? range.finiteMax : 1.0);
    double floor = anyFinite ? std::min(range.finiteMin, metric == GapMetric::Snr ? 0.0 : range.finiteMin) : 0.0;
    if (metric == GapMetric::Cosine) {
        ceiling = 1.0;
        floor = anyFinite ? std::min(range.finiteMin, 0.9) : 0.0;
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
        data.clampNote += (data.clampNote.isEmpty() ? QString() : QStringLiteral("; ")) + QStringLiteral("−∞ drawn at ")
            + number(floor);
    }
    data.low = floor;
    data.high = ceiling;
}

// The threshold the first divergences were found with, when it is on this metric and within
// reach of the axis (a dotted line); the axis widens to hold it.
void addThreshold(StagePlotData& data, const core::StageGapReport& report, core::GapMetric metric)
{
    const QString name = QString::fromUtf8(core::gapMetricName(metric).data());
    for (const core::DivergenceThreshold& t : report.thresholds) {
        if (t.metric != core::gapMetricName(metric) || !std::isfinite(t.value) || (data.logAxis && t.value <= 0))
            continue;
        const double v = data.logAxis ? std::log10(t.value) : t.value;
        data.threshold = v;
        data.thresholdNote = QStringLiteral("dotted: threshold ") + name
            + (core::gapHigherIsWorse(metric) ? QStringLiteral(" > ") : QStringLiteral(" < ")) + number(t.value)
            + (metric == core::GapMetric::Snr ? QStringLiteral(" dB") : QString());
        data.low = std::min(data.low, v);
        data.high = std::max(data.high, v);
        break;
    }
}

} // namespace

StagePlotData stagePlotData(const core::StageGapReport& report, core::GapMetric metric)
{
    StagePlotData data;
    labelStagePlot(data, report, metric);
    const ValueRange range = collectStageValues(data, report, metric); // raw values, then the clamps
    if (data.logAxis)
        clampToLogAxis(data, range);
    else
        clampToLinearAxis(data, range, metric);
    addThreshold(data, report, metric);
    if (!(data.high > data.low)) {
        data.low -= 1;
        data.high += 1;
    }
    return data;
}

namespace {

constexpr double kRowLabelWidth = 160; // a row's label is elided to this many pixels
constexpr double kCos45 = 0.7072; // a label leaning at 45° spans this much of its length

// Where the plot's parts go inside the area.
struct PlotLayout {
    QRectF plot;
    double legendWidth = 0;
    bool labelEveryRow = false;
};

// Room for the leaning row labels below, the legend to the right and the value ticks to the left.
PlotLayout layOutStagePlot(const QFontMetricsF& metrics, const QRectF& area, const StagePlotData& data)
{
    PlotLayout layout;
    const std::size_t rows = data.rowLabels.size();
    layout.labelEveryRow = rows > 0 && rows <= 40;
    double labelDepth = metrics.height() + 8;
    if (layout.labelEveryRow) {
        double widest = 0;
        for (const QString& label : data.rowLabels)
            widest = std::max(
                widest, metrics.horizontalAdvance(metrics.elidedText(label, Qt::ElideRight, kRowLabelWidth)));
        labelDepth = widest * kCos45 + metrics.height() + 8;
    }
    double w = std::max(metrics.horizontalAdvance(data.clampNote), metrics.horizontalAdvance(data.thresholdNote));
    for (const QString& name : data.names)
        w = std::max(w, metrics.horizontalAdvance(name) + 28);
    layout.legendWidth = std::min(w + 24, area.width() * 0.35);
    double widestLabel = 0; // the first row's label leans left of the plot
    if (layout.labelEveryRow)
        widestLabel
            = metrics.horizontalAdvance(metrics.elidedText(data.rowLabels.front(), Qt::ElideRight, kRowLabelWidth));
    const double left = std::max(70.0, widestLabel * kCos45 + 12);
    layout.plot = QRectF(area.left() + left, area.top() + 36, area.width() - left - layout.legendWidth - 16,
        area.height() - 36 - labelDepth - metrics.height() - 12);
    return layout;
}

// Rows and values to pixels inside the plot.
struct PlotScale {
    QRectF plot;
    std::size_t rows = 0;
    double low = 0;
    double high = 0;
    double step = 1;
    double pad = 0;

    double xOf(std::size_t row) const
    {
        return rows <= 1 ? plot.center().x() : plot.left() + plot.width() * double(row) / double(rows - 1);
    }
    double yOf(double v) const { return plot.bottom() - plot.height() * (v - low + pad) / (high - low + 2 * pad); }
};

// The value axis: from a tick below the lowest value to a tick above the highest, and a margin so
// points on the extremes stay off the frame. (A log axis ticks whole decades.)
PlotScale scaleStagePlot(const QRectF& plot, const StagePlotData& data)
{
    PlotScale scale;
    scale.plot = plot;
    scale.rows = data.rowLabels.size();
    scale.step = data.logAxis ? std::max(1.0, std::ceil((data.high - data.low) / 6.0))
                              : niceStep((data.high - data.low) / 6.0);
    scale.low = std::floor(data.low / scale.step + 1e-9) * scale.step;
    scale.high = std::ceil(data.high / scale.step - 1e-9) * scale.step;
    scale.pad = (scale.high - scale.low) * 0.04;
    return scale;
}

// Value ticks, their grid lines and the dotted threshold.
void paintValueAxis(QPainter& painter, const QRectF& area, const PlotScale& scale, const StagePlotData& data)
{
    const QRectF& plot = scale.plot;
    QPen grid(QColor(225, 225, 225));
    grid.setCosmetic(true);
    for (double v = scale.low; v <= scale.high + scale.step * 1e-9; v += scale.step) {
        const double y = scale.yOf(v);
        painter.setPen(grid);
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(Qt::black);
        const QString text = data.logAxis ? QStringLiteral("1e%1").arg(std::lround(v))
                                          : number(std::abs(v) < scale.step * 1e-9 ? 0.0 : v);
        painter.drawText(QRectF(area.left(), y - 10, 64, 20), Qt::AlignRight | Qt::AlignVCenter, text);
    }
    if (data.threshold) {
        QPen dotted(QColor(120, 120, 120), 1.5, Qt::DotLine);
        painter.setPen(dotted);
        painter.drawLine(
            QPointF(plot.left(), scale.yOf(*data.threshold)), QPointF(plot.right(), scale.yOf(*data.threshold)));
    }
}

// Row ticks (every row's node when there are few, else row numbers), both axis titles and the frame.
void paintRowAxis(QPainter& painter, const QFontMetricsF& metrics, const QRectF& area, const PlotScale& scale,
    bool labelEveryRow, const StagePlotData& data)
{
    const QRectF& plot = scale.plot;
    const std::size_t rows = scale.rows;
    painter.setPen(Qt::black);
    if (labelEveryRow) {
        for (std::size_t r = 0; r < rows; ++r) {
            const double x = scale.xOf(r);
            painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
            painter.save();
            painter.translate(x, plot.bottom() + 8);
            painter.rotate(-45);
            const QString text = metrics.elidedText(data.rowLabels[r], Qt::ElideRight, kRowLabelWidth);
            painter.drawText(QRectF(-metrics.horizontalAdvance(text) - 2, -metrics.height() / 2,
                                 metrics.horizontalAdvance(text) + 2, metrics.height()),
                Qt::AlignRight | Qt::AlignVCenter, text);
            painter.restore();
        }
    } else if (rows > 1) {
        const double rowStep = std::max(1.0, niceStep(double(rows) / 10.0));
        for (double r = 0; r < double(rows); r += rowStep) {
            const double x = scale.xOf(static_cast<std::size_t>(r));
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
}

// Earlier lines wider, so a later line drawn over one with the same values leaves it showing on
// both sides.
double stageLineWidth(std::size_t line, std::size_t lines)
{
    return 2.5 + 2.0 * double(lines - 1 - line);
}

// One stage's line (broken where it has no value), its points and its first-divergence mark.
void paintStageLine(QPainter& painter, const PlotScale& scale, const StagePlotData& data, std::size_t line)
{
    const std::size_t rows = scale.rows;
    const QColor colour = stageLineColour(line);
    const std::vector<double>& values = data.values[line];
    if (line < data.firstDivergence.size() && data.firstDivergence[line] && *data.firstDivergence[line] < rows) {
        QPen mark(colour, 1.5, Qt::DashLine);
        painter.setPen(mark);
        const double x = scale.xOf(*data.firstDivergence[line]);
        painter.drawLine(QPointF(x, scale.plot.top()), QPointF(x, scale.plot.bottom()));
    }
    QPainterPath path;
    bool open = false;
    for (std::size_t r = 0; r < values.size() && r < rows; ++r) {
        if (std::isnan(values[r])) {
            open = false;
            continue;
        }
        const QPointF p(scale.xOf(r), scale.yOf(values[r]));
        if (open)
            path.lineTo(p);
        else
            path.moveTo(p);
        open = true;
    }
    const double width = stageLineWidth(line, data.values.size());
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
            painter.drawEllipse(QPointF(scale.xOf(r), scale.yOf(values[r])), width / 2 + 1.5, width / 2 + 1.5);
}

// Every stage's line, antialiased.
void paintStageLines(QPainter& painter, const PlotScale& scale, const StagePlotData& data)
{
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t line = 0; line < data.values.size(); ++line)
        paintStageLine(painter, scale, data, line);
    painter.setRenderHint(QPainter::Antialiasing, false);
}

// The legend right of the plot: a swatch per stage, then the clamp, threshold and mark notes.
void paintLegend(QPainter& painter, const QFontMetricsF& metrics, const PlotLayout& layout, const StagePlotData& data)
{
    const double legendWidth = layout.legendWidth;
    double y = layout.plot.top();
    const double x = layout.plot.right() + 16;
    for (std::size_t line = 0; line < data.names.size(); ++line) {
        const double width = stageLineWidth(line, data.names.size()); // as the line is drawn
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
}

} // namespace

void paintStagePlot(QPainter& painter, const QRectF& area, const StagePlotData& data)
{
    painter.save();
    painter.fillRect(area, Qt::white);
    QFont font = painter.font();
    font.setPixelSize(12);
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const PlotLayout layout = layOutStagePlot(metrics, area, data);
    painter.setPen(Qt::black);
    painter.drawText(QRectF(area.left() + 8, area.top() + 6, area.width() - 16, 24), Qt::AlignLeft | Qt::AlignVCenter,
        metrics.elidedText(data.title, Qt::ElideRight, area.width() - 16));
    if (layout.plot.width() < 20 || layout.plot.height() < 20) {
        painter.restore();
        return;
    }
    const PlotScale scale = scaleStagePlot(layout.plot, data);
    paintValueAxis(painter, area, scale, data);
    paintRowAxis(painter, metrics, area, scale, layout.labelEveryRow, data);
    paintStageLines(painter, scale, data);
    paintLegend(painter, metrics, layout, data);
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
    // Atomically, as every export: a failed write leaves an older plot whole, and the error
    // names the folder when the folder is why (issue 27; QFile's did neither).
    return exportBytes(path, bytes);
}

} // namespace etscope::ui
