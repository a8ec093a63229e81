// SPDX-License-Identifier: MIT
// The CI gate (issue 25) on writer-made pairs whose numbers are known by construction:
// makeMlpComparePair (core/writer/comparepairs.h) is one MLP exported twice,
//   portable: addmm, relu, addmm, relu, addmm, _softmax        (6 kernel calls, nothing delegated)
//   lowered:  XnnpackBackend[FC, Clamp, FC, Clamp], addmm, _softmax  (4 of 6 nodes delegated)
// so the delegated share is 0/6 = 0% and 4/6 = 66.7%, and lowering's undoing moves 2 addmm and
// 2 relu out of the delegate. Arena sizes and the extra constant are set here by hand.
#include "tests/common/deviceprograms.h"
#include "tests/common/documentbytes.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"
#include "tests/common/writertensors.h"

#include "core/analysis/buildgate.h"
#include "core/analysis/kernelcheck.h"
#include "core/writer/comparepairs.h"
#include "core/writer/programwriter.h"

#include <QTest>

using namespace etscope::core;

namespace {

struct Built {
    std::vector<std::uint8_t> bytes;
    Document document;
};

Result<Built> build(const ProgramSpec& spec, const std::string& name)
{
    auto bytes = writeProgram(spec);
    if (!bytes)
        return bytes.error();
    auto document = etscope::test::documentFromBytes(*bytes, name);
    if (!document)
        return makeError(Error::Code::Corrupt, name, "the written program does not open");
    return Built { std::move(bytes).value(), std::move(*document) };
}

Result<std::vector<GateRule>> rules(const std::vector<std::string>& texts)
{
    return parseGateRules(texts);
}

/// The gate of `current` against `baseline` with `lists` (portable + prim when null).
Result<BuildGate> gate(const Document& current, const Document& baseline, const std::vector<std::string>& texts,
    const KernelLists* lists = nullptr)
{
    auto parsed = rules(texts);
    if (!parsed)
        return parsed.error();
    std::optional<KernelLists> portable;
    if (!lists) {
        auto loaded = loadKernelLists({});
        if (!loaded)
            return loaded.error();
        portable = std::move(loaded).value();
        lists = &*portable;
    }
    return evaluateBuildGate(
        current, baseline, checkKernels(current, *lists), checkKernels(baseline, *lists), parsed.value());
}

bool hasDetail(const GateRow& row, const std::string& text)
{
    for (const std::string& detail : row.details)
        if (detail.find(text) != std::string::npos)
            return true;
    return false;
}

std::string details(const GateRow& row)
{
    std::string text;
    for (const std::string& detail : row.details)
        text += detail + " | ";
    return text;
}

/// forward: addmm(bias [n], mat1 [2, 20], mat2 [20, n]) → [2, n]: 2·20·n MACs (M·K·N), and with
/// `mystery` a custom::mystery after it, an operator no cost rule covers.
ProgramSpec matmulProgram(std::int32_t n, bool mystery)
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    const auto tensor = [&m](std::vector<std::int32_t> sizes, bool constant) {
        return m.addTensor(etscope::test::floatTensor(std::move(sizes), constant));
    };
    const std::int32_t mat1 = tensor({ 2, 20 }, false);
    const std::int32_t mat2 = tensor({ 20, n }, true);
    const std::int32_t bias = tensor({ n }, true);
    const std::int32_t one = m.addValue(ValueSpec::integer(1));
    const std::int32_t out = tensor({ 2, n }, false);
    m.inputs = { mat1 };
    m.outputs = { out };
    m.addInstruction(
        InstructionSpec::kernel(m.addOperator("aten::addmm", "out"), { bias, mat1, mat2, one, one, out, out }));
    if (mystery) {
        const std::int32_t after = tensor({ 2, n }, false);
        m.addInstruction(InstructionSpec::kernel(m.addOperator("custom::mystery", "out"), { out, after, after }));
        m.outputs = { after };
    }
    m.computeArenaSizes();
    return spec;
}

} // namespace

