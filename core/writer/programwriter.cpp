// SPDX-License-Identifier: MIT
// Writes .pte files from ProgramSpec, following facts sheet §1.1–1.4: build the FlatBuffer,
// splice the `eh00` header in at byte 8 when segments exist, append the segments.
#include "core/writer/programwriter.h"

#include "core/writer/segmentlayout.h"

#include "core/util/atomicfile.h"
#include "program_generated.h"

#include <numeric>
#include <string_view>

namespace etscope::core {
namespace fbp = etscope::fb::program;
using flatbuffers::Offset;

namespace {

constexpr const char* kWriter = "program writer";
constexpr int kDelegateGroup = 1;
constexpr int kNamedDataGroup = 2;

struct DelegateLocation {
    std::int8_t location = 0; ///< 0 inline, 1 segment
    std::uint32_t index = 0;
};

/// Bytes placed in concatenated sub-segments (constants, mutable initial values): offsets[0] is
/// the reserved "no data" entry, so the first real buffer gets index 1.
struct Subsegments {
    std::vector<std::uint64_t> offsets { 0 };
    std::vector<std::uint8_t> bytes;
    std::size_t count() const { return offsets.size() - 1; }

    std::uint32_t append(std::span<const std::uint8_t> data, std::uint64_t alignment)
    {
        // Padding follows every tensor but the last: pad the previous end when a new one arrives.
        if (count() > 0)
            bytes.resize(alignUp(bytes.size(), alignment), 0);
        offsets.push_back(bytes.size());
        bytes.insert(bytes.end(), data.begin(), data.end());
        return static_cast<std::uint32_t>(offsets.size() - 1);
    }
};

class ProgramSerializer {
public:
    ProgramSerializer(const ProgramSpec& spec, const ProgramWriteOptions& options)
        : m_spec(spec)
        , m_options(options)
        , m_segments(options.segmentAlignment)
        , m_inlineConstants(1) // entry 0 is the reserved "no data" buffer
    {
    }

    std::vector<std::uint8_t> write(ProgramLayout* layout);

private:
    void collectData();
    void placeSegments();
    Offset<fbp::EValue> value(const ValueSpec& spec, std::uint32_t dataIndex);
    Offset<fbp::TensorValue> tensor(const TensorSpec& spec, std::uint32_t dataIndex);
    Offset<fbp::Instruction> instruction(const InstructionSpec& spec);
    Offset<fbp::Chain> chain(const ChainSpec& spec);
    Offset<fbp::ExecutionPlan> plan(std::size_t methodIndex);
    Offset<fbp::Program> program();
    Offset<flatbuffers::Vector<std::uint8_t>> alignedBytes(std::span<const std::uint8_t> bytes);

