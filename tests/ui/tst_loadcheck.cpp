// SPDX-License-Identifier: MIT
// The Load tab as a user meets it: the verdict on real programs with the default lists and with
// others switched on, the marks on the nodes without a kernel, the table linked to the graph
// both ways, list files (and their errors), and the exports.
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/window/documentview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleOptionGraphicsItem>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <set>

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

/// Only these built-in lists on (prim always is), no files: a choice of the user's, so the
/// runtime is not automatic (the default since automatic exists; the tests written before it
/// assumed portable and now choose it, init()).
void useLists(const QStringList& builtins)
{
    KernelListChoice& choice = KernelListChoice::instance();
    choice.setBuiltins(builtins);
    for (const QString& file : choice.files())
        choice.removeFile(file);
    for (const QString& name : { QStringLiteral("portable"), QStringLiteral("optimized"), QStringLiteral("quantized"),
             QStringLiteral("cortex_m") })
        choice.setBuiltin(name, builtins.contains(name));
}

struct Fixture {
    DocumentController controller;
    std::unique_ptr<DocumentView> view;
    LoadCheckPanel* panel = nullptr;

    explicit Fixture(const std::string& sample)
    {
        controller.adopt(load(sample));
        view = std::make_unique<DocumentView>(&controller, GraphContext {});
        view->resize(1400, 900);
        panel = view->loadCheckPanel();
        view->findChild<QTabWidget*>()->setCurrentWidget(panel);
        view->show();
    }
    bool ready()
    {
        QSignalSpy shown(view.get(), &DocumentView::presentationShown);
        if (!view->presentation() && !shown.wait(20000))
            return false;
        return panel->check() || QSignalSpy(panel, &LoadCheckPanel::checked).wait(20000);
    }
    /// Instructions of the nodes drawn with a mark.
    std::set<int> markedInstructions() const
    {
        std::set<int> marked;
        for (NodeItem* item : view->scene()->nodeItems())
            if (item->mark())
                marked.insert(view->presentation()->methodGraph().node(item->origin().top).instruction.value);
        return marked;
    }
    QString rowName(int row) const { return panel->view()->model()->index(row, 0).data().toString(); }
    QString rowStatus(int row) const { return panel->view()->model()->index(row, 3).data().toString(); }
    int selectedInstruction() const
    {
        const auto selected = view->selectedNode();
        return selected ? view->presentation()->methodGraph().node(selected->top).instruction.value : -1;
    }
};

bool waitForCheck(LoadCheckPanel* panel, const std::function<void()>& change)
{
    QSignalSpy checked(panel, &LoadCheckPanel::checked);
    change();
    return checked.count() > 0 || checked.wait(20000);
}

} // namespace

