// SPDX-License-Identifier: MIT
// Arm VGF payloads (VgfBackend, ML SDK for Vulkan; facts sheet §3.4 says only "a VGF file").
// Layout from arm/ai-ml-sdk-vgf-library (src/header.hpp, src/constant.hpp, schema/vgf.fbs at
// commit 43608ea05c10cde09a81ab34944fc2151561ab1d, format 0.4.0, and later commits up to
// 64816c7e9ff0382c32b7b5ec3d98c7aa7a2f549d, format 0.4.3), checked against the real sample:
//   0  "VGF1"                magic (older files: 0xF0E1D2C3 little-endian)
//   4  uint16                Vulkan header version the file was written against
//   6  uint16                reserved
//   8  uint8 ×3              format version major, minor, patch (the sample: 0.4.0)
//   11 5 bytes               reserved
//   16 4 × (uint64 offset, uint64 size): module table, model sequence table, model resource
//                            table, constant section — offsets from the start of the file
//   80 48 bytes              reserved
// The three tables are FlatBuffers without identifier (core/schema/vgf.fbs). The constant
// section is either "CONST00\0", uint64 count, count × {uint32 mrt index, int32 sparsity
// dimension (-1: dense), uint64 size, uint64 offset from the end of this table}, then the data;
// or, in files before that layout, the FlatBuffer LegacyConstantSection.
//
// Inner graph: the model's inputs and outputs (sequence table, argPosition in DelegateCall
// order), and per segment either the TOSA operations of its SPIR-V graph module
// (core/delegates/spirvgraph.h; graph constants are the VGF constants with that index, as the
// ExecuTorch VGF runtime binds them: backends/arm/runtime/VGFSetup.cpp) or one node for the
// segment (compute shaders, modules without code). Resources are the edges.
//
// Why one file: VgfReader's steps (header, module, sequence, resource and constant tables, then the
// inner graph) share the verified sections it holds; no other decoder includes vgf.fbs's types.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/delegates/spirvgraph.h"
#include "core/delegates/targetfacts.h"
#include "core/delegates/tosa.h"
#include "core/pte/verify.h"
#include "core/util/text.h"
#include "vgf_generated.h"

#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace etscope::core {
namespace fbg = etscope::fb::vgf;

namespace {

constexpr std::size_t kHeaderSize = 128;
constexpr const char* kSectionNames[]
    = { "module table", "model sequence table", "model resource table", "constant section" };
constexpr std::uint32_t kNone32 = 0xFFFFFFFFu;
constexpr std::size_t kMaxSegmentsShown = 64; ///< facts per segment / module before "…"
constexpr std::size_t kMaxNodes = 1'000'000;

struct Section {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    bool inside = false;
};

/// A FlatBuffer section copied to 8-aligned memory: sections may start anywhere in the payload,
/// and FlatBuffers reads its scalars in place.
struct AlignedSection {
    std::vector<std::uint64_t> storage;
    const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(storage.data()); }
};

