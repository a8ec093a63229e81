// SPDX-License-Identifier: MIT
#include "ui/window/mainwindow.h"

#include "core/util/text.h"
#include "ui/common/logging.h"
#include "ui/common/theme.h"
#include "ui/compare/compareview.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphview.h"
#include "ui/memory/memorypanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/report/reportdialog.h"
#include "ui/size/sizepanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/documentview.h"
#include "ui/window/shortcutsdialog.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace etscope::ui {

namespace {

constexpr int kMaxRecent = 10;
const char* const kRecentKey = "recentFiles";
const char* const kMinimapKey = "showMinimap";
const char* const kEdgeShapesKey = "showEdgeShapes";
const char* const kInlineConstantsKey = "smallConstantsInline";
const char* const kLegendKey = "showLegend";
const char* const kKernelMarksKey = "markMissingKernels";
const char* const kErrorProperty = "etscopeError";
/// On an "Opening…" page: the DocumentController whose open it stands for (closing the page
/// cancels the open and drops its result).
const char* const kOpeningProperty = "etscopeOpening";

constexpr QSize kWindowSize { 1400, 900 };
/// Side margins of the pages that stand in for a document (opening, error, welcome).
constexpr int kOpeningMargin = 200;
constexpr int kErrorMargin = 120;
constexpr int kWelcomeMargin = 160;
constexpr int kStatusMilliseconds = 4000; ///< how long a transient status message stays
constexpr int kWorkBarWidth = 160; ///< the status bar's progress bar of debug work
constexpr int kWorkTextWidth = 420; ///< what that work is ("Mapping gap.csv onto forward: …")

/// `first`, then the platform's keys for `standard`, each once. On X11 and Windows the
/// standard Back is Alt+Left itself: listing both bound Alt+Left twice to one action, which Qt
/// reports as an "Ambiguous shortcut overload" and then runs neither.
QList<QKeySequence> distinctKeys(QList<QKeySequence> first, QKeySequence::StandardKey standard)
{
    for (const QKeySequence& key : QKeySequence::keyBindings(standard))
        if (!key.isEmpty() && !first.contains(key))
            first.append(key);
    first.removeAll(QKeySequence());
    return first;
}

/// Shows or hides the backend legend of the graphs in `view`.
void setLegendEnabled(QWidget* view, bool enabled)
{
    for (GraphPanel* panel : view->findChildren<GraphPanel*>())
        panel->setLegendEnabled(enabled);
}

/// Shown while a file opens: what is happening, how far, and a way out.
QWidget* openingPage(DocumentController* controller, const QString& path)
{
    auto* page = new QWidget();
    page->setProperty(kOpeningProperty, QVariant::fromValue<QObject*>(controller));
    auto* layout = new QVBoxLayout(page);
    auto* title = new QLabel(QObject::tr("Opening <b>%1</b>…").arg(QFileInfo(path).fileName().toHtmlEscaped()), page);
    auto* phase = new QLabel(page);
    auto* bar = new QProgressBar(page);
    bar->setRange(0, 100);
    auto* cancel = new QPushButton(QObject::tr("Cancel"), page);
    layout->addStretch();
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->addWidget(bar);
    // Full width, text centred: an aligned label keeps the width of its first text, and a
    // later, longer phase showed as its first letter ("a" of "analysing …").
    phase->setAlignment(Qt::AlignHCenter);
    phase->setObjectName(QStringLiteral("openingPhase"));
    layout->addWidget(phase);
    layout->addWidget(cancel, 0, Qt::AlignHCenter);
    layout->addStretch();
    page->setContentsMargins(kOpeningMargin, 0, kOpeningMargin, 0);
    QObject::connect(controller, &DocumentController::progress, bar, [bar, phase](int percent, const QString& text) {
        bar->setValue(percent);
        phase->setText(text);
    });
    QObject::connect(cancel, &QPushButton::clicked, controller, &DocumentController::stop);
    return page;
}

QWidget* errorPage(const QString& path, const QString& message, QTabWidget* tabs)
{
    auto* page = new QWidget();
    page->setProperty(kErrorProperty, message);
    auto* layout = new QVBoxLayout(page);
    auto* title
        = new QLabel(QObject::tr("<h3>Could not open %1</h3>").arg(QFileInfo(path).fileName().toHtmlEscaped()), page);
    auto* text = new QLabel(message, page);
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignHCenter);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    auto* close = new QPushButton(QObject::tr("Close"), page);
    layout->addStretch();
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->addWidget(text); // full width: a centred word-wrapped label would shrink to its first word
    layout->addWidget(close, 0, Qt::AlignHCenter);
    layout->addStretch();
    page->setContentsMargins(kErrorMargin, 0, kErrorMargin, 0);
    QObject::connect(close, &QPushButton::clicked, page, [tabs, page] {
        tabs->removeTab(tabs->indexOf(page));
        page->deleteLater();
    });
    return page;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_facts(new QLabel(this))
{
    setWindowTitle(QStringLiteral("ETScope"));
    setAcceptDrops(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    m_tabs->setObjectName(QStringLiteral("documentTabs"));
    setCentralWidget(m_tabs);
    // Debug data being read for the current tab: what, how far, and a way out (as opening has).
    m_work = new QWidget(this);
    m_work->setObjectName(QStringLiteral("workArea"));
    auto* work = new QHBoxLayout(m_work);
    work->setContentsMargins(0, 0, 0, 0);
    m_workText = new QLabel(m_work);
    m_workText->setObjectName(QStringLiteral("workText"));
    // A fixed size: the text changes many times a second, and a label that grew with it asked
    // the whole window to lay itself out again each time (100 ms on a million-row heatmap).
    m_workText->setFixedWidth(kWorkTextWidth);
    m_workText->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_workBar = new QProgressBar(m_work);
    m_workBar->setObjectName(QStringLiteral("workProgress"));
    m_workBar->setFixedWidth(kWorkBarWidth);
    m_workBar->setRange(0, 0);
    auto* cancelWork = new QPushButton(tr("Cancel"), m_work);
    cancelWork->setObjectName(QStringLiteral("workCancel"));
    cancelWork->setToolTip(tr("Stop reading the debug data (Esc); what was attached before stays"));
    connect(cancelWork, &QPushButton::clicked, this, [this] {
        if (DocumentView* view = currentView())
            view->controller()->stopDebugWork();
    });
    work->addWidget(m_workText);
    work->addWidget(m_workBar);
    work->addWidget(cancelWork);
    m_work->hide();
    statusBar()->addPermanentWidget(m_work);
    statusBar()->addPermanentWidget(m_facts);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(escape, &QShortcut::activated, this, [this] { stopCurrentWork(); });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentChanged);
    buildMenus();
    m_tabs->addTab(welcomePage(), tr("Welcome"));
    resize(kWindowSize);
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::welcomePage()
{
    auto* page = new QWidget();
    page->setObjectName(QStringLiteral("welcome"));
    auto* layout = new QVBoxLayout(page);
    auto* text = new QLabel(
        tr("<h2>ETScope</h2><p>Open an ExecuTorch program (<tt>.pte</tt>), bundled program (<tt>.bpte</tt>) "
           "or external data file (<tt>.ptd</tt>) to see what was delegated to which backend, what is inside "
           "each delegate and which operators run on portable kernels.</p>"
           "<p>Drop a file here, press <b>Ctrl+O</b>, or pick a recent file from the File menu.</p>"),
        page);
    text->setWordWrap(true);
    auto* open = new QPushButton(tr("Open a file…"), page);
    connect(open, &QPushButton::clicked, this, &MainWindow::openDialog);
    layout->addStretch();
    layout->addWidget(text);
    layout->addWidget(open, 0, Qt::AlignLeft);
    layout->addStretch();
    page->setContentsMargins(kWelcomeMargin, 0, kWelcomeMargin, 0);
    return page;
}

QAction* MainWindow::addViewSetting(QMenu* menu, const QString& text, const char* key, bool byDefault,
    const std::function<void(DocumentView&, bool)>& apply, const std::function<void(bool)>& changed)
{
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setChecked(QSettings().value(QLatin1String(key), byDefault).toBool());
    connect(action, &QAction::toggled, this, [this, key, apply, changed](bool on) {
        QSettings().setValue(QLatin1String(key), on);
        if (changed)
            changed(on);
        for (int i = 0; i < m_tabs->count(); ++i)
            if (auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i)))
                apply(*view, on);
    });
    // A setting that is global (changed) takes effect in new views by itself.
    if (!changed)
        m_viewSettings.push_back({ key, byDefault, apply });
    return action;
}

