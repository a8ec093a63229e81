// SPDX-License-Identifier: MIT
#include "fuzz/syntheticseeds.h"

#include "core/writer/partitionlogwriter.h"
#include "core/writer/payloads/coremlpayloadwriter.h"
#include "core/writer/payloads/coremlprogramwriter.h"
#include "core/writer/payloads/mlxpayloadwriter.h"
#include "core/writer/payloads/mpspayloadwriter.h"
#include "core/writer/payloads/nativegraphwriter.h"
#include "core/writer/payloads/qnnpayloadwriter.h"
#include "core/writer/payloads/vulkanpayloadwriter.h"
#include "fuzz/etrecordparts.h"
#include "fuzz/fuzzsupport.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <string_view>

namespace etscope::fuzz {

using namespace etscope::core;

namespace {

std::vector<std::uint8_t> bytesOf(std::string_view text)
{
    return { text.begin(), text.end() };
}

/// Two calls over every value kind the Vulkan graph has, constants inline and in named data.
void writeVulkanSeeds(SeedWriter& out)
{
    namespace dt = vk::datatype;
    VulkanPayloadWriter writer;
    const std::vector<std::uint8_t> weights(64, 0x3c);
    const auto input = writer.addTensor({ dt::Float32, { 1, 4 } });
    const auto weight = writer.addTensor({ dt::Float32, { 4, 4 }, writer.addConstantBytes(weights) });
    const auto bias = writer.addTensor({ dt::Float32, { 4 }, writer.addNamedConstant(std::string(kNamedDataKey)) });
    const auto hidden = writer.addTensor({ dt::Float16, { 1, 4 }, -1, 0 });
    const auto output = writer.addTensor({ dt::Float32, { 1, 4 }, -1, 1, 1, 0, dt::Float16 });
    const auto list = writer.addValueList({ input, hidden });
    const std::int32_t scalars[] = { writer.addNull(), writer.addInt(2), writer.addDouble(0.5), writer.addBool(true),
        writer.addString("linear"), writer.addSymInt(4), writer.addIntList({ 1, 4 }), writer.addDoubleList({ 0.5 }),
        writer.addBoolList({ true, false }) };
    writer.addCall(0, "aten.linear.default", { input, weight, bias, hidden });
    std::vector<std::int32_t> args { hidden, list };
    args.insert(args.end(), std::begin(scalars), std::end(scalars));
    args.push_back(output);
    writer.addCall(1, "aten.add.Tensor", args);
    writer.setInputs({ static_cast<std::uint32_t>(input) });
    writer.setOutputs({ static_cast<std::uint32_t>(output) });
    writer.setShaderCount(2);
    writePayloadSeed(out, "vulkan", "synthetic.vh00", writer.write());
    VulkanWriteOptions bare;
    bare.header = false;
    writePayloadSeed(out, "vulkan", "synthetic.vk00", writer.write(bare));
}

/// A QNN context of two graphs ("forward", the fuzz method's name, and "prefill"), with the
/// 256-byte ExecuTorch header and with the 20-byte one of 2025-01..2026-03.
void writeQnnSeeds(SeedWriter& out)
{
    std::vector<QnnGraphSpec> graphs;
    for (const char* name : { "forward", "prefill" }) {
        QnnGraphSpec g;
        g.name = name;
        g.inputs = { { "input_1_mutbuf_0_args_0@0", 1, qnnw::kAppWrite, qnnw::kUfixed8, { 1, 4, 8 } },
            { "input_0_tokens@0", 2, qnnw::kAppWrite, qnnw::kInt32, { 1, 1 } } };
        g.outputs = { { "output_aten_squeeze_copy_dims_2@0", 9, qnnw::kAppRead, qnnw::kUfixed16, { 1, 1, 512 }, 7 },
            { "output_mutbuf_0_aten_cat_default@0", 10, qnnw::kAppRead, qnnw::kUfixed8, { 1, 4, 8 }, 99 } };
        g.nodes = { { 7, "aten_squeeze_copy_dims_2" }, { 6, "aten__softmax_default_3_h_1" },
            { 5, "aten_matmul_default_9_sha_concat" }, { 4, "args_0_h_0" } };
        graphs.push_back(std::move(g));
    }
    writePayloadSeed(out, "qnn", "synthetic.qnn256", writeQnnPayload(graphs));
    QnnWriteOptions legacy;
    legacy.executorchHeader = 20;
    writePayloadSeed(out, "qnn", "synthetic.qnn20", writeQnnPayload(graphs, legacy));
}

void writeCoreMlSeeds(SeedWriter& out)
{
    const std::vector<CoreMlFileSpec> files {
        { "metadata.json", bytesOf(R"({"identifier":"fuzz","inputNames":["x"],"outputNames":["y","z"]})") },
        { "debug_info.json",
            bytesOf(
                R"({"versionInfo":{"coremltools":"8.0"},"debugSymbolToOperationPath":{"add_0":[{"Type":"Program"}]},)"
                R"("debugSymbolToHandles":{"add_0":[1,2]}})") },
        { "model.mlpackage/Manifest.json", bytesOf(R"({"fileFormatVersion":"1.0.0","itemInfoEntries":{}})") },
        { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", std::vector<std::uint8_t>(48, 0x08) },
    };
    writePayloadSeed(out, "coreml", "synthetic.files", writeCoreMlPayload(files));
    // A whole ML Program (conv → add → relu, blob weight, debug symbols): small, so fast to fuzz.
    writePayloadSeed(out, "coreml", "synthetic.mlprogram", writeCoreMlPayload(convAddReluPackage()));
    writePayloadSeed(out, "coreml", "synthetic.cmjr", writeCoreMlReference(std::string(kNamedDataKey), "forward"));
}

void writeMpsSeeds(SeedWriter& out)
{
    MpsGraphSpec graph;
    graph.nodeTags = { 7, 2, 49 };
    graph.values = { { 2, { 1, 4 } }, { 2, { 1, 4 }, 16, 0 }, { 1, { 1, 4 } }, { 2, { 1, 4 } } };
    graph.inputIds = { 0 };
    graph.outputIds = { 3 };
    graph.constantIds = { 1 };
    graph.constantSegment = std::vector<std::uint8_t>(16, 0x40);
    writePayloadSeed(out, "mps", "synthetic", writeMpsPayload(graph));
}

/// The MLX and native_graph fixture graphs (core/writer/payloads).
void writeNewerPayloadSeeds(SeedWriter& out)
{
    writePayloadSeed(out, "mlx", "synthetic.mlx0", writeMlxPayload(smallMlxGraph()));
    writePayloadSeed(out, "nativegraph", "synthetic.nptg", writeNativeGraphPayload(smallNativeGraph()));
}

/// The calculate_numeric_gap DataFrame (facts sheet §7) as pandas writes it, in every form the
/// reader recognises: two rows, a delegate call with a list cell and a kernel with a scalar.
void writeInspectorSeeds(SeedWriter& out)
{
    const char* columns[] = { "aot_debug_handle", "aot_ops", "aot_intermediate_output", "runtime_ops",
        "runtime_debug_handle", "runtime_intermediate_output", "gap", "stacktraces" };
    const std::vector<std::vector<std::string>> rows {
        { "(3,)", "['aten_convolution_default']", "tensor([[0.5000, -1.2500],\n        [2.0000, 3.0000]])",
            "['DELEGATE_CALL']", "(1, 3)", "[tensor([[0.5000, -1.2500], [2.0000, 3.0000]]), tensor([1., nan])]",
            "[0.0, 1.5e-07]", "{'aten_convolution_default': 'File \"model.py\", line 12'}" },
        { "(4,)", "['aten_add_tensor']", "tensor(2.)", "['native_call_add.out']", "(4,)",
            "tensor([2.0000, ..., inf], dtype=torch.float64)", "[-inf]", "" },
    };
    // CSV and TSV with pandas' unnamed index column; fields quoted as to_csv quotes them.
    for (const char separator : { ',', '\t' }) {
        const auto quoted = [separator](const std::string& field) {
            if (field.find_first_of(std::string("\"\n") + separator) == std::string::npos)
                return field;
            std::string text = "\"";
            for (const char c : field)
                text += c == '"' ? std::string("\"\"") : std::string(1, c);
            return text + "\"";
        };
        std::string text;
        for (const char* column : columns)
            text += std::string(1, separator) + column;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            text += "\n" + std::to_string(r);
            for (const std::string& field : rows[r])
                text += separator + quoted(field);
        }
        out.write("inspector", separator == ',' ? "synthetic.csv" : "synthetic.tsv", text + "\n");
    }
    // JSON in the orients of DataFrame.to_json.
    using nlohmann::ordered_json;
    ordered_json records = ordered_json::array();
    ordered_json byColumn = ordered_json::object();
    ordered_json byIndex = ordered_json::object();
    ordered_json split { { "columns", columns }, { "index", { 0, 1 } }, { "data", ordered_json::array() } };
    for (std::size_t r = 0; r < rows.size(); ++r) {
        ordered_json record = ordered_json::object();
        for (std::size_t c = 0; c < rows[r].size(); ++c) {
            record[columns[c]] = rows[r][c];
            byColumn[columns[c]][std::to_string(r)] = rows[r][c];
        }
        byIndex[std::to_string(r)] = record;
        split["data"].push_back(rows[r]);
        records.push_back(std::move(record));
    }
    ordered_json table { { "schema", { { "fields", ordered_json::array() }, { "pandas_version", "1.4.0" } } },
        { "data", records } };
    out.write("inspector", "synthetic.records.json", records.dump());
    out.write("inspector", "synthetic.columns.json", byColumn.dump());
    out.write("inspector", "synthetic.index.json", byIndex.dump());
    out.write("inspector", "synthetic.split.json", split.dump());
    out.write("inspector", "synthetic.table.json", table.dump(2));

    // As printed for a person, line breaks shown as pandas shows them ("\n"): a Markdown table
    // (tabulate's github), box drawing (fancy_grid) and pandas' to_string (right-aligned names
    // and cells, the index first).
    std::vector<std::vector<std::string>> printed { std::vector<std::string>(std::begin(columns), std::end(columns)) };
    for (const auto& row : rows) {
        printed.emplace_back();
        for (const std::string& cell : row) {
            std::string shown;
            for (const char c : cell)
                shown += c == '\n' ? std::string("\\n") : std::string(1, c);
            printed.back().push_back(shown);
        }
    }
    std::vector<std::size_t> widths(printed.front().size(), 0);
    for (const auto& row : printed)
        for (std::size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    const auto repeat = [](const std::string& piece, std::size_t n) {
        std::string text;
        for (std::size_t i = 0; i < n; ++i)
            text += piece;
        return text;
    };
    const auto rule = [&](const char* left, const char* fill, const char* cross, const char* right) {
        std::string text = left;
        for (std::size_t c = 0; c < widths.size(); ++c)
            text += repeat(fill, widths[c] + 2) + (c + 1 < widths.size() ? cross : right);
        return text + "\n";
    };
    const auto bordered = [&](const std::vector<std::string>& row, const char* bar) {
        std::string text = bar;
        for (std::size_t c = 0; c < row.size(); ++c)
            text += " " + row[c] + std::string(widths[c] - row[c].size(), ' ') + " " + bar;
        return text + "\n";
    };
    std::string markdown = bordered(printed[0], "|") + rule("|", "-", "|", "|");
    std::string grid = rule("╒", "═", "╤", "╕") + bordered(printed[0], "│") + rule("╞", "═", "╪", "╡");
    std::string aligned = " ";
    for (std::size_t c = 0; c < widths.size(); ++c)
        aligned += "  " + std::string(widths[c] - printed[0][c].size(), ' ') + printed[0][c];
    for (std::size_t r = 1; r < printed.size(); ++r) {
        markdown += bordered(printed[r], "|");
        grid += bordered(printed[r], "│") + (r + 1 < printed.size() ? rule("├", "─", "┼", "┤") : std::string());
        aligned += "\n" + std::to_string(r - 1);
        for (std::size_t c = 0; c < widths.size(); ++c)
            aligned += "  " + std::string(widths[c] - printed[r][c].size(), ' ') + printed[r][c];
    }
    grid += rule("╘", "═", "╧", "╛");
    out.write("inspector", "synthetic.github.md", markdown);
    out.write("inspector", "synthetic.fancy_grid.txt", grid);
    out.write("inspector", "synthetic.to_string.txt", aligned + "\n");
}

} // namespace

std::vector<std::uint8_t> syntheticETRecordMaps()
{
    const auto indexOf = [](std::string_view name) {
        for (std::size_t i = 0; i < kETRecordJsonEntries.size(); ++i)
            if (kETRecordJsonEntries[i] == name)
                return static_cast<std::uint8_t>(i);
        return std::uint8_t { 0 };
    };
    // A raw-string delimiter of its own: the delegate identifiers hold ")".
    const std::pair<std::string_view, std::string_view> maps[] = {
        { "debug_handle_map", R"json({"forward": {"0": [1, 2], "1": 3, "2": [4]}})json" },
        { "delegate_map",
            R"json({"forward": {"0": {"name": "XnnpackBackend", "delegate_map": {"Add (ND)": [1], "1": [1, 2]}}}})json" },
        { "instruction_id_to_num_outs_map", R"json({"forward": {"0": 1, "2": 2}})json" },
        { "export_graph_id", "140234" },
    };
    std::vector<std::uint8_t> parts;
    for (const auto& [name, text] : maps) {
        if (!parts.empty())
            parts.push_back(kPartSeparator);
        parts.push_back(indexOf(name));
        parts.insert(parts.end(), text.begin(), text.end());
    }
    return parts;
}

void writeETRecordArchiveSeed(SeedWriter& out, const std::string& name, std::span<const std::uint8_t> parts)
{
    if (const auto archive = etrecordArchiveFromParts(parts))
        out.write("etrecord", name, *archive);
}

/// Kernel lists in each form `etscope check --kernels` reads.
void writeKernelListSeeds(SeedWriter& out)
{
    out.write("kernellist", "selected_operators.yaml",
        std::string("build_features: []\ninclude_all_non_op_selectives: false\noperators:\n"
                    "  aten::add.out:\n    debug_info:\n      - model1\n    include_all_overloads: false\n"
                    "    is_root_operator: true\n    is_used_for_training: false\n"
                    "  aten::sub:\n    include_all_overloads: true\n"
                    "et_kernel_metadata:\n  aten::add.out:\n    - v1/6;0,1|6;0,1|6;0,1|6;0,1\n"));
    out.write("kernellist", "functions.yaml",
        std::string("- op: add.out\n  kernels:\n    - arg_meta: null\n      kernel_name: torch::executor::add_out\n"
                    "- func: my_ns::my_op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"));
    out.write("kernellist", "plain.txt",
        std::string("# kept by the selective build\naten::add.out\n- 'aten::mul.out'\nsoftmax.out\n\nXnnpackBackend\n"
                    "backend: VulkanBackend\n"));
    out.write("kernellist", "pylist.txt",
        std::string("['aten::add.out', 'aten::mm.out', \"executorch_prim::add.Scalar\"]\n"));
    out.write("kernellist", "runtime.log",
        std::string("I 00:00:00.000100 executorch:operator_registry.cpp:82] aten::add.out:v1/6;0,1|6;0,1\n"
                    "I 00:00:00.000120 executorch:executor_runner.cpp:120] Model file loaded.\n"));
}

/// Partition logs in each format `etscope why --report` reads (issue 35), from the writer.
void writePartitionLogSeeds(SeedWriter& out)
{
    const std::vector<RejectedNode> rejected {
        { "aten_avg_pool3d_default", "aten.avg_pool3d.default",
            "('avg_pool3d', 'builtin_function_or_method.avg_pool3d')",
            "Not included in BaseTOSASupportList or a registered tosa_support_check" },
        { "aten_max_pool2d_with_indices_default", "aten.max_pool2d_with_indices.default", "-",
            "Maxpool2d needs stride <= 3, got (4, 4)" },
    };
    out.write("partitionlog", "partition_report.txt",
        writeArmPartitionReport({ { "TOSA-1.0+INT+int16+int4+u55", rejected }, { "TOSA-1.0+FP", {} } }));
    out.write("partitionlog", "arm_console.log", writeArmPartitionReport({ { "TOSA-1.0+INT", rejected } }, true));
    out.write("partitionlog", "xnnpack.log", writeXnnpackWhyLines(rejected));
    out.write("partitionlog", "qnn.log",
        writeQnnOpSupportLines({ { "aten.add.Tensor", "True" }, { "aten.avg_pool3d.default", "False" } }, false)
            + writeQnnOpSupportLines({ { "aten.mean.dim", "Skipped" } }, true));
    out.write("partitionlog", "coreml.log", writeCoreMlSkipLines({ "aten.diagonal_copy.default" }));
}

void writeSyntheticSeeds(SeedWriter& out)
{
    writeKernelListSeeds(out);
    writePartitionLogSeeds(out);
    writeVulkanSeeds(out);
    writeQnnSeeds(out);
    writeCoreMlSeeds(out);
    writeMpsSeeds(out);
    writeNewerPayloadSeeds(out);
    writeInspectorSeeds(out);
    const std::vector<std::uint8_t> maps = syntheticETRecordMaps();
    out.write("etrecordjson", "synthetic.maps", maps);
    writeETRecordArchiveSeed(out, "synthetic.maps.zip", maps);
}

} // namespace etscope::fuzz
