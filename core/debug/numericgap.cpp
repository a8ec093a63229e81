// SPDX-License-Identifier: MIT
#include "core/debug/numericgap.h"

#include "core/debug/dumpcheck.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace etscope::core {

namespace {

using Extracted = LoggedNumbers;

Extracted extract(const ETDump& dump, const DebugEvent& event, std::size_t tensorIndex, std::uint64_t maxElements)
{
    return loggedNumbers(dump, event, tensorIndex, maxElements);
}

/// The values an event group contributes: every tensor of a list, one item per scalar.
std::vector<std::pair<const DebugEvent*, std::size_t>> items(const std::vector<const DebugEvent*>& events)
{
    std::vector<std::pair<const DebugEvent*, std::size_t>> result;
    for (const DebugEvent* event : events) {
        if (event->value.kind == DebugValue::Kind::TensorList)
            for (std::size_t t = 0; t < event->value.tensors.size(); ++t)
                result.emplace_back(event, t);
        else
            result.emplace_back(event, 0);
    }
    return result;
}

using GroupKey = std::tuple<std::uint64_t, InstructionId, DelegateDebugId, std::string>;

struct Collected {
    std::vector<GroupKey> order;
    std::map<GroupKey, std::vector<const DebugEvent*>> groups;
    std::vector<const DebugEvent*> outputs;
};

Collected collect(const RunBlock& block)
{
    Collected c;
    for (const DebugEvent& event : block.debugEvents) {
        if (event.value.output) {
            c.outputs.push_back(&event);
            continue;
        }
        GroupKey key { event.chainIndex, event.instructionId, event.delegateDebugIdInt, event.delegateDebugIdStr };
        auto& group = c.groups[key];
        if (group.empty())
            c.order.push_back(key);
        group.push_back(&event);
    }
    return c;
}

const RunBlock* executeBlock(const ETDump& dump, std::size_t index)
{
    const std::vector<std::size_t> blocks = dump.executeBlocks();
    return index < blocks.size() ? &dump.runs[blocks[index]] : nullptr;
}

/// Delegate calls log every argument; only the last num_outs are outputs (facts sheet §4.3).
std::vector<const DebugEvent*> delegateOutputs(const std::vector<const DebugEvent*>& events, const EventMapper& mapper,
    InstructionId instruction, std::string& caveat)
{
    const int outs = mapper.delegateOutputCount(instruction);
    if (outs < 0 || static_cast<std::size_t>(outs) > events.size()) {
        caveat = "delegate output count unknown: every logged argument compared";
        return events;
    }
    return { events.end() - outs, events.end() };
}

NodeId outputNode(const Graph& graph, std::size_t ordinal)
{
    std::size_t seen = 0;
    for (const Node& node : graph.nodes)
        if (node.kind == NodeKind::Output && seen++ == ordinal)
            return node.id;
    return NodeId::none();
}

/// Tensor dtypes are spelled "FLOAT"; scalar values "Int", "Double".
bool isTensorDtype(const std::string& dtype)
{
    return dtype.size() >= 2 && std::isupper(static_cast<unsigned char>(dtype[0]))
        && std::isupper(static_cast<unsigned char>(dtype[1]));
}

void fillMetrics(GapRow& row, const Extracted& run, const Extracted& reference)
{
    row.shape = run.shape;
    row.dtype = run.dtype;
    if (!run.problem.empty()) {
        row.problem = "run: " + run.problem;
        return;
    }
    if (!reference.problem.empty()) {
        row.problem = "reference: " + reference.problem;
        return;
    }
    if (run.values.size() != reference.values.size()) {
        row.problem = "shapes differ: run " + formatShape(run.shape) + ", reference " + formatShape(reference.shape)
            + " (" + std::to_string(run.values.size()) + " vs " + std::to_string(reference.values.size())
            + " elements): not compared";
        return;
    }
    // Scalars (Int, Bool, Double values) have no shape; a zero-dim tensor's [] is a shape.
    const bool tensors = isTensorDtype(run.dtype) && isTensorDtype(reference.dtype);
    if (run.shape != reference.shape && (tensors || (!reference.shape.empty() && !run.shape.empty())))
        row.problem = "shapes differ: run " + formatShape(run.shape) + ", reference " + formatShape(reference.shape)
            + ", as many elements: compared in order";
    row.metrics = computeGapMetrics(reference.values, run.values);
}

/// The fit of one compared block and its debug buffer, as report warnings.
void checkAgainstProgram(GapReport& report, const ETDump& dump, std::size_t block, const EventMapper& mapper)
{
    const DumpFit fit = checkDumpFitsProgram(dump, mapper, block);
    for (Warning& warning : dumpFitWarnings(fit, describeExecuteBlock(dump, block), mapper.method()))
        report.warnings.push_back(std::move(warning));
    if (auto buffer = checkDebugBufferKind(dump))
        report.warnings.push_back(std::move(*buffer));
}

std::string lowered(std::string_view text)
{
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(), [](unsigned char c) { return std::tolower(c); });
    return result;
}

} // namespace

