// SPDX-License-Identifier: MIT
#include "core/report/reports.h"

#include "core/debug/debugreports.h"
#include "core/graph/flatten.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <map>
#include <sstream>

namespace etscope::core {

using json = nlohmann::ordered_json;

namespace {

json warningsJson(const std::vector<Warning>& warnings)
{
    json list = json::array();
    for (const Warning& warning : warnings) {
        json item = { { "message", warning.message } };
        item["offset"] = warning.offset ? json(*warning.offset) : json(nullptr);
        list.push_back(std::move(item));
    }
    return list;
}

json methodJson(const Method& method, const MethodAnalysis* analysis)
{
    const InstructionCounts counts = method.instructionCounts();
    json out;
    out["name"] = method.name;
    out["instructions"] = { { "kernel", counts.kernel }, { "delegate", counts.delegate }, { "move", counts.move },
        { "jump_false", counts.jumpFalse }, { "free", counts.free }, { "unknown", counts.unknown } };
    json operators = json::array();
    for (const Operator& op : method.operators)
        operators.push_back(op.qualifiedName());
    out["operators"] = std::move(operators);
    out["values"] = method.values.size();
    out["inputs"] = method.inputs.size();
    out["outputs"] = method.outputs.size();
    out["input_values"] = method.inputs;
    out["output_values"] = method.outputs;
    out["input_spec"] = method.inputSpec;
    out["output_spec"] = method.outputSpec;
    json delegates = json::array();
    for (std::size_t d = 0; d < method.delegates.size(); ++d) {
        const DelegateRef& ref = method.delegates[d];
        json item;
        item["backend_id"] = ref.backendId;
        item["location"] = std::string(ref.locationName());
        item["index"] = ref.index;
        item["size"] = ref.payload.size;
        item["offset"] = ref.payload.offset;
        json specs = json::array();
        for (const CompileSpec& spec : ref.compileSpecs)
            // Machine-readable: the whole value (text when printable, else all of it as hex).
            specs.push_back({ { "key", spec.key }, { "value", bytesForDisplay(spec.value, SIZE_MAX) } });
        item["compile_specs"] = std::move(specs);
        const DelegateInfo* info = analysis && d < analysis->delegates.size() ? &analysis->delegates[d] : nullptr;
        item["format"] = info ? info->format : "opaque";
        if (info && info->innerGraph) {
            json nodeTypes = json::object();
            std::map<std::string, int> counts;
            for (const Node& node : info->innerGraph->nodes)
                if (node.kind == NodeKind::Operator)
                    ++counts[node.opType];
            for (const auto& [type, count] : counts)
                nodeTypes[type] = count;
            item["inner_graph"] = { { "format", info->format }, { "nodes", info->innerGraph->operatorCount() },
                { "node_types", std::move(nodeTypes) }, { "inputs", info->inputCount.value_or(-1) },
                { "outputs", info->outputCount.value_or(-1) } };
        } else {
            item["inner_graph"] = nullptr;
        }
        if (info) {
            item["summary"] = info->summary;
            json facts = json::array();
            for (const Attribute& fact : info->facts)
                facts.push_back({ { "name", fact.name }, { "value", fact.value } });
            item["facts"] = std::move(facts);
            // What the delegate was built for (issue 33), by stable key.
            json target = json::array();
            for (const TargetFact& fact : info->target) {
                json entry = { { "key", fact.key }, { "name", fact.name }, { "value", fact.value } };
                entry["number"] = fact.number ? json(*fact.number) : json(nullptr);
                entry["source"] = fact.source;
                target.push_back(std::move(entry));
            }
            item["target"] = std::move(target);
        }
        delegates.push_back(std::move(item));
    }
    out["delegates"] = std::move(delegates);
    return out;
}

json programJson(const Program& program, const Document& document)
{
    json out;
    out["file_identifier"] = program.identifier;
    if (program.header) {
        out["extended_header"]
            = { { "header_length", program.header->length }, { "program_size", program.header->programSize },
                  { "segment_base_offset", program.header->segmentBaseOffset },
                  // Headers shorter than 32 bytes (before ExecuTorch 1.0) have no such field.
                  { "segment_data_size",
                      program.header->length >= 32 ? json(program.header->segmentDataSize) : json(nullptr) } };
    } else {
        out["extended_header"] = nullptr;
    }
    out["version"] = program.version;
    out["segments"] = program.segments.size();
    json sizes = json::array();
    for (const ByteRange& segment : program.segments)
        sizes.push_back(segment.size);
    out["segment_sizes"] = std::move(sizes);
    out["constant_segment"] = program.hasConstantSegment
        ? json { { "segment_index", program.constantSegment.segmentIndex },
              { "offsets", program.constantSegment.offsets.size() } }
        : json(nullptr);
    out["legacy_constant_buffers"] = program.legacyConstantBuffers.size();
    out["inline_delegate_data"] = program.inlineDelegateData.size();
    out["mutable_data_segments"] = program.mutableDataSegments.size();
    json named = json::array();
    for (const NamedDataEntry& entry : program.namedData)
        named.push_back({ { "key", entry.key }, { "segment_index", entry.segmentIndex }, { "size", entry.data.size } });
    out["named_data"] = std::move(named);
    json methods = json::array();
    for (const Method& method : program.methods)
        methods.push_back(methodJson(method, document.analysis(method)));
    out["methods"] = std::move(methods);
    return out;
}

json externalDataJson(const ExternalData& data)
{
    json out;
    out["path"] = data.path();
    out["file_identifier"] = "FT01";
    out["layout"] = std::string(data.layoutName());
    out["header"] = { { "header_length", data.header.length }, { "flatbuffer_offset", data.header.flatbufferOffset },
        { "flatbuffer_size", data.header.flatbufferSize }, { "segment_base_offset", data.header.segmentBaseOffset },
        { "segment_data_size", data.header.segmentDataSize } };
    out["segments"] = data.segments.size();
    json entries = json::array();
    for (const NamedDataEntry& entry : data.entries) {
        json item = { { "key", entry.key }, { "segment_index", entry.segmentIndex }, { "size", entry.data.size } };
        if (entry.layout) {
            item["scalar_type"] = scalarTypeName(entry.layout->scalarType);
            item["sizes"] = entry.layout->sizes;
        }
        entries.push_back(std::move(item));
    }
    out["entries"] = std::move(entries);
    return out;
}

std::string sanitizeName(std::string_view label)
{
    std::string out;
    for (const char c : label) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum)
            out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && out.back() == '_')
        out.pop_back();
    return out.empty() ? "node" : out;
}

