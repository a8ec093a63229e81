// SPDX-License-Identifier: MIT
#pragma once

// Where a heat value sits on its column's colour scale: the one place that decides it for the
// heat table's cells, the graph's nodes and the legend (issue 38 #1). Beside the ramp, two
// values have places of their own: the column's "identical" value (SNR +inf, cosine 1, mse 0 of
// two equal runs) at the very best end, a step away from the best value of the ramp, and NaN,
// which is on no end of any scale.

#include "core/table/heattable.h"

#include <cstddef>
#include <optional>
#include <utility>

namespace etscope::core {

/// What a column's values are, read once (a pass over the rows); the scale is chosen later.
struct HeatColumnSummary {
    /// Smallest and largest finite value other than the column's identical value (the ramp's
    /// automatic range); nullopt when there is none.
    std::optional<std::pair<double, double>> range;
    double smallestPositive = 0; ///< of the same values; 0 when none is positive
    bool hasIdentical = false; ///< some value is the column's identical value
    bool hasNaN = false;
    bool hasWorseInfinity = false; ///< +inf where higher is worse, -inf where higher is better
};

/// Reads column `column` of `table` (an unknown column gives an empty summary).
HeatColumnSummary summariseHeatColumn(const HeatTable& table, std::size_t column);

/// A value's place on a scale.
struct HeatPlace {
    enum class Kind {
        Ramp, ///< on the colour ramp at `position`
        Identical, ///< the column's identical value: position 0, the best end
        NotANumber, ///< no position: painted in a colour of its own
    };
    Kind kind = Kind::Ramp;
    double position = 0; ///< [0, 1], 1 = worst; NaN for NotANumber

    /// Orders places from best to worst: NaN after the worst (a node with a NaN output shows it).
    double rank() const { return kind == Kind::NotANumber ? 2.0 : position; }
};

/// The scale of one column as chosen: its bounds (automatic or given), linear or log, the
/// threshold. Cheap to copy; place() and beyondThreshold() run once per cell.
struct HeatColumnScale {
    /// Where the ramp starts when the column has an identical value: the best value that is not
    /// identical is painted this far from the identical one, never in its colour.
    static constexpr double kRampStart = 0.25;

    double low = 0; ///< the ramp's bounds (low ≤ high), finite
    double high = 1;
    bool logScale = false;
    bool higherIsWorse = true;
    std::optional<double> identical; ///< HeatTable::Column::identical
    std::optional<double> threshold; ///< values worse than this are flagged

    /// Every ramp value is the same (or there is none): nothing on the ramp is worse than another.
    bool allEqual() const { return !(high > low); }
    /// The position of the ramp's best end: kRampStart when the column has an identical value.
    double rampStart() const { return identical ? kRampStart : 0.0; }

    /// The place of `value`: NaN is NotANumber; the identical value is Identical; an infinity
    /// is on the end it stands for (the worse end, or the best of the ramp); a finite value is
    /// on the ramp between rampStart() (best) and 1 (worst), clamped to the bounds, on a log
    /// scale when asked (values at or below zero at the best end where higher is worse).
    HeatPlace place(double value) const;
    /// `value` is worse than the threshold; a NaN is worse than any threshold (as
    /// `gap --first-divergence` counts it), the identical value never is.
    bool beyondThreshold(double value) const;
};

/// What the user chose for every column: a log scale, bounds (nullopt: automatic, from the
/// column's summary), thresholds per column.
struct HeatScaleChoice {
    bool logScale = false;
    std::optional<double> low;
    std::optional<double> high;
    std::optional<double> threshold;
};

/// The scale of a column with `summary` under `choice`: automatic bounds are the summary's
/// range (a log scale starts at its smallest positive value); given bounds in the wrong order
/// are swapped. Direction and identical value come from `column`.
HeatColumnScale heatColumnScale(
    const HeatTable::Column& column, const HeatColumnSummary& summary, const HeatScaleChoice& choice);

/// Whether `a` paints worse than `b` in a column of this direction and identical value (the
/// order of HeatPlace::rank, without bounds: a node with several values shows its worst).
bool heatWorse(double a, double b, bool higherIsWorse, std::optional<double> identical);

} // namespace etscope::core
