// SPDX-License-Identifier: MIT
// core/util/platform.h, the one place that calls the operating system, checked against what the
// OS and Qt say independently: file sizes and bytes, the process id, the test's own allocations.
#include "core/util/atomicfile.h"
#include "core/util/mappedfile.h"
#include "core/util/platform.h"

#include "tests/common/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

using namespace etscope::core;

namespace {

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

class TestPlatform : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mapsAWholeFile()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        // samples/executorch/add.pte: 728 bytes (SOURCES.md, and `ls -l`); `xxd | head -1` shows
        // the file identifier "ET12" at bytes 4..7.
        const std::string path = etscope::test::samplePath("executorch/add.pte");
        auto mapping = platform::mapFileReadOnly(path);
        QVERIFY(mapping);
        QCOMPARE(mapping->size, std::size_t(728));
        QCOMPARE(std::string(reinterpret_cast<const char*>(mapping->data) + 4, 4), std::string("ET12"));
        QCOMPARE(std::string(reinterpret_cast<const char*>(mapping->data), mapping->size), readAll(path));
        // Page-aligned: 4 KiB is the smallest page size of every OS ETScope might run on.
        QCOMPARE(reinterpret_cast<std::uintptr_t>(mapping->data) % 4096, std::uintptr_t(0));
        platform::unmapFile(*mapping);

