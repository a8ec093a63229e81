// SPDX-License-Identifier: MIT
// diffPrograms: every real program against itself, the writer's portable/XNNPACK pair with
// numbers worked out by hand from its description, and real pairs checked against `etscope
// info` / `etscope ops` by hand (the computations are in the comments).
//
// Why one file: one test class for diffPrograms; its cases share the helpers above and the writer
// helpers of the class, and the hand computations of each real pair (in the comments) are much of it.
#include "tests/common/deviceprograms.h"
#include "tests/common/documentbytes.h"
#include "tests/common/testsupport.h"

#include "core/analysis/programdiff.h"
#include "core/document/document.h"
#include "core/writer/comparepairs.h"
#include "core/writer/debug/etrecordwriter.h"
#include "core/writer/payloads/vgfpayloadwriter.h"
#include "core/writer/programwriter.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope::core;

namespace {

Document open(const std::string& path)
{
    auto document = openDocument(path);
    if (!document)
        qWarning("%s", document.error().message().c_str());
    return document ? std::move(document).value() : Document {};
}

Document openSample(const std::string& relative)
{
    return open(etscope::test::samplePath(relative));
}

const OperatorDiffRow* row(const MethodDiff& method, const std::string& opType)
{
    for (const OperatorDiffRow& r : method.operators)
        if (r.opType == opType)
            return &r;
    return nullptr;
}

const SizeDiff& size(const ProgramDiff& diff, const std::string& what)
{
    for (const SizeDiff& s : diff.sizes)
        if (s.what == what)
            return s;
    static const SizeDiff none { "(missing)" };
    return none;
}

int movedCount(const MethodDiff& method, Movement movement, const std::string& from, const std::string& to)
{
    for (const MovedOperators& m : method.moved)
        if (m.movement == movement && m.from == from && m.to == to)
            return m.count;
    return 0;
}

/// Nodes of a method graph, the top level and the insides of decoded delegates.
int nodeCount(const Graph& graph)
{
    int count = 0;
    for (const Node& node : graph.nodes) {
        ++count;
        if (node.kind == NodeKind::Delegate && node.subgraph)
            count += static_cast<int>(node.subgraph->nodes.size());
    }
    return count;
}

/// The match whose A side is labelled `labelA` (nullptr when none).
const NodeMatch* matchOfA(const MethodDiff& method, const std::string& labelA)
{
    for (const NodeMatch& match : method.matches)
        if (match.a && match.labelA == labelA)
            return &match;
    return nullptr;
}

/// A debug_handle_map for `forward` whose instructions 0, 1, … carry one handle each.
std::map<std::string, std::map<int, DebugHandleEntry>> kernelHandles(const std::vector<std::int64_t>& handles)
{
    std::map<int, DebugHandleEntry> entries;
    for (std::size_t k = 0; k < handles.size(); ++k)
        entries[static_cast<int>(k)] = DebugHandleEntry { { DebugHandle(handles[k]) }, false };
    return { { "forward", std::move(entries) } };
}

} // namespace

