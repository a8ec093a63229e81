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

namespace {

int commonPrefix(const QString& a, const QString& b)
{
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    return static_cast<int>(i);
}

QString reversed(const QString& text)
{
    QString out(text.size(), Qt::Uninitialized);
    for (qsizetype i = 0; i < text.size(); ++i)
        out[i] = text[text.size() - 1 - i];
    return out;
}

} // namespace

std::vector<std::pair<int, int>> distinctParts(const QStringList& names)
{
    const auto n = static_cast<std::size_t>(names.size());
    std::vector<int> prefix(n, 0);
    std::vector<int> suffix(n, 0);
    // The longest prefix a name shares with any other is the one it shares with a neighbour in
    // sorted order; likewise suffixes, sorting the reversed names. Equal names are one name.
    const auto longestShared = [&](const QStringList& keys, std::vector<int>& into, auto shared) {
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return keys[static_cast<qsizetype>(a)] < keys[static_cast<qsizetype>(b)];
        });
        for (std::size_t k = 0; k < n; ++k) {
            const QString& key = keys[static_cast<qsizetype>(order[k])];
            // The nearest different name on each side.
            for (const int step : { -1, +1 }) {
                for (std::ptrdiff_t j = static_cast<std::ptrdiff_t>(k) + step;
                     j >= 0 && j < static_cast<std::ptrdiff_t>(n); j += step) {
                    const QString& other = keys[static_cast<qsizetype>(order[static_cast<std::size_t>(j)])];
                    if (other == key)
                        continue;
                    into[order[k]] = std::max(into[order[k]], shared(key, other));
                    break;
                }
            }
        }
    };
    longestShared(names, prefix, commonPrefix);
    QStringList backwards;
    backwards.reserve(names.size());
    for (const QString& name : names)
        backwards << reversed(name);
    longestShared(backwards, suffix, commonPrefix);
    std::vector<std::pair<int, int>> parts(n);
    for (std::size_t i = 0; i < n; ++i) {
        const int size = static_cast<int>(names[static_cast<qsizetype>(i)].size());
        // The first character that differs from the name sharing the longest prefix is at
        // prefix[i]; the last that differs from the name sharing the longest suffix is at
        // size - suffix[i] - 1. The part spans both, whichever comes first ("…tensor_1_cast…"
        // beside "…tensor_1_y…" and "…tensor_2_cast…" keeps "1_c").
        // A shared start or end of one or two characters ("t" of "offset" and "softmax_out") is
        // chance, not a common part: the part then runs to the name's start or end.
        constexpr int kShared = 3;
        const int first = prefix[i] < kShared ? 0 : prefix[i];
        const int last = size - (suffix[i] < kShared ? 0 : suffix[i]) - 1;
        int start = std::clamp(std::min(first, last), 0, size);
        int end = std::clamp(std::max(first, last) + 1, start, size);
        if (start == end && start > 0)
            --start; // a name that is all of another's start or end: keep where they part
        // A separator at the start of the part tells nothing by itself ("::quantize" beside
        // "::dequantize" differ at the 'q'): begin after it.
        const QString& name = names[static_cast<qsizetype>(i)];
        while (end - start > 1 && QStringView(u":._ /").contains(name[start]))
            ++start;
        parts[i] = { start, end };
    }
    return parts;
}

QString elideAround(const QString& name, std::pair<int, int> part, int maxChars)
{
    const int size = static_cast<int>(name.size());
    if (size <= maxChars)
        return name;
    int start = std::clamp(part.first, 0, size);
    int end = std::clamp(part.second, start, size);
    if (start == 0 && end == size)
        return elideName(name, maxChars);
    // The part reaches to its words' ends: "dequantize" rather than the "de" that tells it from
    // "quantize", "quantized_conv2d" rather than "d_c".
    // Only when the words fit: a long word keeps the narrow part whole instead.
    const auto separator = [&](int i) { return QStringView(u"_.: /").contains(name[i]); };
    if (start < end) {
        int wordStart = start;
        int wordEnd = end;
        while (wordStart > 0 && !separator(wordStart) && !separator(wordStart - 1))
            --wordStart;
        while (wordEnd < size && !separator(wordEnd - 1) && !separator(wordEnd))
            ++wordEnd;
        if (wordEnd - wordStart + (wordStart > 0 ? 1 : 0) + (wordEnd < size ? 1 : 0) <= maxChars) {
            start = wordStart;
            end = wordEnd;
        }
    }
    const int core = end - start;
    const int headRoom = start; // characters before the part
    const int tailRoom = size - end;
    const auto cost
        = [&](int head, int tail) { return head + tail + (head < headRoom ? 1 : 0) + (tail < tailRoom ? 1 : 0); };
    const int room = maxChars - core;
    if (room < cost(0, 0)) {
        // The part alone is too long: keep its ends, an op's name after its namespace (elideName).
        const int inner = maxChars - cost(0, 0);
        if (inner < 3)
            return elideName(name, maxChars);
        return (headRoom > 0 ? kEllipsis : QString()) + elideName(name.mid(start, core), inner)
            + (tailRoom > 0 ? kEllipsis : QString());
    }
    // The rest of the room to the name's ends, the end first (an overload tells names apart).
    // When the end does not fit whole, what is shared on both sides gives way and the text reads
    // on from the part ("…dequantize_per_tenso…", not "cortex_m::de…tensor.out", whose scraps of
    // namespace and overload every row repeats).
    if (room < cost(0, tailRoom)) {
        int kept = core + (room - cost(0, 0));
        while (kept > core && separator(start + kept - 1)) // "…per_tensor…", not "…per_tensor.…"
            --kept;
        return (headRoom > 0 ? kEllipsis : QString()) + name.mid(start, kept) + kEllipsis;
    }
    // The whole end fits, the whole beginning does not (else the name would): the words of the
    // beginning nearest the part, as many as room allows, so that the text reads as one piece
    // and the shared start gives way ("…quantized_depthwise_conv2d.out" under "cortex_m::",
    // never "c…quantize_per_tensor.out").
    int head = std::max(0, std::min(headRoom, room - tailRoom - 1));
    // A namespace gives way whole: "…quantized_conv2d.out", not "…m::quantized_conv2d.out".
    if (const auto colons = name.lastIndexOf(QLatin1String("::"), start - 1); colons >= 0 && colons + 2 <= start)
        head = std::min(head, start - static_cast<int>(colons) - 2);
    while (head > 0 && (!separator(start - head - 1) || separator(start - head)))
        --head;
    return kEllipsis + name.mid(start - head, head + core + tailRoom);
}

QString elideAroundToWidth(const QString& name, std::pair<int, int> part, const QFontMetricsF& metrics, qreal width)
{
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    int low = 1;
    int high = static_cast<int>(name.size()) - 1;
    QString best = kEllipsis;
    while (low <= high) {
        const int middle = (low + high) / 2;
        const QString candidate = elideAround(name, part, middle);
        if (metrics.horizontalAdvance(candidate) <= width) {
            best = candidate;
            low = middle + 1;
        } else {
            high = middle - 1;
        }
    }
    return best;
}

QStringList elideDistinct(const QStringList& names, int maxChars)
{
    const auto parts = distinctParts(names);
    QStringList out;
    out.reserve(names.size());
    for (qsizetype i = 0; i < names.size(); ++i)
        out << elideAround(names[i], parts[static_cast<std::size_t>(i)], maxChars);
    return out;
}

} // namespace etscope::ui
