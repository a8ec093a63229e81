// SPDX-License-Identifier: MIT
// `etscope report` end to end, as a CI job runs it: the HTML opened by headless Chromium from
// disk with the network off (no console error, the script ran, SVG and tables present, a
// screenshot in the output folder), the PDF read back page by page with pdftotext/pdftoppm,
// the Markdown with its PNG files, and bad inputs left out while the rest is written.
//
// Chromium and poppler-utils are CI packages (.ci/install-deps). Locally a missing tool skips
// the test that needs it, saying so; with CI set in the environment it fails instead.
//
// Facts of stress_mlp.pte are those of tst_reportmodel.cpp (flatc over its bytes): one method
// `forward`, 12 KernelCalls (aten::clamp.out twice, …) and 2 XnnpackBackend DelegateCalls; the
// decoded delegates hold 10 XNNFullyConnected nodes (tests/delegates check the XNNPACK payloads).
#include "tests/common/clirun.h"
#include "tests/common/perturbedrun.h"

#include "core/debug/etdump.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using etscope::test::runEtscope;
using etscope::test::sampleArgument;

namespace {

struct ToolRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

ToolRun runTool(const QString& program, const QStringList& arguments, int timeoutMs = 90000)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        return { -2, {}, "timed out" };
    }
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -3, process.readAllStandardOutput(),
        process.readAllStandardError() };
}

/// The tool's path; empty when it is missing (the caller skips, or fails under CI).
QString tool(const QString& name)
{
    return QStandardPaths::findExecutable(name);
}

bool underCi()
{
    return !qEnvironmentVariableIsEmpty("CI");
}

QString outputDir()
{
    QDir().mkpath(QStringLiteral(ETSCOPE_TEST_OUTPUT_DIR));
    return QStringLiteral(ETSCOPE_TEST_OUTPUT_DIR);
}

#define REQUIRE_TOOL(variable, name)                                                                                   \
    const QString variable = tool(QStringLiteral(name));                                                               \
    do {                                                                                                               \
        if (variable.isEmpty()) {                                                                                      \
            if (underCi())                                                                                             \
                QFAIL(name " is not installed (.ci/install-deps installs it)");                                        \
            QSKIP(                                                                                                     \
                name " is not installed here: install it (apt-get install chromium poppler-utils) to run this test");  \
        }                                                                                                              \
    } while (false)

/// How far down the body of each page of `pdf` its content reaches, from 0 (empty) to 1 (to
/// the footer's rule): the page drawn by pdftoppm in grey at 48 dpi, the lowest row with a
/// dark pixel between the header's rule and the footer's. The body's edges are the renderer's
/// page: A4 (297 mm) with 12-mm margins, a 28-px header and a 24-px footer at 96 px per inch.
/// Empty when pdftoppm failed.
std::vector<double> pageFills(const QString& pdftoppm, const QString& pdf, const QString& prefix)
{
    constexpr double kDpi = 48;
    const ToolRun run
        = runTool(pdftoppm, { QStringLiteral("-r"), QString::number(kDpi), QStringLiteral("-gray"), pdf, prefix });
    if (run.exitCode != 0)
        return {};
    const double pixelsPerMm = kDpi / 25.4;
    const double pixelsPerPx = kDpi / 96;
    const int bodyTop = static_cast<int>(std::ceil(12 * pixelsPerMm + 28 * pixelsPerPx)) + 1;
    const int bodyBottom = static_cast<int>(std::floor(285 * pixelsPerMm - 24 * pixelsPerPx)) - 1;
    std::vector<double> fills;
    const QFileInfo info(prefix);
    QStringList files = info.dir().entryList({ info.fileName() + QStringLiteral("-*.pgm") }, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        // Binary PGM: "P5\n<width> <height>\n<max>\n" then one byte a pixel.
        const QByteArray bytes = etscope::test::readFile(info.dir().filePath(name));
        const QList<QByteArray> head = bytes.left(64).split('\n');
        if (head.size() < 4 || head[0] != "P5")
            return {};
        const QList<QByteArray> size = head[1].split(' ');
        const int width = size.value(0).toInt();
        const int height = size.value(1).toInt();
        const qsizetype start = head[0].size() + head[1].size() + head[2].size() + 3;
        if (width <= 0 || height <= bodyBottom || bytes.size() < start + qsizetype(width) * height)
            return {};
        int lowest = bodyTop;
        for (int y = bodyTop; y < bodyBottom; ++y) {
            const auto* row = reinterpret_cast<const unsigned char*>(bytes.constData() + start + qsizetype(y) * width);
            if (std::any_of(row, row + width, [](unsigned char grey) { return grey < 200; }))
                lowest = y;
        }
        fills.push_back(static_cast<double>(lowest - bodyTop) / (bodyBottom - bodyTop));
        QFile::remove(info.dir().filePath(name));
    }
    return fills;
}

