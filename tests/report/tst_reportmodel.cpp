// SPDX-License-Identifier: MIT
// The report of `etscope report` as a model (core/fullreport): which sections a program and its
// artifacts give, what they say, what is left out when an input is bad, and the HTML and
// Markdown writers (escaping, tables, pictures, omissions).
//
// Facts of stress_mlp.pte (samples/djl-executorch-engine), read off its bytes with Debian's
// flatc 2.0.8: `flatc --json --strict-json --raw-binary core/schema/program.fbs -- stress_mlp.pte`
// gives one plan `forward` whose only chain has 14 instructions, 12 KernelCall and 2
// DelegateCall (both delegates `XnnpackBackend`), and non_const_buffer_sizes [0, 100416]. The
// file is 2709120 bytes (stat). Its generated ETDumps (samples/generated/README.md, table of
// decoded facts) hold one Execute block each.
#include "core/debug/etdump.h"
#include "core/fullreport/report.h"
#include "core/graph/grouping.h"
#include "core/writer/comparepairs.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <map>

using namespace etscope::core;

namespace {

const ReportSection* findSection(const Report& report, const std::string& id)
{
    for (const ReportSection& section : report.sections)
        if (section.id == id)
            return &section;
    return nullptr;
}

std::string fact(const Report& report, const std::string& key)
{
    const ReportSection* summary = findSection(report, "summary");
    if (!summary)
        return {};
    for (const ReportBlock& block : summary->blocks)
        for (const auto& [k, v] : block.facts)
            if (k == key)
                return v;
    return {};
}

const Table* findTable(const ReportSection& section, const std::string& titleStart)
{
    for (const ReportBlock& block : section.blocks)
        if (block.kind == ReportBlock::Kind::Table && block.table.title.rfind(titleStart, 0) == 0)
            return &block.table;
    return nullptr;
}

bool hasOmission(const ReportSection& section, const std::string& part)
{
    return std::any_of(section.blocks.begin(), section.blocks.end(), [&](const ReportBlock& block) {
        return block.kind == ReportBlock::Kind::Omitted && block.text.find(part) != std::string::npos;
    });
}

std::size_t count(const std::string& text, const std::string& part)
{
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
        ++n;
    return n;
}

} // namespace

