// SPDX-License-Identifier: MIT
// core/util/platform.h on POSIX. Built and tested on Linux only. The first part uses POSIX calls
// alone (macOS has them too); the last part is Linux-only and stops any other build with #error
// naming what to write instead (docs/HACKING.md, "Porting to macOS and Windows"). Windows needs
// its own platform_windows.cpp; core/util/CMakeLists.txt says so at configure time.
#include "core/util/platform.h"

#if !defined(__unix__) && !defined(__APPLE__)
#error "platform_posix.cpp is the POSIX implementation of core/util/platform.h; write platform_windows.cpp"
#endif

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace etscope::core::platform {

namespace {

std::string systemReason(int err)
{
    return std::strerror(err);
}

} // namespace

Result<FileMapping> mapFileReadOnly(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return makeError(Error::Code::Io, path, "cannot open: " + systemReason(errno));
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return makeError(Error::Code::Io, path, "cannot stat: " + systemReason(err));
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return makeError(Error::Code::Io, path, "is a folder, not a file");
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
        return makeError(Error::Code::Io, path, "cannot map: " + systemReason(err));
    // Readers jump to the tables and payloads they need; without this hint the kernel maps the
    // neighbouring pages (or a whole huge page) of every read too, and the weights between the
    // delegate payloads of an LLM became resident without being read (issue 27). Advice only:
    // a failure changes nothing.
    ::madvise(addr, size, MADV_RANDOM);
    return FileMapping { static_cast<const std::uint8_t*>(addr), size };
}

void adviseWillNeed(const std::uint8_t* data, std::size_t length)
{
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    if (!data || length == 0 || page == 0)
        return;
    const std::size_t intoPage = reinterpret_cast<std::uintptr_t>(data) % page; // madvise wants a page start
    ::madvise(const_cast<std::uint8_t*>(data - intoPage), length + intoPage, MADV_WILLNEED);
}

void unmapFile(const FileMapping& mapping)
{
    if (mapping.data)
        ::munmap(const_cast<std::uint8_t*>(mapping.data), mapping.size);
}

Result<NewFile> createFileBeside(const std::string& target)
{
    namespace fs = std::filesystem;
    const fs::path targetPath(target);
    const fs::path folder = targetPath.parent_path().empty() ? fs::path(".") : targetPath.parent_path();
    NewFile file;
    file.path = (folder / ("." + targetPath.filename().string() + ".XXXXXX")).string();
    file.handle = ::mkstemp(file.path.data());
    if (file.handle < 0) {
        const int err = errno;
        // The folder is the usual reason, and the one a user can act on: name it (issue 27).
        if (auto problem = folderProblem(target))
            return makeError(Error::Code::Io, target, "cannot write: " + *problem);
        return makeError(Error::Code::Io, target, "cannot create a temporary file beside it: " + systemReason(err));
    }
    return file;
}

OsError folderProblem(const std::string& target)
{
    namespace fs = std::filesystem;
    const fs::path parent = fs::path(target).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    struct stat st { };
    if (::stat(folder.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT)
            return "the folder '" + folder + "' does not exist";
        if (err == ENOTDIR)
            return "the folder '" + folder + "' cannot exist: a part of its path is a file";
        return "the folder '" + folder + "' cannot be reached: " + systemReason(err);
    }
    if (!S_ISDIR(st.st_mode))
        return "'" + folder + "' is not a folder";
    // AT_EACCESS: the effective user's permissions, which are the ones mkstemp meets.
    if (::faccessat(AT_FDCWD, folder.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
        const int err = errno;
        if (err == EROFS)
            return "the folder '" + folder + "' is on a read-only file system";
        if (err == EACCES || err == EPERM)
            return "the folder '" + folder + "' is not writable";
        return "the folder '" + folder + "' cannot be written: " + systemReason(err);
    }
    return std::nullopt;
}

OsError writeAll(FileHandle file, std::string_view bytes)
{
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(file, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return systemReason(errno);
        }
        if (n == 0) // not for regular files and pipes; never loop on it
            return systemReason(EIO);
        written += static_cast<std::size_t>(n);
    }
    return std::nullopt;
}

std::ptrdiff_t readSome(FileHandle file, char* buffer, std::size_t capacity)
{
    for (;;) {
        const ssize_t n = ::read(file, buffer, capacity);
        if (n < 0 && errno == EINTR)
            continue;
        return n < 0 ? -1 : static_cast<std::ptrdiff_t>(n);
    }
}

OsError flushToDisk(FileHandle file)
{
    if (::fsync(file) != 0)
        return systemReason(errno);
    return std::nullopt;
}

void makeOrdinaryDocument(FileHandle file)
{
    // mkstemp creates 0600; exports are ordinary documents. umask can only be read by setting it.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(file, 0666 & ~mask);
}

OsError closeFile(FileHandle file)
{
    if (::close(file) != 0)
        return systemReason(errno);
    return std::nullopt;
}

FileHandle standardInput()
{
    return STDIN_FILENO;
}

FileHandle standardOutput()
{
    return STDOUT_FILENO;
}

std::int64_t processId()
{
    return static_cast<std::int64_t>(::getpid());
}

} // namespace etscope::core::platform

