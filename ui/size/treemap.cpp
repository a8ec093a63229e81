// SPDX-License-Identifier: MIT
#include "ui/size/treemap.h"

#include "core/util/text.h"
#include "ui/common/nodestyle.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr double kOpenMinWidth = 48; ///< a group narrower than this is drawn whole
constexpr double kOpenMinInner = 20; ///< … or with less than this under its title
constexpr int kMaxOpenDepth = 8;
constexpr double kLabelMinWidth = 34;
constexpr int kListedRanges = 4;
constexpr int kListedRefs = 6;

/// `colour` mixed with white by `amount` (0: as is, 1: white).
QColor tint(const QColor& colour, double amount)
{
    const auto mix = [amount](int channel) { return static_cast<int>(channel + (255 - channel) * amount); };
    return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

double luminance(const QColor& colour)
{
    const auto linear = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF());
}

/// White or near-black, whichever contrasts more (WCAG): dark text on the mid-tone orange and
/// yellow fills where a lightness threshold would pick white.
QColor labelColourOn(const QColor& background)
{
    const QColor dark(0x1f, 0x23, 0x28);
    const double l = luminance(background);
    return 1.05 / (l + 0.05) > (l + 0.05) / (luminance(dark) + 0.05) ? QColor(Qt::white) : dark;
}

/// The frame colour of an opened group: darker at the top, lighter deeper down.
QColor frameColour(int depth)
{
    return tint(QColor(0x3f, 0x4a, 0x59), std::min(0.12 * depth, 0.5));
}

/// What a group drawn whole looks like: its largest part.
const SizeNode& dominantLeaf(const SizeNode& node)
{
    const SizeNode* current = &node;
    while (!current->isLeaf())
        current = &*std::max_element(current->children.begin(), current->children.end(),
            [](const SizeNode& a, const SizeNode& b) { return a.bytes < b.bytes; });
    return *current;
}

