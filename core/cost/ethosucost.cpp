// SPDX-License-Identifier: MIT
// Ethos-U kick costs and the cycle estimate. Device facts and where they come from:
// - MACs per cycle: the number in the accelerator name (ethos-u55-32/64/128/256, ethos-u65-256/512,
//   ethos-u85-128…2048); Vela's ArchitectureFeatures.accelerator_configs gives the same figure as
//   `macs` (ethos-u-vela, ethosu/vela/architecture_features.py, as mirrored in
//   github.com/nxp-imx/ethos-u-vela @ a6f6566; U65-512 is two cores of 256, counted as 512 here).
// - AXI data width: 64 bits on U55, 128 on U65 (architecture_features.py: axi_port_data_width),
//   128 on U85 (the vela.ini comments below: 16 GB/s for SRAMx2 at 500 MHz = 16 bytes · 2 ports).
// - Bytes per cycle of a memory = axi_port_data_width / 8 · <mem>_clock_scale
//   (architecture_features.py: memory_bandwidths_per_cycle), times <mem>_ports_used on U85.
// - System configurations and memory modes: ethosu/config_files/Arm/vela.ini, as mirrored in
//   github.com/hapv3/neural-compiler @ f190b8c8 (the U85 sections) and nxp-imx/ethos-u-vela @ a6f6566.
// - Regions: 0 the weight tensor, 1 the scratch tensor (arena), 2 the fast scratch (cache)
//   (ethosu/vela/high_level_command_to_npu_op.py, BasePointerIndex).
#include "core/cost/ethosucost.h"

#include "core/delegates/ethosuflow.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>

