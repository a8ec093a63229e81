// SPDX-License-Identifier: MIT
// What each section of a report says (`etscope report`, File › Export Report…). Why one file: one
// Builder with a method per section; the sections share its inputs, progress and cancel steps,
// omissions and picture ids, so a section is added in one place.
#include "core/fullreport/report.h"

#include "core/analysis/programdiff.h"
#include "core/cost/cost.h"
#include "core/cost/costreport.h"
#include "core/cost/costvendor.h"
#include "core/debug/dumpcheck.h"
#include "core/debug/eventmapper.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/debug/programgap.h"
#include "core/debug/runtimeprofile.h"
#include "core/graph/grouping.h"
#include "core/report/reports.h"
#include "core/stats/operatortable.h"
#include "core/util/text.h"
#include "core/why/why.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

namespace etscope::core {

namespace {

std::string fileName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string percentText(double part, double whole)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
    return text;
}

std::string msText(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", ms);
    return text;
}

/// Milliseconds as a number, to the microsecond (tables keep numbers as numbers).
TableCell msCell(double ms)
{
    return std::round(ms * 1000.0) / 1000.0;
}

/// "a, b, c and 4 more".
std::string listText(const std::vector<std::string>& items, std::size_t shown = 8)
{
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i)
        text += (i ? ", " : "") + items[i];
    if (items.size() > shown)
        text += " and " + std::to_string(items.size() - shown) + " more";
    return text;
}

/// A safe file-name part: letters, digits, '-' and '_' kept, the rest '_'.
std::string slug(const std::string& text)
{
    std::string out;
    for (const char c : text)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return out.substr(0, 48);
}

ReportBlock paragraph(std::string text)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Paragraph;
    block.text = std::move(text);
    return block;
}

ReportBlock omitted(std::string reason)
{
    ReportBlock block;
    block.kind = ReportBlock::Kind::Omitted;
    block.text = std::move(reason);
    return block;
}

/// The table, cut at `maxRows` with a note saying how many rows were left out.
ReportBlock tableBlock(Table table, std::size_t maxRows)
{
    if (table.rows.size() > maxRows) {
        const std::size_t left = table.rows.size() - maxRows;
        table.rows.resize(maxRows);
        table.notes.insert(table.notes.begin(),
            "… " + std::to_string(left) + " more rows left out (the command line prints them all)");
    }
    ReportBlock block;
    block.kind = ReportBlock::Kind::Table;
    block.table = std::move(table);
    return block;
}

/// "does not fit (1 of 2 delegates) — forward #0 EthosUBackend: …": the device answer in one line.
std::string deviceAnswer(const DeviceCheck& check)
{
    const Fit overall = check.overall();
    const std::string text(fitName(overall));
    int counted = 0;
    std::string first;
    for (const DelegateFit& fit : check.delegates)
        if (fit.fit == overall) {
            ++counted;
            if (first.empty())
                first = fit.method + " #" + std::to_string(fit.delegate) + " " + fit.backendId
                    + (fit.reasons.empty() ? std::string() : ": " + fit.reasons.front());
        }
    if (counted == 0) // no delegate decides it: the kernels (or backends) of the device's runtime do
        return text
            + (overall == Fit::DoesNotFit ? " — the device's runtime lacks a kernel or backend the program needs"
                                          : std::string());
    return text + " (" + std::to_string(counted) + " of " + std::to_string(check.delegates.size()) + " delegates) — "
        + first;
}

class Builder {
public:
    Builder(const ReportInputs& inputs, const ReportControl& control)
        : m_in(inputs)
        , m_control(control)
        , m_document(*inputs.document)
        , m_program(*inputs.document->program)
    {
    }

    /// The report, or nothing when the control cancelled it.
    std::optional<Report> build();

private:
    /// The steps build() reports: the kernel check, the memory plans, the size breakdown, the
    /// sections (summary, operators, load, memory, size, profile and gap, cost, why, baseline,
    /// graphs) and
    /// the warnings.
    static constexpr int kSteps = 14;
    /// Whether the caller asked to stop (latched: once true, stays true). Cheap enough for loops.
    bool stopped()
    {
        if (!m_stopped && m_control.cancelled && m_control.cancelled())
            m_stopped = true;
        return m_stopped;
    }
    /// Starts the next step: tells the caller, false when it asked to stop.
    bool step(const std::string& what)
    {
        if (stopped())
            return false;
        if (m_control.progress)
            m_control.progress(what, m_done, kSteps);
        ++m_done;
        return true;
    }

    ReportSection& section(const std::string& id, const std::string& title)
    {
        m_report.sections.push_back({ id, title, {} });
        for (const ReportOmission& omission : m_in.omissions)
            if (omission.section == id)
                m_report.sections.back().blocks.push_back(omitted(omission.reason));
        return m_report.sections.back();
    }
    void leaveOut(ReportSection& section, const std::string& reason)
    {
        section.blocks.push_back(omitted(reason));
        m_report.warnings.push_back(section.id + ": " + reason);
    }
    std::size_t picture(ReportPicture picture)
    {
        // Ids name files (Markdown) and anchors: "a.b" and "a_b" both slug to "a_b".
        const std::string base = picture.id;
        for (int n = 2; !m_pictureIds.insert(picture.id).second; ++n)
            picture.id = base + "-" + std::to_string(n);
        m_report.pictures.push_back(std::move(picture));
        return m_report.pictures.size() - 1;
    }
    void addPicture(ReportSection& section, ReportPicture p)
    {
        ReportBlock block;
        block.kind = ReportBlock::Kind::Picture;
        block.picture = picture(std::move(p));
        section.blocks.push_back(std::move(block));
    }
    void warn(const std::string& subject, const std::vector<Warning>& warnings)
    {
        for (const Warning& warning : warnings)
            if (m_warningLines.insert(warning.message).second)
                m_collected.push_back(subject + warning.message);
    }

    bool hasInstructions(const Method& method) const { return method.instructionCounts().total() > 0; }
    const Graph* graphOf(std::size_t method) const
    {
        return method < m_document.methods.size() ? m_document.methods[method].graph.get() : nullptr;
    }

    void summary();
    void graphs();
    void operators();
    void load();
    void memory();
    void size();
    void debug();
    void firstDivergence(ReportSection& gap, const GapReport& report, const EventMapper& mapper);
    void cost();
    void why();
    void baseline();
    void warnings();
    void keepOnly(const std::set<std::string>& ids);

