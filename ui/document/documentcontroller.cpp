// SPDX-License-Identifier: MIT
#include "ui/document/documentcontroller.h"

#include "core/debug/eventmapper.h"
#include "core/document/etrecordgraphs.h"
#include "ui/common/logging.h"
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"
#include "ui/document/whenfinished.h"

#include "core/layout/graphlayout.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

#include <algorithm>

namespace etscope::ui {

namespace {

/// "method 0, top level" or "method 0, delegate node 12" for the layout log.
QString describeView(const GraphContext& context)
{
    return context.delegateNode.valid()
        ? QStringLiteral("method %1, delegate node %2").arg(context.method).arg(context.delegateNode.value)
        : QStringLiteral("method %1, top level").arg(context.method);
}

/// One line per delegate of an opened program and one per warning its decoder gave (etscope.delegates).
void logDelegatesOf(const core::Document& document)
{
    if (!logDelegates().isDebugEnabled() || !document.program)
        return;
    for (std::size_t m = 0; m < document.methods.size() && m < document.program->methods.size(); ++m) {
        const auto& delegates = document.methods[m].delegates;
        for (std::size_t d = 0; d < delegates.size(); ++d) {
            const core::DelegateInfo& info = delegates[d];
            qCDebug(logDelegates).noquote()
                << QStringLiteral("method '%1' delegate %2: backend %3, format %4, inner graph %5, %6 warnings: %7")
                       .arg(QString::fromStdString(document.program->methods[m].name))
                       .arg(d)
                       .arg(QString::fromStdString(info.backendId), QString::fromStdString(info.format))
                       .arg(!info.innerGraph ? QStringLiteral("none")
                               : info.innerGraph.decoded()
                               ? QStringLiteral("%1 nodes").arg(info.innerGraph->nodes.size())
                               : QStringLiteral("deferred (%1 operators)").arg(info.innerGraph.operatorCount()))
                       .arg(info.warnings.size())
                       .arg(QString::fromStdString(info.summary));
            for (const core::Warning& warning : info.warnings)
                qCDebug(logDelegates).noquote() << "  warning:" << QString::fromStdString(warning.message);
        }
    }
}

} // namespace

DocumentController::DocumentController(QObject* parent)
    : QObject(parent)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
}

DocumentController::~DocumentController()
{
    m_cancel->store(true);
    m_closing = true;
    if (m_attachCancel)
        m_attachCancel->store(true);
    for (const HeatEntry& entry : std::as_const(m_heat))
        if (entry.cancel)
            entry.cancel->store(true);
    for (const ViewRequests& view : std::as_const(m_views))
        if (view.job)
            LayoutService::instance()->cancel(view.job);
}

DocumentController::ViewRequests& DocumentController::viewRequests(QObject* requester)
{
    if (!m_views.contains(requester))
        // A view that goes stops waiting: its layout is cancelled and its entry forgotten.
        connect(requester, &QObject::destroyed, this, [this, requester] {
            const auto it = m_views.find(requester);
            if (it == m_views.end())
                return;
            const quint64 job = it->job;
            // Forgotten first: the cancellation, answered at once, must find no view to tell
            // (the view is half destroyed by now).
            m_views.erase(it);
            m_heatRequests.remove(requester);
            if (job)
                LayoutService::instance()->cancel(job);
        });
    return m_views[requester];
}

bool DocumentController::layingOut(QObject* requester) const
{
    const auto it = m_views.find(requester);
    return it != m_views.end() && it->job != 0;
}

void DocumentController::setBusy(int delta)
{
    const bool was = m_busy > 0;
    m_busy += delta;
    if (was != (m_busy > 0))
        Q_EMIT busyChanged(m_busy > 0);
}

void DocumentController::adopt(std::shared_ptr<const core::Document> document)
{
    m_document = std::move(document);
    m_deferredDecode = DeferredDecode::NotStarted;
    m_path = m_document ? QString::fromStdString(m_document->path) : QString();
    m_cache.clear();
    m_groupings.clear();
    ++m_generation;
    dropHeatTables();
    Q_EMIT opened();
}

void DocumentController::stop()
{
    m_cancel->store(true);
    stopDebugWork();
    for (QObject* requester : m_views.keys())
        stopLayout(requester);
}

void DocumentController::stopLayout(QObject* requester)
{
    const auto it = m_views.find(requester);
    if (it == m_views.end() || !it->job)
        return;
    const quint64 job = it->job;
    // The handler (run now or when the helper is killed) says layoutStopped to this view.
    LayoutService::instance()->cancel(job);
}

