// SPDX-License-Identifier: MIT
#pragma once

#include "document/document.h"
#include "graph/flatten.h"
#include "layout/graphlayout.h"

#include <QSizeF>
#include <QString>

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace etscope::ui {

/// Which graph a view shows: a method's top level, or the inside of one of its delegates.
struct GraphContext {
    int method = -1;
    core::NodeId delegateNode; ///< none for the top level

    bool operator==(const GraphContext& other) const
    {
        return method == other.method && delegateNode == other.delegateNode;
    }
};

/// Everything needed to draw one graph: the flattened graph (with the expanded delegates), the
/// text and size of every box, and — once Graphviz ran — the geometry. Node references are
/// always in method coordinates (NodeOrigin: top-level node, inner node), whatever the view.
struct Presentation {
    std::shared_ptr<const core::Document> document;
    GraphContext context;
    std::set<int> expanded; ///< top-level delegate node ids shown expanded
    core::FlatGraph flat;
    std::vector<core::NodeOrigin> origins; ///< parallel to flat.graph.nodes
    std::map<std::pair<int, int>, int> indexByOrigin; ///< (top, inner) → index into flat.graph.nodes
    std::vector<QString> titles;
    std::vector<QString> subtitles;
    std::vector<QString> clusterTitles;
    core::LayoutRequest request;
    core::LayoutResult layout;

    const core::Method& method() const;
    const core::Graph& methodGraph() const;
    /// The delegate facts of a top-level delegate node (nullptr when unknown).
    const core::DelegateInfo* delegateInfo(core::NodeId topNode) const;
    /// Index into flat.graph.nodes of a node reference, -1 when it is not drawn here.
    int indexOf(const core::NodeOrigin& origin) const;
    /// Cache key: method, delegate and expanded set.
    QString key() const;
};

/// Flattens and measures (UI thread: fonts). `expanded` is ignored inside a delegate view.
std::shared_ptr<Presentation> preparePresentation(
    std::shared_ptr<const core::Document> document, const GraphContext& context, const std::set<int>& expanded);

/// The box title of a node: operator names without the `aten::` namespace, backend ids, …
QString nodeTitle(const core::Node& node);

/// A short human text for a value's type and shape ("FLOAT [1, 3]").
QString metaText(const core::TensorMeta& meta);

/// Name of a graph context for tabs and breadcrumbs: "forward" or "forward › XnnpackBackend #1".
QString contextTitle(const core::Document& document, const GraphContext& context);

} // namespace etscope::ui
