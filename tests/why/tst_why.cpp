// SPDX-License-Identifier: MIT
// Why an operator stayed on the CPU (core/why/why.h): the rule checker on the real delegated
// samples (the kinds worked out by hand from each KernelCall's operator and argument values,
// read off the programs with flatc; comments give them), every non-delegated operator of every
// delegated sample answered, and the logged reasons of every format placed on the right nodes
// of a writer-made program, with and without its ETRecord.
#include "core/debug/etrecord.h"
#include "core/document/document.h"
#include "core/util/mappedfile.h"
#include "core/why/why.h"
#include "core/writer/debug/etrecordwriter.h"
#include "core/writer/partitionlogwriter.h"
#include "core/writer/programspec.h"
#include "core/writer/programwriter.h"
#include "tests/common/testsupport.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope::core;

namespace {

Document openSample(const std::string& relative)
{
    auto document = openDocument(etscope::test::samplePath(relative));
    if (!document)
        qFatal("cannot open %s: %s", relative.c_str(), document.error().message().c_str());
    return std::move(document).value();
}

const NodeWhy* answerAt(const WhyReport& report, int instruction)
{
    const auto answers = report.answersFor("forward", 0, instruction);
    return answers.empty() ? nullptr : answers.front();
}

/// forward: #0, #1 aten::index_select.out; #2 an XnnpackBackend call; #3, #4 aten::avg_pool3d.out;
/// #5 quantized_decomposed::dequantize_per_tensor.out of the delegate's output.
std::vector<std::uint8_t> fixtureProgram()
{
    ProgramSpec spec;
    MethodSpec& method = spec.addMethod("forward");
    const auto tensor = [&](int type, std::vector<std::int32_t> sizes, bool planned) {
        TensorSpec t;
        t.scalarType = type;
        t.sizes = std::move(sizes);
        if (planned)
            t.allocation = AllocationSpec { 1, 0 };
        return method.addTensor(t);
    };
    const std::int32_t input = tensor(scalar_type::Float, { 1, 1, 8, 4, 4 }, false);
    method.inputs = { input };
    const std::int32_t indexSelect = method.addOperator("aten::index_select", "out");
    for (int i = 0; i < 2; ++i) {
        const std::int32_t dim = method.addValue(ValueSpec::integer(2));
        const std::int32_t index = tensor(scalar_type::Long, { 2 }, true);
        const std::int32_t out = tensor(scalar_type::Float, { 1, 1, 2, 4, 4 }, true);
        method.addInstruction(InstructionSpec::kernel(indexSelect, { input, dim, index, out, out }));
    }
    method.addDelegate({ "XnnpackBackend", { 1, 2, 3, 4 }, DelegateSpec::Placement::Inline, {} });
    const std::int32_t delegated = tensor(scalar_type::Char, { 1, 1, 8, 4, 4 }, true);
    method.addInstruction(InstructionSpec::delegate(0, { input, delegated }));
    const std::int32_t pool = method.addOperator("aten::avg_pool3d", "out");
    for (int i = 0; i < 2; ++i) {
        std::vector<std::int64_t> kernel;
        for (int k = 0; k < 3; ++k)
            kernel.push_back(method.addValue(ValueSpec::integer(2)));
        const std::int32_t kernelList = method.addValue(ValueSpec::intList(kernel));
        const std::int32_t out = tensor(scalar_type::Float, { 1, 1, 4, 2, 2 }, true);
        const std::int32_t none = method.addValue(ValueSpec::null());
        const std::int32_t flag = method.addValue(ValueSpec::boolean(false));
        method.addInstruction(
            InstructionSpec::kernel(pool, { input, kernelList, kernelList, kernelList, flag, flag, none, out, out }));
    }
    const std::int32_t dequantize = method.addOperator("quantized_decomposed::dequantize_per_tensor", "out");
    const std::int32_t scale = method.addValue(ValueSpec::real(0.5));
    const std::int32_t zero = method.addValue(ValueSpec::integer(0));
    const std::int32_t low = method.addValue(ValueSpec::integer(-128));
    const std::int32_t high = method.addValue(ValueSpec::integer(127));
    const std::int32_t dtype = method.addValue(ValueSpec::integer(1));
    const std::int32_t none = method.addValue(ValueSpec::null());
    const std::int32_t result = tensor(scalar_type::Float, { 1, 1, 8, 4, 4 }, true);
    method.addInstruction(
        InstructionSpec::kernel(dequantize, { delegated, scale, zero, low, high, dtype, none, result, result }));
    method.outputs = { result };
    method.computeArenaSizes();
    auto bytes = writeProgram(spec);
    if (!bytes)
        qFatal("writeProgram: %s", bytes.error().message().c_str());
    return std::move(bytes).value();
}

/// The fixture's ETRecord: the FX names of the KernelCalls through their debug handles — the
/// second avg_pool3d (#4) is "aten_avg_pool3d_default", the first (#3) "…_default_1".
ETRecord fixtureRecord()
{
    EdgeProgram program;
    const auto node = [&](const char* name, const char* target, std::int64_t handle) {
        EdgeNode n;
        n.name = name;
        n.target = target;
        n.debugHandle = DebugHandle(handle);
        program.nodes.push_back(n);
    };
    node("aten_index_select_default", "executorch.exir.dialects.edge.ops.aten.index_select.default", 1);
    node("aten_index_select_default_1", "executorch.exir.dialects.edge.ops.aten.index_select.default", 2);
    node("aten_avg_pool3d_default_1", "executorch.exir.dialects.edge.ops.aten.avg_pool3d.default", 4);
    node("aten_avg_pool3d_default", "executorch.exir.dialects.edge.ops.aten.avg_pool3d.default", 5);
    ETRecordWriteSpec spec;
    spec.edgePrograms.push_back({ "forward", program });
    spec.debugHandleMap["forward"][0] = { { DebugHandle(1) }, false };
    spec.debugHandleMap["forward"][1] = { { DebugHandle(2) }, false };
    spec.debugHandleMap["forward"][3] = { { DebugHandle(4) }, false };
    spec.debugHandleMap["forward"][4] = { { DebugHandle(5) }, false };
    auto bytes = writeETRecord(spec);
    if (!bytes)
        qFatal("writeETRecord: %s", bytes.error().message().c_str());
    auto record = readETRecord(MappedFile::fromBytes("fixture.etrecord", *bytes));
    if (!record)
        qFatal("readETRecord: %s", record.error().message().c_str());
    return std::move(record).value();
}

/// Every log format at once: Arm rows for both avg_pool3d nodes (the "_1" one first) and one
/// too many, XNNPACK lines for both index_select nodes and an unknown node, QNN and Core ML lines.
std::vector<PartitionLog> fixtureLogs()
{
    std::vector<PartitionLog> logs;
    logs.push_back(parsePartitionLog(
        writeArmPartitionReport({ { "TOSA-1.0+INT",
            { { "aten_avg_pool3d_default_1", "aten.avg_pool3d.default", "-", "first reason" },
                { "aten_avg_pool3d_default", "aten.avg_pool3d.default", "-", "second reason" },
                { "aten_avg_pool3d_default_2", "aten.avg_pool3d.default", "-", "third reason" } } } }),
        "arm.txt"));
    logs.push_back(parsePartitionLog(writeXnnpackWhyLines({ { "aten_index_select_default", "", "-", "reason A" },
                                         { "aten_index_select_default_1", "", "-", "reason B" },
                                         { "aten_index_select_default", "", "-", "reason A again" },
                                         { "aten_conv2d_default", "", "-", "reason C" } }),
        "xnn.log"));
    logs.push_back(
        parsePartitionLog(writeQnnOpSupportLines({ { "aten.avg_pool3d.default", "False" } }, false), "qnn.log"));
    logs.push_back(parsePartitionLog(writeCoreMlSkipLines({ "aten.index_select.default" }), "coreml.log"));
    return logs;
}

std::vector<std::string> loggedReasons(const NodeWhy& node)
{
    std::vector<std::string> reasons;
    for (const PlacedReason& placed : node.logged)
        reasons.push_back(placed.reason.reason);
    return reasons;
}

bool anyWarning(const WhyReport& report, const QString& part)
{
    for (const Warning& warning : report.warnings)
        if (QString::fromStdString(warning.message).contains(part))
            return true;
    return false;
}

} // namespace

