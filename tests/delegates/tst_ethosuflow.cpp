// SPDX-License-Identifier: MIT
// The Ethos-U data flow (issue 36): which earlier operation each byte an NPU operation reads
// comes from. Writer-made U55 command streams with strided, bricked and tiled writes read back in
// blocks, their edges worked out by hand in the comments; random streams against a byte map kept
// in this file; and the real samples against the same byte map.
//
// Every fixture is a chain of 1×1 average pools (a pool reads its IFM over the OFM's extent: no
// padding, kernel 1, stride 1) and 1D DMA copies, written register by register below. Addresses
// follow Arm's public description of the feature-map layout (ethos-u-vela
// ethosu/vela/register_command_stream_util.py, get_address): element (h, w, c) of a tile is at the
// tile's base + h·STRIDE_Y + w·STRIDE_X + c·size (NHWC) or + (c / 16)·STRIDE_C + (c % 16)·size
// (NHCWB16); tile 1 holds the columns from WIDTH0 on (rows below HEIGHT1), tile 2 the rows from
// HEIGHT0 on (columns below WIDTH0), tile 3 the rest.
#include "core/delegates/delegate.h"
#include "core/delegates/ethosucommands.h"
#include "core/delegates/ethosuflow.h"
#include "core/delegates/innercheck.h"
#include "core/document/document.h"
#include "core/writer/payloads/ethosupayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <cstring>
#include <random>
#include <set>

using namespace etscope::core;
using namespace etscope::test;

