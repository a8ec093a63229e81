// SPDX-License-Identifier: MIT
// Reads a .pte: size → identifier → extended header → Verifier → decode with semantic checks.
//
// Why one file: one ProgramDecoder whose steps (segments, tensor data, values, instructions,
// methods) share the verified root, the segment table and the bounds checked so far.
#include "core/pte/program.h"
#include "core/pte/verify.h"
#include "core/util/guard.h"
#include "core/util/platform.h"

#include "core/util/text.h"
#include "program_generated.h"

#include <cctype>
#include <cstring>

namespace etscope::core {
namespace fbp = etscope::fb::program;

namespace {

constexpr std::size_t kMinimumProgramSize = 16;

class ProgramDecoder {
public:
    ProgramDecoder(Program& program, const std::uint8_t* base, std::uint64_t fbSize)
        : m_program(program)
        , m_base(base)
        , m_fbSize(fbSize)
    {
    }

    std::optional<Error> decode(const fbp::Program& root);

private:
    Error corrupt(std::string reason, const void* where = nullptr) const
    {
        std::optional<std::uint64_t> offset;
        if (where)
            offset = m_program.region.offset
                + static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(where) - m_base);
        return makeError(Error::Code::Corrupt, m_program.path(), std::move(reason), offset);
    }

    std::uint64_t fileOffsetOf(const void* where) const
    {
        return m_program.region.offset + static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(where) - m_base);
    }

    ByteRange vectorRange(const flatbuffers::Vector<std::uint8_t>* vector) const
    {
        if (!vector)
            return {};
        return { fileOffsetOf(vector->data()), vector->size() };
    }

    std::optional<Error> decodeSegments(const fbp::Program& root);
    std::optional<Error> decodeMethod(const fbp::ExecutionPlan& plan, std::size_t planIndex, Method& method);
    std::optional<Error> decodeValue(const fbp::EValue* evalue, const std::string& where, Value& value);
    std::optional<Error> resolveTensorData(const std::string& where, const void* at, TensorInfo& tensor);
    std::optional<Error> decodeInstruction(const fbp::Instruction* instruction, const Method& method,
        const std::string& where, std::size_t instructionCount, Instruction& out);
    std::optional<Error> checkValueIndex(
        std::int64_t index, const Method& method, const std::string& where, const void* at) const;

    Program& m_program;
    const std::uint8_t* m_base;
    std::uint64_t m_fbSize;
    /// Shapes and dim orders, one shared block per distinct contents (issue 27).
    SharedVectorPool<std::int64_t> m_shapes;
    SharedVectorPool<std::uint8_t> m_dimOrders;
    std::vector<std::int64_t> m_shapeScratch;
};

std::optional<Error> ProgramDecoder::checkValueIndex(
    std::int64_t index, const Method& method, const std::string& where, const void* at) const
{
    if (index < 0 || static_cast<std::uint64_t>(index) >= method.values.size())
        return corrupt(where + ": value index " + std::to_string(index) + " is out of range (the method has "
                + std::to_string(method.values.size()) + " values)",
            at);
    return std::nullopt;
}

