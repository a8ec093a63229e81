// SPDX-License-Identifier: MIT
// The memory chart's picture (MemoryChart::paintChart, memorychart.h), in the order it is
// drawn: boxes, lines and marks in the plot, the byte and step axes, the live-bytes strip and
// the legend.
#include "ui/memory/memorychart.h"
#include "ui/memory/memorychartstyle.h"

#include "ui/common/axisticks.h"
#include "ui/common/nodestyle.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace etscope::ui {

using namespace etscope::core;
using namespace memorychart;

/// What every part of one picture shares: where the plot and the strip are, the range in view
/// and the mapping of steps and bytes to pixels.
struct MemoryChart::Painting {
    const Frame& frame;
    QPalette palette;
    const MemoryArena* a;
    QRect plot;
    QRect strip;
    QFontMetrics metrics;
    int topPad;
    double lastStep; ///< the step at the plot's right edge
    double lowByte; ///< the offset at the plot's bottom edge
    QRectF bounds; ///< boxes are cut to the plot and a little more
    bool antialiased; ///< the painter's hint on entry

    double xOf(double step) const { return plot.left() + kMargin + (step - frame.fromStep) * frame.pxPerStep; }
    double yOf(double byte) const { return plot.top() + topPad + (frame.topByte - byte) / frame.bytesPerPx; }
    QRectF boxOf(const PlannedTensor& t) const
    {
        const double bottom = yOf(static_cast<double>(t.offset));
        const double top = std::min(yOf(static_cast<double>(t.end())), bottom - kMinBoxHeight);
        const double left = xOf(t.firstStep);
        return QRectF(QPointF(left, top), QPointF(std::max(xOf(t.lastStep + 1), left + 1), bottom));
    }
    bool visible(const PlannedTensor& t) const
    {
        return t.firstStep >= 0 && t.lastStep + 1 >= frame.fromStep && t.firstStep <= lastStep
            && static_cast<double>(t.end()) >= lowByte && static_cast<double>(t.offset) <= frame.topByte;
    }
};

void MemoryChart::paintChart(QPainter& painter, const Frame& frame) const
{
    const QPalette palette = this->palette();
    const QRect whole(QPoint(0, 0), frame.size);
    painter.fillRect(whole, palette.base());
    const MemoryArena* a = arena();
    if (!a)
        return;
    const QRect plot = plotRect(frame.size);
    const Painting p { frame, palette, a, plot, stripRect(frame.size), QFontMetrics(painter.font()), topPad(),
        frame.fromStep + (plot.width() - kMargin) / frame.pxPerStep,
        frame.topByte - (plot.height() - topPad()) * frame.bytesPerPx, QRectF(plot).adjusted(-4, -4, 4, 4),
        painter.testRenderHint(QPainter::Antialiasing) };

    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintBoxes(painter, p);
    painter.setRenderHint(QPainter::Antialiasing, p.antialiased);
    paintLines(painter, p);
    paintMarks(painter, p);
    painter.restore();
    paintByteAxis(painter, p);
    paintStepAxis(painter, p);
    paintStrip(painter, p);
    paintLegend(painter, p);
}

/// Boxes coloured by role with their value and size where it fits; elided views as a dashed outline.
void MemoryChart::paintBoxes(QPainter& painter, const Painting& p) const
{
    // Boxes. Those smaller than a pixel that land on a pixel already drawn add nothing (a
    // fitted 100,000-step method has about 100 of them per pixel column).
    std::vector<bool> covered(static_cast<std::size_t>(p.plot.width()) * static_cast<std::size_t>(p.plot.height()));
    for (const std::size_t i : p.a->tensors) {
        const PlannedTensor& t = m_plan->tensors[i];
        if (t.role == PlannedTensor::Role::View || !p.visible(t))
            continue;
        const QRectF box = p.boxOf(t);
        if (box.width() <= 1.5 && box.height() <= kMinBoxHeight + 0.5) {
            const int px = static_cast<int>(box.left()) - p.plot.left();
            const int py = static_cast<int>(box.top()) - p.plot.top();
            if (px >= 0 && py >= 0 && px < p.plot.width() && py < p.plot.height()) {
                const std::size_t key = static_cast<std::size_t>(py) * static_cast<std::size_t>(p.plot.width())
                    + static_cast<std::size_t>(px);
                if (covered[key])
                    continue;
                covered[key] = true;
            }
        }
        const QRectF drawn = box.intersected(p.bounds);
        const QColor fill = fillOf(t);
        painter.fillRect(drawn, fill);
        if (box.width() >= 5 && box.height() >= 5) {
            painter.setPen(fill.darker(150));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(drawn.adjusted(0, 0, -1, -1));
        }
        // "v43 · 32,768 B", or "v43" when that does not fit, or nothing.
        const QRectF label = drawn.intersected(QRectF(p.plot)).adjusted(3, 0, -3, 0);
        if (label.height() >= p.metrics.height()) {
            const QString name = QStringLiteral("v%1").arg(t.value.value);
            const QString full = tr("%1 · %2 B").arg(name, grouped(t.bytes));
            const QString text = p.metrics.horizontalAdvance(full) <= label.width() ? full
                : p.metrics.horizontalAdvance(name) <= label.width()                ? name
                                                                                    : QString();
            painter.setPen(textOn(fill));
            painter.drawText(label, Qt::AlignCenter, text);
        }
    }
    // Elided views: an outline over the bytes of their source.
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kView, 1.5, Qt::DashLine));
    for (const std::size_t i : p.a->tensors) {
        const PlannedTensor& t = m_plan->tensors[i];
        if (t.role == PlannedTensor::Role::View && p.visible(t))
            painter.drawRect(p.boxOf(t).intersected(p.bounds).adjusted(1, 1, -1, -1));
    }
}

