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
class QTabWidget;

namespace etscope::ui {

class DocumentController;
class DocumentView;

/// The application window: one tab per open graph (a file's method, or one of its delegates),
/// menus with shortcuts, drag and drop, recent files, a status bar with the file's facts.
/// Never blocks on a modal dialog for errors: a failed open becomes a page naming the file
/// and the reason.
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
    DocumentView* currentView() const;
    QTabWidget* tabs() const { return m_tabs; }
    QStringList recentFiles() const;
    /// Attaches a debug artifact (AttachKind) to the program of the current tab; the error text
    /// (empty on success) is also shown in the status bar.
    QString attachToCurrent(AttachKind kind, const QString& path);
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

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    /// Opens `path` and attaches `attachments` (AttachKind, path) once it has opened.
    void openProgram(
        const QString& path, const QString& titleNote, const QList<QPair<AttachKind, QString>>& attachments);
    /// Attaches to the program of `view` (not necessarily the current tab); the error text
    /// (empty on success) also goes to the status bar.
    QString attachTo(DocumentView* view, AttachKind kind, const QString& path);
    void attachAll(DocumentView* view, const QList<QPair<AttachKind, QString>>& attachments);
    void buildMenus();
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
    void closeTab(int index);
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
    QLabel* m_facts;
    QString m_titleNote;
    std::vector<ViewSetting> m_viewSettings; ///< applied to every new view
    NavigationHistory m_history;
    bool m_navigating = false;
};

} // namespace etscope::ui
