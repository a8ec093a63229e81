// SPDX-License-Identifier: MIT
// libFuzzer target: a partitioner log as `etscope why --report LOG` reads it (Arm's
// WhyNoPartitionReporter tables, XNNPACK's WhyNoPartition lines, QNN's op-support lines, Core ML's
// skip lines, in any mix) through parsePartitionLog, once with the default bounds and once with
// small ones (short lines, few lines, few warnings and reasons), and every logged target through
// operatorKey.
#include "core/why/partitionlog.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const PartitionLog log = parsePartitionLog(text, "fuzz.log");
    for (const LogReason& reason : log.reasons) {
        (void)operatorKey(reason.target);
        (void)partitionLogFormatName(reason.format);
    }
    PartitionLogLimits small;
    small.maxLineBytes = 64;
    small.maxLines = 16;
    small.maxWarnings = 4;
    small.maxReasons = 4;
    (void)parsePartitionLog(text, "fuzz-small.log", small);
    (void)operatorKey(text.substr(0, 256));
    return 0;
}
