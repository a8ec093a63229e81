// SPDX-License-Identifier: MIT
// The main window's menus, their actions and shortcuts (the shortcuts dialog reads them), the
// View settings remembered between sessions, the file dialogs and the recent files.
#include "ui/window/mainwindow.h"

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
#include "ui/window/mainwindowshared.h"
#include "ui/window/shortcutsdialog.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>
#include <QTimer>
#include <QUrl>

namespace etscope::ui {

using namespace mainwindow;

namespace {

constexpr int kMaxRecent = 10;
const char* const kRecentKey = "recentFiles";
const char* const kMinimapKey = "showMinimap";
const char* const kEdgeShapesKey = "showEdgeShapes";
const char* const kInlineConstantsKey = "smallConstantsInline";
const char* const kLegendKey = "showLegend";
const char* const kKernelMarksKey = "markMissingKernels";

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

} // namespace

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
    buildFileMenu();
    buildEditMenu();
    buildViewMenu();
    buildGoMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
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
        // Logs the node facts read (cost: docs/cost.md; why on the CPU: docs/why.md).
        { QT_TR_NOOP("Vela Log or Per-Layer CSV…"), AttachKind::VelaLog },
        { QT_TR_NOOP("Runner Log with PMU Report (FVP or Board)…"), AttachKind::RunLog },
        { QT_TR_NOOP("Partition Report (Why on the CPU)…"), AttachKind::PartitionLog },
    };
    for (const auto& [label, kind] : attachments) {
        if (kind == AttachKind::VelaLog)
            attachMenu->addSeparator();
        attachMenu->addAction(tr(label), this, [this, kind = kind] { attachDialog(kind); });
    }
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
}

void MainWindow::buildEditMenu()
{
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
}

void MainWindow::buildViewMenu()
{
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
    addViewSettings(viewMenu);
    addThemeMenu(viewMenu);
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
    addAnalysisActions(viewMenu);
}

void MainWindow::addViewSettings(QMenu* viewMenu)
{
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
}

void MainWindow::addThemeMenu(QMenu* viewMenu)
{
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
}

void MainWindow::addAnalysisActions(QMenu* viewMenu)
{
    addViewActions(viewMenu,
        {
            { QT_TR_NOOP("Will It &Load (Kernel Check)"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
                [](DocumentView& view) { view.showLoadCheck(); } },
            { QT_TR_NOOP("&Memory Plan"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
                [this](DocumentView& view) {
                    showAnalysisPanel(
                        view, view.memoryPanel(), tr("A memory plan needs a program (.pte) in its method's tab"));
                } },
            { QT_TR_NOOP("&Size Breakdown"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B),
                [](DocumentView& view) { view.showAnalysis(view.sizePanel()); } },
            { QT_TR_NOOP("&Timeline of the Run"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                [this](DocumentView& view) {
                    showAnalysisPanel(
                        view, view.timelinePanel(), tr("Attach the run's ETDump first (File › Attach Debug Data)"));
                } },
            { QT_TR_NOOP("&Hide Analysis Panel"), QKeySequence(),
                [](DocumentView& view) { view.showAnalysis(nullptr); } },
        });
}

void MainWindow::showAnalysisPanel(DocumentView& view, QWidget* panel, const QString& why)
{
    if (view.analysisTabs()->indexOf(panel) < 0)
        statusBar()->showMessage(why, kStatusMilliseconds);
    else
        view.showAnalysis(panel);
}

void MainWindow::buildGoMenu()
{
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
}

void MainWindow::buildHelpMenu()
{
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
        case AttachKind::VelaLog:
            return tr("Vela output or per-layer CSV (*.log *.txt *.csv);;All files (*)");
        case AttachKind::RunLog:
            return tr("Runner output (*.log *.txt);;All files (*)");
        case AttachKind::PartitionLog:
            return tr("Partition reports and export logs (*.txt *.log);;All files (*)");
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

QStringList MainWindow::recentFiles() const
{
    return m_recent;
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
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(absolute);
    m_recent.prepend(absolute);
    while (m_recent.size() > kMaxRecent)
        m_recent.removeLast();
    rebuildRecentMenu();
    // Written on a thread of its own (one at a time, in order; the pool waits for the last when
    // the window goes): QSettings writes and syncs its file when it is destroyed, 1.5-5 ms on the
    // UI thread between a file's open and its first paint, while its layout waited (issue 27).
    // QSettings objects in different threads are safe, and other reads of this key go through
    // m_recent.
    m_settingsWriter->start([recent = m_recent] { QSettings().setValue(QLatin1String(kRecentKey), recent); });
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList& recent = m_recent;
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName() + QStringLiteral("  —  ") + QFileInfo(path).absolutePath(),
            this, [this, path] { openFile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace etscope::ui
