// SPDX-License-Identifier: MIT
// `etscope check` as a CI job runs it: exit 0 when every operator has a kernel, 3 when one has
// none, 2 for an unreadable program or list (one line naming the file and the reason), 1 for a
// bad command line. Expected operators and counts are worked out by hand in tst_kernelcheck.cpp.
#include "tests/common/clirun.h"
#include "tests/common/require.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;
using etscope::test::writeTestFile;

} // namespace

class TestCheckCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void addLoads()
    {
        // The portable runtime named: the default is automatic (automaticRuntime below).
        const CliRun r = runEtscope({ QStringLiteral("check"), sampleArgument("executorch/add.pte"),
            QStringLiteral("--preset"), QStringLiteral("portable") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Will load: yes\n")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("Kernel lists: portable (209 operators), prim (28 operators)")));
        QVERIFY(r.err.isEmpty());
    }

    void cadenceMissesItsOperators()
    {
        // CadenceDemoModel: 3 KernelCalls of 3 cadence:: operators (SOURCES.md), none in portable.
        const CliRun r
            = runEtscope({ QStringLiteral("check"), sampleArgument("executorch/cadence_CadenceDemoModel.pte"),
                QStringLiteral("--preset"), QStringLiteral("portable") });
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.out.startsWith(QStringLiteral("Program: ")));
        QVERIFY(r.out.contains(QStringLiteral("Will load: no\n")));
        QVERIFY(r.out.contains(QStringLiteral("3 operator(s) have no kernel in these lists: 3 of 3 kernel call(s)")));
        for (const char* name : { "cadence::quantize_per_tensor.out", "cadence::quantized_conv2d_nchw.per_tensor_out",
                 "cadence::dequantize_per_tensor.out" })
            QVERIFY2(r.out.contains(QLatin1String(name)), name);
    }

    void quantizedNeedsTheQuantizedList()
    {
        const QString program = sampleArgument("cmsis-executorch/ethos_u_minimal_example_u55.pte");
        QCOMPARE(
            runEtscope({ QStringLiteral("check"), program, QStringLiteral("--preset"), QStringLiteral("portable") })
                .exitCode,
            3);
        const CliRun r = runEtscope({ QStringLiteral("check"), program, QStringLiteral("--kernels"),
            QStringLiteral("portable"), QStringLiteral("--kernels"), QStringLiteral("quantized"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(r.exitCode, 0);
        const json out = json::parse(r.out.toStdString());
        QCOMPARE(out["will_load"].get<bool>(), true);
        QCOMPARE(out["kernel_lists"].size(), std::size_t(3)); // portable, quantized, prim
        QCOMPARE(out["missing"].size(), std::size_t(0));
        // The Ethos-U delegate at instruction 2 needs its backend linked.
        QCOMPARE(out["backends"][0]["backend_id"].get<std::string>(), std::string("EthosUBackend"));
        QCOMPARE(out["backends"][0]["status"].get<std::string>(), std::string("needs linking"));
        const json& forward = out["methods"][0];
        QCOMPARE(forward["kernel_calls"].get<int>(), 3);
        QCOMPARE(forward["backends"][0]["calls"][0]["instruction"].get<int>(), 2);
        for (const json& op : forward["operators"])
            QCOMPARE(op["resolved_by"].get<std::string>(), std::string("quantized"));
    }

    void userListsReplacePortable()
    {
        QTemporaryDir dir;
        // A selective build's selected_operators.yaml holding what KeywordSpotting calls but one.
        ETSCOPE_TAKE(const QString yaml,
            writeTestFile(dir, QStringLiteral("selected_operators.yaml"),
                "build_features: []\n"
                "custom_classes: []\n"
                "include_all_non_op_selectives: false\n"
                "include_all_operators: false\n"
                "kernel_metadata: {}\n"
                "operators:\n"
                "  cortex_m::dequantize_per_tensor.out:\n"
                "    debug_info:\n"
                "    - model.pte\n"
                "    include_all_overloads: false\n"
                "    is_root_operator: true\n"
                "    is_used_for_training: true\n"
                "  cortex_m::pad.out:\n"
                "    include_all_overloads: false\n"
                "  cortex_m::quantize_per_tensor.out:\n"
                "    include_all_overloads: false\n"
                "  cortex_m::quantized_avg_pool2d.out:\n"
                "    include_all_overloads: false\n"
                "  cortex_m::quantized_conv2d.out:\n"
                "    include_all_overloads: false\n"
                "  cortex_m::quantized_depthwise_conv2d.out:\n"
                "    include_all_overloads: false\n"
                "  dim_order_ops::_clone_dim_order.out:\n"
                "    include_all_overloads: false\n"));
        const QString program = sampleArgument("executorch/arduino_KeywordSpotting_model.pte");
        const CliRun r = runEtscope({ QStringLiteral("check"), program, QStringLiteral("--kernels"), yaml });
        // quantized_linear.out (1 call, instruction listed) is the one left out.
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral("1 operator(s) have no kernel in these lists: 1 of 16 kernel call(s)")),
            qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("cortex_m::quantized_linear.out")));
        // Adding it with a plain list (a second --kernels) makes the program load.
        ETSCOPE_TAKE(const QString plain,
            writeTestFile(
                dir, QStringLiteral("more.txt"), "# extra kernels of my runtime\n\ncortex_m::quantized_linear.out\n"));
        const CliRun both = runEtscope({ QStringLiteral("check"), program, QStringLiteral("--kernels"), yaml,
            QStringLiteral("--kernels"), plain, QStringLiteral("-o"), dir.filePath(QStringLiteral("out.txt")) });
        QCOMPARE(both.exitCode, 0);
        const QByteArray written = etscope::test::readFile(dir.filePath(QStringLiteral("out.txt")));
        QVERIFY(written.contains("Will load: yes\n"));
        QVERIFY(written.contains("Kernel lists: " + yaml.toUtf8() + " (7 operators), " + plain.toUtf8()
            + " (1 operator), prim (28 operators)"));
    }

    void presetsAndTheHint()
    {
        // ethos_u_minimal_example_u55 calls quantized_decomposed::quantize_per_tensor.out and
        // dequantize_per_tensor.out around one EthosUBackend call (tst_kernelcheck.cpp): with the
        // default lists both are missing, and the quantized list (kernels/quantized/quantized.yaml)
        // has both. Before presets there was no --preset (exit 1) and no hint line.
        const QString program = sampleArgument("cmsis-executorch/ethos_u_minimal_example_u55.pte");
        const CliRun missing
            = runEtscope({ QStringLiteral("check"), program, QStringLiteral("--preset"), QStringLiteral("portable") });
        QCOMPARE(missing.exitCode, 3);
        QVERIFY2(missing.out.contains(
                     QStringLiteral("  Hint: --kernels quantized provides 2 missing operator(s) "
                                    "(quantized_decomposed::dequantize_per_tensor.out, "
                                    "quantized_decomposed::quantize_per_tensor.out); or use --preset arm-ethos-u\n")),
            qPrintable(missing.out));
        // The Arm Ethos-U runner (examples/arm/executor_runner/CMakeLists.txt) links portable,
        // quantized and cortex_m kernels: the program loads there.
        const CliRun arm = runEtscope(
            { QStringLiteral("check"), program, QStringLiteral("--preset"), QStringLiteral("arm-ethos-u") });
        QCOMPARE(arm.exitCode, 0);
        QVERIFY2(arm.out.contains(QStringLiteral("Kernel lists: portable (209 operators), quantized (19 operators), "
                                                 "cortex_m (18 operators), prim (28 operators)\n")),
            qPrintable(arm.out));
        QVERIFY(!arm.out.contains(QStringLiteral("Hint:")));
        // Cadence's own operators are in no built-in list: the hint says so instead.
        const CliRun cadence
            = runEtscope({ QStringLiteral("check"), sampleArgument("executorch/cadence_CadenceDemoModel.pte") });
        QVERIFY2(cadence.out.contains(QStringLiteral("Hint: 3 missing operator(s) are in no built-in list")),
            qPrintable(cadence.out));
        const json hint = json::parse(
            runEtscope({ QStringLiteral("check"), program, QStringLiteral("--preset"), QStringLiteral("portable"),
                           QStringLiteral("--format"), QStringLiteral("json") })
                .out.toStdString())["missing_hint"];
        QCOMPARE(hint["lists"][0]["list"].get<std::string>(), std::string("quantized"));
        QCOMPARE(hint["preset"].get<std::string>(), std::string("arm-ethos-u"));
        // An unknown preset is a usage error naming the presets there are; --help lists them.
        const CliRun bad
            = runEtscope({ QStringLiteral("check"), program, QStringLiteral("--preset"), QStringLiteral("ios") });
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains(QStringLiteral(
                     "ios: unknown runtime preset (presets: portable, arm-ethos-u, android-xnnpack, llama)")),
            qPrintable(bad.err));
        QVERIFY(runEtscope({ QStringLiteral("--help") }).out.contains(QStringLiteral("--preset NAME")));
    }

    void automaticRuntime()
    {
        // Neither --kernels nor --preset: the runtime the program's delegates call for.
        // Before, every program was checked against portable + prim: the lab Ethos-U program
        // failed on its quantized_decomposed calls, mobilenet_v2_ethosu on its cortex_m ones.
        const QString lab = sampleArgument("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        const CliRun r = runEtscope({ QStringLiteral("check"), lab });
        // aten::avg_pool3d.out (instruction 3) is in no list the Arm runner links; checked by
        // hand with `etscope check --preset arm-ethos-u` and tst_kernelcheck presetFromTheDelegates.
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral("Runtime: automatic: Arm Ethos-U executor_runner (bare-metal "
                                               "Cortex-M), chosen for the program's EthosUBackend delegates")),
            qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Will load on Arm Ethos-U executor_runner (bare-metal Cortex-M) "
                                               "(portable + quantized + cortex_m + prim kernels): no\n")),
            qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("1 operator(s) have no kernel in these lists: 1 of 5 kernel call(s)")));
        const json out = json::parse(
            runEtscope({ QStringLiteral("check"), lab, QStringLiteral("--format"), QStringLiteral("json") })
                .out.toStdString());
        QCOMPARE(out["runtime"]["preset"].get<std::string>(), std::string("arm-ethos-u"));
        QCOMPARE(out["runtime"]["automatic"].get<bool>(), true);
        QVERIFY(out["runtime"]["chosen_for"] == json::array({ "EthosUBackend" }));
        QCOMPARE(out["missing"].size(), std::size_t(1));
        QCOMPARE(out["missing"][0]["name"].get<std::string>(), std::string("aten::avg_pool3d.out"));
        // The same program with the old default named: its answer of before (3 operators missing).
        const CliRun old = runEtscope({ QStringLiteral("check"), lab, QStringLiteral("--preset"),
            QStringLiteral("portable"), QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(old.exitCode, 3);
        const json oldOut = json::parse(old.out.toStdString());
        QCOMPARE(oldOut["missing"].size(), std::size_t(3));
        QCOMPARE(oldOut["runtime"]["preset"].get<std::string>(), std::string("portable"));
        QCOMPARE(oldOut["runtime"]["automatic"].get<bool>(), false);
        const CliRun oldText
            = runEtscope({ QStringLiteral("check"), lab, QStringLiteral("--preset"), QStringLiteral("portable") });
        QVERIFY(oldText.out.contains(QStringLiteral("\nWill load: no\n")));
        QVERIFY(!oldText.out.contains(QStringLiteral("Runtime:")));

        // mobilenet_v2_ethosu: its two cortex_m calls are in cortex_m's list: it loads.
        const CliRun mv2 = runEtscope(
            { QStringLiteral("check"), sampleArgument("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte") });
        QCOMPARE(mv2.exitCode, 0);
        QVERIFY2(mv2.out.contains(QStringLiteral("cortex_m + prim kernels): yes\n"))
                && mv2.out.contains(QStringLiteral("linked (arm-ethos-u runtime)")),
            qPrintable(mv2.out));
        // XNNPACK: android-xnnpack (llama links XnnpackBackend too; the first preset wins).
        const json mlp
            = json::parse(runEtscope({ QStringLiteral("check"), sampleArgument("djl-executorch-engine/stress_mlp.pte"),
                                         QStringLiteral("--format"), QStringLiteral("json") })
                              .out.toStdString());
        QCOMPARE(mlp["runtime"]["preset"].get<std::string>(), std::string("android-xnnpack"));
        QVERIFY(mlp["runtime"]["chosen_for"] == json::array({ "XnnpackBackend" }));
        // No delegate: portable, and the text says why.
        const CliRun add = runEtscope({ QStringLiteral("check"), sampleArgument("executorch/add.pte") });
        QCOMPARE(add.exitCode, 0);
        QVERIFY2(add.out.contains(QStringLiteral("Runtime: automatic: executor_runner with portable kernels only, "
                                                 "chosen because the program has no delegates")),
            qPrintable(add.out));
        // --kernels alone is a choice too: no runtime named.
        const json listed = json::parse(
            runEtscope({ QStringLiteral("check"), lab, QStringLiteral("--kernels"), QStringLiteral("portable"),
                           QStringLiteral("--format"), QStringLiteral("json") })
                .out.toStdString());
        QVERIFY(listed["runtime"].is_null());
        // --help says what the default is.
        QVERIFY(runEtscope({ QStringLiteral("--help") }).out.contains(QStringLiteral("automatic")));
    }

    void badListsExitTwo()
    {
        QTemporaryDir dir;
        ETSCOPE_TAKE(
            const QString bad, writeTestFile(dir, QStringLiteral("bad.txt"), "aten::add.out\naten::mul out please\n"));
        const CliRun r = runEtscope(
            { QStringLiteral("check"), sampleArgument("executorch/add.pte"), QStringLiteral("--kernels"), bad });
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err,
            QStringLiteral("etscope check: ") + bad
                + QStringLiteral(": line 2: not an operator name or backend id: 'aten::mul out please'\n"));
        QVERIFY(r.out.isEmpty());

        const QString missing = dir.filePath(QStringLiteral("none.yaml"));
        const CliRun m = runEtscope(
            { QStringLiteral("check"), sampleArgument("executorch/add.pte"), QStringLiteral("--kernels"), missing });
        QCOMPARE(m.exitCode, 2);
        QVERIFY2(
            m.err.startsWith(QStringLiteral("etscope check: ") + missing + QStringLiteral(": ")), qPrintable(m.err));
    }

    void badProgramAndUsage()
    {
        const CliRun corrupt
            = runEtscope({ QStringLiteral("check"), sampleArgument("djl-executorch-engine/corrupt.pte") });
        QCOMPARE(corrupt.exitCode, 2);
        QVERIFY(corrupt.err.contains(QStringLiteral("corrupt.pte: ")));
        QCOMPARE(runEtscope({ QStringLiteral("check"), sampleArgument("executorch/add.pte"), QStringLiteral("--format"),
                                QStringLiteral("csv") })
                     .exitCode,
            1);
        QCOMPARE(runEtscope({ QStringLiteral("check") }).exitCode, 1);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCheckCli)
#include "tst_checkcli.moc"