/// The FX name a serialized edge graph stored for the node ("name" of call nodes, the
/// "placeholder" of inputs), else its label.
std::string_view storedName(const Graph& graph, const Node& node)
{
    if (graph.format == "edge")
        for (const auto attribute : node.attributes)
            if (attribute.name == "name" || attribute.name == "placeholder")
                return attribute.value;
    return node.label;
}

/// FX-style unique names: the first `aten_add_out`, then `aten_add_out_1`, …
std::vector<std::string> uniqueNames(const Graph& graph)
{
    std::map<std::string, int> seen;
    std::vector<std::string> names;
    for (const Node& node : graph.nodes) {
        const std::string base = sanitizeName(storedName(graph, node));
        const int n = seen[base]++;
        names.push_back(n == 0 ? base : base + "_" + std::to_string(n));
    }
    return names;
}

std::string metaText(const TensorMeta& meta)
{
    if (!meta.known())
        return {};
    return meta.shape.empty() && meta.dtype.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos
        ? meta.dtype
        : meta.dtype + formatShape(meta.shape);
}

void printGraph(const Graph& graph, int indent, std::ostringstream& out)
{
    const std::vector<std::string> names = uniqueNames(graph);
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    out << std::string(static_cast<std::size_t>(indent - 2), ' ') << (indent == 2 ? "graph():" : "lowered graph():")
        << "\n";
    std::vector<std::string> outputs;
    const GraphAdjacency adjacency = graph.adjacency();
    for (const Node& node : graph.nodes) {
        const auto& in = adjacency.in[node.id.index()];
        std::string args;
        for (std::size_t i = 0; i < in.size(); ++i)
            args += (i ? ", %" : "%") + names[graph.edges[in[i]].from.index()];
        const auto& outEdges = adjacency.out[node.id.index()];
        const std::string meta = outEdges.empty() ? std::string() : metaText(graph.edges[outEdges.front()].meta);
        const std::string name = "%" + names[node.id.index()];
        switch (node.kind) {
        case NodeKind::Input:
            out << pad << name << (meta.empty() ? "" : " : " + meta) << " = placeholder[target=" << node.label << "]\n";
            break;
        case NodeKind::Constant:
        case NodeKind::State:
        case NodeKind::View:
            out << pad << name << (meta.empty() ? "" : " : " + meta) << " = get_attr[target=" << node.label
                << ", kind=" << nodeKindName(node.kind) << "]" << (args.empty() ? "" : "(args = (" + args + "))")
                << "\n";
            break;
        case NodeKind::Output:
            outputs.push_back(args);
            break;
        case NodeKind::Delegate:
            out << pad << name << " : [num_users=" << outEdges.size() << "] = call_delegate[target=" << node.label
                << "](args = (" << args << "))\n";
            out << pad << "  backend_id: " << node.label << "\n";
            if (node.subgraph)
                printGraph(*node.subgraph, indent + 4, out);
            else
                out << pad << "  (payload not decoded)\n";
            break;
        default:
            out << pad << name << (meta.empty() ? "" : " : " + meta) << " : [num_users=" << outEdges.size()
                << "] = call_function[target=" << node.label << "](args = (" << args << "), kwargs = {})\n";
            break;
        }
    }
    std::string returned;
    for (std::size_t i = 0; i < outputs.size(); ++i)
        returned += (i ? ", " : "") + outputs[i];
    out << pad << "return (" << returned << ")\n";
}

