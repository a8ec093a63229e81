// SPDX-License-Identifier: MIT
// `etscope check --device` as a user runs it: exit 0 when it runs (or is unverified), 3 when a
// delegate does not fit or the runtime lacks a kernel, 2 for an unreadable device file (naming the
// file, the reason and the byte offset), 1 for a bad command line. The samples' facts are read by
// hand in tst_devicecheck.cpp.
#include "tests/common/clirun.h"
#include "tests/common/require.h"

#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;
using etscope::test::writeTestFile;

const char* const kQnn = "executorch/stories260k_hybrid_llama_qnn.pte";

CliRun check(const std::string& sample, const QString& device, QStringList more = {})
{
    QStringList arguments { QStringLiteral("check"), sampleArgument(sample), QStringLiteral("--device"), device };
    arguments += more;
    return runEtscope(arguments);
}

} // namespace

class TestDeviceCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void listDevices()
    {
        const CliRun r = runEtscope({ QStringLiteral("check"), QStringLiteral("--list-devices") });
        QCOMPARE(r.exitCode, 0);
        for (const char* id : { "sm8450", "sm8650", "corstone-300", "alif-e8", "ios-18", "macos-13", "rpi5" })
            QVERIFY2(r.out.contains(QLatin1String(id)), id);
        QVERIFY(r.out.contains(QStringLiteral("SM8550 HTP v73, VTCM 8 MB")));
        const CliRun j = runEtscope({ QStringLiteral("check"), QStringLiteral("--list-devices"),
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(j.exitCode, 0);
        const json list = json::parse(j.out.toStdString());
        QVERIFY(list.is_array() && list.size() >= 15);
    }

    void qnnFitsItsSoc()
    {
        const CliRun r = check(kQnn, QStringLiteral("sm8650"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Will it run on sm8650: yes")), qPrintable(r.out));
        QVERIFY(r.out.contains(
            QStringLiteral("QnnBackend, built for SM8650 (HTP v75, min_arch 75), QNN SDK 2.37.0): fits")));
    }

    void qnnDoesNotFitAnOlderHtp()
    {
        const CliRun r = check(kQnn, QStringLiteral("sm8550"));
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral("Will it run on sm8550: no")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral(
            "compiled for SM8650 (HTP v75, min_arch 75), QNN SDK 2.37.0; sm8550 has HTP v73: QNN context binaries need "
            "an HTP at least as new as the one they were built for")));
    }

    void qnnNewerHtpIsUnverifiedAndExitsZero()
    {
        const CliRun r = check(kQnn, QStringLiteral("sm8750"), { QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(r.exitCode, 0);
        const json out = json::parse(r.out.toStdString());
        QCOMPARE(out["fit"].get<std::string>(), std::string("unverified"));
        QCOMPARE(out["will_run"].get<bool>(), true);
        QCOMPARE(out["device"]["id"].get<std::string>(), std::string("sm8750"));
        QVERIFY(!out["delegates"].empty());
        for (const json& d : out["delegates"])
            QCOMPARE(d["fit"].get<std::string>(), std::string("unverified"));
    }

    void deviceFileWithAnotherSdk()
    {
        QTemporaryDir dir;
        const auto file = writeTestFile(dir, QStringLiteral("phones.json"),
            R"({"id": "my-s24", "title": "S24 with QNN 2.28", "based_on": "sm8650", "qnn_sdk": "2.28.0"})");
        QVERIFY(file);
        const CliRun r = check(kQnn, QStringLiteral("my-s24"), { QStringLiteral("--device-file"), *file });
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral(
                     "built with QNN SDK 2.37.0; the device profile has 2.28.0: the runtime libraries must match")),
            qPrintable(r.out));
        // One device in the file: --device may be left out.
        const CliRun alone
            = runEtscope({ QStringLiteral("check"), sampleArgument(kQnn), QStringLiteral("--device-file"), *file });
        QCOMPARE(alone.exitCode, 3);
    }

    void damagedDeviceFile()
    {
        QTemporaryDir dir;
        // The stray "]" is byte 10.
        const auto file = writeTestFile(dir, QStringLiteral("bad.json"), R"({"id": "x"]})");
        QVERIFY(file);
        const CliRun r = check(kQnn, QStringLiteral("x"), { QStringLiteral("--device-file"), *file });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("bad.json: not valid JSON")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("(at byte offset 10)")));
        QVERIFY(r.out.isEmpty());
    }

    void usageErrors()
    {
        QCOMPARE(check(kQnn, QStringLiteral("sm9999")).exitCode, 1);
        QVERIFY(check(kQnn, QStringLiteral("sm9999")).err.contains(QStringLiteral("unknown device 'sm9999'")));
        QCOMPARE(
            check(kQnn, QStringLiteral("sm8650"), { QStringLiteral("--preset"), QStringLiteral("portable") }).exitCode,
            1);
    }

    void ethosUAndCoreMl()
    {
        QCOMPARE(check("tinycnn/tinycnn_u55.pte", QStringLiteral("corstone-300")).exitCode, 0);
        const CliRun u85 = check("tinycnn/tinycnn_u55.pte", QStringLiteral("corstone-320"));
        QCOMPARE(u85.exitCode, 3);
        QVERIFY2(u85.out.contains(QStringLiteral("command streams are not portable between U55 and U85")),
            qPrintable(u85.out));
        const CliRun ios = check("react-native-executorch/style_candy_640_coreml.pte", QStringLiteral("ios-16"));
        QVERIFY2(ios.out.contains(QStringLiteral("needs iOS 15 or later; the device runs iOS 16: fits")),
            qPrintable(ios.out));
        QCOMPARE(check("react-native-executorch/style_candy_640_coreml.pte", QStringLiteral("rpi5")).exitCode, 3);
    }
};

QTEST_MAIN(TestDeviceCli)
#include "tst_devicecli.moc"
