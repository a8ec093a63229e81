// SPDX-License-Identifier: MIT
#include "core/debug/etdump.h"
#include "core/util/guard.h"

#include "core/pte/verify.h"
#include "core/util/scalartype.h"
#include "core/util/text.h"

#include <etdump_generated.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>

namespace etscope::core {

namespace fbe = etscope::fb::etdump;

namespace {

constexpr std::size_t kMaxBufferWarnings = 5;

std::uint64_t saturatingMultiply(std::uint64_t a, std::uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        return std::numeric_limits<std::uint64_t>::max();
    return a * b;
}

std::string str(const flatbuffers::String* s)
{
    return s ? s->str() : std::string();
}

DebugTensor readTensor(const fbe::TensorValue* t)
{
    DebugTensor tensor;
    if (!t)
        return tensor;
    tensor.scalarType = t->scalar_type();
    tensor.sizes = vectorValues<std::int64_t>(t->sizes());
    tensor.strides = vectorValues<std::int64_t>(t->strides());
    tensor.offset = t->offset();
    return tensor;
}

DebugValue readValue(const fbe::Value* v, std::vector<std::string>& problems)
{
    DebugValue value;
    if (!v)
        return value;
    value.rawKind = v->val();
    value.output = v->output() && v->output()->bool_val();
    const auto missing = [&](const char* field) {
        problems.push_back(std::string("a debug value of kind ") + std::to_string(value.rawKind) + " has no " + field);
    };
    switch (value.rawKind) {
    case 0:
        value.kind = DebugValue::Kind::Null;
        break;
    case 1:
        value.kind = DebugValue::Kind::Int;
        v->int_value() ? void(value.intValue = v->int_value()->int_val()) : missing("int_value");
        break;
    case 2:
        value.kind = DebugValue::Kind::Bool;
        v->bool_value() ? void(value.boolValue = v->bool_value()->bool_val()) : missing("bool_value");
        break;
    case 3:
        value.kind = DebugValue::Kind::Float;
        v->float_value() ? void(value.doubleValue = v->float_value()->float_val()) : missing("float_value");
        break;
    case 4:
        value.kind = DebugValue::Kind::Double;
        v->double_value() ? void(value.doubleValue = v->double_value()->double_val()) : missing("double_value");
        break;
    case 5:
        value.kind = DebugValue::Kind::Tensor;
        if (v->tensor())
            value.tensors.push_back(readTensor(v->tensor()));
        else
            missing("tensor");
        break;
    case 6:
        value.kind = DebugValue::Kind::TensorList;
        if (v->tensor_list() && v->tensor_list()->tensors())
            for (const auto* t : *v->tensor_list()->tensors())
                value.tensors.push_back(readTensor(t));
        else
            missing("tensor_list");
        break;
    case 7:
        value.kind = DebugValue::Kind::String; // defined but never written: no slot holds the text
        break;
    default:
        value.kind = DebugValue::Kind::Unknown;
        problems.push_back("a debug value has the unknown kind " + std::to_string(value.rawKind));
        break;
    }
    return value;
}

RunBlock readBlock(const fbe::RunData* run, std::size_t index, std::vector<Warning>& warnings)
{
    RunBlock block;
    if (!run) {
        warnings.push_back({ "run_data[" + std::to_string(index) + "] is empty", std::nullopt });
        return block;
    }
    const std::string where = "run_data[" + std::to_string(index) + "]";
    block.name = str(run->name());
    block.bundledInputIndex = run->bundled_input_index();
    if (run->allocators())
        for (const auto* allocator : *run->allocators())
            block.allocators.push_back(allocator ? str(allocator->name()) : std::string());
    std::vector<std::string> problems;
    if (run->events()) {
        std::size_t sequence = 0;
        for (const auto* e : *run->events()) {
            const std::size_t position = sequence++;
            if (!e) {
                ++block.emptyEvents;
                continue;
            }
            if (const auto* p = e->profile_event()) {
                ProfileEvent event;
                event.name = str(p->name());
                event.chainIndex = ChainIndex(p->chain_index());
                event.instructionId = InstructionId(p->instruction_id());
                event.delegateDebugIdInt = DelegateDebugId(p->delegate_debug_id_int());
                event.delegateDebugIdStr = str(p->delegate_debug_id_str());
                if (p->delegate_debug_metadata())
                    event.delegateDebugMetadata.assign(
                        p->delegate_debug_metadata()->begin(), p->delegate_debug_metadata()->end());
                event.startTime = p->start_time();
                event.endTime = p->end_time();
                event.sequence = position;
                block.profileEvents.push_back(std::move(event));
            } else if (const auto* a = e->allocation_event()) {
                AllocationEvent event { a->allocator_id(), a->allocation_size(), position };
                if (event.allocatorId < 1 || static_cast<std::size_t>(event.allocatorId) > block.allocators.size())
                    problems.push_back("an allocation event names allocator " + std::to_string(event.allocatorId)
                        + " of " + std::to_string(block.allocators.size()));
                block.allocationEvents.push_back(event);
            } else if (const auto* d = e->debug_event()) {
                DebugEvent event;
                event.chainIndex = d->chain_index();
                event.instructionId = InstructionId(d->instruction_id());
                event.delegateDebugIdInt = DelegateDebugId(d->delegate_debug_id_int());
                event.delegateDebugIdStr = str(d->delegate_debug_id_str());
                event.name = str(d->name());
                event.value = readValue(d->debug_entry(), problems);
                event.sequence = position;
                block.debugEvents.push_back(std::move(event));
            } else {
                ++block.emptyEvents;
            }
        }
    }
    if (block.emptyEvents)
        problems.push_back(std::to_string(block.emptyEvents) + " event(s) carry no profile, allocation or debug event");
    // One line per kind of problem keeps hostile files from flooding the banner.
    std::map<std::string, int> counted;
    for (const std::string& p : problems)
        ++counted[p];
    for (const auto& [problem, count] : counted)
        warnings.push_back({ where + " ('" + block.name + "'): " + problem
                + (count > 1 ? " (" + std::to_string(count) + " times)" : std::string()),
            std::nullopt });
    return block;
}

template <typename T> double load(const std::uint8_t* p)
{
    T value;
    std::memcpy(&value, p, sizeof(T));
    return static_cast<double>(value);
}

} // namespace

std::string_view debugValueKindName(DebugValue::Kind kind)
{
    switch (kind) {
    case DebugValue::Kind::Null:
        return "Null";
    case DebugValue::Kind::Int:
        return "Int";
    case DebugValue::Kind::Bool:
        return "Bool";
    case DebugValue::Kind::Float:
        return "Float";
    case DebugValue::Kind::Double:
        return "Double";
    case DebugValue::Kind::Tensor:
        return "Tensor";
    case DebugValue::Kind::TensorList:
        return "TensorList";
    case DebugValue::Kind::String:
        return "String";
    case DebugValue::Kind::Unknown:
        return "Unknown";
    }
    return "Unknown";
}

std::uint64_t DebugTensor::elementCount() const
{
    std::uint64_t count = 1;
    for (const std::int64_t size : sizes) {
        if (size <= 0)
            return 0;
        count = saturatingMultiply(count, static_cast<std::uint64_t>(size));
    }
    return count;
}

std::uint64_t DebugTensor::byteSize() const
{
    return saturatingMultiply(elementCount(), static_cast<std::uint64_t>(scalarTypeSize(scalarType)));
}

std::string ProfileEvent::delegateIdentifier() const
{
    if (!delegateDebugIdStr.empty())
        return delegateDebugIdStr;
    return delegateDebugIdInt.value != -1 ? std::to_string(delegateDebugIdInt.value) : std::string();
}

std::uint64_t ProfileEvent::duration() const
{
    if (endTime >= startTime)
        return endTime - startTime;
    // A 32-bit tick counter that wrapped once between start and end.
    if (startTime <= 0xffffffffull && endTime <= 0xffffffffull)
        return endTime + (1ull << 32) - startTime;
    return 0;
}

std::string DebugEvent::delegateIdentifier() const
{
    if (!delegateDebugIdStr.empty())
        return delegateDebugIdStr;
    return delegateDebugIdInt.value != -1 ? std::to_string(delegateDebugIdInt.value) : std::string();
}

ChainIndex DebugEvent::chain() const
{
    return chainIndex <= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())
        ? ChainIndex(static_cast<std::int32_t>(chainIndex))
        : ChainIndex::none();
}