    const ReportInputs& m_in;
    const ReportControl& m_control;
    bool m_stopped = false;
    int m_done = 0;
    const Document& m_document;
    const Program& m_program;
    Report m_report;
    std::optional<KernelLists> m_defaultLists;
    const KernelLists* m_lists = nullptr;
    KernelCheck m_check;
    std::optional<DeviceCheck> m_device; ///< with ReportInputs::device
    std::optional<SizeBreakdown> m_size;
    std::string m_sizeError;
    const Method* m_debugMethod = nullptr;
    std::set<int> m_problemNodes; ///< top-level node ids of the debug method the gap or check points at
    /// The gap's first divergence (findFirstDivergence, as `gap --first-divergence` and the app's
    /// Go › First Divergence find it): marked on the debug method's graph pictures.
    std::optional<NodeOrigin> m_divergenceNode;
    std::string m_divergenceMark;
    std::map<int, std::set<int>> m_missingNodes; ///< per method: nodes whose operator no list provides
    std::vector<std::string> m_collected;
    std::set<std::string> m_warningLines;
    std::set<std::string> m_pictureIds;
};

std::optional<Report> Builder::build()
{
    m_report.title = "ETScope report: " + fileName(m_document.path);
    std::vector<std::string> given { m_document.path };
    if (m_in.run)
        given.push_back("ETDump " + m_in.run->path());
    if (m_in.reference)
        given.push_back("reference " + m_in.reference->path());
    if (m_in.record)
        given.emplace_back("ETRecord");
    if (!m_in.inspectorTable.empty())
        given.push_back("Inspector table " + m_in.inspectorTable);
    if (m_in.baseline)
        given.push_back("baseline " + m_in.baseline->path);
    m_report.subtitle = listText(given, 10);

    if (!step("kernel check"))
        return std::nullopt;
    if (m_in.kernels) {
        m_lists = m_in.kernels;
    } else {
        // No lists given: the runtime the program's delegates say it is built for, as `check`.
        m_defaultLists = presetKernelLists(presetForProgram(m_program), true);
        m_lists = &*m_defaultLists;
    }
    if (m_lists)
        m_check = checkKernels(m_document, *m_lists);
    if (m_lists && m_in.device)
        m_device = checkDevice(m_document, *m_in.device, *m_lists);
    m_debugMethod = selectMethod(m_program, m_in.method);
    if (!step("memory plans"))
        return std::nullopt;
    m_report.plans.resize(m_program.methods.size());
    for (std::size_t m = 0; m < m_program.methods.size(); ++m) {
        if (stopped())
            return std::nullopt;
        const Method& method = m_program.methods[m];
        if (!hasInstructions(method))
            continue;
        auto plan = std::make_shared<MemoryPlan>(computeMemoryPlan(m_document, method));
        warn("memory '" + method.name + "': ", plan->warnings);
        m_report.plans[m] = std::move(plan);
        if (const Graph* graph = graphOf(m))
            if (const MethodKernelCheck* check = m_check.method(method.name))
                for (const NodeId node : missingKernelNodes(*graph, *check))
                    m_missingNodes[static_cast<int>(m)].insert(node.value);
    }
    if (!step("size breakdown"))
        return std::nullopt;
    if (auto breakdown = sizeBreakdown(m_document)) {
        m_size = std::move(breakdown).value();
        m_report.size = std::make_shared<SizeBreakdown>(*m_size);
    } else {
        m_sizeError = breakdown.error().message();
    }
    warn("", m_document.warnings);

    // Sections keep their place: references to them stay valid while later ones are added.
    m_report.sections.reserve(16);
    // The sections in the order they are computed (the graphs come second in the report, but
    // the groups they open depend on the gap's worst nodes).
    const std::pair<const char*, void (Builder::*)()> sections[] = { { "summary", &Builder::summary },
        { "operators", &Builder::operators }, { "load", &Builder::load }, { "memory", &Builder::memory },
        { "size", &Builder::size }, { "profile and gap", &Builder::debug }, { "cost", &Builder::cost },
        { "why", &Builder::why }, { "baseline", &Builder::baseline }, { "graphs", &Builder::graphs } };
    for (const auto& [name, run] : sections) {
        if (!step(std::string("section ") + name))
            return std::nullopt;
        (this->*run)();
    }
    // A section that stopped inside its loop left its work half done: nothing is returned.
    if (stopped())
        return std::nullopt;
    std::rotate(m_report.sections.begin() + 1, m_report.sections.end() - 1, m_report.sections.end());
    if (!step("warnings"))
        return std::nullopt;
    warnings();
    if (stopped())
        return std::nullopt;
    if (!m_in.sections.empty())
        keepOnly(m_in.sections);
    return std::move(m_report);
}

void Builder::keepOnly(const std::set<std::string>& ids)
{
    std::erase_if(m_report.sections, [&](const ReportSection& section) { return !ids.count(section.id); });
    // Only the pictures the kept sections show, renumbered.
    std::vector<ReportPicture> kept;
    for (ReportSection& section : m_report.sections)
        for (ReportBlock& block : section.blocks)
            if (block.kind == ReportBlock::Kind::Picture) {
                kept.push_back(std::move(m_report.pictures[block.picture]));
                block.picture = kept.size() - 1;
            }
    m_report.pictures = std::move(kept);
}

