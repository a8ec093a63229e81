// SPDX-License-Identifier: MIT
#include "ui/memory/memorychart.h"

#include "core/util/text.h"
#include "ui/common/axisticks.h"
#include "ui/common/nodestyle.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kGutter = 76; ///< the byte axis left of the plot
constexpr int kAxisHeight = 22; ///< the step axis above it
constexpr int kStripHeight = 40; ///< live bytes per step below it
constexpr int kLegendHeight = 18;
constexpr int kMargin = 8; ///< inside the plot, left, right and under the boxes
constexpr int kTopPad = 18; ///< above them: room for the label of the top line (at least)
constexpr double kZoomStep = 1.25;
constexpr double kMaxPxPerStep = 240;
constexpr double kMinBytesPerPx = 1.0 / 16;
constexpr double kMinBoxHeight = 2; ///< a 4-byte tensor in a 100 KiB arena stays visible
constexpr QSize kPictureMinimum { 1000, 560 };

// Okabe–Ito, as the graph's node colours.
const QColor kActivation(0x9c, 0xd2, 0xf1); // sky blue, lightened so the value text reads on it
const QColor kInput(0x00, 0x9E, 0x73);
const QColor kOutput(0xE6, 0x9F, 0x00);
const QColor kState(0xCC, 0x79, 0xA7);
const QColor kView(0x00, 0x72, 0xB2);
const QColor kUnbound(0xb4, 0xb4, 0xb4);
const QColor kDeclared(0x1f, 0x23, 0x28);
const QColor kHighest(0x6b, 0x6b, 0x6b);

QColor fillOf(const PlannedTensor& t)
{
    switch (t.role) {
    case PlannedTensor::Role::State:
        return kState;
    case PlannedTensor::Role::Input:
        return kInput;
    case PlannedTensor::Role::Unbound:
    case PlannedTensor::Role::Unused:
        return kUnbound;
    case PlannedTensor::Role::View:
        return Qt::transparent;
    case PlannedTensor::Role::Activation:
        break;
    }
    return t.output ? kOutput : kActivation;
}

QColor textOn(const QColor& fill)
{
    return 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF() > 0.55 ? Qt::black : Qt::white;
}

QString grouped(std::uint64_t value)
{
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

/// An axis label: "512 B", "16 KiB", "1.5 MiB".
QString axisBytes(double bytes)
{
    static const char* const kUnits[] = { "B", "KiB", "MiB", "GiB" };
    int unit = 0;
    while (std::abs(bytes) >= 1024 && unit < 3) {
        bytes /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(bytes, 0, 'g', 4).arg(QLatin1String(kUnits[unit]));
}

/// The smallest power of two of at least `minimum` bytes.
double byteTickStep(double minimum)
{
    return std::pow(2.0, std::ceil(std::log2(std::max(minimum, 1.0))));
}

QString roleText(const PlannedTensor& t)
{
    QString text = QString::fromLatin1(plannedTensorRoleName(t.role).data());
    if (t.output)
        text += QObject::tr(", method output");
    return text;
}

} // namespace

MemoryChart::MemoryChart(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("memoryChart"));
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    horizontalScrollBar()->setSingleStep(20);
    verticalScrollBar()->setSingleStep(20);
    setMinimumHeight(kAxisHeight + kStripHeight + kLegendHeight + 80);
}

const MemoryArena* MemoryChart::arena() const
{
    if (!m_plan || m_arena < 0 || static_cast<std::size_t>(m_arena) >= m_plan->arenas.size())
        return nullptr;
    return &m_plan->arenas[static_cast<std::size_t>(m_arena)];
}

void MemoryChart::setPlan(std::shared_ptr<const MemoryPlan> plan, int arena)
{
    m_plan = std::move(plan);
    m_arena = arena;
    m_selected.reset();
    m_marked.clear();
    m_chainStarts.clear();
    if (m_plan)
        for (std::size_t s = 1; s < m_plan->steps.size(); ++s)
            if (m_plan->steps[s].chain != m_plan->steps[s - 1].chain)
                m_chainStarts.emplace_back(static_cast<int>(s), m_plan->steps[s].chain);
    fit();
}

void MemoryChart::setEmptyText(const QString& text)
{
    m_emptyText = text;
    viewport()->update();
}

