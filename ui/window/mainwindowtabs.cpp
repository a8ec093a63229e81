// SPDX-License-Identifier: MIT
// The main window's tabs: a view added for a file or one of its delegates, the parent's tab
// found again, closing a tab (and its file when no other tab shows it), Back and Forward between
// places, and files dropped on the window.
#include "ui/window/mainwindow.h"

#include "ui/common/logging.h"
#include "ui/document/documentcontroller.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindowshared.h"

#include <QDragEnterEvent>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUrl>

namespace etscope::ui {

using namespace mainwindow;

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
    // Drawn from the cache (a delegate's tab laid out ahead, or opened before), the view has
    // said its size already; the parent's message would stay otherwise.
    if (!view->lastStatus().isEmpty())
        statusBar()->showMessage(view->lastStatus(), 5000);
    connect(view, &DocumentView::titleChanged, this,
        [this, view](const QString& text) { m_tabs->setTabText(m_tabs->indexOf(view), text); });
    connect(view, &DocumentView::firstPainted, this, [this, controller] { Q_EMIT firstPainted(controller->path()); });
    // A file without a graph (.ptd) is drawn as soon as its page is; an ETDump alone when its
    // page has filled in its tables (DocumentView::firstPainted).
    if (const auto document = controller->document(); document && !document->program && !document->etdump)
        QTimer::singleShot(0, this, [this, controller] { Q_EMIT firstPainted(controller->path()); });
    return view;
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
        // Closed while still opening: cancel the job and forget it; its answer finds no tab.
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

} // namespace etscope::ui
