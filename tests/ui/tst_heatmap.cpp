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
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/heatmap/heatmapmodel.h"
#include "ui/heatmap/heatmappanel.h"
#include "ui/window/documentview.h"

#include <QComboBox>
#include <QHeaderView>
#include <QSignalSpy>
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