std::string dotEscape(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

} // namespace

Table operatorTableReport(const OperatorTable& table, const std::string& title)
{
    Table report;
    report.title = title;
    report.columns = { "op_type", "occurrences_in_delegated_graphs", "occurrences_in_non_delegated_graphs" };
    for (const OperatorRow& row : table.rows)
        report.rows.push_back(
            { row.opType, static_cast<long long>(row.delegated), static_cast<long long>(row.nonDelegated) });
    report.rows.push_back({ std::string("Total"), static_cast<long long>(table.delegatedNodes),
        static_cast<long long>(table.nonDelegatedNodes) });
    report.notes = table.summaryLines();
    if (table.opaqueSubgraphs > 0)
        report.notes.push_back("(" + std::to_string(table.opaqueSubgraphs)
            + " delegated subgraph(s) have payloads ETScope cannot decode; their nodes are not counted)");
    for (std::string& line : table.shareLines())
        report.notes.push_back(std::move(line));
    return report;
}

json documentInfoJson(const Document& document)
{
    json out;
    out["file"] = document.path;
    out["format"] = std::string(fileKindName(document.kind));
    if (document.etdump || document.etrecord) {
        const json part = document.etdump ? etdumpInfoJson(*document.etdump) : etrecordInfoJson(*document.etrecord);
        for (const auto& [key, value] : part.items())
            out[key] = value;
    }
    if (document.kind == FileKind::ExternalData && !document.externalData.empty()) {
        json data = externalDataJson(document.externalData.front());
        for (auto& [key, value] : data.items())
            out[key] = value;
    } else if (document.program) {
        if (document.kind == FileKind::BundledProgram && document.bundled) {
            out["file_identifier"] = "BP08";
            out["version"] = document.bundled->version;
            out["program"] = programJson(*document.program, document);
            json suites = json::array();
            for (const BundledTestSuite& suite : document.bundled->suites) {
                json inputs = json::array();
                json outputs = json::array();
                if (!suite.cases.empty()) {
                    for (const BundledValue& value : suite.cases.front().inputs)
                        inputs.push_back(value.kind == BundledValue::Kind::Tensor
                                ? scalarTypeName(value.scalarType) + formatShape(value.sizes)
                                : "scalar");
                    for (const BundledValue& value : suite.cases.front().expectedOutputs)
                        outputs.push_back(value.kind == BundledValue::Kind::Tensor
                                ? scalarTypeName(value.scalarType) + formatShape(value.sizes)
                                : "scalar");
                }
                suites.push_back({ { "method", suite.methodName }, { "test_cases", suite.cases.size() },
                    { "inputs", inputs }, { "expected_outputs", outputs } });
            }
            out["test_suites"] = std::move(suites);
        } else {
            json program = programJson(*document.program, document);
            for (auto& [key, value] : program.items())
                out[key] = value;
        }
        json attached = json::array();
        for (const ExternalData& data : document.externalData)
            attached.push_back(externalDataJson(data));
        out["external_data"] = std::move(attached);
    }
    out["warnings"] = warningsJson(document.warnings);
    return out;
}

