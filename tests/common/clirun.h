// SPDX-License-Identifier: MIT
#pragma once

// Running the etscope binary as a user or a CI job does (tests that define ETSCOPE_BINARY).

#include "tests/common/testsupport.h"

#include <QProcess>
#include <QStringList>

namespace etscope::test {

struct CliRun {
    int exitCode = -1; ///< -2 timed out, -3 crashed
    QString out;
    QString err;
};

/// Runs `etscope ARGUMENTS…` to completion (at most two minutes).
inline CliRun runEtscope(const QStringList& arguments)
{
    QProcess process;
    process.start(QStringLiteral(ETSCOPE_BINARY), arguments);
    if (!process.waitForFinished(120000)) {
        process.kill();
        return { -2, {}, QStringLiteral("timed out") };
    }
    CliRun result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -3;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

/// A real sample's path as a QString.
inline QString sampleArgument(const std::string& relative)
{
    return QString::fromStdString(samplePath(relative));
}

} // namespace etscope::test
