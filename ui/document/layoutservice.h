// SPDX-License-Identifier: MIT
#pragma once

#include "core/layout/graphlayout.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

class QProcess;

namespace etscope::ui {

/// Runs Graphviz layouts for every open document. With a worker program set (the app sets
/// itself, `etscope --layout-worker`), each layout runs in a helper process:
/// - Cancel kills the process, so a long Graphviz call really stops;
/// - a Graphviz crash costs the helper, and the layout is retried once with safer attributes;
/// - two helpers lay out two tabs on two cores.
/// Idle helpers stay up for the next layout. Without a worker program (tests, a helper that
/// cannot start) layouts run in this process on one thread, and cancel takes effect only
/// before Graphviz starts.
class LayoutService : public QObject {
    Q_OBJECT
public:
    using Handler = std::function<void(core::Result<core::LayoutResult>)>;

    /// The one service of the application.
    static LayoutService* instance();

    explicit LayoutService(QObject* parent = nullptr);
    ~LayoutService() override;

    /// The helper: `program arguments… --layout-worker`; an empty program lays out in process.
    /// `startNow` starts one helper at once (its process start overlaps what the app does
    /// next); otherwise the first layout that needs one starts it (or startHelper()).
    void setWorker(const QString& program, const QStringList& arguments = {}, bool startNow = true);
    /// Starts one idle helper when a helper program is set and none runs.
    void startHelper();
    /// Layouts of fewer boxes than this run in this process even with a helper program set:
    /// Graphviz takes a few ms on them, less than the pipe and a helper competing for the CPU
    /// with the app at start (issue 27). Graphs with clusters (an open group or delegate) always
    /// go to a helper, where a Graphviz crash cannot end the session. 0 (the default) sends every
    /// layout to a helper.
    void setInProcessBelow(int boxes);
    QString workerProgram() const { return m_program; }
    /// At most this many helpers run at once (default 2).
    void setMaxWorkers(int count);
    /// Loads Graphviz and its plugins before the first real layout, with a layout of two boxes:
    /// on the in-process layout thread when small layouts run here (setInProcessBelow) or
    /// there is no helper program, else in the helper (started now when none runs). A helper's Graphviz is otherwise
    /// loaded by its first request, which the first file's first paint waits for (issue 27). A layout submitted while
    /// the helper warms up waits for it rather than starting a cold second helper.
    void warmUp();

    /// Queues a layout; `handler` runs on this object's thread with the layout, the error, or
    /// Error::Code::Cancelled, unless `context` is gone by then. Returns the job's id.
    /// A `background` layout (one laid out ahead of a click nobody made yet) waits behind every
    /// other, runs only in a helper and one at a time, so that a layout someone waits for
    /// always finds a helper of its own; without a helper program it is answered Cancelled.
    quint64 submit(core::LayoutRequest request, QObject* context, Handler handler, bool background = false);
    /// Stops a job: dropped when queued, its helper killed when running. No-op for finished jobs.
    void cancel(quint64 job);
    /// Helper processes alive now (busy or idle).
    int workerCount() const;

private:
    struct Job {
        quint64 id = 0;
        std::shared_ptr<core::LayoutRequest> request;
        QPointer<QObject> context;
        Handler handler;
        bool retried = false;
        bool warmUp = false; ///< warmUp()'s layout: nobody waits for its answer
        bool background = false; ///< submit()'s `background`
        std::atomic<bool> cancelled { false }; ///< read by the in-process layout thread
    };
    struct Worker {
        QProcess* process = nullptr;
        QByteArray received;
        std::shared_ptr<Job> job;
    };

    void dispatch();
    void runInProcess(std::shared_ptr<Job> job);
    Worker* idleWorker();
    bool backgroundRunning() const;
    bool warmingUp() const;
    Worker* startWorker();
    void readFrom(QProcess* process);
    void workerEnded(QProcess* process, const QString& why);
    static void deliver(const std::shared_ptr<Job>& job, core::Result<core::LayoutResult> result);

    QString m_program;
    QStringList m_arguments;
    int m_inProcessBelow = 0;
    int m_maxWorkers = 2;
    quint64 m_nextId = 1;
    std::deque<std::shared_ptr<Job>> m_queue;
    std::vector<std::unique_ptr<Worker>> m_workers;
    std::vector<std::shared_ptr<Job>> m_inProcess; ///< running on the in-process thread
};

} // namespace etscope::ui
