// SPDX-License-Identifier: MIT
// One tab's construction: its toolbar, panes and breadcrumb, what it shows of the document at
// first, and its exports. The graph's requests are in documentgraph.cpp, the wiring between its
// panels in documentwiring.cpp, the panels built on demand in documentpanels.cpp and the debug
// data in documentdebug.cpp.
#include "ui/window/documentview.h"

#include "core/report/reports.h"
#include "ui/common/exports.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/timings.h"
#include "ui/etdump/etdumppage.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/properties/propertiesmodel.h"
#include "ui/properties/propertiesview.h"
#include "ui/search/searchpanel.h"
#include "ui/size/sizepanel.h"
#include "ui/window/warningbanner.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <utility>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr QSize kToolbarIconSize { 16, 16 };
constexpr int kSearchMinimumWidth = 280; ///< the search box's placeholder stays readable
constexpr QMargins kBreadcrumbMargins { 8, 2, 8, 2 };
constexpr int kRowSpacing = 2; ///< between toolbar, breadcrumb, banner and the panes
/// Initial splitter sizes: graph | side panes, and side tabs above the properties (room for a
/// node's properties without dragging the splitter).
constexpr int kGraphWidth = 900;
constexpr int kSideWidth = 420;
constexpr int kSideTabsHeight = 480;
constexpr int kPropertiesHeight = 340;
constexpr int kSideTabsMinimumHeight = 160;
constexpr int kPropertiesMinimumHeight = 160; ///< about 7 rows and the header
constexpr int kSideMinimumWidth = 220; ///< the side tabs and properties never collapse below this

} // namespace

