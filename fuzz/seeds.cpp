// SPDX-License-Identifier: MIT
// etscope-fuzz-seeds SAMPLES_DIR OUT_DIR: writes the seed corpora of the fuzz targets, one
// directory per target, from the real samples (read in place, recognised by their magic, never
// copied into the source tree) plus a few synthetic inputs for formats no sample has.
// Program-like samples also give up their delegate payloads, one directory per format.
#include "core/debug/etrecord.h"
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/pte/bundledprogram.h"
#include "core/pte/program.h"
#include "core/util/mappedfile.h"
#include "core/util/text.h"
#include "core/util/ziparchive.h"
#include "core/writer/payloads/ethosupayloadwriter.h"
#include "core/writer/payloads/tosapayloadwriter.h"
#include "core/writer/payloads/vgfpayloadwriter.h"
#include "core/writer/vendorlogwriter.h"
#include "fuzz/fuzzsupport.h"
#include "fuzz/seedwriter.h"
#include "fuzz/syntheticseeds.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace etscope::core;
using etscope::fuzz::SeedWriter;
namespace fs = std::filesystem;

// Every corpus a target reads, created even when empty (libFuzzer refuses a missing one).
constexpr const char* kCorpora[] = { "program", "bpte", "ptd", "etdump", "etrecord", "etrecordjson", "inspector",
    "xnnpack", "vulkan", "delegates", "kernellist", "ethosu", "qnn", "tosa", "vgf", "coreml", "mlx", "nativegraph",
    "compilespecs", "partitionlog" };

/// The compile specs fuzz/compilespecs.cpp reads, in the order of its kSpecs: the seed's first
/// byte is the index, so a sample's spec reaches the same reader.
constexpr std::pair<const char*, const char*> kCompileSpecs[] = {
    { "QnnBackend", "qnn_compile_spec" },
    { "CoreMLBackend", "min_deployment_target" },
    { "CoreMLBackend", "compute_units" },
    { "CoreMLBackend", "model_compute_precision" },
    { "EthosUBackend", "target" },
    { "EthosUBackend", "compile_flags" },
    { "EthosUBackend", "tosa_spec" },
    { "VgfBackend", "target" },
    { "VgfBackend", "compile_flags" },
};

/// Each compile spec of a sample that names a target, as a `compilespecs` seed (selector byte, value).
void writeCompileSpecSeeds(SeedWriter& out, const Program& program, const std::string& name)
{
    for (const Method& method : program.methods)
        for (std::size_t d = 0; d < method.delegates.size(); ++d)
            for (const CompileSpec& spec : method.delegates[d].compileSpecs)
                for (std::size_t k = 0; k < std::size(kCompileSpecs); ++k) {
                    if (method.delegates[d].backendId != kCompileSpecs[k].first || spec.key != kCompileSpecs[k].second)
                        continue;
                    std::vector<std::uint8_t> seed { static_cast<std::uint8_t>(k) };
                    seed.insert(seed.end(), spec.value.begin(), spec.value.end());
                    out.write(
                        "compilespecs", name + "." + method.name + "." + std::to_string(d) + "." + spec.key, seed);
                }
}

void writeDelegatePayloads(SeedWriter& out, const Program& program, const std::string& name)
{
    for (const Method& method : program.methods) {
        for (std::size_t d = 0; d < method.delegates.size(); ++d) {
            const DelegateRef& ref = method.delegates[d];
            const auto payload = program.bytes(ref.payload);
            if (payload.empty())
                continue;
            // The decoder that recognised it knows best (a renamed backend); else the backend id.
            const DelegateInfo info = describeDelegate(program, ref, {}, "seed");
            const std::string_view format = info.format != "opaque" ? std::string_view(info.format)
                                                                    : etscope::fuzz::formatOfBackend(ref.backendId);
            if (!format.empty())
                etscope::fuzz::writePayloadSeed(
                    out, format, name + "." + method.name + "." + std::to_string(d), payload);
            // The Ethos-U payloads also seed their own target (its corpus is named `ethosu`).
            if (format == "ethos-u")
                out.write("ethosu", name + "." + method.name + "." + std::to_string(d), payload);
        }
    }
}

/// The entry's pick in kETRecordJsonEntries: its own name, else one of the same role.
std::optional<std::uint8_t> etrecordJsonSelector(const ETRecordEntry& entry)
{
    const auto& names = etscope::fuzz::kETRecordJsonEntries;
    auto it = std::find(names.begin(), names.end(), entry.name);
    if (it == names.end() && entry.role == "edge_program")
        it = std::find(names.begin(), names.end(), "edge_dialect_exported_program/forward");
    if (it == names.end() && entry.role == "graph")
        it = std::find(names.begin(), names.end(), "edge_after_transform/forward");
    if (it == names.end())
        return std::nullopt;
    return static_cast<std::uint8_t>(it - names.begin());
}