double DocumentController::millisecondsSinceRequest() const
{
    return timings::millisecondsSince(m_requested);
}

void DocumentController::open(const QString& path, core::OpenOptions options)
{
    m_requested.start();
    m_graphTimed = false;
    m_path = path;
    qCDebug(logOpen).noquote() << "open started:" << path;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    options.cancel = m_cancel.get();
    // Inner graphs are decoded on first use, or by decodeDeferredGraphs after the first paint
    // (ETSCOPE_EAGER_DELEGATES=1: all while opening, as the CLI does; for measuring).
    options.deferDelegateGraphs = qEnvironmentVariableIsEmpty("ETSCOPE_EAGER_DELEGATES");
    m_deferredDecode = DeferredDecode::NotStarted;
    QPointer<DocumentController> self(this);
    options.progress = [self](int percent, const std::string& phase) {
        const QString text = QString::fromStdString(phase);
        QMetaObject::invokeMethod(
            qApp,
            [self, percent, text] {
                if (self)
                    Q_EMIT self->progress(percent, text);
            },
            Qt::QueuedConnection);
    };
    setBusy(+1);
    auto cancel = m_cancel; // keeps the flag alive for the worker
    /// What the worker hands back: the document and the debug artifacts found beside it.
    struct Opened {
        core::Result<core::Document> document;
        DebugSession debug;
        std::vector<core::Warning> debugWarnings;
    };
    whenFinished(
        this, QtConcurrent::run([path, options, cancel]() {
            Opened result { core::openDocument(QFileInfo(path).filePath().toStdString(), options), {}, {} };
            // An ETRecord on its own is shown as its graphs.
            if (result.document)
                if (auto error = core::addETRecordGraphs(result.document.value()))
                    result.document = core::Result<core::Document>(*error);
            // Debug artifacts lying beside a program join it (etrecord.bin, <stem>.etdp, …),
            // read here: an ETRecord or ETDump of many MiB kept the UI thread (issue 27 #13).
            if (result.document && result.document.value().program && !result.document.value().etrecord) {
                DebugWork work;
                work.cancel = cancel.get();
                work.progress = [&options](int, const QString& text) {
                    if (options.progress)
                        options.progress(100, text.toStdString());
                };
                attachCompanions(result.debug, *result.document.value().program, path, result.debugWarnings, &work);
                if (cancel->load())
                    result.document = core::Result<core::Document>(
                        core::makeError(core::Error::Code::Cancelled, path.toStdString(), "opening stopped"));
            }
            return result;
        }),
        [this, generation](Opened result) {
            setBusy(-1);
            if (generation != m_generation) {
                qCDebug(logOpen).noquote() << "open superseded by a newer one:" << m_path;
                return;
            }
            if (!result.document) {
                if (result.document.error().code == core::Error::Code::Cancelled) {
                    qCDebug(logOpen).noquote() << "open stopped:" << m_path;
                    Q_EMIT stopped();
                } else {
                    const QString message = QString::fromStdString(result.document.error().message());
                    qCDebug(logOpen).noquote() << "open failed after" << millisecondsSinceRequest() << "ms:" << message;
                    Q_EMIT failed(message);
                }
                return;
            }
            m_document = std::make_shared<const core::Document>(std::move(result.document).value());
            timings::report("open", m_document->readMilliseconds);
            qCDebug(logOpen).noquote() << QStringLiteral(
                "open finished: %1 in %2 ms (read %3 ms, analyse %4 ms), %5 methods, %6 warnings, %7 debug artifacts "
                "found beside it")
                                              .arg(m_path)
                                              .arg(millisecondsSinceRequest(), 0, 'f', 1)
                                              .arg(m_document->readMilliseconds, 0, 'f', 1)
                                              .arg(m_document->analyseMilliseconds, 0, 'f', 1)
                                              .arg(m_document->methods.size())
                                              .arg(m_document->warnings.size())
                                              .arg(result.debug.run || result.debug.etrecord ? QStringLiteral("some")
                                                                                             : QStringLiteral("no"));
            logDelegatesOf(*m_document);
            m_cache.clear();
            m_groupings.clear();
            m_debug = std::move(result.debug);
            m_debugWarnings = std::move(result.debugWarnings);
            dropHeatTables();
            Q_EMIT opened();
        },
        [this, generation, path](const QString& message) {
            setBusy(-1);
            qCDebug(logOpen).noquote() << "open failed:" << path << message;
            if (generation == m_generation)
                Q_EMIT failed(tr("%1: reading the file failed: %2").arg(path, message));
        });
}

