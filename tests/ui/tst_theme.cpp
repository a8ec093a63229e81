// SPDX-License-Identifier: MIT
// Themes offscreen: View › Theme switches the application palette live and remembers the choice;
// the panels drawn over and around the graph (legend, busy panel, warning banner) follow it; the
// legend never covers the graph; the warnings dialog is as large as its text.
#include "core/document/document.h"
#include "tests/common/testsupport.h"
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphpanel.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"
#include "ui/window/warningbanner.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

/// Lightness (0…255) of the pixel at `at` of `widget` as it paints itself.
int lightnessAt(QWidget* widget, QPoint at)
{
    const QImage image = widget->grab().toImage();
    return QColor(image.pixel(at * image.devicePixelRatio())).lightness();
}

std::unique_ptr<DocumentView> openView(DocumentController& controller, const std::string& sample)
{
    auto document = openDocument(etscope::test::samplePath(sample));
    if (!document)
        return nullptr;
    controller.adopt(std::make_shared<const Document>(std::move(document).value()));
    auto view = std::make_unique<DocumentView>(&controller, GraphContext {});
    view->resize(1200, 800);
    QSignalSpy shown(view.get(), &DocumentView::presentationShown);
    if (!view->presentation() && !shown.wait(20000))
        return nullptr;
    return view;
}

} // namespace

