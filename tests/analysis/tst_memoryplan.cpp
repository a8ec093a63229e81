// SPDX-License-Identifier: MIT
// The memory plan (core/analysis/memoryplan.h) of real samples, checked against numbers worked
// out by hand from the raw program tables (`flatc --json --raw-binary core/schema/program.fbs
// -- FILE` prints non_const_buffer_sizes, every tensor's sizes and allocation_info, and the
// instruction args), and of writer-made programs for what no sample has: loops, moves, frees,
// several chains, and bad plans.
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"

#include "core/analysis/memoryplan.h"
#include "core/document/document.h"
#include "core/util/jsontext.h"
#include "core/writer/programwriter.h"

#include <QTest>

using namespace etscope::core;

namespace {

const PlannedTensor& tensorOf(const MemoryPlan& plan, int value)
{
    static const PlannedTensor none;
    const PlannedTensor* t = plan.tensor(ValueIndex(value));
    return t ? *t : none;
}

std::optional<Document> openSample(const std::string& relative)
{
    auto document = openDocument(etscope::test::samplePath(relative));
    if (!document)
        return std::nullopt;
    return std::move(document).value();
}

TensorSpec planned(std::vector<std::int32_t> sizes, std::uint64_t offset, std::uint32_t arena = 1)
{
    TensorSpec t;
    t.sizes = std::move(sizes);
    t.allocation = AllocationSpec { arena, offset };
    return t;
}

/// A method with a loop, a move, a free and two chains (no sample has any of them):
///   chain 0: 0 add(v0, v0) → v2          (before the loop)
///            1 mul(v2, v4) → v3          (loop head: v4 is read before its first write)
///            2 add(v3, v0) → v4
///            3 jump_false(v1, 1)         (back to 1: the loop is steps 1–3)
///            4 move v4 → v6
///            5 free v3
///   chain 1: 0 neg(v6) → v7              (step 6, the method output)
/// Tensors FLOAT[4] = 16 bytes: v0 @0, v2 @16, v3 @32, v4 @48, v6 @64, v7 @0 (reuses v0's bytes
/// once v0 is dead); arena 1 declared 80 bytes.
ProgramSpec loopProgram()
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    const std::int32_t v0 = m.addTensor(planned({ 4 }, 0));
    const std::int32_t v1 = m.addValue(ValueSpec::boolean(false));
    const std::int32_t v2 = m.addTensor(planned({ 4 }, 16));
    const std::int32_t v3 = m.addTensor(planned({ 4 }, 32));
    const std::int32_t v4 = m.addTensor(planned({ 4 }, 48));
    const std::int32_t alpha = m.addValue(ValueSpec::integer(1));
    const std::int32_t v6 = m.addTensor(planned({ 4 }, 64));
    const std::int32_t v7 = m.addTensor(planned({ 4 }, 0));
    m.inputs = { v0 };
    m.outputs = { v7 };
    const std::int32_t add = m.addOperator("aten::add", "out");
    const std::int32_t mul = m.addOperator("aten::mul", "out");
    const std::int32_t neg = m.addOperator("aten::neg", "out");
    m.chains.resize(2);
    m.chains[0].instructions = {
        InstructionSpec::kernel(add, { v0, v0, alpha, v2, v2 }),
        InstructionSpec::kernel(mul, { v2, v4, v3, v3 }),
        InstructionSpec::kernel(add, { v3, v0, alpha, v4, v4 }),
        InstructionSpec::jumpFalse(v1, 1),
        InstructionSpec::move(v4, v6),
        InstructionSpec::free(v3),
    };
    m.chains[1].instructions = { InstructionSpec::kernel(neg, { v6, v7, v7 }) };
    m.nonConstBufferSizes = { 0, 80 };
    return spec;
}

} // namespace

