// SPDX-License-Identifier: MIT
#pragma once

// Running the etscope binary (tests that define ETSCOPE_BINARY) or one of the project's other
// programs as a user or a CI job does: arguments, optionally an environment, a working folder,
// bytes on stdin and a time limit.

#include "tests/common/testsupport.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

#include <optional>

namespace etscope::test {

struct CliRun {
    int exitCode = -1; ///< -2 timed out or did not start, -3 crashed
    QString out;
    QString err;
    QByteArray rawOut; ///< stdout as bytes, for binary output
};

struct CliOptions {
    /// Variables to set on top of this process's environment.
    QList<std::pair<QString, QString>> setEnv;
    /// Variables to remove from it (e.g. DISPLAY, to run as over ssh).
    QStringList unsetEnv;
    QString workingDirectory; ///< empty: this process's
    std::optional<QByteArray> input; ///< written to stdin, which is then closed
    int timeoutMs = 120000;
};

/// Runs `PROGRAM ARGUMENTS…` to completion (at most `options.timeoutMs`).
inline CliRun runProgram(const QString& program, const QStringList& arguments, const CliOptions& options = {})
{
    QProcess process;
    if (!options.setEnv.isEmpty() || !options.unsetEnv.isEmpty()) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const QString& name : options.unsetEnv)
            environment.remove(name);
        for (const auto& [name, value] : options.setEnv)
            environment.insert(name, value);
        process.setProcessEnvironment(environment);
    }
    if (!options.workingDirectory.isEmpty())
        process.setWorkingDirectory(options.workingDirectory);
    process.start(program, arguments);
    if (!process.waitForStarted(options.timeoutMs))
        return { -2, {}, QStringLiteral("could not start %1: %2").arg(program, process.errorString()), {} };
    if (options.input) {
        process.write(*options.input);
        process.closeWriteChannel();
    }
    if (!process.waitForFinished(options.timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        return { -2, {}, QStringLiteral("timed out after %1 ms").arg(options.timeoutMs), {} };
    }
    CliRun result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -3;
    result.rawOut = process.readAllStandardOutput();
    result.out = QString::fromUtf8(result.rawOut);
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

#ifdef ETSCOPE_BINARY
/// Runs `etscope ARGUMENTS…` to completion (at most two minutes unless the options say otherwise).
inline CliRun runEtscope(const QStringList& arguments, const CliOptions& options = {})
{
    CliRun run = runProgram(QStringLiteral(ETSCOPE_BINARY), arguments, options);
    // Under ASan, LeakSanitizer's own thread-stopping tracer sometimes crashes at exit ("Tracer
    // caught signal 11 … LeakSanitizer has encountered a fatal error", often while another test
    // loads the machine): its check, not the program, failed. Run once more without the leak
    // check. A leak found ("LeakSanitizer: detected memory leaks") still fails the test.
    if (run.exitCode != 0 && run.err.contains(QLatin1String("LeakSanitizer has encountered a fatal error"))) {
        CliOptions again = options;
        const QString asan = qEnvironmentVariable("ASAN_OPTIONS");
        again.setEnv.append({ QStringLiteral("ASAN_OPTIONS"),
            asan.isEmpty() ? QStringLiteral("detect_leaks=0") : asan + QStringLiteral(":detect_leaks=0") });
        run = runProgram(QStringLiteral(ETSCOPE_BINARY), arguments, again);
    }
    return run;
}
#endif

/// A real sample's path as a QString.
inline QString sampleArgument(const std::string& relative)
{
    return QString::fromStdString(samplePath(relative));
}

/// Writes `bytes` as `name` in `dir` (a file a command line is to read): its path, or nullopt
/// when it could not be written.
inline std::optional<QString> writeTestFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return std::nullopt;
    return path;
}

} // namespace etscope::test
