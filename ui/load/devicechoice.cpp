// SPDX-License-Identifier: MIT
// The device picker's memory per document (devicechoice.h).
#include "ui/load/devicechoice.h"

#include <QFileInfo>
#include <QSettings>
#include <QStringList>
#include <QVariantMap>

namespace etscope::ui {

namespace {

constexpr const char* kMapKey = "deviceCheck/byDocument";
constexpr const char* kOrderKey = "deviceCheck/order"; ///< paths, the most recently chosen last

QString keyOf(const QString& path)
{
    return path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
}

} // namespace

QString rememberedDevice(const QString& path)
{
    const QString key = keyOf(path);
    if (key.isEmpty())
        return {};
    return QSettings().value(QLatin1String(kMapKey)).toMap().value(key).toString();
}

void rememberDevice(const QString& path, const QString& id)
{
    const QString key = keyOf(path);
    if (key.isEmpty())
        return;
    QSettings settings;
    QVariantMap map = settings.value(QLatin1String(kMapKey)).toMap();
    QStringList order = settings.value(QLatin1String(kOrderKey)).toStringList();
    order.removeAll(key);
    if (id.isEmpty()) {
        map.remove(key);
    } else {
        map.insert(key, id);
        order << key;
    }
    while (order.size() > kRememberedDevices)
        map.remove(order.takeFirst());
    settings.setValue(QLatin1String(kMapKey), map);
    settings.setValue(QLatin1String(kOrderKey), order);
}

} // namespace etscope::ui