std::optional<Error> ProgramDecoder::decodeSegments(const fbp::Program& root)
{
    const std::uint64_t regionSize = m_program.region.size;
    const std::uint64_t segmentBase = m_program.header ? m_program.header->segmentBaseOffset : 0;
    if (const auto* segments = root.segments()) {
        for (flatbuffers::uoffset_t i = 0; i < segments->size(); ++i) {
            const auto* segment = segments->Get(i);
            if (!segment)
                return corrupt("segment " + std::to_string(i) + " has no table");
            const std::uint64_t offset = segment->offset();
            const std::uint64_t size = segment->size();
            if (size > 0 && !m_program.header)
                return corrupt("segment " + std::to_string(i) + " holds " + std::to_string(size)
                        + " bytes but the file has no extended header to locate segment data",
                    segment);
            if (offset > regionSize || segmentBase > regionSize - offset || size > regionSize - segmentBase - offset)
                return corrupt("segment " + std::to_string(i) + " (offset " + std::to_string(offset) + ", size "
                        + std::to_string(size) + ") lies outside the file (segment data starts at byte "
                        + std::to_string(segmentBase) + ", the program is " + std::to_string(regionSize) + " bytes)",
                    segment);
            m_program.segments.push_back({ m_program.region.offset + segmentBase + offset, size });
        }
    }

    if (const auto* constantSegment = root.constant_segment()) {
        m_program.constantSegment.segmentIndex = constantSegment->segment_index();
        m_program.constantSegment.offsets = vectorValues(constantSegment->offsets());
        if (!m_program.constantSegment.offsets.empty()) {
            m_program.hasConstantSegment = true;
            if (m_program.constantSegment.segmentIndex >= m_program.segments.size())
                return corrupt("the constant segment index " + std::to_string(m_program.constantSegment.segmentIndex)
                        + " is out of range (" + std::to_string(m_program.segments.size()) + " segments)",
                    constantSegment);
        }
    }

    if (const auto* buffers = root.constant_buffer()) {
        for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
            const auto* buffer = buffers->Get(i);
            m_program.legacyConstantBuffers.push_back(buffer ? vectorRange(buffer->storage()) : ByteRange {});
        }
        if (buffers->size() > 0 && m_program.hasConstantSegment)
            m_program.warnings.push_back({ "the program has both a constant segment and the deprecated inline "
                                           "constant_buffer; the runtime would reject it",
                fileOffsetOf(buffers) });
    }

    if (const auto* inlineData = root.backend_delegate_data()) {
        for (flatbuffers::uoffset_t i = 0; i < inlineData->size(); ++i) {
            const auto* entry = inlineData->Get(i);
            m_program.inlineDelegateData.push_back(entry ? vectorRange(entry->data()) : ByteRange {});
        }
    }

    if (const auto* mutableSegments = root.mutable_data_segments()) {
        for (flatbuffers::uoffset_t i = 0; i < mutableSegments->size(); ++i) {
            const auto* entry = mutableSegments->Get(i);
            SubsegmentOffsets sub;
            if (entry) {
                sub.segmentIndex = entry->segment_index();
                sub.offsets = vectorValues(entry->offsets());
                if (!sub.offsets.empty() && sub.segmentIndex >= m_program.segments.size())
                    return corrupt("mutable data segment " + std::to_string(i) + " names segment "
                            + std::to_string(sub.segmentIndex) + ", but there are only "
                            + std::to_string(m_program.segments.size()) + " segments",
                        entry);
            }
            m_program.mutableDataSegments.push_back(std::move(sub));
        }
    }

    if (const auto* namedData = root.named_data()) {
        for (flatbuffers::uoffset_t i = 0; i < namedData->size(); ++i) {
            const auto* entry = namedData->Get(i);
            if (!entry)
                continue;
            NamedDataEntry named;
            named.key = entry->key() ? entry->key()->str() : std::string();
            named.segmentIndex = entry->segment_index();
            if (named.segmentIndex >= m_program.segments.size())
                return corrupt("named data '" + named.key + "' names segment " + std::to_string(named.segmentIndex)
                        + ", but there are only " + std::to_string(m_program.segments.size()) + " segments",
                    entry);
            named.data = m_program.segments[named.segmentIndex];
            m_program.namedData.push_back(std::move(named));
        }
        m_program.indexNamedData();
    }
    return std::nullopt;
}

