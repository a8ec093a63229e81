// SPDX-License-Identifier: MIT
// Cases no public ETDump covers, made by the project's ETDump and debug-buffer writers
// (core/writer/debug): round trips of real dumps, the plain (not size-prefixed) form, and runs
// that differ from a real one by known amounts, with the gap computed by hand.
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/debug/dumpcheck.h"
#include "core/debug/numericgap.h"
#include "core/document/document.h"
#include "core/util/scalartype.h"
#include "core/writer/debug/etdumpwriter.h"
#include "core/writer/demorun.h"
#include "core/writer/programwriter.h"
#include "core/writer/syntheticmodels.h"

#include <QTest>

#include <cmath>
#include <functional>

using namespace etscope::core;

namespace {

std::string generated(const std::string& relative)
{
    return etscope::test::samplePath("generated/" + relative);
}

Result<ETDump> realDump(const std::string& relative)
{
    auto dump = readETDumpFile(generated(relative));
    if (!dump)
        return dump;
    if (auto error = attachDebugBufferOrDefault(dump.value(), {}))
        return *error;
    return dump;
}

/// A dump and its debug buffer written by the project's writers, opened as the reader sees them
/// (or why they could not be written).
struct Written {
    std::vector<std::uint8_t> etdump;
    std::vector<std::uint8_t> buffer;
    std::optional<Error> failure = {};
    Result<ETDump> open(const std::string& name) const
    {
        if (failure)
            return *failure;
        auto dump = readETDump(MappedFile::fromBytes(name, etdump));
        if (dump)
            attachDebugBuffer(dump.value(), MappedFile::fromBytes(name + ".debug.bin", buffer));
        return dump;
    }
};

/// Copies a real dump, rewriting every tensor into a fresh debug buffer; `change` may alter
/// the values of the k-th logged tensor (counted over the whole file).
Written rewrite(const ETDump& real, const std::function<void(std::size_t, std::vector<double>&)>& change = {})
{
    std::vector<RunBlock> runs = real.runs;
    DebugBufferWriter buffer(64, 48);
    std::size_t k = 0;
    for (RunBlock& run : runs)
        for (DebugEvent& event : run.debugEvents)
            for (DebugTensor& tensor : event.value.tensors) {
                auto values = tensorValues(real, tensor);
                if (!values)
                    return { {}, {}, values.error() };
                if (change)
                    change(k, values.value());
                ++k;
                tensor.offset = buffer.appendValues(tensor.scalarType, values.value());
            }
    return { writeETDump(runs), buffer.bytes() };
}

Result<Document> program(const std::string& relative)
{
    return openDocument(etscope::test::samplePath(relative));
}

RunBlock block(const std::string& name)
{
    RunBlock run;
    run.name = name;
    return run;
}

} // namespace