template <typename Root> const Root* verifiedTable(std::span<const std::uint8_t> bytes, AlignedSection& copy)
{
    if (bytes.size() < 8 || bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return nullptr;
    copy.storage.assign((bytes.size() + 7) / 8, 0);
    std::memcpy(copy.storage.data(), bytes.data(), bytes.size());
    if (!verifyFlatbuffer<Root>(copy.data(), bytes.size(), nullptr, false))
        return nullptr;
    return flatbuffers::GetRoot<Root>(copy.data());
}

std::string categoryName(fbg::ResourceCategory category)
{
    switch (category) {
    case fbg::ResourceCategory::INPUT:
        return "INPUT";
    case fbg::ResourceCategory::OUTPUT:
        return "OUTPUT";
    case fbg::ResourceCategory::INTERMEDIATE:
        return "INTERMEDIATE";
    case fbg::ResourceCategory::CONSTANT:
        return "CONSTANT";
    default:
        return "category " + std::to_string(static_cast<int>(category));
    }
}

std::string moduleTypeName(fbg::ModuleType type)
{
    switch (type) {
    case fbg::ModuleType::COMPUTE:
        return "COMPUTE";
    case fbg::ModuleType::GRAPH:
        return "GRAPH";
    default:
        return "type " + std::to_string(static_cast<int>(type));
    }
}

/// VkFormat values (Vulkan registry) of the scalar formats VGF tensors use, in TOSA's words.
std::string formatName(std::uint32_t format)
{
    switch (format) {
    case 13:
        return "UINT8"; // VK_FORMAT_R8_UINT
    case 14:
        return "INT8"; // VK_FORMAT_R8_SINT
    case 74:
        return "UINT16"; // VK_FORMAT_R16_UINT
    case 75:
        return "INT16"; // VK_FORMAT_R16_SINT
    case 76:
        return "FP16"; // VK_FORMAT_R16_SFLOAT
    case 98:
        return "UINT32"; // VK_FORMAT_R32_UINT
    case 99:
        return "INT32"; // VK_FORMAT_R32_SINT
    case 100:
        return "FP32"; // VK_FORMAT_R32_SFLOAT
    case 110:
        return "UINT64"; // VK_FORMAT_R64_UINT
    case 111:
        return "INT64"; // VK_FORMAT_R64_SINT
    case 1000460000:
        return "BOOL"; // VK_FORMAT_R8_BOOL_ARM (VK_ARM_tensors)
    default:
        return "VkFormat " + std::to_string(format);
    }
}

std::string descriptorName(std::uint32_t type)
{
    switch (type) {
    case kNone32:
        return "none";
    case 3:
        return "STORAGE_IMAGE";
    case 6:
        return "UNIFORM_BUFFER";
    case 7:
        return "STORAGE_BUFFER";
    case 1000460000:
        return "TENSOR_ARM";
    default:
        return "VkDescriptorType " + std::to_string(type);
    }
}

/// TOSA enumerations as SPIR-V graphs pass them (integer constants), from the TOSA 1.0
/// specification; the sample confirms acc_type INT32 = 1 and rounding_mode SINGLE_ROUND = 1.
std::string tosaEnumText(std::string_view operand, std::int64_t value)
{
    static constexpr const char* kAcc[] = { nullptr, "INT32", "FP16", "FP32", "INT48" };
    static constexpr const char* kRounding[] = { nullptr, "SINGLE_ROUND", "INEXACT_ROUND", "DOUBLE_ROUND" };
    static constexpr const char* kNan[] = { nullptr, "PROPAGATE", "IGNORE" };
    static constexpr const char* kResize[] = { nullptr, "NEAREST_NEIGHBOR", "BILINEAR" };
    const auto pick = [&](const auto& names) -> std::string {
        if (value > 0 && static_cast<std::size_t>(value) < std::size(names))
            return names[value];
        return std::to_string(value);
    };
    if (operand == "acc_type")
        return pick(kAcc);
    if (operand == "rounding_mode")
        return pick(kRounding);
    if (operand == "nan_mode")
        return pick(kNan);
    if (operand == "mode")
        return pick(kResize);
    return {};
}

struct Resource {
    fbg::ResourceCategory category = fbg::ResourceCategory::INPUT;
    std::uint32_t descriptor = kNone32;
    std::uint32_t format = 0;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;
    TensorMeta meta() const { return { formatName(format), shape }; }
    std::string text() const { return categoryName(category) + " " + formatName(format) + " " + formatShape(shape); }
};

struct Constant {
    std::uint32_t mrt = kNone32;
    std::int64_t sparsity = -1;
    std::uint64_t offset = 0; ///< from the start of the payload
    std::uint64_t size = 0;
};

struct Module {
    fbg::ModuleType type = fbg::ModuleType::COMPUTE;
    std::string name;
    std::string entryPoint;
    std::string code; ///< "SPIR-V", "GLSL", "HLSL", "none"
    std::size_t codeSize = 0; ///< words (SPIR-V) or characters
    std::optional<SpirvModuleInfo> spirv;
    std::uint64_t codeOffset = 0; ///< payload offset of the SPIR-V words
};

struct Binding {
    std::uint32_t binding = 0;
    std::uint32_t mrt = kNone32;
};

struct Segment {
    fbg::ModuleType type = fbg::ModuleType::COMPUTE;
    std::string name;
    std::uint32_t module = kNone32;
    std::vector<Binding> inputs;
    std::vector<Binding> outputs;
    std::vector<std::uint32_t> constants;
    std::vector<std::uint32_t> dispatch;
    std::size_t descriptorSets = 0;
};

std::vector<Binding> bindingsOf(const flatbuffers::Vector<flatbuffers::Offset<fbg::BindingSlot>>* slots)
{
    std::vector<Binding> out;
    if (slots)
        for (const fbg::BindingSlot* slot : *slots)
            out.push_back({ slot->binding(), slot->mrt_index() });
    return out;
}

/// Everything read from one VGF file, section by section; a damaged section leaves its part
/// empty and a warning.
class VgfReader {
public:
    VgfReader(const DelegateContext& context, DelegateInfo& info)
        : m_context(context)
        , m_info(info)
        , m_payload(context.payload)
    {
    }

    bool readHeader();
    void readModules();
    void readSequence();
    void readResources();
    void readConstants();
    void addFacts();
    std::shared_ptr<Graph> buildGraph();
    /// The operator nodes buildGraph's graph will have, without building it; nullopt when the
    /// node cap might cut it short (the caller then builds it).
    std::optional<std::size_t> operatorCount() const;

    std::vector<Segment> segments;
    std::vector<Binding> modelInputs;
    std::vector<Binding> modelOutputs;
    std::vector<std::string> inputNames;
    std::vector<std::string> outputNames;
    std::string version;

private:
    void warn(const std::string& reason, std::optional<std::uint64_t> at) { m_context.warn(m_info, reason, at); }
    std::span<const std::uint8_t> section(std::size_t s) const
    {
        return m_sections[s].inside ? m_payload.subspan(
                   static_cast<std::size_t>(m_sections[s].offset), static_cast<std::size_t>(m_sections[s].size))
                                    : std::span<const std::uint8_t>();
    }
    const Resource* resource(std::uint32_t mrt) const { return mrt < m_resources.size() ? &m_resources[mrt] : nullptr; }
    NodeId sourceOfResource(std::uint32_t mrt, const std::string& segment);
    void addSegmentNode(const Segment& segment, std::size_t index);
    bool expandGraphSegment(const Segment& segment, std::size_t index);
    NodeId graphConstantNode(std::uint32_t graphConstantId, const std::string& segment);
    void resourceAttributes(Node& node, std::uint32_t mrt) const;

    const DelegateContext& m_context;
    DelegateInfo& m_info;
    std::span<const std::uint8_t> m_payload;
    Section m_sections[4];
    std::vector<Module> m_modules;
    std::vector<Resource> m_resources;
    std::vector<Constant> m_constants;
    std::string m_constantLayout;
    AlignedSection m_moduleCopy;
    std::size_t m_spirvBudget = m_payload.size() / 4; ///< SPIR-V words left to decode
    std::shared_ptr<Graph> m_graph;
    std::map<std::uint32_t, NodeId> m_producer; ///< by resource (mrt) index
    std::map<std::uint32_t, NodeId> m_constantNodes; ///< by constant index
};

bool VgfReader::readHeader()
{
    const std::uint8_t* p = m_payload.data();
    version = std::to_string(p[8]) + "." + std::to_string(p[9]) + "." + std::to_string(p[10]);
    m_info.facts.push_back({ "magic", std::memcmp(p, "VGF1", 4) == 0 ? "VGF1" : "0xF0E1D2C3 (old)" });
    m_info.facts.push_back({ "format version", version });
    m_info.facts.push_back({ "vulkan header version", std::to_string(readLe16(p + 4)) });
    addTarget(m_info, "vgf.format_version", "VGF format version", version, std::nullopt, "VGF header bytes 8-10");
    addTarget(m_info, "vgf.vulkan_header_version", "Vulkan header version", std::to_string(readLe16(p + 4)),
        readLe16(p + 4), "VGF header bytes 4-5");
    std::uint64_t end = kHeaderSize;
    bool contiguous = true;
    for (std::size_t s = 0; s < std::size(kSectionNames); ++s) {
        Section& sec = m_sections[s];
        sec.offset = readLe64(p + 16 + 16 * s);
        sec.size = readLe64(p + 24 + 16 * s);
        sec.inside = detail::rangeInside(m_payload.size(), sec.offset, sec.size) && sec.offset >= kHeaderSize;
        m_info.facts.push_back({ kSectionNames[s],
            std::to_string(sec.size) + " bytes (" + formatBytes(sec.size) + ") at offset " + std::to_string(sec.offset)
                + (sec.inside ? "" : " (outside the payload!)") });
        if (!sec.inside)
            warn(std::string("the VGF ") + kSectionNames[s] + " lies outside the payload (offset "
                    + std::to_string(sec.offset) + ", size " + std::to_string(sec.size) + ")",
                16 + 16 * s);
        contiguous = contiguous && sec.offset == end;
        end = sec.inside ? sec.offset + sec.size : end;
    }
    if (!contiguous || end != m_payload.size())
        m_info.facts.push_back({ "section layout", "not the contiguous layout seen in real files" });
    if (p[8] != 0)
        warn("VGF format version " + version + ": this reader knows 0.x files", 8);
    return true;
}

void VgfReader::readModules()
{
    const auto bytes = section(0);
    if (bytes.empty())
        return;
    const auto* table = verifiedTable<fbg::ModuleTable>(bytes, m_moduleCopy);
    if (!table) {
        warn("the FlatBuffers verifier rejected the VGF module table", m_sections[0].offset);
        return;
    }
    if (!table->modules())
        return;
    for (const fbg::Module* module : *table->modules()) {
        Module m;
        m.type = module->type();
        m.name = module->name() ? module->name()->str().substr(0, 256) : std::string();
        m.entryPoint = module->entry_point() ? module->entry_point()->str().substr(0, 256) : std::string();
        switch (module->code_type()) {
        case fbg::ModuleCode::SpirvCode: {
            m.code = "SPIR-V";
            const auto* words = module->code_as_SpirvCode() ? module->code_as_SpirvCode()->words() : nullptr;
            if (words && words->size() > m_spirvBudget) {
                m.codeSize = words->size();
                warn("module " + std::to_string(m_modules.size()) + " ('" + m.name
                        + "'): SPIR-V not decoded, the modules' code exceeds the payload (shared code?)",
                    m_sections[0].offset);
            } else if (words) {
                // FlatBuffers lets many modules share one code vector: decode no more words in
                // total than the payload holds.
                m_spirvBudget -= words->size();
                m.codeSize = words->size();
                m.codeOffset = m_sections[0].offset
                    + static_cast<std::uint64_t>(
                        reinterpret_cast<const std::uint8_t*>(words->data()) - m_moduleCopy.data());
                // The copy is 8-aligned and the verifier checked the vector's 4-byte alignment.
                m.spirv = readSpirvModule({ words->data(), words->size() });
            }
            break;
        }
        case fbg::ModuleCode::GlslCode:
            m.code = "GLSL";
            m.codeSize = module->code_as_GlslCode() && module->code_as_GlslCode()->code()
                ? module->code_as_GlslCode()->code()->size()
                : 0;
            break;
        case fbg::ModuleCode::HlslCode:
            m.code = "HLSL";
            m.codeSize = module->code_as_HlslCode() && module->code_as_HlslCode()->code()
                ? module->code_as_HlslCode()->code()->size()
                : 0;
            break;
        default:
            m.code = module->code_type() == fbg::ModuleCode::NONE
                ? "none"
                : "code type " + std::to_string(static_cast<int>(module->code_type()));
            break;
        }
        if (m.spirv)
            for (const Warning& w : m.spirv->warnings)
                warn("module " + std::to_string(m_modules.size()) + " ('" + m.name + "'): " + w.message,
                    w.offset ? std::optional<std::uint64_t>(m.codeOffset + *w.offset) : std::nullopt);
        m_modules.push_back(std::move(m));
    }
}

void VgfReader::readSequence()
{
    const auto bytes = section(1);
    if (bytes.empty())
        return;
    AlignedSection copy;
    const auto* table = verifiedTable<fbg::SequenceTable>(bytes, copy);
    if (!table) {
        warn("the FlatBuffers verifier rejected the VGF model sequence table", m_sections[1].offset);
        return;
    }
    if (const auto* list = table->segments()) {
        for (const fbg::Segment* segment : *list) {
            Segment s;
            s.type = segment->type();
            s.name = segment->name() ? segment->name()->str().substr(0, 256) : std::string();
            s.module = segment->module_index();
            s.inputs = bindingsOf(segment->inputs());
            s.outputs = bindingsOf(segment->outputs());
            s.constants = vectorValues(segment->constants());
            s.dispatch = vectorValues(segment->dispatch_shape());
            s.descriptorSets = segment->set_infos() ? segment->set_infos()->size() : 0;
            segments.push_back(std::move(s));
        }
    }
    modelInputs = bindingsOf(table->inputs());
    modelOutputs = bindingsOf(table->outputs());
    if (const auto* names = table->input_names())
        for (const flatbuffers::String* name : *names)
            inputNames.push_back(name->str().substr(0, 256));
    if (const auto* names = table->output_names())
        for (const flatbuffers::String* name : *names)
            outputNames.push_back(name->str().substr(0, 256));
}

void VgfReader::readResources()
{
    const auto bytes = section(2);
    if (bytes.empty())
        return;
    AlignedSection copy;
    const auto* table = verifiedTable<fbg::ResourceTable>(bytes, copy);
    if (!table) {
        warn("the FlatBuffers verifier rejected the VGF model resource table", m_sections[2].offset);
        return;
    }
    if (!table->entries())
        return;
    for (const fbg::Resource* entry : *table->entries()) {
        Resource r;
        r.category = entry->category();
        r.descriptor = entry->vk_descriptor_type();
        r.format = entry->vk_format();
        if (const auto* description = entry->description()) {
            r.shape = vectorValues(description->shape());
            r.strides = vectorValues(description->strides());
        }
        m_resources.push_back(std::move(r));
    }
}

void VgfReader::readConstants()
{
    const auto bytes = section(3);
    if (bytes.empty())
        return;
    const std::uint64_t base = m_sections[3].offset;
    if (bytes.size() >= 16 && std::memcmp(bytes.data(), "CONST00", 8) == 0) {
        m_constantLayout = "CONST00";
        const std::uint64_t count = readLe64(bytes.data() + 8);
        constexpr std::uint64_t kRecord = 24;
        if (count > (bytes.size() - 16) / kRecord) {
            warn("the VGF constant section announces " + std::to_string(count) + " constants, more than its "
                    + std::to_string(bytes.size()) + " bytes can describe",
                base + 8);
            return;
        }
        const std::uint64_t dataStart = 16 + count * kRecord;
        const std::uint64_t dataSize = bytes.size() - dataStart;
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint8_t* record = bytes.data() + 16 + i * kRecord;
            Constant c;
            c.mrt = readLe32(record);
            c.sparsity = static_cast<std::int32_t>(readLe32(record + 4));
            c.size = readLe64(record + 8);
            const std::uint64_t offset = readLe64(record + 16);
            if (!detail::rangeInside(dataSize, offset, c.size)) {
                warn("VGF constant " + std::to_string(i) + " places " + std::to_string(c.size)
                        + " bytes at data offset " + std::to_string(offset)
                        + ", outside the constant section; the rest is not read",
                    base + 16 + i * kRecord);
                return;
            }
            c.offset = base + dataStart + offset;
            m_constants.push_back(c);
        }
        return;
    }
    m_constantLayout = "FlatBuffer (legacy)";
    AlignedSection copy;
    const auto* table = verifiedTable<fbg::LegacyConstantSection>(bytes, copy);
    if (!table) {
        warn("the VGF constant section is neither CONST00 nor a FlatBuffer the verifier accepts", base);
        return;
    }
    if (!table->data())
        return;
    for (const fbg::LegacyConstant* entry : *table->data()) {
        Constant c;
        c.mrt = entry->mrt_index();
        c.sparsity = entry->sparsity_dimension();
        if (entry->raw()) {
            c.size = entry->raw()->size();
            c.offset = base + static_cast<std::uint64_t>(entry->raw()->data() - copy.data());
        }
        m_constants.push_back(c);
    }
}

