// SPDX-License-Identifier: MIT
// A document's debug data: artifacts attached one after another on a worker, and the heat tables
// of each view (a method, or one delegate of it) built on a worker and cached until the debug
// data changes (issue 27 #13). Both report progress and stop when asked.
#include "ui/document/documentcontroller.h"

#include "core/cost/costheat.h"
#include "core/debug/eventmapper.h"
#include "core/document/etrecordgraphs.h"
#include "ui/common/logging.h"
#include "ui/document/whenfinished.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

#include <algorithm>

namespace etscope::ui {

namespace {

/// What `read` (a session holding one artifact of `kind`) adds to `session`.
void takeArtifact(DebugSession& session, AttachKind kind, const DebugSession& read)
{
    switch (kind) {
    case AttachKind::Run:
        session.run = read.run;
        break;
    case AttachKind::Reference:
        session.reference = read.reference;
        break;
    case AttachKind::ETRecord:
        session.etrecord = read.etrecord;
        break;
    case AttachKind::InspectorTable:
        session.inspectorPath = read.inspectorPath;
        session.inspectorRows = read.inspectorRows;
        break;
    case AttachKind::VelaLog:
    case AttachKind::RunLog:
    case AttachKind::PartitionLog: {
        // The same log attached again is read once.
        const auto append = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
            for (const std::string& path : from)
                if (std::find(to.begin(), to.end(), path) == to.end())
                    to.push_back(path);
        };
        append(session.logs.vela, read.logs.vela);
        append(session.logs.runs, read.logs.runs);
        append(session.logs.partitions, read.logs.partitions);
        break;
    }
    }
}

/// A delegate's tab: the rows of the method's tables that are inner nodes of `delegateNode`.
std::shared_ptr<const HeatData> delegateHeatData(const HeatData& base, core::NodeId delegateNode)
{
    auto data = std::make_shared<HeatData>();
    data->warnings = base.warnings;
    data->divergence = base.divergence;
    for (std::size_t t = 0; t < base.tables.size(); ++t) {
        const auto& prepared = base.tables[t];
        // Inside a delegate only its own nodes can be coloured.
        auto table = std::make_shared<core::HeatTable>();
        table->title = prepared->table->title;
        table->columns = prepared->table->columns;
        for (const core::HeatTable::Row& row : prepared->table->rows)
            if (row.origin.top == delegateNode && row.origin.inner.valid())
                table->rows.push_back(row);
        // A table with no row here colours nothing: no legend or empty table.
        if (!table->rows.empty()) {
            data->tables.push_back(prepareHeatTable(std::move(table)));
            data->costTables += t >= base.tables.size() - base.costTables ? 1 : 0;
        }
    }
    return data;
}

/// The "Cost" table of `method` (core/cost/costheat.h); nullopt when nothing was counted.
std::optional<core::HeatTable> methodCostTable(const core::Document& document, int method)
{
    const auto m = static_cast<std::size_t>(method);
    if (!document.program || m >= document.methods.size() || !document.methods[m].graph)
        return std::nullopt;
    const std::string& name = document.program->methods[m].name;
    auto report = core::cost::computeCost(document, { name });
    if (!report || report.value().nodes.empty())
        return std::nullopt;
    return core::cost::costHeatTable(report.value(), *document.methods[m].graph, name);
}

/// The heat tables of `method` and the run's timeline on it; nullptr when stopped. On a worker.
std::shared_ptr<const HeatData> methodHeatData(
    const core::Document& document, const DebugSession& session, int method, const DebugWork& work)
{
    auto data = std::make_shared<HeatData>();
    auto tables = session.heatTables(document, method, data->warnings, &work, &data->divergence);
    if (!tables || work.stopped())
        return nullptr;
    for (core::HeatTable& table : *tables)
        data->tables.push_back(prepareHeatTable(std::make_shared<const core::HeatTable>(std::move(table))));
    // What each node costs (issue 34 item 4), after the debug data's tables: needs no ETDump.
    if (auto cost = methodCostTable(document, method)) {
        data->tables.push_back(prepareHeatTable(std::make_shared<const core::HeatTable>(std::move(*cost))));
        data->costTables = 1;
    }
    // The run's timeline on this method, built here too (proportional to its events).
    if (session.run) {
        const auto m = static_cast<std::size_t>(method);
        const core::EventMapper mapper(
            *document.methods[m].graph, session.etrecord.get(), document.program->methods[m].name);
        // The run's fit to the program is already among the heat tables' warnings.
        core::TimelineOptions options;
        options.checkFit = false;
        if (auto timeline = core::buildTimeline(*session.run, &mapper, options);
            timeline && !timeline.value().runs.empty())
            data->timeline = std::make_shared<const core::Timeline>(std::move(timeline).value());
    }
    return data;
}

} // namespace

