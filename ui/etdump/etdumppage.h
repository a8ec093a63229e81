// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/document.h"
#include "core/table/table.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace etscope::ui {

class ReportTableModel;
class TimelinePanel;

/// An ETDump opened on its own: what ran (the run blocks) and how long each event took across
/// the runs (count, min, p50, p90, avg, max), delegate-internal events under their delegate
/// identifiers. Both tables sort by any column and export as CSV, TSV, Markdown, HTML or JSON.
///
/// The profile, the tables and the timeline are built on a worker (issue 27 #13: a dump of a
/// million events kept the UI thread for seconds): the page shows its title at once, then a
/// progress bar with Stop until they are ready.
class ETDumpPage final : public QWidget {
    Q_OBJECT
public:
    /// `document` holds the ETDump (document->etdump); the page keeps it while the worker reads it.
    explicit ETDumpPage(std::shared_ptr<const core::Document> document, QWidget* parent = nullptr);
    ~ETDumpPage() override;

    /// The tables and the timeline are filled in.
    bool isReady() const { return m_ready; }
    /// Stops building the tables (the page then says so and offers to build them again).
    void stop();

    const ReportTableModel* profileModel() const { return m_profile; }
    const ReportTableModel* runsModel() const { return m_runs; }
    /// The table of the tab shown.
    const ReportTableModel* currentModel() const;
    TimelinePanel* timelinePanel() const { return m_timeline; }

Q_SIGNALS:
    void statusMessage(const QString& text);
    /// The tables and the timeline were filled in (from the worker's results).
    void ready();

private:
    struct ColumnHint;
    struct Prepared;
    static std::vector<ColumnHint> columnHints(const core::Table& table);
    QTableView* tableView(ReportTableModel* model, QSortFilterProxyModel*& proxy);
    static void sizeColumns(QTableView* view, const std::vector<ColumnHint>& columns);
    void build();
    void fill(std::shared_ptr<Prepared> prepared);
    void exportCurrent();

    std::shared_ptr<const core::Document> m_document;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_generation = 0;
    bool m_ready = false;
    QString m_path;
    QLabel* m_summary = nullptr;
    QLabel* m_profileNotes = nullptr;
    QWidget* m_busy = nullptr;
    QLabel* m_busyText = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QPushButton* m_stopButton = nullptr;
    QPushButton* m_exportButton = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_profileView = nullptr;
    QTableView* m_runsView = nullptr;
    QTabWidget* m_tabs = nullptr;
    ReportTableModel* m_profile = nullptr;
    ReportTableModel* m_runs = nullptr;
    QSortFilterProxyModel* m_profileProxy = nullptr;
    QSortFilterProxyModel* m_runsProxy = nullptr;
    TimelinePanel* m_timeline = nullptr;
};

} // namespace etscope::ui
