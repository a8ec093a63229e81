// SPDX-License-Identifier: MIT
// Leaf paths of ContainerMetadata pytree specs (facts sheet §1.10), and refusals of text that is
// not one.
#include "core/pte/pytree.h"

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

QTEST_MAIN(TestPytree)
#include "tst_pytree.moc"
