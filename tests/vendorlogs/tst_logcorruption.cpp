// SPDX-License-Identifier: MIT
// A corruption sweep over the log readers of issues 34 and 35: the Vela log reader (velalog.h),
// the runner log reader (runlog.h) and the partition-report reader (core/why/partitionlog.h),
// each fed every real log of the shared samples cut short, with one bit flipped (bits 0, 5, 7)
// and with a NUL, CR or 0xFF byte planted, at 33 places spread evenly over the file and at its
// last byte; then twice over, and with a 1 MiB line inside. Nothing may crash or hang (each
// parse is bounded by the readers' own limits; ctest's timeout catches a hang), and every
// warning names the file and, where a line is to blame, a line that exists: "NAME:LINE: reason"
// with 1 <= LINE <= the lines of the damaged text (+1 for "the end of the log"), or
// "NAME: reason" for what concerns the whole file (it found "NAME:0: no Vela network summary").
#include "tests/common/testsupport.h"

#include "core/util/mappedfile.h"
#include "core/vendorlogs/runlog.h"
#include "core/vendorlogs/velalog.h"
#include "core/why/partitionlog.h"

#include <QTest>

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

using namespace etscope::core;
using namespace etscope::test;

namespace {

const char* const kLogs[] = {
    "modelnova/rps_model_conversion_20260219_041725.log",
    "cmsis-executorch/model_conversion_20251126_091256.log",
    "tinycnn/fvp_e84_final_compare.log",
};

constexpr int kPlaces = 32;

std::size_t lineCount(const std::string& text)
{
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

/// Empty when `message` names `name` and, if it names a line, one of `lines` (+1); else what is wrong.
std::string badWarning(const std::string& message, const std::string& name, std::size_t lines)
{
    if (message.rfind(name + ":", 0) != 0)
        return "does not start with the file's name";
    const std::string_view rest = std::string_view(message).substr(name.size() + 1);
    if (!rest.empty() && rest.front() == ' ')
        return {}; // the whole file: "NAME: reason"
    std::size_t line = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), line);
    if (error != std::errc() || end == rest.data() || *end != ':')
        return "names no line";
    if (line < 1 || line > lines + 1)
        return "names line " + std::to_string(line) + " of " + std::to_string(lines);
    return {};
}

/// Parses `text` with every reader; fails the test on a warning that names no file or line.
void parseAll(const std::string& text, const std::string& what)
{
    const std::string name = "damaged.log";
    const std::size_t lines = lineCount(text);
    std::vector<Warning> warnings;
    const vendor::VelaLog vela = vendor::parseVelaLog(text, name);
    warnings.insert(warnings.end(), vela.warnings.begin(), vela.warnings.end());
    const vendor::RunLog run = vendor::parseRunLog(text, name);
    warnings.insert(warnings.end(), run.warnings.begin(), run.warnings.end());
    const PartitionLog partition = parsePartitionLog(text, name);
    warnings.insert(warnings.end(), partition.warnings.begin(), partition.warnings.end());
    for (const Warning& w : warnings) {
        const std::string wrong = badWarning(w.message, name, lines);
        if (!wrong.empty())
            QFAIL((what + ": warning " + wrong + ": " + w.message).c_str());
    }
}

} // namespace

class TestLogCorruption : public QObject {
    Q_OBJECT

private slots:
    void damagedLogs_data()
    {
        QTest::addColumn<std::string>("path");
        for (const char* log : kLogs)
            QTest::newRow(log) << std::string(log);
    }

    void damagedLogs()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QFETCH(std::string, path);
        auto file = MappedFile::open(samplePath(path));
        QVERIFY2(file, path.c_str());
        const auto bytes = file.value()->bytes();
        const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        QVERIFY(text.size() > 1000);
        parseAll(text, path + " whole");
        std::vector<std::size_t> places { 0, text.size() - 1 };
        for (int k = 1; k < kPlaces; ++k)
            places.push_back(text.size() * static_cast<std::size_t>(k) / kPlaces);
        for (const std::size_t at : places) {
            const std::string where = path + " at byte " + std::to_string(at);
            parseAll(text.substr(0, at), where + ", cut");
            for (const int bit : { 0, 5, 7 }) {
                std::string flipped = text;
                flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
                parseAll(flipped, where + ", bit " + std::to_string(bit) + " flipped");
            }
            for (const char planted : { '\0', '\r', '\xff' }) {
                std::string damaged = text;
                damaged[at] = planted;
                parseAll(damaged, where + ", planted byte " + std::to_string(static_cast<unsigned char>(planted)));
            }
        }
        // The same log twice, and a line far past the readers' line limit.
        parseAll(text + text, path + " twice");
        parseAll(text.substr(0, text.size() / 2) + std::string(1 << 20, 'x') + text.substr(text.size() / 2),
            path + " with a 1 MiB line");
    }
};

QTEST_GUILESS_MAIN(TestLogCorruption)
#include "tst_logcorruption.moc"
