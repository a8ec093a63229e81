// SPDX-License-Identifier: MIT
#include "ui/graph/graphitems.h"
#include "ui/common/elide.h"
#include "ui/common/theme.h"
#include "ui/graph/scenerenderer.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace etscope::ui {

namespace {
constexpr double kRadius = 4;
constexpr double kButton = 14;
/// How far the mark's badge reaches above the box: half of a 10 px subtitle line (DejaVu Sans,
/// about 12 px high) plus its 2 px pad, with room for antialiasing.
constexpr double kBadgeRise = 11;
constexpr double kArrowLength = 8;
constexpr double kArrowWidth = 3.5;
/// How wide an edge is for the mouse (its shape): a thin wire is hard to hit.
constexpr double kEdgeHitWidth = 6;
constexpr double kStackOffset = 3.5;
/// The height of an open frame's title band (its title is drawn 3 px down, 20 px high).
constexpr double kClusterTitleBand = 26;

QColor textOn(const QColor& background)
{
    return background.lightnessF() < 0.55 ? QColor(Qt::white) : QColor(0x1f, 0x23, 0x28);
}

/// True when `item` is drawn on the dark canvas of a dark theme; exported pictures are always
/// light (their background is white whatever the theme).
bool onDarkCanvas(const QGraphicsItem& item)
{
    return item.scene() && !isReportRendering(item) && isDark(item.scene()->palette());
}

QColor wireColour(bool dark)
{
    return dark ? QColor(0x9c, 0xa3, 0xaf) : QColor(0x6b, 0x72, 0x80);
}

QColor wireLabelColour(bool dark)
{
    return dark ? QColor(0xc8, 0xcd, 0xd5) : QColor(0x4b, 0x55, 0x63);
}
} // namespace

NodeItem::NodeItem(const core::Node& node, core::NodeOrigin origin, QString title, QString subtitle, QSizeF size)
    : m_origin(origin)
    , m_kind(node.kind)
    , m_look(lookFor(node))
    , m_darkLook(darkLook(m_look))
    , m_title(std::move(title))
    , m_shownTitle(m_title)
    , m_subtitle(std::move(subtitle))
    , m_size(size)
    , m_canExpand((node.kind == core::NodeKind::Delegate && node.subgraph) || node.kind == core::NodeKind::Group)
{
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(true);
    setZValue(2);
}

QRectF NodeItem::boundingRect() const
{
    // Everything paint() draws around the box: the highlight and the mark's ring (up to 4.5 px),
    // the flag on the top-left corner (6 px), and the mark's badge, which sits on the top edge
    // (half a subtitle line plus 3 px above it) and 6 px past the right edge. An item repaints
    // only its bounding rectangle: a badge outside it stays on screen as a sliver after the mark
    // goes (unticking a kernel list in the Load tab).
    const double top = kBadgeRise;
    // A long badge ("① first divergence") reaches past the left edge of a narrow box.
    const double left = std::max(6.0, m_badgeWidth + (m_canExpand ? kButton + 8 : 0) - 6 - m_size.width());
    return QRectF(
        -m_size.width() / 2 - left, -m_size.height() / 2 - top, m_size.width() + left + 8, m_size.height() + top + 6);
}

const NodeLook& NodeItem::currentLook() const
{
    return onDarkCanvas(*this) ? m_darkLook : m_look;
}

QRectF NodeItem::expandButtonRect() const
{
    return QRectF(m_size.width() / 2 - kButton - 4, -m_size.height() / 2 + 4, kButton, kButton);
}

namespace {

bool sameMark(const std::optional<NodeMark>& a, const std::optional<NodeMark>& b)
{
    return (!a && !b)
        || (a && b && a->colour == b->colour && a->badge == b->badge && a->tooltip == b->tooltip && a->name == b->name
            && a->namePart == b->namePart);
}

} // namespace

