// SPDX-License-Identifier: MIT
// Will it load: the built-in kernel lists, the list readers (selected_operators.yaml,
// functions.yaml, plain lists, registration dumps) and the check on real samples.
//
// The three samples checked by hand (operators and calls from `etscope ops`, which agree with
// SOURCES.md; membership looked up in ExecuTorch's YAML files at cff6f4dd32e6):
// - executorch/add.pte: 1 KernelCall, aten::add.out. functions.yaml has `- op: add.out`, so
//   portable provides it: loads, 1 of 1 call resolved by portable.
// - executorch/arduino_KeywordSpotting_model.pte: 16 KernelCalls of 8 operators.
//   cortex_m::dequantize_per_tensor.out 1, pad.out 1, quantize_per_tensor.out 1,
//   quantized_avg_pool2d.out 1, quantized_conv2d.out 4, quantized_depthwise_conv2d.out 5,
//   quantized_linear.out 1 (7 operators, 1+1+1+1+4+5+1 = 14 calls) are in no portable entry;
//   dim_order_ops::_clone_dim_order.out (2 calls) is functions.yaml's
//   `- func: dim_order_ops::_clone_dim_order.out(…)`. So 14 of 16 calls miss; all seven cortex_m
//   names are `- func: cortex_m::…` entries of backends/cortex_m/ops/operators.yaml, so
//   portable + cortex_m resolves all 16.
// - cmsis-executorch/ethos_u_minimal_example_u55.pte: instructions 0 and 1 call
//   quantized_decomposed::quantize_per_tensor.out, 2 is the DelegateCall (EthosUBackend), 3 calls
//   quantized_decomposed::dequantize_per_tensor.out. Neither is in functions.yaml; both are in
//   kernels/quantized/quantized.yaml: 3 of 3 calls miss with portable, none with portable + quantized.
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/analysis/kernelcheck.h"
#include "core/document/document.h"

#include <QTest>

#include <algorithm>

using namespace etscope::core;

namespace {

Result<Document> open(const std::string& relative)
{
    return openDocument(etscope::test::samplePath(relative));
}

Result<KernelLists> lists(const std::vector<std::string>& specs)
{
    return loadKernelLists(specs);
}

const OperatorKernel* findOp(const MethodKernelCheck& method, const std::string& name)
{
    for (const OperatorKernel& op : method.operators)
        if (op.name == name)
            return &op;
    return nullptr;
}

} // namespace

