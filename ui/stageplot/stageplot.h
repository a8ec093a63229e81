// SPDX-License-Identifier: MIT
#pragma once

// The stage plot of `etscope gap --stage` (issue 24, part 3): one metric along stage 0's
// execution order, one line per later stage, drawn with QPainter to PNG or SVG.

#include "core/analysis/stagegap.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <optional>
#include <vector>

namespace etscope::ui {

/// What the plot draws: per later stage a value per row (NaN: no value, the line breaks), on a
/// linear axis (snr, cosine) or a log10 axis (mse, l1, maxabs). Values the axis cannot show are
/// clamped and the legend says so: an infinite SNR (identical outputs) to a ceiling 10 dB above
/// the largest finite one (at least 60 dB), a zero on a log axis to a floor a decade below the
/// smallest positive value.
struct StagePlotData {
    QString title;
    QString axisLabel; ///< "snr (dB)"
    bool logAxis = false;
    std::vector<QString> rowLabels; ///< stage 0's nodes
    std::vector<QString> names; ///< one per line (the later stages)
    std::vector<std::vector<double>> values; ///< [line][row], already clamped; NaN where missing
    std::vector<std::optional<std::size_t>> firstDivergence; ///< [line]: a row, marked
    std::optional<double> ceiling; ///< set when some value was clamped to it
    std::optional<double> floor;
    QString clampNote; ///< "∞ (identical) drawn at 60 dB"
    std::optional<double> threshold; ///< the divergence threshold on this metric, in axis units
    QString thresholdNote; ///< "threshold: snr < 20 dB"
    double low = 0; ///< the value axis, in axis units (log10 for a log axis)
    double high = 1;
};

StagePlotData stagePlotData(const core::StageGapReport& report, core::GapMetric metric);

/// The colour of line `index` (a fixed, colour-blind-friendlier cycle).
QColor stageLineColour(std::size_t index);

/// Draws the plot into `area` (white background, axes, ticks, legend).
void paintStagePlot(QPainter& painter, const QRectF& area, const StagePlotData& data);

/// Writes the plot to `path`: SVG when it ends in .svg, else PNG (2× pixels). The error text,
/// naming the file, when it cannot be written.
std::optional<QString> writeStagePlot(const StagePlotData& data, const QString& path);

} // namespace etscope::ui