void NodeItem::setMark(std::optional<NodeMark> mark)
{
    if (sameMark(mark, m_mark))
        return;
    rememberPlainToolTip();
    prepareGeometryChange(); // the badge's width is part of the bounding rectangle
    m_mark = std::move(mark);
    m_badgeWidth = 0;
    if (m_mark && !m_mark->badge.isEmpty()) {
        const QFontMetricsF metrics(subtitleFont());
        m_badgeWidth = std::max(metrics.height(), metrics.horizontalAdvance(m_mark->badge) + 8);
    }
    // A name the mark is about keeps what tells it from its partner's, in the room the title has.
    m_shownTitle = m_title;
    if (m_mark && !m_mark->name.isEmpty() && m_mark->name != m_title) {
        const double room = m_size.width() - 12 - (m_canExpand ? kButton + 2 : 0);
        m_shownTitle = elideAroundToWidth(m_mark->name, m_mark->namePart, QFontMetricsF(titleFont()), room);
    }
    updateToolTip();
    update();
}

void NodeItem::rememberPlainToolTip()
{
    if (!m_mark && m_note.isEmpty())
        m_plainToolTip = toolTip(); // the node's own, before any mark or note
}

void NodeItem::updateToolTip()
{
    QString tip = m_plainToolTip;
    const bool rich = Qt::mightBeRichText(tip);
    const auto add = [&](const QString& line) {
        tip += rich ? QStringLiteral("<br><b>%1</b>").arg(line.toHtmlEscaped()) : QLatin1Char('\n') + line;
    };
    if (m_mark && !m_mark->tooltip.isEmpty())
        add(m_mark->tooltip);
    if (!m_note.isEmpty())
        add(QStringLiteral("? Why on the CPU: ") + m_note);
    setToolTip(tip);
}

void NodeItem::setHighlighted(bool on)
{
    if (m_highlighted == on)
        return;
    m_highlighted = on;
    update();
}

void NodeItem::setHeat(std::optional<double> value, const QString& label, bool flagged)
{
    m_heat = value;
    m_heatLabel = label;
    m_flagged = value && flagged;
    // Smaller type rather than a cut number: down to about 60 % of the subtitle size.
    m_heatFont = subtitleFont();
    const double room = m_size.width() - 8;
    for (int step = 0; step < 8 && QFontMetricsF(m_heatFont).horizontalAdvance(label) > room; ++step)
        m_heatFont.setPointSizeF(m_heatFont.pointSizeF() * 0.93);
    m_heatText = QFontMetricsF(m_heatFont).elidedText(label, Qt::ElideMiddle, room);
    update();
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QRectF box(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height());
    const NodeLook& look = currentLook();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, lod > 0.3);

    QColor fill = look.fill;
    QColor header = look.header;
    if (m_heat) {
        fill = rampColour(*m_heat);
        header = fill;
    }
    const double titleHeight = QFontMetricsF(titleFont()).height() + 6;
    const double radius = paintBox(painter, box, fill, header, titleHeight);
    if (lod < 0.25)
        return; // too small to read: the box alone says enough
    paintTexts(painter, box, fill, header, titleHeight);
    if (m_flagged)
        paintFlag(painter, box);
    if (m_mark)
        paintMark(painter, box, radius);
    if (m_canExpand && !isReportRendering(*this))
        paintExpandButton(painter, header);
    if (!m_note.isEmpty())
        paintNote(painter, fill);
}

QRectF NodeItem::noteRect() const
{
    // On the bottom-right corner, astride the border: clear of the centred texts, and inside the
    // bounding rectangle (8 px right, 6 px below the box); neither the box nor the layout change.
    constexpr double kNote = 11;
    const QRectF box = boxRect();
    return { box.right() - kNote / 2 - 2, box.bottom() - kNote / 2 - 2, kNote, kNote };
}

void NodeItem::setNote(const QString& text)
{
    if (text == m_note)
        return;
    rememberPlainToolTip();
    m_note = text;
    updateToolTip(); // the "?" is small: hovering the node says what it stands for
    update();
}

void NodeItem::paintNote(QPainter* painter, const QColor& fill) const
{
    // Unobtrusive: a small disc of the box's own fill, outlined in its text colour, not a mark.
    const QRectF circle = noteRect();
    QColor ink = textOn(fill);
    ink.setAlphaF(0.75);
    painter->save();
    painter->setPen(QPen(ink, 1.0));
    painter->setBrush(fill);
    painter->drawEllipse(circle);
    QFont font = subtitleFont();
    // The subtitle's size is in pixels (the layout measures with it) or in points.
    if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, font.pixelSize() * 4 / 5));
    else
        font.setPointSizeF(font.pointSizeF() * 0.8);
    font.setBold(true);
    painter->setFont(font);
    painter->drawText(circle, Qt::AlignCenter, QStringLiteral("?"));
    painter->restore();
}