    const ProgramSpec& m_spec;
    const ProgramWriteOptions& m_options;
    flatbuffers::FlatBufferBuilder m_fbb { std::size_t { 64 } * 1024 };
    SegmentTable m_segments;
    std::vector<std::vector<std::uint32_t>> m_dataIndex; ///< per method, per value
    Subsegments m_constants;
    std::vector<std::span<const std::uint8_t>> m_inlineConstants;
    Subsegments m_mutable;
    std::optional<std::uint32_t> m_constantSegment;
    std::optional<std::uint32_t> m_mutableSegment;
    std::vector<std::vector<DelegateLocation>> m_delegates; ///< per method, per delegate
    std::vector<std::span<const std::uint8_t>> m_inlineDelegateData;
    std::vector<std::uint32_t> m_namedSegments; ///< parallel to spec.namedData
};

void ProgramSerializer::collectData()
{
    const bool inlineConstants = m_options.constants == ProgramWriteOptions::ConstantStorage::Inline;
    m_dataIndex.resize(m_spec.methods.size());
    for (std::size_t m = 0; m < m_spec.methods.size(); ++m) {
        const MethodSpec& method = m_spec.methods[m];
        m_dataIndex[m].assign(method.values.size(), 0);
        for (std::size_t v = 0; v < method.values.size(); ++v) {
            const ValueSpec& value = method.values[v];
            if (value.kind != Value::Kind::Tensor || !value.tensor.data || value.tensor.external)
                continue;
            const std::vector<std::uint8_t>& data = *value.tensor.data;
            if (value.tensor.allocation) {
                m_dataIndex[m][v] = m_mutable.append(data, 1);
            } else if (inlineConstants) {
                m_inlineConstants.emplace_back(data);
                m_dataIndex[m][v] = static_cast<std::uint32_t>(m_inlineConstants.size() - 1);
            } else {
                m_dataIndex[m][v] = m_constants.append(data, m_options.constantAlignment);
            }
        }
    }
}

void ProgramSerializer::placeSegments()
{
    // The exporter's order (§1.3): constants, mutable data, delegate blobs, named data.
    const bool segmentConstants = m_options.constants == ProgramWriteOptions::ConstantStorage::Segment;
    if (segmentConstants && (m_constants.count() > 0 || m_options.alwaysConstantSegment))
        m_constantSegment = m_segments.addOwned(m_constants.bytes);
    if (m_mutable.count() > 0)
        m_mutableSegment = m_segments.addOwned(m_mutable.bytes);

    m_delegates.resize(m_spec.methods.size());
    for (std::size_t m = 0; m < m_spec.methods.size(); ++m) {
        for (const DelegateSpec& delegate : m_spec.methods[m].delegates) {
            bool segment = delegate.placement == DelegateSpec::Placement::Segment;
            if (delegate.placement == DelegateSpec::Placement::Auto)
                segment = m_options.extractDelegateSegments && !delegate.payload.empty();
            DelegateLocation location;
            if (segment) {
                location.location = 1;
                location.index
                    = m_segments.add(delegate.payload, 1, m_options.dedupeDelegateSegments ? kDelegateGroup : 0);
            } else {
                location.location = 0;
                location.index = static_cast<std::uint32_t>(m_inlineDelegateData.size());
                m_inlineDelegateData.emplace_back(delegate.payload);
            }
            m_delegates[m].push_back(location);
        }
    }

    for (const NamedBlobSpec& blob : m_spec.namedData)
        m_namedSegments.push_back(m_segments.add(blob.bytes, blob.alignment, kNamedDataGroup));
}

Offset<flatbuffers::Vector<std::uint8_t>> ProgramSerializer::alignedBytes(std::span<const std::uint8_t> bytes)
{
    // Buffer.storage and BackendDelegateInlineData.data are declared force_align 16.
    m_fbb.ForceVectorAlignment(bytes.size(), sizeof(std::uint8_t), 16);
    return m_fbb.CreateVector(bytes.data(), bytes.size());
}

Offset<fbp::TensorValue> ProgramSerializer::tensor(const TensorSpec& spec, std::uint32_t dataIndex)
{
    const auto sizes = m_fbb.CreateVector(spec.sizes);
    const auto dimOrder
        = m_fbb.CreateVector(spec.dimOrder.empty() ? contiguousDimOrder(spec.sizes.size()) : spec.dimOrder);
    Offset<fbp::AllocationDetails> allocation = 0;
    if (spec.allocation)
        allocation = fbp::CreateAllocationDetails(m_fbb, spec.allocation->memoryId,
            static_cast<std::uint32_t>(spec.allocation->memoryOffset),
            static_cast<std::uint32_t>(spec.allocation->memoryOffset >> 32));
    Offset<fbp::ExtraTensorInfo> extra = 0;
    if (spec.external || !spec.fullyQualifiedName.empty() || spec.deviceType != 0 || spec.deviceIndex != 0) {
        const auto name = m_fbb.CreateString(spec.fullyQualifiedName);
        extra = fbp::CreateExtraTensorInfo(m_fbb, 0, name, spec.external ? 1 : 0,
            static_cast<std::int8_t>(spec.deviceType), static_cast<std::int8_t>(spec.deviceIndex));
    }
    return fbp::CreateTensorValue(m_fbb, static_cast<std::int8_t>(spec.scalarType), spec.storageOffset, sizes, dimOrder,
        spec.requiresGrad, dataIndex, allocation, static_cast<std::int8_t>(spec.layout),
        static_cast<std::int8_t>(spec.shapeDynamism), extra);
}

Offset<fbp::EValue> ProgramSerializer::value(const ValueSpec& spec, std::uint32_t dataIndex)
{
    using K = fbp::KernelTypes;
    const auto make = [&](K tag, Offset<void> table) { return fbp::CreateEValue(m_fbb, tag, table); };
    switch (spec.kind) {
    case Value::Kind::Null:
        return make(K::NullValue, fbp::CreateNullValue(m_fbb).Union());
    case Value::Kind::Int:
        return make(K::IntValue, fbp::CreateIntValue(m_fbb, spec.intValue).Union());
    case Value::Kind::Bool:
        return make(K::BoolValue, fbp::CreateBoolValue(m_fbb, spec.boolValue).Union());
    case Value::Kind::Double:
        return make(K::DoubleValue, fbp::CreateDoubleValue(m_fbb, spec.doubleValue).Union());
    case Value::Kind::String: {
        const auto text = m_fbb.CreateString(spec.stringValue);
        return make(K::StringValue, fbp::CreateStringValue(m_fbb, text).Union());
    }
    case Value::Kind::IntList: {
        const auto items = m_fbb.CreateVector(spec.items);
        return make(K::IntListValue, fbp::CreateIntListValue(m_fbb, items).Union());
    }
    case Value::Kind::DoubleList: {
        const auto items = m_fbb.CreateVector(spec.doubles);
        return make(K::DoubleListValue, fbp::CreateDoubleListValue(m_fbb, items).Union());
    }
    case Value::Kind::BoolList: {
        const std::vector<std::uint8_t> bytes(spec.bools.begin(), spec.bools.end());
        const auto items = m_fbb.CreateVector(bytes);
        return make(K::BoolListValue, fbp::CreateBoolListValue(m_fbb, items).Union());
    }
    case Value::Kind::TensorList:
    case Value::Kind::OptionalTensorList: {
        const std::vector<std::int32_t> indices(spec.items.begin(), spec.items.end());
        const auto items = m_fbb.CreateVector(indices);
        if (spec.kind == Value::Kind::TensorList)
            return make(K::TensorListValue, fbp::CreateTensorListValue(m_fbb, items).Union());
        return make(K::OptionalTensorListValue, fbp::CreateOptionalTensorListValue(m_fbb, items).Union());
    }
    case Value::Kind::Tensor:
        return make(K::TensorValue, tensor(spec.tensor, dataIndex).Union());
    case Value::Kind::Unknown:
        return make(static_cast<K>(spec.rawTag), fbp::CreateNullValue(m_fbb).Union());
    case Value::Kind::Missing:
        break;
    }
    return fbp::CreateEValue(m_fbb);
}

Offset<fbp::Instruction> ProgramSerializer::instruction(const InstructionSpec& spec)
{
    using A = fbp::InstructionArguments;
    const auto make = [&](A tag, Offset<void> table) { return fbp::CreateInstruction(m_fbb, tag, table); };
    switch (spec.kind) {
    case Instruction::Kind::Kernel: {
        const auto args = m_fbb.CreateVector(spec.args);
        return make(A::KernelCall, fbp::CreateKernelCall(m_fbb, spec.index, args).Union());
    }
    case Instruction::Kind::Delegate: {
        const auto args = m_fbb.CreateVector(spec.args);
        return make(A::DelegateCall, fbp::CreateDelegateCall(m_fbb, spec.index, args).Union());
    }
    case Instruction::Kind::Move:
        return make(A::MoveCall, fbp::CreateMoveCall(m_fbb, spec.moveFrom, spec.moveTo).Union());
    case Instruction::Kind::JumpFalse:
        return make(A::JumpFalseCall, fbp::CreateJumpFalseCall(m_fbb, spec.condition, spec.destination).Union());
    case Instruction::Kind::Free:
        return make(A::FreeCall, fbp::CreateFreeCall(m_fbb, spec.freedValue).Union());
    case Instruction::Kind::Unknown:
        return make(static_cast<A>(spec.rawTag), fbp::CreateFreeCall(m_fbb).Union());
    case Instruction::Kind::Missing:
        break;
    }
    return fbp::CreateInstruction(m_fbb);
}

Offset<fbp::Chain> ProgramSerializer::chain(const ChainSpec& spec)
{
    const auto inputs = m_fbb.CreateVector(spec.inputs);
    const auto outputs = m_fbb.CreateVector(spec.outputs);
    std::vector<Offset<fbp::Instruction>> instructions;
    instructions.reserve(spec.instructions.size());
    for (const InstructionSpec& i : spec.instructions)
        instructions.push_back(instruction(i));
    const auto instructionVector = m_fbb.CreateVector(instructions);
    Offset<flatbuffers::Vector<Offset<fbp::FrameList>>> stacktrace = 0;
    if (!spec.stacktrace.empty()) {
        std::vector<Offset<fbp::FrameList>> lists;
        for (const std::vector<Frame>& frames : spec.stacktrace) {
            std::vector<Offset<fbp::Frame>> items;
            for (const Frame& frame : frames) {
                const auto file = m_fbb.CreateString(frame.filename);
                const auto function = m_fbb.CreateString(frame.function);
                const auto context = m_fbb.CreateString(frame.context);
                items.push_back(fbp::CreateFrame(m_fbb, file, frame.line, function, context));
            }
            lists.push_back(fbp::CreateFrameList(m_fbb, m_fbb.CreateVector(items)));
        }
        stacktrace = m_fbb.CreateVector(lists);
    }
    return fbp::CreateChain(m_fbb, inputs, outputs, instructionVector, stacktrace);
}

Offset<fbp::ExecutionPlan> ProgramSerializer::plan(std::size_t methodIndex)
{
    const MethodSpec& method = m_spec.methods[methodIndex];
    const auto name = m_fbb.CreateString(method.name);
    const auto inputSpec = m_fbb.CreateString(method.inputSpec);
    const auto outputSpec = m_fbb.CreateString(method.outputSpec);
    const auto meta = fbp::CreateContainerMetadata(m_fbb, inputSpec, outputSpec);

    std::vector<Offset<fbp::EValue>> values;
    values.reserve(method.values.size());
    for (std::size_t v = 0; v < method.values.size(); ++v)
        values.push_back(value(method.values[v], m_dataIndex[methodIndex][v]));
    const auto valueVector = m_fbb.CreateVector(values);
    const auto inputs = m_fbb.CreateVector(method.inputs);
    const auto outputs = m_fbb.CreateVector(method.outputs);

    std::vector<Offset<fbp::Chain>> chains;
    for (const ChainSpec& c : method.chains)
        chains.push_back(chain(c));
    const auto chainVector = m_fbb.CreateVector(chains);

    std::vector<Offset<fbp::Operator>> operators;
    for (const Operator& op : method.operators) {
        const auto opName = m_fbb.CreateString(op.name);
        const auto overload = m_fbb.CreateString(op.overload);
        operators.push_back(fbp::CreateOperator(m_fbb, opName, overload));
    }
    const auto operatorVector = m_fbb.CreateVector(operators);

    std::vector<Offset<fbp::BackendDelegate>> delegates;
    for (std::size_t d = 0; d < method.delegates.size(); ++d) {
        const DelegateSpec& delegate = method.delegates[d];
        const auto id = m_fbb.CreateString(delegate.backendId);
        const DelegateLocation& location = m_delegates[methodIndex][d];
        const auto processed = fbp::CreateBackendDelegateDataReference(m_fbb, location.location, location.index);
        std::vector<Offset<fbp::CompileSpec>> specs;
        for (const CompileSpec& spec : delegate.compileSpecs) {
            const auto key = m_fbb.CreateString(spec.key);
            const auto bytes = m_fbb.CreateVector(spec.value);
            specs.push_back(fbp::CreateCompileSpec(m_fbb, key, bytes));
        }
        const auto specVector = m_fbb.CreateVector(specs);
        delegates.push_back(fbp::CreateBackendDelegate(m_fbb, id, processed, specVector));
    }
    const auto delegateVector = m_fbb.CreateVector(delegates);
    const auto sizes = m_fbb.CreateVector(method.nonConstBufferSizes);

    Offset<flatbuffers::Vector<Offset<fbp::NonConstBufferDevice>>> devices = 0;
    if (!method.nonConstBufferDevices.empty()) {
        std::vector<Offset<fbp::NonConstBufferDevice>> entries;
        for (const BufferDeviceSpec& device : method.nonConstBufferDevices)
            entries.push_back(fbp::CreateNonConstBufferDevice(m_fbb, device.bufferIndex,
                static_cast<std::int8_t>(device.deviceType), static_cast<std::int8_t>(device.deviceIndex)));
        devices = m_fbb.CreateVector(entries);
    }
    return fbp::CreateExecutionPlan(
        m_fbb, name, meta, valueVector, inputs, outputs, chainVector, operatorVector, delegateVector, sizes, devices);
}

Offset<fbp::Program> ProgramSerializer::program()
{
    std::vector<Offset<fbp::ExecutionPlan>> plans;
    for (std::size_t m = 0; m < m_spec.methods.size(); ++m)
        plans.push_back(plan(m));
    const auto planVector = m_fbb.CreateVector(plans);

    Offset<flatbuffers::Vector<Offset<fbp::Buffer>>> constantBuffer = 0;
    if (m_options.constants == ProgramWriteOptions::ConstantStorage::Inline) {
        std::vector<Offset<fbp::Buffer>> buffers;
        for (const auto bytes : m_inlineConstants)
            buffers.push_back(fbp::CreateBuffer(m_fbb, alignedBytes(bytes)));
        constantBuffer = m_fbb.CreateVector(buffers);
    }

    std::vector<Offset<fbp::BackendDelegateInlineData>> inlineData;
    for (const auto bytes : m_inlineDelegateData)
        inlineData.push_back(fbp::CreateBackendDelegateInlineData(m_fbb, alignedBytes(bytes)));
    const auto inlineVector = m_fbb.CreateVector(inlineData);

    std::vector<Offset<fbp::DataSegment>> segments;
    for (const SegmentTable::Placed& placed : m_segments.placed())
        segments.push_back(fbp::CreateDataSegment(m_fbb, placed.offset, placed.size));
    const auto segmentVector = m_fbb.CreateVector(segments);

    Offset<fbp::SubsegmentOffsets> constantSegment = 0;
    if (m_constantSegment)
        constantSegment
            = fbp::CreateSubsegmentOffsets(m_fbb, *m_constantSegment, m_fbb.CreateVector(m_constants.offsets));

    Offset<flatbuffers::Vector<Offset<fbp::SubsegmentOffsets>>> mutableSegments = 0;
    if (m_mutableSegment) {
        const auto offsets = m_fbb.CreateVector(m_mutable.offsets);
        const std::vector<Offset<fbp::SubsegmentOffsets>> entries { fbp::CreateSubsegmentOffsets(
            m_fbb, *m_mutableSegment, offsets) };
        mutableSegments = m_fbb.CreateVector(entries);
    }

    Offset<flatbuffers::Vector<Offset<fbp::NamedData>>> namedData = 0;
    if (!m_spec.namedData.empty()) {
        std::vector<Offset<fbp::NamedData>> entries;
        for (std::size_t i = 0; i < m_spec.namedData.size(); ++i) {
            const auto key = m_fbb.CreateString(m_spec.namedData[i].key);
            entries.push_back(fbp::CreateNamedData(m_fbb, key, m_namedSegments[i]));
        }
        namedData = m_fbb.CreateVector(entries);
    }
    return fbp::CreateProgram(m_fbb, m_spec.version, planVector, constantBuffer, inlineVector, segmentVector,
        constantSegment, mutableSegments, namedData);
}

std::vector<std::uint8_t> ProgramSerializer::write(ProgramLayout* layout)
{
    collectData();
    placeSegments();
    m_fbb.Finish(program(), m_options.identifier.c_str());
    std::vector<std::uint8_t> bytes(m_fbb.GetBufferPointer(), m_fbb.GetBufferPointer() + m_fbb.GetSize());

    ProgramLayout result;
    result.constantSegment = m_constantSegment;
    result.mutableSegment = m_mutableSegment;
    for (const SegmentTable::Placed& placed : m_segments.placed())
        result.segments.emplace_back(placed.offset, placed.size);
    if (!m_segments.empty()) {
        // The padded header must keep the FlatBuffer's own alignment (its largest force_align).
        const std::uint64_t alignment = std::lcm(m_options.headerAlignment, m_fbb.GetBufferMinAlignment());
        const std::uint64_t padded = alignUp(m_options.headerLength, alignment);
        result.headerPadded = padded;
        result.programSize = bytes.size() + padded;
        result.segmentBaseOffset = alignUp(result.programSize, m_options.segmentAlignment);
        result.segmentDataSize = m_segments.dataSize();
        std::vector<std::uint8_t> header { 'e', 'h', '0', '0' };
        appendLe32(header, m_options.headerLength);
        appendLe64(header, result.programSize);
        appendLe64(header, result.segmentBaseOffset);
        if (m_options.headerLength >= 32)
            appendLe64(header, result.segmentDataSize);
        header.resize(m_options.headerLength, 0);
        spliceHeader(bytes, header, alignment);
        m_segments.appendTo(bytes, result.segmentBaseOffset);
    } else {
        result.programSize = bytes.size();
    }
    if (layout)
        *layout = std::move(result);
    return bytes;
}

} // namespace

Result<std::vector<std::uint8_t>> writeProgram(
    const ProgramSpec& spec, const ProgramWriteOptions& options, ProgramLayout* layout)
{
    if (auto error = checkAlignment(kWriter, "the segment alignment", options.segmentAlignment))
        return *error;
    if (auto error = checkAlignment(kWriter, "the constant alignment", options.constantAlignment))
        return *error;
    if (auto error = checkAlignment(kWriter, "the header alignment", options.headerAlignment))
        return *error;
    for (const NamedBlobSpec& blob : spec.namedData)
        if (auto error = checkAlignment(kWriter, "the alignment of named data '" + blob.key + "'", blob.alignment))
            return *error;
    if (options.headerLength < 24)
        return makeError(Error::Code::Usage, kWriter,
            "the extended header length must be at least 24, not " + std::to_string(options.headerLength));
    if (options.identifier.size() != 4)
        return makeError(
            Error::Code::Usage, kWriter, "the file identifier must be 4 characters, not '" + options.identifier + "'");
    return ProgramSerializer(spec, options).write(layout);
}

std::optional<Error> writeBytesToFile(const std::string& path, std::span<const std::uint8_t> bytes)
{
    return writeFileAtomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

} // namespace etscope::core
