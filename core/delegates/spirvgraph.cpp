// SPDX-License-Identifier: MIT
#include "core/delegates/spirvgraph.h"

#include "core/util/text.h"

#include <algorithm>
#include <cstring>

namespace etscope::core {

namespace {

constexpr std::uint32_t kMagic = 0x07230203;
constexpr std::size_t kMaxWarnings = 50;

// Opcodes (spirv.core.grammar.json).
enum Opcode : std::uint32_t {
    OpName = 5,
    OpExtension = 10,
    OpExtInstImport = 11,
    OpExtInst = 12,
    OpEntryPoint = 15,
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeArray = 28,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstantTrue = 41,
    OpConstantFalse = 42,
    OpConstant = 43,
    OpConstantComposite = 44,
    OpConstantNull = 46,
    OpTypeTensorARM = 4163,
    OpGraphConstantARM = 4181,
    OpGraphEntryPointARM = 4182,
    OpGraphARM = 4183,
    OpGraphInputARM = 4184,
    OpGraphSetOutputARM = 4185,
    OpGraphEndARM = 4186,
    OpTypeGraphARM = 4190,
    OpConstantCompositeReplicateEXT = 4461,
};

/// A literal string starting at word `first` of `operands` (nul-terminated, packed little-endian).
std::string literalString(std::span<const std::uint32_t> operands, std::size_t first)
{
    std::string text;
    for (std::size_t w = first; w < operands.size(); ++w) {
        for (int b = 0; b < 4; ++b) {
            const char c = static_cast<char>((operands[w] >> (8 * b)) & 0xff);
            if (c == '\0')
                return text;
            text += c;
        }
    }
    return text;
}

} // namespace

std::optional<std::int64_t> SpirvModuleInfo::scalar(std::uint32_t id) const
{
    const auto it = constants.find(id);
    if (it == constants.end())
        return std::nullopt;
    const SpirvConstant& c = it->second;
    if (c.kind == SpirvConstant::Kind::True)
        return 1;
    if (c.kind == SpirvConstant::Kind::False)
        return 0;
    if (c.kind == SpirvConstant::Kind::Null)
        return 0;
    if (c.kind != SpirvConstant::Kind::Scalar || c.words.empty())
        return std::nullopt;
    const auto type = types.find(c.type);
    const std::uint32_t width = type != types.end() ? type->second.width : 32;
    if (width > 32 && c.words.size() >= 2)
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(c.words[1]) << 32 | c.words[0]);
    if (width == 8)
        return static_cast<std::int8_t>(c.words[0] & 0xff);
    if (width == 16)
        return static_cast<std::int16_t>(c.words[0] & 0xffff);
    return static_cast<std::int32_t>(c.words[0]);
}

std::string SpirvModuleInfo::elementName(std::uint32_t typeId) const
{
    const auto it = types.find(typeId);
    if (it == types.end())
        return {};
    const SpirvType& t = it->second;
    switch (t.kind) {
    case SpirvType::Kind::Bool:
        return "BOOL";
    case SpirvType::Kind::Int:
        return "INT" + std::to_string(t.width);
    case SpirvType::Kind::Float:
        return "FP" + std::to_string(t.width);
    default:
        return {};
    }
}

std::pair<std::string, std::vector<std::int64_t>> SpirvModuleInfo::tensorType(std::uint32_t typeId) const
{
    const auto it = types.find(typeId);
    if (it == types.end() || it->second.kind != SpirvType::Kind::Tensor)
        return {};
    const SpirvType& t = it->second;
    std::vector<std::int64_t> shape;
    if (const auto c = constants.find(t.shape); c != constants.end()) {
        if (c->second.kind == SpirvConstant::Kind::Composite) {
            for (const std::uint32_t item : c->second.words)
                shape.push_back(scalar(item).value_or(-1));
        } else if (c->second.kind == SpirvConstant::Kind::Replicate && !c->second.words.empty()) {
            // The rank comes from the array type's length.
            const auto array = types.find(c->second.type);
            const auto length = array != types.end() ? scalar(array->second.length) : std::nullopt;
            for (std::int64_t i = 0; length && i < *length && i < 16; ++i)
                shape.push_back(scalar(c->second.words[0]).value_or(-1));
        }
    }
    return { elementName(t.element), std::move(shape) };
}

