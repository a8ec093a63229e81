// SPDX-License-Identifier: MIT
// The debug side of the CLI as a script would use it: `info` on ETDumps and ETRecords, `ops
// --etrecord`, and every path of `gap` (exit codes 0/1/2, one-line errors naming the file).
//
// Why one file: one test class running the etscope binary's debug commands as a script would; its
// cases share the runner, the sample paths and the duration parsing at the top.
#include "tests/common/clirun.h"

#include "core/debug/etdump.h"
#include "core/writer/debug/etrecordwriter.h"
#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using nlohmann::json;

namespace {

using Run = etscope::test::CliRun;

Run run(const QStringList& arguments)
{
    return etscope::test::runEtscope(arguments);
}

QString sample(const std::string& relative)
{
    return etscope::test::sampleArgument(relative);
}

QString generated(const std::string& relative)
{
    return sample("generated/" + relative);
}

/// Kernel durations in ms per (event name or delegate identifier, instruction) over the
/// Execute blocks, read with the project's own ETDump reader.
std::map<std::pair<std::string, int>, std::vector<double>> rawDurations(const QString& path)
{
    std::map<std::pair<std::string, int>, std::vector<double>> durations;
    auto dump = etscope::core::readETDumpFile(path.toStdString());
    if (!dump)
        return durations;
    for (const std::size_t b : dump->executeBlocks())
        for (const etscope::core::ProfileEvent& e : dump->runs[b].profileEvents)
            if (!e.isFramework())
                durations[{ e.name.empty() ? e.delegateIdentifier() : e.name, e.instructionId.value }].push_back(
                    static_cast<double>(e.duration()) / 1e6);
    return durations;
}

/// The linear-interpolation median of a handful of samples, written out by hand.
double median(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

QString writeText(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(text);
    return path;
}

} // namespace

class TestDebugCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void helpNamesGap()
    {
        const Run help = run({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        for (const char* word : { "etscope gap PROGRAM", "--etdump", "--reference", "--inspector-table",
                 "--bundled-reference", "--etrecord", "--metric", "--run N", "--reference-run N", "--test-case N",
                 "etscope profile PROGRAM --etdump A.etdp", "non_finite", "inf, -inf and nan" })
            QVERIFY2(help.out.contains(QLatin1String(word)), word);
    }

    void infoOnETDump()
    {
        // README table: stress_mlp.intermediates has Execute(42p/24d), 15 delegate profile events,
        // 1 output, FLOAT:20,LONG:4, and a 138160-byte buffer beside it.
        const Run text = run({ QStringLiteral("info"), generated("stress_mlp/stress_mlp.intermediates.etdp") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral("format:      etdp")));
        QVERIFY(text.out.contains(QStringLiteral("[1] Execute: 42 profile (15 delegate), 24 debug (1 outputs)")));
        QVERIFY(text.out.contains(QStringLiteral("Fully Connected (NC, F32) GEMM #10")));
        QVERIFY(text.out.contains(QStringLiteral("debug tensors: 24 (FLOAT:20,LONG:4)")));
        const Run js = run({ QStringLiteral("info"), generated("stress_mlp/stress_mlp.intermediates.etdp"),
            QStringLiteral("--json") });
        QCOMPARE(js.exitCode, 0);
        const json info = json::parse(js.out.toStdString());
        QCOMPARE(info.at("format").get<std::string>(), std::string("etdp"));
        QCOMPARE(info.at("file_identifier").get<std::string>(), std::string("ED00"));
        QCOMPARE(info.at("run_data").size(), std::size_t(2));
        QCOMPARE(info.at("totals").at("profile_events").get<int>(), 44);
        QCOMPARE(info.at("totals").at("delegate_profile_events").get<int>(), 15);
        QCOMPARE(info.at("totals").at("debug_events").get<int>(), 24);
        QCOMPARE(info.at("totals").at("output_debug_events").get<int>(), 1);
        ETSCOPE_COMPARE_JSON(info.at("totals").at("tensor_dtypes"), (json { { "FLOAT", 20 }, { "LONG", 4 } }));
        QCOMPARE(info.at("delegate_debug_ids").size(), std::size_t(15));
        QCOMPARE(info.at("debug_tensors").size(), std::size_t(24));
        QCOMPARE(info.at("debug_buffer").at("size").get<int>(), 138160);
        for (const json& tensor : info.at("debug_tensors"))
            QVERIFY(tensor.at("in_buffer").get<bool>());
        QCOMPARE(info.at("event_names").at("OPERATOR_CALL").get<int>(), 12);
    }

    void infoWithExplicitBuffer()
    {
        // A buffer that is too small: the tensors outside it are flagged, the warning names it.
        QTemporaryDir dir;
        const QString small = writeText(dir, QStringLiteral("small.bin"), QByteArray(60, '\0'));
        const Run js = run({ QStringLiteral("info"), generated("add/add.intermediates.etdp"),
            QStringLiteral("--debug-buffer"), small, QStringLiteral("--json") });
        QCOMPARE(js.exitCode, 0);
        const json info = json::parse(js.out.toStdString());
        QCOMPARE(info.at("debug_buffer").at("size").get<int>(), 60);
        QVERIFY(info.at("debug_tensors")[0].at("in_buffer").get<bool>()); // 4 bytes at 48
        QVERIFY(!info.at("debug_tensors")[1].at("in_buffer").get<bool>()); // 4 bytes at 112
        QVERIFY(info.at("warnings")[0].at("message").get<std::string>().find("small.bin") != std::string::npos);
        const Run wrongKind
            = run({ QStringLiteral("info"), sample("executorch/add.pte"), QStringLiteral("--debug-buffer"), small });
        QCOMPARE(wrongKind.exitCode, 1);
        const Run missing = run({ QStringLiteral("info"), generated("add/add.intermediates.etdp"),
            QStringLiteral("--debug-buffer"), QStringLiteral("/nonexistent/x.bin") });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains(QStringLiteral("/nonexistent/x.bin")));
    }

    void infoOnETRecord()
    {
        const Run js = run({ QStringLiteral("info"), sample("executorch/etrecord.bin"), QStringLiteral("--json") });
        QCOMPARE(js.exitCode, 0);
        const json info = json::parse(js.out.toStdString());
        QCOMPARE(info.at("format").get<std::string>(), std::string("etrecord"));
        QCOMPARE(info.at("entries").size(), std::size_t(7));
        QCOMPARE(info.at("entries")[3].at("name").get<std::string>(), std::string("edge_dialect_exported_program"));
        QCOMPARE(info.at("entries")[3].at("size").get<int>(), 6652);
        ETSCOPE_COMPARE_JSON(info.at("methods"), json::array({ "forward" }));
        QCOMPARE(info.at("graphs").size(), std::size_t(2));
        QCOMPARE(info.at("graphs")[0].at("nodes").get<int>(), 1);
        QVERIFY(info.at("graphs")[0].at("edge_program").get<bool>());
        QCOMPARE(info.at("debug_handle_map").size(), std::size_t(0));
        const Run text = run({ QStringLiteral("info"), sample("executorch/etrecord.bin") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral("identifier:  ETRECORD_V0")));
        QVERIFY(text.out.contains(QStringLiteral("graph edge_dialect_exported_program: 1 nodes")));
    }