void Builder::summary()
{
    ReportSection& s = section("summary", "Summary");
    ReportBlock facts;
    facts.kind = ReportBlock::Kind::Facts;
    auto& f = facts.facts;
    f.emplace_back("File", m_document.path);
    const std::uint64_t fileSize = m_size ? m_size->main.fileSize : 0;
    f.emplace_back("Format",
        std::string(fileKindName(m_document.kind)) + ", " + formatBytes(fileSize) + " (" + std::to_string(fileSize)
            + " bytes)");
    std::vector<std::string> withCode;
    std::size_t instructions = 0;
    for (const Method& method : m_program.methods) {
        const int total = method.instructionCounts().total();
        instructions += static_cast<std::size_t>(total);
        if (total > 0)
            withCode.push_back(
                method.name + " (" + std::to_string(total) + (total == 1 ? " instruction)" : " instructions)"));
    }
    f.emplace_back("Methods",
        std::to_string(m_program.methods.size()) + (withCode.empty() ? "" : ": " + listText(withCode, 6))
            + (withCode.size() < m_program.methods.size()
                    ? "; " + std::to_string(m_program.methods.size() - withCode.size()) + " without instructions"
                    : ""));
    const OperatorTable combined = m_check.combinedTable();
    std::vector<std::string> backends;
    for (const auto& [id, share] : combined.backends)
        backends.push_back(id + " × " + std::to_string(share.subgraphs)
            + (share.opaqueSubgraphs ? " (" + std::to_string(share.opaqueSubgraphs) + " not decoded)" : ""));
    f.emplace_back("Backends", backends.empty() ? "none (every operator runs on the CPU kernels)" : listText(backends));
    const auto share = combined.shareLines();
    if (!share.empty()) {
        std::string text;
        for (const std::string& line : share)
            text += (text.empty() ? "" : "; ") + line;
        f.emplace_back("Delegated share", text);
    }
    if (m_lists) {
        int missing = 0;
        std::set<std::string> missingOps;
        std::vector<std::string> notLinked;
        std::set<std::string> unverified;
        for (const MethodKernelCheck& method : m_check.methods) {
            for (const OperatorKernel& op : method.operators)
                if (op.missing())
                    missingOps.insert(op.name);
            for (const BackendNeed& need : method.backends) {
                if (need.status == BackendNeed::Status::NotLinked)
                    notLinked.push_back(need.backendId);
                else if (need.status == BackendNeed::Status::Unverified)
                    unverified.insert(need.backendId);
            }
        }
        missing = static_cast<int>(missingOps.size());
        // As `etscope check` says it: a yes that needs a backend no list declares is conditional.
        std::string answer = !m_check.loads() ? "no"
            : unverified.empty()
            ? "yes"
            : "yes, if the runtime links " + listText(std::vector<std::string>(unverified.begin(), unverified.end()));
        if (missing)
            answer += ": " + std::to_string(missing) + " operator(s) without a kernel ("
                + listText(std::vector<std::string>(missingOps.begin(), missingOps.end()), 4) + ")";
        if (!notLinked.empty())
            answer += (missing ? "; " : ": ") + std::string("backend(s) not linked: ") + listText(notLinked);
        answer += " — kernel lists: " + listText(m_check.lists);
        if (const std::string runtime = runtimeText(*m_lists, m_check.delegatesPerBackend()); !runtime.empty())
            answer += " — runtime: " + runtime;
        f.emplace_back("Will it load", answer);
        if (m_device)
            f.emplace_back("On " + m_device->device.title + " (" + m_device->device.id + ")", deviceAnswer(*m_device));
    }
    std::vector<std::string> peaks;
    for (auto& plan : m_report.plans)
        if (plan)
            for (const MemoryArena& arena : plan->arenas)
                if (arena.peakLiveBytes > 0 || (arena.declaredSize && *arena.declaredSize > 0))
                    peaks.push_back(plan->method + " arena " + std::to_string(arena.id) + ": "
                        + formatBytes(arena.peakLiveBytes)
                        + (arena.declaredSize ? " of " + formatBytes(static_cast<std::uint64_t>(*arena.declaredSize))
                                              : std::string()));
    f.emplace_back("Peak planned memory", peaks.empty() ? "no memory-planned tensors" : listText(peaks, 6));
    if (m_size) {
        std::vector<std::string> parts;
        for (const SizeGroup& group : sizeByKind(m_size->main))
            if (group.bytes > 0)
                parts.push_back(group.name + " " + formatBytes(group.bytes) + " ("
                    + percentText(static_cast<double>(group.bytes), static_cast<double>(m_size->main.fileSize)) + ")");
        f.emplace_back("File size by part", listText(parts, 6));
    }
    f.emplace_back("Instructions", std::to_string(instructions));
    s.blocks.push_back(std::move(facts));
    // What each delegate was built for (issue 33): SoC, NPU, OS version, format versions.
    Table built { "What the delegates were built for",
        { "method", "delegate", "backend", "fact", "value", "read from" }, {}, {} };
    for (const Method& method : m_program.methods) {
        const MethodAnalysis* analysis = m_document.analysis(method);
        if (!analysis)
            continue;
        for (std::size_t d = 0; d < analysis->delegates.size(); ++d)
            for (const TargetFact& fact : analysis->delegates[d].target)
                built.rows.push_back({ method.name, static_cast<long long>(d), analysis->delegates[d].backendId,
                    fact.name, fact.value, fact.source });
    }
    if (!built.rows.empty())
        s.blocks.push_back(tableBlock(std::move(built), m_in.maxTableRows));
}

void Builder::graphs()
{
    ReportSection& s = section("graphs", "Graphs");
    s.blocks.push_back(paragraph("Each method's data-flow graph as the app draws it (delegates "
        + std::string(m_in.expand == "none" ? "closed"
                : m_in.expand == "all" ? "expanded, but those of more than " + std::to_string(kReportExpandAllMaxNodes)
                    + " inner nodes drawn closed, as each graph's caption says"
                                       : "of backend " + m_in.expand + " expanded")
        + "). Operators run on the CPU are grey boxes named by their kernel; a delegate is drawn in its backend's "
          "colour (the legend under each title) and, expanded, as a frame holding its inner graph. Methods of more "
          "than "
        + std::to_string(kGroupAboveNodes)
        + " nodes are drawn as their overview (groups of consecutive instructions); the groups holding operators "
          "without a kernel or the worst numeric gap follow it opened."));
    std::vector<std::string> empty;
    for (std::size_t m = 0; m < m_program.methods.size() && !stopped(); ++m) {
        const Method& method = m_program.methods[m];
        if (!hasInstructions(method)) {
            empty.push_back(method.name);
            continue;
        }
        const Graph* graph = graphOf(m);
        if (!graph)
            continue;
        ReportPicture p;
        p.kind = ReportPicture::Kind::Graph;
        p.method = static_cast<int>(m);
        p.expand = m_in.expand;
        p.id = "graph-" + slug(method.name);
        const Grouping grouping = groupLongGraph(*graph);
        p.caption = "Method '" + method.name + "'"
            + (grouping.empty() ? "" : ": overview, " + std::to_string(grouping.groups.size()) + " groups");
        if (m_in.expand == "all") {
            std::vector<std::string> closed;
            for (const Node& node : graph->nodes)
                if (node.kind == NodeKind::Delegate && node.subgraph
                    && node.subgraph->nodes.size() > kReportExpandAllMaxNodes)
                    // Operator nodes, as `ops`, `info` and the delegate box count them (not the
                    // inner Input/Output boxes that make the drawing large).
                    closed.push_back(node.label + " (" + std::to_string(node.subgraph.operatorCount()) + " nodes)");
            if (!closed.empty())
                p.caption += "; drawn closed: " + listText(closed, 4) + " (name the backend with --expand to open)";
        }
        if (&method == m_debugMethod && m_divergenceNode) {
            p.mark = m_divergenceNode;
            p.markText = m_divergenceMark;
        }
        addPicture(s, p);
        if (grouping.empty())
            continue;
        // The groups holding problems: missing kernels first, then the debug method's worst nodes.
        std::vector<int> groups;
        const auto add = [&](int node) {
            const int group = grouping.groupOfNode(NodeId(node));
            if (group >= 0 && std::find(groups.begin(), groups.end(), group) == groups.end()
                && groups.size() < m_in.maxProblemGroups)
                groups.push_back(group);
        };
        if (auto it = m_missingNodes.find(static_cast<int>(m)); it != m_missingNodes.end())
            for (const int node : it->second)
                add(node);
        if (&method == m_debugMethod) {
            if (m_divergenceNode) // its group first: the picture that shows where it starts
                add(m_divergenceNode->top.value);
            for (const int node : m_problemNodes)
                add(node);
        }
        for (const int group : groups) {
            ReportPicture g = p;
            g.group = group;
            g.id = p.id + "-group-" + std::to_string(group + 1);
            g.caption = "Method '" + method.name + "', group " + std::to_string(group + 1) + " of "
                + std::to_string(grouping.groups.size()) + " (instructions "
                + std::to_string(grouping.groups[static_cast<std::size_t>(group)].first.value) + "–"
                + std::to_string(grouping.groups[static_cast<std::size_t>(group)].last.value) + ")";
            addPicture(s, g);
        }
    }
    if (!empty.empty())
        s.blocks.push_back(paragraph("Methods without instructions (not drawn): " + listText(empty, 12) + "."));
}