int MemoryChart::stepCount() const
{
    return m_plan ? std::max(1, static_cast<int>(m_plan->steps.size())) : 1;
}

double MemoryChart::extent() const
{
    const MemoryArena* a = arena();
    if (!a)
        return 1;
    const double declared = a->declaredSize ? static_cast<double>(std::max<std::int64_t>(0, *a->declaredSize)) : 0.0;
    return std::max({ declared, static_cast<double>(a->highestEnd), 1.0 });
}

int MemoryChart::topPad() const
{
    // The label of the top line sits in this room: as tall as the font needs, or it lies over the
    // highest tensors (at 1600×1000 it did).
    return std::max(kTopPad, fontMetrics().height() + 4);
}

QRect MemoryChart::plotRect(QSize size) const
{
    return QRect(kGutter, kAxisHeight, std::max(1, size.width() - kGutter),
        std::max(1, size.height() - kAxisHeight - kStripHeight - kLegendHeight));
}

QRect MemoryChart::stripRect(QSize size) const
{
    const QRect plot = plotRect(size);
    return QRect(plot.left(), plot.bottom() + 1, plot.width(), kStripHeight);
}

double MemoryChart::fitPxPerStep() const
{
    return std::max(1e-6, (plotRect(viewport()->size()).width() - 2.0 * kMargin) / stepCount());
}

double MemoryChart::fitBytesPerPx() const
{
    return extent() / std::max(10.0, plotRect(viewport()->size()).height() - static_cast<double>(topPad() + kMargin));
}

