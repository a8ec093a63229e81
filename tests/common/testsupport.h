// SPDX-License-Identifier: MIT
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMetaMethod>
#include <QString>
#include <QStringList>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

namespace etscope::test {

/// The sample folder: ETSCOPE_SAMPLES_DIR in the environment when it is set (one build pointed
/// at another folder), else the folder the build was configured with (../shared/samples).
inline QString samplesRoot()
{
    const QString fromEnvironment = qEnvironmentVariable("ETSCOPE_SAMPLES_DIR");
    return fromEnvironment.isEmpty() ? QStringLiteral(ETSCOPE_SAMPLES_DIR) : fromEnvironment;
}

/// Absolute path of a real sample under the sample folder.
inline std::string samplePath(const std::string& relative)
{
    return QDir(samplesRoot()).absoluteFilePath(QString::fromStdString(relative)).toStdString();
}

/// What the sample folder lacks of the files tests/samples.json lists (existence only: CI's
/// `tools/fetch-samples --check` verifies the hashes), worked out once per process. Empty when
/// the set is complete.
struct SampleSetStatus {
    qsizetype listed = 0;
    QStringList missing;
};

inline const SampleSetStatus& sampleSetStatus()
{
    static const SampleSetStatus status = [] {
        SampleSetStatus result;
        std::ifstream in(ETSCOPE_SAMPLES_MANIFEST);
        const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
        if (manifest.is_discarded() || !manifest.contains("samples")) {
            result.missing << QStringLiteral("(the manifest " ETSCOPE_SAMPLES_MANIFEST " cannot be read)");
            return result;
        }
        const QDir root(samplesRoot());
        for (const nlohmann::json& entry : manifest["samples"]) {
            ++result.listed;
            const QString path = QString::fromStdString(entry.value("path", std::string()));
            if (!QFileInfo(root.absoluteFilePath(path)).isFile())
                result.missing << path;
        }
        return result;
    }();
    return status;
}

inline bool samplesPresent()
{
    return sampleSetStatus().missing.isEmpty();
}

/// ETSCOPE_REQUIRE_SAMPLES=1 (CI sets it): a missing sample set fails instead of skipping.
inline bool samplesRequired()
{
    return qEnvironmentVariable("ETSCOPE_REQUIRE_SAMPLES") == QLatin1String("1");
}

/// Why the real-file tests cannot run, and the command that fixes it.
inline const char* missingSamplesMessage()
{
    static const QByteArray message = [] {
        const SampleSetStatus& status = sampleSetStatus();
        const QString first = status.missing.value(0);
        return QStringLiteral("the real-file tests need the sample set: %1 lacks %2%3 of the %4 files "
                              "tests/samples.json lists; run tools/fetch-samples --dest %1, or point "
                              "ETSCOPE_SAMPLES_DIR at a folder that holds them")
            .arg(QDir(samplesRoot()).absolutePath(), first,
                status.missing.size() > 1 ? QStringLiteral(" and %1 more").arg(status.missing.size() - 1) : QString(),
                QString::number(status.listed))
            .toUtf8();
    }();
    return message.constData();
}

/// The test functions that skipped for want of the samples (ETSCOPE_REQUIRE_SAMPLES).
inline std::set<std::string>& samplesSkippedFunctions()
{
    static std::set<std::string> functions;
    return functions;
}

/// The exit status of a test program: QTest's, except that a program whose every test function
/// skipped for want of the samples exits with 77, which ctest counts as skipped
/// (SKIP_RETURN_CODE in tests/CMakeLists.txt). A program that also ran other functions passes,
/// and says how many it skipped.
inline int finishTestProgram(int status, const QObject& testObject)
{
    const std::set<std::string>& skipped = samplesSkippedFunctions();
    if (status != 0 || skipped.empty())
        return status;
    int functions = 0;
    const QMetaObject* meta = testObject.metaObject();
    for (int i = meta->methodOffset(); i < meta->methodCount(); ++i) {
        const QMetaMethod method = meta->method(i);
        const QByteArray name = method.name();
        if (method.methodType() == QMetaMethod::Slot && method.access() == QMetaMethod::Private
            && !name.endsWith("_data") && name != "initTestCase" && name != "cleanupTestCase" && name != "init"
            && name != "cleanup")
            ++functions;
    }
    const bool all = skipped.count("initTestCase") > 0 || static_cast<int>(skipped.size()) >= functions;
    std::printf("etscope-test: %d of %d test functions skipped: %s\n",
        all ? functions : static_cast<int>(skipped.size()), functions, missingSamplesMessage());
    return all ? 77 : 0;
}

/// The golden facts transcribed from SOURCES.md.
inline nlohmann::json goldenSamples()
{
    std::ifstream in(ETSCOPE_TEST_DATA_DIR "/golden/samples.json");
    return nlohmann::json::parse(in);
}

inline std::string testDataPath(const std::string& relative)
{
    return std::string(ETSCOPE_TEST_DATA_DIR "/") + relative;
}

/// The whole file, empty when it cannot be read.
inline QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace etscope::test

/// A test function that reads real samples starts with this: without the sample set it skips,
/// saying what is missing and how to fetch it (fails under ETSCOPE_REQUIRE_SAMPLES=1).
#define ETSCOPE_REQUIRE_SAMPLES()                                                                                      \
    do {                                                                                                               \
        if (!etscope::test::samplesPresent()) {                                                                        \
            if (etscope::test::samplesRequired())                                                                      \
                QFAIL(etscope::test::missingSamplesMessage());                                                         \
            etscope::test::samplesSkippedFunctions().insert(QTest::currentTestFunction());                             \
            QSKIP(etscope::test::missingSamplesMessage());                                                             \
        }                                                                                                              \
    } while (false)

/// QTEST_MAIN and QTEST_GUILESS_MAIN, with the exit status of finishTestProgram.
#define ETSCOPE_TEST_MAIN_WRAPPER(TestObject, ...)                                                                     \
    int main(int argc, char* argv[])                                                                                   \
    {                                                                                                                  \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                             \
        __VA_ARGS__                                                                                                    \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return etscope::test::finishTestProgram(QTest::qExec(&tc, argc, argv), tc);                                    \
    }
#define ETSCOPE_TEST_MAIN(TestObject) ETSCOPE_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define ETSCOPE_TEST_GUILESS_MAIN(TestObject) ETSCOPE_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))

/// Compares two JSON values through their canonical text (QTest cannot print json values).
#define ETSCOPE_COMPARE_JSON(actual, expected) QCOMPARE(nlohmann::json(actual).dump(), nlohmann::json(expected).dump())
