// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QFontMetricsF;

namespace etscope::ui {

/// Shortens a name to at most `maxChars` characters, keeping the part that tells names apart:
/// an operator's own name and overload stay whole and its namespace gives way
/// ("quantized_decomposed::dequantize_per_tensor.out" → "quantized_deco…dequantize_per_tensor.out"
/// at 40), other names lose their middle. Names that fit are returned unchanged.
QString elideName(const QString& name, int maxChars);

/// elideName at the longest length whose text fits in `width` pixels of `metrics`.
QString elideNameToWidth(const QString& name, const QFontMetricsF& metrics, qreal width);

} // namespace etscope::ui