LoggedNumbers loggedNumbers(
    const ETDump& dump, const DebugEvent& event, std::size_t tensorIndex, std::uint64_t maxElements)
{
    LoggedNumbers out;
    const DebugValue& value = event.value;
    switch (value.kind) {
    case DebugValue::Kind::Tensor:
    case DebugValue::Kind::TensorList: {
        if (tensorIndex >= value.tensors.size()) {
            out.problem = "no tensor";
            return out;
        }
        const DebugTensor& tensor = value.tensors[tensorIndex];
        out.shape = tensor.sizes;
        out.dtype = scalarTypeName(tensor.scalarType);
        out.scalarType = tensor.scalarType;
        auto values = tensorValues(dump, tensor, maxElements);
        if (!values)
            out.problem = values.error().message();
        else if (values->empty())
            out.problem = "empty tensor";
        else
            out.values = std::move(values).value();
        return out;
    }
    case DebugValue::Kind::Int:
        out.values = { static_cast<double>(value.intValue) };
        out.dtype = "Int";
        return out;
    case DebugValue::Kind::Bool:
        out.values = { value.boolValue ? 1.0 : 0.0 };
        out.dtype = "Bool";
        return out;
    case DebugValue::Kind::Float:
    case DebugValue::Kind::Double:
        out.values = { value.doubleValue };
        out.dtype = std::string(debugValueKindName(value.kind));
        return out;
    default:
        out.problem = "a " + std::string(debugValueKindName(value.kind)) + " value has no numbers";
        return out;
    }
}

std::string_view gapMetricName(GapMetric metric)
{
    switch (metric) {
    case GapMetric::Mse:
        return "mse";
    case GapMetric::L1:
        return "l1";
    case GapMetric::Snr:
        return "snr";
    case GapMetric::Cosine:
        return "cosine";
    case GapMetric::MaxAbs:
        return "maxabs";
    }
    return "mse";
}

std::optional<GapMetric> parseGapMetric(std::string_view name)
{
    const std::string n = lowered(name);
    for (const GapMetric m : { GapMetric::Mse, GapMetric::L1, GapMetric::Snr, GapMetric::Cosine, GapMetric::MaxAbs })
        if (n == gapMetricName(m))
            return m;
    if (n == "cosine_similarity")
        return GapMetric::Cosine;
    if (n == "max_abs" || n == "max-abs")
        return GapMetric::MaxAbs;
    return std::nullopt;
}

bool gapHigherIsWorse(GapMetric metric)
{
    return metric != GapMetric::Snr && metric != GapMetric::Cosine;
}

double gapIdenticalValue(GapMetric metric)
{
    // As computeGapMetrics gives them for equal tensors.
    switch (metric) {
    case GapMetric::Snr:
        return std::numeric_limits<double>::infinity();
    case GapMetric::Cosine:
        return 1.0;
    case GapMetric::Mse:
    case GapMetric::L1:
    case GapMetric::MaxAbs:
        break;
    }
    return 0.0;
}