class TestTheme : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ETScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_theme"));
        QSettings().clear();
    }

    void cleanup() { applyTheme(Theme::Light); }

    void names()
    {
        for (const Theme theme : { Theme::System, Theme::Light, Theme::Dark })
            QCOMPARE(themeFromName(themeName(theme)), theme);
        QCOMPARE(themeFromName(QStringLiteral("DARK")), Theme::Dark);
        QVERIFY(!themeFromName(QStringLiteral("purple")));
    }

    void menuSwitchesPaletteAndPersists()
    {
        {
            MainWindow window;
            auto* dark = window.findChild<QAction*>(QStringLiteral("themeDark"));
            auto* light = window.findChild<QAction*>(QStringLiteral("themeLight"));
            auto* system = window.findChild<QAction*>(QStringLiteral("themeSystem"));
            QVERIFY(dark && light && system);
            QVERIFY(dark->isCheckable() && dark->actionGroup() && dark->actionGroup()->isExclusive());
            dark->trigger();
            QVERIFY(dark->isChecked() && !light->isChecked() && !system->isChecked());
            QCOMPARE(currentTheme(), Theme::Dark);
            QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
            QVERIFY(QApplication::palette().color(QPalette::WindowText).lightness() > 180);
            QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("dark"));
            QCOMPARE(savedTheme(), Theme::Dark);
            light->trigger();
            QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);
            QCOMPARE(savedTheme(), Theme::Light);
            dark->trigger();
        }
        // A new window (the next start) shows the saved choice checked.
        MainWindow again;
        auto* dark = again.findChild<QAction*>(QStringLiteral("themeDark"));
        QVERIFY(dark && dark->isChecked());
        // System comes back to the palette the platform gave before any theme.
        again.findChild<QAction*>(QStringLiteral("themeSystem"))->trigger();
        QCOMPARE(savedTheme(), Theme::System);
        QVERIFY(!isDark(QApplication::palette()));
    }

    void panelsFollowThePalette()
    {
        DocumentController controller;
        auto view = openView(controller, "dnf-executorch/dnf_xnnpack_training.pte");
        QVERIFY(view);
        view->show();
        auto* panel = view->findChild<GraphPanel*>();
        QVERIFY(panel);
        auto* legend = panel->findChild<QLabel*>(QStringLiteral("legend"));
        auto* busy = panel->findChild<QWidget*>(QStringLiteral("busyPanel"));
        QVERIFY(legend && busy);
        QVERIFY(legend->isVisible() && legend->text().contains(QStringLiteral("XnnpackBackend")));
        panel->showBusy(true, QStringLiteral("Laying out 123 nodes…"));
        WarningBanner banner;
        banner.setWarnings({ Warning { "something looks off", std::nullopt } });
        banner.resize(600, banner.sizeHint().height());

        // Background pixels: the legend's left edge, the busy panel above its label, the banner
        // left of its text.
        const auto legendAt = QPoint(2, legend->height() / 2);
        const auto busyAt = QPoint(busy->width() / 2, 3);
        const auto bannerAt = QPoint(3, banner.height() / 2);
        for (const Theme theme : { Theme::Dark, Theme::Light, Theme::Dark }) {
            applyTheme(theme);
            QCoreApplication::processEvents();
            const bool dark = theme == Theme::Dark;
            const auto check = [dark](const char* what, int lightness) {
                QVERIFY2(dark ? lightness < 100 : lightness > 200,
                    qPrintable(QStringLiteral("%1: lightness %2").arg(QLatin1String(what)).arg(lightness)));
            };
            check("legend", lightnessAt(legend, legendAt));
            check("busy panel", lightnessAt(busy, busyAt));
            check("warning banner", lightnessAt(&banner, bannerAt));
            // The canvas too (issue 27: it stayed light in the dark theme): its top-left corner,
            // left of the first node.
            check("canvas", lightnessAt(panel->view()->viewport(), QPoint(2, 2)));
            // The node boxes too (issue 38: they stayed white on the dark canvas): a pixel of an
            // operator's fill, inside its bottom-left corner, clear of the text.
            auto* scene = qobject_cast<GraphScene*>(panel->view()->scene());
            QVERIFY(scene);
            const NodeItem* op = nullptr;
            for (const NodeItem* item : scene->nodeItems())
                if (item->kind() == NodeKind::Operator)
                    op = item;
            QVERIFY(op);
            panel->view()->centerOn(op);
            const QRectF box = op->mapRectToScene(op->boxRect());
            check("operator box",
                lightnessAt(panel->view()->viewport(), panel->view()->mapFromScene(box.bottomLeft() + QPointF(6, -4))));
            // Text stays readable: the labels' text colour is the opposite of the background.
            QCOMPARE(legend->palette().color(QPalette::WindowText).lightness() > 128, dark);
            // ETSCOPE_THEME_SHOTS=DIR keeps pictures of the panels to look at.
            if (const QString shots = qEnvironmentVariable("ETSCOPE_THEME_SHOTS"); !shots.isEmpty()) {
                panel->grab().save(QStringLiteral("%1/panel-%2.png").arg(shots, themeName(theme)));
                banner.grab().save(QStringLiteral("%1/banner-%2.png").arg(shots, themeName(theme)));
            }
        }
    }

    void legendNeverCoversTheGraph()
    {
        DocumentController controller;
        auto view = openView(controller, "dnf-executorch/dnf_xnnpack_training.pte");
        QVERIFY(view);
        view->show();
        auto* panel = view->findChild<GraphPanel*>();
        auto* legend = panel->findChild<QLabel*>(QStringLiteral("legend"));
        QVERIFY(legend && legend->isVisible());
        // The legend is a strip beside the graph view, not an overlay on it.
        QVERIFY(!legend->geometry().intersects(panel->view()->geometry()));
        QVERIFY(legend->geometry().bottom() < panel->view()->geometry().top());
        QCOMPARE(panel->view()->width(), panel->width());
        // The graph gets the room back when the legend is turned off.
        const int withLegend = panel->view()->height();
        panel->setLegendEnabled(false);
        QVERIFY(!legend->isVisible());
        QCOMPARE(panel->view()->height(), panel->height());
        QVERIFY(panel->view()->height() > withLegend);
        panel->setLegendEnabled(true);
        QVERIFY(legend->isVisible());
    }

    void minimapAndFitFollowTheSize()
    {
        // At 1024×700 the minimap covered a good part of the graph, and a resize left the
        // fitted graph as it was. The minimap is at most a fifth of each side, hidden while the
        // whole graph is in view; a fitted view is fitted again after a resize.
        DocumentController controller;
        auto view = openView(controller, "dnf-executorch/dnf_xnnpack_training.pte");
        QVERIFY(view);
        view->resize(1024, 700);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        auto* panel = view->findChild<GraphPanel*>();
        Minimap* minimap = panel->minimap();
        GraphView* graph = panel->view();
        graph->setZoom(1.5); // larger than the view: the minimap is useful
        QTRY_VERIFY(minimap->isVisible());
        QVERIFY(minimap->width() <= panel->width() / 5 && minimap->height() <= panel->height() / 5);
        graph->fitAll();
        QVERIFY(graph->followsFit());
        QTRY_VERIFY(!minimap->isVisible());
        const double fitted = graph->zoom();
        view->resize(1600, 1000);
        QTRY_VERIFY(graph->zoom() > fitted);
        QVERIFY(graph->showsEverything());
        // Once the user zooms, a resize leaves the zoom alone.
        graph->zoomBy(1.25);
        const double chosen = graph->zoom();
        view->resize(1024, 700);
        QCoreApplication::processEvents();
        QCOMPARE(graph->zoom(), chosen);
    }

    void legendMenuToggle()
    {
        MainWindow window;
        auto* toggle = window.findChild<QAction*>(QStringLiteral("showLegend"));
        QVERIFY(toggle && toggle->isCheckable() && toggle->isChecked());
        toggle->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("showLegend")).toBool(), false);
        toggle->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("showLegend")).toBool(), true);
    }

    void busyPanelHasNoStrayLabel()
    {
        GraphPanel panel;
        panel.resize(800, 600);
        panel.show();
        panel.showBusy(true, QStringLiteral("Laying out 42 nodes…"));
        auto* busy = panel.findChild<QWidget*>(QStringLiteral("busyPanel"));
        QVERIFY(busy && busy->isVisible());
        const auto labels = busy->findChildren<QLabel*>();
        QCOMPARE(labels.size(), 1);
        QCOMPARE(labels.front()->text(), QStringLiteral("Laying out 42 nodes…"));
        // The bar shows no text of its own (a busy bar has no percentage to show).
        auto* bar = busy->findChild<QProgressBar*>();
        QVERIFY(bar && !bar->isTextVisible());
    }

    void detailsDialogFitsItsText()
    {
        WarningBanner banner;
        const QStringList lines { QStringLiteral("segment 3 ends 12 bytes past the end of the file"),
            QStringLiteral(
                "delegate #2 (XnnpackBackend) has an unknown flatbuffer identifier \"XN00\" (58 4E 30 30)") };
        std::vector<Warning> warnings;
        for (const QString& line : lines)
            warnings.push_back(Warning { line.toStdString(), std::nullopt });
        banner.setWarnings(warnings);
        std::unique_ptr<QDialog> dialog(banner.createDetailsDialog());
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
        auto* text = dialog->findChild<QPlainTextEdit*>();
        QVERIFY(text);
        const QFontMetrics metrics(text->font());
        int widest = 0;
        for (const QString& line : lines)
            widest = std::max(widest, metrics.horizontalAdvance(line));
        const QRect screen = dialog->screen()->availableGeometry();
        QVERIFY2(text->viewport()->width() >= widest,
            qPrintable(QStringLiteral("%1 < %2").arg(text->viewport()->width()).arg(widest)));
        QVERIFY(dialog->width() <= screen.width() && dialog->height() <= screen.height());
        // All of it visible: no scroll bar, and no acre of empty space under two lines.
        QVERIFY(!text->verticalScrollBar()->isVisible() && !text->horizontalScrollBar()->isVisible());
        QVERIFY(text->viewport()->height() < 10 * metrics.lineSpacing());
        if (const QString shots = qEnvironmentVariable("ETSCOPE_THEME_SHOTS"); !shots.isEmpty())
            dialog->grab().save(shots + QStringLiteral("/details.png"));

        // Many long warnings: capped by the screen, the rest scrolls.
        std::vector<Warning> many;
        for (int i = 0; i < 200; ++i)
            many.push_back(
                Warning { QStringLiteral("warning %1: ").arg(i).append(QString(300, QLatin1Char('x'))).toStdString(),
                    static_cast<std::size_t>(i) });
        banner.setWarnings(many);
        std::unique_ptr<QDialog> big(banner.createDetailsDialog());
        big->show();
        QVERIFY(QTest::qWaitForWindowExposed(big.get()));
        QVERIFY(big->width() <= screen.width() && big->height() <= screen.height());
        QVERIFY(big->findChild<QPlainTextEdit*>()->verticalScrollBar()->isVisible());
    }
};

ETSCOPE_TEST_MAIN(TestTheme)
#include "tst_theme.moc"
