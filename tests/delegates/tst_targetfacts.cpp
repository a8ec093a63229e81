// SPDX-License-Identifier: MIT
// What a delegate was built for (issue 33): the TargetFacts read from compile specs and payload
// headers, on the real samples (every value read by hand off the bytes with xxd; offsets in the
// comments) and on fixtures, damaged ones included.
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "core/writer/programwriter.h"
#include "tests/common/documentbytes.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <algorithm>

using namespace etscope::core;

namespace {

/// A target fact's value, or a text naming the missing key (so a QCOMPARE shows it).
std::string value(const DelegateInfo& info, const std::string& key)
{
    const TargetFact* fact = findTarget(info, key);
    return fact ? fact->value : "(no target '" + key + "')";
}

std::optional<std::int64_t> number(const DelegateInfo& info, const std::string& key)
{
    const TargetFact* fact = findTarget(info, key);
    return fact ? fact->number : std::nullopt;
}

std::string source(const DelegateInfo& info, const std::string& key)
{
    const TargetFact* fact = findTarget(info, key);
    return fact ? fact->source : std::string();
}

std::vector<DelegateInfo> delegatesOf(const std::string& sample)
{
    std::vector<DelegateInfo> out;
    auto document = openDocument(etscope::test::samplePath(sample));
    if (!document)
        return out;
    for (const Method& method : document->program->methods)
        for (const DelegateInfo& info : document->analysis(method)->delegates)
            out.push_back(info);
    return out;
}

CompileSpec textSpec(const std::string& key, const std::string& text)
{
    return { key, std::vector<std::uint8_t>(text.begin(), text.end()) };
}

DelegateInfo describeSpecs(const std::string& backend, std::vector<CompileSpec> specs)
{
    DelegateRef ref;
    ref.backendId = backend;
    ref.compileSpecs = std::move(specs);
    // Not a payload of any backend: only the compile specs can say anything.
    return etscope::test::describeAlone(std::vector<std::uint8_t>(16, 0xEE), ref);
}

bool warnedAbout(const DelegateInfo& info, std::initializer_list<const char*> words)
{
    return std::any_of(info.warnings.begin(), info.warnings.end(), [&](const Warning& w) {
        return std::all_of(
            words.begin(), words.end(), [&](const char* word) { return w.message.find(word) != std::string::npos; });
    });
}

} // namespace