double GapMetrics::value(GapMetric metric) const
{
    switch (metric) {
    case GapMetric::Mse:
        return mse;
    case GapMetric::L1:
        return l1;
    case GapMetric::Snr:
        return snr;
    case GapMetric::Cosine:
        return cosine;
    case GapMetric::MaxAbs:
        return maxAbs;
    }
    return mse;
}

GapMetrics computeGapMetrics(std::span<const double> reference, std::span<const double> run)
{
    GapMetrics m;
    const std::size_t n = std::min(reference.size(), run.size());
    if (n == 0)
        return m;
    double squaredError = 0;
    double signal = 0;
    double dot = 0;
    double normA = 0;
    double normB = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double a = std::isnan(reference[i]) ? 0.0 : reference[i];
        const double b = std::isnan(run[i]) ? 0.0 : run[i];
        const double d = a - b;
        squaredError += d * d;
        m.l1 += std::abs(d);
        // inf − inf is NaN: keep it, where std::max would drop it and report 0.
        m.maxAbs = std::isnan(d) || std::isnan(m.maxAbs) ? std::numeric_limits<double>::quiet_NaN()
                                                         : std::max(m.maxAbs, std::abs(d));
        signal += a * a;
        m.referenceMaxAbs = std::max(m.referenceMaxAbs, std::abs(a));
        dot += a * b;
        normA += a * a;
        normB += b * b;
    }
    const auto count = static_cast<double>(n);
    m.mse = squaredError / count;
    // Identical tensors are a perfect match, also when they are all zeros (ReLU outputs, masks):
    // SNR +inf and cosine 1, where the plain formulas give 0/0 (the Inspector prints nan).
    m.snr = m.mse == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10((signal / count) / m.mse);
    const double norms = std::sqrt(normA) * std::sqrt(normB);
    m.cosine = norms > 0 ? dot / norms : (normA == 0 && normB == 0 ? 1.0 : 0.0);
    return m;
}

std::string describeExecuteBlock(const ETDump& dump, std::size_t block)
{
    return dump.path() + " (Execute block " + std::to_string(block) + " of "
        + std::to_string(dump.executeBlocks().size()) + ")";
}

