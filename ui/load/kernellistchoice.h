// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/kernelcheck.h"

#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>

namespace etscope::ui {

/// The kernel lists every Load tab checks against, one choice for the session: automatic (the
/// default: each document's runtime preset from its delegates, core::presetForProgram), or
/// built-in lists switched on and list files added (remembered in QSettings, read once).
/// Automatic is a mode of this app-wide choice; the preset it resolves to is per document
/// (listsFor). Changing it re-checks every open view.
class KernelListChoice final : public QObject {
    Q_OBJECT
public:
    static KernelListChoice& instance();

    /// Automatic: each document checks against the preset its delegates call for. Ticking a
    /// list, choosing a preset or adding a file chooses lists instead (automatic off).
    bool automatic() const { return m_automatic; }
    void setAutomatic(bool on);

    /// Built-in lists switched on by the user, in builtinKernelListNames() order ("prim" is always on).
    QStringList builtins() const { return m_builtins; }
    /// Switches a list on or off (and automatic off).
    void setBuiltin(const QString& name, bool on);
    /// Exactly these built-in lists on (a runtime preset's, or the boxes ticked), in one change,
    /// and automatic off.
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

    /// The lists the user chose, in lookup order: files, then the built-ins, then prim. Rebuilt
    /// on change, so a new pointer means a new choice.
    std::shared_ptr<const core::KernelLists> lists() const { return m_lists; }
    /// The lists `document` checks against: when automatic, its preset's (presetForProgram;
    /// portable for no document or no program), else lists(). One object per preset, kept.
    std::shared_ptr<const core::KernelLists> listsFor(const core::Document* document) const;

Q_SIGNALS:
    void changed();

private:
    explicit KernelListChoice(QObject* parent);
    void rebuild();
    void save() const;

    bool m_automatic = true;
    QStringList m_builtins;
    QStringList m_files;
    QStringList m_filesOff;
    QStringList m_problems;
    std::map<QString, core::KernelList> m_read; ///< files read, by path
    std::shared_ptr<const core::KernelLists> m_lists;
    /// The automatic lists by preset name, made when first asked for.
    mutable std::map<std::string, std::shared_ptr<const core::KernelLists>, std::less<>> m_presetLists;
};

} // namespace etscope::ui
