// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace etscope::core {

/// A file mapped read-only into memory. Page alignment of the mapping gives every
/// FlatBuffers region the alignment the format requires. Weights are never touched: the
/// kernel only reads the pages a reader looks at.
class MappedFile {
public:
    /// Maps `path` read-only. Fails (Error::Io / Error::Empty) for missing files,
    /// directories, unreadable or empty files.
    static Result<std::shared_ptr<const MappedFile>> open(const std::string& path);

    /// Wraps bytes already in memory (tests, generated fixtures). The copy is 16-aligned.
    static std::shared_ptr<const MappedFile> fromBytes(std::string displayName, std::span<const std::uint8_t> bytes);

    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::string& path() const { return m_path; }
    std::span<const std::uint8_t> bytes() const { return { m_data, m_size }; }
    std::size_t size() const { return m_size; }

private:
    MappedFile() = default;
    std::string m_path;
    const std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_mapped = false;
    std::unique_ptr<std::uint8_t[]> m_owned;
};

} // namespace etscope::core
