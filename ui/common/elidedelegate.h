// SPDX-License-Identifier: MIT
#pragma once

#include <QPersistentModelIndex>
#include <QStringList>
#include <QStyledItemDelegate>

#include <map>
#include <utility>
#include <vector>

namespace etscope::ui {

/// Paints a column of names so that names shown together stay told apart: a name too long for
/// its cell keeps the part that differs from its siblings (same parent, same column, as the
/// view's model has them: filtered and sorted) and loses what they share ("…layer1…fp16:const"
/// beside "…layer2…fp16:const", never two identical "debug symbol…o_fp16:const"). A shortened
/// name shows the whole text in its tooltip (above the model's own tooltip).
class DistinctNameDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    /// The text as painted in a cell `width` pixels wide (margins included).
    QString shownText(const QModelIndex& index, const QFont& font, int width) const;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
        const QModelIndex& index) override;

private:
    /// The siblings' distinct parts, recomputed when the parent's rows or their texts change.
    struct Siblings {
        QStringList names;
        std::vector<std::pair<int, int>> parts;
    };
    std::pair<int, int> partOf(const QModelIndex& index) const;
    int textMargin(const QWidget* widget) const;

    mutable std::map<std::pair<QPersistentModelIndex, int>, Siblings> m_cache;
};

} // namespace etscope::ui
