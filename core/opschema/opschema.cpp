// SPDX-License-Identifier: MIT
#include "core/opschema/opschema.h"

#include "core/opschema/schematable.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

namespace etscope::core {

namespace {

struct TypeCode {
    std::string_view code;
    std::string_view name;
};

constexpr std::array kTypeCodes {
    TypeCode { "T", "Tensor" },
    TypeCode { "S", "Scalar" },
    TypeCode { "i", "int" },
    TypeCode { "f", "float" },
    TypeCode { "b", "bool" },
    TypeCode { "str", "str" },
    TypeCode { "dt", "ScalarType" },
    TypeCode { "mf", "MemoryFormat" },
    TypeCode { "lay", "Layout" },
    TypeCode { "dev", "Device" },
    TypeCode { "gen", "Generator" },
};

constexpr std::array<std::string_view, 5> kTypeSuffixes { "", "?", "[]", "[]?", "?[]" };

bool isIdentifier(std::string_view text)
{
    if (text.empty() || (text[0] >= '0' && text[0] <= '9'))
        return false;
    return std::all_of(text.begin(), text.end(),
        [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
}

/// "i[]?" → "int[]?"; empty when the code is not one of the table's.
std::string typeName(std::string_view code)
{
    for (const TypeCode& type : kTypeCodes) {
        if (code.substr(0, type.code.size()) != type.code)
            continue;
        const std::string_view suffix = code.substr(type.code.size());
        if (std::find(kTypeSuffixes.begin(), kTypeSuffixes.end(), suffix) != kTypeSuffixes.end())
            return std::string(type.name) + std::string(suffix);
    }
    return {};
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> result;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
            ++pos;
        const std::size_t start = pos;
        while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t')
            ++pos;
        if (pos > start)
            result.push_back(text.substr(start, pos - start));
    }
    return result;
}

std::string_view normalOverload(std::string_view overload)
{
    return overload.empty() ? "default" : overload;
}

std::string lookupKey(std::string_view name, std::string_view overload)
{
    std::string key(name);
    key += '.';
    key += normalOverload(overload);
    return key;
}

template <typename Each> void forEachTableLine(Each each)
{
    for (std::string_view chunk : opschema_detail::schemaTableText()) {
        while (!chunk.empty()) {
            const std::size_t end = chunk.find('\n');
            each(chunk.substr(0, end));
            chunk.remove_prefix(end == std::string_view::npos ? chunk.size() : end + 1);
        }
    }
}

struct Registry {
    std::vector<OperatorSchema> schemas;
    /// "aten::addmm.out" → indices into schemas, the current schema first, then older variants.
    std::unordered_map<std::string, std::vector<std::size_t>> byName;
    std::vector<std::string> errors;
};

const Registry& registry()
{
    static const Registry instance = [] {
        Registry built;
        forEachTableLine([&](std::string_view line) {
            std::string error;
            std::optional<OperatorSchema> schema = parseOperatorSchemaLine(line, &error);
            if (!schema) {
                if (!error.empty())
                    built.errors.push_back(std::string(trimmed(line)) + ": " + error);
                return;
            }
            built.byName[schema->qualifiedName()].push_back(built.schemas.size());
            built.schemas.push_back(std::move(*schema));
        });
        return built;
    }();
    return instance;
}

} // namespace

std::string OperatorSchema::qualifiedName() const
{
    return name + "." + overload;
}

bool OperatorSchema::hasOutArguments() const
{
    return std::any_of(arguments.begin(), arguments.end(), [](const OperatorArgument& a) { return a.isOut(); });
}

std::size_t OperatorSchema::kernelArgumentCount() const
{
    return arguments.size() + (returns > 0 || hasOutArguments() ? 1 : 0);
}

std::optional<OperatorSchema> parseOperatorSchemaLine(std::string_view line, std::string* error)
{
    const auto fail = [&](std::string message) -> std::optional<OperatorSchema> {
        if (error)
            *error = std::move(message);
        return std::nullopt;
    };
    if (error)
        error->clear();
    line = trimmed(line);
    if (line.empty() || line.front() == '#')
        return std::nullopt;

    const std::vector<std::string_view> tokens = words(line);
    const std::string_view qualified = tokens.front();
    const std::size_t separator = qualified.find("::");
    if (separator == std::string_view::npos || separator == 0)
        return fail("the operator name has no namespace");
    const std::size_t dot = qualified.find('.', separator + 2);
    if (dot == std::string_view::npos)
        return fail("the operator name has no overload (write .default)");
    const std::string_view space = qualified.substr(0, separator);
    const std::string_view base = qualified.substr(separator + 2, dot - separator - 2);
    const std::string_view overload = qualified.substr(dot + 1);
    if (!isIdentifier(space) || !isIdentifier(base) || !isIdentifier(overload))
        return fail("malformed operator name");

    OperatorSchema schema;
    schema.name = std::string(qualified.substr(0, dot));
    schema.overload = std::string(overload);
    bool kwargOnly = false;
    bool returnsGiven = false;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string_view token = tokens[i];
        if (returnsGiven)
            return fail("text after the return count");
        if (token == "*") {
            if (kwargOnly)
                return fail("a second *");
            kwargOnly = true;
            continue;
        }
        if (token.substr(0, 2) == "->") {
            const std::string_view count = token.substr(2);
            if (count.size() != 1 || count[0] < '0' || count[0] > '9')
                return fail("the return count is not one digit");
            schema.returns = count[0] - '0';
            returnsGiven = true;
            continue;
        }
        const std::size_t colon = token.find(':');
        if (colon == std::string_view::npos)
            return fail("argument without a type: " + std::string(token));
        OperatorArgument argument;
        argument.name = std::string(token.substr(0, colon));
        std::string_view code = token.substr(colon + 1);
        if (!code.empty() && code.back() == '!') {
            argument.written = true;
            code.remove_suffix(1);
        }
        if (!isIdentifier(argument.name))
            return fail("malformed argument name: " + std::string(token));
        argument.type = typeName(code);
        if (argument.type.empty())
            return fail("unknown type: " + std::string(token));
        const bool duplicate = std::any_of(schema.arguments.begin(), schema.arguments.end(),
            [&](const OperatorArgument& other) { return other.name == argument.name; });
        if (duplicate)
            return fail("argument named twice: " + argument.name);
        argument.kwargOnly = kwargOnly;
        schema.arguments.push_back(std::move(argument));
    }
    return schema;
}

std::span<const OperatorSchema> operatorSchemas()
{
    return registry().schemas;
}

std::vector<std::string> operatorSchemaTableErrors()
{
    return registry().errors;
}

const OperatorSchema* findSchema(std::string_view name, std::string_view overload)
{
    const Registry& table = registry();
    const auto it = table.byName.find(lookupKey(name, overload));
    return it == table.byName.end() ? nullptr : &table.schemas[it->second.front()];
}

const OperatorSchema* findSchema(std::string_view name, std::string_view overload, std::size_t kernelArgs)
{
    const Registry& table = registry();
    const auto it = table.byName.find(lookupKey(name, overload));
    if (it == table.byName.end())
        return nullptr;
    for (const std::size_t index : it->second) {
        if (table.schemas[index].kernelArgumentCount() == kernelArgs)
            return &table.schemas[index];
    }
    return nullptr;
}

std::vector<std::string> kernelArgumentNames(std::string_view name, std::string_view overload, std::size_t argCount)
{
    const OperatorSchema* schema = findSchema(name, overload, argCount);
    if (!schema)
        return {};
    std::vector<std::string> names;
    names.reserve(argCount);
    for (const OperatorArgument& argument : schema->arguments)
        names.push_back(argument.name);
    if (names.size() < argCount)
        names.emplace_back("return");
    return names;
}

} // namespace etscope::core