void VgfReader::addFacts()
{
    for (std::size_t m = 0; m < m_modules.size() && m < kMaxSegmentsShown; ++m) {
        const Module& module = m_modules[m];
        std::string text = "'" + module.name + "' (" + moduleTypeName(module.type) + ", " + module.code;
        if (module.code == "SPIR-V")
            text += ", " + std::to_string(module.codeSize) + " words";
        else if (module.code == "GLSL" || module.code == "HLSL")
            text += ", " + std::to_string(module.codeSize) + " characters";
        if (!module.entryPoint.empty())
            text += ", entry point " + module.entryPoint;
        if (module.spirv && module.spirv->version)
            text += ", SPIR-V " + std::to_string(module.spirv->version >> 16 & 0xff) + "."
                + std::to_string(module.spirv->version >> 8 & 0xff);
        if (module.spirv && !module.spirv->tosaOps.empty())
            text += ", " + std::to_string(module.spirv->tosaOps.size()) + " TOSA operations";
        m_info.facts.push_back({ "module " + std::to_string(m), text + ")" });
        if (module.spirv && module.spirv->version && !findTarget(m_info, "vgf.spirv_version"))
            addTarget(m_info, "vgf.spirv_version", "SPIR-V version",
                std::to_string(module.spirv->version >> 16 & 0xff) + "."
                    + std::to_string(module.spirv->version >> 8 & 0xff),
                std::nullopt, "module " + std::to_string(m) + " SPIR-V header");
        if (module.spirv && !module.spirv->imports.empty() && !findTarget(m_info, "vgf.spirv_imports")) {
            std::string list;
            for (const std::string& i : module.spirv->imports)
                list += (list.empty() ? "" : ", ") + i;
            addTarget(m_info, "vgf.spirv_imports", "SPIR-V instruction sets (TOSA version)", list, std::nullopt,
                "module " + std::to_string(m) + " OpExtInstImport");
        }
        if (module.spirv && !module.spirv->extensions.empty()) {
            std::string list;
            for (const std::string& e : module.spirv->extensions)
                list += (list.empty() ? "" : ", ") + e;
            for (const std::string& i : module.spirv->imports)
                list += ", import " + i;
            m_info.facts.push_back({ "module " + std::to_string(m) + " SPIR-V extensions", list });
        }
    }
    for (std::size_t s = 0; s < segments.size() && s < kMaxSegmentsShown; ++s) {
        const Segment& seg = segments[s];
        std::string text = "'" + seg.name + "' (" + moduleTypeName(seg.type) + ", module " + std::to_string(seg.module)
            + ", " + detail::plural(seg.inputs.size(), "input", "inputs") + ", "
            + detail::plural(seg.outputs.size(), "output", "outputs") + ", "
            + detail::plural(seg.constants.size(), "constant", "constants");
        if (seg.type == fbg::ModuleType::COMPUTE && seg.dispatch.size() == 3)
            text += ", dispatch " + std::to_string(seg.dispatch[0]) + "×" + std::to_string(seg.dispatch[1]) + "×"
                + std::to_string(seg.dispatch[2]);
        m_info.facts.push_back({ "segment " + std::to_string(s), text + ")" });
    }
    std::map<std::string, int> byCategory;
    for (const Resource& r : m_resources)
        ++byCategory[categoryName(r.category)];
    std::string kinds;
    for (const auto& [name, count] : byCategory)
        kinds += (kinds.empty() ? "" : ", ") + name + " " + std::to_string(count);
    m_info.facts.push_back(
        { "resources", std::to_string(m_resources.size()) + (kinds.empty() ? "" : " (" + kinds + ")") });
    std::uint64_t constantBytes = 0;
    for (const Constant& c : m_constants)
        constantBytes += c.size;
    if (!m_constantLayout.empty())
        m_info.facts.push_back({ "constants",
            std::to_string(m_constants.size()) + " (" + m_constantLayout + ", " + formatBytes(constantBytes) + ")" });
    for (std::size_t i = 0; i < modelInputs.size() && i < kMaxSegmentsShown; ++i) {
        const Resource* r = resource(modelInputs[i].mrt);
        m_info.facts.push_back({ "input " + std::to_string(i),
            (i < inputNames.size() ? inputNames[i] + ": " : std::string()) + (r ? r->text() : "no resource") });
    }
    for (std::size_t i = 0; i < modelOutputs.size() && i < kMaxSegmentsShown; ++i) {
        const Resource* r = resource(modelOutputs[i].mrt);
        m_info.facts.push_back({ "output " + std::to_string(i),
            (i < outputNames.size() ? outputNames[i] + ": " : std::string()) + (r ? r->text() : "no resource") });
    }
}

