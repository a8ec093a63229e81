// SPDX-License-Identifier: MIT
// Does an ETDump belong to the program? Every real ETDump of samples/generated fits the program
// it was made from (README "How each file was produced"), and dumps of other samples are caught
// by the kind of disagreement their events show. Debug buffers that are other files are named.
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/debug/dumpcheck.h"
#include "core/document/document.h"

#include <QTest>

using namespace etscope::core;

Q_DECLARE_METATYPE(std::string)

namespace {

Result<Document> program(const std::string& relative)
{
    return openDocument(etscope::test::samplePath(relative));
}

Result<ETDump> dump(const std::string& relative)
{
    return readETDumpFile(etscope::test::samplePath("generated/" + relative));
}

Result<DumpFit> fit(const std::string& programPath, const std::string& dumpPath)
{
    const auto document = program(programPath);
    if (!document)
        return document.error();
    const auto run = dump(dumpPath);
    if (!run)
        return run.error();
    const EventMapper mapper(*document->methods.front().graph);
    return checkDumpFitsProgram(*run, mapper);
}

// The README's table: directory → the program the runner executed.
const std::vector<std::pair<std::string, std::string>> kSamples {
    { "add", "executorch/add.pte" },
    { "module_test_model", "executorch/module_test_model.pte" },
    { "ModuleLinear-no-constant-segment", "executorch/ModuleLinear-no-constant-segment.pte" },
    { "bundled_program", "executorch/bundled_program.bpte" },
    { "spike_dtypes", "djl-executorch-engine/spike_dtypes.pte" },
    { "priced", "djl-executorch-engine/priced.pte" },
    { "dnf_executorch5", "dnf-executorch/dnf_executorch5.pte" },
    { "spike_add", "djl-executorch-engine/spike_add.pte" },
    { "spike_conv", "djl-executorch-engine/spike_conv.pte" },
    { "spike_lin129", "djl-executorch-engine/spike_lin129.pte" },
    { "stress_mlp", "djl-executorch-engine/stress_mlp.pte" },
    { "quantized", "executorch-numpy-runtime/quantized.pte" },
    { "dnf_xnnpack_training", "dnf-executorch/dnf_xnnpack_training.pte" },
};

} // namespace