void MainWindow::addViewActions(QMenu* menu, const std::vector<ViewAction>& actions)
{
    for (const ViewAction& action : actions)
        menu->addAction(tr(action.text), action.shortcut, this, [this, run = action.run] {
            if (DocumentView* view = currentView())
                run(*view);
        });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    addViewActions(file, { { QT_TR_NOOP("&Reload"), QKeySequence::Refresh, [this](DocumentView& view) {
                                // openFile would only find the open tab and focus it.
                                reload(&view);
                            } } });
    file->addAction(tr("Co&mpare…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D), this, [this] {
        // Two programs side by side in a tab of their own; the current tab's program is A.
        DocumentView* current = currentView();
        QString a = current ? current->controller()->path() : QString(), b;
        if (!CompareView::askForFiles(this, a, b))
            return;
        auto* compare = new CompareView(m_tabs);
        connect(compare, &CompareView::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 5000); });
        if (m_tabs->count() == 1 && m_tabs->widget(0)->objectName() == QLatin1String("welcome"))
            m_tabs->removeTab(0);
        compare->compareFiles(
            a, b, current && current->controller()->path() == a ? current->controller()->document() : nullptr);
        m_tabs->setCurrentIndex(m_tabs->addTab(compare, compare->title()));
        m_tabs->setTabToolTip(m_tabs->currentIndex(), a + QLatin1Char('\n') + b);
    });
    file->addSeparator();
    QMenu* attachMenu = file->addMenu(tr("&Attach Debug Data"));
    attachMenu->setToolTipsVisible(true);
    const std::pair<const char*, AttachKind> attachments[] = {
        { QT_TR_NOOP("Runtime Trace (ETDump) of the Run…"), AttachKind::Run },
        { QT_TR_NOOP("Reference ETDump (compared with the run)…"), AttachKind::Reference },
        { QT_TR_NOOP("ETRecord…"), AttachKind::ETRecord },
        { QT_TR_NOOP("Inspector Numeric-Gap Table (CSV, TSV, JSON or as printed)…"), AttachKind::InspectorTable },
    };
    for (const auto& [label, kind] : attachments)
        attachMenu->addAction(tr(label), this, [this, kind = kind] { attachDialog(kind); });
    file->addSeparator();
    addViewActions(file,
        { { QT_TR_NOOP("Export &Image…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
            [](DocumentView& view) { view.exportImageInteractive(); } } });
    QMenu* tables = file->addMenu(tr("Export Operator &Table"));
    const std::pair<const char*, core::TableFormat> formats[] = { { QT_TR_NOOP("CSV…"), core::TableFormat::Csv },
        { QT_TR_NOOP("TSV…"), core::TableFormat::Tsv }, { QT_TR_NOOP("Markdown…"), core::TableFormat::Markdown },
        { QT_TR_NOOP("HTML…"), core::TableFormat::Html }, { QT_TR_NOOP("JSON…"), core::TableFormat::Json } };
    std::vector<ViewAction> tableActions;
    for (const auto& [name, format] : formats)
        tableActions.push_back(
            { name, {}, [f = format](DocumentView& view) { Q_EMIT view.operatorPanel()->exportRequested(f); } });
    addViewActions(tables, tableActions);
    addViewActions(file,
        { { QT_TR_NOOP("Export &Report…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), [this](DocumentView& view) {
               ReportDialog dialog(view.controller()->document(), &view.controller()->debug(), &view);
               if (dialog.exec() == QDialog::Accepted && !dialog.writtenPath().isEmpty())
                   showReportWritten(dialog.writtenPath());
           } } });
    file->addSeparator();
    file->addAction(tr("&Close Tab"), QKeySequence::Close, this, [this] { closeTab(m_tabs->currentIndex()); });
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    addViewActions(edit,
        {
            { QT_TR_NOOP("&Find…"), QKeySequence::Find, [](DocumentView& view) { view.focusSearch(); } },
            { QT_TR_NOOP("Copy Graph &Printout"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                [this](DocumentView& view) {
                    QApplication::clipboard()->setText(view.printout());
                    statusBar()->showMessage(
                        tr("Copied the graph printout (format_delegated_graph style)"), kStatusMilliseconds);
                } },
        });

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    addViewActions(viewMenu,
        {
            { QT_TR_NOOP("Zoom &In"), QKeySequence::ZoomIn,
                [](DocumentView& view) { view.graphView()->zoomBy(kZoomStep); } },
            { QT_TR_NOOP("Zoom &Out"), QKeySequence::ZoomOut,
                [](DocumentView& view) { view.graphView()->zoomBy(1 / kZoomStep); } },
            { QT_TR_NOOP("&Fit to Window"), QKeySequence(Qt::CTRL | Qt::Key_0),
                [](DocumentView& view) { view.graphView()->fitAll(); } },
            { QT_TR_NOOP("Actual &Size"), QKeySequence(Qt::CTRL | Qt::Key_1),
                [](DocumentView& view) { view.graphView()->setZoom(1.0); } },
            { QT_TR_NOOP("Zoom to Se&lection"), QKeySequence(Qt::CTRL | Qt::Key_2),
                [this](DocumentView& view) {
                    if (!view.zoomToSelection())
                        statusBar()->showMessage(tr("Select a node first"), kStatusMilliseconds);
                } },
        });
    // One Zoom In, reachable as Ctrl++ and as Ctrl+= (the same key without Shift on most
    // layouts): a second action for Ctrl+= listed "Zoom In" twice in the menu.
    for (QAction* action : viewMenu->actions())
        if (action->text() == tr("Zoom &In"))
            action->setShortcuts(distinctKeys({ QKeySequence(Qt::CTRL | Qt::Key_Equal) }, QKeySequence::ZoomIn));
    QAction* inlined = addViewSetting(
        viewMenu, tr("Show Small &Constants Inline"), kInlineConstantsKey, true,
        [](DocumentView& view, bool) { view.redraw(); }, setSmallConstantsInline);
    inlined->setObjectName(QStringLiteral("inlineConstantsAction"));
    inlined->setToolTip(tr("Constants of at most 4 elements are listed inside the node that reads them"));
    setSmallConstantsInline(inlined->isChecked());
    QAction* shapes = addViewSetting(viewMenu, tr("Show Tensor S&hapes on Edges"), kEdgeShapesKey, false,
        [](DocumentView& view, bool on) { view.setEdgeLabelsVisible(on); });
    shapes->setObjectName(QStringLiteral("edgeShapesAction"));
    shapes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    addViewSetting(viewMenu, tr("Show &Minimap"), kMinimapKey, true,
        [](DocumentView& view, bool on) { view.setMinimapVisible(on); });
    addViewSetting(viewMenu, tr("Show &Legend"), kLegendKey, true, [](DocumentView& view, bool on) {
        setLegendEnabled(&view, on);
    })->setObjectName(QStringLiteral("showLegend"));
    addViewSetting(viewMenu, tr("Mark Operators Without &Kernel"), kKernelMarksKey, true,
        [](DocumentView& view, bool on) { view.setKernelMarksVisible(on); })
        ->setObjectName(QStringLiteral("markMissingKernels"));
    QMenu* themeMenu = viewMenu->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    themes->setExclusive(true);
    const std::pair<const char*, Theme> themeChoices[] = { { QT_TR_NOOP("&System"), Theme::System },
        { QT_TR_NOOP("&Light"), Theme::Light }, { QT_TR_NOOP("&Dark"), Theme::Dark } };
    for (const auto& [label, theme] : themeChoices) {
        QAction* action = themeMenu->addAction(tr(label));
        QString name = themeName(theme);
        name[0] = name[0].toUpper();
        action->setObjectName(QStringLiteral("theme") + name);
        action->setCheckable(true);
        action->setChecked(theme == currentTheme());
        themes->addAction(action);
        connect(action, &QAction::triggered, this, [t = theme] {
            saveTheme(t);
            applyTheme(t);
        });
    }
    viewMenu->addSeparator();
    addViewActions(viewMenu,
        {
            { QT_TR_NOOP("&Expand All Delegates"), QKeySequence(Qt::CTRL | Qt::Key_E),
                [](DocumentView& view) { view.expandAll(); } },
            { QT_TR_NOOP("&Collapse All Delegates"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                [](DocumentView& view) { view.collapseAll(); } },
        });
    // The analysis panels under the graph: each brings its tab to the front.
    viewMenu->addSeparator();
    addViewActions(viewMenu,
        {
            { QT_TR_NOOP("Will It &Load (Kernel Check)"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
                [](DocumentView& view) { view.showLoadCheck(); } },
            { QT_TR_NOOP("&Memory Plan"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
                [this](DocumentView& view) {
                    if (view.analysisTabs()->indexOf(view.memoryPanel()) < 0)
                        statusBar()->showMessage(
                            tr("A memory plan needs a program (.pte) in its method's tab"), kStatusMilliseconds);
                    else
                        view.showAnalysis(view.memoryPanel());
                } },
            { QT_TR_NOOP("&Size Breakdown"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B),
                [](DocumentView& view) { view.showAnalysis(view.sizePanel()); } },
            { QT_TR_NOOP("&Timeline of the Run"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                [this](DocumentView& view) {
                    if (view.analysisTabs()->indexOf(view.timelinePanel()) < 0)
                        statusBar()->showMessage(
                            tr("Attach the run's ETDump first (File › Attach Debug Data)"), kStatusMilliseconds);
                    else
                        view.showAnalysis(view.timelinePanel());
                } },
            { QT_TR_NOOP("&Hide Analysis Panel"), QKeySequence(),
                [](DocumentView& view) { view.showAnalysis(nullptr); } },
        });

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    QAction* back = go->addAction(tr("&Back"), this, [this] {
        if (!goBack())
            statusBar()->showMessage(tr("Nothing to go back to"), kStatusMilliseconds);
    });
    back->setShortcuts(distinctKeys({ QKeySequence(Qt::ALT | Qt::Key_Left) }, QKeySequence::Back));
    QAction* forward = go->addAction(tr("&Forward"), this, [this] {
        if (!goForward())
            statusBar()->showMessage(tr("Nothing to go forward to"), kStatusMilliseconds);
    });
    forward->setShortcuts(distinctKeys({ QKeySequence(Qt::ALT | Qt::Key_Right) }, QKeySequence::Forward));
    go->addSeparator();
    // The first node whose numeric gap crosses the default thresholds (issue 24 #2).
    QAction* divergence = go->addAction(tr("First &Divergence"), this, [this] {
        if (DocumentView* view = currentView())
            view->goToFirstDivergence();
        else
            statusBar()->showMessage(
                tr("Open a program and attach a run and a reference ETDump first"), kStatusMilliseconds);
    });
    divergence->setObjectName(QStringLiteral("goFirstDivergence"));
    divergence->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
        [this] { showShortcutsDialog(this, *menuBar()); });
    help->addAction(tr("&About ETScope"), this, [this] {
        QMessageBox::about(this, tr("About ETScope"),
            tr("<b>ETScope %1</b><p>See what ExecuTorch really did with your model.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
}

void MainWindow::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open ExecuTorch file"), QString(),
        tr("ExecuTorch files (*.pte *.bpte *.ptd *.etdp *.etdump *.etrecord *.bin);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::attachDialog(AttachKind kind)
{
    const QString filter = [&] {
        switch (kind) {
        case AttachKind::Run:
        case AttachKind::Reference:
            return tr("ETDump (*.etdp *.etdump);;All files (*)");
        case AttachKind::ETRecord:
            return tr("ETRecord (*.bin *.etrecord);;All files (*)");
        case AttachKind::InspectorTable:
            break;
        }
        return tr("Inspector tables (*.csv *.tsv *.json *.txt *.md);;All files (*)");
    }();
    const QString path = QFileDialog::getOpenFileName(this, tr("Attach debug data"), QString(), filter);
    if (path.isEmpty())
        return;
    QPointer<MainWindow> self(this);
    attachTo(currentView(), kind, path, [self](const QString& error) {
        if (self && !error.isEmpty() && error != QLatin1String("stopped"))
            QMessageBox::warning(self, tr("Could not attach"), error);
    });
}

void MainWindow::attachToCurrent(AttachKind kind, const QString& path)
{
    attachTo(currentView(), kind, path);
}

void MainWindow::attachTo(
    DocumentView* view, AttachKind kind, const QString& path, std::function<void(const QString& error)> done)
{
    if (!view) {
        const QString error = tr("%1: open a program first, then attach its debug data").arg(path);
        statusBar()->showMessage(error, 8000);
        Q_EMIT attached(path, error);
        if (done)
            done(error);
        return;
    }
    DocumentController* controller = view->controller();
    // One answer per attachment: the connections go with it (the same path attached twice in
    // a row is answered in order, as the controller reads them).
    auto connections = std::make_shared<std::pair<QMetaObject::Connection, QMetaObject::Connection>>();
    const auto finish = [this, path, done, connections](const QString& error) {
        QObject::disconnect(connections->first);
        QObject::disconnect(connections->second);
        statusBar()->showMessage(error.isEmpty() ? tr("Attached %1").arg(path)
                : error == QLatin1String("stopped")
                ? tr("Attaching %1 was stopped; what was attached before stays").arg(path)
                : error,
            8000);
        Q_EMIT attached(path, error);
        if (done)
            done(error);
    };
    connections->first = connect(controller, &DocumentController::attachFinished, this,
        [path, finish](AttachKind, const QString& file, const QString& error) {
            if (file == path)
                finish(error);
        });
    connections->second = connect(
        controller, &DocumentController::attachStopped, this, [path, finish](AttachKind, const QString& file) {
            if (file == path)
                finish(QStringLiteral("stopped"));
        });
    controller->attachArtifact(kind, path);
}

void MainWindow::watchDebugWork(DocumentController* controller)
{
    connect(controller, &DocumentController::debugBusyChanged, this, [this, controller] {
        if (currentView() && currentView()->controller() == controller)
            updateWorkArea();
    });
    connect(controller, &DocumentController::debugProgress, this, [this, controller](int percent, const QString& text) {
        if (!currentView() || currentView()->controller() != controller)
            return;
        m_workText->setText(text);
        if (percent < 0) {
            m_workBar->setRange(0, 0);
        } else {
            m_workBar->setRange(0, 100);
            m_workBar->setValue(percent);
        }
    });
}

void MainWindow::updateWorkArea()
{
    DocumentView* view = currentView();
    const bool busy = view && view->controller()->debugBusy();
    if (busy && m_work->isHidden()) {
        m_workText->setText(tr("Reading debug data…"));
        m_workBar->setRange(0, 0);
    }
    m_work->setVisible(busy);
}

bool MainWindow::stopCurrentWork()
{
    QWidget* page = m_tabs->currentWidget();
    if (!page)
        return false;
    if (auto* opening = qobject_cast<DocumentController*>(page->property(kOpeningProperty).value<QObject*>())) {
        opening->stop();
        return true;
    }
    DocumentView* view = currentView();
    if (!view)
        return false;
    if (view->controller()->debugBusy()) {
        view->controller()->stopDebugWork();
        return true;
    }
    if (view->controller()->layingOut(view)) {
        view->controller()->stopLayout(view);
        return true;
    }
    return false;
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::showReportWritten(const QString& path)
{
    // A link in the status bar (a message alone could not be clicked); it goes with the next
    // message, or after a while.
    auto* link = new QLabel(
        tr("Report written to %1 — <a href=\"%2\">Open</a>")
            .arg(QDir::toNativeSeparators(path).toHtmlEscaped(), QUrl::fromLocalFile(path).toString().toHtmlEscaped()),
        statusBar());
    link->setObjectName(QStringLiteral("report-written"));
    link->setTextFormat(Qt::RichText);
    connect(link, &QLabel::linkActivated, this, [](const QString& url) { QDesktopServices::openUrl(QUrl(url)); });
    statusBar()->clearMessage();
    statusBar()->addWidget(link, 1);
    connect(statusBar(), &QStatusBar::messageChanged, link, [link](const QString& message) {
        if (!message.isEmpty())
            link->deleteLater();
    });
    QTimer::singleShot(15 * kStatusMilliseconds, link, &QObject::deleteLater);
}

void MainWindow::addRecent(const QString& path)
{
    QStringList recent = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName() + QStringLiteral("  —  ") + QFileInfo(path).absolutePath(),
            this, [this, path] { openFile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

DocumentView* MainWindow::currentView() const
{
    return qobject_cast<DocumentView*>(m_tabs->currentWidget());
}

QString MainWindow::errorText(int tab) const
{
    QWidget* page = m_tabs->widget(tab);
    return page ? page->property(kErrorProperty).toString() : QString();
}

DocumentView* MainWindow::addView(DocumentController* controller, GraphContext context, int at)
{
    auto* view = new DocumentView(controller, context, m_tabs);
    for (const ViewSetting& setting : m_viewSettings)
        setting.apply(*view, QSettings().value(QLatin1String(setting.key), setting.byDefault).toBool());
    const QString title = view->title();
    const int index = at < 0 ? m_tabs->addTab(view, title) : m_tabs->insertTab(at, view, title);
    m_tabs->setTabToolTip(index, controller->path());
    m_tabs->setCurrentIndex(index);
    connect(view, &DocumentView::placeChanged, this, [this, view] {
        if (view == currentView())
            recordPlace();
    });
    connect(view, &DocumentView::openDelegateRequested, this,
        [this, controller](int method, core::NodeId node) { openDelegate(controller, method, node); });
    connect(view, &DocumentView::showParentRequested, this,
        [this, controller](const GraphContext& parent) { showParent(controller, parent); });
    connect(view, &DocumentView::statusMessage, this,
        [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    connect(view, &DocumentView::titleChanged, this,
        [this, view](const QString& text) { m_tabs->setTabText(m_tabs->indexOf(view), text); });
    connect(view, &DocumentView::firstPainted, this, [this, controller] { Q_EMIT firstPainted(controller->path()); });
    // A file without a graph (.ptd) is drawn as soon as its page is; an ETDump alone when its
    // page has filled in its tables (DocumentView::firstPainted).
    if (const auto document = controller->document(); document && !document->program && !document->etdump)
        QTimer::singleShot(0, this, [this, controller] { Q_EMIT firstPainted(controller->path()); });
    return view;
}

void MainWindow::openFile(const QString& path, const QString& titleNote)
{
    openProgram(path, titleNote, {});
}

void MainWindow::openFiles(const QStringList& paths)
{
    struct Pending {
        QString program;
        QList<QPair<AttachKind, QString>> attachments;
    };
    QList<Pending> programs;
    QList<QPair<AttachKind, QString>> toCurrent;
    for (const QString& path : paths) {
        QList<QPair<AttachKind, QString>>& target = programs.isEmpty() ? toCurrent : programs.last().attachments;
        const DocumentView* view = currentView();
        const bool runAttached = programs.isEmpty() && view && view->controller()->debug().run;
        const bool hasRun = runAttached
            || std::any_of(target.begin(), target.end(),
                [](const QPair<AttachKind, QString>& a) { return a.first == AttachKind::Run; });
        if (const auto kind = debugArtifactKind(path, hasRun);
            kind && (!programs.isEmpty() || (view && view->controller()->document()))) {
            target.append({ *kind, path });
            continue;
        }
        programs.append({ path, {} });
    }
    for (const Pending& pending : programs)
        qCDebug(logUi).noquote() << "files given: program" << pending.program << "with" << pending.attachments.size()
                                 << "debug files";
    if (!toCurrent.isEmpty())
        qCDebug(logUi).noquote() << "files given:" << toCurrent.size() << "debug files for the current tab";
    if (!toCurrent.isEmpty())
        attachAll(currentView(), toCurrent);
    for (const Pending& pending : programs)
        openProgram(pending.program, {}, pending.attachments);
}

void MainWindow::attachAll(DocumentView* view, const QList<QPair<AttachKind, QString>>& attachments)
{
    if (attachments.isEmpty())
        return;
    // attachmentsShown once every one has ended and the view shows their heat tables.
    auto left = std::make_shared<int>(static_cast<int>(attachments.size()));
    ++m_attachmentGroups;
    QPointer<DocumentView> target(view);
    const QString program = view ? view->controller()->path() : QString();
    const auto ended = [this, left, target, program](const QString&) {
        if (--*left > 0)
            return;
        if (target && target->debugDataPending()) {
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = connect(target, &DocumentView::debugDataShown, this, [this, connection, program] {
                QObject::disconnect(*connection);
                --m_attachmentGroups;
                Q_EMIT attachmentsShown(program);
            });
            return;
        }
        --m_attachmentGroups;
        Q_EMIT attachmentsShown(program);
    };
    for (const auto& [kind, path] : attachments)
        attachTo(view, kind, path, ended);
}

void MainWindow::openProgram(
    const QString& path, const QString& titleNote, const QList<QPair<AttachKind, QString>>& attachments)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i));
        if (view && QFileInfo(view->controller()->path()).absoluteFilePath() == absolute
            && !view->context().delegateNode.valid()) {
            qCDebug(logUi).noquote() << "already open, tab" << i << "shown:" << path;
            m_tabs->setCurrentIndex(i);
            attachAll(view, attachments);
            return;
        }
    }
    if (m_tabs->count() == 1 && m_tabs->widget(0)->objectName() == QLatin1String("welcome"))
        m_tabs->removeTab(0);
    m_titleNote = titleNote;

    auto* controller = new DocumentController(this);
    watchDebugWork(controller);
    // The tab may be closed before the open finishes: closeTab then deletes the controller, so
    // these handlers never run; the guard also drops a result whose page is already gone.
    QPointer<QWidget> placeholder = openingPage(controller, path);
    const int index = m_tabs->addTab(placeholder, QFileInfo(path).fileName());
    m_tabs->setCurrentIndex(index);
    connect(controller, &DocumentController::opened, this, [this, controller, placeholder, path, attachments] {
        if (!placeholder) {
            controller->deleteLater();
            return;
        }
        const int at = m_tabs->indexOf(placeholder);
        m_tabs->removeTab(at);
        placeholder->deleteLater();
        qCDebug(logUi).noquote() << "tab" << at << "shows" << path;
        attachAll(addView(controller, GraphContext {}, at), attachments);
        addRecent(path);
        updateStatus();
        Q_EMIT documentOpened(path);
    });
    const auto fail = [this, controller, placeholder, path](const QString& message) {
        controller->deleteLater();
        if (!placeholder)
            return;
        const int at = m_tabs->indexOf(placeholder);
        m_tabs->removeTab(at);
        placeholder->deleteLater();
        QWidget* page = errorPage(path, message, m_tabs);
        m_tabs->insertTab(at, page, QFileInfo(path).fileName());
        m_tabs->setTabIcon(at, style()->standardIcon(QStyle::SP_MessageBoxWarning));
        m_tabs->setTabToolTip(at, message);
        m_tabs->setCurrentIndex(at);
        statusBar()->showMessage(message, 10000);
        qCDebug(logUi).noquote() << "tab" << at << "shows the error opening" << path;
        Q_EMIT documentFailed(path, message);
    };
    connect(controller, &DocumentController::failed, this, fail);
    connect(controller, &DocumentController::stopped, this, [fail, controller] {
        if (!controller->document())
            fail(tr("Opening was cancelled."));
    });
    controller->open(path);
}

namespace {

QString bytesText(std::uint64_t bytes)
{
    return QString::fromStdString(core::formatBytes(bytes));
}

/// What differs between two reads of one file, in a line: its size and bytes, methods added or
/// gone, instruction and delegate counts per method.
QString describeChange(const core::Document& before, const core::Document& after)
{
    if (!before.program || !after.program)
        return QObject::tr("read again");
    const auto& a = *before.program;
    const auto& b = *after.program;
    const auto bytesA = a.file->bytes();
    const auto bytesB = b.file->bytes();
    if (bytesA.size() == bytesB.size() && std::equal(bytesA.begin(), bytesA.end(), bytesB.begin()))
        return QObject::tr("unchanged (the same %1)").arg(bytesText(bytesB.size()));
    QStringList changes;
    changes << (bytesA.size() == bytesB.size()
            ? QObject::tr("same size (%1), different bytes").arg(bytesText(bytesB.size()))
            : QObject::tr("%1 → %2").arg(bytesText(bytesA.size()), bytesText(bytesB.size())));
    std::map<std::string, const core::Method*> old;
    for (const core::Method& method : a.methods)
        old[method.name] = &method;
    for (const core::Method& method : b.methods) {
        const QString name = QString::fromStdString(method.name);
        const auto found = old.find(method.name);
        if (found == old.end()) {
            changes << QObject::tr("method %1 added").arg(name);
            continue;
        }
        const int was = found->second->instructionCounts().total();
        const int now = method.instructionCounts().total();
        if (was != now)
            changes << QObject::tr("%1: %2 → %3 instructions").arg(name).arg(was).arg(now);
        if (found->second->delegates.size() != method.delegates.size())
            changes << QObject::tr("%1: %2 → %3 delegates")
                           .arg(name)
                           .arg(found->second->delegates.size())
                           .arg(method.delegates.size());
        old.erase(found);
    }
    for (const auto& [name, method] : old)
        changes << QObject::tr("method %1 removed").arg(QString::fromStdString(name));
    return changes.join(QStringLiteral("; "));
}

} // namespace

void MainWindow::reload(DocumentView* current)
{
    if (!current)
        return;
    DocumentController* old = current->controller();
    const auto before = old->document();
    if (!before) {
        statusBar()->showMessage(tr("Wait until the file has opened, then reload"), kStatusMilliseconds);
        return;
    }
    const QString path = old->path();
    const QString name = QFileInfo(path).fileName();
    struct Tab {
        QPointer<DocumentView> view;
        GraphContext context;
        DocumentView::State state;
    };
    std::vector<Tab> tabs;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i)); view && view->controller() == old)
            tabs.push_back({ view, view->context(), view->state() });
    const auto attachments = old->attachments();
    auto* controller = new DocumentController(this);
    watchDebugWork(controller);
    statusBar()->showMessage(tr("Reloading %1…").arg(name));
    connect(controller, &DocumentController::attachFinished, this,
        [this](AttachKind, const QString&, const QString& error) {
            if (!error.isEmpty())
                statusBar()->showMessage(error, 8000);
        });
    connect(controller, &DocumentController::opened, this, [=, this] {
        const auto after = controller->document();
        // Read again on the worker, in order; the views show them when they arrive.
        for (const auto& [kind, file] : attachments)
            controller->attachArtifact(kind, file);
        QStringList lost;
        QWidget* wasCurrent = m_tabs->currentWidget();
        QWidget* nowCurrent = nullptr;
        for (const Tab& tab : tabs) {
            if (!tab.view)
                continue;
            const int at = m_tabs->indexOf(tab.view);
            GraphContext context = tab.context;
            bool keep = true;
            if (after->program) {
                // Methods are found by name: one added before it shifts the index.
                context.method = -1;
                for (std::size_t m = 0; m < after->program->methods.size(); ++m)
                    if (after->program->methods[m].name == tab.state.method)
                        context.method = static_cast<int>(m);
                if (context.delegateNode.valid()) {
                    const core::Graph* graph = context.method >= 0
                        ? after->methods[static_cast<std::size_t>(context.method)].graph.get()
                        : nullptr;
                    keep = graph && context.delegateNode.index() < graph->nodes.size()
                        && graph->node(context.delegateNode).kind == core::NodeKind::Delegate
                        && graph->node(context.delegateNode).subgraph;
                    if (!keep)
                        lost << tr("the tab of %1 is closed: that delegate is gone").arg(tab.view->title());
                }
            }
            const bool current = tab.view == wasCurrent;
            m_tabs->removeTab(at);
            tab.view->deleteLater();
            if (!keep)
                continue;
            DocumentView* view = addView(controller, context, at);
            lost << view->restoreState(tab.state, *before);
            if (current)
                nowCurrent = view;
        }
        if (nowCurrent)
            m_tabs->setCurrentWidget(nowCurrent);
        else if (wasCurrent && m_tabs->indexOf(wasCurrent) >= 0)
            m_tabs->setCurrentWidget(wasCurrent);
        old->stop();
        old->deleteLater();
        QString summary = tr("Reloaded %1: %2").arg(name, describeChange(*before, *after));
        if (!lost.isEmpty())
            summary += tr(" — not kept: %1").arg(lost.join(QStringLiteral("; ")));
        updateStatus();
        statusBar()->showMessage(summary, 15000);
        Q_EMIT reloaded(path, summary);
    });
    const auto fail = [this, controller, name, path](const QString& message) {
        controller->deleteLater();
        const QString text
            = tr("Could not reload %1; the tab still shows the version read before. %2").arg(name, message);
        statusBar()->showMessage(text, 15000);
        Q_EMIT reloaded(path, text);
    };
    connect(controller, &DocumentController::failed, this, fail);
    connect(controller, &DocumentController::stopped, this, [fail, controller] {
        if (!controller->document())
            fail(tr("Reloading was cancelled."));
    });
    controller->open(path);
}

void MainWindow::openDelegate(DocumentController* controller, int method, core::NodeId delegateNode)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i));
        if (view && view->controller() == controller && view->context() == GraphContext { method, delegateNode }) {
            m_tabs->setCurrentIndex(i);
            return;
        }
    }
    const int at = m_tabs->currentIndex() + 1;
    addView(controller, GraphContext { method, delegateNode }, at);
}

void MainWindow::showParent(DocumentController* controller, const GraphContext& parent)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i));
        if (view && view->controller() == controller && !view->context().delegateNode.valid()) {
            view->setMethod(parent.method);
            m_tabs->setCurrentIndex(i);
            return;
        }
    }
    addView(controller, parent, m_tabs->currentIndex());
}

