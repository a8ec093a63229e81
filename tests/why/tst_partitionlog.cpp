// SPDX-License-Identifier: MIT
// The partition-log readers (core/why/partitionlog.h) on logs the project's writer makes
// (core/writer/partitionlogwriter.h) and on hand-made damaged ones: Arm's table with wrapped
// cells and several tables, "No nodes rejected.", XNNPACK, QNN (both formats) and Core ML
// lines, CRLF and tabs, cut-off tables, lines over the cap. Expected values are the writer's
// inputs, typed here; line numbers are counted by hand from the format (comments say how).
#include "core/why/partitionlog.h"
#include "core/writer/partitionlogwriter.h"
#include "tests/common/testsupport.h"

#include <QTest>

using namespace etscope::core;

namespace {

// The table tabulate 0.9.0 renders for these three rows (fancy_grid, maxcolwidths=35), as the
// research notes for issue 35 give it: a 35-character reason piece broken at a space ("Not
// included in BaseTOSASupportList"), a Torch func cut inside a word ("…builtin_function_or_m" +
// "ethod.conv2d')"), a reason over four lines and a row with "-".
const char* const kTabulateExample = R"(The following nodes were rejected for TOSA-1.0+INT+int16+int4+u55:

╒══════════════════════════╤══════════════════════════╤═════════════════════════════════════╤═════════════════════════════════════╕
│ Node name                │ Target                   │ Torch func                          │ Reason                              │
╞══════════════════════════╪══════════════════════════╪═════════════════════════════════════╪═════════════════════════════════════╡
│ aten_avg_pool3d_default  │ aten.avg_pool3d.default  │ ('avg_pool3d', 'builtin_function_or │ Not included in BaseTOSASupportList │
│                          │                          │ _method.avg_pool3d')                │ or a registered tosa_support_check  │
├──────────────────────────┼──────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┤
│ aten_convolution_default │ aten.convolution.default │ ('conv2d_1', 'builtin_function_or_m │ Convolution needs to have           │
│                          │                          │ ethod.conv2d')                      │ kernel_y<=64,                       │
│                          │                          │                                     │ kernel_x*kernel_y<=4096, got kernel │
│                          │                          │                                     │ (2, 65)                             │
├──────────────────────────┼──────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┤
│ aten_where_self          │ aten.where.self          │ -                                   │ Op is not supported on U55.         │
╘══════════════════════════╧══════════════════════════╧═════════════════════════════════════╧═════════════════════════════════════╛
(Placeholders and outputs are not included in this list)
)";

std::vector<RejectedNode> exampleRows()
{
    return {
        { "aten_avg_pool3d_default", "aten.avg_pool3d.default",
            "('avg_pool3d', 'builtin_function_or_method.avg_pool3d')",
            "Not included in BaseTOSASupportList or a registered tosa_support_check" },
        { "aten_convolution_default", "aten.convolution.default", "('conv2d_1', 'builtin_function_or_method.conv2d')",
            "Convolution needs to have kernel_y<=64, kernel_x*kernel_y<=4096, got kernel (2, 65)" },
        { "aten_where_self", "aten.where.self", "-", "Op is not supported on U55." },
    };
}

bool hasWarning(const PartitionLog& log, const QString& part)
{
    for (const Warning& warning : log.warnings)
        if (QString::fromStdString(warning.message).contains(part))
            return true;
    return false;
}

QString warnings(const PartitionLog& log)
{
    QString text;
    for (const Warning& warning : log.warnings)
        text += QString::fromStdString(warning.message) + QLatin1Char('\n');
    return text;
}

} // namespace

class TestPartitionLog : public QObject {
    Q_OBJECT

private slots:
    // The writer renders exactly what tabulate renders for the same rows.
    void writerMatchesTabulate()
    {
        const std::string written = writeArmPartitionReport({ { "TOSA-1.0+INT+int16+int4+u55", exampleRows() } });
        QCOMPARE(QString::fromStdString(written), QString::fromUtf8(kTabulateExample));
    }