    void opsWithETRecord()
    {
        const Run text = run({ QStringLiteral("ops"), sample("executorch/add.pte"), QStringLiteral("--etrecord"),
            sample("executorch/etrecord.bin") });
        QCOMPARE(text.exitCode, 0);
        // etrecord.bin is a mul model's (its edge graph: one aten.mul.Tensor, SOURCES.md and
        // tst_edgegraph); add.pte runs aten::add.out only. The record is not used, in the app's
        // words, and the table is counted from the program (it printed the record's mul table).
        QVERIFY(!text.out.contains(QStringLiteral("aten_mul_tensor")));
        QVERIFY(text.out.contains(QStringLiteral("aten::add.out")));
        QCOMPARE(text.err,
            QStringLiteral("etscope ops: warning: not used: ") + sample("executorch/etrecord.bin")
                + QStringLiteral(" does not look like the ETRecord of ") + sample("executorch/add.pte")
                + QStringLiteral(": its edge graph of 'forward' shares no operator with the program's kernels\n"
                                 "etscope ops: counted from the program instead\n"));
        // quantized.pte is 100 % XNNPACK (SOURCES.md): no kernels, but its delegate's debug handles
        // 2 and 3 are not both in the record (tst_edgegraph). It was accepted without a word.
        const Run delegated = run({ QStringLiteral("ops"), sample("executorch-numpy-runtime/quantized.pte"),
            QStringLiteral("--etrecord"), sample("executorch/etrecord.bin") });
        QCOMPARE(delegated.exitCode, 0);
        QVERIFY2(delegated.err.contains(QStringLiteral("warning: not used: ")), qPrintable(delegated.err));
        QVERIFY(delegated.out.contains(QStringLiteral("Delegated share: 100.0% of nodes (3 of 3)")));
        QVERIFY(!delegated.out.contains(QStringLiteral("aten_mul_tensor")));
        // node-executorch/mul.pte runs aten::mul.out (SOURCES.md: 1 distinct op): it may be this
        // record's program, and nothing is said.
        const Run mul = run({ QStringLiteral("ops"), sample("node-executorch/mul.pte"), QStringLiteral("--etrecord"),
            sample("executorch/etrecord.bin") });
        QCOMPARE(mul.exitCode, 0);
        QCOMPARE(mul.err, QString());
        const Run csv = run({ QStringLiteral("ops"), sample("node-executorch/mul.pte"), QStringLiteral("--etrecord"),
            sample("executorch/etrecord.bin"), QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(0, 3),
            (QStringList {
                QStringLiteral("op_type,occurrences_in_delegated_graphs,occurrences_in_non_delegated_graphs"),
                QStringLiteral("aten_mul_tensor,0,1"), QStringLiteral("Total,0,1") }));
        const Run notArchive = run({ QStringLiteral("ops"), sample("executorch/add.pte"), QStringLiteral("--etrecord"),
            sample("executorch/add.pte") });
        QCOMPARE(notArchive.exitCode, 2);
        QVERIFY(notArchive.err.contains(sample("executorch/add.pte") + QStringLiteral(": not a ZIP archive")));
        QCOMPARE(notArchive.err.count(QLatin1Char('\n')), 1);
        const Run badMethod = run({ QStringLiteral("ops"), sample("executorch/add.pte"), QStringLiteral("--etrecord"),
            sample("executorch/etrecord.bin"), QStringLiteral("--method"), QStringLiteral("nope") });
        QCOMPARE(badMethod.exitCode, 1);
    }

    void damagedETRecordEntries()
    {
        // Bad input is exit 2 with the entry and the JSON error named, not a usage error.
        QTemporaryDir dir;
        const auto write = [&](const QString& name, std::vector<etscope::core::ZipWriteEntry> entries) {
            auto bytes = etscope::core::writeZip(entries);
            QFile file(dir.filePath(name));
            if (!bytes.ok() || !file.open(QIODevice::WriteOnly))
                return QString();
            file.write(reinterpret_cast<const char*>(bytes->data()), static_cast<qint64>(bytes->size()));
            return file.fileName();
        };
        const QString damaged = write(QStringLiteral("damaged.etrecord"),
            { { "ETRECORD_V0", "", false }, { "edge_dialect_exported_program", "{\"graph_module\": {\"gra", false } });
        const QString bare = write(QStringLiteral("bare.etrecord"), { { "ETRECORD_V0", "", false } });
        QVERIFY(!damaged.isEmpty() && !bare.isEmpty());
        for (const QString& command : { QStringLiteral("ops"), QStringLiteral("graph") }) {
            const Run broken = run({ command, damaged });
            QCOMPARE(broken.exitCode, 2);
            QCOMPARE(broken.err,
                QStringLiteral("etscope ") + command + QStringLiteral(": ") + damaged
                    + QStringLiteral(
                        ": the ETRecord holds no graph to show: entry 'edge_dialect_exported_program': "
                        "not valid JSON: parse error at line 1, column 23: syntax error while parsing "
                        "object key - invalid string: missing closing quote; last read: '\"gra'; expected string "
                        "literal\n"));
            const Run empty = run({ command, bare });
            QCOMPARE(empty.exitCode, 2);
            QVERIFY2(
                empty.err.endsWith(QStringLiteral(": the ETRecord holds no graph to show\n")), qPrintable(empty.err));
        }
        // info describes what is there and exits 0: the entry and its warning are listed.
        const Run info = run({ QStringLiteral("info"), damaged });
        QCOMPARE(info.exitCode, 0);
        QVERIFY(
            info.out.contains(QStringLiteral("not valid JSON")) || info.err.contains(QStringLiteral("not valid JSON")));
    }

    void gapAgainstAnotherRun()
    {
        // add.intermediates vs the first run of add.intermediates.x3: both computed 1 + 1 = 2.0.
        const QString program = sample("executorch/add.pte");
        const Run text
            = run({ QStringLiteral("gap"), program, QStringLiteral("--etdump"), generated("add/add.intermediates.etdp"),
                QStringLiteral("--reference"), generated("add/add.intermediates.x3.etdp") });
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(QStringLiteral("aten::add.out")));
        QVERIFY(text.out.contains(QStringLiteral("output 0")));
        QVERIFY(text.out.contains(QStringLiteral("reference: ") + generated("add/add.intermediates.x3.etdp")));
        const Run js = run({ QStringLiteral("gap"), program, QStringLiteral("--etdump"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--reference"),
            generated("add/add.intermediates.x3.etdp"), QStringLiteral("--format=json") });
        QCOMPARE(js.exitCode, 0);
        const json table = json::parse(js.out.toStdString());
        QCOMPARE(table.at("rows").size(), std::size_t(2));
        QCOMPARE(table.at("rows")[0].at("node").get<std::string>(), std::string("aten::add.out"));
        QCOMPARE(table.at("rows")[0].at("mse").get<double>(), 0.0);
        QVERIFY(table.at("rows")[0].at("snr").is_null()); // +inf has no JSON number
        QCOMPARE(table.at("rows")[0].at("cosine").get<double>(), 1.0);
        // The program output is logged by no instruction: null, not -1 (it printed "program output -1").
        QCOMPARE(table.at("rows")[0].at("instruction").get<int>(), 0);
        QVERIFY(table.at("rows")[1].at("instruction").is_null());
        QVERIFY(!text.out.contains(QStringLiteral("-1")));
        // --metric keeps one metric column; -o writes the file and nothing to stdout.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("gap.csv"));
        const Run csv = run({ QStringLiteral("gap"), program, QStringLiteral("--etdump"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--debug-buffer"),
            generated("add/add.intermediates.debug.bin"), QStringLiteral("--reference"),
            generated("add/add.intermediates.x3.etdp"), QStringLiteral("--reference-buffer"),
            generated("add/add.intermediates.x3.debug.bin"), QStringLiteral("--metric"), QStringLiteral("maxabs"),
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("-o"), out });
        QCOMPARE(csv.exitCode, 0);
        QVERIFY(csv.out.isEmpty());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QStringLiteral("#,node,runtime_op,instruction,output,shape,dtype,maxabs,aot_ops,problem"));
        QCOMPARE(lines[1], QStringLiteral("0,aten::add.out,aten::add.out,0,0,[1],FLOAT,0,,"));
    }

    void gapAgainstBundledProgram()
    {
        const Run text = run({ QStringLiteral("gap"), sample("executorch/bundled_program.bpte"),
            QStringLiteral("--etdump"), generated("bundled_program/bundled_program.outputs.etdp"),
            QStringLiteral("--bundled-reference"), QStringLiteral("--format"), QStringLiteral("md") });
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(QStringLiteral("| output 0 |")));
        QVERIFY(text.out.contains(QStringLiteral("(test case 0 of 10: expected outputs)")));
        QVERIFY(text.out.contains(QStringLiteral("bundled_program.outputs.etdp (Execute block 0 of 1)")));
        const Run seventh = run({ QStringLiteral("gap"), sample("executorch/bundled_program.bpte"),
            QStringLiteral("--etdump"), generated("bundled_program/bundled_program.outputs.etdp"),
            QStringLiteral("--bundled-reference"), QStringLiteral("--test-case"), QStringLiteral("7") });
        QVERIFY2(seventh.exitCode == 0, qPrintable(seventh.err));
        QVERIFY(seventh.out.contains(QStringLiteral("(test case 7 of 10: expected outputs)")));
        const Run tenth = run({ QStringLiteral("gap"), sample("executorch/bundled_program.bpte"),
            QStringLiteral("--etdump"), generated("bundled_program/bundled_program.outputs.etdp"),
            QStringLiteral("--bundled-reference"), QStringLiteral("--test-case"), QStringLiteral("10") });
        QCOMPARE(tenth.exitCode, 1);
        QVERIFY2(tenth.err.contains(QStringLiteral("no test case 10")) && tenth.err.contains(QStringLiteral("has 10")),
            qPrintable(tenth.err));
        const Run notBundled = run({ QStringLiteral("gap"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("add/add.outputs.etdp"), QStringLiteral("--bundled-reference") });
        QCOMPARE(notBundled.exitCode, 1);
        QVERIFY(notBundled.err.contains(QStringLiteral("needs a bundled program")));
    }

    void gapWarnsAboutAForeignETDump()
    {
        // The audit's reproducer: add's run compared on stress_mlp.pte. Still exit 0 (the numbers
        // are printed), but a summary and three examples say the run is not this program's.
        const QStringList arguments { QStringLiteral("gap"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--etdump"), generated("add/add.intermediates.etdp"), QStringLiteral("--reference"),
            generated("stress_mlp/stress_mlp.intermediates.etdp") };
        const Run text = run(arguments);
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.err.count(QStringLiteral("etscope gap: warning: ")), 4);
        QVERIFY(text.err.contains(generated("add/add.intermediates.etdp")
            + QStringLiteral(" (Execute block 0 of 1): 3 of 6 checks disagree with method 'forward'")));
        QVERIFY(text.err.contains(QStringLiteral("event native_call_add.out at instruction 0, where the program runs "
                                                 "dim_order_ops::_to_dim_order_copy.out")));
        QVERIFY(!text.err.contains(generated("stress_mlp/stress_mlp.intermediates.etdp"))); // that one fits
        QCOMPARE(text.out.count(QStringLiteral("\nwarning: ")), 4); // in the notes too
        QVERIFY(text.out.contains(QStringLiteral("shapes differ: run [1], reference [32, 256]")));
        const Run js = run(arguments + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(js.exitCode, 0);
        const json table = json::parse(js.out.toStdString());
        const auto notes = table.at("notes").get<std::vector<std::string>>();
        QCOMPARE(std::count_if(
                     notes.begin(), notes.end(), [](const std::string& n) { return n.rfind("warning: ", 0) == 0; }),
            4);
        QVERIFY(table.at("rows")[1].at("problem").get<std::string>().rfind("shapes differ", 0) == 0);
        // An ETDump given as the debug buffer: the tensors come from FlatBuffers bytes.
        const Run buffer = run({ QStringLiteral("gap"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--debug-buffer"),
            generated("add/add.intermediates.x3.etdp"), QStringLiteral("--reference"),
            generated("add/add.intermediates.etdp") });
        QCOMPARE(buffer.exitCode, 0);
        QVERIFY2(
            buffer.err.contains(generated("add/add.intermediates.x3.etdp") + QStringLiteral(": the debug buffer of ")
                + generated("add/add.intermediates.etdp") + QStringLiteral(" starts like an ETDump")),
            qPrintable(buffer.err));
    }

    void gapPicksRuns_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("notesOnStderr");
        QTest::addRow("text") << QStringLiteral("text") << false;
        QTest::addRow("md") << QStringLiteral("md") << false;
        QTest::addRow("html") << QStringLiteral("html") << false;
        QTest::addRow("json") << QStringLiteral("json") << false;
        QTest::addRow("csv") << QStringLiteral("csv") << true;
        QTest::addRow("tsv") << QStringLiteral("tsv") << true;
    }

    void gapPicksRuns()
    {
        // add.intermediates.x3 has three Execute blocks; every format says which two were compared
        // (CSV and TSV have no notes: theirs go to stderr).
        QFETCH(QString, format);
        QFETCH(bool, notesOnStderr);
        const QString x3 = generated("add/add.intermediates.x3.etdp");
        const Run result = run({ QStringLiteral("gap"), sample("executorch/add.pte"), QStringLiteral("--etdump"), x3,
            QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--reference"), x3,
            QStringLiteral("--reference-run=2"), QStringLiteral("--format"), format });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QString& notes = notesOnStderr ? result.err : result.out;
        QVERIFY2(notes.contains(QStringLiteral("run: ") + x3 + QStringLiteral(" (Execute block 1 of 3)")),
            qPrintable(notes));
        QVERIFY(notes.contains(QStringLiteral("reference: ") + x3 + QStringLiteral(" (Execute block 2 of 3)")));
        QVERIFY(result.out.contains(QStringLiteral("aten::add.out")));
        QVERIFY(!result.err.contains(QStringLiteral("warning")));
    }

    void gapRunErrors_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        const QString x3 = generated("add/add.intermediates.x3.etdp");
        QTest::addRow("run beyond") << QStringList { QStringLiteral("--run"), QStringLiteral("3") }
                                    << QStringLiteral("--run 3: ") + x3
                + QStringLiteral(" has 3 Execute block(s), numbered 0 to 2");
        QTest::addRow("reference run beyond") << QStringList { QStringLiteral("--reference-run"), QStringLiteral("7") }
                                              << QStringLiteral("--reference-run 7: ")
                + generated("add/add.intermediates.etdp") + QStringLiteral(" has 1 Execute block(s), numbered 0 to 0");
        QTest::addRow("run not a number") << QStringList { QStringLiteral("--run"), QStringLiteral("first") }
                                          << QStringLiteral("--run expects a number counted from 0, not 'first'");
        QTest::addRow("run negative") << QStringList { QStringLiteral("--run"), QStringLiteral("-1") }
                                      << QStringLiteral("--run expects a number counted from 0, not '-1'");
        QTest::addRow("test case without bundle") << QStringList { QStringLiteral("--test-case"), QStringLiteral("0") }
                                                  << QStringLiteral("--test-case needs --bundled-reference");
    }

    void gapRunErrors()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const Run result = run(QStringList { QStringLiteral("gap"), sample("executorch/add.pte"),
                                   QStringLiteral("--etdump"), generated("add/add.intermediates.x3.etdp"),
                                   QStringLiteral("--reference"), generated("add/add.intermediates.etdp") }
            + extra);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
        QVERIFY(result.out.isEmpty());
    }