class TestLoadCheck : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ETScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_loadcheck"));
        QSettings().clear(); // no list file remembered from an earlier run
    }

    void init() { useLists({ QStringLiteral("portable") }); }

    void cortexMProgramIsMarked()
    {
        // arduino_KeywordSpotting: 16 KernelCalls; 14 of them call 7 cortex_m operators that
        // neither portable nor prim has (checked by hand against portable's functions.yaml);
        // the 2 at instructions 2 and 11 are dim_order_ops::_clone_dim_order.out (portable).
        Fixture f("executorch/arduino_KeywordSpotting_model.pte");
        QVERIFY(f.ready());
        const QString verdict = f.panel->verdictText();
        QVERIFY2(verdict.startsWith(QStringLiteral("Will load on a runtime with portable + prim kernels: no")),
            qPrintable(verdict));
        QVERIFY2(
            verdict.contains(QStringLiteral("7 operator(s) have no kernel (14 of 16 call(s))")), qPrintable(verdict));
        // The answer stands on its own line in the attention colour.
        auto* answer = f.panel->findChild<QLabel*>(QStringLiteral("loadAnswer"));
        QVERIFY(answer->text().startsWith(QStringLiteral("no — 7 operator(s)")));
        QVERIFY(answer->styleSheet().contains(attentionColour().name()));
        const std::set<int> missing { 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15 };
        QCOMPARE(f.panel->marks().size(), missing.size());
        QCOMPARE(f.markedInstructions(), missing);
        for (NodeItem* item : f.view->scene()->nodeItems())
            if (item->mark()) {
                QCOMPARE(item->mark()->badge, QStringLiteral("✕"));
                // Not the selection's colour: a selected node without a kernel shows both.
                QCOMPARE(item->mark()->colour, problemColour());
                QVERIFY(item->mark()->colour != attentionColour());
                QVERIFY(item->mark()->tooltip.startsWith(QStringLiteral("No kernel for cortex_m::")));
                QVERIFY(item->mark()->tooltip.endsWith(QStringLiteral(" in portable + prim")));
            }
        // Missing first, then what portable resolves, in the attention colour while missing.
        QCOMPARE(f.rowStatus(0), QStringLiteral("missing"));
        QCOMPARE(f.panel->rowOf(QStringLiteral("dim_order_ops::_clone_dim_order.out")), 7);
        QCOMPARE(f.rowStatus(7), QStringLiteral("resolved by portable"));
        QCOMPARE(f.panel->view()->model()->index(0, 3).data(Qt::ForegroundRole).value<QColor>(), attentionColour());
        QVERIFY(!f.panel->view()->model()->index(7, 3).data(Qt::ForegroundRole).isValid());
        f.view->graphView()->fitAll();
        saveShot(*f.view, QStringLiteral("loadcheck-arduino-missing.png"));
        if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS")) {
            applyTheme(Theme::Dark);
            saveShot(*f.view, QStringLiteral("loadcheck-arduino-missing-dark.png"));
            applyTheme(Theme::Light);
        }

        // Another analysis's marks live in their own layer: the check neither wipes them nor is
        // wiped by them (a comparison drawn in the same scene).
        GraphScene* scene = f.view->scene();
        const auto kernelMarks = scene->marks();
        const auto other = GraphScene::keyOf(NodeOrigin {
            NodeId(static_cast<int>(f.view->presentation()->methodGraph().nodes.size()) - 1), NodeId::none() });
        QVERIFY(!kernelMarks.count(other));
        scene->setMarks(GraphScene::MarkLayer::Compare, { { other, NodeMark { Qt::green, QStringLiteral("+"), {} } } });
        QCOMPARE(scene->marks().size(), kernelMarks.size() + 1);
        f.view->setKernelMarksVisible(false);
        QCOMPARE(scene->marks().size(), std::size_t(1));
        QCOMPARE(scene->marks().at(other).badge, QStringLiteral("+"));
        scene->setMarks(GraphScene::MarkLayer::Compare, {});
        f.view->setKernelMarksVisible(true);
        QCOMPARE(scene->marks().size(), kernelMarks.size());

        // The View menu's toggle hides the marks and shows them again.
        f.view->setKernelMarksVisible(false);
        QVERIFY(f.view->scene()->marks().empty());
        QVERIFY(f.markedInstructions().empty());
        f.view->setKernelMarksVisible(true);
        QCOMPARE(f.markedInstructions(), missing);

        // Switching on cortex_m (its box in the tab) resolves them all.
        auto* cortex = f.panel->findChild<QCheckBox*>(QStringLiteral("kernels_cortex_m"));
        QVERIFY(cortex && !cortex->isChecked());
        QVERIFY(waitForCheck(f.panel, [cortex] { cortex->click(); }));
        QVERIFY(KernelListChoice::instance().builtins().contains(QStringLiteral("cortex_m")));
        QVERIFY2(f.panel->verdictText().startsWith(
                     QStringLiteral("Will load on a runtime with portable + cortex_m + prim kernels: yes — every")),
            qPrintable(f.panel->verdictText()));
        QVERIFY(answer->styleSheet().isEmpty());
        QVERIFY(f.panel->marks().empty());
        QVERIFY(f.view->scene()->marks().empty());
        QVERIFY(f.markedInstructions().empty());
        QCOMPARE(
            f.rowStatus(f.panel->rowOf(QStringLiteral("cortex_m::pad.out"))), QStringLiteral("resolved by cortex_m"));
        saveShot(*f.view, QStringLiteral("loadcheck-arduino-cortex_m.png"));
    }

    void newViewsUseTheSessionsLists()
    {
        useLists({ QStringLiteral("portable"), QStringLiteral("cortex_m") });
        Fixture f("executorch/arduino_KeywordSpotting_model.pte");
        QVERIFY(f.ready());
        QVERIFY(f.panel->findChild<QCheckBox*>(QStringLiteral("kernels_cortex_m"))->isChecked());
        QVERIFY(f.panel->verdictText().contains(QStringLiteral(": yes")));
        QVERIFY(f.markedInstructions().empty());
    }

    void ethosUNeedsQuantizedAndItsBackend()
    {
        // ethos_u_minimal_example_u55: quantize_per_tensor.out (instructions 0, 1) and
        // dequantize_per_tensor.out (3) of quantized_decomposed around one EthosUBackend call (2).
        Fixture f("cmsis-executorch/ethos_u_minimal_example_u55.pte");
        QVERIFY(f.ready());
        QVERIFY2(
            f.panel->verdictText().contains(QStringLiteral(": no — 2 operator(s) have no kernel (3 of 3 call(s))")),
            qPrintable(f.panel->verdictText()));
        QCOMPARE(f.markedInstructions(), (std::set<int> { 0, 1, 3 }));
        const int backend = f.panel->rowOf(QStringLiteral("EthosUBackend"));
        QVERIFY(backend >= 0);
        QCOMPARE(f.rowStatus(backend), QStringLiteral("needs backend EthosUBackend linked"));
        QVERIFY(
            waitForCheck(f.panel, [] { KernelListChoice::instance().setBuiltin(QStringLiteral("quantized"), true); }));
        QVERIFY2(f.panel->verdictText().contains(
                     QStringLiteral("portable + quantized + prim kernels: yes, if the runtime links EthosUBackend")),
            qPrintable(f.panel->verdictText()));
        QVERIFY(f.markedInstructions().empty());
        QCOMPARE(f.rowStatus(f.panel->rowOf(QStringLiteral("quantized_decomposed::quantize_per_tensor.out"))),
            QStringLiteral("resolved by quantized"));
        // The delegated share lines are under the table.
        QVERIFY(f.panel->findChild<QLabel*>(QStringLiteral("loadShare"))
                    ->text()
                    .contains(QStringLiteral("EthosUBackend: 1 subgraph(s)")));
        saveShot(*f.view, QStringLiteral("loadcheck-ethos.png"));
    }

    void presetTicksTheListsAndTheHintSaysWhich()
    {
        // Before: no preset chooser, no hint; the legend said nothing of the ✕ badge.
        Fixture f("cmsis-executorch/ethos_u_minimal_example_u55.pte");
        QVERIFY(f.ready());
        auto* hint = f.panel->findChild<QLabel*>(QStringLiteral("loadHint"));
        QVERIFY(hint);
        // quantize_per_tensor.out and dequantize_per_tensor.out of quantized_decomposed are
        // both in kernels/quantized/quantized.yaml (the built-in quantized list).
        QVERIFY2(hint->isVisible()
                && hint->text().startsWith(QStringLiteral("Hint: the quantized list provides 2 missing operator(s)")),
            qPrintable(hint->text()));
        QVERIFY2(hint->text().endsWith(QStringLiteral("or choose the arm-ethos-u preset")), qPrintable(hint->text()));
        auto* legend = f.view->findChild<GraphPanel*>();
        QVERIFY(legend);
        QVERIFY2(legend->legendHtml().contains(QStringLiteral("no kernel in the Load tab")),
            qPrintable(legend->legendHtml()));
        auto* preset = f.panel->findChild<QComboBox*>(QStringLiteral("kernelPreset"));
        QVERIFY(preset);
        QCOMPARE(preset->currentData().toString(), QStringLiteral("portable"));
        const int arm = preset->findData(QStringLiteral("arm-ethos-u"));
        QVERIFY(arm > 0);
        QVERIFY(waitForCheck(f.panel, [&] {
            preset->setCurrentIndex(arm);
            Q_EMIT preset->activated(arm);
        }));
        for (const char* name : { "kernels_portable", "kernels_quantized", "kernels_cortex_m" })
            QVERIFY2(f.panel->findChild<QCheckBox*>(QLatin1String(name))->isChecked(), name);
        QVERIFY(!f.panel->findChild<QCheckBox*>(QStringLiteral("kernels_optimized"))->isChecked());
        QVERIFY2(f.panel->verdictText().contains(QStringLiteral(
                     "portable + quantized + cortex_m + prim kernels: yes, if the runtime links EthosUBackend")),
            qPrintable(f.panel->verdictText()));
        QVERIFY(hint->isHidden());
        QVERIFY(f.markedInstructions().empty());
        QVERIFY(!legend->legendHtml().contains(QStringLiteral("no kernel in the Load tab")));
        // Ticking one more list by hand leaves the preset: "Custom".
        QVERIFY(
            waitForCheck(f.panel, [] { KernelListChoice::instance().setBuiltin(QStringLiteral("optimized"), true); }));
        QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
    }

    void armLabProgramWithTheEthosUPreset()
    {
        // mobilenetv2_lrn_int8_ethosu: two EthosUBackend delegates; 5 KernelCalls outside them:
        // quantize_per_tensor.out (instructions 0, 4) and dequantize_per_tensor.out (2, 6) of
        // quantized_decomposed, and aten::avg_pool3d.out (3: the LRN's window sum), which no
        // built-in list has (kernels/portable/functions.yaml has avg_pool2d only).
        Fixture f("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        QVERIFY(f.ready());
        QVERIFY2(
            f.panel->verdictText().endsWith(QStringLiteral(": no — 3 operator(s) have no kernel (5 of 5 call(s))")),
            qPrintable(f.panel->verdictText()));
        QVERIFY(waitForCheck(f.panel, [] {
            KernelListChoice::instance().setBuiltins(
                { QStringLiteral("portable"), QStringLiteral("quantized"), QStringLiteral("cortex_m") });
        }));
        QCOMPARE(f.panel->findChild<QComboBox*>(QStringLiteral("kernelPreset"))->currentData().toString(),
            QStringLiteral("arm-ethos-u"));
        QVERIFY2(
            f.panel->verdictText().endsWith(QStringLiteral(
                "portable + quantized + cortex_m + prim kernels: no — 1 operator(s) have no kernel (1 of 5 call(s))")),
            qPrintable(f.panel->verdictText()));
        QCOMPARE(f.panel->hintText(),
            QStringLiteral("Hint: 1 missing operator(s) are in no built-in list (aten::avg_pool3d.out): add the "
                           "runtime's own list as a file"));
        QCOMPARE(f.markedInstructions(), (std::set<int> { 3 }));
        saveShot(*f.view, QStringLiteral("loadcheck-mv2-ethosu-preset.png"));
        f.view->resize(1024, 700);
        saveShot(*f.view, QStringLiteral("loadcheck-mv2-ethosu-preset-1024.png"));
        // The page fits its pane: the runtime, its title and five list boxes on one row made it
        // ~560 px wide, and the scroll area cut the verdict and the hint at the pane's edge.
        // Down to a window of nine tenths of a 1024×700 screen (MainWindow's first size there).
        f.view->resize(900, 600);
        const auto* scroll = f.panel->findChild<QScrollArea*>();
        QVERIFY(scroll && scroll->widget());
        QTest::qWait(100); // the layouts the resize asked for
        QVERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
            qPrintable(QStringLiteral("page %1 px in a %2 px pane")
                           .arg(scroll->widget()->width())
                           .arg(scroll->viewport()->width())));
    }

    void automaticRuntimeFollowsEachDocument()
    {
        // Before: the default was "executor_runner with portable kernels only" for every program,
        // and an Ethos-U program opened with ✕ on its cortex_m / quantized_decomposed nodes.
        // Automatic is the app-wide mode; each view resolves its own document's preset.
        KernelListChoice& choice = KernelListChoice::instance();
        choice.setAutomatic(true);
        // mobilenet_v2_ethosu (pte-adapter-model-explorer): cortex_m::quantize_per_tensor.out at
        // instruction 0, the EthosUBackend call at 1, cortex_m::dequantize_per_tensor.out at 2
        // (`etscope graph`); both are in backends/cortex_m/ops/operators.yaml, which the Arm
        // Ethos-U runner links (cortex_m_ops_lib).
        Fixture f("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        QVERIFY(f.ready());
        auto* preset = f.panel->findChild<QComboBox*>(QStringLiteral("kernelPreset"));
        QCOMPARE(preset->currentIndex(), 0);
        QCOMPARE(preset->currentText(), QStringLiteral("Automatic: Arm Ethos-U executor_runner (bare-metal Cortex-M)"));
        QVERIFY(preset->toolTip().contains(QStringLiteral("chosen for the program's EthosUBackend delegates")));
        QVERIFY2(f.panel->verdictText().startsWith(QStringLiteral(
                     "Will load on Arm Ethos-U executor_runner (bare-metal Cortex-M), chosen for the program's "
                     "EthosUBackend delegates, with portable + quantized + cortex_m + prim kernels: yes")),
            qPrintable(f.panel->verdictText()));
        QVERIFY(f.markedInstructions().empty());
        for (const char* name : { "kernels_portable", "kernels_quantized", "kernels_cortex_m" })
            QVERIFY2(f.panel->findChild<QCheckBox*>(QLatin1String(name))->isChecked(), name);
        saveShot(*f.view, QStringLiteral("loadcheck-automatic-ethosu.png"));

        // The lab program in another view of the same session: arm-ethos-u too, and only
        // aten::avg_pool3d.out (instruction 3, armLabProgramWithTheEthosUPreset) is missing.
        Fixture lab("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        QVERIFY(lab.ready());
        QVERIFY2(lab.panel->verdictText().endsWith(
                     QStringLiteral("prim kernels: no — 1 operator(s) have no kernel (1 of 5 call(s))")),
            qPrintable(lab.panel->verdictText()));
        QCOMPARE(lab.markedInstructions(), (std::set<int> { 3 }));
        // add.pte has no delegate: portable, in its own view, while the others keep theirs.
        Fixture add("executorch/add.pte");
        QVERIFY(add.ready());
        QCOMPARE(add.panel->findChild<QComboBox*>(QStringLiteral("kernelPreset"))->currentText(),
            QStringLiteral("Automatic: executor_runner with portable kernels only"));
        QVERIFY2(add.panel->verdictText().contains(QStringLiteral("chosen because the program has no delegates")),
            qPrintable(add.panel->verdictText()));
        QCOMPARE(preset->currentText(), QStringLiteral("Automatic: Arm Ethos-U executor_runner (bare-metal Cortex-M)"));

        // Choosing "executor_runner with portable kernels only" brings the marks back (0 and 2).
        const int portable = preset->findData(QStringLiteral("portable"));
        QVERIFY(portable > 0);
        QVERIFY(waitForCheck(f.panel, [&] {
            preset->setCurrentIndex(portable);
            Q_EMIT preset->activated(portable);
        }));
        QVERIFY(!choice.automatic());
        QCOMPARE(f.markedInstructions(), (std::set<int> { 0, 2 }));
        QVERIFY2(f.panel->verdictText().startsWith(
                     QStringLiteral("Will load on a runtime with portable + prim kernels: no")),
            qPrintable(f.panel->verdictText()));
        QCOMPARE(preset->currentText(), QStringLiteral("executor_runner with portable kernels only"));
        saveShot(*f.view, QStringLiteral("loadcheck-portable-ethosu.png"));
        // The Automatic entry goes back.
        QVERIFY(waitForCheck(f.panel, [&] {
            preset->setCurrentIndex(0);
            Q_EMIT preset->activated(0);
        }));
        QVERIFY(choice.automatic());
        QVERIFY(f.markedInstructions().empty());
        // Ticking a box from automatic keeps what was shown and adds to it: a choice now.
        auto* optimized = f.panel->findChild<QCheckBox*>(QStringLiteral("kernels_optimized"));
        QVERIFY(waitForCheck(f.panel, [optimized] { optimized->click(); }));
        QVERIFY(!choice.automatic());
        QCOMPARE(choice.builtins(),
            (QStringList { QStringLiteral("portable"), QStringLiteral("optimized"), QStringLiteral("quantized"),
                QStringLiteral("cortex_m") }));
        QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
    }

    void xnnpackProgramGetsTheAndroidRuntime()
    {
        KernelListChoice::instance().setAutomatic(true);
        // stress_mlp: XnnpackBackend delegates only; android-xnnpack and llama both link
        // XnnpackBackend, and the first one shown (android-xnnpack) wins the tie.
        Fixture f("djl-executorch-engine/stress_mlp.pte");
        QVERIFY(f.ready());
        QCOMPARE(f.panel->findChild<QComboBox*>(QStringLiteral("kernelPreset"))->currentText(),
            QStringLiteral("Automatic: Android (executorch_jni) with XNNPACK"));
        QVERIFY(f.panel->findChild<QCheckBox*>(QStringLiteral("kernels_optimized"))->isChecked());
        QVERIFY(!f.panel->findChild<QCheckBox*>(QStringLiteral("kernels_cortex_m"))->isChecked());
    }

    void markBadgeStaysInsideItsItem()
    {
        // An item repaints only its bounding rectangle: before, the badge reached 3 px above it
        // (half of a 12 px line plus 2 px over the box's top, against 5 px of margin) and 1 px
        // past its right, and that red sliver stayed on screen once the mark went away.
        Node node;
        node.kind = NodeKind::Operator;
        NodeItem item(node, { NodeId(0), NodeId::none() }, QStringLiteral("aten::add.out"), QStringLiteral("add"),
            QSizeF(140, 44));
        item.setMark(NodeMark { QColor(Qt::red), QStringLiteral("✕ 12"), QStringLiteral("no kernel") });
        QImage image(400, 300, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.translate(200, 150);
            QStyleOptionGraphicsItem option;
            item.paint(&painter, &option, nullptr);
        }
        const QRect bounds = item.boundingRect().translated(200, 150).toAlignedRect();
        int outside = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qAlpha(image.pixel(x, y)) != 0 && !bounds.contains(x, y))
                    ++outside;
        QCOMPARE(outside, 0);
    }

    void addLoads()
    {
        Fixture f("executorch/add.pte");
        QVERIFY(f.ready());
        QVERIFY2(
            f.panel->verdictText().endsWith(QStringLiteral("kernels: yes — every operator has a kernel (1 call(s))")),
            qPrintable(f.panel->verdictText()));
        QVERIFY(f.panel->marks().empty());
        QVERIFY(f.markedInstructions().empty());
        QCOMPARE(f.rowStatus(0), QStringLiteral("resolved by portable"));
    }

    void linkedBothWays()
    {
        Fixture f("executorch/arduino_KeywordSpotting_model.pte");
        QVERIFY(f.ready());
        QTableView* table = f.panel->view();
        // cortex_m::quantized_conv2d.out is called at instructions 4, 6, 8 and 10.
        const int row = f.panel->rowOf(QStringLiteral("cortex_m::quantized_conv2d.out"));
        QVERIFY(row >= 0);
        QCOMPARE(f.panel->nodesOfRow(row).size(), std::size_t(4));
        const QPoint at = table->visualRect(table->model()->index(row, 0)).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(f.selectedInstruction(), 4);
        QCOMPARE(f.view->scene()->highlightedCount(), 4);
        // Clicking the row again walks on; Next and Previous too.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTRY_COMPARE(f.selectedInstruction(), 6);
        f.panel->walk(+1);
        QTRY_COMPARE(f.selectedInstruction(), 8);
        f.panel->walk(-1);
        QTRY_COMPARE(f.selectedInstruction(), 6);

        // Graph → table: selecting the avg-pool node (instruction 13) selects its row.
        NodeOrigin pool;
        for (const Node& node : f.view->presentation()->methodGraph().nodes)
            if (node.kind == NodeKind::Operator && node.instruction.value == 13)
                pool = { node.id, NodeId::none() };
        QVERIFY(pool.top.valid());
        f.view->selectNode(pool);
        QTRY_COMPARE(f.rowName(table->currentIndex().row()), QStringLiteral("cortex_m::quantized_avg_pool2d.out"));
        // The conv highlight went with it.
        QCOMPARE(f.view->scene()->highlightedCount(), 0);
        // A sorted table keeps the link.
        table->sortByColumn(1, Qt::DescendingOrder); // calls
        f.view->selectNode(f.panel->nodesOfRow(f.panel->rowOf(QStringLiteral("cortex_m::pad.out"))).front());
        QTRY_COMPARE(f.rowName(table->currentIndex().row()), QStringLiteral("cortex_m::pad.out"));
        QCOMPARE(f.selectedInstruction(), 12);
        saveShot(*f.view, QStringLiteral("loadcheck-linked.png"));
    }

    void listFiles()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("ops.txt"));
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write("aten::add.out\naten::mul out please\n");
        badFile.close();
        const auto failure = KernelListChoice::instance().addFile(bad);
        QVERIFY(failure);
        QVERIFY2(failure->contains(QStringLiteral("ops.txt")) && failure->contains(QStringLiteral("line 2")),
            qPrintable(*failure));
        QVERIFY(KernelListChoice::instance().files().isEmpty());

        // A runtime's registered operators: what the Cortex-M build registers, as
        // _get_operator_names() prints it.
        const QString good = dir.filePath(QStringLiteral("registered.txt"));
        QFile goodFile(good);
        QVERIFY(goodFile.open(QIODevice::WriteOnly));
        goodFile.write("['cortex_m::quantized_conv2d.out', 'cortex_m::quantized_depthwise_conv2d.out', "
                       "'cortex_m::quantize_per_tensor.out']\n");
        goodFile.close();
        Fixture f("executorch/arduino_KeywordSpotting_model.pte");
        QVERIFY(f.ready());
        QVERIFY(waitForCheck(f.panel, [&] { QVERIFY(!KernelListChoice::instance().addFile(good)); }));
        QCOMPARE(f.panel->findChildren<QCheckBox*>(QStringLiteral("kernelFile")).size(), 1);
        QVERIFY2(f.panel->verdictText().contains(QStringLiteral(
                     "registered.txt + portable + prim kernels: no — 4 operator(s) have no kernel (4 of 16")),
            qPrintable(f.panel->verdictText()));
        QCOMPARE(f.rowStatus(f.panel->rowOf(QStringLiteral("cortex_m::quantized_conv2d.out"))),
            QStringLiteral("resolved by registered.txt"));
        // Unchecked, the file stays offered and the check goes back to portable.
        QVERIFY(waitForCheck(
            f.panel, [&] { f.panel->findChild<QCheckBox*>(QStringLiteral("kernelFile"))->setChecked(false); }));
        QVERIFY(f.panel->verdictText().contains(QStringLiteral("7 operator(s) have no kernel")));
        QCOMPARE(KernelListChoice::instance().files(), QStringList { good });
        saveShot(*f.view, QStringLiteral("loadcheck-file.png"));
    }

    void exportsParse()
    {
        Fixture f("executorch/arduino_KeywordSpotting_model.pte");
        QVERIFY(f.ready());
        QTemporaryDir dir;
        QString error;
        QVERIFY2(
            f.panel->exportTable(dir.filePath(QStringLiteral("l.csv")), TableFormat::Csv, &error), qPrintable(error));
        QFile csv(dir.filePath(QStringLiteral("l.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readLine().trimmed(), QByteArray("name,calls,methods,status,kind,instructions"));
        QVERIFY(csv.readLine().startsWith("cortex_m::"));
        // The filter applies: only what is shown is exported.
        f.panel->findChild<QLineEdit*>(QStringLiteral("loadFilter"))->setText(QStringLiteral("conv2d"));
        QVERIFY2(
            f.panel->exportTable(dir.filePath(QStringLiteral("l.json")), TableFormat::Json, &error), qPrintable(error));
        QFile json(dir.filePath(QStringLiteral("l.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject table = QJsonDocument::fromJson(json.readAll()).object();
        const QJsonArray rows = table.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 2); // quantized_conv2d and quantized_depthwise_conv2d
        QCOMPARE(rows[0].toObject().value(QStringLiteral("status")).toString(), QStringLiteral("missing"));
        QVERIFY(rows[0].toObject().value(QStringLiteral("calls")).isDouble());

        QVERIFY2(f.panel->exportReport(dir.filePath(QStringLiteral("check.json")), &error), qPrintable(error));
        QFile report(dir.filePath(QStringLiteral("check.json")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QJsonObject check = QJsonDocument::fromJson(report.readAll()).object();
        QCOMPARE(check.value(QStringLiteral("will_load")).toBool(true), false);
        QCOMPARE(check.value(QStringLiteral("missing")).toArray().size(), 7);
    }
};

ETSCOPE_TEST_MAIN(TestLoadCheck)
#include "tst_loadcheck.moc"
