// SPDX-License-Identifier: MIT
// The memory plan in the app: the offset × time chart of stress_mlp.pte (peak 100,352 bytes at
// step 13, 19 tensors, 100,416 declared — hand-checked for tst_memoryplan), add.pte's three
// 4-byte tensors at 16-byte strides, dnf_executorch5.pte's mutable state live at every step,
// the links to the graph both ways, the table, laziness, and the five exports.
#include "tests/common/testsupport.h"
#include "ui/document/documentcontroller.h"
#include "ui/memory/memorychart.h"
#include "ui/memory/memorypanel.h"
#include "ui/window/documentview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

std::shared_ptr<const Document> load(const std::string& path)
{
    auto document = openDocument(path);
    if (!document)
        return nullptr;
    return std::make_shared<const Document>(std::move(document).value());
}

std::shared_ptr<const Document> sample(const std::string& relative)
{
    return load(etscope::test::samplePath(relative));
}

void saveShot(QWidget& widget, const QString& name)
{
    if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
        widget.grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
}

std::size_t tensorIndex(const MemoryPlan& plan, int value)
{
    const PlannedTensor* t = plan.tensor(ValueIndex(value));
    return t ? static_cast<std::size_t>(t - plan.tensors.data()) : plan.tensors.size();
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestMemoryPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void stressMlpChart()
    {
        auto document = sample("djl-executorch-engine/stress_mlp.pte");
        QVERIFY(document);
        MemoryPanel panel;
        panel.setMethod(document, 0);
        QVERIFY(!panel.plan()); // nothing computed until shown
        panel.resize(1300, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY(panel.plan()); // computed on a worker
        QVERIFY(panel.computeMilliseconds() >= 0);
        const MemoryPlan& plan = *panel.plan();
        MemoryChart* chart = panel.chart();
        const MemoryArena* arena = chart->arena();
        QVERIFY(arena);
        QCOMPARE(arena->id, 1u);
        QCOMPARE(arena->peakLiveBytes, std::uint64_t(100352));
        QCOMPARE(arena->peakStep, 13);
        QCOMPARE(arena->tensors.size(), std::size_t(19));
        QCOMPARE(*arena->declaredSize, std::int64_t(100416));
        const QString summary = panel.summary()->text();
        QVERIFY2(summary.contains(QStringLiteral("declared 100,416 B")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("peak live 100,352 B at step 13")), qPrintable(summary));
        QVERIFY(panel.summary()->toolTip().contains(QStringLiteral("#13 XnnpackBackend")));
        QVERIFY(summary.contains(QStringLiteral("19 tensor")));
        QCOMPARE(panel.table()->model()->rowCount(), 19);

        // Offsets go up, steps go right: v14 (bytes 0–1,024, steps 3–5) sits under v11 (98,304,
        // steps 2–4) and starts one step later; v43 (steps 13–13) is the rightmost.
        const QRectF v14 = chart->tensorRect(tensorIndex(plan, 14));
        const QRectF v11 = chart->tensorRect(tensorIndex(plan, 11));
        const QRectF v43 = chart->tensorRect(tensorIndex(plan, 43));
        QVERIFY(v14.top() > v11.bottom());
        QVERIFY(std::abs((v14.left() - v11.left()) - chart->pixelsPerStep()) < 1e-6);
        QVERIFY(std::abs(v14.width() - 3 * chart->pixelsPerStep()) < 1e-6);
        QVERIFY(std::abs(v43.width() - chart->pixelsPerStep()) < 1e-6);
        // Heights are bytes: v43 holds 32 times v14's.
        QVERIFY(std::abs(v43.height() / v14.height() - 32.0) < 1e-6);
        // Fitted: the 14 steps and 100,416 bytes fill the plot.
        const QRectF input = chart->tensorRect(tensorIndex(plan, 4)); // steps 0–13
        QVERIFY(input.left() >= 0 && input.right() <= chart->viewport()->width());
        QVERIFY(input.width() > chart->viewport()->width() - 120);

        // The tooltip's words; the hit test finds v14 in its box.
        QCOMPARE(chart->tensorsAt(v14.center().toPoint()).front(), tensorIndex(plan, 14));
        const QString text = chart->describe(tensorIndex(plan, 14));
        QVERIFY2(text.contains(QStringLiteral("v14 — activation")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("FLOAT [256], 1,024 bytes")));
        QVERIFY(text.contains(QStringLiteral("live at steps 3 – 5: #3 aten::select_copy.int_out … #5")));
        // The view v38 is drawn over v34 (its source): the hit finds v34 first, then the view.
        const auto hits = chart->tensorsAt(chart->tensorRect(tensorIndex(plan, 34)).center().toPoint());
        QCOMPARE(hits.size(), std::size_t(2));
        QCOMPARE(hits[0], tensorIndex(plan, 34));
        QCOMPARE(hits[1], tensorIndex(plan, 38));
        QVERIFY(chart->describe(hits[1]).contains(QStringLiteral("reads the bytes of v34")));

        // Zooming makes boxes bigger in both directions and never past the whole arena out.
        chart->zoomBy(4);
        const QRectF zoomed = chart->tensorRect(tensorIndex(plan, 14));
        QVERIFY(zoomed.width() > 3.5 * v14.width());
        QVERIFY(zoomed.height() > 3.5 * v14.height());
        chart->zoomBy(1.0 / 1000);
        QCOMPARE(chart->tensorRect(tensorIndex(plan, 14)), v14);
        // The offsets alone: the 4-byte tensors next to 32 KiB ones get room, steps stay.
        chart->zoomBy(8, false);
        QCOMPARE(chart->tensorRect(tensorIndex(plan, 14)).width(), v14.width());
        QVERIFY(chart->tensorRect(tensorIndex(plan, 14)).height() > 7.5 * v14.height());
        chart->fit();
        QCOMPARE(chart->tensorRect(tensorIndex(plan, 14)), v14);

        // Table → chart: selecting a row selects its tensor.
        QTableView* table = panel.table();
        for (int row = 0; row < table->model()->rowCount(); ++row)
            if (table->model()->index(row, 0).data().toString() == QLatin1String("39")) {
                table->selectionModel()->setCurrentIndex(
                    table->model()->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                break;
            }
        QCOMPARE(chart->selected(), std::optional(tensorIndex(plan, 39)));
        // Chart → table.
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, v14.center().toPoint());
        QCOMPARE(chart->selected(), std::optional(tensorIndex(plan, 14)));
        QCOMPARE(table->selectionModel()->currentIndex().siblingAtColumn(0).data().toString(), QStringLiteral("14"));
        saveShot(panel, QStringLiteral("memory-stress_mlp-panel.png"));
    }

    void summaryShowsWhole()
    {
        // arduino_KeywordSpotting_model.pte: its peak names "#2 dim_order_ops::_clone_dim_order.out"
        // (the docs' memory screenshot), a line longer than what the buttons leave at 1024 px.
        MemoryPanel panel;
        panel.setMethod(sample("executorch/arduino_KeywordSpotting_model.pte"), 0);
        panel.resize(900, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY(panel.plan()); // null without the sample
        QLabel* label = panel.summary();
        QTRY_VERIFY(label->text().contains(QStringLiteral("dim_order_ops::_clone_dim_order.out")));
        QVERIFY(label->toolTip().contains(QStringLiteral("#2 dim_order_ops::_clone_dim_order.out) · fragmentation")));
        for (const int width : { 900, 600, 420 }) {
            panel.resize(width, 420);
            QTest::qWait(20);
            QApplication::processEvents();
            QTextDocument line;
            line.setDefaultFont(label->font());
            line.setHtml(label->text());
            const qreal oneLine = line.idealWidth();
            const int room = label->contentsRect().width();
            // Whole on one line, or wrapped with the height all its lines need.
            const bool whole
                = oneLine <= room || (label->wordWrap() && label->height() >= label->heightForWidth(label->width()));
            QVERIFY2(whole,
                qPrintable(QStringLiteral("%1 px: one line %2 px in %3 px, height %4 of %5")
                               .arg(width)
                               .arg(oneLine)
                               .arg(room)
                               .arg(label->height())
                               .arg(label->heightForWidth(label->width()))));
            QVERIFY(label->x() + label->width() <= panel.width());
        }
    }

    void addTensorsAtSixteenByteStrides()
    {
        auto document = sample("executorch/add.pte");
        QVERIFY(document);
        MemoryPanel panel;
        panel.setMethod(document, 0);
        panel.resize(1000, 380);
        QVERIFY(panel.ensureComputed());
        const MemoryPlan& plan = *panel.plan();
        const MemoryArena* arena = panel.chart()->arena();
        QVERIFY(arena);
        QCOMPARE(arena->tensors.size(), std::size_t(3));
        std::vector<std::uint64_t> offsets;
        for (const std::size_t i : arena->tensors) {
            QCOMPARE(plan.tensors[i].bytes, std::uint64_t(4));
            offsets.push_back(plan.tensors[i].offset);
        }
        QCOMPARE(offsets, (std::vector<std::uint64_t> { 0, 16, 32 }));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // Equal strides on screen, each box a quarter of its stride high, all over step 0.
        const QRectF r0 = panel.chart()->tensorRect(arena->tensors[0]);
        const QRectF r1 = panel.chart()->tensorRect(arena->tensors[1]);
        const QRectF r2 = panel.chart()->tensorRect(arena->tensors[2]);
        QVERIFY(std::abs((r0.bottom() - r1.bottom()) - (r1.bottom() - r2.bottom())) < 1e-6);
        QVERIFY(std::abs(r0.height() * 4 - (r0.bottom() - r1.bottom())) < 1e-6);
        QCOMPARE(r0.left(), r2.left());
        QCOMPARE(r0.width(), r2.width());
        QVERIFY(panel.chart()->describe(arena->tensors[1]).contains(QStringLiteral("bytes 16 – 20")));
        QVERIFY(panel.summary()->text().contains(QStringLiteral("fragmentation 66.7%")));
        saveShot(panel, QStringLiteral("memory-add.png"));
    }

    void mutableStateLivesAtEveryStep()
    {
        DocumentController controller;
        controller.adopt(sample("dnf-executorch/dnf_executorch5.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        MemoryPanel* panel = view.memoryPanel();
        QVERIFY(!panel->plan()); // the tab is not shown yet
        view.showAnalysis(panel);
        QTRY_VERIFY(panel->plan());
        const MemoryPlan& plan = *panel->plan();
        const MemoryArena* arena = panel->chart()->arena();
        QVERIFY(arena);
        QCOMPARE(plan.steps.size(), std::size_t(92));
        std::vector<std::size_t> states;
        std::uint64_t stateBytes = 0;
        for (const std::size_t i : arena->tensors)
            if (plan.tensors[i].role == PlannedTensor::Role::State) {
                states.push_back(i);
                stateBytes += plan.tensors[i].bytes;
            }
        QCOMPARE(states.size(), std::size_t(10));
        const QRectF first = panel->chart()->tensorRect(tensorIndex(plan, 0));
        for (const std::size_t i : states) {
            QCOMPARE(plan.tensors[i].firstStep, 0);
            QCOMPARE(plan.tensors[i].lastStep, 91);
            // Drawn over the whole method.
            QCOMPARE(panel->chart()->tensorRect(i).left(), first.left());
            QCOMPARE(panel->chart()->tensorRect(i).right(), first.right());
        }
        for (const std::uint64_t live : arena->liveBytes)
            QVERIFY(live >= stateBytes);
        QVERIFY(std::abs(first.width() - 92 * panel->chart()->pixelsPerStep()) < 1e-6);
        QVERIFY(panel->chart()->describe(tensorIndex(plan, 0)).contains(QStringLiteral("live at every step")));

        // Graph → chart: the State node of v0 outlines it (written); clicking its box selects it.
        const Graph& graph = *document(controller).methods[0].graph;
        std::optional<NodeOrigin> stateNode;
        for (const Node& node : graph.nodes)
            if (node.kind == NodeKind::State && node.value == ValueIndex(0))
                stateNode = NodeOrigin { node.id, NodeId::none() };
        QVERIFY(stateNode);
        QCOMPARE(panel->nodeOf(tensorIndex(plan, 0)), stateNode);
        view.selectNode(*stateNode);
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == stateNode, 20000);
        QVERIFY(std::find(panel->chart()->marked().begin(), panel->chart()->marked().end(),
                    std::pair(tensorIndex(plan, 0), true))
            != panel->chart()->marked().end());
        saveShot(view, QStringLiteral("memory-dnf_executorch5.png"));
        saveShot(*panel, QStringLiteral("memory-dnf_executorch5-panel.png"));
    }

    void linkedToTheGraphBothWays()
    {
        DocumentController controller;
        controller.adopt(sample("djl-executorch-engine/stress_mlp.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 900);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        MemoryPanel* panel = view.memoryPanel();
        view.showAnalysis(panel);
        QTRY_VERIFY(panel->plan());
        const MemoryPlan& plan = *panel->plan();
        MemoryChart* chart = panel->chart();

        // Chart → graph: clicking v43's box (the output, steps 13–13) selects the XNNPACK call
        // at step 13, which writes it…
        const PlannedTensor& v43 = plan.tensors[tensorIndex(plan, 43)];
        const NodeOrigin delegate { v43.producer, NodeId::none() };
        QVERIFY(delegate.top.valid());
        QCOMPARE(plan.steps[13].node, v43.producer);
        const QRectF box = chart->tensorRect(tensorIndex(plan, 43));
        QVERIFY(chart->viewport()->rect().contains(box.center().toPoint()));
        QCOMPARE(chart->tensorsAt(box.center().toPoint()).front(), tensorIndex(plan, 43));
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, box.center().toPoint());
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == delegate, 20000);
        QCOMPARE(chart->selected(), std::optional(tensorIndex(plan, 43)));
        // …and the selection outlines what it writes (v43) and reads (v39 and v41).
        const auto marks = panel->tensorsOf(delegate);
        QVERIFY(std::find(marks.begin(), marks.end(), std::pair(tensorIndex(plan, 43), true)) != marks.end());
        QVERIFY(std::find(marks.begin(), marks.end(), std::pair(tensorIndex(plan, 39), false)) != marks.end());
        QVERIFY(std::find(marks.begin(), marks.end(), std::pair(tensorIndex(plan, 41), false)) != marks.end());
        QCOMPARE(chart->marked(), marks);

        // Graph → chart: selecting instruction #3 outlines v14, which it writes.
        const NodeOrigin select { plan.tensors[tensorIndex(plan, 14)].producer, NodeId::none() };
        QCOMPARE(plan.steps[3].node, select.top);
        view.selectNode(select);
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == select, 20000);
        const auto& marked = chart->marked();
        QVERIFY(std::find(marked.begin(), marked.end(), std::pair(tensorIndex(plan, 14), true)) != marked.end());
        QVERIFY(std::find(marked.begin(), marked.end(), std::pair(tensorIndex(plan, 4), false)) != marked.end()
            || std::find(marked.begin(), marked.end(), std::pair(tensorIndex(plan, 3), false)) != marked.end());

        // Zoomed far in on step 0, selecting the node of step 13 scrolls its tensors into view.
        chart->zoomBy(1000);
        chart->horizontalScrollBar()->setValue(0);
        QVERIFY(!chart->viewport()->rect().intersects(chart->tensorRect(tensorIndex(plan, 43)).toAlignedRect()));
        QVERIFY(panel->showNode(delegate) >= 3);
        bool inView = false;
        for (const auto& [i, written] : chart->marked())
            inView = inView || chart->viewport()->rect().intersects(chart->tensorRect(i).toAlignedRect());
        QVERIFY(inView);
        chart->fit();

        // The summary's peak links to its node.
        std::vector<NodeOrigin> requested;
        connect(
            panel, &MemoryPanel::nodeRequested, this, [&](const NodeOrigin& origin) { requested.push_back(origin); });
        Q_EMIT panel->summary()->linkActivated(QStringLiteral("13"));
        QCOMPARE(requested, std::vector<NodeOrigin> { delegate });
        saveShot(view, QStringLiteral("memory-stress_mlp.png"));
    }

    void exportsWhatItShows()
    {
        auto document = sample("djl-executorch-engine/stress_mlp.pte");
        MemoryPanel panel;
        panel.setMethod(document, 0);
        QTemporaryDir dir;
        QString error;
        // Never shown: the export computes the plan and draws the whole arena.
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("m.png")), &error), qPrintable(error));
        const QImage image(dir.filePath(QStringLiteral("m.png")));
        QVERIFY(image.width() >= 1000 && image.height() >= 560);
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("m.svg")), &error), qPrintable(error));
        const QByteArray svg = readAll(dir.filePath(QStringLiteral("m.svg")));
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("declared 100,416 B")); // text stays text
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("m.csv")), &error), qPrintable(error));
        const QList<QByteArray> csv = readAll(dir.filePath(QStringLiteral("m.csv"))).trimmed().split('\n');
        QVERIFY(csv.front().startsWith("value,arena,offset,bytes,end,first_step,last_step,role"));
        QCOMPARE(csv.size(), 1 + 19);
        QVERIFY(csv[1].startsWith("14,1,0,1024,1024,3,5,activation")); // by offset, as shown
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("m.json")), &error), qPrintable(error));
        const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("m.json")))).object();
        const QJsonObject arena = json.value(QStringLiteral("arenas")).toArray().first().toObject();
        QCOMPARE(arena.value(QStringLiteral("peak_live")).toInteger(), 100352);
        QCOMPARE(arena.value(QStringLiteral("peak_step")).toInt(), 13);
        QCOMPARE(arena.value(QStringLiteral("live_bytes")).toArray().size(), 14);
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("m.trace.json")), &error), qPrintable(error));
        const QJsonObject trace
            = QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("m.trace.json")))).object();
        const QJsonArray events = trace.value(QStringLiteral("traceEvents")).toArray();
        int complete = 0;
        for (const QJsonValue& event : events)
            complete += event.toObject().value(QStringLiteral("ph")).toString() == QLatin1String("X");
        // One event per live tensor per step: the sum of the 19 lifetimes.
        int lifetimes = 0;
        for (const PlannedTensor& t : panel.plan()->tensors)
            lifetimes += t.firstStep >= 0 ? t.lastStep - t.firstStep + 1 : 0;
        QCOMPARE(complete, lifetimes);
        if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
            panel.exportTo(qEnvironmentVariable("ETSCOPE_SHOTS") + QStringLiteral("/memory-export-stress_mlp.png"));
        QVERIFY(!panel.exportTo(dir.filePath(QStringLiteral("m.pdf")), &error));
        QVERIFY(error.contains(QStringLiteral(".trace.json")));
    }

    void bigSample_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addRow("stories260k") << QString::fromStdString(
            etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        // A synthetic giant when one is given (etscope-synth --shape llm --instructions 100000).
        if (qEnvironmentVariableIsSet("ETSCOPE_BIG_PTE"))
            QTest::addRow("big") << qEnvironmentVariable("ETSCOPE_BIG_PTE");
    }

    void bigSample()
    {
        QFETCH(QString, path);
        auto document = load(path.toStdString());
        QVERIFY(document && document->program);
        int method = 0;
        if (const Method* preferred = document->program->defaultMethod())
            method = static_cast<int>(preferred - document->program->methods.data());
        MemoryPanel panel;
        panel.setMethod(document, method);
        panel.resize(1300, 420);
        QElapsedTimer opening;
        opening.start();
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const qint64 showMs = opening.elapsed(); // the UI thread does not wait for the plan
        QTRY_VERIFY_WITH_TIMEOUT(panel.plan(), 120000);
        QElapsedTimer painting;
        painting.start();
        const QImage shot = panel.chart()->grab().toImage();
        const qint64 paintMs = painting.elapsed();
        QVERIFY(!shot.isNull());
        QElapsedTimer selecting;
        selecting.start();
        const MemoryPlan& plan = *panel.plan();
        const MemoryArena* arena = panel.chart()->arena();
        QVERIFY(arena);
        if (!arena->tensors.empty())
            if (const auto node = panel.nodeOf(arena->tensors.back()))
                panel.showNode(*node);
        const qint64 selectMs = selecting.elapsed();
        // What the UI thread does with a result: the whole synchronous path minus the plan.
        MemoryPanel again;
        again.setMethod(document, method);
        QElapsedTimer installing;
        installing.start();
        QVERIFY(again.ensureComputed());
        const qint64 installMs = installing.elapsed() - again.computeMilliseconds();
        qInfo("%s: %zu steps, %zu tensors; shown in %lld ms, plan and table %lld ms on a worker, chart painted in %lld "
              "ms, "
              "a node's tensors marked in %lld ms, the result installed (table, chart) in %lld ms",
            qPrintable(QFileInfo(path).fileName()), plan.steps.size(), plan.tensors.size(), showMs,
            panel.computeMilliseconds(), paintMs, selectMs, installMs);
        saveShot(panel, QStringLiteral("memory-%1.png").arg(QFileInfo(path).completeBaseName()));
    }

private:
    static const Document& document(const DocumentController& controller) { return *controller.document(); }
};

ETSCOPE_TEST_MAIN(TestMemoryPanel)
#include "tst_memorypanel.moc"
