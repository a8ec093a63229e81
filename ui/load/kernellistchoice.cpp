// SPDX-License-Identifier: MIT
#include "ui/load/kernellistchoice.h"

#include "core/document/document.h"

#include <QCoreApplication>
#include <QSettings>

namespace etscope::ui {

using namespace etscope::core;

namespace {

const char* const kAutomaticKey = "kernelCheck/automatic";
const char* const kBuiltinsKey = "kernelCheck/builtins";
const char* const kFilesKey = "kernelCheck/files";
const char* const kFilesOffKey = "kernelCheck/filesOff";

} // namespace

KernelListChoice& KernelListChoice::instance()
{
    static KernelListChoice* choice = new KernelListChoice(QCoreApplication::instance());
    return *choice;
}

KernelListChoice::KernelListChoice(QObject* parent)
    : QObject(parent)
{
    const QSettings settings;
    // Absent before automatic existed: the portable lists saved then were no choice of the user's.
    m_automatic = settings.value(QLatin1String(kAutomaticKey), true).toBool();
    m_builtins = settings.value(QLatin1String(kBuiltinsKey), QStringList { QStringLiteral("portable") }).toStringList();
    m_filesOff = settings.value(QLatin1String(kFilesOffKey)).toStringList();
    for (const QString& path : settings.value(QLatin1String(kFilesKey)).toStringList()) {
        auto list = readKernelListFile(path.toStdString());
        if (!list) {
            m_problems << tr("A kernel list from the last session could not be read: %1")
                              .arg(QString::fromStdString(list.error().message()));
            continue;
        }
        m_files << path;
        m_read.insert_or_assign(path, std::move(list).value());
    }
    rebuild();
}

void KernelListChoice::setAutomatic(bool on)
{
    if (m_automatic == on)
        return;
    m_automatic = on;
    save();
    Q_EMIT changed();
}

std::shared_ptr<const KernelLists> KernelListChoice::listsFor(const Document* document) const
{
    if (!m_automatic)
        return m_lists;
    const RuntimePreset& preset
        = document && document->program ? presetForProgram(*document->program) : runtimePresets().front();
    auto& lists = m_presetLists[std::string(preset.name)];
    if (!lists)
        lists = std::make_shared<const KernelLists>(presetKernelLists(preset, true));
    return lists;
}

void KernelListChoice::setBuiltin(const QString& name, bool on)
{
    if (name == QLatin1String("prim") || (!m_automatic && m_builtins.contains(name) == on))
        return;
    m_automatic = false;
    if (on)
        m_builtins << name;
    else
        m_builtins.removeAll(name);
    rebuild();
}

void KernelListChoice::setBuiltins(const QStringList& names)
{
    QStringList wanted;
    for (const QString& name : names)
        if (name != QLatin1String("prim") && !wanted.contains(name))
            wanted << name;
    QStringList sortedNow = m_builtins;
    QStringList sortedWanted = wanted;
    sortedNow.sort();
    sortedWanted.sort();
    if (!m_automatic && sortedNow == sortedWanted)
        return;
    m_automatic = false;
    m_builtins = wanted;
    rebuild();
}

QString KernelListChoice::preset() const
{
    QStringList on = m_builtins;
    on.removeAll(QStringLiteral("prim"));
    on.sort();
    for (const RuntimePreset& preset : runtimePresets()) {
        QStringList lists;
        for (const std::string_view name : preset.lists)
            lists << QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
        lists.sort();
        if (lists == on)
            return QString::fromLatin1(preset.name.data(), static_cast<qsizetype>(preset.name.size()));
    }
    return {};
}

void KernelListChoice::setFileEnabled(const QString& path, bool on)
{
    if (!m_files.contains(path) || (!m_automatic && m_filesOff.contains(path) == !on))
        return;
    m_automatic = false;
    if (on)
        m_filesOff.removeAll(path);
    else
        m_filesOff << path;
    rebuild();
}

std::optional<QString> KernelListChoice::addFile(const QString& path)
{
    auto list = readKernelListFile(path.toStdString());
    if (!list)
        return QString::fromStdString(list.error().message());
    m_read.insert_or_assign(path, std::move(list).value());
    m_automatic = false;
    if (!m_files.contains(path))
        m_files << path;
    m_filesOff.removeAll(path);
    rebuild();
    return std::nullopt;
}

void KernelListChoice::removeFile(const QString& path)
{
    if (!m_files.removeAll(path))
        return;
    m_filesOff.removeAll(path);
    m_read.erase(path);
    rebuild();
}

void KernelListChoice::rebuild()
{
    auto lists = std::make_shared<KernelLists>();
    // A file first: what a runtime or a selective build really has is the better answer to
    // "resolved by", the libraries it may come from after it.
    for (const QString& path : m_files)
        if (!m_filesOff.contains(path))
            lists->lists.push_back(m_read.at(path));
    for (const std::string_view name : builtinKernelListNames()) {
        const QString text = QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
        if (name != "prim" && m_builtins.contains(text))
            lists->lists.push_back(*builtinKernelList(name));
    }
    // The runtime registers the prim ops itself.
    lists->lists.push_back(*builtinKernelList("prim"));
    m_lists = std::move(lists);
    save();
    Q_EMIT changed();
}

void KernelListChoice::save() const
{
    QSettings settings;
    settings.setValue(QLatin1String(kAutomaticKey), m_automatic);
    settings.setValue(QLatin1String(kBuiltinsKey), m_builtins);
    settings.setValue(QLatin1String(kFilesKey), m_files);
    settings.setValue(QLatin1String(kFilesOffKey), m_filesOff);
}

} // namespace etscope::ui
