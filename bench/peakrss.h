// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace etscope::bench {

/// Peak resident memory measured around a piece of work: freed heap is returned to the system
/// and the kernel's high-water mark reset first (core::platform::resetPeakResident), so that
/// earlier work does not hide this one's peak.
class PeakRss {
public:
    /// Resets the high-water mark and remembers the current resident size.
    PeakRss();
    /// The peak resident size now (core::platform::peakResidentBytes), minus the resident size at
    /// construction, in bytes.
    std::int64_t deltaBytes() const;
    /// False when the high-water mark could not be reset (the delta may then be understated).
    bool reset() const { return m_reset; }

private:
    std::int64_t m_baseline = 0;
    bool m_reset = false;
};

/// Current resident set size in bytes (core::platform::residentBytes; 0 when unknown).
std::int64_t residentBytes();

} // namespace etscope::bench
