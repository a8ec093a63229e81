// SPDX-License-Identifier: MIT
// A document's node facts (nodefacts.h): what each node costs and why operators stayed on the
// CPU, computed on a worker once the first presentation is shown (never on first paint's path),
// cached per document and set of attached logs, computed again when a log or an ETRecord is
// attached.
#include "ui/document/documentcontroller.h"

#include "ui/common/logging.h"
#include "ui/document/timings.h"
#include "ui/document/whenfinished.h"

#include <QElapsedTimer>
#include <QtConcurrent>

namespace etscope::ui {

void DocumentController::requestNodeFacts()
{
    if (!m_document || !m_document->program || m_document->etrecord)
        return;
    m_factsAsked = true;
    if (m_factsCancel || (m_facts && !m_factsStale && m_facts->logs == m_debug.logs))
        return; // running, or computed with these logs
    const quint64 generation = ++m_factsGeneration;
    m_factsCancel = std::make_shared<std::atomic<bool>>(false);
    const auto cancel = m_factsCancel;
    const auto document = m_document;
    const FactLogs logs = m_debug.logs;
    const auto etrecord = m_debug.etrecord; // shared, read-only: kept alive for the worker
    QElapsedTimer started;
    started.start();
    qCDebug(logDebug).noquote() << "node facts started:" << m_path;
    whenFinished(
        this, QtConcurrent::run([document, logs, etrecord, cancel] {
            return computeNodeFacts(*document, logs, etrecord.get(), cancel.get());
        }),
        [this, generation, started](std::shared_ptr<const NodeFacts> facts) {
            if (generation != m_factsGeneration)
                return; // superseded (another document, a log attached meanwhile, stopped)
            m_factsCancel.reset();
            if (!facts)
                return;
            m_facts = std::move(facts);
            m_factsStale = false;
            timings::report("node-facts", static_cast<double>(started.elapsed()));
            qCDebug(logDebug).noquote() << "node facts ready after" << started.elapsed() << "ms";
            Q_EMIT nodeFactsReady();
            // A log attached while these were computed: again, with it.
            if (m_facts->logs != m_debug.logs || m_factsStale)
                requestNodeFacts();
        },
        [this, generation](const QString& message) {
            if (generation != m_factsGeneration)
                return;
            m_factsCancel.reset();
            m_factsStale = false;
            auto facts = std::make_shared<NodeFacts>();
            facts->logs = m_debug.logs;
            facts->costError = facts->whyError = tr("computing the node facts failed: %1").arg(message);
            m_facts = std::move(facts);
            Q_EMIT nodeFactsReady();
        });
}

void DocumentController::stopNodeFacts()
{
    if (m_factsCancel)
        m_factsCancel->store(true);
    m_factsCancel.reset();
    ++m_factsGeneration;
}

void DocumentController::refreshNodeFacts()
{
    if (!m_factsAsked)
        return;
    // An ETRecord changes how logged reasons are placed: the facts are computed again even with
    // the same logs.
    stopNodeFacts();
    m_factsStale = true;
    requestNodeFacts();
}

void DocumentController::dropNodeFacts()
{
    stopNodeFacts();
    m_facts.reset();
    m_factsAsked = false;
    m_factsStale = false;
}

} // namespace etscope::ui
