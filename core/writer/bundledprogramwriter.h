// SPDX-License-Identifier: MIT
#pragma once

#include "core/pte/bundledprogram.h"
#include "core/util/result.h"
#include "core/util/scalartype.h"

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// One input or expected output of a bundled test case (facts sheet §6, Value union).
struct BundledValueSpec {
    BundledValue::Kind kind = BundledValue::Kind::Tensor;
    int scalarType = scalar_type::Float;
    std::vector<std::int32_t> sizes;
    std::vector<std::uint8_t> dimOrder; ///< empty: contiguous
    std::vector<std::uint8_t> data;
    std::int64_t intValue = 0;
    bool boolValue = false;
    double doubleValue = 0;

    static BundledValueSpec tensor(int scalarType, std::vector<std::int32_t> sizes, std::vector<std::uint8_t> data);
    static BundledValueSpec integer(std::int64_t value);
    static BundledValueSpec boolean(bool value);
    static BundledValueSpec real(double value);
};

struct BundledTestCaseSpec {
    std::vector<BundledValueSpec> inputs;
    std::vector<BundledValueSpec> expectedOutputs;
};

struct BundledSuiteSpec {
    std::string methodName;
    std::vector<BundledTestCaseSpec> cases;
};

struct BundledProgramSpec {
    std::uint32_t version = 2; ///< what the exporter writes
    std::vector<std::uint8_t> program; ///< a complete .pte (e.g. from writeProgram)
    std::vector<BundledSuiteSpec> suites;
};

/// Serialises a .bpte (identifier BP08, §6): the program bytes embedded 32-byte aligned, tensor
/// data 16-byte aligned, no extended header. Values of kind Unknown are written with no union
/// member. Never fails today; the Result leaves room for limits.
Result<std::vector<std::uint8_t>> writeBundledProgram(const BundledProgramSpec& spec);

} // namespace etscope::core
