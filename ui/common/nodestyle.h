// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"

#include <QColor>
#include <QFont>
#include <QString>

namespace etscope::ui {

/// How a node kind looks: one place for colours, so the legend, the scene and the exports agree.
/// Colours come from the Okabe–Ito palette (colour-blind safe).
struct NodeLook {
    QColor fill;
    QColor header; ///< band behind the title
    QColor border;
    QColor text;
    bool dashed = false;
    bool rounded = false;
};

NodeLook lookFor(const core::Node& node);
/// The same look on the dark canvas of a dark theme (exported pictures stay light).
NodeLook darkLook(const NodeLook& light);

/// A stable colour per backend id (known backends fixed, others hashed onto the palette).
QColor backendColour(const QString& backendId);

/// The colour that asks for attention: the selection, emphasised wires, values beyond a
/// threshold (Okabe–Ito vermillion).
QColor attentionColour();
/// A deep red for what cannot run or is gone (a node without a kernel, a node only in A of a
/// comparison): apart from the selection's attention colour, so both read on one node.
QColor problemColour();
/// The mark of the first divergence of a numeric gap (issue 24 #2): a magenta apart from the
/// heat ramp, the selection's vermillion and the problem red, legible on light and dark canvases.
QColor divergenceColour();

/// Fonts used for node titles and subtitles (also by the layout's size measurement).
QFont titleFont();
QFont subtitleFont();

/// A readable sequential colour ramp (viridis-like, colour-blind safe) for t in [0, 1]; a NaN
/// (a heat value that is not a number) gets nanColour().
QColor rampColour(double t);
/// The colour of a NaN heat value: on no end of the ramp, and not the grey of a plain node.
QColor nanColour();

} // namespace etscope::ui