    // Wrapped cells joined back: a break at a space puts the space back, a cut word does not.
    void armWrappedCells()
    {
        const PartitionLog log = parsePartitionLog(kTabulateExample, "report.txt");
        QVERIFY2(log.warnings.empty(), qPrintable(warnings(log)));
        QCOMPARE(log.armTables, 1);
        QCOMPARE(log.reasons.size(), std::size_t(3));
        const auto rows = exampleRows();
        for (std::size_t r = 0; r < rows.size(); ++r) {
            QCOMPARE(log.reasons[r].nodeName, rows[r].nodeName);
            QCOMPARE(log.reasons[r].target, rows[r].target);
            QCOMPARE(log.reasons[r].torchFunc, rows[r].torchFunc);
            QCOMPARE(log.reasons[r].reason, rows[r].reason);
            QCOMPARE(log.reasons[r].spec, std::string("TOSA-1.0+INT+int16+int4+u55"));
            QCOMPARE(log.reasons[r].format, PartitionLogFormat::ArmTable);
            QVERIFY(!log.reasons[r].cut);
        }
        // Line 1 the header line, 2 empty, 3 top border, 4 column names, 5 ╞, 6 the first row,
        // 7 its second line, 8 ├, 9 the second row (four lines: 9-12), 13 ├, 14 the third.
        QCOMPARE(log.reasons[0].line, 6);
        QCOMPARE(log.reasons[1].line, 9);
        QCOMPARE(log.reasons[2].line, 14);
    }

    // A node name longer than the width (36 characters) is cut and joined back without a space.
    void armLongNodeName()
    {
        const RejectedNode row { "aten_max_pool2d_with_indices_default", "aten.max_pool2d_with_indices.default", "-",
            "Maxpool2d needs stride <= 3, got (4, 4)" };
        const std::string text = writeArmPartitionReport({ { "TOSA-1.0+INT+u55", { row } } });
        QVERIFY(text.find("aten_max_pool2d_with_indices_defaul ") != std::string::npos); // the cut, by hand: 35 + "t"
        const PartitionLog log = parsePartitionLog(text, "r.txt");
        QCOMPARE(log.reasons.size(), std::size_t(1));
        QCOMPARE(log.reasons[0].nodeName, row.nodeName);
        QCOMPARE(log.reasons[0].target, row.target);
        QCOMPARE(log.reasons[0].reason, row.reason);
    }

    // One table per partitioner call, and the empty report of a call that rejected nothing.
    void severalTablesAndNoRejects()
    {
        const std::vector<ArmPartitionCall> calls {
            { "TOSA-1.0+INT+int16+int4+u55", { exampleRows()[0] } },
            { "TOSA-1.0+INT+int16+int4+cf", {} },
            { "TOSA-1.0+FP", { exampleRows()[2], exampleRows()[1] } },
        };
        const PartitionLog log = parsePartitionLog(writeArmPartitionReport(calls, true), "console.log");
        QVERIFY2(log.warnings.empty(), qPrintable(warnings(log)));
        QCOMPARE(log.armTables, 2);
        QCOMPARE(log.emptyTables, 1);
        QCOMPARE(log.reasons.size(), std::size_t(3));
        QCOMPARE(log.reasons[0].table, 0);
        QCOMPARE(log.reasons[0].spec, std::string("TOSA-1.0+INT+int16+int4+u55"));
        QCOMPARE(log.reasons[1].table, 1);
        QCOMPARE(log.reasons[1].spec, std::string("TOSA-1.0+FP"));
        QCOMPARE(log.reasons[1].nodeName, std::string("aten_where_self"));
        QCOMPARE(log.reasons[2].nodeName, std::string("aten_convolution_default"));

        const PartitionLog none = parsePartitionLog(writeArmPartitionReport({ { "TOSA-1.0+INT", {} } }), "none.txt");
        QVERIFY(none.warnings.empty());
        QVERIFY(none.recognised());
        QCOMPARE(none.emptyTables, 1);
        QVERIFY(none.reasons.empty());
    }

