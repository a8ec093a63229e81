// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/programdiff.h"
#include "core/graph/flatten.h"
#include "core/table/table.h"
#include "ui/compare/comparemarks.h"
#include "ui/graph/graphitems.h"

#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <utility>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace etscope::ui {

class DocumentController;
class DocumentView;
class ReportTableModel;
class SameRowsFilter;

/// File › Compare…: two programs side by side (issue 13). The summary of core's diffPrograms
/// on top with a method picker, the two graphs (each a DocumentView of its own document)
/// with every node marked by its match, and the tables of the diff under them. Selecting a
/// node on one side selects its match on the other; a row of a table selects its nodes.
class CompareView final : public QWidget {
    Q_OBJECT
public:
    using Side = CompareSide;

    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    /// Opens both files (a document given is adopted instead of read again), then compares
    /// them off the UI thread; emits ready() or failed().
    void compareFiles(const QString& pathA, const QString& pathB, std::shared_ptr<const core::Document> openA = {},
        std::shared_ptr<const core::Document> openB = {});
    /// Asks for the two files (A pre-filled with `pathA`); false when cancelled.
    static bool askForFiles(QWidget* parent, QString& pathA, QString& pathB);

    /// "a.pte ⇄ b.pte" for the tab.
    QString title() const;
    const core::ProgramDiff* diff() const { return m_diff.get(); }
    /// The method shown (null before the diff, or without common methods).
    const core::MethodDiff* methodDiff() const;
    DocumentView* view(Side side) const { return side == Side::A ? m_viewA : m_viewB; }
    QComboBox* methodBox() const { return m_methodBox; }
    QLabel* summaryLabel() const { return m_summary; }
    QTabWidget* tableTabs() const { return m_tables; }
    QTableView* nodesView() const { return m_nodesView; }
    QTableView* operatorsView() const { return m_operatorsView; }
    QTableView* movedView() const { return m_movedView; }
    /// The facts of paired delegates that differ (core::diffDelegateFacts): QNN SDK, SoC, HTP
    /// architecture, graph names, payload size and hash, …; its note says what the inner nodes'
    /// match compared.
    QTableView* factsView() const { return m_factsView; }
    /// Lists the matches that are `same` in the nodes table too (off: differences only).
    QCheckBox* showSameBox() const { return m_showSame; }

    /// Shows method `name` (one of the common methods) on both sides.
    void setMethod(const QString& name);
    /// The index into methodDiff()->matches of the match holding `origin` on `side`.
    std::optional<int> matchOf(Side side, const core::NodeOrigin& origin) const;
    /// Selects and centres the two nodes of a match (the side without one is cleared).
    void selectMatch(int index);

    /// The diff as text, Markdown (programDiffText) or JSON (programDiffJson).
    bool exportDiff(const QString& path, core::TableFormat format, QString* error = nullptr) const;
    /// The table of the current bottom tab, as shown (its order and filter).
    bool exportTable(const QString& path, core::TableFormat format, QString* error = nullptr) const;
    core::Table currentTable() const;

Q_SIGNALS:
    /// The diff is shown (both graphs asked for).
    void ready();
    void failed(const QString& message);
    void statusMessage(const QString& text);

private:
    void buildUi();
    /// The row over the graphs: both files, the method picker and the Export menu.
    QHBoxLayout* buildTopBar(QWidget* page);
    /// The Export… button and its menu of diffs, tables and pictures.
    QPushButton* buildExportButton(QWidget* page);
    /// The summary and notes labels, and the returned legend of the marks.
    QLabel* buildSummary(QWidget* page);
    /// Side A and side B, each its file's header over (later) its graph, in a splitter.
    QSplitter* buildSides(QWidget* page);
    /// The tables under the graphs (comparetables.cpp).
    void buildTables(QWidget* page);
    /// The row of match `match` in the nodes table as shown (invalid when filtered out).
    QModelIndex nodeRowOf(int match) const;
    void onOpened();
    void showDiff(std::shared_ptr<const core::ProgramDiff> diff);
    void showFailure(const QString& message);
    DocumentView* makeView(Side side, DocumentController* controller, int method);
    void refreshMethod();
    /// The marks of the method's matches on `side`, and counts on closed groups of a long method.
    void applyMarks(Side side);
    bool presentationHasGroups(Side side) const;
    /// Expands every decoded delegate of the side when they are small; true when it did.
    bool expandWhenSmall(Side side);
    void updateHeaders();
    void fillTables();
    void onNodeClicked(Side side, const core::NodeOrigin& origin);
    void onNodeRowActivated(const QModelIndex& index);
    void onOperatorRowActivated(const QModelIndex& index);
    void onMovedRowActivated(const QModelIndex& index);
    void exportInteractive(int what);
    /// Index of the method `name` in the document of `side`, -1 when it has none.
    int methodIndex(Side side, const std::string& name) const;
    /// The graph of the compared method on `side` (null before the diff).
    const core::Graph* graph(Side side) const;

    DocumentController* m_controllerA = nullptr;
    DocumentController* m_controllerB = nullptr;
    int m_waiting = 0; ///< documents still opening
    quint64 m_generation = 0;
    std::shared_ptr<const core::ProgramDiff> m_diff;
    int m_method = -1; ///< index into m_diff->methods
    /// Parallel to m_diff->methods: the marks, match lookups and tables of each common method,
    /// made with the diff off the UI thread (null for a method only one file has).
    std::vector<std::shared_ptr<const CompareMarks>> m_prepared;
    int m_movedRow = -1; ///< the moved row clicked last, and which of its matches it showed
    int m_movedStep = -1;
    bool m_expandPendingA = false, m_expandPendingB = false;
    bool m_legiblePendingA = false, m_legiblePendingB = false; ///< after the expansion's layout

    QStackedWidget* m_stack = nullptr; ///< the message page, or the comparison
    QLabel* m_message = nullptr;
    QLabel* m_files = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_notes = nullptr;
    QComboBox* m_methodBox = nullptr;
    QLabel* m_headerA = nullptr;
    QLabel* m_headerB = nullptr;
    QWidget* m_sideA = nullptr; ///< header and view of each side
    QWidget* m_sideB = nullptr;
    DocumentView* m_viewA = nullptr;
    DocumentView* m_viewB = nullptr;
    QTabWidget* m_tables = nullptr;
    ReportTableModel* m_nodesModel = nullptr;
    ReportTableModel* m_operatorsModel = nullptr;
    ReportTableModel* m_movedModel = nullptr;
    ReportTableModel* m_sizesModel = nullptr;
    ReportTableModel* m_factsModel = nullptr;
    QSortFilterProxyModel* m_nodesProxy = nullptr; ///< sorts m_nodesFilter
    SameRowsFilter* m_nodesFilter = nullptr; ///< hides the `same` matches unless asked
    QSortFilterProxyModel* m_operatorsProxy = nullptr;
    QSortFilterProxyModel* m_movedProxy = nullptr;
    QSortFilterProxyModel* m_sizesProxy = nullptr;
    QSortFilterProxyModel* m_factsProxy = nullptr;
    QTableView* m_nodesView = nullptr;
    QTableView* m_operatorsView = nullptr;
    QTableView* m_movedView = nullptr;
    QTableView* m_sizesView = nullptr;
    QTableView* m_factsView = nullptr;
    QLabel* m_factsNote = nullptr; ///< over the facts: what the node match compared inside delegates
    QCheckBox* m_showSame = nullptr;
};

} // namespace etscope::ui
