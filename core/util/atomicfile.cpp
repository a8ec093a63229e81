// SPDX-License-Identifier: MIT
#include "core/util/atomicfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace etscope::core {

AtomicFileWriter::AtomicFileWriter(std::string path)
    : m_path(std::move(path))
{
    namespace fs = std::filesystem;
    const fs::path target(m_path);
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    m_temporary = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
    m_fd = ::mkstemp(m_temporary.data());
    if (m_fd < 0)
        m_error = makeError(
            Error::Code::Io, m_path, std::string("cannot create a temporary file beside it: ") + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter()
{
    abandon();
}

void AtomicFileWriter::abandon()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        ::unlink(m_temporary.c_str());
        m_fd = -1;
    }
}

void AtomicFileWriter::fail(const char* what)
{
    const int err = errno;
    abandon();
    if (!m_error)
        m_error = makeError(Error::Code::Io, m_path, std::string(what) + ": " + std::strerror(err));
}

bool AtomicFileWriter::write(std::string_view contents)
{
    std::size_t written = 0;
    while (m_fd >= 0 && written < contents.size()) {
        const ssize_t n = ::write(m_fd, contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail("cannot write");
            break;
        }
        written += static_cast<std::size_t>(n);
    }
    return !m_error;
}

std::optional<Error> AtomicFileWriter::commit()
{
    if (m_fd < 0)
        return m_error;
    if (::fsync(m_fd) != 0) {
        fail("cannot flush");
        return m_error;
    }
    // mkstemp creates 0600; exports are ordinary documents.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(m_fd, 0666 & ~mask);
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(m_temporary.c_str());
        return makeError(Error::Code::Io, m_path, std::string("cannot close: ") + std::strerror(err));
    }
    if (::rename(m_temporary.c_str(), m_path.c_str()) != 0) {
        const int err = errno;
        ::unlink(m_temporary.c_str());
        return makeError(Error::Code::Io, m_path, std::string("cannot replace the file: ") + std::strerror(err));
    }
    return std::nullopt;
}

std::optional<Error> writeFileAtomically(const std::string& path, std::string_view contents)
{
    AtomicFileWriter file(path);
    file.write(contents);
    return file.commit();
}

} // namespace etscope::core
