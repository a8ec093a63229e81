// SPDX-License-Identifier: MIT
// `check --device` (issue 33): each rule on fixtures (compile specs and QNN payloads written by
// the project's writers), on the real samples, and the device-file reader on damaged JSON.
// The samples' facts were read by hand with xxd (tst_targetfacts.cpp has the offsets):
// - stories260k_hybrid_llama_qnn.pte: compile spec soc_model 57 (SM8650), htp_arch 75, VTCM 8 MB
//   (the FlatBuffer at bytes 11288–11487); context binary build id v2.37.0.250724175447_124859
//   (byte 27176), min_arch=75 (value at 187665), vtcm_size=8388608 (188002), soc_type=SM8650 (194006).
// - tinycnn_u55.pte: target "ethos-u55-128" (byte 29696); COP1 at 176, CONFIG 0x00001807 (macs
//   1 << 7 = 128).
// - mobilenetv2_lrn_int8_ethosu.pte: target "ethos-u85-256" (bytes 352 and 836); COP1 at 4288,
//   CONFIG 0x20000118 (macs 1 << 8 = 256).
// - style_candy_640_coreml.pte: min_deployment_target "6" (byte 396); the model's
//   specificationVersion 6 (0x08 0x06 at byte 4224, the payload's model.mlmodel).
#include "core/analysis/devicecheck.h"
#include "core/delegates/delegate.h"
#include "core/delegates/targetfacts.h"
#include "core/document/document.h"
#include "core/writer/payloads/qnnpayloadwriter.h"
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include <QTest>

using namespace etscope::core;

namespace {

CompileSpec textSpec(const std::string& key, const std::string& text)
{
    return { key, std::vector<std::uint8_t>(text.begin(), text.end()) };
}

DelegateInfo describeSpecs(const std::string& backend, std::vector<CompileSpec> specs)
{
    DelegateRef ref;
    ref.backendId = backend;
    ref.compileSpecs = std::move(specs);
    return etscope::test::describeAlone(std::vector<std::uint8_t>(16, 0xEE), ref);
}

DeviceProfile device(const std::string& id)
{
    auto found = findDeviceProfile(id);
    return found ? *found : DeviceProfile {};
}

bool says(const DelegateFit& fit, const std::string& words)
{
    for (const std::string& reason : fit.reasons)
        if (reason.find(words) != std::string::npos)
            return true;
    return false;
}

std::string reasons(const DelegateFit& fit)
{
    std::string out = std::string(fitName(fit.fit)) + ":";
    for (const std::string& r : fit.reasons)
        out += " | " + r;
    return out;
}

std::vector<DelegateFit> fitsOf(const std::string& sample, const std::string& id)
{
    auto document = openDocument(etscope::test::samplePath(sample));
    if (!document)
        return {};
    // `id` is a built-in id, or a device file's text (starting with '{').
    DeviceProfile profile;
    if (id.starts_with("{")) {
        auto own = parseDeviceFile(id, "test.json");
        if (!own)
            return {};
        profile = own->front();
    } else {
        profile = device(id);
    }
    auto lists = deviceKernelLists(profile);
    if (!lists)
        return {};
    return checkDevice(*document, profile, *lists).delegates;
}

} // namespace

class TestDeviceCheck : public QObject {
    Q_OBJECT
private slots:
    void profilesAreLowerCaseAndComplete()
    {
        std::vector<std::string> ids;
        for (const DeviceProfile& p : builtinDeviceProfiles()) {
            ids.push_back(p.id);
            for (const char c : p.id)
                QVERIFY2(!std::isupper(static_cast<unsigned char>(c)), p.id.c_str());
            QVERIFY2(!p.source.empty(), p.id.c_str());
            QVERIFY2(deviceKernelLists(p).ok(), p.id.c_str());
        }
        for (const char* id : { "sm8450", "sm8550", "sm8650", "sm8750", "corstone-300", "corstone-320", "alif-e8",
                 "ios-16", "ios-17", "ios-18", "macos-13", "macos-14", "macos-15", "android-arm64", "rpi5" })
            QVERIFY2(std::find(ids.begin(), ids.end(), id) != ids.end(), id);
        // qc_schema.py _soc_info_table: SM8550 → V73, 8 MB.
        QCOMPARE(device("sm8550").htpArch, 73);
        QCOMPARE(device("sm8550").vtcmMb, 8);
        QCOMPARE(device("ios-17").coreMlSpec, 8);
        QVERIFY(!findDeviceProfile("SM8650").ok()); // ids are lower case
        QVERIFY(findDeviceProfile("nope").error().reason.find("sm8650") != std::string::npos);
    }

