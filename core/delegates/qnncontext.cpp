// SPDX-License-Identifier: MIT
// The Qualcomm QNN (HTP) context binary inside a QnnBackend payload. Qualcomm does not publish
// its layout; what is read here was found in the bytes of the public sample
// stories260k_hybrid_llama_qnn.pte (pytorch/executorch, examples/qualcomm/oss_scripts/llama/
// artifacts, snapshot cff6f4dd32e6, built with QNN v2.37.0) and holds on every table of both its
// graphs; core/schema/qnncontext.fbs describes the two FlatBuffers. Offsets below are within the
// context binary (the payload's bytes after its 256-byte ExecuTorch header):
//   0   four big-endian uint32 2, 3, 0, 1
//   16  uint64 metadata size (8232), 24 uint64 backend section offset (12288),
//   32  uint64 backend section size (1318912, ending the binary)
//   40  the metadata FlatBuffer: root → record (version 3, union tag 3) → context info (backend id 6 =
//       HTP, build id, API versions in QnnSystemContext_BinaryInfo's order, graphs, context blob
//       size = the section size, SoC 57) → per graph a record (3/3) → two wrapping tables →
//       name, input and output counts and tensors (id, Qnn_TensorType_t, Qnn_DataType_t, rank,
//       dimensions, name)
//   12288 the backend section: uint64 3, 3, 3, the size of its FlatBuffer (0x26000), the
//       length (8) of the field that follows; that field; at 12336 the HTP FlatBuffer, whose root
//       slot 3 lists the graphs (union tag 1) → op nodes (id, name), inputs and outputs (id,
//       producer node id, data type, name, rank, dimensions) and the graph's name.
// The HTP graph also lists the graph's inputs and outputs (checked against the metadata) and,
// per output, the id of the op node producing it: the only data flow stored. Op nodes store no
// operator type (no "Conv2d", no package name: the section holds the compiled HTP kernels
// instead) and no tensor names, so no other edge is drawn.
//
// Why one file: one Reader whose structs mirror the layout above, and the names of data types,
// tensor types and operator families that only the graph built from it uses; no other decoder
// includes qnncontext.fbs's generated types.
#include "core/delegates/qnncontext.h"

#include "core/delegates/decoderutil.h"
#include "core/delegates/targetfacts.h"
#include "core/pte/verify.h"
#include "core/util/text.h"
#include "qnncontext_generated.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>

namespace etscope::core {
namespace fbc = etscope::fb::qnnctx;

namespace qnnctx {
namespace {

std::uint32_t readBe32(const std::uint8_t* p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

/// A FlatBuffer copied out of the payload so that its scalars are read from aligned memory
/// whatever the payload's own alignment.
struct Region {
    std::vector<std::uint8_t> bytes;
    std::uint64_t offset = 0; ///< of bytes[0] within the context binary

    std::uint64_t offsetOf(const void* p) const
    {
        return offset + static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(p) - bytes.data());
    }
};

std::string versionText(const fbc::CtxVersion* v)
{
    if (!v)
        return {};
    return std::to_string(v->major()) + "." + std::to_string(v->minor()) + "." + std::to_string(v->patch());
}

std::string str(const flatbuffers::String* s)
{
    return s ? s->str() : std::string();
}

class Reader {
public:
    explicit Reader(Context& context)
        : m_c(context)
    {
    }

    void problem(std::string message, std::uint64_t offset) { m_c.problems.push_back({ std::move(message), offset }); }

    void tensors(const Region& region, const flatbuffers::Vector<flatbuffers::Offset<fbc::CtxTensor>>* list,
        std::vector<Tensor>& out, const std::string& graph, const char* side)
    {
        if (!list)
            return;
        for (flatbuffers::uoffset_t i = 0; i < list->size(); ++i) {
            if (out.size() >= kMaxTensors) {
                problem("graph '" + graph + "' lists more than " + std::to_string(kMaxTensors) + " " + side
                        + " tensors; the rest are not read",
                    region.offsetOf(list));
                return;
            }
            const fbc::CtxTensor* t = list->Get(i);
            Tensor tensor;
            tensor.offset = region.offsetOf(t);
            tensor.name = str(t->name());
            tensor.id = t->id();
            tensor.tensorType = t->tensor_type();
            tensor.dataType = t->data_type();
            if (t->dimensions()) {
                tensor.hasDims = true;
                tensor.dims = vectorValues<std::int64_t>(t->dimensions());
                if (tensor.dims.size() != t->rank())
                    problem("graph '" + graph + "' " + side + " tensor '" + tensor.name + "' has rank "
                            + std::to_string(t->rank()) + " but " + std::to_string(tensor.dims.size()) + " dimensions",
                        tensor.offset);
            }
            out.push_back(std::move(tensor));
        }
    }