class TestETDumpFixtures : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void demoTracesFitTheDemoProgram()
    {
        // The bundled demo's ETDump pair against the demo program: no disagreement, also for
        // max_pool2d_with_indices, which logs its indices (LONG) that no node reads and so no
        // edge carries (this once warned "is this ETDump from another program?" on first launch).
        const auto bytes = writeProgram(makeDemoProgram());
        QVERIFY(bytes);
        auto program = readProgram(MappedFile::fromBytes("demo.pte", bytes.value()));
        QVERIFY(program);
        Document document;
        document.path = "demo.pte";
        document.program = std::move(program).value();
        QVERIFY(!analyseDocument(document));
        const Method& forward = *document.program->method("forward");
        const EventMapper mapper(*document.analysis(forward)->graph, nullptr, "forward");
        const DemoTraces traces = makeDemoTraces();
        for (const DemoTrace* trace : { &traces.run, &traces.reference }) {
            const Written written { trace->etdump, trace->debugBuffer };
            ETSCOPE_TAKE(const ETDump dump, written.open("demo.etdp"));
            const DumpFit fit = checkDumpFitsProgram(dump, mapper);
            QVERIFY(fit.checked > 0);
            QVERIFY2(fit.mismatches() == 0, fit.examples.empty() ? "" : fit.examples.front().c_str());
        }
    }

    void sizeWrittenInFrontOfAPlainBuffer()
    {
        // ExecuTorch's Python serializer writes a plain buffer and puts its size in front, so the
        // 8-byte times are aligned after the prefix, not from the file's start. Such a file reads
        // like the runtime's own, and every cut of it is refused cleanly.
        ETSCOPE_TAKE(const ETDump real, realDump("stress_mlp/stress_mlp.intermediates.etdp"));
        ETDumpWriteOptions plain;
        plain.sizePrefixed = false;
        const std::vector<std::uint8_t> body = writeETDump(real.runs, plain);
        std::vector<std::uint8_t> bytes(4);
        const auto size = static_cast<std::uint32_t>(body.size());
        for (int i = 0; i < 4; ++i)
            bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(size >> (8 * i));
        bytes.insert(bytes.end(), body.begin(), body.end());
        auto dump = readETDump(MappedFile::fromBytes("python.etdp", bytes));
        QVERIFY2(dump, dump ? "" : dump.error().message().c_str());
        QVERIFY(dump->sizePrefixed);
        QVERIFY(dump->alignedAfterPrefix);
        QCOMPARE(dump->runs.size(), real.runs.size());
        for (std::size_t r = 0; r < real.runs.size(); ++r) {
            QCOMPARE(dump->runs[r].profileEvents.size(), real.runs[r].profileEvents.size());
            for (std::size_t e = 0; e < real.runs[r].profileEvents.size(); ++e) {
                QCOMPARE(dump->runs[r].profileEvents[e].name, real.runs[r].profileEvents[e].name);
                QCOMPARE(dump->runs[r].profileEvents[e].startTime, real.runs[r].profileEvents[e].startTime);
                QCOMPARE(dump->runs[r].profileEvents[e].endTime, real.runs[r].profileEvents[e].endTime);
            }
            QCOMPARE(dump->runs[r].debugEvents.size(), real.runs[r].debugEvents.size());
        }
        QVERIFY(!real.alignedAfterPrefix);
        for (std::size_t cut = 0; cut < bytes.size(); cut += 5)
            QVERIFY(!readETDump(
                MappedFile::fromBytes("cut.etdp", { bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut) }))
                         .ok());
    }

    void roundTripOfARealDump()
    {
        // Writer → reader keeps every field the reader knows (facts sheet §4.2).
        ETSCOPE_TAKE(const ETDump real, realDump("stress_mlp/stress_mlp.intermediates.etdp"));
        const Written copy = rewrite(real);
        ETSCOPE_TAKE(const ETDump back, copy.open("copy.etdp"));
        QVERIFY(back.sizePrefixed);
        QCOMPARE(back.runs.size(), real.runs.size());
        for (std::size_t r = 0; r < real.runs.size(); ++r) {
            const RunBlock& a = real.runs[r];
            const RunBlock& b = back.runs[r];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.bundledInputIndex, a.bundledInputIndex);
            QCOMPARE(b.profileEvents.size(), a.profileEvents.size());
            for (std::size_t e = 0; e < a.profileEvents.size(); ++e) {
                QCOMPARE(b.profileEvents[e].name, a.profileEvents[e].name);
                QCOMPARE(b.profileEvents[e].chainIndex, a.profileEvents[e].chainIndex);
                QCOMPARE(b.profileEvents[e].instructionId, a.profileEvents[e].instructionId);
                QCOMPARE(b.profileEvents[e].delegateDebugIdStr, a.profileEvents[e].delegateDebugIdStr);
                QCOMPARE(b.profileEvents[e].startTime, a.profileEvents[e].startTime);
                QCOMPARE(b.profileEvents[e].endTime, a.profileEvents[e].endTime);
                QCOMPARE(b.profileEvents[e].sequence, a.profileEvents[e].sequence);
            }
            QCOMPARE(b.debugEvents.size(), a.debugEvents.size());
            for (std::size_t e = 0; e < a.debugEvents.size(); ++e) {
                const DebugEvent& x = a.debugEvents[e];
                const DebugEvent& y = b.debugEvents[e];
                QCOMPARE(y.chainIndex, x.chainIndex);
                QCOMPARE(y.instructionId, x.instructionId);
                QCOMPARE(y.value.output, x.value.output);
                QCOMPARE(y.sequence, x.sequence);
                const DebugTensor& t = y.value.tensors.front();
                QCOMPARE(t.sizes, x.value.tensors.front().sizes);
                QCOMPARE(t.strides, x.value.tensors.front().strides);
                QCOMPARE(t.offset % 64, std::int64_t(48)); // BufferDataSink's alignment
                QVERIFY(t.inBuffer);
                QCOMPARE(tensorValues(back, t).value(), tensorValues(real, x.value.tensors.front()).value());
            }
        }
        // flatcc leaves defaults out; forcing them in gives a bigger file with the same content.
        std::vector<RunBlock> runs = real.runs;
        ETDumpWriteOptions all;
        all.omitDefaults = false;
        const std::vector<std::uint8_t> full = writeETDump(runs, all);
        QVERIFY(full.size() > copy.etdump.size());
        auto fullBack = readETDump(MappedFile::fromBytes("full.etdp", full));
        QVERIFY(fullBack.ok());
        QCOMPARE(fullBack->runs[1].profileEvents.size(), std::size_t(42));
    }

    void plainForm()
    {
        // §4.1: a defensive reader accepts ED00 at bytes 4-7 (no size prefix).
        RunBlock run = block("Execute");
        ProfileEvent event;
        event.name = "native_call_add.out";
        event.instructionId = InstructionId(3);
        event.startTime = 100;
        event.endTime = 250;
        run.profileEvents.push_back(event);
        AllocationEvent allocation { 1, 4096, 1 };
        run.allocators = { "planned" };
        run.allocationEvents.push_back(allocation);
        ETDumpWriteOptions options;
        options.sizePrefixed = false;
        const std::vector<std::uint8_t> bytes = writeETDump({ run }, options);
        QCOMPARE(std::string(bytes.begin() + 4, bytes.begin() + 8), std::string("ED00"));
        auto dump = readETDump(MappedFile::fromBytes("plain.etdp", bytes));
        QVERIFY2(dump.ok(), dump.ok() ? "" : dump.error().message().c_str());
        QVERIFY(!dump->sizePrefixed);
        QCOMPARE(dump->runs[0].profileEvents[0].duration(), std::uint64_t(150));
        QCOMPARE(dump->runs[0].profileEvents[0].instructionId, InstructionId(3));
        QCOMPARE(dump->runs[0].allocators, std::vector<std::string> { "planned" });
        QCOMPARE(dump->runs[0].allocationEvents[0].size, std::uint64_t(4096));
        QVERIFY(dump->warnings.empty());
    }

    void valueKinds()
    {
        // Every Value kind of §4.2, a delegate-internal debug event and an allocator id that names
        // no allocator (reported, not fatal).
        RunBlock run = block("Execute");
        const auto debug = [&](DebugValue value, std::size_t sequence) {
            DebugEvent event;
            event.instructionId = InstructionId(1);
            event.value = std::move(value);
            event.sequence = sequence;
            return event;
        };
        DebugValue i { DebugValue::Kind::Int, 1 };
        i.intValue = -7;
        DebugValue b { DebugValue::Kind::Bool, 2 };
        b.boolValue = true;
        DebugValue f { DebugValue::Kind::Float, 3 };
        f.doubleValue = 0.5;
        DebugValue d { DebugValue::Kind::Double, 4 };
        d.doubleValue = 0.25;
        DebugValue list { DebugValue::Kind::TensorList, 6 };
        list.tensors
            = { DebugTensor { scalar_type::Float, { 2 }, { 1 }, -1 }, DebugTensor { scalar_type::Long, {}, {}, -1 } };
        DebugValue unknown { DebugValue::Kind::Unknown, 42 };
        run.debugEvents = { debug(i, 0), debug(b, 1), debug(f, 2), debug(d, 3), debug(list, 4), debug(unknown, 5) };
        run.debugEvents[5].delegateDebugIdInt = DelegateDebugId(12);
        run.allocationEvents.push_back({ 3, 64, 6 });
        auto dump = readETDump(MappedFile::fromBytes("kinds.etdp", writeETDump({ run })));
        QVERIFY(dump.ok());
        const auto& events = dump->runs[0].debugEvents;
        QCOMPARE(events[0].value.intValue, std::int64_t(-7));
        QVERIFY(events[1].value.boolValue);
        QCOMPARE(events[2].value.doubleValue, 0.5);
        QCOMPARE(events[3].value.kind, DebugValue::Kind::Double);
        QCOMPARE(events[4].value.tensors.size(), std::size_t(2));
        QCOMPARE(events[4].value.tensors[1].scalarType, int(scalar_type::Long));
        QCOMPARE(events[5].value.kind, DebugValue::Kind::Unknown);
        QCOMPARE(events[5].delegateIdentifier(), std::string("12"));
        QCOMPARE(dump->warnings.size(), std::size_t(2)); // unknown kind 42; allocator 3 of 0
    }

    void perturbedAddRun()
    {
        // add.pte on ones: the real intermediates log 2.0 (the add) and 2.0 (the program output).
        // The copy changes the add's value to 2.5. By hand (a = 2.0 reference, b = 2.5 run):
        // MSE = 0.25; L1 = 0.5; SNR = 10·log10(2²/0.25) = 10·log10(16) = 12.0411998266 dB;
        // cosine = (2·2.5)/(2·2.5) = 1; max |a−b| = 0.5. The output row stays at 0.
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(const ETDump real, realDump("add/add.intermediates.etdp"));
        const Written copy = rewrite(real, [](std::size_t k, std::vector<double>& v) {
            if (k == 0)
                v[0] = 2.5;
        });
        ETSCOPE_TAKE(const ETDump run, copy.open("perturbed.etdp"));
        const GapReport report = compareETDumps(run, real, EventMapper(*document.methods.front().graph));
        QCOMPARE(report.rows.size(), std::size_t(2));
        const GapMetrics& m = *report.rows[0].metrics;
        QCOMPARE(report.rows[0].label, std::string("aten::add.out"));
        QCOMPARE(m.mse, 0.25);
        QCOMPARE(m.l1, 0.5);
        QVERIFY(std::abs(m.snr - 12.0411998266) < 1e-9);
        QCOMPARE(m.cosine, 1.0);
        QCOMPARE(m.maxAbs, 0.5);
        QCOMPARE(report.rows[1].metrics->mse, 0.0);
        QCOMPARE(report.rows[1].label, std::string("output 0"));
    }

    void twoWrittenRuns()
    {
        // Two runs of add.pte's one kernel logging a [2, 2] FLOAT out: reference [1, 2, 3, 4],
        // run [1, 2, 3, 5]. By hand: a − b = [0, 0, 0, −1]; MSE = 0.25; L1 = 1; max 1;
        // SNR = 10·log10(7.5/0.25) = 14.7712125472 dB; cosine = 34/√(30·39) = 0.99399908855.
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        const auto make = [](const std::vector<double>& values) {
            DebugBufferWriter buffer;
            RunBlock run = block("Execute");
            DebugEvent event;
            event.instructionId = InstructionId(0);
            event.value.kind = DebugValue::Kind::Tensor;
            event.value.rawKind = 5;
            event.value.tensors.push_back(
                { scalar_type::Float, { 2, 2 }, { 2, 1 }, buffer.appendValues(scalar_type::Float, values) });
            run.debugEvents.push_back(event);
            return Written { writeETDump({ block("Default"), run }), buffer.bytes() };
        };
        ETSCOPE_TAKE(const ETDump reference, make({ 1, 2, 3, 4 }).open("reference.etdp"));
        ETSCOPE_TAKE(const ETDump run, make({ 1, 2, 3, 5 }).open("run.etdp"));
        const GapReport report = compareETDumps(run, reference, EventMapper(*document.methods.front().graph));
        QCOMPARE(report.rows.size(), std::size_t(1));
        const GapRow& row = report.rows.front();
        QCOMPARE(row.shape, (std::vector<std::int64_t> { 2, 2 }));
        QCOMPARE(row.metrics->mse, 0.25);
        QCOMPARE(row.metrics->l1, 1.0);
        QCOMPARE(row.metrics->maxAbs, 1.0);
        QVERIFY(std::abs(row.metrics->snr - 14.7712125472) < 1e-9);
        QVERIFY(std::abs(row.metrics->cosine - 0.99399908855) < 1e-10);
        // Transposed storage (strides [1, 2]) of the same logical values compares equal.
        DebugBufferWriter buffer;
        RunBlock transposed = block("Execute");
        DebugEvent event = run.runs[1].debugEvents.front();
        event.value.tensors.front().strides = { 1, 2 };
        event.value.tensors.front().offset = buffer.appendValues(scalar_type::Float, { 1, 3, 2, 5 });
        transposed.debugEvents.push_back(event);
        ETSCOPE_TAKE(const ETDump columnMajor,
            Written { writeETDump({ block("Default"), transposed }), buffer.bytes() }.open("cm.etdp"));
        QCOMPARE(
            compareETDumps(columnMajor, run, EventMapper(*document.methods.front().graph)).rows[0].metrics->mse, 0.0);
    }

    void delegateInputsAreNotCompared()
    {
        // stress_mlp's DelegateCall at 13 logs its 4 inputs then its output (§4.3). Perturbing an
        // input (k = 18: the first logged arg of instruction 13) changes nothing; perturbing the
        // output (k = 22) by +1 on each of its 32·256 elements gives MSE 1, L1 8192, max 1.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        ETSCOPE_TAKE(const ETDump real, realDump("stress_mlp/stress_mlp.intermediates.etdp"));
        QCOMPARE(real.runs[1].debugEvents[18].instructionId, InstructionId(13));
        QCOMPARE(real.runs[1].debugEvents[22].instructionId, InstructionId(13));
        const EventMapper mapper(*document.methods.front().graph);
        ETSCOPE_TAKE(const ETDump inputChanged, rewrite(real, [](std::size_t k, std::vector<double>& v) {
            if (k == 18)
                v[0] += 100;
        }).open("input.etdp"));
        for (const GapRow& row : compareETDumps(inputChanged, real, mapper).rows)
            QCOMPARE(row.metrics->mse, 0.0);
        ETSCOPE_TAKE(const ETDump outputChanged, rewrite(real, [](std::size_t k, std::vector<double>& v) {
            if (k == 22)
                for (double& x : v)
                    x += 1;
        }).open("output.etdp"));
        const GapReport report = compareETDumps(outputChanged, real, mapper);
        const GapRow& row = report.rows[14];
        QCOMPARE(row.runtimeOp, std::string("DELEGATE_CALL"));
        // x + 1 is rounded to float32 when the copy is written: equal to 1 within float32 precision.
        QVERIFY(std::abs(row.metrics->mse - 1.0) < 1e-5);
        QVERIFY(std::abs(row.metrics->l1 - 8192.0) < 0.05);
        QVERIFY(std::abs(row.metrics->maxAbs - 1.0) < 1e-5);
    }

    void perturbedBundledRun()
    {
        // The bundled test case expects [[2, 2], [2, 2]] (INT). A run whose output is [2, 2, 2, 6]:
        // MSE = 16/4 = 4; L1 = 4; max 4; SNR = 10·log10(4/4) = 0 dB; cosine = 24/(4·√48) = 0.8660254038.
        ETSCOPE_TAKE(const Document document, program("executorch/bundled_program.bpte"));
        ETSCOPE_TAKE(const ETDump real, realDump("bundled_program/bundled_program.outputs.etdp"));
        ETSCOPE_TAKE(const ETDump run,
            rewrite(real, [](std::size_t, std::vector<double>& v) { v[3] = 6; }).open("bundled.etdp"));
        auto report = compareWithBundled(
            run, *document.bundled, *document.program, EventMapper(*document.methods.front().graph));
        QVERIFY(report.ok());
        const GapMetrics& m = *report->rows.front().metrics;
        QCOMPARE(m.mse, 4.0);
        QCOMPARE(m.l1, 4.0);
        QCOMPARE(m.maxAbs, 4.0);
        QVERIFY(std::abs(m.snr) < 1e-12);
        QVERIFY(std::abs(m.cosine - 0.8660254038) < 1e-9);
    }

    void encodings()
    {
        // HALF 1.0 = 0x3c00, −2.0 = 0xc000, 65504 = 0x7bff; BFLOAT16 1.0 = 0x3f80.
        QCOMPARE(encodeElements(scalar_type::Half, { 1.0, -2.0, 65504.0 }),
            (std::vector<std::uint8_t> { 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b }));
        QCOMPARE(encodeElements(scalar_type::BFloat16, { 1.0 }), (std::vector<std::uint8_t> { 0x80, 0x3f }));
        std::vector<double> back;
        const std::vector<std::uint8_t> tiny = encodeElements(scalar_type::Half, { std::ldexp(1.0, -24), 0.1 });
        QVERIFY(decodeElements(scalar_type::Half, tiny.data(), 2, back));
        QCOMPARE(back[0], std::ldexp(1.0, -24));
        QVERIFY(std::abs(back[1] - 0.1) < 1e-4);
        QVERIFY(encodeElements(9, { 1.0 }).empty());
        DebugBufferWriter buffer(64, 48);
        QCOMPARE(buffer.appendValues(scalar_type::Int, { 1 }), std::int64_t(48));
        QCOMPARE(buffer.appendValues(scalar_type::Int, { 1 }), std::int64_t(112));
        QCOMPARE(buffer.append({}), std::int64_t(-1));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestETDumpFixtures)
#include "tst_etdumpfixtures.moc"