void VgfReader::resourceAttributes(Node& node, std::uint32_t mrt) const
{
    node.attributes.add("resource", std::to_string(mrt));
    const Resource* r = resource(mrt);
    if (!r) {
        node.attributes.add("note", "resource " + std::to_string(mrt) + " does not exist");
        return;
    }
    node.attributes.add("category", categoryName(r->category));
    node.attributes.add("dtype", formatName(r->format));
    node.attributes.add("shape", formatShape(r->shape));
    if (!r->strides.empty())
        node.attributes.add("strides", formatShape(r->strides));
    node.attributes.add("descriptor", descriptorName(r->descriptor));
}

/// The node that provides resource `mrt` to a segment: a model input, an earlier segment's
/// output, else a placeholder for a resource nothing wrote.
NodeId VgfReader::sourceOfResource(std::uint32_t mrt, const std::string& segment)
{
    if (const auto it = m_producer.find(mrt); it != m_producer.end())
        return it->second;
    Node node;
    node.kind = NodeKind::View;
    node.inferred = true;
    node.label = "resource " + std::to_string(mrt);
    node.value = ValueIndex(static_cast<std::int32_t>(mrt));
    resourceAttributes(node, mrt);
    node.attributes.add("note", "read by segment '" + segment + "' before any segment writes it");
    const NodeId id = m_graph->addNode(std::move(node));
    m_producer[mrt] = id;
    return id;
}

