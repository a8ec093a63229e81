// SPDX-License-Identifier: MIT
#include "fuzz/seedwriter.h"
#include "fuzz/fuzzsupport.h"

#include <algorithm>

#include <fstream>
#include <iostream>
#include <system_error>
#include <vector>

namespace etscope::fuzz {

namespace {

struct Backend {
    std::string_view id;
    std::string_view format;
};

constexpr Backend kBackends[] = {
    { "XnnpackBackend", "xnnpack" },
    { "VulkanBackend", "vulkan" },
    { "CoreMLBackend", "coreml" },
    { "OpenvinoBackend", "openvino" },
    { "EthosUBackend", "ethos-u" },
    { "VgfBackend", "vgf" },
    { "QnnBackend", "qnn" },
    { "MPSBackend", "mps" },
};

} // namespace

std::string_view formatOfBackend(std::string_view backendId)
{
    for (const Backend& backend : kBackends)
        if (backend.id == backendId)
            return backend.format;
    return {};
}

void writePayloadSeed(
    SeedWriter& out, std::string_view format, const std::string& name, std::span<const std::uint8_t> payload)
{
    out.write(format, name, payload);
    for (const Backend& backend : kBackends) {
        if (backend.format != format)
            continue;
        const auto selector = std::find(kOtherBackends.begin(), kOtherBackends.end(), backend.id);
        if (selector == kOtherBackends.end())
            return;
        std::vector<std::uint8_t> seed { static_cast<std::uint8_t>(selector - kOtherBackends.begin()) };
        seed.insert(seed.end(), payload.begin(), payload.end());
        out.write("delegates", name, seed);
        return;
    }
}

SeedWriter::SeedWriter(std::filesystem::path root)
    : m_root(std::move(root))
{
}

void SeedWriter::ensure(std::string_view corpus)
{
    std::error_code ec;
    std::filesystem::create_directories(m_root / corpus, ec);
    m_counts.try_emplace(std::string(corpus), 0);
}

bool SeedWriter::write(std::string_view corpus, const std::string& name, std::span<const std::uint8_t> bytes)
{
    ensure(corpus);
    const std::filesystem::path path = m_root / corpus / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        std::cerr << "etscope-fuzz-seeds: cannot write " << path << "\n";
        return false;
    }
    ++m_counts[std::string(corpus)];
    return true;
}

bool SeedWriter::write(std::string_view corpus, const std::string& name, std::string_view text)
{
    return write(corpus, name, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

} // namespace etscope::fuzz
