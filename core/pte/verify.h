// SPDX-License-Identifier: MIT
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

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

// The Verifier checks that a vector's length word is 4-byte aligned, not that 8-byte elements
// ([long], [ulong], [double]) are 8-byte aligned: a crafted file can place them 4 bytes off, and
// reading them in place is a misaligned load. These copy them out wherever they lie
// (FlatBuffers data is little-endian, as is every host ETScope builds for).
static_assert(FLATBUFFERS_LITTLEENDIAN, "vector elements are copied as stored");

/// Element `i` (< size()) of a scalar vector.
template <typename T> T vectorElement(const flatbuffers::Vector<T>& vector, flatbuffers::uoffset_t i)
{
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    T value;
    std::memcpy(&value, vector.Data() + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
    return value;
}

/// All elements of a scalar vector, converted to `Out` (default: as stored); empty for a
/// missing vector.
template <typename Out = void, typename T> auto vectorValues(const flatbuffers::Vector<T>* vector)
{
    using Value = std::conditional_t<std::is_void_v<Out>, T, Out>;
    std::vector<Value> values;
    if (!vector)
        return values;
    values.reserve(vector->size());
    for (flatbuffers::uoffset_t i = 0; i < vector->size(); ++i)
        values.push_back(static_cast<Value>(vectorElement(*vector, i)));
    return values;
}

} // namespace etscope::core