    void gapNonFiniteValues()
    {
        // Three Inspector rows: identical values (SNR +inf), a silent reference (SNR -inf) and
        // inf on both sides (every metric nan). Text and CSV spell them inf, -inf, nan; JSON
        // writes null and names them in non_finite.
        QTemporaryDir dir;
        const QString csv = writeText(dir, QStringLiteral("nonfinite.csv"),
            ",aot_debug_handle,aot_intermediate_output,runtime_debug_handle,runtime_intermediate_output,gap\n"
            "0,\"(1,)\",\"tensor([1., 2.])\",\"(1,)\",\"tensor([1., 2.])\",[0.0]\n"
            "1,\"(1,)\",\"tensor([0., 0.])\",\"(1,)\",\"tensor([1., 0.])\",[0.5]\n"
            "2,\"(1,)\",\"tensor([inf, 1.])\",\"(1,)\",\"tensor([inf, 1.])\",[nan]\n");
        const QStringList arguments { QStringLiteral("gap"), sample("djl-executorch-engine/spike_conv.pte"),
            QStringLiteral("--inspector-table"), csv, QStringLiteral("--metric"), QStringLiteral("snr") };
        const Run text = run(arguments);
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(!text.out.contains(QStringLiteral("-nan")));
        const Run table = run(arguments + QStringList { QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(table.exitCode, 0);
        const QStringList lines = table.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0],
            QStringLiteral("#,node,runtime_op,instruction,output,shape,dtype,snr,inspector_gap,aot_ops,problem"));
        QCOMPARE(lines[1].section(QLatin1Char(','), 7, 8), QStringLiteral("inf,0"));
        QCOMPARE(lines[2].section(QLatin1Char(','), 7, 8), QStringLiteral("-inf,0.5"));
        QCOMPARE(lines[3].section(QLatin1Char(','), 7, 8), QStringLiteral("nan,nan"));
        const Run js = run(arguments + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(js.exitCode, 0);
        const json rows = json::parse(js.out.toStdString()).at("rows");
        QCOMPARE(rows.size(), std::size_t(3));
        for (const json& row : rows)
            QVERIFY(row.at("snr").is_null());
        QCOMPARE(rows[0].at("non_finite").get<std::string>(), std::string("snr=inf"));
        QCOMPARE(rows[1].at("non_finite").get<std::string>(), std::string("snr=-inf"));
        QCOMPARE(rows[2].at("non_finite").get<std::string>(), std::string("snr=nan"));
    }

    void profileTable()
    {
        // add.intermediates.x3: one node, timed in three runs; the p50 is the median of the three
        // native_call_add.out durations read from the file.
        const QString x3 = generated("add/add.intermediates.x3.etdp");
        const Run js = run({ QStringLiteral("profile"), sample("executorch/add.pte"), QStringLiteral("--etdump"), x3,
            QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(js.exitCode == 0, qPrintable(js.err));
        QVERIFY(js.err.isEmpty());
        const json table = json::parse(js.out.toStdString());
        ETSCOPE_COMPARE_JSON(table.at("columns"),
            json::array({ "node", "event_name", "instruction", "count", "min (ms)", "p50 (ms)", "p90 (ms)", "avg (ms)",
                "max (ms)", "op_types" }));
        QCOMPARE(table.at("rows").size(), std::size_t(1));
        const json& row = table.at("rows")[0];
        const auto raw = rawDurations(x3).at({ "native_call_add.out", 0 });
        QCOMPARE(raw.size(), std::size_t(3));
        QCOMPARE(row.at("node").get<std::string>(), std::string("aten::add.out"));
        QCOMPARE(row.at("count").get<int>(), 3);
        QVERIFY(qFuzzyCompare(row.at("p50 (ms)").get<double>(), median(raw)));
        QVERIFY(qFuzzyCompare(row.at("min (ms)").get<double>(), *std::min_element(raw.begin(), raw.end())));
        QVERIFY(qFuzzyCompare(row.at("max (ms)").get<double>(), *std::max_element(raw.begin(), raw.end())));
        QVERIFY(table.at("notes")[1].get<std::string>().rfind("3 Execute block(s)", 0) == 0);

        // stress_mlp.profile: one run; every row's p50 is its event's own duration.
        const QString mlp = generated("stress_mlp/stress_mlp.profile.etdp");
        const Run csv = run({ QStringLiteral("profile"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--etdump"), mlp, QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(csv.exitCode, 0);
        const QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines[0],
            QStringLiteral("node,event_name,instruction,count,min (ms),p50 (ms),p90 (ms),avg (ms),max (ms),op_types"));
        QCOMPARE(lines.size(), 1 + 29);
        QVERIFY(lines.contains(QStringLiteral("XnnpackBackend › XNNFullyConnected,\"Fully Connected (NC, F32) GEMM "
                                              "#1\",13,1,0.063,0.063,0.063,0.063,0.063,")));
        const Run mlpJson = run({ QStringLiteral("profile"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--etdump"), mlp, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(mlpJson.exitCode, 0);
        const json rows = json::parse(mlpJson.out.toStdString()).at("rows");
        QCOMPARE(rows.size(), std::size_t(29));
        const auto durations = rawDurations(mlp);
        for (const json& r : rows) {
            const auto it = durations.find({ r.at("event_name").get<std::string>(), r.at("instruction").get<int>() });
            QVERIFY2(it != durations.end(), r.dump().c_str());
            QCOMPARE(r.at("count").get<int>(), 1);
            QVERIFY2(qFuzzyCompare(1 + r.at("p50 (ms)").get<double>(), 1 + median(it->second)), r.dump().c_str());
        }
        QVERIFY(csv.err.contains(QStringLiteral("etscope profile: 1 Execute block(s)")));
        const Run text = run({ QStringLiteral("profile"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--etdump"), mlp });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral("XnnpackBackend › XNNFullyConnected")));
        QVERIFY(text.out.contains(QStringLiteral("Fully Connected (NC, F32) GEMM #10")));
    }

    void profileOfADumpAlone()
    {
        // Without the program: one row per event. sample.etdump (Python-serialized, five runs):
        // Method::execute took 12, 10, 11, 13, 14 ms → min 10, p50 12, p90 13.6, avg 12, max 14.
        const Run matrix = run({ QStringLiteral("profile"), sample("executorch-matrix/sample.etdump"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(matrix.exitCode == 0, qPrintable(matrix.err));
        const json table = json::parse(matrix.out.toStdString());
        ETSCOPE_COMPARE_JSON(table.at("columns"),
            json::array({ "event_block_name", "event_name", "kind", "chain", "instruction", "delegate_debug_identifier",
                "count", "min (ms)", "p50 (ms)", "p90 (ms)", "avg (ms)", "max (ms)" }));
        QCOMPARE(table.at("rows").size(), std::size_t(3));
        const json& execute = table.at("rows")[0];
        QCOMPARE(execute.at("event_name").get<std::string>(), std::string("Method::execute"));
        QCOMPARE(execute.at("count").get<int>(), 5);
        QCOMPARE(execute.at("min (ms)").get<double>(), 10.0);
        QCOMPARE(execute.at("p50 (ms)").get<double>(), 12.0);
        QVERIFY(qFuzzyCompare(execute.at("p90 (ms)").get<double>(), 13.6));
        QCOMPARE(execute.at("avg (ms)").get<double>(), 12.0);
        QCOMPARE(execute.at("max (ms)").get<double>(), 14.0);

        // quantized.profile through --etdump alone: XNNPACK's inner events carry their names.
        const Run quantized = run({ QStringLiteral("profile"), QStringLiteral("--etdump"),
            generated("quantized/quantized.profile.etdp"), QStringLiteral("--format"), QStringLiteral("csv") });
        QVERIFY2(quantized.exitCode == 0, qPrintable(quantized.err));
        QVERIFY(quantized.out.contains(QStringLiteral(
            "Execute,\"Fully Connected (NC, QS8) GEMM #1\",delegate,0,0,\"Fully Connected (NC, QS8) GEMM #1\",1,")));
        QVERIFY(quantized.out.contains(QStringLiteral("Execute,DELEGATE_CALL,instruction,0,0,,1,")));
        // Framework events run in no instruction: blank chain and instruction (it said -1 and 0,
        // and 0 read like a real instruction); null in JSON (tst_runtimeprofile).
        QVERIFY(quantized.out.contains(QStringLiteral("Default,Method::init,framework,,,,1,")));
        const Run withMethod = run({ QStringLiteral("profile"), generated("quantized/quantized.profile.etdp"),
            QStringLiteral("--method"), QStringLiteral("forward") });
        QCOMPARE(withMethod.exitCode, 1);
        QVERIFY(withMethod.err.contains(QStringLiteral("need the PROGRAM")));
    }

    void profileWarnsAndFails()
    {
        // A foreign ETDump is profiled, with the warnings; bad command lines are one line each.
        const Run foreign = run({ QStringLiteral("profile"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("stress_mlp/stress_mlp.profile.etdp") });
        QCOMPARE(foreign.exitCode, 0);
        QVERIFY(foreign.err.contains(QStringLiteral("checks disagree with method 'forward'")));
        QVERIFY(foreign.out.contains(QStringLiteral("event(s) matched no node")));
        // executorch/etdump.etdp (a conv model's run) on add.pte: its native_call_convolution.out at
        // instruction 0 is not timed on aten::add.out any more (it printed "aten::add.out
        // native_call_convolution.out … 0.544783"); the row stays, "(not placed)", and is counted.
        const Run conv = run({ QStringLiteral("profile"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            sample("executorch/etdump.etdp") });
        QCOMPARE(conv.exitCode, 0);
        QVERIFY2(!conv.out.contains(QStringLiteral("\naten::add.out ")), qPrintable(conv.out));
        QVERIFY(conv.out.contains(QStringLiteral("(not placed)  native_call_convolution.out")));
        QVERIFY(conv.out.contains(QStringLiteral("2 event(s) not placed: named for another operator")));
        QVERIFY(conv.err.startsWith(QStringLiteral("etscope profile: warning: ") + sample("executorch/etdump.etdp")
            + QStringLiteral(": 27 of 28 checks disagree")));
        const Run noDump = run({ QStringLiteral("profile"), sample("executorch/add.pte") });
        QCOMPARE(noDump.exitCode, 1);
        QVERIFY(noDump.err.contains(QStringLiteral("--etdump FILE is required")));
        const Run badFormat = run({ QStringLiteral("profile"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("add/add.profile.etdp"), QStringLiteral("--format"), QStringLiteral("xlsx") });
        QCOMPARE(badFormat.exitCode, 1);
        const Run missing = run({ QStringLiteral("profile"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            QStringLiteral("/nonexistent/p.etdp") });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.startsWith(QStringLiteral("etscope profile: /nonexistent/p.etdp: ")));
        QCOMPARE(missing.err.count(QLatin1Char('\n')), 1);
        const Run notProgram = run({ QStringLiteral("profile"), generated("add/add.profile.etdp"),
            QStringLiteral("--etdump"), generated("add/add.profile.etdp") });
        QCOMPARE(notProgram.exitCode, 1);
        QVERIFY(notProgram.err.contains(QStringLiteral("is not a program")));
    }

    void gapFromInspectorTable()
    {
        // An Inspector DataFrame (§7 columns) as pandas' to_csv writes it, for spike_conv.pte,
        // whose XNNConv2d carries debug handle 1: [1, 2] vs [1, 4] → MSE 2, L1 2.
        QTemporaryDir dir;
        const QString csv = writeText(dir, QStringLiteral("gap.csv"),
            ",aot_debug_handle,aot_ops,aot_intermediate_output,runtime_ops,runtime_debug_handle,"
            "runtime_intermediate_output,gap,stacktraces\n"
            "0,\"(1,)\",['aten_convolution_default'],\"tensor([1., 2.])\",['DELEGATE_CALL'],\"(1,)\","
            "\"tensor([1., 4.])\",[2.0],{}\n");
        const Run js = run({ QStringLiteral("gap"), sample("djl-executorch-engine/spike_conv.pte"),
            QStringLiteral("--inspector-table"), csv, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(js.exitCode == 0, qPrintable(js.err));
        const json table = json::parse(js.out.toStdString());
        QCOMPARE(table.at("rows").size(), std::size_t(1));
        const json& row = table.at("rows")[0];
        QCOMPARE(row.at("node").get<std::string>(), std::string("XnnpackBackend › XNNConv2d"));
        QCOMPARE(row.at("mse").get<double>(), 2.0);
        QCOMPARE(row.at("l1").get<double>(), 2.0);
        QCOMPARE(row.at("inspector_gap").get<std::string>(), std::string("2"));
        QCOMPARE(row.at("aot_ops").get<std::string>(), std::string("aten_convolution_default"));
        const QString bad = writeText(dir, QStringLiteral("bad.csv"), "a,b\n1,2\n");
        const Run broken = run({ QStringLiteral("gap"), sample("djl-executorch-engine/spike_conv.pte"),
            QStringLiteral("--inspector-table"), bad });
        QCOMPARE(broken.exitCode, 2);
        QVERIFY(broken.err.startsWith(QStringLiteral("etscope gap: ") + bad + QStringLiteral(": ")));
    }

    void gapFromPrintedInspectorTable()
    {
        // The table as pasted from a notebook (tabulate's github format, no debug handles),
        // for stress_mlp.pte: placed by runtime op order, the second select_copy at instruction
        // 3, the delegate at 6; [2.5] vs [2] → MSE 0.25, as the table's gap says.
        QTemporaryDir dir;
        const QString md = writeText(dir, QStringLiteral("gap.md"),
            "|   idx | aot_ops                  | aot_intermediate_output | runtime_ops                         | "
            "runtime_intermediate_output | gap    |\n"
            "|-------|--------------------------|-------------------------|-------------------------------------|"
            "-----------------------------|--------|\n"
            "|     0 | ['aten_select_copy_int'] | tensor(1.)              | ['native_call_select_copy.int_out'] | "
            "tensor(1.)                  | [0.0]  |\n"
            "|     1 | ['aten_select_copy_int'] | tensor(2.5000)          | ['native_call_select_copy.int_out'] | "
            "tensor(2.)                  | [0.25] |\n"
            "|     2 | ['aten_mul_tensor']      | tensor([1., 2.])        | ['DELEGATE_CALL']                   | "
            "tensor([1., 2.])            | [0.0]  |\n");
        const Run js = run({ QStringLiteral("gap"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--inspector-table"), md, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(js.exitCode == 0, qPrintable(js.err));
        const json table = json::parse(js.out.toStdString());
        QCOMPARE(table.at("rows").size(), std::size_t(3));
        const json& second = table.at("rows")[1];
        QCOMPARE(second.at("instruction").get<int>(), 3);
        QCOMPARE(second.at("node").get<std::string>(), std::string("aten::select_copy.int_out"));
        QCOMPARE(second.at("mse").get<double>(), 0.25);
        QCOMPARE(second.at("inspector_gap").get<std::string>(), std::string("0.25"));
        QCOMPARE(table.at("rows")[2].at("instruction").get<int>(), 6);
        // A broken print names the file and the line.
        const QString bad
            = writeText(dir, QStringLiteral("bad.md"), "| runtime_ops | gap |\n|---|---|\n| [a] | [0.1] | x |\n");
        const Run broken = run({ QStringLiteral("gap"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--inspector-table"), bad });
        QCOMPARE(broken.exitCode, 2);
        QVERIFY2(broken.err.startsWith(QStringLiteral("etscope gap: ") + bad
                     + QStringLiteral(": line 3: a row of 3 cells under a header of 2")),
            qPrintable(broken.err));
    }

    void gapWithETRecord()
    {
        // The sample record's maps are empty: the gap still runs, with no edge op names.
        const Run text = run({ QStringLiteral("gap"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--reference"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--etrecord"), sample("executorch/etrecord.bin") });
        QCOMPARE(text.exitCode, 0);
        const Run bad = run({ QStringLiteral("gap"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--reference"),
            generated("add/add.intermediates.etdp"), QStringLiteral("--etrecord"),
            QStringLiteral("/nonexistent/etrecord.bin") });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("/nonexistent/etrecord.bin")));
    }

    void gapUsageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString program = sample("executorch/add.pte");
        const QString dump = generated("add/add.intermediates.etdp");
        QTest::addRow("no mode") << QStringList { QStringLiteral("gap"), program, QStringLiteral("--etdump"), dump }
                                 << QStringLiteral("give exactly one of");
        QTest::addRow("two modes") << QStringList { QStringLiteral("gap"), program, QStringLiteral("--etdump"), dump,
            QStringLiteral("--reference"), dump, QStringLiteral("--bundled-reference") }
                                   << QStringLiteral("give exactly one of");
        QTest::addRow("no etdump") << QStringList { QStringLiteral("gap"), program, QStringLiteral("--reference"),
            dump } << QStringLiteral("--etdump FILE is required");
        QTest::addRow("no program") << QStringList { QStringLiteral("gap"), QStringLiteral("--etdump"), dump,
            QStringLiteral("--reference"), dump }
                                    << QStringLiteral("expected exactly one PROGRAM");
        QTest::addRow("unknown metric") << QStringList { QStringLiteral("gap"), program, QStringLiteral("--etdump"),
            dump, QStringLiteral("--reference"), dump, QStringLiteral("--metric"), QStringLiteral("rmse") }
                                        << QStringLiteral("unknown metric 'rmse'");
        QTest::addRow("unknown format") << QStringList { QStringLiteral("gap"), program, QStringLiteral("--etdump"),
            dump, QStringLiteral("--reference"), dump, QStringLiteral("--format"), QStringLiteral("xlsx") }
                                        << QStringLiteral("unknown format 'xlsx'");
        QTest::addRow("reference buffer alone")
            << QStringList { QStringLiteral("gap"), program, QStringLiteral("--etdump"), dump,
                   QStringLiteral("--bundled-reference"), QStringLiteral("--reference-buffer"), dump }
            << QStringLiteral("--reference-buffer needs --reference");
        QTest::addRow("unknown method") << QStringList { QStringLiteral("gap"), program, QStringLiteral("--etdump"),
            dump, QStringLiteral("--reference"), dump, QStringLiteral("--method"), QStringLiteral("nope") }
                                        << QStringLiteral("no method named 'nope'");
        QTest::addRow("not a program") << QStringList { QStringLiteral("gap"), dump, QStringLiteral("--etdump"), dump,
            QStringLiteral("--reference"), dump }
                                       << QStringLiteral("is not a program (etdp)");
        QTest::addRow("reference run alone") << QStringList { QStringLiteral("gap"), program,
            QStringLiteral("--etdump"), dump, QStringLiteral("--bundled-reference"), QStringLiteral("--reference-run"),
            QStringLiteral("1") } << QStringLiteral("--reference-run needs --reference");
        QTest::addRow("run with inspector table") << QStringList { QStringLiteral("gap"), program,
            QStringLiteral("--inspector-table"), dump, QStringLiteral("--run"), QStringLiteral("1") }
                                                  << QStringLiteral("--run selects a run of --etdump");
    }

    void gapUsageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run result = run(arguments);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
        QVERIFY(result.out.isEmpty());
    }

    void gapInputErrors_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::addRow("missing etdump") << QStringLiteral("--etdump") << QStringLiteral("/nonexistent/a.etdp")
                                        << QStringLiteral("cannot open");
        QTest::addRow("program as etdump")
            << QStringLiteral("--etdump") << sample("executorch/add.pte") << QStringLiteral("not an ETDump");
        QTest::addRow("missing reference")
            << QStringLiteral("--reference") << QStringLiteral("/nonexistent/b.etdp") << QStringLiteral("cannot open");
        QTest::addRow("missing buffer") << QStringLiteral("--debug-buffer") << QStringLiteral("/nonexistent/a.bin")
                                        << QStringLiteral("cannot open");
    }

    /// `gap --reference-program` on the writer's fixtures (core/writer/debug/gapfixtures.h): the
    /// MLP float-portable, quantized-portable and XNNPACK-delegated, the quantized and lowered
    /// runs off by 4 at logits[0] (the last addmm: lowered #1, quantized #8, portable #4).
    void gapAcrossPrograms()
    {
        using namespace etscope::core;
        QTemporaryDir dir;
        const GapFixtures fixtures = makeGapFixtures();
        std::map<std::string, QStringList> files; // build → pte, etdp, bin, etrecord
        for (const auto& [name, build] : { std::pair<std::string, const GapBuild*>("portable", &fixtures.portable),
                 std::pair<std::string, const GapBuild*>("quantized", &fixtures.quantized),
                 std::pair<std::string, const GapBuild*>("lowered", &fixtures.lowered) }) {
            const auto path = [&](const char* ext) { return dir.filePath(QString::fromStdString(name) + ext); };
            QVERIFY(!writeBytesToFile(path(".pte").toStdString(), writeProgram(build->program).value()));
            QVERIFY(!writeBytesToFile(path(".etdp").toStdString(), build->etdump));
            QVERIFY(!writeBytesToFile(path(".bin").toStdString(), build->debugBuffer));
            QVERIFY(!writeBytesToFile(path(".etrecord").toStdString(), build->etrecord));
            files[name] = { path(".pte"), path(".etdp"), path(".bin"), path(".etrecord") };
        }
        const auto against = [&](const std::string& runName, const std::string& refName) {
            const QStringList& r = files[runName];
            const QStringList& a = files[refName];
            return QStringList { QStringLiteral("gap"), r[0], QStringLiteral("--etdump"), r[1],
                QStringLiteral("--debug-buffer"), r[2], QStringLiteral("--reference-program"), a[0],
                QStringLiteral("--reference"), a[1], QStringLiteral("--reference-buffer"), a[2] };
        };
        // The table: pairs with how they were matched.
        const Run table = run(against("lowered", "portable"));
        QVERIFY2(table.exitCode == 0, qPrintable(table.err));
        QVERIFY(table.out.contains(QStringLiteral("matched_by")));
        QVERIFY(table.out.contains(QStringLiteral("#0 XnnpackBackend › XNNClamp")));
        QVERIFY(table.out.contains(QStringLiteral("operator family")));
        QVERIFY(table.out.contains(QStringLiteral("nodes paired by diff's matching (aligned)")));
        // The first divergence, exit 0.
        const Run first = run(against("lowered", "portable") << QStringLiteral("--first-divergence"));
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY2(first.out.startsWith(QStringLiteral("first divergence: row 1, forward › #1 aten::addmm.out\n")),
            qPrintable(first.out));
        QVERIFY(first.out.contains(QStringLiteral("  reference node: forward › #4 aten::addmm.out (matched by "
                                                  "execution order)")));
        // With both ETRecords (the run's first), the pair comes from the debug handles.
        const Run handles = run(against("lowered", "portable")
            << QStringLiteral("--first-divergence") << QStringLiteral("--etrecord") << files["lowered"][3]
            << QStringLiteral("--etrecord") << files["portable"][3]);
        QVERIFY2(handles.exitCode == 0, qPrintable(handles.err));
        QVERIFY(handles.out.contains(QStringLiteral("(matched by debug handle)")));
        // Each build with its own record: a real pair (the lowered one fully XNNPACK, its handles
        // in its record's graph) is never called foreign.
        QVERIFY2(!handles.err.contains(QStringLiteral("not used")), qPrintable(handles.err));
        for (const char* build : { "portable", "quantized", "lowered" }) {
            const Run own
                = run({ QStringLiteral("ops"), files[build][0], QStringLiteral("--etrecord"), files[build][3] });
            QVERIFY2(!own.err.contains(QStringLiteral("not used")), qPrintable(own.err)); // (no edge program: exit 2)
        }
        // Quantized: JSON names the node path and ids the app can select, and the table says
        // which rows were dequantized.
        const Run js = run(against("quantized", "portable")
            << QStringLiteral("--first-divergence") << QStringLiteral("--format") << QStringLiteral("json"));
        QVERIFY2(js.exitCode == 0, qPrintable(js.err));
        const json divergence = json::parse(js.out.toStdString()).at("first_divergence");
        QVERIFY(divergence.at("path") == json({ "forward", "#8 aten::addmm.out" }));
        QVERIFY(divergence.at("reference_path") == json({ "forward", "#4 aten::addmm.out" }));
        QCOMPARE(divergence.at("instruction").get<int>(), 8);
        QVERIFY(divergence.at("inner_node_id").is_null());
        const Run quantizedTable = run(against("quantized", "portable") << QStringLiteral("--format=json"));
        QCOMPARE(quantizedTable.exitCode, 0);
        bool dequantized = false;
        const json quantizedRows = json::parse(quantizedTable.out.toStdString());
        for (const json& row : quantizedRows.at("rows"))
            if (row.at("node").get<std::string>() == "#2 aten::relu.out")
                dequantized = row.at("dequantized").get<std::string>().rfind("run dequantized (scale ", 0) == 0;
        QVERIFY(dequantized);
        // Thresholds: loose enough, nothing diverges (still exit 0).
        const Run loose = run(against("quantized", "portable")
            << QStringLiteral("--first-divergence") << QStringLiteral("--threshold") << QStringLiteral("snr=-100")
            << QStringLiteral("--threshold") << QStringLiteral("rel=100"));
        QCOMPARE(loose.exitCode, 0);
        QVERIFY2(loose.out.startsWith(QStringLiteral("no divergence: ")), qPrintable(loose.out));
        QVERIFY(loose.out.contains(QStringLiteral("none crosses snr < -100 dB or rel > 100")));
        // Usage errors, one line each.
        const Run badThreshold = run(against("quantized", "portable")
            << QStringLiteral("--first-divergence") << QStringLiteral("--threshold") << QStringLiteral("psnr=3"));
        QCOMPARE(badThreshold.exitCode, 1);
        QVERIFY(badThreshold.err.startsWith(QStringLiteral("etscope gap: --threshold psnr=3: unknown metric 'psnr'")));
        const Run withoutFlag
            = run(against("quantized", "portable") << QStringLiteral("--threshold") << QStringLiteral("snr=3"));
        QCOMPARE(withoutFlag.exitCode, 1);
        QVERIFY(withoutFlag.err.contains(QStringLiteral("--threshold needs --first-divergence")));
        const Run noReference = run({ QStringLiteral("gap"), files["lowered"][0], QStringLiteral("--etdump"),
            files["lowered"][1], QStringLiteral("--reference-program"), files["portable"][0],
            QStringLiteral("--inspector-table"), files["lowered"][1] });
        QCOMPARE(noReference.exitCode, 1);
        QVERIFY(noReference.err.contains(QStringLiteral("--reference-program needs --reference")));
        const Run threeRecords = run(against("lowered", "portable")
            << QStringLiteral("--etrecord") << files["lowered"][3] << QStringLiteral("--etrecord")
            << files["portable"][3] << QStringLiteral("--etrecord") << files["portable"][3]);
        QCOMPARE(threeRecords.exitCode, 1);
        // A reference program without the run's method: an error naming it and what it has.
        ProgramSpec renamed = fixtures.portable.program;
        renamed.methods.front().name = "classify";
        const QString classify = dir.filePath(QStringLiteral("classify.pte"));
        QVERIFY(!writeBytesToFile(classify.toStdString(), writeProgram(renamed).value()));
        QStringList noMethod = against("lowered", "portable");
        noMethod[7] = classify;
        const Run missingMethod = run(noMethod);
        QCOMPARE(missingMethod.exitCode, 1);
        QVERIFY2(missingMethod.err.startsWith(QStringLiteral("etscope gap: ") + classify
                     + QStringLiteral(": mismatched programs: no method 'forward' (it has classify)")),
            qPrintable(missingMethod.err));
        // A real program as the reference of the MLP: different models, a warning naming both
        // files, exit 0 with what could be compared.
        QStringList mismatched = against("lowered", "portable");
        mismatched[7] = sample("executorch/add.pte");
        mismatched[9] = generated("add/add.intermediates.etdp");
        mismatched[11] = generated("add/add.intermediates.debug.bin");
        const Run other = run(mismatched);
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        QVERIFY2(other.err.contains(QStringLiteral("the programs look like different models")), qPrintable(other.err));
    }

    /// A real ETDump against itself with --reference-program: every row identical, no divergence.
    void gapProgramAgainstItself()
    {
        const QString program = sample("djl-executorch-engine/stress_mlp.pte");
        const QString dump = generated("stress_mlp/stress_mlp.intermediates.etdp");
        const Run result = run(
            { QStringLiteral("gap"), program, QStringLiteral("--etdump"), dump, QStringLiteral("--reference-program"),
                program, QStringLiteral("--reference"), dump, QStringLiteral("--first-divergence") });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        // 16 rows: the 15 logged outputs of the 14 instructions (the first XNNPACK call has two
        // outputs) and the program output, as the etdump mode lists them.
        QVERIFY2(
            result.out.startsWith(QStringLiteral("no divergence: 16 of 16 rows compared")), qPrintable(result.out));
        // The same-program modes take --first-divergence too.
        const Run same = run({ QStringLiteral("gap"), program, QStringLiteral("--etdump"), dump,
            QStringLiteral("--reference"), dump, QStringLiteral("--first-divergence") });
        QCOMPARE(same.exitCode, 0);
        QVERIFY2(same.out.startsWith(QStringLiteral("no divergence: 16 of 16 rows compared")), qPrintable(same.out));
    }

    /// An Inspector table as pandas prints it, one row's gap 10⁹ × the others': that row.
    void gapInspectorFirstDivergence()
    {
        QTemporaryDir dir;
        // `df.to_string()`: the index, then each column right-aligned under its right-aligned name,
        // two spaces apart (as kMlpToString in tst_numericgap).
        const QString table = writeText(dir, QStringLiteral("printed.txt"),
            "   idx                   aot_ops                        runtime_ops            gap\n"
            "0    0    [aten_select_copy_int]  [native_call_select_copy.int_out]         [0.25]\n"
            "1    1  [aten_select_copy_int_1]  [native_call_select_copy.int_out]         [0.25]\n"
            "2    2         [aten_mul_tensor]                    [DELEGATE_CALL]  [250000000.0]\n"
            "3    3      [aten_clamp_default]            [native_call_clamp.out]         [0.25]\n");
        const Run result = run({ QStringLiteral("gap"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--inspector-table"), table, QStringLiteral("--first-divergence") });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.startsWith(QStringLiteral("first divergence: row 2, forward › #6 XnnpackBackend\n")),
            qPrintable(result.out));
        QVERIFY(result.out.contains(QStringLiteral("gap 2.5e+08 is 1e+09 × the table's median gap 0.25 (> 1000)")));
    }

    void gapInputErrors()
    {
        QFETCH(QString, option);
        QFETCH(QString, path);
        QFETCH(QString, reason);
        QStringList arguments { QStringLiteral("gap"), sample("executorch/add.pte") };
        const QString dump = generated("add/add.intermediates.etdp");
        arguments << QStringLiteral("--etdump") << (option == QStringLiteral("--etdump") ? path : dump);
        arguments << QStringLiteral("--reference") << (option == QStringLiteral("--reference") ? path : dump);
        if (option == QStringLiteral("--debug-buffer"))
            arguments << option << path;
        const Run result = run(arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(path + QStringLiteral(": ")), qPrintable(result.err));
        QVERIFY2(result.err.contains(reason), qPrintable(result.err));
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
        QVERIFY(result.out.isEmpty());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestDebugCli)
#include "tst_debugcli.moc"
