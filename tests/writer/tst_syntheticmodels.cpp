// SPDX-License-Identifier: MIT
// Synthetic programs (MLPs of 100 … 10,000 nodes) and the bundled demo, opened through
// openDocument: the operator table equals the counts they were built with, and their graphs
// keep the invariants. The programs follow facts sheet §1.3–1.7 (out-variant KernelCall args,
// DelegateCall inputs then outputs) and §3.1 for their XNNPACK partitions.
#include "tests/common/clirun.h"
#include "tests/common/graphchecks.h"
#include "tests/writer/writertestsupport.h"

#include "core/document/document.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/stats/operatortable.h"
#include "core/writer/demorun.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>

using namespace etscope::core;
using namespace etscope::test;

namespace {

/// Every tensor an operator or delegate node reads arrives on an edge carrying that value.
QString missingEdges(const Method& method, const Graph& graph)
{
    const GraphAdjacency adjacency = graph.adjacency();
    QStringList problems;
    for (const Node& node : graph.nodes) {
        if (!node.instruction.valid() || (node.kind != NodeKind::Operator && node.kind != NodeKind::Delegate))
            continue;
        const Instruction& instruction
            = method.chains.at(static_cast<std::size_t>(node.chain)).instructions.at(node.instruction.index());
        std::vector<std::int32_t> inputs;
        if (node.kind == NodeKind::Delegate) {
            inputs.assign(instruction.args.begin(), instruction.args.begin() + node.inputCount);
        } else {
            const auto outputs = kernelOutputs(method, instruction);
            for (std::size_t i = 0; i + 1 < instruction.args.size(); ++i)
                if (std::find(outputs.begin(), outputs.end(), instruction.args[i]) == outputs.end())
                    inputs.push_back(instruction.args[i]);
        }
        for (const std::int32_t value : inputs) {
            if (!method.values[static_cast<std::size_t>(value)].isTensor())
                continue;
            const auto& in = adjacency.in[node.id.index()];
            const bool found
                = std::any_of(in.begin(), in.end(), [&](std::size_t e) { return graph.edges[e].value.value == value; });
            if (!found)
                problems << QStringLiteral("instruction %1 reads v%2 without an edge")
                                .arg(node.instruction.value)
                                .arg(value);
        }
    }
    return problems.join(QStringLiteral("; "));
}

} // namespace