void Builder::operators()
{
    ReportSection& s = section("operators", "Operators");
    s.blocks.push_back(paragraph("The operator occurrence table of each method, as ExecuTorch's get_delegation_info "
                                 "counts it: occurrences inside delegates and on the CPU, with the summary lines."));
    for (const MethodKernelCheck& method : m_check.methods) {
        if (stopped())
            return;
        if (method.table.rows.empty() && method.table.delegatedSubgraphs == 0)
            continue;
        s.blocks.push_back(tableBlock(
            operatorTableReport(method.table, "Method '" + method.method + "' (from the program)"), m_in.maxTableRows));
        if (m_in.record) {
            auto exact = etrecordOperatorTable(*m_in.record, method.method);
            if (exact)
                s.blocks.push_back(tableBlock(
                    operatorTableReport(exact.value(), "Method '" + method.method + "' (" + exact->source + ", exact)"),
                    m_in.maxTableRows));
            else if (m_debugMethod && method.method == m_debugMethod->name)
                leaveOut(s, "ETRecord table of '" + method.method + "': " + exact.error().message());
        }
    }
}

void Builder::load()
{
    ReportSection& s = section("load", "Will it load");
    if (!m_lists) {
        leaveOut(s, "the built-in kernel lists could not be read");
        return;
    }
    const std::string runtime = runtimeText(*m_lists, m_check.delegatesPerBackend());
    if (m_device) {
        const DeviceProfile& device = m_device->device;
        s.blocks.push_back(paragraph("Device: " + device.title + " (" + device.id + "): " + deviceAnswer(*m_device)
            + ". The kernel lists below are its runtime's. Device facts: " + device.source + "."));
        Table fits { "Delegates on " + device.title, { "method", "delegate", "backend", "built for", "answer", "why" },
            {}, {} };
        for (const DelegateFit& fit : m_device->delegates)
            fits.rows.push_back({ fit.method, "#" + std::to_string(fit.delegate), fit.backendId,
                fit.builtFor.empty() ? "-" : fit.builtFor, std::string(fitName(fit.fit)), listText(fit.reasons, 3) });
        if (!fits.rows.empty())
            s.blocks.push_back(tableBlock(std::move(fits), m_in.maxTableRows));
    }
    s.blocks.push_back(paragraph(std::string(m_check.loads() ? "Yes" : "No") + ": every KernelCall's operator checked "
        + "against the kernel lists " + listText(m_check.lists) + ", every delegate's backend listed."
        + (runtime.empty() ? std::string() : " Runtime: " + runtime + ".")));
    Table missing { "Operators without a kernel", { "method", "operator", "calls", "first instructions" }, {}, {} };
    Table backends { "Backends the delegates need", { "method", "backend", "delegates", "status", "linked by" }, {},
        {} };
    for (const MethodKernelCheck& method : m_check.methods) {
        for (const OperatorKernel& op : method.operators) {
            if (!op.missing())
                continue;
            std::vector<std::string> at;
            for (std::size_t i = 0; i < op.calls.size() && i < 5; ++i)
                at.push_back(std::to_string(op.calls[i].instruction.value));
            missing.rows.push_back(
                { method.method, op.name, static_cast<long long>(op.calls.size()), listText(at, 5) });
        }
        for (const BackendNeed& need : method.backends)
            backends.rows.push_back({ method.method, need.backendId, static_cast<long long>(need.delegates),
                std::string(backendStatusName(need.status)), need.linkedBy.empty() ? "-" : need.linkedBy });
    }
    if (missing.rows.empty())
        s.blocks.push_back(paragraph("Every operator has a kernel in these lists."));
    else {
        const std::string hint = missingKernelHintText(missingKernelHint(m_check, *m_lists), true);
        if (!hint.empty())
            missing.notes.push_back(hint);
        s.blocks.push_back(tableBlock(std::move(missing), m_in.maxTableRows));
    }
    if (!backends.rows.empty())
        s.blocks.push_back(tableBlock(std::move(backends), m_in.maxTableRows));
    for (const Warning& w : m_check.warnings)
        s.blocks.push_back(paragraph("warning: " + w.message));
}

void Builder::memory()
{
    ReportSection& s = section("memory", "Memory plan");
    bool any = false;
    // An LLM has several methods with arenas each: the first charts are drawn, the rest counted.
    constexpr std::size_t kMaxCharts = 8;
    std::size_t charts = 0;
    std::size_t skipped = 0;
    for (std::size_t m = 0; m < m_report.plans.size() && !stopped(); ++m) {
        const auto& plan = m_report.plans[m];
        if (!plan || plan->arenas.empty())
            continue;
        any = true;
        Table arenas = memoryArenaTable(*plan);
        arenas.title = "Method '" + plan->method + "': arenas";
        s.blocks.push_back(tableBlock(std::move(arenas), m_in.maxTableRows));
        for (std::size_t a = 0; a < plan->arenas.size(); ++a) {
            const MemoryArena& arena = plan->arenas[a];
            if (arena.highestEnd == 0)
                continue;
            if (charts++ >= kMaxCharts) {
                ++skipped;
                continue;
            }
            ReportPicture p;
            p.kind = ReportPicture::Kind::MemoryArena;
            p.method = static_cast<int>(m);
            p.arena = static_cast<int>(a);
            p.id = "memory-" + slug(plan->method) + "-" + std::to_string(arena.id);
            p.caption = "Method '" + plan->method + "', arena " + std::to_string(arena.id) + ": peak "
                + formatBytes(arena.peakLiveBytes) + " at step " + std::to_string(arena.peakStep) + ", "
                + percentText(arena.fragmentation * 100.0, 100.0) + " of the used extent idle at the peak";
            addPicture(s, p);
        }
    }
    if (!any)
        s.blocks.push_back(paragraph("No method plans memory (no memory-planned tensors)."));
    if (skipped > 0)
        s.blocks.push_back(paragraph(std::to_string(skipped) + " more arena chart(s) not drawn (the first "
            + std::to_string(kMaxCharts) + " are; etscope memory --method NAME shows any method's plan)."));
}

