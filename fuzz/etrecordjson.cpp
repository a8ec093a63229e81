// SPDX-License-Identifier: MIT
// libFuzzer target: the JSON entries of an ETRecord. The input is parts separated by NUL bytes;
// each part's first byte picks the entry name (fuzz/fuzzsupport.h, kETRecordJsonEntries) and
// the rest is the entry's text. The parts are written into a valid archive with the
// ETRECORD_V0 marker, so every mutation reaches the JSON readers instead of failing the ZIP
// CRC check, and several maps in one input reach the code that joins them.
#include "core/debug/etrecord.h"
#include "core/util/mappedfile.h"
#include "fuzz/etrecordparts.h"
#include "fuzz/fuzzsupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    const auto archive = etscope::fuzz::etrecordArchiveFromParts({ data, size });
    if (!archive)
        return 0;
    auto record = readETRecord(MappedFile::fromBytes("fuzz.etrecord", *archive));
    if (record)
        etscope::fuzz::analyseETRecord(record.value());
    return 0;
}