void VgfReader::addSegmentNode(const Segment& segment, std::size_t index)
{
    Node node;
    node.kind = NodeKind::Operator;
    node.label = segment.name.empty() ? "segment " + std::to_string(index) : segment.name;
    node.opType = segment.type == fbg::ModuleType::GRAPH ? "VGF graph segment" : "VGF compute segment";
    node.attributes.add("segment", std::to_string(index));
    node.attributes.add("module", std::to_string(segment.module));
    if (segment.module < m_modules.size()) {
        const Module& m = m_modules[segment.module];
        node.attributes.add("module name", m.name);
        node.attributes.add("code", m.code + (m.codeSize ? " (" + std::to_string(m.codeSize) + ")" : ""));
        if (!m.entryPoint.empty())
            node.attributes.add("entry point", m.entryPoint);
    }
    node.attributes.add("constants", std::to_string(segment.constants.size()));
    if (segment.dispatch.size() == 3)
        node.attributes.add("dispatch", formatShape({ segment.dispatch[0], segment.dispatch[1], segment.dispatch[2] }));
    std::vector<std::uint32_t> inputs;
    for (const Binding& b : segment.inputs) {
        node.attributes.add("in binding " + std::to_string(b.binding),
            "resource " + std::to_string(b.mrt) + (resource(b.mrt) ? ": " + resource(b.mrt)->text() : ""));
        inputs.push_back(b.mrt);
    }
    for (const Binding& b : segment.outputs)
        node.attributes.add("out binding " + std::to_string(b.binding),
            "resource " + std::to_string(b.mrt) + (resource(b.mrt) ? ": " + resource(b.mrt)->text() : ""));
    std::vector<NodeId> sources;
    sources.reserve(inputs.size());
    for (const std::uint32_t mrt : inputs)
        sources.push_back(sourceOfResource(mrt, node.label));
    const NodeId id = m_graph->addNode(std::move(node));
    for (std::size_t i = 0; i < inputs.size(); ++i)
        m_graph->addEdge({ sources[i], id, ValueIndex(static_cast<std::int32_t>(inputs[i])),
            resource(inputs[i]) ? resource(inputs[i])->meta() : TensorMeta {}, false });
    for (const Binding& b : segment.outputs)
        m_producer[b.mrt] = id;
}