std::string SpirvModuleInfo::constantText(std::uint32_t id, std::size_t limit) const
{
    const auto it = constants.find(id);
    if (it == constants.end())
        return {};
    const SpirvConstant& c = it->second;
    switch (c.kind) {
    case SpirvConstant::Kind::True:
        return "true";
    case SpirvConstant::Kind::False:
        return "false";
    case SpirvConstant::Kind::Null:
        return "zeros";
    case SpirvConstant::Kind::GraphConstant:
        return "graph constant " + std::to_string(c.words.empty() ? 0 : c.words[0]);
    case SpirvConstant::Kind::Replicate:
        return c.words.empty() ? std::string() : "all " + constantText(c.words[0], limit);
    case SpirvConstant::Kind::Composite: {
        std::string out = "[";
        for (std::size_t i = 0; i < c.words.size(); ++i) {
            if (i == limit) {
                out += ", … (" + std::to_string(c.words.size()) + " values)";
                break;
            }
            const auto value = scalar(c.words[i]);
            out += (i ? ", " : "") + (value ? std::to_string(*value) : std::string("?"));
        }
        return out + "]";
    }
    case SpirvConstant::Kind::Scalar: {
        const auto type = types.find(c.type);
        if (type != types.end() && type->second.kind == SpirvType::Kind::Float && !c.words.empty()) {
            if (type->second.width == 32) {
                float value;
                std::memcpy(&value, &c.words[0], sizeof value);
                return std::to_string(value);
            }
            return "float bits 0x" + toHex({ reinterpret_cast<const std::uint8_t*>(c.words.data()), 4 });
        }
        const auto value = scalar(id);
        return value ? std::to_string(*value) : std::string();
    }
    }
    return {};
}