std::string documentInfoText(const Document& document)
{
    std::ostringstream out;
    out << "file:        " << document.path << "\n";
    out << "format:      " << fileKindName(document.kind) << "\n";
    if (document.etdump)
        out << etdumpInfoText(*document.etdump);
    if (document.etrecord)
        out << etrecordInfoText(*document.etrecord);
    if (document.kind == FileKind::ExternalData && !document.externalData.empty()) {
        const ExternalData& data = document.externalData.front();
        out << "layout:      " << data.layoutName() << "\n";
        out << "segments:    " << data.segments.size() << "\n";
        out << "entries:     " << data.entries.size() << "\n";
        for (const NamedDataEntry& entry : data.entries) {
            out << "  " << entry.key << "  " << entry.data.size << " bytes";
            if (entry.layout)
                out << "  " << scalarTypeName(entry.layout->scalarType) << formatShape(entry.layout->sizes);
            out << "\n";
        }
    }
    if (document.program) {
        const Program& program = *document.program;
        if (document.bundled) {
            out << "bundled:     BP08, version " << document.bundled->version << "\n";
            for (const BundledTestSuite& suite : document.bundled->suites)
                out << "  test suite '" << suite.methodName << "': " << suite.cases.size() << " test case(s)\n";
        }
        out << "identifier:  " << program.identifier << "\n";
        if (program.header) {
            out << "ext. header: eh00, length " << program.header->length << ", program " << program.header->programSize
                << " bytes, segments at " << program.header->segmentBaseOffset;
            // Headers shorter than 32 bytes (before ExecuTorch 1.0) have no segment-size field: the
            // JSON says null, the text says so rather than "0 bytes".
            if (program.header->length >= 32)
                out << " (" << program.header->segmentDataSize << " bytes)\n";
            else
                out << " (segment data size: not recorded, " << program.header->length << "-byte header)\n";
        } else
            out << "ext. header: none\n";
        out << "segments:    " << program.segments.size() << "\n";
        out << "named data:  " << program.namedData.size() << "\n";
        for (const ExternalData& data : document.externalData)
            out << "external:    " << data.path() << " (" << data.entries.size() << " entries)\n";
        out << "methods:     " << program.methods.size() << "\n";
        for (const Method& method : program.methods) {
            const InstructionCounts c = method.instructionCounts();
            out << "\n  " << method.name << ": " << method.values.size() << " values, " << method.inputs.size()
                << " in / " << method.outputs.size() << " out, " << c.total()
                << (c.total() == 1 ? " instruction" : " instructions") << " (kernel " << c.kernel << ", delegate "
                << c.delegate << ", move " << c.move << ", jump_false " << c.jumpFalse << ", free " << c.free << ")\n";
            // A method that runs nothing returns stored values (an LLM's get_max_seq_len): print
            // them, as the app shows them in the output node.
            if (c.total() == 0 && !method.outputs.empty()) {
                out << "    returns:";
                const std::size_t shown = std::min<std::size_t>(method.outputs.size(), 16);
                for (std::size_t o = 0; o < shown; ++o)
                    out << (o ? ", " : " ") << describeValue(method, method.outputs[o]);
                if (shown < method.outputs.size())
                    out << ", … (" << method.outputs.size() - shown << " more)";
                out << "\n";
            }
            if (!method.operators.empty()) {
                out << "    operators:";
                for (const Operator& op : method.operators)
                    out << " " << op.qualifiedName();
                out << "\n";
            }
            const MethodAnalysis* analysis = document.analysis(method);
            for (std::size_t d = 0; d < method.delegates.size(); ++d) {
                const DelegateRef& ref = method.delegates[d];
                out << "    delegate #" << d << ": " << ref.backendId << ", " << ref.locationName() << " #" << ref.index
                    << ", " << formatBytes(ref.payload.size);
                if (analysis && d < analysis->delegates.size())
                    out << " — " << analysis->delegates[d].summary;
                out << "\n";
                if (analysis && d < analysis->delegates.size())
                    for (const TargetFact& fact : analysis->delegates[d].target)
                        out << "      " << fact.name << ": " << fact.value << "\n";
            }
        }
    }
    if (!document.warnings.empty()) {
        out << "\nwarnings:\n";
        for (const Warning& warning : document.warnings)
            out << "  " << warning.message
                << (warning.offset ? " (at byte offset " + std::to_string(*warning.offset) + ")" : "") << "\n";
    }
    return out.str();
}

