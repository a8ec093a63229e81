// SPDX-License-Identifier: MIT
// libFuzzer target: a whole ETRecord (ZIP archive) through readETRecord, then what the app and
// the CLI do with it. Mutated entry bytes mostly fail the ZIP CRC check, so the JSON inside is
// fuzzed by the `etrecordjson` target; this one covers the archive and its entry list.
#include "core/debug/etrecord.h"
#include "core/util/mappedfile.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    auto record = readETRecord(MappedFile::fromBytes("fuzz.etrecord", { data, size }));
    if (record)
        etscope::fuzz::analyseETRecord(record.value());
    return 0;
}
