// SPDX-License-Identifier: MIT
#include "ui/document/layoutservice.h"

#include "core/layout/layoutwire.h"
#include "ui/document/whenfinished.h"

#include <QProcess>
#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>

namespace etscope::ui {

namespace {

/// Graphviz is not thread-safe: in-process layouts of all documents run on this one thread.
QThreadPool* layoutPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool();
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

core::Error cancelledError()
{
    return core::makeError(core::Error::Code::Cancelled, {}, "layout stopped by the user");
}

} // namespace

LayoutService* LayoutService::instance()
{
    static LayoutService* service = new LayoutService(qApp);
    return service;
}

LayoutService::LayoutService(QObject* parent)
    : QObject(parent)
{
}

LayoutService::~LayoutService()
{
    for (auto& worker : m_workers) {
        worker->process->disconnect(this);
        worker->process->kill();
        worker->process->waitForFinished(1000);
    }
}

void LayoutService::setWorker(const QString& program, const QStringList& arguments, bool startNow)
{
    m_program = program;
    m_arguments = arguments;
    if (startNow)
        startHelper();
}

void LayoutService::startHelper()
{
    if (!m_program.isEmpty() && m_workers.empty())
        startWorker();
}

void LayoutService::setInProcessBelow(int boxes)
{
    m_inProcessBelow = std::max(0, boxes);
}

void LayoutService::warmUp()
{
    auto job = std::make_shared<Job>();
    job->id = m_nextId++;
    job->warmUp = true;
    job->retried = true; // a helper that crashes on two boxes is not asked again
    core::LayoutRequest request;
    core::LayoutRequest::Node box;
    box.width = 1;
    box.height = 1;
    request.nodes = { box, box };
    request.edges = { core::LayoutRequest::Edge { 0, 1 } };
    job->request = std::make_shared<core::LayoutRequest>(std::move(request));
    m_queue.push_front(job);
    dispatch();
}

bool LayoutService::warmingUp() const
{
    return std::any_of(
        m_workers.begin(), m_workers.end(), [](const auto& worker) { return worker->job && worker->job->warmUp; });
}

void LayoutService::setMaxWorkers(int count)
{
    m_maxWorkers = std::max(1, count);
}

int LayoutService::workerCount() const
{
    return static_cast<int>(m_workers.size());
}

quint64 LayoutService::submit(core::LayoutRequest request, QObject* context, Handler handler, bool background)
{
    auto job = std::make_shared<Job>();
    job->id = m_nextId++;
    job->request = std::make_shared<core::LayoutRequest>(std::move(request));
    job->context = context;
    job->handler = std::move(handler);
    job->background = background;
    if (background && m_program.isEmpty()) { // never on the in-process thread small layouts need
        QMetaObject::invokeMethod(
            this, [job] { deliver(job, cancelledError()); }, Qt::QueuedConnection);
        return job->id;
    }
    // Someone waits for this one: it goes before every layout laid out ahead.
    const auto firstBackground = background
        ? m_queue.end()
        : std::find_if(m_queue.begin(), m_queue.end(), [](const auto& queued) { return queued->background; });
    m_queue.insert(firstBackground, job);
    dispatch();
    return job->id;
}

void LayoutService::cancel(quint64 id)
{
    const auto matches = [id](const std::shared_ptr<Job>& job) { return job && job->id == id; };
    if (const auto it = std::find_if(m_queue.begin(), m_queue.end(), matches); it != m_queue.end()) {
        const auto job = *it;
        m_queue.erase(it);
        deliver(job, cancelledError());
        return;
    }
    for (auto& worker : m_workers)
        if (matches(worker->job) && !worker->job->cancelled) {
            worker->job->cancelled = true;
            worker->process->kill(); // workerEnded delivers the cancellation
            return;
        }
    if (const auto it = std::find_if(m_inProcess.begin(), m_inProcess.end(), matches); it != m_inProcess.end()) {
        // Graphviz cannot be interrupted in this process: say stopped now, drop the result later.
        (*it)->cancelled = true;
        deliver(*it, cancelledError());
    }
}

void LayoutService::deliver(const std::shared_ptr<Job>& job, core::Result<core::LayoutResult> result)
{
    if (!job->handler)
        return;
    auto handler = std::move(job->handler);
    job->handler = nullptr;
    if (job->context)
        handler(std::move(result));
}

void LayoutService::dispatch()
{
    while (!m_queue.empty()) {
        const auto& next = m_queue.front();
        // Only background layouts are left: one at a time, leaving the other helper free.
        if (next->background && backgroundRunning())
            return;
        // Only a graph without clusters stays here: Graphviz's known crashes are in its ordering
        // code with clusters (see boundedAttributes), and a crash in this process ends the
        // user's session, where a helper's crash is retried with safer attributes.
        const bool small
            = static_cast<qsizetype>(next->request->nodes.size()) < m_inProcessBelow && next->request->clusters.empty();
        if (m_program.isEmpty() || (small && !next->background)) {
            auto job = m_queue.front();
            m_queue.pop_front();
            runInProcess(std::move(job));
            continue;
        }
        Worker* worker = idleWorker();
        // The helper warming up is ready sooner than a new one (its Graphviz is loading).
        if (!worker && static_cast<int>(m_workers.size()) < m_maxWorkers && !warmingUp())
            worker = startWorker();
        if (!worker)
            return;
        worker->job = m_queue.front();
        m_queue.pop_front();
        worker->received.clear();
        const std::string frame = core::frameBytes(core::encodeLayoutRequest(*worker->job->request));
        worker->process->write(frame.data(), static_cast<qint64>(frame.size()));
        // QProcess writes when the event loop next turns: after the view that asked has been
        // built and shown, 20-30 ms later on a small program (issue 27). Hand the helper what
        // the pipe takes now, without waiting; the rest follows from the event loop.
        worker->process->waitForBytesWritten(0);
    }
}

bool LayoutService::backgroundRunning() const
{
    return std::any_of(
        m_workers.begin(), m_workers.end(), [](const auto& worker) { return worker->job && worker->job->background; });
}

LayoutService::Worker* LayoutService::idleWorker()
{
    for (auto& worker : m_workers)
        if (!worker->job)
            return worker.get();
    return nullptr;
}

LayoutService::Worker* LayoutService::startWorker()
{
    auto worker = std::make_unique<Worker>();
    auto* process = new QProcess(this);
    worker->process = process;
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel); // Graphviz's own complaints, if any
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] { readFrom(process); });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
        workerEnded(
            process, status == QProcess::CrashExit ? tr("it crashed") : tr("it exited with status %1").arg(code));
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            workerEnded(process, tr("it could not be started (%1)").arg(process->errorString()));
    });
    m_workers.push_back(std::move(worker));
    QStringList arguments = m_arguments;
    arguments << QString::fromUtf8(
        core::kLayoutWorkerArgument.data(), static_cast<qsizetype>(core::kLayoutWorkerArgument.size()));
    process->start(m_program, arguments, QIODevice::ReadWrite);
    return m_workers.back().get();
}

