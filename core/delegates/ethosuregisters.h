// SPDX-License-Identifier: MIT
// The Ethos-U command opcodes and the bit fields of their parameters, as the decoder uses them.
//
// Facts (opcode numbers, field positions, enumerations) from Arm's public register
// descriptions, read in:
// - ethos-u-vela, ethosu/vela/ethos_u55_regs/ethos_u55_regs.py (architecture 1.0.6), as mirrored
//   in github.com/nxp-imx/ethos-u-vela @ a6f6566;
// - ethos-u-vela (regor), ethosu/regor/architecture/ethosu65/ethos_u65_interface.hpp and
//   ethosu/regor/architecture/ethosu85/ethos_u85_interface.hpp (architecture 2.0.0), as mirrored in
//   github.com/hapv3/neural-compiler @ f190b8c8 ("Add support for Ethos-U85");
// - Linux drivers/accel/ethosu/ethosu_gem.c (the kernel's command stream validator, U65/U85):
//   40-bit addresses (bits 16–23 of the first word above the payload), kernel stride bits.
// The names are ours; U55 and U65 share one map, U85 moves or adds the ones marked.
#pragma once

#include <cstdint>

namespace etscope::core::ethosu::code {

// Operations: short commands whose opcode has bit 8 clear.
constexpr std::uint16_t kStop = 0x000;
constexpr std::uint16_t kIrq = 0x001;
constexpr std::uint16_t kConv = 0x002;
constexpr std::uint16_t kDepthwise = 0x003;
constexpr std::uint16_t kPool = 0x005;
constexpr std::uint16_t kElementwise = 0x006;
constexpr std::uint16_t kResize = 0x007; ///< U85
constexpr std::uint16_t kDmaStart = 0x010;
constexpr std::uint16_t kDmaWait = 0x011;
constexpr std::uint16_t kKernelWait = 0x012;
constexpr std::uint16_t kPmuMask = 0x013;

// Short register writes (16-bit parameter).
constexpr std::uint16_t kIfmPadTop = 0x100;
constexpr std::uint16_t kIfmPadLeft = 0x101;
constexpr std::uint16_t kIfmPadRight = 0x102;
constexpr std::uint16_t kIfmPadBottom = 0x103;
constexpr std::uint16_t kIfmDepthM1 = 0x104;
constexpr std::uint16_t kIfmPrecision = 0x105;
constexpr std::uint16_t kIfmUpscale = 0x107;
constexpr std::uint16_t kIfmBroadcast = 0x108; ///< U85
constexpr std::uint16_t kIfmZeroPoint = 0x109;
constexpr std::uint16_t kIfmWidth0M1 = 0x10A;
constexpr std::uint16_t kIfmHeight0M1 = 0x10B;
constexpr std::uint16_t kIfmHeight1M1 = 0x10C;
constexpr std::uint16_t kIfmIbEnd = 0x10D; ///< U55/U65
constexpr std::uint16_t kIfmRegion = 0x10F;
constexpr std::uint16_t kOfmWidthM1 = 0x111;
constexpr std::uint16_t kOfmHeightM1 = 0x112;
constexpr std::uint16_t kOfmDepthM1 = 0x113;
constexpr std::uint16_t kOfmPrecision = 0x114;
constexpr std::uint16_t kOfmBlkWidthM1 = 0x115;
constexpr std::uint16_t kOfmBlkHeightM1 = 0x116;
constexpr std::uint16_t kOfmBlkDepthM1 = 0x117;
constexpr std::uint16_t kOfmZeroPoint = 0x118;
constexpr std::uint16_t kOfmWidth0M1 = 0x11A;
constexpr std::uint16_t kOfmHeight0M1 = 0x11B;
constexpr std::uint16_t kOfmHeight1M1 = 0x11C;
constexpr std::uint16_t kOfmRegion = 0x11F;
constexpr std::uint16_t kKernelWidthM1 = 0x120; ///< dilated extent − 1
constexpr std::uint16_t kKernelHeightM1 = 0x121;
constexpr std::uint16_t kKernelStride = 0x122;
constexpr std::uint16_t kParallelMode = 0x123; ///< U55/U65
constexpr std::uint16_t kAccFormat = 0x124;
constexpr std::uint16_t kActivation = 0x125;
constexpr std::uint16_t kActivationMin = 0x126;
constexpr std::uint16_t kActivationMax = 0x127;
constexpr std::uint16_t kWeightRegion = 0x128;
constexpr std::uint16_t kScaleRegion = 0x129;
constexpr std::uint16_t kResizeXScaleNM1 = 0x12A; ///< U85
constexpr std::uint16_t kResizeYScaleNM1 = 0x12B; ///< U85
constexpr std::uint16_t kResizeXOffset = 0x12C; ///< U85
constexpr std::uint16_t kAbStartOrResizeYOffset = 0x12D; ///< U55/U65 AB_START, U85 RESIZE_Y_OFFSET
constexpr std::uint16_t kWeightFormat = 0x12E; ///< U85
constexpr std::uint16_t kBlockDep = 0x12F;
constexpr std::uint16_t kDmaSrcRegion = 0x130;
constexpr std::uint16_t kDmaDstRegion = 0x131;
constexpr std::uint16_t kDmaSize0 = 0x132;
constexpr std::uint16_t kDmaSize1 = 0x133;
constexpr std::uint16_t kDmaIdxRegion = 0x134; ///< U85
constexpr std::uint16_t kIfm2Broadcast = 0x180;
constexpr std::uint16_t kIfm2Scalar = 0x181; ///< U55/U65
constexpr std::uint16_t kIfm2Precision = 0x185;
constexpr std::uint16_t kIfm2ZeroPoint = 0x189;
constexpr std::uint16_t kIfm2Width0M1 = 0x18A;
constexpr std::uint16_t kIfm2Height0M1 = 0x18B;
constexpr std::uint16_t kIfm2Height1M1 = 0x18C;
constexpr std::uint16_t kIfm2IbStart = 0x18D; ///< U55/U65
constexpr std::uint16_t kIfm2Region = 0x18F;

// Long register writes (a 32-bit payload word follows; addresses take 8 more bits from the
// first word's parameter).
constexpr std::uint16_t kIfmBase0 = 0x000; ///< ..3 for the four tiles
constexpr std::uint16_t kIfmStrideX = 0x004;
constexpr std::uint16_t kIfmStrideY = 0x005;
constexpr std::uint16_t kIfmStrideC = 0x006;
constexpr std::uint16_t kOfmBase0 = 0x010;
constexpr std::uint16_t kOfmStrideX = 0x014;
constexpr std::uint16_t kOfmStrideY = 0x015;
constexpr std::uint16_t kOfmStrideC = 0x016;
constexpr std::uint16_t kWeightBase = 0x020;
constexpr std::uint16_t kWeightLength = 0x021;
constexpr std::uint16_t kScaleBase = 0x022;
constexpr std::uint16_t kScaleLength = 0x023;
constexpr std::uint16_t kOfmScale = 0x024;
constexpr std::uint16_t kOpaScaleOrIfmScale = 0x025; ///< U55/U65 OPA_SCALE, U85 IFM_SCALE
constexpr std::uint16_t kOpbScaleOrIfm2Scale = 0x026; ///< U55/U65 OPB_SCALE, U85 IFM2_SCALE
constexpr std::uint16_t kOpScalar = 0x027; ///< U85
constexpr std::uint16_t kDmaSrc = 0x030;
constexpr std::uint16_t kDmaDst = 0x031;
constexpr std::uint16_t kDmaLen = 0x032;
constexpr std::uint16_t kDmaSkip0OrSrcStride0 = 0x033; ///< U55/U65 SKIP0, U85 SRC_STRIDE0
constexpr std::uint16_t kDmaSkip1OrSrcStride1 = 0x034; ///< U55/U65 SKIP1, U85 SRC_STRIDE1
constexpr std::uint16_t kDmaDstStride0 = 0x035; ///< U85
constexpr std::uint16_t kDmaDstStride1 = 0x036; ///< U85
constexpr std::uint16_t kIfm2Base0 = 0x080;
constexpr std::uint16_t kIfm2StrideX = 0x084;
constexpr std::uint16_t kIfm2StrideY = 0x085;
constexpr std::uint16_t kIfm2StrideC = 0x086;
constexpr std::uint16_t kWeight1Base = 0x090;
constexpr std::uint16_t kWeight1Length = 0x091;
constexpr std::uint16_t kScale1OrWeight2Base = 0x092; ///< U55/U65 SCALE1_BASE, U85 WEIGHT2_BASE
constexpr std::uint16_t kScale1OrWeight2Length = 0x093;
constexpr std::uint16_t kWeight3Base = 0x094; ///< U85
constexpr std::uint16_t kWeight3Length = 0x095; ///< U85
constexpr std::uint16_t kBranch = 0x100; ///< U85: a long command that is an operation

} // namespace etscope::core::ethosu::code
