// SPDX-License-Identifier: MIT
#include "core/pte/externaldata.h"
#include "core/pte/verify.h"
#include "core/util/guard.h"

#include "core/util/text.h"
#include "flat_tensor_generated.h"
#include "flat_tensor_v0_generated.h"

#include <algorithm>
#include <cstring>

namespace etscope::core {
namespace fbt = etscope::fb::flattensor;
namespace fbt0 = etscope::fb::flattensor0;

namespace {

constexpr std::uint64_t kHeaderEnd = 48; // 8-byte FlatBuffers prefix + 40-byte FH01 header

TensorLayout layoutOf(
    int scalarType, const flatbuffers::Vector<std::int32_t>* sizes, const flatbuffers::Vector<std::uint8_t>* dimOrder)
{
    TensorLayout layout;
    layout.scalarType = scalarType;
    if (sizes)
        layout.sizes.assign(sizes->begin(), sizes->end());
    if (dimOrder)
        layout.dimOrder.assign(dimOrder->begin(), dimOrder->end());
    return layout;
}

// The first layout has four root fields (version, tensor_alignment, tensors, segments); the
// current one has three. The root vtable tells which one a file uses.
bool rootHasFourthField(const std::uint8_t* base, std::uint64_t size)
{
    // The header's flatbuffer offset and size come from the file: the FlatBuffer they announce
    // may be shorter than its own root offset (size - 4 would wrap).
    if (size < 8)
        return false;
    const std::uint32_t root = readLe32(base);
    if (root > size - 4)
        return false;
    const auto vtableOffset = static_cast<std::int32_t>(readLe32(base + root));
    const std::int64_t vtable = static_cast<std::int64_t>(root) - vtableOffset;
    if (vtable < 0 || static_cast<std::uint64_t>(vtable) + 4 > size)
        return false;
    const std::uint16_t vtableSize = readLe16(base + vtable);
    if (vtableSize < 4 + 2 * 4 || static_cast<std::uint64_t>(vtable) + vtableSize > size)
        return false;
    return readLe16(base + vtable + 4 + (2 * std::size_t { 3 })) != 0;
}

} // namespace

const NamedDataEntry* ExternalData::find(std::string_view key) const
{
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const NamedDataEntry& e) { return e.key == key; });
    return it == entries.end() ? nullptr : &*it;
}

