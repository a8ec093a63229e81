// SPDX-License-Identifier: MIT
#include "ui/memory/memorychart.h"
#include "ui/memory/memorychartstyle.h"

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
using namespace memorychart;

namespace {

constexpr double kZoomStep = 1.25;
constexpr double kMaxPxPerStep = 240;
constexpr double kMinBytesPerPx = 1.0 / 16;
constexpr QSize kPictureMinimum { 1000, 560 };

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