class TestWhy : public QObject {
    Q_OBJECT

private slots:
    // executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte: #3 aten::avg_pool3d.out with
    // kernel_size [5, 1, 1] (values 17-19) between two EthosUBackend calls; #0, #2, #4, #6 the
    // quantize/dequantize at the calls' edges (#0 writes v1 the first call reads, #2 reads v8 it
    // writes, #4 writes v32 the second reads, #6 reads v38 it writes).
    void avgPool3dOnEthosU()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const Document document = openSample("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        const auto report = explainProgram(document, {}, nullptr);
        QVERIFY(report.ok());
        QCOMPARE(report->backends, std::vector<std::string> { "EthosUBackend" });
        const NodeWhy* pool = answerAt(*report, 3);
        QVERIFY(pool);
        QCOMPARE(pool->opType, std::string("aten::avg_pool3d.out"));
        QCOMPARE(pool->kind, WhyKind::Fails);
        QVERIFY2(QString::fromStdString(pool->reason).startsWith(QStringLiteral("kernel 5\u00d71\u00d71 (3-D): ")),
            pool->reason.c_str());
        QVERIFY(QString::fromStdString(pool->reason).contains(QStringLiteral("2-D only")));
        QVERIFY(QString::fromStdString(pool->source)
                    .contains(QStringLiteral("backends/arm/operator_support/pool_2d_support.py")));
        for (const int boundary : { 0, 2, 4, 6 }) {
            const NodeWhy* node = answerAt(*report, boundary);
            QVERIFY(node);
            QCOMPARE(node->kind, WhyKind::Boundary);
            QCOMPARE(node->group, 0);
        }
        QCOMPARE(report->groups.size(), std::size_t(1));
        QCOMPARE(report->groups[0].nodes, 4);
        QCOMPARE(report->groups[0].opTypes.size(), std::size_t(2));
        QCOMPARE(report->nodes.size(), std::size_t(5));
    }

