// SPDX-License-Identifier: MIT
#include "ui/graph/clicktiming.h"

#include "ui/document/timings.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>

#include <string>

namespace etscope::ui::clicktiming {

using core::NodeId;
using core::NodeOrigin;

namespace {

enum class Kind { Opening, Tab, Jump };

/// The click waiting for its result, with the stall watch and the timer that gives up on it.
/// Lives under the application object (made on the first timed click).
class Waiting : public QObject {
public:
    Waiting()
        : QObject(QCoreApplication::instance())
        , m_stalls(new StallWatch(this))
        , m_abandon(new QTimer(this))
    {
        m_abandon->setSingleShot(true);
        m_abandon->setInterval(kAbandonAfterMs);
        connect(m_abandon, &QTimer::timeout, this, [this] { finish(false); });
    }

    void begin(const char* phase, Kind kind, const QElapsedTimer& started)
    {
        m_phase = phase;
        m_kind = kind;
        m_started = started;
        m_active = true;
        m_stalls->start();
        m_abandon->start();
    }

    void finish(bool report)
    {
        if (!m_active)
            return;
        m_active = false;
        m_abandon->stop();
        m_stalls->stop();
        if (!report)
            return;
        timings::report(m_phase, timings::millisecondsSince(m_started));
        timings::report((std::string(m_phase) + "-stall").c_str(), m_stalls->longestMs());
    }

    bool active() const { return m_active; }
    Kind kind() const { return m_kind; }

    // What shows the result: the document and graph of the view, the key opened (Opening),
    // the node selected (Jump).
    const core::Document* document = nullptr;
    GraphContext context;
    int key = 0;
    NodeOrigin origin;

private:
    StallWatch* m_stalls;
    QTimer* m_abandon;
    const char* m_phase = "";
    Kind m_kind = Kind::Opening;
    QElapsedTimer m_started;
    bool m_active = false;
};

Waiting* current()
{
    static QPointer<Waiting> instance;
    if (!instance && QCoreApplication::instance())
        instance = new Waiting();
    return instance;
}

QElapsedTimer startedNow()
{
    QElapsedTimer timer;
    timer.start();
    return timer;
}

/// Whether `shown` (the presentation of a painted view, its node selected) is the result.
bool isResult(const Waiting& w, const Presentation* shown, const std::optional<NodeOrigin>& selected)
{
    switch (w.kind()) {
    case Kind::Opening:
        return shown && shown->document.get() == w.document && shown->context == w.context
            && shown->expanded.count(w.key) > 0;
    case Kind::Tab:
        return shown && shown->document.get() == w.document && shown->context == w.context;
    case Kind::Jump:
        // A delegate expanded in place is drawn as its frame: selecting it selects its first
        // inner node (DocumentView::selectNode).
        return selected
            && (*selected == w.origin
                || (w.origin.group() < 0 && !w.origin.inner.valid() && selected->top == w.origin.top));
    }
    return false;
}

} // namespace

void beginOpening(const Presentation& shown, const NodeOrigin& owner)
{
    if (!timings::enabled() || shown.context.delegateNode.valid())
        return;
    const int key = expandKeyOf(owner);
    Waiting* w = shown.expanded.count(key) ? nullptr : current();
    if (!w)
        return;
    w->document = shown.document.get();
    w->context = shown.context;
    w->key = key;
    w->begin(owner.group() >= 0 ? "group-open" : "delegate-expand", Kind::Opening, startedNow());
}

void beginTab(const Presentation& shown, NodeId delegateNode)
{
    if (!timings::enabled() || shown.context.delegateNode.valid())
        return;
    Waiting* w = current();
    if (!w)
        return;
    w->document = shown.document.get();
    w->context = GraphContext { shown.context.method, delegateNode };
    w->begin("delegate-tab", Kind::Tab, startedNow());
}

void beginJump(const NodeOrigin& origin, const QElapsedTimer& pressed)
{
    if (!timings::enabled())
        return;
    Waiting* w = current();
    if (!w)
        return;
    w->origin = origin;
    w->begin("search-jump", Kind::Jump, pressed.isValid() ? pressed : startedNow());
}

void painted(const GraphView& view)
{
    if (!timings::enabled())
        return;
    Waiting* w = current();
    if (!w || !w->active())
        return;
    const auto* scene = qobject_cast<const GraphScene*>(view.scene());
    if (!scene)
        return;
    const auto shown = scene->presentation();
    const auto selected = w->kind() == Kind::Jump ? scene->selectedNode() : std::nullopt;
    if (isResult(*w, shown.get(), selected))
        w->finish(true);
}

bool waiting()
{
    if (!timings::enabled())
        return false;
    const Waiting* w = current();
    return w && w->active();
}

bool waitingForSelection()
{
    if (!timings::enabled())
        return false;
    const Waiting* w = current();
    return w && w->active() && w->kind() == Kind::Jump;
}

} // namespace etscope::ui::clicktiming