void MainWindow::closeTab(int index)
{
    QWidget* page = m_tabs->widget(index);
    if (!page)
        return;
    auto* view = qobject_cast<DocumentView*>(page);
    DocumentController* controller = view ? view->controller() : nullptr;
    qCDebug(logUi).noquote() << "tab" << index << "closed:" << m_tabs->tabText(index);
    m_tabs->removeTab(index);
    page->deleteLater();
    if (auto* opening = qobject_cast<DocumentController*>(page->property(kOpeningProperty).value<QObject*>())) {
        // Closed while still opening: cancel the job and forget it; its result has no tab.
        opening->disconnect(this);
        opening->stop();
        opening->deleteLater();
    }
    if (controller) {
        bool stillUsed = false;
        for (int i = 0; i < m_tabs->count(); ++i)
            if (auto* other = qobject_cast<DocumentView*>(m_tabs->widget(i));
                other && other->controller() == controller)
                stillUsed = true;
        if (!stillUsed) {
            controller->stop();
            controller->deleteLater();
        }
    }
    if (m_tabs->count() == 0)
        m_tabs->addTab(welcomePage(), tr("Welcome"));
}

void MainWindow::onCurrentChanged()
{
    updateStatus();
    updateWorkArea();
    recordPlace();
}

void MainWindow::recordPlace()
{
    DocumentView* view = currentView();
    if (m_navigating || !view || !view->controller()->document() || !view->controller()->document()->program)
        return;
    m_history.record({ view, view->context().method, view->selectedNode() });
}

