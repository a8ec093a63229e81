// SPDX-License-Identifier: MIT
#pragma once
// A program, one ETDump run of it and optionally its ETRecord, held in memory for an
// EventMapper: what the gap tests (two builds, stages) open for each side. One helper for the
// tests that had a copy each.

#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/debug/eventmapper.h"
#include "core/util/mappedfile.h"
#include "core/util/result.h"
#include "core/writer/debug/gapfixtures.h"
#include "core/writer/programwriter.h"
#include "tests/common/documentbytes.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etscope::test {

/// The program's first method, its run (debug buffer attached) and the mapper of the run's
/// events on that method's graph (through the ETRecord when there is one).
struct OpenedRun {
    std::optional<core::Document> document;
    std::optional<core::ETDump> dump;
    std::optional<core::ETRecord> record;
    const core::Method* method = nullptr;
    std::unique_ptr<core::EventMapper> mapper;
};

/// `name` names the files in messages: NAME.pte, NAME.etdp, NAME.bin, NAME.etrecord. An empty
/// `etrecord` opens without one.
inline core::Result<std::unique_ptr<OpenedRun>> openRun(const std::vector<std::uint8_t>& program,
    const std::vector<std::uint8_t>& etdump, const std::vector<std::uint8_t>& buffer,
    const std::vector<std::uint8_t>& etrecord, const std::string& name)
{
    auto o = std::make_unique<OpenedRun>();
    o->document = documentFromBytes(program, name + ".pte");
    if (!o->document)
        return core::makeError(core::Error::Code::Corrupt, name + ".pte", "the written program does not open");
    auto dump = core::readETDump(core::MappedFile::fromBytes(name + ".etdp", etdump));
    if (!dump)
        return dump.error();
    o->dump = std::move(dump).value();
    core::attachDebugBuffer(*o->dump, core::MappedFile::fromBytes(name + ".bin", buffer));
    if (!etrecord.empty()) {
        auto record = core::readETRecord(core::MappedFile::fromBytes(name + ".etrecord", etrecord));
        if (!record)
            return record.error();
        o->record = std::move(record).value();
    }
    o->method = &o->document->program->methods.front();
    o->mapper = std::make_unique<core::EventMapper>(
        *o->document->analysis(*o->method)->graph, o->record ? &*o->record : nullptr, o->method->name);
    return o;
}

/// A build of the gap fixtures (core/writer/debug/gapfixtures.h), its ETRecord when `withRecord`.
inline core::Result<std::unique_ptr<OpenedRun>> openRun(
    const core::GapBuild& build, const std::string& name, bool withRecord)
{
    const auto program = core::writeProgram(build.program);
    if (!program)
        return program.error();
    return openRun(program.value(), build.etdump, build.debugBuffer,
        withRecord ? build.etrecord : std::vector<std::uint8_t> {}, name);
}

/// True when one of `warnings` says `text`.
inline bool anyWarning(const std::vector<core::Warning>& warnings, const std::string& text)
{
    for (const core::Warning& w : warnings)
        if (w.message.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace etscope::test
