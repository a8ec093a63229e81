// SPDX-License-Identifier: MIT
// The panels a tab builds only when first needed (issue 27): empty pages hold their tabs until
// then, and a panel built late is given what it would have been given (the document, the method,
// the node selected). Also the deferred work started after the first paint.
#include "ui/window/documentview.h"

#include "ui/document/documentcontroller.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/memory/memorypanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/size/sizepanel.h"
#include "ui/timeline/timelineview.h"

#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kGraphColumnMinimum = 600; ///< the graph and timeline column before it is shown

/// The panel kept in `slot`, built (a child of `parent`) the first time it is asked for;
/// `setUp` then connects it, gives it what it would have been given and puts it in its tab.
/// The slot is filled before `setUp` runs, so a request made meanwhile (a tab brought to the
/// front by replacePage) finds it built.
template <typename Panel, typename SetUp> Panel* builtOnce(Panel*& slot, QWidget* parent, SetUp&& setUp)
{
    if (slot)
        return slot;
    slot = new Panel(parent);
    std::forward<SetUp>(setUp)(slot);
    return slot;
}

} // namespace

void DocumentView::buildAnalysisPanels()
{
    // What makes the file this big: for programs and .ptd files (computed when first shown).
    if (const auto document = m_controller->document(); document && document->kind != FileKind::ETDump
        && document->kind != FileKind::ETRecord && document->kind != FileKind::Unknown) {
        m_sizePage = new QWidget(this);
        m_analysisTabs->addTab(m_sizePage, tr("Size"));
    }
    // The memory plan of the method shown: for programs, in the method's own tab.
    if (const auto document = m_controller->document(); document && document->program && !document->etrecord
        && (document->kind == FileKind::Program || document->kind == FileKind::BundledProgram)
        && !m_context.delegateNode.valid()) {
        m_memoryPage = new QWidget(this);
        m_analysisTabs->addTab(m_memoryPage, tr("Memory"));
    }
    // The timeline of an attached run has a tab only while a run is attached (refreshTimeline).
}

void DocumentView::replacePage(QTabWidget* tabs, QWidget*& placeholder, QWidget* panel)
{
    const int index = placeholder ? tabs->indexOf(placeholder) : -1;
    if (index < 0)
        return;
    m_swappingPage = true;
    const bool current = tabs->currentIndex() == index;
    const QString tooltip = tabs->tabToolTip(index);
    tabs->insertTab(index, panel, tabs->tabText(index));
    tabs->setTabToolTip(index, tooltip);
    // In front before the placeholder goes, so that no other page comes to the front meanwhile.
    if (current)
        tabs->setCurrentIndex(index);
    tabs->removeTab(index + 1);
    m_swappingPage = false;
    placeholder->deleteLater();
    placeholder = nullptr;
}

void DocumentView::buildShownPage(QTabWidget* tabs, int index)
{
    QWidget* page = tabs->widget(index);
    if (m_swappingPage || !page)
        return;
    if (page == m_heatmapPage)
        heatmap();
    else if (page == m_loadCheckPage)
        loadCheck();
    else if (page == m_sizePage)
        size();
    else if (page == m_memoryPage)
        memory();
}

HeatmapPanel* DocumentView::heatmap()
{
    return builtOnce(m_heatmap, this, [this](HeatmapPanel* heatmap) {
        connect(heatmap, &HeatmapPanel::graphColouringChanged, this, [this] {
            m_scene->setHeat(m_heatmap->graphHeat());
            m_graph->setHeatDescription(m_heatmap->graphColouringText());
        });
        connect(heatmap, &HeatmapPanel::nodeRequested, this, &DocumentView::selectNode);
        connect(heatmap, &HeatmapPanel::divergenceRequested, this, &DocumentView::goToFirstDivergence);
        // Until built, the only thing it was told is "no divergence" (applyDivergence): anything
        // else builds it first.
        if (m_analysisRefreshed)
            heatmap->setDivergence({}, false);
        // What it was not given while unbuilt: the tables of the method shown, the note on
        // reading them.
        if (m_heatData && m_heatMethod == m_context.method)
            heatmap->setTables(m_heatData->tables);
        heatmap->setNote(m_heatNote);
        replacePage(m_sideTabs, m_heatmapPage, heatmap);
        // Built without debug data: it asks for the cost of the method shown (on a worker).
        if (!m_heatPending && !(m_heatData && m_heatMethod == m_context.method))
            QTimer::singleShot(0, this, [this] { refreshDebugData(); });
    });
}

