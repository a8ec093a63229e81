// SPDX-License-Identifier: MIT
#include "ui/window/navigationhistory.h"

#include "ui/window/documentview.h"

namespace etscope::ui {

bool Place::operator==(const Place& other) const
{
    return view == other.view && method == other.method && node == other.node;
}

void NavigationHistory::record(const Place& place)
{
    if (!place.view)
        return;
    if (m_at >= 0 && m_places[static_cast<std::size_t>(m_at)] == place)
        return;
    m_places.resize(static_cast<std::size_t>(m_at + 1));
    m_places.push_back(place);
    if (m_places.size() > kLimit)
        m_places.erase(m_places.begin());
    m_at = static_cast<std::ptrdiff_t>(m_places.size()) - 1;
}

std::optional<Place> NavigationHistory::back()
{
    for (std::ptrdiff_t i = m_at - 1; i >= 0; --i)
        if (m_places[static_cast<std::size_t>(i)].view) {
            m_at = i;
            return m_places[static_cast<std::size_t>(i)];
        }
    return std::nullopt;
}

std::optional<Place> NavigationHistory::forward()
{
    for (std::ptrdiff_t i = m_at + 1; i < static_cast<std::ptrdiff_t>(m_places.size()); ++i)
        if (m_places[static_cast<std::size_t>(i)].view) {
            m_at = i;
            return m_places[static_cast<std::size_t>(i)];
        }
    return std::nullopt;
}

} // namespace etscope::ui
