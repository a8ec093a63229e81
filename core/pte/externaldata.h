// SPDX-License-Identifier: MIT
#pragma once

#include "core/pte/program.h"

namespace etscope::core {

/// The FH01 header that follows the FT01 identifier of a .ptd file.
struct FlatTensorHeader {
    std::uint32_t length = 0;
    std::uint64_t flatbufferOffset = 0;
    std::uint64_t flatbufferSize = 0;
    std::uint64_t segmentBaseOffset = 0;
    std::uint64_t segmentDataSize = 0;
};

/// A decoded .ptd (named-data) file.
struct ExternalData {
    enum class Layout {
        NamedData, ///< current: named_data entries with optional tensor layouts
        Tensors, ///< first layout: tensors with their segment and offset
    };
    std::shared_ptr<const MappedFile> file;
    Layout layout = Layout::NamedData;
    FlatTensorHeader header;
    std::uint32_t version = 0;
    std::uint32_t tensorAlignment = 0; ///< first layout only
    std::vector<ByteRange> segments; ///< absolute
    std::vector<NamedDataEntry> entries;
    std::vector<Warning> warnings;

    const std::string& path() const { return file->path(); }
    const NamedDataEntry* find(std::string_view key) const;
    std::string_view layoutName() const { return layout == Layout::NamedData ? "named_data" : "tensors"; }
};

/// Reads a .ptd file (both FT01 layouts). Same order of checks as readProgram.
Result<ExternalData> readExternalData(std::shared_ptr<const MappedFile> file);
Result<ExternalData> readExternalDataFile(const std::string& path);

} // namespace etscope::core
