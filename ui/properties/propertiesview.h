// SPDX-License-Identifier: MIT
#pragma once

#include <QTreeView>

namespace etscope::ui {

/// The properties panel: a two-column tree (key, value) in which the value column always keeps
/// room. The key column fits its keys up to a share of the width (then keys elide in the
/// middle, the full key in the tooltip); the user may drag it wider, never over the values.
/// Values elide at the right. Ctrl+C copies the selected rows as "key<TAB>value" lines; the
/// context menu copies a value, a key, the selected rows or everything.
class PropertiesView final : public QTreeView {
    Q_OBJECT
public:
    /// The key column takes at most this share of the viewport unless the user drags it.
    static constexpr double kMaxKeyShare = 0.55;
    /// Pixels the value column keeps whatever the user drags.
    static constexpr int kMinValueWidth = 120;
    /// Fitted (not dragged) keys leave the values at least this much where the pane allows it.
    static constexpr int kFittedValueWidth = 200;
    /// Fitted keys up to this wide stay whole whenever the values keep kMinValueWidth (the
    /// file's and method's facts, "extended header" two levels in).
    static constexpr int kShortKeyWidth = 160;

    explicit PropertiesView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model) override;

    /// One line per row in tree order: "key<TAB>value", or the key alone for a group heading.
    QString rowsText(const QModelIndexList& rows) const;
    QString selectedRowsText() const;
    QString allRowsText() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Rows in tree order (depth first), `onlySelected` keeping the selected ones.
    QModelIndexList rowsInOrder(bool onlySelected) const;
    void refit();

    int m_userKeyWidth = -1; ///< the width the user dragged the key column to, -1 for none
    bool m_fitting = false;
};

} // namespace etscope::ui