/// The ETRecord's JSON entries as `etrecordjson` seeds: one per entry, and all of them together
/// after the synthetic maps (which come first so that they win over a sample's empty maps).
void writeETRecordParts(SeedWriter& out, const std::shared_ptr<const MappedFile>& file, const std::string& name)
{
    auto record = readETRecord(file);
    auto archive = ZipArchive::open(file);
    if (!record || !archive)
        return;
    std::vector<std::uint8_t> all = etscope::fuzz::syntheticETRecordMaps();
    for (const ETRecordEntry& entry : record->entries) {
        const auto selector = etrecordJsonSelector(entry);
        const ZipEntry* zipEntry = archive->find(entry.name);
        if (!selector || !zipEntry)
            continue;
        auto text = archive->read(*zipEntry);
        if (!text)
            continue;
        std::vector<std::uint8_t> part { *selector };
        part.insert(part.end(), text->begin(), text->end());
        std::string entryName = entry.name;
        std::replace(entryName.begin(), entryName.end(), '/', '_');
        out.write("etrecordjson", name + "." + entryName, part);
        all.push_back(etscope::fuzz::kPartSeparator);
        all.insert(all.end(), part.begin(), part.end());
    }
    out.write("etrecordjson", name + ".all", all);
    etscope::fuzz::writeETRecordArchiveSeed(out, name + ".all.zip", all);
}

/// A size-prefixed ETDump followed by its debug buffer: the `etdump` target's input form.
void writeETDumpWithBuffer(SeedWriter& out, const MappedFile& dump, const fs::path& dumpPath, const std::string& name)
{
    const auto bytes = dump.bytes();
    const fs::path bufferPath = defaultDebugBufferPath(dumpPath.string());
    std::error_code ec;
    if (bytes.size() < 12 || std::memcmp(bytes.data() + 8, "ED00", 4) != 0 || !fs::is_regular_file(bufferPath, ec))
        return;
    const std::uint64_t dumpEnd = 4 + static_cast<std::uint64_t>(readLe32(bytes.data()));
    auto buffer = MappedFile::open(bufferPath.string());
    if (dumpEnd > bytes.size() || !buffer)
        return;
    std::vector<std::uint8_t> seed(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(dumpEnd));
    const auto tail = buffer.value()->bytes();
    seed.insert(seed.end(), tail.begin(), tail.end());
    out.write("etdump", name + "+debug", seed);
}

