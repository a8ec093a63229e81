// SPDX-License-Identifier: MIT
// `etscope diff` as a script would use it: exit codes (0 whatever differs, 1 usage, 2 input),
// one-line errors naming the file, the summary line, Markdown tables, JSON and -o.
#include "tests/common/clirun.h"

#include "core/util/text.h"
#include "core/writer/comparepairs.h"
#include "core/writer/programwriter.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;

CliRun run(const QStringList& arguments)
{
    return etscope::test::runEtscope(QStringList { QStringLiteral("diff") } + arguments);
}

QString sample(const std::string& relative)
{
    return etscope::test::sampleArgument(relative);
}

} // namespace

class TestDiffCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_portable, m_lowered;
    std::uint64_t m_payloadBytes = 0;

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
        using namespace etscope::core;
        ComparePair pair = makeMlpComparePair(8);
        m_payloadBytes = pair.payloadBytes;
        MethodSpec extra = pair.lowered.methods.front();
        extra.name = "classify";
        pair.lowered.methods.push_front(std::move(extra));
        m_portable = m_dir.filePath(QStringLiteral("portable.pte"));
        m_lowered = m_dir.filePath(QStringLiteral("lowered.pte"));
        QVERIFY(!writeBytesToFile(m_portable.toStdString(), writeProgram(pair.portable).value()));
        QVERIFY(!writeBytesToFile(m_lowered.toStdString(), writeProgram(pair.lowered).value()));
    }

    void selfIsSame()
    {
        const CliRun r = run({ sample("executorch/add.pte"), sample("executorch/add.pte") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QString summary = r.out.split(QLatin1Char('\n')).value(2);
        QVERIFY2(summary.startsWith(QStringLiteral("methods: same (forward); no delegates;")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("nodes: 4 same, 0 changed, 0 only in A, 0 only in B")),
            qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("files byte-identical (728 B)")));
    }

    /// The writer pair: 1 XNNPACK delegate appears, 4 operators move (2 addmm, 2 relu), and
    /// classify is only in B — reported, exit 0.
    void writerPairText()
    {
        const CliRun r = run({ m_portable, m_lowered });
        QCOMPARE(r.exitCode, 0);
        const QString summary = r.out.split(QLatin1Char('\n')).value(2);
        const QString delegates = QStringLiteral("XnnpackBackend delegates 0 → 2 (+%1)")
                                      .arg(QString::fromStdString(etscope::core::formatBytes(2 * m_payloadBytes)));
        // Both methods hold the lowered forward: 2 calls over the compared methods.
        QVERIFY2(summary.contains(delegates), qPrintable(summary + QStringLiteral(" / ") + delegates));
        QVERIFY2(summary.contains(QStringLiteral("methods: only in B: classify")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("4 ops moved into delegates")), qPrintable(summary));
        QVERIFY(r.out.contains(QStringLiteral("note: method 'classify' is only in B")));
        QVERIFY(r.out.contains(QRegularExpression(
            QStringLiteral(R"(\ninto delegate +aten::addmm\.out +XNNFullyConnected +XnnpackBackend +2\n)"))));
        QVERIFY(r.out.contains(
            QRegularExpression(QStringLiteral(R"(\ninto delegate +aten::relu\.out +XNNClamp +XnnpackBackend +2\n)"))));
    }

    void writerPairJsonAndMethod()
    {
        const CliRun r = run({ m_portable, m_lowered, QStringLiteral("--method"), QStringLiteral("forward"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(r.exitCode, 0);
        const json j = json::parse(r.out.toStdString());
        QCOMPARE(j["compared_methods"].size(), std::size_t(1));
        const json& forward = j["compared_methods"][0];
        QCOMPARE(forward["moved_into_delegates"].get<int>(), 4);
        QCOMPARE(forward["counts"]["same"].get<int>(), 6);
        QCOMPARE(forward["counts"]["changed"].get<int>(), 8);
        QCOMPARE(forward["counts"]["only_in_b"].get<int>(), 3);
        QCOMPARE(j["backends"][0]["payload_bytes_b"].get<std::uint64_t>(), m_payloadBytes);
        // Every match names its nodes for the side-by-side view.
        for (const json& m : forward["matches"])
            QVERIFY(!m["a"].is_null() || !m["b"].is_null());

        const CliRun only = run({ m_portable, m_lowered, QStringLiteral("--method"), QStringLiteral("classify") });
        QCOMPARE(only.exitCode, 0);
        QVERIFY(only.out.contains(QStringLiteral("Method 'classify' (only in B): operators")));
    }

    void markdownAndOutputFile()
    {
        const QString out = m_dir.filePath(QStringLiteral("diff.md"));
        const CliRun r = run(
            { m_portable, m_lowered, QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("-o"), out });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
        const QByteArray text = etscope::test::readFile(out);
        QVERIFY(text.startsWith("# etscope diff\n"));
        QVERIFY(text.contains("| op_type | A delegated | A non-delegated | B delegated | B non-delegated |"));
        QVERIFY(text.contains("| aten::relu.out | 0 | 2 | 0 | 0 | 0 | -2 |"));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString add = sample("executorch/add.pte");
        QTest::addRow("one file") << QStringList { add } << 1 << QStringLiteral("expected two program files");
        QTest::addRow("three files") << QStringList { add, add, add } << 1
                                     << QStringLiteral("expected two program files");
        QTest::addRow("bad format") << QStringList { add, add, QStringLiteral("--format"), QStringLiteral("csv") } << 1
                                    << QStringLiteral("unknown format 'csv'");
        QTest::addRow("no such method") << QStringList { add, add, QStringLiteral("--method"), QStringLiteral("nope") }
                                        << 1 << QStringLiteral("neither file has a method named 'nope'");
        QTest::addRow("missing file") << QStringList { add, QStringLiteral("/nonexistent/b.pte") } << 2
                                      << QStringLiteral("/nonexistent/b.pte");
        QTest::addRow("corrupt") << QStringList { sample("djl-executorch-engine/corrupt.pte"), add } << 2
                                 << QStringLiteral("corrupt.pte: not an ExecuTorch file");
        QTest::addRow("etdump") << QStringList { add, sample("generated/add/add.profile.etdp") } << 1
                                << QStringLiteral("add.profile.etdp: is not a program (etdp)");
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliRun r = run(arguments);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith(QStringLiteral("etscope diff: ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
};

QTEST_GUILESS_MAIN(TestDiffCli)
#include "tst_diffcli.moc"