bool DocumentController::graphsPending(int method) const
{
    if (!m_document)
        return false;
    const auto pending = [](const core::MethodAnalysis& analysis) {
        return std::any_of(analysis.delegates.begin(), analysis.delegates.end(),
            [](const core::DelegateInfo& info) { return info.innerGraph && !info.innerGraph.decoded(); });
    };
    if (method < 0)
        return std::any_of(m_document->methods.begin(), m_document->methods.end(), pending);
    return static_cast<std::size_t>(method) < m_document->methods.size()
        && pending(m_document->methods[static_cast<std::size_t>(method)]);
}

void DocumentController::decodeDeferredGraphs()
{
    if (!m_document || m_deferredDecode != DeferredDecode::NotStarted)
        return;
    if (!graphsPending()) {
        m_deferredDecode = DeferredDecode::Done; // none deferred, or all read already
        Q_EMIT deferredDecodeFinished();
        return;
    }
    m_deferredDecode = DeferredDecode::Running;
    const auto document = m_document;
    const auto cancel = m_cancel;
    const quint64 generation = m_generation;
    QElapsedTimer started;
    started.start();
    // One decode per delegate: a UI-thread read of the same inner graph (an expand, a search)
    // waits for this one's result instead of decoding it again (core::SubgraphRef).
    whenFinished(
        this, QtConcurrent::run([document, cancel] {
            core::decodeDeferredGraphs(*document, cancel.get());
            return !cancel->load();
        }),
        [this, generation, started](bool finished) {
            if (generation != m_generation)
                return;
            // Stopped: what is left decodes on first use.
            m_deferredDecode = finished ? DeferredDecode::Done : DeferredDecode::NotStarted;
            if (finished) {
                timings::report("delegate-decode", static_cast<double>(started.elapsed()));
                qCDebug(logOpen).noquote() << "deferred inner graphs decoded after" << started.elapsed() << "ms";
                logDelegatesOf(*m_document);
            }
            Q_EMIT deferredDecodeFinished();
        },
        [this, generation](const QString& message) {
            qCDebug(logOpen).noquote() << "decoding the deferred inner graphs failed:" << message;
            if (generation != m_generation)
                return;
            m_deferredDecode = DeferredDecode::NotStarted;
            Q_EMIT deferredDecodeFinished();
        });
}

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

void DocumentController::attachArtifact(AttachKind kind, const QString& path, const QString& debugBuffer)
{
    if (!m_document || !m_document->program || m_document->etrecord) {
        const QString error = tr("%1: open a program first, then attach its debug artifacts").arg(path);
        // Said after the caller has connected to the answer, as for any other attachment.
        QMetaObject::invokeMethod(
            this, [this, kind, path, error] { Q_EMIT attachFinished(kind, path, error); }, Qt::QueuedConnection);
        return;
    }
    qCDebug(logDebug).noquote() << "attach queued:" << path;
    m_attachQueue.push_back({ kind, path, debugBuffer });
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
                Q_EMIT attachStopped(job.kind, job.path);
            } else if (result.error) {
                const QString message = QString::fromStdString(result.error->message());
                qCDebug(logDebug).noquote() << "attach failed after" << started->elapsed() << "ms:" << message;
                Q_EMIT attachFinished(job.kind, job.path, message);
            } else {
                switch (job.kind) {
                case AttachKind::Run:
                    m_debug.run = result.read.run;
                    break;
                case AttachKind::Reference:
                    m_debug.reference = result.read.reference;
                    break;
                case AttachKind::ETRecord:
                    m_debug.etrecord = result.read.etrecord;
                    break;
                case AttachKind::InspectorTable:
                    m_debug.inspectorPath = result.read.inspectorPath;
                    m_debug.inspectorRows = result.read.inspectorRows;
                    break;
                }
                // Chosen by the user: attached, but a record that does not fit is said so.
                if (result.mismatch)
                    m_debugWarnings.push_back(
                        { job.path.toStdString() + " does not look like this program's ETRecord: " + *result.mismatch,
                            std::nullopt });
                m_attachments.append({ job.kind, job.path });
                // Heat tables of the old session are dropped; views ask again on debugChanged.
                dropHeatTables();
                qCDebug(logDebug).noquote()
                    << QStringLiteral("attach finished: %1 in %2 ms%3")
                           .arg(job.path)
                           .arg(started->elapsed())
                           .arg(result.mismatch ? QStringLiteral(", not this program's ETRecord") : QString());
                Q_EMIT debugChanged();
                Q_EMIT attachFinished(job.kind, job.path, QString());
            }
            startNextAttach();
        },
        [this, job, generation](const QString& message) {
            if (generation != m_generation)
                return;
            qCDebug(logDebug).noquote() << "attach failed:" << job.path << message;
            Q_EMIT attachFinished(job.kind, job.path, tr("%1: reading it failed: %2").arg(job.path, message));
            startNextAttach();
        });
}

