// SPDX-License-Identifier: MIT
#include "ui/document/documentcontroller.h"

#include "core/document/etrecordgraphs.h"
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"
#include "ui/document/whenfinished.h"

#include "core/layout/graphlayout.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

namespace etscope::ui {

DocumentController::DocumentController(QObject* parent)
    : QObject(parent)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
}

DocumentController::~DocumentController()
{
    m_cancel->store(true);
    m_closing = true;
    if (m_layoutJob)
        LayoutService::instance()->cancel(m_layoutJob);
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
    m_path = m_document ? QString::fromStdString(m_document->path) : QString();
    m_cache.clear();
    m_groupings.clear();
    ++m_generation;
    Q_EMIT opened();
}

void DocumentController::stop()
{
    m_cancel->store(true);
    if (m_layoutJob)
        LayoutService::instance()->cancel(m_layoutJob);
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
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    options.cancel = m_cancel.get();
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
        this, QtConcurrent::run([path, options, cancel]() {
            auto document = core::openDocument(QFileInfo(path).filePath().toStdString(), options);
            // An ETRecord on its own is shown as its graphs.
            if (document)
                if (auto error = core::addETRecordGraphs(document.value()))
                    return core::Result<core::Document>(*error);
            return document;
        }),
        [this, generation](core::Result<core::Document> result) {
            setBusy(-1);
            if (generation != m_generation)
                return;
            if (!result) {
                if (result.error().code == core::Error::Code::Cancelled)
                    Q_EMIT stopped();
                else
                    Q_EMIT failed(QString::fromStdString(result.error().message()));
                return;
            }
            m_document = std::make_shared<const core::Document>(std::move(result).value());
            timings::report("open", m_document->readMilliseconds);
            m_cache.clear();
            m_groupings.clear();
            m_debug = {};
            m_debugWarnings.clear();
            // Debug artifacts lying beside a program join it (etrecord.bin, <stem>.etdp, …).
            if (m_document->program && !m_document->etrecord)
                attachCompanions(m_debug, *m_document->program, m_path, m_debugWarnings);
            Q_EMIT opened();
        },
        [this, generation, path](const QString& message) {
            setBusy(-1);
            if (generation == m_generation)
                Q_EMIT failed(tr("%1: reading the file failed: %2").arg(path, message));
        });
}

QString DocumentController::attachArtifact(AttachKind kind, const QString& path, const QString& debugBuffer)
{
    if (!m_document || !m_document->program || m_document->etrecord)
        return tr("%1: open a program first, then attach its debug artifacts").arg(path);
    if (auto error = attach(m_debug, kind, path, debugBuffer))
        return QString::fromStdString(error->message());
    // Chosen by the user: attached, but a record that does not fit is said so.
    if (kind == AttachKind::ETRecord)
        if (const auto why = core::etrecordMismatch(*m_debug.etrecord, *m_document->program))
            m_debugWarnings.push_back(
                { path.toStdString() + " does not look like this program's ETRecord: " + *why, std::nullopt });
    m_attachments.append({ kind, path });
    Q_EMIT debugChanged();
    return {};
}

std::shared_ptr<const core::Grouping> DocumentController::grouping(int method)
{
    auto& grouping = m_groupings[method];
    if (!grouping && m_document)
        grouping = methodGrouping(*m_document, method);
    return grouping;
}

void DocumentController::requestPresentation(const GraphContext& context, const std::set<int>& expanded)
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
    // A newer request supersedes one still running (a quick second toggle): stop the old one
    // (its answer, even one given at once, is then dropped as superseded).
    const quint64 request = ++m_layoutRequest;
    if (m_layoutJob) {
        LayoutService::instance()->cancel(m_layoutJob);
        m_layoutJob = 0;
    }
    const QString key = presentation->key();
    if (const auto it = m_cache.find(key); it != m_cache.end()) {
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
        presentation->layout = std::move(*layout);
        m_cache.insert(key, presentation);
        Q_EMIT presentationReady(presentation);
        return;
    }
    Q_EMIT layoutStarted(context, tr("Laying out %1 nodes…").arg(presentation->request.nodes.size()));
    setBusy(+1);
    Pending pending { presentation, m_generation, request, {} };
    pending.started.start();
    // One delegate or group more than a drawing already made: lay out its inside only and keep
    // the rest of that drawing where it was.
    if (auto plan = planOpening(*presentation, laidOut))
        runLayout(std::move(pending), std::make_shared<const OpeningPlan>(std::move(*plan)));
    else
        runLayout(std::move(pending), nullptr);
}

void DocumentController::runLayout(Pending pending, std::shared_ptr<const OpeningPlan> plan)
{
    core::LayoutRequest request = plan ? plan->part.request : pending.presentation->request;
    m_layoutJob = LayoutService::instance()->submit(
        std::move(request), this, [this, pending, plan](core::Result<core::LayoutResult> layout) {
            if (m_closing)
                return;
            if (pending.generation != m_generation || pending.request != m_layoutRequest) {
                setBusy(-1);
                return; // another file, or superseded by a newer request
            }
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
                if (layout.error().code == core::Error::Code::Cancelled)
                    Q_EMIT stopped();
                else
                    Q_EMIT layoutFailed(QString::fromStdString(layout.error().message()));
                return;
            }
            pending.presentation->layout = std::move(layout).value();
            m_cache.insert(pending.presentation->key(), pending.presentation);
            Q_EMIT presentationReady(pending.presentation);
        });
}

} // namespace etscope::ui
