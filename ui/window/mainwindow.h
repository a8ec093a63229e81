// SPDX-License-Identifier: MIT
#pragma once

#include "ui/document/debugsession.h"
#include "ui/graph/presentation.h"
#include "ui/window/navigationhistory.h"

#include <QKeySequence>
#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <vector>

class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QThreadPool;

namespace etscope::ui {

class DocumentController;
class DocumentView;

/// The application window: one tab per open graph (a file's method, or one of its delegates),
/// menus with shortcuts, drag and drop, recent files, a status bar with the file's facts.
/// Never blocks on a modal dialog for errors: a failed open becomes a page naming the file
/// and the reason. Implemented in parts: mainwindow.cpp (frame, status bar), mainwindowmenus.cpp,
/// mainwindowopen.cpp (open, reload, attach), mainwindowtabs.cpp (tabs, navigation, drops).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a file in a new tab (or switches to it when already open). `titleNote` is shown
    /// in the window title (e.g. "bundled demo").
    void openFile(const QString& path, const QString& titleNote = {});
    /// Opens files as the command line and a drop give them: programs in tabs; debug artifacts
    /// (.etdp, etrecord.bin or *.etrecord, Inspector .csv/.tsv tables) join the program listed
    /// before them, else the program of the current tab (the first ETDump is the run, a second
    /// the reference); anything else opens in a tab of its own.
    void openFiles(const QStringList& paths);
    /// While the first file is read and the window is still hidden: makes the native window
    /// and fills its backing store once, off screen, so that the first paint does not pay for
    /// the store's fresh memory (issue 27: about 2 ms of page faults at 1400×900, while the UI
    /// thread would otherwise wait for the read). Nothing is shown; no-op once visible.
    void prepareFirstPaint();
    DocumentView* currentView() const;
    QTabWidget* tabs() const { return m_tabs; }
    QStringList recentFiles() const;
    /// The bundled demo program, which the start page offers to open (hidden when empty).
    void setDemoProgram(const QString& path);
    /// Attaches a debug artifact (AttachKind) to the program of the current tab, read on a
    /// worker with its progress and a Cancel button in the status bar (Esc cancels too); the
    /// outcome (error naming the file and the reason) is said there and by attached().
    void attachToCurrent(AttachKind kind, const QString& path);
    /// The status-bar area showing debug work of the current tab (attaching, heat tables).
    QWidget* workArea() const { return m_work; }
    /// Esc: stops what the current tab is doing (opening, attaching or building heat tables,
    /// laying out). False when it was doing nothing.
    bool stopCurrentWork();
    /// Files whose named attachments (command line, drop) are not all shown yet.
    int pendingAttachments() const { return m_attachmentGroups; }
    /// The page shown in a tab whose file failed to open (null when none).
    QString errorText(int tab) const;
    /// File › Reload: reads the file of `view` again (with the debug data attached to it) and
    /// replaces every tab of that file, keeping method, open delegates and groups, selection and
    /// view where they still exist; the status bar (and reloaded()) says what changed.
    void reload(DocumentView* view);
    /// Back (Alt+Left) and Forward (Alt+Right) over tabs, methods and selected nodes.
    bool goBack();
    bool goForward();
    const NavigationHistory& history() const { return m_history; }

Q_SIGNALS:
    void documentOpened(const QString& path);
    void documentFailed(const QString& path, const QString& message);
    /// The first view of a file was painted (its graph, or its page when it has none).
    void firstPainted(const QString& path);
    /// A reload finished: `summary` says what changed in the file and what could not be kept.
    void reloaded(const QString& path, const QString& summary);
    /// An attachment asked for by attachToCurrent, openFiles or a drop ended: attached (empty
    /// `error`), refused (`error` names the file and the reason) or stopped.
    void attached(const QString& path, const QString& error);
    /// The attachments named with a file (command line, drop) have ended and the heat tables of
    /// its view are shown: what `--timings` waits for before its longest stall.
    void attachmentsShown(const QString& path);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    /// Opens `path` and attaches `attachments` (AttachKind, path) once it has opened.
    void openProgram(
        const QString& path, const QString& titleNote, const QList<QPair<AttachKind, QString>>& attachments);
    /// The opened file's view in place of its "Opening…" page (at `at`), then its attachments.
    void showOpened(DocumentController* controller, int at, const QString& path,
        const QList<QPair<AttachKind, QString>>& attachments);
    /// The page saying why the file could not be opened, in place of its "Opening…" page.
    void showOpenFailed(DocumentController* controller, int at, const QString& path, const QString& message);
    /// Attaches to the program of `view` (not necessarily the current tab); the outcome goes
    /// to the status bar, and to `done` (error text, empty on success; "stopped" when stopped).
    void attachTo(
        DocumentView* view, AttachKind kind, const QString& path, std::function<void(const QString& error)> done = {});
    void attachAll(DocumentView* view, const QList<QPair<AttachKind, QString>>& attachments);
    /// Shows `controller`'s debug work in the status bar while it is the current tab's.
    void watchDebugWork(DocumentController* controller);
    void updateWorkArea();
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildViewMenu();
    /// The View settings remembered between sessions (addViewSetting).
    void addViewSettings(QMenu* viewMenu);
    void addThemeMenu(QMenu* viewMenu);
    /// Each brings an analysis panel under the graph to the front.
    void addAnalysisActions(QMenu* viewMenu);
    /// Brings `panel` to the front under the graph of `view`, or says `why` it has no tab there.
    void showAnalysisPanel(DocumentView& view, QWidget* panel, const QString& why);
    void buildGoMenu();
    void buildHelpMenu();
    /// An action on the current tab: menu text, shortcut (may be empty), what it does.
    struct ViewAction {
        const char* text; ///< untranslated (QT_TR_NOOP)
        QKeySequence shortcut;
        std::function<void(DocumentView&)> run;
    };
    void addViewActions(QMenu* menu, const std::vector<ViewAction>& actions);
    /// A checkable View setting remembered under `key`: when toggled, `changed` (for a global
    /// setting) runs, then `apply` on every open view. Settings without `changed` are also
    /// applied to each new view.
    QAction* addViewSetting(QMenu* menu, const QString& text, const char* key, bool byDefault,
        const std::function<void(DocumentView&, bool)>& apply, const std::function<void(bool)>& changed = {});
    struct ViewSetting {
        const char* key;
        bool byDefault;
        std::function<void(DocumentView&, bool)> apply;
    };
    void openDialog();
    void attachDialog(AttachKind kind);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    /// "Report written to PATH — Open" in the status bar; Open shows it in the desktop's viewer.
    void showReportWritten(const QString& path);
    void closeTab(int index);
    struct ReloadTab;
    /// File › Reload's tabs of the old read shown again on `controller` (the new read), each
    /// where it stood where that still exists; returns what could not be kept.
    QStringList reopenTabs(DocumentController* controller, const core::Document& before, const core::Document& after,
        const std::vector<ReloadTab>& tabs);
    void onCurrentChanged();
    DocumentView* addView(DocumentController* controller, GraphContext context, int at = -1);
    void openDelegate(DocumentController* controller, int method, core::NodeId delegateNode);
    void showParent(DocumentController* controller, const GraphContext& parent);
    void updateStatus();
    QWidget* welcomePage();
    /// Records where the current tab stands (unless Back or Forward is moving there).
    void recordPlace();
    void goTo(const Place& place);

    QTabWidget* m_tabs;
    QMenu* m_recentMenu = nullptr;
    QString m_demoPath; ///< the bundled demo, offered on the start page
    QStringList m_recent; ///< recent files, newest first (the settings are written off the UI thread)
    QLabel* m_facts;
    QThreadPool* m_settingsWriter; ///< one thread: the recent files written in order
    QWidget* m_work = nullptr; ///< progress of attaching / heat tables, with Cancel
    QLabel* m_workText = nullptr;
    QProgressBar* m_workBar = nullptr;
    int m_attachmentGroups = 0; ///< attachAll calls not yet ended (attachmentsShown)
    QString m_titleNote;
    std::vector<ViewSetting> m_viewSettings; ///< applied to every new view
    NavigationHistory m_history;
    bool m_navigating = false;
};

} // namespace etscope::ui