std::vector<std::size_t> ETDump::executeBlocks() const
{
    std::vector<std::size_t> blocks;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i].name == "Execute")
            blocks.push_back(i);
    return blocks;
}

std::size_t ETDump::tensorCount() const
{
    std::size_t count = 0;
    for (const RunBlock& run : runs)
        for (const DebugEvent& event : run.debugEvents)
            count += event.value.tensors.size();
    return count;
}

static Result<ETDump> readETDumpUnguarded(const std::shared_ptr<const MappedFile>& file)
{
    const std::string& path = file->path();
    const auto bytes = file->bytes();
    if (bytes.size() < 12)
        return makeError(Error::Code::Truncated, path,
            "too small to be an ETDump (" + std::to_string(bytes.size()) + " bytes; the header alone is 12)");
    ETDump dump;
    dump.file = file;
    const std::uint8_t* data = bytes.data();
    std::uint64_t size = bytes.size();
    if (std::memcmp(data + 8, "ED00", 4) == 0) {
        dump.sizePrefixed = true;
        const std::uint64_t prefix = readLe32(data);
        if (prefix > size - 4)
            return makeError(Error::Code::Truncated, path,
                "the size prefix announces " + std::to_string(prefix) + " bytes but only " + std::to_string(size - 4)
                    + " follow",
                0);
        if (prefix < size - 4)
            dump.warnings.push_back(
                { std::to_string(size - 4 - prefix) + " bytes after the ETDump are ignored", prefix + 4 });
        size = prefix + 4;
    } else if (std::memcmp(data + 4, "ED00", 4) == 0) {
        dump.sizePrefixed = false;
    } else {
        return makeError(Error::Code::BadIdentifier, path,
            "not an ETDump: no ED00 identifier at bytes 8-11 (size-prefixed) or 4-7 (bytes 4-11 are "
                + magicText(bytes.subspan(4, 8)) + ")",
            4);
    }
    const fbe::ETDump* root = nullptr;
    // ExecuTorch's Python serializer (serialize_to_etdump_flatcc) writes the buffer and then puts
    // the size in front, so its 8-byte fields are aligned after the prefix rather than from the
    // file's first byte, where the runtime's builder and the Verifier count. Such a file is
    // verified as the unprefixed buffer it is, in an aligned copy (reading it in place would be
    // misaligned loads).
    std::vector<std::uint64_t> alignedCopy;
    if (verifyFlatbuffer<fbe::ETDump>(data, size, "ED00", dump.sizePrefixed)) {
        root = dump.sizePrefixed ? flatbuffers::GetSizePrefixedRoot<fbe::ETDump>(data)
                                 : flatbuffers::GetRoot<fbe::ETDump>(data);
    } else if (dump.sizePrefixed) {
        const std::uint64_t inner = size - 4;
        alignedCopy.resize(static_cast<std::size_t>((inner + 7) / 8));
        std::memcpy(alignedCopy.data(), data + 4, static_cast<std::size_t>(inner));
        const auto* base = reinterpret_cast<const std::uint8_t*>(alignedCopy.data());
        if (verifyFlatbuffer<fbe::ETDump>(base, inner, "ED00", false)) {
            root = flatbuffers::GetRoot<fbe::ETDump>(base);
            dump.alignedAfterPrefix = true;
        }
    }
    if (!root)
        return makeError(Error::Code::Verifier, path,
            "the FlatBuffers verifier rejected the ETDump (offsets or sizes point outside the file, or the release-0.1 "
            "layout)");
    dump.version = root->version();
    if (dump.version != 0)
        dump.warnings.push_back(
            { "ETDump version " + std::to_string(dump.version) + " (this build knows 0)", std::nullopt });
    if (root->run_data())
        for (std::size_t i = 0; i < root->run_data()->size(); ++i)
            dump.runs.push_back(
                readBlock(root->run_data()->Get(static_cast<flatbuffers::uoffset_t>(i)), i, dump.warnings));
    return dump;
}

