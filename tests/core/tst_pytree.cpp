// SPDX-License-Identifier: MIT
// Leaf paths of ContainerMetadata pytree specs (facts sheet §1.10), and refusals of text that is
// not one.
#include "core/pte/pytree.h"
#include "tests/common/testsupport.h"

#include <QTest>

using namespace etscope::core;

using Paths = std::vector<std::string>;

class TestPytree : public QObject {
    Q_OBJECT
private slots:
    void paths()
    {
        QCOMPARE(*pytreeLeafPaths("$"), Paths { "" });
        QCOMPARE(*pytreeLeafPaths("T3#1#1#2($,$,L2#1#1($,$))"), (Paths { "[0]", "[1]", "[2][0]", "[2][1]" }));
        QCOMPARE(*pytreeLeafPaths("D2#1#1(3:$,'str':$)"), (Paths { "[3]", "['str']" }));
        QCOMPARE(*pytreeLeafPaths("C(my.Type)2#1#1($,$)"), (Paths { "[0]", "[1]" }));
        // A method's inputs: (args, kwargs).
        QCOMPARE(*pytreeLeafPaths("T2#2#0(T2#1#1($,$),D0())", true), (Paths { "args[0]", "args[1]" }));
        QCOMPARE(*pytreeLeafPaths("T2#1#1(T1#1($),D1#1('mask':$))", true), (Paths { "args[0]", "kwargs['mask']" }));
        QCOMPARE(*pytreeLeafPaths("T2#1#1($,$)", false), (Paths { "[0]", "[1]" }));
    }

    // Issue 38: Properties showed the encoded spec ("T2#2#0(T2#1#1($,$),D0())"); it now reads
    // as the Python containers it encodes, each leaf named.
    void outlines()
    {
        const std::vector<std::string> names { "x", "y", "z" };
        QCOMPARE(*pytreeOutline("$", names), std::string("x"));
        QCOMPARE(*pytreeOutline("T2#2#0(T2#1#1($,$),D0())", names, true), std::string("args (x, y) · kwargs {}"));
        QCOMPARE(*pytreeOutline("T2#2#0(T2#1#1($,$),D0())", names), std::string("((x, y), {})"));
        QCOMPARE(*pytreeOutline("T2#1#1(T1#1($),D1#1('mask':$))", names, true),
            std::string("args (x,) · kwargs {'mask': y}"));
        QCOMPARE(*pytreeOutline("T3#1#1#2($,$,L2#1#1($,$))", names), std::string("(x, y, [z, •])"));
        QCOMPARE(*pytreeOutline("D2#1#1(3:$,'str':$)", names), std::string("{3: x, 'str': y}"));
        QCOMPARE(*pytreeOutline("C(my.Type)2#1#1($,$)", names), std::string("my.Type(x, y)"));
        QCOMPARE(*pytreeOutline("N2#1#1($,$)", {}), std::string("namedtuple(•, •)"));
        QVERIFY(!pytreeOutline("T2#1#1($)", names));
        QVERIFY(!pytreeOutline("", names));
    }

    void refusals()
    {
        QVERIFY(!pytreeLeafPaths(""));
        QVERIFY(!pytreeLeafPaths("T2#1#1($)"));
        QVERIFY(!pytreeLeafPaths("T1#1($)trailing"));
        QVERIFY(!pytreeLeafPaths("X1#1($)"));
        QVERIFY(!pytreeLeafPaths("D1#1('open:$)"));
        QVERIFY(!pytreeLeafPaths(std::string(200, 'L')));
        std::string deep;
        for (int i = 0; i < 100; ++i)
            deep += "L1#1(";
        deep += "$" + std::string(100, ')');
        QVERIFY(!pytreeLeafPaths(deep)); // deeper than 64 levels
    }
};

ETSCOPE_TEST_MAIN(TestPytree)
#include "tst_pytree.moc"