void Builder::size()
{
    ReportSection& s = section("size", "File size");
    if (!m_size) {
        leaveOut(s, m_sizeError);
        return;
    }
    const SizeTree& tree = m_size->main;
    ReportPicture p;
    p.kind = ReportPicture::Kind::SizeTreemap;
    p.id = "size";
    p.caption = fileName(tree.path) + ": " + formatBytes(tree.fileSize) + " by part (areas are bytes)";
    addPicture(s, p);
    Table kinds { "By kind", { "kind", "bytes", "share", "parts" }, {}, {} };
    for (const SizeGroup& group : sizeByKind(tree))
        kinds.rows.push_back({ group.name, static_cast<long long>(group.bytes),
            percentText(static_cast<double>(group.bytes), static_cast<double>(tree.fileSize)),
            static_cast<long long>(group.parts) });
    s.blocks.push_back(tableBlock(std::move(kinds), m_in.maxTableRows));
    const auto backends = sizeByBackend(tree);
    if (backends.size() > 1) {
        Table byBackend { "By backend (delegate blobs and the named data they use)", { "backend", "bytes", "share" },
            {}, {} };
        for (const SizeGroup& group : backends)
            byBackend.rows.push_back({ group.name, static_cast<long long>(group.bytes),
                percentText(static_cast<double>(group.bytes), static_cast<double>(tree.fileSize)) });
        s.blocks.push_back(tableBlock(std::move(byBackend), m_in.maxTableRows));
    }
    auto leaves = sizeLeaves(tree);
    std::stable_sort(
        leaves.begin(), leaves.end(), [](const SizeNode* a, const SizeNode* b) { return a->bytes > b->bytes; });
    Table largest { "Largest parts", { "part", "kind", "bytes", "share", "offset" }, {}, {} };
    for (std::size_t i = 0; i < leaves.size() && i < 10; ++i)
        largest.rows.push_back(
            { leaves[i]->name, std::string(sizeKindName(leaves[i]->kind)), static_cast<long long>(leaves[i]->bytes),
                percentText(static_cast<double>(leaves[i]->bytes), static_cast<double>(tree.fileSize)),
                static_cast<long long>(leaves[i]->span.offset) });
    s.blocks.push_back(tableBlock(std::move(largest), m_in.maxTableRows));
    for (const SizeTree& external : m_size->externalData)
        s.blocks.push_back(paragraph("External data " + external.path + ": " + formatBytes(external.fileSize) + "."));
    warn("size: ", tree.warnings);
}

void Builder::debug()
{
    ReportSection& profile = section("profile", "Profile");
    ReportSection* gapSection = nullptr;
    const bool gapAsked = m_in.reference || !m_in.inspectorTable.empty();
    const bool gapOmitted = std::any_of(
        m_in.omissions.begin(), m_in.omissions.end(), [](const ReportOmission& o) { return o.section == "gap"; });
    const auto gap = [&]() -> ReportSection& {
        if (!gapSection) {
            // `section` may reallocate: look the section up by position afterwards.
            section("gap", "Numeric gap");
            gapSection = &m_report.sections.back();
        }
        return *gapSection;
    };
    const Graph* graph
        = m_debugMethod ? graphOf(static_cast<std::size_t>(m_debugMethod - m_program.methods.data())) : nullptr;
    if (!m_in.run && profile.blocks.empty())
        profile.blocks.push_back(paragraph("No ETDump given: no profile and no timeline."));
    if (!graph) {
        if (m_in.run)
            leaveOut(profile, "no method to place the ETDump's events on");
        if (gapAsked)
            leaveOut(gap(), "no method to place the gap on");
        return;
    }
    const EventMapper mapper(*graph, m_in.record, m_debugMethod->name);
    if (m_in.run) {
        const ETDump& dump = *m_in.run;
        const RuntimeProfile runtime = buildRuntimeProfile(dump, mapper);
        warn("etdump: ", dump.warnings);
        warn("etdump: ", dumpFitWarnings(checkDumpFitsProgram(dump, mapper), dump.path(), m_debugMethod->name));
        warn("profile: ", runtime.warnings);
        if (runtime.executeBlocks == 0) {
            leaveOut(profile, dump.path() + ": no Execute block: the program never ran while it was logged");
        } else {
            double total = 0;
            for (const NodeTiming& node : runtime.nodes)
                if (!node.origin.inner.valid())
                    total += node.kernel.avg;
            std::vector<const NodeTiming*> slowest;
            for (const NodeTiming& node : runtime.nodes)
                slowest.push_back(&node);
            std::stable_sort(slowest.begin(), slowest.end(),
                [](const NodeTiming* a, const NodeTiming* b) { return a->kernel.avg > b->kernel.avg; });
            if (slowest.size() > m_in.topRows)
                slowest.resize(m_in.topRows);
            Table table { "Slowest operators of '" + m_debugMethod->name + "'",
                { "node", "event", "instruction", "runs", "avg ms", "p50 ms", "max ms", "share of top level" }, {},
                {} };
            for (const NodeTiming* node : slowest) {
                const ProfileRow& row = runtime.rows[node->row];
                table.rows.push_back({ node->label, row.name,
                    row.instruction.valid() ? TableCell(static_cast<long long>(row.instruction.value))
                                            : TableCell(std::string("-")),
                    static_cast<long long>(node->kernel.count), msCell(runtime.toMs(node->kernel.avg)),
                    msCell(runtime.toMs(node->kernel.p50)), msCell(runtime.toMs(node->kernel.max)),
                    node->origin.inner.valid() ? std::string("(inside a delegate)")
                                               : percentText(node->kernel.avg, total) });
            }
            table.notes.push_back("run: " + dump.path() + ", " + std::to_string(runtime.executeBlocks)
                + " Execute block(s); ticks read as nanoseconds; " + std::to_string(runtime.nodes.size())
                + " timed nodes, top level " + msText(runtime.toMs(total)) + " ms per run on average");
            profile.blocks.push_back(tableBlock(std::move(table), m_in.maxTableRows));
        }
        TimelineOptions options;
        options.run = 0;
        options.checkFit = false;
        if (runtime.executeBlocks > 0) {
            if (auto timeline = buildTimeline(dump, &mapper, options)) {
                warn("timeline: ", timeline->warnings);
                m_report.timeline = std::make_shared<Timeline>(std::move(timeline).value());
                ReportPicture p;
                p.kind = ReportPicture::Kind::Timeline;
                p.id = "timeline";
                p.caption = "Timeline of run 0 of " + std::to_string(m_report.timeline->executeBlocks) + " ("
                    + fileName(dump.path()) + "): the method lane, then one lane per delegate call";
                addPicture(profile, p);
            } else {
                leaveOut(profile, "timeline: " + timeline.error().message());
            }
        }
    }
    if (!gapAsked) {
        if (gapOmitted)
            gap();
        else if (m_in.run)
            gap().blocks.push_back(paragraph("No reference given (a second ETDump or an Inspector table): no gap."));
        return;
    }
    ReportSection& g = gap();
    std::optional<GapReport> report;
    if (m_in.reference) {
        if (!m_in.run)
            leaveOut(g, "a reference ETDump needs a run ETDump to compare with");
        else
            report = compareETDumps(*m_in.run, *m_in.reference, mapper);
    } else {
        auto imported = importInspectorTable(m_in.inspectorTable, mapper, GapMetric::Mse);
        if (imported)
            report = std::move(imported).value();
        else
            leaveOut(g, imported.error().message());
    }
    if (!report)
        return;
    warn("gap: ", report->warnings);
    std::vector<const GapRow*> worst;
    for (const GapRow& row : report->rows)
        if (row.metrics || !row.imported.empty())
            worst.push_back(&row);
    const auto mse = [](const GapRow* row) {
        const double v = row->metrics ? row->metrics->mse : (row->imported.empty() ? 0 : row->imported.front());
        return std::isnan(v) ? INFINITY : v;
    };
    std::stable_sort(worst.begin(), worst.end(), [&](const GapRow* a, const GapRow* b) { return mse(a) > mse(b); });
    if (worst.size() > m_in.topRows)
        worst.resize(m_in.topRows);
    Table table { "Worst nodes by MSE",
        { "node", "runtime op", "instruction", "output", "shape", "mse", "snr dB", "cosine", "max abs" }, {}, {} };
    for (const GapRow* row : worst) {
        const auto metric = [&](double GapMetrics::*field) {
            return row->metrics ? TableCell((*row->metrics).*field) : TableCell(std::string("-"));
        };
        table.rows.push_back({ row->label, row->runtimeOp,
            row->instruction.valid() ? TableCell(static_cast<long long>(row->instruction.value))
                                     : TableCell(std::string("-")),
            static_cast<long long>(row->outputIndex), formatShape(row->shape),
            row->metrics ? TableCell(row->metrics->mse) : TableCell(mse(row)), metric(&GapMetrics::snr),
            metric(&GapMetrics::cosine), metric(&GapMetrics::maxAbs) });
        if (row->origin.top.valid())
            m_problemNodes.insert(row->origin.top.value);
    }
    table.notes.push_back("run: " + report->run);
    table.notes.push_back("reference: " + report->reference);
    table.notes.push_back(std::to_string(report->rows.size()) + " compared values");
    firstDivergence(g, *report, mapper);
    if (table.rows.empty())
        g.blocks.push_back(paragraph("No value could be compared (" + std::to_string(report->rows.size())
            + " rows, none with values on both sides)."));
    else
        g.blocks.push_back(tableBlock(std::move(table), m_in.maxTableRows));
}