class TestMemoryPlan : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // executorch/add.pte: non_const_buffer_sizes [0, 48] → arena 1 declared 48. Values v0, v1,
    // v2 are FLOAT[1] (4 bytes) at offsets 0, 16, 32; one instruction aten::add.out
    // args [0, 1, 3, 2, 2] reads v0, v1 (v3 is the Int alpha) and writes v2, the output.
    // All three live at step 0: peak 3 × 4 = 12 bytes at step 0; highest end 32 + 4 = 36;
    // fragmentation 1 − 12/36 = 0.6667.
    void addSample()
    {
        const auto document = openSample("executorch/add.pte");
        QVERIFY(document);
        const MemoryPlan plan = computeMemoryPlan(*document, *document->program->method("forward"));
        QCOMPARE(plan.steps.size(), std::size_t(1));
        QCOMPARE(plan.steps[0].label, std::string("aten::add.out"));
        QCOMPARE(plan.arenas.size(), std::size_t(1));
        const MemoryArena& arena = plan.arenas[0];
        QCOMPARE(arena.id, 1u);
        QCOMPARE(*arena.declaredSize, std::int64_t(48));
        QCOMPARE(arena.highestEnd, std::uint64_t(36));
        QCOMPARE(arena.peakLiveBytes, std::uint64_t(12));
        QCOMPARE(arena.peakStep, 0);
        QVERIFY(std::abs(arena.fragmentation - (1.0 - 12.0 / 36.0)) < 1e-9);
        QCOMPARE(tensorOf(plan, 1).offset, std::uint64_t(16));
        QCOMPARE(tensorOf(plan, 1).role, PlannedTensor::Role::Input);
        QCOMPARE(tensorOf(plan, 2).role, PlannedTensor::Role::Activation);
        QVERIFY(tensorOf(plan, 2).output);
        QCOMPARE(tensorOf(plan, 2).producerStep, 0);
        QVERIFY(tensorOf(plan, 2).producer == plan.steps[0].node);
        QVERIFY(plan.warnings.empty());
        QVERIFY(plan.constants.empty());
    }

    // djl-executorch-engine/spike_lin129_planned.pte: sizes [0, 848]; v0 FLOAT[129] = 516
    // bytes at 0 (input), v1 FLOAT[64] = 256 bytes at 528 (output). The only instruction is a
    // DelegateCall [0, 1]; the XNNPACK payload has one input and one output, so v1 is written.
    // Peak at step 0 = 516 + 256 = 772; highest end 528 + 256 = 784; fragmentation
    // 1 − 772/784 = 0.0153 (the 12 padding bytes between 516 and 528).
    void delegateSample()
    {
        const auto document = openSample("djl-executorch-engine/spike_lin129_planned.pte");
        QVERIFY(document);
        const MemoryPlan plan = computeMemoryPlan(*document, *document->program->method("forward"));
        QCOMPARE(plan.arenas.size(), std::size_t(1));
        QCOMPARE(*plan.arenas[0].declaredSize, std::int64_t(848));
        QCOMPARE(plan.arenas[0].highestEnd, std::uint64_t(784));
        QCOMPARE(plan.arenas[0].peakLiveBytes, std::uint64_t(772));
        QCOMPARE(tensorOf(plan, 0).bytes, std::uint64_t(516));
        QCOMPARE(tensorOf(plan, 1).bytes, std::uint64_t(256));
        QCOMPARE(tensorOf(plan, 1).role, PlannedTensor::Role::Activation);
        QCOMPARE(tensorOf(plan, 1).producerStep, 0);
        QVERIFY(std::abs(plan.arenas[0].fragmentation - (1.0 - 772.0 / 784.0)) < 1e-9);
    }

    // djl-executorch-engine/stress_mlp.pte: sizes [0, 100416]; 14 instructions:
    //   0 _to_dim_order_copy → v5 @1072 (FLOAT [], 4 B)   7 _to_dim_order_copy(v23) → v25
    //   1 _to_dim_order_copy → v8 @1056                   8 _to_dim_order_copy(v24) → v28
    //   2 select_copy(v3) → v11 @98304 (FLOAT[256], 1 KiB) 9 clamp(v25) → v31 @98304 (LONG [])
    //   3 select_copy(v4) → v14 @0 (1 KiB)                10 clamp(v28) → v34 @0 (LONG [])
    //   4 select_copy(v11) → v17 @1040                    11 index_select(v0, v37) → v39 @99328
    //   5 select_copy(v14) → v20 @1024                    12 index_select(v0, v38) → v41 @98304
    //   6 XnnpackBackend(v17, v5, v20, v8) → v23 @99328, v24 @98304
    //  13 XnnpackBackend(v3, v39, v4, v41) → v43 @0 (FLOAT[32, 256], 32 KiB, the output)
    // Inputs v3 @65536 and v4 @32768 (FLOAT[32, 256], 32768 B each) live 0–13.
    // v37 (LONG[1] @98304) and v38 (LONG[1] @0) are never written: elided views of v31 (written
    // at 9, same place, one element) and v34 (written at 10), so v37 lives 9–11, v38 10–12.
    // v23 lives 6–7 (the delegate's first output, read by 7), v24 6–8.
    // Live bytes at 13: v3 + v4 + v43 (3 × 32768) + v39 + v41 (2 × 1024) = 100352, the peak;
    // at 4 (the busiest early step): 65536 + v5, v8, v17 (12) + v11, v14 (2048) = 67596.
    // Highest end: v39 at 99328 + 1024 = 100352, so nothing is idle at the peak.
    // Constants: v0 FLOAT[64, 256] (65536 B, buffer 1), v1 and v2 LONG [] sharing buffer 2
    // (8 B once): 2 buffers, 65544 bytes in the constant segment (segment 0).
    void mlpSample()
    {
        const auto document = openSample("djl-executorch-engine/stress_mlp.pte");
        QVERIFY(document);
        const MemoryPlan plan = computeMemoryPlan(*document, *document->program->method("forward"));
        QCOMPARE(plan.steps.size(), std::size_t(14));
        QCOMPARE(plan.arenas.size(), std::size_t(1));
        const MemoryArena& arena = plan.arenas[0];
        QCOMPARE(*arena.declaredSize, std::int64_t(100416));
        QCOMPARE(arena.peakLiveBytes, std::uint64_t(100352));
        QCOMPARE(arena.peakStep, 13);
        QCOMPARE(arena.liveBytes[4], std::uint64_t(67596));
        QCOMPARE(arena.highestEnd, std::uint64_t(100352));
        QCOMPARE(arena.fragmentation, 0.0);
        QCOMPARE(arena.tensors.size(), std::size_t(19));
        QCOMPARE(tensorOf(plan, 23).firstStep, 6);
        QCOMPARE(tensorOf(plan, 23).lastStep, 7);
        QCOMPARE(tensorOf(plan, 24).lastStep, 8);
        QCOMPARE(tensorOf(plan, 37).role, PlannedTensor::Role::View);
        QCOMPARE(tensorOf(plan, 37).aliasOf.value, 31);
        QCOMPARE(tensorOf(plan, 37).firstStep, 9);
        QCOMPARE(tensorOf(plan, 37).lastStep, 11);
        QCOMPARE(tensorOf(plan, 31).lastStep, 11);
        QCOMPARE(tensorOf(plan, 38).aliasOf.value, 34);
        QCOMPARE(tensorOf(plan, 38).lastStep, 12);
        QCOMPARE(tensorOf(plan, 3).firstStep, 0);
        QCOMPARE(tensorOf(plan, 3).lastStep, 13);
        QCOMPARE(tensorOf(plan, 43).offset, std::uint64_t(0));
        QCOMPARE(tensorOf(plan, 43).bytes, std::uint64_t(32768));
        QCOMPARE(plan.overlapCount, std::size_t(0));
        QCOMPARE(plan.constants.size(), std::size_t(1));
        QCOMPARE(plan.constants[0].place, std::string("constant segment"));
        QCOMPARE(*plan.constants[0].segment, 0u);
        QCOMPARE(plan.constants[0].tensors, std::size_t(2));
        QCOMPARE(plan.constants[0].bytes, std::uint64_t(65544));
    }

    // dnf-executorch/dnf_executorch5.pte, a training program: sizes [0, 17040]. v0 … v9 have
    // initial values (data_buffer_idx 1 … 10 with allocation_info): mutable state, live the
    // whole method (0–91). Their bytes: v0 [23, 50] 4600, v1 [23] 92, v2 [11, 23] 1012, v3 44,
    // v4 [5, 11] 220, v5 20, v6 [3, 5] 60, v7 12, v8 12, v9 4 → 6076 in the mutable segment.
    void trainingSample()
    {
        const auto document = openSample("dnf-executorch/dnf_executorch5.pte");
        QVERIFY(document);
        const MemoryPlan plan = computeMemoryPlan(*document, *document->program->method("forward"));
        QCOMPARE(plan.steps.size(), std::size_t(92));
        QCOMPARE(*plan.arenas.at(0).declaredSize, std::int64_t(17040));
        for (int v = 0; v < 10; ++v) {
            QCOMPARE(tensorOf(plan, v).role, PlannedTensor::Role::State);
            QCOMPARE(tensorOf(plan, v).firstStep, 0);
            QCOMPARE(tensorOf(plan, v).lastStep, 91);
        }
        QCOMPARE(tensorOf(plan, 0).bytes, std::uint64_t(4600));
        const auto mutableGroup = std::find_if(plan.constants.begin(), plan.constants.end(),
            [](const ConstantGroup& g) { return g.place == "mutable data segment"; });
        QVERIFY(mutableGroup != plan.constants.end());
        QCOMPARE(mutableGroup->tensors, std::size_t(10));
        QCOMPARE(mutableGroup->bytes, std::uint64_t(6076));
        QCOMPARE(plan.overlapCount, std::size_t(0));
        // The state alone is live at every step.
        for (const std::uint64_t live : plan.arenas[0].liveBytes)
            QVERIFY(live >= 6076);
    }

    // No sample plans overlap; every program's every method computes without a warning about
    // overlaps, and the live bytes never exceed the arena's used extent.
    void everySampleIsConsistent()
    {
        for (const char* relative : { "executorch/xor.pte", "executorch/arduino_KeywordSpotting_model.pte",
                 "dnf-executorch/dnf_xnnpack_training.pte", "executorch-numpy-runtime/multi.pte",
                 "executorch/stories260k_hybrid_llama_qnn.pte", "executorch/bundled_program.bpte" }) {
            const auto document = openSample(relative);
            QVERIFY2(document, relative);
            for (const Method& method : document->program->methods) {
                const MemoryPlan plan = computeMemoryPlan(*document, method);
                QVERIFY2(plan.overlapCount == 0, relative);
                for (const MemoryArena& arena : plan.arenas) {
                    QVERIFY(arena.peakLiveBytes <= arena.highestEnd);
                    if (arena.declaredSize)
                        QVERIFY(arena.highestEnd <= static_cast<std::uint64_t>(*arena.declaredSize));
                }
            }
        }
    }

    // The loop program above, by hand (steps: chain 0 is 0–5, chain 1's instruction 0 is 6):
    //   v0 input, read at 0, 1, 2 → 0–2, and used inside the loop 1–3 from before it → 0–3.
    //   v2 written 0, read 1 (inside the loop) → 0–3.
    //   v3 written 1, read 2, freed 5 → 1–5 (written inside the loop before any read there).
    //   v4 read at 1 before its first write at 2, inside the loop: carried → 1–4 (moved at 4).
    //   v6 written by the move at 4, read at 6 → 4–6.  v7 written 6, the output → 6–6.
    // Live bytes: steps 1–3 v0, v2, v3, v4 = 64 (peak, first at 1); 4: v3, v4, v6 = 48;
    // 6: v6, v7 = 32. Highest end 80; fragmentation 1 − 64/80 = 0.2.
    void loopMoveFreeChains()
    {
        etscope::test::ScratchDir dir;
        auto document = dir.writeAndOpen(loopProgram(), "loop.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const MemoryPlan plan = computeMemoryPlan(*document, document->program->methods[0]);
        QCOMPARE(plan.chains, 2);
        QCOMPARE(plan.steps.size(), std::size_t(7));
        QCOMPARE(plan.steps[6].chain, 1);
        QCOMPARE(plan.steps[6].instruction.value, 0);
        QVERIFY(plan.steps[6].node.valid());
        QCOMPARE(plan.loops.size(), std::size_t(1));
        QCOMPARE(plan.loops[0].first, 1);
        QCOMPARE(plan.loops[0].last, 3);
        const auto lifetime
            = [&](int v) { return std::make_pair(tensorOf(plan, v).firstStep, tensorOf(plan, v).lastStep); };
        QCOMPARE(lifetime(0), std::make_pair(0, 3));
        QCOMPARE(lifetime(2), std::make_pair(0, 3));
        QCOMPARE(lifetime(3), std::make_pair(1, 5));
        QCOMPARE(lifetime(4), std::make_pair(1, 4));
        QCOMPARE(lifetime(6), std::make_pair(4, 6));
        QCOMPARE(lifetime(7), std::make_pair(6, 6));
        const MemoryArena& arena = plan.arenas.at(0);
        QCOMPARE(arena.peakLiveBytes, std::uint64_t(64));
        QCOMPARE(arena.peakStep, 1);
        QCOMPARE(arena.liveBytes[4], std::uint64_t(48));
        QCOMPARE(arena.liveBytes[6], std::uint64_t(32));
        QVERIFY(std::abs(arena.fragmentation - 0.2) < 1e-9);
        QCOMPARE(plan.overlapCount, std::size_t(0));
        QVERIFY2(plan.warnings.empty(), plan.warnings.empty() ? "" : plan.warnings[0].message.c_str());
    }

    // A bad plan written on purpose: v1 (16 B at 0) lives 0–1 and v2 (16 B at 8) is written at
    // 1 while v1 is still read there → an overlap at step 1; v2 ends at 24, beyond the declared
    // 16 bytes; v3 sits in arena 3, which the method does not declare.
    void badPlanWarns()
    {
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t v0 = m.addTensor(planned({ 4 }, 0));
        const std::int32_t v1 = m.addTensor(planned({ 4 }, 0));
        const std::int32_t v2 = m.addTensor(planned({ 4 }, 8));
        const std::int32_t v3 = m.addTensor(planned({ 1 }, 0, 3));
        const std::int32_t neg = m.addOperator("aten::neg", "out");
        const std::int32_t add = m.addOperator("aten::add", "out");
        const std::int32_t alpha = m.addValue(ValueSpec::integer(1));
        m.inputs = { v0 };
        m.outputs = { v2 };
        m.addInstruction(InstructionSpec::kernel(neg, { v0, v1, v1 }));
        m.addInstruction(InstructionSpec::kernel(add, { v1, v1, alpha, v2, v2 }));
        m.addInstruction(InstructionSpec::kernel(neg, { v2, v3, v3 }));
        m.nonConstBufferSizes = { 0, 16 };
        etscope::test::ScratchDir dir;
        auto document = dir.writeAndOpen(spec, "bad.pte");
        QVERIFY2(document, document ? "" : document.error().message().c_str());
        const MemoryPlan plan = computeMemoryPlan(*document, document->program->methods[0]);
        // v0 (input, 0–0) and v1 (written at 0) share bytes 0–16 at step 0 too.
        QCOMPARE(plan.overlapCount, std::size_t(2));
        QCOMPARE(plan.overlaps[1].step, 1);
        QCOMPARE(plan.overlaps[1].first.value, v1);
        QCOMPARE(plan.overlaps[1].second.value, v2);
        const auto warned = [&](const std::string& text) {
            return std::any_of(plan.warnings.begin(), plan.warnings.end(),
                [&](const Warning& w) { return w.message.find(text) != std::string::npos; });
        };
        QVERIFY(warned("2 pairs of tensors are live at the same step in the same bytes"));
        QVERIFY(warned("v2 (16 bytes at offset 8) ends beyond arena 1 of 16 bytes"));
        QVERIFY(warned("arena 3 (of v3) is not declared"));
        QCOMPARE(plan.arenas.size(), std::size_t(2));
        QVERIFY(!plan.arenas[1].declaredSize);
    }

    // Odd methods built in memory (the reader refuses them, so nothing on disk can carry them):
    // arguments out of range, a jump out of its chain, an operator index out of range, a huge
    // offset whose end overflows, an empty method. Nothing crashes; the oddities are warnings.
    void oddMethodsNeverCrash()
    {
        Program program;
        Method method;
        method.name = "odd";
        Value tensor;
        tensor.kind = Value::Kind::Tensor;
        tensor.tensor.scalarType = 6;
        tensor.tensor.sizes = { 4 };
        tensor.tensor.hasAllocation = true;
        tensor.tensor.memoryId = 1;
        tensor.tensor.storage = TensorStorage::Planned;
        method.values = { tensor, tensor, tensor };
        method.values[2].tensor.memoryOffset = UINT64_MAX - 4;
        method.values[1].tensor.memoryId = 0;
        method.nonConstBufferSizes = { 0, 8 };
        Chain chain;
        Instruction kernel;
        kernel.kind = Instruction::Kind::Kernel;
        kernel.index = 7;
        kernel.args = { 0, 99, -3, 2 };
        Instruction jump;
        jump.kind = Instruction::Kind::JumpFalse;
        jump.condition = 55;
        jump.destination = 40;
        Instruction move;
        move.kind = Instruction::Kind::Move;
        move.moveFrom = -1;
        move.moveTo = 1000;
        chain.instructions = { kernel, jump, move, Instruction {} };
        method.chains = { chain };
        method.inputs = { 0, 77 };
        method.outputs = { -5 };
        // The method graph builder trusts verified programs; the plan is checked on its own.
        const Graph noGraph;
        const MemoryPlan plan = computeMemoryPlan(program, method, &noGraph);
        QCOMPARE(plan.steps.size(), std::size_t(4));
        QVERIFY(!plan.warnings.empty());
        Method empty;
        const MemoryPlan nothing = computeMemoryPlan(program, empty, &noGraph);
        QVERIFY(nothing.tensors.empty());
        QVERIFY(nothing.arenas.empty());
        std::string trace;
        writeMemoryPlanChromeTrace(plan, [&](std::string_view piece) { trace += piece; });
        etscope::core::JsonProblem problem;
        QVERIFY(etscope::core::parseJson<nlohmann::json>(trace, problem));
    }

    // The chrome trace of add.pte: one X event per live tensor per step (3 tensors × 1 step),
    // pid = arena 1, tid = step 0, ts = offset, dur = bytes, as generate_memory_trace writes.
    void chromeTraceShape()
    {
        const auto document = openSample("executorch/add.pte");
        QVERIFY(document);
        const MemoryPlan plan = computeMemoryPlan(*document, *document->program->method("forward"));
        std::string text;
        const ChromeTraceStats stats = writeMemoryPlanChromeTrace(plan, [&](std::string_view p) { text += p; });
        QCOMPARE(stats.events, std::size_t(3));
        QVERIFY(!stats.truncated);
        const auto trace = nlohmann::json::parse(text);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> boxes;
        for (const auto& e : trace["traceEvents"])
            if (e["ph"] == "X") {
                QCOMPARE(e["pid"].get<int>(), 1);
                QCOMPARE(e["tid"].get<int>(), 0);
                boxes.emplace_back(e["ts"].get<std::uint64_t>(), e["dur"].get<std::uint64_t>());
            }
        std::sort(boxes.begin(), boxes.end());
        const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected { { 0, 4 }, { 16, 4 }, { 32, 4 } };
        QCOMPARE(boxes, expected);
        std::string cut;
        QVERIFY(writeMemoryPlanChromeTrace(
            plan, [&](std::string_view p) { cut += p; }, 2)
                    .truncated);
        QVERIFY(nlohmann::json::accept(cut));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestMemoryPlan)
#include "tst_memoryplan.moc"