QString grouped(std::uint64_t value)
{
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

QString human(std::uint64_t bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

double worstRatio(double sum, double smallest, double largest, double side)
{
    const double sum2 = sum * sum;
    const double side2 = side * side;
    return std::max(side2 * largest / sum2, sum2 / (side2 * smallest));
}

void layoutInto(const SizeNode& node, const QRectF& rect, int depth, double titleHeight, std::vector<TreemapBox>& out)
{
    std::vector<double> weights;
    weights.reserve(node.children.size());
    for (const SizeNode& child : node.children)
        weights.push_back(static_cast<double>(child.bytes));
    const std::vector<QRectF> rects = squarify(weights, rect);
    for (std::size_t i = 0; i < rects.size(); ++i) {
        if (rects[i].isEmpty())
            continue;
        const SizeNode& child = node.children[i];
        TreemapBox box { &child, rects[i], {}, depth };
        const bool opens = !child.isLeaf() && depth < kMaxOpenDepth && rects[i].width() >= kOpenMinWidth
            && rects[i].height() >= titleHeight + kOpenMinInner;
        if (opens)
            box.inner = rects[i].adjusted(1, titleHeight, -1, -1);
        out.push_back(box);
        if (opens)
            layoutInto(child, box.inner, depth + 1, titleHeight, out);
    }
}

} // namespace

std::vector<QRectF> squarify(const std::vector<double>& weights, const QRectF& rect)
{
    std::vector<QRectF> out(weights.size());
    std::vector<std::size_t> order;
    double total = 0;
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (weights[i] > 0) {
            order.push_back(i);
            total += weights[i];
        }
    if (order.empty() || rect.width() <= 0 || rect.height() <= 0)
        return out;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
    const double scale = rect.width() * rect.height() / total;
    const auto area = [&](std::size_t k) { return weights[order[k]] * scale; };

    QRectF free = rect;
    std::size_t start = 0;
    while (start < order.size()) {
        // Grow the row along the shorter side while its worst aspect ratio improves.
        const double side = std::min(free.width(), free.height());
        double sum = area(start);
        double smallest = sum;
        double largest = sum;
        double worst = worstRatio(sum, smallest, largest, side);
        std::size_t end = start + 1;
        for (; end < order.size(); ++end) {
            const double a = area(end);
            const double next = worstRatio(sum + a, std::min(smallest, a), std::max(largest, a), side);
            if (next > worst)
                break;
            sum += a;
            smallest = std::min(smallest, a);
            largest = std::max(largest, a);
            worst = next;
        }
        // The last row takes what is left, so rounding never leaves a gap.
        const bool last = end == order.size();
        if (free.width() >= free.height()) {
            const double width = last ? free.width() : std::min(free.width(), sum / free.height());
            double y = free.top();
            for (std::size_t k = start; k < end; ++k) {
                const double height = k + 1 == end ? free.bottom() - y : free.height() * area(k) / sum;
                out[order[k]] = QRectF(free.left(), y, width, height);
                y += height;
            }
            free.setLeft(free.left() + width);
        } else {
            const double height = last ? free.height() : std::min(free.height(), sum / free.width());
            double x = free.left();
            for (std::size_t k = start; k < end; ++k) {
                const double width = k + 1 == end ? free.right() - x : free.width() * area(k) / sum;
                out[order[k]] = QRectF(x, free.top(), width, height);
                x += width;
            }
            free.setTop(free.top() + height);
        }
        start = end;
    }
    return out;
}

std::vector<TreemapBox> layoutTreemap(const SizeNode& root, const QRectF& rect, double titleHeight)
{
    std::vector<TreemapBox> boxes;
    layoutInto(root, rect, 0, titleHeight, boxes);
    return boxes;
}

QColor sizeKindColour(SizeKind kind, const std::string& backend)
{
    const QString backendId = QString::fromStdString(backend);
    switch (kind) {
    case SizeKind::File:
    case SizeKind::Group:
        return QColor(0xb4, 0xbc, 0xc6);
    case SizeKind::Header:
        return QColor(0x8d, 0x99, 0xa6);
    case SizeKind::ProgramTables:
        return QColor(0xd9, 0xc9, 0xa3);
    case SizeKind::BundledTables:
        return QColor(0xc4, 0xb0, 0x86);
    case SizeKind::BundledTestData:
        return QColor(0xa6, 0xd4, 0x9c);
    case SizeKind::InlineDelegate:
    case SizeKind::DelegateSegment:
        return backend.empty() ? QColor(0x6b, 0x72, 0x80) : backendColour(backendId);
    case SizeKind::Constant:
        return QColor(0xf0, 0xd2, 0x64);
    case SizeKind::MutableData:
        return QColor(0xdc, 0x9c, 0xc3);
    case SizeKind::NamedData:
        return QColor(0xe9, 0xc5, 0x8f);
    case SizeKind::UnreferencedSegment:
        return QColor(0xe8, 0x83, 0x6b);
    case SizeKind::Padding:
    case SizeKind::Trailing:
        return QColor(0xdc, 0xdc, 0xdc);
    }
    return Qt::gray;
}

QString sizeKindLabel(SizeKind kind)
{
    return QString::fromLatin1(sizeKindName(kind).data(), static_cast<qsizetype>(sizeKindName(kind).size()))
        .replace(QLatin1Char('_'), QLatin1Char(' '));
}

TreemapView::TreemapView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("treemapView"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(240, 140);
}

void TreemapView::setTree(const SizeTree* tree)
{
    m_tree = tree;
    m_parents.clear();
    if (m_tree) {
        std::vector<const SizeNode*> stack { &m_tree->root };
        while (!stack.empty()) {
            const SizeNode* node = stack.back();
            stack.pop_back();
            for (const SizeNode& child : node->children) {
                m_parents[&child] = node;
                stack.push_back(&child);
            }
        }
    }
    m_root = m_tree ? &m_tree->root : nullptr;
    m_selected = nullptr;
    m_marked.clear();
    m_markedAncestors.clear();
    m_dirty = true;
    update();
    Q_EMIT rootChanged();
}

const SizeNode* TreemapView::parentOf(const SizeNode* node) const
{
    const auto it = m_parents.find(node);
    return it == m_parents.end() ? nullptr : it->second;
}

bool TreemapView::holds(const SizeNode* ancestor, const SizeNode* node) const
{
    for (; node; node = parentOf(node))
        if (node == ancestor)
            return true;
    return false;
}

std::vector<const SizeNode*> TreemapView::rootPath() const
{
    std::vector<const SizeNode*> path;
    for (const SizeNode* node = m_root; node; node = parentOf(node))
        path.insert(path.begin(), node);
    return path;
}

void TreemapView::setShownRoot(const SizeNode* node)
{
    if (!node || node == m_root || node->isLeaf())
        return;
    m_root = node;
    m_dirty = true;
    update();
    Q_EMIT rootChanged();
}

void TreemapView::goUp()
{
    if (const SizeNode* parent = parentOf(m_root))
        setShownRoot(parent);
}

void TreemapView::setSelected(const SizeNode* node)
{
    m_selected = node;
    update();
}

void TreemapView::setMarked(std::set<const SizeNode*> marked)
{
    m_marked = std::move(marked);
    m_markedAncestors.clear();
    for (const SizeNode* node : m_marked)
        for (const SizeNode* parent = parentOf(node); parent; parent = parentOf(parent))
            m_markedAncestors.insert(parent);
    if (m_tree && !m_marked.empty()
        && std::none_of(m_marked.begin(), m_marked.end(), [this](const SizeNode* n) { return holds(m_root, n); }))
        setShownRoot(&m_tree->root);
    update();
}

double TreemapView::titleHeight() const
{
    return QFontMetricsF(font()).height() + 4;
}

void TreemapView::relayout() const
{
    if (!m_dirty && m_laidOutFor == size())
        return;
    m_boxes = m_root ? layoutTreemap(*m_root, QRectF(QPointF(0, 0), QSizeF(size())), titleHeight())
                     : std::vector<TreemapBox> {};
    m_laidOutFor = size();
    m_dirty = false;
}

const std::vector<TreemapBox>& TreemapView::boxes() const
{
    relayout();
    return m_boxes;
}

const TreemapBox* TreemapView::boxAt(QPointF point) const
{
    const auto& all = boxes();
    // Children come after their parents: the last box holding the point is the deepest.
    for (auto it = all.rbegin(); it != all.rend(); ++it)
        if (it->rect.contains(point))
            return &*it;
    return nullptr;
}

const TreemapBox* TreemapView::boxOf(const SizeNode* node) const
{
    for (const TreemapBox& box : boxes())
        if (box.node == node || (!box.opened() && holds(box.node, node)))
            return &box;
    return nullptr;
}

void TreemapView::paintMap(QPainter& painter, QSize size) const
{
    if (!m_root)
        return;
    if (size == this->size()) {
        paintBoxes(painter, boxes());
        return;
    }
    paintBoxes(painter, layoutTreemap(*m_root, QRectF(QPointF(0, 0), QSizeF(size)), titleHeight()));
}

void TreemapView::paintBoxes(QPainter& painter, const std::vector<TreemapBox>& boxes) const
{
    painter.save();
    QFont small = font();
    const QFontMetricsF metrics(small);
    const double line = metrics.height();
    for (const TreemapBox& box : boxes) {
        const SizeNode& node = *box.node;
        const QRectF rect = box.rect;
        if (box.opened()) {
            const QColor frame = frameColour(box.depth);
            painter.fillRect(rect, frame);
            const QRectF title = QRectF(rect.left() + 4, rect.top(), rect.width() - 8, box.inner.top() - rect.top());
            painter.setPen(labelColourOn(frame));
            painter.setFont(small);
            const QString text = QStringLiteral("%1 — %2").arg(QString::fromStdString(node.name), human(node.bytes));
            painter.drawText(
                title, Qt::AlignVCenter | Qt::AlignLeft, metrics.elidedText(text, Qt::ElideMiddle, title.width()));
            continue;
        }
        const SizeNode& look = node.isLeaf() ? node : dominantLeaf(node);
        const QColor fill = sizeKindColour(look.kind, look.backend);
        painter.fillRect(rect, fill);
        if (!node.isLeaf()) // a closed group: hatched, so it reads as "more inside"
            painter.fillRect(rect, QBrush(fill.darker(125), Qt::BDiagPattern));
        // Bytes a backend owns without being its blob (the weights its payload names): a band in
        // the backend's colour along the bottom, so "by backend" shows on the map too.
        const bool delegateBlob = look.kind == SizeKind::DelegateSegment || look.kind == SizeKind::InlineDelegate;
        if (!look.backend.empty() && !delegateBlob && rect.height() >= 4)
            painter.fillRect(QRectF(rect.left(), rect.bottom() - std::min(5.0, rect.height() / 4), rect.width(),
                                 std::min(5.0, rect.height() / 4)),
                backendColour(QString::fromStdString(look.backend)));
        if (rect.width() >= 3 && rect.height() >= 3) {
            painter.setPen(QPen(fill.darker(150), 0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(rect.adjusted(0, 0, -0.5, -0.5));
        }
        // Text only where a readable piece of it fits: tiny boxes stay plain.
        if (rect.width() < kLabelMinWidth || rect.height() < line + 2)
            continue;
        const QRectF textRect = rect.adjusted(3, 1, -3, -1);
        const QString full = QString::fromStdString(node.name);
        const QString name = metrics.elidedText(full, Qt::ElideMiddle, textRect.width());
        // "Xn…te" says nothing: a label keeps at least eight characters of its name, or none.
        if (name.size() < std::min<qsizetype>(8, full.size()))
            continue;
        const bool greyed = look.kind == SizeKind::Padding || look.kind == SizeKind::Trailing;
        painter.setPen(greyed ? QColor(0x6b, 0x72, 0x80) : labelColourOn(fill));
        painter.setFont(small);
        if (textRect.height() >= 2 * line) {
            painter.drawText(QRectF(textRect.topLeft(), QSizeF(textRect.width(), line)), Qt::AlignLeft, name);
            painter.drawText(QRectF(textRect.left(), textRect.top() + line, textRect.width(), line), Qt::AlignLeft,
                metrics.elidedText(human(node.bytes), Qt::ElideRight, textRect.width()));
        } else {
            painter.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, name);
        }
    }
    // Marks on top: the parts of the node selected in the graph, then the part selected here.
    const auto outline = [&](const QRectF& rect, const QColor& colour, double width) {
        painter.setPen(QPen(colour, width));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect.adjusted(width / 2, width / 2, -width / 2, -width / 2));
    };
    for (const TreemapBox& box : boxes)
        if (!box.opened() && (m_marked.count(box.node) || m_markedAncestors.count(box.node)))
            outline(box.rect, attentionColour(), 2.5);
    for (const TreemapBox& box : boxes)
        if (m_selected && box.node == m_selected)
            outline(box.rect, palette().highlight().color(), 3);
    painter.restore();
}

QString TreemapView::describe(const SizeNode& node) const
{
    QStringList lines;
    lines << QString::fromStdString(node.name);
    QString kind = sizeKindLabel(node.kind);
    if (!node.detail.empty())
        kind += QStringLiteral(" — ") + QString::fromStdString(node.detail);
    lines << kind;
    const std::uint64_t fileSize = m_tree ? m_tree->fileSize : 0;
    const double share = fileSize ? 100.0 * static_cast<double>(node.bytes) / static_cast<double>(fileSize) : 0.0;
    lines << tr("%1 bytes (%2), %3% of the file").arg(grouped(node.bytes), human(node.bytes)).arg(share, 0, 'f', 1);
    const auto rangeText = [](const ByteRange& range) {
        return QStringLiteral("%1–%2").arg(grouped(range.offset), grouped(range.end()));
    };
    if (node.isLeaf() && node.ranges.size() == 1) {
        lines << tr("bytes %1 of the file").arg(rangeText(node.ranges.front()));
    } else if (node.isLeaf() && node.ranges.size() > 1) {
        QStringList ranges;
        for (std::size_t i = 0; i < node.ranges.size() && i < kListedRanges; ++i)
            ranges << rangeText(node.ranges[i]);
        if (node.ranges.size() > kListedRanges)
            ranges << tr("… %n more", nullptr, static_cast<int>(node.ranges.size() - kListedRanges));
        lines << tr("%n ranges: ", nullptr, static_cast<int>(node.ranges.size())) + ranges.join(QStringLiteral(", "));
    } else if (node.bytes > 0) {
        lines << tr("spans bytes %1 of the file").arg(rangeText(node.span));
    }
    if (!node.backend.empty())
        lines << tr("counts for %1").arg(QString::fromStdString(node.backend));
    if (node.segment >= 0)
        lines << tr("segment %1").arg(node.segment);
    if (!node.refs.empty()) {
        QStringList refs;
        for (std::size_t i = 0; i < node.refs.size() && i < kListedRefs; ++i)
            refs << QString::fromStdString(sizeRefText(node.refs[i]));
        if (node.refs.size() > kListedRefs)
            refs << tr("… %n more", nullptr, static_cast<int>(node.refs.size() - kListedRefs));
        lines << tr("used by: %1").arg(refs.join(QStringLiteral("; ")));
    }
    if (!node.isLeaf())
        lines << tr("%n part(s) inside — click to open", nullptr, static_cast<int>(node.children.size()));
    return lines.join(QLatin1Char('\n'));
}

void TreemapView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!m_root) {
        painter.setPen(palette().placeholderText().color());
        painter.drawText(rect(), Qt::AlignCenter, tr("No size breakdown"));
        return;
    }
    paintMap(painter, size());
}

void TreemapView::resizeEvent(QResizeEvent* event)
{
    m_dirty = true;
    QWidget::resizeEvent(event);
}

void TreemapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::RightButton || event->button() == Qt::BackButton) {
        goUp();
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    const TreemapBox* box = boxAt(event->position());
    if (!box)
        return;
    const SizeNode* node = box->node;
    if (!node->isLeaf()) {
        setShownRoot(node);
        return;
    }
    setSelected(node);
    Q_EMIT partClicked(node);
}

void TreemapView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Backspace || (event->key() == Qt::Key_Up && event->modifiers() & Qt::AltModifier))
        goUp();
    else
        QWidget::keyPressEvent(event);
}

bool TreemapView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const TreemapBox* box = boxAt(help->pos()))
            QToolTip::showText(help->globalPos(), describe(*box->node), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace etscope::ui