void Builder::firstDivergence(ReportSection& gap, const GapReport& report, const EventMapper& mapper)
{
    // The rule `gap --first-divergence` applies without --threshold (an imported table is read
    // as mse, as debug() imports it), found by the same function as the app's Go › First
    // Divergence, so the three name the same node.
    const bool imported = report.importedMetric.has_value();
    const DivergenceRule rule(defaultDivergenceThresholds(imported),
        imported ? std::optional<GapMetric>(*report.importedMetric) : std::nullopt);
    const std::optional<FirstDivergence> divergence = findFirstDivergence(report, mapper, rule);
    const auto compared
        = static_cast<std::size_t>(std::count_if(report.rows.begin(), report.rows.end(), gapRowCompared));
    const std::string thresholds = describeThresholds(rule.thresholds());
    ReportBlock facts;
    facts.kind = ReportBlock::Kind::Facts;
    if (!divergence || divergence->row >= report.rows.size()) {
        facts.facts.emplace_back("First divergence",
            "none: " + std::to_string(compared) + " of " + std::to_string(report.rows.size())
                + " rows compared, none crosses " + thresholds);
        gap.blocks.push_back(std::move(facts));
        return;
    }
    const GapRow& row = report.rows[divergence->row];
    facts.facts.emplace_back("First divergence", joinNodePath(divergence->path));
    facts.facts.emplace_back("Crossing", divergence->crossing.text);
    facts.facts.emplace_back("Thresholds", thresholds);
    std::string where = "row " + std::to_string(divergence->row) + ", instruction "
        + std::to_string(row.instruction.value) + ", output " + std::to_string(row.outputIndex);
    if (!row.runtimeOp.empty())
        where += ", " + row.runtimeOp;
    facts.facts.emplace_back("Where", where);
    facts.facts.emplace_back("Before it",
        std::to_string(divergence->comparedBefore) + " compared row(s) within the thresholds (marked ① on the graph)");
    gap.blocks.push_back(std::move(facts));
    if (divergence->runNode.top.valid()) {
        m_divergenceNode = divergence->runNode;
        m_divergenceMark = "first divergence: " + divergence->crossing.text;
        m_problemNodes.insert(divergence->runNode.top.value);
    }
}

std::string signedBytes(std::uint64_t a, std::uint64_t b)
{
    const long long change = static_cast<long long>(b) - static_cast<long long>(a);
    return (change > 0 ? "+" : change < 0 ? "−" : "±") + formatBytes(static_cast<std::uint64_t>(std::llabs(change)));
}

std::string signedCount(std::uint64_t a, std::uint64_t b)
{
    const long long change = static_cast<long long>(b) - static_cast<long long>(a);
    return (change > 0 ? "+" : change < 0 ? "−" : "±") + std::to_string(std::llabs(change));
}

void Builder::baseline()
{
    const bool omittedHere = std::any_of(
        m_in.omissions.begin(), m_in.omissions.end(), [](const ReportOmission& o) { return o.section == "baseline"; });
    if (!m_in.baseline && !omittedHere)
        return;
    ReportSection& s = section("baseline", "Changes against the baseline");
    if (!m_in.baseline)
        return;
    auto diff = diffPrograms(*m_in.baseline, m_document);
    if (!diff) {
        leaveOut(s, diff.error().message());
        return;
    }
    std::string summary;
    for (const std::string& line : diff->summaryLines())
        summary += (summary.empty() ? "" : "; ") + line;
    s.blocks.push_back(paragraph("A (baseline): " + diff->pathA + "; B (this report): " + diff->pathB + "."));
    s.blocks.push_back(paragraph(summary + "."));
    for (const std::string& note : diff->notes)
        s.blocks.push_back(paragraph(note));
    Table moved { "Operators moved into or out of delegates",
        { "method", "movement", "from", "to", "backend", "count" }, {}, {} };
    for (const MethodDiff& method : diff->methods)
        for (const MovedOperators& m : method.moved)
            moved.rows.push_back(
                { method.name, std::string(m.movement == Movement::IntoDelegate ? "into delegate" : "out of delegate"),
                    m.from, m.to, m.backend, static_cast<long long>(m.count) });
    if (moved.rows.empty())
        s.blocks.push_back(paragraph("No operator moved into or out of a delegate."));
    else
        s.blocks.push_back(tableBlock(std::move(moved), m_in.maxTableRows));
    Table sizes { "Sizes", { "what", "baseline", "now", "change" }, {}, {} };
    for (const SizeDiff& size : diff->sizes)
        sizes.rows.push_back({ size.what + (size.isCount ? " (count)" : ""), static_cast<long long>(size.a),
            static_cast<long long>(size.b), size.isCount ? signedCount(size.a, size.b) : signedBytes(size.a, size.b) });
    s.blocks.push_back(tableBlock(std::move(sizes), m_in.maxTableRows));
    if (!diff->backends.empty()) {
        Table backends { "Delegates by backend",
            { "backend", "delegates before", "delegates now", "payload before", "payload now", "change" }, {}, {} };
        for (const BackendDiff& b : diff->backends)
            backends.rows.push_back({ b.backend, static_cast<long long>(b.countA), static_cast<long long>(b.countB),
                static_cast<long long>(b.bytesA), static_cast<long long>(b.bytesB), signedBytes(b.bytesA, b.bytesB) });
        s.blocks.push_back(tableBlock(std::move(backends), m_in.maxTableRows));
    }
    // Memory: the peak of every arena of the methods both files have.
    Table memory { "Peak planned memory", { "method", "arena", "baseline", "now", "change" }, {}, {} };
    const Program& old = *m_in.baseline->program;
    for (std::size_t m = 0; m < m_program.methods.size(); ++m) {
        if (stopped())
            return;
        const auto& plan = m_report.plans[m];
        if (!plan)
            continue;
        const auto match = std::find_if(old.methods.begin(), old.methods.end(),
            [&](const Method& method) { return method.name == m_program.methods[m].name; });
        if (match == old.methods.end())
            continue;
        const MemoryPlan before = computeMemoryPlan(*m_in.baseline, *match);
        for (const MemoryArena& arena : plan->arenas) {
            const auto was = std::find_if(
                before.arenas.begin(), before.arenas.end(), [&](const MemoryArena& a) { return a.id == arena.id; });
            const std::uint64_t a = was == before.arenas.end() ? 0 : was->peakLiveBytes;
            memory.rows.push_back({ plan->method, static_cast<long long>(arena.id), static_cast<long long>(a),
                static_cast<long long>(arena.peakLiveBytes), signedBytes(a, arena.peakLiveBytes) });
        }
    }
    if (!memory.rows.empty())
        s.blocks.push_back(tableBlock(std::move(memory), m_in.maxTableRows));
}

