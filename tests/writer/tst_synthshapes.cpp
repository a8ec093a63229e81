// SPDX-License-Identifier: MIT
// The synthetic attention models (writer/transformermodels.h) and the etscope-synth tool, read
// back through openDocument: `forward` has exactly the requested instructions in the documented
// block order, residuals and the shared scale constant are real graph edges, planned activations
// are never overwritten while still to be read, and the LLM's large XNNPACK call decodes to the
// requested number of inner nodes beside its getter methods.
#include "tests/common/clirun.h"
#include "tests/writer/readbackchecks.h"
#include "tests/writer/writertestsupport.h"

#include "core/document/document.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/stats/operatortable.h"
#include "core/writer/programwriter.h"
#include "core/writer/transformermodels.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>

using namespace etscope::core;
using namespace etscope::test;

namespace {

// The portable block as transformermodels.h documents it, written out again here so that a
// change of the generator shows as a difference instead of being compared with itself.
const char* const kBlock[] = { "aten::native_layer_norm.out", "aten::view_copy.out", "aten::addmm.out",
    "aten::addmm.out", "aten::addmm.out", "aten::view_copy.out", "aten::permute_copy.out", "aten::view_copy.out",
    "aten::permute_copy.out", "aten::view_copy.out", "aten::permute_copy.out", "aten::view_copy.out",
    "aten::view_copy.out", "aten::bmm.out", "aten::div.out", "aten::_softmax.out", "aten::view_copy.out",
    "aten::bmm.out", "aten::view_copy.out", "aten::permute_copy.out", "aten::view_copy.out", "aten::addmm.out",
    "aten::view_copy.out", "aten::add.out", "aten::native_layer_norm.out", "aten::view_copy.out", "aten::addmm.out",
    "aten::gelu.out", "aten::addmm.out", "aten::view_copy.out", "aten::add.out" };
static_assert(std::size(kBlock) == transformer::kBlockInstructions);
constexpr int kBlockResidual = 23; ///< the add that reads the block input

/// One XNNPACK layer by node type; the quantised layer adds four Converts.
std::map<std::string, int> xnnLayer(bool quantized)
{
    std::map<std::string, int> nodes { { "XNNFullyConnected", 6 }, { "XNNStaticReshape", 4 },
        { "XNNStaticTranspose", 4 }, { "XNNBatchMatrixMultiply", 2 }, { "XNNMultiply", 1 }, { "XNNSoftmax", 1 },
        { "XNNAdd", 2 }, { "XNNGelu", 1 } };
    if (quantized)
        nodes["XNNConvert"] = 4;
    return nodes;
}

struct Expected {
    std::string label; ///< "name.overload" or the backend id
    int position = -1; ///< position in a portable block
};

/// `forward`'s instructions: `prefix`, then blocks, every `delegateEvery`-th one XNNPACK call.
std::vector<Expected> expectedForward(int instructions, int delegateEvery, const std::vector<std::string>& prefix)
{
    std::vector<Expected> out;
    for (const std::string& label : prefix)
        out.push_back({ label });
    for (int block = 0; out.size() < std::size_t(instructions); ++block) {
        if (delegateEvery > 0 && (block + 1) % delegateEvery == 0) {
            out.push_back({ "XnnpackBackend" });
            continue;
        }
        for (int p = 0; p < transformer::kBlockInstructions && out.size() < std::size_t(instructions); ++p)
            out.push_back({ kBlock[p], p });
    }
    out.resize(std::size_t(instructions));
    return out;
}

std::vector<std::string> labels(const Method& method)
{
    std::vector<std::string> out;
    for (const Instruction& instruction : method.chains.at(0).instructions)
        out.push_back(instruction.kind == Instruction::Kind::Delegate
                ? method.delegates.at(std::size_t(instruction.index)).backendId
                : method.operators.at(std::size_t(instruction.index)).qualifiedName());
    return out;
}

/// aten::add.out nodes reading a value produced `reach` or more instructions earlier (or a method input).
int longResiduals(const Graph& graph, int reach)
{
    int count = 0;
    for (const Node& node : graph.nodes) {
        if (node.opType != "aten::add.out")
            continue;
        for (const Edge* edge : graph.inEdges(node.id)) {
            const Node& from = graph.node(edge->from);
            if (from.kind == NodeKind::Input
                || (from.instruction.valid() && node.instruction.value - from.instruction.value >= reach)) {
                ++count;
                break;
            }
        }
    }
    return count;
}

} // namespace