QStringList stressInputs()
{
    return { QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
        sampleArgument("generated/stress_mlp/stress_mlp.intermediates.etdp"),
        sampleArgument("generated/stress_mlp/stress_mlp.outputs.etdp") };
}

/// Chromium from disk with the network off: no proxy reachable, no host resolves, no GPU.
QStringList chromiumArguments(const QString& profile)
{
    return { QStringLiteral("--headless"), QStringLiteral("--disable-gpu"), QStringLiteral("--no-sandbox"),
        QStringLiteral("--user-data-dir=") + profile, QStringLiteral("--proxy-server=127.0.0.1:9"),
        QStringLiteral("--host-resolver-rules=MAP * ~NOTFOUND"), QStringLiteral("--no-first-run"),
        QStringLiteral("--disable-extensions"), QStringLiteral("--disable-background-networking") };
}

} // namespace

class TestReportCommand : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    /// stress_mlp's PDF report with both ETDumps, written once for the tests that read it (empty
    /// when etscope failed, its error printed).
    QString stressPdf() const
    {
        const QString pdf = path(QStringLiteral("stress.pdf"));
        if (QFileInfo::exists(pdf))
            return pdf;
        const auto run = runEtscope(stressInputs() << QStringLiteral("-o") << pdf);
        if (run.exitCode == 0)
            return pdf;
        qWarning("%s", qPrintable(run.err));
        return {};
    }

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
    }

    void htmlInChromium()
    {
        REQUIRE_TOOL(chromium, "chromium");
        const QString html = path(QStringLiteral("stress.html"));
        const auto run = runEtscope(stressInputs() << QStringLiteral("-o") << html);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QByteArray bytes = etscope::test::readFile(html);
        // stress_mlp with both ETDumps stays well under 2 MB.
        QVERIFY2(bytes.size() > 10000 && bytes.size() <= 2 * 1024 * 1024, qPrintable(QString::number(bytes.size())));
        QVERIFY(!bytes.contains("src=\"http"));

        const QString url = QUrl::fromLocalFile(html).toString();
        // The DOM after the page ran: the zoom script adds its buttons, so they prove it ran.
        QStringList dom = chromiumArguments(path(QStringLiteral("profile-dom")));
        dom << QStringLiteral("--enable-logging=stderr") << QStringLiteral("--v=0") << QStringLiteral("--dump-dom")
            << url;
        const ToolRun dumped = runTool(chromium, dom);
        QCOMPARE(dumped.exitCode, 0);
        QVERIFY2(!dumped.err.contains("Uncaught"), dumped.err.constData());
        // Console messages Chromium logs as errors: none.
        static const QRegularExpression consoleError(QStringLiteral("CONSOLE\\(\\d+\\)\\].*(Error|error|Refused)"));
        QVERIFY2(!consoleError.match(QString::fromUtf8(dumped.err)).hasMatch(), dumped.err.constData());
        QVERIFY(dumped.out.contains("<svg"));
        QVERIFY(dumped.out.contains("<table>"));
        QVERIFY(dumped.out.contains("class=\"tools\"")); // the script ran
        QVERIFY(dumped.out.contains("id=\"graph-forward\""));
        QVERIFY(dumped.out.contains("XNNFullyConnected"));
        for (const char* section : { "summary", "graphs", "operators", "load", "memory", "size", "profile", "gap" })
            QVERIFY2(dumped.out.contains(QByteArray("<section id=\"") + section + "\""), section);

        const QString screenshot = QDir(outputDir()).filePath(QStringLiteral("report-stress_mlp.png"));
        QFile::remove(screenshot);
        QStringList shot = chromiumArguments(path(QStringLiteral("profile-shot")));
        shot << QStringLiteral("--screenshot=") + screenshot << QStringLiteral("--window-size=1280,2400")
             << QStringLiteral("--hide-scrollbars") << url;
        const ToolRun shotRun = runTool(chromium, shot);
        QCOMPARE(shotRun.exitCode, 0);
        QVERIFY2(QFileInfo(screenshot).size() > 20000, qPrintable(screenshot));
        QVERIFY(etscope::test::readFile(screenshot).startsWith("\x89PNG"));
    }

    void pdfPageByPage()
    {
        REQUIRE_TOOL(pdftotext, "pdftotext");
        REQUIRE_TOOL(pdftoppm, "pdftoppm");
        const QString pdf = stressPdf();
        QVERIFY(!pdf.isEmpty());
        QVERIFY(etscope::test::readFile(pdf).startsWith("%PDF-"));

        // Page by page: the header and "Page N of M" on each, M the same everywhere.
        QStringList pages;
        for (int page = 1; page <= 40; ++page) {
            const ToolRun text = runTool(pdftotext,
                { QStringLiteral("-layout"), QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                    QString::number(page), pdf, QStringLiteral("-") });
            if (text.exitCode != 0)
                break; // past the last page
            // The PDF's fonts set "fi" and "fl" as ligatures; read them back as letters.
            pages << QString::fromUtf8(text.out)
                         .replace(QChar(0xFB01), QStringLiteral("fi"))
                         .replace(QChar(0xFB02), QStringLiteral("fl"));
        }
        QVERIFY2(pages.size() >= 6, qPrintable(QString::number(pages.size())));
        for (int i = 0; i < pages.size(); ++i) {
            QVERIFY2(pages[i].contains(QStringLiteral("ETScope report: stress_mlp.pte")), qPrintable(pages[i]));
            QVERIFY2(
                pages[i].contains(QStringLiteral("Page %1 of %2").arg(i + 1).arg(pages.size())), qPrintable(pages[i]));
        }
        // Sections start pages; the operator table's rows read in order.
        const QString all = pages.join(QStringLiteral("\n"));
        for (const char* title :
            { "Summary", "Graphs", "Operators", "Will it load", "Memory plan", "File size", "Profile", "Numeric gap" })
            QVERIFY2(all.contains(QLatin1String(title)), title);
        static const QRegularExpression fullyConnected(QStringLiteral("XNNFullyConnected\\s+10\\s+0"));
        QVERIFY2(fullyConnected.match(all).hasMatch(), qPrintable(all));
        static const QRegularExpression clamp(QStringLiteral("aten::clamp\\.out\\s+0\\s+2"));
        QVERIFY(clamp.match(all).hasMatch());

        // The first page as a picture, kept in the output folder.
        // pdftoppm pads page numbers to the page count's width (-1 or -01): clear an earlier
        // run's pictures so only this run's two are counted.
        for (const QString& old : QDir(outputDir()).entryList({ QStringLiteral("report-stress_mlp-pdf-*.png") }))
            QFile::remove(QDir(outputDir()).filePath(old));
        const QString prefix = QDir(outputDir()).filePath(QStringLiteral("report-stress_mlp-pdf"));
        const ToolRun picture = runTool(pdftoppm,
            { QStringLiteral("-r"), QStringLiteral("60"), QStringLiteral("-png"), QStringLiteral("-f"),
                QStringLiteral("1"), QStringLiteral("-l"), QStringLiteral("2"), pdf, prefix });
        QCOMPARE(picture.exitCode, 0);
        const QStringList written = QDir(outputDir()).entryList({ QStringLiteral("report-stress_mlp-pdf-*.png") });
        QVERIFY2(written.size() == 2, qPrintable(written.join(QLatin1Char(' '))));
    }

    /// The PDF uses its pages: a picture that does not fit the rest of a page is cut there and
    /// goes on at the top of the next (stress_mlp's 1,466-px-wide graph, in two columns, took
    /// three pages, the last nearly empty). Every page is at least half full but the last of a
    /// section (sections start pages), and no section takes a page more than its content needs:
    /// its pages' fills (measured on the rendered pages) add up to more than one page less.
    /// (Main before this change: the Graphs section's pages filled 61%, 98%, 54%.)
    void pdfPagesAreFilled()
    {
        REQUIRE_TOOL(pdftotext, "pdftotext");
        REQUIRE_TOOL(pdftoppm, "pdftoppm");
        const QString pdf = stressPdf();
        QVERIFY(!pdf.isEmpty());
        const std::vector<double> fills = pageFills(pdftoppm, pdf, path(QStringLiteral("fill")));
        QVERIFY(!fills.empty());
        const int pages = static_cast<int>(fills.size());
        // Which pages start a section: the first line under the header is its title.
        const QStringList titles { QStringLiteral("Summary"), QStringLiteral("Graphs"), QStringLiteral("Operators"),
            QStringLiteral("Will it load"), QStringLiteral("Memory plan"), QStringLiteral("File size"),
            QStringLiteral("Profile"), QStringLiteral("Numeric gap"), QStringLiteral("Cost"),
            QStringLiteral("Why on the CPU") };
        std::vector<bool> startsSection(fills.size() + 1, true); // past the last page: ends it
        for (int page = 1; page <= pages; ++page) {
            const ToolRun text = runTool(pdftotext,
                { QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"), QString::number(page), pdf,
                    QStringLiteral("-") });
            QCOMPARE(text.exitCode, 0);
            QStringList lines = QString::fromUtf8(text.out)
                                    .replace(QChar(0xFB01), QStringLiteral("fi"))
                                    .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            lines.removeIf([](const QString& line) {
                return line.trimmed().isEmpty() || line.startsWith(QLatin1String("ETScope report:"))
                    || line.startsWith(QLatin1String("etscope report"));
            });
            const QString first = lines.value(0).trimmed();
            startsSection[static_cast<std::size_t>(page - 1)] = page == 1
                || std::any_of(titles.begin(), titles.end(),
                    [&](const QString& title) { return first.startsWith(title) && first.size() <= title.size() + 1; });
        }
        QStringList seen;
        for (int i = 0; i < pages; ++i)
            seen << QStringLiteral("page %1: %2%3")
                        .arg(i + 1)
                        .arg(qRound(fills[static_cast<std::size_t>(i)] * 100))
                        .arg(startsSection[static_cast<std::size_t>(i)] ? QStringLiteral("% (section)")
                                                                        : QStringLiteral("%"));
        const QString all = seen.join(QStringLiteral(", "));
        qInfo("%s", qPrintable(all));
        // The page count: each section takes ⌈its content⌉ pages, the sum of its pages' fills.
        int sectionStart = 0;
        int expectedPages = 0;
        for (int i = 0; i < pages; ++i) {
            const bool lastOfSection = startsSection[static_cast<std::size_t>(i + 1)];
            if (!lastOfSection) {
                QVERIFY2(fills[static_cast<std::size_t>(i)] >= 0.5, qPrintable(all));
                // The Graphs section (the second) goes on to the next page only after a piece of
                // the graph cut at the room left: it fills its page but for the 8-px slack and
                // the part's label line (24 px) of the 979-px body.
                if (sectionStart == 1)
                    QVERIFY2(fills[static_cast<std::size_t>(i)] >= 0.95, qPrintable(all));
                continue;
            }
            double content = 0;
            for (int j = sectionStart; j <= i; ++j)
                content += fills[static_cast<std::size_t>(j)];
            expectedPages += static_cast<int>(std::ceil(content));
            sectionStart = i + 1;
        }
        QVERIFY2(pages == expectedPages,
            qPrintable(QStringLiteral("%1 pages for %2 of content: ").arg(pages).arg(expectedPages) + all));
        QVERIFY2(std::count(startsSection.begin(), startsSection.end() - 1, true) == titles.size(), qPrintable(all));
        // The graph: two columns, each in one piece at its readable size (no "row" cut).
        const ToolRun text = runTool(pdftotext, { pdf, QStringLiteral("-") });
        QVERIFY(text.out.contains("part 2 of 2"));
        QVERIFY2(!text.out.contains(", row "), text.out.constData());
    }

    /// A graph far wider than a page (etscope-synth --shape wide: 31 parallel branches) is not
    /// shrunk to an unreadable strip: its PDF shows it in overlapping columns at two thirds of
    /// its size (the 12 px operator names stay at 6 pt; 5 pt where that saves a page), each
    /// labelled "part i of n", on A4 portrait pages.
    void aWideGraphIsTiledInThePdf()
    {
        REQUIRE_TOOL(pdftotext, "pdftotext");
        REQUIRE_TOOL(pdfinfo, "pdfinfo");
        const QString program = path(QStringLiteral("wide.pte"));
        const ToolRun synth = runTool(QStringLiteral(ETSCOPE_SYNTH),
            { QStringLiteral("--shape"), QStringLiteral("wide"), QStringLiteral("--instructions"), QStringLiteral("92"),
                QStringLiteral("-o"), program });
        QVERIFY2(synth.exitCode == 0, synth.err.constData());
        // The graph's width, as the HTML report draws it (the SVG's viewBox).
        const QString html = path(QStringLiteral("wide.html"));
        auto run = runEtscope({ QStringLiteral("report"), program, QStringLiteral("--sections"),
            QStringLiteral("graphs"), QStringLiteral("-o"), html });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        static const QRegularExpression viewBox(QStringLiteral("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\""));
        const auto box = viewBox.match(QString::fromUtf8(etscope::test::readFile(html)));
        QVERIFY(box.hasMatch());
        const double width = box.captured(1).toDouble();
        // The page body: A4 less 14 mm margins each side, 210 − 28 = 182 mm, at 96 px per inch.
        const double body = std::floor(182.0 / 25.4 * 96.0);
        QVERIFY2(width > 3 * body, qPrintable(QString::number(width))); // wide indeed
        // Columns of body / scale px, a tenth overlapping: ⌈(width − tile/10) / (tile · 9/10)⌉,
        // at 2/3 (6-pt names), or down to 5/9 (5 pt) where that saves a page.
        const auto columnsAt = [&](double scale) {
            const double tile = std::floor(body / scale);
            return static_cast<int>(std::ceil((width - tile / 10) / (tile * 0.9)));
        };
        const int least = columnsAt(5.0 / 9); // wider columns, fewer of them
        const int most = columnsAt(2.0 / 3);

        const QString pdf = path(QStringLiteral("wide.pdf"));
        run = runEtscope({ QStringLiteral("report"), program, QStringLiteral("--sections"), QStringLiteral("graphs"),
            QStringLiteral("-o"), pdf });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const ToolRun info = runTool(
            pdfinfo, { QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"), QStringLiteral("100"), pdf });
        QCOMPARE(info.exitCode, 0);
        static const QRegularExpression pagesLine(QStringLiteral("Pages:\\s+([0-9]+)"));
        const int pages = pagesLine.match(QString::fromUtf8(info.out)).captured(1).toInt();
        // Every page A4 portrait (595 × 842 pt).
        static const QRegularExpression a4(QStringLiteral("Page +[0-9]+ size: +595 x 842 pts \\(A4\\)"));
        QCOMPARE(static_cast<int>(QString::fromUtf8(info.out).count(a4)), pages);
        const ToolRun text = runTool(pdftotext, { QStringLiteral("-layout"), pdf, QStringLiteral("-") });
        QCOMPARE(text.exitCode, 0);
        const QString all = QString::fromUtf8(text.out);
        static const QRegularExpression firstPart(QStringLiteral("part 1 of ([0-9]+) \\(x "));
        const int parts = firstPart.match(all).captured(1).toInt();
        QVERIFY2(parts >= least && parts <= most, qPrintable(QStringLiteral("%1 parts").arg(parts)));
        // Two columns fit a page at most (each 5/9 of the graph's height at least, plus its label).
        QVERIFY2(pages >= (parts + 1) / 2, qPrintable(QString::fromUtf8(info.out)));
        int at = 0;
        for (int i = 1; i <= parts; ++i) {
            const QString label = QStringLiteral("part %1 of %2 (x ").arg(i).arg(parts);
            const int found = all.indexOf(label, at);
            QVERIFY2(found >= 0, qPrintable(label + QStringLiteral(" in\n") + all));
            at = found;
        }
        QVERIFY(!all.contains(QStringLiteral("part %1 of").arg(parts + 1)));
    }

    /// Issue 33: `--device` names the device in "Will it load" (the section and the summary)
    /// and answers per delegate: tinycnn_u55.pte's Vela stream is for an Ethos-U55 (target
    /// "ethos-u55-128", byte 29696), Corstone-320 has an Ethos-U85: does not fit.
    void reportNamesTheDevice()
    {
        const QString md = path(QStringLiteral("device/tinycnn.md"));
        QDir().mkpath(path(QStringLiteral("device")));
        const auto run = runEtscope({ QStringLiteral("report"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--sections"), QStringLiteral("summary,load"), QStringLiteral("--device"),
            QStringLiteral("corstone-320"), QStringLiteral("-o"), md });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString text = QString::fromUtf8(etscope::test::readFile(md));
        QVERIFY2(text.contains(QStringLiteral("Device: Arm Corstone-320 FVP")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("does not fit (1 of 1 delegates)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Delegates on Arm Corstone-320 FVP")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("On Arm Corstone-320 FVP")), qPrintable(text)); // the summary's line
        // A device the program fits: Corstone-300 (Ethos-U55, MACs chosen at launch).
        const QString fits = path(QStringLiteral("device/fits.md"));
        const auto good = runEtscope({ QStringLiteral("report"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--sections"), QStringLiteral("load"), QStringLiteral("--device"),
            QStringLiteral("corstone-300"), QStringLiteral("-o"), fits });
        QVERIFY2(good.exitCode == 0, qPrintable(good.err));
        QVERIFY2(
            QString::fromUtf8(etscope::test::readFile(fits)).contains(QStringLiteral("): fits (1 of 1 delegates)")),
            qPrintable(QString::fromUtf8(etscope::test::readFile(fits))));
        // An unknown device and --device with --kernels are usage errors (exit 1).
        const auto unknown = runEtscope({ QStringLiteral("report"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--device"), QStringLiteral("nope"), QStringLiteral("-o"), fits });
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains(QStringLiteral("corstone-320")), qPrintable(unknown.err)); // names the ids
        const auto both = runEtscope({ QStringLiteral("report"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--device"), QStringLiteral("corstone-320"), QStringLiteral("--preset"),
            QStringLiteral("portable"), QStringLiteral("-o"), fits });
        QCOMPARE(both.exitCode, 1);
    }

    void markdownWithPicturesBeside()
    {
        const QString md = path(QStringLiteral("md/stress.md"));
        QDir().mkpath(path(QStringLiteral("md")));
        const auto run = runEtscope(stressInputs() << QStringLiteral("-o") << md);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString text = QString::fromUtf8(etscope::test::readFile(md));
        QVERIFY(text.startsWith(QStringLiteral("# ETScope report: stress\\_mlp.pte")));
        QVERIFY(text.contains(QStringLiteral("| op_type | occurrences_in_delegated_graphs |")));
        static const QRegularExpression link(QStringLiteral("!\\[[^\\]]*\\]\\(([^)]+\\.png)\\)"));
        int links = 0;
        for (auto match = link.globalMatch(text); match.hasNext(); ++links) {
            const QString file = QDir(path(QStringLiteral("md"))).filePath(match.next().captured(1));
            QVERIFY2(etscope::test::readFile(file).startsWith("\x89PNG"), qPrintable(file));
        }
        QCOMPARE(links, 4); // the graph, arena 1, the treemap, the timeline
    }

    void reportNamesTheFirstDivergenceGapNames()
    {
        // Issue 38: `etscope report stress_mlp.pte run.etdp reference.etdp` wrote the gap table
        // but not the first divergence. The run is stress_mlp's intermediates with every output
        // from instruction 13 on changed (v·1.7: SNR about 3.1 dB, under the default 20 dB);
        // the report must name the node `gap --first-divergence` names, with its crossing and
        // thresholds, and mark it on the graph picture.
        const std::string reference
            = sampleArgument("generated/stress_mlp/stress_mlp.intermediates.etdp").toStdString();
        auto real = etscope::core::readETDumpFile(reference);
        QVERIFY(real);
        QVERIFY(!etscope::core::attachDebugBufferOrDefault(real.value(), {}));
        auto perturbed = etscope::test::perturbFrom(real.value(), etscope::core::InstructionId(13), 1.7);
        QVERIFY(perturbed);
        const QString run = path(QStringLiteral("perturbed/run.etdp"));
        QDir().mkpath(path(QStringLiteral("perturbed")));
        QVERIFY(!etscope::test::writePerturbedRun(perturbed.value(), run.toStdString()));
        const QString program = sampleArgument("djl-executorch-engine/stress_mlp.pte");

        const auto gap = runEtscope({ QStringLiteral("gap"), program, QStringLiteral("--etdump"), run,
            QStringLiteral("--reference"), QString::fromStdString(reference), QStringLiteral("--first-divergence") });
        QVERIFY2(gap.exitCode == 0, qPrintable(gap.err));
        // "first divergence: row N, forward › …" then "  <crossing> (thresholds: …)".
        static const QRegularExpression firstLine(
            QStringLiteral("^first divergence: row \\d+, (.+)$"), QRegularExpression::MultilineOption);
        const auto named = firstLine.match(gap.out);
        QVERIFY2(named.hasMatch(), qPrintable(gap.out));
        const QString nodePath = named.captured(1);
        static const QRegularExpression crossingLine(
            QStringLiteral("^  (.+) \\(thresholds: (.+)\\)$"), QRegularExpression::MultilineOption);
        const auto crossing = crossingLine.match(gap.out);
        QVERIFY2(crossing.hasMatch(), qPrintable(gap.out));
        QVERIFY(crossing.captured(1).startsWith(QStringLiteral("snr ")));

        const QString md = path(QStringLiteral("perturbed/report.md"));
        const auto markdown = runEtscope(
            { QStringLiteral("report"), program, run, QString::fromStdString(reference), QStringLiteral("-o"), md });
        QVERIFY2(markdown.exitCode == 0, qPrintable(markdown.err));
        const QString text = QString::fromUtf8(etscope::test::readFile(md));
        // Markdown escapes its punctuation with a backslash ("\#13", "\< 20 dB").
        const auto escaped = [](const QString& t) {
            QString out;
            for (const QChar c : t)
                out += (QStringView(u"*_`[]<>#|\\").contains(c) ? QStringLiteral("\\") : QString()) + c;
            return out;
        };
        QVERIFY2(text.contains(QStringLiteral("- **First divergence**: ") + escaped(nodePath)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("- **Crossing**: ") + escaped(crossing.captured(1))));
        QVERIFY(text.contains(QStringLiteral("- **Thresholds**: ") + escaped(crossing.captured(2))));

        // The HTML's graph picture (inline SVG) carries the mark's badge.
        const QString html = path(QStringLiteral("perturbed/report.html"));
        const auto page = runEtscope(
            { QStringLiteral("report"), program, run, QString::fromStdString(reference), QStringLiteral("-o"), html });
        QVERIFY2(page.exitCode == 0, qPrintable(page.err));
        const QString content = QString::fromUtf8(etscope::test::readFile(html));
        // The graph picture (inline SVG, text drawn as paths) carries the mark: its ring and badge
        // in the divergence colour (ui/common/nodestyle.cpp, #c81e96), which nothing else in a
        // report uses (a report of the run against itself has none).
        const qsizetype figure = content.indexOf(QStringLiteral("<figure id=\"graph-forward\""));
        QVERIFY(figure >= 0);
        const qsizetype end = content.indexOf(QStringLiteral("</figure>"), figure);
        QVERIFY2(content.mid(figure, end - figure).contains(QStringLiteral("#c81e96"), Qt::CaseInsensitive),
            "no mark in the graph picture");
    }

    void badInputsLeaveTheirSectionOut()
    {
        // A damaged ETDump: the first 64 bytes of a real one (its identifier intact).
        const QByteArray dump
            = etscope::test::readFile(sampleArgument("generated/stress_mlp/stress_mlp.intermediates.etdp"));
        const QString damaged = path(QStringLiteral("damaged.etdp"));
        QFile file(damaged);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(dump.left(64));
        file.close();
        const QString html = path(QStringLiteral("bad.html"));
        const auto run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            damaged, path(QStringLiteral("missing.etdp")), QStringLiteral("-o"), html });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("warning: ")) && run.err.contains(QStringLiteral("damaged.etdp")),
            qPrintable(run.err));
        QVERIFY(run.err.contains(QStringLiteral("missing.etdp")));
        // The damaged first ETDump was the run: the profile is left out; the missing second was
        // the reference: the gap is left out. Neither moves into the other's place.
        QVERIFY(run.err.contains(QStringLiteral("(profile left out)")));
        QVERIFY(run.err.contains(QStringLiteral("(gap left out)")));
        const QString text = QString::fromUtf8(etscope::test::readFile(html));
        QVERIFY(text.contains(QStringLiteral("<b>Left out:</b>")));
        QVERIFY(text.contains(QStringLiteral("damaged.etdp")));
        QVERIFY(text.contains(QStringLiteral("<section id=\"graphs\">")));
        QVERIFY(text.contains(QStringLiteral("<svg")));
    }

    void atomicAndUsageErrors()
    {
        // A folder that does not exist: nothing written, exit 2.
        const QString nowhere = path(QStringLiteral("no/such/folder/r.html"));
        auto run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("-o"), nowhere });
        QCOMPARE(run.exitCode, 2);
        QVERIFY(!QFile::exists(nowhere));
        // The error names the missing folder, not a picture the report would have put in it.
        QVERIFY2(run.err.contains(QStringLiteral("no/such/folder' does not exist")), qPrintable(run.err));
        // An existing report stays whole when the new one fails (a program that cannot be read).
        const QString kept = path(QStringLiteral("kept.html"));
        QFile file(kept);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("old");
        file.close();
        run = runEtscope({ QStringLiteral("report"), path(QStringLiteral("missing.pte")), QStringLiteral("-o"), kept });
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(etscope::test::readFile(kept), QByteArray("old"));
        run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("-o"), path(QStringLiteral("r.txt")) });
        QCOMPARE(run.exitCode, 1);
        run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte") });
        QCOMPARE(run.exitCode, 1);
        run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--sections"), QStringLiteral("summary,nope"), QStringLiteral("-o"),
            path(QStringLiteral("s.html")) });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains(QStringLiteral("unknown section 'nope'")));
        run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--expand"), QStringLiteral("NoSuchBackend"), QStringLiteral("-o"),
            path(QStringLiteral("s.html")) });
        QCOMPARE(run.exitCode, 1);
        // --sections keeps only those (and draws only their pictures).
        run = runEtscope({ QStringLiteral("report"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--sections"), QStringLiteral("summary,size"), QStringLiteral("-o"),
            path(QStringLiteral("s.html")) });
        QCOMPARE(run.exitCode, 0);
        const QByteArray some = etscope::test::readFile(path(QStringLiteral("s.html")));
        QVERIFY(some.contains("<section id=\"size\">") && !some.contains("<section id=\"graphs\">"));
        QCOMPARE(some.count("<figure"), 1);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestReportCommand)
#include "tst_reportcommand.moc"
