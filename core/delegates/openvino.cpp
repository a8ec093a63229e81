// SPDX-License-Identifier: MIT
// OpenVINO payloads: the compiled model's export stream. The facts sheet (§3.4) calls it opaque;
// the real sample (djl-executorch-engine/openvino_tiny.pte) shows more, and this decoder reads
// what its bytes show:
//   0  six uint64: custom-data offset, size; constants offset, size; model offset, size
//      (offsets from the payload start; the sample: 48/56, 104/288, 392/3377)
//   custom data: a small XML document (<cnndata>)
//   constants:   raw weights; the IR's Const layers point into them with offset/size
//   model:       the IR XML (<net> with <layers> and <edges>). The CPU plugin stores it
//                XOR-ed with a repeating 12-byte key (the value is public, in OpenVINO's CPU
//                plugin sources); plain XML is accepted too.
// When the six offsets do not describe the payload, a plain "<?xml … <net" anywhere in it is
// used instead. The IR's layers become an inner graph; its edges section gives the wiring.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/util/text.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string_view>

namespace etscope::core {

namespace {

constexpr std::size_t kHeaderSize = 48;
constexpr std::size_t kMaxXml = 256u << 20; ///< larger IR documents are not parsed
constexpr std::size_t kMaxLayerFacts = 200; ///< layers listed as facts; the graph holds them all
constexpr std::uint8_t kCpuPluginKey[] = { 0x30, 0x60, 0x70, 0x02, 0x04, 0x08, 0x3F, 0x6F, 0x72, 0x74, 0x78, 0x7F };

struct Section {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

bool startsWithXml(std::string_view text)
{
    return text.starts_with("<?xml") || text.starts_with("<net");
}

std::string attr(const tinyxml2::XMLElement* element, const char* name)
{
    const char* value = element ? element->Attribute(name) : nullptr;
    return value ? value : "";
}

struct Port {
    std::string id;
    std::string precision;
    std::vector<std::int64_t> dims;
    std::string names;
};

std::vector<Port> readPorts(const tinyxml2::XMLElement* parent)
{
    std::vector<Port> ports;
    for (const auto* port = parent ? parent->FirstChildElement("port") : nullptr; port;
         port = port->NextSiblingElement("port")) {
        Port p { attr(port, "id"), attr(port, "precision"), {}, attr(port, "names") };
        for (const auto* dim = port->FirstChildElement("dim"); dim; dim = dim->NextSiblingElement("dim")) {
            const char* text = dim->GetText();
            p.dims.push_back(text ? std::strtoll(text, nullptr, 10) : -1);
        }
        ports.push_back(std::move(p));
    }
    return ports;
}

std::string portsText(const std::vector<Port>& ports)
{
    constexpr std::size_t kShown = 32;
    std::string out;
    for (std::size_t i = 0; i < ports.size() && i < kShown; ++i) {
        const Port& p = ports[i];
        out += (out.empty() ? "" : "; ") + p.id + ": " + p.precision + " " + formatShape(p.dims)
            + (p.names.empty() ? "" : " (" + p.names + ")");
    }
    if (ports.size() > kShown)
        out += "; … (" + std::to_string(ports.size()) + " ports)";
    return out.empty() ? "none" : out;
}

struct Layer {
    std::string id;
    std::string name;
    std::string type;
    std::string version;
    std::vector<Port> inputs;
    std::vector<Port> outputs;
    std::vector<Attribute> data;
    NodeId node;
};

/// Finds the IR XML: the model section of the export header, else a plain document anywhere.
std::string findModelXml(const DelegateContext& context, DelegateInfo& info, std::span<const std::uint8_t> payload)
{
    const auto text = [](std::span<const std::uint8_t> bytes) {
        return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    };
    if (payload.size() >= kHeaderSize) {
        Section sections[3];
        bool valid = true;
        for (int s = 0; s < 3; ++s) {
            sections[s] = { readLe64(payload.data() + (16 * static_cast<std::size_t>(s))),
                readLe64(payload.data() + (16 * static_cast<std::size_t>(s)) + 8) };
            valid = valid && sections[s].offset >= kHeaderSize
                && detail::rangeInside(payload.size(), sections[s].offset, sections[s].size);
        }
        if (valid) {
            static constexpr const char* kNames[] = { "custom data", "constants", "model" };
            for (int s = 0; s < 3; ++s)
                info.facts.push_back({ std::string("export ") + kNames[s],
                    std::to_string(sections[s].size) + " bytes at offset " + std::to_string(sections[s].offset) });
            const auto custom = payload.subspan(sections[0].offset, sections[0].size);
            if (isPrintableText(custom) && !custom.empty())
                info.facts.push_back(
                    { "custom data", std::string(text(custom.first(std::min<std::size_t>(custom.size(), 200)))) });
            const auto model = payload.subspan(sections[2].offset, sections[2].size);
            if (model.size() > kMaxXml) {
                context.warn(info, "the IR model of " + formatBytes(model.size()) + " is too large to parse",
                    sections[2].offset);
                return {};
            }
            if (startsWithXml(text(model))) {
                info.facts.push_back({ "model encoding", "plain XML" });
                return std::string(text(model));
            }
            std::string decoded(model.size(), '\0');
            for (std::size_t i = 0; i < model.size(); ++i)
                decoded[i] = static_cast<char>(model[i] ^ kCpuPluginKey[i % std::size(kCpuPluginKey)]);
            if (startsWithXml(decoded)) {
                info.facts.push_back({ "model encoding", "XOR with the CPU plugin's 12-byte key" });
                return decoded;
            }
            context.warn(
                info, "the export's model section is neither plain nor CPU-plugin-encoded XML", sections[2].offset);
        }
    }
    const std::string_view all = text(payload);
    const std::size_t start = all.find("<?xml");
    if (start != std::string_view::npos) {
        const std::size_t net = all.find("<net", start);
        const std::size_t end = all.find("</net>", net == std::string_view::npos ? start : net);
        if (net != std::string_view::npos && end != std::string_view::npos && end + 6 - start <= kMaxXml) {
            info.facts.push_back({ "model encoding", "plain XML at payload offset " + std::to_string(start) });
            return std::string(all.substr(start, end + 6 - start));
        }
    }
    return {};
}

} // namespace

bool decodeOpenvino(const DelegateContext& context, DelegateInfo& info)
{
    const std::string xml = findModelXml(context, info, context.payload);
    if (xml.empty()) {
        context.warn(info, "no OpenVINO IR XML found in the payload");
        return false;
    }
    tinyxml2::XMLDocument document;
    if (document.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
        context.warn(info, std::string("the OpenVINO IR XML does not parse: ") + document.ErrorStr());
        return false;
    }
    const tinyxml2::XMLElement* net = document.FirstChildElement("net");
    if (!net) {
        context.warn(info, "the OpenVINO IR XML has no <net> element");
        return false;
    }
    info.format = "openvino";
    info.facts.push_back({ "IR name", attr(net, "name") });
    info.facts.push_back({ "IR version", attr(net, "version") });

    std::vector<Layer> layers;
    std::map<std::string, std::size_t> byId;
    const auto* layersElement = net->FirstChildElement("layers");
    for (const auto* e = layersElement ? layersElement->FirstChildElement("layer") : nullptr; e;
         e = e->NextSiblingElement("layer")) {
        Layer layer { attr(e, "id"), attr(e, "name"), attr(e, "type"), attr(e, "version"),
            readPorts(e->FirstChildElement("input")), readPorts(e->FirstChildElement("output")), {}, {} };
        if (const auto* data = e->FirstChildElement("data"))
            for (const auto* a = data->FirstAttribute(); a; a = a->Next())
                layer.data.push_back({ a->Name(), a->Value() });
        if (!byId.emplace(layer.id, layers.size()).second)
            context.warn(info, "OpenVINO layer id " + layer.id + " appears twice; edges use the first");
        layers.push_back(std::move(layer));
    }

    auto graph = std::make_shared<Graph>();
    graph->name = context.ref.backendId;
    graph->backendId = context.ref.backendId;
    graph->format = "openvino";
    int inputs = 0;
    int outputs = 0;
    int parameters = 0;
    for (const Layer& layer : layers)
        inputs += layer.type == "Parameter";
    for (std::size_t l = 0; l < layers.size(); ++l) {
        Layer& layer = layers[l];
        Node node;
        node.label = layer.type.empty() ? "(untyped layer)" : layer.type;
        if (layer.type == "Parameter") {
            node.kind = NodeKind::Input;
            node.argPosition = parameters++;
            node.label = "input " + std::to_string(node.argPosition) + " (" + layer.name + ")";
            node.attributes.push_back({ "argument position", "by Parameter order in the IR (inferred)" });
        } else if (layer.type == "Result") {
            node.kind = NodeKind::Output;
            node.argPosition = inputs + outputs++;
            node.label = "output " + std::to_string(node.argPosition - inputs);
            node.attributes.push_back({ "argument position", "by Result order in the IR (inferred)" });
        } else if (layer.type == "Const") {
            node.kind = NodeKind::Constant;
            node.label = layer.name.empty() ? node.label : layer.name;
        } else {
            node.kind = NodeKind::Operator;
            node.opType = node.label;
        }
        node.attributes.push_back({ "layer id", layer.id });
        node.attributes.push_back({ "name", layer.name });
        node.attributes.push_back({ "type", layer.type });
        node.attributes.push_back({ "version", layer.version });
        for (const Attribute& a : layer.data)
            node.attributes.push_back({ "data " + a.name, a.value });
        node.attributes.push_back({ "input ports", portsText(layer.inputs) });
        node.attributes.push_back({ "output ports", portsText(layer.outputs) });
        layer.node = graph->addNode(std::move(node));
        if (l < kMaxLayerFacts)
            info.facts.push_back({ "layer " + layer.id, layer.name + " (" + layer.type + ", " + layer.version + ")" });
    }
    if (layers.size() > kMaxLayerFacts)
        info.facts.push_back(
            { "more layers", std::to_string(layers.size() - kMaxLayerFacts) + " (in the inner graph)" });

    std::map<std::pair<std::size_t, std::string>, const Port*> outputPorts;
    for (std::size_t l = 0; l < layers.size(); ++l)
        for (const Port& port : layers[l].outputs)
            outputPorts.emplace(std::make_pair(l, port.id), &port);
    std::map<std::pair<std::string, std::string>, std::int32_t> valueIds;
    std::size_t edges = 0;
    const auto* edgesElement = net->FirstChildElement("edges");
    for (const auto* e = edgesElement ? edgesElement->FirstChildElement("edge") : nullptr; e;
         e = e->NextSiblingElement("edge")) {
        const auto from = byId.find(attr(e, "from-layer"));
        const auto to = byId.find(attr(e, "to-layer"));
        if (from == byId.end() || to == byId.end()) {
            context.warn(info,
                "OpenVINO edge " + attr(e, "from-layer") + " → " + attr(e, "to-layer")
                    + " names a layer that does not exist");
            continue;
        }
        const Layer& source = layers[from->second];
        const std::string port = attr(e, "from-port");
        TensorMeta meta;
        if (const auto it = outputPorts.find({ from->second, port }); it != outputPorts.end())
            meta = { it->second->precision, it->second->dims };
        const auto key = std::make_pair(source.id, port);
        const auto value = valueIds.emplace(key, static_cast<std::int32_t>(valueIds.size())).first->second;
        graph->addEdge({ source.node, layers[to->second].node, ValueIndex(value), meta, false });
        ++edges;
    }
    info.facts.push_back({ "layers", std::to_string(layers.size()) });
    info.facts.push_back({ "edges", std::to_string(edges) });
    info.inputCount = inputs;
    info.outputCount = outputs;
    info.summary = "OpenVINO IR '" + attr(net, "name") + "': " + detail::plural(layers.size(), "layer", "layers") + ", "
        + detail::plural(inputs, "input", "inputs") + ", " + detail::plural(outputs, "output", "outputs");
    info.innerGraph = std::move(graph);
    return true;
}

} // namespace etscope::core