    // CRLF line ends, tabs and other output between the lines change nothing.
    void crlfTabsAndInterleavedOutput()
    {
        std::string text = "Loading weights\n" + writeArmPartitionReport({ { "TOSA-1.0+INT", exampleRows() } })
            + "INFO:root:something else\n";
        std::string crlf;
        for (const char c : text) {
            if (c == '\n')
                crlf += "\r\n\t";
            else
                crlf += c;
        }
        const PartitionLog log = parsePartitionLog(crlf, "crlf.log");
        QVERIFY2(log.warnings.empty(), qPrintable(warnings(log)));
        QCOMPARE(log.reasons.size(), std::size_t(3));
        QCOMPARE(log.reasons[1].reason, exampleRows()[1].reason);
        QCOMPARE(log.reasons[0].line, 7); // one line of other output before the report
    }

    // A table cut in the middle: the rows read so far are kept, the last marked cut, a warning
    // names the file and the line where the table stopped; what follows is still read.
    void cutTable()
    {
        const std::string full = writeArmPartitionReport({ { "TOSA-1.0+INT", exampleRows() } });
        // Keep lines 1-10 (the second row's first two lines), then an XNNPACK line.
        std::size_t end = 0;
        for (int line = 0; line < 10; ++line)
            end = full.find('\n', end) + 1;
        const std::string text
            = full.substr(0, end) + "WhyNoPartition: Node aten_mm_default was not partitioned because reasons.\n";
        const PartitionLog log = parsePartitionLog(text, "cut.txt");
        QVERIFY2(hasWarning(log, QStringLiteral("cut.txt:11: the table that starts at line 3 is cut off")),
            qPrintable(warnings(log)));
        QCOMPARE(log.reasons.size(), std::size_t(3));
        QCOMPARE(log.reasons[0].reason, exampleRows()[0].reason);
        QVERIFY(!log.reasons[0].cut);
        QCOMPARE(log.reasons[1].nodeName, std::string("aten_convolution_default"));
        QVERIFY(log.reasons[1].cut);
        QCOMPARE(log.reasons[1].reason, std::string("Convolution needs to have kernel_y<=64,"));
        QCOMPARE(log.reasons[2].format, PartitionLogFormat::Xnnpack);

        // Cut at the very end of the file.
        const PartitionLog atEnd = parsePartitionLog(full.substr(0, end), "end.txt");
        QVERIFY(hasWarning(atEnd, QStringLiteral("end.txt:11: the table that starts at line 3 is cut off by the end")));
        QCOMPARE(atEnd.reasons.size(), std::size_t(2));
    }

