// SPDX-License-Identifier: MIT
// Internal to core/opschema: the text of the schema table (schematable.cpp).
#pragma once

#include <span>
#include <string_view>

namespace etscope::core::opschema_detail {

/// The table in pieces (one per group of operators), each one schema per line.
std::span<const std::string_view> schemaTableText();

} // namespace etscope::core::opschema_detail
