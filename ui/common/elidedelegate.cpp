// SPDX-License-Identifier: MIT
#include "ui/common/elidedelegate.h"

#include "ui/common/elide.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QToolTip>

namespace etscope::ui {

namespace {

/// Past this many siblings the names are shortened one by one (a million-row heat table would
/// otherwise hold every name twice).
constexpr int kMaxSiblings = 20000;

} // namespace

std::pair<int, int> DistinctNameDelegate::partOf(const QModelIndex& index) const
{
    const QString text = index.data(Qt::DisplayRole).toString();
    const QAbstractItemModel* model = index.model();
    const QModelIndex parent = index.parent();
    const int rows = model->rowCount(parent);
    if (rows > kMaxSiblings)
        return { 0, static_cast<int>(text.size()) };
    Siblings& siblings = m_cache[{ QPersistentModelIndex(parent), index.column() }];
    // Still the same rows with the same texts where it matters: the count and this row.
    if (siblings.names.size() != rows || siblings.names[index.row()] != text) {
        siblings.names.clear();
        siblings.names.reserve(rows);
        for (int row = 0; row < rows; ++row)
            siblings.names << model->index(row, index.column(), parent).data(Qt::DisplayRole).toString();
        siblings.parts = distinctParts(siblings.names);
    }
    return siblings.parts[static_cast<std::size_t>(index.row())];
}

int DistinctNameDelegate::textMargin(const QWidget* widget) const
{
    const QStyle* style = widget ? widget->style() : QApplication::style();
    return 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1);
}

QString DistinctNameDelegate::shownText(const QModelIndex& index, const QFont& font, int width) const
{
    const QString text = index.data(Qt::DisplayRole).toString();
    return elideAroundToWidth(text, partOf(index), QFontMetricsF(font), width);
}

void DistinctNameDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem item(option);
    initStyleOption(&item, index);
    const QStyle* style = item.widget ? item.widget->style() : QApplication::style();
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, item.widget);
    item.text = shownText(index, item.font, textRect.width() - textMargin(item.widget));
    item.textElideMode = Qt::ElideNone;
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, item.widget);
}

bool DistinctNameDelegate::helpEvent(
    QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option, const QModelIndex& index)
{
    if (event->type() != QEvent::ToolTip || !index.isValid())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    QStyleOptionViewItem item(option);
    initStyleOption(&item, index);
    const QStyle* style = item.widget ? item.widget->style() : QApplication::style();
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &item, item.widget);
    const QString text = index.data(Qt::DisplayRole).toString();
    const QString shown = shownText(index, item.font, textRect.width() - textMargin(item.widget));
    if (shown == text)
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    // Shortened: the whole name first, then what the model says about it.
    QString tip = text;
    const QString own = index.data(Qt::ToolTipRole).toString();
    if (!own.isEmpty() && own != text)
        tip += QLatin1Char('\n') + (own.startsWith(text) ? own.mid(text.size()).trimmed() : own);
    QToolTip::showText(event->globalPos(), tip, view);
    return true;
}

} // namespace etscope::ui
