// SPDX-License-Identifier: MIT
#pragma once

#include "core/debug/etdump.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace etscope::ui {

class ReportTableModel;
class TimelinePanel;

/// An ETDump opened on its own: what ran (the run blocks) and how long each event took across
/// the runs (count, min, p50, p90, avg, max), delegate-internal events under their delegate
/// identifiers. Both tables sort by any column and export as CSV, TSV, Markdown, HTML or JSON.
class ETDumpPage final : public QWidget {
    Q_OBJECT
public:
    explicit ETDumpPage(const core::ETDump& dump, QWidget* parent = nullptr);

    const ReportTableModel* profileModel() const { return m_profile; }
    const ReportTableModel* runsModel() const { return m_runs; }
    /// The table of the tab shown.
    const ReportTableModel* currentModel() const;
    TimelinePanel* timelinePanel() const { return m_timeline; }

Q_SIGNALS:
    void statusMessage(const QString& text);

private:
    QTableView* tableView(ReportTableModel* model, QSortFilterProxyModel*& proxy);
    void exportCurrent();

    QString m_path;
    QTabWidget* m_tabs = nullptr;
    ReportTableModel* m_profile = nullptr;
    ReportTableModel* m_runs = nullptr;
    QSortFilterProxyModel* m_profileProxy = nullptr;
    QSortFilterProxyModel* m_runsProxy = nullptr;
    TimelinePanel* m_timeline = nullptr;
};

} // namespace etscope::ui
