// SPDX-License-Identifier: MIT
#include "core/util/atomicfile.h"

#include "core/util/platform.h"

#include <filesystem>
#include <system_error>

namespace etscope::core {

namespace {

void removeQuietly(const std::string& path)
{
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
}

} // namespace

AtomicFileWriter::AtomicFileWriter(std::string path)
    : m_path(std::move(path))
{
    auto file = platform::createFileBeside(m_path);
    if (!file) {
        m_error = file.error();
        return;
    }
    m_temporary = file->path;
    m_fd = file->handle;
}

AtomicFileWriter::~AtomicFileWriter()
{
    abandon();
}

void AtomicFileWriter::abandon()
{
    if (m_fd >= 0) {
        (void)platform::closeFile(m_fd);
        removeQuietly(m_temporary);
        m_fd = -1;
    }
}

void AtomicFileWriter::fail(const char* what, const std::string& reason)
{
    abandon();
    if (!m_error)
        m_error = makeError(Error::Code::Io, m_path, std::string(what) + ": " + reason);
}

bool AtomicFileWriter::write(std::string_view contents)
{
    if (m_fd >= 0 && !contents.empty())
        if (const auto reason = platform::writeAll(m_fd, contents))
            fail("cannot write", *reason);
    return !m_error;
}

std::optional<Error> AtomicFileWriter::commit()
{
    if (m_fd < 0)
        return m_error;
    if (const auto reason = platform::flushToDisk(m_fd)) {
        fail("cannot flush", *reason);
        return m_error;
    }
    platform::makeOrdinaryDocument(m_fd);
    const int fd = m_fd;
    m_fd = -1;
    if (const auto reason = platform::closeFile(fd)) {
        removeQuietly(m_temporary);
        return makeError(Error::Code::Io, m_path, "cannot close: " + *reason);
    }
    // std::filesystem::rename replaces an existing target: rename(2) on POSIX, MoveFileExW with
    // MOVEFILE_REPLACE_EXISTING on Windows. libstdc++ reports errno in the generic category, whose
    // message() is strerror's text.
    std::error_code error;
    std::filesystem::rename(m_temporary, m_path, error);
    if (error) {
        removeQuietly(m_temporary);
        return makeError(Error::Code::Io, m_path, "cannot replace the file: " + error.message());
    }
    return std::nullopt;
}

std::optional<Error> writeFileAtomically(const std::string& path, std::string_view contents)
{
    AtomicFileWriter file(path);
    file.write(contents);
    return file.commit();
}

std::optional<Error> checkFolderFor(const std::string& path)
{
    if (auto problem = platform::folderProblem(path))
        return makeError(Error::Code::Io, path, "cannot write: " + *problem);
    return std::nullopt;
}

} // namespace etscope::core
