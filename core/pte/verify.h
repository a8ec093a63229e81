// SPDX-License-Identifier: MIT
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>

namespace etscope::core {

/// Limits for every FlatBuffers verification in ETScope: deep enough for real programs,
/// bounded so that a hostile file cannot make the verifier run for minutes.
inline flatbuffers::Verifier::Options verifierOptions()
{
    flatbuffers::Verifier::Options options;
    options.max_depth = 128;
    options.max_tables = 50'000'000;
    options.check_alignment = true;
    return options;
}

/// Runs the FlatBuffers Verifier over `size` bytes at `data` for root type `Root` with the
/// given file identifier. `sizePrefixed` for buffers that start with a uint32 length.
/// Never call on sizes at or above FLATBUFFERS_MAX_BUFFER_SIZE (the verifier asserts).
template <typename Root>
bool verifyFlatbuffer(const std::uint8_t* data, std::uint64_t size, const char* identifier, bool sizePrefixed)
{
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return false;
    flatbuffers::Verifier verifier(data, static_cast<std::size_t>(size), verifierOptions());
    return sizePrefixed ? verifier.VerifySizePrefixedBuffer<Root>(identifier) : verifier.VerifyBuffer<Root>(identifier);
}

} // namespace etscope::core
