// SPDX-License-Identifier: MIT
// What each Ethos-U NPU kick costs, from the registers the command stream set for it
// (core/delegates/ethosucommands.h replays them): MACs and bytes, and a cycle ESTIMATE from the
// NPU's MACs per cycle and the memory bandwidths of the Vela system configuration the compile
// flags name. The estimate is ETScope's roofline, not Vela's performance model (docs/cost.md).
#pragma once

#include "core/cost/costrules.h"
#include "core/delegates/ethosucommands.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core::cost {

/// One memory behind an AXI port of a Vela system configuration.
struct NpuMemory {
    std::string name; ///< "Sram", "OffChipFlash", "Dram"
    double clockScale = 1.0; ///< <name>_clock_scale
    int portsUsed = 1; ///< <name>_ports_used (U85 configurations; 1 elsewhere)
};

/// A [System_Config.*] section of Vela's vela.ini.
struct NpuSystemConfig {
    std::string name; ///< "Ethos_U55_High_End_Embedded"
    double coreClockHz = 0;
    NpuMemory axi0;
    NpuMemory axi1;
};

/// A [Memory_Mode.*] section: which AXI port holds the constants, the arena and the cache.
struct NpuMemoryMode {
    std::string name; ///< "Shared_Sram"
    int constPort = 1; ///< const_mem_area: 0 Axi0, 1 Axi1
    int arenaPort = 0; ///< arena_mem_area
    int cachePort = 0; ///< cache_mem_area
};

/// The system configurations and memory modes of Vela's Arm/vela.ini, known to this build.
const NpuSystemConfig* findSystemConfig(std::string_view name);
const NpuMemoryMode* findMemoryMode(std::string_view name);

/// What the estimate is computed for; every field says where it was read.
struct NpuSetup {
    ethosu::Arch arch = ethosu::Arch::U55;
    std::string archSource;
    int macsPerCycle = 0; ///< 0: unknown (no compute term)
    std::string macsSource;
    int axiBytesPerCycle = 8; ///< AXI data width / 8: 8 on U55, 16 on U65 and U85
    std::optional<NpuSystemConfig> system; ///< nullopt: no memory term
    std::optional<NpuMemoryMode> memoryMode;
    std::vector<std::string> notes; ///< what could not be read and so is left out
};

/// Bytes one kick moves through each AXI port (by region: 0 weights → const area, 1 scratch →
/// arena, 2 fast scratch → cache; Vela, high_level_command_to_npu_op.py, BasePointerIndex).
struct NpuTraffic {
    std::uint64_t port[2] {}; ///< DMA into the NPU's own memory is on no port
};

/// The cost of one kick.
struct NpuKickCost {
    std::string_view
        kind; ///< a literal: "convolution", "depthwise convolution", "matmul", "pooling", …; empty: no rule
    Work work;
    std::uint64_t bytesRead = 0; ///< feature maps, weights, scales, DMA sources
    std::uint64_t bytesWritten = 0;
    std::uint64_t parameterBytes = 0; ///< weights and scales read (encoded, as stored)
    NpuTraffic traffic;
};

/// MACs, ops and bytes of one operation from its registers:
///   Conv:       MACs = elements(OFM) · IFM depth · kw·kh   (OFM 1·H·W·C)
///   Depthwise:  MACs = elements(OFM) · kw·kh
///   MatMul (U85, weights from IFM2): MACs = elements(OFM) · IFM depth
///   Pool:       ops = elements(OFM) · kw·kh
///   Elementwise:ops = elements(OFM); Resize: ops = taps · elements(OFM)
///   DMA:        data movement (bytes only)
NpuKickCost kickCost(const ethosu::Operation& op);

/// Adds the bytes `op` moves to `cost.traffic`, per AXI port of `setup`'s memory mode (Shared_Sram
/// when the compile flags name none).
void addTraffic(const ethosu::Operation& op, const NpuSetup& setup, NpuKickCost& cost);

/// The cycle estimate of one kick, and how it was made.
struct NpuEstimate {
    std::optional<std::uint64_t> computeCycles; ///< ⌈(MACs + ops) / MACs per cycle⌉
    std::optional<std::uint64_t> memoryCycles; ///< max over ports of ⌈bytes / (bytes per cycle)⌉
    std::uint64_t cycles = 0; ///< the larger of the two
    std::string bound; ///< "compute", "memory", "compute only", "memory only"
};
std::optional<NpuEstimate> estimateKick(const NpuKickCost& cost, const NpuSetup& setup);

/// Bytes per NPU cycle of one AXI port: AXI width · clock scale · ports used.
double portBytesPerCycle(const NpuSetup& setup, int port);

/// Groups consecutive kicks into operators as Vela splits them (stripes, OFM depth slices):
/// a kernel kick continues the previous one's group when it has the same op type, kernel,
/// stride and OFM region, writes OFM bytes none of the group's kicks wrote, and reads none of
/// them (an operator never reads its own output). DMA kicks join the next kernel kick's group
/// (Vela issues them to prefetch its weights). Returns one group index per operation.
std::vector<int> groupKicks(const std::vector<ethosu::Operation>& operations);

/// The cmd_data block of a vela_bin_stream payload; nullopt (with `why`) when there is none.
std::optional<std::span<const std::uint8_t>> findCommandBlock(std::span<const std::uint8_t> payload, std::string& why);

} // namespace etscope::core::cost