    // stress_mlp (XNNPACK): #0, #1 _to_dim_order_copy LONG → FLOAT and #7, #8 FLOAT → LONG, #9, #10
    // clamp on LONG: XNNPACK's common check (every tensor float32/float16) fails first; #2-#5
    // select_copy and #11, #12 index_select, which no XNNPACK config takes.
    void xnnpackStressMlp()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto report = explainProgram(openSample("djl-executorch-engine/stress_mlp.pte"), {}, nullptr);
        QVERIFY(report.ok());
        for (const int i : { 0, 1, 7, 8, 9, 10 }) {
            QCOMPARE(answerAt(*report, i)->kind, WhyKind::Fails);
            QVERIFY(
                QString::fromStdString(answerAt(*report, i)->reason).contains(QStringLiteral("(\"invalid dtype\")")));
            QVERIFY(QString::fromStdString(answerAt(*report, i)->source).contains(QStringLiteral("xnnpack_config.py")));
        }
        QVERIFY(QString::fromStdString(answerAt(*report, 0)->reason).startsWith(QStringLiteral("self is LONG: ")));
        QVERIFY(QString::fromStdString(answerAt(*report, 7)->reason).startsWith(QStringLiteral("out is LONG: ")));
        QVERIFY(QString::fromStdString(answerAt(*report, 9)->reason).startsWith(QStringLiteral("self is LONG: ")));
        for (const int i : { 2, 3, 4, 5, 11, 12 }) {
            QCOMPARE(answerAt(*report, i)->kind, WhyKind::NoRule);
            QVERIFY(QString::fromStdString(answerAt(*report, i)->source)
                        .contains(QStringLiteral("ALL_PARTITIONER_CONFIGS")));
        }
        QCOMPARE(report->count(WhyKind::Fails), 6);
        QCOMPARE(report->count(WhyKind::NoRule), 6);
        QCOMPARE(report->count(WhyKind::AllHold), 0);
    }

    // dnf_xnnpack_training forward: #1 addmm and #9 mm whose weight (mat2: v4 [100, 1], v2 [1, 100])
    // is memory-planned, not a constant; #10 view_copy [1, 1] → [1] of FLOAT passes every known
    // constraint; alias_copy, sum (×2), full_like and expand_copy have no XNNPACK config.
    void xnnpackTraining()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto report = explainProgram(openSample("dnf-executorch/dnf_xnnpack_training.pte"), {}, nullptr);
        QVERIFY(report.ok());
        QCOMPARE(answerAt(*report, 1)->kind, WhyKind::Fails);
        QVERIFY(QString::fromStdString(answerAt(*report, 1)->reason)
                    .startsWith(QStringLiteral("mat2 is computed at run time")));
        QCOMPARE(answerAt(*report, 9)->kind, WhyKind::Fails);
        QCOMPARE(answerAt(*report, 10)->kind, WhyKind::AllHold);
        QVERIFY(QString::fromStdString(answerAt(*report, 10)->reason)
                    .contains(QStringLiteral("the partitioner's log will say why")));
        // ViewCopyConfig came with v1.3.0: an older exporter had no rule, which the answer says.
        QVERIFY(
            QString::fromStdString(answerAt(*report, 10)->reason).contains(QStringLiteral("since ExecuTorch v1.3.0")));
        for (const int i : { 2, 4, 5, 6, 8 })
            QCOMPARE(answerAt(*report, i)->kind, WhyKind::NoRule);
        QCOMPARE(report->count(WhyKind::Fails), 2);
        QCOMPARE(report->count(WhyKind::NoRule), 5);
        QCOMPARE(report->count(WhyKind::AllHold), 1);
    }

    // Every KernelCall of every delegated program in the sample set gets exactly one answer per
    // backend of its method, of one of the kinds, with a reason and a source.
    void everySampleAnswered()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        int programs = 0;
        QDirIterator it(etscope::test::samplesRoot(), { QStringLiteral("*.pte"), QStringLiteral("*.bpte") },
            QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            auto document = openDocument(path);
            if (!document || !document->program)
                continue;
            const auto report = explainProgram(*document, {}, nullptr);
            QVERIFY2(report.ok(), path.c_str());
            for (const Method& method : document->program->methods) {
                if (method.delegates.empty())
                    continue;
                ++programs;
                for (std::size_t c = 0; c < method.chains.size(); ++c)
                    for (std::size_t i = 0; i < method.chains[c].instructions.size(); ++i) {
                        if (method.chains[c].instructions[i].kind != Instruction::Kind::Kernel)
                            continue;
                        const auto answers = report->answersFor(method.name, static_cast<int>(c), static_cast<int>(i));
                        QVERIFY2(!answers.empty(), (path + " #" + std::to_string(i)).c_str());
                        for (const NodeWhy* answer : answers) {
                            QVERIFY2(!answer->reason.empty() && !answer->source.empty(), path.c_str());
                            QVERIFY(answer->kind == WhyKind::Fails || answer->kind == WhyKind::NoRule
                                || answer->kind == WhyKind::AllHold || answer->kind == WhyKind::Boundary);
                        }
                    }
            }
        }
        QVERIFY(programs >= 10);
    }

    // Logged reasons on a writer-made program: by type and order without an ETRecord, by FX name
    // with one; QNN and Core ML lines on every node of their type; the rest as warnings.
    void placementWithoutETRecord()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("fixture.pte")).toStdString();
        const auto bytes = fixtureProgram();
        QVERIFY(!writeBytesToFile(path, bytes));
        const auto document = openDocument(path);
        QVERIFY(document.ok());
        const auto report = explainProgram(*document, fixtureLogs(), nullptr);
        QVERIFY(report.ok());
        // Arm rows in log order onto #3 then #4; the QNN line on both.
        QCOMPARE(loggedReasons(*answerAt(*report, 3)).front(), std::string("first reason"));
        QCOMPARE(loggedReasons(*answerAt(*report, 4)).front(), std::string("second reason"));
        QCOMPARE(answerAt(*report, 3)->logged.front().matched,
            std::string("operator type and order (1st aten::avg_pool3d)"));
        QCOMPARE(answerAt(*report, 4)->logged.size(), std::size_t(2));
        QCOMPARE(answerAt(*report, 4)->logged[1].reason.format, PartitionLogFormat::Qnn);
        // XNNPACK lines by the operator their node names spell, in order; the repeated name goes
        // to the node it named first.
        QCOMPARE(loggedReasons(*answerAt(*report, 0)),
            (std::vector<std::string> { "reason A", "reason A again", "it is not supported by CoreML" }));
        QCOMPARE(loggedReasons(*answerAt(*report, 1)),
            (std::vector<std::string> { "reason B", "it is not supported by CoreML" }));
        QVERIFY(answerAt(*report, 5)->logged.empty());
        QCOMPARE(answerAt(*report, 5)->kind, WhyKind::Boundary);
        QVERIFY(anyWarning(*report,
            QStringLiteral("arm.txt:10: node aten_avg_pool3d_default_2 (aten.avg_pool3d.default) has no 3rd "
                           "aten::avg_pool3d left on the CPU")));
        QVERIFY(anyWarning(
            *report, QStringLiteral("xnn.log:4: node aten_conv2d_default matches no operator left on the CPU")));
        QCOMPARE(report->logReasons, 3 + 4 + 1 + 1);
        QCOMPARE(report->placedReasons, 2 + 3 + 1 + 1);
    }

    void placementWithETRecord()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("fixture.pte")).toStdString();
        QVERIFY(!writeBytesToFile(path, fixtureProgram()));
        const auto document = openDocument(path);
        QVERIFY(document.ok());
        const ETRecord record = fixtureRecord();
        const auto report = explainProgram(*document, fixtureLogs(), &record);
        QVERIFY(report.ok());
        QCOMPARE(answerAt(*report, 3)->fxName, std::string("aten_avg_pool3d_default_1"));
        QCOMPARE(answerAt(*report, 4)->fxName, std::string("aten_avg_pool3d_default"));
        // By name now: "aten_avg_pool3d_default_1" is #3 and "aten_avg_pool3d_default" is #4.
        QCOMPARE(loggedReasons(*answerAt(*report, 3)).front(), std::string("first reason"));
        QCOMPARE(loggedReasons(*answerAt(*report, 4)).front(), std::string("second reason"));
        QCOMPARE(answerAt(*report, 4)->logged.front().matched, std::string("FX node name through the ETRecord"));
        QCOMPARE(loggedReasons(*answerAt(*report, 1)).front(), std::string("reason B"));
        QVERIFY(anyWarning(*report, QStringLiteral("(and the ETRecord does not name it)")));
    }

    // A partitioner asks again and logs again: a repeated line lands once on each node.
    void repeatedLinesOnce()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("fixture.pte")).toStdString();
        QVERIFY(!writeBytesToFile(path, fixtureProgram()));
        const auto document = openDocument(path);
        QVERIFY(document.ok());
        const std::pair<std::string, std::string> line { "aten.avg_pool3d.default", "False" };
        std::vector<PartitionLog> logs;
        logs.push_back(parsePartitionLog(writeQnnOpSupportLines({ line, line, line }, true), "qnn.log"));
        logs.push_back(parsePartitionLog(writeXnnpackWhyLines({ { "aten_index_select_default", "", "-", "r" },
                                             { "aten_index_select_default", "", "-", "r" } }),
            "xnn.log"));
        const auto report = explainProgram(*document, logs, nullptr);
        QVERIFY(report.ok());
        QCOMPARE(answerAt(*report, 3)->logged.size(), std::size_t(1));
        QCOMPARE(answerAt(*report, 4)->logged.size(), std::size_t(1));
        QCOMPARE(answerAt(*report, 0)->logged.size(), std::size_t(1));
        QCOMPARE(report->logReasons, 5);
        QCOMPARE(report->placedReasons, 5);
    }

    // A backend named by the user replaces the program's own; an unknown one is a usage error.
    void namedBackend()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const Document document = openSample("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        WhyOptions options;
        options.backend = "XnnpackBackend";
        const auto xnn = explainProgram(document, {}, nullptr, options);
        QVERIFY(xnn.ok());
        QCOMPARE(answerAt(*xnn, 3)->kind, WhyKind::NoRule); // no XNNPACK config for avg_pool3d
        QCOMPARE(answerAt(*xnn, 0)->kind, WhyKind::Boundary); // still at an EthosUBackend call
        QCOMPARE(answerAt(*xnn, 3)->backend, std::string("XnnpackBackend"));
        // stress_mlp's index_select for Ethos-U with no target known: the TOSA lists take it, the
        // U55 subset does not, which stays unverified.
        options.backend = "EthosUBackend";
        const auto arm = explainProgram(openSample("djl-executorch-engine/stress_mlp.pte"), {}, nullptr, options);
        QVERIFY(arm.ok());
        QCOMPARE(answerAt(*arm, 11)->kind, WhyKind::AllHold);
        QVERIFY(
            QString::fromStdString(answerAt(*arm, 11)->reason).contains(QStringLiteral("unverified for Ethos-U55")));
        // Named, the target chooses the rules: the U55 subset refuses index_select outright
        // (rules.cpp: ethos_u55_support.py), the U85 takes the whole TOSA list.
        options.target = "Ethos-U55";
        const auto u55 = explainProgram(openSample("djl-executorch-engine/stress_mlp.pte"), {}, nullptr, options);
        QVERIFY(u55.ok());
        QCOMPARE(answerAt(*u55, 11)->kind, WhyKind::NoRule);
        QVERIFY(QString::fromStdString(answerAt(*u55, 11)->reason)
                    .startsWith(QStringLiteral("no rule of EthosUBackend (Ethos-U55) covers aten::index_select")));
        options.target = "Ethos-U85";
        const auto u85 = explainProgram(openSample("djl-executorch-engine/stress_mlp.pte"), {}, nullptr, options);
        QVERIFY(u85.ok());
        QCOMPARE(answerAt(*u85, 11)->kind, WhyKind::AllHold);
        QVERIFY(!QString::fromStdString(answerAt(*u85, 11)->reason).contains(QStringLiteral("unverified")));
        options.target = "Ethos-U99";
        const auto badTarget = explainProgram(document, {}, nullptr, options);
        QVERIFY(!badTarget.ok());
        QCOMPARE(badTarget.error().code, Error::Code::Usage);
        QVERIFY(QString::fromStdString(badTarget.error().message())
                    .contains(QStringLiteral("targets: Ethos-U55, Ethos-U65, Ethos-U85")));
        options.backend = "XnnpackBackend";
        options.target = "Ethos-U55";
        const auto xnnTarget = explainProgram(document, {}, nullptr, options);
        QVERIFY(!xnnTarget.ok());
        QVERIFY(
            QString::fromStdString(xnnTarget.error().message()).contains(QStringLiteral("do not depend on a target")));
        options.target.clear();
        options.backend = "NoSuchBackend";
        const auto bad = explainProgram(document, {}, nullptr, options);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().code, Error::Code::Usage);
        QVERIFY(QString::fromStdString(bad.error().message()).contains(QStringLiteral("XnnpackBackend")));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestWhy)
#include "tst_why.moc"
