// SPDX-License-Identifier: MIT
#include "bench/peakrss.h"

#include <fstream>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

namespace etscope::bench {

std::int64_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0;
    std::int64_t resident = 0;
    statm >> size >> resident;
    return resident * static_cast<std::int64_t>(::sysconf(_SC_PAGESIZE));
}

PeakRss::PeakRss()
{
    // Heap freed by earlier work would otherwise be reused without growing the resident size.
    ::malloc_trim(0);
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    clear.flush();
    m_reset = static_cast<bool>(clear);
    m_baseline = residentBytes();
}

std::int64_t PeakRss::deltaBytes() const
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::int64_t>(usage.ru_maxrss) * 1024 - m_baseline;
}

} // namespace etscope::bench