DocumentView::DocumentView(DocumentController* controller, GraphContext context, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_context(context)
{
    const auto document = m_controller->document();
    // An ETRecord whose graphs could not be read has a program without methods: no graph.
    const bool graph = document && document->program && !document->program->methods.empty();
    if (graph) {
        if (m_context.method < 0) {
            const Method* preferred = document->program->defaultMethod();
            m_context.method = preferred ? static_cast<int>(preferred - document->program->methods.data()) : 0;
        }
        // The first layout is asked for first: Graphviz lays it out on its thread while the
        // panes are built here (issue 27: on dnf_executorch5 the UI thread waited 2.5 ms for it
        // once the view was built). Its answers wait for the panes (whenBuilt).
        request();
    }
    QElapsedTimer building;
    building.start();
    buildUi();
    connectController();
    connectNodeFacts();
    connect(this, &DocumentView::statusMessage, this, [this](const QString& text) { m_lastStatus = text; });
    if (graph) {
        showMethods(*document);
        // The view built (issue 27: part of every first paint).
        timings::report("view", timings::millisecondsSince(building));
    } else if (document) {
        showWithoutGraph(document);
    }
    m_built = true;
    for (std::function<void()>& step : std::exchange(m_untilBuilt, {}))
        step();
}

void DocumentView::whenBuilt(std::function<void()> step)
{
    if (m_built)
        step();
    else
        m_untilBuilt.push_back(std::move(step));
}

/// What happens to the document that this tab shows: its deferred inner graphs decoded, its
/// debug data changed. (Answers to this tab's own requests come to request() and
/// refreshDebugData().)
void DocumentView::connectController()
{
    connect(m_controller, &DocumentController::deferredDecodeFinished, this, [this] {
        // Problems found building the deferred inner graphs join the banner (the eager open
        // lists them among the document's warnings).
        if (const auto document = m_controller->document()) {
            std::vector<Warning> inner;
            for (const MethodAnalysis& analysis : document->methods)
                for (const DelegateInfo& info : analysis.delegates)
                    for (Warning& warning : info.innerGraph.warnings())
                        inner.push_back(std::move(warning));
            if (!inner.empty()) {
                std::vector<Warning> warnings = m_banner->warnings();
                warnings.insert(warnings.end(), inner.begin(), inner.end());
                m_banner->setWarnings(warnings);
            }
        }
        if (m_operatorsWaiting)
            refreshOperatorTable();
        layOutAhead();
        if (m_loadCheckWaiting)
            refreshLoadCheck();
        // What each node costs reads the inner graphs: asked for once they are decoded.
        if (m_painted)
            m_controller->requestNodeFacts();
    });
    connect(m_controller, &DocumentController::debugChanged, this, [this] {
        refreshOperatorTable();
        refreshDebugData();
    });
}

/// A file with methods: the method picker, the banner, the operator table, the debug data and
/// the properties of the method (or of the delegate of this tab).
void DocumentView::showMethods(const Document& document)
{
    for (std::size_t m = 0; m < document.program->methods.size(); ++m) {
        const Method& method = document.program->methods[m];
        // An ETRecord's graphs have nodes, not instructions.
        const QString count = document.etrecord
            ? tr("%n node(s)", nullptr, static_cast<int>(document.methods[m].graph->nodes.size()))
            : tr("%n instruction(s)", nullptr, method.instructionCounts().total());
        m_methodBox->addItem(QStringLiteral("%1  (%2)").arg(QString::fromStdString(method.name), count));
    }
    m_methodBox->setCurrentIndex(m_context.method);
    m_methodBox->setEnabled(!m_context.delegateNode.valid() && document.program->methods.size() > 1);
    m_banner->setWarnings(document.warnings);
    connect(m_methodBox, qOverload<int>(&QComboBox::currentIndexChanged), this, &DocumentView::setMethod);
    updateBreadcrumb();
    refreshOperatorTable();
    refreshDebugData();
    if (m_context.delegateNode.valid())
        m_properties->showNode(document, m_context.method, { m_context.delegateNode, NodeId::none() },
            m_controller->debug().etrecord.get());
    else
        m_properties->showDocument(document, m_context.method);
}

/// Files without a graph (external data): their facts fill the tab. An ETDump shows its runs and
/// the time of each event instead.
void DocumentView::showWithoutGraph(const std::shared_ptr<const Document>& document)
{
    m_banner->setWarnings(document->warnings);
    m_properties->showDocument(*document, -1);
    m_graph->hide();
    m_sideTabs->hide();
    m_breadcrumb->hide();
    for (QToolBar* toolbar : findChildren<QToolBar*>())
        toolbar->hide();
    if (document->kind == FileKind::ExternalData)
        showAnalysis(size());
    if (document->etdump) {
        auto* page = new ETDumpPage(document, this);
        connect(page, &ETDumpPage::statusMessage, this, &DocumentView::statusMessage);
        // Its tables are built on a worker: the page is drawn when they are shown.
        connect(page, &ETDumpPage::ready, this, [this] {
            timings::report("etdump-page", m_controller->millisecondsSinceRequest());
            Q_EMIT firstPainted();
        });
        m_panes->hide();
        layout()->addWidget(page);
        static_cast<QVBoxLayout*>(layout())->setStretchFactor(page, 1);
    }
}

DocumentView::~DocumentView() = default;

void DocumentView::buildUi()
{
    QToolBar* toolbar = buildToolbar();
    m_breadcrumb = new QLabel(this);
    m_breadcrumb->setObjectName(QStringLiteral("breadcrumb"));
    m_breadcrumb->setTextFormat(Qt::RichText);
    m_breadcrumb->setContentsMargins(kBreadcrumbMargins);
    connect(m_breadcrumb, &QLabel::linkActivated, this, [this](const QString&) {
        Q_EMIT showParentRequested(GraphContext { m_context.method, NodeId::none() });
    });
    m_banner = new WarningBanner(this);
    QWidget* panes = buildPanes();
    m_panes = panes;

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(kRowSpacing);
    layout->addWidget(toolbar);
    layout->addWidget(m_breadcrumb);
    layout->addWidget(m_banner);
    layout->addWidget(panes, 1);
    connectScene();
}

QToolBar* DocumentView::buildToolbar()
{
    auto* toolbar = new QToolBar(this);
    toolbar->setIconSize(kToolbarIconSize);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_methodBox = new QComboBox(this);
    m_methodBox->setObjectName(QStringLiteral("methodBox"));
    m_methodBox->setToolTip(tr("Method (execution plan) to show"));
    m_methodBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    toolbar->addWidget(new QLabel(tr(" Method "), this));
    toolbar->addWidget(m_methodBox);
    toolbar->addSeparator();
    QAction* expand = toolbar->addAction(tr("Expand all"), this, &DocumentView::expandAll);
    expand->setToolTip(tr("Expand every decoded delegate in place"));
    QAction* collapse = toolbar->addAction(tr("Collapse all"), this, &DocumentView::collapseAll);
    // A delegate's own tab has nothing to expand.
    expand->setEnabled(!m_context.delegateNode.valid());
    collapse->setEnabled(!m_context.delegateNode.valid());
    toolbar->addSeparator();
    toolbar->addAction(tr("Fit"), this, [this] { m_view->fitAll(); })->setToolTip(tr("Show the whole graph (Ctrl+0)"));
    toolbar->addAction(tr("−"), this, [this] { m_view->zoomBy(1 / kZoomStep); })->setToolTip(tr("Zoom out (Ctrl+−)"));
    toolbar->addAction(tr("+"), this, [this] { m_view->zoomBy(kZoomStep); })->setToolTip(tr("Zoom in (Ctrl++)"));
    toolbar->addSeparator();
    m_searchEdit = new QLineEdit(this);
    m_searchEdit->setObjectName(QStringLiteral("searchEdit"));
    m_searchEdit->setPlaceholderText(tr("Search names, op types, backends, shapes (Ctrl+F)"));
    m_searchEdit->setClearButtonEnabled(true);
    m_searchEdit->setMinimumWidth(kSearchMinimumWidth);
    toolbar->addWidget(m_searchEdit);
    toolbar->addSeparator();
    toolbar->addAction(tr("Export image…"), this, &DocumentView::exportImageInteractive)
        ->setToolTip(tr("Save the graph as PNG, SVG or PDF"));
    return toolbar;
}

QWidget* DocumentView::buildPanes()
{
    m_graph = new GraphPanel(this);
    m_scene = m_graph->scene();
    m_view = m_graph->view();
    connect(m_graph, &GraphPanel::cancelRequested, this, [this] { m_controller->stopLayout(this); });
    connect(m_view, &GraphView::painted, this, [this] {
        if (!m_awaitingFirstPaint)
            return;
        m_awaitingFirstPaint = false;
        timings::report("first-paint", m_controller->millisecondsSinceRequest());
        startDeferredWork();
        Q_EMIT firstPainted();
    });

    m_operators = new OperatorPanel(this);
    m_properties = new PropertiesModel(this);
    m_propertiesView = new PropertiesView(this); // expands its rows and keeps the values in view
    m_propertiesView->setObjectName(QStringLiteral("propertiesView"));
    m_propertiesView->setModel(m_properties);

    m_search = new SearchPanel(m_searchEdit, this);
    connect(m_search, &SearchPanel::searchRequested, this, &DocumentView::runSearch);
    connect(m_search, &SearchPanel::nodeRequested, this, &DocumentView::selectNode);

    m_sideTabs = new QTabWidget(this);
    m_sideTabs->addTab(m_operators, tr("Operators"));
    m_sideTabs->addTab(m_search, tr("Search"));
    // The Heatmap and Load panels are built when first needed (issue 27: building every panel
    // here took about a third of a small program's first paint); empty pages hold their tabs.
    m_heatmapPage = new QWidget(this);
    m_sideTabs->addTab(m_heatmapPage, tr("Heatmap"));
    m_loadCheckPage = new QWidget(this);
    m_sideTabs->addTab(m_loadCheckPage, tr("Load"));
    m_sideTabs->setTabToolTip(m_sideTabs->indexOf(m_loadCheckPage),
        tr("Will it load: every operator checked against the kernel lists a runtime links"));
    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_sideTabs);
    side->addWidget(m_propertiesView);
    side->setStretchFactor(0, 3);
    side->setStretchFactor(1, 2);
    // The tabs' pages ask for a tall minimum (the Load tab's lists, the heat map's form): left
    // to it, a small window gave the properties 3 rows. Both sides give way down to a floor,
    // so the split set here holds: the properties keep about 40 % of the column.
    m_sideTabs->setMinimumHeight(kSideTabsMinimumHeight);
    m_propertiesView->setMinimumHeight(kPropertiesMinimumHeight);
    side->setSizes({ kSideTabsHeight, kPropertiesHeight });
    // The analysis panels sit under the graph, as wide as it; hidden until one is asked for.
    m_analysisTabs = new QTabWidget(this);
    m_analysisTabs->setObjectName(QStringLiteral("analysisTabs"));
    m_analysisTabs->setDocumentMode(true);
    m_analysisTabs->hide();
    buildAnalysisPanels();
    m_graphColumn = new QSplitter(Qt::Vertical, this);
    m_graphColumn->addWidget(m_graph);
    m_graphColumn->addWidget(m_analysisTabs);
    m_graphColumn->setStretchFactor(0, 3);
    m_graphColumn->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_graphColumn);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({ kGraphWidth, kSideWidth });
    // Dragged to the edge, the side tabs used to vanish with no sign of how to bring them back:
    // they stop at a narrow but usable width.
    split->setCollapsible(1, false);
    side->setMinimumWidth(kSideMinimumWidth);
    connect(m_operators, &OperatorPanel::opTypeSelected, this, &DocumentView::onOpTypeSelected);
    connect(m_operators, &OperatorPanel::nextRequested, this, [this] { walkMatches(+1); });
    connect(m_operators, &OperatorPanel::previousRequested, this, [this] { walkMatches(-1); });
    connect(m_operators, &OperatorPanel::exportRequested, this, &DocumentView::exportTableInteractive);
    // A placeholder brought to the front (a click on its tab) is replaced by its panel.
    for (QTabWidget* tabs : { m_sideTabs, m_analysisTabs })
        connect(tabs, &QTabWidget::currentChanged, this, [this, tabs](int index) { buildShownPage(tabs, index); });
    return split;
}