/// Chain boundaries, the peak step, and the lines at the declared size and the highest end with their labels.
void MemoryChart::paintLines(QPainter& painter, const Painting& p) const
{
    // Chain boundaries, the peak step, the declared size and the highest end.
    painter.setPen(QPen(p.palette.mid().color(), 1, Qt::DashLine));
    for (const auto& [step, chain] : m_chainStarts)
        painter.drawLine(QPointF(p.xOf(step), p.plot.top()), QPointF(p.xOf(step), p.plot.bottom()));
    if (p.a->peakStep >= 0) {
        painter.setPen(QPen(QColor(0xD5, 0x5E, 0x00, 110), 1, Qt::DotLine));
        const double x = p.xOf(p.a->peakStep + 0.5);
        painter.drawLine(QPointF(x, p.plot.top()), QPointF(x, p.plot.bottom()));
    }
    struct Line {
        double byte;
        QString text;
        QColor colour;
        Qt::PenStyle style;
    };
    std::vector<Line> lines;
    if (p.a->declaredSize)
        lines.push_back({ static_cast<double>(*p.a->declaredSize),
            tr("declared %1 B").arg(grouped(static_cast<std::uint64_t>(std::max<std::int64_t>(0, *p.a->declaredSize)))),
            kDeclared, Qt::SolidLine });
    lines.push_back({ static_cast<double>(p.a->highestEnd), tr("highest end %1 B").arg(grouped(p.a->highestEnd)),
        kHighest, Qt::DashLine });
    std::sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) { return x.byte > y.byte; });
    // Each label above its line, right-aligned, over the bytes no tensor uses (the top line's in
    // the room left for it); two lines too close share one label.
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const double y = p.yOf(lines[l].byte);
        painter.setPen(QPen(lines[l].colour, 1.2, lines[l].style));
        painter.drawLine(QPointF(p.plot.left(), y), QPointF(p.plot.right(), y));
        std::size_t labelled = l;
        QString text = lines[l].text;
        if (l + 1 < lines.size() && p.yOf(lines[l + 1].byte) - y < p.metrics.height() + 2) {
            const double next = p.yOf(lines[l + 1].byte);
            painter.setPen(QPen(lines[l + 1].colour, 1.2, lines[l + 1].style));
            painter.drawLine(QPointF(p.plot.left(), next), QPointF(p.plot.right(), next));
            text += QStringLiteral(" · ") + lines[l + 1].text;
            ++l;
        }
        const int width = p.metrics.horizontalAdvance(text) + 8;
        const double top = std::max<double>(p.plot.top() + 1, y - p.metrics.height() - 1);
        const QRectF box(p.plot.right() - width - 4, top, width, p.metrics.height());
        if (box.bottom() > p.plot.bottom())
            continue;
        painter.fillRect(box, QColor(255, 255, 255, 215));
        painter.setPen(lines[labelled].colour);
        painter.drawText(box, Qt::AlignCenter, text);
    }
}

/// Outlines of the tensors of the node selected in the graph, then of the selected tensor.
void MemoryChart::paintMarks(QPainter& painter, const Painting& p) const
{
    // Marks on top: the tensors of the node selected in the graph, then the selected tensor.
    const auto outline = [&](std::size_t i, const QPen& pen) {
        if (i >= m_plan->tensors.size() || m_plan->tensors[i].arena != p.a->id || !p.visible(m_plan->tensors[i]))
            return;
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(p.boxOf(m_plan->tensors[i]).intersected(p.bounds).adjusted(-1, -1, 1, 1));
    };
    for (const auto& [i, written] : m_marked)
        outline(i, QPen(attentionColour(), 2, written ? Qt::SolidLine : Qt::DashLine));
    if (m_selected)
        outline(*m_selected, QPen(p.palette.highlight().color(), 2.5));
}