    // Damaged rows and lines: wrong cell counts, rows without a table, unknown headers, lines
    // over the cap. Each warning names the file and the line; good rows are still read.
    void damaged()
    {
        std::string text = writeArmPartitionReport({ { "TOSA-1.0+INT", exampleRows() } });
        // Line 9 (the second row's first line) loses a cell separator.
        std::size_t start = 0;
        for (int line = 0; line < 8; ++line)
            start = text.find('\n', start) + 1;
        const std::size_t bar = text.find("\u2502", text.find("\u2502", start) + 3);
        text.replace(bar, 3, " ");
        text += "\u2502 stray \u2502 row \u2502\n";
        text += std::string(70 * 1024, 'x') + "\n";
        text += "WhyNoPartition: Node broken\n";
        const PartitionLog log = parsePartitionLog(text, "bad.txt");
        QVERIFY(hasWarning(log, QStringLiteral("bad.txt:9: a table row with 3 cells where the header has 4")));
        QVERIFY(hasWarning(log, QStringLiteral("bad.txt:17: a table line outside any table")));
        QVERIFY(hasWarning(log, QStringLiteral("bad.txt:18: a line of 71680 bytes")));
        QVERIFY(hasWarning(log, QStringLiteral("bad.txt:19: a WhyNoPartition line without")));
        // The skipped line held the row's node name: the rest of that row names no node.
        QVERIFY(hasWarning(log, QStringLiteral("bad.txt:10: a table row with no node name")));
        QCOMPARE(log.reasons.size(), std::size_t(2));
        QCOMPARE(log.reasons[0].reason, exampleRows()[0].reason);
        QCOMPARE(log.reasons[1].reason, exampleRows()[2].reason);

        const PartitionLog unknown
            = parsePartitionLog("\u2552\u2550\u2555\n\u2502 op_type \u2502 count \u2502\n\u255e\u2550\u2561\n\u2502 "
                                "aten_add \u2502 1 \u2502\n\u2558\u2550\u255b\n",
                "table.txt");
        // get_delegation_info's counts: no reasons and no complaint about the table, but nothing
        // of a partition report either.
        QCOMPARE(unknown.warnings.size(), std::size_t(1));
        QVERIFY(hasWarning(unknown, QStringLiteral("table.txt: no partition report found in 5 lines")));
        QVERIFY(unknown.reasons.empty());
        QCOMPARE(unknown.armTables, 0);
        const PartitionLog other
            = parsePartitionLog("\u2552\u2550\u2555\n\u2502 name \u2502 why \u2502\n\u255e\u2550\u2561\n\u2502 a "
                                "\u2502 b \u2502\n\u2558\u2550\u255b\n",
                "other.txt");
        QVERIFY(hasWarning(other, QStringLiteral("other.txt:2: a table whose header has no \"Node name\"")));
        QVERIFY(other.reasons.empty());

        const PartitionLog notALog = parsePartitionLog("hello\nworld\n", "notes.txt");
        QVERIFY(hasWarning(notALog, QStringLiteral("notes.txt: no partition report found in 2 lines")));
        QVERIFY(!notALog.recognised());
    }

    void limits()
    {
        std::string text;
        for (int i = 0; i < 50; ++i)
            text += "WhyNoPartition: Node n" + std::to_string(i) + " was not partitioned because r.\n";
        PartitionLogLimits limits;
        limits.maxLines = 10;
        const PartitionLog log = parsePartitionLog(text, "many.log", limits);
        QCOMPARE(log.reasons.size(), std::size_t(10));
        QVERIFY(hasWarning(log, QStringLiteral("many.log:11: more than 10 lines")));
        limits = {};
        limits.maxWarnings = 3;
        const PartitionLog noisy = parsePartitionLog(std::string(20, '\n') + "\u2502 a \u2502\n\u2502 b \u2502\n"
                + "\u2502 c \u2502\n\u2502 d \u2502\n\u2502 e \u2502\n",
            "noisy.log", limits);
        QCOMPARE(noisy.warnings.size(), std::size_t(4));
        QVERIFY(hasWarning(noisy, QStringLiteral("noisy.log: 3 more warnings not shown")));
    }

    void xnnpackLines()
    {
        const std::vector<RejectedNode> rows {
            { "aten_mm_default", "", "-", "Expected weight to be a static param" },
            { "aten_clone_default", "", "-", "Only dim-order preserving clones are supported." },
        };
        const PartitionLog log = parsePartitionLog(writeXnnpackWhyLines(rows), "xnn.log");
        QVERIFY2(log.warnings.empty(), qPrintable(warnings(log)));
        QCOMPARE(log.reasons.size(), std::size_t(2));
        QCOMPARE(log.reasons[0].format, PartitionLogFormat::Xnnpack);
        QCOMPARE(log.reasons[0].nodeName, std::string("aten_mm_default"));
        QCOMPARE(log.reasons[0].reason, std::string("Expected weight to be a static param"));
        // "…supported.." in the log: __str__ adds its own full stop; one is taken off.
        QCOMPARE(log.reasons[1].reason, std::string("Only dim-order preserving clones are supported."));
        QCOMPARE(log.reasons[1].line, 2);
    }

