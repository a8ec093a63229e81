// SPDX-License-Identifier: MIT
#pragma once

// Helpers shared by the writer tests: write with the project's writers, read back with the real
// readers, and compare byte ranges.

#include "core/document/document.h"
#include "core/pte/program.h"
#include "core/util/mappedfile.h"
#include "core/util/result.h"
#include "core/writer/programwriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <span>
#include <string>
#include <vector>

namespace etscope::test {

inline core::Result<core::Program> readBack(
    const std::vector<std::uint8_t>& bytes, const std::string& name = "written.pte")
{
    return core::readProgram(core::MappedFile::fromBytes(name, bytes));
}

inline std::vector<std::uint8_t> rangeBytes(const core::Program& program, const core::ByteRange& range)
{
    const auto span = program.bytes(range);
    return { span.begin(), span.end() };
}

/// A test's scratch directory: paths in it, and programs written there and opened.
class ScratchDir {
public:
    std::string path(const std::string& name) const
    {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }

    /// Writes `spec` as `name` and opens it as the app does.
    core::Result<core::Document> writeAndOpen(const core::ProgramSpec& spec, const std::string& name) const
    {
        auto bytes = core::writeProgram(spec);
        if (!bytes)
            return bytes.error();
        if (auto error = core::writeBytesToFile(path(name), bytes.value()))
            return *error;
        return core::openDocument(path(name));
    }

private:
    QTemporaryDir m_dir;
};

inline std::vector<std::uint8_t> text(const std::string& s)
{
    return { s.begin(), s.end() };
}

} // namespace etscope::test

/// Runs a writer into `var` (its bytes), failing the test with the writer's message.
#define ETSCOPE_WRITE(var, expression)                                                                                 \
    auto var##Written = (expression);                                                                                  \
    QVERIFY2(var##Written.ok(), var##Written.ok() ? "" : var##Written.error().message().c_str());                      \
    const std::vector<std::uint8_t>& var = var##Written.value()

/// Reads `bytes` back as a program into `var`, failing the test with the reader's message.
#define ETSCOPE_READ_BACK(var, bytes)                                                                                  \
    auto var##Result = etscope::test::readBack(bytes);                                                                 \
    QVERIFY2(var##Result.ok(), var##Result.ok() ? "" : var##Result.error().message().c_str());                         \
    const etscope::core::Program& var = var##Result.value()
