// SPDX-License-Identifier: MIT
#include "core/writer/externaldatawriter.h"

#include "core/writer/segmentlayout.h"

#include "flat_tensor_generated.h"

namespace etscope::core {
namespace fbt = etscope::fb::flattensor;

namespace {

constexpr const char* kWriter = "external data writer";
constexpr std::uint32_t kHeaderLength = 40;
constexpr std::uint64_t kHeaderAlignment = 16;

} // namespace

Result<std::vector<std::uint8_t>> writeExternalData(
    const ExternalDataSpec& spec, const ExternalDataWriteOptions& options)
{
    if (auto error = checkAlignment(kWriter, "the segment alignment", options.segmentAlignment))
        return *error;
    SegmentTable segments(options.segmentAlignment);
    std::vector<std::uint32_t> segmentOf;
    for (const ExternalEntrySpec& entry : spec.entries) {
        if (auto error = checkAlignment(kWriter, "the alignment of '" + entry.key + "'", entry.alignment))
            return *error;
        segmentOf.push_back(segments.add(entry.bytes, entry.alignment, options.dedupe ? 1 : 0));
    }

    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbt::DataSegment>> segmentTables;
    for (const SegmentTable::Placed& placed : segments.placed())
        segmentTables.push_back(fbt::CreateDataSegment(fbb, placed.offset, placed.size));
    const auto segmentVector = fbb.CreateVector(segmentTables);
    std::vector<flatbuffers::Offset<fbt::NamedData>> named;
    for (std::size_t i = 0; i < spec.entries.size(); ++i) {
        const ExternalEntrySpec& entry = spec.entries[i];
        const auto key = fbb.CreateString(entry.key);
        flatbuffers::Offset<fbt::TensorLayout> layout = 0;
        if (entry.layout) {
            const std::vector<std::int32_t> sizes(entry.layout->sizes.begin(), entry.layout->sizes.end());
            const auto sizeVector = fbb.CreateVector(sizes);
            const auto dimOrder = fbb.CreateVector(entry.layout->dimOrder);
            layout = fbt::CreateTensorLayout(
                fbb, static_cast<std::int8_t>(entry.layout->scalarType), sizeVector, dimOrder);
        }
        named.push_back(fbt::CreateNamedData(fbb, key, segmentOf[i], layout));
    }
    const auto namedVector = fbb.CreateVector(named);
    fbb.Finish(fbt::CreateFlatTensor(fbb, spec.version, segmentVector, namedVector), fbt::FlatTensorIdentifier());

    std::vector<std::uint8_t> bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    const std::uint64_t flatbufferSize = bytes.size();
    const std::uint64_t padded = alignUp(kHeaderLength, kHeaderAlignment);
    const std::uint64_t segmentBase = alignUp(flatbufferSize + padded, options.segmentAlignment);
    std::vector<std::uint8_t> header { 'F', 'H', '0', '1' };
    appendLe32(header, kHeaderLength);
    appendLe64(header, padded); // flatbuffer_offset: the FlatBuffer region is [0, padded + size)
    appendLe64(header, flatbufferSize);
    appendLe64(header, segmentBase);
    appendLe64(header, segments.dataSize());
    spliceHeader(bytes, header, kHeaderAlignment);
    segments.appendTo(bytes, segmentBase);
    return bytes;
}

} // namespace etscope::core