// --- Linux only ---------------------------------------------------------------------------------
// macOS: dieWithParent → a thread waiting on kqueue EVFILT_PROC/NOTE_EXIT for getppid();
// processAgeSeconds → sysctl {CTL_KERN, KERN_PROC, KERN_PROC_PID} kp_proc.p_starttime;
// residentBytes → task_info(MACH_TASK_BASIC_INFO).resident_size; peakResidentBytes →
// getrusage ru_maxrss (already bytes there, not KiB); resetPeakResident → false (no reset).
#if defined(__linux__)

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>

namespace etscope::core::platform {

bool dieWithParent()
{
    return ::prctl(PR_SET_PDEATHSIG, SIGKILL) == 0;
}

std::optional<double> processAgeSeconds()
{
    std::ifstream file("/proc/self/stat", std::ios::binary);
    const std::string line((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    // Fields after the command name (which may hold spaces and parentheses) start at field 3;
    // starttime, in clock ticks since boot, is field 22.
    const std::size_t nameEnd = line.rfind(')');
    if (nameEnd == std::string::npos)
        return std::nullopt;
    std::size_t at = nameEnd + 2;
    for (int field = 3; field < 22 && at < line.size(); ++field) {
        at = line.find(' ', at);
        if (at != std::string::npos)
            ++at;
    }
    if (at >= line.size())
        return std::nullopt;
    const double startTicks = std::strtod(line.c_str() + at, nullptr);
    const long ticksPerSecond = ::sysconf(_SC_CLK_TCK);
    timespec now {};
    if (ticksPerSecond <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return std::nullopt;
    const double age = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9
        - startTicks / static_cast<double>(ticksPerSecond);
    return age;
}

std::optional<std::int64_t> residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0;
    std::int64_t resident = 0;
    if (!(statm >> size >> resident))
        return std::nullopt;
    return resident * static_cast<std::int64_t>(::sysconf(_SC_PAGESIZE));
}

std::optional<std::int64_t> peakResidentBytes()
{
    rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) != 0)
        return std::nullopt;
    return static_cast<std::int64_t>(usage.ru_maxrss) * 1024; // KiB on Linux
}

bool resetPeakResident()
{
    // Heap freed by earlier work would otherwise be reused without growing the resident size.
    ::malloc_trim(0);
    // Writing 5 resets the peak resident size (Documentation/filesystems/proc.rst, clear_refs).
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    clear.flush();
    return static_cast<bool>(clear);
}

} // namespace etscope::core::platform

#else
#error                                                                                                                 \
    "platform_posix.cpp: dieWithParent, processAgeSeconds and the memory counters are Linux-only; write them for this OS (see the note above)"
#endif
