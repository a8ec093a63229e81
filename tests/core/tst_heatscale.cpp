// SPDX-License-Identifier: MIT
// The heat scale (core/table/heatscale.h, issue 38 #1): where a value is painted, with the
// identical value (SNR +inf, cosine 1, mse 0) at the best end apart from the ramp, NaN in a
// colour of its own, infinities at the ends they stand for, and the threshold. Every expected
// position is worked out by hand from the values in the test: the ramp runs from
// HeatColumnScale::kRampStart (0.25, its best end) to 1 when the column has an identical value.
#include "core/table/heatscale.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace etscope::core;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

HeatTable::Column snrColumn()
{
    return { "snr", false, "dB", kInf };
}

HeatTable::Column mseColumn()
{
    return { "mse", true, "", 0.0 };
}

HeatTable::Column cosineColumn()
{
    return { "cosine", false, "", 1.0 };
}

HeatTable::Column latencyColumn()
{
    return { "p50 (ms)", true, "ms", std::nullopt };
}

HeatTable tableOf(const HeatTable::Column& column, const std::vector<double>& values)
{
    HeatTable table;
    table.columns = { column };
    for (const double v : values)
        table.rows.push_back({ {}, "n", { v } });
    return table;
}

HeatColumnScale automatic(const HeatTable& table, bool log = false)
{
    return heatColumnScale(table.columns[0], summariseHeatColumn(table, 0), { log, {}, {}, {} });
}

} // namespace

class TestHeatScale : public QObject {
    Q_OBJECT
private slots:
    void allEqualValues()
    {
        // Three SNRs of 3 dB: nothing on the ramp is worse than another, so all sit at its best
        // end, 0.25, and the identical +inf keeps 0 for itself.
        const HeatTable table = tableOf(snrColumn(), { 3.0, 3.0, 3.0 });
        const HeatColumnScale scale = automatic(table);
        QVERIFY(scale.allEqual());
        QCOMPARE(scale.place(3.0).kind, HeatPlace::Kind::Ramp);
        QCOMPARE(scale.place(3.0).position, 0.25);
        QCOMPARE(scale.place(kInf).kind, HeatPlace::Kind::Identical);
        QCOMPARE(scale.place(kInf).position, 0.0);
        // A latency column has no identical value: its ramp starts at 0.
        const HeatColumnScale latency = automatic(tableOf(latencyColumn(), { 5.0, 5.0 }));
        QCOMPARE(latency.place(5.0).position, 0.0);
    }

    void singleValue()
    {
        // One mse of 0.5 besides identical zeros: the range is [0.5, 0.5] (zeros are not on the
        // ramp), 0.5 is the ramp's best end, 0 is identical.
        const HeatTable table = tableOf(mseColumn(), { 0.0, 0.5, 0.0 });
        const HeatColumnSummary summary = summariseHeatColumn(table, 0);
        QVERIFY(summary.hasIdentical);
        QCOMPARE(summary.range, std::make_optional(std::make_pair(0.5, 0.5)));
        const HeatColumnScale scale = automatic(table);
        QCOMPARE(scale.place(0.5).position, 0.25);
        QCOMPARE(scale.place(0.0).kind, HeatPlace::Kind::Identical);
        // Only identical values: no range at all.
        const HeatTable same = tableOf(mseColumn(), { 0.0, 0.0 });
        QVERIFY(!summariseHeatColumn(same, 0).range);
        QCOMPARE(automatic(same).place(0.0).position, 0.0);
    }

    void plusInfinity()
    {
        // +inf is SNR's identical value (best, 0), and the worst an mse or a latency can be (1).
        const HeatTable snr = tableOf(snrColumn(), { kInf, 10.0, 20.0 });
        QCOMPARE(automatic(snr).place(kInf).kind, HeatPlace::Kind::Identical);
        const HeatTable mse = tableOf(mseColumn(), { kInf, 1e-3, 2e-3 });
        QVERIFY(summariseHeatColumn(mse, 0).hasWorseInfinity);
        QCOMPARE(summariseHeatColumn(mse, 0).range, std::make_optional(std::make_pair(1e-3, 2e-3)));
        QCOMPARE(automatic(mse).place(kInf).position, 1.0);
        QCOMPARE(automatic(tableOf(latencyColumn(), { kInf, 1.0, 2.0 })).place(kInf).position, 1.0);
        // A cosine cannot be +inf, but if it were it would be better than any value: the ramp's
        // best end, not the identical colour (that is 1's).
        const HeatColumnScale cosine = automatic(tableOf(cosineColumn(), { 0.5, 0.9 }));
        QCOMPARE(cosine.place(kInf).kind, HeatPlace::Kind::Ramp);
        QCOMPARE(cosine.place(kInf).position, 0.25);
    }

    void minusInfinity()
    {
        // SNR −inf (a zero reference, a nonzero run) is the worst; an mse of −inf would be the
        // best of the ramp, never the identical 0.
        const HeatTable snr = tableOf(snrColumn(), { -kInf, 10.0, 20.0 });
        QVERIFY(summariseHeatColumn(snr, 0).hasWorseInfinity);
        QCOMPARE(automatic(snr).place(-kInf).position, 1.0);
        const HeatColumnScale mse = automatic(tableOf(mseColumn(), { 1e-3, 2e-3 }));
        QCOMPARE(mse.place(-kInf).kind, HeatPlace::Kind::Ramp);
        QCOMPARE(mse.place(-kInf).position, 0.25);
    }