class TestSynthShapes : public QObject {
    Q_OBJECT
private:
    etscope::test::ScratchDir m_scratch;

private slots:
    void transformerForward_data()
    {
        QTest::addColumn<int>("instructions");
        QTest::addColumn<int>("delegateEvery");
        QTest::addRow("50, first block only") << 50 << 0;
        QTest::addRow("200") << 200 << 0;
        QTest::addRow("200, every 3rd block to XNNPACK") << 200 << 3;
        QTest::addRow("1000, every 2nd block to XNNPACK") << 1000 << 2;
    }

    void transformerForward()
    {
        QFETCH(int, instructions);
        QFETCH(int, delegateEvery);
        TransformerOptions options;
        options.instructions = instructions;
        options.delegateEvery = delegateEvery;
        const TransformerProgram built = makeTransformerProgram(options);
        auto document = m_scratch.writeAndOpen(built.program.spec, "transformer.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const QString warnings = allWarnings(*document);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings));
        QCOMPARE(document->program->methods.size(), std::size_t(1));
        const Method& forward = *document->program->method("forward");
        QCOMPARE(forward.instructionTotal(), std::size_t(instructions));

        const std::vector<Expected> expected = expectedForward(instructions, delegateEvery, {});
        std::vector<std::string> expectedLabels;
        std::map<std::string, int> expectedPortable;
        int calls = 0, scaled = 0, blockResiduals = 0;
        for (const Expected& e : expected) {
            expectedLabels.push_back(e.label);
            if (e.label == "XnnpackBackend")
                ++calls;
            else
                ++expectedPortable[e.label];
            scaled += e.label == "aten::div.out";
            blockResiduals += e.position == kBlockResidual;
        }
        QCOMPARE(labels(forward), expectedLabels);

        const Graph& graph = *document->analysis(forward)->graph;
        const auto [portable, delegated] = tableCounts(graph);
        QCOMPARE(portable, expectedPortable);
        std::map<std::string, int> expectedDelegated;
        for (const auto& [type, count] : xnnLayer(false))
            expectedDelegated[type] = count * calls;
        if (calls == 0)
            expectedDelegated.clear();
        QCOMPARE(delegated, expectedDelegated);
        QCOMPARE(built.program.xnnpackCalls, calls);

        // Each block's first add reads the block input 24 instructions back (the method input for block 0).
        QVERIFY(blockResiduals > 0);
        QCOMPARE(longResiduals(graph, 20), blockResiduals);

        // One scale constant, read by every block's division.
        const auto scale = std::find_if(
            graph.nodes.begin(), graph.nodes.end(), [](const Node& n) { return n.label == "attn_scale"; });
        QVERIFY(scale != graph.nodes.end());
        QCOMPARE(scale->kind, NodeKind::Constant);
        QVERIFY(forward.values.at(std::size_t(scale->value.value)).tensor.sizes.empty());
        QCOMPARE(int(graph.outEdges(scale->id).size()), scaled);
        if (instructions >= 200)
            QVERIFY(scaled >= 4);

        const QString lost = overwrittenReads(forward, graph);
        QVERIFY2(lost.isEmpty(), qPrintable(lost));
        // The output is what the last instruction wrote.
        QCOMPARE(forward.outputs.size(), std::size_t(1));
        QCOMPARE(forward.outputs[0], forward.chains[0].instructions.back().args.back());
    }

    void llmProgram_data()
    {
        QTest::addColumn<int>("instructions");
        QTest::addColumn<int>("largeDelegate");
        QTest::addRow("50") << 50 << 50;
        QTest::addRow("200") << 200 << 200;
        QTest::addRow("3000, a 3000-node delegate") << 3000 << 3000;
        QTest::addRow("6000, capped at 5000 nodes") << 6000 << transformer::kMaxDelegateNodes;
    }

    void llmProgram()
    {
        QFETCH(int, instructions);
        QFETCH(int, largeDelegate);
        LlmOptions options;
        options.instructions = instructions;
        const TransformerProgram built = makeLlmProgram(options);
        QCOMPARE(built.largestDelegateNodes, largeDelegate);
        auto document = m_scratch.writeAndOpen(built.program.spec, "llm.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const QString warnings = allWarnings(*document);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings));

        const Program& program = *document->program;
        std::vector<std::string> names;
        for (const Method& method : program.methods)
            names.push_back(method.name);
        const std::vector<std::string> expectedNames { "forward", "get_max_seq_len", "get_n_layers", "get_vocab_size",
            "prefill", "use_kv_cache" };
        QCOMPARE(names, expectedNames);
        for (const char* name : { "get_max_seq_len", "get_n_layers", "get_vocab_size", "use_kv_cache" }) {
            const Method& method = *program.method(name);
            QCOMPARE(method.instructionTotal(), std::size_t(0));
            QVERIFY(method.inputs.empty());
            QCOMPARE(method.outputs.size(), std::size_t(1));
        }
        const auto getter = [&](const char* name) -> const Value& {
            const Method& method = *program.method(name);
            return method.values.at(std::size_t(method.outputs.at(0)));
        };
        QCOMPARE(getter("get_vocab_size").kind, Value::Kind::Int);
        QCOMPARE(getter("get_vocab_size").intValue, std::int64_t(options.vocab));
        QCOMPARE(getter("get_max_seq_len").intValue, std::int64_t(options.maxSeqLen));
        QCOMPARE(getter("get_n_layers").intValue, std::int64_t(built.layers));
        QCOMPARE(getter("use_kv_cache").kind, Value::Kind::Bool);
        QVERIFY(getter("use_kv_cache").boolValue);

        const Method& forward = *program.method("forward");
        QCOMPARE(forward.instructionTotal(), std::size_t(instructions));
        std::vector<std::string> expectedLabels;
        int calls = 0;
        for (const Expected& e : expectedForward(instructions, options.delegateEvery, { "aten::embedding.out" })) {
            expectedLabels.push_back(e.label);
            calls += e.label == "XnnpackBackend";
        }
        QCOMPARE(labels(forward), expectedLabels);
        QVERIFY(calls >= 1);

        // The first call is the large one (weights in named data), later calls one quantised layer each.
        const MethodAnalysis& analysis = *document->analysis(forward);
        QCOMPARE(analysis.delegates.size(), std::size_t(calls));
        for (std::size_t i = 0; i < analysis.delegates.size(); ++i) {
            const DelegateInfo& delegate = analysis.delegates[i];
            QCOMPARE(delegate.format, std::string("xnnpack"));
            QVERIFY(delegate.innerGraph);
            const int nodes = int(delegate.innerGraph->operatorCount());
            QCOMPARE(nodes, i == 0 ? largeDelegate : transformer::kXnnQuantizedLayerNodes);
        }
        QVERIFY(!program.namedData.empty());
        const auto [portable, delegated] = tableCounts(*analysis.graph);
        QCOMPARE(delegated, built.program.delegated);
        QCOMPARE(portable, built.program.nonDelegated);
        QVERIFY(delegated.at("XNNConvert") > 0 && delegated.at("XNNFullyConnected") > 0);

        const Method& prefill = *program.method("prefill");
        QCOMPARE(prefill.instructionTotal(), std::size_t(1 + 2 * transformer::kBlockInstructions));
        QCOMPARE(prefill.values.at(std::size_t(prefill.inputs.at(0))).tensor.sizes,
            (std::vector<std::int64_t> { 1, options.prefillSequence }));
        for (const Method* method : { &forward, &prefill }) {
            const QString lost = overwrittenReads(*method, *document->analysis(*method)->graph);
            QVERIFY2(lost.isEmpty(), qPrintable(lost));
        }
    }

    void deterministic()
    {
        TransformerOptions transformerOptions;
        transformerOptions.instructions = 300;
        transformerOptions.delegateEvery = 4;
        LlmOptions llmOptions;
        llmOptions.instructions = 300;
        const auto write = [](const ProgramSpec& spec) { return writeProgram(spec).value(); };
        const auto first = write(makeTransformerProgram(transformerOptions).program.spec);
        QVERIFY(first == write(makeTransformerProgram(transformerOptions).program.spec));
        const auto llm = write(makeLlmProgram(llmOptions).program.spec);
        QVERIFY(llm == write(makeLlmProgram(llmOptions).program.spec));
        transformerOptions.seed = 2;
        llmOptions.seed = 2;
        const auto reseeded = write(makeTransformerProgram(transformerOptions).program.spec);
        QVERIFY(reseeded != first);
        QCOMPARE(reseeded.size(), first.size());
        QVERIFY(write(makeLlmProgram(llmOptions).program.spec) != llm);
    }

    void weightsMib()
    {
        constexpr double kMib = 1024.0 * 1024.0;
        TransformerOptions options;
        options.instructions = 200;
        options.weightsMib = 4;
        const TransformerProgram wide = makeTransformerProgram(options);
        const double stored = double(storedConstantBytes(wide.program.spec)) / kMib;
        QVERIFY2(stored > 3.4 && stored < 4.6, qPrintable(QString::number(stored)));
        QVERIFY(wide.hidden > 16 && wide.hidden % options.dims.heads == 0);
        auto document = m_scratch.writeAndOpen(wide.program.spec, "wide.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        QVERIFY(allWarnings(*document).isEmpty());
        QCOMPARE(document->program->method("forward")->instructionTotal(), std::size_t(200));

        LlmOptions llm;
        llm.instructions = 500;
        llm.weightsMib = 2;
        const double llmStored = double(storedConstantBytes(makeLlmProgram(llm).program.spec)) / kMib;
        QVERIFY2(llmStored > 1.7 && llmStored < 2.3, qPrintable(QString::number(llmStored)));
    }

    void synthTool()
    {
        const auto run = [](const QStringList& args, QByteArray* err = nullptr, QByteArray* out = nullptr) {
            const etscope::test::CliRun result = etscope::test::runProgram(QStringLiteral(ETSCOPE_SYNTH), args);
            if (err)
                *err = result.err.toUtf8().trimmed();
            if (out)
                *out = result.rawOut;
            return result.exitCode;
        };
        const QString bad = QString::fromStdString(m_scratch.path("bad.pte"));
        const std::pair<QStringList, const char*> misuses[] = {
            { { "--shape", "cnn", "--instructions", "10", "-o", bad }, "unknown shape 'cnn'" },
            { { "--shape", "transformer", "--instructions", "0", "-o", bad }, "--instructions" },
            { { "--shape", "llm", "--instructions", "ten", "-o", bad }, "--instructions" },
            { { "--shape", "llm", "--instructions", "10" }, "missing -o" },
            { { "--shape", "mlp", "--instructions", "10", "--delegate-every", "-1", "-o", bad }, "--delegate-every" },
            { { "--instructions", "10", "-o", bad }, "missing --shape" },
            { { "--shape", "mlp", "--instructions", "10", "--frobnicate", "-o", bad }, "unknown option" },
            { { "--shape", "wide", "--instructions", "1", "-o", bad }, "--shape wide needs" },
        };
        for (const auto& [args, message] : misuses) {
            QByteArray err;
            QCOMPARE(run(args, &err), 2);
            QVERIFY2(err.contains(message), err.constData());
            QVERIFY2(!err.contains('\n'), err.constData());
        }
        QVERIFY(!QFile::exists(bad));
        QByteArray usage;
        QCOMPARE(run({ "--help" }, nullptr, &usage), 0);
        QVERIFY(usage.startsWith("usage: etscope-synth"));

        for (const char* shape : { "mlp", "transformer", "llm", "wide" }) {
            const std::string path = m_scratch.path(std::string("tool-") + shape + ".pte");
            QCOMPARE(
                run({ "--shape", shape, "--instructions", "120", "--seed", "7", "-o", QString::fromStdString(path) }),
                0);
            auto document = openDocument(path);
            QVERIFY2(document, document ? "" : document.error().message().c_str());
            QCOMPARE(document->program->method("forward")->instructionTotal(), std::size_t(120));
            QVERIFY2(allWarnings(*document).isEmpty(), qPrintable(allWarnings(*document)));
        }
        // The tool writes what the library builds.
        TransformerOptions options;
        options.instructions = 120;
        options.seed = 7;
        std::ifstream in(m_scratch.path("tool-transformer.pte"), std::ios::binary);
        const std::vector<std::uint8_t> written { std::istreambuf_iterator<char>(in),
            std::istreambuf_iterator<char>() };
        QVERIFY(written == writeProgram(makeTransformerProgram(options).program.spec).value());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestSynthShapes)
#include "tst_synthshapes.moc"