        auto file = MappedFile::open(path);
        QVERIFY(file);
        QCOMPARE(file.value()->size(), std::size_t(728));
    }

    void mappingErrors()
    {
        QTemporaryDir dir;
        const std::string missing = dir.filePath(QStringLiteral("missing.pte")).toStdString();
        auto result = platform::mapFileReadOnly(missing);
        QVERIFY(!result);
        QCOMPARE(result.error().code, Error::Code::Io);
        QCOMPARE(result.error().message(), missing + ": cannot open: No such file or directory");

        result = platform::mapFileReadOnly(dir.path().toStdString());
        QVERIFY(!result);
        QCOMPARE(result.error().message(), dir.path().toStdString() + ": is a folder, not a file");

        const std::string empty = dir.filePath(QStringLiteral("empty.pte")).toStdString();
        std::ofstream(empty).close();
        result = platform::mapFileReadOnly(empty);
        QVERIFY(!result);
        QCOMPARE(result.error().code, Error::Code::Empty);
        QCOMPARE(result.error().message(), empty + ": the file is empty");

        if (std::filesystem::exists("/dev/null")) { // a character device, on POSIX systems
            result = platform::mapFileReadOnly("/dev/null");
            QVERIFY(!result);
            QCOMPARE(result.error().message(), std::string("/dev/null: is not a regular file"));
        }
    }

    void writesANewFileBesideTheTarget()
    {
        QTemporaryDir dir;
        const std::string target = dir.filePath(QStringLiteral("report.csv")).toStdString();
        auto file = platform::createFileBeside(target);
        QVERIFY(file);
        const std::filesystem::path created(file->path);
        QCOMPARE(created.parent_path().string(), dir.path().toStdString());
        QVERIFY(created.filename().string().starts_with(".report.csv."));
        QVERIFY(!std::filesystem::exists(target));
        // Owner only until makeOrdinaryDocument.
        namespace fs = std::filesystem;
        QCOMPARE(fs::status(created).permissions(), fs::perms::owner_read | fs::perms::owner_write);

        QVERIFY(!platform::writeAll(file->handle, "a,b\n"));
        QVERIFY(!platform::writeAll(file->handle, std::string(100000, 'x')));
        char buffer[16];
        QCOMPARE(platform::readSome(file->handle, buffer, sizeof buffer), std::ptrdiff_t(0)); // at the end
        QVERIFY(!platform::flushToDisk(file->handle));
        platform::makeOrdinaryDocument(file->handle);
        QVERIFY(!platform::closeFile(file->handle));
        QCOMPARE(readAll(file->path), "a,b\n" + std::string(100000, 'x'));

        // A file written the ordinary way gets the permissions a new document gets.
        const std::string ordinary = dir.filePath(QStringLiteral("ordinary.txt")).toStdString();
        std::ofstream(ordinary).close();
        QCOMPARE(fs::status(created).permissions(), fs::status(ordinary).permissions());

        QVERIFY(platform::closeFile(platform::kNoFile)); // an error, not a crash
        QCOMPARE(platform::readSome(platform::kNoFile, buffer, sizeof buffer), std::ptrdiff_t(-1));
    }

    void atomicReplaceErrors()
    {
        QTemporaryDir dir;
        // The folder is named when it is the reason (issue 27: the OS's "No such file or
        // directory" left the user guessing which part was missing).
        const std::string missing = dir.filePath(QStringLiteral("missing")).toStdString();
        auto error = writeFileAtomically(missing + "/out.csv", "x");
        QVERIFY(error);
        QCOMPARE(error->message(), missing + "/out.csv: cannot write: the folder '" + missing + "' does not exist");
        // Asked before writing, the same words; a folder that exists is no problem.
        QCOMPARE(checkFolderFor(missing + "/out.csv")->message(), error->message());
        QVERIFY(!checkFolderFor(dir.filePath(QStringLiteral("out.csv")).toStdString()));
        QVERIFY(!platform::folderProblem("relative.csv")); // the working folder
        // A file where the folder should be, and a path through a file.
        const std::string plain = dir.filePath(QStringLiteral("plain.txt")).toStdString();
        std::ofstream(plain).close();
        error = writeFileAtomically(plain + "/out.csv", "x");
        QVERIFY(error);
        QCOMPARE(error->message(), plain + "/out.csv: cannot write: '" + plain + "' is not a folder");
        QCOMPARE(*platform::folderProblem(plain + "/sub/out.csv"),
            "the folder '" + plain + "/sub' cannot exist: a part of its path is a file");
        // A folder without write permission (checked as root too in tst_cli, running as nobody).
        const std::string locked = dir.filePath(QStringLiteral("locked")).toStdString();
        QVERIFY(std::filesystem::create_directory(locked));
        std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
        if (!std::ofstream(locked + "/probe")) { // root writes here anyway
            error = writeFileAtomically(locked + "/out.csv", "x");
            QVERIFY(error);
            QCOMPARE(error->message(), locked + "/out.csv: cannot write: the folder '" + locked + "' is not writable");
        }
        std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
        std::filesystem::remove(locked + "/probe");

        // rename(2) over an existing directory fails with EISDIR ("Is a directory"); the temporary
        // file is removed.
        const std::string folder = dir.filePath(QStringLiteral("out.csv")).toStdString();
        QVERIFY(std::filesystem::create_directory(folder));
        error = writeFileAtomically(folder, "x");
        QVERIFY(error);
        QCOMPARE(error->message(), folder + ": cannot replace the file: Is a directory");
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
            (QStringList { QStringLiteral("locked"), QStringLiteral("out.csv"), QStringLiteral("plain.txt") }));
    }

    void thisProcess()
    {
        QCOMPARE(platform::processId(), static_cast<std::int64_t>(QCoreApplication::applicationPid()));
        QVERIFY(platform::dieWithParent());
        QVERIFY(platform::standardInput() != platform::standardOutput());

        // The process started before this test function; its age grows with the wall clock
        // (10 ms clock ticks on Linux).
        const auto before = platform::processAgeSeconds();
        QVERIFY(before);
        QVERIFY(*before > 0 && *before < 600);
        QElapsedTimer timer;
        timer.start();
        QThread::msleep(120);
        const auto after = platform::processAgeSeconds();
        QVERIFY(after);
        const double slept = static_cast<double>(timer.elapsed()) / 1000.0;
        QVERIFY2(*after - *before > slept - 0.03 && *after - *before < slept + 0.5,
            qPrintable(QStringLiteral("age grew by %1 s in %2 s").arg(*after - *before).arg(slept)));
    }

    void residentMemory()
    {
        // 64 MiB, every page written: resident size and its peak both grow by about that much.
        constexpr std::size_t kBytes = std::size_t(64) << 20;
        QVERIFY(platform::resetPeakResident());
        const auto baseline = platform::residentBytes();
        QVERIFY(baseline && *baseline > 0);
        auto block = std::make_unique<char[]>(kBytes);
        std::memset(block.get(), 1, kBytes);
        [[maybe_unused]] volatile char last = block[kBytes - 1]; // keeps the writes
        const auto resident = platform::residentBytes();
        QVERIFY(resident);
        const auto grown = *resident - *baseline;
        QVERIFY2(grown >= std::int64_t(kBytes) * 9 / 10, qPrintable(QString::number(grown)));
        block.reset();
        const auto peak = platform::peakResidentBytes();
        QVERIFY(peak);
        QVERIFY2(*peak - *baseline >= std::int64_t(kBytes) * 9 / 10, qPrintable(QString::number(*peak - *baseline)));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestPlatform)
#include "tst_platform.moc"
