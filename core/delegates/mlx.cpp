// SPDX-License-Identifier: MIT
// MLX delegate payloads (ExecuTorch's MLXBackend, Apple MLX on Metal; in ExecuTorch since
// 2026): a 24-byte header, the MLXGraph FlatBuffer (core/schema/mlx.fbs) and a data segment.
// Header facts from pytorch/executorch backends/mlx/serialization/mlx_graph_serialize.py at
// commit cff6f4dd32e630945b7188512c1f2b4f102b05ad: bytes 0-3 zero, bytes 4-7 "MLX0", bytes
// 8-15 the data segment's offset and 16-23 its size (uint64, little-endian); the FlatBuffer
// runs from byte 24 to the data segment's offset (padded to 16). Constants live in named data,
// keyed by MLXGraph.named_slots; tensor ids below num_constant_tensors are constants.
//
// Decoded into an inner graph of the main instruction chain: one node per instruction, named by
// its union member ("AddmmNode" → "Addmm"). Which tensors an instruction reads and writes is
// read off its table through the generated mini reflection: Tid fields named "out", "outs" or
// "outputs" are written, every other Tid (also inside VidOrTid / IntOrVidOrTid when they name a
// tensor) is read. Scalars, strings and lists become attributes.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/delegates/targetfacts.h"
#include "core/pte/verify.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"
#include "mlx_generated.h"

#include <cstring>
#include <map>
#include <set>

