// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/document.h"
#include "ui/document/debugsession.h"
#include "ui/graph/presentation.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <atomic>
#include <memory>
#include <set>

namespace etscope::ui {

/// One open file: opens it off the UI thread (progress, cancel), then lays out graph views on
/// the single Graphviz worker, caching every layout. Stale results are dropped by generation.
class DocumentController : public QObject {
    Q_OBJECT
public:
    explicit DocumentController(QObject* parent = nullptr);
    ~DocumentController() override;

    /// Starts opening; emits progress…, then opened() or failed()/stopped().
    void open(const QString& path, core::OpenOptions options = {});
    /// Adopts an already opened document (tests, a second view of the same file).
    void adopt(std::shared_ptr<const core::Document> document);
    /// Asks the current work (opening or layout) to stop.
    void stop();

    QString path() const { return m_path; }
    /// Milliseconds since open() was asked for this file (first-paint of --timings).
    double millisecondsSinceRequest() const;
    std::shared_ptr<const core::Document> document() const { return m_document; }
    bool busy() const { return m_busy > 0; }

    const DebugSession& debug() const { return m_debug; }
    /// Attaches an ETDump, reference ETDump, ETRecord or Inspector table; emits debugChanged.
    /// Returns the error text (naming the file and the reason), empty on success.
    QString attachArtifact(AttachKind kind, const QString& path, const QString& debugBuffer = {});
    /// What attachArtifact attached, in order (File › Reload attaches them again).
    const QList<QPair<AttachKind, QString>>& attachments() const { return m_attachments; }
    /// Warnings from attaching and analysing debug artifacts.
    const std::vector<core::Warning>& debugWarnings() const { return m_debugWarnings; }

    /// Emits presentationReady at once when cached, else lays out in the background.
    void requestPresentation(const GraphContext& context, const std::set<int>& expanded);

Q_SIGNALS:
    void progress(int percent, const QString& phase);
    void opened();
    void failed(const QString& message);
    void stopped();
    void layoutStarted(const etscope::ui::GraphContext& context, const QString& what);
    void presentationReady(std::shared_ptr<const etscope::ui::Presentation> presentation);
    void layoutFailed(const QString& message);
    void busyChanged(bool busy);
    void debugChanged();

private:
    /// A layout asked for and not yet delivered.
    struct Pending {
        std::shared_ptr<Presentation> presentation;
        quint64 generation = 0;
        quint64 request = 0;
        QElapsedTimer started;
    };
    /// Lays out the whole presentation, or only the inside of what `plan` opens.
    void runLayout(Pending pending, std::shared_ptr<const OpeningPlan> plan);
    void setBusy(int delta);
    /// The method's grouping, computed once per document.
    std::shared_ptr<const core::Grouping> grouping(int method);

    QString m_path;
    std::shared_ptr<const core::Document> m_document;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QHash<QString, std::shared_ptr<const Presentation>> m_cache;
    QHash<int, std::shared_ptr<const core::Grouping>> m_groupings; ///< per method
    DebugSession m_debug;
    std::vector<core::Warning> m_debugWarnings;
    QList<QPair<AttachKind, QString>> m_attachments;
    quint64 m_generation = 0;
    quint64 m_layoutJob = 0; ///< the latest layout asked of the LayoutService
    quint64 m_layoutRequest = 0; ///< counts layout requests; older results are dropped
    bool m_closing = false;
    QElapsedTimer m_requested;
    bool m_graphTimed = false; ///< the first presentation also reports the document's analysis
    int m_busy = 0;
};

} // namespace etscope::ui