class TestTargetFacts : public QObject {
    Q_OBJECT
private slots:
    void qnnSample()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto delegates = delegatesOf("executorch/stories260k_hybrid_llama_qnn.pte");
        QCOMPARE(delegates.size(), std::size_t(2));
        for (const DelegateInfo& info : delegates) {
            // The compile spec (200 bytes, decoded by hand in tst_qnncompilespec): SocInfo{57,
            // HtpInfo{75, 8}}, backend 2 (HTP), performance 2 (burst), precision 0 (quantized).
            QCOMPARE(value(info, "qnn.soc_model"), std::string("SM8650 (57)"));
            QCOMPARE(number(info, "qnn.soc_model"), std::optional<std::int64_t>(57));
            QCOMPARE(value(info, "qnn.htp_arch"), std::string("v75"));
            QCOMPARE(number(info, "qnn.vtcm_mb"), std::optional<std::int64_t>(8));
            QCOMPARE(value(info, "qnn.backend"), std::string("htp backend (kHtpBackend)"));
            QCOMPARE(value(info, "qnn.precision"), std::string("quantized (kHtpQuantized)"));
            QCOMPARE(value(info, "qnn.performance_mode"), std::string("burst (kHtpBurst)"));
            QCOMPARE(value(info, "qnn.shared_buffer"), std::string("no"));
            // The QNN payload starts at file offset 18688 (magic cd ab 78 56), its context
            // binary at 18944. The metadata's build id is at 27176:
            // "v2.37.0.250724175447_124859" (xxd -s 27176 -l 27).
            QCOMPARE(value(info, "qnn.sdk_build_id"), std::string("v2.37.0.250724175447_124859"));
            QCOMPARE(value(info, "qnn.sdk_version"), std::string("2.37.0"));
            QCOMPARE(number(info, "qnn.context_soc_model"), std::optional<std::int64_t>(57));
            // The HTP configuration string of the first graph runs from 187158 to 195128
            // (printable; 187157 is 0x07). Entries found with grep -boa, value offsets after "=":
            // ";min_arch=75;" at 187656 (value 187665), ";vtcm_size=8388608;" at 187992 (value
            // 188002), ";vtcm_mb=4;" at 188021 (value 188029), ";soc_type=SM8650;" at 193997
            // (value 194006), ";num_nsps=1;" at 194013 (value 194022), ";hvx_threads=4;" at
            // 194273 (value 194285), ";hmx_type=fg;" at 194301 (value 194310).
            QCOMPARE(value(info, "qnn.min_arch"), std::string("v75 (75)"));
            QCOMPARE(number(info, "qnn.min_arch"), std::optional<std::int64_t>(75));
            QVERIFY2(
                source(info, "qnn.min_arch").ends_with("file offset 187665"), source(info, "qnn.min_arch").c_str());
            QCOMPARE(number(info, "qnn.vtcm_bytes"), std::optional<std::int64_t>(8388608));
            QCOMPARE(value(info, "qnn.vtcm_bytes"), std::string("8.0 MiB (8388608 bytes)"));
            QVERIFY(source(info, "qnn.vtcm_bytes").ends_with("file offset 188002"));
            QCOMPARE(number(info, "qnn.config_vtcm_mb"), std::optional<std::int64_t>(4));
            QVERIFY(source(info, "qnn.config_vtcm_mb").ends_with("file offset 188029"));
            QCOMPARE(value(info, "qnn.soc_type"), std::string("SM8650"));
            QVERIFY(source(info, "qnn.soc_type").ends_with("file offset 194006"));
            QCOMPARE(number(info, "qnn.num_nsps"), std::optional<std::int64_t>(1));
            QCOMPARE(number(info, "qnn.hvx_threads"), std::optional<std::int64_t>(4));
            QVERIFY(source(info, "qnn.hvx_threads").ends_with("file offset 194285"));
            QCOMPARE(value(info, "qnn.hmx_type"), std::string("fg"));
            // The compile spec's facts come first: what was asked, then what the binary says.
            QCOMPARE(info.target.front().key, std::string("qnn.soc_model"));
            QVERIFY(info.warnings.empty());
        }
    }

    void coreMlSample()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto delegates = delegatesOf("react-native-executorch/style_candy_640_coreml.pte");
        QCOMPARE(delegates.size(), std::size_t(1));
        const DelegateInfo& info = delegates.front();
        // Compile spec values (xxd -s 300 -l 200): "model" at 304, "float16" at 344, "6" at
        // 396, "all" at 444. coremltools target 6 is _SPECIFICATION_VERSION_IOS_15.
        QCOMPARE(value(info, "coreml.min_deployment_target"),
            std::string("iOS 15, macOS 12, watchOS 8, tvOS 15 (coremltools target 6)"));
        QCOMPARE(number(info, "coreml.min_deployment_target"), std::optional<std::int64_t>(6));
        QCOMPARE(value(info, "coreml.compute_units"), std::string("all (CPU, GPU and Neural Engine)"));
        QCOMPARE(value(info, "coreml.compute_precision"), std::string("float16"));
        QCOMPARE(value(info, "coreml.model_type"), std::string("model"));
        // The payload starts at 4096; its file table puts model.mlmodel at payload offset 128,
        // so file offset 4224, whose first bytes are 08 06: field 1 (specificationVersion) = 6.
        QCOMPARE(number(info, "coreml.spec_version"), std::optional<std::int64_t>(6));
        QCOMPARE(
            value(info, "coreml.spec_version"), std::string("6 (needs iOS 15, macOS 12, watchOS 8, tvOS 15 or later)"));
    }

    void ethosUSamples()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto u55 = delegatesOf("tinycnn/tinycnn_u55.pte");
        QCOMPARE(u55.size(), std::size_t(1));
        const DelegateInfo& a = u55.front();
        // Compile specs (xxd -s 29700 -l 600): target "ethos-u55-128", compile_flags
        // "--accelerator-config=ethos-u55-128 --config=Arm/vela.ini --output-format=raw
        // --system-config=Ethos_U55_High_End_Embedded --memory-mode=Shared_Sram" at 0x7568,
        // tosa_spec "TOSA-1.0+INT+int16+int4+u55" at 0x7620.
        QCOMPARE(value(a, "ethosu.npu"), std::string("Ethos-U55"));
        QCOMPARE(number(a, "ethosu.macs"), std::optional<std::int64_t>(128));
        QCOMPARE(value(a, "ethosu.accelerator_config"), std::string("ethos-u55-128"));
        QCOMPARE(value(a, "ethosu.system_config"), std::string("Ethos_U55_High_End_Embedded"));
        QCOMPARE(value(a, "ethosu.memory_mode"), std::string("Shared_Sram"));
        QCOMPARE(value(a, "ethosu.vela_config_file"), std::string("Arm/vela.ini"));
        QCOMPARE(value(a, "ethosu.vela_flags"), std::string("--output-format=raw"));
        QCOMPARE(value(a, "arm.tosa_spec"), std::string("TOSA-1.0+INT+int16+int4+u55"));
        // COP1 at 176 (xxd -s 176 -l 16: 434f5031 01001000 07180000 01600610): action word
        // 0x00100001, CONFIG 0x00001807 (product 0 = U55, macs 2^7, cmd stream version 0,
        // SHRAM 0x18 = 24 KiB), ID 0x10066001 (architecture 1.0.6).
        QCOMPARE(value(a, "ethosu.stream_npu"), std::string("Ethos-U55"));
        QCOMPARE(number(a, "ethosu.stream_macs"), std::optional<std::int64_t>(128));
        QCOMPARE(number(a, "ethosu.shram_kib"), std::optional<std::int64_t>(24));
        QCOMPARE(number(a, "ethosu.cmd_stream_version"), std::optional<std::int64_t>(0));
        QCOMPARE(value(a, "ethosu.arch_version"), std::string("1.0.6"));

        auto u85 = delegatesOf("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        QCOMPARE(u85.size(), std::size_t(2));
        for (const DelegateInfo& b : u85) {
            // Compile flags at 0x1dc: "--output-format=raw --accelerator-config=ethos-u85-256
            // --config=Arm/vela.ini --output-format=raw --debug-force-regor
            // --system-config=Ethos_U85_SYS_DRAM_Mid --memory-mode=Shared_Sram".
            QCOMPARE(value(b, "ethosu.npu"), std::string("Ethos-U85"));
            QCOMPARE(number(b, "ethosu.macs"), std::optional<std::int64_t>(256));
            QCOMPARE(value(b, "ethosu.system_config"), std::string("Ethos_U85_SYS_DRAM_Mid"));
            // COP1 at 4288 and 2327104 (xxd: 434f5031 01001000 18010020 00700020): CONFIG
            // 0x20000118 (product 2 = U85, 2^8 MACs, cmd stream version 1), ID 0x20007000.
            QCOMPARE(value(b, "ethosu.stream_npu"), std::string("Ethos-U85"));
            QCOMPARE(number(b, "ethosu.stream_macs"), std::optional<std::int64_t>(256));
            QCOMPARE(number(b, "ethosu.cmd_stream_version"), std::optional<std::int64_t>(1));
            QCOMPARE(value(b, "ethosu.arch_version"), std::string("2.0.0"));
            QVERIFY(!findTarget(b, "ethosu.shram_kib")); // U85 has no SHRAM field
        }
    }

    void damagedCoreMlSpecsWarnAndKeepTheRest()
    {
        const DelegateInfo info = describeSpecs("CoreMLBackend",
            { textSpec("min_deployment_target", "six"), textSpec("compute_units", "cpu_and_ne"),
                textSpec("model_compute_precision", "float8") });
        QVERIFY(!findTarget(info, "coreml.min_deployment_target"));
        QVERIFY(warnedAbout(info, { "CoreMLBackend", "min_deployment_target", "'six'", "byte 0 of its value" }));
        QCOMPARE(value(info, "coreml.compute_units"), std::string("cpu_and_ne (CPU and Neural Engine)"));
        QVERIFY(warnedAbout(info, { "model_compute_precision", "'float8'" }));
        // A number coremltools 8 does not name: shown as a number, with a warning.
        const DelegateInfo later = describeSpecs("CoreMLBackend", { textSpec("min_deployment_target", "12") });
        QCOMPARE(value(later, "coreml.min_deployment_target"),
            std::string("unknown to coremltools 8 (coremltools target 12)"));
        QVERIFY(warnedAbout(later, { "names no OS version" }));
        // Empty: none given, no warning.
        const DelegateInfo none = describeSpecs("CoreMLBackend", { textSpec("min_deployment_target", "") });
        QVERIFY(value(none, "coreml.min_deployment_target").starts_with("none given"));
        QVERIFY(none.warnings.size() == describeSpecs("CoreMLBackend", {}).warnings.size());
    }

    void damagedArmSpecs()
    {
        std::vector<std::uint8_t> binary { 'e', 't', 0x00, 0xFF };
        const DelegateInfo info = describeSpecs("EthosUBackend",
            { { "target", binary }, textSpec("compile_flags", "--system-config= --memory-mode=Dedicated_Sram") });
        QVERIFY(warnedAbout(info, { "EthosUBackend", "compile spec target", "not text" }));
        // "--system-config=" has no value: byte 0 of the flags.
        QVERIFY(warnedAbout(info, { "compile spec compile_flags", "--system-config has no value", "byte 0" }));
        QCOMPARE(value(info, "ethosu.memory_mode"), std::string("Dedicated_Sram"));
        // A target that is not ethos-uNN-MMM is kept as text.
        const DelegateInfo other
            = describeSpecs("VgfBackend", { textSpec("target", "vgf"), textSpec("tosa_spec", "TOSA-1.0+FP") });
        QCOMPARE(value(other, "arm.target"), std::string("vgf"));
        QCOMPARE(value(other, "arm.tosa_spec"), std::string("TOSA-1.0+FP"));
    }

    void warningGivesTheFileOffsetInAProgram()
    {
        // A writer-made program whose Core ML delegate has a damaged deployment target: the
        // warning's offset is where the value's bytes are in the file (found by searching them).
        ProgramSpec spec;
        MethodSpec& method = spec.addMethod("forward");
        TensorSpec t;
        t.sizes = { 2 };
        const std::int32_t x = method.addTensor(t);
        const std::int32_t y = method.addTensor(t);
        method.inputs = { x };
        method.outputs = { y };
        DelegateSpec delegate { "CoreMLBackend", std::vector<std::uint8_t>(64, 0xEE) };
        delegate.compileSpecs
            = { textSpec("min_deployment_target", "zz-not-a-number"), textSpec("compute_units", "cpu_only") };
        const std::int32_t d = method.addDelegate(std::move(delegate));
        method.addInstruction(InstructionSpec::delegate(d, { x, y }));
        auto bytes = writeProgram(spec);
        QVERIFY(bytes);
        const std::string needle = "zz-not-a-number";
        const auto at = std::search(bytes->begin(), bytes->end(), needle.begin(), needle.end());
        QVERIFY(at != bytes->end());
        const auto expected = static_cast<std::uint64_t>(at - bytes->begin());
        auto document = etscope::test::documentFromBytes(*bytes, "target-fixture.pte");
        QVERIFY(document);
        const DelegateInfo& info = document->analysis(document->program->methods.front())->delegates.front();
        const auto warning = std::find_if(info.warnings.begin(), info.warnings.end(),
            [](const Warning& w) { return w.message.find("min_deployment_target") != std::string::npos; });
        QVERIFY(warning != info.warnings.end());
        QCOMPARE(warning->offset, std::optional<std::uint64_t>(expected));
        QCOMPARE(value(info, "coreml.compute_units"), std::string("cpu_only (CPU only)"));
    }
};

QTEST_MAIN(TestTargetFacts)
#include "tst_targetfacts.moc"
