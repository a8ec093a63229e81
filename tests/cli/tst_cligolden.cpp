// SPDX-License-Identifier: MIT
// Golden CLI outputs: what `etscope info|ops|check|memory|size` print for two real samples, byte
// for byte, against tests/data/golden/cli/*.expected (the samples folder written as <samples>).
// A change in any of these reports shows up here as a unified diff; when the change is meant,
// rerun with ETSCOPE_UPDATE_GOLDEN=1 and review the rewritten files in git.
//
// The expected files were read against the samples when written: stress_mlp.pte has 14
// instructions in `forward` (12 kernel calls, 2 XnnpackBackend delegates of 2 and 13 nodes:
// SOURCES.md), and `xxd -s 8 -l 32` shows its eh00 header: length 0x20, program 0x1788 = 6024
// bytes, segments at 0x1800 = 6144, 0x293e80 = 2702976 bytes; ethos_u_minimal_example_u55.pte
// has 4 instructions (3 kernel calls, 1 inline EthosUBackend delegate of 1312 B), and its two
// quantized_decomposed operators are not in portable, so `check --preset portable` says it will
// not load (exit 3). `check-automatic` is the default, the runtime from the delegates: the
// android-xnnpack preset for stress_mlp, arm-ethos-u (which has quantized.yaml) for the Ethos-U
// program, which then loads (exit 0). The `check` goldens name portable: they were written
// when portable was the default, and say so now.
#include "tests/common/clirun.h"
#include "tests/common/golden.h"

#include <QTest>

class TestCliGolden : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void reports_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("sample");
        QTest::addColumn<int>("exitCode");
        const struct {
            const char* name;
            const char* path;
            int checkExit;
            int automaticExit;
        } samples[] = {
            { "stress_mlp", "djl-executorch-engine/stress_mlp.pte", 0, 0 },
            { "ethos_u55", "cmsis-executorch/ethos_u_minimal_example_u55.pte", 3, 0 },
        };
        for (const auto& sample : samples)
            for (const char* command : { "info", "ops", "check", "check-automatic", "memory", "size" }) {
                const QByteArrayView name(command);
                QTest::addRow("%s-%s", command, sample.name)
                    << QString::fromLatin1(command) << QString::fromLatin1(sample.path)
                    << (name == "check"                    ? sample.checkExit
                               : name == "check-automatic" ? sample.automaticExit
                                                           : 0);
            }
    }

    void reports()
    {
        QFETCH(QString, command);
        QFETCH(QString, sample);
        QFETCH(int, exitCode);
        QStringList arguments { command, etscope::test::sampleArgument(sample.toStdString()) };
        if (command == QLatin1String("check"))
            arguments << QStringLiteral("--preset") << QStringLiteral("portable");
        else if (command == QLatin1String("check-automatic"))
            arguments[0] = QStringLiteral("check");
        const etscope::test::CliRun run = etscope::test::runEtscope(arguments);
        QVERIFY2(run.exitCode == exitCode, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err)));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        ETSCOPE_COMPARE_GOLDEN(QStringLiteral("cli/") + QString::fromLatin1(QTest::currentDataTag()),
            etscope::test::normaliseSamplePaths(run.out));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCliGolden)
#include "tst_cligolden.moc"
