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

#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"
#include "ui/common/nodestyle.h"
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/load/devicechoice.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
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
        : Fixture(etscope::test::sharedSampleDocument(sample))
    {
    }
    explicit Fixture(std::shared_ptr<const Document> document)
    {
        controller.adopt(std::move(document));
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

/// Where `widget` stands in the panel (y of its top edge), after the layouts settled.
int topIn(QWidget* panel, const QString& name)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    auto* widget = panel->findChild<QWidget*>(name);
    return widget ? widget->mapTo(panel, QPoint(0, 0)).y() : -1;
}

bool writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

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

    /// Issue 33 leftovers: tinycnn_u55 loads with its kernels ("yes"), but Corstone-320's
    /// Ethos-U85 cannot run its U55 stream. The tab showed the kernels' "yes" above the device's
    /// "does not fit"; the worst answer comes first now, and the headline is it.
    void worstAnswerFirst()
    {
        Fixture f("tinycnn/tinycnn_u55.pte");
        QVERIFY(f.ready());
        QVERIFY(f.choose(QStringLiteral("corstone-320")));
        QVERIFY2(f.panel->verdictText().contains(QStringLiteral(": yes")), qPrintable(f.panel->verdictText()));
        auto* headline = f.panel->findChild<QLabel*>(QStringLiteral("loadHeadline"));
        QVERIFY(headline);
        QVERIFY(headline->isVisibleTo(f.panel));
        QVERIFY2(headline->text().startsWith(
                     QStringLiteral("Will not run — on Arm Corstone-320 FVP (Cortex-M85 + Ethos-U85): does not fit "
                                    "(1 of 1 delegates)")),
            qPrintable(headline->text()));
        QCOMPARE(headline->text(), f.panel->headlineText());
        QVERIFY(headline->styleSheet().contains(attentionColour().name()));
        // The headline first, then the device's "does not fit", then the kernels' "yes".
        const int top = topIn(f.panel, QStringLiteral("loadHeadline"));
        const int device = topIn(f.panel, QStringLiteral("deviceAnswer"));
        const int kernels = topIn(f.panel, QStringLiteral("loadAnswer"));
        QVERIFY2(top < device && device < kernels,
            qPrintable(QStringLiteral("headline %1, device %2, kernels %3").arg(top).arg(device).arg(kernels)));
        // Corstone-300 fits: both answers are "yes", the kernels stay first.
        QVERIFY(f.choose(QStringLiteral("corstone-300")));
        QVERIFY2(f.panel->headlineText().startsWith(QStringLiteral("Will run — kernels (")),
            qPrintable(f.panel->headlineText()));
        QVERIFY(topIn(f.panel, QStringLiteral("loadAnswer")) < topIn(f.panel, QStringLiteral("deviceAnswer")));
        // No device: no headline (the kernels' answer is the only one).
        QVERIFY(f.choose(QString()));
        QVERIFY(f.panel->headlineText().isEmpty());
        QVERIFY(!headline->isVisibleTo(f.panel));
    }

    /// The Load tab with a device that does not fit, in a 1024×700 window, light and dark
    /// (pictures only: with ETSCOPE_SHOTS set).
    void windowShots()
    {
        if (!qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
            QSKIP("pictures only: set ETSCOPE_SHOTS to a folder");
        const QString path = QString::fromStdString(etscope::test::samplePath("tinycnn/tinycnn_u55.pte"));
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QSignalSpy painted(&window, &MainWindow::firstPainted);
        window.openFiles({ path });
        QVERIFY(painted.wait(30000));
        DocumentView* view = window.currentView();
        QVERIFY(view);
        view->showLoadCheck();
        LoadCheckPanel* panel = view->loadCheckPanel();
        QVERIFY(panel->check() || QSignalSpy(panel, &LoadCheckPanel::checked).wait(20000));
        QSignalSpy done(panel, &LoadCheckPanel::deviceChecked);
        panel->setDevice(QStringLiteral("corstone-320"));
        QVERIFY(done.count() > 0 || done.wait(20000));
        const QString folder = qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/');
        for (const Theme theme : { Theme::Light, Theme::Dark }) {
            applyTheme(theme);
            QTest::qWait(300);
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QCoreApplication::processEvents();
            window.grab().save(folder
                + (theme == Theme::Dark ? QStringLiteral("load-1024-dark.png") : QStringLiteral("load-1024.png")));
        }
        applyTheme(Theme::Light);
        panel->setDevice(QString());
    }

    /// A long method is drawn as closed groups: a delegate inside one that does not fit the
    /// device was marked only once its group was opened. The synthetic MLP (syntheticmodels.h)
    /// of 1500 instructions is cut into groups (more than kGroupAboveNodes boxes) and calls one
    /// AcmeNpuBackend delegate halfway, which no device runtime links: it does not fit SM8650.
    void closedGroupHoldingADelegateThatDoesNotFitIsMarked()
    {
        MlpOptions options;
        options.nodes = 1500;
        options.secondMethod = false;
        const auto bytes = writeProgram(makeMlpProgram(options).spec);
        QVERIFY(bytes.ok());
        Fixture f(etscope::test::sharedDocumentFromBytes(*bytes, "long-mlp.pte"));
        QVERIFY(f.ready());
        QVERIFY(f.view->presentation()->grouping && !f.view->presentation()->grouping->empty());
        QVERIFY(f.choose(QStringLiteral("sm8650")));
        const auto acme = std::find_if(f.panel->deviceFits()->begin(), f.panel->deviceFits()->end(),
            [](const DelegateFit& fit) { return fit.backendId == "AcmeNpuBackend"; });
        QVERIFY(acme != f.panel->deviceFits()->end());
        QCOMPARE(acme->fit, Fit::DoesNotFit);
        std::vector<NodeMark> groupMarks;
        for (NodeItem* item : f.view->scene()->nodeItems())
            if (item->origin().group() >= 0 && item->mark() && item->mark()->badge.endsWith(QStringLiteral("device")))
                groupMarks.push_back(*item->mark());
        QVERIFY(!groupMarks.empty());
        const auto holding = std::find_if(groupMarks.begin(), groupMarks.end(),
            [](const NodeMark& mark) { return mark.tooltip.contains(QStringLiteral("AcmeNpuBackend")); });
        QVERIFY(holding != groupMarks.end());
        QVERIFY2(holding->badge.startsWith(QStringLiteral("✕")), qPrintable(holding->badge));
        QCOMPARE(holding->colour, problemColour());
        QVERIFY2(
            holding->tooltip.contains(QStringLiteral("inside do not fit Snapdragon")), qPrintable(holding->tooltip));
        QVERIFY2(
            holding->tooltip.contains(QString::fromStdString(acme->reasons.front())), qPrintable(holding->tooltip));
        f.shot(QStringLiteral("loaddevice-closed-group.png"));
    }

    /// The picker offers the devices of a device file (docs/check.md "Device files"), as
    /// `check --device-file` reads them; the path is remembered; a file that cannot be read is
    /// named with the reason. stories260k's context binary was built with QNN SDK 2.37.0
    /// (tst_devicecheck): a phone with 2.28.0 libraries does not fit it.
    void deviceFileInThePicker()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("phones.json"));
        QVERIFY(writeText(good,
            R"({"devices": [{"id": "my-s24", "title": "Galaxy S24 with QNN 2.28", "based_on": "sm8650", "qnn_sdk": "2.28.0"}]})"));
        const QString bad = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(writeText(bad, R"({"devices": [ {"id": )"));
        {
            Fixture f("executorch/stories260k_hybrid_llama_qnn.pte");
            QVERIFY(f.ready());
            const int builtins = f.picker->count();
            const auto failure = f.panel->loadDeviceFile(bad);
            QVERIFY(failure);
            QVERIFY2(
                failure->contains(QStringLiteral("broken.json")) && failure->contains(QStringLiteral("byte offset")),
                qPrintable(*failure));
            QCOMPARE(f.picker->count(), builtins);
            QVERIFY(!f.panel->loadDeviceFile(good));
            QCOMPARE(f.picker->count(), builtins + 1);
            QCOMPARE(f.picker->findData(QStringLiteral("my-s24")), 1); // before the built-in ones
            QVERIFY2(f.picker->itemText(1).contains(QStringLiteral("phones.json")), qPrintable(f.picker->itemText(1)));
            QVERIFY(f.choose(QStringLiteral("my-s24")));
            const QString text = f.panel->deviceText();
            QVERIFY2(text.startsWith(QStringLiteral("On Galaxy S24 with QNN 2.28: does not fit")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("QNN SDK 2.37.0")), qPrintable(text));
            QVERIFY(f.panel->headlineText().startsWith(QStringLiteral("Will not run — on Galaxy S24 with QNN 2.28")));
            QCOMPARE(QSettings().value(QStringLiteral("deviceCheck/files")).toStringList(), QStringList { good });
        }
        {
            // The next panel reads the remembered file again: the file's device, still chosen.
            Fixture again("executorch/stories260k_hybrid_llama_qnn.pte");
            QSignalSpy done(again.panel, &LoadCheckPanel::deviceChecked);
            QVERIFY(again.ready());
            QCOMPARE(again.picker->findData(QStringLiteral("my-s24")), 1);
            QCOMPARE(again.picker->currentData().toString(), QStringLiteral("my-s24"));
            QVERIFY(again.panel->deviceFits() || done.wait(20000));
            QVERIFY(again.panel->deviceText().contains(QStringLiteral("does not fit")));
            QVERIFY(again.choose(QString()));
        }
        // Broken since: the next panel names it with why, offers nothing of it, forgets it.
        QVERIFY(writeText(good, "[1, 2"));
        Fixture broken("executorch/stories260k_hybrid_llama_qnn.pte");
        QVERIFY(broken.ready());
        QCOMPARE(broken.picker->findData(QStringLiteral("my-s24")), -1);
        auto* problems = broken.panel->findChild<QLabel*>(QStringLiteral("deviceProblems"));
        QVERIFY(problems && problems->isVisibleTo(broken.panel));
        QVERIFY2(problems->text().contains(QStringLiteral("phones.json")), qPrintable(problems->text()));
        QVERIFY(QSettings().value(QStringLiteral("deviceCheck/files")).toStringList().isEmpty());
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