LoadCheckPanel* DocumentView::loadCheck()
{
    return builtOnce(m_loadCheck, this, [this](LoadCheckPanel* check) {
        connect(check, &LoadCheckPanel::nodeRequested, this, &DocumentView::selectNode);
        connect(check, &LoadCheckPanel::statusMessage, this, &DocumentView::statusMessage);
        connect(check, &LoadCheckPanel::marksChanged, m_scene, [this](const GraphScene::Marks& marks) {
            m_scene->setMarks(GraphScene::MarkLayer::LoadCheck, marks);
            // The badges' meaning in the legend while some node carries them (kernels, device).
            m_graph->setMarksDescription(LoadCheckPanel::marksLegend(marks));
        });
        connect(check, &LoadCheckPanel::highlightRequested, this, [this](const std::set<std::pair<int, int>>& keys) {
            m_operators->clearOpType(); // one operator highlighted at a time
            m_scene->setHighlighted(keys);
        });
        connect(m_operators, &OperatorPanel::opTypeSelected, check, [check](const QString& opType) {
            if (!opType.isEmpty())
                check->clearActive();
        });
        connect(
            this, &DocumentView::presentationShown, check, [this, check] { check->setPresentation(presentation()); });

        check->setMarksVisible(m_kernelMarksVisible);
        replacePage(m_sideTabs, m_loadCheckPage, check);
        // What it would have been given: the document (unless it waits for deferred inner graphs),
        // the drawn graph and the node selected.
        if (m_analysisRefreshed)
            refreshLoadCheck();
        if (const auto shown = presentation())
            check->setPresentation(shown);
        if (m_lastSelected)
            check->showNode(*m_lastSelected);
    });
}

TimelinePanel* DocumentView::timeline()
{
    return builtOnce(m_timeline, this, [this](TimelinePanel* timeline) {
        connect(timeline, &TimelinePanel::nodeRequested, this, &DocumentView::selectNode);
        connect(timeline, &TimelinePanel::statusMessage, this, &DocumentView::statusMessage);
        timeline->hide();
    });
}

SizePanel* DocumentView::size()
{
    return builtOnce(m_size, this, [this](SizePanel* size) {
        connect(size, &SizePanel::placeRequested, this, &DocumentView::showPlace);
        connect(size, &SizePanel::statusMessage, this, &DocumentView::statusMessage);
        if (m_sizePage)
            size->setDocument(m_controller->document());
        else
            size->hide();
        if (m_lastSizeNode)
            size->showNode(m_lastSizeNode->first, m_lastSizeNode->second);
        replacePage(m_analysisTabs, m_sizePage, size);
    });
}

MemoryPanel* DocumentView::memory()
{
    return builtOnce(m_memory, this, [this](MemoryPanel* memory) {
        connect(memory, &MemoryPanel::nodeRequested, this, &DocumentView::selectNode);
        connect(memory, &MemoryPanel::statusMessage, this, &DocumentView::statusMessage);
        if (!m_memoryPage)
            memory->hide();
        // The method shown, then the node selected since it was (setMethod forgets older ones).
        if (m_analysisRefreshed)
            memory->setMethod(m_controller->document(), m_context.method);
        if (m_lastSelected)
            memory->showNode(*m_lastSelected);
        replacePage(m_analysisTabs, m_memoryPage, memory);
    });
}

