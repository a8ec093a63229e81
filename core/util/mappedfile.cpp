// SPDX-License-Identifier: MIT
#include "core/util/mappedfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace etscope::core {

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return makeError(Error::Code::Io, path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return makeError(Error::Code::Io, path, std::string("cannot stat: ") + std::strerror(err));
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return makeError(Error::Code::Io, path, "is a directory, not a file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return makeError(Error::Code::Io, path, "is not a regular file");
    }
    if (st.st_size == 0) {
        ::close(fd);
        return makeError(Error::Code::Empty, path, "the file is empty");
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    ::close(fd);
    if (addr == MAP_FAILED)
        return makeError(Error::Code::Io, path, std::string("cannot map: ") + std::strerror(err));
    auto file = std::shared_ptr<MappedFile>(new MappedFile());
    file->m_path = path;
    file->m_data = static_cast<const std::uint8_t*>(addr);
    file->m_size = size;
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
        ::munmap(const_cast<std::uint8_t*>(m_data), m_size);
}

} // namespace etscope::core