void MainWindow::goTo(const Place& place)
{
    m_navigating = true;
    m_tabs->setCurrentWidget(place.view);
    place.view->showPlace(place.method, place.node);
    m_navigating = false;
}

bool MainWindow::goBack()
{
    const auto place = m_history.back();
    if (place)
        goTo(*place);
    return place.has_value();
}

bool MainWindow::goForward()
{
    const auto place = m_history.forward();
    if (place)
        goTo(*place);
    return place.has_value();
}

void MainWindow::updateStatus()
{
    DocumentView* view = currentView();
    const auto document = view ? view->controller()->document() : nullptr;
    if (!document) {
        m_facts->clear();
        setWindowTitle(QStringLiteral("ETScope"));
        return;
    }
    const QString file = QFileInfo(QString::fromStdString(document->path)).fileName();
    QString title = QStringLiteral("%1 — ETScope").arg(view->title());
    if (!m_titleNote.isEmpty() && view->controller()->path() == QString::fromStdString(document->path))
        title = QStringLiteral("%1 (%2) — ETScope").arg(view->title(), m_titleNote);
    setWindowTitle(title);
    QStringList facts { file, QString::fromStdString(std::string(core::fileKindName(document->kind))) };
    if (document->program) {
        facts << QString::fromStdString(document->program->identifier)
              << QString::fromStdString(core::formatBytes(document->program->file->size()))
              << tr("%n method(s)", nullptr, static_cast<int>(document->program->methods.size()));
        std::map<std::string, int> backends;
        for (const core::Method& method : document->program->methods)
            for (const core::DelegateRef& ref : method.delegates)
                ++backends[ref.backendId];
        QStringList parts;
        for (const auto& [backend, count] : backends)
            parts << QStringLiteral("%1 ×%2").arg(QString::fromStdString(backend)).arg(count);
        facts << (parts.isEmpty() ? tr("no delegates") : parts.join(QStringLiteral(", ")));
    }
    m_facts->setText(facts.join(QStringLiteral("  ·  ")));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // Debug artifacts dropped on an open program join it; everything else opens in a tab.
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    openFiles(paths);
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i)))
            view->controller()->stop();
    event->accept();
}

} // namespace etscope::ui