SpirvModuleInfo readSpirvModule(std::span<const std::uint32_t> words)
{
    SpirvModuleInfo info;
    const auto warn = [&](std::string message, std::size_t word) {
        if (info.warnings.size() < kMaxWarnings)
            info.warnings.push_back({ std::move(message), static_cast<std::uint64_t>(word) * 4 });
    };
    if (words.size() < 5) {
        warn("a SPIR-V module needs a 5-word header; this one has " + std::to_string(words.size()) + " words", 0);
        return info;
    }
    if (words[0] != kMagic) {
        warn("no SPIR-V magic (0x07230203) at the start of the module", 0);
        return info;
    }
    info.version = words[1];
    info.generator = words[2];
    info.bound = words[3];
    // Every id is below the bound, and a constant takes at least three words: room for them all
    // at once instead of rehashing as they come (bounded by the module's size, not its claim).
    info.constants.reserve(std::min<std::size_t>(info.bound, words.size() / 3));
    std::uint32_t tosaSet = 0;
    bool inGraph = false;
    std::size_t at = 5;
    while (at < words.size()) {
        const std::uint32_t count = words[at] >> 16;
        const std::uint32_t opcode = words[at] & 0xffff;
        if (count == 0 || count > words.size() - at) {
            warn("SPIR-V instruction " + std::to_string(info.instructions) + " (opcode " + std::to_string(opcode)
                    + ") has word count " + std::to_string(count)
                    + ", past the end of the module; the rest is not read",
                at);
            break;
        }
        const std::span<const std::uint32_t> ops = words.subspan(at + 1, count - 1);
        ++info.instructions;
        const auto need = [&](std::size_t n) {
            if (ops.size() >= n)
                return true;
            warn("SPIR-V instruction " + std::to_string(info.instructions - 1) + " (opcode " + std::to_string(opcode)
                    + ") has too few operands",
                at);
            return false;
        };
        switch (opcode) {
        case OpName:
            if (need(1))
                info.names[ops[0]] = literalString(ops, 1).substr(0, 256);
            break;
        case OpExtension:
            info.extensions.push_back(literalString(ops, 0).substr(0, 128));
            break;
        case OpExtInstImport:
            if (need(1)) {
                info.imports.push_back(literalString(ops, 1).substr(0, 128));
                if (info.imports.back().starts_with("TOSA."))
                    tosaSet = ops[0];
            }
            break;
        case OpEntryPoint:
            if (need(3) && info.entryPoint.empty())
                info.entryPoint = literalString(ops, 2).substr(0, 256);
            break;
        case OpGraphEntryPointARM:
            if (need(2))
                info.entryPoint = literalString(ops, 1).substr(0, 256);
            break;
        case OpTypeBool:
            if (need(1))
                info.types[ops[0]] = { SpirvType::Kind::Bool };
            break;
        case OpTypeInt:
            if (need(2))
                info.types[ops[0]] = { SpirvType::Kind::Int, ops[1] };
            break;
        case OpTypeFloat:
            if (need(2))
                info.types[ops[0]] = { SpirvType::Kind::Float, ops[1] };
            break;
        case OpTypeArray:
            if (need(3))
                info.types[ops[0]] = { SpirvType::Kind::Array, 0, ops[1], ops[2] };
            break;
        case OpTypeStruct:
            if (need(1))
                info.types[ops[0]] = { SpirvType::Kind::Struct };
            break;
        case OpTypePointer:
            if (need(3))
                info.types[ops[0]] = { SpirvType::Kind::Pointer, 0, ops[2] };
            break;
        case OpTypeTensorARM:
            if (need(2))
                info.types[ops[0]] = { SpirvType::Kind::Tensor, 0, ops[1], 0, ops.size() > 2 ? ops[2] : 0,
                    ops.size() > 3 ? ops[3] : 0 };
            break;
        case OpTypeGraphARM:
            if (need(1))
                info.types[ops[0]] = { SpirvType::Kind::Graph };
            break;
        case OpConstantTrue:
        case OpConstantFalse:
        case OpConstantNull:
            if (need(2))
                info.constants[ops[1]] = { opcode == OpConstantTrue ? SpirvConstant::Kind::True
                        : opcode == OpConstantFalse                 ? SpirvConstant::Kind::False
                                                                    : SpirvConstant::Kind::Null,
                    ops[0], {} };
            break;
        case OpConstant:
            if (need(3))
                info.constants[ops[1]] = { SpirvConstant::Kind::Scalar, ops[0], { ops.begin() + 2, ops.end() } };
            break;
        case OpConstantComposite:
            if (need(2))
                info.constants[ops[1]] = { SpirvConstant::Kind::Composite, ops[0], { ops.begin() + 2, ops.end() } };
            break;
        case OpConstantCompositeReplicateEXT:
            if (need(3))
                info.constants[ops[1]] = { SpirvConstant::Kind::Replicate, ops[0], { ops[2] } };
            break;
        case OpGraphConstantARM:
            if (need(3))
                info.constants[ops[1]] = { SpirvConstant::Kind::GraphConstant, ops[0], { ops[2] } };
            break;
        case OpGraphARM:
            info.isGraph = true;
            inGraph = true;
            break;
        case OpGraphEndARM:
            inGraph = false;
            break;
        case OpGraphInputARM:
            if (need(3)) {
                const auto index = info.scalar(ops[2]);
                if (!index || *index < 0 || *index > 4096) {
                    warn("a graph input has no usable InputIndex", at);
                } else {
                    if (info.graphInputs.size() <= static_cast<std::size_t>(*index))
                        info.graphInputs.resize(static_cast<std::size_t>(*index) + 1);
                    info.graphInputs[static_cast<std::size_t>(*index)] = { ops[1], ops[0] };
                }
            }
            break;
        case OpGraphSetOutputARM:
            if (need(2)) {
                const auto index = info.scalar(ops[1]);
                if (!index || *index < 0 || *index > 4096) {
                    warn("a graph output has no usable OutputIndex", at);
                } else {
                    if (info.graphOutputs.size() <= static_cast<std::size_t>(*index))
                        info.graphOutputs.resize(static_cast<std::size_t>(*index) + 1);
                    info.graphOutputs[static_cast<std::size_t>(*index)] = ops[0];
                }
            }
            break;
        case OpExtInst:
            if (!need(4))
                break;
            if (tosaSet != 0 && ops[2] == tosaSet) {
                info.tosaOps.push_back(
                    { ops[3], ops[0], ops[1], { ops.begin() + 4, ops.end() }, static_cast<std::uint64_t>(at) * 4 });
            } else if (inGraph) {
                ++info.otherExtInsts;
            }
            break;
        default:
            break;
        }
        at += count;
    }
    if (inGraph)
        warn("the graph has no OpGraphEndARM", words.size());
    return info;
}

} // namespace etscope::core