NodeId VgfReader::graphConstantNode(std::uint32_t constantIndex, const std::string& segment)
{
    if (const auto it = m_constantNodes.find(constantIndex); it != m_constantNodes.end())
        return it->second;
    Node node;
    node.kind = NodeKind::Constant;
    node.label = "constant " + std::to_string(constantIndex);
    node.attributes.add("constant", std::to_string(constantIndex));
    if (constantIndex < m_constants.size()) {
        const Constant& c = m_constants[constantIndex];
        node.value = ValueIndex(static_cast<std::int32_t>(c.mrt));
        resourceAttributes(node, c.mrt);
        node.attributes.add("data", std::to_string(c.size) + " bytes at offset " + std::to_string(c.offset));
        if (c.sparsity >= 0)
            node.attributes.add("sparsity dimension", std::to_string(c.sparsity));
    } else {
        node.attributes.add("note",
            "segment '" + segment + "' names graph constant " + std::to_string(constantIndex)
                + ", which the constant section does not hold");
        warn("segment '" + segment + "' names graph constant " + std::to_string(constantIndex) + ", but the file has "
                + std::to_string(m_constants.size()) + " constants",
            std::nullopt);
    }
    const NodeId id = m_graph->addNode(std::move(node));
    m_constantNodes[constantIndex] = id;
    return id;
}

