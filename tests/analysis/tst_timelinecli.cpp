// SPDX-License-Identifier: MIT
// `etscope timeline` as a script would use it: Chrome trace and CSV on real ETDumps, with and
// without the program, and its exit codes (0 ok, 1 usage, 2 unreadable input).
#include "tests/common/clirun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;

CliRun run(const QStringList& arguments)
{
    return etscope::test::runEtscope(QStringList { QStringLiteral("timeline") } + arguments);
}

QString sample(const std::string& relative)
{
    return etscope::test::sampleArgument(relative);
}

/// The names of the thread_name (or process_name) metadata events of a trace.
QStringList metadataNames(const json& trace, const char* kind)
{
    QStringList names;
    for (const json& event : trace.at("traceEvents"))
        if (event.value("ph", "") == "M" && event.value("name", "") == kind)
            names << QString::fromStdString(event.at("args").at("name").get<std::string>());
    return names;
}

} // namespace

class TestTimelineCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    /// add.intermediates.x3 as CSV: a header and 3 runs × 3 events. Run 1's kernel,
    /// native_call_add.out, starts 1212670 − 1212510 = 160 ns into its run and lasts
    /// 1213361 − 1212670 = 691 ns (raw ticks read with flatc, see tst_timeline).
    void csvOfThreeRuns()
    {
        const CliRun result = run(
            { sample("generated/add/add.intermediates.x3.etdp"), QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.err.isEmpty());
        const QStringList lines = result.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 10);
        QCOMPARE(lines[0],
            QStringLiteral("run,lane,depth,name,kind,start_us,duration_us,chain,instruction,delegate_debug_identifier,"
                           "node,op_types"));
        QCOMPARE(lines[6], QStringLiteral("1,method,2,native_call_add.out,kernel,0.160,0.691,0,0,,,"));

        const CliRun one = run({ sample("generated/add/add.intermediates.x3.etdp"), QStringLiteral("--format=csv"),
            QStringLiteral("--run"), QStringLiteral("1") });
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(one.out.trimmed().split(QLatin1Char('\n')).size(), 4);
        QVERIFY(one.out.contains(QStringLiteral("\n1,method,0,Method::execute,framework,0.000,1.062,,,,,")));
    }

    /// The Chrome trace of quantized.profile with its program, written with -o: it parses, has a
    /// process per run, the method and XNNPACK lanes named, and the GEMM event's ts and dur in
    /// µs from the raw ticks: 2338765 ns → 2338.765 µs, 2354765 − 2338765 = 16000 ns → 16 µs.
    void chromeTraceWithProgram()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("trace.json"));
        const CliRun result = run({ sample("generated/quantized/quantized.profile.etdp"), QStringLiteral("--program"),
            sample("executorch-numpy-runtime/quantized.pte"), QStringLiteral("--format"),
            QStringLiteral("chrome-trace"), QStringLiteral("-o"), out });
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.isEmpty(), qPrintable(result.err));
        QVERIFY(result.out.isEmpty());
        const json trace = json::parse(etscope::test::readFile(out).toStdString());
        QCOMPARE(metadataNames(trace, "process_name").size(), 1);
        QCOMPARE(metadataNames(trace, "thread_name"),
            QStringList({ QStringLiteral("forward"), QStringLiteral("XnnpackBackend #0 (instruction 0)") }));
        bool found = false;
        for (const json& event : trace.at("traceEvents")) {
            if (event.value("name", "") != "Fully Connected (NC, QS8) GEMM #1")
                continue;
            found = true;
            ETSCOPE_COMPARE_JSON(event.at("ph"), "X");
            QCOMPARE(event.at("ts").get<double>(), 2338.765);
            QCOMPARE(event.at("dur").get<double>(), 16.0);
            ETSCOPE_COMPARE_JSON(event.at("pid"), 1);
            ETSCOPE_COMPARE_JSON(event.at("tid"), 2);
            ETSCOPE_COMPARE_JSON(event.at("args").at("node"), "XnnpackBackend › XNNFullyConnected");
            ETSCOPE_COMPARE_JSON(event.at("args").at("instruction"), 0);
        }
        QVERIFY(found);
    }

    /// The Python-serialized fixture has 5 Execute blocks: 5 processes in the trace.
    void everyRunIsAProcess()
    {
        const CliRun result = run(
            { sample("executorch-matrix/sample.etdump"), QStringLiteral("--format"), QStringLiteral("chrome-trace") });
        QCOMPARE(result.exitCode, 0);
        const json trace = json::parse(result.out.toStdString());
        QCOMPARE(metadataNames(trace, "process_name").size(), 5);
    }

    /// The tutorial's CNN dump against add.pte: still a timeline (exit 0), but stderr says it
    /// does not fit.
    void wrongProgramWarns()
    {
        const CliRun result = run({ sample("executorch/etdump.etdp"), QStringLiteral("--program"),
            sample("executorch/add.pte"), QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.err.contains(QStringLiteral("is this ETDump from another program?")));
        QCOMPARE(result.out.trimmed().split(QLatin1Char('\n')).size(), 30); // header + 29 events
    }

    /// Without --format (issue 27 #10): CSV on stdout, a Chrome trace when -o names a .json file.
    void defaultFormat()
    {
        const QString x3 = sample("generated/add/add.intermediates.x3.etdp");
        const CliRun csv = run({ x3 });
        QCOMPARE(csv.exitCode, 0);
        const CliRun explicitCsv = run({ x3, QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(csv.out, explicitCsv.out);
        QVERIFY(csv.out.startsWith(QStringLiteral("run,")));
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("trace.json"));
        const CliRun json = run({ x3, QStringLiteral("-o"), trace });
        QCOMPARE(json.exitCode, 0);
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"traceEvents\""));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString x3 = sample("generated/add/add.intermediates.x3.etdp");
        QTest::addRow("unknown format") << QStringList { x3, QStringLiteral("--format"), QStringLiteral("json") } << 1
                                        << QStringLiteral("unknown format 'json'");
        QTest::addRow("run out of range") << QStringList {
            x3, QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--run"), QStringLiteral("3")
        } << 1 << QStringLiteral("add.intermediates.x3.etdp: run 3: there are 3 Execute");
        QTest::addRow("run not a number") << QStringList { x3, QStringLiteral("--format"), QStringLiteral("csv"),
            QStringLiteral("--run"), QStringLiteral("-1") }
                                          << 1 << QStringLiteral("--run expects a number");
        QTest::addRow("etrecord without program") << QStringList { x3, QStringLiteral("--format"),
            QStringLiteral("csv"), QStringLiteral("--etrecord"), QStringLiteral("r.bin") }
                                                  << 1 << QStringLiteral("need --program");
        QTest::addRow("two files") << QStringList { x3, x3, QStringLiteral("--format"), QStringLiteral("csv") } << 1
                                   << QStringLiteral("exactly one ETDUMP");
        QTest::addRow("missing file") << QStringList { QStringLiteral("/nonexistent/run.etdp"),
            QStringLiteral("--format"), QStringLiteral("csv") }
                                      << 2 << QStringLiteral("/nonexistent/run.etdp");
        QTest::addRow("a program, not an ETDump")
            << QStringList { sample("executorch/add.pte"), QStringLiteral("--format"), QStringLiteral("csv") } << 2
            << QStringLiteral("add.pte");
        QTest::addRow("program is an ETDump")
            << QStringList { x3, QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--program"), x3 }
            << 1 << QStringLiteral("--program needs a program");
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun result = run(arguments);
        QCOMPARE(result.exitCode, exitCode);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.startsWith(QStringLiteral("etscope timeline: ")), qPrintable(result.err));
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestTimelineCli)
#include "tst_timelinecli.moc"
