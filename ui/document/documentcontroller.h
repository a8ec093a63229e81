// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/timeline.h"
#include "core/document/document.h"
#include "ui/document/debugsession.h"
#include "ui/document/nodefacts.h"
#include "ui/graph/presentation.h"
#include "ui/heatmap/heatmapmodel.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <QPointer>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>

namespace etscope::ui {

/// The heat tables of one view (a method, or one delegate of it), prepared for the heatmap.
struct HeatData {
    std::vector<std::shared_ptr<const PreparedHeatTable>> tables;
    /// The last `costTables` of `tables` are the program's cost (issue 34), which needs no debug data.
    std::size_t costTables = 0;
    std::vector<core::Warning> warnings;
    /// The attached run's timeline on the method (none for a delegate's tab, or without a run).
    std::shared_ptr<const core::Timeline> timeline;
    /// The method's first divergence (also in a delegate's tab: the divergence may lie outside
    /// it); nullopt when no gap was computed here.
    std::optional<DivergenceSummary> divergence;
};

/// How a request to a document ended: done, failed (with a message naming the file and the
/// reason) or stopped.
enum class RequestOutcome { Done, Failed, Stopped };

/// How a layout request is answered, on the UI thread, to the view that asked: `started` when
/// Graphviz has work to do (not for a drawing taken from the cache or closed from an earlier
/// one), then one of `ready`, `failed`, `stopped`. Unset members are not called.
struct LayoutAnswer {
    std::function<void(const QString& what)> started;
    std::function<void(std::shared_ptr<const Presentation> presentation)> ready;
    std::function<void(const QString& message)> failed;
    std::function<void()> stopped;
};

/// One open file, and the one owner of every request made of it (issue 26 #4): opening it,
/// laying out a view's graph, building a view's heat tables, attaching debug data. Each request
/// is answered on the UI thread to the one who asked (its handler), never broadcast; an answer
/// whose requester is gone, or superseded by its newer request, is dropped:
/// - open (the window): read on a worker with progress and cancel, then attachments found beside it;
/// - requestPresentation (a view; issue 27 #15): each view owns its layout requests, a newer one
///   supersedes only that view's older one; layouts run on the LayoutService and are cached;
/// - requestHeatTables (a view): the debug data's analyses of its method, on a worker, cached;
/// - attachArtifact (the window): read on a worker, one after another (issue 27 #13).
/// Signals say what happened to the document (opened, debug data changed, inner graphs decoded)
/// to everyone who shows it, and let observers (the status bar, tests) follow the work.
class DocumentController : public QObject {
    Q_OBJECT
public:
    explicit DocumentController(QObject* parent = nullptr);
    ~DocumentController() override;

    /// Says how opening ended: Done (the document is there), Failed (message) or Stopped.
    using OpenHandler = std::function<void(RequestOutcome outcome, const QString& message)>;
    /// Starts opening; emits progress…, then answers `done` and emits opened() or
    /// failed()/stopped() (for whoever else shows the file).
    void open(const QString& path, OpenHandler done = {}, core::OpenOptions options = {});
    /// Adopts an already opened document (tests, a second view of the same file).
    void adopt(std::shared_ptr<const core::Document> document);
    /// Asks all current work (opening, every layout, debug data) to stop.
    void stop();
    /// Stops the layout `requester` is waiting for (its Cancel); other views' layouts go on.
    void stopLayout(QObject* requester);

    /// Decodes, on a worker, every delegate inner graph the open deferred (once per document;
    /// views ask after their first paint): emits deferredGraphsDecoded when done.
    void decodeDeferredGraphs();
    /// Whether a delegate of `method` (of any method: -1) still has its inner graph to decode
    /// (reading it now would decode it on the caller's thread).
    bool graphsPending(int method = -1) const;
    /// decodeDeferredGraphs is running.
    bool decodingDeferredGraphs() const { return m_deferredDecode == DeferredDecode::Running; }

    /// Computes, on a worker, what each node costs and why operators stayed on the CPU
    /// (nodefacts.h), with the logs attached (once per document and set of logs; views ask after
    /// their first paint): emits nodeFactsReady when done. Attaching a log or an ETRecord
    /// computes them again once they were asked for.
    void requestNodeFacts();
    /// The facts, nullptr until computed (or while computed again after an attachment: the
    /// older ones stay until the newer are ready).
    std::shared_ptr<const NodeFacts> nodeFacts() const { return m_facts; }
    /// requestNodeFacts' worker runs.
    bool computingNodeFacts() const { return m_factsCancel != nullptr; }
    /// Stops computing the facts (asked again, they start over).
    void stopNodeFacts();

    QString path() const { return m_path; }
    /// Milliseconds since open() was asked for this file (first-paint of --timings).
    double millisecondsSinceRequest() const;
    std::shared_ptr<const core::Document> document() const { return m_document; }
    bool busy() const { return m_busy > 0; }