double NodeItem::paintBox(
    QPainter* painter, const QRectF& box, const QColor& fill, const QColor& header, double titleHeight) const
{
    const NodeLook& look = currentLook();
    if (m_highlighted && !isReportRendering(*this)) { // screen state, like the selection
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0xf5, 0xb0, 0x00, 230));
        painter->drawRoundedRect(box.adjusted(-4, -4, 4, 4), kRadius + 3, kRadius + 3);
    }
    QPen pen(look.border, isSelected() ? 2.5 : 1.0);
    // Under heat the fill is the value: a delegate keeps its backend as a thick border.
    if (m_heat && m_kind == core::NodeKind::Delegate)
        pen = QPen(look.header, 3.0);
    if (isSelected())
        pen.setColor(attentionColour());
    if (look.dashed)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(fill);
    if (m_kind == core::NodeKind::Group) // a stack of boxes: many instructions behind this one
        painter->drawRoundedRect(box.translated(kStackOffset, kStackOffset), kRadius, kRadius);
    const double radius = look.rounded ? box.height() / 2 : kRadius;
    painter->drawRoundedRect(box, radius, radius);

    if (!m_subtitle.isEmpty() && header != fill && !look.rounded) {
        QPainterPath band;
        band.addRoundedRect(box, kRadius, kRadius);
        QPainterPath clip;
        clip.addRect(QRectF(box.left(), box.top(), box.width(), titleHeight));
        painter->setPen(Qt::NoPen);
        painter->setBrush(header);
        painter->drawPath(band.intersected(clip));
    }
    return radius;
}

void NodeItem::paintTexts(
    QPainter* painter, const QRectF& box, const QColor& fill, const QColor& header, double titleHeight) const
{
    const NodeLook& look = currentLook();
    const QColor titleColour
        = m_heat ? textOn(fill) : (header != fill && !m_subtitle.isEmpty() ? textOn(header) : look.text);
    painter->setPen(titleColour);
    painter->setFont(titleFont());
    QRectF titleRect(
        box.left() + 6, box.top() + 3, box.width() - 12 - (m_canExpand ? kButton + 2 : 0), titleHeight - 6);
    if (m_subtitle.isEmpty())
        titleRect = QRectF(box.left() + 6, box.top(), box.width() - 12 - (m_canExpand ? kButton + 2 : 0), box.height());
    painter->drawText(titleRect, Qt::AlignCenter, m_shownTitle);
    if (!m_subtitle.isEmpty()) {
        const bool value = m_heat && !m_heatLabel.isEmpty();
        painter->setFont(value ? m_heatFont : subtitleFont());
        painter->setPen(m_heat ? textOn(fill) : look.text);
        painter->drawText(
            QRectF(box.left() + 4, box.top() + titleHeight - 1, box.width() - 8, box.height() - titleHeight),
            Qt::AlignCenter, value ? m_heatText : m_subtitle);
    }
}

void NodeItem::paintFlag(QPainter* painter, const QRectF& box) const
{
    // Beyond the threshold: a mark in the corner, the colour of the tick on the colour bar.
    const QRectF flag(box.left() - 5, box.top() - 5, 12, 12);
    painter->setPen(QPen(Qt::white, 1.2));
    painter->setBrush(attentionColour());
    painter->drawEllipse(flag);
    painter->setFont(subtitleFont());
    painter->drawText(flag, Qt::AlignCenter, QStringLiteral("!"));
}

