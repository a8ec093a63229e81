// SPDX-License-Identifier: MIT
#include "core/writer/payloads/coremlprogramwriter.h"

#include <coreml_mil.pb.h>

#include <cstring>

namespace etscope::core {

namespace {

namespace pb = etscope::coreml;

void setType(pb::CmlValueType& type, MilType dtype, const std::vector<std::int64_t>& shape)
{
    pb::CmlTensorType* tensor = type.mutable_tensor_type();
    tensor->set_data_type(static_cast<int>(dtype));
    tensor->set_rank(static_cast<std::int64_t>(shape.size()));
    for (const std::int64_t d : shape)
        tensor->add_dimensions()->mutable_constant()->set_size(static_cast<std::uint64_t>(d));
}

void setNamed(pb::CmlNamedValueType& named, const MilTensorSpec& tensor)
{
    named.set_name(tensor.name);
    setType(*named.mutable_type(), tensor.type, tensor.shape);
}

/// A string-typed immediate value, as coremltools writes an operation's "name" attribute.
void setText(pb::CmlValue& value, const std::string& text)
{
    setType(*value.mutable_type(), MilType::String, {});
    value.mutable_immediate_value()->mutable_tensor()->mutable_strings()->add_values(text);
}

void fillOperation(pb::CmlOperation& op, const MilOperationSpec& spec);

void fillBlock(pb::CmlBlock& block, const MilBlockSpec& spec)
{
    for (const MilTensorSpec& input : spec.inputs)
        setNamed(*block.add_inputs(), input);
    for (const std::string& output : spec.outputs)
        block.add_outputs(output);
    for (const MilOperationSpec& op : spec.operations)
        fillOperation(*block.add_operations(), op);
}

void fillOperation(pb::CmlOperation& op, const MilOperationSpec& spec)
{
    op.set_type(spec.type);
    for (const auto& [parameter, names] : spec.inputs) {
        pb::CmlArgumentEntry* entry = op.add_inputs();
        entry->set_key(parameter);
        for (const std::string& name : names)
            entry->mutable_value()->add_arguments()->set_name(name);
    }
    for (const MilTensorSpec& output : spec.outputs)
        setNamed(*op.add_outputs(), output);
    for (const MilBlockSpec& block : spec.blocks)
        fillBlock(*op.add_blocks(), block);
    if (!spec.outputs.empty()) {
        pb::CmlValueEntry* name = op.add_attributes();
        name->set_key("name");
        setText(*name->mutable_value(), spec.outputs.front().name);
    }
    if (!spec.ints && !spec.floats && !spec.text && !spec.bytes && spec.blobFile.empty())
        return;
    pb::CmlValueEntry* val = op.add_attributes();
    val->set_key("val");
    pb::CmlValue& value = *val->mutable_value();
    const MilTensorSpec& out = spec.outputs.empty() ? MilTensorSpec {} : spec.outputs.front();
    setType(*value.mutable_type(), out.type, out.shape);
    if (!spec.blobFile.empty()) {
        value.mutable_blob_file_value()->set_file_name(spec.blobFile);
        value.mutable_blob_file_value()->set_offset(spec.blobOffset);
        return;
    }
    pb::CmlTensorValue* tensor = value.mutable_immediate_value()->mutable_tensor();
    if (spec.ints) {
        // Packed int32: each value's sign-extended 64-bit varint (CmlInts holds the raw bytes).
        std::string& packed = *tensor->mutable_ints()->mutable_values();
        for (const std::int32_t v : *spec.ints)
            for (auto u = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));; u >>= 7) {
                if (u < 0x80) {
                    packed += static_cast<char>(u);
                    break;
                }
                packed += static_cast<char>((u & 0x7f) | 0x80);
            }
    } else if (spec.floats) {
        for (const float v : *spec.floats)
            tensor->mutable_floats()->add_values(v);
    } else if (spec.bytes) {
        tensor->mutable_bytes()->set_values(std::string(spec.bytes->begin(), spec.bytes->end()));
    } else
        tensor->mutable_strings()->add_values(*spec.text);
}

