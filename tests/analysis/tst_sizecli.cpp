// SPDX-License-Identifier: MIT
// `etscope size` as a script would use it: exit codes, the three formats, -o, and every real
// sample's parts summing to its `stat -c %s` size in JSON and CSV.
#include "tests/common/clirun.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using nlohmann::json;

namespace {

using etscope::test::CliRun;
using etscope::test::runEtscope;
using etscope::test::sampleArgument;

/// Sum of the leaf bytes of a JSON tree node.
std::uint64_t leafSum(const json& node)
{
    if (!node.contains("children"))
        return node.at("bytes").get<std::uint64_t>();
    std::uint64_t sum = 0;
    for (const json& child : node.at("children"))
        sum += leafSum(child);
    return sum;
}

} // namespace

class TestSizeCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    // Every sample: exit 0 (2 for corrupt.pte only), JSON leaves summing to the file size.
    void everySampleAsJson()
    {
        int ok = 0;
        int input = 0;
        QDirIterator it(
            etscope::test::samplesRoot(), { "*.pte", "*.bpte", "*.ptd" }, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const CliRun r = runEtscope({ "size", path, "--format", "json" });
            if (path.endsWith(QStringLiteral("corrupt.pte"))) {
                QCOMPARE(r.exitCode, 2);
                QVERIFY(r.err.startsWith(QStringLiteral("etscope size: ") + path + QStringLiteral(": ")));
                QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
                ++input;
                continue;
            }
            QVERIFY2(r.exitCode == 0, qPrintable(path + ": " + r.err));
            ++ok;
            const json doc = json::parse(r.out.toStdString());
            QCOMPARE(doc.at("file_size").get<std::uint64_t>(), static_cast<std::uint64_t>(QFileInfo(path).size()));
            QCOMPARE(leafSum(doc.at("tree")), doc.at("file_size").get<std::uint64_t>());
            QVERIFY(doc.at("warnings").empty());
            for (const json& ptd : doc.at("external_data"))
                QCOMPARE(leafSum(ptd.at("tree")),
                    static_cast<std::uint64_t>(
                        QFileInfo(QString::fromStdString(ptd.at("file").get<std::string>())).size()));
        }
        QVERIFY(ok >= 42);
        QCOMPARE(input, 1);
    }

    // stress_mlp.pte (2,709,120 bytes): the CSV rows are the leaf ranges, in file order, tiling
    // the file; the text names the size in both units and the largest kind (named data, 2.5 MiB).
    void csvAndText()
    {
        const QString path = sampleArgument("djl-executorch-engine/stress_mlp.pte");
        const CliRun csv = runEtscope({ "size", path, "--format", "csv" });
        QCOMPARE(csv.exitCode, 0);
        QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.takeFirst(), QStringLiteral("file,offset,bytes,kind,part,backend,segment,refs,detail"));
        qulonglong cursor = 0;
        for (const QString& line : lines) {
            const QString rest = line.mid(path.size() + 1);
            const QStringList cells = rest.split(QLatin1Char(','));
            QCOMPARE(cells.at(0).toULongLong(), cursor);
            cursor += cells.at(1).toULongLong();
        }
        QCOMPARE(cursor, qulonglong { 2709120 });

        const CliRun text = runEtscope({ "size", path });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.startsWith(path + QStringLiteral(": pte, 2709120 bytes (2.6 MiB)")));
        // 10 × 262144 + 10 × 1024 = 2,631,680 bytes of named data, 97.1 % of the file.
        QVERIFY(text.out.contains(QStringLiteral("   2.5 MiB     2631680  97.1%  named_data (20 parts)")));
        QVERIFY(text.out.contains(QStringLiteral("Largest parts:")));
    }

    // linear.pte with --data: the .ptd's tree follows the program's, each summing to its file.
    void explicitData()
    {
        const CliRun r = runEtscope({ "size", sampleArgument("executorch/linear.pte"), "--data",
            sampleArgument("executorch/linear.ptd"), "--format", "json" });
        QCOMPARE(r.exitCode, 0);
        const json doc = json::parse(r.out.toStdString());
        QCOMPARE(doc.at("file_size").get<int>(), 1208);
        QCOMPARE(doc.at("external_data").size(), std::size_t { 1 });
        QCOMPARE(doc.at("external_data").at(0).at("file_size").get<int>(), 336);
        QCOMPARE(leafSum(doc.at("external_data").at(0).at("tree")), std::uint64_t { 336 });
    }

    void outputFileAndErrors()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("size.json"));
        const CliRun written
            = runEtscope({ "size", sampleArgument("executorch/add.pte"), "--format", "json", "-o", out });
        QCOMPARE(written.exitCode, 0);
        QVERIFY(written.out.isEmpty());
        QCOMPARE(json::parse(etscope::test::readFile(out).toStdString()).at("file_size").get<int>(), 728);

        const CliRun badFormat = runEtscope({ "size", sampleArgument("executorch/add.pte"), "--format", "svg" });
        QCOMPARE(badFormat.exitCode, 1);
        QVERIFY(badFormat.err.contains(QStringLiteral("unknown format 'svg'")));
        const CliRun noFile = runEtscope({ "size" });
        QCOMPARE(noFile.exitCode, 1);
        const CliRun missing = runEtscope({ "size", dir.filePath(QStringLiteral("absent.pte")) });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains(QStringLiteral("absent.pte")));
        const CliRun etdump = runEtscope({ "size", sampleArgument("executorch/etdump.etdp") });
        QCOMPARE(etdump.exitCode, 1);
        QVERIFY(etdump.err.contains(QStringLiteral("etdump.etdp")));
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestSizeCli)
#include "tst_sizecli.moc"
