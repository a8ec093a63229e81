// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "core/table/table.h"

#include <optional>
#include <string>
#include <vector>

namespace etscope::core {

/// Numbers per graph node, ready to be painted: numeric gaps per metric, latency percentiles,
/// or several runs side by side. Rows are in execution order and refer to nodes by NodeOrigin.
struct HeatTable {
    struct Column {
        std::string name; ///< e.g. "mse", "snr (dB)", "p50 (ms)"
        bool higherIsWorse = true; ///< false for metrics like SNR or cosine similarity
        std::string unit;
        /// What two identical runs give (SNR +inf, cosine 1, mse 0): the best a value can be,
        /// painted apart from the ramp (heatscale.h). nullopt for columns without one (latencies).
        std::optional<double> identical;
    };
    struct Row {
        NodeOrigin origin; ///< the node (top-level NodeId none when the row matched no node)
        std::string label; ///< what the row is called (node label, runtime event name, …)
        std::vector<std::optional<double>> values; ///< parallel to columns; nullopt = no data
    };
    std::string title;
    std::vector<Column> columns;
    std::vector<Row> rows;

    /// Smallest and largest finite value of a column (nullopt when it has none).
    std::optional<std::pair<double, double>> range(std::size_t column) const;
    /// As a report table: row label, node (top/inner ids) and one column per metric.
    Table toTable() const;
};

/// The ramp alone: maps a value into [0, 1], 1 meaning "worst": linear or log10 scale between
/// `low` and `high`, clamped; higher-is-better columns are flipped. A zero range (every value
/// equal) has no worse end: 0. An infinity sits at the end it stands for, NaN at the worse end.
/// Colours go through HeatColumnScale::place (heatscale.h), which keeps the identical value
/// and NaN off the ramp.
double heatPosition(double value, double low, double high, bool logScale, bool higherIsWorse);

/// One number format for every value of a column, so that a column reads as one scale
/// ("0.000060" beside "0.000672", never "6e-05" beside "0.000672"): fixed notation with enough
/// decimals for two significant digits of the smallest non-zero magnitude and of the
/// column's spread (up to 8), or scientific with three decimals when the values reach 1e6 or
/// need more than 8 decimals. Whole numbers (counts) are shown whole up to 1e15.
struct NumberFormat {
    bool scientific = false;
    int precision = 0; ///< digits after the point
    /// "inf", "-inf" and "nan" for the non-finite.
    std::string text(double value) const;
};

/// The format for the finite values of `values` (the non-finite ones are ignored).
NumberFormat numberFormatFor(const std::vector<double>& values);
/// The format for one column of `table`.
NumberFormat columnNumberFormat(const HeatTable& table, std::size_t column);

} // namespace etscope::core
