// SPDX-License-Identifier: MIT
// The QnnBackend "qnn_compile_spec" value: a QnnExecuTorchOptions FlatBuffer, decoded on the
// real Qualcomm sample (values checked by hand against the bytes), refused (hex kept) when the
// Verifier rejects it or when it carries the layout of an older exporter.
#include "core/delegates/delegate.h"
#include "core/document/document.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

#include <flatbuffers/flatbuffers.h>

using namespace etscope::core;
using etscope::test::fact;

namespace {

DelegateInfo describeSpec(std::vector<std::uint8_t> spec)
{
    static const Program empty = [] {
        Program p;
        p.file = MappedFile::fromBytes("empty", std::vector<std::uint8_t>(8, 0));
        return p;
    }();
    // A valid 256-byte QNN header with an empty context binary.
    std::vector<std::uint8_t> payload(256, 0);
    const std::uint8_t magic[] = { 0xCD, 0xAB, 0x78, 0x56 };
    std::copy(std::begin(magic), std::end(magic), payload.begin());
    DelegateRef ref;
    ref.backendId = "QnnBackend";
    ref.payload = { 0, payload.size() };
    ref.compileSpecs.push_back({ "qnn_compile_spec", std::move(spec) });
    return describePayload(empty, ref, payload, {}, "fixture");
}

/// A root table written field by field: (slot, kind, value) with kinds 's' string, 'i' int32.
std::vector<std::uint8_t> rootTable(const std::vector<std::tuple<int, char, std::string>>& fields)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<flatbuffers::String>> strings;
    for (const auto& [slot, kind, value] : fields)
        strings.push_back(kind == 's' ? fbb.CreateString(value) : flatbuffers::Offset<flatbuffers::String>());
    const auto start = fbb.StartTable();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto& [slot, kind, value] = fields[i];
        const auto field = static_cast<flatbuffers::voffset_t>(4 + 2 * slot);
        if (kind == 's')
            fbb.AddOffset(field, strings[i]);
        else
            fbb.AddElement<std::int32_t>(field, std::stoi(value), -1);
    }
    fbb.Finish(flatbuffers::Offset<void>(fbb.EndTable(start)));
    return { fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize() };
}

} // namespace

class TestQnnCompileSpec : public QObject {
    Q_OBJECT
private slots:
    void realSampleDecoded()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        auto document = openDocument(etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        QVERIFY(document);
        int seen = 0;
        for (const Method& method : document->program->methods)
            for (const DelegateInfo& info : document->analysis(method)->delegates) {
                ++seen;
                QCOMPARE(info.format, std::string("qnn"));
                // The 200 bytes decoded by hand: SocInfo{57, HtpInfo{75, 8}}, BackendOptions{2,
                // HTP{performance 2, slot 4 and 6 set}}, library_path "", log_level 1,
                // saver_output_dir "saver_output", an empty op package list, use_mha2sha 1.
                QCOMPARE(fact(info, "compile spec soc_model"), std::string("SM8650 (57)"));
                QCOMPARE(fact(info, "compile spec htp_arch"), std::string("V75"));
                QCOMPARE(fact(info, "compile spec vtcm_size_in_mb"), std::string("8"));
                QCOMPARE(fact(info, "compile spec backend_type"), std::string("kHtpBackend"));
                QCOMPARE(fact(info, "compile spec htp performance_mode"), std::string("kHtpBurst"));
                QCOMPARE(fact(info, "compile spec htp precision"), std::string("kHtpQuantized"));
                QCOMPARE(fact(info, "compile spec htp pd_session"), std::string("kHtpUnsignedPd"));
                QCOMPARE(fact(info, "compile spec htp use_conv_hmx"), std::string("true"));
                QCOMPARE(fact(info, "compile spec htp use_dlbc"), std::string("false"));
                QCOMPARE(fact(info, "compile spec htp use_fold_relu"), std::string("true"));
                QCOMPARE(fact(info, "compile spec htp use_weight_sharing"), std::string("false"));
                QCOMPARE(fact(info, "compile spec library_path"), std::string("\"\""));
                QCOMPARE(fact(info, "compile spec log_level"), std::string("kLogLevelError"));
                QCOMPARE(fact(info, "compile spec profile_level"), std::string("kProfileOff"));
                QCOMPARE(fact(info, "compile spec shared_buffer"), std::string("false"));
                QCOMPARE(fact(info, "compile spec online_prepare"), std::string("false"));
                QCOMPARE(fact(info, "compile spec saver_output_dir"), std::string("\"saver_output\""));
                QCOMPARE(fact(info, "compile spec op packages"), std::string("0"));
                QCOMPARE(fact(info, "compile spec use_mha2sha"), std::string("true"));
                QCOMPARE(fact(info, "qnn_compile_spec not decoded"),
                    std::string("(no fact 'qnn_compile_spec not decoded')"));
                // Read whole: named facts only, no hex.
                QCOMPARE(fact(info, "qnn_compile_spec (hex, 200 bytes)"),
                    std::string("(no fact 'qnn_compile_spec (hex, 200 bytes)')"));
                QCOMPARE(fact(info, "compile_spec qnn_compile_spec"),
                    std::string("200 bytes, a QnnExecuTorchOptions FlatBuffer (its fields follow)"));
            }
        QCOMPARE(seen, 2);
    }

