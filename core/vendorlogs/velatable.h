// SPDX-License-Identifier: MIT
// The per-layer table's columns (by header name, with the aliases of older Vela versions) and
// its cells. Private to core/vendorlogs (velalog.cpp).
#pragma once

#include "core/vendorlogs/velalog.h"

#include <optional>
#include <string_view>
#include <vector>

namespace etscope::core::vendor::perlayer {

/// The column a header name means; `networkSeen` tells the second bare "Network%" (MACs) from
/// the first (cycles), as old Vela printed both under one name. nullopt: an unknown name.
std::optional<LayerColumn> columnFor(std::string_view name, bool& networkSeen);
/// The longest known column name `text` starts with (followed by a space or the end); empty when none.
std::string_view knownColumnAt(std::string_view text);
/// Sets one cell of a row; false when a numeric cell does not read as a number.
bool setCell(VelaLayerRow& row, LayerColumn column, std::string_view cell);
/// Splits on commas (Vela's CSV has no quoting; a quoted cell loses its quotes).
std::vector<std::string_view> csvCells(std::string_view text, std::size_t max = 256);

} // namespace etscope::core::vendor::perlayer
