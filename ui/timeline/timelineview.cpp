// SPDX-License-Identifier: MIT
// The Timeline of a run. Why one file: TimelineView paints and hit-tests its lanes with one geometry
// (laneTop, eventRect, timeAt), and TimelinePanel is its frame (run picker, summary, export), used
// with no other view.
#include "ui/timeline/timelineview.h"

#include "ui/common/axisticks.h"
#include "ui/common/elide.h"
#include "ui/common/exports.h"
#include "ui/common/nodestyle.h"
#include "ui/graph/scenerenderer.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kAxisHeight = 24;
constexpr int kRowHeight = 20;
constexpr int kLaneGap = 8;
constexpr int kMargin = 8;
constexpr double kZoomStep = 1.25;
constexpr double kFinestScale = 0.05; ///< ns per pixel: 20 px per nanosecond at most

/// "12 ns", "3.5 µs", "1.25 ms", "2 s".
QString durationText(double ns)
{
    const double magnitude = std::abs(ns);
    if (magnitude < 1e3)
        return QStringLiteral("%1 ns").arg(ns, 0, 'g', 4);
    if (magnitude < 1e6)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'g', 4);
    if (magnitude < 1e9)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'g', 4);
    return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'g', 4);
}

QString kindName(ProfileRow::Scope kind)
{
    switch (kind) {
    case ProfileRow::Scope::Framework:
        return QObject::tr("framework");
    case ProfileRow::Scope::Instruction:
        return QObject::tr("instruction");
    case ProfileRow::Scope::Kernel:
        return QObject::tr("kernel");
    case ProfileRow::Scope::DelegateInternal:
        return QObject::tr("delegate");
    }
    return {};
}

QColor eventColour(const TimelineEvent& event, const TimelineLane& lane)
{
    switch (event.kind) {
    case ProfileRow::Scope::Framework:
        return QColor(0xc8, 0xc8, 0xc8);
    case ProfileRow::Scope::Instruction:
        return QColor(0xb7, 0xd3, 0xea);
    case ProfileRow::Scope::Kernel:
        return QColor(0x6b, 0xae, 0xd6);
    case ProfileRow::Scope::DelegateInternal:
        return lane.backendId.empty() ? QColor(0xfd, 0xae, 0x6b)
                                      : backendColour(QString::fromStdString(lane.backendId)).lighter(115);
    }
    return Qt::gray;
}

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("timelineView"));
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    horizontalScrollBar()->setSingleStep(20);
    verticalScrollBar()->setSingleStep(kRowHeight);
    setMinimumHeight(kAxisHeight + 2 * kRowHeight + kMargin);
}

const TimelineRun* TimelineView::currentRun() const
{
    if (!m_timeline || m_run < 0 || static_cast<std::size_t>(m_run) >= m_timeline->runs.size())
        return nullptr;
    return &m_timeline->runs[static_cast<std::size_t>(m_run)];
}

void TimelineView::setTimeline(std::shared_ptr<const Timeline> timeline, int run)
{
    m_timeline = std::move(timeline);
    m_run = run;
    m_marked.clear();
    m_selected.reset();
    // Lane titles get the width of the longest, within limits.
    const QFontMetrics metrics(font());
    m_gutter = 120;
    if (const TimelineRun* current = currentRun())
        for (const TimelineLane& lane : current->lanes)
            m_gutter = std::max(m_gutter, metrics.horizontalAdvance(QString::fromStdString(lane.title)) + 2 * kMargin);
    m_gutter = std::min(m_gutter, 400); // wider titles: lanes of one delegate differ late in their names
    fit();
}

double TimelineView::runDuration() const
{
    const TimelineRun* run = currentRun();
    return run ? std::max<double>(1.0, static_cast<double>(run->endNs - run->startNs)) : 1.0;
}

double TimelineView::fitScale() const
{
    const int width = std::max(50, viewport()->width() - m_gutter - 2 * kMargin);
    return runDuration() / width;
}

void TimelineView::fit()
{
    m_nsPerPixel = fitScale();
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    viewport()->update();
}

void TimelineView::zoomBy(double factor)
{
    const double centre = timeAt(m_gutter + (viewport()->width() - m_gutter) / 2.0);
    const double scale = std::clamp(m_nsPerPixel / factor, kFinestScale, fitScale());
    m_nsPerPixel = scale;
    updateScrollBars();
    horizontalScrollBar()->setValue(
        static_cast<int>(std::lround(centre / m_nsPerPixel - (viewport()->width() - m_gutter) / 2.0)));
    viewport()->update();
}

