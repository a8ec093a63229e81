// SPDX-License-Identifier: MIT
#include "ui/window/shortcutsdialog.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace etscope::ui {

namespace {

QString plain(QString text)
{
    text.remove(QLatin1Char('&'));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

void collect(const QMenu& menu, const QString& path, QList<QPair<QString, QString>>& rows, std::set<QString>& keys)
{
    for (QAction* action : menu.actions()) {
        if (action->menu()) {
            collect(*action->menu(), path + plain(action->text()) + QStringLiteral(" › "), rows, keys);
            continue;
        }
        QStringList shortcuts;
        for (const QKeySequence& key : action->shortcuts())
            shortcuts << key.toString(QKeySequence::NativeText);
        const QString key = shortcuts.join(QStringLiteral(", "));
        // A key already listed for an earlier action is not listed again.
        if (key.isEmpty() || !keys.insert(key).second)
            continue;
        rows.append({ path + plain(action->text()), key });
    }
}

} // namespace

QList<QPair<QString, QString>> shortcutRows(const QMenuBar& menus)
{
    QList<QPair<QString, QString>> rows;
    std::set<QString> keys;
    for (QAction* action : menus.actions())
        if (action->menu())
            collect(*action->menu(), plain(action->text()) + QStringLiteral(" › "), rows, keys);
    const QPair<QString, QString> gestures[] = {
        { QObject::tr("Next / previous node of the op type selected in the table"), QStringLiteral("F3, Shift+F3") },
        { QObject::tr("Next search hit"), QObject::tr("Enter in the search box") },
        { QObject::tr("Zoom (at the pointer)"), QObject::tr("Ctrl+wheel, or pinch") },
        { QObject::tr("Pan"), QObject::tr("drag the background; wheel (up/down), Shift+wheel (sideways)") },
        { QObject::tr("Expand or collapse a delegate in place"), QObject::tr("click its ± button") },
        { QObject::tr("Open a delegate's lowered graph in a tab"), QObject::tr("double-click the delegate") },
        { QObject::tr("Open or attach files"), QObject::tr("drop them on the window") },
    };
    for (const auto& gesture : gestures)
        rows.append(gesture);
    return rows;
}

void showShortcutsDialog(QWidget* parent, const QMenuBar& menus)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Keyboard shortcuts"));
    const auto rows = shortcutRows(menus);
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2, &dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({ QObject::tr("Action"), QObject::tr("Shortcut") });
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    for (int r = 0; r < rows.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    // As large as the table's text, within the screen.
    const int width = table->horizontalHeader()->length() + table->frameWidth() * 2 + 40;
    const int height = table->verticalHeader()->length() + table->horizontalHeader()->height() + 90;
    const QRect screen
        = (parent && parent->screen() ? parent->screen() : QGuiApplication::primaryScreen())->availableGeometry();
    dialog.resize(std::min(width, screen.width() * 9 / 10), std::min(height, screen.height() * 9 / 10));
    dialog.exec();
}

} // namespace etscope::ui