/// The byte axis left of the p.plot.
void MemoryChart::paintByteAxis(QPainter& painter, const Painting& p) const
{
    // The byte axis, offset 0 at the bottom.
    painter.fillRect(QRect(0, 0, kGutter, p.frame.size.height()), p.palette.window());
    painter.setPen(p.palette.windowText().color());
    const double byteStep = byteTickStep(34 * p.frame.bytesPerPx);
    for (double b = std::max(0.0, std::ceil(p.lowByte / byteStep) * byteStep); b <= p.frame.topByte + 1e-9;
         b += byteStep) {
        const double y = p.yOf(b);
        if (y < p.plot.top() || y > p.plot.bottom())
            continue;
        painter.drawLine(QPointF(kGutter - 5, y), QPointF(kGutter, y));
        // Labels stay inside the p.plot's height: the top one would run into the step axis.
        const double top = std::clamp(y - p.metrics.height() / 2.0, static_cast<double>(p.plot.top()),
            p.plot.bottom() - static_cast<double>(p.metrics.height()));
        painter.drawText(
            QRectF(0, top, kGutter - 8, p.metrics.height()), Qt::AlignRight | Qt::AlignVCenter, axisBytes(b));
    }
}

/// The step axis above the p.plot, with the chains, and the p.plot's top and left edges.
void MemoryChart::paintStepAxis(QPainter& painter, const Painting& p) const
{
    // The step axis.
    painter.fillRect(QRect(0, 0, p.frame.size.width(), kAxisHeight), p.palette.window());
    painter.setPen(p.palette.windowText().color());
    painter.drawText(
        QRect(6, 0, kGutter - 8, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft, tr("arena %1").arg(p.a->id));
    const double stepStep = niceStep(std::max(80 / p.frame.pxPerStep, 1.0)); // whole steps
    const double half = p.frame.pxPerStep >= 12 ? 0.5 : 0;
    for (double s = std::max(0.0, std::ceil(p.frame.fromStep / stepStep) * stepStep);
         s <= std::min(p.lastStep, static_cast<double>(stepCount() - 1)); s += stepStep) {
        const double x = p.xOf(s + half);
        if (x < p.plot.left())
            continue;
        painter.drawLine(QPointF(x, kAxisHeight - 5), QPointF(x, kAxisHeight));
        const QString label = s == 0 ? tr("step 0") : QString::number(static_cast<long long>(s));
        if (x + 3 + p.metrics.horizontalAdvance(label) <= p.frame.size.width())
            painter.drawText(QPointF(x + 3, kAxisHeight - 7), label);
    }
    for (const auto& [step, chain] : m_chainStarts) {
        const double x = p.xOf(step);
        if (x < p.plot.left() || x > p.plot.right())
            continue;
        painter.setPen(p.palette.mid().color());
        painter.drawLine(QPointF(x, 0), QPointF(x, kAxisHeight));
        painter.setPen(p.palette.windowText().color());
        const QString label = tr("chain %1").arg(chain);
        painter.fillRect(QRectF(x + 1, 1, p.metrics.horizontalAdvance(label) + 6, kAxisHeight - 9), p.palette.window());
        painter.drawText(QPointF(x + 4, p.metrics.ascent() + 1), label);
    }
    painter.setPen(p.palette.mid().color());
    painter.drawLine(p.plot.left(), p.plot.top(), p.plot.right(), p.plot.top());
    painter.drawLine(p.plot.left(), p.plot.top(), p.plot.left(), p.strip.bottom());
}

/// The live-bytes p.strip below the p.plot, with the peak marked.
void MemoryChart::paintStrip(QPainter& painter, const Painting& p) const
{
    // Live bytes per step: the maximum over the steps of each pixel column.
    painter.fillRect(QRect(0, p.strip.top(), p.frame.size.width(), p.strip.height()), p.palette.window());
    painter.fillRect(p.strip, p.palette.base());
    painter.setPen(p.palette.mid().color());
    painter.drawLine(p.strip.left(), p.strip.top(), p.strip.right(), p.strip.top());
    const QRectF curveRect = QRectF(p.strip).adjusted(0, p.metrics.height() + 1, 0, -2);
    const double peak = std::max<double>(1.0, static_cast<double>(p.a->peakLiveBytes));
    const auto liveY = [&](double bytes) { return curveRect.bottom() - bytes / peak * curveRect.height(); };
    QPainterPath curve;
    curve.moveTo(p.plot.left(), curveRect.bottom());
    const int steps = static_cast<int>(p.a->liveBytes.size());
    for (int px = p.plot.left(); px <= p.plot.right(); ++px) {
        const double from = p.frame.fromStep + (px - p.plot.left() - kMargin) / p.frame.pxPerStep;
        const double to = from + 1 / p.frame.pxPerStep;
        const int first = std::max(0, static_cast<int>(std::floor(from)));
        const int last = std::min(steps - 1, static_cast<int>(std::ceil(to)) - 1);
        double value = 0;
        for (int s = first; s <= last; ++s)
            value = std::max(value, static_cast<double>(p.a->liveBytes[static_cast<std::size_t>(s)]));
        if (first > last) {
            curve.lineTo(px, curveRect.bottom());
            continue;
        }
        curve.lineTo(px, liveY(value));
        curve.lineTo(px + 1, liveY(value));
    }
    curve.lineTo(p.plot.right() + 1, curveRect.bottom());
    curve.closeSubpath();
    painter.save();
    painter.setClipRect(p.strip);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0x56, 0xB4, 0xE9, 150));
    painter.drawPath(curve);
    for (const auto& [step, chain] : m_chainStarts) {
        painter.setPen(QPen(p.palette.mid().color(), 1, Qt::DashLine));
        painter.drawLine(QPointF(p.xOf(step), p.strip.top()), QPointF(p.xOf(step), p.strip.bottom()));
    }
    if (p.a->peakStep >= 0) {
        const QPointF at(p.xOf(p.a->peakStep + 0.5), liveY(peak));
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(Qt::NoPen);
        painter.setBrush(attentionColour());
        painter.drawEllipse(at, 3.5, 3.5);
        const QString text = tr("peak %1 at step %2").arg(axisBytes(peak)).arg(p.a->peakStep);
        const int width = p.metrics.horizontalAdvance(text);
        const double x = at.x() + 6 + width <= p.strip.right() ? at.x() + 6 : at.x() - 6 - width;
        painter.setPen(p.palette.windowText().color());
        painter.drawText(
            QPointF(std::max<double>(x, p.strip.left() + 2), p.strip.top() + p.metrics.ascent() + 1), text);
        painter.setRenderHint(QPainter::Antialiasing, p.antialiased);
    }
    painter.restore();
    painter.setPen(p.palette.windowText().color());
    painter.drawText(QRect(6, p.strip.top(), kGutter - 12, p.strip.height()), Qt::AlignRight | Qt::AlignVCenter,
        tr("live\n%1").arg(axisBytes(peak)));
}

