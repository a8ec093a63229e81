// SPDX-License-Identifier: MIT
// The headless CLI as a script would use it: exit codes, one-line errors, and the facts of every
// real sample through `etscope info --json` and `etscope ops`.
#include "tests/common/clirun.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using nlohmann::json;

Q_DECLARE_METATYPE(std::string)

namespace {

using Run = etscope::test::CliRun;

Run run(const QStringList& arguments, const etscope::test::CliOptions& options = {})
{
    return etscope::test::runEtscope(arguments, options);
}

QString sample(const std::string& relative)
{
    return etscope::test::sampleArgument(relative);
}

/// Runs etscope without root's right to read and write any file: as this user, or as nobody
/// (setpriv) when the test runs as root. Files it is to reach must be readable by others.
/// nullopt when root and setpriv is not installed.
std::optional<Run> runUnprivileged(const QStringList& arguments)
{
    if (::geteuid() != 0)
        return run(arguments);
    const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
    if (setpriv.isEmpty())
        return std::nullopt;
    return etscope::test::runProgram(setpriv,
        QStringList { QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
            QStringLiteral("--clear-groups"), QStringLiteral(ETSCOPE_BINARY) }
            + arguments);
}

/// A temporary folder others may enter (QTemporaryDir makes it 0700), for runUnprivileged.
void openToOthers(const QTemporaryDir& dir)
{
    QFile::setPermissions(dir.path(),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup
            | QFile::ExeGroup);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void versionAndHelp()
    {
        const Run version = run({ QStringLiteral("--version") });
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith(QStringLiteral("etscope ")));
        const Run help = run({ QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        for (const char* word : { "info", "ops", "graph", "gap", "--method", "--format", "--data" })
            QVERIFY2(help.out.contains(QLatin1String(word)), word);
    }

    /// `etscope SUB --help` is SUB's part of --help: its usage lines and paragraph, none of the
    /// other subcommands'; the desktop app's options are in --help.
    void subcommandHelp()
    {
        const Run diff = run({ QStringLiteral("diff"), QStringLiteral("--help") });
        QCOMPARE(diff.exitCode, 0);
        QVERIFY2(diff.out.startsWith(QStringLiteral("Usage:\n  etscope diff A.pte B.pte")), qPrintable(diff.out));
        QVERIFY(diff.out.contains(QStringLiteral("What changed between two programs A and B")));
        QVERIFY(diff.out.contains(QStringLiteral("Exit status 0 whatever the")));
        QVERIFY(!diff.out.contains(QStringLiteral("etscope info")));
        QVERIFY(!diff.out.contains(QStringLiteral("Describe a program")));
        QVERIFY(diff.out.contains(QStringLiteral("etscope --help")));
        const Run gap = run({ QStringLiteral("gap"), QStringLiteral("-h") });
        QCOMPARE(gap.out.count(QStringLiteral("  etscope gap ")), 3); // the three ways to call it
        QVERIFY(!gap.out.contains(QStringLiteral("etscope profile")));
        const Run all = run({ QStringLiteral("--help") });
        for (const char* word : { "--theme", "--quit-after-paint", "--timings", "[--format text|dot|json]" })
            QVERIFY2(all.out.contains(QLatin1String(word)), word);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::addRow("no file") << QStringList { QStringLiteral("info") }
                                 << QStringLiteral("expected exactly one FILE");
        QTest::addRow("unknown option") << QStringList { QStringLiteral("info"), QStringLiteral("--frobnicate"),
            sample("executorch/add.pte") }
                                        << QStringLiteral("unknown option '--frobnicate'");
        QTest::addRow("unknown format") << QStringList { QStringLiteral("ops"), sample("executorch/add.pte"),
            QStringLiteral("--format"), QStringLiteral("xlsx") }
                                        << QStringLiteral("unknown format 'xlsx'");
        QTest::addRow("unknown method") << QStringList { QStringLiteral("ops"), sample("executorch/add.pte"),
            QStringLiteral("--method"), QStringLiteral("nope") }
                                        << QStringLiteral("no method named 'nope' (methods: forward)");
        QTest::addRow("option without value") << QStringList { QStringLiteral("ops"), sample("executorch/add.pte"),
            QStringLiteral("--method") } << QStringLiteral("needs a value");
        // Kernel lists are check's: ops used to print its table as if they were not given.
        QTest::addRow("ops with kernel lists")
            << QStringList { QStringLiteral("ops"), sample("executorch/add.pte"), QStringLiteral("--kernels"),
                   QStringLiteral("portable"), QStringLiteral("--kernels"), QStringLiteral("my.txt") }
            << QStringLiteral("etscope ops: ops does not take --kernels; did you mean `etscope check ")
                + sample("executorch/add.pte") + QStringLiteral(" --kernels portable --kernels my.txt`?");
        QTest::addRow("ops with a preset") << QStringList { QStringLiteral("ops"), sample("executorch/add.pte"),
            QStringLiteral("--preset"), QStringLiteral("portable") }
                                           << QStringLiteral("ops does not take --preset; did you mean `etscope check ")
                + sample("executorch/add.pte") + QStringLiteral(" --preset portable`?");
        QTest::addRow("mistyped subcommand") << QStringList { QStringLiteral("inof"), sample("executorch/add.pte") }
                                             << QStringLiteral("unknown subcommand 'inof'");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run result = run(arguments);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
    }

    void noDisplayIsAClearError()
    {
        // A file but no display (ssh, CI): one line saying what to do, not Qt's abort.
        const Run result = run({ sample("executorch/add.pte") },
            { .unsetEnv
                = { QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY"), QStringLiteral("QT_QPA_PLATFORM") },
                .timeoutMs = 60000 });
        QCOMPARE(result.exitCode, 1);
        const QString& err = result.err;
        QVERIFY2(
            err.contains(QStringLiteral("no display")) && err.contains(QStringLiteral("QT_QPA_PLATFORM=offscreen")),
            qPrintable(err));
    }

    void inputErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::addRow("missing") << QStringLiteral("/nonexistent/model.pte")
                                 << QStringLiteral("cannot open: No such file or directory");
        QTest::addRow("corrupt sample") << sample("djl-executorch-engine/corrupt.pte")
                                        << QStringLiteral("not an ExecuTorch file");
        QTest::addRow("folder") << sample("executorch") << QStringLiteral("is a folder, not a file");
    }

    void inputErrors()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        for (const char* command : { "info", "ops", "graph" }) {
            const Run result = run({ QLatin1String(command), path });
            QCOMPARE(result.exitCode, 2);
            QVERIFY2(result.err.contains(path + QStringLiteral(": ")), qPrintable(result.err));
            QVERIFY2(result.err.contains(reason), qPrintable(result.err));
            QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
            QVERIFY(result.out.isEmpty());
        }
    }

    void unusableFiles()
    {
        // issue 27: an empty file, a folder and a file that cannot be read each give one line
        // naming the file and why, exit 2.
        QTemporaryDir dir;
        openToOthers(dir);
        const auto empty = etscope::test::writeTestFile(dir, QStringLiteral("empty.pte"), {});
        QVERIFY(empty);
        const QString folder = dir.filePath(QStringLiteral("folder.pte"));
        QVERIFY(QDir().mkdir(folder));
        const auto locked = etscope::test::writeTestFile(
            dir, QStringLiteral("locked.pte"), etscope::test::readFile(sample("executorch/add.pte")));
        QVERIFY(locked);
        QVERIFY(QFile::setPermissions(*locked, QFile::WriteOwner));
        const QList<std::pair<QString, QString>> cases { { *empty, QStringLiteral("the file is empty") },
            { folder, QStringLiteral("is a folder, not a file") },
            { *locked, QStringLiteral("cannot open: Permission denied") } };
        for (const auto& [path, reason] : cases) {
            const auto result = runUnprivileged({ QStringLiteral("info"), path });
            if (!result)
                QSKIP("running as root without setpriv: a file cannot be made unreadable");
            QCOMPARE(result->exitCode, 2);
            QCOMPARE(result->err, QStringLiteral("etscope info: ") + path + QStringLiteral(": ") + reason + "\n");
            QVERIFY(result->out.isEmpty());
        }
    }

    void outputFolderProblems()
    {
        // issue 27: every command that writes -o names the folder when the folder is the reason,
        // not only report (the OS alone says "No such file or directory").
        QTemporaryDir dir;
        openToOthers(dir);
        const QString program = sample("executorch/add.pte");
        const QList<QStringList> commands {
            { QStringLiteral("graph"), program, QStringLiteral("--format"), QStringLiteral("dot") },
            { QStringLiteral("export"), program },
            { QStringLiteral("size"), program, QStringLiteral("--format"), QStringLiteral("json") },
            { QStringLiteral("ops"), program, QStringLiteral("--format"), QStringLiteral("csv") },
        };
        const QStringList outputs { QStringLiteral("g.dot"), QStringLiteral("x.svg"), QStringLiteral("s.json"),
            QStringLiteral("o.csv") };
        for (qsizetype i = 0; i < commands.size(); ++i) {
            // Relative, as typed: the folder is named as the user named it.
            const QString output = QStringLiteral("missing/") + outputs[i];
            const Run result
                = run(commands[i] + QStringList { QStringLiteral("-o"), output }, { .workingDirectory = dir.path() });
            QCOMPARE(result.exitCode, 2);
            QCOMPARE(result.err,
                QStringLiteral("etscope ") + commands[i].front() + QStringLiteral(": ") + output
                    + QStringLiteral(": cannot write: the folder 'missing' does not exist\n"));
        }
        // gap --plot writes with QFile, not through core: said before the stages are read.
        const QString etdump = sample("generated/add/add.intermediates.etdp");
        const QString stage = program + QStringLiteral(":") + etdump;
        const Run plot = run({ QStringLiteral("gap"), QStringLiteral("--stage"), stage, QStringLiteral("--stage"),
                                 stage, QStringLiteral("--plot"), QStringLiteral("missing/p.png") },
            { .workingDirectory = dir.path() });
        QCOMPARE(plot.exitCode, 2);
        QCOMPARE(plot.err,
            QStringLiteral("etscope gap: missing/p.png: cannot write: the folder 'missing' does not exist\n"));
        // A folder that exists but takes no new file.
        const QString locked = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkdir(locked));
        QVERIFY(QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
        // The unprivileged user reads the program from the open folder: the samples may lie
        // where it cannot enter (a CI clone in a 0700 mktemp folder did).
        const QString readable = dir.filePath(QStringLiteral("add.pte"));
        QVERIFY(QFile::copy(program, readable));
        QVERIFY(QFile::setPermissions(readable, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const auto result = runUnprivileged({ QStringLiteral("graph"), readable, QStringLiteral("--format"),
            QStringLiteral("dot"), QStringLiteral("-o"), locked + QStringLiteral("/g.dot") });
        if (!result)
            QSKIP("running as root without setpriv: every folder is writable");
        QCOMPARE(result->exitCode, 2);
        QCOMPARE(result->err,
            QStringLiteral("etscope graph: ") + locked + QStringLiteral("/g.dot: cannot write: the folder '") + locked
                + QStringLiteral("' is not writable\n"));
        QVERIFY(QDir(locked).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }

    void dataFileGivenButUnusable()
    {
        // A .ptd the user named must be usable: missing or not a .ptd is an input error (2).
        for (const QString& data : { QStringLiteral("/nonexistent/weights.ptd"), sample("executorch/add.pte") }) {
            const Run result
                = run({ QStringLiteral("info"), sample("executorch/xor.pte"), QStringLiteral("--data"), data });
            QCOMPARE(result.exitCode, 2);
            QVERIFY2(result.err.startsWith(QStringLiteral("etscope info: ") + data + QStringLiteral(": cannot attach")),
                qPrintable(result.err));
            QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
        }
        // The right one from elsewhere works, and no warning claims none was given.
        const Run ok = run({ QStringLiteral("info"), sample("executorch/xor.pte"), QStringLiteral("--json"),
            QStringLiteral("--data"), sample("executorch/xor.ptd") });
        QCOMPARE(ok.exitCode, 0);
        QVERIFY(!ok.out.contains(QStringLiteral("give one with --data")));
    }

    void graphsOfAnETRecord()
    {
        // An ETRecord's edge program prints like format_delegated_graph, with the FX names it
        // stores; its ATen program is selected by name; ops gives get_delegation_info's table.
        const QString record = sample("executorch/etrecord.bin");
        const Run text = run({ QStringLiteral("graph"), record, QStringLiteral("--format"), QStringLiteral("text") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral(
                     "%aten_mul_tensor : FLOAT[3, 2] : [num_users=1] = call_function[target=aten.mul.Tensor]")),
            qPrintable(text.out));
        QVERIFY(text.out.contains(QStringLiteral("%arg0_1 : FLOAT[3, 2] = placeholder")));
        const Run aten = run({ QStringLiteral("graph"), record, QStringLiteral("--method"),
            QStringLiteral("aten_dialect_output/forward"), QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(aten.exitCode, 0);
        QVERIFY(!json::parse(aten.out.toStdString(), nullptr, false).is_discarded());
        const Run ops = run({ QStringLiteral("ops"), record, QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(ops.exitCode, 0);
        QVERIFY2(ops.out.contains(QStringLiteral("aten_mul_tensor,0,1")), qPrintable(ops.out));
        const Run unknown
            = run({ QStringLiteral("graph"), record, QStringLiteral("--method"), QStringLiteral("nope") });
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains(QStringLiteral("graphs: forward (edge), aten_dialect_output/forward")));
    }

    void graphDelegateAndExpandFlags()
    {
        // Issue 36: `graph --format json --delegate N` printed the whole method, and --expand was
        // silently ignored. --delegate N now prints the inner graph of delegate N alone (the same
        // object the whole method's JSON nests under that delegate's node); --expand is refused,
        // saying why. spike_conv.pte: one XnnpackBackend delegate (SOURCES.md).
        const QString program = sample("djl-executorch-engine/spike_conv.pte");
        const Run whole = run({ QStringLiteral("graph"), program, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(whole.exitCode, 0);
        const json method = json::parse(whole.out.toStdString());
        json nested;
        for (const json& node : method.at("nodes"))
            if (node.at("kind") == "delegate" && node.contains("subgraph"))
                nested = node.at("subgraph");
        QVERIFY2(!nested.is_null(), qPrintable(whole.out));
        const Run one = run({ QStringLiteral("graph"), program, QStringLiteral("--format"), QStringLiteral("json"),
            QStringLiteral("--delegate"), QStringLiteral("0") });
        QCOMPARE(one.exitCode, 0);
        const json alone = json::parse(one.out.toStdString());
        QCOMPARE(alone.dump(), nested.dump());
        QCOMPARE(alone.value("backend_id", std::string()), std::string("XnnpackBackend"));
        const Run text = run({ QStringLiteral("graph"), program, QStringLiteral("--delegate"), QStringLiteral("0") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out != whole.out && !text.out.isEmpty(), qPrintable(text.out));
        const Run missing
            = run({ QStringLiteral("graph"), program, QStringLiteral("--delegate"), QStringLiteral("7") });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("has no delegate 7")), qPrintable(missing.err));
        const Run expand = run({ QStringLiteral("graph"), program, QStringLiteral("--format"), QStringLiteral("json"),
            QStringLiteral("--expand"), QStringLiteral("all") });
        QCOMPARE(expand.exitCode, 1);
        QVERIFY2(expand.err.contains(QStringLiteral("--expand is for pictures")), qPrintable(expand.err));
    }

    void invalidUtf8BecomesReplacementCharacters()
    {
        // Strings in a file are bytes: a corrupt operator name that is not UTF-8 must not abort the
        // JSON writers. The FlatBuffers Verifier accepts it (it does not check UTF-8).
        QFile original(sample("executorch/add.pte"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray bytes = original.readAll();
        const qsizetype at = bytes.indexOf("aten::add");
        QVERIFY(at > 0);
        bytes[at + 6] = static_cast<char>(0xFF);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("badutf8.pte"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        const QList<QStringList> commands { { QStringLiteral("info"), path, QStringLiteral("--json") },
            { QStringLiteral("ops"), path, QStringLiteral("--format"), QStringLiteral("json") },
            { QStringLiteral("graph"), path, QStringLiteral("--format"), QStringLiteral("json") } };
        for (const QStringList& arguments : commands) {
            const Run result = run(arguments);
            QCOMPARE(result.exitCode, 0);
            const json parsed = json::parse(result.out.toStdString(), nullptr, false);
            QVERIFY2(!parsed.is_discarded(), qPrintable(arguments.join(QLatin1Char(' '))));
            QVERIFY(result.out.contains(QStringLiteral("aten::\uFFFDdd")) || result.out.contains(QChar(0xFFFD)));
        }
    }

    void infoJson_data()
    {
        QTest::addColumn<std::string>("entry");
        const nlohmann::json golden = etscope::test::goldenSamples();
        for (const json& entry : golden.at("samples"))
            if (!entry.value("invalid", false))
                QTest::addRow("%s", entry.at("path").get<std::string>().c_str()) << entry.dump();
    }

    void infoJson()
    {
        QFETCH(std::string, entry);
        const json e = json::parse(entry);
        const Run result = run({ QStringLiteral("info"), sample(e.at("path")), QStringLiteral("--json") });
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const json info = json::parse(result.out.toStdString());
        const std::string identifier = e.at("identifier");
        QCOMPARE(info.at("file_identifier").get<std::string>(), identifier);
        if (identifier == "FT01") {
            QCOMPARE(info.at("format").get<std::string>(), std::string("ptd"));
            QCOMPARE(info.at("entries").size(), e.at("entries").size());
            return;
        }
        if (identifier == "BP08") {
            QCOMPARE(info.at("format").get<std::string>(), std::string("bpte"));
            ETSCOPE_COMPARE_JSON(info.at("test_suites").at(0).at("method"), e.at("test_suites").at(0).at("method"));
            ETSCOPE_COMPARE_JSON(
                info.at("test_suites").at(0).at("test_cases"), e.at("test_suites").at(0).at("test_cases"));
            ETSCOPE_COMPARE_JSON(
                info.at("program").at("methods").at(0).at("operators"), e.at("inner_method").at("operators"));
            return;
        }
        QCOMPARE(info.at("format").get<std::string>(), std::string("pte"));
        ETSCOPE_COMPARE_JSON(info.at("extended_header"), e.at("extended_header"));
        ETSCOPE_COMPARE_JSON(info.at("segments"), e.at("segments"));
        const json& methods = e.at("methods");
        QCOMPARE(info.at("methods").size(), methods.size());
        for (std::size_t m = 0; m < methods.size(); ++m) {
            const json& got = info.at("methods")[m];
            const json& want = methods[m];
            ETSCOPE_COMPARE_JSON(got.at("name"), want.at("name"));
            ETSCOPE_COMPARE_JSON(got.at("instructions").at("kernel"), want.at("kernel"));
            ETSCOPE_COMPARE_JSON(got.at("instructions").at("delegate"), want.at("delegate"));
            ETSCOPE_COMPARE_JSON(got.at("operators"), want.at("operators"));
            ETSCOPE_COMPARE_JSON(got.at("values"), want.at("values"));
            ETSCOPE_COMPARE_JSON(got.at("inputs"), want.at("inputs"));
            ETSCOPE_COMPARE_JSON(got.at("outputs"), want.at("outputs"));
            QCOMPARE(got.at("delegates").size(), want.at("delegates").size());
            for (std::size_t d = 0; d < want.at("delegates").size(); ++d) {
                const json& gd = got.at("delegates")[d];
                const json& wd = want.at("delegates")[d];
                ETSCOPE_COMPARE_JSON(gd.at("backend_id"), wd.at("backend_id"));
                ETSCOPE_COMPARE_JSON(gd.at("location"), wd.at("location"));
                ETSCOPE_COMPARE_JSON(gd.at("size"), wd.at("size"));
                QVERIFY(gd.at("compile_specs").is_array());
                if (wd.at("inner_nodes").is_null())
                    continue;
                QCOMPARE(gd.at("inner_graph").at("format").get<std::string>(), std::string("xnnpack"));
                ETSCOPE_COMPARE_JSON(gd.at("inner_graph").at("nodes"), wd.at("inner_nodes"));
                ETSCOPE_COMPARE_JSON(gd.at("inner_graph").at("node_types"), wd.at("node_types"));
            }
        }
    }

    void compileSpecsAreReadable()
    {
        const Run result = run({ QStringLiteral("info"), sample("cmsis-executorch/ethos_u_minimal_example_u55.pte"),
            QStringLiteral("--json") });
        QCOMPARE(result.exitCode, 0);
        const json specs
            = json::parse(result.out.toStdString()).at("methods")[0].at("delegates")[0].at("compile_specs");
        // SOURCES.md lists the specs with compile_flags cut at 70 characters.
        QCOMPARE(specs.size(), std::size_t(4));
        ETSCOPE_COMPARE_JSON(specs[0], (json { { "key", "tosa_spec" }, { "value", "TOSA-1.0+INT+int16+u55" } }));
        QCOMPARE(specs[1].at("key").get<std::string>(), std::string("compile_flags"));
        QVERIFY(specs[1].at("value").get<std::string>().starts_with(
            "--output-format=raw --debug-force-regor --accelerator-config=ethos-u55"));
        ETSCOPE_COMPARE_JSON(specs[2], (json { { "key", "output_format" }, { "value", "vela" } }));
        ETSCOPE_COMPARE_JSON(specs[3], (json { { "key", "target" }, { "value", "ethos-u55-128" } }));
    }

    void opsFormats()
    {
        const QString path = sample("djl-executorch-engine/stress_mlp.pte");
        const Run csv = run({ QStringLiteral("ops"), path, QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(csv.exitCode, 0);
        const QStringList lines = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.first(),
            QStringLiteral("op_type,occurrences_in_delegated_graphs,occurrences_in_non_delegated_graphs"));
        QCOMPARE(lines.last(), QStringLiteral("Total,15,12"));
        QVERIFY(lines.contains(QStringLiteral("XNNFullyConnected,10,0")));
        QVERIFY(lines.contains(QStringLiteral("aten::select_copy.int_out,0,4")));

        const Run text = run({ QStringLiteral("ops"), path });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral(
            "Total delegated subgraphs: 2\nNumber of delegated nodes: 15\nNumber of non-delegated nodes: 12\n")));

        const Run js = run({ QStringLiteral("ops"), path, QStringLiteral("--format=json") });
        QCOMPARE(js.exitCode, 0);
        const json parsed = json::parse(js.out.toStdString());
        QCOMPARE(parsed.at("rows").back().at("op_type").get<std::string>(), std::string("Total"));
        QCOMPARE(parsed.at("rows").back().at("occurrences_in_delegated_graphs").get<int>(), 15);

        for (const char* format : { "tsv", "md", "html" }) {
            const Run other = run({ QStringLiteral("ops"), path, QStringLiteral("--format"), QLatin1String(format) });
            QCOMPARE(other.exitCode, 0);
            QVERIFY(other.out.contains(QStringLiteral("XNNFullyConnected")));
        }
    }

    void defaultMethodAndOutputFile()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("ops.md"));
        // stories260k has no `forward`: the first method with instructions is used.
        const Run result = run({ QStringLiteral("ops"), sample("executorch/stories260k_hybrid_llama_qnn.pte"),
            QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("-o"), out });
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.isEmpty());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString content = QString::fromUtf8(file.readAll());
        QVERIFY(content.contains(QStringLiteral("Operators of method 'kv_forward'")));
        QVERIFY(content.contains(QStringLiteral("Total delegated subgraphs: 1")));
        // As text it used to print kv_forward's table without saying so: the method chosen among
        // several is named; asked for by name, or alone in its program, no title.
        const Run text = run({ QStringLiteral("ops"), sample("executorch/stories260k_hybrid_llama_qnn.pte") });
        QVERIFY2(text.out.startsWith(QStringLiteral(
                     "Operators of method 'kv_forward' (one of 29 methods; --method NAME for another)\n")),
            qPrintable(text.out.left(200)));
        const Run named = run({ QStringLiteral("ops"), sample("executorch/stories260k_hybrid_llama_qnn.pte"),
            QStringLiteral("--method"), QStringLiteral("kv_forward") });
        QVERIFY(named.out.startsWith(QStringLiteral("op_type")));
        QVERIFY(run({ QStringLiteral("ops"), sample("executorch/add.pte") }).out.startsWith(QStringLiteral("op_type")));
    }

    void graphOfATosaSideFile()
    {
        // The Arm lab program with the TOSA graphs its flow wrote: tag1 (152 operators besides its
        // CONST / CONST_SHAPE outputs, `flatc --json` on the file with core/schema/tosa.fbs) has
        // delegate 0's inputs and outputs, tag0 (22) delegate 1's.
        const QString program = sample("executorch_on_arm_labs/mobilenetv2_lrn_int8_ethosu.pte");
        const QString tag0 = sample("executorch_on_arm_labs/mv2_lrn_int8_output_tag0_TOSA-1.0+INT.tosa");
        const Run text = run({ QStringLiteral("graph"), program, QStringLiteral("--tosa"), tag0 });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.err.isEmpty(), qPrintable(text.err));
        QVERIFY2(text.out.contains(QStringLiteral("AVG_POOL2D")), qPrintable(text.out.left(2000)));
        const Run js = run({ QStringLiteral("graph"), program, QStringLiteral("--tosa"), QStringLiteral("auto"),
            QStringLiteral("--delegate"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(js.exitCode, 0);
        int operators = 0;
        const json parsed = json::parse(js.out.toStdString());
        for (const json& node : parsed.at("nodes"))
            operators += node.at("kind") == "operator";
        QCOMPARE(operators, 152);
        // Given for the other delegate: printed, with a warning on stderr.
        const Run forced = run({ QStringLiteral("graph"), program, QStringLiteral("--tosa"), tag0,
            QStringLiteral("--delegate"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("dot") });
        QCOMPARE(forced.exitCode, 0);
        QVERIFY(forced.err.contains(QStringLiteral("do not match delegate 0")));
        QVERIFY(forced.out.startsWith(QStringLiteral("digraph")));
        const Run none = run({ QStringLiteral("graph"), sample("executorch/add.pte"), QStringLiteral("--tosa"),
            QStringLiteral("auto") });
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains(QStringLiteral("no TOSA graph beside it")));
    }

    void graphFormats()
    {
        const QString path = sample("dnf-executorch/dnf_xnnpack_training.pte");
        const Run dot = run({ QStringLiteral("graph"), path, QStringLiteral("--format"), QStringLiteral("dot") });
        QCOMPARE(dot.exitCode, 0);
        QVERIFY(dot.out.startsWith(QStringLiteral("digraph \"forward\" {")));
        QCOMPARE(dot.out.count(QStringLiteral("subgraph cluster_")), 4);
        const Run js = run({ QStringLiteral("graph"), path, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(js.exitCode, 0);
        const json parsed = json::parse(js.out.toStdString());
        int delegates = 0;
        for (const json& node : parsed.at("nodes"))
            if (node.at("kind") == "delegate") {
                ++delegates;
                QVERIFY(node.contains("subgraph"));
            }
        QCOMPARE(delegates, 4);
        const Run text = run({ QStringLiteral("graph"), path });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.startsWith(QStringLiteral("graph():\n")));
        QCOMPARE(text.out.count(QStringLiteral("backend_id: XnnpackBackend")), 4);
        QCOMPARE(text.out.count(QStringLiteral("lowered graph():")), 4);
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