static Result<ExternalData> readExternalDataUnguarded(const std::shared_ptr<const MappedFile>& file)
{
    ExternalData data;
    data.file = file;
    const std::string& path = file->path();
    const auto bytes = file->bytes();
    const std::uint8_t* base = bytes.data();
    const std::uint64_t size = bytes.size();
    if (size < kHeaderEnd)
        return makeError(
            Error::Code::Truncated, path, "too small to be an external data file (" + std::to_string(size) + " bytes)");
    if (std::memcmp(base + 4, "FT01", 4) != 0)
        return makeError(Error::Code::BadIdentifier, path,
            "not an ExecuTorch external data file: the identifier is " + magicText(bytes.subspan(4, 4))
                + ", expected 'FT01'",
            4);
    if (std::memcmp(base + 8, "FH01", 4) != 0)
        return makeError(Error::Code::BadIdentifier, path,
            "the FH01 header is missing after the FT01 identifier (found " + magicText(bytes.subspan(8, 4)) + ")", 8);

    FlatTensorHeader& header = data.header;
    header.length = readLe32(base + 12);
    header.flatbufferOffset = readLe64(base + 16);
    header.flatbufferSize = readLe64(base + 24);
    header.segmentBaseOffset = readLe64(base + 32);
    header.segmentDataSize = readLe64(base + 40);
    if (header.length < 40)
        return makeError(
            Error::Code::Corrupt, path, "FH01 header length " + std::to_string(header.length) + " is below 40", 12);
    if (header.flatbufferOffset > size || header.flatbufferSize > size - header.flatbufferOffset)
        return makeError(Error::Code::Truncated, path,
            "the header says the FlatBuffer spans " + std::to_string(header.flatbufferOffset) + " + "
                + std::to_string(header.flatbufferSize) + " bytes, the file has " + std::to_string(size),
            24);
    if (header.segmentBaseOffset > size || header.segmentDataSize > size - header.segmentBaseOffset)
        return makeError(Error::Code::Truncated, path,
            "the file is truncated: segment data needs " + std::to_string(header.segmentBaseOffset) + " + "
                + std::to_string(header.segmentDataSize) + " bytes, the file has " + std::to_string(size),
            40);
    const std::uint64_t fbSize = header.flatbufferOffset + header.flatbufferSize;

    const auto segmentRange = [&](std::uint64_t offset, std::uint64_t length, std::size_t index) -> Result<ByteRange> {
        if (offset > header.segmentDataSize || length > header.segmentDataSize - offset)
            return makeError(Error::Code::Corrupt, path,
                "segment " + std::to_string(index) + " (offset " + std::to_string(offset) + ", size "
                    + std::to_string(length) + ") lies outside the segment data ("
                    + std::to_string(header.segmentDataSize) + " bytes)");
        return ByteRange { header.segmentBaseOffset + offset, length };
    };

    // Both layouts declare the same DataSegment table (offset, size) under their own namespace.
    const auto readSegments = [&](const auto* segments) -> std::optional<Error> {
        if (!segments)
            return std::nullopt;
        for (flatbuffers::uoffset_t i = 0; i < segments->size(); ++i) {
            const auto* s = segments->Get(i);
            auto range = segmentRange(s ? s->offset() : 0, s ? s->size() : 0, i);
            if (!range)
                return range.error();
            data.segments.push_back(*range);
        }
        return std::nullopt;
    };

    if (rootHasFourthField(base, fbSize)) {
        data.layout = ExternalData::Layout::Tensors;
        if (!verifyFlatbuffer<fbt0::FlatTensor>(base, fbSize, fbt0::FlatTensorIdentifier(), false))
            return makeError(Error::Code::Verifier, path, "the FlatBuffers verifier rejected the external data file");
        const auto* root = fbt0::GetFlatTensor(base);
        data.version = root->version();
        data.tensorAlignment = root->tensor_alignment();
        if (auto error = readSegments(root->segments()))
            return *error;
        if (const auto* tensors = root->tensors()) {
            for (const auto* tensor : *tensors) {
                if (!tensor)
                    continue;
                NamedDataEntry entry;
                entry.key = tensor->fully_qualified_name() ? tensor->fully_qualified_name()->str() : std::string();
                entry.layout = layoutOf(tensor->scalar_type(), tensor->sizes(), tensor->dim_order());
                const int segment = tensor->segment_index();
                if (segment < 0 || static_cast<std::size_t>(segment) >= data.segments.size())
                    return makeError(Error::Code::Corrupt, path,
                        "tensor '" + entry.key + "' names segment " + std::to_string(segment) + ", but there are only "
                            + std::to_string(data.segments.size()) + " segments");
                entry.segmentIndex = static_cast<std::uint32_t>(segment);
                const ByteRange& seg = data.segments[entry.segmentIndex];
                TensorInfo info;
                info.scalarType = entry.layout->scalarType;
                info.sizes = entry.layout->sizes;
                const std::uint64_t length = info.byteSize();
                if (tensor->offset() > seg.size || length > seg.size - tensor->offset())
                    return makeError(Error::Code::Corrupt, path,
                        "tensor '" + entry.key + "' (" + std::to_string(length) + " bytes at offset "
                            + std::to_string(tensor->offset()) + ") does not fit in segment "
                            + std::to_string(segment));
                entry.data = { seg.offset + tensor->offset(), length };
                data.entries.push_back(std::move(entry));
            }
        }
        return data;
    }

    if (!verifyFlatbuffer<fbt::FlatTensor>(base, fbSize, fbt::FlatTensorIdentifier(), false))
        return makeError(Error::Code::Verifier, path, "the FlatBuffers verifier rejected the external data file");
    const auto* root = fbt::GetFlatTensor(base);
    data.version = root->version();
    if (auto error = readSegments(root->segments()))
        return *error;
    if (const auto* named = root->named_data()) {
        for (const auto* item : *named) {
            if (!item)
                continue;
            NamedDataEntry entry;
            entry.key = item->key() ? item->key()->str() : std::string();
            entry.segmentIndex = item->segment_index();
            if (entry.segmentIndex >= data.segments.size())
                return makeError(Error::Code::Corrupt, path,
                    "named data '" + entry.key + "' names segment " + std::to_string(entry.segmentIndex)
                        + ", but there are only " + std::to_string(data.segments.size()) + " segments");
            entry.data = data.segments[entry.segmentIndex];
            if (const auto* layout = item->tensor_layout())
                entry.layout = layoutOf(layout->scalar_type(), layout->sizes(), layout->dim_order());
            data.entries.push_back(std::move(entry));
        }
    }
    return data;
}

Result<ExternalData> readExternalData(std::shared_ptr<const MappedFile> file)
{
    return guardedRead<ExternalData>(
        file->path(), "the external data file", [&] { return readExternalDataUnguarded(file); });
}

Result<ExternalData> readExternalDataFile(const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    return readExternalData(file.value());
}

} // namespace etscope::core
