// SPDX-License-Identifier: MIT
#include "ui/common/elide.h"

#include <QFontMetricsF>

#include <algorithm>

namespace etscope::ui {

namespace {

const QString kEllipsis = QStringLiteral("…");

QString elideMiddle(const QString& text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    if (maxChars <= 1)
        return kEllipsis;
    const int kept = maxChars - 1;
    const int right = kept / 2 + kept % 2; // the end tells overloads apart: it gets the odd one
    return text.left(kept - right) + kEllipsis + text.right(right);
}

} // namespace

QString elideName(const QString& name, int maxChars)
{
    if (name.size() <= maxChars)
        return name;
    const int colons = static_cast<int>(name.lastIndexOf(QLatin1String("::")));
    if (colons > 0) {
        const QString tail = name.mid(colons + 2);
        // Keep at least a few characters of the namespace so the family still shows.
        constexpr int kNamespaceKept = 4;
        if (tail.size() + 1 + kNamespaceKept <= maxChars)
            return name.left(maxChars - 1 - static_cast<int>(tail.size())) + kEllipsis + tail;
        if (tail.size() + 1 <= maxChars)
            return kEllipsis + tail;
        return elideMiddle(tail, maxChars);
    }
    return elideMiddle(name, maxChars);
}

QString elideNameToWidth(const QString& name, const QFontMetricsF& metrics, qreal width)
{
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    // Binary search on the character budget: the shortened text grows with it.
    int low = 1;
    int high = static_cast<int>(name.size()) - 1;
    QString best = kEllipsis;
    while (low <= high) {
        const int middle = (low + high) / 2;
        const QString candidate = elideName(name, middle);
        if (metrics.horizontalAdvance(candidate) <= width) {
            best = candidate;
            low = middle + 1;
        } else {
            high = middle - 1;
        }
    }
    return best;
}

} // namespace etscope::ui