Result<ETDump> readETDump(std::shared_ptr<const MappedFile> file)
{
    return guardedRead<ETDump>(file->path(), "the ETDump", [&] { return readETDumpUnguarded(file); });
}

Result<ETDump> readETDumpFile(const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    return readETDump(file.value());
}

std::string defaultDebugBufferPath(const std::string& etdumpPath)
{
    const std::filesystem::path p(etdumpPath);
    return (p.parent_path() / (p.stem().string() + ".debug.bin")).string();
}

void attachDebugBuffer(ETDump& dump, std::shared_ptr<const MappedFile> buffer)
{
    const std::uint64_t size = buffer->size();
    std::size_t outside = 0;
    for (RunBlock& run : dump.runs) {
        for (DebugEvent& event : run.debugEvents) {
            for (DebugTensor& tensor : event.value.tensors) {
                const std::uint64_t bytes = tensor.byteSize();
                if (tensor.offset < 0) {
                    // Offset -1: an empty tensor, nothing was written.
                    tensor.inBuffer = bytes == 0;
                } else {
                    const auto offset = static_cast<std::uint64_t>(tensor.offset);
                    tensor.inBuffer = offset <= size && bytes <= size - offset;
                }
                if (tensor.inBuffer)
                    continue;
                if (++outside <= kMaxBufferWarnings)
                    dump.warnings.push_back({ buffer->path() + ": a " + scalarTypeName(tensor.scalarType) + " tensor "
                            + formatShape(tensor.sizes) + " of instruction " + std::to_string(event.instructionId.value)
                            + " needs bytes " + std::to_string(tensor.offset) + "+" + std::to_string(bytes)
                            + " but the buffer has " + std::to_string(size),
                        std::nullopt });
            }
        }
    }
    if (outside > kMaxBufferWarnings)
        dump.warnings.push_back({ buffer->path() + ": " + std::to_string(outside - kMaxBufferWarnings)
                + " more tensors lie outside the debug buffer",
            std::nullopt });
    dump.buffer = DebugBuffer { std::move(buffer) };
}

