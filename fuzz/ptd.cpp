// SPDX-License-Identifier: MIT
// libFuzzer target: a whole .ptd through readExternalData, then every entry looked up by key
// with its range checked against the file, as delegates and tensors resolving external data
// rely on.
#include "core/pte/externaldata.h"
#include "core/util/mappedfile.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    auto external = readExternalData(MappedFile::fromBytes("fuzz.ptd", { data, size }));
    if (!external)
        return 0;
    for (const ByteRange& segment : external->segments)
        etscope::fuzz::requireInside(size, segment, "a segment");
    for (const NamedDataEntry& entry : external->entries) {
        (void)external->find(entry.key);
        etscope::fuzz::requireInside(size, entry.data, "an entry");
    }
    return 0;
}