    void ethosURulesOnCompileSpecs()
    {
        const DelegateInfo u55 = describeSpecs("EthosUBackend", { textSpec("target", "ethos-u55-128") });
        const DelegateFit onU85 = fitDelegate(u55, device("corstone-320"));
        QCOMPARE(onU85.fit, Fit::DoesNotFit);
        QVERIFY2(says(onU85, "not portable between U55 and U85"), reasons(onU85).c_str());
        // The FVP takes the MAC count at launch: any U55 count fits Corstone-300.
        const DelegateInfo u55x256 = describeSpecs("EthosUBackend", { textSpec("target", "ethos-u55-256") });
        QCOMPARE(fitDelegate(u55x256, device("corstone-300")).fit, Fit::Fits);
        // Alif E8: U55-256 and U55-128 and U85-256 are there; U55-64 is not (driver refuses).
        QCOMPARE(fitDelegate(u55, device("alif-e8")).fit, Fit::Fits);
        const DelegateInfo u55x64 = describeSpecs("EthosUBackend", { textSpec("target", "ethos-u55-64") });
        const DelegateFit macs = fitDelegate(u55x64, device("alif-e8"));
        QCOMPARE(macs.fit, Fit::DoesNotFit);
        QVERIFY2(says(macs, "another MAC count"), reasons(macs).c_str());
        // No target and no stream: nothing to compare.
        const DelegateInfo unknown = describeSpecs("EthosUBackend", {});
        QCOMPARE(fitDelegate(unknown, device("alif-e8")).fit, Fit::Unverified);
        // A phone has no Ethos-U, and its runtime does not link the backend.
        QCOMPARE(fitDelegate(u55, device("sm8650")).fit, Fit::DoesNotFit);
    }

    void coreMlRulesOnCompileSpecs()
    {
        // coremltools target 8 = iOS 17 / macOS 14.
        const DelegateInfo ios17 = describeSpecs("CoreMLBackend", { textSpec("min_deployment_target", "8") });
        const DelegateFit on16 = fitDelegate(ios17, device("ios-16"));
        QCOMPARE(on16.fit, Fit::DoesNotFit);
        QVERIFY2(says(on16, "needs iOS 17 or later; the device runs iOS 16"), reasons(on16).c_str());
        const DelegateFit on14 = fitDelegate(ios17, device("macos-14"));
        QCOMPARE(on14.fit, Fit::Fits);
        QVERIFY2(says(on14, "needs macOS 14 or later; the device runs macOS 14"), reasons(on14).c_str());
        const DelegateInfo none = describeSpecs("CoreMLBackend", { textSpec("min_deployment_target", "") });
        QCOMPARE(fitDelegate(none, device("ios-18")).fit, Fit::Unverified);
        QCOMPARE(fitDelegate(ios17, device("rpi5")).fit, Fit::DoesNotFit);
    }

    void qnnSdkRuleOnAWrittenContextBinary()
    {
        // The writer's context binary names its SDK build and SoC 43 (SM8550), no HTP configuration.
        QnnWriteOptions options;
        options.buildId = "v2.28.0.240915_fixture";
        options.socModel = 43;
        DelegateRef ref;
        ref.backendId = "QnnBackend";
        const DelegateInfo info = etscope::test::describeAlone(writeQnnPayload({}, options), ref);
        QCOMPARE(findTarget(info, "qnn.sdk_version") ? findTarget(info, "qnn.sdk_version")->value : std::string(),
            std::string("2.28.0"));
        // No min_arch, no compile spec: the arch cannot be compared.
        const DelegateFit fit = fitDelegate(info, device("sm8550"));
        QCOMPARE(fit.fit, Fit::Unverified);
        QVERIFY2(says(fit, "names no HTP architecture"), reasons(fit).c_str());
        // A device file naming another SDK release: does not fit, whatever the arch.
        DeviceProfile phone = device("sm8550");
        phone.qnnSdk = "2.37.0";
        const DelegateFit sdk = fitDelegate(info, phone);
        QCOMPARE(sdk.fit, Fit::DoesNotFit);
        QVERIFY2(says(sdk, "built with QNN SDK 2.28.0; the device profile has 2.37.0"), reasons(sdk).c_str());
        phone.qnnSdk = "2.28.1";
        QVERIFY(says(fitDelegate(info, phone), "the device has 2.28.1"));
    }

