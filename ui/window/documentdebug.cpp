// SPDX-License-Identifier: MIT
// The debug data a tab shows: the heat tables of its method (built on a worker), the first
// divergence of the numeric gap, the attached run's timeline.
#include "ui/window/documentview.h"

#include "core/debug/dumpcheck.h"

#include "ui/common/nodestyle.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/timings.h"
#include "ui/graph/graphscene.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/warningbanner.h"

#include <QElapsedTimer>
#include <QTabWidget>

namespace etscope::ui {

using namespace etscope::core;

void DocumentView::refreshDebugData()
{
    const auto document = m_controller->document();
    if (!document || !document->program)
        return;
    // Without debug data the heatmap still has the program's cost (issue 34): asked for only
    // once the Heatmap tab is built (shown), so the first paint computes nothing more.
    const bool nothing = m_controller->debug().empty() && !m_heatmap;
    m_heatPending = !nothing;
    refreshAnalysis();
    if (nothing) {
        m_heatData.reset();
        applyDivergence();
        Q_EMIT debugDataShown();
        return;
    }
    // Built on a worker (a million-row Inspector table is read again for it): the heatmap
    // keeps what it shows until the new tables arrive, and says so (issue 27 #13).
    setHeatNote(tr("Reading the debug data for this view…"));
    const int method = m_context.method;
    m_controller->requestHeatTables(
        this, method, m_context.delegateNode, [this, method](std::shared_ptr<const HeatData> data) {
            m_heatPending = false;
            if (!data) {
                setHeatNote(tr("Reading the debug data was stopped: the heatmap shows what it showed before. "
                               "Switch methods or attach again to read it."));
                Q_EMIT debugDataShown();
                return;
            }
            if (method != m_context.method)
                return;
            showHeatData(std::move(data));
        });
}

void DocumentView::setHeatNote(const QString& text)
{
    m_heatNote = text;
    if (m_heatmap)
        m_heatmap->setNote(text);
}

void DocumentView::showHeatData(std::shared_ptr<const HeatData> data)
{
    const auto document = m_controller->document();
    setHeatNote({});
    // The debug data's own tables (the cost needs none, and is not news: issue 34).
    const auto debugTables = [](const HeatData* heat) { return heat ? heat->tables.size() - heat->costTables : 0; };
    const bool hadData = m_heatmap && debugTables(m_heatData.get()) > 0;
    m_heatData = data;
    m_heatMethod = m_context.method;
    QElapsedTimer showing;
    showing.start();
    // No debug tables for a heatmap not built yet (a program with only an ETRecord beside it): it
    // stays unbuilt, and heatmap() gives it m_heatData when it is (issue 27: built here, its
    // panel was measured in the hidden tab's layout of the first paint). With tables it is
    // built now, with them, and comes to the front.
    if (m_heatmap)
        m_heatmap->setTables(data->tables);
    else if (debugTables(data.get()) > 0)
        heatmap();
    applyDivergence();
    refreshTimeline();
    timings::report("heat-table", timings::millisecondsSince(showing));
    if (!data->warnings.empty() || !m_controller->debugWarnings().empty()) {
        std::vector<Warning> all = document->warnings;
        all.insert(all.end(), m_controller->debugWarnings().begin(), m_controller->debugWarnings().end());
        all.insert(all.end(), data->warnings.begin(), data->warnings.end());
        if (const auto facts = m_controller->nodeFacts()) // the logs' (a refused log among them)
            all.insert(all.end(), facts->warnings.begin(), facts->warnings.end());
        // "Is this ETDump from another program?" leads: behind "(and 5 more)" it went unseen.
        leadWithDumpFit(all);
        m_banner->setWarnings(all);
    }
    if (!hadData && m_heatmap && debugTables(data.get()) > 0)
        m_sideTabs->setCurrentWidget(m_heatmap);
    Q_EMIT debugDataShown();
}

std::optional<NodeOrigin> DocumentView::firstDivergence() const
{
    if (!m_heatData || m_heatMethod != m_context.method || !m_heatData->divergence || !m_heatData->divergence->first
        || !m_heatData->divergence->first->runNode.top.valid())
        return std::nullopt;
    return m_heatData->divergence->first->runNode;
}

void DocumentView::applyDivergence()
{
    const DivergenceSummary* summary
        = m_heatData && m_heatMethod == m_context.method && m_heatData->divergence ? &*m_heatData->divergence : nullptr;
    if (!summary) {
        if (m_heatmap) // a heatmap built later starts so
            m_heatmap->setDivergence({}, false);
        m_scene->setMarks(GraphScene::MarkLayer::Divergence, {});
        return;
    }
    const QString thresholds = QString::fromStdString(summary->thresholds);
    if (!summary->first) {
        heatmap()->setDivergence(
            (summary->compared == 1 ? tr("No divergence: 1 row compared, none crosses %1.")
                                    : tr("No divergence: %1 rows compared, none crosses %2.").arg(summary->compared))
                .arg(thresholds),
            false);
        m_scene->setMarks(GraphScene::MarkLayer::Divergence, {});
        return;
    }
    const core::FirstDivergence& first = *summary->first;
    const QString crossing = QString::fromStdString(first.crossing.text);
    const QString path = QString::fromStdString(core::joinNodePath(first.path));
    const NodeOrigin origin = first.runNode;
    // A delegate's tab shows only its own inner nodes.
    const bool here = origin.top.valid() && (!m_context.delegateNode.valid() || origin.top == m_context.delegateNode);
    heatmap()->setDivergence(tr("First divergence: %1 — %2").arg(path, crossing), here,
        here ? tr("Select it on the graph (Go › First Divergence). Thresholds: %1; the CLI's "
                  "`etscope gap … --first-divergence --threshold METRIC=VALUE` sets others.")
                   .arg(thresholds)
             : tr("Not in this tab: it is in the method's tab"));

    GraphScene::Marks marks;
    if (here) {
        const QColor colour = divergenceColour();
        const QString tip = tr("First divergence: %1 (%2)").arg(crossing, thresholds);
        marks[GraphScene::keyOf(origin)] = NodeMark { colour, tr("① first divergence"), tip };
        // Where the node is hidden, the box hiding it says so: a collapsed delegate, a closed
        // group of a long method. Their keys name no drawn box once they are open.
        if (origin.inner.valid() && !m_context.delegateNode.valid())
            marks[GraphScene::keyOf({ origin.top, core::NodeId::none() })] = NodeMark { colour, tr("① inside"),
                tr("The first divergence is inside: %1 — %2").arg(path, crossing) };
        const auto presentation = this->presentation();
        if (presentation && presentation->grouping && presentation->context.method == m_context.method)
            if (const int group = presentation->grouping->groupOfNode(origin.top); group >= 0)
                marks[GraphScene::keyOf(NodeOrigin::ofGroup(group))] = NodeMark { colour, tr("① inside"),
                    tr("The first divergence is inside this group: %1 — %2").arg(path, crossing) };
    }
    m_scene->setMarks(GraphScene::MarkLayer::Divergence, std::move(marks));
}

bool DocumentView::goToFirstDivergence()
{
    const auto origin = firstDivergence();
    if (!origin || (m_context.delegateNode.valid() && origin->top != m_context.delegateNode)) {
        const DivergenceSummary* summary = m_heatData && m_heatMethod == m_context.method && m_heatData->divergence
            ? &*m_heatData->divergence
            : nullptr;
        QString why;
        if (origin)
            why = tr("The first divergence is outside this delegate: see the method's tab");
        else if (summary && summary->first)
            why = tr("The first divergence matched no node of the graph: %1")
                      .arg(QString::fromStdString(core::joinNodePath(summary->first->path)));
        else if (summary)
            why = tr("No divergence: none of the %1 compared rows crosses %2")
                      .arg(summary->compared)
                      .arg(QString::fromStdString(summary->thresholds));
        else if (!m_controller->debug().inspectorPath.isEmpty())
            why = tr("The first divergence of an imported Inspector table is the CLI's: "
                     "etscope gap … --inspector-table FILE --first-divergence");
        else
            why = tr("No numeric gap here: attach a run and a reference ETDump (File › Attach Debug Data)");
        Q_EMIT statusMessage(why);
        return false;
    }
    selectNode(*origin);
    return true;
}

void DocumentView::refreshTimeline()
{
    // Built with the heat tables, on a worker (showHeatData): until those of this method
    // arrive, the timeline shown stays.
    const bool haveRun = m_controller->debug().run && !m_context.delegateNode.valid();
    const bool current = m_heatData && m_heatMethod == m_context.method;
    if (haveRun && !current && m_heatPending)
        return;
    const auto timeline = haveRun && current ? m_heatData->timeline : nullptr;
    const int index = m_timeline ? m_analysisTabs->indexOf(m_timeline) : -1;
    if (!timeline) {
        if (m_timeline)
            m_timeline->setTimeline(nullptr);
        if (index >= 0) {
            m_analysisTabs->removeTab(index);
            if (m_analysisTabs->count() == 0)
                m_analysisTabs->hide();
        }
        return;
    }
    this->timeline()->setTimeline(timeline);
    if (index < 0) {
        // A run just attached: its timeline comes to the front.
        m_analysisTabs->insertTab(0, m_timeline, tr("Timeline"));
        showAnalysis(m_timeline);
    }
}

void DocumentView::setHeatTable(HeatTable table)
{
    heatmap()->setTable(std::move(table));
    m_sideTabs->setCurrentWidget(m_heatmap);
}

} // namespace etscope::ui
