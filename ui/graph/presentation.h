// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "core/layout/graphlayout.h"
#include "core/layout/openinglayout.h"

#include <QSizeF>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>
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

/// Keys of an expanded set: a delegate's top-level node id (≥ 0), or an open group (≤ −2).
inline int expandKeyOf(const core::NodeOrigin& origin)
{
    return origin.group() >= 0 ? -2 - origin.group() : origin.top.value;
}
inline int expandKeyOfGroup(int group)
{
    return -2 - group;
}

/// Everything needed to draw one graph: the flattened graph (with the expanded delegates), the
/// text and size of every box, and — once Graphviz ran — the geometry. Node references are
/// always in method coordinates (NodeOrigin: top-level node, inner node), whatever the view.
struct Presentation {
    std::shared_ptr<const core::Document> document;
    GraphContext context;
    std::set<int> expanded; ///< expandKeyOf() of the delegates shown expanded and the open groups
    bool smallConstantsInline = false; ///< small constants listed inside their readers
    std::shared_ptr<const core::Grouping> grouping; ///< groups of a long method (empty when drawn whole)
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
    /// The box that shows a node: itself, or the closed delegate or group that hides it; -1
    /// when none is drawn here.
    int shownAt(const core::NodeOrigin& origin) const;
    /// The closed group that hides a top-level node, -1 when none does.
    int closedGroupOf(core::NodeId topNode) const;
    /// Cache key: method, delegate, expanded set and drawing options (presentationKey).
    QString key() const;
};

/// Cache key of a presentation: method, delegate, expanded set and drawing options.
QString presentationKey(const GraphContext& context, const std::set<int>& expanded, bool smallConstantsInline);

/// A presentation whose expanded set is a laid-out one plus one delegate or group: only that
/// one's inside needs Graphviz (`part.request`); composeOpening places it in `base`'s drawing.
struct OpeningPlan {
    std::shared_ptr<const Presentation> base;
    core::LayoutOpening opening;
    core::ClusterPart part;
};

/// The plan for `presentation` when `laidOut` (a cache lookup by key) has a layout of its
/// expanded set less one of its keys; empty otherwise (lay out the whole).
std::optional<OpeningPlan> planOpening(const Presentation& presentation,
    const std::function<std::shared_ptr<const Presentation>(const QString& key)>& laidOut);

/// The layout of `presentation` without Graphviz when `laidOut` (a cache lookup by key) has a
/// layout of its expanded set plus one of the delegates or groups it draws closed: that
/// drawing with the one frame shrunk back into its box (composeClosing); empty otherwise.
std::optional<core::LayoutResult> layoutByClosing(const Presentation& presentation,
    const std::function<std::shared_ptr<const Presentation>(const QString& key)>& laidOut);

/// Flattens and measures (UI thread: fonts). `expanded` is ignored inside a delegate view.
/// `grouping` is the method's grouping when already computed (firstViewGrouping when null).
std::shared_ptr<Presentation> preparePresentation(std::shared_ptr<const core::Document> document,
    const GraphContext& context, const std::set<int>& expanded,
    std::shared_ptr<const core::Grouping> grouping = nullptr);

/// The groups of one method's top-level graph when it is long (core::groupLongGraph; empty for
/// graphs drawn whole), as reports draw it.
std::shared_ptr<const core::Grouping> methodGrouping(const core::Document& document, int method);

/// The groups of the app's (and `etscope export`'s) first view of a method: by the module
/// hierarchy `etrecord` (or the document's own ETRecord) records when it cuts the method, else
/// long methods in runs and repetitive ones by their blocks (core::groupMethodGraph).
std::shared_ptr<const core::Grouping> firstViewGrouping(
    const core::Document& document, int method, const core::ETRecord* etrecord = nullptr);

/// Instruction → module path ("layers.0.attention") of `method`, from an ETRecord's
/// debug_handle_map and its edge program's nn_module_stack; empty when it records none.
std::map<int, std::string> instructionModules(
    const core::ETRecord& etrecord, const core::Graph& graph, const std::string& method);

/// Whether presentations prepared from now on draw small constants (≤ 4 elements) inside their
/// readers (View › Show Small Constants Inline) rather than as nodes. Off by default.
void setSmallConstantsInline(bool on);
bool smallConstantsInline();

/// The box title of a node: operator names without the `aten::` namespace, backend ids, …
/// (whole: boxes shorten it to their width with elideNameToWidth).
QString nodeTitle(const core::Node& node);

/// A short human text for a value's type and shape ("FLOAT [1, 3]").
QString metaText(const core::TensorMeta& meta);

/// Name of a graph context for tabs and breadcrumbs: "forward" or "forward › XnnpackBackend #1".
QString contextTitle(const core::Document& document, const GraphContext& context);

} // namespace etscope::ui
