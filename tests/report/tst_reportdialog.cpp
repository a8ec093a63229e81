// SPDX-License-Identifier: MIT
// File › Export Report…: the sections chosen are the sections written, the choices come back
// the next time, the document's attached ETDump fills the profile, bad paths are refused; the
// export runs off the GUI thread (the event loop keeps turning), Cancel writes nothing and leaves
// an existing file as it was, and a second export while one runs is refused.
#include "core/document/document.h"
#include "core/fullreport/report.h"
#include "core/writer/transformermodels.h"
#include "tests/common/perturbedrun.h"
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"
#include "ui/document/debugsession.h"
#include "ui/document/timings.h"
#include "ui/load/kernellistchoice.h"
#include "ui/report/reportdialog.h"
#include "ui/report/reportrenderer.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>

using namespace etscope;

namespace {

/// Starts the dialog's export and waits for its end: the error ("" when written).
QString exportAndWait(ui::ReportDialog& dialog)
{
    QSignalSpy finished(&dialog, &ui::ReportDialog::exportFinished);
    if (const auto refused = dialog.startExport())
        return *refused;
    if (!finished.wait(120000))
        return QStringLiteral("the export did not finish in 120 s");
    return finished.front().at(1).toString();
}

/// Every figure of an HTML report can be seen: an inline SVG has a finite, positive viewBox; an
/// inline PNG has at least a quarter of a device pixel per CSS pixel it is shown at (a graph
/// squeezed into 16,000 px came out 73 px wide shown 1,351 px wide: a blank smear in Chromium).
/// Empty when so, else what is wrong.
QString illegibleFigure(const QByteArray& html)
{
    static const QRegularExpression figure(
        QStringLiteral("<figure id=\"([^\"]+)\"[^>]*>(.*?)</figure>"), QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression viewBox(QStringLiteral("viewBox=\"[-0-9.]+ [-0-9.]+ ([0-9.e+]+) ([0-9.e+]+)\""));
    static const QRegularExpression image(
        QStringLiteral("<img[^>]* width=\"([0-9]+)\" src=\"data:image/png;base64,([^\"]+)\""));
    const QString text = QString::fromUtf8(html);
    for (auto it = figure.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        const QString id = match.captured(1);
        const QString body = match.captured(2);
        if (body.contains(QStringLiteral("<svg"))) {
            const auto box = viewBox.match(body);
            if (!box.hasMatch())
                return id + QStringLiteral(": an SVG without a viewBox");
            const double width = box.captured(1).toDouble();
            const double height = box.captured(2).toDouble();
            if (!std::isfinite(width) || !std::isfinite(height) || width <= 0 || height <= 0)
                return id + QStringLiteral(": viewBox %1 × %2").arg(width).arg(height);
        }
        for (auto images = image.globalMatch(body); images.hasNext();) {
            const auto img = images.next();
            const QImage png = QImage::fromData(QByteArray::fromBase64(img.captured(2).toLatin1()), "PNG");
            const int shown = img.captured(1).toInt();
            if (png.isNull() || shown <= 0 || png.width() < shown / 4)
                return id
                    + QStringLiteral(": a PNG of %1 × %2 px shown %3 px wide")
                          .arg(png.width())
                          .arg(png.height())
                          .arg(shown);
        }
    }
    return {};
}

} // namespace

class TestReportDialog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    test::ScratchDir m_scratch;
    std::shared_ptr<const core::Document> m_document;
    std::shared_ptr<const core::Document> m_llm;

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true); // settings of this test only
        QCoreApplication::setOrganizationName(QStringLiteral("ETScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_reportdialog"));
        QSettings().clear();
        auto document = core::openDocument(test::samplePath("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(document);
        m_document = std::make_shared<const core::Document>(std::move(document).value());
        // A program long enough to be drawn as an overview with groups (more than 1,200 nodes):
        // its report has several pictures and takes long enough to see the event loop turn.
        core::LlmOptions options;
        options.instructions = 4000;
        auto llm = m_scratch.writeAndOpen(core::makeLlmProgram(options).program.spec, "llm.pte");
        QVERIFY(llm);
        m_llm = std::make_shared<const core::Document>(std::move(llm).value());
    }

    void chosenSectionsAreWrittenAndRemembered()
    {
        const QString path = m_dir.filePath(QStringLiteral("r.html"));
        {
            ui::ReportDialog dialog(m_document, nullptr);
            // Every section is checked the first time.
            QVERIFY(dialog.sections().count("graphs") && dialog.sections().count("size"));
            dialog.setSectionChecked("graphs", false);
            dialog.setSectionChecked("size", false);
            dialog.setPath(path);
            const QString error = exportAndWait(dialog);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(dialog.writtenPath(), path);
        }
        const QByteArray html = test::readFile(path);
        QVERIFY(html.contains("<section id=\"operators\">"));
        QVERIFY(html.contains("<section id=\"memory\">"));
        QVERIFY(!html.contains("<section id=\"graphs\">"));
        QVERIFY(!html.contains("<section id=\"size\">"));
        QVERIFY(!html.contains("<figure id=\"size\""));

        ui::ReportDialog again(m_document, nullptr);
        QVERIFY(!again.sections().count("graphs"));
        QVERIFY(again.sections().count("operators"));
        QCOMPARE(QFileInfo(again.path()).absolutePath(), QFileInfo(path).absolutePath());
    }

    void attachedRunFillsTheProfile()
    {
        ui::DebugSession session;
        QVERIFY(!ui::attach(session, ui::AttachKind::Run,
            QString::fromStdString(test::samplePath("generated/stress_mlp/stress_mlp.intermediates.etdp"))));
        ui::ReportDialog dialog(m_document, &session);
        dialog.setSectionChecked("profile", true);
        const QString path = m_dir.filePath(QStringLiteral("profile.md"));
        dialog.setPath(path);
        const QString error = exportAndWait(dialog);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString md = QString::fromUtf8(test::readFile(path));
        QVERIFY(md.contains(QStringLiteral("**Slowest operators of 'forward'**")));
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("profile-timeline.png"))));
    }

    void attachedRunAndReferenceNameTheFirstDivergence()
    {
        // Issue 38: File › Export Report… with a run and its reference attached wrote the gap
        // table but no first divergence. The run's outputs are changed from instruction 13 on
        // (v·1.7: SNR about 3.1 dB, under the default 20 dB), so the first divergence is
        // instruction 13's node, "#13 …" in its path; the graph picture carries its mark.
        const std::string reference = test::samplePath("generated/stress_mlp/stress_mlp.intermediates.etdp");
        auto real = core::readETDumpFile(reference);
        QVERIFY(real);
        QVERIFY(!core::attachDebugBufferOrDefault(real.value(), {}));
        auto perturbed = test::perturbFrom(real.value(), core::InstructionId(13), 1.7);
        QVERIFY(perturbed);
        const QString run = m_dir.filePath(QStringLiteral("perturbed.etdp"));
        QVERIFY(!test::writePerturbedRun(perturbed.value(), run.toStdString()));
        ui::DebugSession session;
        QVERIFY(!ui::attach(session, ui::AttachKind::Run, run));
        QVERIFY(!ui::attach(session, ui::AttachKind::Reference, QString::fromStdString(reference)));
        ui::ReportDialog dialog(m_document, &session);
        for (const char* id : { "graphs", "gap" })
            dialog.setSectionChecked(id, true);
        const QString path = m_dir.filePath(QStringLiteral("divergence.html"));
        dialog.setPath(path);
        const QString error = exportAndWait(dialog);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString html = QString::fromUtf8(test::readFile(path));
        static const QRegularExpression fact(QStringLiteral("First divergence</[^>]+>\\s*(?:<[^>]+>)*\\s*([^<]+)"));
        const auto named = fact.match(html);
        QVERIFY2(named.hasMatch(), "no first divergence in the report");
        QVERIFY2(named.captured(1).contains(QStringLiteral("#13 ")), qPrintable(named.captured(1)));
        QVERIFY(html.contains(QStringLiteral("Crossing")));
        QVERIFY(html.contains(QStringLiteral("snr ")));
        // The graph picture (inline SVG, text drawn as paths) carries the mark: its ring and badge
        // in the divergence colour (ui/common/nodestyle.cpp, #c81e96), which nothing else in a
        // report uses (a report of the run against itself has none).
        const qsizetype figure = html.indexOf(QStringLiteral("<figure id=\"graph-forward\""));
        QVERIFY(figure >= 0);
        const qsizetype end = html.indexOf(QStringLiteral("</figure>"), figure);
        QVERIFY2(html.mid(figure, end - figure).contains(QStringLiteral("#c81e96"), Qt::CaseInsensitive),
            "no mark in the graph picture");
    }

    void refusesWhatItCannotWrite()
    {
        ui::ReportDialog dialog(m_document, nullptr);
        dialog.setPath(m_dir.filePath(QStringLiteral("r.txt")));
        QVERIFY(dialog.startExport());
        QVERIFY(!dialog.isExporting());
        for (const auto& [id, title] : core::reportSectionIds())
            dialog.setSectionChecked(id, false);
        dialog.setPath(m_dir.filePath(QStringLiteral("r.html")));
        QVERIFY(dialog.startExport()); // no section chosen
        QVERIFY(!dialog.isExporting());
    }

    void anUnwritablePathIsNamedInTheError()
    {
        ui::ReportDialog dialog(m_document, nullptr);
        const QString path = m_dir.filePath(QStringLiteral("no-such-folder/r.html"));
        dialog.setPath(path);
        const QString error = exportAndWait(dialog);
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    /// The event loop keeps turning while the report is built and written: a 5 ms timer fires
    /// throughout, and the longest gap between two turns (ui::StallWatch, the app's --timings
    /// measure) is well below what the same report costs the GUI thread when built and written on
    /// it (the dialog before this change: buildReport and writeReport in accept()).
    void exportKeepsTheEventLoopTurning()
    {
        const QString path = m_dir.filePath(QStringLiteral("llm.html"));
        // Before: everything on the GUI thread, one stall as long as the whole export.
        QElapsedTimer synchronous;
        synchronous.start();
        {
            core::ReportInputs inputs;
            inputs.document = m_llm.get();
            // The lists the dialog uses (automatic: the document's own runtime).
            const auto lists = ui::KernelListChoice::instance().listsFor(m_llm.get());
            inputs.kernels = lists.get();
            core::Report report = core::buildReport(inputs);
            QVERIFY(!ui::writeReport(report, m_llm, m_dir.filePath(QStringLiteral("llm-sync.html"))));
        }
        const double synchronousMs = static_cast<double>(synchronous.nsecsElapsed()) / 1e6;

        ui::ReportDialog dialog(m_llm, nullptr);
        dialog.setPath(path);
        QSignalSpy finished(&dialog, &ui::ReportDialog::exportFinished);
        QSignalSpy progress(&dialog, &ui::ReportDialog::exportProgress);
        int ticks = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
        ui::StallWatch stalls;
        stalls.start();
        ticker.start();
        QElapsedTimer asynchronous;
        asynchronous.start();
        QVERIFY(!dialog.startExport());
        // startExport returned at once: nothing is written yet, the analyses run on a worker.
        QVERIFY(dialog.isExporting());
        QVERIFY(!QFile::exists(path));
        QVERIFY(finished.wait(120000));
        const double asynchronousMs = static_cast<double>(asynchronous.nsecsElapsed()) / 1e6;
        stalls.stop();
        ticker.stop();
        QCOMPARE(finished.front().at(1).toString(), QString());
        QVERIFY(QFile::exists(path));
        const QString problem = illegibleFigure(test::readFile(path));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qInfo("synchronous export (GUI thread blocked throughout) %.0f ms; exporting from the dialog %.0f ms, "
              "longest event-loop stall %.0f ms, timer ticks %d",
            synchronousMs, asynchronousMs, stalls.longestMs(), ticks);
        QVERIFY2(ticks >= 5, qPrintable(QString::number(ticks)));
        QVERIFY2(stalls.longestMs() < synchronousMs / 2,
            qPrintable(QStringLiteral("stall %1 ms, synchronous %2 ms").arg(stalls.longestMs()).arg(synchronousMs)));
        // Progress named the analyses' steps ("… (k of 14)"), then each picture, n of m.
        QVERIFY(progress.size() >= 3);
        int firstPicture = -1;
        for (int i = 0; i < progress.size() && firstPicture < 0; ++i)
            if (progress.at(i).at(0).toString().startsWith(QStringLiteral("Picture ")))
                firstPicture = i;
        QVERIFY(firstPicture >= 1);
        QVERIFY(progress.at(firstPicture).at(0).toString().startsWith(QStringLiteral("Picture 1 of ")));
        for (int i = 1; i < firstPicture; ++i)
            QVERIFY2(progress.at(i).at(0).toString().contains(QStringLiteral(" of 14)…")),
                qPrintable(progress.at(i).at(0).toString()));
    }

    /// A graph far too tall for one bitmap (a 3,000-node XNNPACK call opened inside its method)
    /// is drawn as something legible or its figure says why; never a smear.
    void aTallGraphIsLegibleOrExplained()
    {
        core::LlmOptions options;
        options.instructions = 300; // drawn whole (under 1,200 nodes), with the big call in it
        options.largeDelegateNodes = 3000;
        auto tall = m_scratch.writeAndOpen(core::makeLlmProgram(options).program.spec, "tall.pte");
        QVERIFY(tall);
        const auto document = std::make_shared<const core::Document>(std::move(tall).value());
        core::ReportInputs inputs;
        inputs.document = document.get();
        inputs.sections = { "graphs" };
        inputs.expand = "XnnpackBackend";
        core::Report report = core::buildReport(inputs);
        QVERIFY(!report.pictures.empty());
        const QString path = m_dir.filePath(QStringLiteral("tall.html"));
        const auto error = ui::writeReport(report, document, path);
        QVERIFY2(!error, error ? qPrintable(*error) : "");
        const QByteArray html = test::readFile(path);
        const QString problem = illegibleFigure(html);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // The forward graph was drawn, or its figure names its size and the reason.
        const auto& forward = report.pictures.front();
        qInfo("tall graph: %d × %d, %zu bytes inline, %s", forward.width, forward.height, forward.svg.size(),
            forward.failed.c_str());
        QVERIFY2(
            !forward.svg.empty() || QString::fromStdString(forward.failed).contains(QStringLiteral(" px, too large")),
            forward.failed.c_str());
        // Markdown (PNG files): a drawn picture's PNG is under 16,000 px a side and at least a
        // quarter of a pixel per pixel of the size the report shows it at.
        core::Report again = core::buildReport(inputs);
        ui::ReportDrawings drawings;
        drawings.format = "md";
        ui::drawReportPictureFor(again, 0, document, drawings);
        // The graph's bitmap is painted when the file is written (off the GUI thread): its SVG and
        // the scale it will be painted at are kept until then.
        if (const auto vector = drawings.vector.find(again.pictures.front().id); vector != drawings.vector.end()) {
            const QSizeF size = QSvgRenderer(vector->second.svg).viewBoxF().size() * vector->second.scale;
            QVERIFY(size.width() <= 16000 && size.height() <= 16000);
            QVERIFY2(size.width() * 4 >= again.pictures.front().width,
                qPrintable(QStringLiteral("%1 px for %2").arg(size.width()).arg(again.pictures.front().width)));
        } else {
            QVERIFY(!again.pictures.front().failed.empty());
        }
    }

    void chartsArePaintedWhenTheFileIsWritten()
    {
        core::ReportInputs inputs;
        inputs.document = m_llm.get();
        inputs.sections = { "memory", "size" };
        core::Report report = core::buildReport(inputs);
        ui::ReportDrawings drawings;
        drawings.format = "md";
        for (std::size_t index = 0; index < report.pictures.size(); ++index)
            ui::drawReportPictureFor(report, index, m_llm, drawings);
        QVERIFY(report.pictures.size() >= 2); // a memory chart and the treemap at least
        QVERIFY(drawings.png.empty());
        for (const core::ReportPicture& picture : report.pictures) {
            const auto bitmap = drawings.bitmaps.find(picture.id);
            QVERIFY2(bitmap != drawings.bitmaps.end(), picture.id.c_str());
            QCOMPARE(bitmap->second.size(), QSize(picture.width * 2, picture.height * 2));
        }

        // Cancelled: nothing written.
        std::atomic<bool> cancel { true };
        std::vector<QString> written;
        const QString path = m_dir.filePath(QStringLiteral("charts.md"));
        QVERIFY(ui::finishReport(report, m_llm, path, drawings, &written, &cancel));
        QVERIFY(written.empty());

        cancel = false;
        const auto error = ui::finishReport(report, m_llm, path, drawings, &written, &cancel);
        QVERIFY2(!error, error ? qPrintable(*error) : "");
        QCOMPARE(written.size(), report.pictures.size() + 1); // the PNGs and the Markdown
        for (const core::ReportPicture& picture : report.pictures) {
            const QImage image(QFileInfo(path).dir().filePath(QString::fromStdString(picture.file)));
            QCOMPARE(image.size(), QSize(picture.width * 2, picture.height * 2));
            // Painted, not a blank sheet: some pixel is not white.
            bool inked = false;
            for (int y = 0; y < image.height() && !inked; y += 4)
                for (int x = 0; x < image.width() && !inked; x += 4)
                    inked = image.pixel(x, y) != qRgb(255, 255, 255);
            QVERIFY2(inked, picture.id.c_str());
        }
    }

    /// Before/after numbers on a large program named by ETSCOPE_REPORT_STALL_PROGRAM (skipped
    /// without it): the synchronous export's duration (the old dialog froze that long) and the
    /// longest event-loop stall while the dialog exports (ETSCOPE_REPORT_STALL_KERNELS: kernel
    /// lists, e.g. "quantized", so that a long method's groups with problems are drawn too).
    void stallOnAGivenProgram()
    {
        const QString program = qEnvironmentVariable("ETSCOPE_REPORT_STALL_PROGRAM");
        if (program.isEmpty())
            QSKIP("set ETSCOPE_REPORT_STALL_PROGRAM to a program to measure");
        auto opened = core::openDocument(program.toStdString());
        QVERIFY(opened);
        const auto document = std::make_shared<const core::Document>(std::move(opened).value());
        const QString kernels = qEnvironmentVariable("ETSCOPE_REPORT_STALL_KERNELS");
        if (!kernels.isEmpty())
            ui::KernelListChoice::instance().setBuiltins(kernels.split(QLatin1Char(',')));
        for (const QString& suffix : { QStringLiteral("html"), QStringLiteral("pdf") }) {
            const QString path = m_dir.filePath(QStringLiteral("given.") + suffix);
            QElapsedTimer synchronous;
            synchronous.start();
            {
                core::ReportInputs inputs;
                inputs.document = document.get();
                const auto lists = ui::KernelListChoice::instance().listsFor(document.get());
                inputs.kernels = lists.get();
                core::Report report = core::buildReport(inputs);
                QVERIFY(!ui::writeReport(report, document, m_dir.filePath(QStringLiteral("given-sync.") + suffix)));
            }
            const double synchronousMs = static_cast<double>(synchronous.nsecsElapsed()) / 1e6;
            ui::ReportDialog dialog(document, nullptr);
            dialog.setPath(path);
            ui::StallWatch stalls;
            stalls.start();
            QElapsedTimer asynchronous;
            asynchronous.start();
            const QString error = exportAndWait(dialog);
            stalls.stop();
            QVERIFY2(error.isEmpty(), qPrintable(error));
            qInfo("%s as %s: synchronous %.0f ms (the stall before); dialog %.0f ms, longest stall %.0f ms",
                qPrintable(QFileInfo(program).fileName()), qPrintable(suffix), synchronousMs,
                static_cast<double>(asynchronous.nsecsElapsed()) / 1e6, stalls.longestMs());
        }
    }

    void cancelWritesNothingAndKeepsTheOldFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("cancelled.html"));
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("the report from before");
        old.close();
        ui::ReportDialog dialog(m_llm, nullptr);
        dialog.setPath(path);
        QSignalSpy finished(&dialog, &ui::ReportDialog::exportFinished);
        QVERIFY(!dialog.startExport());
        QVERIFY(dialog.isExporting());
        dialog.reject(); // the Cancel button while exporting: stops the export, the dialog stays
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.front().at(2).toBool(), true);
        QVERIFY(!dialog.isExporting());
        QVERIFY(dialog.writtenPath().isEmpty());
        QCOMPARE(test::readFile(path), QByteArray("the report from before"));
        // No temporary file left beside it either.
        QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("cancelled*") }, QDir::Files),
            QStringList { QStringLiteral("cancelled.html") });

        // Cancelled while drawing the pictures (after the analyses).
        const QString drawn = m_dir.filePath(QStringLiteral("cancelled-drawing.md"));
        dialog.setPath(drawn);
        finished.clear();
        QSignalSpy progress(&dialog, &ui::ReportDialog::exportProgress);
        connect(&dialog, &ui::ReportDialog::exportProgress, &dialog, [&dialog](const QString&, int done, int) {
            if (done == 1)
                dialog.cancelExport();
        });
        QVERIFY(!dialog.startExport());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.front().at(2).toBool(), true);
        QVERIFY(!QFile::exists(drawn));
        QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("cancelled-drawing*") }, QDir::Files).isEmpty());
    }

    void aSecondExportWhileOneRunsIsRefused()
    {
        ui::ReportDialog first(m_llm, nullptr);
        first.setPath(m_dir.filePath(QStringLiteral("first.html")));
        ui::ReportDialog second(m_document, nullptr);
        second.setPath(m_dir.filePath(QStringLiteral("second.html")));
        QSignalSpy finished(&first, &ui::ReportDialog::exportFinished);
        QVERIFY(!first.startExport());
        const auto again = first.startExport();
        QVERIFY(again && again->contains(QStringLiteral("already")));
        const auto other = second.startExport();
        QVERIFY(other && other->contains(QStringLiteral("already")));
        QVERIFY(!second.isExporting());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.front().at(1).toString(), QString());
        // Once it ended, the next one may start.
        const QString error = exportAndWait(second);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void closingTheDialogMidExportWritesNothing()
    {
        const QString path = m_dir.filePath(QStringLiteral("closed.html"));
        {
            ui::ReportDialog dialog(m_llm, nullptr);
            dialog.setPath(path);
            QVERIFY(!dialog.startExport());
        }
        // The worker ends on its own and frees the slot: the next export starts.
        ui::ReportDialog next(m_document, nullptr);
        next.setPath(m_dir.filePath(QStringLiteral("next.html")));
        QTRY_VERIFY_WITH_TIMEOUT(!ui::ReportDialog::anyExportRunning(), 120000);
        const QString error = exportAndWait(next);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }

    /// Cancel while the analyses run (their step shown: "Analysing llm.pte: section …"): the
    /// export ends cancelled without drawing a picture, and nothing is written.
    void cancelDuringTheAnalysesWritesNothing()
    {
        // Independent of the machine's speed (issue 38: in a Release build the analyses ended
        // before a cancel sent on their progress arrived): the worker is held at the third of
        // the 12 analysis steps until the cancel is made.
        const QString path = m_dir.filePath(QStringLiteral("analyses-cancelled.html"));
        ui::ReportDialog dialog(m_llm, nullptr);
        dialog.setPath(path);
        std::atomic<bool> held { false };
        std::atomic<int> stepTotal { 0 };
        QSemaphore resume;
        dialog.setAnalysisStepObserver([&](int done, int total) {
            if (done == 2 && !held.exchange(true)) {
                stepTotal = total;
                resume.acquire();
            }
        });
        QSignalSpy finished(&dialog, &ui::ReportDialog::exportFinished);
        QStringList steps;
        connect(
            &dialog, &ui::ReportDialog::exportProgress, &dialog, [&](const QString& text, int, int) { steps << text; });
        QVERIFY(!dialog.startExport());
        QVERIFY(QTest::qWaitFor([&] { return held.load(); }, 120000));
        dialog.cancelExport();
        resume.release();
        QVERIFY(finished.wait(120000));
        QCOMPARE(stepTotal.load(), 14);
        QCOMPARE(finished.front().at(2).toBool(), true);
        QVERIFY(std::none_of(steps.begin(), steps.end(),
            [](const QString& step) { return step.startsWith(QStringLiteral("Picture ")); }));
        QVERIFY(!QFile::exists(path));
        QVERIFY(QDir(m_dir.path()).entryList({ QStringLiteral("analyses-cancelled*") }, QDir::Files).isEmpty());
    }

    /// "Compare with baseline…": the chosen program fills the changes section (its file size is
    /// the one on disk), the choice comes back next time, and is forgotten once the file is gone.
    /// Without a baseline that section cannot be chosen.
    void baselineIsChosenRememberedAndForgotten()
    {
        // The baseline: the same writer's LLM with fewer instructions (a smaller file).
        core::LlmOptions options;
        options.instructions = 3000;
        QVERIFY(m_scratch.writeAndOpen(core::makeLlmProgram(options).program.spec, "llm-old.pte"));
        const QString old = QString::fromStdString(m_scratch.path("llm-old.pte"));
        const QString current = QString::fromStdString(m_llm->path);
        const QString path = m_dir.filePath(QStringLiteral("baseline.md"));
        {
            ui::ReportDialog dialog(m_llm, nullptr);
            QVERIFY(dialog.baseline().isEmpty());
            QVERIFY(!dialog.sections().count("baseline"));
            dialog.setBaseline(old);
            QVERIFY(dialog.sections().count("baseline")); // enabled and checked once a baseline is set
            for (const auto& [id, title] : core::reportSectionIds())
                dialog.setSectionChecked(id, id == "summary" || id == "baseline");
            dialog.setPath(path);
            const QString error = exportAndWait(dialog);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        const QString md = QString::fromUtf8(test::readFile(path));
        QVERIFY(md.contains(QStringLiteral("## Changes against the baseline")));
        // (Markdown escapes the path's underscores: its file name has none.)
        QVERIFY2(md.contains(QStringLiteral("A (baseline): "))
                && md.contains(QStringLiteral("/llm-old.pte; B (this report): ")),
            qPrintable(md.mid(md.indexOf(QStringLiteral("## Changes")))));
        // The "file" row of the sizes table: the two files' sizes as the file system gives them.
        const QString fileRow
            = QStringLiteral("| file | %1 | %2 |").arg(QFileInfo(old).size()).arg(QFileInfo(current).size());
        QVERIFY2(md.contains(fileRow),
            qPrintable(fileRow + QStringLiteral(" in\n") + md.mid(md.indexOf(QStringLiteral("## Changes")))));
        {
            ui::ReportDialog again(m_llm, nullptr);
            QCOMPARE(again.baseline(), QFileInfo(old).absoluteFilePath());
            QVERIFY(again.sections().count("baseline"));
            again.setBaseline({});
            QVERIFY(!again.sections().count("baseline"));
        }
        QVERIFY(QFile::remove(old));
        {
            ui::ReportDialog gone(m_llm, nullptr);
            QVERIFY(gone.baseline().isEmpty());
            QVERIFY(!gone.sections().count("baseline"));
            QVERIFY(!QSettings().contains(QLatin1String(ui::ReportDialog::kBaselineKey)));
        }
        QSettings().clear(); // the next tests start with every section
    }
};

ETSCOPE_TEST_MAIN(TestReportDialog)
#include "tst_reportdialog.moc"