void MemoryChart::fit()
{
    m_pxPerStep = fitPxPerStep();
    m_bytesPerPx = fitBytesPerPx();
    m_fitted = true;
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

void MemoryChart::updateScrollBars()
{
    const QRect plot = plotRect(viewport()->size());
    const double width = stepCount() * m_pxPerStep + 2 * kMargin;
    const double height = extent() / m_bytesPerPx + topPad() + kMargin;
    horizontalScrollBar()->setPageStep(plot.width());
    horizontalScrollBar()->setRange(0, std::max(0, static_cast<int>(std::ceil(width)) - plot.width()));
    verticalScrollBar()->setPageStep(plot.height());
    verticalScrollBar()->setRange(0, std::max(0, static_cast<int>(std::ceil(height)) - plot.height()));
}

MemoryChart::Frame MemoryChart::viewFrame() const
{
    Frame frame;
    frame.size = viewport()->size();
    frame.pxPerStep = m_pxPerStep;
    frame.bytesPerPx = m_bytesPerPx;
    frame.fromStep = horizontalScrollBar()->value() / m_pxPerStep;
    frame.topByte = extent() - verticalScrollBar()->value() * m_bytesPerPx;
    return frame;
}

MemoryChart::Frame MemoryChart::picture() const
{
    if (isVisible() && !m_fitted)
        return viewFrame();
    Frame frame;
    frame.size = QSize(std::clamp(viewport()->width(), kPictureMinimum.width(), 4000),
        std::clamp(viewport()->height(), kPictureMinimum.height(), 3000));
    const QRect plot = plotRect(frame.size);
    frame.pxPerStep = (plot.width() - 2.0 * kMargin) / stepCount();
    frame.bytesPerPx = extent() / std::max(10.0, plot.height() - static_cast<double>(topPad() + kMargin));
    frame.topByte = extent();
    return frame;
}

void MemoryChart::zoomBy(double factor, bool steps)
{
    zoomAround(factor, plotRect(viewport()->size()).center(), steps);
}

void MemoryChart::zoomAround(double factor, QPointF anchor, bool steps)
{
    const QRect plot = plotRect(viewport()->size());
    const Frame before = viewFrame();
    const double ax = anchor.x() - plot.left() - kMargin;
    const double ay = anchor.y() - plot.top() - topPad();
    const double step = before.fromStep + ax / before.pxPerStep;
    const double byte = before.topByte - ay * before.bytesPerPx;
    const double fitX = fitPxPerStep();
    const double fitY = fitBytesPerPx();
    if (steps)
        m_pxPerStep = std::clamp(m_pxPerStep * factor, fitX, std::max(fitX, kMaxPxPerStep));
    m_bytesPerPx = std::clamp(m_bytesPerPx / factor, std::min(fitY, kMinBytesPerPx), fitY);
    m_fitted = m_pxPerStep <= fitX && m_bytesPerPx >= fitY;
    updateScrollBars();
    horizontalScrollBar()->setValue(static_cast<int>(std::lround(step * m_pxPerStep - ax)));
    verticalScrollBar()->setValue(static_cast<int>(std::lround((extent() - byte) / m_bytesPerPx - ay)));
    viewport()->update();
}

void MemoryChart::setSelected(std::optional<std::size_t> tensor)
{
    m_selected = tensor;
    viewport()->update();
}

void MemoryChart::setMarked(std::vector<std::pair<std::size_t, bool>> marked)
{
    m_marked = std::move(marked);
    viewport()->update();
}

QRectF MemoryChart::tensorRect(std::size_t tensor) const
{
    if (!m_plan || tensor >= m_plan->tensors.size())
        return {};
    const PlannedTensor& t = m_plan->tensors[tensor];
    const MemoryArena* a = arena();
    if (!a || t.arena != a->id || t.firstStep < 0)
        return {};
    const Frame frame = viewFrame();
    const QRect plot = plotRect(frame.size);
    const double left = plot.left() + kMargin + (t.firstStep - frame.fromStep) * frame.pxPerStep;
    const double right = plot.left() + kMargin + (t.lastStep + 1 - frame.fromStep) * frame.pxPerStep;
    const double top = plot.top() + topPad() + (frame.topByte - static_cast<double>(t.end())) / frame.bytesPerPx;
    const double bottom = plot.top() + topPad() + (frame.topByte - static_cast<double>(t.offset)) / frame.bytesPerPx;
    return QRectF(QPointF(left, std::min(top, bottom - kMinBoxHeight)), QPointF(std::max(right, left + 1), bottom));
}

std::vector<std::size_t> MemoryChart::tensorsAt(QPoint point) const
{
    std::vector<std::size_t> hits;
    const MemoryArena* a = arena();
    if (!a || !plotRect(viewport()->size()).contains(point))
        return hits;
    for (const std::size_t i : a->tensors) {
        // Thin boxes get a pixel of slack so they can be hit.
        const QRectF rect = tensorRect(i);
        if (!rect.isEmpty() && rect.adjusted(-1, -1, 1, 1).contains(point))
            hits.push_back(i);
    }
    std::stable_sort(hits.begin(), hits.end(), [&](std::size_t x, std::size_t y) {
        const bool xView = m_plan->tensors[x].role == PlannedTensor::Role::View;
        const bool yView = m_plan->tensors[y].role == PlannedTensor::Role::View;
        if (xView != yView)
            return yView;
        const auto area = [&](std::size_t i) {
            const PlannedTensor& t = m_plan->tensors[i];
            return static_cast<double>(t.bytes) * (t.lastStep - t.firstStep + 1);
        };
        return area(x) < area(y);
    });
    return hits;
}

QString MemoryChart::stepText(int step) const
{
    if (!m_plan || step < 0 || static_cast<std::size_t>(step) >= m_plan->steps.size())
        return {};
    const MemoryStep& s = m_plan->steps[static_cast<std::size_t>(step)];
    const QString chain = m_plan->chains > 1 ? tr("chain %1 ").arg(s.chain) : QString();
    return QStringLiteral("%1#%2 %3").arg(chain).arg(s.instruction.value).arg(QString::fromStdString(s.label));
}

QString MemoryChart::describe(std::size_t tensor) const
{
    if (!m_plan || tensor >= m_plan->tensors.size())
        return {};
    const PlannedTensor& t = m_plan->tensors[tensor];
    QStringList lines;
    lines << tr("v%1 — %2").arg(t.value.value).arg(roleText(t));
    lines << tr("%1 %2, %3 bytes")
                 .arg(QString::fromStdString(t.dtype), QString::fromStdString(formatShape(t.shape)), grouped(t.bytes));
    lines << tr("arena %1, bytes %2 – %3").arg(t.arena).arg(grouped(t.offset), grouped(t.end()));
    if (t.firstStep < 0)
        lines << tr("never live: no instruction uses it");
    else if (t.firstStep == t.lastStep)
        lines << tr("live at step %1: %2").arg(t.firstStep).arg(stepText(t.firstStep));
    else
        lines << tr("live at steps %1 – %2: %3 … %4")
                     .arg(t.firstStep)
                     .arg(t.lastStep)
                     .arg(stepText(t.firstStep), stepText(t.lastStep));
    if (t.producerStep >= 0)
        lines << tr("written by %1").arg(stepText(t.producerStep));
    switch (t.role) {
    case PlannedTensor::Role::Input:
        lines << tr("a method input: live from the first step");
        break;
    case PlannedTensor::Role::State:
        lines << tr("has an initial value (mutable buffer or weight): live at every step");
        break;
    case PlannedTensor::Role::View:
        if (t.aliasOf.valid())
            lines << tr("an elided view: reads the bytes of v%1").arg(t.aliasOf.value);
        break;
    case PlannedTensor::Role::Unbound:
        lines << tr("read but never written (scratch or placeholder): live only where it is read");
        break;
    default:
        break;
    }
    return lines.join(QLatin1Char('\n'));
}

int MemoryChart::stepAt(const Frame& frame, double x) const
{
    const QRect plot = plotRect(frame.size);
    const int step = static_cast<int>(std::floor(frame.fromStep + (x - plot.left() - kMargin) / frame.pxPerStep));
    return m_plan && step >= 0 && step < static_cast<int>(m_plan->steps.size()) ? step : -1;
}

void MemoryChart::scrollTo(std::size_t tensor)
{
    const QRectF rect = tensorRect(tensor);
    if (rect.isEmpty())
        return;
    const QRect plot = plotRect(viewport()->size());
    if (rect.right() < plot.left() || rect.left() > plot.right())
        horizontalScrollBar()->setValue(
            horizontalScrollBar()->value() + static_cast<int>(rect.center().x() - plot.center().x()));
    if (rect.bottom() < plot.top() || rect.top() > plot.bottom())
        verticalScrollBar()->setValue(
            verticalScrollBar()->value() + static_cast<int>(rect.center().y() - plot.center().y()));
    viewport()->update();
}

void MemoryChart::paintChart(QPainter& painter, const Frame& frame) const
{
    const QPalette palette = this->palette();
    const QRect whole(QPoint(0, 0), frame.size);
    painter.fillRect(whole, palette.base());
    const MemoryArena* a = arena();
    if (!a)
        return;
    const QRect plot = plotRect(frame.size);
    const QRect strip = stripRect(frame.size);
    const QFontMetrics metrics(painter.font());
    const auto xOf = [&](double step) { return plot.left() + kMargin + (step - frame.fromStep) * frame.pxPerStep; };
    const auto yOf = [&](double byte) { return plot.top() + topPad() + (frame.topByte - byte) / frame.bytesPerPx; };
    const double lastStep = frame.fromStep + (plot.width() - kMargin) / frame.pxPerStep;
    const double lowByte = frame.topByte - (plot.height() - topPad()) * frame.bytesPerPx;
    const auto boxOf = [&](const PlannedTensor& t) {
        const double bottom = yOf(static_cast<double>(t.offset));
        const double top = std::min(yOf(static_cast<double>(t.end())), bottom - kMinBoxHeight);
        const double left = xOf(t.firstStep);
        return QRectF(QPointF(left, top), QPointF(std::max(xOf(t.lastStep + 1), left + 1), bottom));
    };
    const auto visible = [&](const PlannedTensor& t) {
        return t.firstStep >= 0 && t.lastStep + 1 >= frame.fromStep && t.firstStep <= lastStep
            && static_cast<double>(t.end()) >= lowByte && static_cast<double>(t.offset) <= frame.topByte;
    };
    const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);

    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Boxes. Those smaller than a pixel that land on a pixel already drawn add nothing (a
    // fitted 100,000-step method has about 100 of them per pixel column).
    std::vector<bool> covered(static_cast<std::size_t>(plot.width()) * static_cast<std::size_t>(plot.height()));
    const QRectF bounds = QRectF(plot).adjusted(-4, -4, 4, 4);
    for (const std::size_t i : a->tensors) {
        const PlannedTensor& t = m_plan->tensors[i];
        if (t.role == PlannedTensor::Role::View || !visible(t))
            continue;
        const QRectF box = boxOf(t);
        if (box.width() <= 1.5 && box.height() <= kMinBoxHeight + 0.5) {
            const int px = static_cast<int>(box.left()) - plot.left();
            const int py = static_cast<int>(box.top()) - plot.top();
            if (px >= 0 && py >= 0 && px < plot.width() && py < plot.height()) {
                const std::size_t key = static_cast<std::size_t>(py) * static_cast<std::size_t>(plot.width())
                    + static_cast<std::size_t>(px);
                if (covered[key])
                    continue;
                covered[key] = true;
            }
        }
        const QRectF drawn = box.intersected(bounds);
        const QColor fill = fillOf(t);
        painter.fillRect(drawn, fill);
        if (box.width() >= 5 && box.height() >= 5) {
            painter.setPen(fill.darker(150));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(drawn.adjusted(0, 0, -1, -1));
        }
        // "v43 · 32,768 B", or "v43" when that does not fit, or nothing.
        const QRectF label = drawn.intersected(QRectF(plot)).adjusted(3, 0, -3, 0);
        if (label.height() >= metrics.height()) {
            const QString name = QStringLiteral("v%1").arg(t.value.value);
            const QString full = tr("%1 · %2 B").arg(name, grouped(t.bytes));
            const QString text = metrics.horizontalAdvance(full) <= label.width() ? full
                : metrics.horizontalAdvance(name) <= label.width()                ? name
                                                                                  : QString();
            painter.setPen(textOn(fill));
            painter.drawText(label, Qt::AlignCenter, text);
        }
    }
    // Elided views: an outline over the bytes of their source.
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(kView, 1.5, Qt::DashLine));
    for (const std::size_t i : a->tensors) {
        const PlannedTensor& t = m_plan->tensors[i];
        if (t.role == PlannedTensor::Role::View && visible(t))
            painter.drawRect(boxOf(t).intersected(bounds).adjusted(1, 1, -1, -1));
    }
    painter.setRenderHint(QPainter::Antialiasing, antialiased);

    // Chain boundaries, the peak step, the declared size and the highest end.
    painter.setPen(QPen(palette.mid().color(), 1, Qt::DashLine));
    for (const auto& [step, chain] : m_chainStarts)
        painter.drawLine(QPointF(xOf(step), plot.top()), QPointF(xOf(step), plot.bottom()));
    if (a->peakStep >= 0) {
        painter.setPen(QPen(QColor(0xD5, 0x5E, 0x00, 110), 1, Qt::DotLine));
        const double x = xOf(a->peakStep + 0.5);
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    struct Line {
        double byte;
        QString text;
        QColor colour;
        Qt::PenStyle style;
    };
    std::vector<Line> lines;
    if (a->declaredSize)
        lines.push_back({ static_cast<double>(*a->declaredSize),
            tr("declared %1 B").arg(grouped(static_cast<std::uint64_t>(std::max<std::int64_t>(0, *a->declaredSize)))),
            kDeclared, Qt::SolidLine });
    lines.push_back({ static_cast<double>(a->highestEnd), tr("highest end %1 B").arg(grouped(a->highestEnd)), kHighest,
        Qt::DashLine });
    std::sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) { return x.byte > y.byte; });
    // Each label above its line, right-aligned, over the bytes no tensor uses (the top line's in
    // the room left for it); two lines too close share one label.
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const double y = yOf(lines[l].byte);
        painter.setPen(QPen(lines[l].colour, 1.2, lines[l].style));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        std::size_t labelled = l;
        QString text = lines[l].text;
        if (l + 1 < lines.size() && yOf(lines[l + 1].byte) - y < metrics.height() + 2) {
            const double next = yOf(lines[l + 1].byte);
            painter.setPen(QPen(lines[l + 1].colour, 1.2, lines[l + 1].style));
            painter.drawLine(QPointF(plot.left(), next), QPointF(plot.right(), next));
            text += QStringLiteral(" · ") + lines[l + 1].text;
            ++l;
        }
        const int width = metrics.horizontalAdvance(text) + 8;
        const double top = std::max<double>(plot.top() + 1, y - metrics.height() - 1);
        const QRectF box(plot.right() - width - 4, top, width, metrics.height());
        if (box.bottom() > plot.bottom())
            continue;
        painter.fillRect(box, QColor(255, 255, 255, 215));
        painter.setPen(lines[labelled].colour);
        painter.drawText(box, Qt::AlignCenter, text);
    }
    // Marks on top: the tensors of the node selected in the graph, then the selected tensor.
    const auto outline = [&](std::size_t i, const QPen& pen) {
        if (i >= m_plan->tensors.size() || m_plan->tensors[i].arena != a->id || !visible(m_plan->tensors[i]))
            return;
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(boxOf(m_plan->tensors[i]).intersected(bounds).adjusted(-1, -1, 1, 1));
    };
    for (const auto& [i, written] : m_marked)
        outline(i, QPen(attentionColour(), 2, written ? Qt::SolidLine : Qt::DashLine));
    if (m_selected)
        outline(*m_selected, QPen(palette.highlight().color(), 2.5));
    painter.restore();

    // The byte axis, offset 0 at the bottom.
    painter.fillRect(QRect(0, 0, kGutter, frame.size.height()), palette.window());
    painter.setPen(palette.windowText().color());
    const double byteStep = byteTickStep(34 * frame.bytesPerPx);
    for (double b = std::max(0.0, std::ceil(lowByte / byteStep) * byteStep); b <= frame.topByte + 1e-9; b += byteStep) {
        const double y = yOf(b);
        if (y < plot.top() || y > plot.bottom())
            continue;
        painter.drawLine(QPointF(kGutter - 5, y), QPointF(kGutter, y));
        // Labels stay inside the plot's height: the top one would run into the step axis.
        const double top = std::clamp(y - metrics.height() / 2.0, static_cast<double>(plot.top()),
            plot.bottom() - static_cast<double>(metrics.height()));
        painter.drawText(
            QRectF(0, top, kGutter - 8, metrics.height()), Qt::AlignRight | Qt::AlignVCenter, axisBytes(b));
    }

    // The step axis.
    painter.fillRect(QRect(0, 0, frame.size.width(), kAxisHeight), palette.window());
    painter.setPen(palette.windowText().color());
    painter.drawText(
        QRect(6, 0, kGutter - 8, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft, tr("arena %1").arg(a->id));
    const double stepStep = niceStep(std::max(80 / frame.pxPerStep, 1.0)); // whole steps
    const double half = frame.pxPerStep >= 12 ? 0.5 : 0;
    for (double s = std::max(0.0, std::ceil(frame.fromStep / stepStep) * stepStep);
         s <= std::min(lastStep, static_cast<double>(stepCount() - 1)); s += stepStep) {
        const double x = xOf(s + half);
        if (x < plot.left())
            continue;
        painter.drawLine(QPointF(x, kAxisHeight - 5), QPointF(x, kAxisHeight));
        const QString label = s == 0 ? tr("step 0") : QString::number(static_cast<long long>(s));
        if (x + 3 + metrics.horizontalAdvance(label) <= frame.size.width())
            painter.drawText(QPointF(x + 3, kAxisHeight - 7), label);
    }
    for (const auto& [step, chain] : m_chainStarts) {
        const double x = xOf(step);
        if (x < plot.left() || x > plot.right())
            continue;
        painter.setPen(palette.mid().color());
        painter.drawLine(QPointF(x, 0), QPointF(x, kAxisHeight));
        painter.setPen(palette.windowText().color());
        const QString label = tr("chain %1").arg(chain);
        painter.fillRect(QRectF(x + 1, 1, metrics.horizontalAdvance(label) + 6, kAxisHeight - 9), palette.window());
        painter.drawText(QPointF(x + 4, metrics.ascent() + 1), label);
    }
    painter.setPen(palette.mid().color());
    painter.drawLine(plot.left(), plot.top(), plot.right(), plot.top());
    painter.drawLine(plot.left(), plot.top(), plot.left(), strip.bottom());

    // Live bytes per step: the maximum over the steps of each pixel column.
    painter.fillRect(QRect(0, strip.top(), frame.size.width(), strip.height()), palette.window());
    painter.fillRect(strip, palette.base());
    painter.setPen(palette.mid().color());
    painter.drawLine(strip.left(), strip.top(), strip.right(), strip.top());
    const QRectF curveRect = QRectF(strip).adjusted(0, metrics.height() + 1, 0, -2);
    const double peak = std::max<double>(1.0, static_cast<double>(a->peakLiveBytes));
    const auto liveY = [&](double bytes) { return curveRect.bottom() - bytes / peak * curveRect.height(); };
    QPainterPath curve;
    curve.moveTo(plot.left(), curveRect.bottom());
    const int steps = static_cast<int>(a->liveBytes.size());
    for (int px = plot.left(); px <= plot.right(); ++px) {
        const double from = frame.fromStep + (px - plot.left() - kMargin) / frame.pxPerStep;
        const double to = from + 1 / frame.pxPerStep;
        const int first = std::max(0, static_cast<int>(std::floor(from)));
        const int last = std::min(steps - 1, static_cast<int>(std::ceil(to)) - 1);
        double value = 0;
        for (int s = first; s <= last; ++s)
            value = std::max(value, static_cast<double>(a->liveBytes[static_cast<std::size_t>(s)]));
        if (first > last) {
            curve.lineTo(px, curveRect.bottom());
            continue;
        }
        curve.lineTo(px, liveY(value));
        curve.lineTo(px + 1, liveY(value));
    }
    curve.lineTo(plot.right() + 1, curveRect.bottom());
    curve.closeSubpath();
    painter.save();
    painter.setClipRect(strip);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0x56, 0xB4, 0xE9, 150));
    painter.drawPath(curve);
    for (const auto& [step, chain] : m_chainStarts) {
        painter.setPen(QPen(palette.mid().color(), 1, Qt::DashLine));
        painter.drawLine(QPointF(xOf(step), strip.top()), QPointF(xOf(step), strip.bottom()));
    }
    if (a->peakStep >= 0) {
        const QPointF at(xOf(a->peakStep + 0.5), liveY(peak));
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(Qt::NoPen);
        painter.setBrush(attentionColour());
        painter.drawEllipse(at, 3.5, 3.5);
        const QString text = tr("peak %1 at step %2").arg(axisBytes(peak)).arg(a->peakStep);
        const int width = metrics.horizontalAdvance(text);
        const double x = at.x() + 6 + width <= strip.right() ? at.x() + 6 : at.x() - 6 - width;
        painter.setPen(palette.windowText().color());
        painter.drawText(QPointF(std::max<double>(x, strip.left() + 2), strip.top() + metrics.ascent() + 1), text);
        painter.setRenderHint(QPainter::Antialiasing, antialiased);
    }
    painter.restore();
    painter.setPen(palette.windowText().color());
    painter.drawText(QRect(6, strip.top(), kGutter - 12, strip.height()), Qt::AlignRight | Qt::AlignVCenter,
        tr("live\n%1").arg(axisBytes(peak)));

    // Legend.
    const QRect legend(0, strip.bottom() + 1, frame.size.width(), kLegendHeight);
    painter.fillRect(legend, palette.window());
    int x = kGutter;
    const auto swatch = [&](const QColor& fill, const QPen& pen, const QString& text) {
        const QRectF box(x, legend.center().y() - 5, 16, 10);
        if (fill.alpha())
            painter.fillRect(box, fill);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box);
        painter.setPen(palette.windowText().color());
        painter.drawText(QPointF(x + 20, legend.center().y() + metrics.ascent() / 2.0 - 1), text);
        x += 20 + metrics.horizontalAdvance(text) + 14;
    };
    swatch(kActivation, QPen(kActivation.darker(150)), tr("activation"));
    swatch(kInput, QPen(kInput.darker(150)), tr("input"));
    swatch(kOutput, QPen(kOutput.darker(150)), tr("output"));
    swatch(kState, QPen(kState.darker(150)), tr("state"));
    swatch(Qt::transparent, QPen(kView, 1.5, Qt::DashLine), tr("view"));
    bool unbound = false;
    for (const std::size_t i : a->tensors)
        unbound = unbound || m_plan->tensors[i].role == PlannedTensor::Role::Unbound;
    if (unbound)
        swatch(kUnbound, QPen(kUnbound.darker(150)), tr("unbound"));
    if (!m_marked.empty()) {
        swatch(Qt::transparent, QPen(attentionColour(), 2), tr("the node writes"));
        swatch(Qt::transparent, QPen(attentionColour(), 2, Qt::DashLine), tr("reads"));
    }
}

