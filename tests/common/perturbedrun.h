// SPDX-License-Identifier: MIT
#pragma once
// A real ETDump run copied by the project's writer with the outputs of every instruction from
// one on changed: the "perturbed run" of issue 38, compared against the unchanged run. One
// helper for the heat, report and CLI tests that need it.

#include "core/debug/etdump.h"
#include "core/util/atomicfile.h"
#include "core/util/result.h"
#include "core/writer/debug/etdumpwriter.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etscope::test {

struct PerturbedRun {
    std::vector<std::uint8_t> etdump;
    std::vector<std::uint8_t> buffer; ///< the debug buffer the ETDump's tensors point into
};

/// Copies `real`, each logged tensor of instruction `from` or later becoming v·`factor` + e·`step`
/// (e: the event's index in its block, so that nodes differ a little); earlier ones unchanged.
inline core::Result<PerturbedRun> perturbFrom(
    const core::ETDump& real, core::InstructionId from, double factor, double step = 0)
{
    std::vector<core::RunBlock> runs = real.runs;
    core::DebugBufferWriter buffer(64, 48);
    for (core::RunBlock& run : runs)
        for (std::size_t e = 0; e < run.debugEvents.size(); ++e) {
            core::DebugEvent& event = run.debugEvents[e];
            for (core::DebugTensor& tensor : event.value.tensors) {
                auto values = core::tensorValues(real, tensor);
                if (!values)
                    return values.error();
                if (event.instructionId.valid() && event.instructionId.value >= from.value)
                    for (double& v : values.value())
                        v = v * factor + static_cast<double>(e) * step;
                tensor.offset = buffer.appendValues(tensor.scalarType, values.value());
            }
        }
    return PerturbedRun { core::writeETDump(runs), buffer.bytes() };
}

/// Writes `run` as `path` and its debug buffer beside it (`<stem>.debug.bin`, where the readers
/// look for it); an error names the file.
inline std::optional<core::Error> writePerturbedRun(const PerturbedRun& run, const std::string& path)
{
    const std::string stem = path.substr(0, path.rfind('.'));
    const auto text = [](const std::vector<std::uint8_t>& bytes) {
        return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    };
    if (auto error = core::writeFileAtomically(path, text(run.etdump)))
        return error;
    return core::writeFileAtomically(stem + ".debug.bin", text(run.buffer));
}

} // namespace etscope::test
