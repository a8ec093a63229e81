// SPDX-License-Identifier: MIT
// `etscope diff` as a script would use it: exit codes (0 whatever differs, 1 usage, 2 input),
// one-line errors naming the file, the summary line, Markdown tables, JSON and -o.
#include "tests/common/clirun.h"
#include "tests/common/deviceprograms.h"

#include "core/util/text.h"
#include "core/writer/comparepairs.h"
#include "core/writer/debug/etrecordwriter.h"
#include "core/writer/programwriter.h"

#include <QFile>
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

    /// The label of the B node matched with A's node `labelA` in method forward.
    static std::string partnerOf(const json& report, const std::string& labelA)
    {
        for (const json& m : report["compared_methods"][0]["matches"])
            if (!m["a"].is_null() && m["a"]["label"] == labelA)
                return m["b"].is_null() ? std::string() : m["b"]["label"].get<std::string>();
        return "(none)";
    }
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

    /// Issue 33: two QNN builds whose context binaries name other SDKs (writer-made) state the
    /// change in the summary, text table and JSON, not only "content differs".
    void deviceFacts()
    {
        const QString newer = m_dir.filePath(QStringLiteral("qnn-245.pte"));
        const QString older = m_dir.filePath(QStringLiteral("qnn-237.pte"));
        QVERIFY(!etscope::core::writeBytesToFile(
            newer.toStdString(), etscope::core::writeProgram(etscope::test::qnnProgram("v2.45.0.fixture")).value()));
        QVERIFY(!etscope::core::writeBytesToFile(
            older.toStdString(), etscope::core::writeProgram(etscope::test::qnnProgram("v2.37.0.fixture")).value()));
        const CliRun r = run({ newer, older });
        QCOMPARE(r.exitCode, 0);
        const QString summary = r.out.split(QLatin1Char('\n')).value(2);
        QVERIFY2(
            summary.contains(QStringLiteral(
                "device facts: QNN SDK build id v2.45.0.fixture → v2.37.0.fixture, QNN SDK version 2.45.0 → 2.37.0")),
            qPrintable(summary));
        QVERIFY(r.out.contains(QStringLiteral("Device facts that changed")));
        const CliRun j = run({ newer, older, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(j.exitCode, 0);
        const json report = json::parse(j.out.toStdString());
        QCOMPARE(report["device_facts"].size(), std::size_t(2));
        QCOMPARE(report["device_facts"][1]["key"].get<std::string>(), std::string("qnn.sdk_version"));
        QCOMPARE(report["device_facts"][1]["a"].get<std::string>(), std::string("2.45.0"));
        QCOMPARE(report["device_facts"][1]["b"].get<std::string>(), std::string("2.37.0"));
        // The real Ethos-U pair (tst_programdiff.cpp has the bytes): U55-128 against U85-256.
        const CliRun real = run(
            { sample("tinycnn/tinycnn_u55.pte"), sample("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte") });
        QCOMPARE(real.exitCode, 0);
        QVERIFY2(real.out.contains(QStringLiteral("device facts: Ethos-U target ethos-u55-128 → ethos-u85-256")),
            qPrintable(real.out.left(2000)));
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
                                      .arg(QString::fromStdString(etscope::core::formatBytes(m_payloadBytes)));
        // Both methods hold the lowered forward: 2 calls over the compared methods, whose payloads
        // the writer stores once (identical bytes share one segment): each stored byte counts once.
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

    /// --etrecord RA --etrecord RB: the records of debugHandlesIntoDelegate in tst_programdiff
    /// (A: instruction k → handle k + 1; B: DelegateCall → [1..4], addmm → 5, _softmax → 6,
    /// delegate_map crossed: XNNPACK node 1 → 3, 2 → 4, 3 → 1, 4 → 2). A's first addmm (h1)
    /// then goes to the XNNPACK node with identifier 3, the second FullyConnected — the node the
    /// plain matching gives A's second addmm — and the reverse.
    void etrecordPair()
    {
        using namespace etscope::core;
        const auto handles = [](std::vector<std::int64_t> values) {
            std::map<int, DebugHandleEntry> entries;
            for (std::size_t k = 0; k < values.size(); ++k)
                entries[static_cast<int>(k)] = DebugHandleEntry { { DebugHandle(values[k]) }, false };
            return std::map<std::string, std::map<int, DebugHandleEntry>> { { "forward", entries } };
        };
        ETRecordWriteSpec specA, specB;
        specA.debugHandleMap = handles({ 1, 2, 3, 4, 5, 6 });
        specB.debugHandleMap = handles({ 0, 5, 6 });
        specB.debugHandleMap["forward"][0]
            = DebugHandleEntry { { DebugHandle(1), DebugHandle(2), DebugHandle(3), DebugHandle(4) }, true };
        DelegateMapEntry delegate;
        delegate.backend = "XnnpackBackend";
        delegate.identifiers = { { "1", { DebugHandle(3) } }, { "2", { DebugHandle(4) } }, { "3", { DebugHandle(1) } },
            { "4", { DebugHandle(2) } } };
        specB.delegateMap["forward"][0] = delegate;
        const QString recordA = m_dir.filePath(QStringLiteral("a.etrecord"));
        const QString recordB = m_dir.filePath(QStringLiteral("b.etrecord"));
        QVERIFY(!writeBytesToFile(recordA.toStdString(), writeETRecord(specA).value()));
        QVERIFY(!writeBytesToFile(recordB.toStdString(), writeETRecord(specB).value()));

        const QStringList common { m_portable, m_lowered, QStringLiteral("--method"), QStringLiteral("forward"),
            QStringLiteral("--format"), QStringLiteral("json") };
        const CliRun plain = run(common);
        const CliRun r = run(
            common + QStringList { QStringLiteral("--etrecord"), recordA, QStringLiteral("--etrecord"), recordB });
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(r.exitCode, 0);
        const json before = json::parse(plain.out.toStdString());
        const json after = json::parse(r.out.toStdString());
        QCOMPARE(before["compared_methods"][0]["matching"].get<std::string>(), std::string("aligned"));
        QCOMPARE(after["compared_methods"][0]["matching"].get<std::string>(), std::string("debug handles"));
        const std::string firstFc = partnerOf(before, "#0 aten::addmm.out");
        const std::string secondFc = partnerOf(before, "#2 aten::addmm.out");
        QVERIFY(firstFc.find("XNNFullyConnected") != std::string::npos);
        QVERIFY(secondFc.find("XNNFullyConnected") != std::string::npos && secondFc != firstFc);
        QCOMPARE(partnerOf(after, "#0 aten::addmm.out"), secondFc);
        QCOMPARE(partnerOf(after, "#2 aten::addmm.out"), firstFc);
        QCOMPARE(after["compared_methods"][0]["moved_into_delegates"].get<int>(), 4);
        bool byHandle = false;
        for (const json& m : after["compared_methods"][0]["matches"])
            if (m.value("by", "") == "debug handle" && m["a"]["label"] == "#0 aten::addmm.out")
                byHandle = true;
        QVERIFY(byHandle);
        // Text: the nodes note says how they were matched.
        const CliRun text = run({ m_portable, m_lowered, QStringLiteral("--method"), QStringLiteral("forward"),
            QStringLiteral("--etrecord"), recordA, QStringLiteral("--etrecord"), recordB });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("Nodes matched by debug handle:")), qPrintable(text.out));
        QVERIFY(text.out.contains(QStringLiteral("(by debug handle)")));
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
        QTest::addRow("one etrecord") << QStringList { add, add, QStringLiteral("--etrecord"),
            QStringLiteral("/nonexistent/a.etrecord") }
                                      << 1 << QStringLiteral("--etrecord is given twice or not at all");
        QTest::addRow("three etrecords") << QStringList { add, add, QStringLiteral("--etrecord"), add,
            QStringLiteral("--etrecord"), add, QStringLiteral("--etrecord"), add }
                                         << 1 << QStringLiteral("got 3");
        QTest::addRow("missing etrecord")
            << QStringList { add, add, QStringLiteral("--etrecord"), QStringLiteral("/nonexistent/a.etrecord"),
                   QStringLiteral("--etrecord"), QStringLiteral("/nonexistent/a.etrecord") }
            << 2 << QStringLiteral("/nonexistent/a.etrecord");
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

ETSCOPE_TEST_GUILESS_MAIN(TestDiffCli)
#include "tst_diffcli.moc"