class TestKernelCheck : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void builtinListsAreTheYamlFiles()
    {
        // functions.yaml at cff6f4dd32e6: 200 `- op:` and 9 `- func:` entries (grep -c), none twice.
        QCOMPARE(builtinKernelList("portable")->operators.size(), std::size_t(209));
        // optimized.yaml 23 entries, quantized.yaml 19, cortex_m operators.yaml 18.
        QCOMPARE(builtinKernelList("optimized")->operators.size(), std::size_t(23));
        QCOMPARE(builtinKernelList("quantized")->operators.size(), std::size_t(19));
        QCOMPARE(builtinKernelList("cortex_m")->operators.size(), std::size_t(18));
        // register_prim_ops.cpp: 3 aten (sym_size.int, _local_scalar_dense, sym_numel) + 25 executorch_prim.
        QCOMPARE(builtinKernelList("prim")->operators.size(), std::size_t(28));
        const KernelList portable = *builtinKernelList("portable");
        QVERIFY(portable.provides("aten::add.out")); // `- op: add.out`
        QVERIFY(portable.provides("aten::copy_")); // `- op: copy_` (no overload)
        QVERIFY(portable.provides("dim_order_ops::_to_dim_order_copy.out")); // a `- func:` with namespace
        QVERIFY(!portable.provides("aten::add")); // names are exact: the runtime compares strings
        QVERIFY(!portable.provides("aten::linear.out")); // optimized only
        QVERIFY(builtinKernelList("optimized")->provides("aten::linear.out"));
        QVERIFY(builtinKernelList("prim")->provides("executorch_prim::et_view.default"));
        QVERIFY(!builtinKernelList("nonsense"));
    }

    void defaultListsArePortableAndPrim()
    {
        ETSCOPE_TAKE(const KernelLists defaults, lists({}));
        QCOMPARE(defaults.lists.size(), std::size_t(2));
        QCOMPARE(defaults.lists[0].name, std::string("portable"));
        QCOMPARE(defaults.lists[1].name, std::string("prim"));
        // Lists given replace portable; prim stays, once.
        ETSCOPE_TAKE(const KernelLists optimized, lists({ "optimized", "prim" }));
        QCOMPARE(optimized.lists.size(), std::size_t(2));
        QCOMPARE(optimized.lists[0].name, std::string("optimized"));
        QVERIFY(!optimized.resolve("aten::cat.out"));
        QCOMPARE(optimized.resolve("aten::sym_size.int")->name, std::string("prim"));
    }

    void selectedOperatorsYaml()
    {
        // The shape of ExecuTorch's codegen tests (test_gen_selected_op_variants.py).
        const char* text = R"(
include_all_non_op_selectives: False
include_all_operators: False
debug_info:
  - model1@v100
operators:
  aten::add:
    is_root_operator: Yes
    include_all_overloads: No
  "aten::mul.out":   # quoted keys are keys too
    is_root_operator: Yes
    include_all_overloads: No
  aten::sub.int:
    include_all_overloads: Yes
  my_ops::fused.out: {is_root_operator: true, include_all_overloads: false}
kernel_metadata: {}
et_kernel_metadata:
  aten::add.out:
      - v1/6;0,1|6;0,1|6;0,1|6;0,1  # Float, 0, 1
build_features: []
)";
        const auto list = parseKernelList(text, "sel.yaml");
        QVERIFY2(list, list ? "" : list.error().message().c_str());
        QCOMPARE(list->origin, std::string("selected_operators.yaml"));
        QCOMPARE(list->operators,
            (std::set<std::string> { "aten::add", "aten::mul.out", "aten::sub.int", "my_ops::fused.out" }));
        QVERIFY(list->provides("aten::sub.Tensor")); // include_all_overloads of aten::sub
        QVERIFY(!list->provides("aten::add.out")); // only in et_kernel_metadata, not in operators
        QVERIFY(!list->includesAll);

        const auto all = parseKernelList("include_all_operators: true\noperators: {}\n", "all.yaml");
        QVERIFY(all && all->includesAll && all->provides("anything::at.all"));
        QCOMPARE(all->warnings.size(), std::size_t(1));
    }

    void functionsYaml()
    {
        const auto list = parseKernelList("- op: add.out\n  kernels:\n    - arg_meta: null\n      kernel_name: "
                                          "x\n\n- func: my_ns::op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n",
            "functions.yaml");
        QVERIFY(list);
        QCOMPARE(list->operators, (std::set<std::string> { "aten::add.out", "my_ns::op.out" }));
    }

    void plainListsAndDumps()
    {
        const char* text = "# my runtime\n"
                           "aten::add.out\n"
                           "mul.out   # no namespace: ATen\n"
                           "- 'cadence::quantize_per_tensor.out'\n"
                           "aten::sub.out:v1/6;0,1|6;0,1|6;0,1\n"
                           "['aten::cat.out', 'aten::view_copy.out',\n"
                           " 'XnnpackBackend']\n"
                           "backend: MyNpuBackend\n"
                           "I 00:00:00.000100 executorch:operator_registry.cpp:82] aten::mm.out\n"
                           "I 00:00:00.000101 executorch:operator_registry.cpp:83] key: v1/6;0,1, is_fallback: false\n"
                           "E 00:00:00.000200 executorch:method.cpp:824] Missing operator: [3] aten::relu.out\n"
                           "\n";
        const auto list = parseKernelList(text, "dump.txt");
        QVERIFY2(list, list ? "" : list.error().message().c_str());
        QCOMPARE(list->operators,
            (std::set<std::string> { "aten::add.out", "aten::mul.out", "cadence::quantize_per_tensor.out",
                "aten::sub.out", "aten::cat.out", "aten::view_copy.out", "aten::mm.out" }));
        QVERIFY(list->declaresBackends);
        QCOMPARE(list->backends, (std::set<std::string> { "XnnpackBackend", "MyNpuBackend" }));
    }

    void malformedListsNameTheLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addRow("spaces in a name") << "aten::add.out\nthis is prose\n"
                                          << "list.txt: line 2: not an operator name or backend id: 'this is prose'";
        QTest::addRow("bad characters") << "aten::add.out\n\naten::add(out)\n"
                                        << "list.txt: line 3: not an operator name or backend id: 'aten::add(out)'";
        QTest::addRow("yaml tab") << "operators:\n\taten::add.out:\n"
                                  << "list.txt: line 2: a tab in the indentation (YAML indents with spaces)";
        QTest::addRow("yaml key without colon")
            << "operators:\n  aten::add.out:\n  aten::mul.out\n"
            << "list.txt: line 3: expected 'namespace::name.overload:' in operators";
        QTest::addRow("binary") << QString::fromLatin1("\x01\x7f\x02")
                                << "list.txt: line 1: not an operator name or backend id: '??\?'";
        QTest::addRow("flow operators") << "operators: {aten::add.out: {}}\n"
                                        << "list.txt: line 1: a flow-style 'operators:' map is not read";
    }

    void malformedListsNameTheLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto list = parseKernelList(text.toStdString(), "list.txt");
        QVERIFY(!list);
        QVERIFY2(list.error().message().starts_with(expected.toStdString()), list.error().message().c_str());
    }

    void missingFileIsAnError()
    {
        const auto loaded = loadKernelLists({ "portable", "/nonexistent/ops.yaml" });
        QVERIFY(!loaded);
        QCOMPARE(loaded.error().file, std::string("/nonexistent/ops.yaml"));
    }

    void addLoadsWithPortable()
    {
        ETSCOPE_TAKE(const Document document, open("executorch/add.pte"));
        ETSCOPE_TAKE(const KernelLists kernels1, lists({}));
        const KernelCheck check = checkKernels(document, kernels1);
        QVERIFY(check.loads());
        QCOMPARE(check.methods.size(), std::size_t(1));
        const MethodKernelCheck& forward = check.methods[0];
        QCOMPARE(forward.kernelCalls, 1);
        QCOMPARE(forward.missingCalls, 0);
        QCOMPARE(forward.operators.size(), std::size_t(1));
        QCOMPARE(forward.operators[0].name, std::string("aten::add.out"));
        QCOMPARE(forward.operators[0].resolvedBy, std::string("portable"));
        // With only a list that lacks it, the same program does not load.
        const auto other = parseKernelList("aten::mul.out\n", "mine.txt");
        KernelLists mine;
        mine.lists.push_back(*other);
        QVERIFY(!checkKernels(document, mine).loads());
    }

    void keywordSpottingNeedsCortexM()
    {
        ETSCOPE_TAKE(const Document document, open("executorch/arduino_KeywordSpotting_model.pte"));
        ETSCOPE_TAKE(const KernelLists kernels2, lists({}));
        const KernelCheck portable = checkKernels(document, kernels2);
        QVERIFY(!portable.loads());
        const MethodKernelCheck& forward = portable.methods[0];
        QCOMPARE(forward.kernelCalls, 16);
        QCOMPARE(forward.missingCalls, 14);
        QCOMPARE(std::count_if(forward.operators.begin(), forward.operators.end(),
                     [](const OperatorKernel& op) { return op.missing(); }),
            7L);
        QCOMPARE(findOp(forward, "cortex_m::quantized_depthwise_conv2d.out")->calls.size(), std::size_t(5));
        QCOMPARE(findOp(forward, "dim_order_ops::_clone_dim_order.out")->resolvedBy, std::string("portable"));

        // The graph's nodes of the missing operators: one per missing call.
        const Graph& graph = *document.analysis(document.program->methods[0])->graph;
        const std::vector<NodeId> missing = missingKernelNodes(graph, forward);
        QCOMPARE(missing.size(), std::size_t(14));
        for (const NodeId id : missing) {
            const Node& node = graph.node(id);
            QVERIFY(node.opType.starts_with("cortex_m::"));
            QCOMPARE(forward.operatorAt(node.chain, node.instruction)->name, node.opType);
        }

        ETSCOPE_TAKE(const KernelLists kernels3, lists({ "portable", "cortex_m" }));
        const KernelCheck both = checkKernels(document, kernels3);
        QVERIFY(both.loads());
        QCOMPARE(findOp(both.methods[0], "cortex_m::pad.out")->resolvedBy, std::string("cortex_m"));
    }

    void presetFromTheDelegates()
    {
        // The rule on backend counts: most delegate entries of a linked backend; a tie keeps the
        // preset shown first (android-xnnpack before llama, arm-ethos-u before android-xnnpack).
        QCOMPARE(presetForBackends({}).name, std::string_view("portable"));
        QCOMPARE(presetForBackends({ { "VulkanBackend", 3 } }).name, std::string_view("portable"));
        QCOMPARE(presetForBackends({ { "EthosUBackend", 1 } }).name, std::string_view("arm-ethos-u"));
        QCOMPARE(presetForBackends({ { "XnnpackBackend", 1 } }).name, std::string_view("android-xnnpack"));
        QCOMPARE(presetForBackends({ { "EthosUBackend", 1 }, { "XnnpackBackend", 1 } }).name,
            std::string_view("arm-ethos-u"));
        QCOMPARE(presetForBackends({ { "EthosUBackend", 1 }, { "XnnpackBackend", 2 } }).name,
            std::string_view("android-xnnpack"));
        // Real programs (`etscope info`): the lab's mobilenetv2_lrn_int8_ethosu has 2
        // EthosUBackend delegates, stress_mlp 2 XnnpackBackend ones, add.pte none.
        ETSCOPE_TAKE(const Document lab, open("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte"));
        QCOMPARE(delegatesPerBackend(*lab.program), (std::map<std::string, int> { { "EthosUBackend", 2 } }));
        const RuntimePreset& arm = presetForProgram(*lab.program);
        QCOMPARE(arm.name, std::string_view("arm-ethos-u"));
        ETSCOPE_TAKE(const Document mlp, open("djl-executorch-engine/stress_mlp.pte"));
        QCOMPARE(presetForProgram(*mlp.program).name, std::string_view("android-xnnpack"));
        ETSCOPE_TAKE(const Document add, open("executorch/add.pte"));
        QCOMPARE(presetForProgram(*add.program).name, std::string_view("portable"));

        // The lab program on its runtime: of its 5 KernelCalls only aten::avg_pool3d.out
        // (instruction 3) has no kernel; portable has avg_pool2d only, and the quantize /
        // dequantize_per_tensor.out calls (0, 2, 4, 6) are quantized_decomposed's (quantized.yaml).
        const KernelLists automatic = presetKernelLists(arm, true);
        QVERIFY(automatic.automatic && automatic.preset == &arm);
        const KernelCheck check = checkKernels(lab, automatic);
        QVERIFY(!check.loads());
        const MethodKernelCheck& forward = check.methods[0];
        QCOMPARE(forward.missingCalls, 1);
        const OperatorKernel* pool = findOp(forward, "aten::avg_pool3d.out");
        QVERIFY(pool && pool->missing());
        QCOMPARE(pool->calls[0].instruction.value, 3);
        QCOMPARE(
            findOp(forward, "quantized_decomposed::quantize_per_tensor.out")->resolvedBy, std::string("quantized"));
        QCOMPARE(runtimeText(automatic, check.delegatesPerBackend()),
            std::string("Arm Ethos-U executor_runner (bare-metal Cortex-M), chosen for the program's EthosUBackend "
                        "delegates"));
        QCOMPARE(runtimeText(presetKernelLists(arm, false), {}),
            std::string("Arm Ethos-U executor_runner (bare-metal Cortex-M) (preset arm-ethos-u)"));
        // Lists that are no preset say nothing of a runtime.
        ETSCOPE_TAKE(const KernelLists chosen, lists({ "portable", "quantized" }));
        QVERIFY(!chosen.preset);
        QVERIFY(runtimeText(chosen, {}).empty());
    }

    void ethosUNeedsQuantizedAndItsBackend()
    {
        ETSCOPE_TAKE(const Document document, open("cmsis-executorch/ethos_u_minimal_example_u55.pte"));
        ETSCOPE_TAKE(const KernelLists kernels4, lists({}));
        const KernelCheck portable = checkKernels(document, kernels4);
        QVERIFY(!portable.loads());
        const MethodKernelCheck& forward = portable.methods[0];
        QCOMPARE(forward.missingCalls, 3);
        const OperatorKernel* quantize = findOp(forward, "quantized_decomposed::quantize_per_tensor.out");
        QCOMPARE(quantize->calls.size(), std::size_t(2));
        QCOMPARE(quantize->calls[0].instruction.value, 0);
        QCOMPARE(quantize->calls[1].instruction.value, 1);
        QCOMPARE(findOp(forward, "quantized_decomposed::dequantize_per_tensor.out")->calls[0].instruction.value, 3);
        QCOMPARE(forward.backends.size(), std::size_t(1));
        const BackendNeed& ethos = forward.backends[0];
        QCOMPARE(ethos.backendId, std::string("EthosUBackend"));
        QVERIFY(ethos.known);
        QCOMPARE(ethos.delegates, 1);
        QCOMPARE(ethos.calls.size(), std::size_t(1));
        QCOMPARE(ethos.calls[0].instruction.value, 2);
        QVERIFY(ethos.status == BackendNeed::Status::Unverified);
        QVERIFY(!forward.operatorAt(0, InstructionId(2))); // the DelegateCall

        ETSCOPE_TAKE(const KernelLists kernels5, lists({ "portable", "quantized" }));
        QVERIFY(checkKernels(document, kernels5).loads());

        // A registration dump that names the backends: EthosUBackend linked, or not.
        ETSCOPE_TAKE(KernelLists linked, lists({ "portable", "quantized" }));
        linked.lists.push_back(*parseKernelList("['EthosUBackend']\n", "backends.txt"));
        const KernelCheck withBackend = checkKernels(document, linked);
        QVERIFY(withBackend.loads());
        QVERIFY(withBackend.methods[0].backends[0].status == BackendNeed::Status::Linked);
        QCOMPARE(withBackend.methods[0].backends[0].linkedBy, std::string("backends.txt"));
        ETSCOPE_TAKE(KernelLists other, lists({ "portable", "quantized" }));
        other.lists.push_back(*parseKernelList("backend: XnnpackBackend\n", "backends.txt"));
        const KernelCheck withoutBackend = checkKernels(document, other);
        QVERIFY(!withoutBackend.loads());
        QVERIFY(withoutBackend.methods[0].backends[0].status == BackendNeed::Status::NotLinked);
    }

    void xorWithOptimizedOnly()
    {
        // xor.pte's forward calls 23 operators (SOURCES.md). Of them optimized.yaml has
        // _log_softmax.out, where.self_out, sum.IntList_out, div.out, mul.out, exp.out, sub.out and
        // mm.out: 8. The other 15 (permute_copy, addmm, sigmoid, alias_copy, ne.Scalar_out,
        // scalar_tensor, unsqueeze_copy, gather, squeeze_copy.dims_out, neg, _to_dim_order_copy,
        // argmax, full_like, scatter.value_out, view_copy) miss without portable.
        ETSCOPE_TAKE(const Document document, open("executorch/xor.pte"));
        ETSCOPE_TAKE(const KernelLists kernels6, lists({ "optimized" }));
        const KernelCheck check = checkKernels(document, kernels6);
        const MethodKernelCheck* forward = check.method("forward");
        QVERIFY(forward);
        QCOMPARE(forward->operators.size(), std::size_t(23));
        QCOMPARE(std::count_if(forward->operators.begin(), forward->operators.end(),
                     [](const OperatorKernel& op) { return op.missing(); }),
            15L);
        ETSCOPE_TAKE(const KernelLists kernels7, lists({}));
        QVERIFY(checkKernels(document, kernels7).loads());
        // The three other methods have no instructions and always load.
        QCOMPARE(check.methods.size(), std::size_t(4));
    }

    void sharesAcrossMethods()
    {
        // stories260k: two methods with one QnnBackend delegate each, both decoded from the
        // context binary (its graph of the method's name, op nodes by name).
        ETSCOPE_TAKE(const Document document, open("executorch/stories260k_hybrid_llama_qnn.pte"));
        ETSCOPE_TAKE(const KernelLists kernels8, lists({}));
        const KernelCheck check = checkKernels(document, kernels8);
        QVERIFY(check.loads());
        const OperatorTable combined = check.combinedTable();
        QCOMPARE(combined.delegatedSubgraphs, 2);
        QCOMPARE(combined.backends.at("QnnBackend").subgraphs, 2);
        QCOMPARE(combined.backends.at("QnnBackend").opaqueSubgraphs, 0);
        ETSCOPE_TAKE(const KernelLists kernels9, lists({}));
        const nlohmann::json json = kernelCheckJson(check, kernels9);
        QCOMPARE(json["backends"][0]["delegates"].get<int>(), 2);
        QCOMPARE(json["backends"][0]["methods"].size(), std::size_t(2));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestKernelCheck)
#include "tst_kernelcheck.moc"
