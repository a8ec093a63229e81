// SPDX-License-Identifier: MIT
// `etscope gap --stage` (issue 24, part 3): the stages table in each format, the plot as PNG and
// SVG, and each bad input. Fixtures: the writer's MLP written float-portable, quantized-portable
// and XNNPACK-delegated (core/writer/debug/gapfixtures.h; the quantized and lowered runs off by 4
// at logits[0], the last addmm: portable #4, quantized #8, lowered #1), and real generated
// ETDumps.
#include "tests/common/clirun.h"
#include "tests/common/testsupport.h"

#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>

using json = nlohmann::json;
using etscope::test::CliRun;
using etscope::test::runEtscope;

namespace {

QString sample(const std::string& relative)
{
    return QString::fromStdString(etscope::test::samplePath(relative));
}

/// Pixels of exactly `colour` (the lines' and points' interiors are drawn in it, unblended).
int pixelsOf(const QImage& image, QRgb colour)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += (image.pixel(x, y) & 0xffffff) == (colour & 0xffffff) ? 1 : 0;
    return count;
}

} // namespace

class TestStageCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::map<std::string, QString> m_stage; ///< build → "PTE:ETDP:ETRECORD"

private slots:
    void initTestCase()
    {
        using namespace etscope::core;
        QVERIFY(m_dir.isValid());
        // To look at the plots: ETSCOPE_KEEP_TEST_FILES=1 keeps the directory and names it.
        if (qEnvironmentVariableIsSet("ETSCOPE_KEEP_TEST_FILES")) {
            m_dir.setAutoRemove(false);
            qInfo("files kept in %s", qPrintable(m_dir.path()));
        }
        const GapFixtures fixtures = makeGapFixtures();
        for (const auto& [name, build] : { std::pair<std::string, const GapBuild*>("portable", &fixtures.portable),
                 std::pair<std::string, const GapBuild*>("quantized", &fixtures.quantized),
                 std::pair<std::string, const GapBuild*>("lowered", &fixtures.lowered) }) {
            const auto path = [&](const char* ext) { return m_dir.filePath(QString::fromStdString(name) + ext); };
            QVERIFY(!writeBytesToFile(path(".pte").toStdString(), writeProgram(build->program).value()));
            QVERIFY(!writeBytesToFile(path(".etdp").toStdString(), build->etdump));
            // The debug buffer beside its ETDump, named as --stage finds it: NAME.debug.bin.
            QVERIFY(!writeBytesToFile(path(".debug.bin").toStdString(), build->debugBuffer));
            QVERIFY(!writeBytesToFile(path(".etrecord").toStdString(), build->etrecord));
            m_stage[name] = path(".pte") + QLatin1Char(':') + path(".etdp");
            m_stage[name + "+record"] = m_stage[name] + QLatin1Char(':') + path(".etrecord");
        }
    }

    /// The three builds: a column pair per later stage, each stage's first divergence in the notes.
    void threeStagesTable()
    {
        const CliRun result = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_stage["quantized"], QStringLiteral("--stage"), m_stage["lowered"] });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QStringList lines = result.out.split(QLatin1Char('\n'));
        QVERIFY2(lines[0].contains(QStringLiteral("quantized.pte snr"))
                && lines[0].contains(QStringLiteral("lowered.pte matched_by")),
            qPrintable(lines[0]));
        QVERIFY2(result.out.contains(QStringLiteral("stage 1 quantized.pte first divergence: row 4, forward › #8 "
                                                    "aten::addmm.out (stage 0: forward › #4 aten::addmm.out)")),
            qPrintable(result.out));
        QVERIFY(result.out.contains(
            QStringLiteral("stage 2 lowered.pte first divergence: row 4, forward › #1 aten::addmm.out")));
        // With the ETRecords, the lowered pairs come from the debug handles.
        const CliRun records = runEtscope(
            { QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable+record"], QStringLiteral("--stage"),
                m_stage["lowered+record"], QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(records.exitCode == 0, qPrintable(records.err));
        const json table = json::parse(records.out.toStdString());
        QCOMPARE(table.at("rows").size(), std::size_t(7));
        // Rows 0-2 (addmm relu addmm) run inside the XNNPACK delegate, which logs only its
        // output: empty cells, a problem saying so.
        QCOMPARE(table.at("rows")[0].at("lowered.pte snr").get<std::string>(), std::string());
        QCOMPARE(table.at("rows")[0].at("lowered.pte problem").get<std::string>(),
            std::string("no partner logged by this stage"));
        // Row 3, the second relu: the delegate's output (its Clamp), computed in float by both
        // builds on the same numbers: identical, SNR inf, which JSON gives as null.
        QVERIFY(table.at("rows")[3].at("lowered.pte snr").is_null());
        QCOMPARE(table.at("rows")[3].at("lowered.pte problem").get<std::string>(), std::string());
        QCOMPARE(table.at("rows")[4].at("lowered.pte matched_by").get<std::string>(), std::string("debug handle"));
        QVERIFY(table.at("rows")[4].at("lowered.pte snr").is_number());
    }

    /// CSV to a file (-o) with another metric: the header, and nothing on stdout.
    void csvToFile()
    {
        const QString out = m_dir.filePath(QStringLiteral("stages.csv"));
        const CliRun result = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_stage["quantized"], QStringLiteral("--metric"), QStringLiteral("maxabs"),
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("-o"), out });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QByteArray text = etscope::test::readFile(out);
        QVERIFY2(
            text.startsWith("#,node,instruction,output,shape,dtype,quantized.pte maxabs,quantized.pte matched_by\n"),
            text.constData());
        // Row 0: the first addmm, identical: maxabs 0.
        QVERIFY2(text.contains("\n0,#0 aten::addmm.out,0,0,\"[1, 8]\",FLOAT,0,execution order\n"), text.constData());
    }

    /// --plot PNG: a non-empty image with both later stages' line colours; SVG too.
    void plotPngAndSvg()
    {
        const QString png = m_dir.filePath(QStringLiteral("stages.png"));
        const CliRun result = runEtscope(
            { QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"], QStringLiteral("--stage"),
                m_stage["quantized"], QStringLiteral("--stage"), m_stage["lowered"], QStringLiteral("--plot"), png });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(QStringLiteral("quantized.pte snr"))); // the table still goes to stdout
        QImage image(png);
        QVERIFY2(!image.isNull(), qPrintable(png));
        QVERIFY(image.width() >= 1000 && image.height() >= 500);
        // ui/stageplot/stageplot.cpp, stageLineColour: line 0 (stage 1) #0072b2, line 1 (stage 2) #d55e00.
        QVERIFY2(pixelsOf(image, qRgb(0, 114, 178)) > 100, "no pixels of the quantized stage's blue");
        QVERIFY2(pixelsOf(image, qRgb(213, 94, 0)) > 100, "no pixels of the lowered stage's vermilion");

        const QString svg = m_dir.filePath(QStringLiteral("stages.svg"));
        const CliRun vector = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_stage["quantized"], QStringLiteral("--plot"), svg });
        QVERIFY2(vector.exitCode == 0, qPrintable(vector.err));
        const QByteArray text = etscope::test::readFile(svg);
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("#0072b2"));
        QVERIFY(text.contains("identical) drawn at"));
    }

    /// A real generated ETDump against itself: no divergence, every compared row identical.
    void realRunAgainstItself()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const QString stage = sample("djl-executorch-engine/stress_mlp.pte") + QLatin1Char(':')
            + sample("generated/stress_mlp/stress_mlp.intermediates.etdp");
        const QString png = m_dir.filePath(QStringLiteral("self.png"));
        const CliRun result
            = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), stage, QStringLiteral("--stage"), stage,
                QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--plot"), png });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const json table = json::parse(result.out.toStdString());
        // 16 rows, as `gap --reference-program` lists this run against itself (tst_debugcli):
        // the 15 logged outputs of the 14 instructions and the program output.
        QCOMPARE(table.at("rows").size(), std::size_t(16));
        for (const json& row : table.at("rows"))
            QVERIFY(row.at("stress_mlp.pte (2) snr").is_null()); // inf: identical
        bool none = false;
        for (const json& note : table.at("notes"))
            none = none
                || note.get<std::string>().rfind(
                       "stage 1 stress_mlp.pte (2) first divergence: none (16 output(s) compared", 0)
                    == 0;
        QVERIFY2(none, table.at("notes").dump().c_str());
        QVERIFY(pixelsOf(QImage(png), qRgb(0, 114, 178)) > 100);
    }

    /// Bad input: each names what did not match.
    void badInput()
    {
        const CliRun one = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"] });
        QCOMPARE(one.exitCode, 1);
        QVERIFY2(one.err.contains(QStringLiteral("give at least two --stage")), qPrintable(one.err));

        const CliRun shape = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), QStringLiteral("only.pte") });
        QCOMPARE(shape.exitCode, 1);
        QVERIFY2(
            shape.err.contains(QStringLiteral("--stage only.pte: expected PROGRAM:ETDUMP or PROGRAM:ETDUMP:ETRECORD")),
            qPrintable(shape.err));
        const CliRun colons = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), QStringLiteral("a:b:c:d") });
        QCOMPARE(colons.exitCode, 1);
        QVERIFY(colons.err.contains(QStringLiteral("a path holding ':' cannot be given to --stage")));

        const CliRun missing = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_dir.filePath(QStringLiteral("quantized.pte:/nonexistent/q.etdp")) });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("/nonexistent/q.etdp")), qPrintable(missing.err));

        const CliRun mixed = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_stage["quantized"], QStringLiteral("--etdump"), QStringLiteral("x.etdp") });
        QCOMPARE(mixed.exitCode, 1);
        QVERIFY(mixed.err.contains(QStringLiteral("--etdump does not go with --stage")));

        // A method stage 0 lacks: named with the methods it has.
        const CliRun method = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_stage["quantized"], QStringLiteral("--method"), QStringLiteral("decode") });
        QCOMPARE(method.exitCode, 1);
        QVERIFY2(method.err.contains(QStringLiteral("portable.pte: no method 'decode' (it has forward)")),
            qPrintable(method.err));

        const CliRun plot = runEtscope(
            { QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"], QStringLiteral("--stage"),
                m_stage["quantized"], QStringLiteral("--plot"), m_dir.filePath(QStringLiteral("p.gif")) });
        QCOMPARE(plot.exitCode, 1);
        QVERIFY(plot.err.contains(QStringLiteral("give a file ending in .png or .svg")));
    }

    /// --plot onto a name a folder holds: the atomic writer's error (the temporary file renamed
    /// over a folder: rename(2) EISDIR), no temporary file left beside it, the folder untouched.
    /// Written with QFile it said "cannot write: " with Qt's text instead, as no export does.
    void plotOntoAFolder()
    {
        const QString taken = m_dir.filePath(QStringLiteral("taken.png"));
        QVERIFY(QDir().mkpath(taken));
        const CliRun result = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), m_stage["quantized"], QStringLiteral("--plot"), taken });
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(QStringLiteral("etscope gap: ") + taken
                     + QStringLiteral(": cannot replace the file: Is a directory\n")),
            qPrintable(result.err));
        QVERIFY(QFileInfo(taken).isDir());
        const QStringList beside = QDir(m_dir.path())
                                       .entryList({ QStringLiteral("*taken.png*") },
                                           QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
        QCOMPARE(beside, QStringList { QStringLiteral("taken.png") });
    }

    /// A stage given another model's ETRecord: the warning ops, gap and profile give (issue 27),
    /// naming that stage's files; the stage with its own record says nothing. etrecord.bin is a
    /// mul model's (its edge graph: one aten.mul.Tensor, SOURCES.md); the quantized MLP runs
    /// addmm, relu and the quantize ops (gapfixtures.h), none of them mul.
    void stageWithAnotherModelsRecord()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const QString record = sample("executorch/etrecord.bin");
        const CliRun result = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable+record"],
            QStringLiteral("--stage"), m_stage["quantized"] + QLatin1Char(':') + record });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.err.contains(QStringLiteral("etscope gap: warning: not used: ") + record
                     + QStringLiteral(" does not look like the ETRecord of ")
                     + m_dir.filePath(QStringLiteral("quantized.pte"))
                     + QStringLiteral(": its edge graph of 'forward' shares no operator with the program's kernels\n")),
            qPrintable(result.err));
        QCOMPARE(result.err.count(QStringLiteral("does not look like the ETRecord")), 1);
    }

    /// A stage whose program is another model (the generated add against the MLP): a warning
    /// naming its files, empty cells, exit 0.
    void stageOfAnotherModel()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const QString add
            = sample("executorch/add.pte") + QLatin1Char(':') + sample("generated/add/add.intermediates.etdp");
        const CliRun result = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"), m_stage["portable"],
            QStringLiteral("--stage"), add, QStringLiteral("--stage"), m_stage["quantized"] });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(
            result.err.contains(QStringLiteral("stage 1 (") + sample("executorch/add.pte")), qPrintable(result.err));
        QVERIFY2(
            result.err.contains(QStringLiteral("the programs look like different models")), qPrintable(result.err));
        QVERIFY(result.err.contains(
            QStringLiteral("have no partner in ") + sample("generated/add/add.intermediates.etdp")));
        // The quantized stage is still compared.
        QVERIFY(result.out.contains(QStringLiteral("stage 2 quantized.pte first divergence: row 4, forward › #8")));
    }
    /// An Inspector table as stage 0 (issue 24 #3, the eager/AOT reference): the table's AOT
    /// values for handles 1 (addmm #0) and 3 (addmm #2) of the portable program, exactly what
    /// the portable run logs (float32, gapfixtures.cpp) except +2 at element 0 of handle 3's
    /// [1, 8] output; the runtime column holds other numbers and is not read. By hand: row 0
    /// maxabs 0, row 1 maxabs 2 (up to float32 rounding), which crosses maxabs=1.
    void inspectorTableStage()
    {
        using namespace etscope::core;
        const GapFixtures f = makeGapFixtures();
        const auto printed = [](std::vector<double> values, double plant) {
            std::string text = "tensor([[";
            char number[40];
            for (std::size_t i = 0; i < values.size(); ++i) {
                std::snprintf(number, sizeof number, "%.17g",
                    static_cast<double>(static_cast<float>(values[i])) + (i ? 0 : plant));
                text += (i ? ", " : "") + std::string(number);
            }
            return text + "]])";
        };
        const std::string csv = std::string(",aot_debug_handle,aot_ops,aot_intermediate_output,runtime_ops,"
                                            "runtime_debug_handle,runtime_intermediate_output,gap\n")
            + "0,\"(1,)\",['aten_linear_default'],\"" + printed(f.h0, 0)
            + "\",['native_call_addmm.out'],\"(1,)\",\"tensor([[7.]])\",[0.0]\n"
            + "1,\"(3,)\",['aten_linear_default_1'],\"" + printed(f.h1, 2)
            + "\",['native_call_addmm.out'],\"(3,)\",\"tensor([[7.]])\",[0.0]\n";
        const QString table = m_dir.filePath(QStringLiteral("aot.csv"));
        QVERIFY(!writeBytesToFile(table.toStdString(), std::vector<std::uint8_t>(csv.begin(), csv.end())));
        const QString pte = m_dir.filePath(QStringLiteral("portable.pte"));
        const QString record = m_dir.filePath(QStringLiteral("portable.etrecord"));
        const CliRun result = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"),
            pte + QLatin1Char(':') + table + QLatin1Char(':') + record, QStringLiteral("--stage"),
            m_stage["portable+record"], QStringLiteral("--metric"), QStringLiteral("maxabs"),
            QStringLiteral("--threshold"), QStringLiteral("maxabs=1"), QStringLiteral("--format"),
            QStringLiteral("json") });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const json out = json::parse(result.out.toStdString());
        QCOMPARE(out.at("rows").size(), std::size_t(2));
        QCOMPARE(out.at("rows")[0].at("node").get<std::string>(), std::string("#0 aten::addmm.out"));
        QCOMPARE(out.at("rows")[1].at("node").get<std::string>(), std::string("#2 aten::addmm.out"));
        QCOMPARE(out.at("rows")[0].at("portable.pte maxabs").get<double>(), 0.0);
        // The stage logs float32: the planted 2 after rounding float32(h1[0]) + 2 to float32.
        const double logged = static_cast<float>(f.h1[0]);
        QCOMPARE(out.at("rows")[1].at("portable.pte maxabs").get<double>(),
            static_cast<double>(static_cast<float>(logged + 2.0)) - logged);
        QCOMPARE(out.at("rows")[1].at("portable.pte matched_by").get<std::string>(), std::string("debug handle"));
        const std::string notes = out.at("notes").dump();
        QVERIFY2(
            notes.find("Inspector table aot.csv (aot_intermediate_output, 2 of 2 row(s) placed)") != std::string::npos,
            notes.c_str());
        QVERIFY2(notes.find("stage 1 portable.pte first divergence: row 1, forward › #2 aten::addmm.out")
                != std::string::npos,
            notes.c_str());

        // Bad input: a table whose rows land on no node of the program (handles it lacks): a
        // warning naming the table, an empty comparison, exit 0.
        const std::string other = std::string(",aot_debug_handle,aot_intermediate_output,runtime_debug_handle,gap\n")
            + "0,\"(97,)\",tensor([1.]),\"(97,)\",[0.0]\n";
        const QString otherTable = m_dir.filePath(QStringLiteral("other.csv"));
        QVERIFY(!writeBytesToFile(otherTable.toStdString(), std::vector<std::uint8_t>(other.begin(), other.end())));
        const CliRun nothing = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"),
            pte + QLatin1Char(':') + otherTable + QLatin1Char(':') + record, QStringLiteral("--stage"),
            m_stage["portable+record"] });
        QVERIFY2(nothing.exitCode == 0, qPrintable(nothing.err));
        QVERIFY2(nothing.err.contains(
                     QStringLiteral("other.csv: none of the 1 Inspector row(s) maps onto a node of method 'forward'")),
            qPrintable(nothing.err));
        // A table file that is not there: exit 2 naming it.
        const CliRun missing = runEtscope({ QStringLiteral("gap"), QStringLiteral("--stage"),
            pte + QStringLiteral(":missing.csv"), QStringLiteral("--stage"), m_stage["portable"] });
        QVERIFY(missing.exitCode != 0);
        QVERIFY2(missing.err.contains(QStringLiteral("missing.csv")), qPrintable(missing.err));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestStageCli)
#include "tst_stagecli.moc"
