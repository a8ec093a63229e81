// SPDX-License-Identifier: MIT
// The heat map as a user reads it: the colour direction of every metric (cosine and SNR are
// better when higher), the legend of identical runs, and one number format per column. Real
// runtime output: generated/add/add.intermediates.etdp against add.intermediates.x3.etdp, two
// runs of add.pte on the same all-ones inputs (generated/README.md), so every metric says
// "identical": mse, l1 and max |a−b| are 0, cosine 1, snr +inf.
#include "tests/common/documentbytes.h"
#include "tests/common/perturbedrun.h"
#include "tests/common/testsupport.h"
#include "tests/ui/attachwait.h"
#include "ui/common/elidedelegate.h"
#include "ui/common/nodestyle.h" // rampColour
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/heatmap/heatmapmodel.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

std::shared_ptr<const Document> load(const std::string& sample)
{
    return etscope::test::sharedSampleDocument(sample);
}

void saveShot(QWidget& widget, const QString& name)
{
    if (!qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
        return;
    // The widget layouts a change asked for; grab() then paints synchronously.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    widget.grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
}

const double kNaNForTest = std::numeric_limits<double>::quiet_NaN();

int columnNamed(const HeatTable& table, const std::string& prefix)
{
    for (std::size_t c = 0; c < table.columns.size(); ++c)
        if (table.columns[c].name.rfind(prefix, 0) == 0)
            return static_cast<int>(c);
    return -1;
}

} // namespace