    const DebugSession& debug() const { return m_debug; }
    /// Says how attaching ended: Done, Failed (the error names the file and the reason) or
    /// Stopped (what was attached before stays).
    using AttachHandler = std::function<void(RequestOutcome outcome, const QString& error)>;
    /// Attaches an ETDump, reference ETDump, ETRecord or Inspector table, read on a worker
    /// after those asked before it: emits debugProgress…, then (attached) debugChanged, and
    /// answers `done` once, in the order asked (the same file attached twice is answered twice).
    void attachArtifact(AttachKind kind, const QString& path, AttachHandler done = {}, const QString& debugBuffer = {});
    /// What attachArtifact attached, in order (File › Reload attaches them again).
    const QList<QPair<AttachKind, QString>>& attachments() const { return m_attachments; }
    /// Attaching or building heat tables now.
    bool debugBusy() const;
    /// Stops attaching (the queue too) and the heat tables being built.
    void stopDebugWork();

    /// The heat tables of `method` (of its delegate `delegateNode` when valid: only that
    /// delegate's inner rows), built on a worker (cached until the debug data changes).
    /// `handler` runs on this thread with the tables, or nullopt when stopped; a newer request
    /// of the same `requester` supersedes this one (its handler never runs).
    using HeatHandler = std::function<void(std::shared_ptr<const HeatData>)>;
    void requestHeatTables(QObject* requester, int method, core::NodeId delegateNode, HeatHandler handler);
    /// Warnings from attaching and analysing debug artifacts.
    const std::vector<core::Warning>& debugWarnings() const { return m_debugWarnings; }

    /// Prepares the presentation of `context` with `expanded` open and answers `requester` (a
    /// view): at once when cached or closed from an earlier drawing, else once laid out in the
    /// background. A newer request of the same requester supersedes its older one (whose answer
    /// is dropped); other requesters' requests go on.
    void requestPresentation(
        QObject* requester, const GraphContext& context, const std::set<int>& expanded, LayoutAnswer answer);
    /// Whether `requester` waits for a layout.
    bool layingOut(QObject* requester) const;
    /// Lays out, in the background and quietly (no busy state, no timings, no signals), what a
    /// click on `shown` (a top-level drawing, laid out) most likely asks for next and Graphviz
    /// needs long for: the biggest decoded delegate insides drawn closed in it, each as its own
    /// tab (a double click) and opened in place (its toggle). A request for one of them finds it
    /// in the cache, or waits for its layout instead of starting another (issue 27: the Ethos-U
    /// delegate's 669 boxes took 400 ms to show after the click).
    void layOutAhead(const std::shared_ptr<const Presentation>& shown);
    /// Layouts ahead submitted and not finished (for observers: tests).
    int layoutsAhead() const { return static_cast<int>(m_ahead.size()); }

Q_SIGNALS:
    void progress(int percent, const QString& phase);
    void opened();
    void failed(const QString& message);
    /// Opening was stopped.
    void stopped();
    /// For observers (tests): a layout of `requester` went to Graphviz, failed or was stopped;
    /// the requester itself hears it through its LayoutAnswer.
    void layoutStarted(QObject* requester, const etscope::ui::GraphContext& context, const QString& what);
    void layoutFailed(QObject* requester, const QString& message);
    void layoutStopped(QObject* requester);
    void busyChanged(bool busy);
    void debugChanged();
    /// How far attaching or a heat table is; `percent` -1 when the end is not known.
    void debugProgress(int percent, const QString& text);
    void debugBusyChanged(bool busy);
    /// decodeDeferredGraphs ended: every inner graph is decoded, or (stopped) what is left
    /// decodes on first use.
    void deferredDecodeFinished();
    /// requestNodeFacts' facts are ready (nodeFacts()).
    void nodeFactsReady();

private:
    /// A layout asked for and not yet delivered.
    struct Pending {
        std::shared_ptr<Presentation> presentation;
        quint64 generation = 0;
        quint64 request = 0;
        QObject* requester = nullptr; ///< the key into m_views (checked there before use)
        LayoutAnswer answer; ///< the requester's
        QElapsedTimer started;
    };
    /// What one view waits for.
    struct ViewRequests {
        quint64 latest = 0; ///< its newest layout request; older answers are dropped
        quint64 job = 0; ///< its LayoutService job, 0 when none runs
        QString ahead; ///< the key of the layout ahead it waits for, empty when none
    };
    /// A layout asked for ahead of the click (layOutAhead), and the requests waiting for it.
    struct Ahead {
        std::shared_ptr<Presentation> presentation;
        std::shared_ptr<const OpeningPlan> plan; ///< set when only the opened part is laid out
        quint64 job = 0;
        std::vector<Pending> waiters;
    };
    /// An attachment waiting for, or being read by, the worker.
    struct AttachJob {
        AttachKind kind;
        QString path;
        QString debugBuffer;
        AttachHandler done;
        void answer(RequestOutcome outcome, const QString& error) const
        {
            if (done)
                done(outcome, error);
        }
    };
    /// Heat tables of one (method, delegate) being built or built.
    struct HeatEntry {
        std::shared_ptr<const HeatData> data; ///< set when built
        std::shared_ptr<std::atomic<bool>> cancel;
        struct Waiter {
            QPointer<QObject> requester;
            quint64 request = 0;
            HeatHandler handler;
        };
        std::vector<Waiter> waiters;
    };
    using HeatKey = QPair<int, int>; ///< method, delegate node (-1: the whole method)
    void startNextAttach();
    void startHeat(HeatKey key);
    /// Runs `handler` with the tables of `key` once built (at once when they are); request 0
    /// is never superseded.
    void waitForHeat(HeatKey key, QObject* requester, quint64 request, HeatHandler handler);
    void finishHeat(HeatKey key, quint64 generation, std::shared_ptr<const HeatData> data);
    void setAttachRunning(bool running);
    void updateDebugBusy();
    /// The debug data changed: heat tables built or being built are dropped.
    void dropHeatTables();
    /// Progress from a worker, delivered queued and at most every 50 ms.
    std::function<void(int, const QString&)> progressSink();
    /// Lays out the whole presentation, or only the inside of what `plan` opens.
    void runLayout(Pending pending, std::shared_ptr<const OpeningPlan> plan);
    /// Hands `presentation`, laid out, to the view waiting in `pending` (timing, busy, ready).
    void deliverReady(const Pending& pending, const std::shared_ptr<Presentation>& presentation);
    void setBusy(int delta);
    /// Prepares and submits the layout ahead of `key` (layOutAhead), one per event-loop turn.
    void startAhead(const GraphContext& context, const std::set<int>& expanded);
    void finishAhead(const QString& key, quint64 generation, core::Result<core::LayoutResult> layout);
    /// Makes `pending` (its view's newest request) wait for the layout ahead of `key`.
    void waitForAhead(const QString& key, Pending pending);
    /// Stops waiting for a layout ahead: `requester`'s waiter leaves (stopped: answered so).
    void leaveAhead(QObject* requester, bool stopped);
    /// Cancels every layout ahead (another file, the document closing); waiters get no answer.
    void dropAhead();
    /// Computes the facts again with the current logs, when they were asked for.
    void refreshNodeFacts();
    /// Forgets the facts (another document).
    void dropNodeFacts();
    /// The method's grouping, computed once per document.
    std::shared_ptr<const core::Grouping> grouping(int method);

