// SPDX-License-Identifier: MIT
#include "bench/peakrss.h"

#include "core/util/platform.h"

namespace etscope::bench {

std::int64_t residentBytes()
{
    return core::platform::residentBytes().value_or(0);
}

PeakRss::PeakRss()
{
    m_reset = core::platform::resetPeakResident();
    m_baseline = residentBytes();
}

std::int64_t PeakRss::deltaBytes() const
{
    return core::platform::peakResidentBytes().value_or(0) - m_baseline;
}

} // namespace etscope::bench
