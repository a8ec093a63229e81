// SPDX-License-Identifier: MIT
// The QNN context binary inside a QnnBackend payload (core/delegates/qnncontext.cpp): graphs,
// their input and output tensors, their op nodes by name and each output's producer node, on the real Qualcomm sample
// and on writer-made payloads (normal, in the 20-byte ExecuTorch header of 2025-01 to 2026-03, and damaged). Expected
// numbers on the sample were read off its bytes with a hex dump; offsets are within the delegate payload (segment 1 of
// the file, at file offset 18688), whose context binary starts at 256.
#include "core/delegates/delegate.h"
#include "core/delegates/qnncontext.h"
#include "core/document/document.h"
#include "core/util/text.h"
#include "core/writer/payloads/qnnpayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <thread>

using namespace etscope::core;
using etscope::test::fact;

namespace {

const Node* nodeLabelled(const Graph& graph, const std::string& label)
{
    for (const Node& node : graph.nodes)
        if (node.label == label)
            return &node;
    return nullptr;
}

std::string attributeOf(const Node& node, std::string_view name)
{
    const auto value = node.attributes.find(name);
    return value ? std::string(*value) : std::string("(none)");
}

std::map<NodeKind, int> kinds(const Graph& graph)
{
    std::map<NodeKind, int> count;
    for (const Node& node : graph.nodes)
        ++count[node.kind];
    return count;
}

int opTypeCount(const Graph& graph, const std::string& opType)
{
    int n = 0;
    for (const Node& node : graph.nodes)
        n += node.kind == NodeKind::Operator && node.opType == opType ? 1 : 0;
    return n;
}

const Program& emptyProgram()
{
    static const Program empty = [] {
        Program p;
        p.file = MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
        return p;
    }();
    return empty;
}

DelegateInfo describe(const std::vector<std::uint8_t>& payload, const std::string& method = "decode")
{
    DelegateRef ref;
    ref.backendId = "QnnBackend";
    ref.payload = { 4096, payload.size() };
    return describePayload(emptyProgram(), ref, payload, {}, "method '" + method + "', delegate 0");
}

/// Two graphs as an LLM export has them: one decode step and a prefill, the same op nodes.
std::vector<QnnGraphSpec> fixtureGraphs()
{
    std::vector<QnnGraphSpec> graphs;
    for (const auto& [name, tokens] : { std::pair<std::string, std::uint32_t> { "decode", 1 }, { "prefill", 8 } }) {
        QnnGraphSpec g;
        g.name = name;
        // Stored as the exporter does: not in argument order.
        g.inputs = { { "input_2_args_0@0", 10, qnnw::kAppWrite, qnnw::kUfixed8, { 1, 4, 8, 16 } },
            { "input_0_input_pos@0", 11, qnnw::kAppWrite, qnnw::kInt32, { 1, tokens } },
            { "input_1_tokens@0", 12, qnnw::kAppWrite, qnnw::kInt32, { 1, tokens } } };
        g.outputs = { { "output_aten_convolution_default_3@0", 40, qnnw::kAppRead, qnnw::kUfixed8, { 1, 4, tokens, 8 },
                          32 },
            { "output_aten_squeeze_copy_dims_2@0", 41, qnnw::kAppRead, qnnw::kUfixed16, { 1, tokens, 512 }, 33 } };
        g.nodes = { { 33, "aten_squeeze_copy_dims_2" }, { 32, "aten_convolution_default_3" },
            { 31, "aten_matmul_default_9_h_1" }, { 30, "aten_matmul_default_9_h_0" }, { 29, "aten_add_tensor_24" },
            { 28, "args_0_h_0" } };
        graphs.push_back(std::move(g));
    }
    return graphs;
}

} // namespace

