// SPDX-License-Identifier: MIT
#include "cli/cli.h"
#include "demo.h"
#include "widgets/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>

#include <cstdio>

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

    QApplication application(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("ETScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ETScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ETSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("etscope"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/etscope/etscope.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("See what ExecuTorch really did with your model. Subcommands: etscope --help"));
    parser.addPositionalArgument(QStringLiteral("files"),
        QStringLiteral("ExecuTorch files to open (.pte, .bpte, .ptd); ETDumps (.etdp), ETRecords and Inspector tables "
                       "(.csv/.tsv) after a program are attached to it"),
        QStringLiteral("[FILE…]"));
    parser.process(application);

    etscope::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    window.openFiles(files);
    if (files.isEmpty()) {
        const QString demo = etscope::app::demoProgramPath();
        if (!demo.isEmpty())
            window.openFile(demo, QObject::tr("bundled demo"));
    }
    return application.exec();
}