GapReport compareETDumps(
    const ETDump& run, const ETDump& reference, const EventMapper& mapper, const GapOptions& options)
{
    GapReport report;
    report.mode = "etdump";
    report.run = describeExecuteBlock(run, options.runBlock);
    report.reference = describeExecuteBlock(reference, options.referenceBlock);
    report.runBlock = options.runBlock;
    report.runBlocks = run.executeBlocks().size();
    report.referenceBlock = options.referenceBlock;
    report.referenceBlocks = reference.executeBlocks().size();
    const RunBlock* runBlock = executeBlock(run, options.runBlock);
    const RunBlock* refBlock = executeBlock(reference, options.referenceBlock);
    if (!runBlock || !refBlock) {
        const ETDump& missing = !runBlock ? run : reference;
        const std::size_t count = missing.executeBlocks().size();
        report.warnings.push_back({ missing.path() + ": no Execute block "
                + std::to_string(!runBlock ? options.runBlock : options.referenceBlock) + " (it has "
                + std::to_string(count) + (count ? ", counted from 0)" : ")"),
            std::nullopt });
        return report;
    }
    checkAgainstProgram(report, run, options.runBlock, mapper);
    if (reference.path() != run.path() || options.referenceBlock != options.runBlock)
        checkAgainstProgram(report, reference, options.referenceBlock, mapper);
    const Collected a = collect(*runBlock);
    const Collected b = collect(*refBlock);
    if (a.groups.empty() && a.outputs.empty())
        report.warnings.push_back({ run.path()
                + ": the run logged no debug values (was it made with intermediate or "
                  "program outputs enabled?)",
            std::nullopt });
    DelegateEventCursor cursor;
    // The run's own profiling names say whose values these are (placeLoggedValues).
    const std::map<int, std::vector<std::string>> runNames = profiledNames(*runBlock);
    for (const GroupKey& key : a.order) {
        const auto& [wireChain, instruction, idInt, idStr] = key;
        std::vector<const DebugEvent*> runEvents = a.groups.at(key);
        const ChainIndex chain = runEvents.front()->chain(); // the group's events share wireChain
        const bool internal = idInt.value != -1 || !idStr.empty();
        EventPlacement placement = internal ? mapper.placeDelegateEvent(chain, instruction, idInt, idStr, cursor)
                                            : mapper.placeLoggedValues(chain, instruction, runNames);
        std::string caveat;
        std::vector<const DebugEvent*> refEvents;
        if (const auto it = b.groups.find(key); it != b.groups.end())
            refEvents = it->second;
        const bool delegateCall
            = !internal && placement.matched && mapper.graph().node(placement.origin.top).kind == NodeKind::Delegate;
        if (delegateCall) {
            runEvents = delegateOutputs(runEvents, mapper, instruction, caveat);
            std::string ignored;
            refEvents = delegateOutputs(refEvents, mapper, instruction, ignored);
        }
        const auto runItems = items(runEvents);
        const auto refItems = items(refEvents);
        for (std::size_t i = 0; i < runItems.size(); ++i) {
            GapRow row;
            row.origin = placement.origin;
            row.matched = placement.matched;
            row.label = placement.matched ? mapper.label(placement.origin)
                                          : "instruction " + std::to_string(instruction.value);
            if (placement.nameDisagrees)
                row.label += " (profiled as " + placement.disagreeingName + ": not this program's operator there)";
            // An internal output no inner node stands for: the identifier says which it is
            // (and aot_ops, through the delegate_map's handles, which ops it came from).
            if (placement.origin.inner.valid()) // told apart as diff tells inner nodes apart
                row.label += " (node " + std::to_string(placement.origin.inner.value) + ")";
            if (internal && placement.matched && !placement.origin.inner.valid())
                row.label += " › " + delegateIdentifierText(idStr.empty() ? std::to_string(idInt.value) : idStr);
            row.runtimeOp = placement.matched ? mapper.graph().node(placement.origin.top).opType : std::string();
            if (delegateCall)
                row.runtimeOp = "DELEGATE_CALL";
            row.instruction = instruction;
            row.outputIndex = static_cast<int>(i);
            row.delegateIdentifier = internal ? (idStr.empty() ? std::to_string(idInt.value) : idStr) : std::string();
            row.debugHandles = placement.debugHandles;
            row.aotOps = mapper.edgeNodeNames(placement.debugHandles);
            const Extracted runValue = extract(run, *runItems[i].first, runItems[i].second, options.maxElements);
            if (i >= refItems.size()) {
                row.shape = runValue.shape;
                row.dtype = runValue.dtype;
                row.problem = "the reference logged no such value";
            } else {
                fillMetrics(
                    row, runValue, extract(reference, *refItems[i].first, refItems[i].second, options.maxElements));
            }
            if (row.problem.empty())
                row.problem = caveat;
            report.rows.push_back(std::move(row));
        }
    }
    for (std::size_t i = 0; i < a.outputs.size(); ++i) {
        GapRow row;
        row.origin = { outputNode(mapper.graph(), i), NodeId::none() };
        row.matched = row.origin.top.valid();
        row.label = "output " + std::to_string(i);
        row.runtimeOp = "program output";
        row.outputIndex = static_cast<int>(i);
        const Extracted runValue = extract(run, *a.outputs[i], 0, options.maxElements);
        if (i < b.outputs.size())
            fillMetrics(row, runValue, extract(reference, *b.outputs[i], 0, options.maxElements));
        else {
            row.shape = runValue.shape;
            row.dtype = runValue.dtype;
            row.problem = "the reference logged no such output";
        }
        report.rows.push_back(std::move(row));
    }
    return report;
}