    void sectionTensors(const Region& region,
        const flatbuffers::Vector<flatbuffers::Offset<fbc::HtpTensorRecord>>* list, std::vector<SectionTensor>& out,
        const std::string& graph, const char* side)
    {
        if (!list)
            return;
        for (flatbuffers::uoffset_t i = 0; i < list->size() && out.size() < kMaxTensors; ++i) {
            const fbc::HtpTensorRecord* record = list->Get(i);
            const fbc::HtpTensor* t = record->tensor_as_HtpTensorV1();
            if (!t) {
                problem("backend section graph '" + graph + "' " + side + " " + std::to_string(i) + " has union tag "
                        + std::to_string(static_cast<int>(record->tensor_type())) + "; only tag 1 is known",
                    region.offsetOf(record));
                continue;
            }
            SectionTensor entry;
            entry.tensor.offset = region.offsetOf(t);
            entry.tensor.name = str(t->name());
            entry.tensor.id = t->id();
            entry.tensor.dataType = t->data_type();
            entry.tensor.hasDims = t->dimensions() != nullptr;
            entry.tensor.dims = vectorValues<std::int64_t>(t->dimensions());
            entry.producer = t->producer();
            out.push_back(std::move(entry));
        }
    }

    void metadata(std::span<const std::uint8_t> binary)
    {
        const std::uint64_t size = binary.size();
        if (!detail::rangeInside(size, kHeaderSize, m_c.metadataSize)) {
            problem("the header's metadata size (" + std::to_string(m_c.metadataSize)
                    + " bytes at offset 40) runs past the end of the " + std::to_string(size) + "-byte binary",
                16);
            return;
        }
        Region region;
        region.offset = kHeaderSize;
        region.bytes.assign(
            binary.begin() + kHeaderSize, binary.begin() + static_cast<std::ptrdiff_t>(kHeaderSize + m_c.metadataSize));
        if (!verifyFlatbuffer<fbc::CtxRoot>(region.bytes.data(), region.bytes.size(), nullptr, false)) {
            problem("the FlatBuffers verifier rejected the metadata at offset 40 (" + std::to_string(m_c.metadataSize)
                    + " bytes) in the layout ETScope knows",
                kHeaderSize);
            return;
        }
        const auto* root = flatbuffers::GetRoot<fbc::CtxRoot>(region.bytes.data());
        const fbc::CtxRecord* record = root->record();
        if (!record) {
            problem("the metadata's root holds no record", region.offsetOf(root));
            return;
        }
        m_c.recordVersion = record->version();
        const fbc::CtxInfo* info = record->info_as_CtxInfoV3();
        if (!info) {
            problem("the metadata record has version " + std::to_string(record->version()) + " and union tag "
                    + std::to_string(static_cast<int>(record->info_type())) + "; only the layout under tag 3 is known",
                region.offsetOf(record));
            return;
        }
        m_c.metadataRead = true;
        m_c.backendId = info->backend_id();
        m_c.buildId = str(info->build_id());
        m_c.coreApiVersion = versionText(info->core_api_version());
        m_c.backendApiVersion = versionText(info->backend_api_version());
        if (flatbuffers::IsFieldPresent(info, fbc::CtxInfo::VT_CONTEXT_BLOB_SIZE))
            m_c.contextBlobSize = info->context_blob_size();
        if (flatbuffers::IsFieldPresent(info, fbc::CtxInfo::VT_SOC_MODEL))
            m_c.socModel = info->soc_model();
        const auto* graphs = info->graphs();
        if (!graphs)
            return;
        for (flatbuffers::uoffset_t g = 0; g < graphs->size(); ++g) {
            const fbc::CtxGraphRecord* graphRecord = graphs->Get(g);
            if (m_c.graphs.size() >= kMaxGraphs) {
                problem("the metadata lists more than " + std::to_string(kMaxGraphs) + " graphs; the rest are not read",
                    region.offsetOf(graphs));
                return;
            }
            const fbc::CtxGraphBody* body = graphRecord->graph_as_CtxGraphV3();
            const fbc::CtxGraphIo* io = body && body->inner() ? body->inner()->io() : nullptr;
            if (!io) {
                problem("metadata graph " + std::to_string(g) + " (record version "
                        + std::to_string(graphRecord->version()) + ", union tag "
                        + std::to_string(static_cast<int>(graphRecord->graph_type()))
                        + ") does not hold its tensors where the known layout has them",
                    region.offsetOf(graphRecord));
                continue;
            }
            GraphIo graph;
            graph.offset = region.offsetOf(io);
            graph.name = str(io->name());
            graph.declaredInputs = io->input_count();
            graph.declaredOutputs = io->output_count();
            tensors(region, io->inputs(), graph.inputs, graph.name, "input");
            tensors(region, io->outputs(), graph.outputs, graph.name, "output");
            if (graph.inputs.size() != graph.declaredInputs || graph.outputs.size() != graph.declaredOutputs)
                problem("metadata graph '" + graph.name + "' declares " + std::to_string(graph.declaredInputs)
                        + " inputs and " + std::to_string(graph.declaredOutputs) + " outputs but lists "
                        + std::to_string(graph.inputs.size()) + " and " + std::to_string(graph.outputs.size()),
                    graph.offset);
            m_c.graphs.push_back(std::move(graph));
        }
    }

