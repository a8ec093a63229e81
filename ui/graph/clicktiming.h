// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "ui/graph/presentation.h"

#include <QElapsedTimer>

namespace etscope::ui {

class GraphView;

/// `--timings` of a click (issue 27): from the click or key press to the first paint of a graph
/// view that shows its result, printed as "etscope timing: <phase> <ms> ms", then the longest
/// stall of the event loop meanwhile as "<phase>-stall". Phases: group-open (⊕ or a double-click
/// on a closed group), delegate-expand (⊕ on a delegate), delegate-tab (a double-click on a
/// delegate: its own tab painted), search-jump (a search hit activated: its node selected and
/// centred, its group or delegate opened first when it is inside a closed one). One click is
/// timed at a time: a newer click replaces one still waiting, and one whose result never comes
/// (a failed or cancelled layout) is dropped silently after kAbandonAfterMs. Silent and free when
/// --timings is off.
namespace clicktiming {

constexpr int kAbandonAfterMs = 120000;

/// ⊕ (or a double-click on a group) in a view showing `shown`: a closed group or delegate
/// `owner` opens; nothing is timed when it is open already (that click closes it).
void beginOpening(const Presentation& shown, const core::NodeOrigin& owner);
/// A double-click on the delegate `delegateNode` of the top-level graph `shown`: its own tab.
void beginTab(const Presentation& shown, core::NodeId delegateNode);
/// A search hit activated; `pressed` runs since the key press or click that asked for it.
void beginJump(const core::NodeOrigin& origin, const QElapsedTimer& pressed);
/// A paint of `view` finished: ends the waiting phase when the view shows its result.
void painted(const GraphView& view);
/// True while a timed click waits for the paint of its result (tests, bench/bench_clicks.cpp).
bool waiting();
/// True while a search-jump waits: a selection that changes nothing still asks for a paint.
bool waitingForSelection();

} // namespace clicktiming

} // namespace etscope::ui