class TestReportModel : public QObject {
    Q_OBJECT
private:
    std::optional<Document> m_document;
    std::optional<ETDump> m_run;
    std::optional<ETDump> m_reference;

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        m_document = std::move(document).value();
        auto run = readETDumpFile(etscope::test::samplePath("generated/stress_mlp/stress_mlp.intermediates.etdp"));
        QVERIFY(run);
        QVERIFY(!attachDebugBufferOrDefault(run.value(), {}));
        m_run = std::move(run).value();
        auto reference = readETDumpFile(etscope::test::samplePath("generated/stress_mlp/stress_mlp.outputs.etdp"));
        QVERIFY(reference);
        QVERIFY(!attachDebugBufferOrDefault(reference.value(), {}));
        m_reference = std::move(reference).value();
    }

    void everySectionFromAProgramAndTwoDumps()
    {
        ReportInputs inputs;
        inputs.document = &*m_document;
        inputs.run = &*m_run;
        inputs.reference = &*m_reference;
        const Report report = buildReport(inputs);
        std::vector<std::string> ids;
        for (const ReportSection& section : report.sections)
            ids.push_back(section.id);
        const std::vector<std::string> expected { "summary", "graphs", "operators", "load", "memory", "size", "profile",
            "gap" };
        // A warnings section may follow (the ETDump fit check); the rest come in this order.
        QVERIFY(ids.size() >= expected.size());
        QVERIFY(std::equal(expected.begin(), expected.end(), ids.begin()));

        QCOMPARE(fact(report, "Methods"), std::string("1: forward (14 instructions)"));
        QVERIFY(fact(report, "Format").find("(2709120 bytes)") != std::string::npos);
        // The automatic runtime (Android with XNNPACK) links XnnpackBackend: a plain yes, naming it.
        QVERIFY2(fact(report, "Will it load").rfind("yes — ", 0) == 0
                && fact(report, "Will it load").find("runtime: Android (executorch_jni) with XNNPACK")
                    != std::string::npos,
            fact(report, "Will it load").c_str());
        // With lists no runner stands for, nothing says XnnpackBackend is linked: as `etscope
        // check` says it, the yes is conditional (the summary used to drop the condition).
        auto portable = loadKernelLists({ "portable" });
        QVERIFY(portable);
        inputs.kernels = &portable.value();
        const Report listed = buildReport(inputs);
        QVERIFY2(fact(listed, "Will it load").rfind("yes, if the runtime links XnnpackBackend —", 0) == 0,
            fact(listed, "Will it load").c_str());
        QVERIFY(fact(report, "Backends").find("XnnpackBackend × 2") != std::string::npos);
        QVERIFY(fact(report, "Peak planned memory").find("forward arena 1") != std::string::npos);

        // The operator table's Total row: 12 KernelCalls at the top level.
        const Table* ops = findTable(*findSection(report, "operators"), "Method 'forward'");
        QVERIFY(ops);
        QVERIFY(!ops->rows.empty());
        QCOMPARE(cellText(ops->rows.back().front()), std::string("Total"));
        QCOMPARE(cellText(ops->rows.back()[2]), std::string("12"));

        // Arena 1 declares 100416 bytes.
        const Table* arenas = findTable(*findSection(report, "memory"), "Method 'forward': arenas");
        QVERIFY(arenas);
        QCOMPARE(cellText(arenas->rows.front()[1]), std::string("100416"));

        // One Execute block in the run; the slowest table holds at most topRows rows.
        const Table* slowest = findTable(*findSection(report, "profile"), "Slowest operators");
        QVERIFY(slowest);
        QVERIFY(slowest->rows.size() <= inputs.topRows && !slowest->rows.empty());
        QVERIFY(slowest->notes.front().find("1 Execute block(s)") != std::string::npos);
        QVERIFY(findTable(*findSection(report, "gap"), "Worst nodes"));

        // Pictures: the graph, arena 1's chart, the treemap and the timeline.
        std::vector<std::string> pictures;
        for (const ReportPicture& picture : report.pictures)
            pictures.push_back(picture.id);
        for (const char* id : { "graph-forward", "memory-forward-1", "size", "timeline" })
            QVERIFY2(std::find(pictures.begin(), pictures.end(), id) != pictures.end(), id);
        QVERIFY(report.plans.size() == 1 && report.plans.front());
        QVERIFY(report.size && report.timeline);
    }

    // "drawn closed: X (N nodes)" counts operator nodes, the number `ops`, `info` and the
    // delegate box show: not the inner Input/Output boxes, not the Ethos-U stream's STOP.
    void closedDelegatesCountTheirOperators_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("closed");
        // 666 NPU operations (tst_ethosudelegate: 158 conv, 32 depthwise, 226 avg pool, 30 add,
        // 30 mul, 190 DMA), drawn with 1 input and 1 output box (the report said 669).
        QTest::addRow("ethos-u") << QStringLiteral("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte")
                                 << QStringLiteral("drawn closed: EthosUBackend (666 nodes)");
        // 1552 op nodes in the HTP section's kv_forward graph (tst_qnncontext), drawn with 13
        // input and 11 output boxes (the report said 1576).
        QTest::addRow("qnn") << QStringLiteral("executorch/stories260k_hybrid_llama_qnn.pte")
                             << QStringLiteral("drawn closed: QnnBackend (1552 nodes)");
    }

    void closedDelegatesCountTheirOperators()
    {
        QFETCH(QString, path);
        QFETCH(QString, closed);
        auto document = openDocument(etscope::test::samplePath(path.toStdString()));
        QVERIFY(document);
        ReportInputs inputs;
        inputs.document = &document.value();
        const Report report = buildReport(inputs);
        bool found = false;
        for (const ReportPicture& picture : report.pictures)
            found = found || picture.caption.find(closed.toStdString()) != std::string::npos;
        QVERIFY2(found, qPrintable(closed));
    }

    void badInputsLeaveTheirSectionOutAndKeepTheRest()
    {
        ReportInputs inputs;
        inputs.document = &*m_document;
        inputs.omissions.push_back({ "profile", "run.etdp: cannot open: No such file or directory" });
        inputs.inspectorTable = "/nonexistent/inspector.csv";
        const Report report = buildReport(inputs);
        QVERIFY(hasOmission(*findSection(report, "profile"), "run.etdp: cannot open"));
        const ReportSection* gap = findSection(report, "gap");
        QVERIFY(gap);
        QVERIFY(hasOmission(*gap, "/nonexistent/inspector.csv"));
        QVERIFY(std::any_of(report.warnings.begin(), report.warnings.end(),
            [](const std::string& w) { return w.find("inspector.csv") != std::string::npos; }));
        // Everything else is still there.
        QVERIFY(findSection(report, "graphs") && findSection(report, "operators") && findSection(report, "size"));
        const std::string html = reportHtml(report);
        QVERIFY(html.find("<b>Left out:</b> run.etdp: cannot open") != std::string::npos);
    }

    void baselineAgainstItselfChangesNothing()
    {
        ReportInputs inputs;
        inputs.document = &*m_document;
        inputs.baseline = &*m_document;
        const Report report = buildReport(inputs);
        const ReportSection* baseline = findSection(report, "baseline");
        QVERIFY(baseline);
        QVERIFY(std::any_of(baseline->blocks.begin(), baseline->blocks.end(),
            [](const ReportBlock& block) { return block.text == "No operator moved into or out of a delegate."; }));
        const Table* memory = findTable(*baseline, "Peak planned memory");
        QVERIFY(memory);
        QCOMPARE(cellText(memory->rows.front()[4]), std::string("±0 B"));
    }

    /// Progress names every step, 0 … 13 of 14, once each, in order; cancelling when step k
    /// starts returns Error::Cancelled at once: no step after k is started, and the rest of the
    /// work is not done (the time after the cancel is a small part of a full build).
    /// The Cost section on makeMlpComparePair(8).lowered (core/writer/comparepairs.cpp):
    /// XnnpackBackend[FC 8→8, Clamp, FC 8→8, Clamp] then addmm 8→10 and _softmax on the CPU.
    /// MACs by hand: each FC [1, 8] × [8, 8] is 1·8·8 = 64, the addmm [1, 8] × [8, 10] is
    /// 1·8·10 = 80: 208 in all, 128 in the delegate, 80 (38.5%) on the CPU.
    void costSection()
    {
        const ComparePair pair = makeMlpComparePair(8);
        auto bytes = writeProgram(pair.lowered);
        QVERIFY(bytes);
        const auto document = etscope::test::documentFromBytes(bytes.value(), "lowered.pte");
        QVERIFY(document);
        ReportInputs inputs;
        inputs.document = &*document;
        inputs.sections = { "cost", "why" };
        const Report report = buildReport(inputs);
        const ReportSection* cost = findSection(report, "cost");
        QVERIFY(cost);
        QCOMPARE(cost->title, std::string("Cost"));
        std::map<std::string, std::string> facts;
        for (const ReportBlock& block : cost->blocks)
            for (const auto& [k, v] : block.facts)
                facts[k] = v;
        // 6 operator nodes: 4 inside the delegate, addmm and _softmax on the CPU; all counted.
        QCOMPARE(facts["Operator nodes"], std::string("6 (6 counted, 0 with no rule, 0 without shapes)"));
        QCOMPARE(facts["MACs"], std::string("208"));
        QVERIFY2(facts["CPU part (not delegated)"].rfind("80 MACs (38.5% of the counted MACs)", 0) == 0,
            facts["CPU part (not delegated)"].c_str());
        // No Ethos-U delegate: no cycle estimate is claimed.
        QVERIFY(!facts.contains("NPU cycles (ESTIMATE)"));
        // The paragraph says what an estimate is and what "no rule" means.
        QVERIFY(cost->blocks.front().text.find("ESTIMATE") != std::string::npos);
        QVERIFY(cost->blocks.front().text.find("never as 0") != std::string::npos);

        const Table* backends = findTable(*cost, "Per backend");
        QVERIFY(backends);
        QCOMPARE(backends->rows.size(), std::size_t(2));
        QCOMPARE(cellText(backends->rows[0][0]), std::string("CPU"));
        QCOMPARE(cellText(backends->rows[0][5]), std::string("80"));
        QCOMPARE(cellText(backends->rows[1][0]), std::string("XnnpackBackend"));
        QCOMPARE(cellText(backends->rows[1][5]), std::string("128"));
        const Table* delegates = findTable(*cost, "Per delegate");
        QVERIFY(delegates);
        QCOMPARE(delegates->rows.size(), std::size_t(1));
        QCOMPARE(cellText(delegates->rows[0][1]), std::string("XnnpackBackend #0"));
        QCOMPARE(cellText(delegates->rows[0][6]), std::string("128"));
        QVERIFY(findTable(*cost, "Per operator kind"));
        // The top nodes by MACs: the addmm (80), then the two FCs (64 each, in file order).
        const Table* top = findTable(*cost, "Top 3 nodes by MACs");
        QVERIFY(top);
        QCOMPARE(top->rows.size(), std::size_t(3));
        QCOMPARE(cellText(top->rows[0][1]), std::string("CPU"));
        QCOMPARE(cellText(top->rows[0][3]), std::string("aten::addmm.out"));
        QCOMPARE(cellText(top->rows[0][5]), std::string("80"));
        QCOMPARE(cellText(top->rows[0][6]), std::string("38.5%")); // 80 / 208
        QCOMPARE(cellText(top->rows[1][1]), std::string("XnnpackBackend #0"));
        QCOMPARE(cellText(top->rows[1][5]), std::string("64"));
        QCOMPARE(cellText(top->rows[2][5]), std::string("64"));

        // The sections' ids, in the report's order.
        std::vector<std::string> ids;
        for (const ReportSection& section : report.sections)
            ids.push_back(section.id);
        QVERIFY((ids == std::vector<std::string> { "cost", "why" }));
        const std::string html = reportHtml(report);
        QVERIFY(html.find("Top 3 nodes by MACs") != std::string::npos);
        QVERIFY(html.find("Why on the CPU") != std::string::npos);
    }

    /// The Why section on the same program: the two CPU nodes (addmm, _softmax) checked against
    /// XnnpackBackend, each with a reason and a source; nothing at a delegate edge here.
    void whySection()
    {
        const ComparePair pair = makeMlpComparePair(8);
        auto bytes = writeProgram(pair.lowered);
        QVERIFY(bytes);
        const auto document = etscope::test::documentFromBytes(bytes.value(), "lowered.pte");
        QVERIFY(document);
        ReportInputs inputs;
        inputs.document = &*document;
        inputs.sections = { "why" };
        const Report report = buildReport(inputs);
        const ReportSection* why = findSection(report, "why");
        QVERIFY(why);
        std::map<std::string, std::string> facts;
        for (const ReportBlock& block : why->blocks)
            for (const auto& [k, v] : block.facts)
                facts[k] = v;
        QCOMPARE(facts["Checked against"], std::string("XnnpackBackend"));
        const Table* nodes = findTable(*why, "Each node left on the CPU");
        QVERIFY(nodes);
        QCOMPARE(nodes->rows.size(), std::size_t(2));
        QCOMPARE(cellText(nodes->rows[0][2]), std::string("aten::addmm.out"));
        QCOMPARE(cellText(nodes->rows[1][2]), std::string("aten::_softmax.out"));
        for (const auto& row : nodes->rows) {
            QVERIFY(!cellText(row[5]).empty()); // a reason
            QVERIFY(!cellText(row[6]).empty()); // its source
        }
        // The counts add up to the two nodes.
        QCOMPARE(
            std::stoi(facts["Constraint fails"]) + std::stoi(facts["No rule"]) + std::stoi(facts["Constraints hold"]),
            2);
        QCOMPARE(facts["Boundary conversions"], std::string("0 node(s) in 0 group(s)"));
    }

    /// tinycnn_u55.pte (samples/tinycnn): one Ethos-U delegate between a quantize and a
    /// dequantize (`etscope info`): the boundary pair is grouped once, not listed per node; the
    /// Cost section claims NPU cycles as an ESTIMATE.
    void costAndWhyOnEthosU()
    {
        auto document = openDocument(etscope::test::samplePath("tinycnn/tinycnn_u55.pte"));
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        ReportInputs inputs;
        inputs.document = &document.value();
        inputs.sections = { "cost", "why" };
        const Report report = buildReport(inputs);
        const ReportSection* cost = findSection(report, "cost");
        QVERIFY(cost);
        std::map<std::string, std::string> facts;
        for (const ReportBlock& block : cost->blocks)
            for (const auto& [k, v] : block.facts)
                facts[k] = v;
        QVERIFY2(facts["NPU cycles (ESTIMATE)"].find("Ethos-U kicks only") != std::string::npos,
            facts["NPU cycles (ESTIMATE)"].c_str());
        // The second and third convolutions tie at the top: OFM 24×24×32 from 16 channels,
        // 24·24·32 · 16 · 3·3 = 2,654,208 MACs, and OFM 12×12×64 from 32 channels,
        // 12·12·64 · 32 · 3·3 = 2,654,208; the stem (48·48·16 · 3 · 3·3 = 995,328, docs/cost.md's
        // worked example) comes third.
        const Table* top = findTable(*cost, "Top ");
        QVERIFY(top);
        QVERIFY(top->rows.size() >= 3);
        QCOMPARE(cellText(top->rows[0][5]), std::string("2654208"));
        QCOMPARE(cellText(top->rows[1][5]), std::string("2654208"));
        QCOMPARE(cellText(top->rows[2][5]), std::string("995328"));
        QCOMPARE(cellText(top->rows[0][1]), std::string("EthosUBackend #0"));
        QVERIFY(!cellText(top->rows[0][8]).empty()); // its cycle estimate

        const ReportSection* why = findSection(report, "why");
        QVERIFY(why);
        const Table* boundary = findTable(*why, "Boundary conversions");
        QVERIFY(boundary);
        QCOMPARE(boundary->rows.size(), std::size_t(1));
        QCOMPARE(cellText(boundary->rows[0][1]), std::string("EthosUBackend"));
        QVERIFY(cellText(boundary->rows[0][4]).find("boundary conversion") != std::string::npos);
        // The boundary nodes are not listed again one by one.
        const Table* nodes = findTable(*why, "Each node left on the CPU");
        if (nodes)
            for (const auto& row : nodes->rows)
                QVERIFY(cellText(row[4]) != "boundary");
    }

    /// executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte: issue 35's target, the
    /// aten::avg_pool3d.out at instruction 3 (its kernel 5×1×1, the LRN's window over channels)
    /// left on the CPU with a rule-based reason; the quantize/dequantize pairs at #0, #2, #4, #6
    /// are one boundary group of 4 nodes (`etscope info`: 7 instructions, 5 kernel and 2 delegate calls).
    void whyNamesTheRuleForAvgPool3d()
    {
        auto document
            = openDocument(etscope::test::samplePath("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte"));
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        ReportInputs inputs;
        inputs.document = &document.value();
        inputs.sections = { "why" };
        const Report report = buildReport(inputs);
        const ReportSection* why = findSection(report, "why");
        QVERIFY(why);
        std::map<std::string, std::string> facts;
        for (const ReportBlock& block : why->blocks)
            for (const auto& [k, v] : block.facts)
                facts[k] = v;
        QCOMPARE(facts["Constraint fails"], std::string("1"));
        QCOMPARE(facts["Boundary conversions"], std::string("4 node(s) in 1 group(s)"));
        const Table* nodes = findTable(*why, "Each node left on the CPU");
        QVERIFY(nodes);
        QCOMPARE(nodes->rows.size(), std::size_t(1));
        QCOMPARE(cellText(nodes->rows[0][1]), std::string("3"));
        QCOMPARE(cellText(nodes->rows[0][2]), std::string("aten::avg_pool3d.out"));
        QCOMPARE(cellText(nodes->rows[0][4]), std::string("constraint fails"));
        QVERIFY(cellText(nodes->rows[0][5]).find("kernel 5×1×1 (3-D)") != std::string::npos);
        QVERIFY(cellText(nodes->rows[0][6]).find("pool_2d_support.py") != std::string::npos);
    }

    void cancelStopsAtTheNextStep()
    {
        MlpOptions options;
        options.nodes = 3000;
        const SyntheticProgram synthetic = makeMlpProgram(options);
        auto bytes = writeProgram(synthetic.spec);
        QVERIFY(bytes);
        const auto document = etscope::test::documentFromBytes(bytes.value(), "mlp3000.pte");
        QVERIFY(document);
        ReportInputs inputs;
        inputs.document = &*document;
        inputs.baseline = &*document;
        std::vector<std::string> steps;
        ReportControl control;
        control.progress = [&](const std::string& step, int done, int total) {
            QCOMPARE(done, static_cast<int>(steps.size()));
            QCOMPARE(total, 14);
            steps.push_back(step);
        };
        QElapsedTimer whole;
        whole.start();
        auto full = buildReport(inputs, control);
        const double fullMs = static_cast<double>(whole.nsecsElapsed()) / 1e6;
        QVERIFY(full);
        QCOMPARE(steps.size(), std::size_t(14));
        QCOMPARE(steps.front(), std::string("kernel check"));
        QCOMPARE(steps[3], std::string("section summary"));
        QCOMPARE(steps.back(), std::string("warnings"));

        const std::vector<std::string> all = steps;
        for (std::size_t k = 0; k < all.size(); ++k) {
            steps.clear();
            bool cancel = false;
            QElapsedTimer sinceCancel;
            control.progress = [&](const std::string& step, int, int) {
                steps.push_back(step);
                if (steps.size() == k + 1) {
                    cancel = true; // the user presses Cancel while step k runs
                    sinceCancel.start();
                }
            };
            control.cancelled = [&] { return cancel; };
            auto cancelled = buildReport(inputs, control);
            const double afterMs = static_cast<double>(sinceCancel.nsecsElapsed()) / 1e6;
            QVERIFY2(!cancelled, all[k].c_str());
            QCOMPARE(cancelled.error().code, Error::Code::Cancelled);
            QCOMPARE(steps.size(), k + 1); // nothing started after step k
            qInfo("cancel at step %zu (%s): returned %.1f ms later (a full build: %.1f ms)", k, all[k].c_str(), afterMs,
                fullMs);
        }
    }

    void longMethodShowsItsOverviewAndTheGroupsWithProblems()
    {
        // A 3,000-instruction MLP from the project's writer: forward is cut into groups. Against
        // the quantized list alone (plus prim) its portable operators have no kernel, so the
        // groups holding them are drawn opened after the overview, at most three.
        MlpOptions options;
        options.nodes = 3000;
        options.secondMethod = false;
        const SyntheticProgram synthetic = makeMlpProgram(options);
        auto bytes = writeProgram(synthetic.spec);
        QVERIFY(bytes);
        const auto document = etscope::test::documentFromBytes(bytes.value(), "mlp3000.pte");
        QVERIFY(document);
        auto lists = loadKernelLists({ "quantized" });
        QVERIFY(lists);
        ReportInputs inputs;
        inputs.document = &*document;
        inputs.kernels = &lists.value();
        const Report report = buildReport(inputs);

        const Grouping grouping = groupLongGraph(*document->methods.front().graph);
        QVERIFY(!grouping.empty());
        std::size_t groups = 0;
        bool overview = false;
        for (const ReportPicture& picture : report.pictures) {
            if (picture.kind != ReportPicture::Kind::Graph)
                continue;
            if (picture.group < 0)
                overview = picture.caption
                    == "Method 'forward': overview, " + std::to_string(grouping.groups.size()) + " groups";
            else
                ++groups;
        }
        QVERIFY(overview);
        QCOMPARE(groups, inputs.maxProblemGroups);

        // The missing operators and their call counts are the writer's own tallies.
        const Table* missing = findTable(*findSection(report, "load"), "Operators without a kernel");
        QVERIFY(missing);
        std::map<std::string, long long> calls;
        for (const auto& row : missing->rows)
            calls[cellText(row[1])] = std::get<long long>(row[2]);
        for (const auto& [op, count] : synthetic.nonDelegated)
            QCOMPARE(calls[op], static_cast<long long>(count)); // "aten::addmm.out" → its calls
        QCOMPARE(fact(report, "Will it load").substr(0, 2), std::string("no"));
    }

    void htmlEscapesEverythingAndLoadsNothing()
    {
        Report report;
        report.title = "a <b> & \"c\"";
        report.sections.push_back({ "summary", "S<1>", {} });
        ReportBlock text;
        text.text = "<script>alert(1)</script>";
        report.sections.back().blocks.push_back(text);
        ReportBlock table;
        table.kind = ReportBlock::Kind::Table;
        table.table = Table { "T&T", { "name", "n" }, { { std::string("<img src=x>"), 3LL } }, { "note <i>" } };
        report.sections.back().blocks.push_back(table);
        ReportPicture failed;
        failed.id = "p";
        failed.caption = "cap<";
        failed.failed = "layout <failed>";
        report.pictures.push_back(failed);
        ReportBlock picture;
        picture.kind = ReportBlock::Kind::Picture;
        report.sections.back().blocks.push_back(picture);

        const std::string html = reportHtml(report);
        QVERIFY(html.find("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>") != std::string::npos);
        QVERIFY(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
        QVERIFY(html.find("<td>&lt;img src=x&gt;</td><td class=\"n\">3</td>") != std::string::npos);
        QVERIFY(html.find("<caption>T&amp;T</caption>") != std::string::npos);
        QVERIFY(html.find("layout &lt;failed&gt;") != std::string::npos);
        QCOMPARE(count(html, "<script>"), std::size_t(1)); // the zoom script, nothing from the content
        // Nothing is fetched: no external source or link, and a policy that forbids it.
        QCOMPARE(count(html, "src=\"http"), std::size_t(0));
        QCOMPARE(count(html, "href=\"http"), std::size_t(0));
        QVERIFY(html.find("default-src 'none'") != std::string::npos);

        HtmlOptions rich;
        rich.richText = true;
        const std::string qt = reportHtml(report, rich);
        QCOMPARE(count(qt, "<script"), std::size_t(0));
        QVERIFY(qt.find("<thead>") != std::string::npos); // Qt repeats header rows on every page
    }

    void richTextFitsPicturesToThePage()
    {
        Report report;
        report.sections.push_back({ "graphs", "Graphs", {} });
        ReportPicture wide; // 1400 × 700 on a 700 × 900 page: half size
        wide.width = 1400;
        wide.height = 700;
        wide.file = "picture:wide";
        ReportPicture tall; // 1400 × 9000 in three pieces: each 700 × 1500 on the page
        tall.width = 1400;
        tall.height = 9000;
        tall.pieces = { { "picture:tall#0", 700, 1500, {} }, { "picture:tall#1", 700, 1500, {} },
            { "picture:tall#2", 700, 1500, {} } };
        ReportPicture tiled; // too wide to read on the page: two tiles, each labelled
        tiled.caption = "Method 'forward'";
        tiled.width = 2000;
        tiled.height = 300;
        tiled.pieces
            = { { "picture:tiled#0", 700, 450, "part 1 of 2" }, { "picture:tiled#1", 700, 450, "part 2 of 2" } };
        report.pictures = { wide, tall, tiled };
        for (std::size_t i = 0; i < 3; ++i) {
            ReportBlock block;
            block.kind = ReportBlock::Kind::Picture;
            block.picture = i;
            report.sections.back().blocks.push_back(block);
        }
        HtmlOptions rich;
        rich.richText = true;
        rich.pictureMaxWidth = 700;
        rich.pictureMaxHeight = 900;
        const std::string qt = reportHtml(report, rich);
        QVERIFY(qt.find("<img src=\"picture:wide\" width=\"700\" height=\"350\">") != std::string::npos);
        for (const char* piece : { "picture:tall#0", "picture:tall#1", "picture:tall#2" })
            QVERIFY2(
                qt.find(std::string("<img src=\"") + piece + "\" width=\"700\" height=\"1500\">") != std::string::npos,
                piece);
        // The tiles say which part they are, under the caption; the cuts of a tall picture do not.
        QVERIFY(qt.find("<img src=\"picture:tiled#1\" width=\"700\" height=\"450\">") != std::string::npos);
        QVERIFY(qt.find("Method &#39;forward&#39; — part 2 of 2") != std::string::npos
            || qt.find("Method 'forward' — part 2 of 2") != std::string::npos);
        QCOMPARE(count(qt, " — part "), std::size_t(2));
    }

    void markdownHasGitHubTablesAndLinkedPictures()
    {
        Report report;
        report.title = "R";
        report.sections.push_back({ "operators", "Operators", {} });
        ReportBlock table;
        table.kind = ReportBlock::Kind::Table;
        table.table = Table { "Ops", { "op_type", "count" }, { { std::string("a|b"), 2LL } }, {} };
        report.sections.back().blocks.push_back(table);
        ReportPicture drawn;
        drawn.caption = "Method 'forward'";
        drawn.file = "r-graph forward.png";
        report.pictures.push_back(drawn);
        ReportPicture failed;
        failed.caption = "memory";
        failed.failed = "no plan";
        report.pictures.push_back(failed);
        for (std::size_t i = 0; i < 2; ++i) {
            ReportBlock picture;
            picture.kind = ReportBlock::Kind::Picture;
            picture.picture = i;
            report.sections.back().blocks.push_back(picture);
        }
        ReportBlock omittedBlock;
        omittedBlock.kind = ReportBlock::Kind::Omitted;
        omittedBlock.text = "x.etdp: damaged";
        report.sections.back().blocks.push_back(omittedBlock);

        const std::string md = reportMarkdown(report);
        QVERIFY(md.find("## Operators\n") != std::string::npos);
        QVERIFY(md.find("| op_type | count |\n|---|---:|\n| a\\|b | 2 |\n") != std::string::npos);
        QVERIFY(md.find("![Method 'forward'](r-graph%20forward.png)") != std::string::npos);
        QVERIFY(md.find("> **Picture not drawn:** no plan") != std::string::npos);
        QVERIFY(md.find("> **Left out:** x.etdp: damaged") != std::string::npos);
    }

    void formatsByExtension()
    {
        QCOMPARE(reportFormatFor("a/r.HTML"), std::string("html"));
        QCOMPARE(reportFormatFor("r.htm"), std::string("html"));
        QCOMPARE(reportFormatFor("r.md"), std::string("md"));
        QCOMPARE(reportFormatFor("r.pdf"), std::string("pdf"));
        QCOMPARE(reportFormatFor("r.png"), std::string());
        QCOMPARE(reportFormatFor("dir.d/report"), std::string());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestReportModel)
#include "tst_reportmodel.moc"
