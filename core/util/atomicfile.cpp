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

std::optional<Error> writeFileAtomically(const std::string& path, std::string_view contents)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    std::string pattern = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        return makeError(
            Error::Code::Io, path, std::string("cannot create a temporary file beside it: ") + std::strerror(errno));
    const auto fail = [&](const char* what) {
        const int err = errno;
        ::close(fd);
        ::unlink(pattern.c_str());
        return makeError(Error::Code::Io, path, std::string(what) + ": " + std::strerror(err));
    };
    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail("cannot write");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        return fail("cannot flush");
    // mkstemp creates 0600; exports are ordinary documents.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(pattern.c_str());
        return makeError(Error::Code::Io, path, std::string("cannot close: ") + std::strerror(err));
    }
    if (::rename(pattern.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(pattern.c_str());
        return makeError(Error::Code::Io, path, std::string("cannot replace the file: ") + std::strerror(err));
    }
    return std::nullopt;
}

} // namespace etscope::core
