// SPDX-License-Identifier: MIT
// The main window's frame: its tab widget, the status bar (the file's facts, the debug work of
// the current tab with its Cancel), the welcome page, Esc and closing. Menus are in
// mainwindowmenus.cpp, opening, reloading and attaching in mainwindowopen.cpp, tabs, navigation
// and drag and drop in mainwindowtabs.cpp.
#include "ui/window/mainwindow.h"

#include "core/util/text.h"
#include "ui/document/documentcontroller.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindowshared.h"

#include <QBackingStore>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <map>

namespace etscope::ui {

using namespace mainwindow;

namespace {

constexpr QSize kWindowSize { 1400, 900 };
constexpr int kWelcomeMargin = 160;
constexpr int kWelcomeSpacing = 12; ///< between the buttons and the recent files
constexpr int kWelcomeRecent = 8; ///< recent files listed on the start page
constexpr int kWorkBarWidth = 160; ///< the status bar's progress bar of debug work
constexpr int kWorkTextWidth = 420; ///< what that work is ("Mapping gap.csv onto forward: …")

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_facts(new QLabel(this))
    , m_settingsWriter(new QThreadPool(this))
{
    m_settingsWriter->setMaxThreadCount(1);
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
    // 1400×900, or nine tenths of a smaller screen: on a 1024×700 screen the window reached past
    // its right and bottom edges, the side panes off screen.
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    const QSize room = screen ? screen->availableGeometry().size() * 9 / 10 : kWindowSize;
    resize(kWindowSize.boundedTo(room));
}

MainWindow::~MainWindow() = default;

void MainWindow::prepareFirstPaint()
{
    if (isVisible())
        return;
    create(); // the native window, and with it the backing store (not mapped until shown)
    QBackingStore* store = backingStore();
    if (!store)
        return;
    // The size it is first painted at; a window manager giving another one makes the store
    // allocate again then, as it would have anyway.
    const QRect all(QPoint(), size());
    store->resize(all.size());
    store->beginPaint(all);
    {
        QPainter painter(store->paintDevice());
        painter.fillRect(all, palette().window());
    }
    store->endPaint(); // not flushed: nothing reaches the screen
}

QWidget* MainWindow::welcomePage()
{
    // The start page, at launch and whenever the last tab closes (issue 38: it read as a blank
    // window): what ETScope opens, the ways in (open, the demo, the recent files), and drops.
    auto* page = new QWidget();
    page->setObjectName(QStringLiteral("welcome"));
    auto* layout = new QVBoxLayout(page);
    auto* text = new QLabel(
        tr("<h2>ETScope</h2><p>Open an ExecuTorch program (<tt>.pte</tt>), bundled program (<tt>.bpte</tt>) "
           "or external data file (<tt>.ptd</tt>) to see what was delegated to which backend, what is inside "
           "each delegate and which operators run on portable kernels. ETDumps and ETRecords beside a program "
           "are attached to it.</p>"
           "<p>Drop files anywhere on this window, press <b>Ctrl+O</b>, or pick one below.</p>"),
        page);
    text->setWordWrap(true);
    auto* buttons = new QHBoxLayout();
    auto* open = new QPushButton(tr("Open a file…"), page);
    open->setObjectName(QStringLiteral("welcomeOpen"));
    connect(open, &QPushButton::clicked, this, &MainWindow::openDialog);
    auto* demo = new QPushButton(tr("Open the demo"), page);
    demo->setObjectName(QStringLiteral("welcomeDemo"));
    demo->setToolTip(tr("A two-method program with an XNNPACK and an NPU delegate, and two runs of it"));
    demo->setVisible(!m_demoPath.isEmpty());
    connect(demo, &QPushButton::clicked, this, [this] {
        if (!m_demoPath.isEmpty())
            openFile(m_demoPath, tr("bundled demo"));
    });
    buttons->addWidget(open);
    buttons->addWidget(demo);
    buttons->addStretch();
    layout->addStretch();
    layout->addWidget(text);
    layout->addLayout(buttons);
    if (!m_recent.isEmpty()) {
        auto* heading = new QLabel(tr("<h3>Recent files</h3>"), page);
        layout->addSpacing(kWelcomeSpacing);
        layout->addWidget(heading);
        auto* list = new QWidget(page);
        list->setObjectName(QStringLiteral("welcomeRecent"));
        auto* rows = new QVBoxLayout(list);
        rows->setContentsMargins(0, 0, 0, 0);
        rows->setSpacing(0);
        for (const QString& path : m_recent.mid(0, kWelcomeRecent)) {
            const QFileInfo info(path);
            const bool exists = info.exists();
            auto* row = new QPushButton(list);
            row->setFlat(true);
            row->setStyleSheet(QStringLiteral("text-align: left; padding: 3px 6px;"));
            // The name first, the folder after it: two files of one name stay apart.
            row->setText(exists ? tr("%1   —   %2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath()))
                                : tr("%1   —   %2 (no longer there)")
                                      .arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())));
            row->setToolTip(QDir::toNativeSeparators(path));
            row->setEnabled(exists);
            row->setProperty("etscopePath", path);
            connect(row, &QPushButton::clicked, this, [this, path] { openFile(path); });
            rows->addWidget(row);
        }
        layout->addWidget(list);
    }
    layout->addStretch();
    page->setContentsMargins(kWelcomeMargin, 0, kWelcomeMargin, 0);
    return page;
}

void MainWindow::setDemoProgram(const QString& path)
{
    m_demoPath = path;
    for (QPushButton* button : findChildren<QPushButton*>(QStringLiteral("welcomeDemo")))
        button->setVisible(!path.isEmpty());
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

void MainWindow::closeEvent(QCloseEvent* event)
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i)))
            view->controller()->stop();
    event->accept();
}

} // namespace etscope::ui
