// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "ui/document/nodefacts.h"

#include <QStandardItemModel>

namespace etscope::ui {

/// Everything core knows about the selected node (or, with nothing selected, the file) as a
/// two-level tree: groups, then name/value rows. Values are plain text (copyable).
class PropertiesModel final : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { Name, Value, NUM_COLUMNS };

    explicit PropertiesModel(QObject* parent = nullptr);

    /// A node and, with an ETRecord attached to the program, the edge-graph nodes it came from
    /// (through debug_handle_map, or the node's own debug handle inside a delegate).
    void showNode(const core::Document& document, int method, const core::NodeOrigin& origin,
        const core::ETRecord* record = nullptr);
    void showDocument(const core::Document& document, int method);
    /// A group of a long method: its instruction range, size and most frequent operators.
    void showGroup(const core::Grouping& grouping, int group);
    /// An edge of a drawn graph: the value it carries, its type and shape, and its two ends.
    void showEdge(const core::Document& document, int method, const core::Graph& drawn,
        const core::NodeOrigin& fromOrigin, int edgeIndex);
    void clearAll();
    /// What each node costs and why it stayed on the CPU: a "Cost" and a "Why on the CPU" group
    /// in the nodes shown from now on (nullptr: none; the view shows the node again when set).
    void setFacts(std::shared_ptr<const NodeFacts> facts) { m_facts = std::move(facts); }
    const std::shared_ptr<const NodeFacts>& facts() const { return m_facts; }
    /// The "Why on the CPU" group's row, or an invalid index when none is shown.
    QModelIndex whyGroup() const;
    /// True while a show… call fills the tree: a view fits itself once, on filled(), rather than
    /// on each of its rows (expanding and measuring all rows again per row inserted took 3 ms of
    /// dnf_executorch5's first paint).
    bool filling() const { return m_filling > 0; }

Q_SIGNALS:
    /// A show… call has filled the tree.
    void filled();

private:
    struct Filling;
    int m_filling = 0;
    std::shared_ptr<const NodeFacts> m_facts;
    /// The "Cost" group of an operator node (top level: `delegate` -1, else its delegate's index)
    /// or, for a delegate call, of the delegate: totals, Ethos-U estimate and vendor figures.
    void addCost(const std::string& method, int delegate, const core::Node& node, bool inner);
    /// The "Why on the CPU" group of a top-level operator node.
    void addWhy(const std::string& method, const core::Node& node);
    void showSource(
        const core::ETRecord& record, const std::string& method, const std::vector<core::DebugHandle>& handles);
    /// The "Memory plan" group of a tensor value of `method` (nothing for other values).
    void addMemoryPlan(const core::Method& method, std::int32_t value);
    /// An ETRecord's entries (size, role) and how many instructions its maps cover.
    void addETRecordFacts(const core::ETRecord& record, QStandardItem* file);
    /// showDocument without a program: each external data file's layout and its entries.
    void addExternalDataFacts(const core::Document& document, QStandardItem* file);
    /// The program's header, segments, methods, external data and test suites.
    void addProgramFacts(const core::Document& document, QStandardItem* file);
    /// The "Method" group: counts, specs and arenas, then its inputs and outputs.
    void addMethodFacts(const core::Method& method);
    /// The "Inputs" and "Outputs" groups of a method, each with where the pytree spec puts it.
    void addMethodIo(const core::Method& method);
    /// A method's input or output pytree spec, read as the containers it encodes.
    void addSpecRow(QStandardItem* group, const QString& name, const core::Method& method, bool inputs);
    /// The "Node" group: label, kind, op type and where the node sits.
    void addNodeFacts(const core::Method& method, const core::Graph& graph, const core::Node& node,
        const core::Node& topNode, bool inner);
    /// The node's edges in and out, each with its tensor and the node at the other end.
    void addNodeEdges(const core::Graph& graph, const core::Node& node);
    /// A delegate call's payload: format, summary, facts and decoding warnings.
    void addDelegatePayload(const core::DelegateInfo& info);
    /// The instruction's stack trace, when the exporter stored one.
    void addStackTrace(const core::Method& method, const core::Node& node);
    QStandardItem* addGroup(const QString& title);
    static void addRow(QStandardItem* group, const QString& name, const QString& value);
};

} // namespace etscope::ui