SearchModel* DocumentView::searchModel() const
{
    return m_search->model();
}

std::shared_ptr<const Presentation> DocumentView::presentation() const
{
    return m_scene->presentation();
}

QString DocumentView::title() const
{
    const auto document = m_controller->document();
    if (!document)
        return QFileInfo(m_controller->path()).fileName();
    const QString file = QFileInfo(QString::fromStdString(document->path)).fileName();
    if (!document->program)
        return file;
    return m_context.delegateNode.valid() ? contextTitle(*document, m_context) : file;
}

void DocumentView::updateBreadcrumb()
{
    const auto document = m_controller->document();
    if (!document || !m_context.delegateNode.valid()) {
        m_breadcrumb->hide();
        return;
    }
    const QString file = QFileInfo(QString::fromStdString(document->path)).fileName().toHtmlEscaped();
    const Method& method = document->program->methods[static_cast<std::size_t>(m_context.method)];
    const Node& node
        = document->methods[static_cast<std::size_t>(m_context.method)].graph->node(m_context.delegateNode);
    m_breadcrumb->setText(QStringLiteral("%1 › <a href=\"parent\">%2</a> › <b>%3 #%4</b>")
                              .arg(file, QString::fromStdString(method.name).toHtmlEscaped(),
                                  QString::fromStdString(node.label).toHtmlEscaped())
                              .arg(node.delegate.value));
    m_breadcrumb->setToolTip(tr("Click the method to go back to the top-level graph"));
    m_breadcrumb->show();
}

