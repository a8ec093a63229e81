// SPDX-License-Identifier: MIT
// Layouts made ahead of the click (issue 27): once a drawing is on screen and its delegates'
// insides are decoded, the biggest of them are laid out in the background, as their own tab and
// opened in place, so that the double click or the toggle finds its drawing in the cache (or
// waits for the layout already running) instead of waiting for Graphviz from the start.
#include "ui/document/documentcontroller.h"

#include "core/layout/graphlayout.h"
#include "ui/common/logging.h"
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>

namespace etscope::ui {

namespace {

/// Insides with at least this many boxes are laid out ahead: Graphviz needs about 0.5 ms a box
/// on them, so from here on the click would wait 100 ms or more (the Ethos-U mobilenet's
/// delegate: 669 boxes, 355 ms). Smaller ones are laid out after the click in time.
constexpr std::size_t kAheadBoxes = 200;
/// At most this many delegates of one drawing: each costs two layouts of a helper's time.
constexpr std::size_t kAheadDelegates = 2;

} // namespace

void DocumentController::layOutAhead(const std::shared_ptr<const Presentation>& shown)
{
    if (!shown || !m_document || shown->context.delegateNode.valid()
        || shown->layout.nodes.size() != shown->request.nodes.size()
        || LayoutService::instance()->workerProgram().isEmpty())
        return;
    // The delegates drawn closed whose inside is decoded (reading one not decoded yet would
    // decode it here, on the UI thread), biggest first.
    std::vector<std::pair<std::size_t, core::NodeId>> candidates;
    for (std::size_t i = 0; i < shown->origins.size(); ++i) {
        const core::NodeOrigin& origin = shown->origins[i];
        const core::Node& node = shown->flat.graph.nodes[i];
        if (origin.inner.valid() || origin.group() >= 0 || node.kind != core::NodeKind::Delegate || !node.subgraph
            || !node.subgraph.decoded())
            continue;
        if (const std::size_t boxes = node.subgraph->nodes.size(); boxes >= kAheadBoxes)
            candidates.emplace_back(boxes, origin.top);
    }
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    candidates.resize(std::min(candidates.size(), kAheadDelegates));
    // Each is prepared in its own turn of the event loop (measuring its boxes' text takes a few
    // ms on the UI thread), the tab first: a double click opens it.
    const quint64 generation = m_generation;
    for (const auto& [boxes, delegate] : candidates) {
        const GraphContext tab { shown->context.method, delegate };
        std::set<int> opened = shown->expanded;
        opened.insert(delegate.value);
        for (const auto& [context, expanded] :
            { std::pair { tab, std::set<int> {} }, std::pair { shown->context, opened } })
            QTimer::singleShot(0, this, [this, generation, context, expanded] {
                if (generation == m_generation)
                    startAhead(context, expanded);
            });
    }
}

void DocumentController::startAhead(const GraphContext& context, const std::set<int>& expanded)
{
    const QString key = presentationKey(context, expanded, smallConstantsInline());
    if (!m_document || m_cache.contains(key) || m_ahead.contains(key))
        return;
    QElapsedTimer preparing;
    preparing.start();
    Ahead ahead;
    ahead.presentation = preparePresentation(m_document, context, expanded, grouping(context.method));
    const auto laidOut = [this](const QString& key) { return m_cache.value(key); }; // nullptr when not drawn
    if (!context.delegateNode.valid()) {
        // Opened in place: only its inside, placed in the drawing on screen. Without that
        // drawing (closed meanwhile) the whole would be laid out: not worth it ahead.
        auto plan = planOpening(*ahead.presentation, laidOut);
        if (!plan)
            return;
        ahead.plan = std::make_shared<const OpeningPlan>(std::move(*plan));
    }
    qCDebug(logLayout).noquote() << QStringLiteral("layout ahead: %1 nodes of %2, prepared in %3 ms")
                                        .arg(ahead.plan ? ahead.plan->part.request.nodes.size()
                                                        : ahead.presentation->request.nodes.size())
                                        .arg(key)
                                        .arg(timings::millisecondsSince(preparing), 0, 'f', 1);
    core::LayoutRequest request = ahead.plan ? ahead.plan->part.request : ahead.presentation->request;
    const quint64 generation = m_generation;
    ahead.job = LayoutService::instance()->submit(
        std::move(request), this,
        [this, key, generation](
            core::Result<core::LayoutResult> layout) { finishAhead(key, generation, std::move(layout)); },
        /*background=*/true);
    m_ahead.insert(key, std::move(ahead));
}

void DocumentController::finishAhead(const QString& key, quint64 generation, core::Result<core::LayoutResult> layout)
{
    const auto it = m_ahead.find(key);
    if (m_closing || generation != m_generation || it == m_ahead.end())
        return; // dropped (another file): its waiters were let go then
    Ahead ahead = std::move(*it);
    m_ahead.erase(it);
    if (layout && ahead.plan) {
        auto composed = core::composeOpening(ahead.presentation->request, ahead.plan->base->request,
            ahead.plan->base->layout, ahead.plan->opening, layout.value());
        layout = composed ? core::Result<core::LayoutResult>(std::move(*composed))
                          : core::Result<core::LayoutResult>(core::makeError(core::Error::Code::Corrupt,
                              m_path.toStdString(), "the opened part does not fit the drawing it opens in"));
    }
    if (layout) {
        qCDebug(logLayout).noquote() << "layout ahead finished:" << key;
        ahead.presentation->layout = std::move(layout).value();
        m_cache.insert(key, ahead.presentation);
    } else {
        qCDebug(logLayout).noquote() << "layout ahead not made:" << QString::fromStdString(layout.error().message());
    }
    for (Pending& pending : ahead.waiters) {
        const auto view = m_views.find(pending.requester);
        if (view == m_views.end() || view->latest != pending.request) {
            setBusy(-1); // gone, or superseded (which let go of this wait already)
            continue;
        }
        view->ahead.clear();
        if (!layout) { // cancelled or failed ahead: lay it out for the one who waits now
            runLayout(std::move(pending), ahead.plan);
            continue;
        }
        deliverReady(pending, ahead.presentation);
    }
}

void DocumentController::waitForAhead(const QString& key, Pending pending)
{
    qCDebug(logLayout).noquote() << "layout: waits for the one laid out ahead:" << key;
    m_views[pending.requester].ahead = key;
    m_ahead[key].waiters.push_back(std::move(pending));
}

void DocumentController::leaveAhead(QObject* requester, bool stopped)
{
    const auto view = m_views.find(requester);
    if (view == m_views.end() || view->ahead.isEmpty())
        return;
    const QString key = std::exchange(view->ahead, QString());
    const auto ahead = m_ahead.find(key);
    if (ahead == m_ahead.end())
        return;
    auto& waiters = ahead->waiters;
    const auto mine = std::find_if(
        waiters.begin(), waiters.end(), [requester](const Pending& pending) { return pending.requester == requester; });
    if (mine == waiters.end())
        return;
    LayoutAnswer answer = std::move(mine->answer);
    waiters.erase(mine);
    setBusy(-1);
    // The layout ahead goes on: it is still the likeliest next click.
    if (stopped) {
        if (answer.stopped)
            answer.stopped();
        Q_EMIT layoutStopped(requester);
    }
}

void DocumentController::dropAhead()
{
    for (Ahead& ahead : m_ahead) {
        for (const Pending& pending : ahead.waiters) {
            setBusy(-1);
            if (const auto view = m_views.find(pending.requester); view != m_views.end())
                view->ahead.clear();
        }
        ahead.waiters.clear();
    }
    const auto jobs = m_ahead;
    m_ahead.clear(); // before cancelling: a cancellation answered at once finds nothing
    for (const Ahead& ahead : jobs)
        LayoutService::instance()->cancel(ahead.job);
}

} // namespace etscope::ui
