// SPDX-License-Identifier: MIT
// `etscope export`: the GUI's renderer without a display, as CI scripts use it.
#include "tests/common/clirun.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = etscope::test::CliRun;

Run run(const QStringList& arguments)
{
    // No display at all: the command must not need one.
    return etscope::test::runEtscope(
        arguments, { .unsetEnv = { QStringLiteral("DISPLAY"), QStringLiteral("QT_QPA_PLATFORM") } });
}

QString sample(const std::string& relative)
{
    return etscope::test::sampleArgument(relative);
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
    }

    void formats_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::addRow("png") << QStringLiteral("g.png") << QByteArray("\x89PNG\r\n\x1a\n");
        QTest::addRow("svg") << QStringLiteral("g.svg") << QByteArray("<?xml");
        QTest::addRow("pdf") << QStringLiteral("g.pdf") << QByteArray("%PDF-");
    }

    void formats()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        const QString out = m_dir.filePath(name);
        const Run result = run({ QStringLiteral("export"), sample("djl-executorch-engine/stress_mlp.pte"),
            QStringLiteral("-o"), out, QStringLiteral("--expand"), QStringLiteral("all") });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(etscope::test::readFile(out).startsWith(magic));
    }

    void svgContainsWhatTheGraphShows()
    {
        const QString out = m_dir.filePath(QStringLiteral("expanded.svg"));
        QCOMPARE(run({ QStringLiteral("export"), sample("dnf-executorch/dnf_xnnpack_training.pte"),
                         QStringLiteral("-o"), out, QStringLiteral("--expand"), QStringLiteral("XnnpackBackend") })
                     .exitCode,
            0);
        const QByteArray svg = etscope::test::readFile(out);
        for (const char* text :
            { "XnnpackBackend", "XNNStaticTranspose", "XNNNegate", "addmm.out", "dnf_xnnpack_training.pte — forward" })
            QVERIFY2(svg.contains(text), text);

        const QString collapsed = m_dir.filePath(QStringLiteral("collapsed.svg"));
        QCOMPARE(run({ QStringLiteral("export"), sample("dnf-executorch/dnf_xnnpack_training.pte"),
                         QStringLiteral("-o"), collapsed })
                     .exitCode,
            0);
        QVERIFY(!etscope::test::readFile(collapsed).contains("XNNNegate"));

        const QString one = m_dir.filePath(QStringLiteral("delegate.svg"));
        QCOMPARE(run({ QStringLiteral("export"), sample("dnf-executorch/dnf_xnnpack_training.pte"),
                         QStringLiteral("-o"), one, QStringLiteral("--delegate"), QStringLiteral("2") })
                     .exitCode,
            0);
        const QByteArray inner = etscope::test::readFile(one);
        QVERIFY(inner.contains("XNNNegate"));
        QVERIFY(!inner.contains("addmm.out"));
    }

    void timingsNameEveryPhase()
    {
        const QString out = m_dir.filePath(QStringLiteral("timed.svg"));
        const Run result = run({ QStringLiteral("export"), sample("dnf-executorch/dnf_executorch5.pte"),
            QStringLiteral("--timings"), QStringLiteral("-o"), out });
        QCOMPARE(result.exitCode, 0);
        for (const char* phase : { "open", "graph", "layout", "scene", "render" }) {
            const QRegularExpression line(
                QStringLiteral("^etscope timing: %1 [0-9]+\\.[0-9] ms$").arg(QLatin1String(phase)),
                QRegularExpression::MultilineOption);
            QVERIFY2(line.match(result.err).hasMatch(), qPrintable(phase + (QStringLiteral(": ") + result.err)));
        }
        // Without --timings, nothing.
        const Run quiet = run(
            { QStringLiteral("export"), sample("dnf-executorch/dnf_executorch5.pte"), QStringLiteral("-o"), out });
        QCOMPARE(quiet.exitCode, 0);
        QVERIFY2(!quiet.err.contains(QLatin1String("timing")), qPrintable(quiet.err));
    }

    void appQuitsAfterFirstPaint_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addRow("program") << sample("executorch/add.pte") << 0;
        QTest::addRow("without graph") << sample("executorch/linear.ptd") << 0;
        // Its page is drawn once the worker has built its tables (issue 27 #13).
        QTest::addRow("etdump alone") << sample("generated/add/add.profile.etdp") << 0;
        QTest::addRow("corrupt") << sample("djl-executorch-engine/corrupt.pte") << 1;
    }

    void appQuitsAfterFirstPaint()
    {
        // The desktop app, offscreen: --quit-after-paint ends it once the first view is drawn,
        // and --timings has measured every phase by then.
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        const Run result = etscope::test::runEtscope(
            { QStringLiteral("--timings"), QStringLiteral("--quit-after-paint"), file },
            { .setEnv = { { QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen") } }, .timeoutMs = 60000 });
        QCOMPARE(result.exitCode, exitCode);
        const QString& err = result.err;
        QVERIFY2(err.contains(QLatin1String("etscope timing: startup ")), qPrintable(err));
        if (exitCode != 0) {
            QVERIFY2(err.contains(QLatin1String("corrupt.pte")), qPrintable(err));
            return;
        }
        QVERIFY2(err.contains(QLatin1String("etscope timing: longest-stall ")), qPrintable(err));
        if (file.endsWith(QLatin1String(".pte")))
            for (const char* phase : { "open", "graph", "layout", "scene", "first-paint" })
                QVERIFY2(
                    err.contains(QStringLiteral("etscope timing: %1 ").arg(QLatin1String(phase))), qPrintable(err));
        if (file.endsWith(QLatin1String(".etdp")))
            QVERIFY2(err.contains(QLatin1String("etscope timing: etdump-page ")), qPrintable(err));
    }

    void opaqueProgramsExport()
    {
        for (const char* file : { "executorch/stories260k_hybrid_llama_qnn.pte",
                 "pte-adapter-model-explorer/mobilenet_v2_ethosu.pte", "djl-executorch-engine/openvino_tiny.pte" }) {
            const QString out = m_dir.filePath(QStringLiteral("opaque.svg"));
            const Run result = run({ QStringLiteral("export"), sample(file), QStringLiteral("-o"), out });
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
            QVERIFY(etscope::test::readFile(out).contains("Backend"));
        }
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString stress = sample("djl-executorch-engine/stress_mlp.pte");
        QTest::addRow("no output") << QStringList { QStringLiteral("export"), stress } << 1
                                   << QStringLiteral("give the picture to write");
        QTest::addRow("unknown extension") << QStringList { QStringLiteral("export"), stress, QStringLiteral("-o"),
            QStringLiteral("x.bmp") } << 1 << QStringLiteral("unknown picture format");
        QTest::addRow("unknown backend") << QStringList { QStringLiteral("export"), stress, QStringLiteral("-o"),
            QStringLiteral("x.svg"), QStringLiteral("--expand"), QStringLiteral("VulkanBackend") }
                                         << 1
                                         << QStringLiteral("no decodable delegate with backend id 'VulkanBackend'");
        // Every backend of the real samples is decoded since issue 23: the bundled demo's
        // AcmeNpuBackend (forward's delegate 1, the build writes it beside the binary) stays opaque.
        const QString demo = QFileInfo(QStringLiteral(ETSCOPE_BINARY)).dir().filePath(QStringLiteral("demo/demo.pte"));
        QTest::addRow("opaque delegate") << QStringList { QStringLiteral("export"), demo, QStringLiteral("-o"),
            QStringLiteral("x.svg"), QStringLiteral("--method"), QStringLiteral("forward"),
            QStringLiteral("--delegate"), QStringLiteral("1") }
                                         << 2 << QStringLiteral("has no decodable inner graph");
        QTest::addRow("corrupt input") << QStringList { QStringLiteral("export"),
            sample("djl-executorch-engine/corrupt.pte"), QStringLiteral("-o"), QStringLiteral("x.svg") }
                                       << 2 << QStringLiteral("not an ExecuTorch file");
        QTest::addRow("unwritable output") << QStringList { QStringLiteral("export"), stress, QStringLiteral("-o"),
            QStringLiteral("/nonexistent/dir/x.svg") }
                                           << 2 << QStringLiteral("/nonexistent/dir/x.svg");
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run result = run(arguments);
        QCOMPARE(result.exitCode, exitCode);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
