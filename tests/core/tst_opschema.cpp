// SPDX-License-Identifier: MIT
// The operator schema table: every line parses, known schemas read as upstream writes them, and
// on every real program each KernelCall's arguments are named from the table (the call passes
// the schema's arguments, then the returned value).
#include "core/document/document.h"
#include "core/opschema/opschema.h"
#include "tests/common/testsupport.h"

#include <QDirIterator>
#include <QTest>

#include <map>
#include <set>

using namespace etscope::core;

namespace {

std::vector<std::string> argumentNames(const OperatorSchema& schema)
{
    std::vector<std::string> names;
    for (const OperatorArgument& argument : schema.arguments)
        names.push_back(argument.name);
    return names;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

} // namespace

class TestOpSchema : public QObject {
    Q_OBJECT
private slots:
    void everyLineParses()
    {
        const std::vector<std::string> errors = operatorSchemaTableErrors();
        QVERIFY2(errors.empty(), joined(errors).c_str());
        // Every ExecuTorch kernel library the table covers is there.
        std::set<std::string> namespaces;
        for (const OperatorSchema& schema : operatorSchemas())
            namespaces.insert(schema.name.substr(0, schema.name.find("::")));
        for (const char* expected :
            { "aten", "quantized_decomposed", "dim_order_ops", "executorch_prim", "cortex_m", "cadence", "llama" })
            QVERIFY2(namespaces.count(expected), expected);
        QVERIFY(operatorSchemas().size() > 400);
    }

    void parserRejectsMalformedLines()
    {
        std::string error;
        QVERIFY(!parseOperatorSchemaLine("# a comment", &error));
        QVERIFY(error.empty());
        QVERIFY(!parseOperatorSchemaLine("   ", &error));
        QVERIFY(error.empty());
        const char* bad[] = {
            "addmm.out self:T", // no namespace
            "aten::addmm self:T", // no overload
            "aten::addmm.out self:Q", // unknown type
            "aten::addmm.out self:T[][]", // unknown type suffix
            "aten::addmm.out self", // no type
            "aten::addmm.out self:T self:T", // a name twice
            "aten::addmm.out self:T * * out:T!", // a second *
            "aten::addmm.out self:T ->2 out:T!", // text after the return count
            "aten::addmm.out self:T ->x", // a return count that is not a number
            "aten::add-mm.out self:T", // not an identifier
        };
        for (const char* line : bad) {
            QVERIFY2(!parseOperatorSchemaLine(line, &error), line);
            QVERIFY2(!error.empty(), line);
        }
        const auto good = parseOperatorSchemaLine("  x::y.z a:i[]? b:T?[] * c:T[]! ->0 ", &error);
        QVERIFY2(good, error.c_str());
        QCOMPARE(good->qualifiedName(), std::string("x::y.z"));
        QCOMPARE(good->arguments[0].type, std::string("int[]?"));
        QCOMPARE(good->arguments[1].type, std::string("Tensor?[]"));
        QCOMPARE(good->arguments[2].type, std::string("Tensor[]"));
        QVERIFY(good->arguments[2].isOut());
        QCOMPARE(good->returns, 0);
        QCOMPARE(good->kernelArgumentCount(), std::size_t(4)); // an out variant passes its out list back
    }

    void variantsOfOneOperatorDifferInArgumentCount()
    {
        // Older variants are told apart by the number of arguments a call passes, so two schemas of
        // one name must not have the same count, and the current one must come first.
        std::map<std::string, std::vector<const OperatorSchema*>> byName;
        for (const OperatorSchema& schema : operatorSchemas())
            byName[schema.qualifiedName()].push_back(&schema);
        int withVariants = 0;
        for (const auto& [name, schemas] : byName) {
            std::set<std::size_t> counts;
            for (const OperatorSchema* schema : schemas)
                QVERIFY2(counts.insert(schema->kernelArgumentCount()).second, name.c_str());
            const std::size_t dot = name.find('.', name.find("::") + 2);
            QCOMPARE(findSchema(name.substr(0, dot), name.substr(dot + 1)), schemas.front());
            withVariants += schemas.size() > 1;
        }
        QVERIFY(withVariants > 0);
    }

