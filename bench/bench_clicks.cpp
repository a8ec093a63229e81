// SPDX-License-Identifier: MIT
// The click timings of `etscope --timings` (issue 27), driven the way a user clicks: the app's
// main window opens FILE offscreen, and once its graph is painted and the work after the first
// paint has settled, real mouse events go to the graph view and the search list:
//   group-open       ⊕ of a closed group (the middle one of the method), when it has groups
//   delegate-tab     a double-click on the decoded delegate drawn nearest the centre of the
//                    view: its own tab painted (then back to the method's tab)
//   delegate-expand  ⊕ of the same delegate, in place
//   search-jump      a click on the last row of the search hits for the op type of the last
//                    operator (in a long method, a node inside a group still closed; when
//                    everything is delegated, of an operator inside the last delegate)
// Each prints "etscope timing: <phase> <ms> ms" and "<phase>-stall" (ui/graph/clicktiming.h)
// to stderr; lines starting "bench:" on stdout name what was clicked. One run per process:
// bench/click_timings.sh runs it several times and takes the medians.
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"
#include "ui/graph/clicktiming.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/search/searchmodel.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QFileInfo>
#include <QLineEdit>
#include <QListView>
#include <QTabWidget>
#include <QTest>

#include <cstdio>
#include <limits>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

constexpr int kWaitMs = 300000; ///< a click whose result takes longer counts as failed
constexpr int kSettleMs = 1500; ///< after the first paint and each click: what follows it lands

void say(const QString& text)
{
    std::printf("bench: %s\n", qUtf8Printable(text));
    std::fflush(stdout);
}

/// Waits for the click's timing line; false (said) when it never came.
bool awaitResult(const char* phase)
{
    if (!QTest::qWaitFor([] { return !clicktiming::waiting(); }, kWaitMs)) {
        say(QStringLiteral("%1: no result within %2 s").arg(QLatin1String(phase)).arg(kWaitMs / 1000));
        return false;
    }
    QTest::qWait(kSettleMs);
    return true;
}

/// Scrolls `item` into the middle of the view and lets that paint before the click.
QPoint bringIntoView(GraphView* view, QGraphicsItem* item, const QPointF& local)
{
    view->centreOn(item->mapToScene(local));
    QTest::qWait(200);
    return view->mapFromScene(item->mapToScene(local));
}

/// The decoded delegate boxes drawn (closed), nearest the view centre first.
NodeItem* delegateNearCentre(DocumentView* view, const NodeItem* other = nullptr)
{
    const QPointF centre = view->graphView()->mapToScene(view->graphView()->viewport()->rect().center());
    NodeItem* best = nullptr;
    double bestDistance = std::numeric_limits<double>::max();
    for (NodeItem* item : view->scene()->nodeItems()) {
        if (item == other || !item->canExpand() || item->origin().group() >= 0 || item->origin().inner.valid())
            continue;
        const QPointF d = item->pos() - centre;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance < bestDistance) {
            bestDistance = distance;
            best = item;
        }
    }
    return best;
}

QString describe(DocumentView* view, const NodeItem* item)
{
    const auto presentation = view->presentation();
    const Node& node = presentation->methodGraph().node(item->origin().top);
    return QStringLiteral("%1 (node %2, %3 inner nodes)")
        .arg(QString::fromStdString(node.label))
        .arg(node.id.value)
        .arg(node.subgraph ? node.subgraph->nodes.size() : 0);
}