void MemoryChart::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    // An arena without tensors has nothing to chart: an empty chart with a "1 B" axis said less
    // than the text does.
    if (!arena() || arena()->tensors.empty()) {
        painter.fillRect(viewport()->rect(), palette().base());
        painter.setPen(palette().placeholderText().color());
        painter.drawText(viewport()->rect(), Qt::AlignCenter | Qt::TextWordWrap,
            m_emptyText.isEmpty() ? tr("No memory-planned tensors") : m_emptyText);
        return;
    }
    paintChart(painter, viewFrame());
}

void MemoryChart::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    if (m_fitted) {
        m_pxPerStep = fitPxPerStep();
        m_bytesPerPx = fitBytesPerPx();
    } else {
        // Zoomed: never less than the whole arena.
        m_pxPerStep = std::max(m_pxPerStep, fitPxPerStep());
        m_bytesPerPx = std::min(m_bytesPerPx, fitBytesPerPx());
    }
    updateScrollBars();
}

void MemoryChart::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    // Ctrl+Shift zooms the offsets only (small tensors beside big ones); some platforms turn
    // Shift+wheel into a horizontal wheel.
    const QPoint delta = event->angleDelta();
    const double factor = std::pow(kZoomStep, (delta.y() != 0 ? delta.y() : delta.x()) / 120.0);
    zoomAround(factor, event->position(), !(event->modifiers() & Qt::ShiftModifier));
    event->accept();
}

