// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/timeline.h"
#include "core/graph/flatten.h"

#include <QAbstractScrollArea>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;

namespace etscope::ui {

/// One run of a Timeline drawn as lanes of nested boxes over a time axis: the method lane
/// (Method::execute › instruction › kernel), then one lane per delegate call site with the
/// backend's own events. Ctrl+wheel (or +/−) zooms around the pointer, dragging pans, the wheel
/// scrolls, Ctrl+0 fits the run. Hovering shows an event; clicking one selects it and, when it
/// sits on a graph node, asks for that node.
class TimelineView final : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setTimeline(std::shared_ptr<const core::Timeline> timeline, int run = 0);
    int run() const { return m_run; }
    const core::TimelineRun* currentRun() const;

    /// Marks the events placed on `origin` (none: no marks, and no event outlined) and scrolls
    /// the first into view.
    /// Returns how many events are marked.
    int showNode(const core::NodeOrigin& origin);
    int markedCount() const { return static_cast<int>(m_marked.size()); }
    /// True while an event clicked in the timeline is outlined.
    bool hasSelectedEvent() const { return m_selected.has_value(); }

    void fit();
    void zoomBy(double factor);
    /// Nanoseconds per pixel (the zoom).
    double scale() const { return m_nsPerPixel; }

    /// The height every lane needs, and the width of the lane titles.
    int contentHeight() const;
    int gutterWidth() const { return m_gutter; }
    /// Paints the run into `target` (of `size`): lane titles, axis and events from `fromNs` over
    /// `nsPerPixel`. The view and the exported pictures draw with this.
    void paintRun(QPainter& painter, QSize size, double fromNs, double nsPerPixel, int top) const;
    /// What Export picture draws: every lane, the range in view (the whole run when fitted or
    /// never shown) at least 1,000 px wide.
    struct Picture {
        QSize size;
        double fromNs = 0;
        double nsPerPixel = 1;
    };
    Picture picture() const;

    /// The event under `point` of the viewport, as (lane, event) indices.
    std::optional<std::pair<int, int>> eventAt(QPoint point) const;
    /// Where the event's box is in viewport coordinates.
    QRectF eventRect(int lane, int event) const;

Q_SIGNALS:
    void nodeRequested(const etscope::core::NodeOrigin& origin);
    void eventSelected(const QString& description);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    double runDuration() const;
    double fitScale() const;
    void updateScrollBars();
    /// Nanoseconds (from the run's start) at viewport x.
    double timeAt(double x) const;
    int laneTop(int lane) const; ///< in content coordinates
    QString describe(const core::TimelineEvent& event, const core::TimelineLane& lane) const;

    /// What paintRun draws over: the target's size, the time range and where the events start.
    struct RunFrame {
        QSize size;
        double fromNs = 0;
        double toNs = 0;
        double nsPerPixel = 1;
        int left = 0; ///< x of fromNs
        int top = 0; ///< content y at the top of the target
    };
    /// The boxes of every lane in view, clipped right of the titles, with the marks on top.
    void paintEvents(QPainter& painter, const core::TimelineRun& run, const RunFrame& frame) const;
    /// One lane's band and the boxes of its events in the time range.
    void paintLaneEvents(
        QPainter& painter, const core::TimelineRun& run, std::size_t lane, const RunFrame& frame) const;
    /// Outlines of the events of the selected node, then of the selected event.
    void paintMarks(QPainter& painter, const core::TimelineRun& run, const RunFrame& frame) const;
    /// The lane titles in the gutter and the lines between lanes.
    void paintLaneTitles(QPainter& painter, const core::TimelineRun& run, const RunFrame& frame) const;
    /// The time axis along the top, from the start of the run.
    void paintTimeAxis(QPainter& painter, const core::TimelineRun& run, const RunFrame& frame) const;

    std::shared_ptr<const core::Timeline> m_timeline;
    int m_run = 0;
    double m_nsPerPixel = 1;
    int m_gutter = 180;
    std::vector<std::pair<int, int>> m_marked;
    std::optional<std::pair<int, int>> m_selected;
    QPoint m_pressPos;
    int m_pressScroll = 0;
    int m_pressScrollY = 0;
    bool m_dragging = false;
};

/// The timeline with its controls: the run to show, fit and zoom, and exports (the picture as
/// PNG or SVG, the events as CSV, the Chrome trace JSON that Perfetto opens).
class TimelinePanel final : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    /// Shows `timeline` (its first run); a null timeline empties the panel.
    void setTimeline(std::shared_ptr<const core::Timeline> timeline);
    const core::Timeline* timeline() const { return m_timeline.get(); }
    TimelineView* view() const { return m_view; }
    void setRun(int run);

    /// Writes the picture (.png, .svg), the events (.csv) or the Chrome trace (.json) by the
    /// extension of `path`. False with `error` set when it failed.
    bool exportTo(const QString& path, QString* error = nullptr) const;

Q_SIGNALS:
    void nodeRequested(const etscope::core::NodeOrigin& origin);
    void statusMessage(const QString& text);

private:
    void exportInteractive();

    std::shared_ptr<const core::Timeline> m_timeline;
    QComboBox* m_runs = nullptr;
    QLabel* m_summary = nullptr;
    TimelineView* m_view = nullptr;
};

} // namespace etscope::ui
