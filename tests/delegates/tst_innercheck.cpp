// SPDX-License-Identifier: MIT
// The self-check of decoded inner graphs (issue 36, item 4): it finds the faults it is for on
// graphs made here, and every decoded delegate of every real sample passes it. A decoder that
// fails it has a bug; the problem texts name the edge, node or read.
#include "core/delegates/innercheck.h"
#include "core/document/document.h"
#include "tests/common/testsupport.h"

#include <QDirIterator>
#include <QTest>

using namespace etscope::core;
using namespace etscope::test;

namespace {

Node node(NodeKind kind, std::string label)
{
    Node n;
    n.kind = kind;
    n.label = std::move(label);
    return n;
}

} // namespace

class TestInnerCheck : public QObject {
    Q_OBJECT

private slots:
    void wholeGraphPasses()
    {
        Graph g;
        const NodeId in = g.addNode(node(NodeKind::Input, "input 0"));
        const NodeId op = g.addNode(node(NodeKind::Operator, "Conv"));
        const NodeId out = g.addNode(node(NodeKind::Output, "output 0"));
        g.addEdge({ in, op, ValueIndex(0), {}, false });
        g.addEdge({ op, out, ValueIndex(1), {}, false });
        const InnerGraphCheck check = checkInnerGraph(g);
        QVERIFY(check.ok());
        QCOMPARE(check.edges, std::size_t(2));
        QCOMPARE(check.outputs, std::size_t(1));
    }

    // Three faults: an edge to a node past the end (node 7 of 3), an edge from a node to itself,
    // an output nothing feeds.
    void faultsAreNamed()
    {
        Graph g;
        const NodeId in = g.addNode(node(NodeKind::Input, "input 0"));
        const NodeId op = g.addNode(node(NodeKind::Operator, "Conv"));
        g.addNode(node(NodeKind::Output, "output 0"));
        g.edges.push_back({ in, NodeId(7), ValueIndex(0), {}, false });
        g.edges.push_back({ op, op, ValueIndex(1), {}, false });
        const InnerGraphCheck check = checkInnerGraph(g);
        for (const std::string& p : check.problems)
            qInfo("%s", p.c_str());
        QCOMPARE(check.problems.size(), std::size_t(3));
        QCOMPARE(check.problems[0], std::string("edge 0 runs between nodes the graph does not have (0 → 7, of 3)"));
        QCOMPARE(check.problems[1], std::string("edge 1 runs from node 1 (Conv) to itself"));
        QCOMPARE(check.problems[2], std::string("output node 2 (output 0) has no producer"));
    }

    // Every program in the sample folder (every .pte and .bpte under it, not only those the
    // golden facts list): each delegate that decodes into an inner graph passes the check (for
    // Ethos-U also: every byte an NPU operation reads was written before it, by the stream, an
    // input or the weight block; every output is written).
    void everySampleDelegatePasses()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        int checked = 0;
        int ethosU = 0;
        QStringList files;
        QDirIterator it(etscope::test::samplesRoot(), { QStringLiteral("*.pte"), QStringLiteral("*.bpte") },
            QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.push_back(it.next());
        files.sort();
        QVERIFY(files.size() > 30);
        for (const QString& file : files) {
            const std::string path = file.toStdString();
            auto document = openDocument(path);
            if (!document || !document->program)
                continue; // not a program this build opens: tst_delegatesamples and the readers' tests say why
            for (const Method& method : document->program->methods) {
                const MethodAnalysis* analysis = document->analysis(method);
                QVERIFY2(analysis, path.c_str());
                for (std::size_t d = 0; d < analysis->delegates.size() && d < method.delegates.size(); ++d) {
                    const DelegateInfo& info = analysis->delegates[d];
                    if (!info.innerGraph)
                        continue;
                    const InnerGraphCheck check
                        = checkDelegateInnerGraph(*document->program, method.delegates[d], info);
                    std::string text = path + " " + method.name + " delegate " + std::to_string(d) + ":";
                    for (const std::string& p : check.problems)
                        text += "\n  " + p;
                    QVERIFY2(check.ok(), text.c_str());
                    ++checked;
                    if (info.format == "ethos-u") {
                        ++ethosU;
                        QVERIFY2(check.reads > 0, text.c_str());
                        qInfo("%s delegate %zu: %zu reads, %llu bytes, all written before", path.c_str(), d,
                            check.reads, static_cast<unsigned long long>(check.readBytes));
                    }
                }
            }
        }
        qInfo("%d decoded delegates checked, %d of them Ethos-U", checked, ethosU);
        QVERIFY(checked > 0);
        QVERIFY(ethosU >= 4); // cmsis minimal, mobilenet v2, tinycnn, the lrn program's two
    }
};

QTEST_GUILESS_MAIN(TestInnerCheck)
#include "tst_innercheck.moc"