int TimelineView::laneTop(int lane) const
{
    const TimelineRun* run = currentRun();
    int top = kAxisHeight + kMargin / 2;
    for (int l = 0; run && l < lane; ++l)
        top += (run->lanes[static_cast<std::size_t>(l)].maxDepth + 1) * kRowHeight + kLaneGap;
    return top;
}

int TimelineView::contentHeight() const
{
    const TimelineRun* run = currentRun();
    return run ? laneTop(static_cast<int>(run->lanes.size())) + kMargin : kAxisHeight;
}

void TimelineView::updateScrollBars()
{
    const double contentWidth = runDuration() / m_nsPerPixel + 2 * kMargin;
    const int visible = std::max(1, viewport()->width() - m_gutter);
    horizontalScrollBar()->setPageStep(visible);
    horizontalScrollBar()->setRange(0, std::max(0, static_cast<int>(std::ceil(contentWidth)) - visible));
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setRange(0, std::max(0, contentHeight() - viewport()->height()));
}

double TimelineView::timeAt(double x) const
{
    return (x - m_gutter - kMargin + horizontalScrollBar()->value()) * m_nsPerPixel;
}

QRectF TimelineView::eventRect(int lane, int event) const
{
    const TimelineRun* run = currentRun();
    if (!run)
        return {};
    const TimelineEvent& e = run->lanes[static_cast<std::size_t>(lane)].events[static_cast<std::size_t>(event)];
    const double x = m_gutter + kMargin + static_cast<double>(e.startNs - run->startNs) / m_nsPerPixel
        - horizontalScrollBar()->value();
    const double width = std::max(1.0, static_cast<double>(e.durationNs) / m_nsPerPixel);
    const double y = laneTop(lane) + e.depth * kRowHeight - verticalScrollBar()->value();
    return QRectF(x, y + 1, width, kRowHeight - 2);
}

std::optional<std::pair<int, int>> TimelineView::eventAt(QPoint point) const
{
    const TimelineRun* run = currentRun();
    if (!run || point.x() < m_gutter)
        return std::nullopt;
    // Deepest first: the innermost box under the pointer wins.
    std::optional<std::pair<int, int>> found;
    int foundDepth = -1;
    for (std::size_t l = 0; l < run->lanes.size(); ++l) {
        const auto& events = run->lanes[l].events;
        for (std::size_t e = 0; e < events.size(); ++e) {
            const QRectF rect = eventRect(static_cast<int>(l), static_cast<int>(e)).adjusted(-1, 0, 1, 0);
            if (rect.contains(point) && events[e].depth > foundDepth) {
                found = std::pair { static_cast<int>(l), static_cast<int>(e) };
                foundDepth = events[e].depth;
            }
        }
    }
    return found;
}

TimelineView::Picture TimelineView::picture() const
{
    Picture picture;
    const int width = std::clamp(viewport()->width(), 1000, 4000);
    picture.size = QSize(width, contentHeight());
    const bool fitted = !isVisible() || m_nsPerPixel >= fitScale() * (1 - 1e-9);
    if (fitted) {
        picture.nsPerPixel = runDuration() / (width - m_gutter - 2 * kMargin);
    } else {
        picture.fromNs = horizontalScrollBar()->value() * m_nsPerPixel;
        picture.nsPerPixel = m_nsPerPixel;
    }
    return picture;
}

void TimelineView::paintRun(QPainter& painter, QSize size, double fromNs, double nsPerPixel, int top) const
{
    const TimelineRun* run = currentRun();
    painter.fillRect(QRect(QPoint(0, 0), size), palette().base());
    if (!run)
        return;
    RunFrame frame;
    frame.size = size;
    frame.fromNs = fromNs;
    frame.nsPerPixel = nsPerPixel;
    frame.left = m_gutter + kMargin;
    frame.toNs = fromNs + (size.width() - frame.left) * nsPerPixel;
    frame.top = top;
    paintEvents(painter, *run, frame);
    paintLaneTitles(painter, *run, frame);
    paintTimeAxis(painter, *run, frame);
}

