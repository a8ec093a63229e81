// SPDX-License-Identifier: MIT
#pragma once
// Everything ETScope asks of the operating system beyond standard C++, std::filesystem and Qt,
// in one place. Only the implementation file includes OS headers (the build checks it:
// core/layers.cmake refuses <unistd.h>, <sys/…>, <windows.h>, … anywhere else).
//
// Implementations: platform_posix.cpp (Linux, the only one built and tested; its Linux-only
// functions are marked and stop a macOS build with #error). A macOS or Windows port writes the
// functions below for that OS; docs/HACKING.md, "Porting to macOS and Windows", says with what.
//
// Users: MappedFile::open (mapping), AtomicFileWriter (new file, flush, permissions), the layout
// helper `etscope --layout-worker` (standard streams, dies with its parent), the app's startup
// timing (process age), the benchmarks' memory counters (resident and peak sizes). The app side
// of the layout helper (ui/document/layoutservice.cpp) uses QProcess and needs nothing here.

#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace etscope::core::platform {

/// The operating system's words for why a call failed (strerror(errno) on POSIX); nullopt when
/// the call succeeded.
using OsError = std::optional<std::string>;

// --- Files mapped read-only --------------------------------------------------------------------

/// A whole regular file mapped read-only; `data` is page-aligned.
struct FileMapping {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
};

/// Maps the whole regular file at `path` read-only. Errors name `path`: Error::Io with "cannot
/// open: …", "cannot stat: …", "is a folder, not a file", "is not a regular file" or "cannot
/// map: …" (… the OS's reason); Error::Empty with "the file is empty".
Result<FileMapping> mapFileReadOnly(const std::string& path);

/// Releases a mapping returned by mapFileReadOnly.
void unmapFile(const FileMapping& mapping);

/// Asks the OS to read [data, data + length) of a mapping ahead, in large requests, without
/// mapping it into the process: mappings are advised random access (only the pages read become
/// resident), which alone would read a cold file one page per fault. Advice only: failures and
/// memory that is not a file mapping change nothing.
void adviseWillNeed(const std::uint8_t* data, std::size_t length);

// --- Files written, then flushed ---------------------------------------------------------------

/// An open file or stream: a file descriptor (POSIX; the C runtime's descriptors on Windows).
using FileHandle = int;
inline constexpr FileHandle kNoFile = -1;

/// A new, empty file created for writing (never an existing one) in the folder of `target`, named
/// ".<target's name>.<random>", readable and writable by the owner only.
struct NewFile {
    FileHandle handle = kNoFile;
    std::string path;
};
/// Creates the file NewFile describes. On failure, when the folder is the reason (folderProblem),
/// "cannot write: " and that; otherwise "cannot create a temporary file beside it: " and the
/// OS's reason. Errors name `target`.
Result<NewFile> createFileBeside(const std::string& target);

/// Why no new file can be made in the folder of `target`, as far as the OS tells without making
/// one: "the folder 'F' does not exist", "… cannot exist: a part of its path is a file", "'F' is
/// not a folder", "the folder 'F' is not writable", "… is on a read-only file system" (F as
/// given in `target`, "." when it names none); nullopt when none of these holds.
OsError folderProblem(const std::string& target);

/// Writes all of `bytes`, retrying interrupted and partial writes.
OsError writeAll(FileHandle file, std::string_view bytes);

/// Reads what has arrived, at most `capacity` bytes, retrying interrupted reads: the count read,
/// 0 at the end of the stream, -1 on error.
std::ptrdiff_t readSome(FileHandle file, char* buffer, std::size_t capacity);

/// Waits until the file's bytes are on the disk.
OsError flushToDisk(FileHandle file);

/// Gives a file from createFileBeside the permissions a new document gets (0666 minus the umask
/// on POSIX).
void makeOrdinaryDocument(FileHandle file);

/// Closes the handle.
OsError closeFile(FileHandle file);

// --- This process ------------------------------------------------------------------------------

/// Standard input and output as byte streams (no newline translation where an OS has one).
FileHandle standardInput();
FileHandle standardOutput();

/// Asks the OS to kill this process when its parent dies (a helper must not outlive the app that
/// started it). False when the OS cannot.
bool dieWithParent();

/// The process id, for naming private temporary folders.
std::int64_t processId();

/// Seconds since the OS started this process (so that a startup time includes loading shared
/// libraries), at the OS's resolution; nullopt when it cannot tell.
std::optional<double> processAgeSeconds();

/// Resident set size now, in bytes; nullopt when the OS cannot tell.
std::optional<std::int64_t> residentBytes();

/// Highest resident set size since the process started or since resetPeakResident(), in bytes.
std::optional<std::int64_t> peakResidentBytes();

/// Returns heap freed earlier to the OS (so that reuse does not hide growth), then resets the
/// high-water mark peakResidentBytes() reports. False when the mark could not be reset (a later
/// peak may then be an earlier one).
bool resetPeakResident();

} // namespace etscope::core::platform
