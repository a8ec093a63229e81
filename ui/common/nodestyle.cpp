// SPDX-License-Identifier: MIT
#include "ui/common/nodestyle.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>

namespace etscope::ui {

namespace {

/// `colour` mixed with white: `amount` 0 keeps it, 1 gives white. lighter() would saturate
/// bright hues into neon.
QColor tint(const QColor& colour, double amount)
{
    return QColor::fromRgbF(static_cast<float>(colour.redF() + (1 - colour.redF()) * amount),
        static_cast<float>(colour.greenF() + (1 - colour.greenF()) * amount),
        static_cast<float>(colour.blueF() + (1 - colour.blueF()) * amount));
}

// Okabe–Ito.
const QColor kOrange(0xE6, 0x9F, 0x00);
const QColor kSkyBlue(0x56, 0xB4, 0xE9);
const QColor kGreen(0x00, 0x9E, 0x73);
const QColor kYellow(0xF0, 0xE4, 0x42);
const QColor kBlue(0x00, 0x72, 0xB2);
const QColor kVermillion(0xD5, 0x5E, 0x00);
const QColor kPurple(0xCC, 0x79, 0xA7);

} // namespace

QColor attentionColour()
{
    return kVermillion;
}

QColor problemColour()
{
    return QColor(0xB3, 0x26, 0x1E);
}

QColor divergenceColour()
{
    return QColor(0xC8, 0x1E, 0x96);
}

QColor backendColour(const QString& backendId)
{
    static const QHash<QString, QColor> known {
        { QStringLiteral("XnnpackBackend"), kBlue },
        { QStringLiteral("VulkanBackend"), kVermillion },
        { QStringLiteral("CoreMLBackend"), kPurple },
        { QStringLiteral("QnnBackend"), kOrange },
        { QStringLiteral("EthosUBackend"), kGreen },
        { QStringLiteral("VgfBackend"), QColor(0x00, 0x7A, 0x5E) },
        { QStringLiteral("OpenvinoBackend"), kSkyBlue },
        { QStringLiteral("MPSBackend"), QColor(0xB8, 0xA8, 0x00) },
    };
    if (const auto it = known.find(backendId); it != known.end())
        return *it;
    static const std::array<QColor, 6> palette { kOrange, kSkyBlue, kGreen, kVermillion, kPurple, kBlue };
    return palette[qHash(backendId) % palette.size()].darker(115);
}

NodeLook lookFor(const core::Node& node)
{
    using core::NodeKind;
    NodeLook look;
    look.text = QColor(0x1f, 0x23, 0x28);
    look.fill = QColor(0xff, 0xff, 0xff);
    look.border = QColor(0x6b, 0x72, 0x80);
    switch (node.kind) {
    case NodeKind::Operator:
        look.header = QColor(0xe5, 0xe9, 0xf0);
        break;
    case NodeKind::Delegate: {
        const QColor colour = backendColour(QString::fromStdString(node.label));
        look.header = colour;
        look.fill = tint(colour, 0.78);
        look.border = colour.darker(130);
        break;
    }
    case NodeKind::Input:
    case NodeKind::Output:
        look.fill = QColor(0xe3, 0xf4, 0xea);
        look.header = look.fill;
        look.border = kGreen.darker(120);
        look.rounded = true;
        break;
    case NodeKind::Constant:
    case NodeKind::State:
        look.fill = QColor(0xf4, 0xf4, 0xf5);
        look.header = look.fill;
        look.border = QColor(0xa1, 0xa1, 0xaa);
        look.text = QColor(0x52, 0x52, 0x5b);
        if (node.kind == NodeKind::State)
            look.border = kOrange.darker(120);
        break;
    case NodeKind::View:
        look.fill = QColor(0xfa, 0xfa, 0xfa);
        look.header = look.fill;
        look.dashed = true;
        break;
    case NodeKind::Move:
    case NodeKind::JumpFalse:
    case NodeKind::Free:
        look.fill = QColor(0xf6, 0xe8, 0xf1);
        look.header = look.fill;
        look.border = kPurple.darker(140);
        break;
    case NodeKind::Unknown:
        look.fill = QColor(0xfe, 0xf2, 0xf2);
        look.header = look.fill;
        look.border = kVermillion;
        look.dashed = true;
        break;
    case NodeKind::Group:
        // A closed run of instructions: a stack of boxes, neutral so delegates keep the colour.
        look.fill = QColor(0xee, 0xf1, 0xf6);
        look.header = QColor(0xd5, 0xdc, 0xe8);
        look.border = QColor(0x47, 0x55, 0x69);
        break;
    }
    return look;
}

NodeLook darkLook(const NodeLook& light)
{
    // Issue 38: in the dark theme the boxes stayed white on the dark canvas. Each colour keeps
    // its hue and, toned down, its saturation, so a kind and a backend read the same in both
    // themes: near-white fills become dark greys (a tinted delegate fill a dark tint of its
    // backend), light title bands a step lighter than their fill, saturated bands (a delegate's
    // backend colour) stay as they are, dark borders and text turn light.
    const auto darkFill = [](const QColor& c, double lightness) {
        return QColor::fromHslF(
            std::max(0.0F, c.hslHueF()), std::min(0.45F, c.hslSaturationF()), static_cast<float>(lightness));
    };
    NodeLook look = light;
    look.fill = darkFill(light.fill, 0.17 + 0.06 * (1.0 - light.fill.lightnessF()));
    if (light.header == light.fill)
        look.header = look.fill;
    else if (light.header.lightnessF() > 0.75)
        look.header = darkFill(light.header, look.fill.lightnessF() + 0.08);
    if (light.border.lightnessF() < 0.6)
        look.border = QColor::fromHslF(std::max(0.0F, light.border.hslHueF()), light.border.hslSaturationF(),
            std::max(0.6F, 1.0F - light.border.lightnessF()));
    // Muted text (constants) stays a step below the primary text.
    look.text = light.text.lightnessF() > 0.25 ? QColor(0xb4, 0xbb, 0xc6) : QColor(0xe6, 0xe9, 0xee);
    return look;
}

QFont titleFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    font.setBold(true);
    return font;
}

QFont subtitleFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(10);
    return font;
}

QColor nanColour()
{
    return QColor(0xcc, 0x79, 0xa7); // Okabe–Ito reddish purple: apart from viridis and the vermillion flag
}

QColor rampColour(double t)
{
    // Viridis, sampled at five stops and interpolated.
    static const std::array<QColor, 5> stops { QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
        QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25) };
    if (!std::isfinite(t))
        return nanColour();
    t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
    const auto i = static_cast<std::size_t>(std::min<double>(std::floor(t), stops.size() - 2));
    const double f = t - static_cast<double>(i);
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
        static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
        static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

} // namespace etscope::ui