/// The legend of the colours under the p.strip.
void MemoryChart::paintLegend(QPainter& painter, const Painting& p) const
{
    // Legend.
    const QRect legend(0, p.strip.bottom() + 1, p.frame.size.width(), kLegendHeight);
    painter.fillRect(legend, p.palette.window());
    int x = kGutter;
    const auto swatch = [&](const QColor& fill, const QPen& pen, const QString& text) {
        const QRectF box(x, legend.center().y() - 5, 16, 10);
        if (fill.alpha())
            painter.fillRect(box, fill);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box);
        painter.setPen(p.palette.windowText().color());
        painter.drawText(QPointF(x + 20, legend.center().y() + p.metrics.ascent() / 2.0 - 1), text);
        x += 20 + p.metrics.horizontalAdvance(text) + 14;
    };
    swatch(kActivation, QPen(kActivation.darker(150)), tr("activation"));
    swatch(kInput, QPen(kInput.darker(150)), tr("input"));
    swatch(kOutput, QPen(kOutput.darker(150)), tr("output"));
    swatch(kState, QPen(kState.darker(150)), tr("state"));
    swatch(Qt::transparent, QPen(kView, 1.5, Qt::DashLine), tr("view"));
    bool unbound = false;
    for (const std::size_t i : p.a->tensors)
        unbound = unbound || m_plan->tensors[i].role == PlannedTensor::Role::Unbound;
    if (unbound)
        swatch(kUnbound, QPen(kUnbound.darker(150)), tr("unbound"));
    if (!m_marked.empty()) {
        swatch(Qt::transparent, QPen(attentionColour(), 2), tr("the node writes"));
        swatch(Qt::transparent, QPen(attentionColour(), 2, Qt::DashLine), tr("reads"));
    }
}
} // namespace etscope::ui