    void garbageKeepsHex()
    {
        const DelegateInfo info = describeSpec({ 0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3, 4 });
        QCOMPARE(fact(info, "qnn_compile_spec not decoded"),
            std::string("the FlatBuffers verifier rejected it as QnnExecuTorchOptions"));
        QCOMPARE(fact(info, "compile spec soc_model"), std::string("(no fact 'compile spec soc_model')"));
        QCOMPARE(fact(info, "qnn_compile_spec (hex, 8 bytes)"), std::string("ffffff7f01020304"));
        QCOMPARE(fact(describeSpec({}), "qnn_compile_spec not decoded"), std::string("it is empty"));
    }

    void olderLayoutIsRefused()
    {
        // Before 2025-12 the root had graph_name at slot 2 and library_path at slot 3, where the
        // layout read now has log_level: an offset there is no log level.
        const auto old = rootTable({ { 2, 's', "forward" }, { 3, 's', "" }, { 4, 'i', "1" } });
        const DelegateInfo info = describeSpec(old);
        QVERIFY(fact(info, "qnn_compile_spec not decoded").starts_with("its values do not fit"));
        // The warning names the delegate's backend, the compile spec and the first field that
        // does not fit: log_level (slot 3) holds a string offset there.
        QCOMPARE(info.warnings.size(), std::size_t(1));
        const std::string& warning = info.warnings.front().message;
        QVERIFY2(warning.find("QnnBackend") != std::string::npos, warning.c_str());
        QVERIFY2(warning.find("qnn_compile_spec") != std::string::npos, warning.c_str());
        QVERIFY2(warning.find("log_level = ") != std::string::npos, warning.c_str());
        QVERIFY2(warning.find(" at byte ") != std::string::npos, warning.c_str());
        QCOMPARE(fact(info, "compile spec log_level"), std::string("(no fact 'compile spec log_level')"));
        // The same fields in today's slots decode.
        const auto now = rootTable({ { 2, 's', "/vendor/lib" }, { 3, 'i', "3" }, { 6, 'i', "2" } });
        const DelegateInfo decoded = describeSpec(now);
        QCOMPARE(
            fact(decoded, "qnn_compile_spec not decoded"), std::string("(no fact 'qnn_compile_spec not decoded')"));
        QCOMPARE(fact(decoded, "compile spec library_path"), std::string("\"/vendor/lib\""));
        QCOMPARE(fact(decoded, "compile spec log_level"), std::string("kLogLevelInfo"));
        QCOMPARE(fact(decoded, "compile spec profile_level"), std::string("kProfileDetailed"));
        QCOMPARE(fact(decoded, "compile spec saver_output_dir"), std::string("(none)"));
    }
};

ETSCOPE_TEST_MAIN(TestQnnCompileSpec)
#include "tst_qnncompilespec.moc"
