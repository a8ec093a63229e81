// SPDX-License-Identifier: MIT
#include "core/table/heatscale.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace etscope::core {

namespace {

bool isIdentical(double value, std::optional<double> identical)
{
    return identical && value == *identical; // +inf == +inf holds: an SNR of equal runs
}

} // namespace

HeatColumnSummary summariseHeatColumn(const HeatTable& table, std::size_t column)
{
    HeatColumnSummary summary;
    if (column >= table.columns.size())
        return summary;
    const HeatTable::Column& meta = table.columns[column];
    for (const HeatTable::Row& row : table.rows) {
        if (column >= row.values.size() || !row.values[column])
            continue;
        const double v = *row.values[column];
        if (std::isnan(v)) {
            summary.hasNaN = true;
            continue;
        }
        if (isIdentical(v, meta.identical)) {
            summary.hasIdentical = true;
            continue;
        }
        if (std::isinf(v)) {
            summary.hasWorseInfinity = summary.hasWorseInfinity || (v > 0) == meta.higherIsWorse;
            continue;
        }
        summary.range = summary.range
            ? std::make_pair(std::min(summary.range->first, v), std::max(summary.range->second, v))
            : std::make_pair(v, v);
        if (v > 0)
            summary.smallestPositive = summary.smallestPositive == 0 ? v : std::min(summary.smallestPositive, v);
    }
    return summary;
}

HeatPlace HeatColumnScale::place(double value) const
{
    if (std::isnan(value))
        return { HeatPlace::Kind::NotANumber, std::numeric_limits<double>::quiet_NaN() };
    if (isIdentical(value, identical))
        return { HeatPlace::Kind::Identical, 0.0 };
    const double start = rampStart();
    if (std::isinf(value))
        return { HeatPlace::Kind::Ramp, (value > 0) == higherIsWorse ? 1.0 : start };
    const double t = heatPosition(value, low, high, logScale, higherIsWorse);
    return { HeatPlace::Kind::Ramp, start + (1.0 - start) * t };
}

bool HeatColumnScale::beyondThreshold(double value) const
{
    if (!threshold)
        return false;
    if (std::isnan(value))
        return true;
    if (isIdentical(value, identical))
        return false;
    return higherIsWorse ? value > *threshold : value < *threshold;
}

HeatColumnScale heatColumnScale(
    const HeatTable::Column& column, const HeatColumnSummary& summary, const HeatScaleChoice& choice)
{
    HeatColumnScale scale;
    scale.logScale = choice.logScale;
    scale.higherIsWorse = column.higherIsWorse;
    scale.identical = column.identical;
    scale.threshold = choice.threshold;
    double automaticLow = summary.range ? summary.range->first : 0.0;
    const double automaticHigh = summary.range ? summary.range->second : 0.0;
    if (choice.logScale && automaticLow <= 0 && summary.smallestPositive > 0)
        automaticLow = summary.smallestPositive; // zeros sit at the best end
    double low = choice.low.value_or(automaticLow);
    double high = choice.high.value_or(automaticHigh);
    if (!std::isfinite(low))
        low = automaticLow;
    if (!std::isfinite(high))
        high = automaticHigh;
    if (high < low)
        std::swap(low, high);
    scale.low = low;
    scale.high = high;
    return scale;
}

bool heatWorse(double a, double b, bool higherIsWorse, std::optional<double> identical)
{
    // Best to worst: the identical value, the values in the column's direction, NaN.
    const auto key = [&](double v) {
        if (std::isnan(v))
            return std::make_pair(2, 0.0);
        if (isIdentical(v, identical))
            return std::make_pair(0, 0.0);
        return std::make_pair(1, higherIsWorse ? v : -v);
    };
    return key(a) > key(b);
}

} // namespace etscope::core
