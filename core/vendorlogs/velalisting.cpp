// SPDX-License-Identifier: MIT
// The register command stream listing of a Vela log: one line per command (format in velalog.h).
#include "core/vendorlogs/velalog.h"

namespace etscope::core::vendor {

namespace detail {

std::optional<ListedCommand> parseListedCommand(std::string_view text, std::string& why)
{
    text = trim(text);
    const std::size_t colon = text.find(':');
    if (!startsWith(text, "0x") || colon == text.npos) {
        why = "no \"0xOFFSET:\" at its start";
        return std::nullopt;
    }
    const auto offset = parseInteger(text.substr(0, colon));
    if (!offset || *offset < 0 || *offset > 0xFFFFFFFFll) {
        why = "unreadable offset";
        return std::nullopt;
    }
    const std::size_t dash = text.find(" - ", colon);
    if (dash == text.npos) {
        why = "no \" - \" before the command name";
        return std::nullopt;
    }
    ListedCommand command;
    command.offset = static_cast<std::uint32_t>(*offset);
    // Left of " - ": [payload] param code, in hex without prefix.
    const auto hexWords = tokens(text.substr(colon + 1, dash - colon - 1), 4);
    if (hexWords.size() != 2 && hexWords.size() != 3) {
        why = "expected [payload] param code before \" - \"";
        return std::nullopt;
    }
    std::uint64_t values[3] = {};
    for (std::size_t i = 0; i < hexWords.size(); ++i) {
        const auto v = parseInteger("0x" + std::string(hexWords[i]));
        const std::size_t digits = hexWords.size() == 3 && i == 0 ? 8 : 4;
        if (!v || hexWords[i].size() > digits) {
            why = "'" + std::string(hexWords[i]) + "' is not a hex word";
            return std::nullopt;
        }
        values[i] = static_cast<std::uint64_t>(*v);
    }
    if (hexWords.size() == 3)
        command.payload = static_cast<std::uint32_t>(values[0]);
    command.param = static_cast<std::uint16_t>(values[hexWords.size() - 2]);
    command.code = static_cast<std::uint16_t>(values[hexWords.size() - 1]);
    // Right of " - ": NAME PARAM[, field = value, …]
    std::string_view right = trim(text.substr(dash + 3));
    const auto nameAndParam = tokens(right, 2);
    if (nameAndParam.empty()) {
        why = "no command name";
        return std::nullopt;
    }
    command.name = nameAndParam[0];
    const std::size_t comma = right.find(',');
    if (comma != right.npos) {
        std::string_view rest = right.substr(comma + 1);
        while (!trim(rest).empty()) {
            const std::size_t next = rest.find(',');
            const std::string_view item = trim(rest.substr(0, next));
            const std::size_t eq = item.find(" = ");
            if (eq != item.npos)
                command.fields.push_back(
                    { std::string(trim(item.substr(0, eq))), std::string(trim(item.substr(eq + 3))) });
            else if (!item.empty())
                command.fields.push_back({ std::string(item), std::string() });
            if (next == rest.npos)
                break;
            rest.remove_prefix(next + 1);
        }
    }
    return command;
}

} // namespace detail

const ListedField* ListedCommand::field(std::string_view fieldName) const
{
    for (const ListedField& f : fields)
        if (f.name == fieldName)
            return &f;
    return nullptr;
}

std::uint64_t RegisterListing::listedWords() const
{
    std::uint64_t words = 0;
    for (const ListedCommand& c : commands)
        words += c.size() / 4;
    return words;
}

bool RegisterListing::complete() const
{
    return gaps.empty() && announcedWords && listedWords() == *announcedWords;
}

std::vector<std::uint8_t> RegisterListing::bytes() const
{
    std::vector<std::uint8_t> out;
    out.reserve(static_cast<std::size_t>(listedWords()) * 4);
    const auto put = [&](std::uint32_t w) {
        for (int i = 0; i < 4; ++i)
            out.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    };
    for (const ListedCommand& c : commands) {
        if (c.offset != out.size())
            break; // a gap: what follows cannot be placed
        put(c.word());
        if (c.payload)
            put(*c.payload);
    }
    return out;
}

} // namespace etscope::core::vendor
