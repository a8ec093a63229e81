// SPDX-License-Identifier: MIT
// libFuzzer target: a whole .bpte through readBundledProgram, then the embedded program as the
// app analyses it.
#include "core/pte/bundledprogram.h"
#include "core/util/mappedfile.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    auto bundled = readBundledProgram(MappedFile::fromBytes("fuzz.bpte", { data, size }));
    if (!bundled)
        return 0;
    const Program& program = bundled->program;
    etscope::fuzz::analyseProgram(program);
    // Test tensors are read straight from the file when comparing outputs.
    for (const BundledTestSuite& suite : bundled->suites)
        for (const BundledTestCase& testCase : suite.cases)
            for (const auto* values : { &testCase.inputs, &testCase.expectedOutputs })
                for (const BundledValue& value : *values)
                    if (value.kind == BundledValue::Kind::Tensor)
                        etscope::fuzz::requireInside(size, value.data, "a bundled test tensor");
    return 0;
}