namespace {

/// A mark's ring around `box` and its badge astride the top edge, ending at `right` (a box's
/// and an open frame's).
void paintMarkOn(QPainter* painter, const NodeMark& mark, const QRectF& box, double radius, double right)
{
    painter->setPen(QPen(mark.colour, 3.0));
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(box.adjusted(-3, -3, 3, 3), radius + 3, radius + 3);
    if (mark.badge.isEmpty())
        return;
    const QFont subtitle = subtitleFont();
    painter->setFont(subtitle);
    const QFontMetricsF metrics(subtitle);
    const double width = std::max(metrics.height(), metrics.horizontalAdvance(mark.badge) + 8);
    const QRectF badge(right - width, box.top() - metrics.height() / 2 - 2, width, metrics.height() + 2);
    painter->setPen(Qt::NoPen);
    painter->setBrush(mark.colour);
    painter->drawRoundedRect(badge, badge.height() / 2, badge.height() / 2);
    painter->setPen(textOn(mark.colour));
    painter->drawText(badge, Qt::AlignCenter, mark.badge);
}

} // namespace

void NodeItem::paintMark(QPainter* painter, const QRectF& box, double radius) const
{
    // Left of the ⊞ button of a delegate or group, which it would hide.
    paintMarkOn(painter, *m_mark, box, radius, box.right() + 6 - (m_canExpand ? kButton + 8 : 0));
}

void NodeItem::paintExpandButton(QPainter* painter, const QColor& header) const
{
    const QRectF button = expandButtonRect();
    painter->setPen(QPen(textOn(header), 1.2));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(button);
    painter->drawLine(
        QPointF(button.left() + 3, button.center().y()), QPointF(button.right() - 3, button.center().y()));
    painter->drawLine(
        QPointF(button.center().x(), button.top() + 3), QPointF(button.center().x(), button.bottom() - 3));
}

EdgeItem::EdgeItem(
    const QPainterPath& path, QPointF arrowFrom, std::optional<QPointF> arrowTip, bool inferred, int index)
    : QGraphicsPathItem(path)
    , m_index(index)
    , m_inferred(inferred)
{
    setZValue(1);
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(true);
    if (arrowTip) {
        const QLineF line(*arrowTip, arrowFrom);
        const double length = std::max(line.length(), 0.001);
        const QPointF unit = (arrowFrom - *arrowTip) / length;
        const QPointF normal(-unit.y(), unit.x());
        const QPointF base = *arrowTip + unit * kArrowLength;
        m_arrow << *arrowTip << base + normal * kArrowWidth << base - normal * kArrowWidth;
    }
    // The stroke of shape() lies within half its width of the path's control points. Computed
    // here, not from shape(): QGraphicsPathItem::boundingRect strokes the whole path, and
    // centring the view on a node after a click asked that of every edge of the new scene
    // (about 9 ms of a click at 100k instructions, issue 27).
    m_bounds = path.controlPointRect()
                   .adjusted(-kEdgeHitWidth / 2, -kEdgeHitWidth / 2, kEdgeHitWidth / 2, kEdgeHitWidth / 2)
                   .united(m_arrow.boundingRect())
                   .adjusted(-2, -2, 2, 2);
}

QRectF EdgeItem::boundingRect() const
{
    return m_bounds;
}

QPainterPath EdgeItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(kEdgeHitWidth);
    return stroker.createStroke(path());
}

void EdgeItem::setEmphasised(bool on)
{
    if (m_emphasised == on)
        return;
    m_emphasised = on;
    setZValue(on ? 1.5 : 1);
    update();
}

namespace {

QFont wireLabelFont()
{
    // The subtitle font is sized in pixels (its point size is -1): scale whichever is set.
    QFont font = subtitleFont();
    if (font.pixelSize() > 0)
        font.setPixelSize(std::max(6, static_cast<int>(std::lround(font.pixelSize() * 0.85))));
    else if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.85);
    return font;
}

} // namespace

QSizeF EdgeItem::labelSize(const QString& text)
{
    const QFontMetricsF metrics(wireLabelFont());
    return { metrics.horizontalAdvance(text), metrics.height() };
}

void EdgeItem::setLabelVisible(const QString& text, bool visible)
{
    if (!visible) {
        if (m_label)
            m_label->hide();
        return;
    }
    if (text.isEmpty())
        return;
    // Beside the wire at its middle, never on top of it.
    const QPointF middle = path().pointAtPercent(0.5);
    setLabelAt(text, middle + QPointF(4, -labelSize(text).height() / 2));
}