HeatmapPanel* DocumentView::heatmapPanel() const
{
    return const_cast<DocumentView*>(this)->heatmap();
}

LoadCheckPanel* DocumentView::loadCheckPanel() const
{
    return const_cast<DocumentView*>(this)->loadCheck();
}

TimelinePanel* DocumentView::timelinePanel() const
{
    return const_cast<DocumentView*>(this)->timeline();
}

SizePanel* DocumentView::sizePanel() const
{
    return const_cast<DocumentView*>(this)->size();
}

MemoryPanel* DocumentView::memoryPanel() const
{
    return const_cast<DocumentView*>(this)->memory();
}

bool DocumentView::isPanelBuilt(Panel panel) const
{
    switch (panel) {
    case Panel::Heatmap:
        return m_heatmap != nullptr;
    case Panel::LoadCheck:
        return m_loadCheck != nullptr;
    case Panel::Timeline:
        return m_timeline != nullptr;
    case Panel::Size:
        return m_size != nullptr;
    case Panel::Memory:
        return m_memory != nullptr;
    }
    return false;
}

void DocumentView::refreshAnalysis()
{
    m_analysisRefreshed = true;
    refreshTimeline();
    refreshLoadCheck();
    if (m_memory)
        m_memory->setMethod(m_controller->document(), m_context.method);
}

void DocumentView::startDeferredWork()
{
    if (m_painted)
        return;
    // Inner graphs the open deferred are decoded now, off the first paint's path.
    m_painted = true;
    // The Load tab is built now, off the first paint's path (its check marks the graph).
    QTimer::singleShot(0, this, [this] { loadCheck(); });
    m_controller->decodeDeferredGraphs();
    if (m_controller->decodingDeferredGraphs())
        return; // deferredDecodeFinished counts them, lays out ahead and asks for the node facts
    // The node facts (cost, why on the CPU): on a worker, after the first paint.
    m_controller->requestNodeFacts();
    layOutAhead();
    if (m_operatorsWaiting)
        refreshOperatorTable();
    if (m_loadCheckWaiting)
        refreshLoadCheck();
}

void DocumentView::refreshLoadCheck()
{
    // The check counts the operators inside delegates (the delegated share): like the operator
    // table it waits for the inner graphs the open deferred, decoded after the first paint.
    m_loadCheckWaiting = m_controller->graphsPending() && (!m_painted || m_controller->decodingDeferredGraphs());
    // Not built yet: it is given the document when it is (loadCheck()).
    if (!m_loadCheckWaiting && m_loadCheck)
        m_loadCheck->setDocument(m_controller->document(), m_context);
}

void DocumentView::showLoadCheck()
{
    m_sideTabs->setCurrentWidget(loadCheck());
}

void DocumentView::setKernelMarksVisible(bool visible)
{
    m_kernelMarksVisible = visible;
    if (m_loadCheck)
        m_loadCheck->setMarksVisible(visible);
}

void DocumentView::showAnalysis(QWidget* panel)
{
    if (!panel || m_analysisTabs->indexOf(panel) < 0) {
        m_analysisTabs->hide();
        return;
    }
    const bool wasHidden = m_analysisTabs->isHidden();
    m_analysisTabs->setCurrentWidget(panel);
    m_analysisTabs->show();
    if (wasHidden) {
        // Room for the panel, up to two fifths of the column: the graph stays the main view. (A
        // third left the Size panel's list of kinds clipped and the memory chart cramped at
        // 1600×1000.)
        const int total = std::max(m_graphColumn->height(), kGraphColumnMinimum);
        const int wanted = panel->sizeHint().height() + m_analysisTabs->tabBar()->sizeHint().height();
        const int height = std::clamp(wanted, total / 4, total * 2 / 5);
        m_graphColumn->setSizes({ total - height, height });
    }
}

} // namespace etscope::ui