class TestSyntheticModels : public QObject {
    Q_OBJECT
private:
    etscope::test::ScratchDir m_scratch;

private slots:
    void operatorTableEqualsTheBuild_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("xnnpackEvery");
        QTest::addRow("100 nodes") << 100 << 8;
        QTest::addRow("1,000 nodes") << 1000 << 8;
        QTest::addRow("1,000 nodes, portable only") << 1000 << 0;
    }

    void operatorTableEqualsTheBuild()
    {
        QFETCH(int, nodes);
        QFETCH(int, xnnpackEvery);
        MlpOptions options;
        options.nodes = nodes;
        options.xnnpackEvery = xnnpackEvery;
        const SyntheticProgram built = makeMlpProgram(options);
        QCOMPARE(built.instructions, nodes);
        QCOMPARE(built.xnnpackCalls > 0, xnnpackEvery > 0);
        QCOMPARE(built.opaqueCalls, 1);

        auto document = m_scratch.writeAndOpen(built.spec, "mlp.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const Method* forward = document->program->method("forward");
        QVERIFY(forward);
        QVERIFY(document->program->method("classify"));
        QCOMPARE(forward->instructionTotal(), std::size_t(nodes));
        const OperatorTable table = computeOperatorTable(*document->analysis(*forward)->graph);
        std::map<std::string, int> nonDelegated;
        std::map<std::string, int> delegated;
        for (const OperatorRow& row : table.rows) {
            if (row.nonDelegated)
                nonDelegated[row.opType] = row.nonDelegated;
            if (row.delegated)
                delegated[row.opType] = row.delegated;
        }
        QCOMPARE(nonDelegated, built.nonDelegated);
        QCOMPARE(delegated, built.delegated);
        QCOMPARE(table.delegatedSubgraphs, built.xnnpackCalls + built.opaqueCalls);
        QCOMPARE(table.opaqueSubgraphs, built.opaqueCalls);
        int portable = 0;
        for (const auto& [op, count] : built.nonDelegated)
            portable += count;
        QCOMPARE(table.nonDelegatedNodes, portable);
        QCOMPARE(portable + built.xnnpackCalls + built.opaqueCalls, nodes);
        QVERIFY(built.nonDelegated.count("aten::addmm.out") && built.nonDelegated.count("aten::relu.out")
            && built.nonDelegated.count("aten::add.out"));
    }

    void tenThousandNodes()
    {
        MlpOptions options;
        options.nodes = 10000;
        const SyntheticProgram built = makeMlpProgram(options);
        auto document = m_scratch.writeAndOpen(built.spec, "mlp10k.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        for (const Method& method : document->program->methods) {
            const Graph& graph = *document->analysis(method)->graph;
            const QString missing = missingEdges(method, graph);
            QVERIFY2(missing.isEmpty(), qPrintable(missing));
            QVERIFY(graph.warnings.empty());
        }
        const Method& forward = *document->program->method("forward");
        QCOMPARE(forward.instructionTotal(), std::size_t(10000));
        const Graph& graph = *document->analysis(forward)->graph;
        QVERIFY(graph.nodes.size() > 10000);
        // Decoded partitions name their outputs; only the opaque call's split is inferred.
        int inferred = 0;
        for (const Node& node : graph.nodes)
            inferred += node.kind == NodeKind::Delegate && node.inferred;
        QCOMPARE(inferred, built.opaqueCalls);
        QVERIFY2(document->warnings.empty(), document->warnings.empty() ? "" : document->warnings[0].message.c_str());
    }

    void deterministic()
    {
        MlpOptions options;
        options.nodes = 300;
        const auto first = writeProgram(makeMlpProgram(options).spec);
        const auto second = writeProgram(makeMlpProgram(options).spec);
        QVERIFY(first && second);
        QVERIFY(first.value() == second.value());
        options.seed = 2;
        const auto reseeded = writeProgram(makeMlpProgram(options).spec);
        QVERIFY(reseeded);
        QVERIFY(reseeded.value() != first.value());
        QCOMPARE(reseeded->size(), first->size());
    }

    void demoLayout()
    {
        auto document = m_scratch.writeAndOpen(makeDemoProgram(), "demo.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        QVERIFY2(document->warnings.empty(), document->warnings.empty() ? "" : document->warnings[0].message.c_str());
        const Program& program = *document->program;
        QCOMPARE(program.methods.size(), std::size_t(2));
        QCOMPARE(program.methods[0].name, std::string("embed"));
        QCOMPARE(program.methods[1].name, std::string("forward"));

        const Method& forward = program.methods[1];
        QCOMPARE(forward.instructionTotal(), std::size_t(demo::kForwardInstructions));
        const auto& instructions = forward.chains.at(0).instructions;
        const auto label = [&](int i) {
            const Instruction& instruction = instructions.at(static_cast<std::size_t>(i));
            if (instruction.kind == Instruction::Kind::Delegate)
                return forward.delegates.at(static_cast<std::size_t>(instruction.index)).backendId;
            return forward.operators.at(static_cast<std::size_t>(instruction.index)).qualifiedName();
        };
        QCOMPARE(label(demo::kForwardXnnpackCall), std::string("XnnpackBackend"));
        QCOMPARE(label(demo::kForwardMaxPool), std::string("aten::max_pool2d_with_indices.out"));
        QCOMPARE(label(demo::kForwardView), std::string("aten::view_copy.out"));
        QCOMPARE(label(demo::kForwardNpuCall), std::string("AcmeNpuBackend"));
        QCOMPARE(label(demo::kForwardFc1), std::string("aten::addmm.out"));
        QCOMPARE(label(demo::kForwardRelu), std::string("aten::relu.out"));
        QCOMPARE(label(demo::kForwardFc2), std::string("aten::addmm.out"));
        QCOMPARE(label(demo::kForwardSoftmax), std::string("aten::_softmax.out"));
        QCOMPARE(label(demo::kForwardArgmax), std::string("aten::argmax.out"));
        QCOMPARE(instructions[demo::kForwardXnnpackCall].index, 0);
        QCOMPARE(instructions[demo::kForwardNpuCall].index, 1);

        const MethodAnalysis& analysis = *document->analysis(forward);
        const DelegateInfo& xnnpack = analysis.delegates.at(0);
        QCOMPARE(xnnpack.format, std::string("xnnpack"));
        std::vector<std::pair<std::string, std::uint32_t>> inner;
        for (const Node& node : xnnpack.innerGraph->nodes)
            if (node.kind == NodeKind::Operator)
                inner.emplace_back(node.opType, node.debugHandle.value_or(DebugHandle(0)).value);
        const std::vector<std::pair<std::string, std::uint32_t>> expectedInner { { "XNNStaticTranspose", 1 },
            { "XNNConv2d", 2 }, { "XNNClamp", 3 }, { "XNNStaticTranspose", 4 } };
        QCOMPARE(inner, expectedInner);
        const DelegateInfo& npu = analysis.delegates.at(1);
        QCOMPARE(npu.format, std::string("opaque"));
        QVERIFY(std::any_of(npu.facts.begin(), npu.facts.end(),
            [](const Attribute& a) { return a.name == "compile_spec target" && a.value == "acme-npu-v2"; }));

        const Graph& graph = *analysis.graph;
        QVERIFY2(graph.nodes.size() >= 15 && graph.nodes.size() <= 30, qPrintable(QString::number(graph.nodes.size())));
        QVERIFY(missingEdges(forward, graph).isEmpty());
        const Graph& embed = *document->analysis(program.methods[0])->graph;
        QCOMPARE(program.methods[0].instructionTotal(), std::size_t(demo::kEmbedInstructions));
        QVERIFY(std::any_of(embed.nodes.begin(), embed.nodes.end(),
            [](const Node& n) { return n.kind == NodeKind::State && n.label == "stats.running"; }));
        QVERIFY(missingEdges(program.methods[0], embed).isEmpty());
    }

    void writeDemoTool()
    {
        const QString dir = QString::fromStdString(m_scratch.path("tool-demo"));
        QVERIFY(QDir().mkpath(dir));
        const etscope::test::CliRun tool = etscope::test::runProgram(QStringLiteral(ETSCOPE_WRITEDEMO), { dir });
        QVERIFY2(tool.exitCode == 0, qPrintable(tool.err));
        const auto read = [&](const char* name) {
            std::ifstream in((dir + QLatin1Char('/') + QLatin1String(name)).toStdString(), std::ios::binary);
            return std::vector<std::uint8_t> { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
        };
        const auto expected = writeProgram(makeDemoProgram());
        QVERIFY(expected);
        QVERIFY(read("demo.pte") == expected.value());
        const DemoTraces traces = makeDemoTraces();
        QVERIFY(read("demo.etdp") == traces.run.etdump);
        QVERIFY(read("demo.debug.bin") == traces.run.debugBuffer);
        QVERIFY(read("demo.reference.etdp") == traces.reference.etdump);
        QVERIFY(read("demo.reference.debug.bin") == traces.reference.debugBuffer);

        const etscope::test::CliRun usage = etscope::test::runProgram(QStringLiteral(ETSCOPE_WRITEDEMO), {});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY2(usage.err.startsWith(QLatin1String("usage: ")), qPrintable(usage.err));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestSyntheticModels)
#include "tst_syntheticmodels.moc"