    void section(std::span<const std::uint8_t> binary)
    {
        const std::uint64_t size = binary.size();
        const std::uint64_t at = m_c.sectionOffset;
        if (!detail::rangeInside(size, at, m_c.sectionSize)) {
            problem("the header's backend section (" + std::to_string(m_c.sectionSize) + " bytes at offset "
                    + std::to_string(at) + ") runs past the end of the " + std::to_string(size) + "-byte binary",
                24);
            return;
        }
        if (at < kHeaderSize + m_c.metadataSize) {
            problem("the header's backend section at offset " + std::to_string(at) + " overlaps the metadata", 24);
            return;
        }
        if (m_c.sectionSize < kHeaderSize) {
            problem(
                "the backend section is " + std::to_string(m_c.sectionSize) + " bytes, shorter than its 40-byte header",
                at);
            return;
        }
        const std::uint8_t* s = binary.data() + at;
        const std::uint64_t fbSize = readLe64(s + 24);
        const std::uint64_t skip = readLe64(s + 32);
        if (!detail::rangeInside(m_c.sectionSize, kHeaderSize, skip)
            || !detail::rangeInside(m_c.sectionSize, kHeaderSize + skip, fbSize)) {
            problem("the backend section's FlatBuffer (" + std::to_string(fbSize) + " bytes after a "
                    + std::to_string(skip) + "-byte field) runs past the end of the section",
                at + 24);
            return;
        }
        Region region;
        region.offset = at + kHeaderSize + skip;
        m_c.sectionFlatbufferOffset = region.offset;
        region.bytes.assign(s + kHeaderSize + skip, s + kHeaderSize + skip + fbSize);
        if (!verifyFlatbuffer<fbc::HtpRoot>(region.bytes.data(), region.bytes.size(), nullptr, false)) {
            problem("the FlatBuffers verifier rejected the backend section's FlatBuffer at offset "
                    + std::to_string(region.offset) + " (" + std::to_string(fbSize)
                    + " bytes) in the layout ETScope knows",
                region.offset);
            return;
        }
        m_c.sectionRead = true;
        const auto* root = flatbuffers::GetRoot<fbc::HtpRoot>(region.bytes.data());
        const auto* graphs = root->graphs();
        if (!graphs)
            return;
        std::size_t nodeTotal = 0;
        for (flatbuffers::uoffset_t g = 0; g < graphs->size() && m_c.opGraphs.size() < kMaxGraphs; ++g) {
            const fbc::HtpGraphRecord* graphRecord = graphs->Get(g);
            const fbc::HtpGraph* graph = graphRecord->graph_as_HtpGraphV1();
            if (!graph) {
                problem("backend section graph " + std::to_string(g) + " has union tag "
                        + std::to_string(static_cast<int>(graphRecord->graph_type())) + "; only tag 1 is known",
                    region.offsetOf(graphRecord));
                continue;
            }
            OpGraph op;
            op.offset = region.offsetOf(graph);
            op.name = str(graph->name());
            if (const auto* nodes = graph->nodes()) {
                for (flatbuffers::uoffset_t n = 0; n < nodes->size(); ++n) {
                    if (nodeTotal >= kMaxNodes) {
                        problem("the backend section holds more than " + std::to_string(kMaxNodes)
                                + " op nodes; the rest are not read",
                            region.offsetOf(nodes));
                        break;
                    }
                    const fbc::HtpNode* node = nodes->Get(n);
                    op.nodes.push_back({ node->id(), str(node->name()), region.offsetOf(node) });
                    ++nodeTotal;
                }
            }
            sectionTensors(region, graph->inputs(), op.inputs, op.name, "input");
            sectionTensors(region, graph->outputs(), op.outputs, op.name, "output");
            m_c.opGraphs.push_back(std::move(op));
        }
    }

private:
    Context& m_c;
};

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "input_12_args_9@0" → 12; nullopt without an "input_N_" prefix.
std::optional<int> inputNumber(const std::string& name)
{
    if (!name.starts_with("input_"))
        return std::nullopt;
    std::size_t end = 6;
    while (end < name.size() && end < 15 && name[end] >= '0' && name[end] <= '9')
        ++end;
    if (end == 6 || end >= name.size() || name[end] != '_')
        return std::nullopt;
    return std::stoi(name.substr(6, end - 6));
}

} // namespace

namespace {

bool keyChar(std::uint8_t c, bool first)
{
    return (c >= 'a' && c <= 'z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/// The HTP configuration string of the backend section. Each graph's compiled blob after the
/// section's FlatBuffer carries one: printable "key=value;" entries (the sample's first at
/// binary offset 168172, 7970 bytes: "…;min_arch=75;…;vtcm_size=8388608;…;soc_type=SM8650;…").
/// Many keys are written as two characters [0-9A-Z] standing for a prefix shared with an
/// earlier key ("0Cnum_hmx=4"); their whole name is not known, so only the entries whose key
/// is spelled out (lower case, digits, '_') after a ';' are kept. Found by its "min_arch="
/// entry; a section without one has no string ETScope reads.
void readConfig(std::span<const std::uint8_t> binary, Context& c)
{
    if (!detail::rangeInside(binary.size(), c.sectionOffset, c.sectionSize))
        return;
    const std::uint64_t from = c.sectionRead ? c.sectionFlatbufferOffset : c.sectionOffset;
    const std::uint64_t to = c.sectionOffset + c.sectionSize;
    if (from >= to)
        return;
    static constexpr std::string_view kAnchor = ";min_arch=";
    const auto* begin = binary.data() + from;
    const auto* end = binary.data() + to;
    const auto* hit = std::search(begin, end, kAnchor.begin(), kAnchor.end());
    if (hit == end)
        return;
    constexpr std::uint64_t kMaxRun = 1 << 16;
    const auto printable = [](std::uint8_t b) { return b >= 0x20 && b <= 0x7e; };
    const auto* runBegin = hit;
    while (runBegin > begin && printable(runBegin[-1]) && static_cast<std::uint64_t>(hit - runBegin) < kMaxRun)
        --runBegin;
    const auto* runEnd = hit;
    while (runEnd < end && printable(*runEnd) && static_cast<std::uint64_t>(runEnd - hit) < kMaxRun)
        ++runEnd;
    for (const auto* p = runBegin; p < runEnd && c.config.size() < kMaxConfigEntries;) {
        const auto* entryEnd = std::find(p, runEnd, ';');
        // Only an entry after a ';' is known to start where it seems to.
        if (p > runBegin && p[-1] == ';' && keyChar(*p, true)) {
            const auto* q = p;
            while (q < entryEnd && keyChar(*q, false))
                ++q;
            if (q < entryEnd && *q == '=') {
                std::string key(p, q);
                const bool seen = std::any_of(
                    c.config.begin(), c.config.end(), [&](const Context::ConfigEntry& e) { return e.key == key; });
                if (!seen)
                    c.config.push_back({ std::move(key), std::string(q + 1, entryEnd),
                        static_cast<std::uint64_t>(q + 1 - binary.data()) });
            }
        }
        p = entryEnd + 1;
    }
}

} // namespace

Context read(std::span<const std::uint8_t> binary)
{
    Context c;
    Reader reader(c);
    if (binary.size() < kHeaderSize) {
        reader.problem("the context binary is " + std::to_string(binary.size()) + " bytes, shorter than its "
                + std::to_string(kHeaderSize) + "-byte header",
            0);
        return c;
    }
    for (std::size_t i = 0; i < 4; ++i)
        c.words[i] = readBe32(binary.data() + 4 * i);
    c.metadataSize = readLe64(binary.data() + 16);
    c.sectionOffset = readLe64(binary.data() + 24);
    c.sectionSize = readLe64(binary.data() + 32);
    c.headerRead = true;
    // Other header words (another SDK version) are shown, not warned about: whether the rest
    // reads is what tells.
    reader.metadata(binary);
    reader.section(binary);
    readConfig(binary, c);
    if (c.contextBlobSize && *c.contextBlobSize != c.sectionSize)
        reader.problem("the metadata gives the context blob " + std::to_string(*c.contextBlobSize)
                + " bytes, the header's backend section " + std::to_string(c.sectionSize),
            32);
    return c;
}

std::string dataTypeName(std::uint32_t dataType)
{
    // Qnn_DataType_t (QnnTypes.h): the high byte is the kind, the low byte the bit width in
    // decimal digits.
    switch (dataType) {
    case 0x0008:
        return "INT_8";
    case 0x0016:
        return "INT_16";
    case 0x0032:
        return "INT_32";
    case 0x0064:
        return "INT_64";
    case 0x0108:
        return "UINT_8";
    case 0x0116:
        return "UINT_16";
    case 0x0132:
        return "UINT_32";
    case 0x0164:
        return "UINT_64";
    case 0x0216:
        return "FLOAT_16";
    case 0x0232:
        return "FLOAT_32";
    case 0x0264:
        return "FLOAT_64";
    case 0x0304:
        return "SFIXED_POINT_4";
    case 0x0308:
        return "SFIXED_POINT_8";
    case 0x0316:
        return "SFIXED_POINT_16";
    case 0x0332:
        return "SFIXED_POINT_32";
    case 0x0404:
        return "UFIXED_POINT_4";
    case 0x0408:
        return "UFIXED_POINT_8";
    case 0x0416:
        return "UFIXED_POINT_16";
    case 0x0432:
        return "UFIXED_POINT_32";
    case 0x0508:
        return "BOOL_8";
    case 0x0608:
        return "STRING";
    case 0x7FFFFFFF:
        return "UNDEFINED";
    default:
        break;
    }
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "0x%04x", dataType);
    return buffer;
}

std::string tensorTypeName(std::uint32_t tensorType)
{
    // Qnn_TensorType_t (QnnTypes.h).
    switch (tensorType) {
    case 0:
        return "APP_WRITE";
    case 1:
        return "APP_READ";
    case 2:
        return "APP_READWRITE";
    case 3:
        return "NATIVE";
    case 4:
        return "STATIC";
    case 5:
        return "NULL";
    default:
        return std::to_string(tensorType);
    }
}

std::string operatorFamily(std::string_view nodeName)
{
    std::vector<std::string_view> tokens;
    tokens.reserve(16);
    std::size_t start = 0;
    while (true) {
        const std::size_t end = nodeName.find('_', start);
        tokens.push_back(nodeName.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    // Drop the FX counter and the split-head suffixes (_h_N, _sha_concat) from the end.
    while (tokens.size() > 1) {
        const std::string_view last = tokens.back();
        if (allDigits(last) || last == "h" || last == "sha" || last == "concat")
            tokens.pop_back();
        else
            break;
    }
    // Appends tokens [from, to) joined by '_' (called once per op node: no temporaries).
    const auto join = [&](std::string& out, std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            if (i != from)
                out += '_';
            out.append(tokens[i]);
        }
    };
    // Operator namespaces as torch.fx spells them in node names.
    static const std::vector<std::vector<std::string_view>> kNamespaces
        = { { "aten" }, { "quantized", "decomposed" }, { "dim", "order", "ops" }, { "llama" }, { "torchao" } };
    std::size_t nsLength = 0;
    for (const auto& ns : kNamespaces)
        if (tokens.size() > ns.size() && std::equal(ns.begin(), ns.end(), tokens.begin()))
            nsLength = ns.size();
    std::string out;
    out.reserve(nodeName.size() + 2);
    if (nsLength == 0)
        return out; // no operator in the name: the type is not known
    // FX lower-cases the overload ("add.Tensor" → "add_tensor"): restore the usual ones.
    static const std::map<std::string_view, std::string_view> kOverloads
        = { { "default", "default" }, { "tensor", "Tensor" }, { "scalar", "Scalar" }, { "int", "int" },
              { "dim", "dim" }, { "dims", "dims" }, { "self", "self" }, { "out", "out" } };
    join(out, 0, nsLength);
    out += '.';
    const auto overload = kOverloads.find(tokens.back());
    if (overload != kOverloads.end() && tokens.size() > nsLength + 1) {
        join(out, nsLength, tokens.size() - 1);
        out += '.';
        out.append(overload->second);
        return out;
    }
    join(out, nsLength, tokens.size());
    return out;
}

std::vector<int> inputArgPositions(const std::vector<Tensor>& inputs)
{
    std::vector<int> positions(inputs.size(), -1);
    std::vector<std::pair<int, std::size_t>> numbered;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto number = inputNumber(inputs[i].name);
        if (!number)
            return positions;
        if (inputs[i].name.find("mutbuf_") == std::string::npos)
            numbered.emplace_back(*number, i);
    }
    std::stable_sort(numbered.begin(), numbered.end());
    for (std::size_t k = 0; k < numbered.size(); ++k)
        positions[numbered[k].second] = static_cast<int>(k);
    return positions;
}

std::vector<int> outputArgPositions(const std::vector<Tensor>& outputs, int firstPosition)
{
    std::vector<int> positions(outputs.size(), -1);
    int next = firstPosition;
    for (std::size_t i = 0; i < outputs.size(); ++i)
        if (outputs[i].name.starts_with("output_") && outputs[i].name.find("mutbuf_") == std::string::npos)
            positions[i] = next++;
    return positions;
}

} // namespace qnnctx

namespace {

using namespace qnnctx;

/// The operator-table key of an op node whose name holds no operator ("args_0_h_3").
constexpr const char* kTypeNotStored = "(op type not stored)";

/// The graph input an op node is named after: "args_0_h_3" → input "input_2_args_0@0", the
/// split-head pass's name for head 3 of that input; null when none matches.
const Tensor* splitInput(const std::vector<Tensor>& inputs, std::string_view nodeName)
{
    const std::size_t head = nodeName.rfind("_h_");
    if (head == std::string_view::npos || head == 0)
        return nullptr;
    const std::string_view stem = nodeName.substr(0, head);
    for (const Tensor& t : inputs) {
        std::string_view name = t.name;
        name = name.substr(0, name.find('@'));
        if (name.starts_with("input_")) {
            name.remove_prefix(6);
            name.remove_prefix(std::min(name.size(), name.find('_') + 1)); // the N of input_N_
        }
        if (name == stem)
            return &t;
    }
    return nullptr;
}

std::string shapeText(const Tensor& t)
{
    if (!t.hasDims)
        return "(not stored)";
    return formatShape(t.dims);
}

void tensorAttributes(Node& node, const Tensor& t, std::uint64_t binaryOffset)
{
    node.attributes.push_back({ "tensor", t.name });
    node.attributes.push_back({ "qnn tensor id", std::to_string(t.id) });
    node.attributes.push_back({ "dtype", dataTypeName(t.dataType) });
    node.attributes.push_back({ "shape", shapeText(t) });
    node.attributes.push_back({ "tensor type", tensorTypeName(t.tensorType) });
    node.attributes.push_back({ "read from",
        "the QNN context binary (metadata, payload offset " + std::to_string(binaryOffset + t.offset) + ")" });
}

/// "2.37.0" from a QNN build id "v2.37.0.250724175447_124859"; empty when it is not of that form.
std::string sdkVersion(const std::string& buildId)
{
    if (!buildId.starts_with('v'))
        return {};
    std::size_t dots = 0;
    std::size_t end = 1;
    for (; end < buildId.size(); ++end) {
        const char ch = buildId[end];
        if (ch == '.' && ++dots == 3)
            break;
        if (ch != '.' && (ch < '0' || ch > '9'))
            return {};
    }
    return dots >= 2 ? buildId.substr(1, end - 1) : std::string();
}

/// What the context binary says of its target: the SDK that built it, the SoC of its metadata
/// and the HTP configuration string's SoC, architecture floor, VTCM and thread counts.
void addContextTargets(
    const DelegateContext& context, DelegateInfo& info, const Context& ctx, std::uint64_t binaryOffset)
{
    const std::uint64_t fileBase = context.ref.payload.offset + binaryOffset;
    const std::string metadata = "context binary metadata";
    if (ctx.metadataRead) {
        if (!ctx.buildId.empty()) {
            addTarget(info, "qnn.sdk_build_id", "QNN SDK build id", ctx.buildId, std::nullopt, metadata);
            if (const std::string version = sdkVersion(ctx.buildId); !version.empty())
                addTarget(info, "qnn.sdk_version", "QNN SDK version", version, std::nullopt, metadata);
        }
        if (ctx.socModel)
            addTarget(info, "qnn.context_soc_model", "SoC model (context binary)",
                qnnChipsetName(*ctx.socModel) + " (" + std::to_string(*ctx.socModel) + ")", *ctx.socModel, metadata);
    }
    struct Wanted {
        const char* key;
        const char* target;
        const char* name;
        bool numeric;
    };
    static constexpr Wanted kWanted[] = {
        { "soc_type", "qnn.soc_type", "SoC type (HTP configuration)", false },
        { "min_arch", "qnn.min_arch", "minimum HTP architecture", true },
        { "vtcm_size", "qnn.vtcm_bytes", "VTCM size", true },
        { "vtcm_mb", "qnn.config_vtcm_mb", "vtcm_mb (HTP configuration)", true },
        { "num_nsps", "qnn.num_nsps", "NSP cores", true },
        { "hvx_threads", "qnn.hvx_threads", "HVX threads", true },
        { "hmx_type", "qnn.hmx_type", "HMX type", false },
    };
    for (const Wanted& wanted : kWanted) {
        const auto it = std::find_if(
            ctx.config.begin(), ctx.config.end(), [&](const Context::ConfigEntry& e) { return e.key == wanted.key; });
        if (it == ctx.config.end())
            continue;
        const std::string source = "HTP configuration string, " + std::string(wanted.key) + " at file offset "
            + std::to_string(fileBase + it->offset);
        if (!wanted.numeric) {
            addTarget(info, wanted.target, wanted.name, it->value, std::nullopt, source);
            continue;
        }
        std::int64_t number = 0;
        const auto [end, error] = std::from_chars(it->value.data(), it->value.data() + it->value.size(), number);
        if (error != std::errc() || end != it->value.data() + it->value.size()) {
            context.warn(info,
                "QNN context binary: the HTP configuration's " + std::string(wanted.key) + " '" + it->value
                    + "' is not a number",
                binaryOffset + it->offset);
            continue;
        }
        std::string shown = std::to_string(number);
        if (std::string_view(wanted.key) == "min_arch")
            shown = htpArchText(number) + " (" + shown + ")";
        else if (std::string_view(wanted.key) == "vtcm_size")
            shown
                = formatBytes(static_cast<std::uint64_t>(std::max<std::int64_t>(number, 0))) + " (" + shown + " bytes)";
        addTarget(info, wanted.target, wanted.name, shown, number, source);
    }
}

} // namespace

void decodeQnnContext(
    const DelegateContext& context, DelegateInfo& info, std::uint64_t binaryOffset, const std::string& method)
{
    if (binaryOffset >= context.payload.size()) {
        info.facts.push_back({ "context binary", "empty" });
        return;
    }
    const auto binary = context.payload.subspan(static_cast<std::size_t>(binaryOffset));
    // The hybrid LLMs' prefill and decode delegates share one payload segment: read and verify
    // its two FlatBuffers once per opened program.
    std::shared_ptr<const Context> shared;
    if (context.cache)
        shared = context.cache->get<Context>("qnn context binary", binary, [&] { return read(binary); });
    else
        shared = std::make_shared<const Context>(read(binary));
    const Context& ctx = *shared;
    for (const Problem& p : ctx.problems)
        context.warn(info, "QNN context binary: " + p.message, binaryOffset + p.offset);
    if (!ctx.headerRead)
        return;

    info.facts.push_back({ "context binary header",
        "words " + std::to_string(ctx.words[0]) + "." + std::to_string(ctx.words[1]) + "."
            + std::to_string(ctx.words[2]) + "." + std::to_string(ctx.words[3])
            + (ctx.words == kKnownWords ? "" : " (the sample's: 2.3.0.1)") + "; metadata "
            + std::to_string(ctx.metadataSize) + " bytes at 40; backend section " + std::to_string(ctx.sectionSize)
            + " bytes at " + std::to_string(ctx.sectionOffset) });
    if (ctx.metadataRead) {
        info.facts.push_back({ "QNN build id", ctx.buildId.empty() ? "(none)" : ctx.buildId });
        if (ctx.backendId)
            info.facts.push_back(
                { "QNN backend id", std::to_string(*ctx.backendId) + (*ctx.backendId == 6 ? " (HTP)" : "") });
        if (!ctx.coreApiVersion.empty())
            info.facts.push_back({ "QNN core API version", ctx.coreApiVersion });
        if (!ctx.backendApiVersion.empty())
            info.facts.push_back({ "QNN backend API version", ctx.backendApiVersion });
        if (ctx.socModel)
            info.facts.push_back({ "context soc model", std::to_string(*ctx.socModel) });
    }
    addContextTargets(context, info, ctx, binaryOffset);

    // Graphs of the context: tensors from the metadata, op nodes from the backend section.
    const auto opGraphOf = [&](const std::string& name) -> const OpGraph* {
        for (const OpGraph& g : ctx.opGraphs)
            if (g.name == name)
                return &g;
        return nullptr;
    };
    std::string list;
    for (const GraphIo& g : ctx.graphs) {
        const OpGraph* op = opGraphOf(g.name);
        list += (list.empty() ? "" : "; ") + g.name + " (" + detail::plural(g.inputs.size(), "input", "inputs") + ", "
            + detail::plural(g.outputs.size(), "output", "outputs") + ", "
            + (op ? detail::plural(op->nodes.size(), "op node", "op nodes") : std::string("op nodes not read")) + ")";
    }
    for (const OpGraph& op : ctx.opGraphs) {
        bool listed = false;
        for (const GraphIo& g : ctx.graphs)
            listed = listed || g.name == op.name;
        if (!listed)
            list += (list.empty() ? "" : "; ") + op.name + " (tensors not read, "
                + detail::plural(op.nodes.size(), "op node", "op nodes") + ")";
    }
    const std::size_t graphCount = std::max(ctx.graphs.size(), ctx.opGraphs.size());
    info.facts.push_back({ "context graphs", std::to_string(graphCount) + (list.empty() ? "" : ": " + list) });
    if (ctx.graphs.empty())
        return;

    // The delegate runs the graph named after its method (QnnExecuTorchBackend::execute passes
    // the method name to QnnManager::Execute).
    const GraphIo* chosen = nullptr;
    std::string why;
    for (const GraphIo& g : ctx.graphs)
        if (!method.empty() && g.name == method)
            chosen = &g;
    if (chosen) {
        why = "named after the method";
    } else {
        chosen = &ctx.graphs.front();
        why = ctx.graphs.size() == 1 ? "the context's only graph"
                                     : "the first of " + std::to_string(ctx.graphs.size()) + "; none is named after "
                + (method.empty() ? std::string("the method (unknown)") : "method '" + method + "'");
    }
    const OpGraph* ops = opGraphOf(chosen->name);

    // Deferred (DelegateContext::deferInnerGraph): the same walk without making the nodes; the
    // facts and counts below need only the names, ids and positions.
    std::shared_ptr<Graph> graph;
    if (!context.deferInnerGraph) {
        graph = std::make_shared<Graph>();
        graph->name = context.ref.backendId + ": " + chosen->name;
        graph->backendId = context.ref.backendId;
        graph->format = "qnn";
    }
    std::int32_t nextNode = 0; ///< the id addNode gives the next node

    const std::vector<int> inPositions = inputArgPositions(chosen->inputs);
    int argInputs = 0;
    for (std::size_t i = 0; i < chosen->inputs.size(); ++i) {
        argInputs += inPositions[i] >= 0 ? 1 : 0;
        ++nextNode;
        if (!graph)
            continue;
        const Tensor& t = chosen->inputs[i];
        Node node;
        node.kind = NodeKind::Input;
        node.label = t.name;
        node.value = ValueIndex(static_cast<std::int32_t>(t.id & 0x7fffffffu));
        node.argPosition = inPositions[i];
        tensorAttributes(node, t, binaryOffset);
        node.attributes.push_back({ "stored position", std::to_string(i) });
        graph->addNode(std::move(node));
    }

    std::map<std::string, std::size_t> families;
    std::map<std::uint32_t, NodeId> opNodeOf; ///< op node id → graph node; ids seen twice map to none
    if (ops) {
        // Stored with the highest id first; shown by ascending id, the order they were made in.
        std::vector<const OpNode*> order;
        order.reserve(ops->nodes.size());
        for (const OpNode& n : ops->nodes)
            order.push_back(&n);
        std::stable_sort(order.begin(), order.end(), [](const OpNode* a, const OpNode* b) { return a->id < b->id; });
        for (const OpNode* n : order) {
            NodeId id(nextNode++);
            std::string family = operatorFamily(n->name);
            if (family.empty())
                family = kTypeNotStored;
            ++families[family];
            if (graph) {
                Node node;
                node.kind = NodeKind::Operator;
                node.label = n->name.empty() ? "(unnamed op node)" : n->name;
                node.opType = std::move(family);
                // Added as views (no Attribute temporaries); addNode trims the list once.
                node.attributes.add("qnn node id", std::to_string(n->id));
                if (node.opType == kTypeNotStored) {
                    node.attributes.add(
                        "op type", "not stored in the context binary, and the node name holds no operator");
                    if (const Tensor* input = splitInput(chosen->inputs, n->name))
                        node.attributes.add("named after",
                            "graph input " + input->name
                                + " (the split-head pass names its per-head piece of an input after it)");
                } else {
                    node.attributes.add("operator family", node.opType);
                    node.attributes.add(
                        "op type", "not stored in the context binary; family derived from the node name");
                }
                node.attributes.add("read from",
                    "the QNN context binary (backend section, payload offset "
                        + std::to_string(binaryOffset + n->offset) + ")");
                id = graph->addNode(std::move(node));
            }
            const auto [it, inserted] = opNodeOf.emplace(n->id, id);
            if (!inserted)
                it->second = NodeId::none();
        }
    }

    // The backend section lists the graph's inputs and outputs again: they must agree with the
    // metadata, and each output names the op node that produces it.
    bool sectionAgrees = false;
    if (ops) {
        const auto same = [](const Tensor& a, const Tensor& b) {
            return a.id == b.id && a.name == b.name && a.dataType == b.dataType && a.dims == b.dims;
        };
        const auto compare = [&](const std::vector<Tensor>& meta, const std::vector<SectionTensor>& section,
                                 const char* side) {
            if (meta.size() != section.size()) {
                context.warn(info,
                    "QNN context binary: graph '" + chosen->name + "' has " + std::to_string(meta.size()) + " " + side
                        + "s in the metadata but " + std::to_string(section.size()) + " in the backend section",
                    binaryOffset + ops->offset);
                return false;
            }
            for (std::size_t i = 0; i < meta.size(); ++i)
                if (!same(meta[i], section[i].tensor)) {
                    context.warn(info,
                        "QNN context binary: graph '" + chosen->name + "' " + side + " " + std::to_string(i) + " is '"
                            + meta[i].name + "' in the metadata but '" + section[i].tensor.name + "' (or other ids, "
                            + "types or dimensions) in the backend section",
                        binaryOffset + section[i].tensor.offset);
                    return false;
                }
            return true;
        };
        const bool inputsAgree = compare(chosen->inputs, ops->inputs, "input");
        const bool outputsAgree = compare(chosen->outputs, ops->outputs, "output");
        sectionAgrees = inputsAgree && outputsAgree;
    }

    const std::vector<int> outPositions = outputArgPositions(chosen->outputs, argInputs);
    int argOutputs = 0;
    std::size_t edges = 0;
    for (std::size_t i = 0; i < chosen->outputs.size(); ++i) {
        const Tensor& t = chosen->outputs[i];
        argOutputs += outPositions[i] >= 0 ? 1 : 0;
        std::optional<NodeId> producer;
        std::uint32_t producerId = 0;
        if (sectionAgrees) {
            producerId = ops->outputs[i].producer;
            const auto it = opNodeOf.find(producerId);
            if (it != opNodeOf.end() && it->second != NodeId::none())
                producer = it->second;
        }
        if (!graph) {
            edges += producer ? 1 : 0;
            continue;
        }
        Node node;
        node.kind = NodeKind::Output;
        node.label = t.name;
        node.value = ValueIndex(static_cast<std::int32_t>(t.id & 0x7fffffffu));
        node.argPosition = outPositions[i];
        tensorAttributes(node, t, binaryOffset);
        node.attributes.push_back({ "stored position", std::to_string(i) });
        if (sectionAgrees) {
            node.attributes.push_back({ "producer (backend section)",
                producer ? "op node " + std::to_string(producerId) + " (" + graph->node(*producer).label + ")"
                         : std::to_string(producerId) + " (no op node of this graph has that id)" });
        }
        const NodeId outputId = graph->addNode(std::move(node));
        if (producer) {
            graph->addEdge({ *producer, outputId, ValueIndex(static_cast<std::int32_t>(t.id & 0x7fffffffu)),
                { dataTypeName(t.dataType), t.dims }, false });
            ++edges;
        }
    }

    // Op nodes whose names hold no operator are no family: counted apart.
    std::size_t untyped = 0;
    if (const auto it = families.find(kTypeNotStored); it != families.end()) {
        untyped = it->second;
        families.erase(it);
    }
    std::vector<std::pair<std::string, std::size_t>> byCount(families.begin(), families.end());
    std::stable_sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string familyText;
    for (const auto& [family, count] : byCount)
        familyText += (familyText.empty() ? "" : ", ") + family + " " + std::to_string(count);
    const std::size_t nodeCount = ops ? ops->nodes.size() : 0;

    info.facts.push_back({ "shown graph", chosen->name + " (" + why + ")" });
    info.facts.push_back({ "inner graph",
        "read from the QNN context binary: " + detail::plural(chosen->inputs.size(), "input", "inputs") + " and "
            + detail::plural(chosen->outputs.size(), "output", "outputs") + " (metadata"
            + (sectionAgrees ? ", the backend section agrees" : "") + "), "
            + (ops ? detail::plural(nodeCount, "op node", "op nodes") + " by name (backend section)"
                   : std::string("no op nodes (no graph of that name in the backend section)"))
            + "; edges: " + std::to_string(edges)
            + ", each from the op node the backend section names as a graph output's producer; the op nodes name "
              "no tensors, so no other edge is known" });
    if (ops)
        info.facts.push_back({ "operator families",
            std::to_string(families.size()) + (familyText.empty() ? "" : ": " + familyText)
                + " (from the node names; the binary stores no op types)"
                + (untyped ? "; " + detail::plural(untyped, "op node", "op nodes")
                            + " named after no operator, shown as " + kTypeNotStored
                           : std::string()) });
    if (argInputs < static_cast<int>(chosen->inputs.size()))
        info.facts.push_back({ "input order",
            "not certain for every input: only inputs named input_N_ (not mutbuf_) map to the delegate's arguments" });

    info.inputCount = argInputs;
    info.outputCount = argOutputs;
    info.summary += "; graph " + chosen->name + " of " + std::to_string(graphCount) + ": "
        + detail::plural(nodeCount, "op node", "op nodes") + " in "
        + detail::plural(families.size(), "family", "families") + ", "
        + detail::plural(chosen->inputs.size(), "input", "inputs") + ", "
        + detail::plural(chosen->outputs.size(), "output", "outputs") + " (read from the context binary; "
        + detail::plural(edges, "edge", "edges") + ": output producers only)";
    // Every op node is an operator; inputs and outputs are not.
    if (graph)
        info.innerGraph = std::move(graph);
    else
        info.innerGraph = deferredInnerGraph(nodeCount);
}

} // namespace etscope::core
