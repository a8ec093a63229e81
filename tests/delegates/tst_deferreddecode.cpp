// SPDX-License-Identifier: MIT
// Deferred inner graphs (OpenOptions::deferDelegateGraphs, the app's open): opening a real
// program does not build a delegate's inner graph until something reads it, and the graph then
// read is the one the eager open (the CLI's) builds — node for node, edge for edge — with the
// same facts, summary, counts and warnings known before. The reference is the eager decode,
// which tst_delegatesamples, tst_ethosudelegate and tst_qnncontext check against numbers read
// off the sample bytes; the counts known before decoding are checked against such numbers here.
#include "core/document/document.h"
#include "core/report/reports.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <thread>

using namespace etscope::core;
using namespace etscope::test;

namespace {

Document openWith(const std::string& sample, bool defer)
{
    OpenOptions options;
    options.deferDelegateGraphs = defer;
    auto document = openDocument(samplePath(sample), options);
    if (!document)
        qFatal("%s: %s", sample.c_str(), document.error().message().c_str());
    return std::move(document).value();
}

const Node* delegateNode(const Graph& graph, std::size_t delegate)
{
    for (const Node& node : graph.nodes)
        if (node.kind == NodeKind::Delegate && node.delegate.index() == delegate)
            return &node;
    return nullptr;
}

} // namespace