void TimelineView::paintEvents(QPainter& painter, const TimelineRun& run, const RunFrame& frame) const
{
    const QSize size = frame.size;
    painter.save();
    painter.setClipRect(QRect(m_gutter, kAxisHeight, size.width() - m_gutter, size.height() - kAxisHeight));
    for (std::size_t l = 0; l < run.lanes.size(); ++l)
        paintLaneEvents(painter, run, l, frame);
    paintMarks(painter, run, frame);
    painter.restore();
}

void TimelineView::paintLaneEvents(
    QPainter& painter, const TimelineRun& run, std::size_t l, const RunFrame& frame) const
{
    const QSize size = frame.size;
    const QPalette palette = this->palette();
    const QFontMetrics metrics(painter.font());
    const TimelineLane& lane = run.lanes[l];
    const int laneY = laneTop(static_cast<int>(l)) - frame.top;
    const int laneHeight = (lane.maxDepth + 1) * kRowHeight;
    if (laneY > size.height() || laneY + laneHeight < kAxisHeight)
        return;
    painter.fillRect(
        QRect(m_gutter, laneY, size.width() - m_gutter, laneHeight), l % 2 ? palette.alternateBase() : palette.base());
    std::vector<double> lastEnd(static_cast<std::size_t>(lane.maxDepth + 1), -1e9);
    for (std::size_t e = 0; e < lane.events.size(); ++e) {
        const TimelineEvent& event = lane.events[e];
        const double start = static_cast<double>(event.startNs - run.startNs);
        if (start > frame.toNs)
            break; // sorted by start
        if (start + static_cast<double>(event.durationNs) < frame.fromNs)
            continue;
        const double x = frame.left + (start - frame.fromNs) / frame.nsPerPixel;
        const double width = std::max(1.0, static_cast<double>(event.durationNs) / frame.nsPerPixel);
        const auto depth = static_cast<std::size_t>(std::clamp(event.depth, 0, lane.maxDepth));
        // Boxes narrower than a pixel that fall on the pixel already drawn add nothing.
        if (width <= 1.0 && std::floor(x) <= lastEnd[depth])
            continue;
        lastEnd[depth] = std::floor(x + width);
        const QRectF rect(x, laneY + static_cast<double>(depth) * kRowHeight + 1, width, kRowHeight - 2);
        painter.fillRect(rect, eventColour(event, lane));
        if (width >= 4) {
            painter.setPen(QColor(0, 0, 0, 70));
            painter.drawRect(rect.adjusted(0, 0, -0.5, -0.5));
        }
        // The name stays readable on boxes wider than the view: it sits in their visible part.
        const QRectF textRect
            = rect.intersected(QRectF(frame.left, rect.top(), size.width() - frame.left, rect.height()))
                  .adjusted(3, 0, -3, 0);
        if (textRect.width() > 18) {
            painter.setPen(Qt::black);
            painter.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                metrics.elidedText(
                    QString::fromStdString(event.name), Qt::ElideMiddle, static_cast<int>(textRect.width())));
        }
    }
}

void TimelineView::paintMarks(QPainter& painter, const TimelineRun& run, const RunFrame& frame) const
{
    const auto outline = [&](const std::pair<int, int>& which, const QColor& colour, qreal width) {
        const TimelineLane& lane = run.lanes[static_cast<std::size_t>(which.first)];
        const TimelineEvent& event = lane.events[static_cast<std::size_t>(which.second)];
        const double x
            = frame.left + (static_cast<double>(event.startNs - run.startNs) - frame.fromNs) / frame.nsPerPixel;
        const double y = laneTop(which.first) - frame.top + event.depth * kRowHeight + 1;
        painter.setPen(QPen(colour, width));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(
            QRectF(x, y, std::max(2.0, static_cast<double>(event.durationNs) / frame.nsPerPixel), kRowHeight - 2));
    };
    for (const auto& marked : m_marked)
        outline(marked, attentionColour(), 2);
    if (m_selected)
        outline(*m_selected, palette().highlight().color(), 2.5);
}

