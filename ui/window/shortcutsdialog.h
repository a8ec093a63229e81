// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QPair>
#include <QString>

class QMenuBar;
class QWidget;

namespace etscope::ui {

/// Every shortcut of the menus (menu › action, key) followed by the mouse and panel gestures,
/// in menu order: what Help › Keyboard Shortcuts lists.
QList<QPair<QString, QString>> shortcutRows(const QMenuBar& menus);

/// A dialog with those rows in a two-column table sized to its text.
void showShortcutsDialog(QWidget* parent, const QMenuBar& menus);

} // namespace etscope::ui
