// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <string>
#include <string_view>

namespace etscope::core {

/// Writes a file in parts, atomically: into a temporary file in the same folder, which commit()
/// flushes and renames over `path`. Destroyed without commit(), or after a failed write, it
/// removes the temporary file and leaves any existing file untouched.
class AtomicFileWriter {
public:
    explicit AtomicFileWriter(std::string path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    /// False once anything failed (the error comes from commit()).
    bool write(std::string_view contents);
    std::optional<Error> commit();

private:
    void abandon();
    void fail(const char* what, const std::string& reason);

    std::string m_path;
    std::string m_temporary;
    int m_fd = -1; ///< a platform::FileHandle
    std::optional<Error> m_error;
};

/// Writes `contents` to `path` atomically: a temporary file in the same folder, flushed, then
/// renamed over the target. A reader never sees a half-written file and a failure leaves any
/// existing file untouched.
std::optional<Error> writeFileAtomically(const std::string& path, std::string_view contents);

/// The error writing `path` would meet because of its folder (missing, not a folder, not
/// writable: platform::folderProblem), found without writing: for commands that say so before
/// long work. The same words AtomicFileWriter gives.
std::optional<Error> checkFolderFor(const std::string& path);

} // namespace etscope::core