namespace etscope::core {
namespace fbm = etscope::fb::mlx;

namespace {

constexpr std::size_t kHeaderSize = 24;
constexpr std::size_t kMaxInstructions = 200000; ///< nodes built per graph; more is reported
constexpr std::size_t kListPreview = 16;
constexpr std::size_t kStringPreview = 80;

std::uint64_t readU64(const std::uint8_t* p)
{
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = (value << 8) | p[i];
    return value;
}

std::uint32_t structIndex(const flatbuffers::Table& table, flatbuffers::voffset_t field)
{
    // Tid and Vid are structs of one uint32 stored inline in the table (verified).
    const std::uint8_t* at = table.GetStruct<const std::uint8_t*>(field);
    std::uint32_t value = 0;
    if (at)
        std::memcpy(&value, at, sizeof value);
    return value;
}

std::string opName(std::size_t tag)
{
    const flatbuffers::TypeTable* union_ = fbm::OpNodeTypeTable();
    if (tag == 0 || tag >= union_->num_elems)
        return {};
    std::string name = union_->names[tag];
    if (name.ends_with("Node"))
        name.resize(name.size() - 4);
    return name;
}

bool isOutputField(std::string_view name)
{
    return name == "out" || name == "outs" || name == "outputs";
}

/// What one instruction names: tensors read and written, and its attributes.
struct InstructionFacts {
    std::vector<std::uint32_t> reads;
    std::vector<std::uint32_t> writes;
    std::vector<Attribute> attributes;
};

template <typename T> std::string scalarListText(const flatbuffers::Table& table, flatbuffers::voffset_t field)
{
    const auto* vector = table.GetPointer<const flatbuffers::Vector<T>*>(field);
    if (!vector)
        return "[]";
    std::string text = "[";
    for (flatbuffers::uoffset_t i = 0; i < vector->size() && i < kListPreview; ++i)
        text += (i ? ", " : "") + std::to_string(static_cast<std::int64_t>(vectorElement(*vector, i)));
    if (vector->size() > kListPreview)
        text += ", … (" + std::to_string(vector->size()) + ")";
    return text + "]";
}

/// Calls `f` with a value of the C++ integer type a FlatBuffers elementary type is stored as
/// (booleans as bytes); `otherwise` for floating-point and non-scalar types.
template <typename F> std::string withIntegerType(flatbuffers::ElementaryType type, F&& f, const char* otherwise)
{
    switch (type) {
    case flatbuffers::ET_CHAR:
        return f(std::int8_t {});
    case flatbuffers::ET_BOOL:
    case flatbuffers::ET_UCHAR:
    case flatbuffers::ET_UTYPE:
        return f(std::uint8_t {});
    case flatbuffers::ET_SHORT:
        return f(std::int16_t {});
    case flatbuffers::ET_USHORT:
        return f(std::uint16_t {});
    case flatbuffers::ET_INT:
        return f(std::int32_t {});
    case flatbuffers::ET_UINT:
        return f(std::uint32_t {});
    case flatbuffers::ET_LONG:
        return f(std::int64_t {});
    case flatbuffers::ET_ULONG:
        return f(std::uint64_t {});
    default:
        return otherwise;
    }
}

std::string scalarText(const flatbuffers::Table& table, flatbuffers::voffset_t field, flatbuffers::ElementaryType type)
{
    if (type == flatbuffers::ET_BOOL)
        return table.GetField<std::uint8_t>(field, 0) ? "true" : "false";
    if (type == flatbuffers::ET_FLOAT)
        return detail::floatText(table.GetField<float>(field, 0));
    if (type == flatbuffers::ET_DOUBLE)
        return detail::floatText(table.GetField<double>(field, 0));
    return withIntegerType(
        type, [&](auto kind) { return std::to_string(table.GetField<decltype(kind)>(field, 0)); }, "?");
}

std::string listText(const flatbuffers::Table& table, flatbuffers::voffset_t field, flatbuffers::ElementaryType type)
{
    return withIntegerType(
        type, [&](auto kind) { return scalarListText<decltype(kind)>(table, field); }, "list");
}

/// "5", "value 3" or "tensor 7" for an IntOrVid / FloatOrVid / VidOrTid / IntOrVidOrTid table;
/// a tensor it names is added to `reads`.
std::string choiceText(
    const flatbuffers::Table& t, const flatbuffers::TypeTable* type, std::vector<std::uint32_t>& reads)
{
    const flatbuffers::voffset_t f0 = flatbuffers::FieldIndexToOffset(0);
    const flatbuffers::voffset_t f1 = flatbuffers::FieldIndexToOffset(1);
    const flatbuffers::voffset_t f2 = flatbuffers::FieldIndexToOffset(2);
    const flatbuffers::voffset_t f3 = flatbuffers::FieldIndexToOffset(3);
    if (type == fbm::IntOrVidTypeTable())
        return t.GetField<std::uint8_t>(f2, 0) ? "value " + std::to_string(structIndex(t, f1))
                                               : std::to_string(t.GetField<std::int64_t>(f0, 0));
    if (type == fbm::FloatOrVidTypeTable())
        return t.GetField<std::uint8_t>(f2, 0) ? "value " + std::to_string(structIndex(t, f1))
                                               : detail::floatText(t.GetField<double>(f0, 0));
    if (type == fbm::VidOrTidTypeTable()) {
        if (t.GetField<std::uint8_t>(f2, 0))
            return "value " + std::to_string(structIndex(t, f0));
        if (!t.CheckField(f1))
            return "no tensor"; // a damaged or defaulted choice names nothing
        reads.push_back(structIndex(t, f1));
        return "tensor " + std::to_string(reads.back());
    }
    if (type == fbm::IntOrVidOrTidTypeTable()) {
        switch (t.GetField<std::uint8_t>(f3, 0)) {
        case 0:
            return std::to_string(t.GetField<std::int64_t>(f0, 0));
        case 1:
            return "value " + std::to_string(structIndex(t, f1));
        case 2:
            if (!t.CheckField(f2))
                return "no tensor";
            reads.push_back(structIndex(t, f2));
            return "tensor " + std::to_string(reads.back());
        default:
            return "kind " + std::to_string(t.GetField<std::uint8_t>(f3, 0));
        }
    }
    return "table";
}

/// Reads every field of one (verified) operator table through its mini reflection.
InstructionFacts readInstruction(const flatbuffers::Table& op, const flatbuffers::TypeTable* type)
{
    InstructionFacts facts;
    for (std::size_t i = 0; i < type->num_elems; ++i) {
        const flatbuffers::TypeCode code = type->type_codes[i];
        const auto base = static_cast<flatbuffers::ElementaryType>(code.base_type);
        const std::string name = type->names ? type->names[i] : "field " + std::to_string(i);
        const auto field = flatbuffers::FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(i));
        if (!op.CheckField(field))
            continue; // absent: the schema's default
        const bool output = isOutputField(name);
        const flatbuffers::TypeTable* ref
            = code.sequence_ref >= 0 && type->type_refs ? type->type_refs[code.sequence_ref]() : nullptr;
        std::string text;
        if (base == flatbuffers::ET_SEQUENCE && ref) {
            const bool tid = ref == fbm::TidTypeTable();
            const bool vid = ref == fbm::VidTypeTable();
            if (!code.is_repeating && (tid || vid)) {
                const std::uint32_t index = structIndex(op, field);
                text = (tid ? "tensor " : "value ") + std::to_string(index);
                if (tid)
                    (output ? facts.writes : facts.reads).push_back(index);
            } else if (code.is_repeating && (tid || vid)) {
                // A vector of 4-byte structs: elements lie inline, 4-byte aligned (verified).
                const auto* vector = op.GetPointer<const flatbuffers::Vector<std::uint32_t>*>(field);
                text = "[";
                for (flatbuffers::uoffset_t k = 0; vector && k < vector->size(); ++k) {
                    const std::uint32_t index = vectorElement(*vector, k);
                    if (tid)
                        (output ? facts.writes : facts.reads).push_back(index);
                    if (k < kListPreview)
                        text += (k ? ", " : "") + std::string(tid ? "tensor " : "value ") + std::to_string(index);
                }
                if (vector && vector->size() > kListPreview)
                    text += ", … (" + std::to_string(vector->size()) + ")";
                text += "]";
            } else if (!code.is_repeating) {
                const auto* nested = op.GetPointer<const flatbuffers::Table*>(field);
                text = nested ? choiceText(*nested, ref, facts.reads) : "none";
            } else {
                const auto* vector
                    = op.GetPointer<const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::Table>>*>(field);
                text = "[";
                for (flatbuffers::uoffset_t k = 0; vector && k < vector->size(); ++k) {
                    std::string item = choiceText(*vector->Get(k), ref, facts.reads);
                    if (k < kListPreview)
                        text += (k ? ", " : "") + item;
                }
                if (vector && vector->size() > kListPreview)
                    text += ", … (" + std::to_string(vector->size()) + ")";
                text += "]";
            }
        } else if (base == flatbuffers::ET_STRING && !code.is_repeating) {
            const auto* string = op.GetPointer<const flatbuffers::String*>(field);
            const std::string value = string ? string->str() : std::string();
            text = value.size() > kStringPreview
                ? value.substr(0, kStringPreview) + "… (" + std::to_string(value.size()) + " characters)"
                : value;
        } else if (base == flatbuffers::ET_STRING) {
            const auto* vector
                = op.GetPointer<const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>*>(field);
            text = std::to_string(vector ? vector->size() : 0) + " strings";
        } else if (code.is_repeating) {
            text = listText(op, field, base);
        } else {
            text = scalarText(op, field, base);
        }
        facts.attributes.push_back({ name, text });
    }
    return facts;
}

std::string slotTypeName(fbm::SlotType type)
{
    switch (type) {
    case fbm::SlotType::TensorSlot:
        return "tensor";
    case fbm::SlotType::IntValueSlot:
        return "int value";
    case fbm::SlotType::FloatValueSlot:
        return "float value";
    case fbm::SlotType::BoolValueSlot:
        return "bool value";
    }
    return "slot type " + std::to_string(static_cast<int>(type));
}

class MlxReader {
public:
    MlxReader(const DelegateContext& context, const fbm::MLXGraph& root)
        : m_context(context)
        , m_root(root)
    {
        m_graph->name = context.ref.backendId;
        m_graph->backendId = context.ref.backendId;
        m_graph->format = "mlx";
        if (const auto* slots = root.named_slots())
            for (const fbm::NamedSlot* slot : *slots)
                if (slot->slot()->slot_type() == fbm::SlotType::TensorSlot)
                    m_names.emplace(slot->slot()->idx(), slot->name()->str());
        if (const auto* buffers = root.mutable_buffer_map())
            for (const fbm::SlotVariant* slot : *buffers)
                if (slot->slot_type() == fbm::SlotType::TensorSlot)
                    m_mutable.insert(slot->idx());
    }

