// SPDX-License-Identifier: MIT
#include "graphlayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace etscope::core {

namespace {

constexpr std::size_t kLargeGraph = 400;

std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::string& lastGraphvizMessage()
{
    static std::string message;
    return message;
}

int collectGraphvizMessage(char* text)
{
    lastGraphvizMessage() += text;
    return 0;
}

// One context for the process: loading the plugin configuration is not free. Guarded by
// graphvizMutex() like every other Graphviz call.
GVC_t* context()
{
    static GVC_t* gvc = [] {
        agseterrf(&collectGraphvizMessage);
        agseterr(AGWARN);
        return gvContext();
    }();
    return gvc;
}

// The C API takes char*; keep literals out of it.
void set(void* object, const char* name, const std::string& value)
{
    agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
    return buffer;
}

} // namespace

bool graphvizAvailable(std::string* reason)
{
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = context();
    if (!gvc) {
        if (reason)
            *reason = "Graphviz could not create a context";
        return false;
    }
    Agraph_t* g = agopen(const_cast<char*>("probe"), Agdirected, nullptr);
    agnode(g, const_cast<char*>("a"), 1);
    lastGraphvizMessage().clear();
    const int rc = gvLayout(gvc, g, "dot");
    if (rc == 0)
        gvFreeLayout(gvc, g);
    agclose(g);
    if (rc != 0 && reason)
        *reason = "Graphviz has no 'dot' layout plugin (" + lastGraphvizMessage()
            + "); install the graphviz package or run 'dot -c' as root to register its plugins";
    return rc == 0;
}

Result<LayoutResult> layoutGraph(const LayoutRequest& request, const std::atomic<bool>* cancel)
{
    std::lock_guard lock(graphvizMutex());
    if (cancel && cancel->load())
        return makeError(Error::Code::Cancelled, {}, "layout stopped by the user");
    GVC_t* gvc = context();
    if (!gvc)
        return makeError(Error::Code::Io, {}, "Graphviz could not create a context");

    Agraph_t* g = agopen(const_cast<char*>("etscope"), Agdirected, nullptr);
    set(g, "rankdir", "TB");
    set(g, "nodesep", "0.25");
    set(g, "ranksep", "0.35");
    set(g, "splines", "spline"); // never ortho: it aborts on large graphs
    set(g, "newrank", "true");
    set(g, "ordering", "out"); // keeps siblings in program order, so expanding a delegate does not reshuffle the rest
    set(g, "fontname", request.fontName);
    set(g, "fontsize", number(request.fontSize));
    if (request.nodes.size() > kLargeGraph)
        set(g, "nslimit", "0");

    std::vector<Agraph_t*> clusters;
    for (std::size_t c = 0; c < request.clusters.size(); ++c) {
        const std::string name = "cluster_" + std::to_string(c);
        Agraph_t* sub = agsubg(g, const_cast<char*>(name.c_str()), 1);
        set(sub, "label", request.clusters[c].label);
        set(sub, "labeljust", "l");
        set(sub, "fontname", request.fontName);
        set(sub, "fontsize", number(request.fontSize));
        set(sub, "margin", "10");
        clusters.push_back(sub);
    }

    std::vector<Agnode_t*> nodes;
    nodes.reserve(request.nodes.size());
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const LayoutRequest::Node& spec = request.nodes[i];
        const std::string name = "n" + std::to_string(i);
        Agraph_t* owner = spec.cluster >= 0 && static_cast<std::size_t>(spec.cluster) < clusters.size()
            ? clusters[static_cast<std::size_t>(spec.cluster)]
            : g;
        Agnode_t* node = agnode(owner, const_cast<char*>(name.c_str()), 1);
        set(node, "shape", "box");
        set(node, "fixedsize", "true");
        set(node, "label", "");
        set(node, "width", number(spec.width / 72.0));
        set(node, "height", number(spec.height / 72.0));
        nodes.push_back(node);
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(request.edges.size());
    for (const LayoutRequest::Edge& spec : request.edges) {
        if (spec.from < 0 || spec.to < 0 || static_cast<std::size_t>(spec.from) >= nodes.size()
            || static_cast<std::size_t>(spec.to) >= nodes.size()) {
            edges.push_back(nullptr);
            continue;
        }
        // Named edges keep parallel edges (two values between the same nodes) apart.
        const std::string name = "e" + std::to_string(edges.size());
        edges.push_back(agedge(g, nodes[static_cast<std::size_t>(spec.from)], nodes[static_cast<std::size_t>(spec.to)],
            const_cast<char*>(name.c_str()), 1));
    }

    lastGraphvizMessage().clear();
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        return makeError(Error::Code::Io, {},
            "Graphviz could not lay out the graph: "
                + (lastGraphvizMessage().empty() ? std::string("unknown error") : lastGraphvizMessage())
                + " (is the graphviz package installed? 'dot -c' registers its plugins)");
    }

    LayoutResult result;
    const boxf bb = GD_bb(g);
    const double top = bb.UR.y;
    result.width = bb.UR.x - bb.LL.x;
    result.height = bb.UR.y - bb.LL.y;
    const auto flip = [&](pointf p) { return LayoutPoint { p.x - bb.LL.x, top - p.y }; };

    result.nodes.reserve(nodes.size());
    for (Agnode_t* node : nodes) {
        const LayoutPoint centre = flip(ND_coord(node));
        result.nodes.push_back({ centre.x, centre.y, ND_width(node) * 72.0, ND_height(node) * 72.0 });
    }
    result.edges.resize(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        Agedge_t* edge = edges[i];
        if (!edge || !ED_spl(edge) || ED_spl(edge)->size == 0)
            continue;
        const bezier& curve = ED_spl(edge)->list[0];
        LayoutResult::Edge& out = result.edges[i];
        for (int p = 0; p < curve.size; ++p)
            out.points.push_back(flip(curve.list[p]));
        if (curve.eflag) {
            out.hasArrow = true;
            out.arrowTip = flip(curve.ep);
        }
    }
    for (Agraph_t* sub : clusters) {
        const boxf box = GD_bb(sub);
        const LayoutPoint topLeft = flip({ box.LL.x, box.UR.y });
        result.clusters.push_back({ topLeft.x, topLeft.y, box.UR.x - box.LL.x, box.UR.y - box.LL.y });
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    return result;
}

} // namespace etscope::core