    void addmm()
    {
        const OperatorSchema* schema = findSchema("aten::addmm", "out");
        QVERIFY(schema);
        QCOMPARE(argumentNames(*schema), (std::vector<std::string> { "self", "mat1", "mat2", "beta", "alpha", "out" }));
        QCOMPARE(schema->arguments[0].type, std::string("Tensor"));
        QCOMPARE(schema->arguments[3].type, std::string("Scalar"));
        QVERIFY(!schema->arguments[2].kwargOnly);
        QVERIFY(schema->arguments[3].kwargOnly && !schema->arguments[3].written);
        QVERIFY(schema->arguments[5].isOut());
        QCOMPARE(schema->returns, 1);
        // The call passes the out tensor twice: as `out` and as the returned value.
        QCOMPARE(schema->kernelArgumentCount(), std::size_t(7));
        QCOMPARE(kernelArgumentNames("aten::addmm", "out", 7),
            (std::vector<std::string> { "self", "mat1", "mat2", "beta", "alpha", "out", "return" }));
    }

    void multipleOutputs()
    {
        // Three out tensors, returned together as one TensorList.
        const OperatorSchema* schema = findSchema("aten::native_layer_norm", "out");
        QVERIFY(schema);
        QCOMPARE(argumentNames(*schema),
            (std::vector<std::string> {
                "input", "normalized_shape", "weight", "bias", "eps", "out0", "out1", "out2" }));
        QCOMPARE(schema->arguments[1].type, std::string("int[]"));
        QCOMPARE(schema->arguments[2].type, std::string("Tensor?"));
        QCOMPARE(schema->arguments[4].type, std::string("float"));
        QCOMPARE(schema->returns, 3);
        QCOMPARE(schema->kernelArgumentCount(), std::size_t(9));
    }

    void quantizedDecomposed()
    {
        const OperatorSchema* quantize = findSchema("quantized_decomposed::quantize_per_tensor", "out");
        QVERIFY(quantize);
        QCOMPARE(argumentNames(*quantize),
            (std::vector<std::string> { "input", "scale", "zero_point", "quant_min", "quant_max", "dtype", "out" }));
        QCOMPARE(quantize->arguments[1].type, std::string("float"));
        QCOMPARE(quantize->arguments[5].type, std::string("ScalarType"));

        // Since March 2024 dequantize has a keyword-only out_dtype; programs from before pass one
        // argument fewer and are named from the older variant.
        QCOMPARE(kernelArgumentNames("quantized_decomposed::dequantize_per_tensor", "out", 9),
            (std::vector<std::string> {
                "input", "scale", "zero_point", "quant_min", "quant_max", "dtype", "out_dtype", "out", "return" }));
        QCOMPARE(kernelArgumentNames("quantized_decomposed::dequantize_per_tensor", "out", 8),
            (std::vector<std::string> {
                "input", "scale", "zero_point", "quant_min", "quant_max", "dtype", "out", "return" }));
        const OperatorSchema* current = findSchema("quantized_decomposed::dequantize_per_tensor", "out");
        QVERIFY(current);
        QCOMPARE(current->kernelArgumentCount(), std::size_t(9));
        QCOMPARE(current->arguments[6].type, std::string("ScalarType?"));
    }

    void primOps()
    {
        // The emitter writes et_view without an overload name ("default" in the table).
        QCOMPARE(findSchema("executorch_prim::et_view", ""), findSchema("executorch_prim::et_view", "default"));
        QCOMPARE(kernelArgumentNames("executorch_prim::et_view", "", 3),
            (std::vector<std::string> { "self", "size", "return" }));
        // et_copy_index returns nothing: three arguments, no trailing one.
        QCOMPARE(kernelArgumentNames("executorch_prim::et_copy_index", "tensor", 3),
            (std::vector<std::string> { "copy_to", "copy_from", "index" }));
        QCOMPARE(kernelArgumentNames("executorch_prim::add", "Scalar", 3),
            (std::vector<std::string> { "a", "b", "return" }));
        QCOMPARE(
            kernelArgumentNames("aten::sym_size", "int", 3), (std::vector<std::string> { "self", "dim", "return" }));
    }

    void unknownFallsBack()
    {
        QVERIFY(!findSchema("aten::no_such_operator", "out"));
        QVERIFY(!findSchema("my_ops::addmm", "out"));
        QVERIFY(!findSchema("aten::addmm", "no_such_overload"));
        QVERIFY(kernelArgumentNames("aten::no_such_operator", "out", 3).empty());
        // A known operator whose call does not have the schema's argument count is not guessed at.
        QVERIFY(!findSchema("aten::addmm", "out", 6));
        QVERIFY(kernelArgumentNames("aten::addmm", "out", 6).empty());
        QVERIFY(kernelArgumentNames("aten::addmm", "out", 8).empty());
    }