Result<GapReport> compareWithBundled(const ETDump& run, const BundledProgram& bundled, const Program& program,
    const EventMapper& mapper, const GapOptions& options)
{
    const BundledTestSuite* suite = nullptr;
    for (const BundledTestSuite& s : bundled.suites)
        if (s.methodName == mapper.method())
            suite = &s;
    if (!suite)
        return makeError(Error::Code::Usage, program.path(),
            "the bundled program has no test suite for method '" + mapper.method() + "'");
    const RunBlock* runBlock = executeBlock(run, options.runBlock);
    if (!runBlock)
        return makeError(Error::Code::Usage, run.path(),
            "no Execute block " + std::to_string(options.runBlock) + " (it has "
                + std::to_string(run.executeBlocks().size()) + ")");
    const int testCase = options.testCase  ? *options.testCase
        : runBlock->bundledInputIndex >= 0 ? runBlock->bundledInputIndex
                                           : 0;
    if (testCase < 0 || static_cast<std::size_t>(testCase) >= suite->cases.size())
        return makeError(Error::Code::Usage, program.path(),
            "no test case " + std::to_string(testCase) + " (the suite of '" + mapper.method() + "' has "
                + std::to_string(suite->cases.size()) + ")");
    GapReport report;
    report.mode = "bundled";
    report.run = describeExecuteBlock(run, options.runBlock);
    report.runBlock = options.runBlock;
    report.runBlocks = run.executeBlocks().size();
    report.testCase = testCase;
    report.testCases = suite->cases.size();
    report.reference = program.path() + " (test case " + std::to_string(testCase) + " of "
        + std::to_string(suite->cases.size()) + ": expected outputs)";
    checkAgainstProgram(report, run, options.runBlock, mapper);
    const Collected a = collect(*runBlock);
    const auto& expected = suite->cases[static_cast<std::size_t>(testCase)].expectedOutputs;
    if (a.outputs.empty())
        report.warnings.push_back(
            { run.path() + ": the run logged no program outputs (debug level below program outputs)", std::nullopt });
    for (std::size_t i = 0; i < a.outputs.size(); ++i) {
        GapRow row;
        row.origin = { outputNode(mapper.graph(), i), NodeId::none() };
        row.matched = row.origin.top.valid();
        row.label = "output " + std::to_string(i);
        row.runtimeOp = "program output";
        row.outputIndex = static_cast<int>(i);
        const Extracted runValue = extract(run, *a.outputs[i], 0, options.maxElements);
        Extracted ref;
        if (i >= expected.size()) {
            ref.problem = "the test case has no expected output " + std::to_string(i);
        } else {
            const BundledValue& value = expected[i];
            ref.shape = value.sizes;
            ref.dtype = scalarTypeName(value.scalarType);
            switch (value.kind) {
            case BundledValue::Kind::Tensor: {
                DebugTensor shape;
                shape.scalarType = value.scalarType;
                shape.sizes = value.sizes;
                const std::uint64_t count = shape.elementCount();
                const auto bytes = program.bytes(value.data);
                if (count > options.maxElements)
                    ref.problem = std::to_string(count) + " elements: above the limit";
                else if (shape.byteSize() > bytes.size())
                    ref.problem = "expected data holds " + std::to_string(bytes.size()) + " bytes, the shape needs "
                        + std::to_string(shape.byteSize());
                else if (!decodeElements(value.scalarType, bytes.data(), count, ref.values))
                    ref.problem = "elements of type " + ref.dtype + " cannot be read as numbers";
                else if (!value.dimOrder.empty()) {
                    // dim_order lists dimensions outermost first; strides follow from it.
                    std::vector<std::int64_t> strides(value.sizes.size(), 1);
                    std::int64_t step = 1;
                    bool valid = value.dimOrder.size() == value.sizes.size();
                    for (std::size_t k = value.dimOrder.size(); valid && k-- > 0;) {
                        const std::size_t d = value.dimOrder[k];
                        if (d >= strides.size()) {
                            valid = false;
                            break;
                        }
                        strides[d] = step;
                        step *= std::max<std::int64_t>(value.sizes[d], 1);
                    }
                    if (!valid)
                        ref.problem = "dim_order does not match the sizes";
                    else if (auto problem = reorderByStrides(ref.values, value.sizes, strides))
                        ref.problem = *problem;
                }
                break;
            }
            case BundledValue::Kind::Int:
                ref.values = { static_cast<double>(value.intValue) };
                break;
            case BundledValue::Kind::Bool:
                ref.values = { value.boolValue ? 1.0 : 0.0 };
                break;
            case BundledValue::Kind::Double:
                ref.values = { value.doubleValue };
                break;
            case BundledValue::Kind::Unknown:
                ref.problem = "the expected output has an unknown type";
                break;
            }
        }
        fillMetrics(row, runValue, ref);
        report.rows.push_back(std::move(row));
    }
    return report;
}

