// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

class QFontMetricsF;

namespace etscope::ui {

/// Shortens a name to at most `maxChars` characters, keeping the part that tells names apart:
/// an operator's own name and overload stay whole and its namespace gives way
/// ("quantized_decomposed::dequantize_per_tensor.out" → "quantized_deco…dequantize_per_tensor.out"
/// at 40), other names lose their middle. Names that fit are returned unchanged.
QString elideName(const QString& name, int maxChars);

/// elideName at the longest length whose text fits in `width` pixels of `metrics`.
QString elideNameToWidth(const QString& name, const QFontMetricsF& metrics, qreal width);

/// The part of each of `names` (shown together: a column, a tree's siblings, a legend) that
/// tells it from the others, as [start, end) in characters: after the longest prefix it shares
/// with another name, before the longest suffix it shares with another. A name like no other
/// (or in a set of one) gets [0, size). "debug symbol model_layer1_weight_to_fp16:const" beside
/// "debug symbol model_layer2_weight_to_fp16:const" gets the "1" and "2" around their place.
std::vector<std::pair<int, int>> distinctParts(const QStringList& names);

/// Shortens `name` to at most `maxChars` characters keeping [start, end), widened to its whole
/// words, when it fits. The rest is shared with other names and gives way first: the text is one
/// piece of the name around the part, the whole end when it fits and the words before the part
/// that room allows, a namespace only whole ("…quantized_depthwise_conv2d.out" under
/// "cortex_m::"), else reading on from the part ("…dequantize_per_tenso…"), "…" where cut. A
/// part too long is shortened as elideName does. With the whole name as the part it is elideName.
QString elideAround(const QString& name, std::pair<int, int> part, int maxChars);
/// elideAround at the longest length whose text fits in `width` pixels of `metrics`.
QString elideAroundToWidth(const QString& name, std::pair<int, int> part, const QFontMetricsF& metrics, qreal width);

/// Every name of a set shortened to `maxChars`, each keeping what tells it from the others:
/// names that differ stay different wherever their differing parts fit.
QStringList elideDistinct(const QStringList& names, int maxChars);

} // namespace etscope::ui