    int addInputs();
    std::size_t addChain(const fbm::InstructionChain& chain);
    int addOutputs(int inputCount);
    std::shared_ptr<Graph> graph() { return m_graph; }

private:
    void warn(std::string message) { m_graph->warnings.push_back({ std::move(message), std::nullopt }); }
    TensorMeta metaOf(std::uint32_t tid) const;
    void tensorAttributes(Node& node, std::uint32_t tid) const;
    NodeId sourceOf(std::uint32_t tid, std::size_t instruction);

    const DelegateContext& m_context;
    const fbm::MLXGraph& m_root;
    std::shared_ptr<Graph> m_graph = std::make_shared<Graph>();
    std::map<std::uint32_t, NodeId> m_producer;
    std::map<std::uint32_t, std::string> m_names; ///< named constant / mutable buffer slots
    std::set<std::uint32_t> m_mutable;
};

TensorMeta MlxReader::metaOf(std::uint32_t tid) const
{
    TensorMeta meta;
    const auto* metas = m_root.tensor_meta();
    if (!metas || tid >= metas->size())
        return meta; // temporaries carry no metadata
    const fbm::TensorMeta* t = metas->Get(tid);
    meta.dtype = scalarTypeName(t->scalar_type());
    std::vector<std::int64_t> shape;
    for (const fbm::ShapeDim* dim : *t->shape())
        shape.push_back(dim->value()); // -1: dynamic
    meta.shape = std::move(shape);
    return meta;
}

void MlxReader::tensorAttributes(Node& node, std::uint32_t tid) const
{
    node.attributes.push_back({ "tensor id", std::to_string(tid) });
    const TensorMeta meta = metaOf(tid);
    if (meta.known()) {
        node.attributes.push_back({ "dtype", meta.dtype });
        node.attributes.push_back({ "shape", formatShape(meta.shape) });
    }
    if (const auto name = m_names.find(tid); name != m_names.end()) {
        node.attributes.push_back({ "named data key", name->second });
        const auto size = m_context.namedDataSize(name->second);
        node.attributes.push_back(
            { "bytes", size ? std::to_string(*size) : std::string("not found in the program or an attached .ptd") });
    }
}

int MlxReader::addInputs()
{
    const auto* map = m_root.input_map();
    if (!map)
        return 0;
    int position = 0;
    for (const fbm::SlotVariant* slot : *map) {
        Node node;
        node.kind = NodeKind::Input;
        node.label = "input " + std::to_string(position);
        node.argPosition = position; // input_map[i] ↔ DelegateCall args[i]
        node.attributes.push_back({ "slot", slotTypeName(slot->slot_type()) + " " + std::to_string(slot->idx()) });
        const bool tensor = slot->slot_type() == fbm::SlotType::TensorSlot;
        if (tensor) {
            node.value = ValueIndex(static_cast<std::int32_t>(slot->idx()));
            tensorAttributes(node, slot->idx());
        }
        const NodeId id = m_graph->addNode(std::move(node));
        if (tensor)
            m_producer[slot->idx()] = id;
        ++position;
    }
    return position;
}

NodeId MlxReader::sourceOf(std::uint32_t tid, std::size_t instruction)
{
    if (const auto it = m_producer.find(tid); it != m_producer.end())
        return it->second;
    Node node;
    node.value = ValueIndex(static_cast<std::int32_t>(tid));
    const auto name = m_names.find(tid);
    if (tid < m_root.num_constant_tensors()) {
        node.kind = NodeKind::Constant;
        node.label = name != m_names.end() ? name->second : "const " + std::to_string(tid);
    } else if (m_mutable.contains(tid)) {
        node.kind = NodeKind::State;
        node.label = name != m_names.end() ? name->second : "buffer " + std::to_string(tid);
    } else {
        node.kind = NodeKind::View;
        node.label = "tensor " + std::to_string(tid);
        node.inferred = true;
        node.attributes.push_back(
            { "note", "read by instruction " + std::to_string(instruction) + " before any instruction writes it" });
    }
    tensorAttributes(node, tid);
    const NodeId id = m_graph->addNode(std::move(node));
    m_producer[tid] = id;
    return id;
}

std::size_t MlxReader::addChain(const fbm::InstructionChain& chain)
{
    const auto* instructions = chain.instructions();
    const std::size_t count = std::min<std::size_t>(instructions->size(), kMaxInstructions);
    if (instructions->size() > kMaxInstructions)
        warn("MLX main chain has " + std::to_string(instructions->size()) + " instructions; the first "
            + std::to_string(kMaxInstructions) + " are shown");
    for (std::size_t i = 0; i < count; ++i) {
        const fbm::Instruction* instruction = instructions->Get(static_cast<flatbuffers::uoffset_t>(i));
        const auto tag = static_cast<std::size_t>(instruction->op_type());
        Node node;
        node.kind = NodeKind::Operator;
        node.attributes.push_back({ "instruction index", std::to_string(i) });
        const std::string name = opName(tag);
        InstructionFacts facts;
        if (name.empty()) {
            // A member appended after the schema this build knows: shown, not read.
            node.kind = NodeKind::Unknown;
            node.label = "unknown MLX op " + std::to_string(tag);
            node.opType = node.label;
            warn("MLX instruction " + std::to_string(i) + " has op type " + std::to_string(tag)
                + ", which this build does not know");
        } else {
            node.label = name;
            node.opType = name;
            const flatbuffers::TypeTable* union_ = fbm::OpNodeTypeTable();
            const flatbuffers::TypeTable* type = union_->type_refs[union_->type_codes[tag].sequence_ref]();
            facts = readInstruction(*static_cast<const flatbuffers::Table*>(instruction->op()), type);
            for (const Attribute& attribute : facts.attributes)
                node.attributes.push_back(attribute);
        }
        std::vector<std::pair<NodeId, std::uint32_t>> sources;
        std::set<std::uint32_t> seen;
        for (const std::uint32_t tid : facts.reads)
            if (seen.insert(tid).second)
                sources.emplace_back(sourceOf(tid, i), tid);
        const NodeId id = m_graph->addNode(std::move(node));
        for (const auto& [from, tid] : sources)
            m_graph->addEdge({ from, id, ValueIndex(static_cast<std::int32_t>(tid)), metaOf(tid), false });
        for (const std::uint32_t tid : facts.writes)
            m_producer[tid] = id;
    }
    return count;
}

int MlxReader::addOutputs(int inputCount)
{
    const auto* map = m_root.output_map();
    if (!map)
        return 0;
    int position = 0;
    for (const fbm::SlotVariant* slot : *map) {
        Node node;
        node.kind = NodeKind::Output;
        node.label = "output " + std::to_string(position);
        node.argPosition = inputCount + position; // outputs follow the inputs in the call's args
        node.attributes.push_back({ "slot", slotTypeName(slot->slot_type()) + " " + std::to_string(slot->idx()) });
        const bool tensor = slot->slot_type() == fbm::SlotType::TensorSlot;
        if (tensor) {
            node.value = ValueIndex(static_cast<std::int32_t>(slot->idx()));
            tensorAttributes(node, slot->idx());
        }
        const NodeId id = m_graph->addNode(std::move(node));
        if (tensor) {
            const auto from = m_producer.find(slot->idx());
            if (from != m_producer.end())
                m_graph->addEdge({ from->second, id, ValueIndex(static_cast<std::int32_t>(slot->idx())),
                    metaOf(slot->idx()), false });
            else
                warn("MLX output tensor " + std::to_string(slot->idx()) + " is not written by any instruction");
        }
        ++position;
    }
    return position;
}

} // namespace

