// SPDX-License-Identifier: MIT
// `etscope why` as a user runs it: text, JSON and CSV on the real Ethos-U MobileNetV2 with its
// avg_pool3d (kernel 5×1×1, read off the program: values 17-19 of forward), a writer-made Arm
// partition report placed on it, partition_report.txt found beside a program, and the error
// paths (exit 1 for usage, 2 for input that cannot be read).
#include "core/writer/partitionlogwriter.h"
#include "tests/common/clirun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;

const char* const kLrn = "executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte";

QString armReport()
{
    return QString::fromStdString(etscope::core::writeArmPartitionReport({ { "TOSA-1.0+INT+int16+u55",
        { { "aten_avg_pool3d_default", "aten.avg_pool3d.default",
            "('avg_pool3d', 'builtin_function_or_method.avg_pool3d')",
            "Not included in BaseTOSASupportList or a registered tosa_support_check" } } } }));
}

} // namespace

class TestWhyCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void text()
    {
        const CliRun r = runEtscope({ QStringLiteral("why"), sampleArgument(kLrn) });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY(
            r.out.contains(QStringLiteral("5 operator nodes outside every delegate, checked against EthosUBackend")));
        QVERIFY(r.out.contains(QStringLiteral("#3 aten::avg_pool3d.out  constraint fails  EthosUBackend")));
        QVERIFY(r.out.contains(QStringLiteral("kernel 5\u00d71\u00d71 (3-D)")));
        QVERIFY(r.out.contains(QStringLiteral("#0, #2, #4, #6  boundary  4 nodes")));
        QVERIFY(r.out.contains(
            QStringLiteral("totals: 1 constraint fails, 0 no rule, 0 constraints hold, 4 boundary (in 1 group)")));
    }

    void jsonFormat()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("why.json"));
        const CliRun r = runEtscope({ QStringLiteral("why"), sampleArgument(kLrn), QStringLiteral("--format"),
            QStringLiteral("json"), QStringLiteral("-o"), out });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
        const auto root = json::parse(etscope::test::readFile(out).toStdString());
        QCOMPARE(root["nodes"].size(), std::size_t(5));
        QCOMPARE(root["totals"]["constraint_fails"].get<int>(), 1);
        QCOMPARE(root["totals"]["boundary"].get<int>(), 4);
        QCOMPARE(root["groups"].size(), std::size_t(1));
        const json& pool = root["nodes"][2];
        QCOMPARE(pool["instruction"].get<int>(), 3);
        QCOMPARE(pool["kind"].get<std::string>(), std::string("constraint fails"));
        QVERIFY(pool["source"].get<std::string>().find("pool_2d_support.py") != std::string::npos);
    }

    void csvWithReport()
    {
        QTemporaryDir dir;
        const auto log = etscope::test::writeTestFile(dir, QStringLiteral("arm.log"), armReport().toUtf8());
        QVERIFY(log);
        const CliRun r = runEtscope({ QStringLiteral("why"), sampleArgument(kLrn), QStringLiteral("--report"), *log,
            QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + 5);
        QVERIFY(lines[0].startsWith(
            QStringLiteral("method,chain,instruction,op,fx_name,backend,target,kind,reason,source,matched,logged")));
        QVERIFY(lines[3].startsWith(QStringLiteral("forward,0,3,aten::avg_pool3d.out,")));
        QVERIFY(lines[3].contains(QStringLiteral("Not included in BaseTOSASupportList or a registered "
                                                 "tosa_support_check (matched by operator type and order")));
    }

    // Arm's flow leaves partition_report.txt in its intermediates folder: read without --report.
    void reportBesideProgram()
    {
        QTemporaryDir dir;
        const QByteArray program = etscope::test::readFile(sampleArgument(kLrn));
        const auto copy = etscope::test::writeTestFile(dir, QStringLiteral("model.pte"), program);
        QVERIFY(copy);
        QVERIFY(etscope::test::writeTestFile(dir, QStringLiteral("partition_report.txt"), armReport().toUtf8()));
        const CliRun r = runEtscope({ QStringLiteral("why"), *copy });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("partition_report.txt:6, matched by operator type and order")));
        QVERIFY(r.out.contains(QStringLiteral("1 of 1 logged reasons placed from 1 log")));
    }

    // --target chooses the rules of one device: stress_mlp's index_select (instruction 11) is
    // refused by the U55 subset and taken by the U85's TOSA list.
    void namedTarget()
    {
        const CliRun u55 = runEtscope({ QStringLiteral("why"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--backend"), QStringLiteral("EthosUBackend"), QStringLiteral("--target"),
            QStringLiteral("Ethos-U55") });
        QCOMPARE(u55.exitCode, 0);
        QVERIFY2(u55.out.contains(QStringLiteral("no rule of EthosUBackend (Ethos-U55) covers aten::index_select")),
            qPrintable(u55.out));
        const CliRun bad = runEtscope({ QStringLiteral("why"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--backend"), QStringLiteral("EthosUBackend"), QStringLiteral("--target"),
            QStringLiteral("U55") });
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains(QStringLiteral("no target 'U55' for EthosUBackend")));
    }

    void help()
    {
        const CliRun r = runEtscope({ QStringLiteral("why"), QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("Usage:\n  etscope why PROGRAM [--report LOG]")));
        QVERIFY(r.out.contains(QStringLiteral("no rule of BACKEND covers OP")));
        QVERIFY(!r.out.contains(QStringLiteral("etscope memory")));
    }

    void errors()
    {
        QCOMPARE(runEtscope({ QStringLiteral("why") }).exitCode, 1);
        QCOMPARE(runEtscope(
                     { QStringLiteral("why"), sampleArgument(kLrn), QStringLiteral("--format"), QStringLiteral("md") })
                     .exitCode,
            1);
        const CliRun backend = runEtscope(
            { QStringLiteral("why"), sampleArgument(kLrn), QStringLiteral("--backend"), QStringLiteral("Nope") });
        QCOMPARE(backend.exitCode, 1);
        QVERIFY(backend.err.contains(QStringLiteral("no rule table for backend 'Nope'")));
        const CliRun targetAlone = runEtscope(
            { QStringLiteral("why"), sampleArgument(kLrn), QStringLiteral("--target"), QStringLiteral("Ethos-U55") });
        QCOMPARE(targetAlone.exitCode, 1);
        QVERIFY(targetAlone.err.contains(QStringLiteral("--target needs --backend")));
        const CliRun missing = runEtscope({ QStringLiteral("why"), QStringLiteral("/nonexistent/model.pte") });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.startsWith(QStringLiteral("etscope why: /nonexistent/model.pte")));
        const CliRun report = runEtscope({ QStringLiteral("why"), sampleArgument(kLrn), QStringLiteral("--report"),
            QStringLiteral("/nonexistent/log.txt") });
        QCOMPARE(report.exitCode, 2);
        QVERIFY(report.err.contains(QStringLiteral("/nonexistent/log.txt")));
        const CliRun notProgram = runEtscope({ QStringLiteral("why"), sampleArgument("executorch/etdump.etdp") });
        QCOMPARE(notProgram.exitCode, 1);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestWhyCli)
#include "tst_whycli.moc"