class TestProgramDiff : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string write(const ProgramSpec& spec, const char* name)
    {
        const std::string path = m_dir.filePath(QString::fromLatin1(name)).toStdString();
        auto bytes = writeProgram(spec);
        if (!bytes || writeBytesToFile(path, *bytes))
            qWarning("cannot write %s", path.c_str());
        return path;
    }

    std::optional<ETRecord> writeRecord(const ETRecordWriteSpec& spec, const char* name)
    {
        const std::string path = m_dir.filePath(QString::fromLatin1(name)).toStdString();
        auto bytes = writeETRecord(spec);
        if (!bytes || writeBytesToFile(path, *bytes)) {
            qWarning("cannot write %s", path.c_str());
            return std::nullopt;
        }
        auto record = readETRecordFile(path);
        if (!record) {
            qWarning("%s", record.error().message().c_str());
            return std::nullopt;
        }
        return std::move(record).value();
    }

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
    }

    void selfDiff_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(etscope::test::samplesRoot(), { QStringLiteral("*.pte"), QStringLiteral("*.bpte") },
            QDir::Files, QDirIterator::Subdirectories);
        QStringList paths;
        while (it.hasNext())
            paths << it.next();
        paths.sort();
        for (const QString& path : paths)
            QTest::addRow("%s", qPrintable(QDir(etscope::test::samplesRoot()).relativeFilePath(path))) << path;
    }

    /// A file against itself: everything matched "same", nothing moved, every size equal.
    void selfDiff()
    {
        QFETCH(QString, path);
        auto document = openDocument(path.toStdString());
        if (!document)
            QSKIP("unreadable sample (djl's corrupt.pte): diff reports it as input error, see the CLI test");
        auto diff = diffPrograms(*document, *document);
        QVERIFY2(diff.ok(), diff ? "" : diff.error().message().c_str());
        QVERIFY(diff->identicalBytes);
        QVERIFY(diff->methodsOnlyInA.empty() && diff->methodsOnlyInB.empty());
        QCOMPARE(diff->methods.size(), document->program->methods.size());
        for (const SizeDiff& s : diff->sizes)
            QCOMPARE(s.a, s.b);
        for (const BackendDiff& b : diff->backends) {
            QCOMPARE(b.countA, b.countB);
            QCOMPARE(b.bytesA, b.bytesB);
        }
        for (std::size_t m = 0; m < diff->methods.size(); ++m) {
            const MethodDiff& method = diff->methods[m];
            QCOMPARE(method.changed, 0);
            QCOMPARE(method.onlyInA, 0);
            QCOMPARE(method.onlyInB, 0);
            QCOMPARE(method.movedIntoDelegates + method.movedOutOfDelegates, 0);
            QCOMPARE(method.matching, std::string("aligned"));
            // Every node once: the count of the graph (top level + decoded insides).
            const Method* pm = document->program->method(method.name);
            QVERIFY(pm);
            QCOMPARE(method.same, nodeCount(*document->analysis(*pm)->graph));
            for (const OperatorDiffRow& r : method.operators) {
                QCOMPARE(r.delegatedA, r.delegatedB);
                QCOMPARE(r.nonDelegatedA, r.nonDelegatedB);
            }
        }
    }

    /// The writer's pair (comparepairs.h), hidden = 8:
    ///   A portable: addmm, relu, addmm, relu, addmm, _softmax (6 kernels)
    ///   B lowered:  XnnpackBackend[FC, Clamp, FC, Clamp], addmm, _softmax
    void writerPair()
    {
        const ComparePair pair = makeMlpComparePair(8);
        const Document a = open(write(pair.portable, "portable.pte"));
        const Document b = open(write(pair.lowered, "lowered.pte"));
        QVERIFY(a.program && b.program);
        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        QCOMPARE(diff->commonMethods, std::vector<std::string> { "forward" });
        QCOMPARE(diff->backends.size(), std::size_t(1));
        const BackendDiff& xnn = diff->backends.front();
        QCOMPARE(xnn.backend, std::string("XnnpackBackend"));
        QCOMPARE(xnn.countA, 0);
        QCOMPARE(xnn.countB, 1);
        QCOMPARE(xnn.bytesA, std::uint64_t(0));
        QCOMPARE(xnn.bytesB, pair.payloadBytes); // the payload as the writer produced it
        QCOMPARE(xnn.bytesB, b.program->methods[0].delegates[0].payload.size);

        const MethodDiff& forward = diff->methods.front();
        // Side by side: addmm 3 → 1 top level, relu 2 → 0, _softmax 1 → 1; inside B's delegate
        // XNNFullyConnected 2 and XNNClamp 2.
        QVERIFY(row(forward, "aten::addmm.out") && row(forward, "aten::relu.out"));
        QCOMPARE(row(forward, "aten::addmm.out")->nonDelegatedA, 3);
        QCOMPARE(row(forward, "aten::addmm.out")->nonDelegatedB, 1);
        QCOMPARE(row(forward, "aten::relu.out")->nonDelegatedA, 2);
        QCOMPARE(row(forward, "aten::relu.out")->nonDelegatedB, 0);
        QCOMPARE(row(forward, "aten::_softmax.out")->nonDelegatedB, 1);
        QCOMPARE(row(forward, "XNNFullyConnected")->delegatedB, 2);
        QCOMPARE(row(forward, "XNNClamp")->delegatedB, 2);
        QCOMPARE(row(forward, "XNNClamp")->delegatedA, 0);
        // The two addmm and two relu of layers 0 and 1 moved: 4 operators.
        QCOMPARE(forward.movedIntoDelegates, 4);
        QCOMPARE(forward.movedOutOfDelegates, 0);
        QCOMPARE(movedCount(forward, Movement::IntoDelegate, "aten::addmm.out", "XNNFullyConnected"), 2);
        QCOMPARE(movedCount(forward, Movement::IntoDelegate, "aten::relu.out", "XNNClamp"), 2);
        // Nodes. same: input 0, output 0, the last addmm and _softmax, its b2 and w2 = 6.
        // changed: 4 moved operators + their b0, w0, b1, w1 now in the payload = 8.
        // only in B: the delegate node, its inner input and output = 3. only in A: none.
        QCOMPARE(forward.same, 6);
        QCOMPARE(forward.changed, 8);
        QCOMPARE(forward.onlyInA, 0);
        QCOMPARE(forward.onlyInB, 3);
        // The last addmm of A (instruction 4) is the addmm of B (instruction 1).
        const Graph& ga = *a.analysis(a.program->methods[0])->graph;
        const Graph& gb = *b.analysis(b.program->methods[0])->graph;
        bool lastAddmmMatched = false;
        for (const NodeMatch& m : forward.matches) {
            if (m.a && m.b && !m.a->inner && !m.b->inner && ga.node(m.a->node).kind == NodeKind::Operator) {
                if (ga.node(m.a->node).opType == "aten::addmm.out") {
                    QCOMPARE(ga.node(m.a->node).instruction.value, 4);
                    QCOMPARE(gb.node(m.b->node).instruction.value, 1);
                    QCOMPARE(m.status, MatchStatus::Same);
                    lastAddmmMatched = true;
                }
            }
            if (m.movement == Movement::IntoDelegate && ga.node(m.a->node).kind == NodeKind::Operator) {
                // Layer k's addmm (instruction 2k) became the k-th FC node (inner node of the
                // same family, in payload order); relu 2k+1 the k-th Clamp.
                QVERIFY(m.b->inner.has_value());
                QCOMPARE(m.status, MatchStatus::Changed);
                const std::string inner = gb.node(m.b->node).subgraph->node(*m.b->inner).opType;
                QCOMPARE(inner, ga.node(m.a->node).instruction.value % 2 == 0 ? "XNNFullyConnected" : "XNNClamp");
            }
        }
        QVERIFY(lastAddmmMatched);
        // Constant bytes (16-byte alignment between tensors, none after the last):
        //   A: b0 32 + w0 256 + b1 32 + w1 256 + b2 40 (→ 48) + w2 8×10×4 = 320  → 944
        //   B: b2 40 (→ 48) + w2 320 → 368; w0, b0, w1, b1 travel in the payload.
        QCOMPARE(size(*diff, "constant data").a, std::uint64_t(944));
        QCOMPARE(size(*diff, "constant data").b, std::uint64_t(368));
        QCOMPARE(size(*diff, "delegate payloads").b, pair.payloadBytes);
        QCOMPARE(size(*diff, "file").a, std::uint64_t(a.program->file->size()));

        // The other way round everything moves out.
        auto back = diffPrograms(b, a);
        QVERIFY(back.ok());
        QCOMPARE(back->methods.front().movedOutOfDelegates, 4);
        QCOMPARE(back->methods.front().movedIntoDelegates, 0);
        QCOMPARE(back->methods.front().onlyInA, 3);
        QCOMPARE(movedCount(back->methods.front(), Movement::OutOfDelegate, "XNNClamp", "aten::relu.out"), 2);
    }

    void methodFilter()
    {
        ComparePair pair = makeMlpComparePair(4);
        MethodSpec extra = pair.lowered.methods.front();
        extra.name = "classify";
        pair.lowered.methods.push_front(std::move(extra));
        const Document a = open(write(pair.portable, "filter-a.pte"));
        const Document b = open(write(pair.lowered, "filter-b.pte"));
        auto all = diffPrograms(a, b);
        QVERIFY(all.ok());
        QCOMPARE(all->methodsOnlyInB, std::vector<std::string> { "classify" });
        QCOMPARE(all->methods.size(), std::size_t(2));
        // A method in one file only is reported, every node of it only-in-B. `classify` is B's
        // forward: top level input, output, the delegate call, addmm, _softmax, b2, w2 = 7;
        // inside the delegate input, output, FC ×2, Clamp ×2, w0, b0, w1, b1 = 10.
        auto only = diffPrograms(a, b, { .method = "classify" });
        QVERIFY(only.ok());
        QCOMPARE(only->methods.size(), std::size_t(1));
        const MethodDiff& classify = only->methods.front();
        QVERIFY(!classify.inA && classify.inB);
        QCOMPARE(classify.onlyInB, 7 + 10);
        QCOMPARE(classify.same + classify.changed + classify.onlyInA, 0);
        QCOMPARE(only->notes.size(), std::size_t(1));
        QVERIFY(only->notes.front().find("only in B") != std::string::npos);
        auto forward = diffPrograms(a, b, { .method = "forward" });
        QVERIFY(forward.ok());
        QCOMPARE(forward->methods.size(), std::size_t(1));
        QCOMPARE(forward->methods.front().movedIntoDelegates, 4);
        auto none = diffPrograms(a, b, { .method = "nope" });
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, Error::Code::Usage);
        QVERIFY(none.error().reason.find("'nope'") != std::string::npos);
    }

    /// executorch-numpy-runtime/add.pte vs executorch-rs/add.pte. By hand from `etscope info`:
    ///   A: 1 instruction, DelegateCall XnnpackBackend (segment #1, 432 B) holding 1 node XNNAdd;
    ///      file 1584 B; 2 segments.
    ///   B: 1 instruction, KernelCall aten::add.out; file 1072 B; 1 segment (empty constant seg).
    /// So: XnnpackBackend 1 → 0 delegates, 432 → 0 payload bytes; XNNAdd moved out of the
    /// delegate as aten::add.out (1 op); file -512 B. Inputs are [3] in A and [1] in B (info
    /// --json sizes), so inputs and output are "changed", not "same".
    void numpyAddVsRsAdd()
    {
        const Document a = openSample("executorch-numpy-runtime/add.pte");
        const Document b = openSample("executorch-rs/add.pte");
        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        QCOMPARE(diff->backends.size(), std::size_t(1));
        QCOMPARE(diff->backends[0].countA, 1);
        QCOMPARE(diff->backends[0].countB, 0);
        QCOMPARE(diff->backends[0].bytesA, std::uint64_t(432));
        QCOMPARE(size(*diff, "file").a, std::uint64_t(1584));
        QCOMPARE(size(*diff, "file").b, std::uint64_t(1072));
        QCOMPARE(size(*diff, "segments").a, std::uint64_t(2));
        QCOMPARE(size(*diff, "segments").b, std::uint64_t(1));
        const MethodDiff& forward = diff->methods.front();
        QCOMPARE(forward.movedOutOfDelegates, 1);
        QCOMPARE(movedCount(forward, Movement::OutOfDelegate, "XNNAdd", "aten::add.out"), 1);
        QCOMPARE(row(forward, "XNNAdd")->delegatedA, 1);
        QCOMPARE(row(forward, "aten::add.out")->nonDelegatedB, 1);
    }

    /// executorch/add.pte vs executorch-rs/add.pte: both one aten::add.out over two inputs
    /// (`ops`: aten::add.out 0 / 1 in both): 4 nodes same (input 0, input 1, add, output 0).
    /// Files differ in size (728 vs 1072 B from `info`), so not byte-identical.
    void executorchAddVsRsAdd()
    {
        auto diff = diffPrograms(openSample("executorch/add.pte"), openSample("executorch-rs/add.pte"));
        QVERIFY(diff.ok());
        QVERIFY(!diff->identicalBytes);
        QVERIFY(diff->backends.empty());
        QCOMPARE(diff->methods.front().same, 4);
        QCOMPARE(diff->methods.front().changed + diff->methods.front().onlyInA + diff->methods.front().onlyInB, 0);
        QCOMPARE(size(*diff, "file").a, std::uint64_t(728));
        QCOMPARE(size(*diff, "file").b, std::uint64_t(1072));
    }

    /// spike_lin129 vs spike_lin129_planned (`info`): both 35,328 B, one XnnpackBackend call of
    /// 704 B with one XNNFullyConnected, 4 segments, 2 named-data entries. Program FlatBuffer
    /// 1184 vs 1208 B. Segment bytes 33,984 = 704 payload + 33,280 named data, and 33,280 =
    /// 129 × 64 × 4 (weights) + 64 × 4 (bias). The only difference: input 0 is provided at run
    /// time in A and memory-planned in B, so input 0 and the delegate call reading it are
    /// "changed"; output 0 and the 5 inner nodes (input, output, FC, 2 constants) are "same".
    void lin129VsPlanned()
    {
        auto diff = diffPrograms(openSample("djl-executorch-engine/spike_lin129.pte"),
            openSample("djl-executorch-engine/spike_lin129_planned.pte"));
        QVERIFY(diff.ok());
        QVERIFY(!diff->identicalBytes);
        QCOMPARE(size(*diff, "file").a, std::uint64_t(35328));
        QCOMPARE(size(*diff, "file").b, std::uint64_t(35328));
        QCOMPARE(size(*diff, "program (FlatBuffer and header)").a, std::uint64_t(1184));
        QCOMPARE(size(*diff, "program (FlatBuffer and header)").b, std::uint64_t(1208));
        QCOMPARE(size(*diff, "segment bytes").a, std::uint64_t(33984));
        QCOMPARE(size(*diff, "named data").a, std::uint64_t(129 * 64 * 4 + 64 * 4));
        QCOMPARE(diff->backends[0].bytesA, std::uint64_t(704));
        QCOMPARE(diff->backends[0].bytesB, std::uint64_t(704));
        const MethodDiff& forward = diff->methods.front();
        QCOMPARE(forward.changed, 2);
        QCOMPARE(forward.same, 6);
        QCOMPARE(forward.onlyInA + forward.onlyInB, 0);
        for (const NodeMatch& m : forward.matches)
            if (m.status == MatchStatus::Changed)
                QVERIFY2(m.reason.find("runtime → FLOAT [129] planned") != std::string::npos, m.reason.c_str());
    }

    /// spike_add vs spike_add_unplanned: the same XNNAdd delegate (432 B); A plans both inputs,
    /// B leaves them to the caller, and its FlatBuffer is 40 B smaller (1088 vs 1048 in `info`).
    void addVsUnplanned()
    {
        auto diff = diffPrograms(openSample("djl-executorch-engine/spike_add.pte"),
            openSample("djl-executorch-engine/spike_add_unplanned.pte"));
        QVERIFY(diff.ok());
        QCOMPARE(size(*diff, "program (FlatBuffer and header)").a, std::uint64_t(1088));
        QCOMPARE(size(*diff, "program (FlatBuffer and header)").b, std::uint64_t(1048));
        const MethodDiff& forward = diff->methods.front();
        QCOMPARE(forward.changed, 3); // input 0, input 1, the delegate call
        QCOMPARE(forward.onlyInA + forward.onlyInB, 0);
        QCOMPARE(forward.movedIntoDelegates + forward.movedOutOfDelegates, 0);
    }

    /// dnf_executorch5 (portable training program) vs dnf_xnnpack_training: the same four
    /// methods; B lowers parts of forward to 4 XnnpackBackend calls (`info`: payloads sum to
    /// 2,416 B); A has none. The networks differ (five layers vs one), so nodes only on one side
    /// are expected; what must hold is the side-by-side table equal to both `ops` tables.
    void dnfPair()
    {
        const Document a = openSample("dnf-executorch/dnf_executorch5.pte");
        const Document b = openSample("dnf-executorch/dnf_xnnpack_training.pte");
        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        QCOMPARE(diff->commonMethods.size(), std::size_t(4));
        QCOMPARE(diff->backends[0].countA, 0);
        QCOMPARE(diff->backends[0].countB, 4);
        std::uint64_t payloads = 0;
        for (const DelegateRef& ref : b.program->method("forward")->delegates)
            payloads += ref.payload.size;
        QCOMPARE(diff->backends[0].bytesB, payloads);
        QCOMPARE(payloads, std::uint64_t(2416));
        const MethodDiff* forward = nullptr;
        for (const MethodDiff& m : diff->methods)
            if (m.name == "forward")
                forward = &m;
        QVERIFY(forward);
        const OperatorTable ta = computeOperatorTable(*a.analysis(*a.program->method("forward"))->graph);
        const OperatorTable tb = computeOperatorTable(*b.analysis(*b.program->method("forward"))->graph);
        for (const OperatorRow& r : ta.rows)
            QCOMPARE(row(*forward, r.opType)->nonDelegatedA, r.nonDelegated);
        for (const OperatorRow& r : tb.rows)
            QCOMPARE(row(*forward, r.opType)->delegatedB, r.delegated);
        // Each moved operator is one A top-level operator: never more than A lost at the top.
        QVERIFY(forward->movedIntoDelegates > 0);
        QVERIFY(forward->movedIntoDelegates <= ta.nonDelegatedNodes - tb.nonDelegatedNodes);
    }

    /// Matching by debug handles (both ETRecords attached). The portable MLP of the writer's pair
    /// against itself: 0 addmm, 1 relu, 2 addmm, 3 relu, 4 addmm, 5 _softmax. A's record gives
    /// instruction k the handle k + 1; B's record says B's first layer is A's second and the
    /// other way round: B 0 → 3, 1 → 4, 2 → 1, 3 → 2, 4 → 5, 5 → 6. So by handle A#0 (h1) pairs
    /// with B#2, A#1 (h2) with B#3, A#2 (h3) with B#0, A#3 (h4) with B#1, A#4 with B#4, A#5 with
    /// B#5 — where execution order (identical tokens) pairs A#k with B#k. Anchors sorted by A:
    /// B positions 2, 3, 0, 1, 4, 5; the chain is 4 long and the other two cross it, but every
    /// instruction is an anchor, so nothing is left to align: matching "debug handles".
    void debugHandlesSwappedLayers()
    {
        const ComparePair pair = makeMlpComparePair(8);
        const std::string path = write(pair.portable, "handles-portable.pte");
        const Document a = open(path);
        const Document b = open(path);
        QVERIFY(a.program && b.program);
        ETRecordWriteSpec specA, specB;
        specA.debugHandleMap = kernelHandles({ 1, 2, 3, 4, 5, 6 });
        specB.debugHandleMap = kernelHandles({ 3, 4, 1, 2, 5, 6 });
        const std::optional<ETRecord> recordA = writeRecord(specA, "a.etrecord");
        const std::optional<ETRecord> recordB = writeRecord(specB, "b.etrecord");
        QVERIFY(recordA && recordB);

        const std::vector<std::pair<std::string, std::string>> byHandle {
            { "#0 aten::addmm.out", "#2 aten::addmm.out" },
            { "#1 aten::relu.out", "#3 aten::relu.out" },
            { "#2 aten::addmm.out", "#0 aten::addmm.out" },
            { "#3 aten::relu.out", "#1 aten::relu.out" },
            { "#4 aten::addmm.out", "#4 aten::addmm.out" },
            { "#5 aten::_softmax.out", "#5 aten::_softmax.out" },
        };
        DiffOptions options;
        options.recordA = &*recordA;
        options.recordB = &*recordB;
        auto diff = diffPrograms(a, b, options);
        QVERIFY(diff.ok());
        const MethodDiff& handles = diff->methods.front();
        QCOMPARE(handles.matching, std::string("debug handles"));
        for (const auto& [labelA, labelB] : byHandle) {
            const NodeMatch* match = matchOfA(handles, labelA);
            QVERIFY2(match, labelA.c_str());
            QCOMPARE(match->labelB, labelB);
            QVERIFY(match->byDebugHandle);
        }
        // Still one match per node: 6 instructions, 1 input, 1 output, 6 constants (b0, w0, b1,
        // w1, b2, w2, each paired through its reader) per side.
        QCOMPARE(handles.onlyInA, 0);
        QCOMPARE(handles.onlyInB, 0);
        QCOMPARE(static_cast<int>(handles.matches.size()), nodeCount(*a.analysis(a.program->methods[0])->graph));
        QVERIFY(programDiffJson(*diff).dump().find("\"by\":\"debug handle\"") != std::string::npos);

        // Without records, and with only one, the old matching: A#k with B#k in execution order.
        for (const bool oneRecord : { false, true }) {
            DiffOptions plain;
            if (oneRecord)
                plain.recordA = &*recordA;
            auto old = diffPrograms(a, b, plain);
            QVERIFY(old.ok());
            const MethodDiff& aligned = old->methods.front();
            QCOMPARE(aligned.matching, std::string("aligned"));
            QCOMPARE(aligned.changed + aligned.onlyInA + aligned.onlyInB, 0); // a file against itself
            for (const auto& [labelA, labelB] : byHandle) {
                const NodeMatch* match = matchOfA(aligned, labelA);
                QVERIFY2(match, labelA.c_str());
                QCOMPARE(match->labelB, labelA);
                QVERIFY(!match->byDebugHandle);
            }
        }
    }

    /// Moves by delegate_map: the writer's pair, portable (A) against lowered (B). A's record:
    /// instruction k → handle k + 1. B's: 0 (DelegateCall) → [1, 2, 3, 4], 1 (addmm) → 5, 2
    /// (_softmax) → 6; B's XNNPACK nodes store debug handles 1 FC, 2 Clamp, 3 FC, 4 Clamp
    /// (comparepairs.cpp), and its delegate_map (deliberately crossed) says identifier 1 → AOT 3,
    /// 2 → 4, 3 → 1, 4 → 2. Top level: A#4 ↔ B#1 (h5) and A#5 ↔ B#2 (h6) are anchors; A#0..#3
    /// are operators and B#0 a delegate call, so they are not anchored and go to the moves: by
    /// handle A#0 addmm (h1) → the node with identifier 3 (second FC), A#1 relu (h2) → 4 (second
    /// Clamp), A#2 (h3) → 1 (first FC), A#3 (h4) → 2 (first Clamp). Without the records the
    /// families in payload order give 1, 2, 3, 4.
    void debugHandlesIntoDelegate()
    {
        const ComparePair pair = makeMlpComparePair(8);
        const Document a = open(write(pair.portable, "handles-portable2.pte"));
        const Document b = open(write(pair.lowered, "handles-lowered.pte"));
        QVERIFY(a.program && b.program);
        ETRecordWriteSpec specA, specB;
        specA.debugHandleMap = kernelHandles({ 1, 2, 3, 4, 5, 6 });
        specB.debugHandleMap = kernelHandles({ 0, 5, 6 });
        specB.debugHandleMap["forward"][0]
            = DebugHandleEntry { { DebugHandle(1), DebugHandle(2), DebugHandle(3), DebugHandle(4) }, true };
        DelegateMapEntry delegate;
        delegate.backend = "XnnpackBackend";
        delegate.identifiers = { { "1", { DebugHandle(3) } }, { "2", { DebugHandle(4) } }, { "3", { DebugHandle(1) } },
            { "4", { DebugHandle(2) } } };
        specB.delegateMap["forward"][0] = delegate;
        const std::optional<ETRecord> recordA = writeRecord(specA, "a2.etrecord");
        const std::optional<ETRecord> recordB = writeRecord(specB, "b2.etrecord");
        QVERIFY(recordA && recordB);

        const auto innerHandle = [&](const MethodDiff& method, const std::string& labelA) -> std::int64_t {
            const NodeMatch* match = matchOfA(method, labelA);
            if (!match || !match->b || !match->b->inner)
                return -1;
            const Node& inner
                = b.analysis(b.program->methods[0])->graph->node(match->b->node).subgraph->node(*match->b->inner);
            return inner.debugHandle ? inner.debugHandle->value : -1;
        };
        DiffOptions options;
        options.recordA = &*recordA;
        options.recordB = &*recordB;
        auto diff = diffPrograms(a, b, options);
        QVERIFY(diff.ok());
        const MethodDiff& handles = diff->methods.front();
        QCOMPARE(handles.matching, std::string("debug handles"));
        QCOMPARE(innerHandle(handles, "#0 aten::addmm.out"), std::int64_t(3));
        QCOMPARE(innerHandle(handles, "#1 aten::relu.out"), std::int64_t(4));
        QCOMPARE(innerHandle(handles, "#2 aten::addmm.out"), std::int64_t(1));
        QCOMPARE(innerHandle(handles, "#3 aten::relu.out"), std::int64_t(2));
        for (const char* label : { "#0 aten::addmm.out", "#3 aten::relu.out", "#4 aten::addmm.out" })
            QVERIFY2(matchOfA(handles, label)->byDebugHandle, label);
        QCOMPARE(matchOfA(handles, "#4 aten::addmm.out")->labelB, std::string("#1 aten::addmm.out"));
        QCOMPARE(handles.movedIntoDelegates, 4);

        auto old = diffPrograms(a, b);
        QVERIFY(old.ok());
        const MethodDiff& aligned = old->methods.front();
        QCOMPARE(aligned.matching, std::string("aligned"));
        QCOMPARE(innerHandle(aligned, "#0 aten::addmm.out"), std::int64_t(1));
        QCOMPARE(innerHandle(aligned, "#1 aten::relu.out"), std::int64_t(2));
        QCOMPARE(innerHandle(aligned, "#2 aten::addmm.out"), std::int64_t(3));
        QCOMPARE(innerHandle(aligned, "#3 aten::relu.out"), std::int64_t(4));
        QVERIFY(!matchOfA(aligned, "#0 aten::addmm.out")->byDebugHandle);
        // The same counts either way: only which node pairs with which differs.
        QCOMPARE(aligned.same, handles.same);
        QCOMPARE(aligned.onlyInB, handles.onlyInB);
    }

    /// Issue 27, items 1 and 2: two builds of the QNN LLM whose FlatBuffers are identical but whose
    /// context binaries differ. Made from the real file by inverting 1000 bytes of its QNN segment
    /// at segment offset 4096. Before, diff said "delegates: same" and counted the segment that
    /// both methods' delegates share twice (2,662,912 payload bytes in a 1.35 MB file).
    void qnnBuildsDifferOnlyInPayload()
    {
        const std::string pathA = etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte");
        const Document a = open(pathA);
        QVERIFY(a.program);
        std::vector<ByteRange> qnn;
        for (const Method& method : a.program->methods)
            for (const DelegateRef& ref : method.delegates)
                if (ref.backendId == "QnnBackend")
                    qnn.push_back(ref.payload);
        QCOMPARE(qnn.size(), std::size_t(2)); // kv_forward and prefill_forward
        QCOMPARE(qnn[0].offset, qnn[1].offset); // one segment, shared
        QCOMPARE(qnn[0].size, qnn[1].size);

        QFile in(QString::fromStdString(pathA));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        for (std::uint64_t i = 0; i < 1000; ++i)
            bytes[static_cast<qsizetype>(qnn[0].offset + 4096 + i)] ^= char(0xff);
        const QString pathB = m_dir.filePath(QStringLiteral("stories260k_rebuilt.pte"));
        QFile out(pathB);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(bytes), bytes.size());
        out.close();
        const Document b = open(pathB.toStdString());
        QVERIFY(b.program);

        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        QVERIFY(!diff->identicalBytes);
        const BackendDiff* backend = nullptr;
        for (const BackendDiff& d : diff->backends)
            if (d.backend == "QnnBackend")
                backend = &d;
        QVERIFY(backend);
        QCOMPARE(backend->countA, 2);
        QCOMPARE(backend->bytesA, qnn[0].size); // the shared segment once
        QVERIFY(backend->bytesA < a.program->file->size());
        QCOMPARE(backend->differingBytes, std::uint64_t(1000));
        QCOMPARE(backend->firstDifferenceA, std::optional<std::uint64_t>(qnn[0].offset + 4096));
        const std::string summary = [&] {
            std::string text;
            for (const std::string& line : diff->summaryLines())
                text += line + "; ";
            return text;
        }();
        QVERIFY2(summary.find("delegates: same") == std::string::npos, summary.c_str());
        QVERIFY2(
            summary.find("QnnBackend delegates 2 → 2 (same size, content differs in 1000 bytes)") != std::string::npos,
            summary.c_str());
        // Each method's delegate node is changed, with the reason.
        int changedDelegates = 0;
        for (const MethodDiff& method : diff->methods) {
            const Method* pm = a.program->method(method.name);
            const Graph& graph = *a.analysis(*pm)->graph;
            for (const NodeMatch& match : method.matches)
                if (match.a && !match.a->inner && graph.node(match.a->node).kind == NodeKind::Delegate) {
                    QCOMPARE(match.status, MatchStatus::Changed);
                    QVERIFY2(match.reason.find("payload content differs in 1000 of " + std::to_string(qnn[0].size)
                                 + " bytes, first at payload offset 4096")
                            != std::string::npos,
                        match.reason.c_str());
                    ++changedDelegates;
                }
        }
        QCOMPARE(changedDelegates, 2);
    }

    /// Issue 38 item 3: two builds of the QNN LLM whose context binaries both decode (1552
    /// inner nodes each) but differ in bytes: the real file, and a copy with 1000 bytes
    /// inverted 64 KiB before the end of its QNN segment (in the context binary's data, past
    /// the metadata and graph FlatBuffers, which stay readable). The ops inside read and write
    /// no tensor (qnncontext.cpp draws them unconnected), so only their names can be compared:
    /// no op may be "same"; each says what was compared.
    void qnnBuildsWhoseInsidesAreComparedByNameOnly()
    {
        const std::string pathA = etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte");
        const Document a = open(pathA);
        QVERIFY(a.program);
        ByteRange qnn;
        for (const Method& method : a.program->methods)
            for (const DelegateRef& ref : method.delegates)
                if (ref.backendId == "QnnBackend")
                    qnn = ref.payload;
        QVERIFY(qnn.size > 65536);
        QFile in(QString::fromStdString(pathA));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        for (std::uint64_t i = 0; i < 1000; ++i)
            bytes[static_cast<qsizetype>(qnn.offset + qnn.size - 65536 + i)] ^= char(0xff);
        const QString pathB = m_dir.filePath(QStringLiteral("stories260k_data_changed.pte"));
        QFile out(pathB);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(bytes), bytes.size());
        out.close();
        const Document b = open(pathB.toStdString());
        QVERIFY(b.program);
        DiffOptions options;
        options.delegateFacts = true;
        auto diff = diffPrograms(a, b, options);
        QVERIFY(diff.ok());
        const std::string summary = [&] {
            std::string text;
            for (const std::string& line : diff->summaryLines())
                text += line + "; ";
            return text;
        }();
        // The ops: "unverified"; the inner inputs and outputs carry tensors (dtype and shape
        // compared) and may be "same".
        int unverified = 0;
        int ops = 0;
        for (const MethodDiff& method : diff->methods) {
            const Graph& graph = *a.analysis(*a.program->method(method.name))->graph;
            for (const NodeMatch& match : method.matches) {
                if (!match.a || !match.a->inner)
                    continue;
                const Node& node = graph.node(match.a->node).subgraph->node(*match.a->inner);
                if (node.kind != NodeKind::Operator)
                    continue;
                ++ops;
                QCOMPARE(match.status, MatchStatus::Unverified);
                QCOMPARE(match.reason,
                    std::string("names equal; the context binary's contents are not comparable node by node"));
            }
            unverified += method.unverified;
            QCOMPARE(method.unverified,
                static_cast<int>(std::count_if(method.matches.begin(), method.matches.end(),
                    [](const NodeMatch& m) { return m.status == MatchStatus::Unverified; })));
        }
        // Both sides decode: kv_forward's 1552 ops and prefill_forward's, each paired by name.
        QVERIFY2(ops > 1000, summary.c_str());
        QVERIFY(unverified >= ops);
        QVERIFY2(summary.find(" unverified (names equal, payloads differ)") != std::string::npos, summary.c_str());
        // The facts that changed: the payload's hash, once for the segment both methods share
        // (same size, so no size row).
        const auto hash = std::find_if(diff->delegateFacts.begin(), diff->delegateFacts.end(),
            [](const DeviceFactChange& change) { return change.key == "payload.fnv1a64"; });
        QVERIFY(hash != diff->delegateFacts.end());
        QCOMPARE(hash->backend, std::string("QnnBackend"));
        QVERIFY(hash->a && hash->b && *hash->a != *hash->b);
        QCOMPARE(hash->a->size(), std::size_t(18)); // "0x" and 16 hex digits
        QCOMPARE(hash->delegates.size(), std::size_t(2)); // kv_forward #0 and prefill_forward #0, merged
        QVERIFY(std::none_of(diff->delegateFacts.begin(), diff->delegateFacts.end(),
            [](const DeviceFactChange& change) { return change.key == "payload.size"; }));
        QVERIFY(programDiffJson(*diff).contains("delegate_facts"));
        // Not asked for: not computed.
        auto plain = diffPrograms(a, b);
        QVERIFY(plain.ok());
        QVERIFY(plain->delegateFacts.empty());
        QVERIFY(!programDiffJson(*plain).contains("delegate_facts"));
    }

    void notAProgram()
    {
        Document etdump;
        etdump.path = "run.etdp";
        etdump.kind = FileKind::ETDump;
        const Document program = openSample("executorch/add.pte");
        auto diff = diffPrograms(program, etdump);
        QVERIFY(!diff.ok());
        QCOMPARE(diff.error().code, Error::Code::Usage);
        QCOMPARE(diff.error().file, std::string("run.etdp"));
    }

    void families()
    {
        QCOMPARE(operatorFamily("aten::addmm.out"), operatorFamily("XNNFullyConnected"));
        QCOMPARE(operatorFamily("aten::relu.out"), operatorFamily("XNNClamp"));
        QCOMPARE(operatorFamily("aten::hardtanh.out"), operatorFamily("XNNClamp"));
        QCOMPARE(operatorFamily("aten::add.out"), operatorFamily("XNNAdd"));
        QCOMPARE(operatorFamily("aten.add.Tensor"), std::string("add"));
        QCOMPARE(operatorFamily("aten::permute_copy.out"), operatorFamily("XNNStaticTranspose"));
        QVERIFY(operatorFamily("XNNConvert") != operatorFamily("aten::add.out"));
        // Issue 38: the op type names of every other decoder (core/delegates), each beside the
        // ATen operator the partitioners lower to it.
        // TOSA and VGF (tosa.cpp, vgf.cpp: "TOSA " + the operator's name).
        QCOMPARE(operatorFamily("TOSA ADD"), operatorFamily("aten::add.out"));
        QCOMPARE(operatorFamily("TOSA CONV2D"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("TOSA DEPTHWISE_CONV2D"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("TOSA CLAMP"), operatorFamily("aten::hardtanh.out"));
        QCOMPARE(operatorFamily("TOSA AVG_POOL2D"), operatorFamily("aten::avg_pool2d.out"));
        QCOMPARE(operatorFamily("TOSA RESHAPE"), operatorFamily("aten::view_copy.out"));
        QCOMPARE(operatorFamily("TOSA FULLY_CONNECTED"), operatorFamily("aten::addmm.out"));
        // Ethos-U NPU operations (ethosuoperations.cpp).
        QCOMPARE(operatorFamily("Add"), operatorFamily("aten::add.out"));
        QCOMPARE(operatorFamily("Conv"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("Depthwise"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("AvgPool"), operatorFamily("aten::avg_pool2d.out"));
        QCOMPARE(operatorFamily("MaxPool"), operatorFamily("aten::max_pool2d_with_indices.out"));
        QCOMPARE(operatorFamily("Leaky relu"), operatorFamily("aten::leaky_relu.out"));
        // Core ML MIL (coremlprogram.cpp: the operation's type).
        QCOMPARE(operatorFamily("real_div"), operatorFamily("aten::div.out"));
        QCOMPARE(operatorFamily("reduce_mean"), operatorFamily("aten::mean.out"));
        QCOMPARE(operatorFamily("conv"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("relu"), operatorFamily("aten::relu.out"));
        // MLX (mlx.cpp: the union member without "Node").
        QCOMPARE(operatorFamily("Addmm"), operatorFamily("aten::addmm.out"));
        QCOMPARE(operatorFamily("Multiply"), operatorFamily("aten::mul.out"));
        QCOMPARE(operatorFamily("Conv2D"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("Sdpa"), operatorFamily("aten::scaled_dot_product_attention"));
        // QNN (qnncontext.cpp: the edge name the node name holds) and other namespaces.
        QCOMPARE(operatorFamily("aten.convolution.default"), operatorFamily("aten::convolution.out"));
        QCOMPARE(operatorFamily("quantized_decomposed.quantize_per_tensor.default"),
            operatorFamily("quantized_decomposed::quantize_per_tensor.out"));
        QCOMPARE(operatorFamily("cortex_m::quantize_per_tensor.out"),
            operatorFamily("quantized_decomposed::quantize_per_tensor.out"));
        QVERIFY(operatorFamily("TOSA RESCALE") != operatorFamily("aten::add.out"));
    }

    void operatorsMovedIntoAVgfDelegate()
    {
        // Written: A runs aten::add.out (x + constant) then aten::clamp.out on the CPU; B runs one
        // VgfBackend delegate whose graph is TOSA ADD (with a graph constant) then TOSA CLAMP
        // (writeSmallVgf). Both operators moved into the delegate: 2 moves, 0 before issue 38,
        // when "TOSA ADD" was a family of its own.
        ProgramSpec cpu;
        {
            MethodSpec& method = cpu.addMethod("forward");
            TensorSpec t;
            t.scalarType = scalar_type::Char;
            t.sizes = { 1, 4 };
            const std::int32_t x = method.addTensor(t);
            TensorSpec constant = t;
            constant.data = std::vector<std::uint8_t> { 1, 2, 3, 4 };
            const std::int32_t c = method.addTensor(constant);
            const std::int32_t alpha = method.addValue(ValueSpec::integer(1));
            const std::int32_t sum = method.addTensor(t);
            const std::int32_t low = method.addValue(ValueSpec::integer(-100));
            const std::int32_t high = method.addValue(ValueSpec::integer(100));
            const std::int32_t out = method.addTensor(t);
            method.inputs = { x };
            method.outputs = { out };
            method.addInstruction(
                InstructionSpec::kernel(method.addOperator("aten::add", "out"), { x, c, alpha, sum }));
            method.addInstruction(
                InstructionSpec::kernel(method.addOperator("aten::clamp", "out"), { sum, low, high, out }));
        }
        ProgramSpec npu;
        {
            MethodSpec& method = npu.addMethod("forward");
            TensorSpec t;
            t.scalarType = scalar_type::Char;
            t.sizes = { 1, 4 };
            const std::int32_t x = method.addTensor(t);
            const std::int32_t out = method.addTensor(t);
            method.inputs = { x };
            method.outputs = { out };
            const std::int32_t delegate = method.addDelegate({ "VgfBackend", writeSmallVgf() });
            method.addInstruction(InstructionSpec::delegate(delegate, { x, out }));
        }
        const Document a = open(write(cpu, "cpu-add.pte"));
        const Document b = open(write(npu, "vgf-add.pte"));
        QVERIFY(a.program && b.program);
        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        const MethodDiff& forward = diff->methods.front();
        QCOMPARE(forward.movedIntoDelegates, 2);
        QCOMPARE(movedCount(forward, Movement::IntoDelegate, "aten::add.out", "TOSA ADD"), 1);
        QCOMPARE(movedCount(forward, Movement::IntoDelegate, "aten::clamp.out", "TOSA CLAMP"), 1);
        std::string summary;
        for (const std::string& line : diff->summaryLines())
            summary += line + "; ";
        QVERIFY2(summary.find("no ops moved") == std::string::npos, summary.c_str());
    }

    void ethosUAndVgfBuildsOfMobileNetV2()
    {
        // The same MobileNetV2 lowered to Ethos-U and to VGF (pte-adapter-model-explorer). By
        // `etscope ops` and `etscope graph`: mobilenet_v2_ethosu.pte runs #0
        // cortex_m::quantize_per_tensor.out, #1 EthosUBackend (Add 30, AvgPool 226, Conv 158,
        // DMA 190, Depthwise 32, Mul 30), #2 cortex_m::dequantize_per_tensor.out;
        // mobilenet_v2_vgf_segments.pte #0 quantized_decomposed::quantize_per_tensor.out,
        // #1 VgfBackend (TOSA ADD 10, CONV2D 36, DEPTHWISE_CONV2D 17, CLAMP 35, RESCALE 84, …),
        // #2 quantized_decomposed::dequantize_per_tensor.out. Before issue 38 nothing paired:
        // 2 nodes same, every other only in A or only in B.
        const Document a = openSample("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte");
        const Document b = openSample("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte");
        QVERIFY(a.program && b.program);
        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        QCOMPARE(diff->methods.size(), std::size_t(1));
        const MethodDiff& forward = diff->methods.front();
        // The two calls: one build lowered to another backend.
        const NodeMatch* call = matchOfA(forward, "#1 EthosUBackend");
        QVERIFY(call && call->b && !call->b->inner);
        QCOMPARE(call->labelB, std::string("#1 VgfBackend"));
        QCOMPARE(call->status, MatchStatus::Changed);
        QVERIFY2(call->reason.starts_with("backend EthosUBackend → VgfBackend"), call->reason.c_str());
        // Quantize and dequantize: one family, two namespaces.
        const NodeMatch* quantize = matchOfA(forward, "#0 cortex_m::quantize_per_tensor.out");
        QVERIFY(quantize && quantize->b);
        QCOMPARE(quantize->labelB, std::string("#0 quantized_decomposed::quantize_per_tensor.out"));
        QCOMPARE(quantize->reason,
            std::string("operator cortex_m::quantize_per_tensor.out → quantized_decomposed::quantize_per_tensor.out"));
        const NodeMatch* dequantize = matchOfA(forward, "#2 cortex_m::dequantize_per_tensor.out");
        QVERIFY(dequantize && dequantize->b);
        QCOMPARE(dequantize->labelB, std::string("#2 quantized_decomposed::dequantize_per_tensor.out"));
        // Inside, the NPU's operations against the TOSA ones of the same family: the adds.
        int adds = 0;
        for (const NodeMatch& match : forward.matches)
            if (match.a && match.a->inner && match.b && match.b->inner && match.reason == "operator Add → TOSA ADD")
                ++adds;
        QVERIFY(adds > 0);
        QVERIFY(adds <= 10); // VGF has 10 TOSA ADD
    }

    void deviceFactsOfWriterPrograms()
    {
        // Issue 33: two builds whose delegates were built for other hardware say which facts
        // changed, not only that the payload did. Writer-made: an Ethos-U delegate whose compile
        // spec "target" is ethos-u55-128 in A and ethos-u85-256 in B (same payload bytes, so
        // nothing else about the delegate differs), and QNN context binaries naming SDK builds
        // v2.45.0 and v2.37.0 (qnnpayloadwriter.h: the metadata's build id).
        const auto openSpec = [](const ProgramSpec& spec, const std::string& name) {
            auto bytes = writeProgram(spec);
            auto document = bytes ? etscope::test::documentFromBytes(*bytes, name) : std::nullopt;
            return document ? std::move(*document) : Document {};
        };
        const Document u55 = openSpec(etscope::test::ethosUProgram("ethos-u55-128"), "u55.pte");
        const Document u85 = openSpec(etscope::test::ethosUProgram("ethos-u85-256"), "u85.pte");
        QVERIFY(u55.program && u85.program);
        auto diff = diffPrograms(u55, u85);
        QVERIFY(diff.ok());
        // The target as written, once: its NPU and MACs are read from it, not stated again.
        QCOMPARE(diff->deviceFacts.size(), std::size_t(1));
        const DeviceFactChange& target = diff->deviceFacts.front();
        QCOMPARE(target.backend, std::string("EthosUBackend"));
        QCOMPARE(target.key, std::string("arm.target"));
        QCOMPARE(target.text(), std::string("Ethos-U target ethos-u55-128 → ethos-u85-256"));
        QCOMPARE(target.delegates, std::vector<std::string> { "forward #0" });
        const auto summary = diff->summaryLines();
        QVERIFY(std::find(summary.begin(), summary.end(), "device facts: Ethos-U target ethos-u55-128 → ethos-u85-256")
            != summary.end());
        const std::string text = programDiffText(*diff, TableFormat::Text);
        QVERIFY2(text.find("Device facts that changed") != std::string::npos, text.c_str());
        const auto json = programDiffJson(*diff);
        QCOMPARE(json["device_facts"].size(), std::size_t(1));
        QCOMPARE(json["device_facts"][0]["a"].get<std::string>(), std::string("ethos-u55-128"));
        QCOMPARE(json["device_facts"][0]["b"].get<std::string>(), std::string("ethos-u85-256"));
        // The same build against itself: no device fact changed.
        auto same = diffPrograms(u55, u55);
        QVERIFY(same.ok());
        QVERIFY(same->deviceFacts.empty());
        QVERIFY(programDiffJson(*same)["device_facts"].empty());

        const Document newer = openSpec(etscope::test::qnnProgram("v2.45.0.fixture"), "qnn-245.pte");
        const Document older = openSpec(etscope::test::qnnProgram("v2.37.0.fixture"), "qnn-237.pte");
        QVERIFY(newer.program && older.program);
        auto qnn = diffPrograms(newer, older);
        QVERIFY(qnn.ok());
        std::vector<std::string> texts;
        for (const DeviceFactChange& change : qnn->deviceFacts)
            texts.push_back(change.text());
        // The build id and the version read from it; the SoC (57) is the same on both sides.
        QCOMPARE(texts,
            (std::vector<std::string> {
                "QNN SDK build id v2.45.0.fixture → v2.37.0.fixture", "QNN SDK version 2.45.0 → 2.37.0" }));
        // Another SoC in B's context binary (43: SM8550, qnn.cpp's chipset table).
        const Document sm8550 = openSpec(etscope::test::qnnProgram("v2.45.0.fixture", 43), "qnn-8550.pte");
        auto soc = diffPrograms(newer, sm8550);
        QVERIFY(soc.ok());
        QCOMPARE(soc->deviceFacts.size(), std::size_t(1));
        QCOMPARE(soc->deviceFacts.front().key, std::string("qnn.context_soc_model"));
        QVERIFY2(soc->deviceFacts.front().text().starts_with("QNN SoC model (context binary) SM8650"),
            soc->deviceFacts.front().text().c_str());
        // Every fact for the Compare view's table: the device facts, then the payload's size and
        // hash. "v2.45.0.fixture" and "v2.37.0.fixture" are 15 bytes each: the payloads are of
        // one size, so only the hash differs of the two.
        const std::vector<std::string> forward { "forward" };
        const auto all = diffDelegateFacts(newer, older, forward);
        std::vector<std::string> keys;
        for (const DeviceFactChange& change : all)
            keys.push_back(change.key);
        QVERIFY(std::find(keys.begin(), keys.end(), "qnn.sdk_version") != keys.end());
        QVERIFY(std::find(keys.begin(), keys.end(), "payload.fnv1a64") != keys.end());
        QVERIFY(std::find(keys.begin(), keys.end(), "payload.size") == keys.end());
        QVERIFY(diffDelegateFacts(newer, newer, forward).empty());
    }

    void deviceFactsOfRealEthosUBuilds()
    {
        // tinycnn_u55.pte (target "ethos-u55-128" at byte 29696, COP1 CONFIG: U55, 128 MACs,
        // 24 KiB SHRAM, stream version 0, arch 1.0.6) against mobilenetv2_lrn_int8_ethosu.pte
        // (target "ethos-u85-256" at bytes 352 and 836; U85, 256 MACs, stream version 1, arch
        // 2.0.0): different models, each forward's delegate #0 paired (tst_devicecheck.cpp and
        // `etscope info` for the values).
        const Document a = openSample("tinycnn/tinycnn_u55.pte");
        const Document b = openSample("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        QVERIFY(a.program && b.program);
        auto diff = diffPrograms(a, b);
        QVERIFY(diff.ok());
        std::map<std::string, const DeviceFactChange*> byKey;
        for (const DeviceFactChange& change : diff->deviceFacts)
            byKey[change.key] = &change;
        QVERIFY(byKey.count("arm.target"));
        QCOMPARE(byKey["arm.target"]->text(), std::string("Ethos-U target ethos-u55-128 → ethos-u85-256"));
        QCOMPARE(byKey["arm.target"]->delegates, std::vector<std::string> { "forward #0" });
        QVERIFY(!byKey.count("ethosu.npu")); // stated through the target
        QCOMPARE(byKey["arm.tosa_spec"]->text(),
            std::string("Ethos-U TOSA specification TOSA-1.0+INT+int16+int4+u55 → TOSA-1.0+INT+int16+int4+cf"));
        QCOMPARE(byKey["ethosu.stream_macs"]->text(), std::string("Ethos-U MACs per cycle (command stream) 128 → 256"));
        QCOMPARE(byKey["ethosu.arch_version"]->text(), std::string("Ethos-U NPU architecture version 1.0.6 → 2.0.0"));
        // The U85 stream states no SHRAM size.
        QVERIFY(byKey.count("ethosu.shram_kib"));
        QCOMPARE(byKey["ethosu.shram_kib"]->a, std::optional<std::string>("24 KiB"));
        QVERIFY(!byKey["ethosu.shram_kib"]->b);
        // The memory mode is Shared_Sram on both.
        QVERIFY(!byKey.count("ethosu.memory_mode"));
        // Delegate #1 of B has no partner in A.
        for (const DeviceFactChange& change : diff->deviceFacts)
            QCOMPARE(change.delegates, std::vector<std::string> { "forward #0" });
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestProgramDiff)
#include "tst_programdiff.moc"
