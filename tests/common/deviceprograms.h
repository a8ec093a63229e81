// SPDX-License-Identifier: MIT
// Writer-made programs whose delegates state device facts (issue 33): one method "forward" with
// one delegate of a backend, its payload and compile specs, for `diff` and `check --baseline
// --budget same-device-facts` fixtures.
#pragma once

#include "core/writer/payloads/qnnpayloadwriter.h"
#include "core/writer/programwriter.h"

#include <string>
#include <vector>

namespace etscope::test {

inline core::CompileSpec textCompileSpec(const std::string& key, const std::string& text)
{
    return { key, std::vector<std::uint8_t>(text.begin(), text.end()) };
}

/// forward(x) = delegate(x): one delegate of `backend` with this payload and these specs.
inline core::ProgramSpec oneDelegateProgram(
    const std::string& backend, std::vector<std::uint8_t> payload, std::vector<core::CompileSpec> specs)
{
    core::ProgramSpec spec;
    core::MethodSpec& method = spec.addMethod("forward");
    core::TensorSpec t;
    t.sizes = { 2 };
    const std::int32_t x = method.addTensor(t);
    const std::int32_t y = method.addTensor(t);
    method.inputs = { x };
    method.outputs = { y };
    core::DelegateSpec delegate { backend, std::move(payload) };
    delegate.compileSpecs = std::move(specs);
    const std::int32_t d = method.addDelegate(std::move(delegate));
    method.addInstruction(core::InstructionSpec::delegate(d, { x, y }));
    return spec;
}

/// An Ethos-U delegate compiled for `target` ("ethos-u55-128"); the payload is not a Vela
/// stream, so only the compile spec states facts.
inline core::ProgramSpec ethosUProgram(const std::string& target)
{
    return oneDelegateProgram("EthosUBackend", std::vector<std::uint8_t>(64, 0xEE),
        { textCompileSpec("target", target), textCompileSpec("output_format", "vela") });
}

/// A QNN delegate whose context binary names this SDK build ("v2.45.0.fixture") and SoC.
inline core::ProgramSpec qnnProgram(const std::string& buildId, std::uint32_t socModel = 57)
{
    core::QnnWriteOptions options;
    options.buildId = buildId;
    options.socModel = socModel;
    return oneDelegateProgram("QnnBackend", core::writeQnnPayload({}, options), {});
}

} // namespace etscope::test