class TestBuildGate : public QObject {
    Q_OBJECT

private slots:
    void parsesRules_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("unit");
        QTest::addColumn<double>("limit");
        QTest::addColumn<qulonglong>("bytes");
        using K = GateRule::Kind;
        using U = GateRule::Unit;
        QTest::addRow("size percent") << "size+5%" << int(K::Size) << int(U::Percent) << 5.0 << 0ull;
        QTest::addRow("size 2.5 percent") << "size+2.5%" << int(K::Size) << int(U::Percent) << 2.5 << 0ull;
        QTest::addRow("size KB is 1000") << "size+100KB" << int(K::Size) << int(U::Bytes) << 0.0 << 100000ull;
        QTest::addRow("size KiB is 1024") << "size+100KiB" << int(K::Size) << int(U::Bytes) << 0.0 << 102400ull;
        QTest::addRow("size 1.5MiB") << "size+1.5MiB" << int(K::Size) << int(U::Bytes) << 0.0 << 1572864ull;
        QTest::addRow("upper case") << " SIZE+0B " << int(K::Size) << int(U::Bytes) << 0.0 << 0ull;
        QTest::addRow("share") << "delegated-share-2pt" << int(K::DelegatedShare) << int(U::Points) << 2.0 << 0ull;
        QTest::addRow("arena percent") << "arena+10%" << int(K::Arena) << int(U::Percent) << 10.0 << 0ull;
        QTest::addRow("arena GiB") << "arena+1GiB" << int(K::Arena) << int(U::Bytes) << 0.0 << 1073741824ull;
        QTest::addRow("fallback") << "no-new-fallback" << int(K::NoNewFallback) << int(U::None) << 0.0 << 0ull;
        QTest::addRow("missing") << "no-new-missing" << int(K::NoNewMissing) << int(U::None) << 0.0 << 0ull;
        QTest::addRow("lost") << "no-lost-delegate" << int(K::NoLostDelegate) << int(U::None) << 0.0 << 0ull;
        QTest::addRow("loads") << "loads" << int(K::Loads) << int(U::None) << 0.0 << 0ull;
        QTest::addRow("device facts") << "same-device-facts" << int(K::SameDeviceFacts) << int(U::None) << 0.0 << 0ull;
        QTest::addRow("macs") << "macs+5%" << int(K::Macs) << int(U::Percent) << 5.0 << 0ull;
        QTest::addRow("cycles") << "Cycles+0.5%" << int(K::Cycles) << int(U::Percent) << 0.5 << 0ull;
    }

    void parsesRules()
    {
        QFETCH(QString, text);
        QFETCH(int, kind);
        QFETCH(int, unit);
        QFETCH(double, limit);
        QFETCH(qulonglong, bytes);
        const auto rule = parseGateRule(text.toStdString());
        QVERIFY2(rule.ok(), rule.ok() ? "" : rule.error().message().c_str());
        QCOMPARE(int(rule->kind), kind);
        QCOMPARE(int(rule->unit), unit);
        QCOMPARE(rule->limit, limit);
        QCOMPARE(qulonglong(rule->bytes), bytes);
    }

    void refusesBadRules_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::addRow("unknown") << "speed+5%"
                                 << "unknown rule";
        QTest::addRow("no unit") << "size+5"
                                 << "needs a unit";
        QTest::addRow("bad unit") << "size+5kg"
                                  << "unknown unit 'kg'";
        QTest::addRow("negative") << "size+-5%"
                                  << "expected a growth";
        QTest::addRow("minus sign") << "size-5%"
                                    << "written with '+'";
        QTest::addRow("no number") << "arena+%"
                                   << "expected a growth";
        QTest::addRow("share without pt") << "delegated-share-2%"
                                          << "percentage points";
        QTest::addRow("share over 100") << "delegated-share-150pt"
                                        << "more than 100 points";
        QTest::addRow("empty") << ""
                               << "empty rule";
        QTest::addRow("huge percent") << "size+5000000%"
                                      << "no budget";
        QTest::addRow("macs in bytes") << "macs+5KiB"
                                       << "grows by a percentage";
        QTest::addRow("cycles without plus") << "cycles5%"
                                             << "written with '+'";
    }

    void refusesBadRules()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        const auto rule = parseGateRule(text.toStdString());
        QVERIFY(!rule.ok());
        QCOMPARE(rule.error().code, Error::Code::Usage);
        const std::string message = rule.error().message();
        // The message names the rule as given and says what is wrong with it.
        QVERIFY2(message.find("'" + text.toStdString() + "'") != std::string::npos, message.c_str());
        QVERIFY2(message.find(reason.toStdString()) != std::string::npos, message.c_str());
    }

    void defaultsAndDuplicates()
    {
        ETSCOPE_TAKE(const auto defaults, rules({}));
        QCOMPARE(defaults.size(), std::size_t(2));
        QCOMPARE(defaults[0].text, std::string("no-new-missing"));
        QCOMPARE(defaults[1].text, std::string("no-lost-delegate"));
        ETSCOPE_TAKE(const auto deduplicated, rules({ "size+5%", "SIZE+5%", "loads" }));
        QCOMPARE(deduplicated.size(), std::size_t(2));
    }

    /// Undoing the lowering: the new build is the portable export, the baseline the lowered one.
    void lostDelegateFails()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ETSCOPE_TAKE(const Built current, build(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const Built baseline, build(pair.lowered, "lowered.pte"));
        ETSCOPE_TAKE(const BuildGate g,
            gate(current.document, baseline.document,
                { "no-lost-delegate", "delegated-share-2pt", "no-new-fallback", "no-new-missing" }));
        QVERIFY(!g.differentModel);
        QCOMPARE(g.rows.size(), std::size_t(4));
        QCOMPARE(g.failures(), 3);
        QVERIFY(!g.passed());

        const GateRow& lost = g.rows[0];
        QVERIFY(!lost.pass);
        QCOMPARE(lost.oldText, std::string("XnnpackBackend ×1"));
        QCOMPARE(lost.newText, std::string("none"));
        QVERIFY2(
            hasDetail(lost, "lost: XnnpackBackend (1 delegate(s) in the baseline, none now)"), details(lost).c_str());

        // 4 of 6 nodes delegated before, 0 of 6 now; the limit is 66.7 − 2 = 64.7%.
        const GateRow& share = g.rows[1];
        QVERIFY(!share.pass);
        QCOMPARE(share.oldText, std::string("66.7% (4 of 6)"));
        QCOMPARE(share.newText, std::string("0.0% (0 of 6)"));
        QCOMPARE(share.limitText, std::string("≥ 64.7%"));
        QCOMPARE(share.changeText, std::string("−66.7 pt"));

        // FC, Clamp, FC, Clamp left the delegate: 2 addmm and 2 relu on portable kernels now.
        const GateRow& fallback = g.rows[2];
        QVERIFY(!fallback.pass);
        QCOMPARE(fallback.oldText, std::string("2 on CPU kernels"));
        QCOMPARE(fallback.newText, std::string("6 on CPU kernels"));
        QCOMPARE(fallback.changeText, std::string("4 moved out"));
        QVERIFY2(hasDetail(fallback,
                     "forward: 2 × aten::addmm.out (was XNNFullyConnected in XnnpackBackend), kernel from portable"),
            details(fallback).c_str());
        QVERIFY2(
            hasDetail(fallback, "forward: 2 × aten::relu.out (was XNNClamp in XnnpackBackend), kernel from portable"),
            details(fallback).c_str());

        // addmm, relu and _softmax are all portable kernels: nothing newly missing.
        const GateRow& missing = g.rows[3];
        QVERIFY(missing.pass);
        QCOMPARE(missing.changeText, std::string("0 new"));
    }

    void loweringPasses()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ETSCOPE_TAKE(const Built current, build(pair.lowered, "lowered.pte"));
        ETSCOPE_TAKE(const Built baseline, build(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const BuildGate g,
            gate(current.document, baseline.document,
                { "no-lost-delegate", "delegated-share-0pt", "no-new-fallback", "no-new-missing", "loads" }));
        QVERIFY2(g.passed(), buildGateText(g).c_str());
        QCOMPARE(g.rows[1].changeText, std::string("+66.7 pt"));
        QVERIFY(hasDetail(g.rows[0], "new: XnnpackBackend (1 delegate(s))"));
        QCOMPARE(g.rows[2].changeText, std::string("0 moved out"));
    }

    /// The share limit never goes below 0%: a drop allowance larger than the old share passes
    /// a new build with nothing delegated (0 ≥ 0); one point less does not (0 < 0.7).
    void shareLimitBoundary()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ETSCOPE_TAKE(const Built current, build(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const Built baseline, build(pair.lowered, "lowered.pte"));
        ETSCOPE_TAKE(const BuildGate loose, gate(current.document, baseline.document, { "delegated-share-67pt" }));
        QVERIFY(loose.rows[0].pass);
        QCOMPARE(loose.rows[0].limitText, std::string("≥ 0.0%"));
        ETSCOPE_TAKE(const BuildGate tight, gate(current.document, baseline.document, { "delegated-share-66pt" }));
        QVERIFY(!tight.rows[0].pass);
        QCOMPARE(tight.rows[0].limitText, std::string("≥ 0.7%"));
    }

    /// Only operators missing now and not before fail no-new-missing. The list has addmm and
    /// _softmax: the lowered baseline (addmm, _softmax at top level) loads, the portable build
    /// also calls relu twice.
    void newlyMissingKernel()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ETSCOPE_TAKE(const Built current, build(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const Built baseline, build(pair.lowered, "lowered.pte"));
        auto list = parseKernelList("aten::addmm.out\naten::_softmax.out\n", "mine.txt");
        QVERIFY(list.ok());
        KernelLists lists;
        lists.lists.push_back(std::move(list).value());
        ETSCOPE_TAKE(
            const BuildGate g, gate(current.document, baseline.document, { "no-new-missing", "loads" }, &lists));
        const GateRow& missing = g.rows[0];
        QVERIFY(!missing.pass);
        QCOMPARE(missing.oldText, std::string("0 missing"));
        QCOMPARE(missing.newText, std::string("1 missing"));
        QVERIFY2(hasDetail(missing, "aten::relu.out: no kernel (2 call(s) in forward)"), details(missing).c_str());
        const GateRow& loads = g.rows[1];
        QVERIFY(!loads.pass);
        QCOMPARE(loads.oldText, std::string("yes"));
        QCOMPARE(loads.newText, std::string("no"));

        // The same missing operator on both sides is no news: swap in the portable baseline.
        ETSCOPE_TAKE(const Built portableAgain, build(pair.portable, "portable2.pte"));
        ETSCOPE_TAKE(const BuildGate same,
            gate(current.document, portableAgain.document, { "no-new-missing", "loads" }, &lists));
        QVERIFY(same.rows[0].pass);
        QCOMPARE(same.rows[0].changeText, std::string("0 new"));
        QVERIFY(!same.rows[1].pass); // it still does not load
    }

    /// Arenas as declared (non_const_buffer_sizes), set by hand: 1000 → 1100 bytes is +10%.
    void arenaGrowth()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ProgramSpec oldSpec = pair.portable, newSpec = pair.portable;
        oldSpec.methods[0].nonConstBufferSizes = { 0, 1000 };
        newSpec.methods[0].nonConstBufferSizes = { 0, 1100 };
        ETSCOPE_TAKE(const Built current, build(newSpec, "new.pte"));
        ETSCOPE_TAKE(const Built baseline, build(oldSpec, "old.pte"));
        ETSCOPE_TAKE(const BuildGate g,
            gate(current.document, baseline.document, { "arena+10%", "arena+9%", "arena+100B", "arena+99B" }));
        QCOMPARE(g.rows.size(), std::size_t(4));
        QVERIFY(g.rows[0].pass); // 1100 ≤ 1000 × 1.10
        QVERIFY(!g.rows[1].pass); // 1100 > 1090
        QVERIFY(g.rows[2].pass); // 1100 ≤ 1000 + 100
        QVERIFY(!g.rows[3].pass); // 1100 > 1099
        QCOMPARE(*g.rows[0].oldValue, 1000.0);
        QCOMPARE(*g.rows[0].newValue, 1100.0);
        QCOMPARE(*g.rows[1].limitValue, 1090.0);
        QCOMPARE(g.rows[0].oldText, std::string("1000 B"));
        QCOMPARE(g.rows[0].newText, std::string("1.1 KiB"));
        QCOMPARE(g.rows[0].changeText, std::string("+100 B (+10.0%)"));
        QVERIFY2(hasDetail(
                     g.rows[1], "forward: 1000 B → 1.1 KiB, +100 B (+10.0%) > limit 1.1 KiB; arena 1 1000 B → 1.1 KiB"),
            details(g.rows[1]).c_str());

        // Two arenas: the method's total is what is compared (600 + 400 → 600 + 500 = +10%).
        oldSpec.methods[0].nonConstBufferSizes = { 0, 600, 400 };
        newSpec.methods[0].nonConstBufferSizes = { 0, 600, 500 };
        ETSCOPE_TAKE(const Built current2, build(newSpec, "new2.pte"));
        ETSCOPE_TAKE(const Built baseline2, build(oldSpec, "old2.pte"));
        ETSCOPE_TAKE(const BuildGate g2, gate(current2.document, baseline2.document, { "arena+10%", "arena+9%" }));
        QVERIFY(g2.rows[0].pass);
        QVERIFY(!g2.rows[1].pass);
        QVERIFY2(hasDetail(g2.rows[1], "arena 2 400 B → 500 B"), details(g2.rows[1]).c_str());
    }

    /// An extra constant of 1024 floats: the constant part grows by exactly 4096 bytes, the file
    /// by that plus its value-table entry and alignment.
    void sizeGrowth()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ProgramSpec newSpec = pair.portable;
        TensorSpec extra;
        extra.sizes = { 1024 };
        extra.data = std::vector<std::uint8_t>(4096, 0x11);
        newSpec.methods[0].addTensor(extra);
        ETSCOPE_TAKE(const Built current, build(newSpec, "bigger.pte"));
        ETSCOPE_TAKE(const Built baseline, build(pair.portable, "portable.pte"));
        const std::uint64_t oldBytes = baseline.bytes.size(), newBytes = current.bytes.size();
        QVERIFY(newBytes >= oldBytes + 4096);
        const std::uint64_t growth = newBytes - oldBytes;
        const std::string exact = "size+" + std::to_string(growth) + "B";
        const std::string under = "size+" + std::to_string(growth - 1) + "B";
        ETSCOPE_TAKE(const BuildGate g, gate(current.document, baseline.document, { exact, under, "size+0%" }));
        QVERIFY(g.rows[0].pass);
        QVERIFY(!g.rows[1].pass);
        QVERIFY(!g.rows[2].pass);
        QCOMPARE(*g.rows[0].oldValue, double(oldBytes));
        QCOMPARE(*g.rows[0].newValue, double(newBytes));
        QVERIFY(g.rows[0].details.empty()); // parts are broken down only for a failing rule
        QVERIFY2(hasDetail(g.rows[1], "constant +4.0 KiB"), details(g.rows[1]).c_str());
        // Identical builds pass any growth rule, 0% included.
        ETSCOPE_TAKE(
            const BuildGate same, gate(baseline.document, baseline.document, { "size+0%", "size+0B", "arena+0%" }));
        QVERIFY(same.passed());
        QCOMPARE(same.rows[0].changeText, std::string("±0 B"));
    }

    void differentModelIsNoted()
    {
        // Hidden width 8 against 4: forward takes FLOAT [1, 8] in one, [1, 4] in the other.
        ETSCOPE_TAKE(const Built current, build(makeMlpComparePair(4).portable, "narrow.pte"));
        ETSCOPE_TAKE(const Built baseline, build(makeMlpComparePair(8).portable, "wide.pte"));
        ETSCOPE_TAKE(
            const BuildGate g, gate(current.document, baseline.document, { "no-new-missing", "no-lost-delegate" }));
        QVERIFY(g.differentModel);
        QVERIFY(g.passed()); // still evaluated: nothing missing, nothing lost
        QCOMPARE(g.notes.size(), std::size_t(1));
        QCOMPARE(g.notes[0],
            std::string("method 'forward' takes other inputs: baseline (FLOAT [1, 8]), new build (FLOAT [1, 4])"));

        ProgramSpec renamed = makeMlpComparePair(8).portable;
        renamed.methods[0].name = "run";
        ETSCOPE_TAKE(const Built other, build(renamed, "renamed.pte"));
        ETSCOPE_TAKE(const BuildGate g2, gate(other.document, baseline.document, { "arena+10%", "no-lost-delegate" }));
        QVERIFY(g2.differentModel);
        QCOMPARE(g2.notes[0], std::string("methods differ: baseline has forward; new build has run"));
        QCOMPARE(g2.rows[0].oldText, std::string("n/a")); // no common method
        QVERIFY(g2.rows[0].pass);
        QVERIFY(g2.rows[1].pass);
    }

    /// macs+N%: addmm [2, 20] × [20, n] counts M·K·N = 2·20·n MACs: 400 for n = 10, 440 for
    /// n = 11 (+10.0%). The limit of macs+10% is 400 · 1.10 = 440 (passes, at the limit); of
    /// macs+9%, 436 (fails).
    void macsGrowth()
    {
        ETSCOPE_TAKE(const Built old, build(matmulProgram(10, false), "old.pte"));
        ETSCOPE_TAKE(const Built now, build(matmulProgram(11, false), "new.pte"));
        ETSCOPE_TAKE(const BuildGate g, gate(now.document, old.document, { "macs+10%", "macs+9%" }));
        QCOMPARE(g.rows.size(), std::size_t(2));
        const GateRow& at = g.rows[0];
        QVERIFY2(at.unverified.empty(), at.unverified.c_str());
        QCOMPARE(*at.oldValue, 400.0);
        QCOMPARE(*at.newValue, 440.0);
        QCOMPARE(*at.limitValue, 440.0);
        QVERIFY(at.pass);
        QCOMPARE(at.verdict(), std::string("pass"));
        QCOMPARE(at.oldText, std::string("400"));
        QCOMPARE(at.changeText, std::string("+10.0%"));
        const GateRow& over = g.rows[1];
        QCOMPARE(*over.limitValue, 436.0);
        QVERIFY(!over.pass);
        QCOMPARE(over.verdict(), std::string("FAIL"));
        QCOMPARE(g.failures(), 1);
        QCOMPARE(g.unverified(), 0);
        // Shrinking always passes: 440 → 400.
        ETSCOPE_TAKE(const BuildGate back, gate(old.document, now.document, { "macs+0%" }));
        QVERIFY(back.passed());
        QCOMPARE(back.rows[0].changeText, std::string("−9.1%")); // (400 − 440) / 440
    }

    /// A node with no cost rule on either side: the totals are lower bounds, so the rule says
    /// "unverified" with how many nodes were not counted, and does not fail the gate.
    void macsUnverifiedWithoutARule()
    {
        ETSCOPE_TAKE(const Built old, build(matmulProgram(10, false), "old.pte"));
        ETSCOPE_TAKE(const Built now, build(matmulProgram(10, true), "new.pte"));
        ETSCOPE_TAKE(const BuildGate g, gate(now.document, old.document, { "macs+0%" }));
        const GateRow& row = g.rows[0];
        QCOMPARE(row.verdict(), std::string("unverified"));
        QVERIFY(row.pass);
        QVERIFY(g.passed());
        QCOMPARE(g.unverified(), 1);
        // The baseline's 1 node is counted; the new build's addmm is, its custom::mystery is not.
        QVERIFY2(row.unverified
                == "new build: 1 of 2 operator nodes not counted (no cost rule or no shape: "
                   "custom::mystery.out)",
            row.unverified.c_str());
        QCOMPARE(row.newText, std::string("≥ 400"));
        QCOMPARE(row.oldText, std::string("400"));
        const std::string text = buildGateText(g);
        QVERIFY2(text.find("Gate: pass — 0 of 1 rule(s) hold, 1 unverified") != std::string::npos, text.c_str());
        QVERIFY2(text.find("unverified: new build: 1 of 2") != std::string::npos, text.c_str());
        QCOMPARE(buildGateJson(g)["rules"][0]["verdict"].get<std::string>(), std::string("unverified"));
        QCOMPARE(buildGateJson(g)["unverified"].get<int>(), 1);
        QCOMPARE(cellText(buildGateTable(g).rows[0].back()), std::string("unverified"));
    }

    /// cycles+N%: ETScope estimates cycles for Ethos-U kicks only; a program with no Ethos-U
    /// delegate has no count, so the rule is unverified and says why.
    void cyclesWithoutEthosU()
    {
        ETSCOPE_TAKE(const Built old, build(matmulProgram(10, false), "old.pte"));
        ETSCOPE_TAKE(const BuildGate g, gate(old.document, old.document, { "cycles+5%" }));
        const GateRow& row = g.rows[0];
        QCOMPARE(row.verdict(), std::string("unverified"));
        QCOMPARE(row.oldText, std::string("n/a"));
        QVERIFY2(row.unverified.find("baseline: no Ethos-U delegate: ETScope estimates cycles for Ethos-U NPU kicks "
                                     "only")
                != std::string::npos,
            row.unverified.c_str());
        QVERIFY2(row.unverified.find("new build: no Ethos-U delegate") != std::string::npos, row.unverified.c_str());
    }

    /// tinycnn_u55.pte against itself: every node counted (`etscope cost`: 108 of 108), so both
    /// rules are checked. MACs by hand from its four convolutions (docs/cost.md): the stem
    /// 48·48·16 · 3 · 3·3 = 995,328, then 24·24·32 · 16 · 3·3 = 2,654,208, 12·12·64 · 32 · 3·3
    /// = 2,654,208 and the 1×1 head 1·1·4 · 64 = 256: 6,304,000.
    void costRulesOnTinycnn()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("tinycnn/tinycnn_u55.pte"));
        QVERIFY(document);
        ETSCOPE_TAKE(const BuildGate g, gate(document.value(), document.value(), { "macs+0%", "cycles+0%" }));
        QCOMPARE(g.unverified(), 0);
        QVERIFY2(g.passed(), buildGateText(g).c_str());
        QCOMPARE(*g.rows[0].newValue, 6304000.0);
        QCOMPARE(g.rows[0].newText, std::string("6,304,000"));
        QCOMPARE(g.rows[0].changeText, std::string("±0%"));
        // The cycle total is ETScope's estimate (its own sum, not a hand value): equal on both
        // sides, positive, and said to be an estimate.
        QVERIFY(*g.rows[1].newValue > 0);
        QCOMPARE(*g.rows[1].newValue, *g.rows[1].oldValue);
        QVERIFY(g.rows[1].measure.find("ESTIMATE") != std::string::npos);
    }

    void tableAndJson()
    {
        const ComparePair pair = makeMlpComparePair(8);
        ETSCOPE_TAKE(const Built current, build(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const Built baseline, build(pair.lowered, "lowered.pte"));
        ETSCOPE_TAKE(const BuildGate g,
            gate(current.document, baseline.document, { "no-lost-delegate", "delegated-share-2pt" }));
        const Table table = buildGateTable(g);
        QCOMPARE(table.columns,
            (std::vector<std::string> { "rule", "measure", "old", "new", "change", "limit", "verdict" }));
        QCOMPARE(cellText(table.rows[0][6]), std::string("FAIL"));
        const std::string text = buildGateText(g);
        QVERIFY2(text.starts_with("Gate: FAIL — 2 of 2 rule(s) failed\n"), text.c_str());
        const auto json = buildGateJson(g);
        QCOMPARE(json["verdict"].get<std::string>(), std::string("fail"));
        QCOMPARE(json["failures"].get<int>(), 2);
        QCOMPARE(json["rules"][0]["rule"].get<std::string>(), std::string("no-lost-delegate"));
        QCOMPARE(json["rules"][0]["old"].get<int>(), 1); // one backend before
        QCOMPARE(json["rules"][0]["new"].get<int>(), 0);
        QCOMPARE(json["rules"][0]["violations"].get<int>(), 1); // XnnpackBackend lost
        QCOMPARE(json["rules"][0]["limit"].get<int>(), 0);
        QVERIFY(json["rules"][1]["violations"].is_null()); // the share compares new with limit
        QCOMPARE(json["rules"][1]["unit"].get<std::string>(), std::string("percent"));
        QCOMPARE(json["rules"][1]["new"].get<int>(), 0);
        QVERIFY(std::fabs(json["rules"][1]["old"].get<double>() - 400.0 / 6) < 1e-9);
        QCOMPARE(json["rules"][1]["verdict"].get<std::string>(), std::string("fail"));
    }

    void deviceFactsChanged()
    {
        // Issue 33: the baseline's Ethos-U delegate was compiled for ethos-u55-128, the new one for
        // ethos-u85-256 (writer-made, same payload): same-device-facts fails naming the fact,
        // before → after; the same build passes. QNN: SDK v2.37.0 in the baseline, v2.45.0 now,
        // two facts (the build id and its version).
        ETSCOPE_TAKE(const Built u55, build(etscope::test::ethosUProgram("ethos-u55-128"), "u55.pte"));
        ETSCOPE_TAKE(const Built u85, build(etscope::test::ethosUProgram("ethos-u85-256"), "u85.pte"));
        ETSCOPE_TAKE(const BuildGate failed, gate(u85.document, u55.document, { "same-device-facts" }));
        QCOMPARE(failed.rows.size(), std::size_t(1));
        const GateRow& row = failed.rows.front();
        QCOMPARE(row.rule, std::string("same-device-facts"));
        QVERIFY(!row.pass);
        QVERIFY(!failed.passed());
        QCOMPARE(row.violations, std::optional<double>(1));
        QCOMPARE(row.changeText, std::string("1 changed"));
        // Each build states 3 facts: NPU and MACs read from "target", and "output_format".
        QCOMPARE(row.oldText, std::string("3 facts"));
        QVERIFY2(hasDetail(row, "Ethos-U target ethos-u55-128 → ethos-u85-256 (EthosUBackend: forward #0)"),
            details(row).c_str());
        QVERIFY(buildGateText(failed).find("Ethos-U target ethos-u55-128 → ethos-u85-256") != std::string::npos);
        QCOMPARE(buildGateJson(failed)["rules"][0]["verdict"].get<std::string>(), std::string("fail"));

        ETSCOPE_TAKE(const BuildGate same, gate(u55.document, u55.document, { "same-device-facts" }));
        QVERIFY(same.passed());
        QCOMPARE(same.rows.front().violations, std::optional<double>(0));

        ETSCOPE_TAKE(const Built old, build(etscope::test::qnnProgram("v2.37.0.fixture"), "old.pte"));
        ETSCOPE_TAKE(const Built now, build(etscope::test::qnnProgram("v2.45.0.fixture"), "new.pte"));
        ETSCOPE_TAKE(
            const BuildGate qnn, gate(now.document, old.document, { "same-device-facts", "no-lost-delegate" }));
        QCOMPARE(qnn.failures(), 1);
        QCOMPARE(qnn.rows[0].violations, std::optional<double>(2));
        QVERIFY2(hasDetail(qnn.rows[0], "QNN SDK version 2.37.0 → 2.45.0"), details(qnn.rows[0]).c_str());
        QVERIFY(qnn.rows[1].pass);

        // No delegate states a fact: passes, and says so.
        const auto pair = makeMlpComparePair(8);
        ETSCOPE_TAKE(const Built portable, build(pair.portable, "portable.pte"));
        ETSCOPE_TAKE(const BuildGate plain, gate(portable.document, portable.document, { "same-device-facts" }));
        QVERIFY(plain.passed());
        QVERIFY2(hasDetail(plain.rows.front(), "no delegate of either build states a device fact"),
            details(plain.rows.front()).c_str());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestBuildGate)
#include "tst_buildgate.moc"
