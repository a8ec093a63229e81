// SPDX-License-Identifier: MIT
#include "ui/properties/propertiesview.h"

#include "ui/common/elidedelegate.h"
#include "ui/properties/propertiesmodel.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QStyledItemDelegate>

#include <algorithm>

namespace etscope::ui {

namespace {

void copyText(const QString& text)
{
    if (QClipboard* clipboard = QGuiApplication::clipboard())
        clipboard->setText(text);
}

} // namespace

PropertiesView::PropertiesView(QWidget* parent)
    : QTreeView(parent)
{
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setTextElideMode(Qt::ElideRight);
    // Keys that do not fit keep what tells them from their siblings (~250 Core ML
    // "debug symbol …_fp16:const" keys, QNN compile spec keys), the whole key in the tooltip.
    setItemDelegateForColumn(0, new DistinctNameDelegate(this));
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    header()->setMinimumSectionSize(40);
    connect(header(), &QHeaderView::sectionResized, this, [this](int section, int, int size) {
        if (section != 0 || m_fitting)
            return;
        m_userKeyWidth = size;
        if (size > viewport()->width() - kMinValueWidth)
            refit();
    });
}

void PropertiesView::setModel(QAbstractItemModel* model)
{
    if (QAbstractItemModel* old = this->model())
        disconnect(old, nullptr, this, nullptr);
    QTreeView::setModel(model);
    if (!model)
        return;
    header()->setSectionResizeMode(QHeaderView::Interactive);
    // A properties model filling its tree says when it is done: fitted once then.
    auto* properties = qobject_cast<PropertiesModel*>(model);
    const auto changed = [this, properties] {
        if (properties && properties->filling())
            return;
        expandAll();
        refit();
    };
    connect(model, &QAbstractItemModel::modelReset, this, changed);
    connect(model, &QAbstractItemModel::rowsInserted, this, changed);
    if (properties)
        connect(properties, &PropertiesModel::filled, this, changed);
    connect(model, &QAbstractItemModel::dataChanged, this, [this] { refit(); });
    changed();
}

void PropertiesView::refit()
{
    if (!model() || model()->columnCount() < 2)
        return;
    const int available = viewport()->width();
    int width = 0;
    if (m_userKeyWidth >= 0)
        width = std::min(m_userKeyWidth, available - kMinValueWidth);
    else
        // Values keep kFittedValueWidth where the pane allows it, but never by eliding keys of
        // up to kShortKeyWidth (in a 1024 px window that rule elided "identifier" and
        // "segments" to "ide…ier" and "se…nts", to give room to values elided anyway).
        width = std::min({ sizeHintForColumn(0), static_cast<int>(available * kMaxKeyShare),
            std::max(available - kFittedValueWidth, kShortKeyWidth), available - kMinValueWidth });
    width = std::max(width, header()->minimumSectionSize());
    if (width == header()->sectionSize(0))
        return;
    m_fitting = true;
    setColumnWidth(0, width);
    m_fitting = false;
}

void PropertiesView::resizeEvent(QResizeEvent* event)
{
    QTreeView::resizeEvent(event);
    refit();
}

QModelIndexList PropertiesView::rowsInOrder(bool onlySelected) const
{
    QModelIndexList rows;
    if (!model())
        return rows;
    const QItemSelectionModel* selection = selectionModel();
    const auto walk = [&](const auto& self, const QModelIndex& parent) -> void {
        for (int row = 0; row < model()->rowCount(parent); ++row) {
            const QModelIndex index = model()->index(row, 0, parent);
            if (!onlySelected || (selection && selection->isRowSelected(row, parent)))
                rows.append(index);
            self(self, index);
        }
    };
    walk(walk, QModelIndex());
    return rows;
}

QString PropertiesView::rowsText(const QModelIndexList& rows) const
{
    QStringList lines;
    for (const QModelIndex& index : rows) {
        const QString key = index.siblingAtColumn(0).data().toString();
        const QString value = index.siblingAtColumn(1).data().toString();
        const bool heading = value.isEmpty() && model()->hasChildren(index.siblingAtColumn(0));
        lines << (heading ? key : key + QLatin1Char('\t') + value);
    }
    return lines.join(QLatin1Char('\n'));
}

QString PropertiesView::selectedRowsText() const
{
    return rowsText(rowsInOrder(true));
}

QString PropertiesView::allRowsText() const
{
    return rowsText(rowsInOrder(false));
}

void PropertiesView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copyText(selectedRowsText());
        event->accept();
        return;
    }
    QTreeView::keyPressEvent(event);
}

void PropertiesView::contextMenuEvent(QContextMenuEvent* event)
{
    const QModelIndex index = indexAt(viewport()->mapFrom(this, event->pos()));
    QMenu menu(this);
    QAction* copyValue = menu.addAction(tr("Copy value"));
    QAction* copyKey = menu.addAction(tr("Copy key"));
    QAction* copyRows = menu.addAction(tr("Copy row(s)"));
    copyRows->setShortcut(QKeySequence::Copy);
    menu.addSeparator();
    QAction* copyAll = menu.addAction(tr("Copy all"));
    copyValue->setEnabled(index.isValid());
    copyKey->setEnabled(index.isValid());
    copyRows->setEnabled(selectionModel() && selectionModel()->hasSelection());
    copyAll->setEnabled(model() && model()->rowCount() > 0);
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == copyValue)
        copyText(index.siblingAtColumn(1).data().toString());
    else if (chosen == copyKey)
        copyText(index.siblingAtColumn(0).data().toString());
    else if (chosen == copyRows)
        copyText(selectedRowsText());
    else if (chosen == copyAll)
        copyText(allRowsText());
}

} // namespace etscope::ui
