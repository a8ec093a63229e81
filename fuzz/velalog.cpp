// SPDX-License-Identifier: MIT
// libFuzzer target: a Vela console log or per-layer CSV (core/vendorlogs/velalog.h) read with
// small limits (so long lines, the line cap and the warning cap are reached), then, when it
// has a register listing, its words decoded as ETScope decodes a delegate's stream and joined
// back to the log (vendorjoin.h): the listing comparison, the row join, the text of both.
#include "core/vendorlogs/vendorjoin.h"
#include "core/vendorlogs/vendortext.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    using namespace etscope::core::vendor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    LogLimits limits;
    limits.maxLineBytes = 4096;
    limits.maxLines = 20000;
    limits.maxWarnings = 50;
    const VelaLog log = parseVelaLog(text, "fuzz.log", limits);
    (void)velaLogText(log);
    for (const RegisterListing& listing : log.listings) {
        (void)listing.complete();
        const std::vector<std::uint8_t> words = listing.bytes();
        for (const ethosu::Arch arch : { ethosu::Arch::U55, ethosu::Arch::U85 }) {
            const EthosUStream stream = ethosUStreamFromWords(words, arch);
            (void)compareListing(listing, stream);
            const VelaJoin join = joinVelaLog(log, stream);
            (void)velaJoinText(join, log, stream);
        }
    }
    if (log.listings.empty() && !log.tables.empty()) {
        // Rows against an empty stream: the row join must refuse, not read past the operations.
        const EthosUStream stream = ethosUStreamFromWords({}, ethosu::Arch::U55);
        (void)velaJoinText(joinVelaLog(log, stream), log, stream);
    }
    return 0;
}
