// SPDX-License-Identifier: MIT
#pragma once

#include <QDir>
#include <QFile>
#include <QString>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace etscope::test {

/// Absolute path of a real sample under ../shared/samples. The samples are part of the test
/// environment: CI has them beside the checkout, so their absence is a failure, not a skip.
inline std::string samplePath(const std::string& relative)
{
    return QDir(QStringLiteral(ETSCOPE_SAMPLES_DIR)).absoluteFilePath(QString::fromStdString(relative)).toStdString();
}

inline bool samplesPresent()
{
    return QFile::exists(QStringLiteral(ETSCOPE_SAMPLES_DIR "/SOURCES.md"));
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

#define ETSCOPE_REQUIRE_SAMPLES()                                                                                      \
    do {                                                                                                               \
        if (!etscope::test::samplesPresent())                                                                          \
            QFAIL(                                                                                                     \
                "the sample artifacts are missing: expected " ETSCOPE_SAMPLES_DIR "/SOURCES.md (../shared beside the " \
                "checkout)");                                                                                          \
    } while (false)

/// Compares two JSON values through their canonical text (QTest cannot print json values).
#define ETSCOPE_COMPARE_JSON(actual, expected) QCOMPARE(nlohmann::json(actual).dump(), nlohmann::json(expected).dump())
