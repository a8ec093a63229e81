// SPDX-License-Identifier: MIT
// The debug side of the CLI as a script would use it: `info` on ETDumps and ETRecords, `ops
// --etrecord`, and every path of `gap` (exit codes 0/1/2, one-line errors naming the file).
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QStringList& arguments)
{
    QProcess process;
    process.start(QStringLiteral(ETSCOPE_BINARY), arguments);
    if (!process.waitForFinished(120000)) {
        process.kill();
        return { -2, {}, QStringLiteral("timed out") };
    }
    Run result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -3;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString sample(const std::string& relative)
{
    return QString::fromStdString(etscope::test::samplePath(relative));
}

QString generated(const std::string& relative)
{
    return sample("generated/" + relative);
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
                 "--bundled-reference", "--etrecord", "--metric" })
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
        QVERIFY(text.out.contains(QStringLiteral("aten_mul_tensor")));
        QVERIFY(text.out.contains(QStringLiteral(
            "Total delegated subgraphs: 0\nNumber of delegated nodes: 0\nNumber of non-delegated nodes: 1\n")));
        const Run csv = run({ QStringLiteral("ops"), sample("executorch/add.pte"), QStringLiteral("--etrecord"),
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
        QVERIFY(text.out.contains(QStringLiteral("test case 0 expected outputs")));
        const Run notBundled = run({ QStringLiteral("gap"), sample("executorch/add.pte"), QStringLiteral("--etdump"),
            generated("add/add.outputs.etdp"), QStringLiteral("--bundled-reference") });
        QCOMPARE(notBundled.exitCode, 1);
        QVERIFY(notBundled.err.contains(QStringLiteral("needs a bundled program")));
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

QTEST_GUILESS_MAIN(TestDebugCli)
#include "tst_debugcli.moc"
