// SPDX-License-Identifier: MIT
// libFuzzer target: a kernel list as `etscope check --kernels FILE` reads it (selected_operators
// .yaml, a functions.yaml, a plain list, a registered-kernels dump or log; recognised from the
// text) through parseKernelList, then resolved against with the built-in lists beside it.
#include "core/analysis/kernelcheck.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace etscope::core;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto list = parseKernelList(text, "fuzz.yaml");
    if (!list)
        return 0;
    KernelLists lists;
    lists.lists.push_back(std::move(list).value());
    if (auto prim = builtinKernelList("prim"))
        lists.lists.push_back(std::move(*prim));
    for (const std::string_view name : { "aten::add.out", "aten::sub.Tensor",
             "quantized_decomposed::quantize_per_tensor.out", "executorch_prim::add.Scalar", "" })
        (void)lists.resolve(name);
    (void)lists.declaresBackends();
    (void)lists.backendList("XnnpackBackend");
    return 0;
}