std::optional<Error> ProgramDecoder::resolveTensorData(const std::string& where, const void* at, TensorInfo& tensor)
{
    const bool external = tensor.hasExtraInfo && tensor.dataLocation == 1;
    if (external) {
        tensor.storage = tensor.hasAllocation ? TensorStorage::ExternalMutable : TensorStorage::External;
        return std::nullopt;
    }
    if (tensor.dataBufferIndex == 0) {
        tensor.storage = tensor.hasAllocation ? TensorStorage::Planned : TensorStorage::Runtime;
        return std::nullopt;
    }
    const std::uint64_t bytes = tensor.byteSize();
    if (tensor.hasAllocation) {
        tensor.storage = TensorStorage::Mutable;
        if (m_program.mutableDataSegments.empty())
            return corrupt(where + ": initial value " + std::to_string(tensor.dataBufferIndex)
                    + " but the program has no mutable data segment",
                at);
        const SubsegmentOffsets& sub = m_program.mutableDataSegments.front();
        if (tensor.dataBufferIndex >= sub.offsets.size())
            return corrupt(where + ": mutable data index " + std::to_string(tensor.dataBufferIndex)
                    + " is out of range (" + std::to_string(sub.offsets.size()) + " entries)",
                at);
        const ByteRange& segment = m_program.segments[sub.segmentIndex];
        const std::uint64_t offset = sub.offsets[tensor.dataBufferIndex];
        if (offset > segment.size || bytes > segment.size - offset)
            return corrupt(where + ": initial value (" + std::to_string(bytes) + " bytes at offset "
                    + std::to_string(offset) + ") does not fit in the mutable data segment ("
                    + std::to_string(segment.size) + " bytes)",
                at);
        tensor.data = ByteRange { segment.offset + offset, bytes };
        return std::nullopt;
    }

    tensor.storage = TensorStorage::Constant;
    if (m_program.hasConstantSegment) {
        const auto& offsets = m_program.constantSegment.offsets;
        if (tensor.dataBufferIndex >= offsets.size())
            return corrupt(where + ": constant buffer index " + std::to_string(tensor.dataBufferIndex)
                    + " is out of range (" + std::to_string(offsets.size()) + " constant offsets)",
                at);
        const ByteRange& segment = m_program.segments[m_program.constantSegment.segmentIndex];
        const std::uint64_t offset = offsets[tensor.dataBufferIndex];
        if (offset > segment.size || bytes > segment.size - offset)
            return corrupt(where + ": constant data (" + std::to_string(bytes) + " bytes at offset "
                    + std::to_string(offset) + ") does not fit in the constant segment (" + std::to_string(segment.size)
                    + " bytes)",
                at);
        tensor.data = ByteRange { segment.offset + offset, bytes };
        return std::nullopt;
    }
    if (tensor.dataBufferIndex >= m_program.legacyConstantBuffers.size())
        return corrupt(where + ": constant buffer index " + std::to_string(tensor.dataBufferIndex)
                + " is out of range (" + std::to_string(m_program.legacyConstantBuffers.size()) + " constant buffers)",
            at);
    const ByteRange& buffer = m_program.legacyConstantBuffers[tensor.dataBufferIndex];
    if (bytes > buffer.size)
        m_program.warnings.push_back({ where + ": constant buffer " + std::to_string(tensor.dataBufferIndex) + " holds "
                + std::to_string(buffer.size) + " bytes, the tensor needs " + std::to_string(bytes),
            buffer.offset });
    tensor.data = ByteRange { buffer.offset, std::min(bytes, buffer.size) };
    return std::nullopt;
}

