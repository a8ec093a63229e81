// SPDX-License-Identifier: MIT
#include "app/cli/cli.h"
#include "app/demo.h"
#include "core/util/platform.h"
#include "ui/common/logging.h"
#include "ui/common/theme.h"
#include "ui/document/documentcontroller.h"
#include "ui/document/layoutservice.h"
#include "ui/document/timings.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace {

/// How long ago the OS started this process, in milliseconds (10 ms resolution on Linux), so
/// that `startup` includes loading Qt's libraries; 0 when the OS cannot tell.
double processAgeMilliseconds()
{
    const std::optional<double> age = etscope::core::platform::processAgeSeconds();
    return age && *age > 0 ? *age * 1000.0 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (etscope::app::isCliInvocation(argc, argv))
        return etscope::app::runCli(argc, argv);
    // Without a display Qt would abort in its platform plugin; say what to do instead.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        std::fputs("etscope: no display for the desktop app (DISPLAY and WAYLAND_DISPLAY are not set); use a "
                   "subcommand (etscope --help) or set QT_QPA_PLATFORM=offscreen\n",
            stderr);
        return 1;
    }

    QElapsedTimer sinceMain;
    sinceMain.start();
    const double ageAtMain = processAgeMilliseconds();
    QApplication application(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("ETScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ETScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ETSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("etscope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/etscope/etscope.svg")));
    // Graphviz runs in helpers (this binary with --layout-worker) that Cancel can kill and whose
    // crash the app survives; ETSCOPE_LAYOUT_IN_PROCESS=1 keeps it in this process. Small
    // graphs (fewer than ETSCOPE_LAYOUT_IN_PROCESS_BELOW boxes, default kInProcessBoxes) are
    // laid out here: Graphviz needs a few ms on them, while a helper started with the app took
    // the CPU the app needed to open and draw (2 cores: the helper's process start and
    // plugin loading delayed the open's result by 6-8 ms), and each request a pipe round trip.
    // The helper is started once the first file is drawn, ready for large graphs.
    constexpr int kInProcessBoxes = 500;
    etscope::ui::LayoutService* layouts = etscope::ui::LayoutService::instance();
    const bool helpers = !qEnvironmentVariableIsSet("ETSCOPE_LAYOUT_IN_PROCESS");
    if (helpers) {
        bool valid = false;
        const int below = qEnvironmentVariableIntValue("ETSCOPE_LAYOUT_IN_PROCESS_BELOW", &valid);
        const int threshold = valid ? below : kInProcessBoxes;
        layouts->setInProcessBelow(threshold);
        layouts->setWorker(QCoreApplication::applicationFilePath(), {}, /*startNow=*/threshold <= 0);
    }
    // Graphviz loads its plugins on its first layout: done now, with two boxes, while the window
    // is built and the file opened, so the first file's layout pays only for itself (issue 27).
    layouts->warmUp();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("See what ExecuTorch really did with your model. Subcommands: etscope --help"));
    parser.addPositionalArgument(QStringLiteral("files"),
        QStringLiteral("ExecuTorch files to open (.pte, .bpte, .ptd); ETDumps (.etdp), ETRecords and Inspector tables "
                       "(.csv/.tsv) after a program are attached to it"),
        QStringLiteral("[FILE…]"));
    const QCommandLineOption timingsOption(QStringLiteral("timings"),
        QStringLiteral("Print how long each phase of opening takes (startup, open, graph, layout, scene, first-paint, "
                       "etdump-page, attach: debug data named after the program shown, attach-stall, heat-table, "
                       "longest-stall) and, from a click to the paint of its result, group-open, delegate-expand, "
                       "delegate-tab and search-jump (each with its longest stall, <phase>-stall) to stderr"));
    const QCommandLineOption quitOption(QStringLiteral("quit-after-paint"),
        QStringLiteral("Exit right after the first file's first view is painted and the debug data named with it is "
                       "shown (exit 1 when it cannot be opened)"));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
        QStringLiteral("Colours for this run: system, light or dark (default: the one chosen in View › Theme)"),
        QStringLiteral("system|light|dark"));
    const QCommandLineOption logOption(QStringLiteral("log"),
        QStringLiteral("Print debug lines of these categories to stderr, comma-separated: %1, or all "
                       "(QT_LOGGING_RULES works too; see docs/troubleshooting.md)")
            .arg(etscope::ui::loggingCategoryNames().join(QStringLiteral(", "))),
        QStringLiteral("CATEGORY[,…]"));
    parser.addOption(timingsOption);
    parser.addOption(logOption);
    parser.addOption(quitOption);
    parser.addOption(themeOption);
    parser.process(application);
    const auto theme = parser.isSet(themeOption) ? etscope::ui::themeFromName(parser.value(themeOption))
                                                 : std::optional(etscope::ui::savedTheme());
    if (!theme) {
        std::fprintf(stderr, "etscope: --theme takes system, light or dark, not \"%s\"\n",
            qUtf8Printable(parser.value(themeOption)));
        return 1;
    }
    if (parser.isSet(logOption)) {
        if (const QString unknown = etscope::ui::enableLogging(parser.values(logOption).join(QLatin1Char(',')));
            !unknown.isEmpty()) {
            std::fprintf(stderr, "etscope: --log takes %s or all, not \"%s\"\n",
                qUtf8Printable(etscope::ui::loggingCategoryNames().join(QStringLiteral(", "))),
                qUtf8Printable(unknown));
            return 1;
        }
    }
    etscope::ui::applyTheme(*theme);
    etscope::ui::timings::setEnabled(parser.isSet(timingsOption));
    // The stall watch wakes the event loop continuously (a zero-interval timer): it runs only
    // under --timings, and only until the first open ends, painted or failed (issue 27 #11: after
    // a failed open it used to spin a core forever).
    etscope::ui::StallWatch stalls;
    const bool timed = parser.isSet(timingsOption);
    if (timed)
        stalls.start();

    etscope::ui::MainWindow window;
    // The window is shown with the first file's graph drawn (or its error page, or a page
    // without a graph), not first with the "Opening…" page and then with "Laying out…": each of
    // those was a paint of the whole window, replaced a few ms later, and on a small program
    // they were much of first-paint and the reason it was bimodal (issue 27: whether the open
    // and the layout finished before the window's first expose or after). A slow open or layout
    // still shows the window, with its progress and Cancel, after kShowOpeningAfterMs; without
    // files it is shown at once.
    constexpr int kShowOpeningAfterMs = 150;
    bool shown = false;
    const auto showWindow = [&window, &shown] {
        if (shown)
            return;
        shown = true;
        window.show();
    };
    QObject::connect(&window, &etscope::ui::MainWindow::documentOpened, &window, [&window, showWindow] {
        etscope::ui::DocumentView* view = window.currentView();
        const auto document = view ? view->controller()->document() : nullptr;
        if (!view || view->presentation() || !document || !document->program)
            showWindow();
        else
            QObject::connect(view, &etscope::ui::DocumentView::presentationShown, &window, showWindow);
    });
    QObject::connect(&window, &etscope::ui::MainWindow::documentFailed, &window, showWindow);
    QTimer::singleShot(kShowOpeningAfterMs, &window, showWindow);
    QTimer::singleShot(0, &window, [&] {
        etscope::ui::timings::report("startup", ageAtMain + etscope::ui::timings::millisecondsSince(sinceMain));
    });
    bool painted = false;
    bool finished = false;
    // Done when the first file is painted and the debug data named with it (etscope prog.pte
    // table.csv) is attached and shown: the stall watch covers attaching (issue 27 #13).
    const auto finishIfDone = [&] {
        if (finished || !painted || window.pendingAttachments() > 0)
            return;
        finished = true;
        if (timed) {
            stalls.stop();
            etscope::ui::timings::report("longest-stall", stalls.longestMs());
        }
        if (parser.isSet(quitOption))
            QCoreApplication::exit(0);
    };
    QObject::connect(&window, &etscope::ui::MainWindow::firstPainted, &window, [&] {
        if (painted)
            return;
        painted = true;
        layouts->startHelper();
        finishIfDone();
    });
    // Not drawn soon (a large file, a failed open, none given): the helper starts anyway.
    constexpr int kHelperAfterMs = 1000;
    QTimer::singleShot(kHelperAfterMs, layouts, &etscope::ui::LayoutService::startHelper);
    // The longest stall while the debug data named with the file is read and shown, from the
    // end of the open (the first view built) on: attach-stall.
    etscope::ui::StallWatch attachStalls;
    QObject::connect(&window, &etscope::ui::MainWindow::documentOpened, &window, [&] {
        if (timed && !finished && window.pendingAttachments() > 0)
            attachStalls.start();
    });
    QObject::connect(&window, &etscope::ui::MainWindow::attachmentsShown, &window, [&] {
        etscope::ui::timings::report("attach", etscope::ui::timings::millisecondsSince(sinceMain));
        if (timed && attachStalls.running()) {
            attachStalls.stop();
            etscope::ui::timings::report("attach-stall", attachStalls.longestMs());
        }
        finishIfDone();
    });
    QObject::connect(
        &window, &etscope::ui::MainWindow::documentFailed, &window, [&](const QString& path, const QString& message) {
            if (painted)
                return;
            if (timed)
                stalls.stop();
            if (!parser.isSet(quitOption))
                return;
            std::fprintf(stderr, "etscope: %s\n", qUtf8Printable(message.isEmpty() ? path : message));
            QCoreApplication::exit(1);
        });
    const QStringList files = parser.positionalArguments();
    window.setDemoProgram(etscope::app::demoProgramPath());
    window.openFiles(files);
    // The window is shown once the file is drawn: meanwhile, while a worker reads it, its
    // backing store is made ready (issue 27), in the event loop's first turn, after the stall
    // watch's first tick (a timer: QTimer::singleShot(0) posts an event, which runs before it).
    QTimer prepare;
    prepare.setSingleShot(true);
    QObject::connect(&prepare, &QTimer::timeout, &window, &etscope::ui::MainWindow::prepareFirstPaint);
    if (!files.isEmpty())
        prepare.start(0);
    if (files.isEmpty()) {
        const QString demo = etscope::app::demoProgramPath(); // also offered by the start page
        if (!demo.isEmpty())
            window.openFile(demo, QObject::tr("bundled demo"));
        else
            showWindow(); // nothing to open: the empty window at once
    }
    return application.exec();
}