class TestQnnContext : public QObject {
    Q_OBJECT

private slots:
    void operatorFamilies()
    {
        QCOMPARE(qnnctx::operatorFamily("aten_convolution_default_35"), std::string("aten.convolution.default"));
        QCOMPARE(qnnctx::operatorFamily("aten_add_tensor_24"), std::string("aten.add.Tensor"));
        QCOMPARE(qnnctx::operatorFamily("aten__softmax_default_3_h_1"), std::string("aten._softmax.default"));
        QCOMPARE(qnnctx::operatorFamily("aten_matmul_default_9_sha_concat"), std::string("aten.matmul.default"));
        QCOMPARE(qnnctx::operatorFamily("aten_squeeze_copy_dims_15"), std::string("aten.squeeze_copy.dims"));
        QCOMPARE(qnnctx::operatorFamily("aten_select_copy_int"), std::string("aten.select_copy.int"));
        QCOMPARE(qnnctx::operatorFamily("quantized_decomposed_dequantize_per_tensor_default_2"),
            std::string("quantized_decomposed.dequantize_per_tensor.default"));
        // A name holding no operator gives no family (not its stem: "args" is no op type).
        QCOMPARE(qnnctx::operatorFamily("args_0_h_3"), std::string());
        QCOMPARE(qnnctx::operatorFamily(""), std::string(""));
        QCOMPARE(qnnctx::operatorFamily("___"), std::string());
    }

    void dataTypes()
    {
        // QnnTypes.h: Qnn_DataType_t.
        QCOMPARE(qnnctx::dataTypeName(0x0408), std::string("UFIXED_POINT_8"));
        QCOMPARE(qnnctx::dataTypeName(0x0032), std::string("INT_32"));
        QCOMPARE(qnnctx::dataTypeName(0x0216), std::string("FLOAT_16"));
        QCOMPARE(qnnctx::dataTypeName(0x0999), std::string("0x0999"));
    }

