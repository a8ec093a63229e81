// SPDX-License-Identifier: MIT
// etscope-writedemo OUTPUT.pte — writes the demo program the app opens on first launch.
// Run by the app build; not installed. The only place in core that prints: it is a tool.
#include "writer/programwriter.h"
#include "writer/syntheticmodels.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT.pte\n", argc > 0 ? argv[0] : "etscope-writedemo");
        return 2;
    }
    using namespace etscope::core;
    const std::string path = argv[1];
    auto bytes = writeProgram(makeDemoProgram());
    if (!bytes) {
        std::fprintf(stderr, "%s\n", bytes.error().message().c_str());
        return 1;
    }
    if (auto error = writeBytesToFile(path, bytes.value())) {
        std::fprintf(stderr, "%s\n", error->message().c_str());
        return 1;
    }
    return 0;
}