GapTableLayout::GapTableLayout(std::optional<GapMetric> only, bool imported, bool forJson)
    : imported(imported)
    , forJson(forJson)
{
    metrics = gapMetricColumns(only);
}

std::vector<GapMetric> gapMetricColumns(std::optional<GapMetric> only)
{
    if (only)
        return { *only };
    return { GapMetric::Mse, GapMetric::L1, GapMetric::Snr, GapMetric::Cosine, GapMetric::MaxAbs };
}

std::string appendMetricCells(
    std::vector<TableCell>& cells, const std::optional<GapMetrics>& values, const std::vector<GapMetric>& metrics)
{
    std::string nonFinite;
    for (const GapMetric m : metrics) {
        if (!values) {
            cells.emplace_back(std::string());
            continue;
        }
        const double value = values->value(m);
        if (!std::isfinite(value)) // cellText spells them inf, -inf and nan
            nonFinite
                += (nonFinite.empty() ? "" : ", ") + std::string(gapMetricName(m)) + "=" + cellText(TableCell(value));
        cells.emplace_back(value);
    }
    return nonFinite;
}

std::vector<std::string> GapTableLayout::columns() const
{
    std::vector<std::string> names { "#", "node", "runtime_op", "instruction", "output", "shape", "dtype" };
    for (const GapMetric m : metrics)
        names.emplace_back(gapMetricName(m));
    if (imported)
        names.emplace_back("inspector_gap");
    names.emplace_back("aot_ops");
    names.emplace_back("problem");
    if (forJson)
        names.emplace_back("non_finite");
    return names;
}

std::vector<TableCell> GapTableLayout::row(const GapRow& row, std::size_t number) const
{
    // Program outputs are logged by no instruction: none, not -1.
    std::vector<TableCell> cells { static_cast<long long>(number), row.label, row.runtimeOp,
        row.instruction.valid() ? TableCell(static_cast<long long>(row.instruction.value)) : TableCell(kNoValue),
        static_cast<long long>(row.outputIndex),
        row.shape.empty() && row.dtype.empty() ? std::string() : formatShape(row.shape), row.dtype };
    const std::string nonFinite = appendMetricCells(cells, row.metrics, metrics);
    if (imported) {
        std::string gap;
        for (const double g : row.imported)
            gap += (gap.empty() ? "" : ", ") + cellText(TableCell(g));
        cells.emplace_back(gap);
    }
    std::string ops;
    for (const std::string& op : row.aotOps)
        ops += (ops.empty() ? "" : ", ") + op;
    cells.emplace_back(ops);
    cells.emplace_back(row.problem);
    if (forJson)
        cells.emplace_back(nonFinite);
    return cells;
}

std::vector<std::string> GapTableLayout::notes(const GapReport& report) const
{
    std::vector<std::string> lines { "reference: " + report.reference, "run: " + report.run };
    if (report.importedMetric)
        lines.push_back(
            "inspector_gap holds the Inspector's " + std::string(gapMetricName(*report.importedMetric)) + " values");
    if (forJson)
        lines.emplace_back("JSON has no inf or nan: such metrics are null, and non_finite names them");
    for (const Warning& warning : report.warnings)
        lines.push_back("warning: " + warning.message);
    return lines;
}

Table gapTable(const GapReport& report, std::optional<GapMetric> only, bool forJson)
{
    const GapTableLayout layout(only, report.mode == "inspector", forJson);
    Table table;
    table.title = gapTableTitle(report.mode);
    table.columns = layout.columns();
    for (std::size_t r = 0; r < report.rows.size(); ++r)
        table.rows.push_back(layout.row(report.rows[r], r));
    table.notes = layout.notes(report);
    return table;
}

std::string gapTableTitle(std::string_view mode)
{
    return "Numeric gap (" + std::string(mode) + ")";
}

} // namespace etscope::core
