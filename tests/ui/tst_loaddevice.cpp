// SPDX-License-Identifier: MIT
// The Load tab's device picker (issue 33): "No device" and every built-in profile, the answer
// under it, the delegate boxes that do not fit marked on the graph with the reason, the choice
// remembered per file (QSettings deviceCheck/byDocument) and restored when the file is opened
// again. Samples (tst_devicecheck.cpp has the bytes): tinycnn_u55.pte is a Vela stream for an
// Ethos-U55 with 128 MACs; Corstone-320 has an Ethos-U85 (does not fit), Corstone-300 an
// Ethos-U55 whose MACs are chosen at launch (fits). stories260k_hybrid_llama_qnn.pte needs HTP
// min_arch 75 (v75, SM8650); SM8550 has v73 (does not fit).
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"
#include "ui/common/nodestyle.h"
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/load/devicechoice.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/window/documentview.h"

#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

struct Fixture {
    DocumentController controller;
    std::unique_ptr<DocumentView> view;
    LoadCheckPanel* panel = nullptr;
    QComboBox* picker = nullptr;

    explicit Fixture(const std::string& sample)
    {
        controller.adopt(etscope::test::sharedSampleDocument(sample));
        view = std::make_unique<DocumentView>(&controller, GraphContext {});
        view->resize(1400, 900);
        panel = view->loadCheckPanel();
        picker = panel->findChild<QComboBox*>(QStringLiteral("devicePicker"));
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
    /// Chooses the device as a user does: the picker's entry, activated.
    bool choose(const QString& id)
    {
        const int index = picker->findData(id);
        if (index < 0)
            return false;
        QSignalSpy done(panel, &LoadCheckPanel::deviceChecked);
        picker->setCurrentIndex(index);
        Q_EMIT picker->activated(index);
        return done.count() > 0 || done.wait(20000);
    }
    /// The device marks drawn on the graph's boxes.
    std::vector<NodeMark> deviceMarks() const
    {
        std::vector<NodeMark> marks;
        for (NodeItem* item : view->scene()->nodeItems())
            if (item->mark() && item->mark()->badge.endsWith(QStringLiteral("device")))
                marks.push_back(*item->mark());
        return marks;
    }
    void shot(const QString& name)
    {
        if (!qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
            return;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        view->graphView()->fitAll();
        // Close to the marked delegate, its badge legible, with its neighbours around it.
        for (NodeItem* item : view->scene()->nodeItems())
            if (item->mark() && item->mark()->badge.endsWith(QStringLiteral("device")))
                view->graphView()->zoomTo(item->sceneBoundingRect().adjusted(-250, -120, 250, 120));
        QCoreApplication::processEvents();
        view->grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
    }
};

} // namespace

class TestLoadDevice : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ETScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_loaddevice"));
        QSettings().clear();
    }

    void pickerListsEveryProfile()
    {
        Fixture f("tinycnn/tinycnn_u55.pte");
        QVERIFY(f.ready());
        QVERIFY(f.picker);
        QCOMPARE(f.picker->count(), static_cast<int>(builtinDeviceProfiles().size()) + 1);
        QCOMPARE(f.picker->itemData(0).toString(), QString());
        QCOMPARE(f.picker->currentIndex(), 0); // nothing remembered: no device
        QVERIFY(f.panel->deviceText().isEmpty());
        QVERIFY(f.deviceMarks().empty());
        QVERIFY(f.picker->findData(QStringLiteral("sm8650")) > 0);
        QVERIFY(f.picker->findData(QStringLiteral("corstone-320")) > 0);
    }

    void deviceThatDoesNotFitMarksTheDelegate()
    {
        const QString path = QString::fromStdString(etscope::test::samplePath("tinycnn/tinycnn_u55.pte"));
        {
            Fixture f("tinycnn/tinycnn_u55.pte");
            QVERIFY(f.ready());
            QVERIFY(f.choose(QStringLiteral("corstone-320")));
            const QString text = f.panel->deviceText();
            QVERIFY2(text.startsWith(QStringLiteral("On Arm Corstone-320 FVP (Cortex-M85 + Ethos-U85): does not fit (1 "
                                                    "of 1 delegates) — forward #0 EthosUBackend: ")),
                qPrintable(text));
            auto* answer = f.panel->findChild<QLabel*>(QStringLiteral("deviceAnswer"));
            QVERIFY(answer && answer->isVisibleTo(f.panel));
            QVERIFY(answer->styleSheet().contains(attentionColour().name()));
            QVERIFY(f.panel->deviceFits() && f.panel->deviceFits()->size() == 1);
            QCOMPARE(f.panel->deviceFits()->front().fit, Fit::DoesNotFit);
            // The one delegate box is marked, in the problem red, with the device and the reason.
            const auto marks = f.deviceMarks();
            QCOMPARE(marks.size(), std::size_t(1));
            QCOMPARE(marks.front().badge, QStringLiteral("✕ device"));
            QCOMPARE(marks.front().colour, problemColour());
            QVERIFY2(marks.front().tooltip.startsWith(QStringLiteral("Does not fit Arm Corstone-320 FVP")),
                qPrintable(marks.front().tooltip));
            QVERIFY2(
                marks.front().tooltip.contains(QString::fromStdString(f.panel->deviceFits()->front().reasons.front())),
                qPrintable(marks.front().tooltip));
            // The legend says what the badge means.
            const QString legend = LoadCheckPanel::marksLegend(f.panel->marks());
            QVERIFY2(legend.contains(QStringLiteral("does not fit the Load tab's device")), qPrintable(legend));
            // Remembered for this file.
            QCOMPARE(rememberedDevice(path), QStringLiteral("corstone-320"));
            f.shot(QStringLiteral("loaddevice-tinycnn-corstone320.png"));
        }
        {
            // Opened again: the picker shows the remembered device and checks it by itself.
            Fixture again("tinycnn/tinycnn_u55.pte");
            QSignalSpy done(again.panel, &LoadCheckPanel::deviceChecked);
            QVERIFY(again.ready());
            QCOMPARE(again.picker->currentData().toString(), QStringLiteral("corstone-320"));
            QVERIFY(again.panel->deviceFits() || done.wait(20000));
            QVERIFY(again.panel->deviceText().contains(QStringLiteral("does not fit")));
            // Corstone-300 fits: no device mark. No device: no answer, nothing remembered.
            QVERIFY(again.choose(QStringLiteral("corstone-300")));
            QVERIFY2(again.panel->deviceText().startsWith(
                         QStringLiteral("On Arm Corstone-300 FVP (Cortex-M55 + Ethos-U55): fits (1 of 1 delegates)")),
                qPrintable(again.panel->deviceText()));
            QVERIFY(again.deviceMarks().empty());
            QVERIFY(again.choose(QString()));
            QVERIFY(again.panel->deviceText().isEmpty());
            QVERIFY(!again.panel->deviceFits());
            QVERIFY(rememberedDevice(path).isEmpty());
        }
        // Another file does not inherit the choice.
        QVERIFY(rememberedDevice(QStringLiteral("/nowhere/other.pte")).isEmpty());
    }

    void qnnOnAnOlderSnapdragon()
    {
        // min_arch 75 in the context binary (byte 187665); SM8550's HTP is v73.
        Fixture f("executorch/stories260k_hybrid_llama_qnn.pte");
        QVERIFY(f.ready());
        QVERIFY(f.choose(QStringLiteral("sm8550")));
        const QString text = f.panel->deviceText();
        QVERIFY2(text.startsWith(QStringLiteral("On Snapdragon 8 Gen 2 (SM8550): does not fit (2 of 2 delegates)")),
            qPrintable(text));
        const auto marks = f.deviceMarks();
        QCOMPARE(marks.size(), std::size_t(1)); // the method shown has one delegate
        QVERIFY2(marks.front().tooltip.contains(QStringLiteral("v73")), qPrintable(marks.front().tooltip));
        f.shot(QStringLiteral("loaddevice-stories-sm8550.png"));
        if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS")) {
            applyTheme(Theme::Dark);
            f.shot(QStringLiteral("loaddevice-stories-sm8550-dark.png"));
            applyTheme(Theme::Light);
        }
    }
};

ETSCOPE_TEST_MAIN(TestLoadDevice)
#include "tst_loaddevice.moc"