std::optional<Error> ProgramDecoder::decodeValue(const fbp::EValue* evalue, const std::string& where, Value& value)
{
    if (!evalue) {
        value.kind = Value::Kind::Missing;
        return std::nullopt;
    }
    value.rawTag = static_cast<int>(evalue->val_type());
    // The Verifier accepts a union whose tag is set but whose table is absent.
    if (evalue->val_type() != fbp::KernelTypes::NONE && !evalue->val()) {
        if (evalue->val_type() > fbp::KernelTypes::MAX) {
            value.kind = Value::Kind::Unknown;
            return std::nullopt;
        }
        return corrupt(
            where + ": the value's type tag is " + std::to_string(value.rawTag) + " but its table is missing", evalue);
    }
    switch (evalue->val_type()) {
    case fbp::KernelTypes::NONE:
        value.kind = Value::Kind::Missing;
        break;
    case fbp::KernelTypes::NullValue:
        value.kind = Value::Kind::Null;
        break;
    case fbp::KernelTypes::IntValue:
        value.kind = Value::Kind::Int;
        value.intValue = evalue->val_as_IntValue()->int_val();
        break;
    case fbp::KernelTypes::BoolValue:
        value.kind = Value::Kind::Bool;
        value.boolValue = evalue->val_as_BoolValue()->bool_val();
        break;
    case fbp::KernelTypes::DoubleValue:
        value.kind = Value::Kind::Double;
        value.doubleValue = evalue->val_as_DoubleValue()->double_val();
        break;
    case fbp::KernelTypes::StringValue:
        value.kind = Value::Kind::String;
        if (const auto* s = evalue->val_as_StringValue()->string_val())
            value.setString(s->str());
        break;
    case fbp::KernelTypes::IntListValue:
        value.kind = Value::Kind::IntList;
        value.items = vectorValues<decltype(value.items)::value_type>(evalue->val_as_IntListValue()->items());
        break;
    case fbp::KernelTypes::DoubleListValue:
        value.kind = Value::Kind::DoubleList;
        value.setDoubles(vectorValues(evalue->val_as_DoubleListValue()->items()));
        break;
    case fbp::KernelTypes::BoolListValue:
        value.kind = Value::Kind::BoolList;
        if (const auto* items = evalue->val_as_BoolListValue()->items()) {
            std::vector<bool> bools;
            bools.reserve(items->size());
            for (const auto item : *items)
                bools.push_back(item != 0);
            value.setBools(std::move(bools));
        }
        break;
    case fbp::KernelTypes::TensorListValue:
        value.kind = Value::Kind::TensorList;
        if (const auto* items = evalue->val_as_TensorListValue()->items())
            value.items.assign(items->begin(), items->end());
        break;
    case fbp::KernelTypes::OptionalTensorListValue:
        value.kind = Value::Kind::OptionalTensorList;
        if (const auto* items = evalue->val_as_OptionalTensorListValue()->items())
            value.items.assign(items->begin(), items->end());
        break;
    case fbp::KernelTypes::TensorValue: {
        value.kind = Value::Kind::Tensor;
        const auto* t = evalue->val_as_TensorValue();
        TensorInfo& tensor = value.tensor;
        tensor.scalarType = t->scalar_type();
        tensor.storageOffset = t->storage_offset();
        if (t->sizes()) {
            m_shapeScratch.assign(t->sizes()->begin(), t->sizes()->end());
            tensor.sizes = m_shapes.intern(m_shapeScratch);
        }
        if (t->dim_order())
            tensor.dimOrder = m_dimOrders.intern(std::span(t->dim_order()->data(), t->dim_order()->size()));
        tensor.requiresGrad = t->requires_grad();
        tensor.dataBufferIndex = t->data_buffer_idx();
        if (const auto* allocation = t->allocation_info()) {
            tensor.hasAllocation = true;
            tensor.memoryId = allocation->memory_id();
            tensor.memoryOffset = static_cast<std::uint64_t>(allocation->memory_offset_low())
                | (static_cast<std::uint64_t>(allocation->memory_offset_high()) << 32);
        }
        tensor.layout = t->layout();
        tensor.shapeDynamism = t->shape_dynamism();
        if (const auto* extra = t->extra_tensor_info()) {
            tensor.hasExtraInfo = true;
            if (extra->fully_qualified_name())
                tensor.fullyQualifiedName = extra->fully_qualified_name()->str();
            tensor.dataLocation = extra->location();
            tensor.deviceType = extra->device_type();
            tensor.deviceIndex = extra->device_index();
        }
        if (auto error = resolveTensorData(where, t, tensor))
            return error;
        break;
    }
    default:
        value.kind = Value::Kind::Unknown;
        break;
    }
    return std::nullopt;
}