    void qnnLines()
    {
        const std::vector<std::pair<std::string, std::string>> verdicts { { "aten.convolution.default", "True" },
            { "aten.avg_pool3d.default", "False" }, { "aten.native_dropout.default", "No node visitor, unsupported" },
            { "aten.add.Tensor", "Forced Passed" } };
        for (const bool legacy : { true, false }) {
            const PartitionLog log = parsePartitionLog(writeQnnOpSupportLines(verdicts, legacy), "qnn.log");
            QVERIFY2(log.warnings.empty(), qPrintable(warnings(log)));
            QCOMPARE(log.supportedLines, 2);
            QCOMPARE(log.reasons.size(), std::size_t(2));
            QCOMPARE(log.reasons[0].target, std::string("aten.avg_pool3d.default"));
            QVERIFY(log.reasons[0].nodeName.empty());
            QVERIFY(QString::fromStdString(log.reasons[0].reason).contains(QStringLiteral("False")));
            QCOMPARE(log.reasons[1].reason, std::string("No node visitor, unsupported"));
            QCOMPARE(log.reasons[1].line, 3);
        }
    }

    void coreMlLines()
    {
        std::string text = writeCoreMlSkipLines({ "aten.Diagonal_copy.default" });
        text += "INFO:x:<EdgeOpOverload: aten.upsample_nearest2d.vec>: schema = aten::upsample_nearest2d.vec(Tensor "
                "input, SymInt[]? output_size, float[]? scale_factors) -> Tensor is not supported by CoreML.  "
                "Overriding op support.\n";
        text += "torch.ops.aten.{sub, add}.Tensor with alpha != 1 is not supported by CoreML.  Overriding support.\n";
        text += "Skipping op for CoreML delegation because it is not get_attr or call_function: placeholder\n";
        const PartitionLog log = parsePartitionLog(text, "coreml.log");
        QVERIFY2(log.warnings.empty(), qPrintable(warnings(log)));
        QCOMPARE(log.reasons.size(), std::size_t(4));
        QCOMPARE(log.reasons[0].target, std::string("aten.diagonal_copy.default"));
        QCOMPARE(log.reasons[0].reason, std::string("it is not supported by CoreML"));
        QCOMPARE(log.reasons[1].target, std::string("aten.upsample_nearest2d.vec"));
        QCOMPARE(operatorKey(log.reasons[2].target), std::string("aten::sub"));
        QCOMPARE(operatorKey(log.reasons[3].target), std::string("aten::add"));
        QVERIFY(QString::fromStdString(log.reasons[3].reason).contains(QStringLiteral("alpha != 1")));
    }

    void operatorKeys()
    {
        QCOMPARE(operatorKey("aten.avg_pool3d.default"), std::string("aten::avg_pool3d"));
        QCOMPARE(operatorKey("aten::avg_pool3d.out"), std::string("aten::avg_pool3d"));
        QCOMPARE(operatorKey("torch.ops.aten.add.Tensor"), std::string("aten::add"));
        QCOMPARE(operatorKey("add.Tensor"), std::string("aten::add"));
        QCOMPARE(operatorKey("quantized_decomposed.quantize_per_tensor.default"),
            std::string("quantized_decomposed::quantize_per_tensor"));
        QCOMPARE(operatorKey("<EdgeOpOverload: aten.mean.dim>: schema = aten::mean.dim(Tensor self)"),
            std::string("aten::mean"));
        QCOMPARE(operatorKey("<built-in function getitem>"), std::string());
        QCOMPARE(operatorKey("placeholder"), std::string());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestPartitionLog)
#include "tst_partitionlog.moc"