namespace {

/// One feature map's registers, as the fixtures write them.
struct Fm {
    std::uint32_t base = 0; ///< tile 0 (and every tile the map does not split into)
    std::array<std::uint32_t, 4> tiles {}; ///< bases of tiles 1–3 (index 0 unused)
    int h = 1, w = 1, d = 1;
    int h0 = 0, h1 = 0, w0 = 0; ///< tile sizes; 0: the whole extent
    std::int32_t sx = 1, sy = 1, sc = 16;
    bool brick = false; ///< NHCWB16
    int size = 1; ///< bytes per element: 1 or 2
};

/// The registers of `fm` as the IFM (ofm false) or OFM of the next operation.
void writeFm(EthosUCommandWriter& w, const Fm& fm, bool ofm)
{
    const std::uint16_t s = ofm ? 0x110 : 0x100; // short: region +0xF, tiles +0xB/+0xC/+0xA
    const std::uint16_t l = ofm ? 0x010 : 0x000; // long: bases +0…3, strides x +4, y +5, c +6
    w.shortCommand(static_cast<std::uint16_t>(s + 0xF), 1); // region 1
    w.longCommand(l, fm.base);
    for (std::uint16_t t = 1; t < 4; ++t)
        w.longCommand(static_cast<std::uint16_t>(l + t), fm.tiles[t]);
    w.shortCommand(static_cast<std::uint16_t>(s + 0xB), static_cast<std::uint16_t>((fm.h0 ? fm.h0 : fm.h) - 1));
    w.shortCommand(static_cast<std::uint16_t>(s + 0xC), static_cast<std::uint16_t>((fm.h1 ? fm.h1 : fm.h) - 1));
    w.shortCommand(static_cast<std::uint16_t>(s + 0xA), static_cast<std::uint16_t>((fm.w0 ? fm.w0 : fm.w) - 1));
    w.longCommand(static_cast<std::uint16_t>(l + 4), static_cast<std::uint32_t>(fm.sx));
    w.longCommand(static_cast<std::uint16_t>(l + 5), static_cast<std::uint32_t>(fm.sy));
    w.longCommand(static_cast<std::uint16_t>(l + 6), static_cast<std::uint32_t>(fm.sc));
    const std::uint16_t layout = fm.brick ? 0x40 : 0; // bits 6–7: 1 = NHCWB16
    const std::uint16_t sizeField = fm.size == 2 ? 1 : 0;
    if (ofm) {
        // OFM_PRECISION: size at bits 1–2, bit 8 global scale (no scale buffer is read).
        w.shortCommand(0x114, static_cast<std::uint16_t>(0x100 | layout | (sizeField << 1)));
        w.shortCommand(0x112, static_cast<std::uint16_t>(fm.h - 1)); // OFM_HEIGHT_M1
        w.shortCommand(0x111, static_cast<std::uint16_t>(fm.w - 1)); // OFM_WIDTH_M1
        w.shortCommand(0x113, static_cast<std::uint16_t>(fm.d - 1)); // OFM_DEPTH_M1
    } else {
        w.shortCommand(0x105, static_cast<std::uint16_t>(layout | (sizeField << 2))); // IFM_PRECISION: size at 2–3
        w.shortCommand(0x104, static_cast<std::uint16_t>(fm.d - 1)); // IFM_DEPTH_M1
    }
}

/// A 1×1 average pool from `ifm` to `ofm`: the IFM's height and width are the OFM's.
void pool(EthosUCommandWriter& w, const Fm& ifm, const Fm& ofm)
{
    Fm in = ifm;
    in.h = ofm.h;
    in.w = ofm.w;
    writeFm(w, in, false);
    writeFm(w, ofm, true);
    for (std::uint16_t c = 0x100; c <= 0x103; ++c) // no padding
        w.shortCommand(c, 0);
    w.shortCommand(0x107, 0); // IFM_UPSCALE none
    w.shortCommand(0x120, 0).shortCommand(0x121, 0).shortCommand(0x122, 0); // kernel 1×1, stride 1
    w.shortCommand(0x005, 1); // NPU_OP_POOL, mode 1 = average
}

/// A 1D DMA of `length` bytes from region 0 + `source` to region 1 + `destination`.
void dma(EthosUCommandWriter& w, std::uint32_t source, std::uint32_t destination, std::uint32_t length)
{
    w.shortCommand(0x130, 0).longCommand(0x030, source); // DMA0_SRC_REGION 0, 1D; DMA0_SRC
    w.shortCommand(0x131, 1).longCommand(0x031, destination); // DMA0_DST_REGION 1; DMA0_DST
    w.longCommand(0x032, length).shortCommand(0x010); // DMA0_LEN; DMA_START
}

/// A U55 payload around `w`'s commands: 4 KiB of weights, one input record of `inputBytes`
/// bytes at region 1 + 0 (none when 0), no outputs.
std::vector<std::uint8_t> payload(EthosUCommandWriter& w, std::int32_t inputBytes, bool u85 = false)
{
    w.shortCommand(0x000); // NPU_OP_STOP
    EthosUPayloadSpec spec;
    spec.configWord = u85 ? 0x20000007 : 0x00001807; // product (bits 28–31) 2 = U85, 0 = U55
    spec.idWord = 0x10066001;
    spec.weights.assign(4096, 0);
    spec.scratchSize = 0x10000;
    if (inputBytes > 0)
        spec.inputs.push_back({ { 1, 1, 1, 1, 1, inputBytes }, 1, 0, 1 });
    spec.commands = w.words();
    return writeEthosUPayload(spec);
}

DelegateInfo describe(const std::vector<std::uint8_t>& bytes, bool u85 = false)
{
    DelegateRef ref;
    ref.backendId = "EthosUBackend";
    const std::string target = u85 ? "ethos-u85" : "ethos-u55";
    ref.compileSpecs.push_back({ "target", { target.begin(), target.end() } });
    return describeAlone(bytes, ref);
}

/// The edges as (from, to) node indices, each once; `duplicates` counts repeated ones.
std::set<std::pair<std::size_t, std::size_t>> edgeSet(const Graph& g, int* duplicates = nullptr)
{
    std::set<std::pair<std::size_t, std::size_t>> out;
    for (const Edge& e : g.edges)
        if (!out.insert({ e.from.index(), e.to.index() }).second && duplicates)
            ++*duplicates;
    return out;
}

/// Every byte of region 1 `fm` covers (of tile `only`, when given), by the formula in the header
/// comment, one element at a time.
std::vector<std::uint64_t> fmBytes(const Fm& fm, int only = -1)
{
    std::vector<std::uint64_t> out;
    const int h0 = fm.h0 ? fm.h0 : fm.h;
    const int h1 = fm.h1 ? fm.h1 : fm.h;
    const int w0 = fm.w0 ? fm.w0 : fm.w;
    for (int y = 0; y < fm.h; ++y)
        for (int x = 0; x < fm.w; ++x)
            for (int c = 0; c < fm.d; ++c) {
                int tile = 0;
                int ty = y;
                int tx = x;
                if (x >= w0) {
                    tile = 1;
                    tx -= w0;
                    if (y >= h1) {
                        tile = 3;
                        ty -= h1;
                    }
                } else if (y >= h0) {
                    tile = 2;
                    ty -= h0;
                }
                if (only >= 0 && tile != only)
                    continue;
                const std::int64_t base = tile == 0 ? fm.base : fm.tiles[static_cast<std::size_t>(tile)];
                const std::int64_t channel
                    = fm.brick ? (c / 16) * std::int64_t(fm.sc) + (c % 16) * fm.size : std::int64_t(c) * fm.size;
                const std::int64_t at = base + ty * std::int64_t(fm.sy) + tx * std::int64_t(fm.sx) + channel;
                for (int b = 0; b < fm.size; ++b)
                    if (at + b >= 0)
                        out.push_back(static_cast<std::uint64_t>(at + b));
            }
    return out;
}

/// The byte-map oracle: the latest writer of every byte of each region, a node index or −1.
class ByteMap {
public:
    void write(int region, std::uint64_t at, int writer)
    {
        auto& bytes = m_regions[region];
        if (bytes.size() <= at)
            bytes.resize(at + 1, -1);
        bytes[at] = writer;
    }
    int writer(int region, std::uint64_t at) const
    {
        const auto it = m_regions.find(region);
        return it == m_regions.end() || it->second.size() <= at ? -1 : it->second[at];
    }

private:
    std::map<int, std::vector<int>> m_regions;
};

/// The bytes of a decoded access, from its blocks by plain loops over every step (or its whole
/// range): the oracle's own reading of the AccessBlock geometry, independent of the run merging.
template <class F> void forEachByte(const ethosu::RegionAccess& access, F&& f)
{
    if (access.blocks.empty()) {
        for (std::uint64_t at = access.begin; at < access.end; ++at)
            f(at);
        return;
    }
    for (const ethosu::AccessBlock& b : access.blocks)
        for (std::int64_t k = 0; k < b.axes[2].count; ++k)
            for (std::int64_t j = 0; j < b.axes[1].count; ++j)
                for (std::int64_t i = 0; i < b.axes[0].count; ++i)
                    for (std::int64_t r = 0; r < b.runBytes; ++r) {
                        const std::int64_t at
                            = b.base + i * b.axes[0].stride + j * b.axes[1].stride + k * b.axes[2].stride + r;
                        if (at >= 0)
                            f(static_cast<std::uint64_t>(at));
                    }
}

struct VelaParts {
    std::span<const std::uint8_t> commands;
    std::uint64_t weightBytes = 0;
    std::vector<std::array<std::int64_t, 3>> inputs; ///< region, offset, bytes
    std::vector<std::array<std::int64_t, 3>> outputs;
};

/// The vela_bin_stream blocks (32-byte headers: name, size, external flag), read here again.
VelaParts velaParts(std::span<const std::uint8_t> p)
{
    VelaParts parts;
    std::size_t at = 0;
    while (at + 32 <= p.size()) {
        const std::string name(
            reinterpret_cast<const char*>(p.data() + at), strnlen(reinterpret_cast<const char*>(p.data() + at), 16));
        std::uint32_t size = 0;
        std::memcpy(&size, p.data() + at + 16, 4);
        const auto data = p.subspan(at + 32, std::min<std::size_t>(size, p.size() - at - 32));
        const auto i32 = [&](std::size_t o) {
            std::int32_t v = 0;
            std::memcpy(&v, data.data() + o, 4);
            return std::int64_t(v);
        };
        if (name == "cmd_data") {
            const ethosu::DriverPayload framing = ethosu::readDriverPayload(data);
            parts.commands = data.subspan(framing.commandOffset, framing.commandWords * 4);
        } else if (name == "weight_data") {
            parts.weightBytes = size;
        } else if (name == "inputs" || name == "outputs") {
            for (std::int64_t i = 0; i < i32(0); ++i) {
                const std::size_t r = 4 + static_cast<std::size_t>(i) * 36;
                std::int64_t elements = 1;
                for (std::size_t d = 0; d < 6; ++d)
                    elements *= i32(r + 4 * d);
                (name == "inputs" ? parts.inputs : parts.outputs)
                    .push_back({ i32(r + 32), i32(r + 28), elements * i32(r + 24) });
            }
        } else if (name == "vela_end_stream") {
            break;
        }
        at += 32 + ((size + 15) / 16) * 16;
    }
    return parts;
}

/// The edges the byte map gives for a decoded stream: inputs are nodes 0…I−1, operations
/// follow in stream order, outputs after them. `uncovered` counts bytes read that nothing wrote.
std::set<std::pair<std::size_t, std::size_t>> oracleEdges(
    const ethosu::CommandStream& stream, const VelaParts& parts, std::uint64_t& uncovered)
{
    constexpr int kConstant = -2;
    ByteMap map;
    for (std::uint64_t at = 0; at < parts.weightBytes; ++at)
        map.write(0, at, kConstant);
    std::set<std::pair<std::size_t, std::size_t>> edges;
    int node = 0;
    for (const auto& [region, offset, bytes] : parts.inputs) {
        for (std::int64_t i = 0; i < bytes; ++i)
            map.write(static_cast<int>(region), static_cast<std::uint64_t>(offset + i), node);
        ++node;
    }
    int chained = -1;
    for (const ethosu::Operation& op : stream.operations) {
        for (const ethosu::RegionAccess& access : op.reads)
            forEachByte(access, [&](std::uint64_t at) {
                const int writer = map.writer(access.region, at);
                if (writer >= 0)
                    edges.insert({ static_cast<std::size_t>(writer), static_cast<std::size_t>(node) });
                else if (writer == -1)
                    ++uncovered;
            });
        if (op.kind != ethosu::OpKind::Dma) {
            if (op.chainedInput && chained >= 0)
                edges.insert({ static_cast<std::size_t>(chained), static_cast<std::size_t>(node) });
            chained = op.chainedOutput ? node : -1;
        }
        for (const ethosu::RegionAccess& access : op.writes)
            forEachByte(access, [&](std::uint64_t at) { map.write(access.region, at, node); });
        ++node;
    }
    for (const auto& [region, offset, bytes] : parts.outputs) {
        for (std::int64_t i = 0; i < bytes; ++i) {
            const int writer = map.writer(static_cast<int>(region), static_cast<std::uint64_t>(offset + i));
            if (writer >= 0)
                edges.insert({ static_cast<std::size_t>(writer), static_cast<std::size_t>(node) });
        }
        ++node;
    }
    return edges;
}

/// The byte map's edges for a writer-made payload, decoded again here for `arch`.
std::set<std::pair<std::size_t, std::size_t>> oracleOf(const std::vector<std::uint8_t>& bytes, ethosu::Arch arch)
{
    const VelaParts parts = velaParts(bytes);
    std::uint64_t uncovered = 0;
    return oracleEdges(ethosu::decodeCommands(parts.commands, arch), parts, uncovered);
}

} // namespace