namespace etscope::core::cost {

namespace {

// clang-format off
const NpuSystemConfig kSystems[] = {
    { "Ethos_U55_Deep_Embedded",     200e6, { "Sram", 1.0, 1 }, { "OffChipFlash", 0.0625, 1 } },
    { "Ethos_U55_High_End_Embedded", 500e6, { "Sram", 1.0, 1 }, { "OffChipFlash", 0.125, 1 } },
    { "Ethos_U65_Embedded",          500e6, { "Sram", 1.0, 1 }, { "OffChipFlash", 0.0625, 1 } },
    { "Ethos_U65_Mid_End",           500e6, { "Sram", 1.0, 1 }, { "Dram", 0.46875, 1 } },
    { "Ethos_U65_High_End",          1e9,   { "Sram", 1.0, 1 }, { "Dram", 0.234375, 1 } },
    { "Ethos_U65_Client_Server",     1e9,   { "Sram", 1.0, 1 }, { "Dram", 0.75, 1 } },
    { "Ethos_U85_SYS_Flash_Low",     200e6, { "Sram", 1.0, 2 }, { "OffChipFlash", 0.0625, 1 } },
    { "Ethos_U85_SYS_Flash_High",    500e6, { "Sram", 1.0, 2 }, { "OffChipFlash", 0.0625, 1 } },
    { "Ethos_U85_SYS_DRAM_Low",      500e6, { "Sram", 1.0, 2 }, { "Dram", 0.46875, 1 } },
    { "Ethos_U85_SYS_DRAM_Mid",      1e9,   { "Sram", 1.0, 2 }, { "Dram", 0.75, 1 } },
    { "Ethos_U85_SYS_DRAM_High",     1e9,   { "Sram", 1.0, 4 }, { "Dram", 0.75, 2 } },
};
const NpuMemoryMode kModes[] = {
    { "Sram_Only",            0, 0, 0 },
    { "Shared_Sram",          1, 0, 0 },
    { "Dedicated_Sram",       1, 1, 0 },
    { "Dedicated_Sram_256KB", 1, 1, 0 },
    { "Dedicated_Sram_384KB", 1, 1, 0 },
    { "Dedicated_Sram_512KB", 1, 1, 0 },
};
// clang-format on

std::uint64_t ceilDiv(double value, double by)
{
    return by > 0 ? static_cast<std::uint64_t>(std::ceil(value / by)) : 0;
}

std::optional<Shape> attributeList(const AttributeList& attributes, std::string_view name)
{
    const auto value = attributes.find(name);
    return value ? parseIntList(*value) : std::nullopt;
}

const ethosu::RegionAccess* access(const std::vector<ethosu::RegionAccess>& list, std::string_view role)
{
    for (const ethosu::RegionAccess& a : list)
        if (role == a.role)
            return &a;
    return nullptr;
}

bool isFeatureMap(const ethosu::RegionAccess& a)
{
    return !a.raw;
}

/// Bytes an access moves: a feature map's elements by its dtype (not the stride-padded range it
/// spans), raw ranges (weights, scales, DMA) as they are.
std::uint64_t accessBytes(const ethosu::RegionAccess& a)
{
    if (isFeatureMap(a))
        if (const auto bytes = tensorBytes(a.meta.dtype, a.meta.shape))
            return *bytes;
    return a.end - a.begin;
}

int portOf(int region, const NpuSetup& setup)
{
    const NpuMemoryMode mode = setup.memoryMode.value_or(NpuMemoryMode { "", 1, 0, 0 });
    if (region == 0)
        return mode.constPort;
    if (region == 2)
        return mode.cachePort;
    return mode.arenaPort;
}

} // namespace

const NpuSystemConfig* findSystemConfig(std::string_view name)
{
    for (const NpuSystemConfig& system : kSystems)
        if (system.name == name)
            return &system;
    return nullptr;
}

const NpuMemoryMode* findMemoryMode(std::string_view name)
{
    for (const NpuMemoryMode& mode : kModes)
        if (mode.name == name)
            return &mode;
    return nullptr;
}

NpuKickCost kickCost(const ethosu::Operation& op)
{
    NpuKickCost cost;
    const ethosu::RegionAccess* ifm = access(op.reads, "IFM");
    const ethosu::RegionAccess* ofm = access(op.writes, "OFM");
    const auto needOfm = [&](Work& work) {
        if (!ofm && !op.chainedOutput) {
            work.problem = "the kick writes no OFM";
            return false;
        }
        return true;
    };
    const Shape ofmShape = ofm ? Shape(ofm->meta.shape.begin(), ofm->meta.shape.end())
        : op.chainedOutput     ? Shape(op.chainedOutput->shape.begin(), op.chainedOutput->shape.end())
                               : Shape {};
    const Shape ifmShape = ifm ? Shape(ifm->meta.shape.begin(), ifm->meta.shape.end())
        : op.chainedInput      ? Shape(op.chainedInput->shape.begin(), op.chainedInput->shape.end())
                               : Shape {};
    const auto kernel = attributeList(op.attributes, "kernel");
    switch (op.kind) {
    case ethosu::OpKind::Conv:
    case ethosu::OpKind::Depthwise: {
        const bool matmul = op.opType == "MatMul";
        const bool depthwise = op.kind == ethosu::OpKind::Depthwise;
        cost.kind = matmul ? "matmul" : depthwise ? "depthwise convolution" : "convolution";
        if (!needOfm(cost.work))
            break;
        if (!kernel || kernel->size() != 2) {
            cost.work.problem = "no kernel size in the registers";
            break;
        }
        if (ifmShape.size() != 4 && !depthwise) {
            cost.work.problem = "no IFM shape";
            break;
        }
        if (matmul)
            cost.work = dotProductWork(ofmShape, Shape { ifmShape[3] }, "IFM depth");
        else if (depthwise)
            cost.work = dotProductWork(ofmShape, *kernel, "kw·kh");
        else
            cost.work = dotProductWork(ofmShape, Shape { ifmShape[3], (*kernel)[0], (*kernel)[1] }, "IFM depth·kw·kh");
        break;
    }
    case ethosu::OpKind::Pool:
        if (op.opType == "ReduceSum") {
            cost.kind = "reduction";
            if (ifmShape.empty())
                cost.work.problem = "no IFM shape";
            else
                cost.work = reductionWork(ifmShape);
            break;
        }
        cost.kind = "pooling";
        if (!needOfm(cost.work))
            break;
        if (!kernel || kernel->size() != 2) {
            cost.work.problem = "no kernel size in the registers";
            break;
        }
        cost.work = poolingWork(ofmShape, *kernel);
        break;
    case ethosu::OpKind::Elementwise:
        cost.kind = "elementwise";
        if (needOfm(cost.work))
            cost.work = elementwiseWork(ofmShape);
        break;
    case ethosu::OpKind::Resize:
        cost.kind = "resize";
        if (needOfm(cost.work))
            cost.work = resizeWork(ofmShape, op.mode == "bilinear" ? 4 : 1);
        break;
    case ethosu::OpKind::Dma:
        cost.kind = "data movement";
        cost.work = dataMovementWork();
        break;
    case ethosu::OpKind::Branch:
    case ethosu::OpKind::Unknown:
        break; // no rule
    }
    for (const ethosu::RegionAccess& a : op.reads) {
        const std::uint64_t bytes = accessBytes(a);
        cost.bytesRead += bytes;
        const std::string_view role = a.role;
        if (role.starts_with("weights") || role.starts_with("scales"))
            cost.parameterBytes += bytes;
    }
    for (const ethosu::RegionAccess& a : op.writes)
        cost.bytesWritten += accessBytes(a);
    return cost;
}

double portBytesPerCycle(const NpuSetup& setup, int port)
{
    if (!setup.system)
        return 0;
    const NpuMemory& memory = port == 0 ? setup.system->axi0 : setup.system->axi1;
    return setup.axiBytesPerCycle * memory.clockScale * memory.portsUsed;
}

std::optional<NpuEstimate> estimateKick(const NpuKickCost& cost, const NpuSetup& setup)
{
    if (cost.kind.empty() || !cost.work.ok())
        return std::nullopt;
    NpuEstimate estimate;
    if (setup.macsPerCycle > 0)
        estimate.computeCycles
            = ceilDiv(static_cast<double>(cost.work.macs + cost.work.ops), static_cast<double>(setup.macsPerCycle));
    if (setup.system) {
        std::uint64_t memory = 0;
        for (int port = 0; port < 2; ++port)
            memory = std::max(
                memory, ceilDiv(static_cast<double>(cost.traffic.port[port]), portBytesPerCycle(setup, port)));
        estimate.memoryCycles = memory;
    }
    if (!estimate.computeCycles && !estimate.memoryCycles)
        return std::nullopt;
    const std::uint64_t compute = estimate.computeCycles.value_or(0);
    const std::uint64_t memory = estimate.memoryCycles.value_or(0);
    estimate.cycles = std::max(compute, memory);
    estimate.bound = !estimate.memoryCycles ? "compute only"
        : !estimate.computeCycles           ? "memory only"
        : compute >= memory                 ? "compute"
                                            : "memory";
    return estimate;
}

/// Adds the port traffic of `op` to `cost` (needs the setup's memory mode).
void addTraffic(const ethosu::Operation& op, const NpuSetup& setup, NpuKickCost& cost)
{
    for (const auto* list : { &op.reads, &op.writes })
        for (const ethosu::RegionAccess& a : *list)
            cost.traffic.port[portOf(a.region, setup) & 1] += accessBytes(a);
}

std::vector<int> groupKicks(const std::vector<ethosu::Operation>& operations)
{
    // The exact bytes each group wrote, per region (ethosuflow.h runs: an OFM depth slice of an
    // NHWC tensor spans the whole tensor's range but touches only its own channels).
    using Runs = std::map<std::uint64_t, std::uint64_t>; ///< begin → end, disjoint
    struct Group {
        int index;
        std::string signature;
        std::map<int, Runs> written;
    };
    constexpr std::size_t kMaxRuns = 1024; ///< per access; a coarser set only splits a group
    const auto runsOf = [](const ethosu::RegionAccess& a) {
        bool coarsened = false;
        return ethosu::accessRuns(a, kMaxRuns, coarsened);
    };
    const auto overlaps = [](const Group& g, int region, const std::vector<ethosu::ByteRun>& runs) {
        const auto found = g.written.find(region);
        if (found == g.written.end())
            return false;
        const Runs& have = found->second;
        for (const ethosu::ByteRun& run : runs) {
            auto it = have.upper_bound(run.begin);
            if (it != have.begin() && std::prev(it)->second > run.begin)
                return true;
            if (it != have.end() && it->first < run.end)
                return true;
        }
        return false;
    };
    constexpr std::size_t kOpenGroups = 8; ///< cascaded stripes interleave a few operators
    std::vector<int> out(operations.size(), -1);
    std::vector<Group> open;
    std::vector<std::size_t> pendingDma;
    int next = 0;
    for (std::size_t i = 0; i < operations.size(); ++i) {
        const ethosu::Operation& op = operations[i];
        if (op.kind == ethosu::OpKind::Dma) {
            pendingDma.push_back(i);
            continue;
        }
        const ethosu::RegionAccess* ofm = access(op.writes, "OFM");
        const ethosu::RegionAccess* ifm = access(op.reads, "IFM");
        std::string signature = op.opType;
        for (const char* name : { "kernel", "stride", "dilation" })
            signature += "|" + std::string(op.attributes.find(name).value_or(""));
        if (ofm)
            signature += "|r" + std::to_string(ofm->region) + "|w"
                + (ofm->meta.shape.size() == 4 ? std::to_string(ofm->meta.shape[2]) : "?");
        if (ifm && ifm->meta.shape.size() == 4)
            signature += "|iw" + std::to_string(ifm->meta.shape[2]) + "|ic" + std::to_string(ifm->meta.shape[3]);
        std::vector<std::pair<int, std::vector<ethosu::ByteRun>>> writes;
        for (const ethosu::RegionAccess& w : op.writes)
            writes.emplace_back(w.region, runsOf(w));
        Group* joined = nullptr;
        if (op.kind != ethosu::OpKind::Unknown && op.kind != ethosu::OpKind::Branch && ofm) {
            std::vector<std::pair<int, std::vector<ethosu::ByteRun>>> reads;
            for (const ethosu::RegionAccess& r : op.reads)
                reads.emplace_back(r.region, runsOf(r));
            for (auto it = open.rbegin(); it != open.rend(); ++it) {
                if (it->signature != signature)
                    continue;
                const auto clash = [&](const auto& list) {
                    return std::any_of(list.begin(), list.end(),
                        [&](const auto& entry) { return overlaps(*it, entry.first, entry.second); });
                };
                if (clash(writes) || clash(reads))
                    continue;
                joined = &*it;
                break;
            }
        }
        if (!joined) {
            open.push_back({ next++, signature, {} });
            if (open.size() > kOpenGroups)
                open.erase(open.begin());
            joined = &open.back();
        }
        for (const auto& [region, runs] : writes) {
            Runs& have = joined->written[region];
            for (const ethosu::ByteRun& run : runs)
                have[run.begin] = std::max(have[run.begin], run.end); // overlaps were refused above
        }
        out[i] = joined->index;
        for (const std::size_t d : pendingDma)
            out[d] = joined->index;
        pendingDma.clear();
    }
    // DMA after the last kernel kick: a group of its own.
    if (!pendingDma.empty()) {
        const int index = next++;
        for (const std::size_t d : pendingDma)
            out[d] = index;
    }
    // Number the groups in the order they first appear.
    std::map<int, int> renumber;
    for (int& g : out) {
        if (g < 0)
            continue;
        const auto [it, added] = renumber.emplace(g, static_cast<int>(renumber.size()));
        g = it->second;
    }
    return out;
}

std::optional<std::span<const std::uint8_t>> findCommandBlock(std::span<const std::uint8_t> payload, std::string& why)
{
    // vela_bin_stream: blocks of a 32-byte header (16-byte name, uint32 size, …) and their data
    // padded to 16 (facts sheet §3.4, as core/delegates/ethosu.cpp reads it).
    constexpr std::size_t kHeader = 32;
    if (payload.size() < kHeader || std::memcmp(payload.data(), "vela_bin_stream\0", 16) != 0) {
        why = "the payload is no vela_bin_stream";
        return std::nullopt;
    }
    std::size_t offset = 0;
    while (offset + kHeader <= payload.size()) {
        const std::uint8_t* header = payload.data() + offset;
        const std::string_view name(
            reinterpret_cast<const char*>(header), strnlen(reinterpret_cast<const char*>(header), 16));
        const std::uint64_t size = readLe32(header + 16);
        const std::size_t data = offset + kHeader;
        if (size > payload.size() - data) {
            why = "block '" + std::string(name) + "' runs past the payload";
            return std::nullopt;
        }
        if (name == "cmd_data") {
            if (header[20] != 0) {
                why = "the command stream is held in named data";
                return std::nullopt;
            }
            return payload.subspan(data, size);
        }
        if (name == "vela_end_stream")
            break;
        offset = data + ((size + 15) / 16) * 16;
    }
    why = "the payload has no cmd_data block";
    return std::nullopt;
}

} // namespace etscope::core::cost