std::optional<Error> ProgramDecoder::decodeInstruction(const fbp::Instruction* instruction, const Method& method,
    const std::string& where, std::size_t instructionCount, Instruction& out)
{
    if (!instruction) {
        out.kind = Instruction::Kind::Missing;
        return std::nullopt;
    }
    out.fileOffset = fileOffsetOf(instruction);
    out.rawTag = static_cast<int>(instruction->instr_args_type());
    if (instruction->instr_args_type() != fbp::InstructionArguments::NONE && !instruction->instr_args()
        && instruction->instr_args_type() <= fbp::InstructionArguments::MAX)
        return corrupt(where + ": the instruction's type tag is " + std::to_string(out.rawTag)
                + " but its arguments table is missing",
            instruction);
    const auto copyArgs = [&](const flatbuffers::Vector<std::int32_t>* args) -> std::optional<Error> {
        if (!args)
            return std::nullopt;
        out.args.assign(args->begin(), args->end());
        for (const std::int32_t arg : out.args)
            if (auto error = checkValueIndex(arg, method, where + " argument", instruction))
                return error;
        return std::nullopt;
    };
    switch (instruction->instr_args_type()) {
    case fbp::InstructionArguments::NONE:
        out.kind = Instruction::Kind::Missing;
        return std::nullopt;
    case fbp::InstructionArguments::KernelCall: {
        const auto* call = instruction->instr_args_as_KernelCall();
        out.kind = Instruction::Kind::Kernel;
        out.index = call->op_index();
        if (out.index < 0 || static_cast<std::size_t>(out.index) >= method.operators.size())
            return corrupt(where + ": operator index " + std::to_string(out.index) + " is out of range (the method has "
                    + std::to_string(method.operators.size()) + " operators)",
                call);
        return copyArgs(call->args());
    }
    case fbp::InstructionArguments::DelegateCall: {
        const auto* call = instruction->instr_args_as_DelegateCall();
        out.kind = Instruction::Kind::Delegate;
        out.index = call->delegate_index();
        if (out.index < 0 || static_cast<std::size_t>(out.index) >= method.delegates.size())
            return corrupt(where + ": delegate index " + std::to_string(out.index) + " is out of range (the method has "
                    + std::to_string(method.delegates.size()) + " delegates)",
                call);
        return copyArgs(call->args());
    }
    case fbp::InstructionArguments::MoveCall: {
        const auto* call = instruction->instr_args_as_MoveCall();
        out.kind = Instruction::Kind::Move;
        out.moveFrom = call->move_from();
        out.moveTo = call->move_to();
        if (auto error = checkValueIndex(out.moveFrom, method, where + " move source", call))
            return error;
        return checkValueIndex(out.moveTo, method, where + " move destination", call);
    }
    case fbp::InstructionArguments::JumpFalseCall: {
        const auto* call = instruction->instr_args_as_JumpFalseCall();
        out.kind = Instruction::Kind::JumpFalse;
        out.condition = call->cond_value_index();
        out.destination = call->destination_instruction();
        if (out.destination < 0 || static_cast<std::size_t>(out.destination) > instructionCount)
            return corrupt(where + ": jump destination " + std::to_string(out.destination)
                    + " is out of range (the chain has " + std::to_string(instructionCount) + " instructions)",
                call);
        return checkValueIndex(out.condition, method, where + " jump condition", call);
    }
    case fbp::InstructionArguments::FreeCall: {
        const auto* call = instruction->instr_args_as_FreeCall();
        out.kind = Instruction::Kind::Free;
        out.freedValue = call->value_index();
        return checkValueIndex(out.freedValue, method, where + " freed value", call);
    }
    default:
        out.kind = Instruction::Kind::Unknown;
        m_program.warnings.push_back(
            { where + ": unknown instruction type " + std::to_string(out.rawTag) + " (shown as unknown)",
                out.fileOffset });
        return std::nullopt;
    }
}

