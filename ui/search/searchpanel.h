// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "core/graph/search.h"

#include "core/graph/grouping.h"

#include <QElapsedTimer>

#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QCheckBox;
class QListView;
class QTimer;

namespace etscope::ui {

class SearchModel;
struct NodeFacts;

/// The Search tab: the hits of the search box (which lives in the tab's toolbar) over a
/// method's graph, searched 200 ms after typing stops; Enter walks the hits, a click or
/// Enter on one selects its node.
class SearchPanel : public QWidget {
    Q_OBJECT
public:
    /// `edit` is the search box; `delegateScope` keeps only the hits inside that delegate
    /// (a delegate's own tab), none for the whole method.
    SearchPanel(QLineEdit* edit, QWidget* parent = nullptr);

    SearchModel* model() const { return m_model; }
    /// Searches `top` for `text` now and shows the hits.
    /// Searches `top` (only inside `delegateScope` when valid); `grouping` and `method` tell
    /// the rows apart. At most kMaxHits rows, and the status line says when there were more.
    void search(const core::Graph& top, const QString& text, core::NodeId delegateScope,
        std::shared_ptr<const core::Grouping> grouping = nullptr, const QString& method = {});
    static constexpr std::size_t kMaxHits = 1000;
    /// Selects hit `row` and asks for its node.
    void activate(int row);
    /// The answers "Left on the CPU" shows (nullptr: not computed yet).
    void setFacts(std::shared_ptr<const NodeFacts> facts);
    /// The "Left on the CPU" filter: only the operators outside every delegate (their text
    /// matching the search box, or all of them when it is empty), each with why it stayed there.
    QCheckBox* cpuFilter() const { return m_cpuOnly; }

Q_SIGNALS:
    /// The text to search for: call search() with the graph it is about.
    void searchRequested(const QString& text);
    void nodeRequested(const core::NodeOrigin& origin);

private:
    /// The top-level operator nodes matching `text` (all for an empty one), with their answers.
    std::vector<core::SearchHit> cpuHits(const core::Graph& top, const QString& text, const QString& method) const;

    QLineEdit* m_edit;
    QCheckBox* m_cpuOnly = nullptr;
    std::shared_ptr<const NodeFacts> m_facts;
    SearchModel* m_model = nullptr;
    QListView* m_view = nullptr;
    QLabel* m_status = nullptr;
    QTimer* m_debounce = nullptr;
    QString m_searchedText; ///< text of the hits shown: Enter walks them while it is unchanged
    QElapsedTimer m_pressed; ///< since Enter was pressed, until the hit it goes to is asked for
};

} // namespace etscope::ui
