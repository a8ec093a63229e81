// SPDX-License-Identifier: MIT
#include "core/pte/bundledprogram.h"
#include "core/pte/verify.h"
#include "core/util/guard.h"

#include "bundled_program_generated.h"
#include "core/util/text.h"

#include <cctype>
#include <cstring>

namespace etscope::core {
namespace fbb = etscope::fb::bundled;

namespace {

BundledValue decodeValue(const fbb::Value* value, const std::uint8_t* fileBase)
{
    BundledValue out;
    // A tag without its table (the Verifier lets it pass) reads as an unknown value.
    if (!value || !value->val())
        return out;
    switch (value->val_type()) {
    case fbb::ValueUnion::TensorValue: {
        const auto* tensor = value->val_as_TensorValue();
        out.kind = BundledValue::Kind::Tensor;
        out.scalarType = tensor->scalar_type();
        if (tensor->sizes())
            out.sizes.assign(tensor->sizes()->begin(), tensor->sizes()->end());
        if (tensor->dim_order())
            out.dimOrder.assign(tensor->dim_order()->begin(), tensor->dim_order()->end());
        if (tensor->data())
            out.data = { static_cast<std::uint64_t>(tensor->data()->data() - fileBase), tensor->data()->size() };
        break;
    }
    case fbb::ValueUnion::IntValue:
        out.kind = BundledValue::Kind::Int;
        out.intValue = value->val_as_IntValue()->int_val();
        break;
    case fbb::ValueUnion::BoolValue:
        out.kind = BundledValue::Kind::Bool;
        out.boolValue = value->val_as_BoolValue()->bool_val();
        break;
    case fbb::ValueUnion::DoubleValue:
        out.kind = BundledValue::Kind::Double;
        out.doubleValue = value->val_as_DoubleValue()->double_val();
        break;
    default:
        break;
    }
    return out;
}

} // namespace

static Result<BundledProgram> readBundledProgramUnguarded(const std::shared_ptr<const MappedFile>& file)
{
    const std::string& path = file->path();
    const auto bytes = file->bytes();
    if (bytes.size() < 16)
        return makeError(Error::Code::Truncated, path,
            "too small to be a bundled program (" + std::to_string(bytes.size()) + " bytes)");
    const std::string identifier(reinterpret_cast<const char*>(bytes.data() + 4), 4);
    if (identifier != "BP08") {
        if (identifier[0] == 'B' && identifier[1] == 'P' && std::isalnum(static_cast<unsigned char>(identifier[2]))
            && std::isalnum(static_cast<unsigned char>(identifier[3])))
            return makeError(Error::Code::UnsupportedVersion, path,
                "unsupported bundled program version '" + identifier + "' (this build reads BP08)", 4);
        return makeError(Error::Code::BadIdentifier, path,
            "not a bundled program: the identifier is " + magicText(bytes.subspan(4, 4)) + ", expected 'BP08'", 4);
    }
    if (!verifyFlatbuffer<fbb::BundledProgram>(bytes.data(), bytes.size(), fbb::BundledProgramIdentifier(), false))
        return makeError(Error::Code::Verifier, path, "the FlatBuffers verifier rejected the bundled program");
    const auto* root = fbb::GetBundledProgram(bytes.data());
    const auto* programBytes = root->program();
    if (!programBytes || programBytes->size() == 0)
        return makeError(Error::Code::Corrupt, path, "the bundled program contains no program");

    const ByteRange region { static_cast<std::uint64_t>(programBytes->data() - bytes.data()), programBytes->size() };
    auto program = readProgram(file, region);
    if (!program) {
        Error error = program.error();
        error.reason = "embedded program: " + error.reason;
        return error;
    }

    BundledProgram bundled;
    bundled.version = root->version();
    bundled.program = std::move(program).value();
    if (const auto* suites = root->method_test_suites()) {
        for (const auto* suite : *suites) {
            if (!suite)
                continue;
            BundledTestSuite decoded;
            decoded.methodName = suite->method_name() ? suite->method_name()->str() : std::string();
            if (const auto* cases = suite->test_cases()) {
                for (const auto* testCase : *cases) {
                    BundledTestCase decodedCase;
                    if (testCase && testCase->inputs())
                        for (const auto* value : *testCase->inputs())
                            decodedCase.inputs.push_back(decodeValue(value, bytes.data()));
                    if (testCase && testCase->expected_outputs())
                        for (const auto* value : *testCase->expected_outputs())
                            decodedCase.expectedOutputs.push_back(decodeValue(value, bytes.data()));
                    decoded.cases.push_back(std::move(decodedCase));
                }
            }
            if (!bundled.program.method(decoded.methodName))
                bundled.program.warnings.push_back(
                    { "test suite names method '" + decoded.methodName + "', which the program does not have",
                        std::nullopt });
            bundled.suites.push_back(std::move(decoded));
        }
    }
    return bundled;
}

Result<BundledProgram> readBundledProgram(std::shared_ptr<const MappedFile> file)
{
    return guardedRead<BundledProgram>(
        file->path(), "the bundled program", [&] { return readBundledProgramUnguarded(file); });
}

} // namespace etscope::core
