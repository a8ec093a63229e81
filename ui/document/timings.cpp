// SPDX-License-Identifier: MIT
#include "ui/document/timings.h"

#include <QTimer>

#include <atomic>
#include <cstdio>

namespace etscope::ui {

namespace {
std::atomic<bool> g_enabled { false };
std::atomic<std::FILE*> g_output { nullptr };
} // namespace

namespace timings {

void setEnabled(bool on)
{
    g_enabled = on;
}

bool enabled()
{
    return g_enabled;
}

void report(const char* phase, double milliseconds)
{
    if (!g_enabled)
        return;
    std::FILE* output = g_output ? g_output.load() : stderr;
    std::fprintf(output, "etscope timing: %s %.1f ms\n", phase, milliseconds);
    std::fflush(output);
}

void setOutput(std::FILE* output)
{
    g_output = output;
}

double millisecondsSince(const QElapsedTimer& timer)
{
    return timer.isValid() ? static_cast<double>(timer.nsecsElapsed()) / 1e6 : 0.0;
}

} // namespace timings

StallWatch::StallWatch(QObject* parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(0);
    connect(m_timer, &QTimer::timeout, this, &StallWatch::tick);
}

void StallWatch::start()
{
    m_longest = 0;
    m_sinceLast.start();
    m_timer->start();
}

void StallWatch::stop()
{
    if (!m_timer->isActive())
        return;
    tick();
    m_timer->stop();
}

bool StallWatch::running() const
{
    return m_timer->isActive();
}

void StallWatch::tick()
{
    const double gap = timings::millisecondsSince(m_sinceLast);
    if (gap > m_longest)
        m_longest = gap;
    m_sinceLast.restart();
}

} // namespace etscope::ui