void MemoryChart::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->position().toPoint();
    m_pressScroll = QPoint(horizontalScrollBar()->value(), verticalScrollBar()->value());
    m_dragging = false;
    event->accept();
}

void MemoryChart::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint delta = event->position().toPoint() - m_pressPos;
    if (!m_dragging && delta.manhattanLength() < 4)
        return;
    m_dragging = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    horizontalScrollBar()->setValue(m_pressScroll.x() - delta.x());
    verticalScrollBar()->setValue(m_pressScroll.y() - delta.y());
}

void MemoryChart::mouseReleaseEvent(QMouseEvent* event)
{
    viewport()->unsetCursor();
    if (m_dragging || event->button() != Qt::LeftButton) {
        m_dragging = false;
        return;
    }
    const QPoint point = event->position().toPoint();
    if (stripRect(viewport()->size()).contains(point)) {
        if (const int step = stepAt(viewFrame(), point.x()); step >= 0)
            Q_EMIT stepClicked(step);
        return;
    }
    const auto hits = tensorsAt(point);
    setSelected(hits.empty() ? std::nullopt : std::optional(hits.front()));
    if (!hits.empty())
        Q_EMIT tensorClicked(hits.front());
}

void MemoryChart::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::ZoomIn) || event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal)
        zoomBy(kZoomStep);
    else if (event->matches(QKeySequence::ZoomOut) || event->key() == Qt::Key_Minus)
        zoomBy(1 / kZoomStep);
    else if (event->key() == Qt::Key_0 && (event->modifiers() & Qt::ControlModifier))
        fit();
    else
        QAbstractScrollArea::keyPressEvent(event);
}

bool MemoryChart::viewportEvent(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QAbstractScrollArea::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const MemoryArena* a = arena();
    QString text;
    if (a && stripRect(viewport()->size()).contains(help->pos())) {
        if (const int step = stepAt(viewFrame(), help->pos().x()); step >= 0)
            text = tr("step %1: %2\n%3 bytes live in arena %4 (click: select its node)")
                       .arg(step)
                       .arg(stepText(step))
                       .arg(grouped(a->liveBytes[static_cast<std::size_t>(step)]))
                       .arg(a->id);
    } else if (const auto hits = tensorsAt(help->pos()); !hits.empty()) {
        text = describe(hits.front());
        if (hits.size() > 1) {
            QStringList others;
            for (std::size_t h = 1; h < hits.size() && h < 6; ++h)
                others << tr("v%1 (%2)")
                              .arg(m_plan->tensors[hits[h]].value.value)
                              .arg(QString::fromLatin1(plannedTensorRoleName(m_plan->tensors[hits[h]].role).data()));
            text += tr("\nalso here: %1").arg(others.join(QStringLiteral(", ")));
        }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, viewport());
    return true;
}

} // namespace etscope::ui