    ViewRequests& viewRequests(QObject* requester);

    QString m_path;
    std::shared_ptr<const core::Document> m_document;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QHash<QString, std::shared_ptr<const Presentation>> m_cache;
    QHash<int, std::shared_ptr<const core::Grouping>> m_groupings; ///< per method
    DebugSession m_debug;
    std::vector<core::Warning> m_debugWarnings;
    QList<QPair<AttachKind, QString>> m_attachments;
    quint64 m_generation = 0;
    QHash<QObject*, ViewRequests> m_views; ///< per requester
    QHash<QString, Ahead> m_ahead; ///< layouts ahead running, by presentation key
    quint64 m_layoutRequest = 0; ///< counts layout requests (ids)
    std::deque<AttachJob> m_attachQueue;
    std::shared_ptr<std::atomic<bool>> m_attachCancel;
    bool m_attachRunning = false;
    quint64 m_debugGeneration = 0; ///< counts changes of m_debug; older heat tables are dropped
    QHash<HeatKey, HeatEntry> m_heat;
    QHash<QObject*, quint64> m_heatRequests; ///< per requester: its newest heat request
    quint64 m_heatRequest = 0;
    bool m_debugBusy = false; ///< as last said by debugBusyChanged
    bool m_closing = false;
    QElapsedTimer m_requested;
    bool m_graphTimed = false; ///< the first presentation also reports the document's analysis
    int m_busy = 0;
    std::shared_ptr<const NodeFacts> m_facts;
    std::shared_ptr<std::atomic<bool>> m_factsCancel; ///< set while the worker runs
    bool m_factsAsked = false;
    bool m_factsStale = false; ///< an ETRecord or log was attached since m_facts was computed
    quint64 m_factsGeneration = 0; ///< counts requests: an older worker's answer is dropped
    enum class DeferredDecode { NotStarted, Running, Done };
    DeferredDecode m_deferredDecode = DeferredDecode::NotStarted;
};

} // namespace etscope::ui