std::function<void(int, const QString&)> DocumentController::progressSink()
{
    QPointer<DocumentController> self(this);
    auto last = std::make_shared<QElapsedTimer>();
    // Called by one worker at a time per sink: the timer needs no lock.
    return [self, last](int percent, const QString& text) {
        if (last->isValid() && last->elapsed() < 50)
            return;
        last->start();
        QMetaObject::invokeMethod(
            qApp,
            [self, percent, text] {
                if (self && self->debugBusy())
                    Q_EMIT self->debugProgress(percent, text);
            },
            Qt::QueuedConnection);
    };
}

bool DocumentController::debugBusy() const
{
    if (m_attachRunning)
        return true;
    for (const HeatEntry& entry : m_heat)
        if (!entry.data && entry.cancel)
            return true;
    return false;
}

void DocumentController::updateDebugBusy()
{
    const bool busy = debugBusy();
    if (busy != m_debugBusy) {
        m_debugBusy = busy;
        Q_EMIT debugBusyChanged(busy);
    }
}

void DocumentController::setAttachRunning(bool running)
{
    m_attachRunning = running;
    updateDebugBusy();
}

void DocumentController::dropHeatTables()
{
    ++m_debugGeneration;
    for (const HeatEntry& entry : std::as_const(m_heat))
        if (entry.cancel)
            entry.cancel->store(true); // a worker still running stops; its answer is dropped
    m_heat.clear();
    updateDebugBusy();
}

void DocumentController::attachArtifact(
    AttachKind kind, const QString& path, AttachHandler done, const QString& debugBuffer)
{
    if (!m_document || !m_document->program || m_document->etrecord) {
        const QString error = tr("%1: open a program first, then attach its debug artifacts").arg(path);
        // Answered later, as any other attachment is (never from within this call).
        QMetaObject::invokeMethod(
            this,
            [done, error] {
                if (done)
                    done(RequestOutcome::Failed, error);
            },
            Qt::QueuedConnection);
        return;
    }
    qCDebug(logDebug).noquote() << "attach queued:" << path;
    m_attachQueue.push_back({ kind, path, debugBuffer, std::move(done) });
    if (!m_attachRunning)
        startNextAttach();
}

void DocumentController::startNextAttach()
{
    if (m_attachQueue.empty() || m_closing) {
        setAttachRunning(false);
        return;
    }
    const AttachJob job = m_attachQueue.front();
    m_attachQueue.pop_front();
    m_attachCancel = std::make_shared<std::atomic<bool>>(false);
    setAttachRunning(true);
    Q_EMIT debugProgress(-1, tr("Attaching %1…").arg(QFileInfo(job.path).fileName()));
    qCDebug(logDebug).noquote() << "attach started:" << job.path;
    auto started = std::make_shared<QElapsedTimer>();
    started->start();
    /// The worker's answer: the artifact read into a session of its own, merged on this thread.
    struct Attached {
        std::optional<core::Error> error;
        DebugSession read;
        std::optional<std::string> mismatch; ///< an ETRecord that does not look like this program's
    };
    const auto document = m_document;
    const auto cancel = m_attachCancel;
    const auto progress = progressSink();
    const quint64 generation = m_generation;
    whenFinished(
        this, QtConcurrent::run([job, document, cancel, progress]() {
            Attached result;
            DebugWork work { cancel.get(), progress };
            result.error = attach(result.read, job.kind, job.path, job.debugBuffer, &work);
            if (!result.error && cancel->load())
                result.error = core::makeError(core::Error::Code::Cancelled, job.path.toStdString(), "stopped");
            if (!result.error && job.kind == AttachKind::ETRecord)
                result.mismatch = core::etrecordMismatch(*result.read.etrecord, *document->program);
            return result;
        }),
        [this, job, generation, started](Attached result) {
            if (generation != m_generation)
                return; // another file was opened meanwhile
            if (result.error && result.error->code == core::Error::Code::Cancelled) {
                qCDebug(logDebug).noquote() << "attach stopped:" << job.path;
                job.answer(RequestOutcome::Stopped, {});
            } else if (result.error) {
                const QString message = QString::fromStdString(result.error->message());
                qCDebug(logDebug).noquote() << "attach failed after" << started->elapsed() << "ms:" << message;
                job.answer(RequestOutcome::Failed, message);
            } else {
                // Another program's record is not attached (its names and counts would be wrong),
                // in the words the CLI prints when it does not use one (core::foreignETRecordMessage).
                if (result.mismatch) {
                    const std::string message = core::foreignETRecordMessage(
                        job.path.toStdString(), m_document ? m_document->path : std::string(), *result.mismatch);
                    m_debugWarnings.push_back({ message, std::nullopt });
                    Q_EMIT debugChanged();
                    job.answer(RequestOutcome::Failed, QString::fromStdString(message));
                    startNextAttach();
                    return;
                }
                takeArtifact(m_debug, job.kind, result.read);
                m_attachments.append({ job.kind, job.path });
                // Heat tables of the old session are dropped; views ask again on debugChanged.
                dropHeatTables();
                // A log or an ETRecord changes what the node facts say: computed again (if asked for).
                if (job.kind == AttachKind::VelaLog || job.kind == AttachKind::RunLog
                    || job.kind == AttachKind::PartitionLog || job.kind == AttachKind::ETRecord)
                    refreshNodeFacts();
                qCDebug(logDebug).noquote()
                    << QStringLiteral("attach finished: %1 in %2 ms%3")
                           .arg(job.path)
                           .arg(started->elapsed())
                           .arg(result.mismatch ? QStringLiteral(", not this program's ETRecord") : QString());
                Q_EMIT debugChanged();
                job.answer(RequestOutcome::Done, {});
            }
            startNextAttach();
        },
        [this, job, generation](const QString& message) {
            if (generation != m_generation)
                return;
            qCDebug(logDebug).noquote() << "attach failed:" << job.path << message;
            job.answer(RequestOutcome::Failed, tr("%1: reading it failed: %2").arg(job.path, message));
            startNextAttach();
        });
}

