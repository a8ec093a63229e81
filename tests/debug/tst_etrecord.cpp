// SPDX-License-Identifier: MIT
// The ETRecord reader on the real samples/executorch/etrecord.bin (facts from SOURCES.md and the
// archive's own JSON) and the archive limits. Archives no public file covers (hostile names,
// zip bombs, a populated delegate_map, lowered modules) are in tst_debugfixtures.
#include "tests/common/graphchecks.h"
#include "tests/common/testsupport.h"

#include "core/debug/etrecord.h"
#include "core/util/mappedfile.h"

#include <QTest>

using namespace etscope::core;
using namespace etscope::test;

namespace {

std::string sample()
{
    return etscope::test::samplePath("executorch/etrecord.bin");
}

} // namespace

class TestETRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void entries()
    {
        // SOURCES.md: zip entries with their sizes, in archive order.
        auto record = readETRecordFile(sample());
        QVERIFY2(record.ok(), record.ok() ? "" : record.error().message().c_str());
        const std::vector<std::pair<std::string, std::uint64_t>> expected { { "ETRECORD_V0", 0 },
            { "aten_dialect_output/forward", 6559 }, { "aten_dialect_output/forward_state_dict", 864 },
            { "edge_dialect_exported_program", 6652 }, { "edge_dialect_exported_program_state_dict", 864 },
            { "debug_handle_map", 2 }, { "delegate_map", 2 } };
        QCOMPARE(record->entries.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(record->entries[i].name, expected[i].first);
            QCOMPARE(record->entries[i].size, expected[i].second);
            QCOMPARE(record->entries[i].compressedSize, expected[i].second); // Python's zipfile stores
        }
        const std::vector<std::string> roles { "marker", "graph", "companion", "edge_program", "companion",
            "debug_handle_map", "delegate_map" };
        for (std::size_t i = 0; i < roles.size(); ++i)
            QCOMPARE(record->entries[i].role, roles[i]);
        QVERIFY(record->warnings.empty());
    }

    void edgeProgram()
    {
        // The legacy unsuffixed edge program stands for `forward`. Its one node (the toy model's
        // `input * other`) was serialized before nodes had names: the name is its output's.
        auto record = readETRecordFile(sample());
        QVERIFY(record.ok());
        QCOMPARE(record->edgePrograms.size(), std::size_t(1));
        const ETRecordGraph* edge = record->edgeProgram("forward");
        QVERIFY(edge);
        QCOMPARE(edge, record->edgeProgram());
        QCOMPARE(edge->entry, std::string("edge_dialect_exported_program"));
        const EdgeProgram& program = *edge->program;
        QCOMPARE(program.inputs, (std::vector<std::string> { "arg0_1", "arg1_1" }));
        QCOMPARE(program.outputs, (std::vector<std::string> { "aten_mul_tensor" }));
        QCOMPARE(program.nodes.size(), std::size_t(1));
        const EdgeNode& node = program.nodes.front();
        QCOMPARE(node.name, std::string("aten_mul_tensor"));
        QCOMPARE(node.target, std::string("executorch.exir.dialects.edge.ops.aten.mul.Tensor"));
        QCOMPARE(node.debugHandle, std::optional<DebugHandle>(DebugHandle(2)));
        QCOMPARE(node.inputs.size(), std::size_t(2));
        QCOMPARE(node.inputs[0].name, std::string("self"));
        QCOMPARE(node.inputs[0].kind, std::string("as_tensor"));
        QCOMPARE(node.inputs[0].tensors, std::vector<std::string> { "arg0_1" });
        QCOMPARE(node.inputs[1].name, std::string("other"));
        QCOMPARE(node.inputs[1].tensors, std::vector<std::string> { "arg1_1" });
        QCOMPARE(node.outputs, std::vector<std::string> { "aten_mul_tensor" });
        QVERIFY(node.stackTrace.find("return input * other") != std::string::npos);
        QVERIFY(!node.lowered);
        QVERIFY(!node.isDelegateCall());
        // tensor_values: FLOAT (serializer numbering 7) of shape [3, 2].
        QCOMPARE(program.tensors.at("arg0_1").dtype, std::string("FLOAT"));
        QCOMPARE(program.tensors.at("arg0_1").shape, (std::vector<std::int64_t> { 3, 2 }));
        QCOMPARE(program.nodesWithHandle(DebugHandle(2)).size(), std::size_t(1));
        QVERIFY(program.nodesWithHandle(DebugHandle(3)).empty());
    }

    void otherGraphsAndMaps()
    {
        auto record = readETRecordFile(sample());
        QVERIFY(record.ok());
        QCOMPARE(record->otherGraphs.size(), std::size_t(1));
        QCOMPARE(record->otherGraphs[0].name, std::string("aten_dialect_output"));
        QCOMPARE(record->otherGraphs[0].method, std::string("forward"));
        QCOMPARE(record->otherGraphs[0].program->nodes.front().target, std::string("torch.ops.aten.mul.Tensor"));
        QCOMPARE(record->otherGraphs[0].program->nodes.front().name, std::string("mul"));
        // Both maps hold "{}": present, empty.
        QVERIFY(record->debugHandleMap.empty());
        QVERIFY(record->delegateMap.empty());
        QVERIFY(record->numOutsMap.empty());
        QVERIFY(record->delegateOutputCounts("forward").empty());
        QCOMPARE(record->methods(), std::vector<std::string> { "forward" });
        QVERIFY(!record->delegateHandles("forward", 0, "x"));
    }

    void delegationInfoOfThePreLoweringGraph()
    {
        // get_delegation_info over the record's graph: one non-delegated aten_mul_tensor, no subgraphs.
        auto record = readETRecordFile(sample());
        QVERIFY(record.ok());
        auto table = etrecordOperatorTable(*record, "forward");
        QVERIFY(table.ok());
        QCOMPARE(table->source, std::string("etrecord"));
        QCOMPARE(table->rows.size(), std::size_t(1));
        QCOMPARE(table->rows[0].opType, std::string("aten_mul_tensor"));
        QCOMPARE(table->rows[0].delegated, 0);
        QCOMPARE(table->rows[0].nonDelegated, 1);
        QCOMPARE(table->summaryLines(),
            (std::vector<std::string> {
                "Total delegated subgraphs: 0", "Number of delegated nodes: 0", "Number of non-delegated nodes: 1" }));
        auto missing = etrecordOperatorTable(*record, "decode");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, Error::Code::Usage);
    }

    void opTypeStripsOneNumberSuffix()
    {
        // §8: op_type = node name minus one trailing "_<digits>".
        const auto type = [](const char* name) {
            EdgeNode node;
            node.name = name;
            return node.opType();
        };
        QCOMPARE(type("aten_add_tensor_3"), std::string("aten_add_tensor"));
        QCOMPARE(type("aten_add_tensor"), std::string("aten_add_tensor"));
        QCOMPARE(type("getitem_2"), std::string("getitem"));
        QCOMPARE(type("getitem"), std::string("getitem"));
        QCOMPARE(type("aten_view_copy_default_1_2"), std::string("aten_view_copy_default_1"));
        QCOMPARE(type("x_"), std::string("x_"));
        QCOMPARE(type("executorch_call_delegate_1"), std::string("executorch_call_delegate"));
    }

    void limits_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("reason");
        QTest::addRow("entry count") << 0 << QStringLiteral("7 entries (limit 3)");
        QTest::addRow("entry size") << 1
                                    << QStringLiteral("entry 'aten_dialect_output/forward': 6559 bytes uncompressed");
        QTest::addRow("total size") << 2 << QStringLiteral("more than 10000 bytes uncompressed");
        QTest::addRow("json size") << 3 << QStringLiteral("entry 'aten_dialect_output/forward': 6559 bytes of JSON");
    }

    void limits()
    {
        QFETCH(int, which);
        QFETCH(QString, reason);
        ETRecordLimits limits;
        if (which == 0)
            limits.zip.maxEntries = 3;
        else if (which == 1)
            limits.zip.maxEntrySize = 5000;
        else if (which == 2)
            limits.zip.maxTotalSize = 10000;
        else
            limits.maxJsonBytes = 5000;
        auto record = readETRecordFile(sample(), limits);
        if (which == 3) {
            // An oversized graph is skipped with a warning; the rest of the record stays usable.
            QVERIFY(record.ok());
            QVERIFY(!record->warnings.empty());
            QVERIFY2(QString::fromStdString(record->warnings.front().message).contains(reason),
                record->warnings.front().message.c_str());
            return;
        }
        QVERIFY(!record.ok());
        QCOMPARE(record.error().code, Error::Code::Limit);
        QCOMPARE(record.error().file, sample());
        QVERIFY2(QString::fromStdString(record.error().reason).contains(reason), record.error().reason.c_str());
    }

    void notAnArchive()
    {
        auto pte = readETRecordFile(etscope::test::samplePath("executorch/add.pte"));
        QVERIFY(!pte.ok());
        QCOMPARE(pte.error().code, Error::Code::BadIdentifier);
        QVERIFY(QString::fromStdString(pte.error().message()).contains(QStringLiteral("not a ZIP archive")));
        auto missing = readETRecordFile("/nonexistent/etrecord.bin");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, Error::Code::Io);
    }

    void truncatedArchives()
    {
        // Every cut of the real archive fails cleanly (the central directory sits at the end).
        auto file = MappedFile::open(sample());
        QVERIFY(file.ok());
        const auto bytes = file.value()->bytes();
        for (std::size_t size = 0; size < bytes.size(); size += 97) {
            auto record = readETRecord(MappedFile::fromBytes("cut.bin", bytes.first(size)));
            QVERIFY(!record.ok());
            QCOMPARE(record.error().file, std::string("cut.bin"));
        }
    }

    void flippedBytes()
    {
        // Damaged bytes anywhere: an error (CRC, structure) or a record, never a crash.
        auto file = MappedFile::open(sample());
        QVERIFY(file.ok());
        const auto original = file.value()->bytes();
        for (std::size_t i = 0; i < original.size(); i += 61) {
            std::vector<std::uint8_t> bytes(original.begin(), original.end());
            bytes[i] ^= 0x5a;
            auto record = readETRecord(MappedFile::fromBytes("flipped.bin", bytes));
            if (!record.ok())
                QCOMPARE(record.error().file, std::string("flipped.bin"));
        }
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestETRecord)
#include "tst_etrecord.moc"