    // kv_forward of the sample. By hand, payload offsets:
    //  256: context binary header 00000002 00000003 00000000 00000001, then LE 8232 (metadata
    //       size), 12288 (backend section), 1318912 (section size).
    //  372: context info table; 376 backend id 6; 8484 build id (length 27).
    //  4612: kv_forward's tensor table (name at 4740, input count 13 at 4620).
    //  6656: input input_4_atten_mask@0: data type 0x0416 at 6668, dims [1, 1, 1, 128] at 6736.
    //  6948: input input_0_input_pos@0: 0x0032 at 6960, dims [1, 1] at 7024.
    //  4756: output output_aten_squeeze_copy_dims_15@0 (stored last of 11): 0x0416 at 4772,
    //        dims [1, 1, 512] at 4840.
    //  6488: output output_aten_permute_copy_default_6_sha_concat@0 (stored first): 0x0408,
    //        dims [1, 4, 1, 8] at 6572.
    //  12544+: the HTP FlatBuffer; its kv_forward graph table at 90028 lists 1552 op nodes
    //        (vector at 90188); aten_convolution_default_35 has id 4111 (table 96492),
    //        aten_squeeze_copy_dims_15 id 4117 (table 96400). The 1552 names, counted by stem,
    //        hold 101 aten_convolution_default and 251 aten_mul_tensor.
    void sampleDecodeGraph()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        QVERIFY(document);
        const Method* method = document->program->method("kv_forward");
        QVERIFY(method);
        const DelegateInfo& info = document->analysis(*method)->delegates.at(0);
        QCOMPARE(info.format, std::string("qnn"));
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "header size"), std::string("256 (ExecuTorch since 2026-03-06)"));
        QCOMPARE(fact(info, "context binary header"),
            std::string("words 2.3.0.1; metadata 8232 bytes at 40; backend section 1318912 bytes at 12288"));
        QCOMPARE(fact(info, "QNN build id"), std::string("v2.37.0.250724175447_124859"));
        QCOMPARE(fact(info, "QNN backend id"), std::string("6 (HTP)"));
        QCOMPARE(fact(info, "context soc model"), std::string("57"));
        QCOMPARE(fact(info, "context graphs"),
            std::string("2: kv_forward (13 inputs, 11 outputs, 1552 op nodes); prefill_forward (13 inputs, 11 "
                        "outputs, 1552 op nodes)"));
        QCOMPARE(fact(info, "shown graph"), std::string("kv_forward (named after the method)"));
        QVERIFY(fact(info, "inner graph").starts_with("read from the QNN context binary"));
        QVERIFY(fact(info, "inner graph").find("(metadata, the backend section agrees)") != std::string::npos);
        QVERIFY(fact(info, "inner graph").find("edges: 11, each from the op node") != std::string::npos);
        QVERIFY(info.summary.find("1780651886543080982") != std::string::npos);

        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        const auto count = kinds(graph);
        QCOMPARE(count.at(NodeKind::Input), 13);
        QCOMPARE(count.at(NodeKind::Output), 11);
        QCOMPARE(count.at(NodeKind::Operator), 1552);
        QCOMPARE(graph.edges.size(), std::size_t(11));
        QCOMPARE(info.inputCount, std::optional<int>(13));
        QCOMPARE(info.outputCount, std::optional<int>(11));

        const Node* mask = nodeLabelled(graph, "input_4_atten_mask@0");
        QVERIFY(mask);
        QCOMPARE(mask->kind, NodeKind::Input);
        QCOMPARE(mask->argPosition, 4);
        QCOMPARE(attributeOf(*mask, "shape"), std::string("[1, 1, 1, 128]"));
        QCOMPARE(attributeOf(*mask, "dtype"), std::string("UFIXED_POINT_16"));
        QCOMPARE(attributeOf(*mask, "tensor type"), std::string("APP_WRITE"));
        QCOMPARE(
            attributeOf(*mask, "read from"), std::string("the QNN context binary (metadata, payload offset 6656)"));
        const Node* pos = nodeLabelled(graph, "input_0_input_pos@0");
        QVERIFY(pos);
        QCOMPARE(pos->argPosition, 0);
        QCOMPARE(attributeOf(*pos, "shape"), std::string("[1, 1]"));
        QCOMPARE(attributeOf(*pos, "dtype"), std::string("INT_32"));
        QCOMPARE(nodeLabelled(graph, "input_12_args_9@0")->argPosition, 12);

        const Node* logits = nodeLabelled(graph, "output_aten_squeeze_copy_dims_15@0");
        QVERIFY(logits);
        QCOMPARE(logits->kind, NodeKind::Output);
        QCOMPARE(logits->argPosition, 23); // stored last of 11 outputs, after 13 inputs
        QCOMPARE(attributeOf(*logits, "shape"), std::string("[1, 1, 512]"));
        QCOMPARE(attributeOf(*logits, "tensor type"), std::string("APP_READ"));
        // The backend section's copy of this output (table at 164680) names node 4117 as its
        // producer (uint32 at 164688): aten_squeeze_copy_dims_15. One edge, carrying the tensor.
        QCOMPARE(attributeOf(*logits, "producer (backend section)"),
            std::string("op node 4117 (aten_squeeze_copy_dims_15)"));
        const auto into = graph.inEdges(logits->id);
        QCOMPARE(into.size(), std::size_t(1));
        QCOMPARE(graph.node(into[0]->from).label, std::string("aten_squeeze_copy_dims_15"));
        QCOMPARE(into[0]->meta.dtype, std::string("UFIXED_POINT_16"));
        QCOMPARE(into[0]->meta.shape, (std::vector<std::int64_t> { 1, 1, 512 }));
        const Node* cache = nodeLabelled(graph, "output_aten_permute_copy_default_6_sha_concat@0");
        QVERIFY(cache);
        QCOMPARE(cache->argPosition, 13);
        QCOMPARE(attributeOf(*cache, "shape"), std::string("[1, 4, 1, 8]"));
        QCOMPARE(attributeOf(*cache, "dtype"), std::string("UFIXED_POINT_8"));

        const Node* conv = nodeLabelled(graph, "aten_convolution_default_35");
        QVERIFY(conv);
        QCOMPARE(conv->kind, NodeKind::Operator);
        QCOMPARE(conv->opType, std::string("aten.convolution.default"));
        QCOMPARE(attributeOf(*conv, "qnn node id"), std::string("4111"));
        QCOMPARE(attributeOf(*conv, "operator family"), std::string("aten.convolution.default"));
        QCOMPARE(attributeOf(*conv, "read from"),
            std::string("the QNN context binary (backend section, payload offset 96492)"));
        QCOMPARE(attributeOf(*nodeLabelled(graph, "aten_squeeze_copy_dims_15"), "qnn node id"), std::string("4117"));
        QCOMPARE(opTypeCount(graph, "aten.convolution.default"), 101);
        QCOMPARE(opTypeCount(graph, "aten.mul.Tensor"), 251);
        QVERIFY(fact(info, "operator families").starts_with("19: aten.mul.Tensor 251, "));
        // The 40 op nodes args_N_h_M (N 0..9, M 0..3, ids 17 to 251 step 6, the first 40 by id)
        // are ops: the backend section lists them among the op nodes (HtpNode tables, id and
        // name only: every one of the 1552 holds exactly those two slots, so no op type). They
        // are named after the ten KV-cache inputs input_2_args_0@0 … input_12_args_9@0, each
        // [1, 4, …]: four heads each, one piece per head. Their names hold no operator, so no
        // family is invented from the name ("args" was): they are grouped as not stored.
        QCOMPARE(opTypeCount(graph, "args"), 0);
        QCOMPARE(opTypeCount(graph, "(op type not stored)"), 40);
        const Node* piece = nodeLabelled(graph, "args_0_h_3");
        QVERIFY(piece);
        QCOMPARE(piece->kind, NodeKind::Operator);
        QCOMPARE(attributeOf(*piece, "qnn node id"), std::string("17"));
        QVERIFY(attributeOf(*piece, "named after").starts_with("graph input input_2_args_0@0 "));
        QVERIFY(fact(info, "operator families")
                    .ends_with("; 40 op nodes named after no operator, shown as (op type not stored)"));

        // The method graph's DelegateCall carries the inner graph, and each inner input or output
        // matches, by shape, the DelegateCall argument at its argPosition (the program's own
        // values: args 0 and 1 are [1, 1] INT, arg 4 is [1, 1, 1, 128], arg 23 [1, 1, 512]).
        const Graph& top = *document->analysis(*method)->graph;
        const Node* call = nullptr;
        for (const Node& node : top.nodes)
            if (node.kind == NodeKind::Delegate)
                call = &node;
        QVERIFY(call);
        QVERIFY(call->subgraph.get() == info.innerGraph.get());
        const Instruction& instruction = method->chains.at(0).instructions.at(0);
        QCOMPARE(instruction.args.size(), std::size_t(24));
        int matched = 0;
        for (const Node& inner : graph.nodes) {
            if (inner.argPosition < 0)
                continue;
            const Value& value = method->values.at(static_cast<std::size_t>(instruction.args.at(inner.argPosition)));
            QVERIFY(value.isTensor());
            QCOMPARE(formatShape(value.tensor.sizes), attributeOf(inner, "shape"));
            ++matched;
        }
        QCOMPARE(matched, 24);
    }

    // prefill_forward runs the other graph of the same context: its tokens are [1, 32]
    // (input_1_tokens@0 of prefill_forward, table at payload 2796: its dims vector at 2872 reads
    // 02000000 01000000 20000000, count 2, then 1 and 32), and its
    // aten_squeeze_copy_dims_15 node has id 8219 (table at payload 19120, name at 19136).
    void samplePrefillGraph()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        QVERIFY(document);
        const Method* method = document->program->method("prefill_forward");
        QVERIFY(method);
        const DelegateInfo& info = document->analysis(*method)->delegates.at(0);
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "shown graph"), std::string("prefill_forward (named after the method)"));
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QCOMPARE(attributeOf(*nodeLabelled(graph, "input_1_tokens@0"), "shape"), std::string("[1, 32]"));
        QCOMPARE(attributeOf(*nodeLabelled(graph, "output_aten_squeeze_copy_dims_15@0"), "shape"),
            std::string("[1, 32, 512]"));
        const Node* squeeze = nodeLabelled(graph, "aten_squeeze_copy_dims_15");
        QVERIFY(squeeze);
        QCOMPARE(attributeOf(*squeeze, "qnn node id"), std::string("8219"));
        QCOMPARE(attributeOf(*squeeze, "read from"),
            std::string("the QNN context binary (backend section, payload offset 19120)"));
    }

    // Both methods' delegates point at one segment (segment 1: file offset 18688, the same
    // ByteRange in kv_forward's and prefill_forward's DelegateRef, by hand from the program's
    // BackendDelegateDataReference entries): one DecodeCache reads that context binary once, and
    // each delegate still shows the graph named after its own method.
    void sharedSegmentDecodedOnce()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        QVERIFY(document);
        const Program& program = *document->program;
        const Method* kv = program.method("kv_forward");
        const Method* prefill = program.method("prefill_forward");
        QVERIFY(kv && prefill);
        const DelegateRef& kvRef = kv->delegates.at(0);
        const DelegateRef& prefillRef = prefill->delegates.at(0);
        QCOMPARE(kvRef.payload.offset, std::uint64_t(18688));
        QCOMPARE(prefillRef.payload.offset, kvRef.payload.offset);
        QCOMPARE(prefillRef.payload.size, kvRef.payload.size);

        DecodeCache cache;
        const DelegateInfo kvInfo = describeDelegate(program, kvRef, {}, "method 'kv_forward', delegate 0", &cache);
        const DelegateInfo prefillInfo
            = describeDelegate(program, prefillRef, {}, "method 'prefill_forward', delegate 0", &cache);
        QCOMPARE(cache.made(), std::size_t(1));
        QCOMPARE(fact(kvInfo, "shown graph"), std::string("kv_forward (named after the method)"));
        QCOMPARE(fact(prefillInfo, "shown graph"), std::string("prefill_forward (named after the method)"));
        QVERIFY(kvInfo.innerGraph && prefillInfo.innerGraph);
        QCOMPARE(kinds(*kvInfo.innerGraph).at(NodeKind::Operator), 1552);
        QCOMPARE(kinds(*prefillInfo.innerGraph).at(NodeKind::Operator), 1552);
        QCOMPARE(attributeOf(*nodeLabelled(*prefillInfo.innerGraph, "aten_squeeze_copy_dims_15"), "qnn node id"),
            std::string("8219"));

        // From two threads at once (how a document could decode its delegates in parallel):
        // still one read, and both see the same graph sizes.
        DecodeCache shared;
        DelegateInfo fromThread[2];
        std::thread first(
            [&] { fromThread[0] = describeDelegate(program, kvRef, {}, "method 'kv_forward', delegate 0", &shared); });
        std::thread second([&] {
            fromThread[1] = describeDelegate(program, prefillRef, {}, "method 'prefill_forward', delegate 0", &shared);
        });
        first.join();
        second.join();
        QCOMPARE(shared.made(), std::size_t(1));
        QVERIFY(fromThread[0].innerGraph && fromThread[1].innerGraph);
        QCOMPARE(fromThread[0].innerGraph->nodes.size(), kvInfo.innerGraph->nodes.size());
        QCOMPARE(fromThread[1].innerGraph->nodes.size(), prefillInfo.innerGraph->nodes.size());

        // Without a cache each decodes afresh, to the same facts and graph.
        const DelegateInfo alone = describeDelegate(program, prefillRef, {}, "method 'prefill_forward', delegate 0");
        QCOMPARE(alone.facts.size(), prefillInfo.facts.size());
        for (std::size_t i = 0; i < alone.facts.size(); ++i)
            QCOMPARE(alone.facts[i].value, prefillInfo.facts[i].value);
        QCOMPARE(alone.innerGraph->nodes.size(), prefillInfo.innerGraph->nodes.size());
        QCOMPARE(alone.innerGraph->edges.size(), prefillInfo.innerGraph->edges.size());
    }

    void fixtureGraph()
    {
        const auto payload = writeQnnPayload(fixtureGraphs());
        const DelegateInfo info = describe(payload, "prefill");
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "QNN build id"), std::string("v2.37.0.fixture"));
        QCOMPARE(fact(info, "shown graph"), std::string("prefill (named after the method)"));
        QCOMPARE(fact(info, "operator families"),
            std::string("4: aten.matmul.default 2, aten.add.Tensor 1, aten.convolution.default 1, "
                        "aten.squeeze_copy.dims 1 (from the node names; the binary stores no op types); 1 op "
                        "node named after no operator, shown as (op type not stored)"));
        QVERIFY(info.innerGraph);
        const Graph& graph = *info.innerGraph;
        QCOMPARE(graph.nodes.size(), std::size_t(3 + 6 + 2));
        QCOMPARE(graph.edges.size(), std::size_t(2));
        QCOMPARE(
            graph.node(graph.inEdges(nodeLabelled(graph, "output_aten_convolution_default_3@0")->id)[0]->from).label,
            std::string("aten_convolution_default_3"));
        // Inputs by the N of input_N_; outputs after them in stored order.
        QCOMPARE(nodeLabelled(graph, "input_0_input_pos@0")->argPosition, 0);
        QCOMPARE(nodeLabelled(graph, "input_1_tokens@0")->argPosition, 1);
        QCOMPARE(nodeLabelled(graph, "input_2_args_0@0")->argPosition, 2);
        QCOMPARE(nodeLabelled(graph, "output_aten_convolution_default_3@0")->argPosition, 3);
        QCOMPARE(nodeLabelled(graph, "output_aten_squeeze_copy_dims_2@0")->argPosition, 4);
        QCOMPARE(attributeOf(*nodeLabelled(graph, "input_1_tokens@0"), "shape"), std::string("[1, 8]"));
        // Op nodes by ascending id: args_0_h_0 (28) first.
        std::vector<std::string> ops;
        for (const Node& node : graph.nodes)
            if (node.kind == NodeKind::Operator)
                ops.push_back(node.label);
        QCOMPARE(ops.front(), std::string("args_0_h_0"));
        QCOMPARE(ops.back(), std::string("aten_squeeze_copy_dims_2"));

        // A method no graph is named after: the first graph, said so.
        const DelegateInfo other = describe(payload, "forward");
        QCOMPARE(
            fact(other, "shown graph"), std::string("decode (the first of 2; none is named after method 'forward')"));
    }

    // Issue 27 item 10: ExecuTorch wrote a 20-byte header from 2025-01-04 (3c83553a65) until
    // 2026-03-06 (c3a140ffb9): the size field then equals the payload size less 20, and no
    // warning may appear.
    void legacyHeader()
    {
        QnnWriteOptions options;
        options.executorchHeader = 20;
        const auto payload = writeQnnPayload(fixtureGraphs(), options);
        const DelegateInfo info = describe(payload);
        for (const Warning& w : info.warnings)
            qWarning("%s", w.message.c_str());
        QVERIFY(info.warnings.empty());
        QCOMPARE(fact(info, "header size"), std::string("20 (ExecuTorch 2025-01-04 to 2026-03-06)"));
        QCOMPARE(fact(info, "context binary size"),
            std::to_string(payload.size() - 20) + " bytes (" + formatBytes(payload.size() - 20) + ")");
        QVERIFY(fact(info, "context binary first bytes").starts_with("00000002000000030000000000000001"));
        QVERIFY(info.innerGraph);
        QCOMPARE(kinds(*info.innerGraph).at(NodeKind::Operator), 6);

        // A size field that fits neither layout still warns, at the field (payload offset 12).
        options.binarySizeField = 7;
        const DelegateInfo lying = describe(writeQnnPayload(fixtureGraphs(), options));
        QCOMPARE(lying.warnings.size(), std::size_t(1));
        QVERIFY(lying.warnings[0].message.find("announces a 7-byte context binary") != std::string::npos);
        QCOMPARE(lying.warnings[0].offset, std::optional<std::uint64_t>(4096 + 12));
    }

    void damagedMetadata()
    {
        const auto good = writeQnnPayload(fixtureGraphs());
        const QnnBinaryLayout layout = qnnBinaryLayout({ good.begin() + 256, good.end() });

        // The metadata size runs past the end: warned at the field (binary offset 16).
        QnnWriteOptions options;
        options.metadataSizeField = 1u << 30;
        DelegateInfo info = describe(writeQnnPayload(fixtureGraphs(), options));
        QVERIFY(!info.warnings.empty());
        QVERIFY(info.warnings[0].message.find("metadata size") != std::string::npos);
        QCOMPARE(info.warnings[0].offset, std::optional<std::uint64_t>(4096 + 256 + 16));
        QVERIFY(!info.innerGraph);

        // A root offset pointing out of the metadata: the verifier refuses it (binary offset 40).
        auto broken = good;
        broken[256 + 40] = 0xff;
        broken[256 + 41] = 0xff;
        info = describe(broken);
        QCOMPARE(info.warnings.size(), std::size_t(1));
        QVERIFY(info.warnings[0].message.find("verifier rejected the metadata") != std::string::npos);
        QCOMPARE(info.warnings[0].offset, std::optional<std::uint64_t>(4096 + 256 + 40));
        QVERIFY(!info.innerGraph);
        QVERIFY(fact(info, "context graphs").starts_with("2: decode (tensors not read, 6 op nodes)"));

        // An unknown union tag of the metadata record.
        options = {};
        options.infoTag = 7;
        info = describe(writeQnnPayload(fixtureGraphs(), options));
        QCOMPARE(info.warnings.size(), std::size_t(1));
        QVERIFY(info.warnings[0].message.find("union tag 7") != std::string::npos);

        // Other header words (another SDK's, perhaps): shown, no warning, read on.
        options = {};
        options.words = { 2, 4, 0, 1 };
        info = describe(writeQnnPayload(fixtureGraphs(), options));
        QVERIFY(info.warnings.empty());
        QVERIFY(fact(info, "context binary header").starts_with("words 2.4.0.1 (the sample's: 2.3.0.1); "));
        QVERIFY(info.innerGraph);
        QVERIFY(layout.metadataSize > 0);
    }

    void sectionDisagrees()
    {
        // The backend section lists no inputs or outputs: said, and no producer edges drawn.
        QnnWriteOptions options;
        options.sectionTensors = false;
        DelegateInfo info = describe(writeQnnPayload(fixtureGraphs(), options));
        QCOMPARE(info.warnings.size(), std::size_t(2));
        QVERIFY(info.warnings[0].message.find("has 3 inputs in the metadata but 0 in the backend section")
            != std::string::npos);
        QVERIFY(info.innerGraph);
        QVERIFY(info.innerGraph->edges.empty());

        // A producer id no op node has: no edge, the attribute says so.
        auto graphs = fixtureGraphs();
        graphs[0].outputs[0].producer = 99;
        info = describe(writeQnnPayload(graphs));
        QVERIFY(info.warnings.empty());
        QCOMPARE(info.innerGraph->edges.size(), std::size_t(1));
        QCOMPARE(attributeOf(*nodeLabelled(*info.innerGraph, "output_aten_convolution_default_3@0"),
                     "producer (backend section)"),
            std::string("99 (no op node of this graph has that id)"));

        // A name that differs between the two lists: warned at the section's tensor.
        graphs = fixtureGraphs();
        const auto good = writeQnnPayload(graphs);
        auto renamed = good;
        const std::string from = "input_1_tokens@0";
        const auto last = std::find_end(renamed.begin(), renamed.end(), from.begin(), from.end());
        QVERIFY(last != renamed.end());
        *(last + 6) = '7'; // input_7_tokens@0, in the section's copy (written after the metadata)
        info = describe(renamed);
        QCOMPARE(info.warnings.size(), std::size_t(1));
        QVERIFY(info.warnings[0].message.find("input 2 is 'input_1_tokens@0' in the metadata but 'input_7_tokens@0'")
            != std::string::npos);
        QVERIFY(info.innerGraph->edges.empty());
    }

    void damagedSection()
    {
        // The section's FlatBuffer size runs past the section: tensors stay, op nodes go.
        QnnWriteOptions options;
        options.sectionFlatbufferSizeField = 1u << 20;
        DelegateInfo info = describe(writeQnnPayload(fixtureGraphs(), options));
        const auto good = writeQnnPayload(fixtureGraphs());
        const QnnBinaryLayout layout = qnnBinaryLayout({ good.begin() + 256, good.end() });
        QCOMPARE(info.warnings.size(), std::size_t(1));
        QVERIFY(info.warnings[0].message.find("section's FlatBuffer") != std::string::npos);
        QCOMPARE(info.warnings[0].offset, std::optional<std::uint64_t>(4096 + 256 + layout.sectionOffset + 24));
        QVERIFY(info.innerGraph);
        QCOMPARE(kinds(*info.innerGraph).count(NodeKind::Operator), std::size_t(0));
        QCOMPARE(kinds(*info.innerGraph).at(NodeKind::Input), 3);

        // The section runs past the binary (header field at binary offset 24 holds its offset).
        options = {};
        options.sectionSizeField = 1u << 30;
        info = describe(writeQnnPayload(fixtureGraphs(), options));
        QVERIFY(!info.warnings.empty());
        QCOMPARE(info.warnings[0].offset, std::optional<std::uint64_t>(4096 + 256 + 24));

        // Every truncation of a good payload: described, bounded, never a crash.
        for (std::size_t cut = 0; cut < good.size(); cut += 7) {
            const std::vector<std::uint8_t> part(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
            const DelegateInfo d = describe(part);
            QVERIFY(!d.summary.empty());
            if (cut >= 20 && cut != good.size())
                QVERIFY(!d.warnings.empty());
        }
        // Every byte of the binary flipped in turn.
        for (std::size_t at = 256; at < good.size(); ++at) {
            auto flipped = good;
            flipped[at] ^= 0x5a;
            const DelegateInfo d = describe(flipped);
            QVERIFY(!d.summary.empty());
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestQnnContext)
#include "tst_qnncontext.moc"
