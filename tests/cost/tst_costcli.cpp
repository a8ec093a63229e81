// SPDX-License-Identifier: MIT
// `etscope cost` as a script would use it: the three formats, -o, exit codes (0, 1 usage, 2 bad
// input), on a writer-made program whose one convolution counts
// N·Cout·Hout·Wout·(Cin/groups)·kh·kw = 1·4·6·6·2·3·3 = 2592 MACs, and on tinycnn_u55.pte.
#include "tests/common/clirun.h"
#include "tests/common/writertensors.h"

#include "core/writer/programwriter.h"

#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;
using namespace etscope::core;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;

TensorSpec tensor(std::vector<std::int32_t> sizes, bool constant)
{
    return etscope::test::floatTensor(std::move(sizes), constant);
}

/// conv: input [1, 2, 8, 8], weight [4, 2, 3, 3], no padding → out [1, 4, 6, 6]; then a kernel
/// ETScope has no rule for.
std::vector<std::uint8_t> convProgram()
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    const std::int32_t input = m.addTensor(tensor({ 1, 2, 8, 8 }, false));
    const std::int32_t weight = m.addTensor(tensor({ 4, 2, 3, 3 }, true));
    const std::int32_t none = m.addValue(ValueSpec::null());
    std::vector<std::int64_t> one { m.addValue(ValueSpec::integer(1)), m.addValue(ValueSpec::integer(1)) };
    std::vector<std::int64_t> zero { m.addValue(ValueSpec::integer(0)), m.addValue(ValueSpec::integer(0)) };
    const std::int32_t ones = m.addValue(ValueSpec::intList(one));
    const std::int32_t zeros = m.addValue(ValueSpec::intList(zero));
    const std::int32_t transposed = m.addValue(ValueSpec::boolean(false));
    const std::int32_t groups = m.addValue(ValueSpec::integer(1));
    const std::int32_t out = m.addTensor(tensor({ 1, 4, 6, 6 }, false));
    const std::int32_t last = m.addTensor(tensor({ 1, 4, 6, 6 }, false));
    m.inputs = { input };
    m.outputs = { last };
    m.addInstruction(InstructionSpec::kernel(m.addOperator("aten::convolution", "out"),
        { input, weight, none, ones, zeros, ones, transposed, zeros, groups, out, out }));
    m.addInstruction(InstructionSpec::kernel(m.addOperator("custom::unknown", "out"), { out, last, last }));
    m.computeArenaSizes();
    return writeProgram(spec).value();
}

} // namespace

class TestCostCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_program;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::vector<std::uint8_t> bytes = convProgram();
        const auto path = etscope::test::writeTestFile(m_dir, QStringLiteral("conv.pte"),
            QByteArray(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size())));
        QVERIFY(path);
        m_program = *path;
    }

    void asJson()
    {
        const CliRun run
            = runEtscope({ QStringLiteral("cost"), m_program, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto j = json::parse(run.out.toStdString());
        QCOMPARE(j.at("total").at("macs").get<std::uint64_t>(), std::uint64_t(1 * 4 * 6 * 6 * 2 * 3 * 3));
        QCOMPARE(j.at("total").at("nodes").get<int>(), 2);
        QCOMPARE(j.at("total").at("no_rule").get<int>(), 1);
        QCOMPARE(j.at("nodes").size(), std::size_t(2));
        const json& conv = j.at("nodes").at(0);
        QCOMPARE(conv.at("op_type").get<std::string>(), std::string("aten::convolution.out"));
        QCOMPARE(conv.at("kind").get<std::string>(), std::string("convolution"));
        QCOMPARE(conv.at("backend").get<std::string>(), std::string("CPU"));
        // Read: input 1·2·8·8·4 = 512, weight 4·2·3·3·4 = 288; written 1·4·6·6·4 = 576.
        QCOMPARE(conv.at("bytes_read").get<std::uint64_t>(), std::uint64_t(800));
        QCOMPARE(conv.at("bytes_written").get<std::uint64_t>(), std::uint64_t(576));
        QCOMPARE(conv.at("parameter_bytes").get<std::uint64_t>(), std::uint64_t(288));
        const json& unknown = j.at("nodes").at(1);
        QCOMPARE(unknown.at("status").get<std::string>(), std::string("no rule"));
        QVERIFY(unknown.at("macs").is_null());
    }

    void textAndCsv()
    {
        const CliRun text = runEtscope({ QStringLiteral("cost"), m_program });
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(QLatin1String("2592 MACs")));
        QVERIFY(text.out.contains(QLatin1String("Per backend")));
        QVERIFY(text.out.contains(QLatin1String("Per operator kind")));
        QVERIFY(text.out.contains(QStringLiteral("custom::unknown.out ×1")));

        const QString out = m_dir.filePath(QStringLiteral("cost.csv"));
        const CliRun csv = runEtscope({ QStringLiteral("cost"), m_program, QStringLiteral("--format"),
            QStringLiteral("csv"), QStringLiteral("-o"), out });
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3); // header and one row per node
        QVERIFY(lines[0].startsWith(QLatin1String("method,delegate,backend,node,label,op_type,kind,status,macs,ops")));
        QVERIFY(lines[1].contains(QLatin1String(",convolution,counted,2592,0,")));
        QVERIFY(lines[2].contains(QLatin1String(",no rule,,,"))); // no MACs, no ops: empty, not 0
    }

    void exitCodes()
    {
        QCOMPARE(runEtscope({ QStringLiteral("cost"), m_program, QStringLiteral("--format"), QStringLiteral("xml") })
                     .exitCode,
            1);
        QCOMPARE(runEtscope({ QStringLiteral("cost") }).exitCode, 1);
        QCOMPARE(runEtscope({ QStringLiteral("cost"), m_program, QStringLiteral("--method"), QStringLiteral("nope") })
                     .exitCode,
            1);
        QCOMPARE(runEtscope({ QStringLiteral("cost"), m_dir.filePath(QStringLiteral("missing.pte")) }).exitCode, 2);
        const auto junk = etscope::test::writeTestFile(m_dir, QStringLiteral("junk.pte"), QByteArray(64, 'x'));
        QVERIFY(junk);
        QCOMPARE(runEtscope({ QStringLiteral("cost"), *junk }).exitCode, 2);
        // A vendor log that cannot be read: exit 2, naming it.
        const CliRun noLog = runEtscope({ QStringLiteral("cost"), m_program, QStringLiteral("--vela"),
            m_dir.filePath(QStringLiteral("none.log")) });
        QCOMPARE(noLog.exitCode, 2);
        QVERIFY2(noLog.err.contains(QLatin1String("none.log")), qPrintable(noLog.err));
    }

    // --run-log with the FVP run of tinycnn_u55.pte: measured beside estimated, in text and JSON.
    void tinycnnRunLog()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const CliRun text = runEtscope({ QStringLiteral("cost"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--run-log"), sampleArgument("tinycnn/fvp_e84_final_compare.log") });
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(QLatin1String("; measured: 247553 cycles")), qPrintable(text.out));
        QVERIFY2(text.out.contains(QLatin1String("forward: joined: ")), qPrintable(text.out));
        const CliRun asJson = runEtscope({ QStringLiteral("cost"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--run-log"), sampleArgument("tinycnn/fvp_e84_final_compare.log"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(asJson.exitCode == 0, qPrintable(asJson.err));
        const auto j = json::parse(asJson.out.toStdString());
        QCOMPARE(j.at("vendor_sources").size(), std::size_t(1));
        bool measured = false;
        for (const json& d : j.at("delegates"))
            if (d.contains("vendor"))
                measured = d.at("vendor").dump().find("247553") != std::string::npos;
        QVERIFY(measured);
    }

    // tinycnn_u55.pte (Corstone-300, Ethos-U55-128): the NPU kicks have MACs and estimates, and
    // the estimate names its basis (the compile flags' system config and memory mode).
    void tinycnn()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const CliRun run = runEtscope({ QStringLiteral("cost"), sampleArgument("tinycnn/tinycnn_u55.pte"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto j = json::parse(run.out.toStdString());
        bool npu = false;
        for (const json& d : j.at("delegates"))
            if (d.at("backend") == "EthosUBackend") {
                npu = true;
                QVERIFY(d.at("macs").get<std::uint64_t>() > 0);
                QVERIFY(!d.at("estimated_cycles").is_null());
                const json& basis = d.at("estimate_basis");
                QCOMPARE(basis.at("macs_per_cycle").get<int>(), 128);
                QCOMPARE(basis.at("system_config").get<std::string>(), std::string("Ethos_U55_High_End_Embedded"));
                QCOMPARE(basis.at("memory_mode").get<std::string>(), std::string("Shared_Sram"));
            }
        QVERIFY(npu);
        QVERIFY(j.at("estimate").get<std::string>().find("ESTIMATE") != std::string::npos);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCostCli)
#include "tst_costcli.moc"
