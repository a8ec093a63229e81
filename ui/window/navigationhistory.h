// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"

#include <QPointer>

#include <optional>
#include <vector>

namespace etscope::ui {

class DocumentView;

/// Where the user was: a tab, its method and the node selected there (none: nothing selected).
struct Place {
    QPointer<DocumentView> view;
    int method = -1;
    std::optional<core::NodeOrigin> node;

    bool operator==(const Place& other) const;
};

/// Back and forward over places, as a browser does: going somewhere new drops the places ahead;
/// places in closed tabs are skipped.
class NavigationHistory {
public:
    /// The place the user is now (ignored when it is where the history already stands).
    void record(const Place& place);
    /// The previous / next place still open, moving there; nullopt when there is none.
    std::optional<Place> back();
    std::optional<Place> forward();

    static constexpr std::size_t kLimit = 200;

private:
    std::vector<Place> m_places;
    std::ptrdiff_t m_at = -1;
};

} // namespace etscope::ui
