// SPDX-License-Identifier: MIT
#pragma once

// File › Export Report…: where to write the report (.html, .md, .pdf), which sections, and
// whether delegates are drawn expanded; the choices are remembered (QSettings) for next time.
// The report holds the program's analyses and whatever debug artifacts the document has
// attached (ETDump run and reference, ETRecord, Inspector table), checked against the kernel
// lists the app's load check uses.
//
// Exporting keeps the window responsive: the analyses (core::buildReport) and the writing of the
// file (finishReport: HTML/Markdown text, the PDF's layout, the graphs' bitmaps, the PNG
// encoding) run on a worker; the pictures are drawn on the GUI thread, one per event-loop turn,
// because the graph is drawn through a QGraphicsScene (whose constructor registers it with the
// QApplication, unguarded) and the charts through their widgets. The dialog shows which step runs (n of m) and Cancel
// stops the export: nothing is written, an existing file is left as it was. A graph picture is itself split: measured
// on the GUI thread (fonts), laid out on a worker (Graphviz), drawn on the GUI thread. The analyses tell their step (a
// section of 12) and stop at the next step or method when cancelled. A baseline program (remembered like the sections
// while it exists) adds the changes against it; it is opened on the worker too.

#include "core/document/document.h"
#include "ui/document/debugsession.h"

#include <QDialog>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTimer;

namespace etscope::ui {

struct Presentation;

class ReportDialog final : public QDialog {
    Q_OBJECT
public:
    /// `session` may be null (nothing attached); it must outlive the dialog.
    ReportDialog(
        std::shared_ptr<const core::Document> document, const DebugSession* session, QWidget* parent = nullptr);
    ~ReportDialog() override;

    QString path() const;
    void setPath(const QString& path);
    std::set<std::string> sections() const;
    void setSectionChecked(const std::string& id, bool checked);
    QString expand() const;
    /// The baseline program the "Changes against the baseline" section compares with (empty:
    /// none, and that section cannot be chosen).
    QString baseline() const;
    /// Sets the baseline (empty clears it); enables and checks its section when set.
    void setBaseline(const QString& path);

    /// Starts writing the report to path() with the chosen sections and remembers the choices;
    /// exportFinished tells how it ended. Refused (the reason returned, nothing started) when the
    /// choices cannot be written or an export is already running (one at a time in the app).
    std::optional<QString> startExport();
    bool isExporting() const;
    /// Whether any export in the app is still running (a dialog closed mid-export lets its
    /// worker finish the step it is in).
    static bool anyExportRunning();
    /// Stops the running export: exportFinished(path, reason, true) follows, nothing is written.
    void cancelExport();
    /// Called on the worker at each analysis step (`done` of `total`), before the step runs.
    /// For tests, which hold the worker at a step to cancel there whatever the machine's speed.
    void setAnalysisStepObserver(std::function<void(int done, int total)> observer)
    {
        m_stepObserver = std::move(observer);
    }
    /// The report file of the last export that succeeded (empty before).
    QString writtenPath() const { return m_written; }

    /// The settings keys (tests clear them).
    static constexpr const char* kSectionsKey = "report/sections";
    static constexpr const char* kExpandKey = "report/expand";
    static constexpr const char* kFolderKey = "report/folder";
    static constexpr const char* kBaselineKey = "report/baseline";

Q_SIGNALS:
    /// Each step of an export: "Analysing m.pte…", "Picture 3 of 9: <caption>", "Writing …";
    /// `done` of `total` steps (0 of 0 while the analyses run).
    void exportProgress(const QString& text, int done, int total);
    /// The export ended: `error` is empty when `path` was written, else why not (naming the
    /// file); `cancelled` when Cancel stopped it.
    void exportFinished(const QString& path, const QString& error, bool cancelled);

public Q_SLOTS:
    /// Export: starts the export; the dialog closes when the file is written.
    void accept() override;
    /// Cancel: while exporting, stops the export (the dialog stays); else closes the dialog.
    void reject() override;

private:
    struct Job;
    void browse();
    void browseBaseline();
    void remember() const;
    void setExporting(bool on);
    void showStep(const QString& text, int done, int total);
    void drawNext(std::shared_ptr<Job> job);
    void drawPicture(std::shared_ptr<Job> job, std::size_t index, std::shared_ptr<Presentation> laidOut);
    void write(std::shared_ptr<Job> job);
    void finish(const std::shared_ptr<Job>& job, const QString& error);

    std::shared_ptr<const core::Document> m_document;
    const DebugSession* m_session;
    QLineEdit* m_path = nullptr;
    QComboBox* m_expand = nullptr;
    QLineEdit* m_baseline = nullptr;
    QTimer* m_analysing = nullptr; ///< shows the analyses' step while they run on the worker
    std::map<std::string, QCheckBox*> m_sections;
    QWidget* m_choices = nullptr; ///< everything disabled while exporting
    QProgressBar* m_progress = nullptr;
    QLabel* m_step = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    std::shared_ptr<Job> m_job; ///< the running export
    std::function<void(int, int)> m_stepObserver;
    QString m_written;
};

} // namespace etscope::ui
