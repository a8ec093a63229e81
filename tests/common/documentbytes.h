// SPDX-License-Identifier: MIT
#pragma once
// A program held in memory (written by the project's writer) opened as the app opens a file:
// read, delegates described, graphs built. One helper for the fixture tests that had a copy each.

#include "core/document/document.h"
#include "core/pte/program.h"
#include "core/util/mappedfile.h"
#include "tests/common/testsupport.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etscope::test {

/// Nullopt when the bytes are not a program or the analysis fails (the test then fails on it).
inline std::optional<core::Document> documentFromBytes(const std::vector<std::uint8_t>& bytes, const std::string& name)
{
    auto program = core::readProgram(core::MappedFile::fromBytes(name, bytes));
    if (!program)
        return std::nullopt;
    core::Document document;
    document.kind = core::FileKind::Program;
    document.path = name;
    document.program = std::move(*program);
    if (core::analyseDocument(document))
        return std::nullopt;
    return document;
}

/// The same, shared as the UI's controllers hold documents; null on failure.
inline std::shared_ptr<const core::Document> sharedDocumentFromBytes(
    const std::vector<std::uint8_t>& bytes, const std::string& name)
{
    auto document = documentFromBytes(bytes, name);
    return document ? std::make_shared<const core::Document>(std::move(*document)) : nullptr;
}

/// A real sample opened as the app opens it, shared as the UI's controllers hold documents; null
/// when it cannot be opened.
inline std::shared_ptr<const core::Document> sharedSampleDocument(const std::string& relative)
{
    auto document = core::openDocument(samplePath(relative));
    return document ? std::make_shared<const core::Document>(std::move(document).value()) : nullptr;
}

} // namespace etscope::test
