// SPDX-License-Identifier: MIT
// Opening, reloading and attaching: the "Opening…" page and its Cancel, the error page of a
// failed open, files given together (a program and its debug data), File › Reload keeping each
// tab's place, and debug data attached to a tab's program.
#include "ui/window/mainwindow.h"

#include "core/util/text.h"
#include "ui/common/logging.h"
#include "ui/document/documentcontroller.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindowshared.h"

#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace etscope::ui {

using namespace mainwindow;

namespace {

/// Side margins of the pages that stand in for a document (opening, error, welcome).
constexpr int kOpeningMargin = 200;
constexpr int kErrorMargin = 120;

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
    // Each attachment is answered once, to this handler (the same file attached twice in a row
    // is answered twice, in order).
    view->controller()->attachArtifact(kind, path, [this, path, done](RequestOutcome outcome, const QString& failure) {
        const QString error = outcome == RequestOutcome::Stopped ? QStringLiteral("stopped") : failure;
        statusBar()->showMessage(outcome == RequestOutcome::Done ? tr("Attached %1").arg(path)
                : outcome == RequestOutcome::Stopped
                ? tr("Attaching %1 was stopped; what was attached before stays").arg(path)
                : error,
            8000);
        Q_EMIT attached(path, error);
        if (done)
            done(error);
    });
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
            // A log may hold several (an Arm export's console: its partition report and Vela's
            // output): each is attached.
            const bool log
                = *kind == AttachKind::VelaLog || *kind == AttachKind::RunLog || *kind == AttachKind::PartitionLog;
            for (const AttachKind each : log ? logKinds(path) : std::vector<AttachKind> { *kind })
                target.append({ each, path });
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
    QPointer<QWidget> placeholder = openingPage(controller, path);
    const int index = m_tabs->addTab(placeholder, QFileInfo(path).fileName());
    m_tabs->setCurrentIndex(index);
    controller->open(
        path, [this, controller, placeholder, path, attachments](RequestOutcome outcome, const QString& message) {
            // The tab may have been closed meanwhile (closeTab stops the open): nothing to show.
            const int at = placeholder ? m_tabs->indexOf(placeholder) : -1;
            if (at < 0) {
                controller->deleteLater();
                return;
            }
            m_tabs->removeTab(at);
            placeholder->deleteLater();
            if (outcome == RequestOutcome::Done)
                showOpened(controller, at, path, attachments);
            else
                showOpenFailed(
                    controller, at, path, outcome == RequestOutcome::Stopped ? tr("Opening was cancelled.") : message);
        });
}

void MainWindow::showOpened(
    DocumentController* controller, int at, const QString& path, const QList<QPair<AttachKind, QString>>& attachments)
{
    qCDebug(logUi).noquote() << "tab" << at << "shows" << path;
    attachAll(addView(controller, GraphContext {}, at), attachments);
    addRecent(path);
    updateStatus();
    Q_EMIT documentOpened(path);
}

void MainWindow::showOpenFailed(DocumentController* controller, int at, const QString& path, const QString& message)
{
    controller->deleteLater();
    QWidget* page = errorPage(path, message, m_tabs);
    m_tabs->insertTab(at, page, QFileInfo(path).fileName());
    m_tabs->setTabIcon(at, style()->standardIcon(QStyle::SP_MessageBoxWarning));
    m_tabs->setTabToolTip(at, message);
    m_tabs->setCurrentIndex(at);
    statusBar()->showMessage(message, 10000);
    qCDebug(logUi).noquote() << "tab" << at << "shows the error opening" << path;
    Q_EMIT documentFailed(path, message);
}

/// One tab of a file being reloaded: where it stood before.
struct MainWindow::ReloadTab {
    QPointer<DocumentView> view;
    GraphContext context;
    DocumentView::State state;
};

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
    std::vector<ReloadTab> tabs;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* view = qobject_cast<DocumentView*>(m_tabs->widget(i)); view && view->controller() == old)
            tabs.push_back({ view, view->context(), view->state() });
    const auto attachments = old->attachments();
    auto* controller = new DocumentController(this);
    watchDebugWork(controller);
    statusBar()->showMessage(tr("Reloading %1…").arg(name));
    controller->open(path, [=, this](RequestOutcome outcome, const QString& message) {
        if (outcome != RequestOutcome::Done) {
            controller->deleteLater();
            const QString text
                = tr("Could not reload %1; the tab still shows the version read before. %2")
                      .arg(name, outcome == RequestOutcome::Stopped ? tr("Reloading was cancelled.") : message);
            statusBar()->showMessage(text, 15000);
            Q_EMIT reloaded(path, text);
            return;
        }
        const auto after = controller->document();
        // Read again on the worker, in order; the views show them when they arrive.
        for (const auto& [kind, file] : attachments)
            controller->attachArtifact(kind, file, [this](RequestOutcome, const QString& error) {
                if (!error.isEmpty())
                    statusBar()->showMessage(error, 8000);
            });
        const QStringList lost = reopenTabs(controller, *before, *after, tabs);
        old->stop();
        old->deleteLater();
        QString summary = tr("Reloaded %1: %2").arg(name, describeChange(*before, *after));
        if (!lost.isEmpty())
            summary += tr(" — not kept: %1").arg(lost.join(QStringLiteral("; ")));
        updateStatus();
        statusBar()->showMessage(summary, 15000);
        Q_EMIT reloaded(path, summary);
    });
}

QStringList MainWindow::reopenTabs(DocumentController* controller, const core::Document& before,
    const core::Document& after, const std::vector<ReloadTab>& tabs)
{
    QStringList lost;
    QWidget* wasCurrent = m_tabs->currentWidget();
    QWidget* nowCurrent = nullptr;
    for (const ReloadTab& tab : tabs) {
        if (!tab.view)
            continue;
        const int at = m_tabs->indexOf(tab.view);
        GraphContext context = tab.context;
        bool keep = true;
        if (after.program) {
            // Methods are found by name: one added before it shifts the index.
            context.method = -1;
            for (std::size_t m = 0; m < after.program->methods.size(); ++m)
                if (after.program->methods[m].name == tab.state.method)
                    context.method = static_cast<int>(m);
            if (context.delegateNode.valid()) {
                const core::Graph* graph = context.method >= 0
                    ? after.methods[static_cast<std::size_t>(context.method)].graph.get()
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
        lost << view->restoreState(tab.state, before);
        if (current)
            nowCurrent = view;
    }
    if (nowCurrent)
        m_tabs->setCurrentWidget(nowCurrent);
    else if (wasCurrent && m_tabs->indexOf(wasCurrent) >= 0)
        m_tabs->setCurrentWidget(wasCurrent);
    return lost;
}

} // namespace etscope::ui
