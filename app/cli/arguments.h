// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace etscope::app {

/// Minimal, strict argument parsing for the subcommands: `--name value`, `--name=value`,
/// boolean flags, repeatable options and positional arguments. Unknown options are errors.
class Arguments {
public:
    struct Spec {
        std::vector<std::string> flags; ///< options without a value (e.g. "json")
        std::vector<std::string> options; ///< options with a value (e.g. "method")
        std::map<std::string, std::string> shortNames; ///< "o" → "output"
    };

    /// Parses argv[first..]; false with `error()` set on a usage error.
    bool parse(int argc, char** argv, int first, const Spec& spec);

    bool has(const std::string& name) const { return m_values.count(name) > 0; }
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positional() const { return m_positional; }
    const std::string& error() const { return m_error; }

private:
    std::multimap<std::string, std::string> m_values;
    std::vector<std::string> m_positional;
    std::string m_error;
};

} // namespace etscope::app
