// SPDX-License-Identifier: MIT
#include "app/cli/arguments.h"

#include <algorithm>

namespace etscope::app {

bool Arguments::parse(int argc, char** argv, int first, const Spec& spec)
{
    const auto isFlag
        = [&](const std::string& n) { return std::find(spec.flags.begin(), spec.flags.end(), n) != spec.flags.end(); };
    const auto isOption = [&](const std::string& n) {
        return std::find(spec.options.begin(), spec.options.end(), n) != spec.options.end();
    };
    bool onlyPositional = false;
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (onlyPositional || arg.size() < 2 || arg[0] != '-') {
            m_positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            onlyPositional = true;
            continue;
        }
        std::string name;
        std::optional<std::string> inlineValue;
        if (arg.rfind("--", 0) == 0) {
            name = arg.substr(2);
            if (const auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
        } else {
            const auto it = spec.shortNames.find(arg.substr(1));
            if (it == spec.shortNames.end()) {
                m_error = "unknown option '" + arg + "'";
                return false;
            }
            name = it->second;
        }
        if (isFlag(name)) {
            if (inlineValue) {
                m_error = "option '--" + name + "' takes no value";
                return false;
            }
            m_values.emplace(name, "");
        } else if (isOption(name)) {
            if (!inlineValue) {
                if (i + 1 >= argc) {
                    m_error = "option '--" + name + "' needs a value";
                    return false;
                }
                inlineValue = argv[++i];
            }
            m_values.emplace(name, *inlineValue);
        } else {
            m_error = "unknown option '" + arg + "'";
            return false;
        }
    }
    return true;
}

std::string Arguments::value(const std::string& name, const std::string& fallback) const
{
    const auto range = m_values.equal_range(name);
    if (range.first == range.second)
        return fallback;
    return std::prev(range.second)->second;
}

std::vector<std::string> Arguments::values(const std::string& name) const
{
    std::vector<std::string> result;
    const auto range = m_values.equal_range(name);
    for (auto it = range.first; it != range.second; ++it)
        result.push_back(it->second);
    return result;
}

} // namespace etscope::app