std::string graphToDot(const Graph& graph, bool expandDelegates)
{
    const FlatGraph flat = flattenGraph(graph, [&](const Node&) { return expandDelegates; });
    std::ostringstream out;
    out << "digraph \"" << dotEscape(graph.name)
        << "\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"DejaVu Sans\"];\n";
    const auto nodeLine = [&](const Node& node) {
        std::string shape = "box";
        switch (node.kind) {
        case NodeKind::Input:
        case NodeKind::Output:
            shape = "ellipse";
            break;
        case NodeKind::Constant:
        case NodeKind::State:
            shape = "note";
            break;
        case NodeKind::Delegate:
            shape = "box3d";
            break;
        case NodeKind::View:
            shape = "parallelogram";
            break;
        case NodeKind::JumpFalse:
            shape = "diamond";
            break;
        default:
            break;
        }
        return "n" + std::to_string(node.id.value) + " [label=\"" + dotEscape(node.label) + "\", shape=" + shape
            + "];\n";
    };
    for (const Node& node : flat.graph.nodes)
        if (flat.clusterOf(node.id) < 0)
            out << "  " << nodeLine(node);
    for (std::size_t c = 0; c < flat.clusters.size(); ++c) {
        out << "  subgraph cluster_" << c << " {\n    label=\"" << dotEscape(flat.clusters[c].label) << "\";\n";
        for (const NodeId member : flat.clusters[c].members)
            out << "    " << nodeLine(flat.graph.node(member));
        out << "  }\n";
    }
    for (const Edge& edge : flat.graph.edges) {
        out << "  n" << edge.from.value << " -> n" << edge.to.value << " [label=\"" << dotEscape(metaText(edge.meta))
            << "\"";
        if (edge.inferred)
            out << ", style=dashed";
        out << "];\n";
    }
    out << "}\n";
    return out.str();
}

json graphToJson(const Graph& graph)
{
    json out;
    out["name"] = graph.name;
    if (!graph.backendId.empty())
        out["backend_id"] = graph.backendId;
    if (!graph.format.empty())
        out["format"] = graph.format;
    json nodes = json::array();
    for (const Node& node : graph.nodes) {
        json item;
        item["id"] = node.id.value;
        item["kind"] = std::string(nodeKindName(node.kind));
        item["label"] = node.label;
        if (!node.opType.empty())
            item["op_type"] = node.opType;
        if (node.instruction.valid())
            item["instruction"] = node.instruction.value;
        if (node.value.valid())
            item["value"] = node.value.value;
        if (node.argPosition >= 0)
            item["arg_position"] = node.argPosition;
        if (node.debugHandle)
            item["debug_handle"] = *node.debugHandle;
        if (node.inferred)
            item["inferred"] = true;
        json attributes = json::array();
        for (const auto attribute : node.attributes)
            attributes.push_back(
                { { "name", std::string(attribute.name) }, { "value", std::string(attribute.value) } });
        item["attributes"] = std::move(attributes);
        if (node.subgraph)
            item["subgraph"] = graphToJson(*node.subgraph);
        nodes.push_back(std::move(item));
    }
    out["nodes"] = std::move(nodes);
    json edges = json::array();
    for (const Edge& edge : graph.edges) {
        json item = { { "from", edge.from.value }, { "to", edge.to.value }, { "value", edge.value.value },
            { "dtype", edge.meta.dtype }, { "shape", edge.meta.shape } };
        if (edge.inferred)
            item["inferred"] = true;
        edges.push_back(std::move(item));
    }
    out["edges"] = std::move(edges);
    out["warnings"] = warningsJson(graph.warnings);
    return out;
}

std::string delegatedGraphText(const Graph& graph)
{
    std::ostringstream out;
    printGraph(graph, 2, out);
    return out.str();
}

const Method* selectMethod(const Program& program, const std::string& name)
{
    if (!name.empty())
        return program.method(name);
    return program.defaultMethod();
}

} // namespace etscope::core