    void qnnSample()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const std::string sample = "executorch/stories260k_hybrid_llama_qnn.pte";
        const auto on8650 = fitsOf(sample, "sm8650");
        QVERIFY(!on8650.empty());
        for (const DelegateFit& f : on8650) {
            QCOMPARE(f.fit, Fit::Fits);
            QVERIFY2(says(f, "compiled for SM8650 (HTP v75, min_arch 75), QNN SDK 2.37.0"), reasons(f).c_str());
        }
        for (const DelegateFit& f : fitsOf(sample, "sm8550")) {
            QCOMPARE(f.fit, Fit::DoesNotFit);
            QVERIFY2(
                says(f, "sm8550 has HTP v73: QNN context binaries need an HTP at least as new"), reasons(f).c_str());
        }
        for (const DelegateFit& f : fitsOf(sample, "sm8750"))
            QCOMPARE(f.fit, Fit::Unverified); // v79 > v75: not certain either way
        for (const DelegateFit& f : fitsOf(sample, "android-arm64"))
            QCOMPARE(f.fit, Fit::DoesNotFit); // its runtime does not link QnnBackend
        for (const DelegateFit& f : fitsOf(sample, "ios-17"))
            QCOMPARE(f.fit, Fit::DoesNotFit);
    }

    void ethosUSamples()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const auto u55on300 = fitsOf("tinycnn/tinycnn_u55.pte", "corstone-300");
        QCOMPARE(u55on300.size(), std::size_t(1));
        QCOMPARE(u55on300[0].fit, Fit::Fits);
        QCOMPARE(u55on300[0].builtFor, std::string("Ethos-U55-128"));
        const auto u55on320 = fitsOf("tinycnn/tinycnn_u55.pte", "corstone-320");
        QCOMPARE(u55on320[0].fit, Fit::DoesNotFit);
        QVERIFY(says(u55on320[0], "Vela stream for Ethos-U55-128; corstone-320 has Ethos-U85-256"));
        const std::string u85 = "executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte";
        for (const DelegateFit& f : fitsOf(u85, "alif-e8")) {
            QCOMPARE(f.fit, Fit::Fits);
            QCOMPARE(f.builtFor, std::string("Ethos-U85-256"));
        }
        for (const DelegateFit& f : fitsOf(u85, "corstone-300"))
            QCOMPARE(f.fit, Fit::DoesNotFit);
        // Unverified: a board of the user's whose NPU configuration is not known.
        const auto u55onBoard = fitsOf(
            "tinycnn/tinycnn_u55.pte", R"({"id": "my-board", "based_on": "corstone-300", "ethos_u": "unknown"})");
        QCOMPARE(u55onBoard.size(), std::size_t(1));
        QCOMPARE(u55onBoard[0].fit, Fit::Unverified);
        QVERIFY(says(u55onBoard[0], "does not say which Ethos-U it has"));
    }

    void coreMlSample()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        const std::string sample = "react-native-executorch/style_candy_640_coreml.pte";
        const auto on16 = fitsOf(sample, "ios-16");
        QCOMPARE(on16.size(), std::size_t(1));
        QCOMPARE(on16[0].fit, Fit::Fits);
        QVERIFY2(says(on16[0], "needs iOS 15 or later; the device runs iOS 16: fits"), reasons(on16[0]).c_str());
        QCOMPARE(fitsOf(sample, "macos-13")[0].fit, Fit::Fits);
        QCOMPARE(fitsOf(sample, "sm8650")[0].fit, Fit::DoesNotFit);
        // An Apple device of the user's whose OS version is not given.
        const auto unknownOs = fitsOf(sample, R"({"id": "some-ipad", "based_on": "ios-16", "coreml_spec": 0})");
        QCOMPARE(unknownOs.size(), std::size_t(1));
        QCOMPARE(unknownOs[0].fit, Fit::Unverified);
    }

    void unverifiedForBackendsWithoutRules()
    {
        DelegateInfo info;
        info.backendId = "VulkanBackend";
        DeviceProfile p = device("android-arm64");
        p.backends.push_back("VulkanBackend");
        const DelegateFit fit = fitDelegate(info, p);
        QCOMPARE(fit.fit, Fit::Unverified);
        QVERIFY(says(fit, "no device rule for VulkanBackend"));
    }

    void deviceFiles()
    {
        auto read = parseDeviceFile(R"({"devices": [
            {"id": "my-s24", "title": "My S24", "based_on": "sm8650", "qnn_sdk": "2.28.0"},
            {"id": "my-board", "ethos_u": ["ethos-u55-64"], "backends": ["EthosUBackend"], "preset": "arm-ethos-u"}]})",
            "mine.json");
        QVERIFY2(read, read ? "" : read.error().message().c_str());
        QCOMPARE(read->size(), std::size_t(2));
        QCOMPARE((*read)[0].htpArch, 75); // from sm8650
        QCOMPARE((*read)[0].qnnSdk, std::string("2.28.0"));
        QCOMPARE((*read)[1].npus.at(0).macs, 64);
        QCOMPARE(findDeviceProfile("my-board", *read)->id, std::string("my-board"));
        auto ios = parseDeviceFile(R"({"id": "old-ipad", "os": "ios", "os_version": 15})", "ipad.json");
        QVERIFY(ios);
        QCOMPARE((*ios)[0].coreMlSpec, 6);
    }

    void damagedDeviceFiles_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("offset"); // -1: none
        // `{"id": "x",` then the end: the parser stops at byte 11 (the text is 11 bytes).
        QTest::addRow("truncated") << QStringLiteral(R"({"id": "x",)") << QStringLiteral("not valid JSON")
                                   << qint64(11);
        // The stray "]" is byte 10.
        QTest::addRow("stray bracket") << QStringLiteral(R"({"id": "x"]})") << QStringLiteral("not valid JSON")
                                       << qint64(10);
        QTest::addRow("no id") << QStringLiteral(R"({"title": "x"})") << QStringLiteral("has no \"id\"") << qint64(-1);
        QTest::addRow("upper case") << QStringLiteral(R"({"id": "SM8650"})") << QStringLiteral("not lower case")
                                    << qint64(-1);
        QTest::addRow("bad npu") << QStringLiteral(R"({"id": "b", "ethos_u": ["u55"]})")
                                 << QStringLiteral("'u55' is not an accelerator config") << qint64(-1);
        QTest::addRow("bad base") << QStringLiteral(R"({"id": "b", "based_on": "sm9999"})")
                                  << QStringLiteral("unknown device 'sm9999'") << qint64(-1);
        QTest::addRow("arch text") << QStringLiteral(R"({"id": "b", "htp_arch": "v75"})")
                                   << QStringLiteral("\"htp_arch\" is not a whole number") << qint64(-1);
        QTest::addRow("second device") << QStringLiteral(R"({"devices": [{"id": "a"}, 7]})")
                                       << QStringLiteral("device 2: is not an object") << qint64(-1);
        QTest::addRow("bad preset") << QStringLiteral(R"({"id": "b", "preset": "nope"})")
                                    << QStringLiteral("unknown runtime preset 'nope'") << qint64(-1);
    }

    void damagedDeviceFiles()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        QFETCH(qint64, offset);
        const std::string bytes = text.toStdString();
        auto read = parseDeviceFile(bytes, "devices.json");
        QVERIFY(!read);
        const std::string message = read.error().message();
        QVERIFY2(message.starts_with("devices.json: "), message.c_str());
        QVERIFY2(message.find(reason.toStdString()) != std::string::npos, message.c_str());
        if (offset >= 0)
            QCOMPARE(read.error().offset, std::optional<std::uint64_t>(static_cast<std::uint64_t>(offset)));
        else
            QVERIFY(!read.error().offset);
    }

    void missingDeviceFileNamesIt()
    {
        auto read = readDeviceFile("/nonexistent/devices.json");
        QVERIFY(!read);
        QVERIFY(read.error().message().find("/nonexistent/devices.json") != std::string::npos);
    }
};

QTEST_MAIN(TestDeviceCheck)
#include "tst_devicecheck.moc"