void DocumentController::stopDebugWork()
{
    const auto queued = std::move(m_attachQueue);
    m_attachQueue.clear();
    for (const AttachJob& job : queued)
        Q_EMIT attachStopped(job.kind, job.path);
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
                    self.data(), QtConcurrent::run([base, delegateNode]() {
                        auto data = std::make_shared<HeatData>();
                        data->warnings = base->warnings;
                        data->divergence = base->divergence;
                        for (const auto& prepared : base->tables) {
                            // Inside a delegate only its own nodes can be coloured.
                            auto table = std::make_shared<core::HeatTable>();
                            table->title = prepared->table->title;
                            table->columns = prepared->table->columns;
                            for (const core::HeatTable::Row& row : prepared->table->rows)
                                if (row.origin.top == delegateNode && row.origin.inner.valid())
                                    table->rows.push_back(row);
                            // A table with no row here colours nothing: no legend or empty table.
                            if (!table->rows.empty())
                                data->tables.push_back(prepareHeatTable(std::move(table)));
                        }
                        return std::shared_ptr<const HeatData>(std::move(data));
                    }),
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
        this, QtConcurrent::run([document, session, method, cancel, progress]() -> std::shared_ptr<const HeatData> {
            DebugWork work { cancel.get(), progress };
            auto data = std::make_shared<HeatData>();
            auto tables = session.heatTables(*document, method, data->warnings, &work, &data->divergence);
            if (!tables || cancel->load())
                return nullptr;
            for (core::HeatTable& table : *tables)
                data->tables.push_back(prepareHeatTable(std::make_shared<const core::HeatTable>(std::move(table))));
            // The run's timeline on this method, built here too (proportional to its events).
            if (session.run) {
                const auto m = static_cast<std::size_t>(method);
                const core::EventMapper mapper(
                    *document->methods[m].graph, session.etrecord.get(), document->program->methods[m].name);
                // The run's fit to the program is already among the heat tables' warnings.
                core::TimelineOptions options;
                options.checkFit = false;
                if (auto timeline = core::buildTimeline(*session.run, &mapper, options);
                    timeline && !timeline.value().runs.empty())
                    data->timeline = std::make_shared<const core::Timeline>(std::move(timeline).value());
            }
            return std::shared_ptr<const HeatData>(std::move(data));
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

std::shared_ptr<const core::Grouping> DocumentController::grouping(int method)
{
    auto& grouping = m_groupings[method];
    if (!grouping && m_document)
        grouping = firstViewGrouping(*m_document, method, m_debug.etrecord.get());
    return grouping;
}

void DocumentController::requestPresentation(
    QObject* requester, const GraphContext& context, const std::set<int>& expanded)
{
    if (!m_document || !m_document->program)
        return;
    QElapsedTimer preparing;
    preparing.start();
    std::shared_ptr<Presentation> presentation
        = preparePresentation(m_document, context, expanded, grouping(context.method));
    timings::report(
        "graph", timings::millisecondsSince(preparing) + (m_graphTimed ? 0.0 : m_document->analyseMilliseconds));
    m_graphTimed = true;
    // A newer request of the same view supersedes its own one still running (a quick second
    // toggle): stop the old one (its answer, even one given at once, is then dropped as
    // superseded). Another view's request (a delegate's tab opening while its parent lays
    // out) leaves it alone (issue 27 #15).
    const quint64 request = ++m_layoutRequest;
    ViewRequests& view = viewRequests(requester);
    view.latest = request;
    if (view.job) {
        const quint64 old = view.job;
        view.job = 0;
        LayoutService::instance()->cancel(old);
    }
    const QString key = presentation->key();
    qCDebug(logLayout).noquote() << QStringLiteral("layout requested: %1, %2 nodes, %3 edges")
                                        .arg(describeView(context))
                                        .arg(presentation->request.nodes.size())
                                        .arg(presentation->request.edges.size());
    if (const auto it = m_cache.find(key); it != m_cache.end()) {
        qCDebug(logLayout).noquote() << "layout finished: drawn before, from the cache:" << describeView(context);
        Q_EMIT presentationReady(*it);
        return;
    }
    const auto laidOut = [this](const QString& key) {
        const auto it = m_cache.find(key);
        return it == m_cache.end() ? nullptr : *it;
    };
    // One delegate or group less than a drawing already made: shrink its frame back into the
    // box, no Graphviz needed and the rest stays where it was.
    QElapsedTimer closing;
    closing.start();
    if (auto layout = layoutByClosing(*presentation, laidOut)) {
        timings::report("layout", timings::millisecondsSince(closing));
        qCDebug(logLayout).noquote() << "layout finished: a drawing made before, closed in"
                                     << timings::millisecondsSince(closing) << "ms:" << describeView(context);
        presentation->layout = std::move(*layout);
        m_cache.insert(key, presentation);
        Q_EMIT presentationReady(presentation);
        return;
    }
    Q_EMIT layoutStarted(requester, context, tr("Laying out %1 nodes…").arg(presentation->request.nodes.size()));
    setBusy(+1);
    Pending pending { presentation, m_generation, request, requester, {} };
    pending.started.start();
    // One delegate or group more than a drawing already made: lay out its inside only and keep
    // the rest of that drawing where it was.
    if (auto plan = planOpening(*presentation, laidOut)) {
        qCDebug(logLayout).noquote() << "layout: only the opened part," << plan->part.request.nodes.size()
                                     << "nodes, goes to Graphviz";
        runLayout(std::move(pending), std::make_shared<const OpeningPlan>(std::move(*plan)));
    } else {
        runLayout(std::move(pending), nullptr);
    }
}

void DocumentController::runLayout(Pending pending, std::shared_ptr<const OpeningPlan> plan)
{
    core::LayoutRequest request = plan ? plan->part.request : pending.presentation->request;
    const quint64 job = LayoutService::instance()->submit(
        std::move(request), this, [this, pending, plan](core::Result<core::LayoutResult> layout) {
            if (m_closing)
                return;
            const auto view = m_views.find(pending.requester);
            if (pending.generation != m_generation || view == m_views.end() || pending.request != view->latest) {
                qCDebug(logLayout).noquote()
                    << "layout answer dropped (another file, the view gone or a newer request)";
                setBusy(-1);
                return; // another file, a view gone, or superseded by the view's newer request
            }
            view->job = 0;
            if (layout && plan) {
                auto composed = core::composeOpening(pending.presentation->request, plan->base->request,
                    plan->base->layout, plan->opening, layout.value());
                if (!composed) { // the drawings do not correspond after all: lay out the whole
                    runLayout(pending, nullptr);
                    return;
                }
                layout = std::move(*composed);
            }
            timings::report("layout", timings::millisecondsSince(pending.started));
            setBusy(-1);
            if (!layout) {
                if (layout.error().code == core::Error::Code::Cancelled) {
                    qCDebug(logLayout).noquote()
                        << "layout cancelled after" << timings::millisecondsSince(pending.started) << "ms";
                    Q_EMIT layoutStopped(pending.requester);
                } else {
                    const QString message = QString::fromStdString(layout.error().message());
                    qCDebug(logLayout).noquote() << "layout failed:" << message;
                    Q_EMIT layoutFailed(pending.requester, message);
                }
                return;
            }
            qCDebug(logLayout).noquote() << QStringLiteral("layout finished: %1 nodes in %2 ms%3")
                                                .arg(pending.presentation->request.nodes.size())
                                                .arg(timings::millisecondsSince(pending.started), 0, 'f', 1)
                                                .arg(plan ? QStringLiteral(" (the opened part laid out alone)")
                                                          : QString());
            pending.presentation->layout = std::move(layout).value();
            m_cache.insert(pending.presentation->key(), pending.presentation);
            Q_EMIT presentationReady(pending.presentation);
        });
    // LayoutService answers later, never from within submit.
    if (const auto view = m_views.find(pending.requester); view != m_views.end() && view->latest == pending.request)
        view->job = job;
}

} // namespace etscope::ui
