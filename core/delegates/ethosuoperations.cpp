// SPDX-License-Identifier: MIT
// One builder per Ethos-U operation kind: which feature maps, weights and scales the kick uses
// (and so which byte ranges it reads and writes), its label, op type and attributes. The
// field layouts are in ethosuregisters.h, the range rules in ethosucommands.cpp.
#include "core/delegates/ethosureplayer.h"
#include "core/util/text.h"

namespace etscope::core::ethosu::replay {

Operation Replayer::kernelOperation(OpKind kind, std::uint16_t param)
{
    Operation op = started(kind);
    const FeatureMap ofmRegs = featureMap(kOfm);
    FeatureMap ofm = ofmRegs;
    ofm.height = m_regs.param(kOfmHeightM1) + 1;
    ofm.width = m_regs.param(kOfmWidthM1) + 1;
    ofm.depth = m_regs.param(kOfmDepthM1) + 1;
    std::int64_t strideX = 1, strideY = 1, kernelW = 1, kernelH = 1;
    kernelFacts(op, strideX, strideY, kernelW, kernelH);

    FeatureMap ifm = featureMap(kIfm);
    ifm.depth = m_regs.param(kIfmDepthM1) + 1;
    ifm.height = std::max<std::int64_t>(
        1, (ofm.height - 1) * strideY + kernelH - m_regs.param(kIfmPadTop) - m_regs.param(kIfmPadBottom));
    ifm.width = std::max<std::int64_t>(
        1, (ofm.width - 1) * strideX + kernelW - m_regs.param(kIfmPadLeft) - m_regs.param(kIfmPadRight));
    const int upscale = m_regs.param(kIfmUpscale) & 3;
    if (upscale != 0) {
        ifm.height = (ifm.height + 1) / 2;
        ifm.width = (ifm.width + 1) / 2;
        op.attributes.add("IFM upscale", upscale == 1 ? "nearest" : "zeros");
    }

    const std::string kernelText(op.attributes[1].value);
    const std::string strideText = strideX == 1 && strideY == 1
        ? ""
        : (strideX == strideY ? " /" + std::to_string(strideX) : " /" + std::string(op.attributes[2].value));
    bool readsIfm = true;
    bool weightsFromIfm2 = false;
    switch (kind) {
    case OpKind::Conv:
        op.mode = "conv";
        weightsFromIfm2 = u85() && (param & 1);
        op.opType = weightsFromIfm2 ? "MatMul" : "Conv";
        op.label = op.opType + (weightsFromIfm2 ? "" : " " + kernelText) + strideText;
        break;
    case OpKind::Depthwise:
        op.opType = "Depthwise";
        op.mode = "depthwise";
        op.label = op.opType + " " + kernelText + strideText;
        break;
    default: {
        const int mode = param & 7;
        static constexpr const char* kModes[]
            = { "max", "avg", "reduce sum", "sum", "none", "min", "argmax x", "argmax y" };
        const bool known = u85() ? true : mode <= 2;
        op.mode = known ? kModes[mode] : "mode " + std::to_string(param);
        static constexpr const char* kLabels[]
            = { "MaxPool", "AvgPool", "ReduceSum", "SumPool", "NullPool", "MinPool", "ArgMax x", "ArgMax y" };
        op.opType = known ? std::string(kLabels[mode]) : "Pool " + op.mode;
        op.label = op.opType + " " + kernelText + strideText;
        // A pool without a mode reads no IFM (ethosu_gem.c: use_ifm = mode != NONE).
        readsIfm = !(u85() && mode == 4);
        op.attributes.add("pooling", op.mode);
        break;
    }
    }
    if (readsIfm)
        addFeatureMap(op, ifm, false);
    if (weightsFromIfm2) {
        FeatureMap ifm2 = featureMap(kIfm2);
        ifm2.height = 1;
        ifm2.width = ifm.depth;
        ifm2.depth = ofm.depth;
        addFeatureMap(op, ifm2, false);
    }
    addFeatureMap(op, ofm, true);
    if (kind == OpKind::Conv || kind == OpKind::Depthwise) {
        if (!weightsFromIfm2) {
            const int region = m_regs.param(kWeightRegion) & 7;
            addBuffer(op, "weights", region, kWeightBase, kWeightLength);
            if (m_regs.payload(kWeight1Length))
                addBuffer(op, "weights 1", region, kWeight1Base, kWeight1Length);
            if (u85() && m_regs.payload(kScale1OrWeight2Length))
                addBuffer(op, "weights 2", region, kScale1OrWeight2Base, kScale1OrWeight2Length);
            if (u85() && m_regs.payload(kWeight3Length))
                addBuffer(op, "weights 3", region, kWeight3Base, kWeight3Length);
        }
    }
    // Per-channel scales are read unless the OFM precision asks for the global scale (bit 8).
    const bool globalScale = (m_regs.param(kOfmPrecision) >> 8) & 1;
    if (!globalScale) {
        const int region = m_regs.param(kScaleRegion) & 7;
        addBuffer(op, "scales", region, kScaleBase, kScaleLength);
        if (!u85() && m_regs.payload(kScale1OrWeight2Length))
            addBuffer(op, "scales 1", region, kScale1OrWeight2Base, kScale1OrWeight2Length);
    } else {
        scaleFacts(op, kOfmScale, "OFM scale");
    }
    activationFacts(op, ofm);
    blockFacts(op);
    return op;
}

Operation Replayer::elementwiseOperation(std::uint16_t param)
{
    Operation op = started(OpKind::Elementwise);
    const int mode = param & 0x3F;
    static constexpr const char* kModes[]
        = { "mul", "add", "sub", "min", "max", "leaky relu", "abs", "clz", "shr", "shl", "lsr", "div" };
    std::string name;
    if (mode <= 9 || (u85() && mode <= 11))
        name = kModes[mode];
    else if (u85() && mode >= 16 && mode <= 19)
        name = std::array<const char*, 4> { "cmp eq", "cmp ne", "cmp ge",
            "cmp gt" }[static_cast<std::size_t>(mode - 16)];
    else if (u85() && mode >= 33 && mode <= 36)
        name = std::array<const char*, 4> { "and", "or", "xor", "not" }[static_cast<std::size_t>(mode - 33)];
    else if (u85() && mode == 42)
        name = "and not";
    else
        name = "mode " + std::to_string(mode);
    op.mode = name;
    op.opType = name;
    op.opType[0] = static_cast<char>(op.opType[0] - 'a' + 'A');
    op.label = op.opType;

    FeatureMap ofm = featureMap(kOfm);
    ofm.height = m_regs.param(kOfmHeightM1) + 1;
    ofm.width = m_regs.param(kOfmWidthM1) + 1;
    ofm.depth = m_regs.param(kOfmDepthM1) + 1;
    const auto broadcastInto = [&](FeatureMap& fm, std::uint16_t b) {
        fm.height = (b & 1) ? 1 : ofm.height;
        fm.width = (b & 2) ? 1 : ofm.width;
        fm.depth = (b & 4) ? 1 : ofm.depth;
    };
    const auto broadcastText = [](std::uint16_t b) {
        std::string out;
        for (const auto& [bit, axis] : { std::pair { 1, "H" }, std::pair { 2, "W" }, std::pair { 4, "C" } })
            if (b & bit)
                out += (out.empty() ? "" : ", ") + std::string(axis);
        return out.empty() ? std::string("none") : out;
    };

    const bool unary = mode == 5 || mode == 6 || mode == 7 || (u85() && mode == 36);
    FeatureMap ifm = featureMap(kIfm);
    const std::uint16_t ifmBroadcast = u85() ? m_regs.param(kIfmBroadcast) : 0;
    const bool ifmScalar = u85() && (ifmBroadcast & 0xF) == 8;
    broadcastInto(ifm, ifmScalar ? 0 : ifmBroadcast);
    if (!ifmScalar)
        addFeatureMap(op, ifm, false);
    else
        op.attributes.add("IFM", "scalar " + std::to_string(m_regs.payload(kOpScalar)));
    if (u85() && ifmBroadcast && !ifmScalar)
        op.attributes.add("IFM broadcast", broadcastText(ifmBroadcast));

    if (!unary) {
        const std::uint16_t b = m_regs.param(kIfm2Broadcast);
        const bool scalar = u85() ? (b & 0xF) == 8 : (b & 0x80) != 0;
        if (scalar) {
            const std::int64_t value
                = u85() ? static_cast<std::int32_t>(m_regs.payload(kOpScalar)) : m_regs.signedParam(kIfm2Scalar);
            op.attributes.add("IFM2", "scalar " + std::to_string(value));
            op.label += " scalar";
        } else {
            FeatureMap ifm2 = featureMap(kIfm2);
            broadcastInto(ifm2, b);
            addFeatureMap(op, ifm2, false);
            op.attributes.add("IFM2 broadcast", broadcastText(b));
        }
        if (!u85() && (b & 0x40))
            op.attributes.add("operand order", "reversed (IFM2 first)");
    }
    addFeatureMap(op, ofm, true);
    if (u85()) {
        scaleFacts(op, kOpaScaleOrIfmScale, "IFM scale");
        if (!unary)
            scaleFacts(op, kOpbScaleOrIfm2Scale, "IFM2 scale");
    } else {
        scaleFacts(op, kOpaScaleOrIfmScale, "OPA scale");
    }
    scaleFacts(op, kOfmScale, "OFM scale");
    activationFacts(op, ofm);
    blockFacts(op);
    return op;
}

Operation Replayer::resizeOperation(std::uint16_t param)
{
    Operation op = started(OpKind::Resize);
    static constexpr const char* kModes[] = { "bilinear", "replicate", "nearest", "mode 3" };
    op.mode = kModes[param & 3];
    op.opType = "Resize " + op.mode;
    op.label = op.opType;
    FeatureMap ifm = featureMap(kIfm);
    ifm.height = ifm.height0;
    ifm.width = ifm.width0;
    ifm.depth = m_regs.param(kIfmDepthM1) + 1;
    FeatureMap ofm = featureMap(kOfm);
    ofm.height = m_regs.param(kOfmHeightM1) + 1;
    ofm.width = m_regs.param(kOfmWidthM1) + 1;
    ofm.depth = m_regs.param(kOfmDepthM1) + 1;
    addFeatureMap(op, ifm, false);
    addFeatureMap(op, ofm, true);
    op.attributes.add("resize scale (x, y)",
        std::to_string(m_regs.param(kResizeXScaleNM1) + 1) + ", " + std::to_string(m_regs.param(kResizeYScaleNM1) + 1));
    op.attributes.add("resize offset (x, y)",
        std::to_string(signExtend(m_regs.param(kResizeXOffset) & 0xFFF, 12)) + ", "
            + std::to_string(signExtend(m_regs.param(kAbStartOrResizeYOffset) & 0xFFF, 12)));
    activationFacts(op, ofm);
    blockFacts(op);
    return op;
}

namespace {

/// The bytes one side of a DMA touches: `length` bytes at base + j·rowStride + k·blockStride
/// (j < rows, k < blocks), as one strided block and its bounds.
RegionAccess dmaSide(const char* role, int region, std::uint64_t base, std::int64_t length, AccessAxis rows,
    AccessAxis blocks, std::int64_t transferred)
{
    RegionAccess access;
    access.role = role;
    access.region = region;
    access.raw = true;
    access.meta = { "uint8", { transferred } };
    std::int64_t low = 0;
    std::int64_t high = length;
    for (const AccessAxis& axis : { rows, blocks }) {
        const std::int64_t span = (axis.count - 1) * axis.stride; // |·| < 2^16 · 2^40
        (span < 0 ? low : high) += span;
    }
    const auto start = static_cast<std::int64_t>(base);
    access.begin = static_cast<std::uint64_t>(std::max<std::int64_t>(0, start + low));
    access.end = static_cast<std::uint64_t>(std::max<std::int64_t>(0, start + high));
    if (rows.count > 1 || blocks.count > 1)
        access.blocks.push_back({ start, length, { rows, blocks, AccessAxis {} } });
    return access;
}

} // namespace

Operation Replayer::dmaOperation()
{
    Operation op = started(OpKind::Dma);
    op.mode = "dma";
    op.opType = "DMA";
    const std::uint16_t srcRegion = m_regs.param(kDmaSrcRegion);
    const std::uint16_t dstRegion = m_regs.param(kDmaDstRegion);
    const auto length = static_cast<std::int64_t>(std::min<std::uint64_t>(m_regs.address(kDmaLen), 1ull << 40));
    // Bits 9–10 of a region register: 0 1D, 1 2D (SIZE0 rows), 2 3D (SIZE1 blocks of rows).
    const int srcMode = (srcRegion >> 9) & 3;
    const int dstMode = (dstRegion >> 9) & 3;
    // U85 (regor EthosU85RCSGenerator::GenerateDMA, github.com/hapv3/neural-compiler @ f68df6c,
    // ethosu/regor/architecture/ethosu85/ethos_u85_register_cs_generator.cpp) sets the mode in
    // the source region only; SRC_STRIDE0/1 and DST_STRIDE0/1 are each side's distances from
    // one row (block) to the next. U55/U65 (regor EthosU65RCSGenerator::GenerateDMA, same
    // repository, architecture/ethosu65) set it in the destination region and read the source
    // as one contiguous run; SKIP0 is the gap after each row (stride − length) and SKIP1 the
    // gap after each block of rows (stride − length·SIZE0).
    const int mode = u85() ? srcMode : std::max(srcMode, dstMode);
    const std::int64_t size0 = mode >= 1 ? std::max<std::int64_t>(1, m_regs.param(kDmaSize0)) : 1;
    const std::int64_t size1 = mode == 2 ? std::max<std::int64_t>(1, m_regs.param(kDmaSize1)) : 1;
    // Bytes moved, for the edge's label: at most 2^44 · 2^16 (LEN below 2^40, sizes below 2^16).
    const std::int64_t transferred = std::min<std::int64_t>(length * size0, std::int64_t(1) << 44) * size1;
    // Region mode bit 8: 1 means the NPU's internal memory (U55/U65 SHRAM, e.g. a lookup table).
    const bool srcInternal = (srcRegion >> 8) & 1;
    const bool dstInternal = (dstRegion >> 8) & 1;
    const std::uint64_t src = m_regs.address(kDmaSrc);
    const std::uint64_t dst = m_regs.address(kDmaDst);
    const auto where = [](bool internal, int region, std::uint64_t address) {
        Text text;
        if (internal)
            text << "internal memory";
        else
            text << "region " << region;
        return (text << " + ").hex(address);
    };
    op.attributes.add("source", where(srcInternal, srcRegion & 7, src).view());
    op.attributes.add("destination", where(dstInternal, dstRegion & 7, dst).view());
    op.attributes.add("length", (Text() << length << " bytes").view());
    static constexpr const char* kModes[] = { "1D", "2D", "3D", "mode 3" };
    op.attributes.add("transfer", kModes[mode]);
    if (mode == 1)
        op.attributes.add("sizes", (Text() << size0).view());
    else if (mode == 2)
        op.attributes.add("sizes", (Text() << size0 << ", " << size1).view());
    op.label = "DMA " + formatBytes(static_cast<std::uint64_t>(length)) + (dstInternal ? " → internal" : "");

    AccessAxis srcRows { size0, length };
    AccessAxis srcBlocks { size1, length * size0 };
    AccessAxis dstRows = srcRows;
    AccessAxis dstBlocks = srcBlocks;
    bool exact = true;
    if (u85()) {
        srcRows.stride = m_regs.signedAddress(kDmaSkip0OrSrcStride0);
        srcBlocks.stride = m_regs.signedAddress(kDmaSkip1OrSrcStride1);
        dstRows.stride = m_regs.signedAddress(kDmaDstStride0);
        dstBlocks.stride = m_regs.signedAddress(kDmaDstStride1);
        if (mode >= 1) {
            Text strides;
            strides << "rows " << srcRows.stride << ", " << dstRows.stride;
            if (mode == 2)
                strides << "; blocks " << srcBlocks.stride << ", " << dstBlocks.stride;
            op.attributes.add("strides (source, destination)", strides.view());
        }
    } else if (mode >= 1) {
        const std::int64_t skip0 = m_regs.signedAddress(kDmaSkip0OrSrcStride0);
        const std::int64_t skip1 = m_regs.signedAddress(kDmaSkip1OrSrcStride1);
        Text skips;
        skips << skip0;
        if (mode == 2)
            skips << ", " << skip1;
        op.attributes.add("skips", skips.view());
        // A side whose own region sets no mode is read or written as one run of all the bytes
        // (regor's U65 source); the Linux ethosu_gem.c validator takes the skips for both sides.
        // With both skips set, whether a block's step counts the row gaps is in no source read
        // here (regor's U65 writes both only as stride − bytes moved): the larger step bounds
        // both readings, and the whole span is taken.
        exact = !(mode == 2 && skip0 != 0);
        const std::int64_t blockStep
            = exact ? length * size0 + skip1 : std::max(length * size0, (length + skip0) * size0) + skip1;
        if (srcMode >= 1) {
            srcRows.stride = length + skip0;
            srcBlocks.stride = blockStep;
        }
        if (dstMode >= 1) {
            dstRows.stride = length + skip0;
            dstBlocks.stride = blockStep;
        }
        if (!exact)
            op.attributes.add("transfer layout", "unverified: the whole span is taken as touched");
    }
    RegionAccess read = dmaSide("source", srcRegion & 7, src, length, srcRows, srcBlocks, transferred);
    RegionAccess write = dmaSide("destination", dstRegion & 7, dst, length, dstRows, dstBlocks, transferred);
    if (!exact) {
        read.blocks.clear();
        write.blocks.clear();
    }
    if (!srcInternal && read.end > read.begin)
        op.reads.push_back(std::move(read));
    if (!dstInternal && write.end > write.begin)
        op.writes.push_back(std::move(write));
    return op;
}

} // namespace etscope::core::ethosu::replay
