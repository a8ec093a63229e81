// SPDX-License-Identifier: MIT
#pragma once

// File › Export Report…: where to write the report (.html, .md, .pdf), which sections, and
// whether delegates are drawn expanded; the choices are remembered (QSettings) for next time.
// The report holds the program's analyses and whatever debug artifacts the document has
// attached (ETDump run and reference, ETRecord, Inspector table), checked against the kernel
// lists the app's load check uses.

#include "core/document/document.h"
#include "ui/document/debugsession.h"

#include <QDialog>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace etscope::ui {

class ReportDialog final : public QDialog {
    Q_OBJECT
public:
    /// `session` may be null (nothing attached); it must outlive the dialog.
    ReportDialog(
        std::shared_ptr<const core::Document> document, const DebugSession* session, QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    std::set<std::string> sections() const;
    void setSectionChecked(const std::string& id, bool checked);
    QString expand() const;

    /// Builds and writes the report to path() with the chosen sections; remembers the choices.
    /// Empty on success, else the reason (also shown by accept()).
    std::optional<QString> exportReport();

    /// The settings keys (tests clear them).
    static constexpr const char* kSectionsKey = "report/sections";
    static constexpr const char* kExpandKey = "report/expand";
    static constexpr const char* kFolderKey = "report/folder";

public Q_SLOTS:
    void accept() override;

private:
    void browse();
    void remember() const;

    std::shared_ptr<const core::Document> m_document;
    const DebugSession* m_session;
    QLineEdit* m_path = nullptr;
    QComboBox* m_expand = nullptr;
    std::map<std::string, QCheckBox*> m_sections;
};

} // namespace etscope::ui