/// "10,838,016": a count as people read it.
std::string groupedCount(std::uint64_t value)
{
    std::string digits = std::to_string(value);
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

TableCell countCell(std::uint64_t value)
{
    return static_cast<long long>(value);
}

/// Where a node runs: "CPU" or "XnnpackBackend #1".
std::string placeOf(const cost::NodeCost& node)
{
    return node.delegate < 0 ? std::string("CPU") : node.backend + " #" + std::to_string(node.delegate);
}

void Builder::cost()
{
    ReportSection& s = section("cost", "Cost");
    auto computed = cost::computeCost(m_document);
    if (!computed) {
        leaveOut(s, "cost: " + computed.error().message());
        return;
    }
    cost::CostReport& report = computed.value();
    std::string joined;
    if (!m_in.vendorLogs.vela.empty() || !m_in.vendorLogs.runs.empty()) {
        auto verdicts = cost::joinVendorLogs(report, m_document, m_in.vendorLogs);
        if (verdicts)
            joined = verdicts.value();
        else
            leaveOut(s, "vendor logs: " + verdicts.error().message());
    }
    if (stopped())
        return;
    warn("cost: ", report.warnings);
    s.blocks.push_back(paragraph(
        "What each operation costs, counted from its operator and the shapes stored in the program (docs/cost.md): "
        "MACs are the multiply-accumulates of convolutions, matrix products and attention; ops every other "
        "arithmetic operation, per element; bytes are the activations, weights and scales read and written. A node "
        "with no rule (or without the shapes its rule needs) counts nothing and is listed as such, never as 0, so "
        "every total below is a lower bound when such nodes exist. Cycles are ETScope's ESTIMATE for Ethos-U NPU "
        "kicks, from the compile flags' system configuration: not Vela's performance model, not a measurement."));
    const cost::CostTotals& t = report.total;
    ReportBlock facts;
    facts.kind = ReportBlock::Kind::Facts;
    facts.facts.emplace_back("Operator nodes",
        groupedCount(t.nodes) + " (" + groupedCount(t.counted) + " counted, " + groupedCount(t.noRule)
            + " with no rule, " + groupedCount(t.noShape) + " without shapes)");
    const std::uint64_t uncounted = t.noRule + t.noShape;
    facts.facts.emplace_back("MACs",
        groupedCount(t.macs)
            + (uncounted ? " (at least: " + groupedCount(uncounted) + " node(s) not counted)" : std::string()));
    facts.facts.emplace_back("Other ops", groupedCount(t.ops));
    facts.facts.emplace_back("Bytes moved",
        formatBytes(t.bytesRead) + " read, " + formatBytes(t.bytesWritten) + " written, "
            + formatBytes(t.parameterBytes) + " of parameters");
    const cost::CostTotals& cpu = report.cpu;
    facts.facts.emplace_back("CPU part (not delegated)",
        groupedCount(cpu.macs) + " MACs (" + percentText(static_cast<double>(cpu.macs), static_cast<double>(t.macs))
            + " of the counted MACs), " + groupedCount(cpu.ops) + " other ops in " + groupedCount(cpu.nodes)
            + " node(s), " + groupedCount(cpu.noRule + cpu.noShape) + " not counted");
    if (t.estimatedCycles)
        facts.facts.emplace_back(
            "NPU cycles (ESTIMATE)", groupedCount(*t.estimatedCycles) + " (Ethos-U kicks only; docs/cost.md)");
    s.blocks.push_back(std::move(facts));

    s.blocks.push_back(tableBlock(cost::costTotalsTable("Per method", "method", report.perMethod), m_in.maxTableRows));
    s.blocks.push_back(tableBlock(
        cost::costTotalsTable("Per backend (CPU: not delegated)", "backend", report.perBackend), m_in.maxTableRows));
    if (!report.delegates.empty()) {
        Table table = cost::costTotalsTable("Per delegate", "delegate", {});
        table.columns.insert(table.columns.begin(), "method");
        table.columns.emplace_back("note");
        for (const cost::DelegateCost& d : report.delegates) {
            Table one = cost::costTotalsTable("", "delegate", { d.totals });
            std::vector<TableCell> row = std::move(one.rows.front());
            row.insert(row.begin(), d.method);
            row.emplace_back(d.note);
            table.rows.push_back(std::move(row));
        }
        s.blocks.push_back(tableBlock(std::move(table), m_in.maxTableRows));
    }
    s.blocks.push_back(tableBlock(
        cost::costTotalsTable("Per operator kind (the row \"(no rule)\" counts nothing)", "kind", report.perKind),
        m_in.maxTableRows));

    // The nodes with the most MACs (ties: file order).
    std::vector<const cost::NodeCost*> top;
    for (const cost::NodeCost& node : report.nodes)
        if (node.status == cost::CostStatus::Counted && node.macs > 0)
            top.push_back(&node);
    std::stable_sort(top.begin(), top.end(), [](const auto* a, const auto* b) { return a->macs > b->macs; });
    const std::size_t withMacs = top.size();
    if (top.size() > m_in.topRows)
        top.resize(m_in.topRows);
    if (!top.empty()) {
        Table table;
        table.title = "Top " + std::to_string(top.size()) + " nodes by MACs";
        table.columns
            = { "method", "runs on", "node", "operator", "kind", "MACs", "share", "bytes moved", "est. cycles" };
        for (const cost::NodeCost* node : top) {
            std::optional<std::uint64_t> bytes;
            if (node->bytesRead || node->bytesWritten)
                bytes = node->bytesRead.value_or(0) + node->bytesWritten.value_or(0);
            table.rows.push_back({ node->method, placeOf(*node), node->label, node->opType, std::string(node->kind),
                countCell(node->macs), percentText(static_cast<double>(node->macs), static_cast<double>(t.macs)),
                bytes ? countCell(*bytes) : TableCell(kNoValue),
                node->estimate ? countCell(node->estimate->cycles) : TableCell(kNoValue) });
        }
        table.notes.push_back(std::to_string(withMacs) + " node(s) have MACs; est. cycles: an ESTIMATE (docs/cost.md)");
        s.blocks.push_back(tableBlock(std::move(table), m_in.maxTableRows));
    }

    // The vendors' own figures, when logs were given: per delegate, beside ETScope's estimate.
    if (!joined.empty())
        s.blocks.push_back(paragraph("Vendor logs joined to the program:\n" + joined));
    for (const cost::DelegateCost& d : report.delegates) {
        if (d.vendor.empty())
            continue;
        ReportBlock vendor;
        vendor.kind = ReportBlock::Kind::Facts;
        vendor.facts.emplace_back("Delegate", d.method + " " + d.backend + " #" + std::to_string(d.delegate));
        if (d.totals.estimatedCycles)
            vendor.facts.emplace_back("ETScope estimate: NPU cycles", groupedCount(*d.totals.estimatedCycles));
        for (const Attribute& a : d.vendor)
            vendor.facts.emplace_back(a.name, a.value);
        s.blocks.push_back(std::move(vendor));
    }
}

void Builder::why()
{
    ReportSection& s = section("why", "Why on the CPU");
    auto computed = explainProgram(m_document, {}, m_in.record);
    if (!computed) {
        leaveOut(s, "why: " + computed.error().message());
        return;
    }
    const WhyReport& report = computed.value();
    warn("why: ", report.warnings);
    s.blocks.push_back(paragraph(
        "Why each operator outside every delegate stayed on the CPU, checked against the rule tables of the "
        "program's own backends (docs/why.md). Each answer names its source. \"Constraints hold\" means ETScope "
        "found no reason: the partitioner's own log will say why. The quantize/dequantize nodes a delegated build "
        "leaves at each delegate's edge are grouped once (boundary conversions, by design)."));
    if (report.backends.empty()) {
        s.blocks.push_back(paragraph("The program has no delegate to check its CPU nodes against (`etscope why "
                                     "--backend ID` checks them against a backend you name)."));
        return;
    }
    int boundaryNodes = 0;
    for (const WhyGroup& group : report.groups)
        boundaryNodes += group.nodes;
    ReportBlock facts;
    facts.kind = ReportBlock::Kind::Facts;
    std::string backends;
    for (const std::string& backend : report.backends)
        backends += (backends.empty() ? "" : ", ") + backend;
    facts.facts.emplace_back("Checked against", backends);
    facts.facts.emplace_back("Constraint fails", std::to_string(report.count(WhyKind::Fails)));
    facts.facts.emplace_back("No rule", std::to_string(report.count(WhyKind::NoRule)));
    facts.facts.emplace_back("Constraints hold", std::to_string(report.count(WhyKind::AllHold)));
    facts.facts.emplace_back("Boundary conversions",
        std::to_string(boundaryNodes) + " node(s) in " + std::to_string(report.groups.size()) + " group(s)");
    s.blocks.push_back(std::move(facts));
    if (!report.groups.empty()) {
        Table table;
        table.title = "Boundary conversions (each group once)";
        table.columns = { "method", "backend", "operators", "nodes", "reason", "source" };
        for (const WhyGroup& group : report.groups) {
            std::string ops;
            for (const std::string& op : group.opTypes)
                ops += (ops.empty() ? "" : ", ") + op;
            table.rows.push_back(
                { group.method, group.backend, ops, static_cast<long long>(group.nodes), group.reason, group.source });
        }
        s.blocks.push_back(tableBlock(std::move(table), m_in.maxTableRows));
    }
    Table table;
    table.title = "Each node left on the CPU";
    table.columns = { "method", "instruction", "operator", "backend", "answer", "reason", "source" };
    for (const NodeWhy& node : report.nodes) {
        if (node.kind == WhyKind::Boundary)
            continue;
        table.rows.push_back({ node.method, static_cast<long long>(node.instruction), node.opType,
            node.backend + (node.target.empty() ? "" : " (" + node.target + ")"), std::string(whyKindName(node.kind)),
            node.reason, node.source });
    }
    if (!table.rows.empty())
        s.blocks.push_back(tableBlock(std::move(table), m_in.maxTableRows));
}

void Builder::warnings()
{
    if (m_collected.empty() && m_report.warnings.empty())
        return;
    ReportSection& s = section("warnings", "Warnings");
    constexpr std::size_t kShown = 50;
    std::vector<std::string> lines = m_report.warnings;
    lines.insert(lines.end(), m_collected.begin(), m_collected.end());
    for (std::size_t i = 0; i < lines.size() && i < kShown; ++i)
        s.blocks.push_back(paragraph(lines[i]));
    if (lines.size() > kShown)
        s.blocks.push_back(paragraph("… and " + std::to_string(lines.size() - kShown) + " more."));
}

} // namespace

const std::vector<std::pair<std::string, std::string>>& reportSectionIds()
{
    static const std::vector<std::pair<std::string, std::string>> ids { { "summary", "Summary" },
        { "graphs", "Graphs" }, { "operators", "Operators" }, { "load", "Will it load" }, { "memory", "Memory plan" },
        { "size", "File size" }, { "profile", "Profile" }, { "gap", "Numeric gap" }, { "cost", "Cost" },
        { "why", "Why on the CPU" }, { "baseline", "Changes against the baseline" }, { "warnings", "Warnings" } };
    return ids;
}

Report buildReport(const ReportInputs& inputs)
{
    return std::move(buildReport(inputs, {})).value(); // never cancelled without a control
}

Result<Report> buildReport(const ReportInputs& inputs, const ReportControl& control)
{
    if (!inputs.document || !inputs.document->program) {
        Report report;
        report.title = "ETScope report";
        report.sections.push_back({ "summary", "Summary", { omitted("no program to report on") } });
        report.warnings.emplace_back("summary: no program to report on");
        return report;
    }
    if (auto report = Builder(inputs, control).build())
        return std::move(*report);
    return Error { Error::Code::Cancelled, inputs.document->path, "the report was cancelled" };
}

} // namespace etscope::core
