// SPDX-License-Identifier: MIT
// Arm VGF payloads (VgfBackend, ML SDK for Vulkan). The facts sheet (§3.4) only says the payload
// is a VGF file; the header layout below is what the real sample's bytes show, named after the
// public VGF library's header description:
//   0  "VGF1"               magic
//   4  uint16               Vulkan header version the file was written against
//   6  uint16               reserved
//   8  uint8 ×3             format version major, minor, patch (the sample: 0.4.0)
//   11 5 bytes              reserved
//   16 4 × (uint64 offset, uint64 size): module table, model sequence table, model resource
//                           table, constant section — offsets from the start of the file
//   80 48 bytes             reserved; the first section starts at 128 in the sample
// In the sample the four sections are contiguous and the last one ends exactly at the payload's
// end, which is how this decoder checks that it read the header right. The sections themselves
// (SPIR-V modules, the model sequence, resources, weights) stay opaque.
#include "core/delegates/decoderutil.h"
#include "core/delegates/delegate.h"
#include "core/util/text.h"

#include <cstring>

namespace etscope::core {

namespace {

constexpr std::size_t kHeaderSize = 128;
constexpr const char* kSectionNames[]
    = { "module table", "model sequence table", "model resource table", "constant section" };

} // namespace

bool decodeVgf(const DelegateContext& context, DelegateInfo& info)
{
    const auto payload = context.payload;
    if (payload.size() < 4 || std::memcmp(payload.data(), "VGF1", 4) != 0) {
        context.warn(info, "not a VGF file: no VGF1 magic", 0);
        return false;
    }
    if (payload.size() < kHeaderSize) {
        context.warn(info, "the 128-byte VGF header is truncated (" + std::to_string(payload.size()) + " bytes)", 0);
        return false;
    }
    info.format = "vgf";
    const std::uint8_t* p = payload.data();
    const std::string version = std::to_string(p[8]) + "." + std::to_string(p[9]) + "." + std::to_string(p[10]);
    info.facts.push_back({ "magic", "VGF1" });
    info.facts.push_back({ "format version", version });
    info.facts.push_back({ "vulkan header version", std::to_string(readLe16(p + 4)) });

    std::uint64_t end = kHeaderSize;
    bool contiguous = true;
    std::uint64_t constants = 0;
    std::uint64_t modules = 0;
    for (std::size_t s = 0; s < std::size(kSectionNames); ++s) {
        const std::uint64_t offset = readLe64(p + 16 + 16 * s);
        const std::uint64_t size = readLe64(p + 24 + 16 * s);
        const bool inside = detail::rangeInside(payload.size(), offset, size);
        info.facts.push_back({ kSectionNames[s],
            std::to_string(size) + " bytes (" + formatBytes(size) + ") at offset " + std::to_string(offset)
                + (inside ? "" : " (outside the payload!)") });
        if (!inside)
            context.warn(info,
                std::string("the VGF ") + kSectionNames[s] + " lies outside the payload (offset "
                    + std::to_string(offset) + ", size " + std::to_string(size) + ")",
                16 + 16 * s);
        contiguous = contiguous && offset == end;
        end = inside ? offset + size : end;
        if (s == 0)
            modules = size;
        if (s == 3)
            constants = size;
    }
    if (!contiguous || end != payload.size())
        info.facts.push_back({ "section layout", "not the contiguous layout seen in real files" });
    info.summary
        = "VGF " + version + ": " + formatBytes(modules) + " of modules, " + formatBytes(constants) + " of constants";
    return true;
}

} // namespace etscope::core
