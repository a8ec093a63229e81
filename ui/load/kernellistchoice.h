// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/kernelcheck.h"

#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>

namespace etscope::ui {

/// The kernel lists every Load tab checks against, one choice for the session: built-in lists
/// switched on, list files added (remembered in QSettings, read once). Changing it re-checks
/// every open view.
class KernelListChoice final : public QObject {
    Q_OBJECT
public:
    static KernelListChoice& instance();

    /// Built-in lists switched on, in builtinKernelListNames() order ("prim" is always on).
    QStringList builtins() const { return m_builtins; }
    void setBuiltin(const QString& name, bool on);
    /// Exactly these built-in lists on (a runtime preset's), in one change.
    void setBuiltins(const QStringList& names);
    /// The runtime preset whose lists are exactly the built-ins on, empty when none is.
    QString preset() const;
    /// List files added, in the order added, and whether each is used.
    QStringList files() const { return m_files; }
    bool fileEnabled(const QString& path) const { return !m_filesOff.contains(path); }
    void setFileEnabled(const QString& path, bool on);
    /// Reads a list file and uses it (again, when already added: the file is read anew).
    /// Empty on success, else the reason naming the file (and the line).
    std::optional<QString> addFile(const QString& path);
    void removeFile(const QString& path);
    /// Files remembered from an earlier session that could not be read, with the reason.
    QStringList problems() const { return m_problems; }

    /// The lists in lookup order: files, then the built-ins, then prim. Rebuilt on change, so a
    /// new pointer means a new choice.
    std::shared_ptr<const core::KernelLists> lists() const { return m_lists; }

Q_SIGNALS:
    void changed();

private:
    explicit KernelListChoice(QObject* parent);
    void rebuild();
    void save() const;

    QStringList m_builtins;
    QStringList m_files;
    QStringList m_filesOff;
    QStringList m_problems;
    std::map<QString, core::KernelList> m_read; ///< files read, by path
    std::shared_ptr<const core::KernelLists> m_lists;
};

} // namespace etscope::ui
