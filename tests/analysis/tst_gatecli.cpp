// SPDX-License-Identifier: MIT
// `etscope check NEW --baseline OLD [--budget RULE]…` as a CI job runs it: exit 0 when every rule
// holds, 3 when one fails, 1 for a bad rule or command line, 2 for a baseline that cannot be
// read (one line naming it). The rules' arithmetic is tested by hand in tst_buildgate.cpp; here
// the real pairs, with sizes and delegates from SOURCES.md:
//   mobilenet_v2_ethosu.pte  3,381,408 B, forward: cortex_m::quantize, EthosUBackend, cortex_m::dequantize
//   mobilenet_v2_vgf_segments.pte 4,005,952 B, forward: quantized_decomposed::quantize, VgfBackend,
//                                 quantized_decomposed::dequantize
//   (growth 624,544 B = 18.47%)
//   dnf_xnnpack_training.pte 8,208 B, 4 XnnpackBackend delegates; dnf_executorch5.pte 26,044 B,
//   92 KernelCalls, no delegate.
#include "tests/common/clirun.h"
#include "tests/common/deviceprograms.h"
#include "tests/common/require.h"

#include "core/writer/comparepairs.h"
#include "core/writer/programwriter.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;

const QString kCheck = QStringLiteral("check");
const QString kBaseline = QStringLiteral("--baseline");
const QString kBudget = QStringLiteral("--budget");

} // namespace

class TestGateCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    etscope::core::Result<QString> write(const etscope::core::ProgramSpec& spec, const char* name)
    {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        auto bytes = etscope::core::writeProgram(spec);
        if (!bytes)
            return bytes.error();
        if (auto error = etscope::core::writeBytesToFile(path.toStdString(), *bytes))
            return *error;
        return path;
    }

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
    }

    void sameBuildPasses()
    {
        const QString program = sampleArgument("executorch/add.pte");
        // portable named: add.pte has no delegate, so automatic would pick it too, but the
        // verdict line then names the runtime (automaticRuntimeChecksBothBuilds).
        const CliRun r = runEtscope(
            { kCheck, program, kBaseline, program, QStringLiteral("--preset"), QStringLiteral("portable") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("Gate: pass — all 2 rule(s) hold\n")), qPrintable(r.out));
        // The default rules, then the new build's kernel check after the table.
        QVERIFY(r.out.contains(QStringLiteral("no-new-missing ")));
        QVERIFY(r.out.contains(QStringLiteral("no-lost-delegate ")));
        QVERIFY(r.out.contains(QStringLiteral("Kernel check of the new build\n\nProgram: ")));
        QVERIFY(r.out.contains(QStringLiteral("Will load: yes\n")));
        QVERIFY(r.err.isEmpty());
    }

    void mobilenetEthosUToVgf()
    {
        const QString ethosu = sampleArgument("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        const QString vgf = sampleArgument("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte");
        const CliRun r = runEtscope(
            { kCheck, vgf, kBaseline, ethosu, kBudget, QStringLiteral("size+19%"), kBudget, QStringLiteral("size+18%"),
                kBudget, QStringLiteral("no-lost-delegate"), QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(r.exitCode, 3);
        const json out = json::parse(r.out.toStdString());
        QCOMPARE(out["verdict"].get<std::string>(), std::string("fail"));
        QCOMPARE(out["failures"].get<int>(), 2);
        QCOMPARE(out["different_model"].get<bool>(), false); // forward takes the same input
        const json& rules = out["rules"];
        QCOMPARE(rules.size(), std::size_t(3));
        QCOMPARE(rules[0]["rule"].get<std::string>(), std::string("size+19%"));
        QCOMPARE(rules[0]["old"].get<std::int64_t>(), std::int64_t(3381408));
        QCOMPARE(rules[0]["new"].get<std::int64_t>(), std::int64_t(4005952));
        QCOMPARE(rules[0]["verdict"].get<std::string>(), std::string("pass")); // 18.47% ≤ 19%
        QCOMPARE(rules[0]["change"].get<std::string>(), std::string("+609.9 KiB (+18.5%)"));
        QCOMPARE(rules[1]["verdict"].get<std::string>(), std::string("fail")); // 18.47% > 18%
        QCOMPARE(rules[1]["limit"].get<std::int64_t>(), std::int64_t(3990061)); // floor(3381408 × 1.18)
        QCOMPARE(rules[2]["verdict"].get<std::string>(), std::string("fail"));
        const auto details = rules[2]["details"].get<std::vector<std::string>>();
        QCOMPARE(details,
            (std::vector<std::string> {
                "lost: EthosUBackend (1 delegate(s) in the baseline, none now)", "new: VgfBackend (1 delegate(s))" }));
        for (const char* key : { "measure", "unit", "old_text", "new_text", "limit_text" })
            QVERIFY2(rules[0].contains(key), key);
        // The new build's kernel check rides along.
        QCOMPARE(out["kernel_check"]["will_load"].get<bool>(), false);
    }

    void missingKernelsDependOnTheLists()
    {
        // With portable only, the new build's quantized_decomposed ops are newly missing (the
        // baseline missed cortex_m ones instead); with the Ethos-U runner's lists both load.
        const QString ethosu = sampleArgument("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        const QString vgf = sampleArgument("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte");
        const CliRun portable = runEtscope({ kCheck, vgf, kBaseline, ethosu, kBudget, QStringLiteral("no-new-missing"),
            QStringLiteral("--preset"), QStringLiteral("portable") });
        QCOMPARE(portable.exitCode, 3);
        QVERIFY2(portable.out.contains(
                     QStringLiteral("quantized_decomposed::quantize_per_tensor.out: no kernel (1 call(s) in forward)")),
            qPrintable(portable.out));
        const CliRun preset = runEtscope({ kCheck, vgf, kBaseline, ethosu, kBudget, QStringLiteral("no-new-missing"),
            kBudget, QStringLiteral("loads"), QStringLiteral("--preset"), QStringLiteral("arm-ethos-u") });
        QCOMPARE(preset.exitCode, 0);
        QVERIFY2(preset.out.startsWith(QStringLiteral("Gate: pass")), qPrintable(preset.out));
    }

    void automaticRuntimeChecksBothBuilds()
    {
        // No --kernels/--preset: the new build's automatic runtime, and the baseline against the
        // same lists. The lab Ethos-U program against itself: arm-ethos-u for both, its one
        // missing operator (aten::avg_pool3d.out) is no news, so no-new-missing holds.
        const QString lab = sampleArgument("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        const CliRun r
            = runEtscope({ kCheck, lab, kBaseline, lab, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(r.exitCode, 0);
        const json out = json::parse(r.out.toStdString());
        QCOMPARE(out["kernel_check"]["runtime"]["preset"].get<std::string>(), std::string("arm-ethos-u"));
        QCOMPARE(out["kernel_check"]["runtime"]["automatic"].get<bool>(), true);
        QCOMPARE(out["kernel_check"]["missing"].size(), std::size_t(1));
    }

    void portableRebuildOfAnXnnpackModel()
    {
        // dnf: the XNNPACK training export as baseline, a portable export of a 50-input variant
        // as the new build: every delegate is gone and the input differs.
        const CliRun r = runEtscope({ kCheck, sampleArgument("dnf-executorch/dnf_executorch5.pte"), kBaseline,
            sampleArgument("dnf-executorch/dnf_xnnpack_training.pte"), kBudget, QStringLiteral("no-lost-delegate"),
            kBudget, QStringLiteral("no-new-fallback") });
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.out.contains(QStringLiteral("The baseline looks like a different model")));
        QVERIFY2(r.out.contains(QStringLiteral("Note: method 'forward' takes other inputs: baseline (FLOAT [1, 100], "
                                               "FLOAT [1]), new build (FLOAT [1, 50], FLOAT [1])")),
            qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("lost: XnnpackBackend (4 delegate(s) in the baseline, none now)")));
        QVERIFY(r.out.contains(QStringLiteral("(was XNNMultiply in XnnpackBackend), kernel from portable")));
    }

    void writerPairJson()
    {
        // The writer's pair (comparepairs.h): the lowered build against the portable one passes
        // every rule; the other way round the share drops 66.7 points, 4 operators fall back and
        // the delegate is lost.
        const auto pair = etscope::core::makeMlpComparePair(8);
        ETSCOPE_TAKE(const QString portable, write(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const QString lowered, write(pair.lowered, "lowered.pte"));
        const QStringList all { kBudget, QStringLiteral("delegated-share-2pt"), kBudget,
            QStringLiteral("no-new-fallback"), kBudget, QStringLiteral("no-lost-delegate"), kBudget,
            QStringLiteral("no-new-missing"), kBudget, QStringLiteral("arena+10%") };
        const CliRun good = runEtscope(QStringList { kCheck, lowered, kBaseline, portable } + all);
        QCOMPARE(good.exitCode, 0);
        const CliRun bad = runEtscope(
            QStringList { kCheck, portable, kBaseline, lowered, QStringLiteral("--format"), QStringLiteral("json") }
            + all);
        QCOMPARE(bad.exitCode, 3);
        const json out = json::parse(bad.out.toStdString());
        QCOMPARE(out["failures"].get<int>(), 4);
        std::vector<std::string> verdicts;
        for (const json& rule : out["rules"])
            verdicts.push_back(rule["verdict"].get<std::string>());
        // The portable build also plans the activations XNNPACK kept inside its delegate, so its
        // arena is larger too.
        QCOMPARE(verdicts, (std::vector<std::string> { "fail", "fail", "fail", "pass", "fail" }));
        QVERIFY(out["rules"][4]["new"].get<std::int64_t>() > out["rules"][4]["old"].get<std::int64_t>());
        QCOMPARE(out["rules"][0]["old_text"].get<std::string>(), std::string("66.7% (4 of 6)"));
        QCOMPARE(out["rules"][1]["change"].get<std::string>(), std::string("4 moved out"));
        QCOMPARE(out["rules"][1]["violations"].get<int>(), 4);
        QCOMPARE(out["rules"][1]["old"].get<int>(), 2); // kernel calls: addmm, _softmax
        QCOMPARE(out["rules"][1]["new"].get<int>(), 6);
    }

    void deviceFactsRule()
    {
        // Issue 33: a new build compiled for another NPU fails same-device-facts (exit 3), naming
        // the fact before → after; against itself it passes (exit 0). Writer-made pair
        // (deviceprograms.h): compile spec target ethos-u55-128 in the baseline, ethos-u85-256 now.
        ETSCOPE_TAKE(const QString u55, write(etscope::test::ethosUProgram("ethos-u55-128"), "u55.pte"));
        ETSCOPE_TAKE(const QString u85, write(etscope::test::ethosUProgram("ethos-u85-256"), "u85.pte"));
        const CliRun changed
            = runEtscope({ kCheck, u85, kBaseline, u55, kBudget, QStringLiteral("same-device-facts") });
        QCOMPARE(changed.exitCode, 3);
        QVERIFY2(changed.out.contains(QStringLiteral("Ethos-U target ethos-u55-128 → ethos-u85-256")),
            qPrintable(changed.out));
        const CliRun same = runEtscope({ kCheck, u55, kBaseline, u55, kBudget, QStringLiteral("same-device-facts") });
        QCOMPARE(same.exitCode, 0);
        // Real samples: the U55 tinycnn as the baseline of the U85 MobileNetV2 (JSON).
        const CliRun real
            = runEtscope({ kCheck, sampleArgument("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte"), kBaseline,
                sampleArgument("tinycnn/tinycnn_u55.pte"), kBudget, QStringLiteral("same-device-facts"),
                QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(real.exitCode, 3);
        const json out = json::parse(real.out.toStdString());
        QCOMPARE(out["rules"][0]["rule"].get<std::string>(), std::string("same-device-facts"));
        QCOMPARE(out["rules"][0]["verdict"].get<std::string>(), std::string("fail"));
        bool named = false;
        for (const json& detail : out["rules"][0]["details"])
            named = named || detail.get<std::string>().starts_with("Ethos-U target ethos-u55-128 → ethos-u85-256");
        QVERIFY2(named, out["rules"][0]["details"].dump().c_str());
    }

    /// `etscope --help` and the man page name the options and every rule (the man page escapes
    /// '-' as '\-').
    void helpAndManPageNameTheRules()
    {
        const CliRun help = runEtscope({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QFile man(QStringLiteral(ETSCOPE_TEST_DATA_DIR "/../../packaging/etscope.1"));
        QVERIFY(man.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(man.readAll()).replace(QStringLiteral("\\-"), QStringLiteral("-"));
        for (const char* word : { "--baseline", "--budget", "size+5%", "delegated-share-2pt", "arena+10%",
                 "no-new-fallback", "no-new-missing", "no-lost-delegate", "loads", "same-device-facts" }) {
            QVERIFY2(help.out.contains(QLatin1String(word)), word);
            QVERIFY2(page.contains(QLatin1String(word)), word);
        }
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString add = sampleArgument("executorch/add.pte");
        QTest::addRow("bad rule") << QStringList { kCheck, add, kBaseline, add, kBudget, QStringLiteral("size+5") }
                                  << QStringLiteral("--budget 'size+5': the growth needs a unit");
        QTest::addRow("unknown rule") << QStringList { kCheck, add, kBaseline, add, kBudget, QStringLiteral("speed") }
                                      << QStringLiteral("--budget 'speed': unknown rule");
        QTest::addRow("budget alone") << QStringList { kCheck, add, kBudget, QStringLiteral("size+5%") }
                                      << QStringLiteral("--budget needs --baseline");
        QTest::addRow("two baselines") << QStringList { kCheck, add, kBaseline, add, kBaseline, add }
                                       << QStringLiteral("--baseline is given once");
        QTest::addRow("baseline is an etdump")
            << QStringList { kCheck, add, kBaseline, sampleArgument("executorch/etdump.etdp") }
            << QStringLiteral("is not a program");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliRun r = runEtscope(arguments);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void unreadableBaseline_data()
    {
        QTest::addColumn<QString>("baseline");
        QTest::addRow("damaged") << sampleArgument("djl-executorch-engine/corrupt.pte");
        QTest::addRow("missing") << m_dir.filePath(QStringLiteral("nowhere.pte"));
        QTest::addRow("truncated") << QStringLiteral("truncated");
    }

    void unreadableBaseline()
    {
        QFETCH(QString, baseline);
        if (baseline == QLatin1String("truncated")) {
            // The first 100 bytes of a real program: a baseline cut short by a failed download.
            QFile in(sampleArgument("executorch/add.pte"));
            QVERIFY(in.open(QIODevice::ReadOnly));
            baseline = m_dir.filePath(QStringLiteral("cut.pte"));
            QFile out(baseline);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(in.read(100));
        }
        const CliRun r = runEtscope({ kCheck, sampleArgument("executorch/add.pte"), kBaseline, baseline });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("etscope check: baseline ") + baseline + QStringLiteral(": ")),
            qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(r.out.isEmpty());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestGateCli)
#include "tst_gatecli.moc"