class TestDeferredDecode : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void sameAsEager_data()
    {
        QTest::addColumn<std::string>("sample");
        QTest::addColumn<bool>("deferred"); ///< whether this backend's decoder defers its graph
        QTest::addRow("xnnpack") << std::string("djl-executorch-engine/stress_mlp.pte") << true;
        QTest::addRow("xnnpack training") << std::string("dnf-executorch/dnf_xnnpack_training.pte") << true;
        QTest::addRow("ethos-u u55") << std::string("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte") << true;
        QTest::addRow("ethos-u lrn") << std::string("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte") << true;
        QTest::addRow("qnn") << std::string("executorch/stories260k_hybrid_llama_qnn.pte") << true;
        QTest::addRow("vgf") << std::string("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte") << true;
        // Core ML's decoder does not defer yet: its graph is built at open, as before.
        QTest::addRow("coreml") << std::string("react-native-executorch/style_candy_640_coreml.pte") << false;
    }

    // Every delegate of every method: before anything reads it, the inner graph is not built
    // (also not through the method graph's delegate node, which shares it); its operator count,
    // facts, summary, input/output counts and warnings are the eager open's. Reading it then
    // gives the eager graph exactly (graphToJson: every node, attribute and edge).
    void sameAsEager()
    {
        QFETCH(std::string, sample);
        QFETCH(bool, deferred);
        const Document eager = openWith(sample, false);
        const Document lazy = openWith(sample, true);
        QCOMPARE(lazy.methods.size(), eager.methods.size());
        // Warnings found while building an inner graph come with it; these samples have none.
        QCOMPARE(lazy.warnings.size(), eager.warnings.size());
        int delegates = 0;
        for (std::size_t m = 0; m < eager.methods.size(); ++m) {
            const MethodAnalysis& a = eager.methods[m];
            const MethodAnalysis& b = lazy.methods[m];
            QCOMPARE(b.delegates.size(), a.delegates.size());
            for (std::size_t d = 0; d < a.delegates.size(); ++d) {
                const DelegateInfo& e = a.delegates[d];
                const DelegateInfo& l = b.delegates[d];
                QVERIFY(e.innerGraph);
                QVERIFY(l.innerGraph);
                QCOMPARE(l.innerGraph.decoded(), !deferred);
                QCOMPARE(l.innerGraph.deferredDecode(), deferred);
                const Node* node = delegateNode(*b.graph, d);
                QVERIFY(node);
                QCOMPARE(node->subgraph.decoded(), !deferred);
                QCOMPARE(l.innerGraph.operatorCount(), e.innerGraph->operatorCount());
                QCOMPARE(l.format, e.format);
                QCOMPARE(l.summary, e.summary);
                QCOMPARE(l.inputCount, e.inputCount);
                QCOMPARE(l.outputCount, e.outputCount);
                QCOMPARE(l.facts.size(), e.facts.size());
                for (std::size_t f = 0; f < e.facts.size(); ++f) {
                    QCOMPARE(l.facts[f].name, e.facts[f].name);
                    QCOMPARE(l.facts[f].value, e.facts[f].value);
                }
                // The top level is the same before the inside is decoded: nodes, edges, and the
                // delegate node's attributes (its input/output split read from the payload).
                QCOMPARE(b.graph->nodes.size(), a.graph->nodes.size());
                QCOMPARE(b.graph->edges.size(), a.graph->edges.size());
                const Node* eagerNode = delegateNode(*a.graph, d);
                QVERIFY(eagerNode);
                QCOMPARE(node->inputCount, eagerNode->inputCount);
                QCOMPARE(node->attributes.size(), eagerNode->attributes.size());
                for (std::size_t i = 0; i < node->attributes.size(); ++i)
                    QCOMPARE(node->attributes[i].value, eagerNode->attributes[i].value);
                QCOMPARE(node->subgraph.decoded(), !deferred);
                // Decoded through the node: the delegate's record sees the same graph.
                const Graph* inner = node->subgraph.get();
                QVERIFY(inner);
                QCOMPARE(l.innerGraph.get(), inner);
                QVERIFY(l.innerGraph.decoded());
                QCOMPARE(graphToJson(*inner).dump(), graphToJson(*e.innerGraph).dump());
                std::vector<Warning> warnings = l.warnings;
                for (const Warning& w : l.innerGraph.warnings())
                    warnings.push_back(w);
                QCOMPARE(warnings.size(), e.warnings.size());
                for (std::size_t w = 0; w < warnings.size(); ++w)
                    QCOMPARE(warnings[w].message, e.warnings[w].message);
                ++delegates;
            }
            // With every inside decoded, the method graphs print the same, subgraphs included.
            QCOMPARE(graphToJson(*b.graph).dump(), graphToJson(*a.graph).dump());
        }
        QVERIFY(delegates > 0);
    }

    // Counts known before decoding, against the numbers read off the files: stress_mlp's second
    // XNNPACK delegate has 13 nodes (SOURCES.md; tst_delegatesamples checks their debug
    // handles); each QNN delegate of stories260k lists 1552 op nodes in its context binary's
    // graph table (tst_qnncontext: table at 90028).
    void countsBeforeDecoding()
    {
        const Document mlp = openWith("djl-executorch-engine/stress_mlp.pte", true);
        const DelegateInfo& second = mlp.analysis(*mlp.program->method("forward"))->delegates[1];
        QVERIFY(!second.innerGraph.decoded());
        QCOMPARE(second.innerGraph.operatorCount(), std::size_t(13));
        QVERIFY(second.summary.find("13 nodes") != std::string::npos);

        const Document qnn = openWith("executorch/stories260k_hybrid_llama_qnn.pte", true);
        for (const char* method : { "kv_forward", "prefill_forward" }) {
            const DelegateInfo& info = qnn.analysis(*qnn.program->method(method))->delegates[0];
            QVERIFY(!info.innerGraph.decoded());
            QCOMPARE(info.innerGraph.operatorCount(), std::size_t(1552));
            QVERIFY(info.summary.find("1552 op nodes") != std::string::npos);
        }
        // decodeDeferredGraphs decodes them all (the app's worker after its first paint).
        decodeDeferredGraphs(qnn);
        for (const MethodAnalysis& analysis : qnn.methods)
            for (const DelegateInfo& info : analysis.delegates)
                QVERIFY(!info.innerGraph || info.innerGraph.decoded());
    }

    // A worker and the UI thread reading one deferred graph at once: one decode runs, both get
    // its graph (SubgraphRef holds a mutex while decoding; the second reader waits for it).
    void oneDecodeAcrossThreads()
    {
        for (int round = 0; round < 20; ++round) {
            const Document lazy = openWith("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte", true);
            const DelegateInfo& info = lazy.methods.front().delegates.front();
            QVERIFY(!info.innerGraph.decoded());
            const Graph* seen[2] = { nullptr, nullptr };
            std::thread worker([&] { seen[0] = info.innerGraph.get(); });
            seen[1] = lazy.methods.front().graph->nodes.empty() ? nullptr : info.innerGraph.get();
            worker.join();
            QVERIFY(seen[0]);
            QCOMPARE(seen[0], seen[1]);
            QVERIFY(!seen[0]->nodes.empty());
        }
    }

    // A deferred graph outlives the document's move (the app moves it into a shared pointer):
    // its decode reads copies of the mapped file and named data, not the moved program.
    void decodesAfterTheDocumentMoved()
    {
        auto moved = std::make_shared<const Document>(openWith("djl-executorch-engine/stress_mlp.pte", true));
        const Document eager = openWith("djl-executorch-engine/stress_mlp.pte", false);
        const DelegateInfo& info = moved->methods.front().delegates[0];
        QVERIFY(!info.innerGraph.decoded());
        QCOMPARE(
            graphToJson(*info.innerGraph).dump(), graphToJson(*eager.methods.front().delegates[0].innerGraph).dump());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestDeferredDecode)
#include "tst_deferreddecode.moc"