/// The TOSA operations of a graph segment's SPIR-V module, wired to the segment's resources.
bool VgfReader::expandGraphSegment(const Segment& segment, std::size_t index)
{
    if (segment.module >= m_modules.size() || !m_modules[segment.module].spirv)
        return false;
    const SpirvModuleInfo& spirv = *m_modules[segment.module].spirv;
    if (!spirv.isGraph || spirv.tosaOps.empty())
        return false;
    const std::string segmentName = segment.name.empty() ? "segment " + std::to_string(index) : segment.name;
    const std::int32_t idBase = static_cast<std::int32_t>(m_resources.size());
    std::map<std::uint32_t, std::pair<NodeId, TensorMeta>> values; // SPIR-V id → producer
    for (std::size_t i = 0; i < spirv.graphInputs.size(); ++i) {
        const auto [id, type] = spirv.graphInputs[i];
        auto [dtype, shape] = spirv.tensorType(type);
        if (i < segment.inputs.size()) {
            values[id] = { sourceOfResource(segment.inputs[i].mrt, segmentName), { dtype, shape } };
        } else {
            Node node;
            node.kind = NodeKind::View;
            node.inferred = true;
            node.label = "graph input " + std::to_string(i);
            node.attributes.add("note", "the segment binds no resource to this graph input");
            values[id] = { m_graph->addNode(std::move(node)), { dtype, shape } };
        }
    }
    for (const SpirvTosaOp& op : spirv.tosaOps) {
        if (m_graph->nodes.size() >= kMaxNodes) {
            warn("more than " + std::to_string(kMaxNodes) + " nodes; the rest of segment '" + segmentName
                    + "' is not shown",
                std::nullopt);
            break;
        }
        const std::uint32_t tosaOp = op.instruction + 1; // the grammar numbers from ARGMAX = 0
        const std::string_view name = tosaOpName(tosaOp);
        Node node;
        node.kind = NodeKind::Operator;
        node.label = name.empty() ? "unknown TOSA instruction " + std::to_string(op.instruction) : std::string(name);
        node.opType = name.empty() ? "TOSA instruction " + std::to_string(op.instruction) : "TOSA " + std::string(name);
        node.attributes.add("segment", segmentName);
        node.attributes.add("SPIR-V offset", std::to_string(op.byteOffset));
        if (name.empty() || tosaOp > 66) {
            node.attributes.add("note", "TOSA.001000.1 has no instruction " + std::to_string(op.instruction));
            warn("segment '" + segmentName + "': unknown TOSA instruction " + std::to_string(op.instruction),
                std::nullopt);
        }
        const std::vector<std::string_view> roles
            = name.empty() ? std::vector<std::string_view>() : tosaOperandNames(tosaOp, false);
        const std::size_t attributeCount = roles.size() - std::min(roles.size(), tosaOperandNames(tosaOp, true).size());
        std::vector<std::pair<NodeId, std::uint32_t>> sources;
        std::set<std::uint32_t> seen;
        for (std::size_t k = 0; k < op.operands.size(); ++k) {
            const std::uint32_t id = op.operands[k];
            const std::string role = k < roles.size() ? std::string(roles[k]) : "operand " + std::to_string(k);
            if (k < attributeCount) {
                const auto value = spirv.scalar(id);
                const std::string enumText = value ? tosaEnumText(role, *value) : std::string();
                const std::string text = !enumText.empty() ? enumText : spirv.constantText(id);
                node.attributes.add(role, text.empty() ? "%" + std::to_string(id) : text);
                continue;
            }
            if (values.count(id)) {
                if (seen.insert(id).second)
                    sources.emplace_back(values[id].first, id);
                continue;
            }
            const auto constant = spirv.constants.find(id);
            if (constant != spirv.constants.end() && constant->second.kind == SpirvConstant::Kind::GraphConstant) {
                const std::uint32_t index = constant->second.words.empty() ? kNone32 : constant->second.words[0];
                auto [dtype, shape] = spirv.tensorType(constant->second.type);
                values[id] = { graphConstantNode(index, segmentName), { dtype, shape } };
                node.attributes.add(
                    role, "graph constant " + std::to_string(index) + ": " + dtype + " " + formatShape(shape));
                if (seen.insert(id).second)
                    sources.emplace_back(values[id].first, id);
                continue;
            }
            if (constant != spirv.constants.end()) {
                node.attributes.add(role, spirv.constantText(id));
                continue;
            }
            node.attributes.add(role, "%" + std::to_string(id) + " (not defined before use)");
        }
        auto [dtype, shape] = spirv.tensorType(op.resultType);
        node.attributes.add("result", dtype + " " + formatShape(shape));
        const NodeId nodeId = m_graph->addNode(std::move(node));
        for (const auto& [from, id] : sources)
            m_graph->addEdge(
                { from, nodeId, ValueIndex(idBase + static_cast<std::int32_t>(id)), values[id].second, false });
        values[op.result] = { nodeId, { dtype, shape } };
    }
    for (std::size_t o = 0; o < spirv.graphOutputs.size(); ++o) {
        const auto it = values.find(spirv.graphOutputs[o]);
        if (o >= segment.outputs.size() || it == values.end()) {
            warn("segment '" + segmentName + "': graph output " + std::to_string(o)
                    + " is not bound to a resource or written by no operation",
                std::nullopt);
            continue;
        }
        m_producer[segment.outputs[o].mrt] = it->second.first;
    }
    return true;
}