std::optional<Error> ProgramDecoder::decodeMethod(const fbp::ExecutionPlan& plan, std::size_t planIndex, Method& method)
{
    method.name = plan.name() ? plan.name()->str() : "plan" + std::to_string(planIndex);
    const std::string where = "method '" + method.name + "'";
    if (const auto* meta = plan.container_meta_type()) {
        if (meta->encoded_inp_str())
            method.inputSpec = meta->encoded_inp_str()->str();
        if (meta->encoded_out_str())
            method.outputSpec = meta->encoded_out_str()->str();
    }
    method.nonConstBufferSizes
        = vectorValues<decltype(method.nonConstBufferSizes)::value_type>(plan.non_const_buffer_sizes());

    if (const auto* operators = plan.operators()) {
        for (const auto* op : *operators) {
            Operator decoded;
            if (op && op->name())
                decoded.name = op->name()->str();
            if (op && op->overload())
                decoded.overload = op->overload()->str();
            method.operators.push_back(std::move(decoded));
        }
    }

    if (const auto* delegates = plan.delegates()) {
        for (flatbuffers::uoffset_t i = 0; i < delegates->size(); ++i) {
            const auto* delegate = delegates->Get(i);
            DelegateRef ref;
            const std::string delegateWhere = where + ", delegate " + std::to_string(i);
            if (!delegate)
                return corrupt(delegateWhere + " has no table");
            ref.backendId = delegate->id() ? delegate->id()->str() : std::string();
            if (const auto* specs = delegate->compile_specs()) {
                for (const auto* spec : *specs) {
                    CompileSpec decoded;
                    if (spec && spec->key())
                        decoded.key = spec->key()->str();
                    if (spec && spec->value()) {
                        decoded.value.assign(spec->value()->begin(), spec->value()->end());
                        decoded.valueOffset = fileOffsetOf(spec->value()->data());
                    }
                    ref.compileSpecs.push_back(std::move(decoded));
                }
            }
            const auto* processed = delegate->processed();
            if (!processed)
                return corrupt(
                    delegateWhere + " ('" + ref.backendId + "') does not say where its payload is", delegate);
            ref.location = processed->location();
            ref.index = processed->index();
            if (ref.location == 0) {
                if (ref.index >= m_program.inlineDelegateData.size())
                    return corrupt(delegateWhere + " ('" + ref.backendId + "'): inline data index "
                            + std::to_string(ref.index) + " is out of range ("
                            + std::to_string(m_program.inlineDelegateData.size()) + " inline entries)",
                        processed);
                ref.payload = m_program.inlineDelegateData[ref.index];
            } else if (ref.location == 1) {
                if (ref.index >= m_program.segments.size())
                    return corrupt(delegateWhere + " ('" + ref.backendId + "'): segment index "
                            + std::to_string(ref.index) + " is out of range ("
                            + std::to_string(m_program.segments.size()) + " segments)",
                        processed);
                ref.payload = m_program.segments[ref.index];
            } else {
                m_program.warnings.push_back({ delegateWhere + " ('" + ref.backendId + "'): unknown data location "
                        + std::to_string(ref.location) + "; the payload cannot be found",
                    fileOffsetOf(processed) });
            }
            method.delegates.push_back(std::move(ref));
        }
    }

    if (const auto* values = plan.values()) {
        method.values.resize(values->size());
        for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
            if (auto error = decodeValue(values->Get(i), where + ", value " + std::to_string(i), method.values[i]))
                return error;
        }
        // List items are value indices; check them once every value exists.
        for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
            const Value& value = method.values[i];
            if (!value.isList())
                continue;
            for (const std::int64_t item : value.items) {
                if (item == -1 && value.kind == Value::Kind::OptionalTensorList)
                    continue;
                if (auto error = checkValueIndex(
                        item, method, where + ", list value " + std::to_string(i) + " item", values->Get(i)))
                    return error;
            }
        }
    }

    if (const auto* inputs = plan.inputs()) {
        method.inputs.assign(inputs->begin(), inputs->end());
        for (const std::int32_t input : method.inputs)
            if (auto error = checkValueIndex(input, method, where + " input", inputs))
                return error;
    }
    if (const auto* outputs = plan.outputs()) {
        method.outputs.assign(outputs->begin(), outputs->end());
        for (const std::int32_t output : method.outputs)
            if (auto error = checkValueIndex(output, method, where + " output", outputs))
                return error;
    }

    if (const auto* chains = plan.chains()) {
        for (flatbuffers::uoffset_t c = 0; c < chains->size(); ++c) {
            const auto* chain = chains->Get(c);
            Chain decoded;
            if (!chain) {
                method.chains.push_back(std::move(decoded));
                continue;
            }
            if (chain->inputs())
                decoded.inputs.assign(chain->inputs()->begin(), chain->inputs()->end());
            if (chain->outputs())
                decoded.outputs.assign(chain->outputs()->begin(), chain->outputs()->end());
            if (const auto* instructions = chain->instructions()) {
                decoded.instructions.resize(instructions->size());
                for (flatbuffers::uoffset_t i = 0; i < instructions->size(); ++i) {
                    const std::string instructionWhere
                        = where + ", chain " + std::to_string(c) + ", instruction " + std::to_string(i);
                    if (auto error = decodeInstruction(instructions->Get(i), method, instructionWhere,
                            instructions->size(), decoded.instructions[i]))
                        return error;
                }
            }
            if (const auto* stacktrace = chain->stacktrace()) {
                for (const auto* frames : *stacktrace) {
                    std::vector<Frame> decodedFrames;
                    if (frames && frames->items()) {
                        for (const auto* frame : *frames->items()) {
                            if (!frame)
                                continue;
                            Frame f;
                            f.filename = frame->filename() ? frame->filename()->str() : std::string();
                            f.line = frame->lineno();
                            f.function = frame->name() ? frame->name()->str() : std::string();
                            f.context = frame->context() ? frame->context()->str() : std::string();
                            decodedFrames.push_back(std::move(f));
                        }
                    }
                    decoded.stacktrace.push_back(std::move(decodedFrames));
                }
            }
            method.chains.push_back(std::move(decoded));
        }
    }
    return std::nullopt;
}