void writeSampleSeeds(SeedWriter& out, const fs::path& path, const std::string& name)
{
    auto file = MappedFile::open(path.string());
    if (!file)
        return;
    const auto bytes = file.value()->bytes();
    switch (detectFileKind(bytes)) {
    case FileKind::Program:
        out.write("program", name, bytes);
        if (auto program = readProgram(file.value())) {
            writeDelegatePayloads(out, program.value(), name);
            writeCompileSpecSeeds(out, program.value(), name);
        }
        break;
    case FileKind::BundledProgram:
        out.write("bpte", name, bytes);
        if (auto bundled = readBundledProgram(file.value())) {
            // The embedded program on its own is a program seed too.
            out.write("program", name + ".program", bundled->program.bytes(bundled->program.region));
            writeDelegatePayloads(out, bundled->program, name);
            writeCompileSpecSeeds(out, bundled->program, name);
        }
        break;
    case FileKind::ExternalData:
        out.write("ptd", name, bytes);
        break;
    case FileKind::ETDump:
        out.write("etdump", name, bytes);
        writeETDumpWithBuffer(out, *file.value(), path, name);
        break;
    case FileKind::ETRecord:
        out.write("etrecord", name, bytes);
        writeETRecordParts(out, file.value(), name);
        break;
    case FileKind::Unknown:
        // Damaged programs (corrupt.pte) are worth starting from too.
        if (path.extension() == ".pte")
            out.write("program", name, bytes);
        // TOSA side files (identifier TOSA at byte 4), as Arm's flow writes them beside programs.
        if (bytes.size() >= 8 && std::memcmp(bytes.data() + 4, "TOSA", 4) == 0)
            out.write("tosa", name, bytes);
        break;
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: etscope-fuzz-seeds SAMPLES_DIR OUT_DIR\n";
        return 2;
    }
    // ETSCOPE_SAMPLES_DIR in the environment points one build at another sample folder.
    const char* fromEnvironment = std::getenv("ETSCOPE_SAMPLES_DIR");
    const fs::path samples = fromEnvironment != nullptr && *fromEnvironment != '\0' ? fromEnvironment : argv[1];
    std::error_code ec;
    // Without the samples the fuzzers still get the project's own synthetic seeds; only CI
    // (ETSCOPE_REQUIRE_SAMPLES=1) insists on the real ones.
    const bool haveSamples = fs::is_directory(samples, ec);
    if (!haveSamples) {
        const char* required = std::getenv("ETSCOPE_REQUIRE_SAMPLES");
        if (required != nullptr && std::string(required) == "1") {
            std::cerr << "etscope-fuzz-seeds: " << samples << " is not a directory (tools/fetch-samples fetches it)\n";
            return 1;
        }
        std::cout << "etscope-fuzz-seeds: " << samples
                  << " is not a directory: synthetic seeds only (tools/fetch-samples fetches the real ones)\n";
    }
    SeedWriter out(argv[2]);
    for (const char* corpus : kCorpora)
        out.ensure(corpus);

    std::vector<fs::path> files;
    if (haveSamples)
        for (const auto& entry : fs::recursive_directory_iterator(samples, ec))
            if (entry.is_regular_file())
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
        std::string name = fs::relative(path, samples).string();
        std::replace(name.begin(), name.end(), '/', '_');
        writeSampleSeeds(out, path, name);
    }
    etscope::fuzz::writeSyntheticSeeds(out);
    // Vendor logs (issue 34): the real Vela and runner logs, and writer-made ones with a listing,
    // a table and a summary, a per-layer CSV and a runner report with ET_LOG prefixes.
    out.ensure("velalog");
    out.ensure("runlog");
    for (const auto& [corpus, relative] :
        { std::pair { "velalog", "modelnova/rps_model_conversion_20260219_041725.log" },
            std::pair { "velalog", "cmsis-executorch/model_conversion_20251126_091256.log" },
            std::pair { "runlog", "tinycnn/fvp_e84_final_compare.log" } })
        if (haveSamples)
            if (auto file = MappedFile::open((samples / relative).string()))
                out.write(corpus, fs::path(relative).filename().string(), (*file)->bytes());
    {
        VelaLogSpec vela;
        VelaRowSpec conv;
        conv.opCycles = conv.npuCycles = 500;
        conv.macs = 9216;
        VelaRowSpec clamp = conv;
        clamp.nngOperator = clamp.originalOperator = "Clamp";
        vela.rows = { conv, clamp };
        vela.listing = { { 0x00010105, std::nullopt, "NPU_SET_IFM_PRECISION",
                             "activation_type = ACTIVATION_TYPE_SIGNED", "Conv2D , subOps: Clamp, size=3,3" },
            { 0x00004000, 0xc4000u, "NPU_SET_IFM_BASE0", "addr = 0xc4000", "" },
            { 0x00000002, std::nullopt, "NPU_OP_CONV", "", "" },
            { 0xffff0000, std::nullopt, "NPU_OP_STOP", "mask = 65535", "" } };
        out.write("velalog", "synthetic.log", writeVelaLog(vela));
        out.write("velalog", "synthetic_per-layer.csv", writeVelaPerLayerCsv(vela));
        RunLogSpec run;
        run.programSize = 1000;
        run.npuCycles = 2000;
        run.counters = { 1, 2, 3, 4 };
        run.events = { "ETHOSU_PMU_AXI0_RD_DATA_BEAT_RECEIVED", "ETHOSU_PMU_NPU_IDLE" };
        run.etLogPrefix = true;
        out.write("runlog", "synthetic.log", writeRunLog(run));
    }
    // Ethos-U payloads from the project's writer: U55 and U85 streams, clean and with an unknown
    // command (the samples have no U85 resize and no unknown command).
    out.write("ethosu", "synthetic.u55", writeEthosUPayload(ethosUFixtureU55()));
    out.write("ethosu", "synthetic.u55.unknown", writeEthosUPayload(ethosUFixtureU55(true)));
    out.write("ethosu", "synthetic.u85", writeEthosUPayload(ethosUFixtureU85()));
    out.write("ethosu", "synthetic.u85.unknown", writeEthosUPayload(ethosUFixtureU85(true)));
    // The project's own TOSA and VGF fixtures: small, so mutations reach every table quickly.
    out.write("tosa", "synthetic.conv_add_rescale", smallTosaGraph().write());
    out.write("vgf", "synthetic.graph", writeSmallVgf());
    out.write("vgf", "synthetic.legacy_constants", writeSmallVgf({ .legacyConstants = true }));
    out.write("vgf", "synthetic.compute", writeSmallVgf({ .computeModule = true }));

    for (const auto& [corpus, count] : out.counts())
        std::cout << corpus << ": " << count << " seed(s)\n";
    return 0;
}
