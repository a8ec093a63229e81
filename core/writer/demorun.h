// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace etscope::core {

/// An ETDump and the debug buffer its tensors point into.
struct DemoTrace {
    std::vector<std::uint8_t> etdump;
    std::vector<std::uint8_t> debugBuffer;
};

/// The ETDump pair shipped with the bundled demo (issue 6), so the heatmap has data on first
/// launch. Both are runs of the demo's `forward` (makeDemoProgram) on the same input, laid out
/// like the runtime's own dumps (generated/README.md): a `Default` block with
/// Program::load_method and Method::init, then one `Execute` block in which every instruction
/// logs its out tensors (delegate calls: every argument, inputs first), kernel calls nest
/// native_call_<op> in OPERATOR_CALL, the XNNPACK call carries its operators as
/// delegate-internal events, and the program outputs follow Method::execute flagged `output`.
///
/// The values are computed, not invented: the forward pass is evaluated from the demo's own
/// weights. `reference` is the float32 host run; `run` is a simulated device run in which the
/// XNNPACK block computes in fp16 and the NPU returns int8-quantised activations, so the gap
/// grows from instruction 0 on and the heatmap shows where the numbers drift.
struct DemoTraces {
    DemoTrace run;
    DemoTrace reference;
};

DemoTraces makeDemoTraces();

/// The demo forward pass on the demo input, one vector of float64 values per logged tensor in
/// the order the dumps log them. `device` selects the simulated device run. Exposed for tests.
struct DemoForward {
    std::vector<double> x, a0, p0, indices, f0, h0, l0, r0, logits, probs, cls;
};
DemoForward computeDemoForward(bool device);

} // namespace etscope::core
