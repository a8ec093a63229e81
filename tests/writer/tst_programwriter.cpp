// SPDX-License-Identifier: MIT
// Programs written by core/writer read back through the real reader with every fact intact.
// Fixtures follow facts sheet §1.1–1.4: layout and extended header (§1.1, §1.2), segments and
// their order/alignment (§1.3), the schema tables and the tensor storage rules (§1.4).
#include "core/report/reports.h"
#include "tests/common/documentbytes.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"
#include "tests/writer/writertestsupport.h"

#include "core/util/text.h"
#include "core/writer/programwriter.h"

#include <QTest>

#include <algorithm>
#include <cstring>

using namespace etscope::core;
using etscope::test::rangeBytes;
using etscope::test::text;

namespace {

TensorSpec tensorOf(std::vector<std::int32_t> sizes, int scalarType = scalar_type::Float)
{
    TensorSpec t;
    t.sizes = std::move(sizes);
    t.scalarType = scalarType;
    return t;
}

std::vector<std::uint8_t> pattern(std::size_t size, std::uint8_t start)
{
    std::vector<std::uint8_t> bytes(size);
    for (std::size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<std::uint8_t>(start + i);
    return bytes;
}

/// A program that needs every kind of segment: constants, mutable data, a delegate, named data.
ProgramSpec segmentedProgram()
{
    ProgramSpec spec;
    MethodSpec& m = spec.addMethod("forward");
    TensorSpec weight = tensorOf({ 2, 2 });
    weight.data = pattern(16, 1);
    const std::int32_t w = m.addTensor(weight);
    TensorSpec state = tensorOf({ 4 }, scalar_type::Byte);
    state.allocation = AllocationSpec { 1, 0 };
    state.data = pattern(4, 100);
    const std::int32_t s = m.addTensor(state);
    m.addInstruction(
        InstructionSpec::delegate(m.addDelegate({ "FooBackend", text("delegate blob"), {}, {} }), { w, s }));
    spec.namedData.push_back({ "named.key", pattern(40, 7), 16 });
    return spec;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<std::uint64_t>)

class TestProgramWriter : public QObject {
    Q_OBJECT
private slots:
    void everyValueKind()
    {
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t vNull = m.addValue(ValueSpec::null());
        const std::int32_t vInt = m.addValue(ValueSpec::integer(-5));
        const std::int32_t vBig = m.addValue(ValueSpec::integer(std::int64_t(1) << 40));
        const std::int32_t vBool = m.addValue(ValueSpec::boolean(true));
        const std::int32_t vDouble = m.addValue(ValueSpec::real(2.5));
        const std::int32_t vString = m.addValue(ValueSpec::string("hello"));
        const std::int32_t vIntList = m.addValue(ValueSpec::intList({ vInt, vBig }));
        const std::int32_t vDoubles = m.addValue(ValueSpec::doubleList({ 1.5, -2.0 }));
        const std::int32_t vBools = m.addValue(ValueSpec::boolList({ true, false, true }));

        TensorSpec input = tensorOf({ 1, 3, 4, 4 });
        input.dimOrder = { 0, 2, 3, 1 };
        const std::int32_t tInput = m.addTensor(input);
        TensorSpec planned = tensorOf({ 2, 2 });
        planned.allocation = AllocationSpec { 2, (std::uint64_t(5) << 32) + 64 };
        planned.shapeDynamism = 1;
        const std::int32_t tPlanned = m.addTensor(planned);
        TensorSpec constant = tensorOf({ 2, 3 });
        constant.data = pattern(24, 1);
        constant.requiresGrad = true;
        constant.fullyQualifiedName = "layer.weight";
        const std::int32_t tConstant = m.addTensor(constant);
        TensorSpec state = tensorOf({ 4 }, scalar_type::Int);
        state.allocation = AllocationSpec { 1, 0 };
        state.data = pattern(16, 50);
        const std::int32_t tState = m.addTensor(state);
        TensorSpec external = tensorOf({ 3 });
        external.external = true;
        external.fullyQualifiedName = "ext.weight";
        const std::int32_t tExternal = m.addTensor(external);
        TensorSpec externalState = tensorOf({ 2 });
        externalState.external = true;
        externalState.allocation = AllocationSpec { 1, 16 };
        externalState.fullyQualifiedName = "ext.state";
        const std::int32_t tExternalState = m.addTensor(externalState);
        TensorSpec device = tensorOf({ 1 });
        device.allocation = AllocationSpec { 1, 32 };
        device.deviceType = 1;
        device.deviceIndex = 1;
        const std::int32_t tDevice = m.addTensor(device);
        const std::int32_t vTensors = m.addValue(ValueSpec::tensorList({ tInput, tPlanned }));
        const std::int32_t vOptional = m.addValue(ValueSpec::optionalTensorList({ tInput, -1 }));
        const std::int32_t vUnknown = m.addValue(ValueSpec::unknown(42));
        m.inputs = { tInput };
        m.outputs = { tPlanned };
        m.inputSpec = "T2#1#0(T1#1($),D0())";
        m.outputSpec = "T1#1($)";
        m.computeArenaSizes();

        ETSCOPE_WRITE(bytes, writeProgram(spec));
        ETSCOPE_READ_BACK(program, bytes);
        QCOMPARE(program.methods.size(), std::size_t(1));
        const Method& method = program.methods[0];
        QCOMPARE(method.name, std::string("forward"));
        QCOMPARE(method.inputSpec, m.inputSpec);
        QCOMPARE(method.outputSpec, m.outputSpec);
        QCOMPARE(method.values.size(), m.values.size());
        QCOMPARE(method.inputs, m.inputs);
        QCOMPARE(method.outputs, m.outputs);
        // Arena 1 ends with the 4-byte device tensor at 32, arena 2 with the planned one (16 bytes).
        QCOMPARE(method.nonConstBufferSizes, (std::vector<std::int64_t> { 0, 48, (std::int64_t(5) << 32) + 80 }));

        const auto& v = method.values;
        QCOMPARE(v[vNull].kind, Value::Kind::Null);
        QCOMPARE(v[vInt].kind, Value::Kind::Int);
        QCOMPARE(v[vInt].intValue, std::int64_t(-5));
        QCOMPARE(v[vBig].intValue, std::int64_t(1) << 40);
        QCOMPARE(v[vBool].boolValue, true);
        QCOMPARE(v[vDouble].doubleValue, 2.5);
        QCOMPARE(v[vString].stringValue(), std::string("hello"));
        QCOMPARE(v[vIntList].items, (std::vector<std::int64_t> { vInt, vBig }));
        QCOMPARE(v[vDoubles].doubles(), (std::vector<double> { 1.5, -2.0 }));
        QCOMPARE(v[vBools].bools(), (std::vector<bool> { true, false, true }));
        QCOMPARE(v[vTensors].kind, Value::Kind::TensorList);
        QCOMPARE(v[vTensors].items, (std::vector<std::int64_t> { tInput, tPlanned }));
        QCOMPARE(v[vOptional].kind, Value::Kind::OptionalTensorList);
        QCOMPARE(v[vOptional].items, (std::vector<std::int64_t> { tInput, -1 }));
        QCOMPARE(v[vUnknown].kind, Value::Kind::Unknown);
        QCOMPARE(v[vUnknown].rawTag, 42);

        const TensorInfo& in = v[tInput].tensor;
        QCOMPARE(in.storage, TensorStorage::Runtime);
        QCOMPARE(in.sizes, (std::vector<std::int64_t> { 1, 3, 4, 4 }));
        QCOMPARE(in.dimOrder, (std::vector<std::uint8_t> { 0, 2, 3, 1 }));
        QVERIFY(!in.hasExtraInfo);

        const TensorInfo& p = v[tPlanned].tensor;
        QCOMPARE(p.storage, TensorStorage::Planned);
        QCOMPARE(p.memoryId, 2u);
        QCOMPARE(p.memoryOffset, (std::uint64_t(5) << 32) + 64);
        QCOMPARE(p.shapeDynamism, 1);
        QCOMPARE(p.dimOrder, (std::vector<std::uint8_t> { 0, 1 }));

        const TensorInfo& c = v[tConstant].tensor;
        QCOMPARE(c.storage, TensorStorage::Constant);
        QVERIFY(c.requiresGrad);
        QCOMPARE(c.fullyQualifiedName, std::string("layer.weight"));
        QCOMPARE(c.dataLocation, 0);
        QVERIFY(c.data);
        QCOMPARE(rangeBytes(program, *c.data), *constant.data);

        const TensorInfo& s = v[tState].tensor;
        QCOMPARE(s.storage, TensorStorage::Mutable);
        QCOMPARE(s.scalarType, scalar_type::Int);
        QVERIFY(s.data);
        QCOMPARE(rangeBytes(program, *s.data), *state.data);

        QCOMPARE(v[tExternal].tensor.storage, TensorStorage::External);
        QCOMPARE(v[tExternal].tensor.fullyQualifiedName, std::string("ext.weight"));
        QCOMPARE(v[tExternal].tensor.dataLocation, 1);
        QCOMPARE(v[tExternalState].tensor.storage, TensorStorage::ExternalMutable);
        QCOMPARE(v[tDevice].tensor.deviceType, 1);
        QCOMPARE(v[tDevice].tensor.deviceIndex, 1);
    }

    void instructionKinds()
    {
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t a = m.addTensor(tensorOf({ 2 }));
        TensorSpec plannedB = tensorOf({ 2 });
        plannedB.allocation = AllocationSpec {};
        const std::int32_t b = m.addTensor(plannedB);
        const std::int32_t c = m.addTensor(tensorOf({ 2 }));
        const std::int32_t cond = m.addValue(ValueSpec::boolean(false));
        TensorSpec dynamic = tensorOf({ 8 });
        dynamic.shapeDynamism = 2;
        const std::int32_t dyn = m.addTensor(dynamic);
        const std::int32_t mul = m.addOperator("aten::mul", "out");
        const std::int32_t foo = m.addOperator("custom::foo", "");
        QCOMPARE(m.addOperator("aten::mul", "out"), mul);
        const std::int32_t delegate = m.addDelegate({ "FooBackend", text("abc"), {}, {} });
        m.addInstruction(InstructionSpec::kernel(mul, { a, a, b, b }));
        m.addInstruction(InstructionSpec::delegate(delegate, { b, c }));
        m.addInstruction(InstructionSpec::move(b, c));
        m.addInstruction(InstructionSpec::jumpFalse(cond, 5));
        m.addInstruction(InstructionSpec::free(dyn));
        m.addInstruction(InstructionSpec::unknown(9));
        m.addInstruction(InstructionSpec::kernel(foo, { c, c }));
        m.chains[0].inputs = { a };
        m.chains[0].outputs = { c };
        m.chains[0].stacktrace = { { Frame { "model.py", 12, "forward", "x * x" } }, {} };
        ChainSpec second;
        second.instructions = { InstructionSpec::kernel(foo, { b, b }) };
        m.chains.push_back(second);

        ETSCOPE_WRITE(bytes, writeProgram(spec));
        ETSCOPE_READ_BACK(program, bytes);
        const Method& method = program.methods.at(0);
        QCOMPARE(method.operators.size(), std::size_t(2));
        QCOMPARE(method.operators[0].qualifiedName(), std::string("aten::mul.out"));
        QCOMPARE(method.operators[1].qualifiedName(), std::string("custom::foo"));
        QCOMPARE(method.chains.size(), std::size_t(2));
        const Chain& chain = method.chains[0];
        QCOMPARE(chain.inputs, (std::vector<std::int32_t> { a }));
        QCOMPARE(chain.outputs, (std::vector<std::int32_t> { c }));
        QCOMPARE(chain.instructions.size(), std::size_t(7));
        const auto& i = chain.instructions;
        QCOMPARE(i[0].kind, Instruction::Kind::Kernel);
        QCOMPARE(i[0].index, mul);
        QCOMPARE(i[0].args, (std::vector<std::int32_t> { a, a, b, b }));
        QCOMPARE(i[1].kind, Instruction::Kind::Delegate);
        QCOMPARE(i[1].index, delegate);
        QCOMPARE(i[1].args, (std::vector<std::int32_t> { b, c }));
        QCOMPARE(i[2].kind, Instruction::Kind::Move);
        QCOMPARE(i[2].moveFrom, b);
        QCOMPARE(i[2].moveTo, c);
        QCOMPARE(i[3].kind, Instruction::Kind::JumpFalse);
        QCOMPARE(i[3].condition, cond);
        QCOMPARE(i[3].destination, 5);
        QCOMPARE(i[4].kind, Instruction::Kind::Free);
        QCOMPARE(i[4].freedValue, dyn);
        QCOMPARE(i[5].kind, Instruction::Kind::Unknown);
        QCOMPARE(i[5].rawTag, 9);
        QCOMPARE(i[6].index, foo);
        const InstructionCounts counts = method.instructionCounts();
        QCOMPARE(counts.kernel, 3);
        QCOMPARE(counts.delegate, 1);
        QCOMPARE(counts.move, 1);
        QCOMPARE(counts.jumpFalse, 1);
        QCOMPARE(counts.free, 1);
        QCOMPARE(counts.unknown, 1);
        QVERIFY(std::any_of(program.warnings.begin(), program.warnings.end(),
            [](const Warning& w) { return w.message.find("unknown instruction type 9") != std::string::npos; }));
        QCOMPARE(chain.stacktrace.size(), std::size_t(2));
        QCOMPARE(chain.stacktrace[0].size(), std::size_t(1));
        QCOMPARE(chain.stacktrace[0][0].filename, std::string("model.py"));
        QCOMPARE(chain.stacktrace[0][0].line, 12);
        QCOMPARE(chain.stacktrace[0][0].function, std::string("forward"));
        QCOMPARE(chain.stacktrace[0][0].context, std::string("x * x"));
        QVERIFY(chain.stacktrace[1].empty());
        QCOMPARE(method.chains[1].instructions.at(0).args, (std::vector<std::int32_t> { b, b }));
    }

    void delegates_data()
    {
        QTest::addColumn<bool>("extract");
        QTest::addColumn<bool>("dedupe");
        QTest::addRow("segments, de-duplicated") << true << true;
        QTest::addRow("segments, one per delegate") << true << false;
        QTest::addRow("all inline") << false << true;
    }

    void delegates()
    {
        QFETCH(bool, extract);
        QFETCH(bool, dedupe);
        const auto blobA = text("payload A");
        const auto blobB = text("payload B, longer");
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t t = m.addTensor(tensorOf({ 1 }));
        DelegateSpec a { "ABackend", blobA, DelegateSpec::Placement::Auto,
            { { "key", text("value") }, { "binary", { 0, 1, 2 } } } };
        m.addDelegate(a);
        m.addDelegate({ "ABackend", blobA, DelegateSpec::Placement::Auto, {} });
        m.addDelegate({ "BBackend", blobB, DelegateSpec::Placement::Inline, {} });
        m.addDelegate({ "EmptyBackend", {}, DelegateSpec::Placement::Auto, {} });
        m.addDelegate({ "BBackend", blobB, DelegateSpec::Placement::Segment, {} });
        for (std::int32_t d = 0; d < 5; ++d)
            m.addInstruction(InstructionSpec::delegate(d, { t }));
        MethodSpec& other = spec.addMethod("other");
        other.addTensor(tensorOf({ 1 }));
        other.addDelegate({ "ABackend", blobA, DelegateSpec::Placement::Auto, {} });
        other.addInstruction(InstructionSpec::delegate(0, { 0 }));

        ProgramWriteOptions options;
        options.extractDelegateSegments = extract;
        options.dedupeDelegateSegments = dedupe;
        ETSCOPE_WRITE(bytes, writeProgram(spec, options));
        ETSCOPE_READ_BACK(program, bytes);
        const auto& refs = program.methods.at(0).delegates;
        const auto& otherRefs = program.methods.at(1).delegates;
        QCOMPARE(refs.size(), std::size_t(5));
        const std::vector<std::vector<std::uint8_t>> expected { blobA, blobA, blobB, {}, blobB };
        for (std::size_t d = 0; d < refs.size(); ++d) {
            QCOMPARE(rangeBytes(program, refs[d].payload), expected[d]);
            QCOMPARE(refs[d].backendId, m.delegates[d].backendId);
        }
        QCOMPARE(rangeBytes(program, otherRefs.at(0).payload), blobA);
        QCOMPARE(refs[0].compileSpecs.size(), std::size_t(2));
        QCOMPARE(refs[0].compileSpecs[0].key, std::string("key"));
        QCOMPARE(refs[0].compileSpecs[0].value, text("value"));
        QCOMPARE(refs[0].compileSpecs[1].value, (std::vector<std::uint8_t> { 0, 1, 2 }));

        QCOMPARE(refs[2].location, 0); // asked inline
        QCOMPARE(refs[3].location, 0); // empty blobs stay inline
        QCOMPARE(refs[4].location, 1); // asked for a segment
        const int autoLocation = extract ? 1 : 0;
        QCOMPARE(refs[0].location, autoLocation);
        QCOMPARE(refs[1].location, autoLocation);
        if (extract) {
            QCOMPARE(refs[0].index == refs[1].index, dedupe);
            QCOMPARE(otherRefs[0].index == refs[0].index, dedupe);
            QVERIFY(refs[4].index != refs[0].index);
            // constant segment + A (+ A again, + A of `other`) + B
            QCOMPARE(program.segments.size(), std::size_t(dedupe ? 3 : 5));
        } else {
            QVERIFY(refs[0].index != refs[1].index);
            QCOMPARE(program.inlineDelegateData.size(), std::size_t(5));
        }
    }

    void extendedHeader_data()
    {
        QTest::addColumn<std::uint32_t>("length");
        QTest::addColumn<std::uint64_t>("alignment");
        QTest::addColumn<std::uint64_t>("padded");
        QTest::addRow("32 (ExecuTorch 1.0+)") << 32u << std::uint64_t(16) << std::uint64_t(32);
        QTest::addRow("24 (before 1.0)") << 24u << std::uint64_t(16) << std::uint64_t(32);
        QTest::addRow("40 (a future, longer header)") << 40u << std::uint64_t(16) << std::uint64_t(48);
        QTest::addRow("40, padded to 32") << 40u << std::uint64_t(32) << std::uint64_t(64);
    }

    void extendedHeader()
    {
        QFETCH(std::uint32_t, length);
        QFETCH(std::uint64_t, alignment);
        QFETCH(std::uint64_t, padded);
        ProgramWriteOptions options;
        options.headerLength = length;
        options.headerAlignment = alignment;
        ProgramLayout layout;
        ETSCOPE_WRITE(bytes, writeProgram(segmentedProgram(), options, &layout));
        QCOMPARE(std::memcmp(bytes.data() + 8, "eh00", 4), 0);
        QCOMPARE(readLe32(bytes.data() + 12), length);
        QCOMPARE(layout.headerPadded, padded);
        QVERIFY(std::all_of(bytes.begin() + 8 + length, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(padded),
            [](std::uint8_t b) { return b == 0; }));
        QCOMPARE(readLe64(bytes.data() + 16), layout.programSize);
        QCOMPARE(layout.segmentBaseOffset % 128, std::uint64_t(0));
        QVERIFY(layout.segmentBaseOffset >= layout.programSize);
        QCOMPARE(readLe64(bytes.data() + 24), layout.segmentBaseOffset);
        QCOMPARE(std::uint64_t(bytes.size()), layout.segmentBaseOffset + layout.segmentDataSize);

        ETSCOPE_READ_BACK(program, bytes);
        QVERIFY(program.header);
        QCOMPARE(program.header->length, length);
        QCOMPARE(program.header->programSize, layout.programSize);
        QCOMPARE(program.header->segmentBaseOffset, layout.segmentBaseOffset);
        QCOMPARE(program.header->segmentDataSize, length >= 32 ? layout.segmentDataSize : std::uint64_t(0));
        // `info` prints the segment size only where the header holds one (issue 36: a 24-byte
        // header printed "(0 bytes)"; the JSON said null).
        {
            ETSCOPE_TAKE(const Document document, etscope::test::documentFromBytes(bytes, "header.pte"));
            const std::string text = documentInfoText(document);
            const std::string expected = length >= 32 ? "(" + std::to_string(layout.segmentDataSize) + " bytes)"
                                                      : "(segment data size: not recorded, 24-byte header)";
            QVERIFY2(text.find(expected) != std::string::npos, text.c_str());
            QCOMPARE(documentInfoJson(document)["extended_header"]["segment_data_size"].is_null(), length < 32);
        }
        // Order of §1.3: constants, mutable data, the delegate blob, named data.
        QCOMPARE(program.segments.size(), std::size_t(4));
        QCOMPARE(program.constantSegment.segmentIndex, 0u);
        QCOMPARE(program.mutableDataSegments.at(0).segmentIndex, 1u);
        QCOMPARE(program.methods.at(0).delegates.at(0).index, 2u);
        QCOMPARE(program.namedData.at(0).segmentIndex, 3u);
        for (std::size_t i = 0; i < program.segments.size(); ++i) {
            QCOMPARE(program.segments[i].offset % 128, std::uint64_t(0));
            QCOMPARE(program.segments[i].offset, layout.segmentBaseOffset + layout.segments[i].first);
        }
        QCOMPARE(rangeBytes(program, program.namedData[0].data), pattern(40, 7));
        QCOMPARE(rangeBytes(program, program.methods[0].delegates[0].payload), text("delegate blob"));
        QCOMPARE(rangeBytes(program, *program.methods[0].values[0].tensor.data), pattern(16, 1));
        QCOMPARE(rangeBytes(program, *program.methods[0].values[1].tensor.data), pattern(4, 100));
        QVERIFY(program.warnings.empty());
    }

    void noSegmentsNoHeader()
    {
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::int32_t t = m.addTensor(tensorOf({ 1 }));
        m.addDelegate({ "FooBackend", text("inline blob"), DelegateSpec::Placement::Inline, {} });
        m.addInstruction(InstructionSpec::delegate(0, { t }));

        ProgramWriteOptions options;
        options.alwaysConstantSegment = false;
        ProgramLayout layout;
        ETSCOPE_WRITE(bytes, writeProgram(spec, options, &layout));
        QVERIFY(std::memcmp(bytes.data() + 8, "eh00", 4) != 0);
        QCOMPARE(layout.headerPadded, std::uint64_t(0));
        QCOMPARE(std::uint64_t(bytes.size()), layout.programSize);
        ETSCOPE_READ_BACK(program, bytes);
        QVERIFY(!program.header);
        QVERIFY(program.segments.empty());
        QVERIFY(!program.hasConstantSegment);
        QCOMPARE(rangeBytes(program, program.methods.at(0).delegates.at(0).payload), text("inline blob"));

        // The emitter's default keeps an empty constant segment, and with it the header.
        ETSCOPE_WRITE(withSegment, writeProgram(spec));
        ETSCOPE_READ_BACK(emitterLike, withSegment);
        QVERIFY(emitterLike.header);
        QCOMPARE(emitterLike.segments.size(), std::size_t(1));
        QCOMPARE(emitterLike.segments[0].size, std::uint64_t(0));
        QCOMPARE(emitterLike.constantSegment.offsets, (std::vector<std::uint64_t> { 0 }));
    }

    void constantSegment_data()
    {
        QTest::addColumn<std::uint64_t>("alignment");
        QTest::addColumn<std::vector<std::uint64_t>>("offsets");
        QTest::addColumn<std::uint64_t>("size");
        // Tensors of 4, 20 and 8 bytes; every tensor but the last is padded (§1.3).
        QTest::addRow("16 (default)") << std::uint64_t(16) << std::vector<std::uint64_t> { 0, 0, 16, 48 }
                                      << std::uint64_t(56);
        QTest::addRow("32") << std::uint64_t(32) << std::vector<std::uint64_t> { 0, 0, 32, 64 } << std::uint64_t(72);
        QTest::addRow("1 (packed)") << std::uint64_t(1) << std::vector<std::uint64_t> { 0, 0, 4, 24 }
                                    << std::uint64_t(32);
    }

    void constantSegment()
    {
        QFETCH(std::uint64_t, alignment);
        QFETCH(std::vector<std::uint64_t>, offsets);
        QFETCH(std::uint64_t, size);
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        const std::vector<std::vector<std::uint8_t>> data { pattern(4, 1), pattern(20, 30), pattern(8, 90) };
        for (const auto& bytes : data) {
            TensorSpec t = tensorOf({ static_cast<std::int32_t>(bytes.size()) }, scalar_type::Byte);
            t.data = bytes;
            m.addTensor(t);
        }
        ProgramWriteOptions options;
        options.constantAlignment = alignment;
        ETSCOPE_WRITE(bytes, writeProgram(spec, options));
        ETSCOPE_READ_BACK(program, bytes);
        QVERIFY(program.hasConstantSegment);
        QCOMPARE(program.constantSegment.offsets, offsets);
        QCOMPARE(program.segments.at(program.constantSegment.segmentIndex).size, size);
        for (std::size_t i = 0; i < data.size(); ++i) {
            const TensorInfo& t = program.methods[0].values[i].tensor;
            QCOMPARE(t.dataBufferIndex, std::uint32_t(i + 1));
            QCOMPARE(rangeBytes(program, *t.data), data[i]);
        }

        // The deprecated inline layout keeps the same bytes in Program.constant_buffer.
        options.constants = ProgramWriteOptions::ConstantStorage::Inline;
        ETSCOPE_WRITE(legacyBytes, writeProgram(spec, options));
        ETSCOPE_READ_BACK(legacy, legacyBytes);
        QVERIFY(!legacy.hasConstantSegment);
        QCOMPARE(legacy.legacyConstantBuffers.size(), std::size_t(4));
        QCOMPARE(legacy.legacyConstantBuffers[0].size, std::uint64_t(0));
        for (std::size_t i = 0; i < data.size(); ++i) {
            QCOMPARE(legacy.legacyConstantBuffers[i + 1].offset % 16, std::uint64_t(0));
            QCOMPARE(rangeBytes(legacy, *legacy.methods[0].values[i].tensor.data), data[i]);
        }
    }

    void mutableAndNamedData()
    {
        ProgramSpec spec;
        MethodSpec& m = spec.addMethod("forward");
        for (std::size_t size : { 6, 10 }) {
            TensorSpec t = tensorOf({ static_cast<std::int32_t>(size) }, scalar_type::Byte);
            t.allocation = AllocationSpec { 1, 64 * size };
            t.data = pattern(size, static_cast<std::uint8_t>(size));
            m.addTensor(t);
        }
        spec.namedData = { { "k1", pattern(33, 1), 16 }, { "k2", pattern(33, 1), 16 }, { "k3", pattern(5, 9), 256 } };
        ETSCOPE_WRITE(bytes, writeProgram(spec));
        ETSCOPE_READ_BACK(program, bytes);
        // Initial values are concatenated without padding.
        QCOMPARE(program.mutableDataSegments.size(), std::size_t(1));
        QCOMPARE(program.mutableDataSegments[0].offsets, (std::vector<std::uint64_t> { 0, 0, 6 }));
        for (std::size_t i = 0; i < 2; ++i) {
            const TensorInfo& t = program.methods[0].values[i].tensor;
            QCOMPARE(t.storage, TensorStorage::Mutable);
            QCOMPARE(rangeBytes(program, *t.data), *m.values[i].tensor.data);
        }
        // Keys with identical bytes share a segment; alignment is lcm(128, the blob's).
        QCOMPARE(program.namedData.size(), std::size_t(3));
        QCOMPARE(program.namedData[0].segmentIndex, program.namedData[1].segmentIndex);
        QVERIFY(program.namedData[2].segmentIndex != program.namedData[0].segmentIndex);
        QCOMPARE((program.namedData[2].data.offset - program.header->segmentBaseOffset) % 256, std::uint64_t(0));
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(program.namedData[i].key, spec.namedData[i].key);
            QCOMPARE(rangeBytes(program, program.namedData[i].data), spec.namedData[i].bytes);
        }
        QVERIFY(program.findNamedData("k3"));
    }

    void identifierAndUsageErrors()
    {
        ProgramWriteOptions options;
        options.identifier = "ET13";
        ETSCOPE_WRITE(bytes, writeProgram(segmentedProgram(), options));
        auto read = etscope::test::readBack(bytes, "future.pte");
        QVERIFY(!read);
        QCOMPARE(read.error().code, Error::Code::UnsupportedVersion);
        QCOMPARE(read.error().file, std::string("future.pte"));
        QCOMPARE(read.error().offset, std::optional<std::uint64_t>(4));

        const auto usage = [](ProgramWriteOptions o) {
            auto result = writeProgram(segmentedProgram(), o);
            return !result && result.error().code == Error::Code::Usage && !result.error().reason.empty();
        };
        ProgramWriteOptions shortHeader;
        shortHeader.headerLength = 16;
        QVERIFY(usage(shortHeader));
        ProgramWriteOptions noAlignment;
        noAlignment.segmentAlignment = 0;
        QVERIFY(usage(noAlignment));
        ProgramWriteOptions badIdentifier;
        badIdentifier.identifier = "ET1";
        QVERIFY(usage(badIdentifier));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestProgramWriter)
#include "tst_programwriter.moc"
