// SPDX-License-Identifier: MIT
#include "core/fullreport/report.h"

#include <algorithm>
#include <cctype>

namespace etscope::core {

std::string reportFormatFor(const std::string& path)
{
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos)
        return {};
    std::string extension = path.substr(dot + 1);
    std::transform(extension.begin(), extension.end(), extension.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == "html" || extension == "htm")
        return "html";
    if (extension == "md" || extension == "markdown")
        return "md";
    if (extension == "pdf")
        return "pdf";
    return {};
}

} // namespace etscope::core