void TimelineView::paintLaneTitles(QPainter& painter, const TimelineRun& run, const RunFrame& frame) const
{
    const QSize size = frame.size;
    const QPalette palette = this->palette();
    painter.fillRect(QRect(0, kAxisHeight, m_gutter, size.height() - kAxisHeight), palette.window());
    painter.setPen(palette.windowText().color());
    // Titles too long for the gutter keep what tells them from the other lanes.
    QStringList titles;
    for (const TimelineLane& lane : run.lanes)
        titles << QString::fromStdString(lane.title);
    const auto parts = distinctParts(titles);
    const QFontMetricsF titleMetrics(painter.font());
    for (std::size_t l = 0; l < run.lanes.size(); ++l) {
        const TimelineLane& lane = run.lanes[l];
        const int laneY = laneTop(static_cast<int>(l)) - frame.top;
        if (laneY + kRowHeight < kAxisHeight || laneY > size.height())
            continue;
        const QRect titleRect(kMargin, laneY, m_gutter - 2 * kMargin, kRowHeight);
        painter.drawText(titleRect, Qt::AlignVCenter | Qt::AlignLeft,
            elideAroundToWidth(titles[static_cast<qsizetype>(l)], parts[l], titleMetrics, titleRect.width()));
        painter.setPen(palette.mid().color());
        const int separator = laneY + (lane.maxDepth + 1) * kRowHeight + kLaneGap / 2;
        painter.drawLine(0, separator, size.width(), separator);
        painter.setPen(palette.windowText().color());
    }
}

void TimelineView::paintTimeAxis(QPainter& painter, const TimelineRun& run, const RunFrame& frame) const
{
    const QSize size = frame.size;
    const QPalette palette = this->palette();
    const QFontMetrics metrics(painter.font());
    painter.fillRect(QRect(0, 0, size.width(), kAxisHeight), palette.window());
    const double step = niceStep(100 * frame.nsPerPixel);
    painter.setPen(palette.windowText().color());
    painter.drawText(QRect(kMargin, 0, m_gutter - kMargin, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft,
        tr("run %1").arg(run.index));
    for (double t = std::ceil(frame.fromNs / step) * step; t <= frame.toNs; t += step) {
        const double x = frame.left + (t - frame.fromNs) / frame.nsPerPixel;
        if (x < m_gutter)
            continue;
        painter.drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, kAxisHeight));
        const QString label = durationText(t);
        if (x + 3 + metrics.horizontalAdvance(label) <= size.width())
            painter.drawText(QPointF(x + 3, kAxisHeight - 8), label);
    }
    painter.setPen(palette.mid().color());
    painter.drawLine(0, kAxisHeight, size.width(), kAxisHeight);
    painter.drawLine(m_gutter, kAxisHeight, m_gutter, size.height());
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    paintRun(painter, viewport()->size(), horizontalScrollBar()->value() * m_nsPerPixel, m_nsPerPixel,
        verticalScrollBar()->value());
    if (!currentRun()) {
        painter.setPen(palette().placeholderText().color());
        painter.drawText(viewport()->rect(), Qt::AlignCenter, tr("No run to show"));
    }
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    const bool wasFit = std::abs(m_nsPerPixel - fitScale()) < 1e-9 || horizontalScrollBar()->maximum() == 0;
    QAbstractScrollArea::resizeEvent(event);
    if (wasFit)
        m_nsPerPixel = fitScale();
    updateScrollBars();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier)) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    // Zoom around the pointer: the time under it stays under it.
    const double x = event->position().x();
    const double anchor = timeAt(x);
    const double factor = std::pow(kZoomStep, event->angleDelta().y() / 120.0);
    m_nsPerPixel = std::clamp(m_nsPerPixel / factor, kFinestScale, fitScale());
    updateScrollBars();
    horizontalScrollBar()->setValue(static_cast<int>(std::lround(anchor / m_nsPerPixel - (x - m_gutter - kMargin))));
    viewport()->update();
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->position().toPoint();
    m_pressScroll = horizontalScrollBar()->value();
    m_pressScrollY = verticalScrollBar()->value();
    m_dragging = false;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint delta = event->position().toPoint() - m_pressPos;
    if (!m_dragging && delta.manhattanLength() < 4)
        return;
    m_dragging = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    horizontalScrollBar()->setValue(m_pressScroll - delta.x());
    verticalScrollBar()->setValue(m_pressScrollY - delta.y());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    viewport()->unsetCursor();
    if (m_dragging || event->button() != Qt::LeftButton) {
        m_dragging = false;
        return;
    }
    m_selected = eventAt(event->position().toPoint());
    viewport()->update();
    const TimelineRun* run = currentRun();
    if (!m_selected || !run)
        return;
    const TimelineLane& lane = run->lanes[static_cast<std::size_t>(m_selected->first)];
    const TimelineEvent& selected = lane.events[static_cast<std::size_t>(m_selected->second)];
    Q_EMIT eventSelected(describe(selected, lane).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    if (selected.placement.matched && selected.placement.origin.top.valid())
        Q_EMIT nodeRequested(selected.placement.origin);
    else if (lane.node.valid())
        Q_EMIT nodeRequested(NodeOrigin { lane.node, NodeId::none() });
}