bool decodeMlx(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    const auto fail = [&](const std::string& reason, std::optional<std::uint64_t> at = 0) {
        context.warn(info, reason, at);
        return false;
    };
    if (payload.size() < kHeaderSize)
        return fail("payload of " + std::to_string(payload.size()) + " bytes is too small for an MLX header");
    if (std::memcmp(payload.data() + 4, "MLX0", 4) != 0)
        return fail("not an MLX payload: magic " + magicText(payload.subspan(4, 4)) + " at byte 4 (expected MLX0)", 4);
    const std::uint64_t segmentOffset = readU64(payload.data() + 8);
    const std::uint64_t segmentSize = readU64(payload.data() + 16);
    info.facts.push_back({ "header", "MLX0, 24 bytes" });
    info.facts.push_back(
        { "data segment", std::to_string(segmentSize) + " bytes at offset " + std::to_string(segmentOffset) });
    std::span<const std::uint8_t> flatbuffer;
    if (segmentOffset < kHeaderSize || !detail::rangeInside(payload.size(), segmentOffset, segmentSize)) {
        // The graph is still read from byte 24 to the end: the header only locates its end.
        context.warn(info,
            "the MLX header's data segment (" + std::to_string(segmentSize) + " bytes at offset "
                + std::to_string(segmentOffset) + ") lies outside the " + std::to_string(payload.size())
                + "-byte payload; the graph is read up to the payload's end",
            8);
        flatbuffer = payload.subspan(kHeaderSize);
    } else {
        flatbuffer = payload.subspan(kHeaderSize, static_cast<std::size_t>(segmentOffset) - kHeaderSize);
    }
    info.facts.push_back({ "graph FlatBuffer", std::to_string(flatbuffer.size()) + " bytes at offset 24" });
    if (!verifyFlatbuffer<fbm::MLXGraph>(flatbuffer.data(), flatbuffer.size(), nullptr, false))
        return fail("the FlatBuffers verifier rejected the MLX graph", kHeaderSize);
    const fbm::MLXGraph* root = fbm::GetMLXGraph(flatbuffer.data());

    info.format = "mlx";
    addTarget(info, "mlx.header", "MLX header", "MLX0", std::nullopt, "payload bytes 4-7");
    if (root->version()) {
        info.facts.push_back({ "graph version", root->version()->str() });
        addTarget(
            info, "mlx.graph_version", "MLX graph version", root->version()->str(), std::nullopt, "MLXGraph.version");
    }
    info.facts.push_back({ "tensors",
        std::to_string(root->num_constant_tensors()) + " constant, " + std::to_string(root->num_input_tensors())
            + " input, " + std::to_string(root->num_output_tensors()) + " output, "
            + std::to_string(root->num_mutable_buffer_tensors()) + " mutable buffer, "
            + std::to_string(root->num_temp_tensors()) + " temporary" });
    info.facts.push_back({ "scalar values", std::to_string(root->num_values()) });
    const auto* chains = root->instruction_chains();
    std::string chainText;
    for (flatbuffers::uoffset_t c = 0; c < chains->size() && c < kListPreview; ++c)
        chainText += (c ? ", " : "") + std::to_string(chains->Get(c)->instructions()->size());
    info.facts.push_back({ "instruction chains",
        std::to_string(chains->size()) + (chainText.empty() ? "" : " (instructions: " + chainText + ")") });
    info.facts.push_back({ "main chain", std::to_string(root->main_chain_idx()) });
    info.facts.push_back(
        { "init chain", root->init_chain_idx() < 0 ? std::string("none") : std::to_string(root->init_chain_idx()) });
    if (const auto* slots = root->named_slots())
        info.facts.push_back({ "named slots", std::to_string(slots->size()) });

    if (root->main_chain_idx() >= chains->size())
        return fail("the MLX main chain index " + std::to_string(root->main_chain_idx()) + " names none of the "
                + std::to_string(chains->size()) + " instruction chains",
            kHeaderSize);
    MlxReader reader(context, *root);
    const int inputCount = reader.addInputs();
    const std::size_t instructions = reader.addChain(*chains->Get(root->main_chain_idx()));
    const int outputCount = reader.addOutputs(inputCount);
    context.adoptInnerGraph(
        info, reader.graph(), "MLX graph", instructions, "instruction", "instructions", inputCount, outputCount);
    return true;
}

} // namespace etscope::core
