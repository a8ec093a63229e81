// SPDX-License-Identifier: MIT
#pragma once

// Golden outputs: text a command printed, compared byte for byte with
// tests/data/golden/<name>.expected. On a mismatch the actual text and a copy of the expected
// file are written beside the test executable (<build>/tests/<layer>/golden/<name>.actual and
// .expected), a unified diff is printed, and the test fails. `ETSCOPE_UPDATE_GOLDEN=1` rewrites
// the expected files from the actual output instead (review the git diff before committing).
//
//     ETSCOPE_COMPARE_GOLDEN("cli/info-stress_mlp", etscope::test::normaliseSamplePaths(run.out));

#include "tests/common/clirun.h"
#include "tests/common/testsupport.h"

#include <QCoreApplication>
#include <QDebug>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QString>

#include <string>

namespace etscope::test {

/// The samples folder, wherever this checkout keeps it, written as `<samples>`.
inline QString normaliseSamplePaths(QString text)
{
    return text.replace(QDir(etscope::test::samplesRoot()).absolutePath(), QStringLiteral("<samples>"));
}

namespace golden {

inline bool writeText(const QString& path, const QByteArray& bytes)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

/// `diff -u`, or the first differing line where diff is not installed.
inline QString describeDifference(
    const QString& expectedPath, const QString& actualPath, const QByteArray& expected, const QByteArray& actual)
{
    const QString diff = QStandardPaths::findExecutable(QStringLiteral("diff"));
    if (!diff.isEmpty()) {
        const CliRun run = runProgram(diff, { QStringLiteral("-u"), expectedPath, actualPath }, { .timeoutMs = 30000 });
        if (run.exitCode == 1)
            return run.out;
    }
    const QList<QByteArray> a = expected.split('\n');
    const QList<QByteArray> b = actual.split('\n');
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
        const QByteArray left = i < a.size() ? a[i] : QByteArray("<end of file>");
        const QByteArray right = i < b.size() ? b[i] : QByteArray("<end of file>");
        if (left != right)
            return QStringLiteral("line %1\n-%2\n+%3\n")
                .arg(i + 1)
                .arg(QString::fromUtf8(left), QString::fromUtf8(right));
    }
    return QStringLiteral("(the texts differ in their line endings)");
}

} // namespace golden

/// Empty when `actual` matches tests/data/golden/<name>.expected (or the file was rewritten
/// under ETSCOPE_UPDATE_GOLDEN=1); otherwise what failed, with the diff.
inline std::string compareWithGolden(const QString& name, const QString& actual)
{
    const QString expectedPath = QStringLiteral(ETSCOPE_TEST_DATA_DIR "/golden/") + name + QStringLiteral(".expected");
    const QByteArray actualBytes = actual.toUtf8();
    if (qEnvironmentVariableIntValue("ETSCOPE_UPDATE_GOLDEN") == 1) {
        if (!golden::writeText(expectedPath, actualBytes))
            return "cannot write " + expectedPath.toStdString();
        qInfo("rewrote %s", qPrintable(expectedPath));
        return {};
    }
    QFile file(expectedPath);
    if (!file.open(QIODevice::ReadOnly))
        return "no golden file " + expectedPath.toStdString()
            + " (run the test with ETSCOPE_UPDATE_GOLDEN=1 to write it, then review it)";
    const QByteArray expectedBytes = file.readAll();
    if (expectedBytes == actualBytes)
        return {};
    const QString outDir = QCoreApplication::applicationDirPath() + QStringLiteral("/golden/");
    const QString actualCopy = outDir + name + QStringLiteral(".actual");
    const QString expectedCopy = outDir + name + QStringLiteral(".expected");
    if (!golden::writeText(actualCopy, actualBytes) || !golden::writeText(expectedCopy, expectedBytes))
        return "differs from " + expectedPath.toStdString() + ", and " + outDir.toStdString() + " cannot be written";
    // The diff goes to the log in full (a failure message is cut at about a kilobyte).
    qInfo().noquote() << golden::describeDifference(expectedCopy, actualCopy, expectedBytes, actualBytes);
    return "output differs from " + expectedPath.toStdString() + " (diff above; actual: " + actualCopy.toStdString()
        + "; ETSCOPE_UPDATE_GOLDEN=1 rewrites the expected file)";
}

} // namespace etscope::test

/// Fails the current test function with the diff when `actual` differs from the golden file.
#define ETSCOPE_COMPARE_GOLDEN(name, actual)                                                                           \
    do {                                                                                                               \
        const std::string goldenFailure = etscope::test::compareWithGolden((name), (actual));                          \
        QVERIFY2(goldenFailure.empty(), goldenFailure.c_str());                                                        \
    } while (false)