std::optional<Error> attachDebugBuffer(ETDump& dump, const std::string& path)
{
    auto file = MappedFile::open(path);
    if (!file)
        return file.error();
    attachDebugBuffer(dump, file.value());
    return std::nullopt;
}

std::optional<Error> attachDebugBufferOrDefault(ETDump& dump, const std::string& path)
{
    if (!path.empty())
        return attachDebugBuffer(dump, path);
    const std::string companion = defaultDebugBufferPath(dump.path());
    std::error_code ec;
    if (!std::filesystem::is_regular_file(companion, ec))
        return std::nullopt;
    if (auto error = attachDebugBuffer(dump, companion))
        dump.warnings.push_back({ "debug buffer not attached: " + error->message(), std::nullopt });
    return std::nullopt;
}

bool decodeElements(int scalarType, const std::uint8_t* bytes, std::uint64_t count, std::vector<double>& out)
{
    const int size = scalarTypeSize(scalarType);
    const auto each = [&](auto convert) {
        out.reserve(out.size() + count);
        for (std::uint64_t i = 0; i < count; ++i)
            out.push_back(convert(bytes + i * static_cast<std::uint64_t>(size)));
        return true;
    };
    switch (scalarType) {
    case scalar_type::Byte:
    case 13: // QUINT8
    case 21: // BITS8
        return each(load<std::uint8_t>);
    case scalar_type::Char:
    case 12: // QINT8
        return each(load<std::int8_t>);
    case scalar_type::Short:
        return each(load<std::int16_t>);
    case scalar_type::Int:
    case 14: // QINT32
        return each(load<std::int32_t>);
    case scalar_type::Long:
        return each(load<std::int64_t>);
    case scalar_type::Float:
        return each(load<float>);
    case scalar_type::Double:
        return each(load<double>);
    case scalar_type::Bool:
        return each([](const std::uint8_t* p) { return *p ? 1.0 : 0.0; });
    case scalar_type::Bits16:
    case scalar_type::UInt16:
        return each(load<std::uint16_t>);
    case scalar_type::UInt32:
        return each(load<std::uint32_t>);
    case scalar_type::UInt64:
        return each(load<std::uint64_t>);
    case scalar_type::Half:
        return each([](const std::uint8_t* p) { return halfToDouble(static_cast<std::uint16_t>(p[0] | (p[1] << 8))); });
    case scalar_type::BFloat16:
        return each(
            [](const std::uint8_t* p) { return bfloat16ToDouble(static_cast<std::uint16_t>(p[0] | (p[1] << 8))); });
    default:
        return false;
    }
}

