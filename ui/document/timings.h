// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <cstdio>

class QTimer;

namespace etscope::ui {

/// `--timings`: the phases of opening a file, as the user waits for them, printed to stderr as
/// "etscope timing: <phase> <ms> ms" when enabled (silent otherwise). Phases: startup, open,
/// graph, view (building a program's document view with its panes), layout, scene, first-paint (from the request to
/// open the file to the first paint of its graph view), etdump-page (an ETDump alone: from the request to its filled
/// page), heat-table (showing a view's prepared heat tables), attach (since start, until the debug data named with the
/// file is shown), attach-stall (the longest stall from the end of the open until then), longest-stall (the app); open,
/// graph, layout, scene, render (etscope export). The click phases (group-open, delegate-expand, delegate-tab,
/// search-jump and their -stall) are measured in ui/graph/clicktiming.h.
namespace timings {
void setEnabled(bool on);
bool enabled();
void report(const char* phase, double milliseconds);
/// Where report() writes (stderr unless set; tests give a file of their own, nullptr: stderr).
void setOutput(std::FILE* output);
/// Milliseconds elapsed on `timer`, with sub-millisecond precision.
double millisecondsSince(const QElapsedTimer& timer);
} // namespace timings

/// Measures how long the event loop was kept from turning: a zero-interval timer fires once
/// per turn, and the longest gap between two firings is the longest freeze a user could feel.
class StallWatch : public QObject {
    Q_OBJECT
public:
    explicit StallWatch(QObject* parent = nullptr);
    void start();
    void stop();
    bool running() const;
    double longestMs() const { return m_longest; }

private:
    void tick();

    QTimer* m_timer;
    QElapsedTimer m_sinceLast;
    double m_longest = 0;
};

} // namespace etscope::ui