void DocumentController::stopDebugWork()
{
    const auto queued = std::move(m_attachQueue);
    m_attachQueue.clear();
    for (const AttachJob& job : queued)
        job.answer(RequestOutcome::Stopped, {});
    if (m_attachCancel)
        m_attachCancel->store(true);
    for (const HeatEntry& entry : std::as_const(m_heat))
        if (entry.cancel && !entry.data)
            entry.cancel->store(true);
}

void DocumentController::requestHeatTables(
    QObject* requester, int method, core::NodeId delegateNode, HeatHandler handler)
{
    if (!m_document || !m_document->program)
        return;
    viewRequests(requester); // forgets the requester when it goes
    const quint64 request = ++m_heatRequest;
    m_heatRequests[requester] = request;
    waitForHeat({ method, delegateNode.valid() ? delegateNode.value : -1 }, requester, request, std::move(handler));
}

void DocumentController::waitForHeat(HeatKey key, QObject* requester, quint64 request, HeatHandler handler)
{
    HeatEntry& entry = m_heat[key];
    if (entry.data) {
        handler(entry.data);
        return;
    }
    entry.waiters.push_back({ requester, request, std::move(handler) });
    if (!entry.cancel)
        startHeat(key);
}

void DocumentController::startHeat(HeatKey key)
{
    HeatEntry& entry = m_heat[key];
    entry.cancel = std::make_shared<std::atomic<bool>>(false);
    updateDebugBusy();
    const quint64 generation = m_debugGeneration;
    const auto cancel = entry.cancel;
    const auto progress = progressSink();
    const auto document = m_document;
    const DebugSession session = m_debug; // plain data, shared artifacts: read by the worker only
    const core::NodeId delegateNode(key.second);
    // A delegate's tab shows the rows of its own inner nodes: taken from the whole method's
    // tables when those are built (or being built), so a table is read once.
    if (key.second >= 0) {
        QPointer<DocumentController> self(this);
        // Request 0: this controller's own wait, never superseded.
        waitForHeat({ key.first, -1 }, this, 0,
            [self, key, generation, cancel, delegateNode](std::shared_ptr<const HeatData> base) {
                if (!self)
                    return;
                if (!base || cancel->load()) {
                    self->finishHeat(key, generation, nullptr);
                    return;
                }
                whenFinished(
                    self.data(),
                    QtConcurrent::run([base, delegateNode]() { return delegateHeatData(*base, delegateNode); }),
                    [self, key, generation](std::shared_ptr<const HeatData> data) {
                        if (self)
                            self->finishHeat(key, generation, std::move(data));
                    },
                    [self, key, generation](const QString& message) {
                        qWarning("etscope: building a delegate's heat table failed: %s", qUtf8Printable(message));
                        if (self)
                            self->finishHeat(key, generation, std::make_shared<const HeatData>());
                    });
            });
        return;
    }
    const int method = key.first;
    whenFinished(
        this, QtConcurrent::run([document, session, method, cancel, progress]() {
            return methodHeatData(*document, session, method, DebugWork { cancel.get(), progress });
        }),
        [this, key, generation](std::shared_ptr<const HeatData> data) { finishHeat(key, generation, std::move(data)); },
        [this, key, generation](const QString& message) {
            auto data = std::make_shared<HeatData>();
            data->warnings.push_back({ "building the heat tables failed: " + message.toStdString(), std::nullopt });
            finishHeat(key, generation, std::move(data));
        });
}

void DocumentController::finishHeat(HeatKey key, quint64 generation, std::shared_ptr<const HeatData> data)
{
    if (generation != m_debugGeneration || m_closing)
        return; // the debug data changed meanwhile: the views have asked again
    const auto it = m_heat.find(key);
    if (it == m_heat.end())
        return;
    std::vector<HeatEntry::Waiter> waiters = std::move(it->waiters);
    if (data)
        it->data = data;
    else
        m_heat.erase(it); // stopped: asked again, it is built again
    updateDebugBusy();
    for (HeatEntry::Waiter& waiter : waiters)
        if (waiter.requester && (waiter.request == 0 || m_heatRequests.value(waiter.requester) == waiter.request))
            waiter.handler(data);
}

} // namespace etscope::ui
