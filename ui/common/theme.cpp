// SPDX-License-Identifier: MIT
#include "ui/common/theme.h"

#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

#include <memory>

namespace etscope::ui {

namespace {

const char* const kThemeKey = "theme";
const QString kFusion = QStringLiteral("Fusion");

/// What the platform gave before the first theme was applied.
struct Platform {
    QString style;
    QPalette palette;
};

std::optional<Platform>& platform()
{
    static std::optional<Platform> saved;
    return saved;
}

Theme& current()
{
    static Theme theme = Theme::System;
    return theme;
}

} // namespace

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

std::optional<Theme> themeFromName(const QString& name)
{
    for (const Theme theme : { Theme::System, Theme::Light, Theme::Dark })
        if (name.compare(themeName(theme), Qt::CaseInsensitive) == 0)
            return theme;
    return std::nullopt;
}

Theme savedTheme()
{
    return themeFromName(QSettings().value(QLatin1String(kThemeKey)).toString()).value_or(Theme::System);
}

void saveTheme(Theme theme)
{
    QSettings().setValue(QLatin1String(kThemeKey), themeName(theme));
}

QPalette darkPalette()
{
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe4, 0xe6, 0xeb);
    const QColor disabledText(0x7f, 0x83, 0x8a);
    const QColor button(0x38, 0x3a, 0x40);
    const QColor highlight(0x2f, 0x6f, 0xc9);

    QPalette palette(button, window);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    palette.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, disabledText);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, button);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    palette.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x53));
    palette.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x49));
    palette.setColor(QPalette::Mid, QColor(0x24, 0x26, 0x29));
    palette.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1e));
    palette.setColor(QPalette::Shadow, QColor(0x0d, 0x0d, 0x0f));
    palette.setColor(QPalette::Highlight, highlight);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x6c, 0xb8, 0xf0));
    palette.setColor(QPalette::LinkVisited, QColor(0xd0, 0x8c, 0xb8));
    for (const QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        palette.setColor(QPalette::Disabled, role, disabledText);
    palette.setColor(QPalette::Disabled, QPalette::Base, window);
    palette.setColor(QPalette::Disabled, QPalette::Button, QColor(0x30, 0x32, 0x36));
    palette.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4a, 0x4d, 0x53));
    palette.setColor(QPalette::Inactive, QPalette::Highlight, QColor(0x3a, 0x55, 0x80));
    return palette;
}

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

QColor canvasColour(const QPalette& palette, bool minimap)
{
    if (isDark(palette))
        return minimap ? QColor(0x2b, 0x2f, 0x36) : QColor(0x1f, 0x22, 0x27);
    return minimap ? QColor(0xf1, 0xf3, 0xf5) : QColor(0xfb, 0xfb, 0xfc);
}

WarningColours warningColours(const QPalette& palette)
{
    if (isDark(palette))
        return { QColor(0x4a, 0x3b, 0x10), QColor(0xb3, 0x8f, 0x00) };
    return { QColor(0xff, 0xf4, 0xd6), QColor(0xe6, 0xb8, 0x00) };
}

void applyTheme(Theme theme)
{
    if (!platform())
        platform() = Platform { QApplication::style()->name(), QApplication::palette() };
    current() = theme;
    switch (theme) {
    case Theme::System:
        QApplication::setStyle(platform()->style);
        QApplication::setPalette(platform()->palette);
        return;
    case Theme::Light:
        QApplication::setStyle(kFusion);
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    case Theme::Dark:
        QApplication::setStyle(kFusion);
        QApplication::setPalette(darkPalette());
        return;
    }
}

Theme currentTheme()
{
    return current();
}

} // namespace etscope::ui
