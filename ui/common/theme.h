// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

#include <optional>

namespace etscope::ui {

/// The look of the application: the platform's palette and style (System), or Fusion with a
/// light or a dark palette. Qt 6.4 cannot ask the platform for a colour scheme, so Light and
/// Dark replace the application palette; widgets that draw their own colours take them from
/// their palette (or from the helpers below) and repaint on QEvent::PaletteChange.
enum class Theme { System, Light, Dark };

/// "system", "light", "dark" (the settings value and the --theme argument).
QString themeName(Theme theme);
std::optional<Theme> themeFromName(const QString& name);

/// The theme saved in QSettings (System when none or unknown).
Theme savedTheme();
void saveTheme(Theme theme);

/// Applies `theme` to the running application (style and palette); the first call remembers
/// the platform's style and palette so that System can come back to them.
void applyTheme(Theme theme);
/// The theme last applied (System before any).
Theme currentTheme();

/// The dark palette Dark applies (Fusion's roles, dark greys, blue highlight).
QPalette darkPalette();
/// True when `palette` draws light text on dark windows.
bool isDark(const QPalette& palette);

/// The graph canvas: near-white in a light theme, dark grey in a dark one (the nodes keep their
/// light fills, as Netron's dark mode does; wires, their labels and cluster titles turn light).
/// Exported pictures stay white in every theme. `minimap` gives the minimap's own shade.
QColor canvasColour(const QPalette& palette, bool minimap = false);

/// Colours of a warning strip that fit `palette` (amber on light, dark amber on dark).
struct WarningColours {
    QColor background;
    QColor border;
};
WarningColours warningColours(const QPalette& palette);

} // namespace etscope::ui