void LayoutService::readFrom(QProcess* process)
{
    const auto it = std::find_if(
        m_workers.begin(), m_workers.end(), [process](const auto& worker) { return worker->process == process; });
    if (it == m_workers.end())
        return;
    Worker& worker = **it;
    worker.received += process->readAllStandardOutput();
    std::string_view payload;
    const auto taken = core::takeFrame(std::string_view(worker.received.constData(), worker.received.size()), payload);
    if (taken && *taken == 0)
        return;
    if (!worker.job) { // output nobody asked for: this helper cannot be trusted
        process->kill();
        return;
    }
    auto job = std::move(worker.job);
    worker.job = nullptr;
    if (!taken) {
        process->kill();
        deliver(job, taken.error());
    } else {
        auto result = core::decodeLayoutResult(payload);
        worker.received.remove(0, static_cast<qsizetype>(*taken));
        deliver(job, job->cancelled ? core::Result<core::LayoutResult>(cancelledError()) : std::move(result));
    }
    dispatch();
}

void LayoutService::workerEnded(QProcess* process, const QString& why)
{
    const auto it = std::find_if(
        m_workers.begin(), m_workers.end(), [process](const auto& worker) { return worker->process == process; });
    if (it == m_workers.end())
        return;
    const bool neverStarted = process->error() == QProcess::FailedToStart;
    std::shared_ptr<Job> job = std::move((*it)->job);
    m_workers.erase(it);
    process->disconnect(this);
    process->deleteLater();
    if (job) {
        if (job->cancelled) {
            deliver(job, cancelledError());
        } else if (neverStarted) {
            // No helper on this system: lay out here from now on.
            m_program.clear();
            m_queue.push_front(job);
        } else if (!job->retried) {
            job->retried = true;
            job->request->safer = true;
            m_queue.push_front(job);
        } else {
            deliver(job,
                core::makeError(core::Error::Code::Io, {},
                    tr("Graphviz failed twice on this graph of %1 boxes, the second time with its safest settings: "
                       "the layout helper %2")
                        .arg(job->request->nodes.size())
                        .arg(why)
                        .toStdString()));
        }
    }
    dispatch();
}

void LayoutService::runInProcess(std::shared_ptr<Job> job)
{
    m_inProcess.push_back(job);
    // A job cancelled while queued on the thread never starts Graphviz.
    const auto request = job->request;
    const std::weak_ptr<Job> weak = job;
    whenFinished(
        this,
        QtConcurrent::run(layoutPool(),
            [request, weak]() {
                const auto job = weak.lock();
                return core::layoutGraph(*request, job ? &job->cancelled : nullptr);
            }),
        [this, job](core::Result<core::LayoutResult> result) {
            m_inProcess.erase(std::remove(m_inProcess.begin(), m_inProcess.end(), job), m_inProcess.end());
            deliver(job, std::move(result));
        },
        [this, job](const QString& message) {
            m_inProcess.erase(std::remove(m_inProcess.begin(), m_inProcess.end(), job), m_inProcess.end());
            deliver(
                job, core::makeError(core::Error::Code::Corrupt, {}, "the layout failed: " + message.toStdString()));
        });
}

} // namespace etscope::ui
