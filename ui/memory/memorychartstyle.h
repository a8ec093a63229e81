// SPDX-License-Identifier: MIT
// The memory chart's geometry, colours and number formats, shared by memorychart.cpp (layout,
// zoom, hit tests, tooltips) and memorychartpaint.cpp (the picture). Private to ui/memory.
#pragma once

#include "core/analysis/memoryplan.h"

#include <QColor>
#include <QLocale>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace etscope::ui::memorychart {

inline constexpr int kGutter = 76; ///< the byte axis left of the plot
inline constexpr int kAxisHeight = 22; ///< the step axis above it
inline constexpr int kStripHeight = 40; ///< live bytes per step below it
inline constexpr int kLegendHeight = 18;
inline constexpr int kMargin = 8; ///< inside the plot, left, right and under the boxes
inline constexpr int kTopPad = 18; ///< above them: room for the label of the top line (at least)
inline constexpr double kMinBoxHeight = 2; ///< a 4-byte tensor in a 100 KiB arena stays visible

// Okabe–Ito, as the graph's node colours.
inline const QColor kActivation(0x9c, 0xd2, 0xf1); // sky blue, lightened so the value text reads on it
inline const QColor kInput(0x00, 0x9E, 0x73);
inline const QColor kOutput(0xE6, 0x9F, 0x00);
inline const QColor kState(0xCC, 0x79, 0xA7);
inline const QColor kView(0x00, 0x72, 0xB2);
inline const QColor kUnbound(0xb4, 0xb4, 0xb4);
inline const QColor kDeclared(0x1f, 0x23, 0x28);
inline const QColor kHighest(0x6b, 0x6b, 0x6b);

inline QColor fillOf(const core::PlannedTensor& t)
{
    switch (t.role) {
    case core::PlannedTensor::Role::State:
        return kState;
    case core::PlannedTensor::Role::Input:
        return kInput;
    case core::PlannedTensor::Role::Unbound:
    case core::PlannedTensor::Role::Unused:
        return kUnbound;
    case core::PlannedTensor::Role::View:
        return Qt::transparent;
    case core::PlannedTensor::Role::Activation:
        break;
    }
    return t.output ? kOutput : kActivation;
}

inline QColor textOn(const QColor& fill)
{
    return 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF() > 0.55 ? Qt::black : Qt::white;
}

inline QString grouped(std::uint64_t value)
{
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

/// An axis label: "512 B", "16 KiB", "1.5 MiB".
inline QString axisBytes(double bytes)
{
    static const char* const kUnits[] = { "B", "KiB", "MiB", "GiB" };
    int unit = 0;
    while (std::abs(bytes) >= 1024 && unit < 3) {
        bytes /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(bytes, 0, 'g', 4).arg(QLatin1String(kUnits[unit]));
}

/// The smallest power of two of at least `minimum` bytes.
inline double byteTickStep(double minimum)
{
    return std::pow(2.0, std::ceil(std::log2(std::max(minimum, 1.0))));
}

} // namespace etscope::ui::memorychart
