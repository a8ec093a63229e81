// SPDX-License-Identifier: MIT
#include "core/table/heattable.h"

#include <algorithm>
#include <cmath>

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
    if (!std::isfinite(value))
        return higherIsWorse ? 1.0 : 0.0;
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

} // namespace etscope::core
