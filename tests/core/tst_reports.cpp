// SPDX-License-Identifier: MIT
// Table renderers: quoting and escaping rules of each format, typed JSON, atomic writes.
#include "core/table/table.h"
#include "core/util/atomicfile.h"
#include "core/util/jsontext.h"
#include "tests/common/testsupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace etscope::core;

namespace {
Table sample()
{
    Table table;
    table.title = "T";
    table.columns = { "name", "count", "ratio" };
    table.rows.push_back({ std::string("plain"), 3LL, 0.5 });
    table.rows.push_back({ std::string("a,b \"q\"|<x>\tz"), 12LL, 1e-7 });
    table.notes = { "note one" };
    return table;
}
} // namespace

class TestReports : public QObject {
    Q_OBJECT
private slots:
    void csv()
    {
        const std::string out = renderTable(sample(), TableFormat::Csv);
        QCOMPARE(out, std::string("name,count,ratio\nplain,3,0.5\n\"a,b \"\"q\"\"|<x>\tz\",12,1e-07\n"));
    }

    void tsv()
    {
        const std::string out = renderTable(sample(), TableFormat::Tsv);
        QCOMPARE(out, std::string("name\tcount\tratio\nplain\t3\t0.5\na,b \"q\"|<x> z\t12\t1e-07\n"));
    }

    void markdown()
    {
        const std::string out = renderTable(sample(), TableFormat::Markdown);
        QVERIFY(out.find("| name | count | ratio |\n|---|---:|---:|\n") != std::string::npos);
        QVERIFY(out.find("a,b \"q\"\\|<x>\tz") != std::string::npos);
        QVERIFY(out.find("note one") != std::string::npos);
    }

    void html()
    {
        const std::string out = renderTable(sample(), TableFormat::Html);
        QVERIFY(out.find("<th>name</th>") != std::string::npos);
        QVERIFY(out.find("a,b &quot;q&quot;|&lt;x&gt;") != std::string::npos);
        QVERIFY(out.find("<td class=\"n\">12</td>") != std::string::npos);
    }

    void json()
    {
        const auto parsed = nlohmann::json::parse(renderTable(sample(), TableFormat::Json));
        QCOMPARE(parsed["columns"].size(), std::size_t(3));
        QCOMPARE(parsed["rows"][1]["count"].get<long long>(), 12LL);
        QVERIFY(parsed["rows"][0]["count"].is_number_integer());
        QVERIFY(parsed["rows"][0]["ratio"].is_number_float());
        QCOMPARE(parsed["rows"][1]["name"].get<std::string>(), std::string("a,b \"q\"|<x>\tz"));
        QCOMPARE(parsed["notes"][0].get<std::string>(), std::string("note one"));
    }

    void text()
    {
        const std::string out = renderTable(sample(), TableFormat::Text);
        QVERIFY(out.find("name") == 2); // after "T\n"
        QVERIFY(out.find("note one") != std::string::npos);
    }

    void formatNames()
    {
        QCOMPARE(parseTableFormat("md"), std::optional<TableFormat>(TableFormat::Markdown));
        QCOMPARE(parseTableFormat("markdown"), std::optional<TableFormat>(TableFormat::Markdown));
        QVERIFY(!parseTableFormat("xlsx"));
    }

    void jsonTextNeverThrows()
    {
        // Bytes from a corrupt file: invalid UTF-8 is replaced, not thrown.
        const nlohmann::json bad = std::string("op\xff\xfe");
        QCOMPARE(jsonText(bad), std::string("\"op\xEF\xBF\xBD\xEF\xBF\xBD\""));
        QCOMPARE(jsonDisplayText(bad), std::string("op\xff\xfe")); // strings are shown as they are
        // Nesting: measured without recursion; past the limit the value becomes a note.
        std::string text(100000, '[');
        text += std::string(100000, ']');
        const nlohmann::json deep = nlohmann::json::parse(text);
        QCOMPARE(jsonDepth(deep), std::size_t(100000));
        QCOMPARE(jsonText(deep), std::string("\"<nested deeper than 128 levels>\""));
        QCOMPARE(jsonDisplayText(deep, 4), std::string("<nested deeper than 4 levels>"));
        QCOMPARE(jsonDepth(nlohmann::json::parse("{\"a\": [1, {\"b\": []}], \"c\": 2}")), std::size_t(4));
        QCOMPARE(jsonDepth(nlohmann::json(3)), std::size_t(0));
        QCOMPARE(jsonText(nlohmann::json::parse("[1,[2]]")), std::string("[1,[2]]"));
    }

    void atomicWrite()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("out.csv")).toStdString();
        QVERIFY(!writeFileAtomically(path, "first\n"));
        QVERIFY(!writeFileAtomically(path, "second\n"));
        std::ifstream in(path);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(content, std::string("second\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary left behind
        const auto error = writeFileAtomically(dir.filePath(QStringLiteral("missing/dir/out.csv")).toStdString(), "x");
        QVERIFY(error);
        QVERIFY(error->message().find("missing/dir/out.csv") != std::string::npos);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestReports)
#include "tst_reports.moc"
