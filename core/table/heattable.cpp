// SPDX-License-Identifier: MIT
#include "core/table/heattable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace etscope::core {

std::optional<std::pair<double, double>> HeatTable::range(std::size_t column) const
{
    std::optional<std::pair<double, double>> result;
    for (const Row& row : rows) {
        if (column >= row.values.size() || !row.values[column] || !std::isfinite(*row.values[column]))
            continue;
        const double v = *row.values[column];
        if (!result)
            result = std::make_pair(v, v);
        else
            result = std::make_pair(std::min(result->first, v), std::max(result->second, v));
    }
    return result;
}

Table HeatTable::toTable() const
{
    Table table;
    table.title = title;
    table.columns = { "node", "top_node", "inner_node" };
    for (const Column& column : columns)
        table.columns.push_back(column.name);
    for (const Row& row : rows) {
        std::vector<TableCell> cells { row.label, static_cast<long long>(row.origin.top.value),
            static_cast<long long>(row.origin.inner.value) };
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c < row.values.size() && row.values[c])
                cells.emplace_back(*row.values[c]);
            else
                cells.emplace_back(std::string());
        }
        table.rows.push_back(std::move(cells));
    }
    return table;
}

double heatPosition(double value, double low, double high, bool logScale, bool higherIsWorse)
{
    if (std::isinf(value))
        return (value > 0) == higherIsWorse ? 1.0 : 0.0;
    if (std::isnan(value))
        return 1.0;
    // Every value equal: nothing is worse than anything else (a higher-is-better column would
    // otherwise flip its only value to the worst end: cosine 1 of two identical runs).
    if (!(high > low))
        return 0.0;
    double t = 0;
    if (logScale) {
        // Log scales need positive bounds; values at or below zero sit at the bottom.
        // A degenerate range gets a decade above its floor; a narrow one (cosine 0.99999…1)
        // keeps its own bounds, or every value would sit at the bottom.
        const double floor = std::max(low, 1e-30);
        const double top = high > floor ? high : floor * 10;
        t = value <= 0
            ? 0.0
            : (std::log10(std::max(value, floor)) - std::log10(floor)) / (std::log10(top) - std::log10(floor));
    } else {
        t = high > low ? (value - low) / (high - low) : 0.0;
    }
    t = std::clamp(t, 0.0, 1.0);
    return higherIsWorse ? t : 1.0 - t;
}

std::string NumberFormat::text(double value) const
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, scientific ? "%.*e" : "%.*f", precision, value);
    std::string text = buffer;
    if (text == "-0" || (text.starts_with("-0.") && text.find_first_not_of("-0.") == std::string::npos))
        text.erase(0, 1); // no "-0.000" for a value that rounds to zero
    return text;
}

NumberFormat numberFormatFor(const std::vector<double>& values)
{
    constexpr int kMaxDecimals = 8;
    double largest = 0;
    double smallest = 0; // smallest non-zero magnitude
    double low = 0;
    double high = 0;
    bool any = false;
    bool fractional = false;
    for (const double v : values) {
        if (!std::isfinite(v))
            continue;
        const double magnitude = std::abs(v);
        largest = std::max(largest, magnitude);
        if (magnitude > 0)
            smallest = smallest == 0 ? magnitude : std::min(smallest, magnitude);
        low = any ? std::min(low, v) : v;
        high = any ? std::max(high, v) : v;
        fractional = fractional || v != std::floor(v);
        any = true;
    }
    NumberFormat format;
    if (!any || !fractional) {
        // Whole numbers (counts: MACs, bytes, cycles) read best whole: "2654208", not
        // "2.654e+06" beside "0.000e+00"; scientific only past what a column can show.
        format.scientific = largest >= 1e15;
        format.precision = format.scientific ? 3 : 0;
        return format;
    }
    if (largest >= 1e6) {
        format.scientific = true;
        format.precision = 3;
        return format;
    }
    // Two significant digits of the smallest magnitude, and of the spread between values (the
    // larger values get more digits in the same column).
    int decimals = smallest > 0 ? 1 - static_cast<int>(std::floor(std::log10(smallest))) : 0;
    if (high > low)
        decimals = std::max(decimals, 1 - static_cast<int>(std::floor(std::log10(high - low))));
    decimals = std::max(decimals, 0);
    if (decimals > kMaxDecimals) {
        // Only the spread of values near a large one would need that many: keep 8 decimals;
        // tiny magnitudes read better in scientific notation.
        if (smallest < 1e-5) {
            format.scientific = true;
            format.precision = 3;
            return format;
        }
        decimals = kMaxDecimals;
    }
    format.precision = decimals;
    return format;
}

NumberFormat columnNumberFormat(const HeatTable& table, std::size_t column)
{
    std::vector<double> values;
    values.reserve(table.rows.size());
    for (const HeatTable::Row& row : table.rows)
        if (column < row.values.size() && row.values[column])
            values.push_back(*row.values[column]);
    return numberFormatFor(values);
}

} // namespace etscope::core
