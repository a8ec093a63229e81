// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace etscope::core {

/// ExecuTorch / c10 ScalarType numbering (facts sheet §1.5), shared by .pte, .bpte, .ptd and
/// ETDump. Values are kept as plain integers so unknown future values survive.
namespace scalar_type {
constexpr int Byte = 0;
constexpr int Char = 1;
constexpr int Short = 2;
constexpr int Int = 3;
constexpr int Long = 4;
constexpr int Half = 5;
constexpr int Float = 6;
constexpr int Double = 7;
constexpr int Bool = 11;
constexpr int BFloat16 = 15;
constexpr int Bits16 = 22;
constexpr int UInt16 = 27;
constexpr int UInt32 = 28;
constexpr int UInt64 = 29;
} // namespace scalar_type

/// Upper-case name as the schema spells it (e.g. "FLOAT"); "UNKNOWN(n)" for values this
/// build does not know.
std::string scalarTypeName(int type);

/// Bytes per element; 0 when unknown.
int scalarTypeSize(int type);

/// IEEE 754 binary16 bits (sign, 5-bit exponent, 10-bit mantissa) as a double: subnormals,
/// infinities and NaN included.
double halfToDouble(std::uint16_t bits);
/// bfloat16 bits (the upper half of a binary32) as a double.
double bfloat16ToDouble(std::uint16_t bits);

} // namespace etscope::core
