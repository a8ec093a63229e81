// SPDX-License-Identifier: MIT
// etscope-writedemo OUTPUT_DIR — writes the bundled demo the app opens on first launch:
// demo.pte and, beside it, the ETDump pair the app attaches by name (demo.etdp + demo.debug.bin,
// demo.reference.etdp + demo.reference.debug.bin). Run by the app build and installed with it.
// A tool (tools/, outside core), so it prints.
#include "core/writer/demorun.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argc > 0 ? argv[0] : "etscope-writedemo");
        return 2;
    }
    using namespace etscope::core;
    const std::string dir = std::string(argv[1]) + "/";
    auto program = writeProgram(makeDemoProgram());
    if (!program) {
        std::fprintf(stderr, "%s\n", program.error().message().c_str());
        return 1;
    }
    const DemoTraces traces = makeDemoTraces();
    const std::pair<const char*, const std::vector<std::uint8_t>*> files[] = {
        { "demo.pte", &program.value() },
        { "demo.etdp", &traces.run.etdump },
        { "demo.debug.bin", &traces.run.debugBuffer },
        { "demo.reference.etdp", &traces.reference.etdump },
        { "demo.reference.debug.bin", &traces.reference.debugBuffer },
    };
    for (const auto& [name, bytes] : files)
        if (auto error = writeBytesToFile(dir + name, *bytes)) {
            std::fprintf(stderr, "%s\n", error->message().c_str());
            return 1;
        }
    return 0;
}