class TestHeatmap : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void identicalRunsAreAllEqualAndBest()
    {
        DocumentController controller;
        controller.adopt(load("executorch/add.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        const QString generated = QString::fromStdString(etscope::test::samplePath("generated/add/"));
        QCOMPARE(etscope::test::attachAndWait(
                     controller, AttachKind::Run, generated + QStringLiteral("add.intermediates.etdp")),
            QString());
        QCOMPARE(etscope::test::attachAndWait(
                     controller, AttachKind::Reference, generated + QStringLiteral("add.intermediates.x3.etdp")),
            QString());
        HeatmapPanel* panel = view.heatmapPanel();
        const HeatTable& gap = panel->model()->table();
        QVERIFY(QString::fromStdString(gap.title).startsWith(QStringLiteral("Numeric gap")));
        QCOMPARE(gap.rows.size(), std::size_t(2)); // the add and the program output
        const int cosine = columnNamed(gap, "cosine");
        const int mse = columnNamed(gap, "mse");
        QVERIFY(cosine >= 0 && mse >= 0);
        for (const HeatTable::Row& row : gap.rows)
            QCOMPARE(row.values[static_cast<std::size_t>(cosine)].value_or(-1), 1.0);

        // Cosine 1 is the best a value can be: before, a higher-is-better column with one value
        // flipped it to the worst end (position 1, yellow) on the graph and in the table.
        panel->setGraphColumn(cosine);
        for (const auto& [key, heat] : panel->graphHeat())
            QCOMPARE(heat.position, 0.0);
        for (int row = 0; row < panel->model()->rowCount(); ++row)
            QCOMPARE(panel->model()->index(row, cosine + 1).data(HeatmapModel::PositionRole).toDouble(), 0.0);
        // The legend says so instead of "1 (dark) → 1 (yellow, worse)".
        QCOMPARE(panel->graphColouringText(), QStringLiteral("<b>Colour:</b> cosine: all equal (1)"));
        auto* legend = panel->findChild<HeatLegend*>();
        QVERIFY(legend);
        QCOMPARE(legend->text(), QStringLiteral("all equal: 1"));
        auto* graphLegend = view.findChild<GraphPanel*>();
        QVERIFY(graphLegend->legendHtml().contains(QStringLiteral("cosine: all equal (1)")));
        saveShot(view, QStringLiteral("heatmap-cosine-identical.png"));

        panel->setGraphColumn(mse);
        QCOMPARE(panel->graphColouringText(), QStringLiteral("<b>Colour:</b> mse: all equal (0)"));
        for (const auto& [key, heat] : panel->graphHeat())
            QCOMPARE(heat.position, 0.0);
    }

    void firstDivergenceIsNotPaintedAsIdentical()
    {
        // Issue 38's walk-through: stress_mlp with a run whose outputs from instruction 13 on are
        // changed (v·1.7 plus a little per event: SNR −20·log10(0.7) ≈ 3.1 dB each) against the
        // unchanged run, coloured by snr. Before, the automatic range (the finite SNRs alone)
        // put the first divergence, the best of the changed nodes, at position 0: drawn and
        // listed in the colour of the identical nodes (SNR +inf), and the legend called it best.
        const QString samples = QString::fromStdString(etscope::test::samplePath("generated/stress_mlp/"));
        auto real = readETDumpFile((samples + QStringLiteral("stress_mlp.intermediates.etdp")).toStdString());
        QVERIFY(real);
        QVERIFY(!attachDebugBufferOrDefault(real.value(), {}));
        auto perturbed = etscope::test::perturbFrom(real.value(), InstructionId(13), 1.7, 1e-3);
        QVERIFY(perturbed);
        QTemporaryDir dir;
        const QString runPath = dir.filePath(QStringLiteral("run.etdp"));
        QVERIFY(!etscope::test::writePerturbedRun(perturbed.value(), runPath.toStdString()));

        DocumentController controller;
        controller.adopt(load("djl-executorch-engine/stress_mlp.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        QCOMPARE(etscope::test::attachAndWait(controller, AttachKind::Run, runPath), QString());
        QCOMPARE(etscope::test::attachAndWait(
                     controller, AttachKind::Reference, samples + QStringLiteral("stress_mlp.intermediates.etdp")),
            QString());
        HeatmapPanel* panel = view.heatmapPanel();
        const HeatTable& gap = panel->model()->table();
        const int snr = columnNamed(gap, "snr");
        QVERIFY(snr >= 0);
        panel->setGraphColumn(snr);
        const auto first = view.firstDivergence();
        QVERIFY(first);
        const GraphHeat heat = panel->graphHeat();
        const auto diverging = heat.find(GraphScene::keyOf(*first));
        QVERIFY(diverging != heat.end());
        // The node Go › First Divergence selects is a changed one: its SNR is finite.
        const auto divergingRow = std::find_if(gap.rows.begin(), gap.rows.end(),
            [&](const HeatTable::Row& row) { return GraphScene::keyOf(row.origin) == GraphScene::keyOf(*first); });
        QVERIFY(divergingRow != gap.rows.end());
        QVERIFY(std::isfinite(divergingRow->values[static_cast<std::size_t>(snr)].value_or(kNaNForTest)));
        int identical = 0;
        for (const HeatTable::Row& row : gap.rows) {
            const double value = row.values[static_cast<std::size_t>(snr)].value_or(0);
            if (!std::isinf(value) || !row.origin.top.valid())
                continue;
            ++identical;
            const auto painted = heat.find(GraphScene::keyOf(row.origin));
            QVERIFY(painted != heat.end());
            // Identical nodes are the darkest; the first divergence is never their colour.
            QCOMPARE(painted->second.position, 0.0);
            QVERIFY(rampColour(diverging->second.position) != rampColour(painted->second.position));
        }
        QVERIFY(identical >= 1);
        QVERIFY(diverging->second.position > 0);
        // The table's cells: the same places as the graph's.
        for (int row = 0; row < panel->model()->rowCount(); ++row) {
            const QModelIndex cell = panel->model()->index(row, snr + 1);
            if (std::isinf(cell.data(HeatmapModel::ValueRole).toDouble()))
                QCOMPARE(cell.data(HeatmapModel::PositionRole).toDouble(), 0.0);
            else
                QVERIFY(cell.data(HeatmapModel::PositionRole).toDouble() > 0);
        }
        // The legend names the identical value apart from the ramp's best.
        QVERIFY2(panel->findChild<HeatLegend*>()->text().contains(QStringLiteral("identical inf")),
            qPrintable(panel->findChild<HeatLegend*>()->text()));
        QVERIFY2(panel->graphColouringText().contains(QStringLiteral("identical inf (darkest)")),
            qPrintable(panel->graphColouringText()));
        saveShot(view, QStringLiteral("heatmap-snr-first-divergence.png"));
    }

    void nanHasItsOwnColour()
    {
        // A NaN metric (inf − inf in a run) is on no end of the scale: before, an mse of NaN
        // took the worst position (1), the colour of the largest number. Now it has no position
        // (painted in a colour of its own), is what its node shows over its other output, and
        // the legend names it.
        HeatTable table;
        table.columns = { { "mse", true, "" } };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        table.rows.push_back({ { NodeId(0), NodeId::none() }, "a", { 1e-3 } });
        table.rows.push_back({ { NodeId(1), NodeId::none() }, "b", { 1e-3 } });
        table.rows.push_back({ { NodeId(1), NodeId::none() }, "b [1]", { nan } });
        table.rows.push_back({ { NodeId(2), NodeId::none() }, "c", { 2e-3 } });
        HeatmapPanel panel;
        panel.setTable(table);
        panel.setGraphColumn(0);
        const GraphHeat heat = panel.graphHeat();
        QVERIFY(std::isnan(heat.at({ 1, -1 }).position));
        QVERIFY(rampColour(heat.at({ 1, -1 }).position) != rampColour(1.0));
        QVERIFY(rampColour(heat.at({ 1, -1 }).position) != rampColour(0.0));
        QCOMPARE(heat.at({ 0, -1 }).position, 0.0);
        QCOMPARE(heat.at({ 2, -1 }).position, 1.0);
        QVERIFY(std::isnan(panel.model()->index(2, 1).data(HeatmapModel::PositionRole).toDouble()));
        QVERIFY2(panel.findChild<HeatLegend*>()->text().endsWith(QStringLiteral(" · nan")),
            qPrintable(panel.findChild<HeatLegend*>()->text()));
        QVERIFY(panel.graphColouringText().contains(QStringLiteral("nan")));
    }

    void sortsByValueWithEmptyCellsLast()
    {
        // The model sorts itself (no proxy mapping a million rows): values 3, none, 1, 2 by
        // hand give rows 2, 3, 0, then the empty one ascending; 0, 3, 2, then it descending.
        HeatTable table;
        table.columns = { { "mse", true, "" } };
        table.rows
            = { { {}, "c", { 3.0 } }, { {}, "d", { std::nullopt } }, { {}, "a", { 1.0 } }, { {}, "b", { 2.0 } } };
        HeatmapModel model;
        model.setTable(table);
        const auto order = [&] {
            QList<int> rows;
            for (int r = 0; r < model.rowCount(); ++r)
                rows << model.sourceRow(r);
            return rows;
        };
        QCOMPARE(order(), QList<int>({ 0, 1, 2, 3 }));
        model.sort(1, Qt::AscendingOrder);
        QCOMPARE(order(), QList<int>({ 2, 3, 0, 1 }));
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("a"));
        model.sort(1, Qt::DescendingOrder);
        QCOMPARE(order(), QList<int>({ 0, 3, 2, 1 }));
        model.sort(0, Qt::AscendingOrder);
        QCOMPARE(order(), QList<int>({ 2, 3, 0, 1 }));
        model.sort(-1);
        QCOMPARE(order(), QList<int>({ 0, 1, 2, 3 }));
    }

    void directionOfEveryMetric()
    {
        // A cosine column with a spread: 1 is the best (dark, position 0), the smallest the
        // worst; the legend runs from low (worst, left) to high (best, right).
        HeatTable table;
        table.title = "gap";
        table.columns = { { "cosine", false, "" }, { "snr", false, "dB" }, { "mse", true, "" } };
        const double inf = std::numeric_limits<double>::infinity();
        table.rows.push_back({ { NodeId(0), NodeId::none() }, "a", { 1.0, inf, 0.0 } });
        table.rows.push_back({ { NodeId(1), NodeId::none() }, "b", { 0.5, 10.0, 0.000672 } });
        table.rows.push_back({ { NodeId(2), NodeId::none() }, "c", { 0.75, -inf, 0.00006 } });
        HeatmapPanel panel;
        panel.setTable(table);
        panel.setGraphColumn(0);
        const GraphHeat heat = panel.graphHeat();
        QCOMPARE(heat.at({ 0, -1 }).position, 0.0);
        QCOMPARE(heat.at({ 1, -1 }).position, 1.0);
        QCOMPARE(heat.at({ 2, -1 }).position, 0.5);
        QCOMPARE(panel.findChild<HeatLegend*>()->text(), QStringLiteral("0.50 … ← worse … 1.00"));
        panel.resize(480, 360);
        panel.show();
        saveShot(panel, QStringLiteral("heatmap-cosine-spread.png"));
        QCOMPARE(panel.graphColouringText(),
            QStringLiteral("<b>Colour:</b> cosine on a linear scale, best 1.00 (dark) → worst 0.50 (yellow), "
                           "higher is better"));
        // SNR: +inf (identical) is the best, −inf the worst.
        panel.setGraphColumn(1);
        QCOMPARE(panel.graphHeat().at({ 0, -1 }).position, 0.0);
        QCOMPARE(panel.graphHeat().at({ 2, -1 }).position, 1.0);
        // One format per column: "0.000060" beside "0.000672" (before: "6.000e-05" beside
        // "0.000672" in the table, "6e-05" on the graph).
        panel.setGraphColumn(2);
        QStringList texts;
        for (int row = 0; row < 3; ++row)
            texts << panel.model()->index(row, 3).data().toString();
        QCOMPARE(texts,
            (QStringList { QStringLiteral("0.000000"), QStringLiteral("0.000672"), QStringLiteral("0.000060") }));
        QCOMPARE(panel.graphHeat().at({ 2, -1 }).label, QStringLiteral("0.000060"));
    }

    // Issue 34 item 4: the graph coloured by cost with nothing attached — the Heatmap's Cost
    // table, picked in *Data*, coloured by MACs; inside a delegate's tab its inner nodes.
    void costColoursTheGraph_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<bool>("delegateTab");
        QTest::addColumn<QString>("shot");
        QTest::newRow("ethos-u top") << QStringLiteral("tinycnn/tinycnn_u55.pte") << false
                                     << QStringLiteral("cost-macs-tinycnn-u55.png");
        QTest::newRow("ethos-u delegate") << QStringLiteral("tinycnn/tinycnn_u55.pte") << true
                                          << QStringLiteral("cost-macs-tinycnn-u55-delegate.png");
        QTest::newRow("xnnpack top") << QStringLiteral("djl-executorch-engine/stress_mlp.pte") << false
                                     << QStringLiteral("cost-macs-stress-mlp-xnnpack.png");
        QTest::newRow("xnnpack delegate") << QStringLiteral("djl-executorch-engine/spike_conv.pte") << true
                                          << QStringLiteral("cost-macs-spike-conv-xnnpack-delegate.png");
    }

    void costColoursTheGraph()
    {
        QFETCH(QString, sample);
        QFETCH(bool, delegateTab);
        QFETCH(QString, shot);
        const auto document = load(sample.toStdString());
        GraphContext context { 0, NodeId::none() };
        if (delegateTab) {
            const Graph& graph = *document->methods[0].graph;
            for (const Node& node : graph.nodes)
                if (node.kind == NodeKind::Delegate && node.subgraph) {
                    context.delegateNode = node.id;
                    break;
                }
            QVERIFY(context.delegateNode.valid());
        }
        DocumentController controller;
        controller.adopt(document);
        DocumentView view(&controller, context);
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        HeatmapPanel* panel = view.heatmapPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->tableCount() >= 1, 20000);
        const HeatTable& table = panel->model()->table();
        QVERIFY(QString::fromStdString(table.title).startsWith(QStringLiteral("Cost")));
        QCOMPARE(table.columns.front().name, std::string("MACs"));
        panel->setGraphColumn(0);
        const GraphHeat heat = panel->graphHeat();
        QVERIFY(!heat.empty());
        // In a delegate's tab every row is one of its inner nodes.
        for (const HeatTable::Row& row : table.rows)
            QVERIFY(!delegateTab || (row.origin.top == context.delegateNode && row.origin.inner.valid()));
        // The legend above the graph names the column.
        QVERIFY2(panel->graphColouringText().contains(QStringLiteral("MACs")), qPrintable(panel->graphColouringText()));
        auto* graphPanel = view.findChild<GraphPanel*>();
        QVERIFY(graphPanel && graphPanel->legendHtml().contains(QStringLiteral("MACs")));
        // The node with the most MACs is painted the worst colour (position 1).
        double worst = -1;
        for (const auto& [key, h] : heat)
            worst = std::max(worst, h.position);
        QCOMPARE(worst, 1.0);
        saveShot(view, shot);
    }

    // Issue 38: at 1024×700 the Heatmap tab's controls were squashed to half their height and
    // their text cut, in both themes. Every control keeps at least its size hint's height; the
    // table takes what is left. The tab shows the program's cost (issue 34) with no ETDump.
    void controlsKeepTheirHeightAt1024x700_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << QStringLiteral("light");
        QTest::newRow("dark") << QStringLiteral("dark");
    }

    void controlsKeepTheirHeightAt1024x700()
    {
        QFETCH(QString, theme);
        applyTheme(*themeFromName(theme));
        // The whole window at 1024×700: menus, tool bar, status bar and the side pane's splitter.
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy opened(&window, &MainWindow::documentOpened);
        window.openFile(QString::fromStdString(etscope::test::samplePath("tinycnn/tinycnn_u55.pte")));
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        auto* found = window.findChild<DocumentView*>();
        QVERIFY(found);
        DocumentView& view = *found;
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        QCOMPARE(window.size(), QSize(1024, 700));
        QTabWidget* side = nullptr;
        int heatTab = -1;
        for (auto* tabs : view.findChildren<QTabWidget*>())
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == QStringLiteral("Heatmap")) {
                    side = tabs;
                    heatTab = i;
                }
        QVERIFY(side && heatTab >= 0);
        side->setCurrentIndex(heatTab);
        HeatmapPanel* panel = view.heatmapPanel();
        QCOMPARE(side->currentWidget(), panel);
        // The cost of the program, computed on the heat worker with nothing attached.
        QTRY_VERIFY_WITH_TIMEOUT(panel->tableCount() >= 1, 20000);
        QVERIFY(QString::fromStdString(panel->model()->table().title).startsWith(QStringLiteral("Cost")));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        QVERIFY(panel->height() < 700);
        QList<QWidget*> controls;
        for (auto* w : panel->findChildren<QComboBox*>())
            controls << w;
        for (auto* w : panel->findChildren<QLineEdit*>())
            controls << w;
        for (auto* w : panel->findChildren<QCheckBox*>())
            controls << w;
        for (auto* w : panel->findChildren<HeatLegend*>())
            controls << w;
        for (auto* w : panel->findChildren<QLabel*>())
            controls << w;
        int checked = 0;
        for (QWidget* w : std::as_const(controls)) {
            if (!w->isVisibleTo(panel) || panel->view()->isAncestorOf(w))
                continue; // the table's own children, hidden notes
            ++checked;
            const int wanted = w->hasHeightForWidth() ? w->heightForWidth(w->width()) : w->sizeHint().height();
            QVERIFY2(w->height() >= wanted,
                qPrintable(QStringLiteral("%1 %2 (%3): %4 px high, wants %5")
                               .arg(theme, QString::fromLatin1(w->metaObject()->className()), w->objectName())
                               .arg(w->height())
                               .arg(wanted)));
        }
        QVERIFY(checked >= 8); // 4 combo boxes/fields + threshold, the check box, the legend, labels
        // The table still has rows to show.
        QVERIFY(panel->view()->viewport()->height() >= 3 * 20);
        // With the first-divergence line and a note above (the walk-through's case: a run and
        // its reference attached) nothing is squashed either: the pane scrolls.
        panel->setNote(QStringLiteral("Reading the debug data for this view…"));
        panel->setDivergence(QStringLiteral("First divergence: forward › XnnpackBackend #1 › node 13 — snr 2.989 dB "
                                            "< 20 dB"),
            true);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        controls << panel->divergenceButton();
        for (QWidget* w : std::as_const(controls)) {
            if (!w->isVisibleTo(panel) || panel->view()->isAncestorOf(w))
                continue;
            const int wanted = w->hasHeightForWidth() ? w->heightForWidth(w->width()) : w->sizeHint().height();
            QVERIFY2(w->height() >= wanted,
                qPrintable(QStringLiteral("%1 %2 (%3) with the divergence line: %4 px high, wants %5")
                               .arg(theme, QString::fromLatin1(w->metaObject()->className()), w->objectName())
                               .arg(w->height())
                               .arg(wanted)));
        }
        QVERIFY(panel->view()->viewport()->height() >= 3 * 20);
        saveShot(window, QStringLiteral("heatmap-1024x700-%1.png").arg(theme));
        applyTheme(Theme::Light);
    }

    // Issue 38: the arrow keys moved the heat table's current row but not the graph's
    // selection; a key now selects the row's node as a click does.
    void arrowKeysMoveTheGraphSelection()
    {
        HeatTable table;
        table.title = "Cost — hand";
        table.columns.push_back({ "MACs", true, "" });
        // Rows for nodes 4, 7 (inside delegate 2: inner 3) and 9.
        table.rows.push_back({ { NodeId(4), NodeId::none() }, "a", { 10.0 } });
        table.rows.push_back({ { NodeId(2), NodeId(3) }, "b", { 20.0 } });
        table.rows.push_back({ { NodeId(9), NodeId::none() }, "c", { std::nullopt } });
        HeatmapPanel panel;
        panel.setTable(table);
        panel.resize(480, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        std::vector<NodeOrigin> requested;
        connect(&panel, &HeatmapPanel::nodeRequested, this, [&](const NodeOrigin& o) { requested.push_back(o); });
        QTableView* view = panel.view();
        // A click on row 0 selects its node (once, not once for the press and again for the click).
        const QRect first = view->visualRect(view->model()->index(0, 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, first.center());
        QCOMPARE(requested.size(), std::size_t(1));
        QVERIFY((requested.back() == NodeOrigin { NodeId(4), NodeId::none() }));
        // Down: row 1, the inner node; Down again: row 2; Up: row 1 again.
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(requested.size(), std::size_t(2));
        QVERIFY((requested.back() == NodeOrigin { NodeId(2), NodeId(3) }));
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(requested.size(), std::size_t(3));
        QVERIFY((requested.back() == NodeOrigin { NodeId(9), NodeId::none() }));
        QTest::keyClick(view, Qt::Key_Up);
        QCOMPARE(requested.size(), std::size_t(4));
        QVERIFY((requested.back() == NodeOrigin { NodeId(2), NodeId(3) }));
        // Sorting moves rows without a key: no request.
        view->sortByColumn(1, Qt::DescendingOrder);
        QCOMPARE(requested.size(), std::size_t(4));
    }

    void arrowKeysSelectOnTheGraph()
    {
        // The same through the tab: a key in the cost table selects the node on the graph.
        DocumentController controller;
        controller.adopt(load("djl-executorch-engine/stress_mlp.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        HeatmapPanel* panel = view.heatmapPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->tableCount() >= 1, 20000);
        QTableView* table = panel->view();
        QVERIFY(table->model()->rowCount() >= 2);
        const QRect first = table->visualRect(table->model()->index(0, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, first.center());
        const QModelIndex second = table->model()->index(1, 0);
        const NodeOrigin expected { NodeId(second.data(HeatmapModel::TopNodeRole).toInt()),
            NodeId(second.data(HeatmapModel::InnerNodeRole).toInt()) };
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down);
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() && *view.selectedNode() == expected, 10000);
    }

    void namesKeepTheirWidthBesideManyColumns()
    {
        // A latency table has many metric columns; before, the node column stretched over what
        // they left and read "dim_…_copy…". Names of stress_mlp.pte's kernels (the docs'
        // heat map screenshot) beside seven columns of small numbers.
        HeatTable table;
        table.title = "Latency";
        for (const char* name : { "p50 (ms)", "p90 (ms)", "avg (ms)", "min (ms)", "max (ms)", "span p50", "count" })
            table.columns.push_back({ name, true, "" });
        const QStringList names { QStringLiteral("dim_order_ops::_to_dim_order_copy.out"),
            QStringLiteral("dim_order_ops::_clone_dim_order.out"), QStringLiteral("aten::select_copy.int_out"),
            QStringLiteral("aten::clamp.out") };
        for (int row = 0; row < names.size(); ++row)
            table.rows.push_back({ { NodeId(row), NodeId::none() }, names[row].toStdString(),
                std::vector<std::optional<double>>(table.columns.size(), 0.097995 * (row + 1)) });
        HeatmapPanel panel;
        panel.setTable(table);
        auto* view = panel.findChild<QTableView*>(QStringLiteral("heatmapTable"));
        QVERIFY(view);
        auto* delegate = qobject_cast<DistinctNameDelegate*>(view->itemDelegateForColumn(0));
        QVERIFY(delegate);
        for (const int width : { 640, 480, 360 }) {
            panel.resize(width, 600);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QTest::qWait(10);
            const int column = view->horizontalHeader()->sectionSize(0);
            QStringList shown;
            for (int row = 0; row < names.size(); ++row)
                shown << delegate->shownText(view->model()->index(row, 0), view->font(), column - 8);
            const QString all = shown.join(QLatin1Char('\n'));
            // The metric columns scroll; the names keep what they need, up to 60% of the view.
            const int share = view->viewport()->width() * 6 / 10;
            if (view->fontMetrics().horizontalAdvance(names[0]) + 16 <= share)
                QCOMPARE(shown, names);
            else
                QVERIFY2(column >= share - 1,
                    qPrintable(QStringLiteral("%1 px: node column %2 px\n%3").arg(width).arg(column).arg(all)));
            QStringList distinct = shown;
            distinct.removeDuplicates();
            QVERIFY2(distinct.size() == names.size(), qPrintable(all));
        }
    }
};

ETSCOPE_TEST_MAIN(TestHeatmap)
#include "tst_heatmap.moc"