class TestEthosUFlow : public QObject {
    Q_OBJECT

private slots:
    // The transpose of the issue, 3×2×3 instead of 7×7×7: writer k (k = 0, 1, 2) is a pool whose
    // OFM is 2 rows × 3 columns × 1 channel at 0x100 + 2k with STRIDE_X 6 and STRIDE_Y 1, so it
    // writes bytes 0x100 + 2k + 6x + y: {0,1, 6,7, 12,13} + 2k. Together they fill 0x100–0x111,
    // each 6-byte row x = [0x100 + 6x, +6) holding two bytes of every writer. Readers r = 0, 1, 2
    // read one row each (IFM 1×6×1 NHWC at 0x100 + 6r), so each reads from all three writers.
    // Nodes: input 0, writers 1–3, readers 4–6; writers read the input's bytes 0–5 (IFM 2×3×1
    // NHWC at 0, STRIDE_X 1, STRIDE_Y 3).
    // Edges: input → 1, 2, 3; {1, 2, 3} → {4, 5, 6}: 3 + 9 = 12. The whole-range reading gave
    // writer 3 bytes 0x104–0x111 and so readers 5 and 6 one producer each (3 + 3 + 1 + 1 = 8).
    void stridedTranspose()
    {
        EthosUCommandWriter w;
        const Fm in { 0, {}, 2, 3, 1, 0, 0, 0, 1, 3 };
        for (std::uint32_t k = 0; k < 3; ++k)
            pool(w, in, Fm { 0x100 + 2 * k, {}, 2, 3, 1, 0, 0, 0, 6, 1 });
        for (std::uint32_t r = 0; r < 3; ++r)
            pool(w, Fm { 0x100 + 6 * r, {}, 1, 6, 1 }, Fm { 0x200 + 8 * r, {}, 1, 6, 1 });
        const DelegateInfo info = describe(payload(w, 6));
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        int duplicates = 0;
        const auto edges = edgeSet(*info.innerGraph, &duplicates);
        QCOMPARE(duplicates, 0);
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 4 }, { 2, 4 },
            { 3, 4 }, { 1, 5 }, { 2, 5 }, { 3, 5 }, { 1, 6 }, { 2, 6 }, { 3, 6 } };
        QCOMPARE(edges, expected);
    }

    // NHCWB16 with a partly filled brick: a DMA (node 1) copies 128 bytes to 0x100–0x17F; a pool
    // (node 2) writes OFM 2×2×24 NHCWB16 at 0x100 with STRIDE_X 16, STRIDE_C 32, STRIDE_Y 64:
    // channels 0–15 at 0x100 + 64y + 16x + [0, 16) = 0x100–0x11F and 0x140–0x15F; channels 16–23
    // at 0x120 + 64y + 16x + [0, 8) = 0x120–0x127, 0x130–0x137, 0x160–0x167, 0x170–0x177. The
    // brick's padding (0x128–0x12F, 0x138–0x13F, …) keeps the DMA's bytes. Readers (1×8×1 NHWC):
    // node 3 reads 0x128–0x12F (padding): the DMA only; node 4 reads 0x120–0x127: the pool only;
    // node 5 reads 0x15C–0x163: the pool's bytes 0x15C–0x15F and 0x160–0x163, the pool only;
    // node 6 reads 0x174–0x17B: the pool (0x174–0x177) and the DMA (0x178–0x17B). The pool's
    // IFM is the input (node 0), 2×2×24 NHWC at 0 (96 bytes). The whole range 0x100–0x177 hid
    // the DMA from node 3 and from half of node 6.
    void brickedPartialDepth()
    {
        EthosUCommandWriter w;
        dma(w, 0, 0x100, 128);
        pool(w, Fm { 0, {}, 2, 2, 24, 0, 0, 0, 24, 48 }, Fm { 0x100, {}, 2, 2, 24, 0, 0, 0, 16, 64, 32, true });
        for (const std::uint32_t at : { 0x128u, 0x120u, 0x15Cu, 0x174u })
            pool(w, Fm { at, {}, 1, 8, 1 }, Fm { 0x400 + at, {}, 1, 8, 1 });
        const DelegateInfo info = describe(payload(w, 96));
        QVERIFY(info.warnings.empty());
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 2 }, { 1, 3 }, { 2, 4 }, { 2, 5 }, { 2, 6 },
            { 1, 6 } };
        QCOMPARE(edgeSet(*info.innerGraph), expected);
    }

    // Tiles: a DMA (node 1) fills 0x100–0x1BF; a pool (node 2) writes OFM 4×4×1 in three tiles:
    // WIDTH0 2, HEIGHT0 2, HEIGHT1 4, STRIDE_X 1, STRIDE_Y 4. Tile 0 (rows 0–1, columns 0–1) at
    // 0x100: 0x100–0x101, 0x104–0x105; tile 1 (rows 0–3, columns 2–3) at 0x140: 0x140–0x141,
    // 0x144–0x145, 0x148–0x149, 0x14C–0x14D; tile 2 (rows 2–3, columns 0–1) at 0x180:
    // 0x180–0x181, 0x184–0x185. Readers (1×2×1): node 3 at 0x148: the pool; node 4 at 0x14A (a
    // gap inside tile 1): the DMA; node 5 at 0x120 (between tiles 0 and 1): the DMA; node 6 at
    // 0x185 (pool byte 0x185, DMA byte 0x186): both. A tiled read: node 7 reads IFM 4×4×1 with
    // the same tiles and strides — exactly the pool's 16 bytes: the pool alone (the whole range
    // of tile 1, 0x140–0x14D, would take in the DMA's gaps). Node 2's IFM: input node 0, 16 bytes.
    void tiledWriteAndRead()
    {
        EthosUCommandWriter w;
        dma(w, 0, 0x100, 0xC0);
        Fm tiled { 0x100, { 0, 0x140, 0x180, 0 }, 4, 4, 1, 2, 4, 2, 1, 4 };
        pool(w, Fm { 0, {}, 4, 4, 1, 0, 0, 0, 1, 4 }, tiled);
        for (const std::uint32_t at : { 0x148u, 0x14Au, 0x120u, 0x185u })
            pool(w, Fm { at, {}, 1, 2, 1 }, Fm { 0x400 + at, {}, 1, 2, 1 });
        pool(w, tiled, Fm { 0x800, {}, 4, 4, 1, 0, 0, 0, 1, 4 });
        const DelegateInfo info = describe(payload(w, 16));
        QVERIFY(info.warnings.empty());
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 2 }, { 2, 3 }, { 1, 4 }, { 1, 5 }, { 2, 6 },
            { 1, 6 }, { 2, 7 } };
        QCOMPARE(edgeSet(*info.innerGraph), expected);
    }

    // IFM2 broadcast and scalar (U55: IFM2_BROADCAST 0x180 bit 0 = H, bit 7 = scalar). Pools
    // write row 0 (node 1, 0x100–0x103) and row 1 (node 2, 0x104–0x107) of a 2×4×1 map; node 3
    // adds the input (IFM 2×4×1 at 0) to IFM2 at 0x100 broadcast along H: it reads row 0 only,
    // so node 1 but not node 2; node 4 adds a scalar: no IFM2 bytes, the input alone.
    void broadcastAndScalar()
    {
        EthosUCommandWriter w;
        pool(w, Fm { 0, {}, 1, 4, 1 }, Fm { 0x100, {}, 1, 4, 1 });
        pool(w, Fm { 0, {}, 1, 4, 1 }, Fm { 0x104, {}, 1, 4, 1 });
        for (const std::uint16_t broadcast : { std::uint16_t(0x01), std::uint16_t(0x80) }) {
            writeFm(w, Fm { 0, {}, 2, 4, 1, 0, 0, 0, 1, 4 }, false);
            writeFm(w, Fm { 0x300, {}, 2, 4, 1, 0, 0, 0, 1, 4 }, true);
            w.shortCommand(0x18F, 1).longCommand(0x080, 0x100); // IFM2 region 1, base 0x100
            for (std::uint16_t t = 1; t < 4; ++t)
                w.longCommand(static_cast<std::uint16_t>(0x080 + t), 0);
            w.longCommand(0x084, 1).longCommand(0x085, 4).longCommand(0x086, 16); // IFM2 strides x, y, c
            w.shortCommand(0x18B, 1).shortCommand(0x18C, 1).shortCommand(0x18A, 3); // IFM2 tiles: whole
            w.shortCommand(0x185, 0); // IFM2_PRECISION int8 NHWC
            w.shortCommand(0x180, broadcast); // IFM2_BROADCAST
            w.shortCommand(0x006, 1); // NPU_OP_ELEMENTWISE add
        }
        const DelegateInfo info = describe(payload(w, 8));
        QVERIFY(info.warnings.empty());
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 3 },
            { 0, 4 } };
        QCOMPARE(edgeSet(*info.innerGraph), expected);
    }

    // A U55 2D DMA (the mode in bits 9–10 of DMA0_DST_REGION, as regor's U65 generator writes
    // it; SKIP0 the gap after each row). Node 0: a 1D DMA fills region 1 0x100–0x13F. Node 1: a
    // 2D DMA of LEN 4, SIZE0 3, SKIP0 12 writes rows at 0x100 + 16j: 0x100–0x103, 0x110–0x113,
    // 0x120–0x123 (its source, 12 bytes of the weight block, gives no edge). Readers (pools of
    // 1×4×1 NHWC): node 2 at 0x104 (a gap): node 0; node 3 at 0x110: node 1; node 4 at 0x122
    // (0x122–0x123 node 1, 0x124–0x125 node 0): both; node 5 at 0x130 (past the last row): node 0.
    // Edges: {0,2} {1,3} {1,4} {0,4} {0,5}. The range reading took the mode from the source
    // region (1D) and so LEN bytes only: node 3 and half of node 4 went to node 0.
    void dma2dU55()
    {
        EthosUCommandWriter w;
        dma(w, 0, 0x100, 0x40);
        w.shortCommand(0x130, 0).longCommand(0x030, 0); // DMA0_SRC_REGION 0, 1D; DMA0_SRC
        w.shortCommand(0x131, 1 | (1 << 9)).longCommand(0x031, 0x100); // DMA0_DST_REGION 1, 2D
        w.shortCommand(0x132, 3).longCommand(0x033, 12); // DMA0_SIZE0 3; DMA0_SKIP0 12
        w.longCommand(0x032, 4).shortCommand(0x010); // DMA0_LEN 4; DMA_START
        for (const std::uint32_t at : { 0x104u, 0x110u, 0x122u, 0x130u })
            pool(w, Fm { at, {}, 1, 4, 1 }, Fm { 0x400 + at, {}, 1, 4, 1 });
        const auto bytes = payload(w, 0);
        const DelegateInfo info = describe(bytes);
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 2 }, { 1, 3 }, { 1, 4 }, { 0, 4 },
            { 0, 5 } };
        QCOMPARE(edgeSet(*info.innerGraph), expected);
        QCOMPARE(edgeSet(*info.innerGraph), oracleOf(bytes, ethosu::Arch::U55));
        const Node& copy = info.innerGraph->nodes.at(1);
        QCOMPARE(attribute(copy, "transfer"), std::string("2D"));
        QCOMPARE(attribute(copy, "skips"), std::string("12"));
    }

    // A U85 3D DMA with its own source and destination strides (mode in DMA0_SRC_REGION bits
    // 9–10; SRC_STRIDE0/1 and DST_STRIDE0/1 from row start to row start, regor's U85
    // generator). All copies go region 1 → region 1 but the first three, which copy the weights.
    // Node 0 fills 0x00–0x3F; node 1 rewrites 0x08–0x09; node 2 fills 0x100–0x11F. Node 3: LEN
    // 2, SIZE0 2, SIZE1 2, source strides 8 and 32: reads 0x00–0x01, 0x08–0x09, 0x20–0x21,
    // 0x28–0x29 (nodes 0 and 1); destination strides 16 and 4 at 0x100: writes 0x100 + 16j + 4k
    // + {0, 1} = 0x100–0x101, 0x104–0x105, 0x110–0x111, 0x114–0x115. Readers (1D, 2 bytes, to
    // 0x800 + 16i): node 4 at 0x102: node 2; node 5 at 0x104: node 3; node 6 at 0x113 (0x113
    // node 2, 0x114 node 3): both; node 7 at 0x116: node 2.
    // Edges: {0,3} {1,3} {2,4} {3,5} {2,6} {3,6} {2,7}. The ethosu_gem.c bound ((2 + 16)·2 + 4)·2
    // = 80 bytes from 0x100 gave node 3 every byte of 0x100–0x14F, hiding node 2 from 4, 6, 7.
    void dma3dU85()
    {
        EthosUCommandWriter w;
        const auto copy = [&](int srcRegion, std::uint32_t source, std::uint32_t destination, std::uint32_t length) {
            w.shortCommand(0x130, static_cast<std::uint16_t>(srcRegion)).longCommand(0x030, source);
            w.shortCommand(0x131, 1).longCommand(0x031, destination);
            w.longCommand(0x032, length).shortCommand(0x010);
        };
        copy(0, 0, 0x00, 0x40);
        copy(0, 0, 0x08, 2);
        copy(0, 0, 0x100, 0x20);
        w.shortCommand(0x130, 1 | (2 << 9)).longCommand(0x030, 0); // DMA0_SRC_REGION 1, 3D
        w.shortCommand(0x131, 1).longCommand(0x031, 0x100);
        w.shortCommand(0x132, 2).shortCommand(0x133, 2); // DMA0_SIZE0, DMA0_SIZE1
        w.longCommand(0x033, 8).longCommand(0x034, 32); // DMA0_SRC_STRIDE0/1
        w.longCommand(0x035, 16).longCommand(0x036, 4); // DMA0_DST_STRIDE0/1
        w.longCommand(0x032, 2).shortCommand(0x010);
        std::uint32_t out = 0x800;
        for (const std::uint32_t at : { 0x102u, 0x104u, 0x113u, 0x116u }) {
            copy(1, at, out, 2);
            out += 16;
        }
        const auto bytes = payload(w, 0, true);
        const DelegateInfo info = describe(bytes, true);
        QVERIFY(info.warnings.empty());
        QVERIFY(info.innerGraph);
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 3 }, { 1, 3 }, { 2, 4 }, { 3, 5 }, { 2, 6 },
            { 3, 6 }, { 2, 7 } };
        QCOMPARE(edgeSet(*info.innerGraph), expected);
        QCOMPARE(edgeSet(*info.innerGraph), oracleOf(bytes, ethosu::Arch::U85));
        QCOMPARE(attribute(info.innerGraph->nodes.at(3), "strides (source, destination)"),
            std::string("rows 8, 16; blocks 32, 4"));
    }

    // U85 chaining: an OFM whose storage is "chained" (OFM_PRECISION bits 14–15 = 2) passes to
    // the next kernel inside the NPU, through no memory. Node 0: a pool from the input (node −,
    // none here: it reads the weight block) whose OFM is chained; node 1: a DMA between them
    // (DMA runs beside the kernels and keeps the chain); node 2: a pool whose IFM is chained
    // (IFM_PRECISION bits 14–15 = 2), reading no memory. Edges: {0, 2} only.
    void u85Chaining()
    {
        EthosUCommandWriter w;
        const auto kernel = [&](bool chainOut, bool chainIn) {
            w.shortCommand(0x10F, 0).longCommand(0x000, 0); // IFM region 0 (weights), base 0
            w.longCommand(0x004, 1).longCommand(0x005, 4).longCommand(0x006, 16); // IFM strides
            w.shortCommand(0x10B, 0).shortCommand(0x10C, 0).shortCommand(0x10A, 3); // IFM tiles: 1×4
            w.shortCommand(0x105, static_cast<std::uint16_t>(chainIn ? 2 << 14 : 0)); // IFM_PRECISION
            w.shortCommand(0x104, 0); // IFM_DEPTH_M1
            w.shortCommand(0x11F, 1).longCommand(0x010, chainOut ? 0 : 0x200); // OFM region 1
            w.longCommand(0x014, 1).longCommand(0x015, 4).longCommand(0x016, 16);
            w.shortCommand(0x11B, 0).shortCommand(0x11C, 0).shortCommand(0x11A, 3);
            w.shortCommand(0x114, static_cast<std::uint16_t>(0x100 | (chainOut ? 2 << 14 : 0))); // OFM_PRECISION
            w.shortCommand(0x112, 0).shortCommand(0x111, 3).shortCommand(0x113, 0); // OFM 1×4×1
            w.shortCommand(0x120, 0).shortCommand(0x121, 0).shortCommand(0x122, 0);
            w.shortCommand(0x005, 1); // NPU_OP_POOL average
        };
        kernel(true, false);
        dma(w, 0, 0x300, 4);
        kernel(false, true);
        const auto bytes = payload(w, 0, true);
        const DelegateInfo info = describe(bytes, true);
        QVERIFY(info.innerGraph);
        const std::set<std::pair<std::size_t, std::size_t>> expected { { 0, 2 } };
        QCOMPARE(edgeSet(*info.innerGraph), expected);
        QCOMPARE(edgeSet(*info.innerGraph), oracleOf(bytes, ethosu::Arch::U85));
    }

    // Random pools and DMAs on a 1 KiB scratch against the byte map of this file (fmBytes): the
    // same edges, and the self-check's uncovered reads are the byte map's.
    void randomStreams()
    {
        std::mt19937 random(36);
        const auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
        for (int round = 0; round < 300; ++round) {
            EthosUCommandWriter w;
            ByteMap map;
            std::set<std::pair<std::size_t, std::size_t>> expected;
            std::uint64_t uncovered = 0;
            constexpr int kInput = 64;
            for (int at = 0; at < kInput; ++at)
                map.write(1, static_cast<std::uint64_t>(at), 0);
            const auto randomFm = [&] {
                Fm fm;
                fm.h = pick(1, 4);
                fm.w = pick(1, 4);
                fm.d = pick(1, 20);
                fm.size = pick(0, 3) == 0 ? 2 : 1;
                fm.brick = pick(0, 2) == 0;
                fm.sx = pick(0, 1) ? (fm.brick ? 16 * fm.size : fm.d * fm.size) : pick(1, 40);
                fm.sy = pick(0, 1) ? fm.sx * fm.w : pick(1, 80);
                fm.sc = fm.brick ? pick(0, 1) ? fm.sx * fm.w : pick(16, 64) : 16;
                fm.base = static_cast<std::uint32_t>(pick(0, 600));
                if (pick(0, 3) == 0) {
                    fm.w0 = pick(1, fm.w);
                    fm.h0 = pick(1, fm.h);
                    fm.h1 = pick(1, fm.h);
                    for (std::size_t t = 1; t < 4; ++t)
                        fm.tiles[t] = static_cast<std::uint32_t>(pick(0, 600));
                }
                return fm;
            };
            const int operations = pick(2, 10);
            for (int n = 1; n <= operations; ++n) {
                const auto node = static_cast<std::size_t>(n);
                if (pick(0, 4) == 0) {
                    const auto source = static_cast<std::uint32_t>(pick(0, 200));
                    const auto destination = static_cast<std::uint32_t>(pick(0, 700));
                    const auto length = static_cast<std::uint32_t>(pick(1, 100));
                    dma(w, source, destination, length);
                    for (std::uint32_t i = 0; i < length; ++i)
                        map.write(1, destination + i, n); // region 0 is the weight block: no edge
                    continue;
                }
                Fm ofm = randomFm();
                Fm ifm = randomFm();
                ifm.h = ofm.h;
                ifm.w = ofm.w;
                ifm.w0 = std::min(ifm.w0, ifm.w);
                ifm.h0 = std::min(ifm.h0, ifm.h);
                ifm.h1 = std::min(ifm.h1, ifm.h);
                pool(w, ifm, ofm);
                // Each byte once per tile (the check counts per access, and a tile is one access):
                // elements may overlap when a stride is shorter than an element's run.
                for (int tile = 0; tile < 4; ++tile) {
                    const std::vector<std::uint64_t> read = fmBytes(ifm, tile);
                    for (const std::uint64_t at : std::set<std::uint64_t>(read.begin(), read.end())) {
                        const int writer = map.writer(1, at);
                        if (writer >= 0)
                            expected.insert({ static_cast<std::size_t>(writer), node });
                        else
                            ++uncovered;
                    }
                }
                for (const std::uint64_t at : fmBytes(ofm))
                    map.write(1, at, n);
            }
            const auto bytes = payload(w, kInput);
            const DelegateInfo info = describe(bytes);
            QVERIFY(info.innerGraph);
            int duplicates = 0;
            const auto edges = edgeSet(*info.innerGraph, &duplicates);
            QCOMPARE(duplicates, 0);
            if (edges != expected) {
                std::string text;
                for (const auto& [from, to] : edges)
                    text += std::to_string(from) + "→" + std::to_string(to) + " ";
                text += " expected ";
                for (const auto& [from, to] : expected)
                    text += std::to_string(from) + "→" + std::to_string(to) + " ";
                QFAIL(("round " + std::to_string(round) + ": " + text).c_str());
            }
            Program empty;
            empty.file = MappedFile::fromBytes("fixture", bytes);
            DelegateRef ref;
            ref.backendId = "EthosUBackend";
            ref.payload = { 0, bytes.size() };
            const ethosu::FlowCheck check = ethosu::checkDataFlow(empty, ref, bytes);
            QVERIFY(check.decoded);
            QCOMPARE(check.uncoveredBytes, uncovered);
        }
    }

    // Runs of one access: strided rows expand, touching rows fold, a set finer than the cap is
    // coarsened into a superset and says so.
    void accessRuns()
    {
        ethosu::RegionAccess access;
        access.begin = 0x100;
        access.end = 0x100 + 6 * 2 + 1 + 1;
        // 2 rows (stride 1) × 3 columns (stride 6) of 1 byte: {0,1}, {6,7}, {12,13} past 0x100.
        access.blocks.push_back({ 0x100, 1, { ethosu::AccessAxis { 3, 6 }, ethosu::AccessAxis { 2, 1 }, {} } });
        bool coarsened = true;
        auto runs = ethosu::accessRuns(access, 100, coarsened);
        QVERIFY(!coarsened);
        const std::vector<ethosu::ByteRun> rows { { 0x100, 0x102 }, { 0x106, 0x108 }, { 0x10C, 0x10E } };
        QCOMPARE(runs, rows);
        // A cap of 2: the column axis (stride 6) is the finest that leaves gaps; filling it gives
        // one run 0x100–0x10E.
        runs = ethosu::accessRuns(access, 2, coarsened);
        QVERIFY(coarsened);
        QCOMPARE(runs, (std::vector<ethosu::ByteRun> { { 0x100, 0x10E } }));
        // A map of 65535 rows of 1 byte, stride 3: 65535 runs, well inside the cap of 2^17.
        ethosu::RegionAccess tall;
        tall.begin = 0;
        tall.end = 3 * 65534 + 1;
        tall.blocks.push_back({ 0, 1, { ethosu::AccessAxis { 65535, 3 }, {}, {} } });
        runs = ethosu::accessRuns(tall, std::size_t(1) << 17, coarsened);
        QCOMPARE(runs.size(), std::size_t(65535));
        QCOMPARE(runs.back(), (ethosu::ByteRun { 3 * 65534, 3 * 65534 + 1 }));
    }

    // The real samples: every edge the byte map implies and no other (every byte an NPU operation
    // reads that an earlier operation wrote gives an edge from its latest writer), and no read of
    // bytes nothing wrote. Inner edges with the whole-range reading (before) → now, both printed
    // by this test's qInfo and the old decoder at 0606132: cmsis minimal 14 → 14, mobilenet_v2
    // u55 1719 → 1605, tinycnn 202 → 202, lrn u85 #0 1078 → 1041, lrn u85 #1 18 → 18.
    void samplesAgainstByteMap_data()
    {
        QTest::addColumn<std::string>("path");
        QTest::addColumn<int>("delegate");
        QTest::addRow("cmsis minimal u55") << std::string("cmsis-executorch/ethos_u_minimal_example_u55.pte") << 0;
        QTest::addRow("mobilenet v2 u55") << std::string("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte") << 0;
        QTest::addRow("tinycnn u55") << std::string("tinycnn/tinycnn_u55.pte") << 0;
        QTest::addRow("mobilenet v2 lrn u85 #0")
            << std::string("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte") << 0;
        QTest::addRow("mobilenet v2 lrn u85 #1")
            << std::string("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte") << 1;
    }

    void samplesAgainstByteMap()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QFETCH(std::string, path);
        QFETCH(int, delegate);
        auto document = openDocument(samplePath(path));
        QVERIFY(document);
        const Method* method = document->program->method("forward");
        QVERIFY(method);
        const DelegateRef& ref = method->delegates.at(static_cast<std::size_t>(delegate));
        const MethodAnalysis* analysis = document->analysis(*method);
        const DelegateInfo& info = analysis->delegates.at(static_cast<std::size_t>(delegate));
        QVERIFY(info.innerGraph);
        const VelaParts parts = velaParts(document->program->bytes(ref.payload));
        const auto arch = fact(info, "register map").starts_with("Ethos-U85") ? ethosu::Arch::U85 : ethosu::Arch::U55;
        const ethosu::CommandStream stream = ethosu::decodeCommands(parts.commands, arch);
        std::uint64_t uncovered = 0;
        const auto expected = oracleEdges(stream, parts, uncovered);
        std::size_t runs = 0; // what the stream costs the decoder's run budget (ethosu.cpp)
        bool coarsened = false;
        for (const ethosu::Operation& op : stream.operations)
            for (const auto* list : { &op.reads, &op.writes })
                for (const ethosu::RegionAccess& access : *list) {
                    bool c = false;
                    runs += ethosu::accessRuns(access, std::size_t(1) << 17, c).size();
                    coarsened = coarsened || c;
                }
        qInfo("%s delegate %d: %zu byte runs", path.c_str(), delegate, runs);
        QVERIFY(!coarsened);
        int duplicates = 0;
        const auto edges = edgeSet(*info.innerGraph, &duplicates);
        QCOMPARE(duplicates, 0);
        std::size_t missing = 0;
        for (const auto& e : expected)
            missing += edges.count(e) ? 0 : 1;
        std::size_t extra = 0;
        for (const auto& e : edges)
            extra += expected.count(e) ? 0 : 1;
        qInfo("%s delegate %d: %zu edges, byte map %zu, missing %zu, extra %zu, uncovered bytes %llu", path.c_str(),
            delegate, edges.size(), expected.size(), missing, extra, static_cast<unsigned long long>(uncovered));
        QCOMPARE(missing, std::size_t(0));
        QCOMPARE(extra, std::size_t(0));
        QCOMPARE(uncovered, std::uint64_t(0));
    }

    // Two edges of the real samples worked out from the operations' registers by hand.
    void samplesByHand()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto at = [](const Graph& g, const char* command) -> const Node* {
            for (const Node& n : g.nodes)
                if (n.attributes.find("command index") == command)
                    return &n;
            return nullptr;
        };
        const auto edge = [](const Graph& g, const Node* from, const Node* to) {
            return std::any_of(
                g.edges.begin(), g.edges.end(), [&](const Edge& e) { return e.from == from->id && e.to == to->id; });
        };
        // mobilenet_v2 u55: the conv of command 2924 writes OFM 7×7×64 NHCWB16 at region 1 +
        // 0x25a0 (x 16, c 112, y 6720): per row y, four bricks of 7·16 bytes, 0x25a0 + 6720y +
        // [0, 0x1c0). The depthwise of command 3062 reads IFM 7×7×256 NHCWB16 at 0x1ea0 with the
        // same strides: per row, sixteen bricks 0x1ea0 + 6720y + [0, 0x700), which ends at
        // 0x25a0 + 6720y: the slices sit side by side, no byte shared. The whole range of the
        // depthwise (0x1ea0 to 6·6720 + 0x25a0) took in the conv's rows and drew an edge.
        auto document = openDocument(samplePath("pte-adapter-model-explorer/mobilenet_v2_ethosu.pte"));
        QVERIFY(document);
        const Graph& u55 = *document->analysis(*document->program->method("forward"))->delegates.at(0).innerGraph;
        const Node* conv = at(u55, "2924");
        const Node* depthwise = at(u55, "3062");
        QVERIFY(conv && depthwise);
        QCOMPARE(attribute(*conv, "OFM address"), std::string("region 1 + 0x25a0"));
        QCOMPARE(attribute(*depthwise, "IFM address"), std::string("region 1 + 0x1ea0"));
        QVERIFY(!edge(u55, conv, depthwise));
        // mobilenetv2_lrn u85 #0: the sum pool of command 3096 writes OFM 7×7×1280 NHWC at
        // 0x1ea02 with x 1284, y 8988 (rows of 1284 channels, 1280 of them written, 2 bytes in);
        // the sum pool of command 3145 reads IFM 7×7×1284 at 0x1ea00 with the same strides, so
        // channels 2–1281 of every position are 3096's. The whole range of a later writer of
        // the gaps had hidden it.
        document = openDocument(samplePath("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte"));
        QVERIFY(document);
        const Graph& u85 = *document->analysis(*document->program->method("forward"))->delegates.at(0).innerGraph;
        const Node* writer = at(u85, "3096");
        const Node* reader = at(u85, "3145");
        QVERIFY(writer && reader);
        QCOMPARE(attribute(*writer, "OFM address"), std::string("region 1 + 0x1ea02"));
        QCOMPARE(attribute(*reader, "IFM address"), std::string("region 1 + 0x1ea00"));
        QVERIFY(edge(u85, writer, reader));
    }
};

QTEST_GUILESS_MAIN(TestEthosUFlow)
#include "tst_ethosuflow.moc"
