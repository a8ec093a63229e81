// SPDX-License-Identifier: MIT
// A document's layout requests: each view owns its own (issue 27 #15). The presentation is
// prepared here, answered from the cache, closed or opened from an earlier drawing, or laid out by
// the LayoutService; a view's newer request supersedes only its own older one.
#include "ui/document/documentcontroller.h"

#include "core/layout/graphlayout.h"
#include "ui/common/logging.h"
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"

namespace etscope::ui {

namespace {

/// "method 0, top level" or "method 0, delegate node 12" for the layout log.
QString describeView(const GraphContext& context)
{
    return context.delegateNode.valid()
        ? QStringLiteral("method %1, delegate node %2").arg(context.method).arg(context.delegateNode.value)
        : QStringLiteral("method %1, top level").arg(context.method);
}

} // namespace

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
            leaveAhead(requester, /*stopped=*/false);
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
    return it != m_views.end() && (it->job != 0 || !it->ahead.isEmpty());
}

void DocumentController::stopLayout(QObject* requester)
{
    leaveAhead(requester, /*stopped=*/true);
    const auto it = m_views.find(requester);
    if (it == m_views.end() || !it->job)
        return;
    const quint64 job = it->job;
    // The handler (run now or when the helper is killed) answers this view: stopped.
    LayoutService::instance()->cancel(job);
}

std::shared_ptr<const core::Grouping> DocumentController::grouping(int method)
{
    auto& grouping = m_groupings[method];
    if (!grouping && m_document)
        grouping = firstViewGrouping(*m_document, method, m_debug.etrecord.get());
    return grouping;
}

void DocumentController::requestPresentation(
    QObject* requester, const GraphContext& context, const std::set<int>& expanded, LayoutAnswer answer)
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
    leaveAhead(requester, /*stopped=*/false);
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
        if (answer.ready)
            answer.ready(*it);
        return;
    }
    const auto laidOut = [this](const QString& key) { return m_cache.value(key); }; // nullptr when not drawn
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
        if (answer.ready)
            answer.ready(presentation);
        return;
    }
    const QString what = tr("Laying out %1 nodes…").arg(presentation->request.nodes.size());
    if (answer.started)
        answer.started(what);
    Q_EMIT layoutStarted(requester, context, what);
    setBusy(+1);
    Pending pending { presentation, m_generation, request, requester, std::move(answer), {} };
    pending.started.start();
    // Laid out ahead of this click (layOutAhead) and not ready yet: wait for it.
    if (m_ahead.contains(key)) {
        waitForAhead(key, std::move(pending));
        return;
    }
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
            if (!layout) {
                timings::report("layout", timings::millisecondsSince(pending.started));
                setBusy(-1);
                if (layout.error().code == core::Error::Code::Cancelled) {
                    qCDebug(logLayout).noquote()
                        << "layout cancelled after" << timings::millisecondsSince(pending.started) << "ms";
                    if (pending.answer.stopped)
                        pending.answer.stopped();
                    Q_EMIT layoutStopped(pending.requester);
                } else {
                    const QString message = QString::fromStdString(layout.error().message());
                    qCDebug(logLayout).noquote() << "layout failed:" << message;
                    if (pending.answer.failed)
                        pending.answer.failed(message);
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
            deliverReady(pending, pending.presentation);
        });
    // LayoutService answers later, never from within submit.
    if (const auto view = m_views.find(pending.requester); view != m_views.end() && view->latest == pending.request)
        view->job = job;
}

void DocumentController::deliverReady(const Pending& pending, const std::shared_ptr<Presentation>& presentation)
{
    timings::report("layout", timings::millisecondsSince(pending.started));
    setBusy(-1);
    if (pending.answer.ready)
        pending.answer.ready(presentation);
}

} // namespace etscope::ui
