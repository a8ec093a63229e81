// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/mappedfile.h"
#include "core/util/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::core {

/// Bounds for reading archives that may be hostile (zip bombs, absurd entry counts).
struct ZipLimits {
    std::size_t maxEntries = 4096;
    std::uint64_t maxEntrySize = 1ull << 30; ///< uncompressed bytes of one entry
    std::uint64_t maxTotalSize = 4ull << 30; ///< uncompressed bytes of all entries together
    /// Uncompressed / compressed size, checked for compressed entries above `ratioFloor` bytes
    /// (small files of zeros legitimately compress very well).
    double maxCompressionRatio = 200.0;
    std::uint64_t ratioFloor = 1ull << 20;
    std::size_t maxNameLength = 1024;
};

struct ZipEntry {
    std::string name;
    std::uint64_t index = 0;
    std::uint64_t size = 0; ///< uncompressed, as the central directory declares
    std::uint64_t compressedSize = 0;
    bool compressed = false;
};

/// A read-only view of a ZIP archive held in a MappedFile (libzip underneath). Every entry is
/// checked against the limits when the archive is opened, before any byte is inflated.
class ZipArchive {
public:
    /// Opens the archive, also when bytes precede it (offsets are then shifted as Python's
    /// zipfile and unzip shift them, and a warning says so). Fails with Error::BadIdentifier when the bytes are not a
    /// ZIP archive, Error::Corrupt for inconsistent archives, invalid or duplicate entry names and encrypted entries,
    /// and Error::Limit when an entry or the whole exceed `limits`. Messages name the file and, where one is to blame,
    /// the entry.
    static Result<ZipArchive> open(const std::shared_ptr<const MappedFile>& file, const ZipLimits& limits = {});

    ZipArchive(ZipArchive&&) noexcept;
    ZipArchive& operator=(ZipArchive&&) noexcept;
    ~ZipArchive();

    const std::string& path() const;
    const std::vector<ZipEntry>& entries() const;
    /// What was forgiven when opening (bytes in front of the archive).
    const std::vector<Warning>& warnings() const;
    const ZipEntry* find(std::string_view name) const;

    /// The entry's bytes. Fails (Error::Corrupt) when inflating fails, the CRC does not match or
    /// the data is longer or shorter than declared.
    Result<std::string> read(const ZipEntry& entry) const;

private:
    struct Impl;
    explicit ZipArchive(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace etscope::core
