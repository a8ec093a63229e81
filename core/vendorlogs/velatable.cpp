// SPDX-License-Identifier: MIT
// The per-layer table's columns and cells (velatable.h); the sources of the names are in velalog.h.
#include "core/vendorlogs/velatable.h"

#include <array>

namespace etscope::core::vendor::perlayer {

namespace {

// Column names and the aliases older Vela versions printed (velalog.h gives the sources). The
// old tables had two columns both called "Network%": the first is cycles, the second MACs.
struct ColumnAlias {
    std::string_view name;
    LayerColumn column;
};
constexpr std::array kAliases {
    ColumnAlias { "Original Operator", LayerColumn::OriginalOperator },
    ColumnAlias { "TFLite_operator", LayerColumn::OriginalOperator },
    ColumnAlias { "TOSA_operator", LayerColumn::OriginalOperator },
    ColumnAlias { "TFLite Operator", LayerColumn::OriginalOperator },
    ColumnAlias { "NNG Operator", LayerColumn::NngOperator },
    ColumnAlias { "Target", LayerColumn::Target },
    ColumnAlias { "Staging Usage", LayerColumn::StagingUsage },
    ColumnAlias { "SRAM Usage", LayerColumn::StagingUsage },
    ColumnAlias { "Peak% (Staging)", LayerColumn::PeakStagingPercent },
    ColumnAlias { "Peak%", LayerColumn::PeakStagingPercent },
    ColumnAlias { "Op Cycles", LayerColumn::OpCycles },
    ColumnAlias { "Network% (cycles)", LayerColumn::NetworkCyclesPercent },
    ColumnAlias { "NPU", LayerColumn::NpuCycles },
    ColumnAlias { "SRAM AC", LayerColumn::SramAccessCycles },
    ColumnAlias { "DRAM AC", LayerColumn::DramAccessCycles },
    ColumnAlias { "OnFlash AC", LayerColumn::OnChipFlashAccessCycles },
    ColumnAlias { "OffFlash AC", LayerColumn::OffChipFlashAccessCycles },
    ColumnAlias { "MAC Count", LayerColumn::MacCount },
    ColumnAlias { "Network% (MAC)", LayerColumn::NetworkMacPercent },
    ColumnAlias { "Network% (1)", LayerColumn::NetworkMacPercent },
    ColumnAlias { "Util% (MAC)", LayerColumn::UtilMacPercent },
    ColumnAlias { "Util%", LayerColumn::UtilMacPercent },
    ColumnAlias { "Name", LayerColumn::Name },
};

/// The column a header name means; `networkSeen` tells the second bare "Network%" (MACs) from the first.
} // namespace

constexpr std::array<std::string_view, static_cast<std::size_t>(LayerColumn::Count)> kColumnNames { "Original Operator",
    "NNG Operator", "Target", "Staging Usage", "Peak% (Staging)", "Op Cycles", "Network% (cycles)", "NPU", "SRAM AC",
    "DRAM AC", "OnFlash AC", "OffFlash AC", "MAC Count", "Network% (MAC)", "Util% (MAC)", "Name" };

std::optional<LayerColumn> columnFor(std::string_view name, bool& networkSeen)
{
    if (name == "Network%") {
        const bool second = networkSeen;
        networkSeen = true;
        return second ? LayerColumn::NetworkMacPercent : LayerColumn::NetworkCyclesPercent;
    }
    for (const ColumnAlias& alias : kAliases)
        if (alias.name == name)
            return alias.column;
    return std::nullopt;
}

/// Sets one cell of a row; false when a numeric cell does not read as a number.
bool setCell(VelaLayerRow& row, LayerColumn column, std::string_view cell)
{
    cell = trim(cell);
    const auto integer = [&](std::optional<std::int64_t>& out) {
        if (auto v = parseInteger(cell)) {
            out = v;
            return true;
        }
        // Vela prints counts as floats with no decimals ("12760") but the CSV may hold "12760.0".
        if (auto d = parseNumber(cell); d && *d >= -9.2e18 && *d <= 9.2e18) {
            out = static_cast<std::int64_t>(*d);
            return true;
        }
        return false;
    };
    const auto real = [&](std::optional<double>& out) {
        if (cell == "NaN" || cell == "nan")
            return true; // Vela writes NaN where it has no figure
        out = parseNumber(cell);
        return out.has_value();
    };
    switch (column) {
    case LayerColumn::OriginalOperator:
        row.originalOperator = cell;
        return true;
    case LayerColumn::NngOperator:
        row.nngOperator = cell;
        return true;
    case LayerColumn::Target:
        row.target = cell;
        return true;
    case LayerColumn::Name:
        row.name = cell;
        return true;
    case LayerColumn::StagingUsage:
        return integer(row.stagingUsage);
    case LayerColumn::PeakStagingPercent:
        return real(row.peakStagingPercent);
    case LayerColumn::OpCycles:
        return integer(row.opCycles);
    case LayerColumn::NetworkCyclesPercent:
        return real(row.networkCyclesPercent);
    case LayerColumn::NpuCycles:
        return integer(row.npuCycles);
    case LayerColumn::SramAccessCycles:
        return integer(row.sramAccessCycles);
    case LayerColumn::DramAccessCycles:
        return integer(row.dramAccessCycles);
    case LayerColumn::OnChipFlashAccessCycles:
        return integer(row.onChipFlashAccessCycles);
    case LayerColumn::OffChipFlashAccessCycles:
        return integer(row.offChipFlashAccessCycles);
    case LayerColumn::MacCount:
        return integer(row.macCount);
    case LayerColumn::NetworkMacPercent:
        return real(row.networkMacPercent);
    case LayerColumn::UtilMacPercent:
        return real(row.utilMacPercent);
    case LayerColumn::Count:
        break;
    }
    return false;
}

/// Splits on commas (Vela's CSV has no quoting; a quoted cell loses its quotes).
std::vector<std::string_view> csvCells(std::string_view text, std::size_t max)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (out.size() < max) {
        const std::size_t comma = text.find(',', start);
        std::string_view cell = trim(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
        if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
            cell = cell.substr(1, cell.size() - 2);
        out.push_back(cell);
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}
std::string_view knownColumnAt(std::string_view text)
{
    std::string_view best;
    for (const ColumnAlias& alias : kAliases)
        if (startsWith(text, alias.name) && alias.name.size() > best.size()
            && (text.size() == alias.name.size() || text[alias.name.size()] == ' '))
            best = alias.name;
    return best;
}

} // namespace etscope::core::vendor::perlayer

namespace etscope::core::vendor {

std::string_view layerColumnName(LayerColumn column)
{
    const auto i = static_cast<std::size_t>(column);
    return i < perlayer::kColumnNames.size() ? perlayer::kColumnNames[i] : std::string_view("?");
}

} // namespace etscope::core::vendor