Result<std::vector<double>> tensorValues(const ETDump& dump, const DebugTensor& tensor, std::uint64_t maxElements)
{
    const std::uint64_t count = tensor.elementCount();
    const std::string where
        = "tensor " + formatShape(tensor.sizes) + " at debug-buffer offset " + std::to_string(tensor.offset);
    if (count > maxElements)
        return makeError(Error::Code::Limit, dump.path(),
            where + ": " + std::to_string(count) + " elements (limit " + std::to_string(maxElements) + ")");
    if (count == 0)
        return std::vector<double>();
    if (!dump.buffer)
        return makeError(
            Error::Code::Usage, dump.path(), "no debug buffer attached: tensor values are in a separate file");
    const auto bytes = dump.buffer->file->bytes();
    const std::uint64_t byteSize = tensor.byteSize();
    if (tensor.offset < 0 || static_cast<std::uint64_t>(tensor.offset) > bytes.size()
        || byteSize > bytes.size() - static_cast<std::uint64_t>(tensor.offset))
        return makeError(Error::Code::Corrupt, dump.buffer->path(),
            where + " needs " + std::to_string(byteSize) + " bytes but the buffer has " + std::to_string(bytes.size()),
            tensor.offset < 0 ? std::nullopt : std::optional<std::uint64_t>(tensor.offset));
    std::vector<double> raw;
    if (!decodeElements(tensor.scalarType, bytes.data() + tensor.offset, count, raw))
        return makeError(Error::Code::Corrupt, dump.path(),
            where + ": elements of type " + scalarTypeName(tensor.scalarType) + " cannot be read as numbers");
    if (auto problem = reorderByStrides(raw, tensor.sizes, tensor.strides))
        return makeError(Error::Code::Corrupt, dump.path(), where + ": " + *problem);
    return raw;
}

std::optional<std::string> reorderByStrides(
    std::vector<double>& values, const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides)
{
    if (strides.empty())
        return std::nullopt;
    if (strides.size() != sizes.size())
        return std::to_string(strides.size()) + " strides for " + std::to_string(sizes.size()) + " dimensions";
    bool contiguous = true;
    std::int64_t expected = 1;
    for (std::size_t d = strides.size(); d-- > 0;) {
        if (strides[d] != expected && sizes[d] != 1)
            contiguous = false;
        expected *= std::max<std::int64_t>(sizes[d], 1);
    }
    if (contiguous)
        return std::nullopt;
    const std::uint64_t count = values.size();
    // A stride larger than the tensor cannot describe its own bytes (and would overflow below).
    for (const std::int64_t stride : strides)
        if (stride < 0 || static_cast<std::uint64_t>(stride) > count)
            return "strides " + formatShape(strides) + " point outside the tensor's own bytes";
    std::vector<double> logical(values.size());
    std::vector<std::int64_t> index(sizes.size(), 0);
    for (std::uint64_t i = 0; i < count; ++i) {
        std::int64_t position = 0;
        for (std::size_t d = 0; d < index.size(); ++d)
            position += index[d] * strides[d];
        if (position < 0 || static_cast<std::uint64_t>(position) >= count)
            return "strides " + formatShape(strides) + " point outside the tensor's own bytes";
        logical[i] = values[static_cast<std::size_t>(position)];
        for (std::size_t d = index.size(); d-- > 0;) {
            if (++index[d] < sizes[d])
                break;
            index[d] = 0;
        }
    }
    values = std::move(logical);
    return std::nullopt;
}

} // namespace etscope::core