class TestDumpCheck : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void ownDumpsFit_data()
    {
        QTest::addColumn<std::string>("programPath");
        QTest::addColumn<std::string>("dumpPath");
        for (const auto& [directory, programPath] : kSamples)
            for (const char* kind : { "profile", "intermediates", "outputs" })
                QTest::addRow("%s.%s", directory.c_str(), kind)
                    << programPath << directory + "/" + directory + "." + kind + ".etdp";
        QTest::addRow("add.intermediates.x3")
            << std::string("executorch/add.pte") << std::string("add/add.intermediates.x3.etdp");
        QTest::addRow("spike_med_output.profile") << std::string("djl-executorch-engine/spike_med_output.pte")
                                                  << std::string("spike_med_output/spike_med_output.profile.etdp");
    }

    void ownDumpsFit()
    {
        // No false alarm on any file the real runtime wrote for the very program.
        QFETCH(std::string, programPath);
        QFETCH(std::string, dumpPath);
        ETSCOPE_TAKE(const DumpFit result, fit(programPath, dumpPath));
        QVERIFY(result.checked > 0);
        QVERIFY2(result.mismatches() == 0, result.examples.empty() ? "" : result.examples.front().c_str());
        QVERIFY(result.examples.empty());
        QVERIFY(dumpFitWarnings(result, dumpPath, "forward").empty());
    }

    void foreignDumpsDisagree()
    {
        // add's kernel event sits where stress_mlp runs _to_dim_order_copy, its logged values
        // have add's shapes ([1]) where stress_mlp's values are [] and [32, 256].
        ETSCOPE_TAKE(const DumpFit addOnMlp, fit("djl-executorch-engine/stress_mlp.pte", "add/add.intermediates.etdp"));
        QCOMPARE(addOnMlp.eventNames, std::size_t(1));
        QCOMPARE(addOnMlp.tensors, std::size_t(2));
        QCOMPARE(addOnMlp.instructionIds, std::size_t(0));
        QVERIFY(QString::fromStdString(addOnMlp.examples.front())
                    .contains(QStringLiteral("native_call_add.out at instruction 0, where the program runs "
                                             "dim_order_ops::_to_dim_order_copy.out")));
        // stress_mlp's 14 instructions against add.pte's one: ids beyond the method.
        ETSCOPE_TAKE(const DumpFit mlpOnAdd, fit("executorch/add.pte", "stress_mlp/stress_mlp.profile.etdp"));
        QVERIFY(mlpOnAdd.instructionIds > 30);
        QVERIFY(QString::fromStdString(mlpOnAdd.examples[1]).contains(QStringLiteral("has 1 instruction(s), 0 to 0")));
        // Two one-delegate programs: spike_add's XNNPACK "Add (ND) #1" has no XNNAdd in spike_conv.
        ETSCOPE_TAKE(
            const DumpFit addOnConv, fit("djl-executorch-engine/spike_conv.pte", "spike_add/spike_add.profile.etdp"));
        QCOMPARE(addOnConv.eventNames, std::size_t(1));
        QVERIFY(QString::fromStdString(addOnConv.examples.front()).contains(QStringLiteral("has no XNNAdd node")));
        // A delegate call logs every argument: spike_add's 3 against spike_lin129's 2.
        ETSCOPE_TAKE(const DumpFit addOnLinear,
            fit("djl-executorch-engine/spike_lin129.pte", "spike_add/spike_add.intermediates.etdp"));
        QCOMPARE(addOnLinear.tensors, std::size_t(1));
        QCOMPARE(addOnLinear.examples.size(), std::size_t(2)); // the event name example, then this one
        QVERIFY(QString::fromStdString(addOnLinear.examples[1])
                    .contains(QStringLiteral("logged 3 value(s), the call has 2 argument(s)")));
        // add logged one program output, dnf_executorch5 has 23.
        ETSCOPE_TAKE(const DumpFit outputs, fit("dnf-executorch/dnf_executorch5.pte", "add/add.outputs.etdp"));
        QCOMPARE(outputs.outputCounts, std::size_t(1));
    }

    void fewWarningLines()
    {
        // 40 disagreements become one summary with the counts and three examples.
        ETSCOPE_TAKE(const DumpFit result, fit("executorch/add.pte", "stress_mlp/stress_mlp.profile.etdp"));
        QVERIFY(result.mismatches() > 30);
        const auto warnings = dumpFitWarnings(result, "mlp.etdp", "forward");
        QCOMPARE(warnings.size(), std::size_t(4));
        const QString summary = QString::fromStdString(warnings.front().message);
        QVERIFY(summary.startsWith(QStringLiteral("mlp.etdp: %1 of %2 checks disagree with method 'forward'")
                                       .arg(result.mismatches())
                                       .arg(result.checked)));
        QVERIFY(summary.contains(QStringLiteral("another program")));
        for (const Warning& warning : warnings)
            QVERIFY(warning.message.rfind("mlp.etdp: ", 0) == 0);
        // The examples show both kinds found, not three of the first.
        QVERIFY(QString::fromStdString(warnings[1].message).contains(QStringLiteral("where the program runs")));
        QVERIFY(QString::fromStdString(warnings[2].message).contains(QStringLiteral("but method 'forward' has 1")));
        // In the app's banner (first warning + "and N more") the summary leads, whatever came
        // before it (document and ETRecord warnings); the rest keep their order.
        std::vector<Warning> banner { { "document warning", std::nullopt }, { "etrecord warning", std::nullopt } };
        banner.insert(banner.end(), warnings.begin(), warnings.end());
        leadWithDumpFit(banner);
        QCOMPARE(banner.front().message, warnings.front().message);
        QVERIFY(isDumpFitSummary(banner.front()));
        QCOMPARE(banner[1].message, std::string("document warning"));
        QCOMPARE(banner[3].message, warnings[1].message);
    }

    void instructionsRunTwiceFit()
    {
        // An instruction inside a loop (JumpFalseCall) runs several times per Execute block and
        // logs its values each time: spike_add's delegate call, as if it ran twice.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/spike_add.pte"));
        const EventMapper mapper(*document.methods.front().graph);
        ETSCOPE_TAKE(ETDump twice, dump("spike_add/spike_add.intermediates.etdp"));
        RunBlock& block = twice.runs[twice.executeBlocks().front()];
        std::vector<DebugEvent> arguments;
        for (const DebugEvent& event : block.debugEvents)
            if (!event.value.output)
                arguments.push_back(event);
        QCOMPARE(arguments.size(), std::size_t(3)); // two inputs and the output
        block.debugEvents.insert(block.debugEvents.begin(), arguments.begin(), arguments.end());
        block.profileEvents.insert(
            block.profileEvents.end(), block.profileEvents.begin() + 1, block.profileEvents.end());
        const DumpFit fit = checkDumpFitsProgram(twice, mapper);
        QVERIFY2(fit.mismatches() == 0, fit.examples.empty() ? "" : fit.examples.front().c_str());
        // A call cut short (one argument missing) is no whole call.
        block.debugEvents.erase(block.debugEvents.begin());
        QCOMPARE(checkDumpFitsProgram(twice, mapper).tensors, std::size_t(1));
    }

    void oneBlockOnly()
    {
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        const EventMapper mapper(*document.methods.front().graph);
        ETSCOPE_TAKE(const ETDump x3, dump("add/add.intermediates.x3.etdp"));
        const DumpFit all = checkDumpFitsProgram(x3, mapper);
        const DumpFit second = checkDumpFitsProgram(x3, mapper, 1);
        QVERIFY(second.checked > 0);
        QCOMPARE(all.checked, 3 * second.checked);
        QCOMPARE(checkDumpFitsProgram(x3, mapper, 3).checked, std::size_t(0));
    }

    void debugBufferOfAnotherKind_data()
    {
        QTest::addColumn<std::string>("buffer");
        QTest::addColumn<QString>("kind");
        QTest::addRow("etdump") << etscope::test::samplePath("generated/add/add.profile.etdp")
                                << QStringLiteral("starts like an ETDump");
        QTest::addRow("program") << etscope::test::samplePath("executorch/add.pte")
                                 << QStringLiteral("starts like an ExecuTorch program");
        QTest::addRow("etrecord") << etscope::test::samplePath("executorch/etrecord.bin")
                                  << QStringLiteral("starts like a ZIP archive");
    }

    void debugBufferOfAnotherKind()
    {
        QFETCH(std::string, buffer);
        QFETCH(QString, kind);
        ETSCOPE_TAKE(ETDump run, dump("add/add.intermediates.etdp"));
        QVERIFY(!attachDebugBuffer(run, buffer));
        const auto warning = checkDebugBufferKind(run);
        QVERIFY(warning);
        const QString message = QString::fromStdString(warning->message);
        QVERIFY2(message.startsWith(QString::fromStdString(buffer) + QStringLiteral(": ")), qPrintable(message));
        QVERIFY2(message.contains(kind), qPrintable(message));
        QVERIFY(message.contains(QStringLiteral("add.intermediates.etdp")));
    }

    void realDebugBufferPasses()
    {
        ETSCOPE_TAKE(ETDump run, dump("add/add.intermediates.etdp"));
        QVERIFY(!checkDebugBufferKind(run)); // nothing attached yet
        QVERIFY(!attachDebugBufferOrDefault(run, {}));
        QVERIFY(run.buffer);
        QVERIFY(!checkDebugBufferKind(run));
        ETSCOPE_TAKE(ETDump bundled, dump("bundled_program/bundled_program.intermediates.etdp"));
        QVERIFY(!attachDebugBufferOrDefault(bundled, {}));
        QVERIFY(bundled.buffer);
        QVERIFY(!checkDebugBufferKind(bundled)); // malloc garbage before the first tensor
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestDumpCheck)
#include "tst_dumpcheck.moc"