std::vector<std::uint8_t> bytesOf(const std::string& text)
{
    return { text.begin(), text.end() };
}

void putLe(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value, int width)
{
    for (int i = 0; i < width; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

void addFeature(pb::CmlFeature& feature, const MilTensorSpec& tensor)
{
    feature.set_name(tensor.name);
    pb::CmlArrayFeature* array = feature.mutable_type()->mutable_multi_array_type();
    for (const std::int64_t d : tensor.shape)
        array->add_shape(d);
    // ArrayDataType: 0x10000 | bits for floats, 0x20000 | bits for ints.
    array->set_data_type(tensor.type == MilType::Fp16 ? 65552 : tensor.type == MilType::Int32 ? 131104 : 65568);
}

} // namespace

std::vector<std::uint8_t> writeMilModel(const MilProgramSpec& spec)
{
    pb::CmlModel model;
    model.set_specification_version(spec.specificationVersion);
    pb::CmlModelDescription* description = model.mutable_description();
    for (const MilTensorSpec& input : spec.modelInputs)
        addFeature(*description->add_inputs(), input);
    for (const MilTensorSpec& output : spec.modelOutputs)
        addFeature(*description->add_outputs(), output);
    for (const auto& [key, value] : spec.userMetadata) {
        pb::CmlTextPair* pair = description->mutable_metadata()->add_user_defined();
        pair->set_key(key);
        pair->set_value(value);
    }
    pb::CmlProgram* program = model.mutable_ml_program();
    program->set_version(1);
    pb::CmlFunctionEntry* entry = program->add_functions();
    entry->set_key(spec.function);
    pb::CmlFunction* function = entry->mutable_value();
    for (const MilTensorSpec& input : spec.inputs)
        setNamed(*function->add_inputs(), input);
    function->set_opset(spec.opset);
    pb::CmlBlockEntry* blockEntry = function->add_block_specializations();
    blockEntry->set_key(spec.opset);
    fillBlock(*blockEntry->mutable_value(), { {}, spec.outputs, spec.operations });
    std::string out;
    model.SerializeToString(&out);
    return bytesOf(out);
}

std::vector<std::uint8_t> writeMilWeights(const std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>>& blobs,
    std::vector<std::uint64_t>* recordOffsets)
{
    const auto align = [](std::size_t n) { return (n + 63) / 64 * 64; };
    std::vector<std::uint8_t> out(64, 0);
    putLe(out, 0, blobs.size(), 4);
    putLe(out, 4, 2, 4);
    for (const auto& [type, data] : blobs) {
        const std::size_t record = align(out.size());
        out.resize(record + 64, 0);
        if (recordOffsets)
            recordOffsets->push_back(record);
        putLe(out, record, 0xDEADBEEF, 4);
        putLe(out, record + 4, type, 4);
        putLe(out, record + 8, data.size(), 8);
        putLe(out, record + 16, record + 64, 8);
        out.insert(out.end(), data.begin(), data.end());
        out.resize(align(out.size()), 0);
    }
    return out;
}

std::vector<CoreMlFileSpec> convAddReluPackage(const std::string& function)
{
    // fp16 weights 4×3×3×3: element i holds the half-precision bits 0x3C00 + i (1.0 and up).
    std::vector<std::uint8_t> weight;
    for (std::uint16_t i = 0; i < 108; ++i) {
        weight.push_back(static_cast<std::uint8_t>((0x3C00 + i) & 0xFF));
        weight.push_back(static_cast<std::uint8_t>((0x3C00 + i) >> 8));
    }
    std::vector<std::uint64_t> records;
    const auto weights = writeMilWeights({ { 1, weight } }, &records);

    MilProgramSpec spec;
    spec.function = function;
    spec.inputs = { { "x", MilType::Fp16, { 1, 3, 8, 8 } } };
    spec.outputs = { "relu_out" };
    spec.modelInputs = { { "x", MilType::Fp16, { 1, 3, 8, 8 } } };
    spec.modelOutputs = { { "relu_out", MilType::Fp16, { 1, 4, 6, 6 } } };
    spec.userMetadata = { { "com.github.apple.coremltools.version", "8.1" } };
    MilOperationSpec w { "const", {}, { { "conv_weight", MilType::Fp16, { 4, 3, 3, 3 } } } };
    w.blobFile = "@model_path/weights/weight.bin";
    w.blobOffset = records.front();
    MilOperationSpec pad { "const", {}, { { "conv_pad_type", MilType::String, {} } } };
    pad.text = "valid";
    MilOperationSpec strides { "const", {}, { { "conv_strides", MilType::Int32, { 2 } } } };
    strides.ints = std::vector<std::int32_t> { 1, 1 };
    MilOperationSpec conv { "conv",
        { { "x", { "x" } }, { "weight", { "conv_weight" } }, { "pad_type", { "conv_pad_type" } },
            { "strides", { "conv_strides" } } },
        { { "conv_out", MilType::Fp16, { 1, 4, 6, 6 } } } };
    MilOperationSpec bias { "const", {}, { { "add_y", MilType::Fp32, { 4 } } } };
    bias.floats = std::vector<float> { 0.5f, -1.0f, 2.0f, 0.0f };
    MilOperationSpec add { "add", { { "x", { "conv_out" } }, { "y", { "add_y" } } },
        { { "add_out", MilType::Fp16, { 1, 4, 6, 6 } } } };
    MilOperationSpec relu { "relu", { { "x", { "add_out" } } }, { { "relu_out", MilType::Fp16, { 1, 4, 6, 6 } } } };
    spec.operations = { w, pad, strides, conv, bias, add, relu };

    const auto path = [&function](const char* output, const char* op) {
        return R"([{"Type":"Program"},{"Type":"Function","Name":")" + function + R"("},{"Type":"Block"},)"
            + R"({"Type":"Operation","Operator":")" + op + R"(","Output":")" + output + R"("}])";
    };
    // conv_strides:const has handles but no path: matched by the runtime's "<output>:<op>" spelling.
    const std::string debugInfo = std::string(R"({"versionInfo":{"coremltools":"8.1"},"debugSymbolToOperationPath":{)")
        + R"("conv_weight:const":)" + path("conv_weight", "const") + R"(,"conv_out:conv":)" + path("conv_out", "conv")
        + R"(,"add_out:add":)" + path("add_out", "add") + R"(,"relu_out:relu":)" + path("relu_out", "relu")
        + R"(},"debugSymbolToHandles":{"conv_weight:const":[1],"conv_strides:const":[1],"conv_out:conv":[1,2],)"
        + R"("add_out:add":[3],"relu_out:relu":[4]}})";
    return {
        { "model.mlpackage/Manifest.json",
            bytesOf(R"({"fileFormatVersion":"1.0.0","itemInfoEntries":{"A":{"path":"com.apple.CoreML/model.mlmodel"}},)"
                    R"("rootModelIdentifier":"A"})") },
        { "model.mlpackage/Data/com.apple.CoreML/model.mlmodel", writeMilModel(spec) },
        { "model.mlpackage/Data/com.apple.CoreML/weights/weight.bin", weights },
        { "metadata.json",
            bytesOf(function == "main"
                    ? std::string(R"({"identifier":"fixture-conv","inputNames":["x"],"outputNames":["relu_out"]})")
                    : R"({"identifier":"fixture-conv","methods":{")" + function
                        + R"(":{"inputNames":["x"],"outputNames":["relu_out"]}}})") },
        { "debug_info.json", bytesOf(debugInfo) },
    };
}

} // namespace etscope::core
