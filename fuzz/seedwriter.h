// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace etscope::fuzz {

/// Writes seed files into one directory per corpus under a root (in the build directory).
class SeedWriter {
public:
    explicit SeedWriter(std::filesystem::path root);

    /// Writes `bytes` as <root>/<corpus>/<name>, creating the directory. False (with a message
    /// on stderr) when the file cannot be written.
    bool write(std::string_view corpus, const std::string& name, std::span<const std::uint8_t> bytes);
    bool write(std::string_view corpus, const std::string& name, std::string_view text);

    /// Creates <root>/<corpus> even when no seed goes there: libFuzzer refuses a missing corpus.
    void ensure(std::string_view corpus);

    /// Seeds written per corpus, for the summary.
    const std::map<std::string, std::size_t>& counts() const { return m_counts; }

private:
    std::filesystem::path m_root;
    std::map<std::string, std::size_t> m_counts;
};

/// The fuzz-target name of a delegate format ("xnnpack", "vulkan", "coreml", …, as
/// DelegateInfo::format spells them) by backend id; empty for backends ETScope does not decode.
std::string_view formatOfBackend(std::string_view backendId);

/// Writes one delegate payload of `format` under `name` into the corpus of that format and,
/// for the formats of the `delegates` target, into its corpus behind the selector byte that
/// picks the format's backend id.
void writePayloadSeed(
    SeedWriter& out, std::string_view format, const std::string& name, std::span<const std::uint8_t> payload);

} // namespace etscope::fuzz