std::optional<Error> ProgramDecoder::decode(const fbp::Program& root)
{
    m_program.version = root.version();
    if (auto error = decodeSegments(root))
        return error;
    if (const auto* plans = root.execution_plan()) {
        m_program.methods.resize(plans->size());
        for (flatbuffers::uoffset_t i = 0; i < plans->size(); ++i) {
            const auto* plan = plans->Get(i);
            if (!plan)
                return corrupt("execution plan " + std::to_string(i) + " has no table");
            if (auto error = decodeMethod(*plan, i, m_program.methods[i]))
                return error;
        }
    }
    if (m_program.methods.empty())
        m_program.warnings.push_back({ "the program has no methods", std::nullopt });
    (void)m_fbSize;
    return std::nullopt;
}

} // namespace

static Result<Program> readProgramUnguarded(
    const std::shared_ptr<const MappedFile>& file, std::optional<ByteRange> region)
{
    Program program;
    program.file = file;
    program.region = region.value_or(ByteRange { 0, file->size() });
    const std::string& path = file->path();
    const auto all = file->bytes();
    if (program.region.offset > all.size() || program.region.size > all.size() - program.region.offset)
        return makeError(Error::Code::Truncated, path, "the program region lies outside the file");
    const std::uint8_t* base = all.data() + program.region.offset;
    const std::uint64_t size = program.region.size;
    const std::uint64_t at = program.region.offset;

    if (size < kMinimumProgramSize)
        return makeError(Error::Code::Truncated, path,
            "too small to be an ExecuTorch program (" + std::to_string(size) + " bytes)", at);

    const std::string identifier(reinterpret_cast<const char*>(base + 4), 4);
    program.identifier = identifier;
    if (identifier != "ET12") {
        const bool looksVersioned = identifier[0] == 'E' && identifier[1] == 'T'
            && std::isalnum(static_cast<unsigned char>(identifier[2]))
            && std::isalnum(static_cast<unsigned char>(identifier[3]));
        if (looksVersioned)
            return makeError(Error::Code::UnsupportedVersion, path,
                "unsupported program format version '" + identifier + "' (this build reads ET12)", at + 4);
        return makeError(Error::Code::BadIdentifier, path,
            "not an ExecuTorch program: the file identifier is " + magicText(std::span<const std::uint8_t>(base + 4, 4))
                + ", expected 'ET12'",
            at + 4);
    }

    std::uint64_t flatbufferSize = size;
    if (std::memcmp(base + 8, "eh00", 4) == 0) {
        ExtendedHeader header;
        header.length = readLe32(base + 12);
        if (header.length < 24)
            return makeError(Error::Code::Corrupt, path,
                "extended header length " + std::to_string(header.length) + " is below the minimum of 24", at + 12);
        if (size < 8 + static_cast<std::uint64_t>(header.length) || size < 32)
            return makeError(Error::Code::Truncated, path, "the file ends inside the extended header", at + 8);
        header.programSize = readLe64(base + 16);
        header.segmentBaseOffset = readLe64(base + 24);
        if (header.length >= 32) {
            if (size < 40)
                return makeError(Error::Code::Truncated, path, "the file ends inside the extended header", at + 8);
            header.segmentDataSize = readLe64(base + 32);
        }
        if (header.programSize > size)
            return makeError(Error::Code::Truncated, path,
                "the extended header says the program is " + std::to_string(header.programSize) + " bytes, but only "
                    + std::to_string(size) + " bytes are there",
                at + 16);
        if (header.programSize < 8 + static_cast<std::uint64_t>(header.length))
            return makeError(Error::Code::Corrupt, path,
                "the extended header's program size " + std::to_string(header.programSize)
                    + " is smaller than the header itself",
                at + 16);
        if (header.segmentBaseOffset != 0 && header.segmentBaseOffset < header.programSize)
            return makeError(Error::Code::Corrupt, path,
                "segment data starts at byte " + std::to_string(header.segmentBaseOffset)
                    + ", inside the program (which is " + std::to_string(header.programSize) + " bytes)",
                at + 24);
        if (header.segmentDataSize > 0
            && (header.segmentBaseOffset > size || header.segmentDataSize > size - header.segmentBaseOffset))
            return makeError(Error::Code::Truncated, path,
                "the file is truncated: segment data needs " + std::to_string(header.segmentBaseOffset) + " + "
                    + std::to_string(header.segmentDataSize) + " bytes, the file has " + std::to_string(size),
                at + 32);
        flatbufferSize = header.programSize;
        program.header = header;
    }

    if (flatbufferSize >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return makeError(Error::Code::Limit, path,
            "the FlatBuffers part of the program is " + std::to_string(flatbufferSize)
                + " bytes, beyond what FlatBuffers can address");

    // The verifier and the reader touch pages all over the FlatBuffers part: have it read ahead
    // in bulk (mappings are random access, so a cold file would otherwise be read page by page).
    platform::adviseWillNeed(base, static_cast<std::size_t>(flatbufferSize));
    if (!verifyFlatbuffer<fbp::Program>(base, flatbufferSize, fbp::ProgramIdentifier(), false))
        return makeError(Error::Code::Verifier, path,
            "the FlatBuffers verifier rejected the program (damaged or not an ExecuTorch program)");

    const fbp::Program* root = fbp::GetProgram(base);
    ProgramDecoder decoder(program, base, flatbufferSize);
    if (auto error = decoder.decode(*root))
        return *error;
    return program;
}

Result<Program> readProgram(std::shared_ptr<const MappedFile> file, std::optional<ByteRange> region)
{
    return guardedRead<Program>(file->path(), "the program", [&] { return readProgramUnguarded(file, region); });
}

Result<Program> readProgramFile(const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    return readProgram(file.value());
}

} // namespace etscope::core