int run(const QString& file, const QString& etscope)
{
    LayoutService* layouts = LayoutService::instance();
    // As app/main.cpp: small graphs in process, large ones in the app's layout helper.
    constexpr int kInProcessBoxes = 500;
    if (QFileInfo(etscope).isExecutable()) {
        layouts->setInProcessBelow(kInProcessBoxes);
        layouts->setWorker(etscope, {}, /*startNow=*/false);
    } else {
        say(QStringLiteral("no app at %1: layouts run in this process").arg(etscope));
    }
    layouts->warmUp();

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    bool painted = false;
    QObject::connect(&window, &MainWindow::firstPainted, &window, [&painted] { painted = true; });
    window.openFile(file);
    if (!QTest::qWaitFor([&painted] { return painted; }, kWaitMs)) {
        say(QStringLiteral("not painted"));
        return 1;
    }
    layouts->startHelper();
    QTest::qWait(kSettleMs);
    DocumentView* view = window.currentView();
    GraphView* graph = view->graphView();
    int failures = 0;

    // group-open: the middle group's ⊕.
    std::vector<NodeItem*> groups;
    for (NodeItem* item : view->scene()->nodeItems())
        if (item->origin().group() >= 0)
            groups.push_back(item);
    if (groups.empty()) {
        say(QStringLiteral("group-open: the method has no groups"));
    } else {
        NodeItem* group = groups[groups.size() / 2];
        say(QStringLiteral("group-open: group %1 of %2").arg(group->origin().group()).arg(groups.size()));
        const QPoint at = bringIntoView(graph, group, group->expandButtonRect().center());
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, at);
        failures += awaitResult("group-open") ? 0 : 1;
    }

    // delegate-tab: a double-click on the decoded delegate nearest the centre; then back to
    // the method's tab for the next clicks.
    if (NodeItem* delegate = delegateNearCentre(view)) {
        say(QStringLiteral("delegate-tab: %1").arg(describe(view, delegate)));
        const QPoint at = bringIntoView(graph, delegate, QPointF());
        QTest::mouseDClick(graph->viewport(), Qt::LeftButton, {}, at);
        failures += awaitResult("delegate-tab") ? 0 : 1;
        for (QWidget* parent = view->parentWidget(); parent; parent = parent->parentWidget())
            if (auto* tabs = qobject_cast<QTabWidget*>(parent)) {
                tabs->setCurrentWidget(view);
                break;
            }
        QTest::qWait(kSettleMs);
    } else {
        say(QStringLiteral("delegate-tab: no decoded delegate drawn"));
    }

    // delegate-expand: ⊕ of the delegate nearest the centre (inside the group just opened).
    if (NodeItem* delegate = delegateNearCentre(view)) {
        say(QStringLiteral("delegate-expand: %1").arg(describe(view, delegate)));
        const QPoint at = bringIntoView(graph, delegate, delegate->expandButtonRect().center());
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, at);
        failures += awaitResult("delegate-expand") ? 0 : 1;
    } else {
        say(QStringLiteral("delegate-expand: no decoded delegate drawn"));
    }

    // search-jump: the last hit for the op type of the last operator.
    const auto presentation = view->presentation();
    QString text;
    for (const Node& node : presentation->methodGraph().nodes)
        if (node.kind == NodeKind::Operator)
            text = QString::fromStdString(node.label);
    // Everything delegated: an operator inside the last decoded delegate.
    for (const Node& node : presentation->methodGraph().nodes)
        if (text.isEmpty() && node.subgraph)
            for (const Node& inner : node.subgraph->nodes)
                if (inner.kind == NodeKind::Operator)
                    text = QString::fromStdString(inner.label);
    view->focusSearch();
    view->searchEdit()->setText(text);
    auto* list = view->findChild<QListView*>(QStringLiteral("searchResults"));
    if (list && QTest::qWaitFor([view] { return view->searchModel()->rowCount() > 0; }, 5000)) {
        QTest::qWait(kSettleMs);
        const QModelIndex last = view->searchModel()->index(view->searchModel()->rowCount() - 1);
        const NodeOrigin origin = view->searchModel()->hits()[static_cast<std::size_t>(last.row())].origin;
        say(QStringLiteral("search-jump: \"%1\", hit %2 of %3 (node %4/%5, %6)")
                .arg(text)
                .arg(last.row() + 1)
                .arg(view->searchModel()->rowCount())
                .arg(origin.top.value)
                .arg(origin.inner.value)
                .arg(presentation->closedGroupOf(origin.top) >= 0 ? QStringLiteral("in a closed group")
                                                                  : QStringLiteral("drawn")));
        list->scrollTo(last);
        QTest::qWait(100);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(last).center());
        failures += awaitResult("search-jump") ? 0 : 1;
    } else {
        say(QStringLiteral("search-jump: no hits for \"%1\"").arg(text));
    }

    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    QString etscope = QCoreApplication::applicationDirPath() + QStringLiteral("/../app/etscope");
    if (args.size() >= 2 && args.front() == QStringLiteral("--etscope")) {
        etscope = args[1];
        args.remove(0, 2);
    }
    if (args.size() != 1) {
        std::fputs("usage: etscope_bench_clicks [--etscope PATH] FILE.pte\n", stderr);
        return 2;
    }
    timings::setEnabled(true);
    return run(args.front(), etscope);
}