void EdgeItem::setLabelAt(const QString& text, QPointF topLeft)
{
    if (!m_label) {
        m_label = new QGraphicsSimpleTextItem(text, this);
        m_label->setFont(wireLabelFont());
        m_label->setBrush(wireLabelColour(onDarkCanvas(*this)));
    }
    m_label->setText(text);
    m_label->setPos(mapFromScene(topLeft));
    m_label->show();
}

bool EdgeItem::labelVisible() const
{
    return m_label && m_label->isVisible();
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, lod > 0.3);
    const bool strong = m_emphasised || isSelected();
    const bool dark = onDarkCanvas(*this);
    const QColor colour = strong ? attentionColour() : wireColour(dark);
    // The label is a child item: it follows the theme when its wire is painted.
    if (m_label && m_label->isVisible() && m_label->brush().color() != wireLabelColour(dark))
        m_label->setBrush(wireLabelColour(dark));
    QPen pen(colour, isSelected() ? 3.0 : (m_emphasised ? 2.0 : 1.1));
    if (m_inferred)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
    if (!m_arrow.isEmpty()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        painter->drawPolygon(m_arrow);
    }
}

ClusterItem::ClusterItem(QRectF rect, QString title, QColor colour, core::NodeOrigin owner)
    : m_rect(rect)
    , m_title(std::move(title))
    , m_colour(std::move(colour))
    , m_owner(owner)
{
    setZValue(0);
    setToolTip(m_title); // the whole title, which a narrow frame shortens
    // Selectable by its title band (shape()), so an expanded delegate's facts can be read
    // (issue 38: once open, it could not be selected at all).
    setFlag(ItemIsSelectable);
}

QPainterPath ClusterItem::shape() const
{
    QPainterPath band;
    band.addRect(QRectF(m_rect.left(), m_rect.top(), m_rect.width(), kClusterTitleBand));
    return band;
}

QRectF ClusterItem::boundingRect() const
{
    // A mark's ring lies 3 px outside the frame and its badge half above the top edge.
    return m_mark ? m_rect.adjusted(-5, -14, 5, 5) : m_rect.adjusted(-1, -1, 1, 1);
}

void ClusterItem::setMark(std::optional<NodeMark> mark)
{
    if (sameMark(mark, m_mark))
        return;
    prepareGeometryChange();
    m_mark = std::move(mark);
    setToolTip(m_mark && !m_mark->tooltip.isEmpty() ? m_title + QLatin1Char('\n') + m_mark->tooltip : m_title);
    update();
}

QRectF ClusterItem::collapseButtonRect() const
{
    return QRectF(m_rect.right() - kButton - 6, m_rect.top() + 5, kButton, kButton);
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    // On the dark canvas the frame and its title are lighter than the colour, not darker.
    const bool dark = onDarkCanvas(*this);
    const QColor line = dark ? m_colour.lighter(150) : m_colour;
    const QColor ink = dark ? m_colour.lighter(180) : m_colour.darker(150);
    QColor fill = m_colour;
    fill.setAlpha(dark ? 40 : 28);
    painter->setPen(isSelected() && !isReportRendering(*this) ? QPen(attentionColour(), 2.5) : QPen(line, 1.5));
    painter->setBrush(fill);
    painter->drawRoundedRect(m_rect, 8, 8);
    painter->setPen(ink);
    QFont font = titleFont();
    painter->setFont(font);
    // Shortened with "…" when the frame is narrower than its title (a one-box delegate's frame
    // cut "XnnpackBackend #0 · 3 nodes" to "XnnpackBackend #0 ·"); the tooltip has it whole.
    const QRectF titleRect(m_rect.left() + 8, m_rect.top() + 3, m_rect.width() - kButton - 20, 20);
    painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(font).elidedText(m_title, Qt::ElideRight, titleRect.width()));
    if (m_mark) // left of the ⊟ button, as on the closed box
        paintMarkOn(painter, *m_mark, m_rect, 8, m_rect.right() + 6 - (kButton + 8));
    if (isReportRendering(*this))
        return;
    const QRectF button = collapseButtonRect();
    painter->setPen(QPen(m_colour.darker(150), 1.2));
    painter->setBrush(Qt::white); // the button is a light box on both canvases
    painter->drawRect(button);
    painter->drawLine(
        QPointF(button.left() + 3, button.center().y()), QPointF(button.right() - 3, button.center().y()));
}

} // namespace etscope::ui