    void notANumber()
    {
        // NaN is on no end: its own kind, no position, ranked after the worst, flagged by any
        // threshold (as `gap --first-divergence` counts it), and left out of the range.
        const HeatTable table = tableOf(mseColumn(), { kNaN, 1e-3, 2e-3 });
        const HeatColumnSummary summary = summariseHeatColumn(table, 0);
        QVERIFY(summary.hasNaN);
        QCOMPARE(summary.range, std::make_optional(std::make_pair(1e-3, 2e-3)));
        HeatColumnScale scale = automatic(table);
        const HeatPlace place = scale.place(kNaN);
        QCOMPARE(place.kind, HeatPlace::Kind::NotANumber);
        QVERIFY(std::isnan(place.position));
        QVERIFY(place.rank() > scale.place(2e-3).rank());
        QVERIFY(!scale.beyondThreshold(kNaN)); // no threshold: nothing is flagged
        scale.threshold = 1.0;
        QVERIFY(scale.beyondThreshold(kNaN));
        QVERIFY(heatWorse(kNaN, 2e-3, true, 0.0));
        QVERIFY(heatWorse(kNaN, -kInf, false, kInf));
    }

    void threshold()
    {
        // SNR below 20 dB is flagged, 20 itself and the identical +inf are not; mse above 1e-3.
        HeatColumnScale snr = automatic(tableOf(snrColumn(), { 10.0, 30.0 }));
        snr.threshold = 20.0;
        QVERIFY(snr.beyondThreshold(19.9));
        QVERIFY(!snr.beyondThreshold(20.0));
        QVERIFY(!snr.beyondThreshold(kInf));
        QVERIFY(snr.beyondThreshold(-kInf));
        // Its place on the bar: (30 − 20) / (30 − 10) = 0.5 of the ramp towards the worse end,
        // 0.25 + 0.75 · 0.5 = 0.625.
        QCOMPARE(snr.place(20.0).position, 0.625);
        HeatColumnScale mse = automatic(tableOf(mseColumn(), { 0.0, 1e-4, 1e-2 }));
        mse.threshold = 1e-3;
        QVERIFY(mse.beyondThreshold(2e-3));
        QVERIFY(!mse.beyondThreshold(1e-3));
        QVERIFY(!mse.beyondThreshold(0.0));
    }

    void directionHoldsWithAnAutomaticRange()
    {
        // Higher is better for cosine and SNR, lower for mse: the best value that is not
        // identical is at 0.25, the worst at 1, the identical value at 0, whatever the range.
        const HeatColumnScale cosine = automatic(tableOf(cosineColumn(), { 1.0, 0.99, 0.9 }));
        QCOMPARE(cosine.low, 0.9);
        QCOMPARE(cosine.high, 0.99);
        QCOMPARE(cosine.place(0.99).position, 0.25);
        QCOMPARE(cosine.place(0.9).position, 1.0);
        QCOMPARE(cosine.place(1.0).position, 0.0);
        const HeatColumnScale mse = automatic(tableOf(mseColumn(), { 0.0, 1e-6, 1e-3 }));
        QCOMPARE(mse.place(1e-6).position, 0.25);
        QCOMPARE(mse.place(1e-3).position, 1.0);
        QCOMPARE(mse.place(0.0).position, 0.0);
        // A log scale starts at the smallest positive value: 1e-4 is two decades above 1e-6 of
        // four, halfway: 0.25 + 0.75 · 0.5.
        const HeatColumnScale log = automatic(tableOf(mseColumn(), { 0.0, 1e-6, 1e-4, 1e-2 }), true);
        QCOMPARE(log.low, 1e-6);
        QVERIFY(std::abs(log.place(1e-4).position - 0.625) < 1e-12);
        // Bounds given the wrong way round are swapped; the direction stays.
        const HeatColumnScale swapped = heatColumnScale(
            snrColumn(), summariseHeatColumn(tableOf(snrColumn(), { 1.0 }), 0), { false, 30.0, 10.0, {} });
        QCOMPARE(swapped.low, 10.0);
        QCOMPARE(swapped.place(30.0).position, 0.25);
        QCOMPARE(swapped.place(10.0).position, 1.0);
    }

    void firstDivergenceIsNotPaintedAsIdentical()
    {
        // Issue 38's walk-through: 14 identical nodes (SNR +inf) and perturbed ones between
        // 2.939 and 2.989 dB. Before, the automatic range 2.939…2.989 put the first divergence
        // (2.989, the best of them) at position 0, the identical nodes' colour.
        std::vector<double> values(14, kInf);
        values.insert(values.end(), { 2.989, 2.95, 2.939 });
        const HeatColumnScale scale = automatic(tableOf(snrColumn(), values));
        QCOMPARE(scale.low, 2.939);
        QCOMPARE(scale.high, 2.989);
        QCOMPARE(scale.place(kInf).position, 0.0);
        QCOMPARE(scale.place(2.989).position, 0.25);
        QVERIFY(scale.place(2.989).position > scale.place(kInf).position);
        QCOMPARE(scale.place(2.939).position, 1.0);
        QVERIFY(heatWorse(2.989, kInf, false, kInf));
        QVERIFY(!heatWorse(kInf, 2.989, false, kInf));
    }
};

QTEST_GUILESS_MAIN(TestHeatScale)
#include "tst_heatscale.moc"
