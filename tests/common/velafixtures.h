// SPDX-License-Identifier: MIT
// Writer-made Vela logs that belong to a writer-made Ethos-U stream (core/writer/vendorlogwriter.h):
// the register listing of given command words and per-layer rows, for the join tests of
// core/vendorlogs and of `etscope cost --vela` (core/cost/costvendor.h).
#pragma once

#include "core/delegates/ethosucommands.h"
#include "core/writer/vendorlogwriter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::test {

/// A Vela log whose listing is the commands of `words` (names from ETScope's map, no fields),
/// with a "//" line before each kick naming it as `kinds` says, in order.
inline core::VelaLogSpec listingOf(const std::vector<std::uint32_t>& words, const std::vector<std::string>& kinds)
{
    core::VelaLogSpec spec;
    std::size_t kick = 0;
    for (std::size_t i = 0; i < words.size();) {
        core::VelaListedCommandSpec c;
        c.word = words[i];
        const bool payload = (c.word >> 14) & 1;
        if (payload && i + 1 < words.size())
            c.payload = words[i + 1];
        const std::uint16_t opcode = c.word & 0x3FF;
        c.name = core::ethosu::commandName(core::ethosu::Arch::U55, opcode, ((c.word >> 14) & 3) == 1);
        const bool isKick = !payload && (opcode == 2 || opcode == 3 || opcode == 5 || opcode == 6 || opcode == 0x10);
        if (isKick && kick < kinds.size())
            c.operation = kinds[kick++];
        spec.listing.push_back(c);
        i += payload ? 2 : 1;
    }
    return spec;
}

/// A per-layer row of `cycles` op and NPU cycles and ten times as many MACs.
inline core::VelaRowSpec velaRow(const std::string& op, const std::string& name, std::int64_t cycles)
{
    core::VelaRowSpec r;
    r.originalOperator = r.nngOperator = op;
    r.name = name;
    r.opCycles = r.npuCycles = cycles;
    r.macs = cycles * 10;
    return r;
}

} // namespace etscope::test
