// SPDX-License-Identifier: MIT
#include "fuzz/fuzzsupport.h"

#include "core/analysis/kernelcheck.h"
#include "core/analysis/memoryplan.h"
#include "core/analysis/programdiff.h"
#include "core/analysis/sizebreakdown.h"
#include "core/debug/debugreports.h"
#include "core/debug/edgegraph.h"
#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "core/methodgraph/graphbuilder.h"
#include "core/stats/operatortable.h"
#include "core/util/jsontext.h"
#include "core/util/mappedfile.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace etscope::fuzz {

using namespace etscope::core;

namespace {

constexpr int kFloat = 6; ///< ScalarType FLOAT (facts sheet §1.5)

Value runtimeTensor()
{
    Value value;
    value.kind = Value::Kind::Tensor;
    value.tensor.scalarType = kFloat;
    value.tensor.sizes = { 1, 4 };
    value.tensor.dimOrder = { 0, 1 };
    return value;
}

} // namespace

Program payloadProgram(std::span<const std::uint8_t> payload, std::string_view backendId)
{
    Program program;
    program.file = MappedFile::fromBytes("fuzz-payload", payload);
    const ByteRange all { 0, payload.size() };
    program.region = all;
    program.identifier = "ET12";
    program.segments.push_back(all);
    program.namedData.push_back({ std::string(kNamedDataKey), 0, all, std::nullopt });
    program.indexNamedData();

    DelegateRef ref;
    ref.backendId = std::string(backendId);
    ref.location = 1;
    ref.index = 0;
    ref.payload = all;

    Instruction call;
    call.kind = Instruction::Kind::Delegate;
    call.index = 0;
    call.args = { 0, 1 };

    Method method;
    method.name = "forward";
    method.values = { runtimeTensor(), runtimeTensor() };
    method.inputs = { 0 };
    method.outputs = { 1 };
    method.chains.push_back({ { 0 }, { 1 }, { call }, {} });
    method.delegates.push_back(std::move(ref));
    program.methods.push_back(std::move(method));
    return program;
}

void analyseGraph(const Graph& graph)
{
    const OperatorTable table = computeOperatorTable(graph);
    (void)table.summaryLines();
    (void)flattenGraph(graph, [](const Node&) { return true; });
}

void analysePayload(std::span<const std::uint8_t> payload, std::string_view backendId)
{
    const Program program = payloadProgram(payload, backendId);
    const Method& method = program.methods.front();
    const DelegateRef& ref = method.delegates.front();
    const DelegateInfo info = describePayload(program, ref, program.bytes(ref.payload), {}, "fuzz payload");
    analyseGraph(buildMethodGraph(method, std::span(&info, 1)));
}

void requireInside(std::uint64_t fileSize, const ByteRange& range, std::string_view what)
{
    if (range.offset <= fileSize && range.size <= fileSize - range.offset)
        return;
    std::fprintf(stderr, "fuzz invariant broken: %.*s (offset %llu, size %llu) lies outside the file (%llu bytes)\n",
        static_cast<int>(what.size()), what.data(), static_cast<unsigned long long>(range.offset),
        static_cast<unsigned long long>(range.size), static_cast<unsigned long long>(fileSize));
    std::abort();
}

void requireRangesInside(const Program& program)
{
    const std::uint64_t size = program.file->size();
    requireInside(size, program.region, "the program region");
    for (const ByteRange& range : program.segments)
        requireInside(size, range, "a segment");
    for (const ByteRange& range : program.inlineDelegateData)
        requireInside(size, range, "inline delegate data");
    for (const ByteRange& range : program.legacyConstantBuffers)
        requireInside(size, range, "a legacy constant buffer");
    for (const NamedDataEntry& entry : program.namedData)
        requireInside(size, entry.data, "named data");
    for (const Method& method : program.methods) {
        for (const DelegateRef& ref : method.delegates)
            requireInside(size, ref.payload, "a delegate payload");
        for (const Value& value : method.values)
            if (value.isTensor() && value.tensor.data)
                requireInside(size, *value.tensor.data, "tensor data");
    }
}

void analyseProgram(const Program& program)
{
    requireRangesInside(program);
    (void)program.defaultMethod();
    for (const Method& method : program.methods) {
        std::vector<DelegateInfo> delegates;
        for (std::size_t d = 0; d < method.delegates.size(); ++d)
            delegates.push_back(describeDelegate(
                program, method.delegates[d], {}, "method '" + method.name + "', delegate " + std::to_string(d)));
        analyseGraph(buildMethodGraph(method, delegates));
    }
}

void analyseProgramDocument(Program program)
{
    Document document;
    document.path = program.path();
    document.kind = FileKind::Program;
    document.program = std::move(program);
    if (analyseDocument(document))
        return;
    if (auto lists = loadKernelLists({ "portable", "quantized" })) {
        const KernelCheck check = checkKernels(document, *lists);
        (void)kernelCheckText(check, *lists);
        (void)jsonText(kernelCheckJson(check, *lists));
    }
    for (const Method& method : document.program->methods) {
        const MemoryPlan plan = computeMemoryPlan(document, method);
        renderEverywhere(memoryArenaTable(plan));
        renderEverywhere(memoryTensorTable(plan));
        (void)jsonText(memoryPlanJson(plan));
        std::size_t traceBytes = 0;
        (void)writeMemoryPlanChromeTrace(
            plan, [&](std::string_view piece) { traceBytes += piece.size(); }, 10'000);
    }
    if (auto sizes = sizeBreakdown(document)) {
        // The leaves partition the file: a gap or an overlap is a finding.
        std::uint64_t total = 0;
        for (const SizeNode* leaf : sizeLeaves(sizes->main))
            total += leaf->bytes;
        if (total != document.program->file->size())
            std::abort();
        (void)sizeByKind(sizes->main);
        (void)sizeByBackend(sizes->main);
    }
    if (auto diff = diffPrograms(document, document)) {
        (void)programDiffText(*diff, TableFormat::Text);
        (void)jsonText(programDiffJson(*diff));
    }
}

void analyseETRecord(const ETRecord& record)
{
    for (const ETRecordGraphView& view : etrecordGraphViews(record))
        if (view.graph)
            analyseGraph(*view.graph);
    for (const std::string& method : record.methods()) {
        if (auto table = etrecordOperatorTable(record, method))
            (void)table->summaryLines();
        (void)record.delegateOutputCounts(method);
        const auto map = record.delegateMap.find(method);
        if (map == record.delegateMap.end())
            continue;
        for (const auto& [instruction, entry] : map->second) {
            (void)record.handlesOf(method, instruction);
            // The runtime's identifiers extend the stored keys ("… #1"): the substring rule.
            for (const auto& [key, handles] : entry.identifiers)
                (void)record.delegateHandles(method, instruction, key + " #1");
        }
    }
    (void)etrecordInfoText(record);
    (void)jsonText(etrecordInfoJson(record), 2);
}

void renderEverywhere(const Table& table)
{
    for (const TableFormat format : { TableFormat::Text, TableFormat::Csv, TableFormat::Tsv, TableFormat::Markdown,
             TableFormat::Html, TableFormat::Json })
        (void)renderTable(table, format);
}

} // namespace etscope::fuzz
