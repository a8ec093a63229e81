// SPDX-License-Identifier: MIT
// libFuzzer target: a whole .pte through readProgram, then what opening it in the app does
// (every delegate described, every method's graph built, counted and flattened), then the
// analyses of `etscope check`, `memory`, `size` and `diff` on it.
#include "core/pte/program.h"
#include "core/util/mappedfile.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    auto program = readProgram(MappedFile::fromBytes("fuzz.pte", { data, size }));
    if (!program)
        return 0;
    etscope::fuzz::analyseProgram(program.value());
    etscope::fuzz::analyseProgramDocument(std::move(program).value());
    return 0;
}
