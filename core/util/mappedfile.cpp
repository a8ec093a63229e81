// SPDX-License-Identifier: MIT
#include "core/util/mappedfile.h"

#include "core/util/platform.h"

#include <cstring>

namespace etscope::core {

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path)
{
    auto mapping = platform::mapFileReadOnly(path);
    if (!mapping)
        return mapping.error();
    auto file = std::shared_ptr<MappedFile>(new MappedFile());
    file->m_path = path;
    file->m_data = mapping->data;
    file->m_size = mapping->size;
    file->m_mapped = true;
    return std::shared_ptr<const MappedFile>(std::move(file));
}

std::shared_ptr<const MappedFile> MappedFile::fromBytes(std::string displayName, std::span<const std::uint8_t> bytes)
{
    auto file = std::shared_ptr<MappedFile>(new MappedFile());
    file->m_path = std::move(displayName);
    // new[] of uint8_t is only guaranteed to be aligned to max_align_t (16 on x86-64), which is
    // what FlatBuffers regions need.
    file->m_owned.reset(new std::uint8_t[bytes.size() + 1]);
    if (!bytes.empty())
        std::memcpy(file->m_owned.get(), bytes.data(), bytes.size());
    file->m_data = file->m_owned.get();
    file->m_size = bytes.size();
    return file;
}

MappedFile::~MappedFile()
{
    if (m_mapped)
        platform::unmapFile({ m_data, m_size });
}

} // namespace etscope::core
