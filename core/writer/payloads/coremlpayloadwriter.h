// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace etscope::core {

/// One file of a Core ML payload's flattened file system; `path` is relative to the root
/// directory ("metadata.json", "model.mlpackage/Manifest.json").
struct CoreMlFileSpec {
    std::string path;
    std::vector<std::uint8_t> content;
};

/// Writes a Core ML delegate payload in the flattened file-system form (facts sheet §3.4): file
/// contents from offset 0 at `alignment`, then, at the next aligned offset, the node table as
/// JSON with its characters reversed. Nodes are listed children before their directory, so the
/// root directory (named `rootName`) is the last node. Core ML has no folder of its own under
/// core/writer; its container writer sits with the other delegate payload writer.
std::vector<std::uint8_t> writeCoreMlPayload(
    const std::vector<CoreMlFileSpec>& files, std::size_t alignment = 16, const std::string& rootName = "root");

/// Writes the multifunction form: "CMJR" then the JSON reference
/// {"version":1,"key":…,"functionName":…}; the model is the named-data blob `key`.
std::vector<std::uint8_t> writeCoreMlReference(const std::string& key, const std::string& functionName);

} // namespace etscope::core
