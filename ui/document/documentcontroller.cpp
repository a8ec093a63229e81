// SPDX-License-Identifier: MIT
// DocumentController's own part: opening the file on a worker (with the debug artifacts beside
// it), adopting an opened document, stopping, and decoding the deferred inner graphs. Layout
// requests are in documentlayouts.cpp, debug data (attaching, heat tables) in documentdebugwork.cpp.
#include "ui/document/documentcontroller.h"

#include "core/document/etrecordgraphs.h"
#include "ui/common/logging.h"
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"
#include "ui/document/whenfinished.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

#include <algorithm>

namespace etscope::ui {

namespace {

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

/// One line for an open that finished (etscope.open).
void logOpened(const QString& path, double milliseconds, const core::Document& document, bool debugFound)
{
    qCDebug(logOpen).noquote() << QStringLiteral(
        "open finished: %1 in %2 ms (read %3 ms, analyse %4 ms), %5 methods, %6 warnings, %7 debug artifacts "
        "found beside it")
                                      .arg(path)
                                      .arg(milliseconds, 0, 'f', 1)
                                      .arg(document.readMilliseconds, 0, 'f', 1)
                                      .arg(document.analyseMilliseconds, 0, 'f', 1)
                                      .arg(document.methods.size())
                                      .arg(document.warnings.size())
                                      .arg(debugFound ? QStringLiteral("some") : QStringLiteral("no"));
}

/// What the open worker hands back: the document and the debug artifacts found beside it.
struct Opened {
    core::Result<core::Document> document;
    DebugSession debug;
    std::vector<core::Warning> debugWarnings;
};

/// Opens `path` (an ETRecord alone: its graphs), then attaches the debug artifacts lying beside a
/// program. On a worker.
Opened openOnWorker(const QString& path, const core::OpenOptions& options, const std::atomic<bool>& cancel)
{
    Opened result { core::openDocument(QFileInfo(path).filePath().toStdString(), options), {}, {} };
    // An ETRecord on its own is shown as its graphs.
    if (result.document)
        if (auto error = core::addETRecordGraphs(result.document.value()))
            result.document = core::Result<core::Document>(*error);
    // Debug artifacts lying beside a program join it (etrecord.bin, <stem>.etdp, …),
    // read here: an ETRecord or ETDump of many MiB kept the UI thread (issue 27 #13).
    if (result.document && result.document.value().program && !result.document.value().etrecord) {
        DebugWork work;
        work.cancel = &cancel;
        work.progress = [&options](int, const QString& text) {
            if (options.progress)
                options.progress(100, text.toStdString());
        };
        attachCompanions(result.debug, *result.document.value().program, path, result.debugWarnings, &work);
        if (cancel.load())
            result.document = core::Result<core::Document>(
                core::makeError(core::Error::Code::Cancelled, path.toStdString(), "opening stopped"));
    }
    return result;
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
    if (m_factsCancel)
        m_factsCancel->store(true);
    for (const HeatEntry& entry : std::as_const(m_heat))
        if (entry.cancel)
            entry.cancel->store(true);
    for (const ViewRequests& view : std::as_const(m_views))
        if (view.job)
            LayoutService::instance()->cancel(view.job);
    for (const Ahead& ahead : std::as_const(m_ahead))
        LayoutService::instance()->cancel(ahead.job); // m_closing: their answers are dropped
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
    dropAhead();
    m_groupings.clear();
    ++m_generation;
    dropHeatTables();
    dropNodeFacts();
    Q_EMIT opened();
}

void DocumentController::stop()
{
    m_cancel->store(true);
    stopDebugWork();
    stopNodeFacts();
    for (QObject* requester : m_views.keys())
        stopLayout(requester);
    dropAhead();
}

double DocumentController::millisecondsSinceRequest() const
{
    return timings::millisecondsSince(m_requested);
}

void DocumentController::open(const QString& path, OpenHandler done, core::OpenOptions options)
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
    whenFinished(
        this, QtConcurrent::run([path, options, cancel]() { return openOnWorker(path, options, *cancel); }),
        [this, generation, done](Opened result) {
            setBusy(-1);
            if (generation != m_generation) {
                qCDebug(logOpen).noquote() << "open superseded by a newer one:" << m_path;
                return;
            }
            if (!result.document) {
                if (result.document.error().code == core::Error::Code::Cancelled) {
                    qCDebug(logOpen).noquote() << "open stopped:" << m_path;
                    if (done)
                        done(RequestOutcome::Stopped, {});
                    Q_EMIT stopped();
                } else {
                    const QString message = QString::fromStdString(result.document.error().message());
                    qCDebug(logOpen).noquote() << "open failed after" << millisecondsSinceRequest() << "ms:" << message;
                    if (done)
                        done(RequestOutcome::Failed, message);
                    Q_EMIT failed(message);
                }
                return;
            }
            m_document = std::make_shared<const core::Document>(std::move(result.document).value());
            timings::report("open", m_document->readMilliseconds);
            logOpened(m_path, millisecondsSinceRequest(), *m_document, result.debug.run || result.debug.etrecord);
            logDelegatesOf(*m_document);
            m_cache.clear();
            dropAhead();
            m_groupings.clear();
            m_debug = std::move(result.debug);
            m_debugWarnings = std::move(result.debugWarnings);
            dropHeatTables();
            dropNodeFacts();
            if (done)
                done(RequestOutcome::Done, {});
            Q_EMIT opened();
        },
        [this, generation, path, done](const QString& message) {
            setBusy(-1);
            qCDebug(logOpen).noquote() << "open failed:" << path << message;
            if (generation != m_generation)
                return;
            const QString text = tr("%1: reading the file failed: %2").arg(path, message);
            if (done)
                done(RequestOutcome::Failed, text);
            Q_EMIT failed(text);
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

} // namespace etscope::ui
