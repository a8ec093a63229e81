// SPDX-License-Identifier: MIT
#pragma once

#include "core/pte/program.h"

namespace etscope::core {

/// One input or expected output of a bundled test case.
struct BundledValue {
    enum class Kind { Tensor, Int, Bool, Double, Unknown };
    Kind kind = Kind::Unknown;
    int scalarType = 0;
    std::vector<std::int64_t> sizes;
    std::vector<std::uint8_t> dimOrder;
    ByteRange data; ///< absolute, tensor bytes
    std::int64_t intValue = 0;
    bool boolValue = false;
    double doubleValue = 0;
};

struct BundledTestCase {
    std::vector<BundledValue> inputs;
    std::vector<BundledValue> expectedOutputs;
};

struct BundledTestSuite {
    std::string methodName;
    std::vector<BundledTestCase> cases;
};

/// A .bpte: the embedded program (read in place) plus its test suites.
struct BundledProgram {
    std::uint32_t version = 0;
    std::vector<BundledTestSuite> suites;
    Program program;
};

/// Reads a bundled program (identifier BP08) and the program inside it.
Result<BundledProgram> readBundledProgram(std::shared_ptr<const MappedFile> file);

} // namespace etscope::core