void TimelineView::keyPressEvent(QKeyEvent* event)
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

QString TimelineView::describe(const TimelineEvent& event, const TimelineLane& lane) const
{
    QStringList lines;
    lines << QString::fromStdString(event.name);
    lines << tr("%1 in %2, starts %3, lasts %4")
                 .arg(kindName(event.kind), QString::fromStdString(lane.title),
                     durationText(static_cast<double>(event.startNs - currentRun()->startNs)),
                     durationText(static_cast<double>(event.durationNs)));
    if (event.instruction.valid())
        lines << tr("chain %1, instruction %2").arg(event.chain.value).arg(event.instruction.value);
    if (!event.nodeName.empty())
        lines << tr("node: %1").arg(QString::fromStdString(event.nodeName));
    if (lane.kind == TimelineLane::Kind::Delegate && lane.backendId == "XnnpackBackend")
        lines << tr("XNNPACK logs durations only: starts are laid back to back from the call's start.");
    return lines.join(QLatin1Char('\n'));
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto hit = eventAt(help->pos());
        const TimelineRun* run = currentRun();
        if (run && help->pos().x() < m_gutter) {
            // A lane title: the whole of it.
            const int y = help->pos().y() + verticalScrollBar()->value();
            for (std::size_t l = 0; l < run->lanes.size(); ++l) {
                const int laneY = laneTop(static_cast<int>(l));
                if (y >= laneY && y < laneY + (run->lanes[l].maxDepth + 1) * kRowHeight) {
                    QToolTip::showText(help->globalPos(), QString::fromStdString(run->lanes[l].title), viewport());
                    return true;
                }
            }
            QToolTip::hideText();
            return true;
        }
        if (hit && run) {
            const TimelineLane& lane = run->lanes[static_cast<std::size_t>(hit->first)];
            QToolTip::showText(
                help->globalPos(), describe(lane.events[static_cast<std::size_t>(hit->second)], lane), viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

int TimelineView::showNode(const NodeOrigin& origin)
{
    m_marked.clear();
    const TimelineRun* run = currentRun();
    // The event clicked last keeps its outline only while its node is the one selected.
    if (m_selected && run) {
        const auto& lanes = run->lanes;
        const bool stillSelected = origin.top.valid() && m_selected->first < static_cast<int>(lanes.size())
            && m_selected->second < static_cast<int>(lanes[static_cast<std::size_t>(m_selected->first)].events.size())
            && lanes[static_cast<std::size_t>(m_selected->first)]
                    .events[static_cast<std::size_t>(m_selected->second)]
                    .placement.origin
                == origin;
        if (!stillSelected)
            m_selected.reset();
    } else {
        m_selected.reset();
    }
    if (run && origin.top.valid()) {
        for (std::size_t l = 0; l < run->lanes.size(); ++l)
            for (std::size_t e = 0; e < run->lanes[l].events.size(); ++e) {
                const EventPlacement& placement = run->lanes[l].events[e].placement;
                if (placement.matched && placement.origin == origin)
                    m_marked.emplace_back(static_cast<int>(l), static_cast<int>(e));
            }
    }
    if (!m_marked.empty()) {
        // Bring the first into view when it is not.
        const QRectF rect = eventRect(m_marked.front().first, m_marked.front().second);
        if (rect.right() < m_gutter || rect.left() > viewport()->width())
            horizontalScrollBar()->setValue(horizontalScrollBar()->value()
                + static_cast<int>(rect.center().x() - (m_gutter + viewport()->width()) / 2.0));
        if (rect.top() < kAxisHeight || rect.bottom() > viewport()->height())
            verticalScrollBar()->setValue(
                verticalScrollBar()->value() + static_cast<int>(rect.top() - kAxisHeight - kRowHeight));
    }
    viewport()->update();
    return static_cast<int>(m_marked.size());
}

TimelinePanel::TimelinePanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("timelinePanel"));
    m_runs = new QComboBox(this);
    m_runs->setObjectName(QStringLiteral("timelineRuns"));
    m_runs->setToolTip(tr("The run (Execute block) to show"));
    m_summary = new QLabel(this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_view = new TimelineView(this);
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show the whole run (Ctrl+0 in the timeline)"));
    auto* zoomOut = new QPushButton(tr("−"), this);
    zoomOut->setToolTip(tr("Zoom out (−, or Ctrl+wheel)"));
    auto* zoomIn = new QPushButton(tr("+"), this);
    zoomIn->setToolTip(tr("Zoom in (+, or Ctrl+wheel)"));
    for (QPushButton* button : { zoomOut, zoomIn })
        button->setMaximumWidth(button->fontMetrics().horizontalAdvance(QStringLiteral("MMM")));
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Save the picture (PNG, SVG), the events (CSV) or a Chrome trace for Perfetto (JSON)"));
    connect(fit, &QPushButton::clicked, m_view, &TimelineView::fit);
    connect(zoomIn, &QPushButton::clicked, m_view, [this] { m_view->zoomBy(kZoomStep); });
    connect(zoomOut, &QPushButton::clicked, m_view, [this] { m_view->zoomBy(1 / kZoomStep); });
    connect(exportButton, &QPushButton::clicked, this, &TimelinePanel::exportInteractive);
    connect(m_runs, qOverload<int>(&QComboBox::currentIndexChanged), this, &TimelinePanel::setRun);
    connect(m_view, &TimelineView::nodeRequested, this, &TimelinePanel::nodeRequested);
    connect(m_view, &TimelineView::eventSelected, this, &TimelinePanel::statusMessage);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Run"), this));
    bar->addWidget(m_runs);
    bar->addWidget(m_summary, 1);
    bar->addWidget(fit);
    bar->addWidget(zoomOut);
    bar->addWidget(zoomIn);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
}

void TimelinePanel::setTimeline(std::shared_ptr<const Timeline> timeline)
{
    m_timeline = std::move(timeline);
    const QSignalBlocker blocker(m_runs);
    m_runs->clear();
    if (m_timeline)
        for (const TimelineRun& run : m_timeline->runs)
            m_runs->addItem(
                tr("%1 (%2)").arg(run.index).arg(durationText(static_cast<double>(run.endNs - run.startNs))));
    m_runs->setEnabled(m_runs->count() > 1);
    setRun(0);
}

void TimelinePanel::setRun(int run)
{
    if (m_runs->currentIndex() != run) {
        const QSignalBlocker blocker(m_runs);
        m_runs->setCurrentIndex(run);
    }
    m_view->setTimeline(m_timeline, run);
    const TimelineRun* current = m_view->currentRun();
    if (!current) {
        m_summary->setText(m_timeline ? tr("No Execute block in this ETDump") : QString());
        return;
    }
    m_summary->setText(tr("%n event(s) in %1 lane(s), %2", nullptr, static_cast<int>(current->eventCount()))
                           .arg(current->lanes.size())
                           .arg(durationText(static_cast<double>(current->endNs - current->startNs))));
}

bool TimelinePanel::exportTo(const QString& path, QString* error) const
{
    if (!m_timeline) {
        if (error)
            *error = tr("No timeline to export");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return succeeded(exportTableFile(timelineTable(*m_timeline), TableFormat::Csv, path), error);
    if (suffix == QLatin1String("json"))
        return succeeded(exportBytes(path, QByteArray::fromStdString(timelineChromeTrace(*m_timeline))), error);
    const TimelineView::Picture picture = m_view->picture();
    return succeeded(
        exportPainting(path, picture.size, QFileInfo(QString::fromStdString(m_timeline->etdumpPath)).fileName(),
            [&](QPainter& painter) { m_view->paintRun(painter, picture.size, picture.fromNs, picture.nsPerPixel, 0); }),
        error);
}

void TimelinePanel::exportInteractive()
{
    if (!m_timeline)
        return;
    const QString base
        = QFileInfo(QString::fromStdString(m_timeline->etdumpPath)).completeBaseName() + QStringLiteral("-timeline");
    const QString saved = saveWithDialog(this, tr("Export timeline"), base + QStringLiteral(".png"),
        tr("PNG picture (*.png);;SVG picture (*.svg);;Events as CSV (*.csv);;Chrome trace for Perfetto (*.json)"),
        [this](const QString& path, QString* error) { return exportTo(path, error); });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