void DocumentView::setMinimapVisible(bool visible)
{
    m_graph->setMinimapVisible(visible);
}

void DocumentView::setEmbedded()
{
    // Another view's marks (a comparison) are what the graph is about here: no kernel marks.
    m_kernelMarksVisible = false;
    if (m_loadCheck)
        m_loadCheck->setMarksVisible(false);
    if (auto* split = qobject_cast<QSplitter*>(m_panes)) {
        split->setCollapsible(1, true);
        split->widget(1)->setMinimumWidth(0);
        split->setSizes({ kGraphWidth + kSideWidth, 0 });
    }
    // The picker, its label before it and the separator after it.
    if (auto* toolbar = qobject_cast<QToolBar*>(m_methodBox->parentWidget())) {
        const QList<QAction*> actions = toolbar->actions();
        for (qsizetype i = 0; i < actions.size(); ++i)
            if (toolbar->widgetForAction(actions[i]) == m_methodBox)
                for (qsizetype j = std::max<qsizetype>(0, i - 1); j <= std::min(i + 1, actions.size() - 1); ++j)
                    actions[j]->setVisible(false);
    }
}

void DocumentView::showBusy(bool busy, const QString& text)
{
    m_graph->showBusy(busy, text);
}

bool DocumentView::exportImage(const QString& path, QString* error)
{
    return succeeded(exportGraphImage(*m_scene, m_controller->path(), path), error);
}

bool DocumentView::exportTable(const QString& path, TableFormat format, QString* error)
{
    return succeeded(exportTableFile(operatorTable(), format, path), error);
}

Table DocumentView::operatorTable() const
{
    Table table = m_operators->visibleTable();
    table.title
        = QStringLiteral("Operators of %1 — %2").arg(QFileInfo(m_controller->path()).fileName(), title()).toStdString();
    return table;
}

QString DocumentView::printout() const
{
    const auto document = m_controller->document();
    if (!document || !document->program)
        return {};
    const Graph& top = *document->methods[static_cast<std::size_t>(m_context.method)].graph;
    if (m_context.delegateNode.valid() && top.node(m_context.delegateNode).subgraph)
        return QString::fromStdString(delegatedGraphText(*top.node(m_context.delegateNode).subgraph));
    return QString::fromStdString(delegatedGraphText(top));
}

void DocumentView::exportImageInteractive()
{
    const auto document = m_controller->document();
    const QString base
        = graphImageBaseName(m_controller->path(), document ? contextTitle(*document, m_context) : QString());
    const QString saved = saveWithDialog(this, tr("Export image"), base + QStringLiteral(".svg"),
        tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"),
        [this](const QString& path) { return exportGraphImage(*m_scene, m_controller->path(), path); });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

void DocumentView::exportTableInteractive(TableFormat format)
{
    const QString extension = QString::fromLatin1(tableFormatExtension(format).data());
    const QString base = QFileInfo(m_controller->path()).completeBaseName() + QStringLiteral("-operators.") + extension;
    const QString saved = saveWithDialog(this, tr("Export operator table"), base, tr("Table (*.%1)").arg(extension),
        [this, format](const QString& path) { return exportTableFile(operatorTable(), format, path); });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
