// SPDX-License-Identifier: MIT
// `etscope memory` as a script would use it: every format on a real sample, checked against the
// plan worked out by hand in tst_memoryplan (stress_mlp: arena 1 declared 100416 bytes, peak
// 100352 at step 13), and the error paths (exit 1 for usage, 2 for bad input, one line).
#include "tests/common/clirun.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using nlohmann::json;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;

} // namespace

class TestMemoryCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void text()
    {
        const CliRun r
            = runEtscope({ QStringLiteral("memory"), sampleArgument("djl-executorch-engine/stress_mlp.pte") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        QVERIFY(r.out.contains(QStringLiteral("method 'forward': 14 steps in 1 chain, 19 planned tensors")));
        QVERIFY(r.out.contains(QStringLiteral("#13 XnnpackBackend")));
        // The arena row: id, declared, highest end, peak, peak step.
        QVERIFY(r.out.contains(QRegularExpression(QStringLiteral("\\n1\\s+100416\\s+100352\\s+100352\\s+13\\s"))));
        QVERIFY(r.out.contains(QStringLiteral("constant segment")));
    }

    // One row per planned tensor; v43 is the 32768-byte output at offset 0, written at 13.
    void csv()
    {
        const CliRun r = runEtscope({ QStringLiteral("memory"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + 19);
        QVERIFY(lines[0].startsWith(QStringLiteral("value,arena,offset,bytes,end,first_step,last_step,role")));
        QVERIFY(r.out.contains(QStringLiteral("\n43,1,0,32768,32768,13,13,\"activation,output\",FLOAT")));
    }

    void jsonToFile()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("plan.json"));
        const CliRun r = runEtscope({ QStringLiteral("memory"), sampleArgument("dnf-executorch/dnf_executorch5.pte"),
            QStringLiteral("--method"), QStringLiteral("forward"), QStringLiteral("--format"), QStringLiteral("json"),
            QStringLiteral("-o"), out });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
        const json plan = json::parse(etscope::test::readFile(out).toStdString());
        ETSCOPE_COMPARE_JSON(plan["method"], "forward");
        QCOMPARE(plan["steps"].size(), std::size_t(92));
        ETSCOPE_COMPARE_JSON(plan["arenas"][0]["declared"], 17040);
        QCOMPARE(plan["arenas"][0]["live_bytes"].size(), std::size_t(92));
        ETSCOPE_COMPARE_JSON(plan["overlap_count"], 0);
        // v0 … v9 are the trainable weights with initial values: state, live 0–91.
        for (const json& t : plan["tensors"])
            if (t["value"].get<int>() < 10) {
                ETSCOPE_COMPARE_JSON(t["role"], "state");
                ETSCOPE_COMPARE_JSON(t["last_step"], 91);
            }
    }

    // Rows are steps, pid the arena, x the byte offset: stress_mlp's two inputs (32768 bytes at
    // 32768 and 65536) are live at all 14 steps, so 2 × 14 events sit at those offsets.
    void chromeTrace()
    {
        const CliRun r = runEtscope({ QStringLiteral("memory"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("--format"), QStringLiteral("chrome-trace") });
        QCOMPARE(r.exitCode, 0);
        const json trace = json::parse(r.out.toStdString());
        int inputs = 0;
        std::set<int> rows;
        for (const json& e : trace["traceEvents"]) {
            if (e["ph"] != "X")
                continue;
            ETSCOPE_COMPARE_JSON(e["pid"], 1);
            rows.insert(e["tid"].get<int>());
            if (e["dur"] == 32768 && (e["ts"] == 32768 || e["ts"] == 65536))
                ++inputs;
        }
        QCOMPARE(inputs, 28);
        QCOMPARE(rows.size(), std::size_t(14));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString mlp = sampleArgument("djl-executorch-engine/stress_mlp.pte");
        QTest::addRow("unknown format") << QStringList { QStringLiteral("memory"), mlp, QStringLiteral("--format"),
            QStringLiteral("svg") } << 1 << QStringLiteral("unknown format 'svg'");
        QTest::addRow("unknown method") << QStringList { QStringLiteral("memory"), mlp, QStringLiteral("--method"),
            QStringLiteral("nope") } << 1
                                        << QStringLiteral("no method named 'nope' (methods: forward)");
        QTest::addRow("no file") << QStringList { QStringLiteral("memory") } << 1
                                 << QStringLiteral("expected exactly one FILE");
        QTest::addRow("missing file") << QStringList { QStringLiteral("memory"), QStringLiteral("/nonexistent.pte") }
                                      << 2 << QStringLiteral("/nonexistent.pte");
        QTest::addRow("not a program") << QStringList { QStringLiteral("memory"), sampleArgument("executorch/xor.ptd") }
                                       << 1 << QStringLiteral("is not a program");
        QTest::addRow("corrupt") << QStringList { QStringLiteral("memory"),
            sampleArgument("djl-executorch-engine/corrupt.pte") }
                                 << 2 << QStringLiteral("corrupt.pte");
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun r = runEtscope(arguments);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    // Every cut of a real program is refused or read, never a crash (exit 0 or 2 only).
    void truncatedNeverCrashes()
    {
        const QByteArray bytes = etscope::test::readFile(sampleArgument("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(!bytes.isEmpty());
        QTemporaryDir dir;
        for (const qsizetype size :
            { qsizetype(0), qsizetype(7), qsizetype(64), bytes.size() / 3, bytes.size() / 2, bytes.size() - 1 }) {
            const QString path = dir.filePath(QStringLiteral("cut%1.pte").arg(size));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(bytes.left(size));
            file.close();
            const CliRun r
                = runEtscope({ QStringLiteral("memory"), path, QStringLiteral("--format"), QStringLiteral("json") });
            QVERIFY2(r.exitCode == 0 || r.exitCode == 2,
                qPrintable(QStringLiteral("exit %1 at %2").arg(r.exitCode).arg(size)));
            if (r.exitCode == 2)
                QVERIFY(r.err.contains(path));
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestMemoryCli)
#include "tst_memorycli.moc"
