// SPDX-License-Identifier: MIT
// The Ethos-U command stream replayer's insides, shared by ethosucommands.cpp (register file,
// feature maps, the replay loop) and ethosuoperations.cpp (one builder per operation kind).
// Private to core/delegates.
#pragma once

#include "core/delegates/ethosucommands.h"
#include "core/delegates/ethosuregisters.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <concepts>
#include <cstring>
#include <string>
#include <string_view>

namespace etscope::core::ethosu::replay {

using namespace code;

constexpr std::size_t kMaxWarnings = 20;

inline std::string hex(std::uint64_t value)
{
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

inline std::int64_t signExtend(std::uint64_t value, int bits)
{
    const std::uint64_t sign = 1ull << (bits - 1);
    return static_cast<std::int64_t>((value ^ sign) - sign);
}

/// One attribute's text, built in a fixed buffer without heap allocations (the decoder formats
/// some twenty per operation); cut at its capacity.
class Text {
public:
    Text& operator<<(std::string_view text)
    {
        const std::size_t n = std::min(text.size(), m_buffer.size() - m_size);
        std::memcpy(m_buffer.data() + m_size, text.data(), n);
        m_size += n;
        return *this;
    }
    template <std::integral T>
    requires(!std::same_as<T, char> && !std::same_as<T, bool>) Text& operator<<(T value)
    {
        const auto [end, error] = std::to_chars(m_buffer.data() + m_size, m_buffer.data() + m_buffer.size(), value);
        if (error == std::errc())
            m_size = static_cast<std::size_t>(end - m_buffer.data());
        return *this;
    }
    Text& hex(std::uint64_t value)
    {
        *this << "0x";
        const auto [end, error] = std::to_chars(m_buffer.data() + m_size, m_buffer.data() + m_buffer.size(), value, 16);
        if (error == std::errc())
            m_size = static_cast<std::size_t>(end - m_buffer.data());
        return *this;
    }
    std::string_view view() const { return { m_buffer.data(), m_size }; }

private:
    std::array<char, 176> m_buffer;
    std::size_t m_size = 0;
};

/// The register file: the last value written by each short and long command.
struct Registers {
    std::array<std::uint16_t, 1024> shortValue {};
    std::array<std::uint64_t, 1024> longValue {}; ///< first word's parameter << 32 | payload

    std::uint16_t param(std::uint16_t c) const { return shortValue[c & 0x3FF]; }
    std::int64_t signedParam(std::uint16_t c) const { return signExtend(param(c), 16); }
    std::uint32_t payload(std::uint16_t c) const { return static_cast<std::uint32_t>(longValue[c & 0x3FF]); }
    std::uint16_t longParam(std::uint16_t c) const { return static_cast<std::uint16_t>(longValue[c & 0x3FF] >> 32); }
    /// 40-bit address: bits 0–7 of the first word's parameter above the payload.
    std::uint64_t address(std::uint16_t c) const
    {
        return (static_cast<std::uint64_t>(longParam(c) & 0xFF) << 32) | payload(c);
    }
    std::int64_t signedAddress(std::uint16_t c) const { return signExtend(address(c), 40); }
};

struct FeatureMap {
    const char* role = "";
    int region = 0;
    std::array<std::uint64_t, 4> base {};
    std::int64_t strideX = 0;
    std::int64_t strideY = 0;
    std::int64_t strideC = 0;
    std::int64_t height0 = 1; ///< tile sizes (the *_M1 registers + 1)
    std::int64_t height1 = 1;
    std::int64_t width0 = 1;
    std::int64_t height = 1; ///< the extent the operation uses
    std::int64_t width = 1;
    std::int64_t depth = 1;
    bool isSigned = false;
    int bits = 8;
    bool nhcwb16 = false;
    int storage = 0; ///< U85: 0 2×2 tiles, 1 3×1 tiles, 2 chained, 3 none
    int transpose = 0; ///< U85 OFM: the order the (h, w, c) axes are stored in, 0 = HWC
    int reverse = 0; ///< U85 OFM: 0 none, 1 H, 2 W, 3 C
    std::int64_t zeroPoint = 0;

    std::int64_t elementSize() const { return bits / 8; }
    std::string dtype() const { return (isSigned ? "int" : "uint") + std::to_string(bits); }
    TensorMeta meta() const { return { dtype(), { 1, height, width, depth } }; }
};

struct Which {
    const char* role;
    std::uint16_t region, precision, zeroPoint, width0, height0, height1;
    std::uint16_t base0, strideX, strideY, strideC;
};
constexpr Which kIfm { "IFM", kIfmRegion, kIfmPrecision, kIfmZeroPoint, kIfmWidth0M1, kIfmHeight0M1, kIfmHeight1M1,
    kIfmBase0, kIfmStrideX, kIfmStrideY, kIfmStrideC };
constexpr Which kIfm2 { "IFM2", kIfm2Region, kIfm2Precision, kIfm2ZeroPoint, kIfm2Width0M1, kIfm2Height0M1,
    kIfm2Height1M1, kIfm2Base0, kIfm2StrideX, kIfm2StrideY, kIfm2StrideC };
constexpr Which kOfm { "OFM", kOfmRegion, kOfmPrecision, kOfmZeroPoint, kOfmWidth0M1, kOfmHeight0M1, kOfmHeight1M1,
    kOfmBase0, kOfmStrideX, kOfmStrideY, kOfmStrideC };

class Replayer {
public:
    Replayer(std::span<const std::uint8_t> bytes, Arch arch)
        : m_bytes(bytes)
        , m_arch(arch)
    {
    }
    CommandStream run();

private:
    bool u85() const { return m_arch == Arch::U85; }
    void warn(std::string text, std::uint64_t at);
    FeatureMap featureMap(const Which& which) const;
    void addFeatureMap(Operation& op, const FeatureMap& fm, bool write) const;
    void addBuffer(Operation& op, const char* role, int region, std::uint16_t baseCode, std::uint16_t lengthCode) const;
    void kernelFacts(Operation& op, std::int64_t& strideX, std::int64_t& strideY, std::int64_t& kernelW,
        std::int64_t& kernelH) const;
    void activationFacts(Operation& op, const FeatureMap& ofm) const;
    void blockFacts(Operation& op) const;
    void scaleFacts(Operation& op, std::uint16_t c, const char* name) const;
    Operation started(OpKind kind) const;
    Operation kernelOperation(OpKind kind, std::uint16_t param);
    Operation elementwiseOperation(std::uint16_t param);
    Operation resizeOperation(std::uint16_t param);
    Operation dmaOperation();

    std::span<const std::uint8_t> m_bytes;
    Arch m_arch;
    Registers m_regs;
    CommandStream m_out;
    std::uint32_t m_index = 0; ///< of the command being replayed
    std::uint64_t m_at = 0; ///< its byte offset
};

} // namespace etscope::core::ethosu::replay
