// SPDX-License-Identifier: MIT
// etscope_bench: open + verify + analyse (openDocument) of synthetic and real programs, the
// operator table, Graphviz layout, and writing synthetic programs; with graph sizes and
// peak-memory counters.
#include "bench/peakrss.h"

#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "core/layout/graphlayout.h"
#include "core/stats/operatortable.h"
#include "core/util/platform.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>

namespace {

namespace fs = std::filesystem;
using namespace etscope::core;
using etscope::bench::PeakRss;

constexpr double kMiB = 1024.0 * 1024.0;

/// Synthetic programs, written once per run into a private temporary folder removed at exit.
class SyntheticFiles {
public:
    static SyntheticFiles& instance()
    {
        static SyntheticFiles files;
        return files;
    }

    ~SyntheticFiles()
    {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    /// The path of an MLP of `nodes` instructions (default MlpOptions otherwise); empty on failure.
    std::string path(int nodes)
    {
        if (const auto it = m_paths.find(nodes); it != m_paths.end())
            return it->second;
        MlpOptions options;
        options.nodes = nodes;
        const auto bytes = writeProgram(makeMlpProgram(options).spec);
        const std::string path = (m_dir / ("mlp_" + std::to_string(nodes) + ".pte")).string();
        if (!bytes || writeBytesToFile(path, bytes.value()))
            return {};
        return m_paths[nodes] = path;
    }

private:
    SyntheticFiles()
        : m_dir(fs::temp_directory_path() / ("etscope-bench-" + std::to_string(platform::processId())))
    {
        fs::create_directories(m_dir);
    }

    fs::path m_dir;
    std::map<int, std::string> m_paths;
};

struct GraphSize {
    std::size_t nodes = 0; ///< top-level nodes of every method plus the nodes of decoded delegates
    std::size_t edges = 0;
    std::size_t instructions = 0;
};

GraphSize sizeOf(const Document& document)
{
    GraphSize size;
    for (std::size_t m = 0; m < document.methods.size(); ++m) {
        const Graph& graph = *document.methods[m].graph;
        size.nodes += graph.nodes.size();
        size.edges += graph.edges.size();
        for (const Node& node : graph.nodes)
            if (node.subgraph)
                size.nodes += node.subgraph->nodes.size();
        size.instructions += document.program->methods[m].instructionTotal();
    }
    return size;
}

void openDocuments(benchmark::State& state, const std::string& path)
{
    std::error_code ec;
    const auto fileSize = fs::file_size(path, ec);
    if (path.empty() || ec) {
        state.SkipWithError(("cannot read " + path).c_str());
        return;
    }
    GraphSize size;
    const PeakRss peak;
    for (auto _ : state) {
        auto document = openDocument(path);
        if (!document) {
            state.SkipWithError(document.error().message().c_str());
            return;
        }
        size = sizeOf(document.value());
        benchmark::DoNotOptimize(size);
    }
    state.counters["nodes"] = static_cast<double>(size.nodes);
    state.counters["edges"] = static_cast<double>(size.edges);
    state.counters["instructions"] = static_cast<double>(size.instructions);
    state.counters["file_MiB"] = static_cast<double>(fileSize) / kMiB;
    state.counters["peak_rss_delta_MiB"] = static_cast<double>(peak.deltaBytes()) / kMiB;
    state.counters["rss_reset"] = peak.reset() ? 1 : 0;
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * fileSize));
}

void BM_OpenSynthetic(benchmark::State& state)
{
    openDocuments(state, SyntheticFiles::instance().path(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_OpenSynthetic)->ArgName("nodes")->Arg(1000)->Arg(5000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_OpenSample(benchmark::State& state, const char* relative)
{
    openDocuments(state, std::string(ETSCOPE_SAMPLES_DIR "/") + relative);
}
BENCHMARK_CAPTURE(BM_OpenSample, stress_mlp, "djl-executorch-engine/stress_mlp.pte")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OpenSample, mobilenet_v2_ethosu, "pte-adapter-model-explorer/mobilenet_v2_ethosu.pte")
    ->Unit(benchmark::kMillisecond);
// The samples whose delegates are decoded into inner graphs at open (issue 23).
BENCHMARK_CAPTURE(BM_OpenSample, mobilenetv2_lrn_int8_ethosu, "executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OpenSample, stories260k_hybrid_llama_qnn, "executorch/stories260k_hybrid_llama_qnn.pte")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OpenSample, style_candy_640_coreml, "react-native-executorch/style_candy_640_coreml.pte")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OpenSample, mobilenet_v2_vgf_segments, "pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte")
    ->Unit(benchmark::kMillisecond);

void BM_OperatorTable(benchmark::State& state)
{
    auto document = openDocument(SyntheticFiles::instance().path(static_cast<int>(state.range(0))));
    if (!document) {
        state.SkipWithError(document.error().message().c_str());
        return;
    }
    const Graph& graph = *document->analysis(*document->program->method("forward"))->graph;
    std::size_t rows = 0;
    for (auto _ : state) {
        const OperatorTable table = computeOperatorTable(graph);
        rows = table.rows.size();
        benchmark::DoNotOptimize(rows);
    }
    state.counters["nodes"] = static_cast<double>(graph.nodes.size());
    state.counters["rows"] = static_cast<double>(rows);
}
BENCHMARK(BM_OperatorTable)->ArgName("nodes")->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

/// Graphviz layout of `forward`'s top level (delegates collapsed, boxes of a typical size), or
/// with every delegate expanded in place (its inner nodes in clusters) when `expanded`.
void layoutForward(benchmark::State& state, bool expanded)
{
    auto document = openDocument(SyntheticFiles::instance().path(static_cast<int>(state.range(0))));
    if (!document) {
        state.SkipWithError(document.error().message().c_str());
        return;
    }
    const Graph& graph = *document->analysis(*document->program->method("forward"))->graph;
    const FlatGraph flat = flattenGraph(graph, [expanded](const Node&) { return expanded; });
    LayoutRequest request;
    for (const Cluster& cluster : flat.clusters)
        request.clusters.push_back({ cluster.label });
    for (std::size_t i = 0; i < flat.graph.nodes.size(); ++i)
        request.nodes.push_back({ 140, 34, flat.nodeCluster[i] });
    for (const Edge& edge : flat.graph.edges)
        request.edges.push_back({ edge.from.value, edge.to.value });
    for (auto _ : state) {
        auto layout = layoutGraph(request);
        if (!layout) {
            state.SkipWithError(layout.error().message().c_str());
            return;
        }
        benchmark::DoNotOptimize(layout->width);
    }
    state.counters["nodes"] = static_cast<double>(request.nodes.size());
    state.counters["clusters"] = static_cast<double>(request.clusters.size());
}

void BM_LayoutCollapsed(benchmark::State& state)
{
    layoutForward(state, false);
}
BENCHMARK(BM_LayoutCollapsed)->ArgName("nodes")->Arg(1000)->Arg(5000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_LayoutExpanded(benchmark::State& state)
{
    layoutForward(state, true);
}
BENCHMARK(BM_LayoutExpanded)->ArgName("nodes")->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

void BM_WriteSynthetic(benchmark::State& state)
{
    MlpOptions options;
    options.nodes = static_cast<int>(state.range(0));
    const SyntheticProgram program = makeMlpProgram(options);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto written = writeProgram(program.spec);
        bytes = written ? written->size() : 0;
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["file_MiB"] = static_cast<double>(bytes) / kMiB;
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_WriteSynthetic)->ArgName("nodes")->Arg(10000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
