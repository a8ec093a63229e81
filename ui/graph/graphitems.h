// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "ui/common/nodestyle.h"

#include <QFont>
#include <QGraphicsItem>
#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>

#include <optional>

namespace etscope::ui {

/// A mark an analysis puts on a node (a missing kernel, a difference between two programs): a
/// ring in `colour` around the box and a short `badge` on its top-right corner. Marks are part
/// of exported pictures: they are what the picture is about.
struct NodeMark {
    QColor colour;
    QString badge; ///< a few characters ("✕", "+", "Δ"), empty for the ring alone
    QString tooltip; ///< why, shown when hovering the node
    /// When the mark is about the node's name (Compare: its operator beside its partner's), the
    /// whole title and the part of it that tells the two apart (distinctParts of the pair): a
    /// title too long for its box keeps that part (elideAround). Empty: the title as laid out.
    QString name;
    std::pair<int, int> namePart { 0, 0 };
};

/// One box of the graph. Paints itself from plain data (title, subtitle, look); knows its
/// node reference in method coordinates.
class NodeItem : public QGraphicsItem {
public:
    NodeItem(const core::Node& node, core::NodeOrigin origin, QString title, QString subtitle, QSizeF size);

    enum { Type = UserType + 1 };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    /// The box itself, in item coordinates (the bounding rectangle adds the room of the marks).
    QRectF boxRect() const { return { -m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height() }; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    const core::NodeOrigin& origin() const { return m_origin; }
    core::NodeKind kind() const { return m_kind; }
    bool canExpand() const { return m_canExpand; }
    /// The small ⊕ square of a decodable delegate or a closed group, in item coordinates.
    QRectF expandButtonRect() const;

    void setHighlighted(bool on);
    bool highlighted() const { return m_highlighted; }
    /// A heat value in [0, 1] painted as the fill, or nullopt for none; `label` (the value) shown
    /// in place of the subtitle, never clipped; `flagged` marks a value beyond the threshold.
    void setHeat(std::optional<double> value, const QString& label = {}, bool flagged = false);
    bool flagged() const { return m_flagged; }
    void setMark(std::optional<NodeMark> mark);
    const std::optional<NodeMark>& mark() const { return m_mark; }
    /// The title as drawn: the presentation's, or the mark's name kept apart from its partner's.
    const QString& shownTitle() const { return m_shownTitle; }
    const QString& heatLabel() const { return m_heatLabel; }
    /// The font the heat label is drawn with: the subtitle's, made smaller until it fits.
    const QFont& heatLabelFont() const { return m_heatFont; }
    /// A small "?" in the box's bottom-right corner saying there is an answer worth reading
    /// about the node (why it stayed on the CPU: a failing constraint or a logged reason);
    /// `text` is that answer in one line (its tooltip), empty for none.
    void setNote(const QString& text);
    bool hasNote() const { return !m_note.isEmpty(); }
    const QString& note() const { return m_note; }
    /// The note's circle, in item coordinates (inside the box).
    QRectF noteRect() const;

private:
    /// The highlight behind, the box (a stack for a group) with its border, and the header band;
    /// returns the box's corner radius.
    double paintBox(
        QPainter* painter, const QRectF& box, const QColor& fill, const QColor& header, double titleHeight) const;
    /// The title, and the subtitle (or the heat value) under it.
    void paintTexts(
        QPainter* painter, const QRectF& box, const QColor& fill, const QColor& header, double titleHeight) const;
    /// The "!" in the corner of a node beyond the heat threshold.
    void paintFlag(QPainter* painter, const QRectF& box) const;
    /// The mark's ring around the box and its badge.
    void paintMark(QPainter* painter, const QRectF& box, double radius) const;
    /// The ⊞ button of a delegate or group.
    void paintExpandButton(QPainter* painter, const QColor& header) const;
    /// The note's "?" (setNote).
    void paintNote(QPainter* painter, const QColor& fill) const;
    /// Keeps the node's own tooltip before a mark or a note is added to it.
    void rememberPlainToolTip();
    /// The node's own tooltip, then the mark's reason and the note.
    void updateToolTip();
    /// The look for the canvas it is on: light, or dark in a dark theme (never in a report).
    const NodeLook& currentLook() const;

    core::NodeOrigin m_origin;
    core::NodeKind m_kind;
    NodeLook m_look;
    NodeLook m_darkLook; ///< on the dark canvas of a dark theme
    QString m_title;
    QString m_shownTitle; ///< m_title, or the mark's name shortened around its part
    QString m_subtitle;
    QSizeF m_size;
    bool m_canExpand = false;
    bool m_highlighted = false;
    std::optional<double> m_heat;
    QString m_heatLabel;
    bool m_flagged = false;
    QFont m_heatFont; ///< chosen when the label is set, not at every paint
    QString m_heatText; ///< the label as drawn (only shortened when even the smallest type is too wide)
    std::optional<NodeMark> m_mark;
    double m_badgeWidth = 0; ///< of the mark's badge, 0 without one
    QString m_note; ///< setNote's text, empty for none
    QString m_plainToolTip; ///< the tooltip without the mark's reason
};

/// One data-flow edge drawn as the Bézier Graphviz computed, with an arrow head.
class EdgeItem : public QGraphicsPathItem {
public:
    EdgeItem(const QPainterPath& path, QPointF arrowFrom, std::optional<QPointF> arrowTip, bool inferred, int index);
    int index() const { return m_index; } ///< edge index in the presentation's flat graph

    enum { Type = UserType + 2 };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    void setEmphasised(bool on);
    /// The tensor's type and shape written on the wire, halfway along it (created when first
    /// shown: a large graph does not pay for labels nobody turned on).
    void setLabelVisible(const QString& text, bool visible);
    /// The same at `topLeft` (scene coordinates): GraphScene places labels so none overlap.
    void setLabelAt(const QString& text, QPointF topLeft);
    /// The size the label takes with `text` (its font), without showing it.
    static QSizeF labelSize(const QString& text);
    bool labelVisible() const;

private:
    QGraphicsSimpleTextItem* m_label = nullptr;
    QPolygonF m_arrow;
    QRectF m_bounds; ///< the path's control points, the hit width and the arrow
    int m_index = -1;
    bool m_inferred = false;
    bool m_emphasised = false;
};

/// An expanded delegate or an open group: a tinted rectangle with its title and a collapse button.
class ClusterItem : public QGraphicsItem {
public:
    /// `owner`: the delegate node ({top, none}) or the group (NodeOrigin::ofGroup) drawn open.
    ClusterItem(QRectF rect, QString title, QColor colour, core::NodeOrigin owner);

    enum { Type = UserType + 3 };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    /// The title band: where a click selects the delegate or group drawn open (its facts go to
    /// Properties, as its closed box's do); the rest of the frame lets clicks through to the canvas.
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    const core::NodeOrigin& owner() const { return m_owner; }
    QRectF collapseButtonRect() const;
    /// The mark of the delegate or group drawn open here (Compare's Δ, the load check's ✕): the
    /// same ring and badge its closed box has, on the frame; nullopt clears it.
    void setMark(std::optional<NodeMark> mark);
    const std::optional<NodeMark>& mark() const { return m_mark; }

private:
    QRectF m_rect;
    QString m_title;
    QColor m_colour;
    core::NodeOrigin m_owner;
    std::optional<NodeMark> m_mark;
};

} // namespace etscope::ui