std::optional<std::size_t> VgfReader::operatorCount() const
{
    // As buildGraph: a graph segment whose module holds TOSA operations gives one operator node
    // each (expandGraphSegment), any other segment one (addSegmentNode). `bound` over-counts
    // every node buildGraph can make: ports, one view per resource, and per segment its inputs,
    // constants and operands (each may add a constant node).
    std::size_t operators = 0;
    std::size_t bound = modelInputs.size() + modelOutputs.size() + m_resources.size();
    for (const Segment& segment : segments) {
        const bool graph = segment.module < m_modules.size() && m_modules[segment.module].spirv
            && m_modules[segment.module].spirv->isGraph && !m_modules[segment.module].spirv->tosaOps.empty();
        if (graph) {
            const SpirvModuleInfo& spirv = *m_modules[segment.module].spirv;
            operators += spirv.tosaOps.size();
            bound += spirv.graphInputs.size();
            for (const SpirvTosaOp& op : spirv.tosaOps)
                bound += 1 + op.operands.size();
        } else {
            operators += 1;
            bound += 1 + segment.inputs.size() + segment.outputs.size() + segment.constants.size();
        }
    }
    if (bound >= kMaxNodes)
        return std::nullopt;
    return operators;
}

std::shared_ptr<Graph> VgfReader::buildGraph()
{
    m_graph = std::make_shared<Graph>();
    m_graph->name = m_context.ref.backendId;
    m_graph->backendId = m_context.ref.backendId;
    m_graph->format = "vgf";
    for (std::size_t i = 0; i < modelInputs.size(); ++i) {
        Node node;
        node.kind = NodeKind::Input;
        node.label = i < inputNames.size() && !inputNames[i].empty() ? inputNames[i] : "input " + std::to_string(i);
        node.argPosition = static_cast<int>(i);
        node.value = ValueIndex(static_cast<std::int32_t>(modelInputs[i].mrt));
        resourceAttributes(node, modelInputs[i].mrt);
        m_producer[modelInputs[i].mrt] = m_graph->addNode(std::move(node));
    }
    for (std::size_t s = 0; s < segments.size() && m_graph->nodes.size() < kMaxNodes; ++s)
        if (!expandGraphSegment(segments[s], s))
            addSegmentNode(segments[s], s);
    for (std::size_t o = 0; o < modelOutputs.size(); ++o) {
        const std::uint32_t mrt = modelOutputs[o].mrt;
        Node node;
        node.kind = NodeKind::Output;
        node.label = o < outputNames.size() && !outputNames[o].empty() ? outputNames[o] : "output " + std::to_string(o);
        node.argPosition = static_cast<int>(modelInputs.size() + o);
        node.value = ValueIndex(static_cast<std::int32_t>(mrt));
        resourceAttributes(node, mrt);
        const NodeId id = m_graph->addNode(std::move(node));
        if (const auto from = m_producer.find(mrt); from != m_producer.end())
            m_graph->addEdge({ from->second, id, ValueIndex(static_cast<std::int32_t>(mrt)),
                resource(mrt) ? resource(mrt)->meta() : TensorMeta {}, false });
        else
            warn("VGF output " + std::to_string(o) + " (resource " + std::to_string(mrt) + ") is written by no segment",
                std::nullopt);
    }
    return m_graph;
}

} // namespace

bool decodeVgf(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    const bool oldMagic = payload.size() >= 4 && readLe32(payload.data()) == 0xF0E1D2C3u;
    if (payload.size() < 4 || (std::memcmp(payload.data(), "VGF1", 4) != 0 && !oldMagic)) {
        context.warn(info, "not a VGF file: no VGF1 magic", 0);
        return false;
    }
    if (payload.size() < kHeaderSize) {
        context.warn(info, "the 128-byte VGF header is truncated (" + std::to_string(payload.size()) + " bytes)", 0);
        return false;
    }
    info.format = "vgf";
    VgfReader reader(context, info);
    reader.readHeader();
    reader.readModules();
    reader.readSequence();
    reader.readResources();
    reader.readConstants();
    reader.addFacts();
    if (!reader.segments.empty() || !reader.modelInputs.empty()) {
        // Deferred (DelegateContext::deferInnerGraph): the graph, and the warnings found
        // building it, come on first use.
        const std::optional<std::size_t> known
            = context.deferInnerGraph ? reader.operatorCount() : std::optional<std::size_t>();
        std::size_t operators = 0;
        if (known) {
            operators = *known;
            info.innerGraph = deferredInnerGraph(operators);
        } else {
            auto graph = reader.buildGraph();
            operators = graph->operatorCount();
            info.innerGraph = graph;
        }
        info.inputCount = static_cast<int>(reader.modelInputs.size());
        info.outputCount = static_cast<int>(reader.modelOutputs.size());
        info.summary = "VGF " + reader.version + ": " + detail::plural(reader.segments.size(), "segment", "segments")
            + ", " + detail::plural(operators, "operation", "operations") + ", "
            + detail::plural(reader.modelInputs.size(), "input", "inputs") + ", "
            + detail::plural(reader.modelOutputs.size(), "output", "outputs");
    } else {
        info.summary = "VGF " + reader.version + ": no segments could be read";
    }
    return true;
}

} // namespace etscope::core
