// SPDX-License-Identifier: MIT
// libFuzzer target: the compile-spec readers that say what a delegate was built for
// (core/delegates/targetfacts.cpp, QNN's in qnn.cpp). The first byte picks the backend and the
// compile spec key, the rest is the spec's value; the payload is empty, so only the specs speak.
// The QNN context binary's HTP configuration string is read by the `qnn` target.
#include "core/delegates/delegate.h"
#include "core/util/mappedfile.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace {

constexpr std::array<std::pair<const char*, const char*>, 9> kSpecs { {
    { "QnnBackend", "qnn_compile_spec" },
    { "CoreMLBackend", "min_deployment_target" },
    { "CoreMLBackend", "compute_units" },
    { "CoreMLBackend", "model_compute_precision" },
    { "EthosUBackend", "target" },
    { "EthosUBackend", "compile_flags" },
    { "EthosUBackend", "tosa_spec" },
    { "VgfBackend", "target" },
    { "VgfBackend", "compile_flags" },
} };

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    if (size == 0)
        return 0;
    static const Program empty = [] {
        Program p;
        p.file = MappedFile::fromBytes("fuzz-empty", std::vector<std::uint8_t>(8, 0));
        return p;
    }();
    const auto& [backend, key] = kSpecs[data[0] % kSpecs.size()];
    DelegateRef ref;
    ref.backendId = backend;
    ref.compileSpecs.push_back({ key, std::vector<std::uint8_t>(data + 1, data + size), 1 });
    const DelegateInfo info = describePayload(empty, ref, {}, {}, "fuzz compile spec");
    (void)info;
    return 0;
}
