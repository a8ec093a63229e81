// SPDX-License-Identifier: MIT
#include "core/util/scalartype.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string_view>

namespace etscope::core {
namespace {
struct TypeFacts {
    std::string_view name;
    int size;
};

constexpr std::array<TypeFacts, 30> kTypes { {
    { "BYTE", 1 },
    { "CHAR", 1 },
    { "SHORT", 2 },
    { "INT", 4 },
    { "LONG", 8 },
    { "HALF", 2 },
    { "FLOAT", 4 },
    { "DOUBLE", 8 },
    { "COMPLEXHALF", 4 },
    { "COMPLEXFLOAT", 8 },
    { "COMPLEXDOUBLE", 16 },
    { "BOOL", 1 },
    { "QINT8", 1 },
    { "QUINT8", 1 },
    { "QINT32", 4 },
    { "BFLOAT16", 2 },
    { "QUINT4X2", 1 },
    { "QUINT2X4", 1 },
    { "BITS1X8", 1 },
    { "BITS2X4", 1 },
    { "BITS4X2", 1 },
    { "BITS8", 1 },
    { "BITS16", 2 },
    { "FLOAT8E5M2", 1 },
    { "FLOAT8E4M3FN", 1 },
    { "FLOAT8E5M2FNUZ", 1 },
    { "FLOAT8E4M3FNUZ", 1 },
    { "UINT16", 2 },
    { "UINT32", 4 },
    { "UINT64", 8 },
} };
} // namespace

std::string scalarTypeName(int type)
{
    if (type >= 0 && type < static_cast<int>(kTypes.size()))
        return std::string(kTypes[static_cast<std::size_t>(type)].name);
    return "UNKNOWN(" + std::to_string(type) + ")";
}

int scalarTypeSize(int type)
{
    if (type >= 0 && type < static_cast<int>(kTypes.size()))
        return kTypes[static_cast<std::size_t>(type)].size;
    return 0;
}

double halfToDouble(std::uint16_t bits)
{
    const int sign = (bits >> 15) & 1;
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    double value = 0;
    if (exponent == 0)
        value = std::ldexp(mantissa, -24); // subnormal: mantissa · 2^-24
    else if (exponent == 31)
        value = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        value = std::ldexp(mantissa + 1024, exponent - 25); // (1024 + m) · 2^(e - 15 - 10)
    return sign ? -value : value;
}

double bfloat16ToDouble(std::uint16_t bits)
{
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

} // namespace etscope::core
