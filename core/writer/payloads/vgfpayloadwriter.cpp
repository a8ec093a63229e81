// SPDX-License-Identifier: MIT
#include "core/writer/payloads/vgfpayloadwriter.h"

#include "vgf_generated.h"

#include <cstring>
#include <string>

namespace etscope::core {

namespace fbg = etscope::fb::vgf;

namespace {

/// A tiny SPIR-V assembler: one instruction at a time, literal strings packed as SPIR-V does.
class SpirvWords {
public:
    void add(std::uint32_t opcode, std::vector<std::uint32_t> operands)
    {
        m_words.push_back(static_cast<std::uint32_t>(operands.size() + 1) << 16 | opcode);
        m_words.insert(m_words.end(), operands.begin(), operands.end());
    }
    static std::vector<std::uint32_t> string(const std::string& text)
    {
        std::vector<std::uint32_t> words((text.size() + 4) / 4, 0);
        std::memcpy(words.data(), text.data(), text.size());
        return words;
    }
    std::vector<std::uint32_t> take() { return std::move(m_words); }

private:
    std::vector<std::uint32_t> m_words;
};

template <typename T> std::vector<T> concat(std::vector<T> a, const std::vector<T>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

void putLe64(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

void append(std::vector<std::uint8_t>& out, const std::uint8_t* data, std::size_t size)
{
    out.insert(out.end(), data, data + size);
}

void align8(std::vector<std::uint8_t>& out)
{
    while (out.size() % 8)
        out.push_back(0);
}

} // namespace

std::vector<std::uint32_t> smallTosaSpirvGraph(const VgfWriteOptions& options)
{
    // Opcodes and enumerants from the SPIR-V grammar (see core/delegates/spirvgraph.cpp).
    SpirvWords w;
    w.add(17, { 4174 }); // OpCapability TensorsARM
    w.add(17, { 4191 }); // OpCapability GraphARM
    w.add(17, { 39 }); // OpCapability Int8
    w.add(10, SpirvWords::string("SPV_ARM_tensors")); // OpExtension
    w.add(10, SpirvWords::string("SPV_ARM_graph"));
    w.add(11, concat({ 1 }, SpirvWords::string("TOSA.001000.1"))); // %1 = OpExtInstImport
    w.add(14, { 0, 3 }); // OpMemoryModel Logical Vulkan
    w.add(5, concat({ 11 }, SpirvWords::string("graph_in"))); // OpName %11
    w.add(21, { 2, 8, 0 }); // %2 = OpTypeInt 8
    w.add(21, { 3, 32, 0 }); // %3 = OpTypeInt 32
    w.add(43, { 3, 4, 2 }); // %4 = OpConstant %3 2 (rank)
    w.add(43, { 3, 5, 1 }); // %5 = 1
    w.add(43, { 3, 6, 4 }); // %6 = 4
    w.add(28, { 7, 3, 4 }); // %7 = OpTypeArray %3 %4
    w.add(44, { 7, 8, 5, 6 }); // %8 = OpConstantComposite %7 [1, 4]
    w.add(4163, { 9, 2, 4, 8 }); // %9 = OpTypeTensorARM %2 rank %4 shape %8
    w.add(32, { 10, 0, 9 }); // %10 = OpTypePointer UniformConstant %9
    w.add(59, { 10, 11, 0 }); // %11 = OpVariable (input)
    w.add(59, { 10, 12, 0 }); // %12 = OpVariable (output)
    w.add(71, { 11, 33, 0 }); // OpDecorate %11 Binding 0
    w.add(71, { 12, 33, 1 }); // OpDecorate %12 Binding 1
    w.add(4190, { 13, 1, 9, 9 }); // %13 = OpTypeGraphARM 1 input: %9 -> %9
    w.add(4181, { 9, 14, 0 }); // %14 = OpGraphConstantARM %9 id 0
    w.add(43, { 3, 15, 0 }); // %15 = 0 (input / output index)
    w.add(43, { 2, 16, 0xFFFFFF9Cu }); // %16 = -100 (int8)
    w.add(43, { 2, 17, 100 }); // %17 = 100
    w.add(43, { 3, 18, 1 }); // %18 = 1 (nan_mode PROPAGATE)
    w.add(4182, concat(concat({ 19 }, SpirvWords::string("graph_partition_0")), { 11, 12 })); // OpGraphEntryPointARM
    w.add(4183, { 13, 19 }); // %19 = OpGraphARM %13
    w.add(4184, { 9, 20, 15 }); // %20 = OpGraphInputARM %9 index %15
    w.add(12, { 9, 21, 1, options.tosaInstruction, 20, 14 }); // %21 = ADD %20 %14
    w.add(12, { 9, 22, 1, 10, 16, 17, 18, 21 }); // %22 = CLAMP min max nan_mode %21
    w.add(4185, { 22, 15 }); // OpGraphSetOutputARM %22 index %15
    w.add(4186, {}); // OpGraphEndARM
    std::vector<std::uint32_t> body = w.take();
    if (options.truncatedSpirv)
        body.back() = 9u << 16 | 4186; // claims 9 words, 1 is there
    return concat({ 0x07230203, 0x00010500, 0, 23, 0 }, body);
}

std::vector<std::uint8_t> writeSmallVgf(const VgfWriteOptions& options)
{
    // Module table.
    flatbuffers::FlatBufferBuilder modules;
    {
        const auto name = modules.CreateString("graph_partition_0");
        const auto entry = modules.CreateString("graph_partition_0");
        flatbuffers::Offset<fbg::Module> module;
        if (options.computeModule) {
            const auto code = fbg::CreateGlslCode(modules, modules.CreateString("void main() {}"));
            module = fbg::CreateModule(
                modules, fbg::ModuleType::COMPUTE, name, entry, fbg::ModuleCode::GlslCode, code.Union());
        } else {
            const auto words = modules.CreateVector(smallTosaSpirvGraph(options));
            const auto code = fbg::CreateSpirvCode(modules, words);
            module = fbg::CreateModule(
                modules, fbg::ModuleType::GRAPH, name, entry, fbg::ModuleCode::SpirvCode, code.Union());
        }
        modules.Finish(fbg::CreateModuleTable(modules, modules.CreateVector(std::vector { module })));
    }
    // Model sequence table.
    flatbuffers::FlatBufferBuilder sequence;
    {
        const auto slot
            = [&](std::uint32_t binding, std::uint32_t mrt) { return fbg::CreateBindingSlot(sequence, binding, mrt); };
        const auto setBindings = sequence.CreateVector(std::vector { slot(0, 0), slot(1, 1) });
        const auto set = fbg::CreateDescriptorSet(sequence, setBindings);
        const auto type = options.computeModule ? fbg::ModuleType::COMPUTE : fbg::ModuleType::GRAPH;
        const auto segment = fbg::CreateSegment(sequence, type, sequence.CreateString("graph_segment_0"), 0,
            sequence.CreateVector(std::vector { set }), sequence.CreateVector(std::vector { slot(0, 0) }),
            sequence.CreateVector(std::vector { slot(1, 1) }), sequence.CreateVector(std::vector<std::uint32_t> { 0 }),
            sequence.CreateVector(std::vector<std::uint32_t> { options.computeModule ? 4u : 0u, 1, 1 }));
        const auto inputs = sequence.CreateVector(std::vector { slot(0, 0) });
        const auto outputs = sequence.CreateVector(std::vector { slot(1, 1) });
        const auto inNames = sequence.CreateVector(std::vector { sequence.CreateString("in0") });
        const auto outNames = sequence.CreateVector(std::vector { sequence.CreateString("out0") });
        sequence.Finish(fbg::CreateSequenceTable(
            sequence, sequence.CreateVector(std::vector { segment }), inputs, outputs, inNames, outNames));
    }
    // Model resource table: VK_DESCRIPTOR_TYPE_TENSOR_ARM 1000460000, VK_FORMAT_R8_SINT 14.
    flatbuffers::FlatBufferBuilder resources;
    {
        std::vector<flatbuffers::Offset<fbg::Resource>> entries;
        for (const auto& [category, descriptor] : { std::pair { fbg::ResourceCategory::INPUT, 1000460000u },
                 std::pair { fbg::ResourceCategory::OUTPUT, 1000460000u },
                 std::pair { fbg::ResourceCategory::CONSTANT, 0xFFFFFFFFu } }) {
            const auto description
                = fbg::CreateTensorDescription(resources, resources.CreateVector(std::vector<std::int64_t> { 1, 4 }));
            entries.push_back(fbg::CreateResource(resources, descriptor, 14, category, description));
        }
        resources.Finish(fbg::CreateResourceTable(resources, resources.CreateVector(entries)));
    }
    // Constant section.
    const std::vector<std::uint8_t> constant { 1, 2, 3, 4 };
    std::vector<std::uint8_t> constants;
    if (options.legacyConstants) {
        flatbuffers::FlatBufferBuilder legacy;
        const auto raw = legacy.CreateVector(constant);
        const auto entry = fbg::CreateLegacyConstant(legacy, 2, -1, raw);
        legacy.Finish(fbg::CreateLegacyConstantSection(legacy, legacy.CreateVector(std::vector { entry })));
        constants.assign(legacy.GetBufferPointer(), legacy.GetBufferPointer() + legacy.GetSize());
    } else {
        constants.assign({ 'C', 'O', 'N', 'S', 'T', '0', '0', 0 });
        constants.resize(16 + 24);
        putLe64(constants, 8, options.constantCount.value_or(1));
        constants[16] = 2; // mrt index
        for (int i = 20; i < 24; ++i)
            constants[static_cast<std::size_t>(i)] = 0xFF; // sparsity dimension -1
        putLe64(constants, 24, constant.size());
        putLe64(constants, 32, 0);
        constants.insert(constants.end(), constant.begin(), constant.end());
    }

    std::vector<std::uint8_t> out(128, 0);
    std::memcpy(out.data(), "VGF1", 4);
    out[8] = 0; // format 0.4.0
    out[9] = 4;
    out[10] = 0;
    const std::pair<const std::uint8_t*, std::size_t> parts[] = {
        { modules.GetBufferPointer(), modules.GetSize() },
        { sequence.GetBufferPointer(), sequence.GetSize() },
        { resources.GetBufferPointer(), resources.GetSize() },
        { constants.data(), constants.size() },
    };
    for (std::size_t s = 0; s < 4; ++s) {
        align8(out);
        putLe64(out, 16 + 16 * s, options.sectionOffset[s].value_or(out.size()));
        putLe64(out, 24 + 16 * s, parts[s].second);
        append(out, parts[s].first, parts[s].second);
    }
    return out;
}

} // namespace etscope::core