    void samplesNameEveryKernelArgument()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const QString root = QString::fromStdString(etscope::test::samplePath(""));
        QDirIterator files(
            root, { QStringLiteral("*.pte"), QStringLiteral("*.bpte") }, QDir::Files, QDirIterator::Subdirectories);
        int programs = 0;
        int kernels = 0;
        int singleOut = 0;
        std::set<std::string> operators;
        std::vector<std::string> problems;
        while (files.hasNext()) {
            const std::string path = files.next().toStdString();
            auto document = openDocument(path);
            if (!document || !document->program)
                continue; // not a program (the corrupt sample): tst_badinput covers those
            ++programs;
            for (const Method& method : document->program->methods) {
                const MethodAnalysis* analysis = document->analysis(method);
                QVERIFY(analysis && analysis->graph);
                for (const Node& node : analysis->graph->nodes) {
                    if (node.kind != NodeKind::Operator || !node.instruction.valid())
                        continue;
                    const std::string name(*node.attributes.find("operator"));
                    std::string overload(*node.attributes.find("overload"));
                    if (overload == "(default)")
                        overload.clear();
                    // The arguments follow the overload attribute.
                    std::vector<std::string> names;
                    std::map<std::string, std::string> values;
                    bool after = false;
                    for (const auto& entry : node.attributes) {
                        if (after) {
                            names.emplace_back(entry.name);
                            values.emplace(entry.name, entry.value);
                        }
                        after = after || entry.name == "overload";
                    }
                    QCOMPARE(names.size(), node.args.size());
                    ++kernels;
                    operators.insert(node.label);
                    const std::string where = path.substr(root.size()) + " " + method.name + " " + node.label + " with "
                        + std::to_string(names.size()) + " arguments";
                    const OperatorSchema* schema = findSchema(name, overload, names.size());
                    if (!schema) {
                        problems.push_back(where + (findSchema(name, overload) ? ": count differs" : ": no schema"));
                        continue;
                    }
                    QCOMPARE(names, kernelArgumentNames(name, overload, names.size()));
                    // An out variant with one out tensor passes it back as the returned value.
                    const auto outs = std::count_if(schema->arguments.begin(), schema->arguments.end(),
                        [](const OperatorArgument& argument) { return argument.isOut(); });
                    if (outs == 1 && schema->arguments.back().isOut() && schema->arguments.back().type == "Tensor") {
                        QCOMPARE(values.at("return"), values.at(schema->arguments.back().name));
                        ++singleOut;
                    }
                }
            }
        }
        qInfo("%d programs, %d kernel calls of %zu operators, %d with one out tensor", programs, kernels,
            operators.size(), singleOut);
        QVERIFY2(problems.empty(), joined(problems).c_str());
        QVERIFY(programs >= 30);
        QVERIFY(operators.size() >= 50);
        QVERIFY(singleOut > 0);
        QVERIFY(kernels > singleOut); // multi-output calls (max_pool2d_with_indices, lstm) too
    }

    void namesOnALinearProgram()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("executorch/linear.pte"));
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const Graph& graph = *document->analysis(document->program->methods.front())->graph;
        const auto addmm = std::find_if(
            graph.nodes.begin(), graph.nodes.end(), [](const Node& node) { return node.label == "aten::addmm.out"; });
        QVERIFY(addmm != graph.nodes.end());
        QCOMPARE(*addmm->attributes.find("self"), std::string_view("v1: Tensor FLOAT [3]"));
        QCOMPARE(*addmm->attributes.find("mat1"), std::string_view("v2: Tensor FLOAT [3, 3]"));
        QCOMPARE(*addmm->attributes.find("beta"), std::string_view("v8: Int 1"));
        QCOMPARE(*addmm->attributes.find("alpha"), std::string_view("v9: Int 1"));
        QCOMPARE(*addmm->attributes.find("out"), std::string_view("v7: Tensor FLOAT [3, 3]"));
        QCOMPARE(*addmm->attributes.find("return"), std::string_view("v7: Tensor FLOAT [3, 3]"));
        QVERIFY(!addmm->attributes.find("arg 0"));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestOpSchema)
#include "tst_opschema.moc"
