// SPDX-License-Identifier: MIT
// The size breakdown in the app: the treemap of stress_mlp.pte (areas are bytes, the boxes tile
// the map), its links to the graph both ways, linear.pte with linear.ptd beside it as a second
// root, a .ptd opened alone, and the four exports.
#include "tests/common/testsupport.h"
#include "ui/document/documentcontroller.h"
#include "ui/size/sizepanel.h"
#include "ui/size/treemap.h"
#include "ui/window/documentview.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope::core;
using namespace etscope::ui;

namespace {

constexpr std::uint64_t kStressMlpBytes = 2709120;

std::shared_ptr<const Document> load(const std::string& path)
{
    auto document = openDocument(path);
    if (!document)
        return nullptr;
    return std::make_shared<const Document>(std::move(document).value());
}

std::shared_ptr<const Document> sample(const std::string& relative)
{
    return load(etscope::test::samplePath(relative));
}

void saveShot(QWidget& widget, const QString& name)
{
    if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
        widget.grab().save(qEnvironmentVariable("ETSCOPE_SHOTS") + QLatin1Char('/') + name);
}

double area(const QRectF& rect)
{
    return rect.width() * rect.height();
}

/// Every box's area is its share of what holds it (the map, or an opened group's inside), and
/// what is drawn (boxes drawn whole and the frames of opened groups) covers the map exactly.
void checkTiling(const TreemapView& map)
{
    const auto& boxes = map.boxes();
    QVERIFY(!boxes.empty());
    const QRectF whole(QPointF(0, 0), QSizeF(map.size()));
    const SizeNode* root = map.shownRoot();
    std::map<const SizeNode*, const TreemapBox*> boxOf;
    for (const TreemapBox& box : boxes)
        boxOf[box.node] = &box;
    double covered = 0;
    for (const TreemapBox& box : boxes) {
        const SizeNode* parent = map.parentOf(box.node);
        QVERIFY(parent);
        double holder = area(whole);
        if (parent != root) {
            const TreemapBox* parentBox = boxOf[parent];
            QVERIFY(parentBox && parentBox->node == parent && parentBox->opened());
            QVERIFY(parentBox->inner.adjusted(-1e-6, -1e-6, 1e-6, 1e-6).contains(box.rect));
            holder = area(parentBox->inner);
        }
        const double expected = holder * static_cast<double>(box.node->bytes) / static_cast<double>(parent->bytes);
        QVERIFY2(std::abs(area(box.rect) - expected) <= 1e-6 * holder + 1e-9,
            qPrintable(QStringLiteral("%1: %2 px² for %3 px²")
                           .arg(QString::fromStdString(box.node->name))
                           .arg(area(box.rect))
                           .arg(expected)));
        covered += box.opened() ? area(box.rect) - area(box.inner) : area(box.rect);
    }
    QVERIFY2(std::abs(covered - area(whole)) < 1e-6 * area(whole), qPrintable(QString::number(covered)));
    // No two boxes drawn whole overlap (with the sum above: they and the frames tile the map).
    std::vector<const TreemapBox*> drawn;
    for (const TreemapBox& box : boxes)
        if (!box.opened())
            drawn.push_back(&box);
    for (std::size_t a = 0; a < drawn.size() && a < 400; ++a)
        for (std::size_t b = a + 1; b < drawn.size() && b < 400; ++b)
            QVERIFY(area(drawn[a]->rect.intersected(drawn[b]->rect)) < 1e-6);
}

/// The largest leaf of that kind (and backend).
const SizeNode* findLeaf(const SizeTree& tree, SizeKind kind, const std::string& backend = {})
{
    const SizeNode* found = nullptr;
    for (const SizeNode* leaf : sizeLeaves(tree))
        if (leaf->kind == kind && (backend.empty() || leaf->backend == backend)
            && (!found || leaf->bytes > found->bytes))
            found = leaf;
    return found;
}

/// Clicks the part's box as a user would: a box too small to hit is reached by opening the
/// group that holds it first (clicking its title or its closed box).
bool clickPart(TreemapView& map, const SizeNode* part)
{
    for (int attempt = 0; attempt < 8; ++attempt) {
        const TreemapBox* box = map.boxOf(part);
        if (!box && map.shownRoot() != &map.tree()->root) {
            map.setShownRoot(&map.tree()->root); // the breadcrumb's first link
            continue;
        }
        if (!box)
            return false;
        if (box->node == part && (box->rect.width() < 8 || box->rect.height() < 8)) {
            // The outermost opened group below the shown root that holds it.
            const SizeNode* group = map.parentOf(part);
            while (group && map.parentOf(group) != map.shownRoot())
                group = map.parentOf(group);
            const TreemapBox* groupBox = group ? map.boxOf(group) : nullptr;
            if (!groupBox || groupBox->node != group)
                return false;
            QTest::mouseClick(&map, Qt::LeftButton, {}, (groupBox->rect.topLeft() + QPointF(3, 3)).toPoint());
            continue;
        }
        QTest::mouseClick(&map, Qt::LeftButton, {}, box->rect.center().toPoint());
        if (map.selected() == part)
            return true;
    }
    return false;
}

std::vector<std::vector<QString>> readCsv(const QString& path)
{
    QFile file(path);
    std::vector<std::vector<QString>> rows;
    if (!file.open(QIODevice::ReadOnly))
        return rows;
    const QString text = QString::fromUtf8(file.readAll());
    std::vector<QString> row;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"'))
                cell += c, ++i;
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                cell += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row.push_back(cell);
            cell.clear();
        } else if (c == QLatin1Char('\n')) {
            row.push_back(cell);
            cell.clear();
            rows.push_back(row);
            row.clear();
        } else if (c != QLatin1Char('\r')) {
            cell += c;
        }
    }
    return rows;
}

} // namespace

class TestSizePanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void stressMlpTreemap()
    {
        // stress_mlp.pte: 2,709,120 bytes; named data 2,631,680 (97.1%); XnnpackBackend (its
        // delegate blob and the named data it names) 2,637,296 (tst_sizebreakdown, by hand).
        SizePanel panel;
        panel.setDocument(sample("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(!panel.breakdown()); // lazily: nothing before it is shown
        panel.resize(1300, 560);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY(panel.breakdown()); // computed on a worker
        const SizeTree& tree = panel.breakdown()->main;
        QCOMPARE(tree.fileSize, kStressMlpBytes);
        QCOMPARE(tree.root.bytes, kStressMlpBytes);
        auto* total = panel.findChild<QLabel*>(QStringLiteral("sizeTotal"));
        QVERIFY(total->text().contains(QStringLiteral("2,709,120 bytes")));
        QVERIFY(total->text().contains(QStringLiteral("add up to the file size")));
        QVERIFY(panel.findChild<QComboBox*>(QStringLiteral("sizeTrees"))->isHidden()); // one root only

        const auto& rows = panel.summary()->rows();
        const auto row = [&](const QString& label) {
            const auto it = std::find_if(
                rows.begin(), rows.end(), [&](const SizeSummary::Row& r) { return !r.title && r.label == label; });
            return it == rows.end() ? nullptr : &*it;
        };
        QVERIFY(row(QStringLiteral("named data")));
        QCOMPARE(row(QStringLiteral("named data"))->bytes, std::uint64_t(2631680));
        QVERIFY(row(QStringLiteral("XnnpackBackend")));
        QCOMPARE(row(QStringLiteral("XnnpackBackend"))->bytes, std::uint64_t(2637296));
        // Sorted, largest first, within each section.
        QVERIFY(rows[1].bytes >= rows[2].bytes);

        TreemapView* map = panel.treemap();
        QCOMPARE(map->shownRoot(), &tree.root);
        checkTiling(*map);
        // Every part with bytes is somewhere on the map (its own box or its closed group's).
        for (const SizeNode* leaf : sizeLeaves(tree))
            QVERIFY(leaf->bytes == 0 || map->boxOf(leaf));
        const TreemapBox* named = map->boxOf(findLeaf(tree, SizeKind::NamedData));
        QVERIFY(named && named->node->kind == SizeKind::NamedData);
        // A tooltip says what it is, exactly and in human units, and what uses it.
        const QString tip = map->describe(*named->node);
        QVERIFY(tip.contains(QStringLiteral("262,144 bytes (256.0 KiB), 9.7% of the file")));
        QVERIFY(tip.contains(QStringLiteral("used by: key ")));
        QVERIFY(tip.contains(QStringLiteral("forward delegate #1")));
        saveShot(panel, QStringLiteral("size-stress_mlp.png"));

        // Descending into a group: its parts tile the whole map; up again by the breadcrumb.
        const SizeNode* segments = map->parentOf(named->node);
        QVERIFY(segments && !segments->isLeaf());
        QTest::mouseClick(map, Qt::LeftButton, {}, map->boxOf(segments)->rect.topLeft().toPoint() + QPoint(20, 5));
        QCOMPARE(map->shownRoot(), segments);
        QCOMPARE(map->rootPath().size(), std::size_t(2));
        checkTiling(*map);
        auto* crumb = panel.findChild<QLabel*>(QStringLiteral("sizeBreadcrumb"));
        QVERIFY(crumb->text().contains(QStringLiteral("<a href=\"0\">stress_mlp.pte</a>")));
        Q_EMIT crumb->linkActivated(QStringLiteral("0"));
        QCOMPARE(map->shownRoot(), &tree.root);

        // Clicking a kind in the summary marks its parts.
        const auto namedRow = static_cast<int>(row(QStringLiteral("named data")) - rows.data());
        Q_EMIT panel.summary()->rowClicked(namedRow);
        QCOMPARE(map->marked().size(), row(QStringLiteral("named data"))->parts);
    }

    void linkedToTheGraphBothWays()
    {
        DocumentController controller;
        controller.adopt(sample("djl-executorch-engine/stress_mlp.pte"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1400, 1000);
        view.show();
        QSignalSpy shown(&view, &DocumentView::presentationShown);
        QVERIFY(view.presentation() || shown.wait(20000));
        SizePanel* panel = view.sizePanel();
        QVERIFY(view.analysisTabs()->indexOf(panel) >= 0);
        QVERIFY(!panel->breakdown());
        view.showAnalysis(panel);
        QVERIFY(panel->isVisible());
        QTRY_VERIFY(panel->breakdown());
        const SizeTree& tree = panel->breakdown()->main;
        const Graph& graph = *controller.document()->methods[0].graph;
        TreemapView* map = panel->treemap();

        // Constant #1 (FLOAT [64, 256], forward value 0) ↔ the Constant node of value 0.
        const SizeNode* constant = findLeaf(tree, SizeKind::Constant);
        QVERIFY(constant && constant->refs.front().kind == SizeRef::Kind::Value);
        const auto constantNode = panel->nodeOf(*constant);
        QVERIFY(constantNode);
        QCOMPARE(constantNode->first, 0);
        QCOMPARE(graph.node(constantNode->second.top).kind, NodeKind::Constant);
        QCOMPARE(graph.node(constantNode->second.top).value, constant->refs.front().value);
        QVERIFY(clickPart(*map, constant));
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == constantNode->second, 20000);
        QCOMPARE(map->marked(), (std::set<const SizeNode*> { constant }));

        // The XNNPACK delegate blob (forward delegate #1, 4,976 bytes) ↔ the delegate node; the node marks its blob and
        // the named data its payload names.
        const SizeNode* blob = findLeaf(tree, SizeKind::DelegateSegment, "XnnpackBackend");
        QVERIFY(blob);
        QCOMPARE(blob->bytes, std::uint64_t(4976));
        const auto delegateNode = panel->nodeOf(*blob);
        QVERIFY(delegateNode);
        QCOMPARE(graph.node(delegateNode->second.top).kind, NodeKind::Delegate);
        QVERIFY(clickPart(*map, blob));
        QTRY_VERIFY_WITH_TIMEOUT(view.selectedNode() == delegateNode->second, 20000);
        QVERIFY(map->marked().count(blob));
        std::uint64_t markedBytes = 0;
        for (const SizeNode* part : map->marked())
            markedBytes += part->bytes;
        QVERIFY(map->marked().size() > 1);
        QVERIFY(markedBytes > 1000000); // its weights come with it

        // Graph → treemap, starting in the graph.
        view.selectNode(constantNode->second);
        QTRY_COMPARE_WITH_TIMEOUT(map->marked(), (std::set<const SizeNode*> { constant }), 20000);
        saveShot(view, QStringLiteral("size-linked.png"));
    }

    void externalDataIsASecondRoot()
    {
        // linear.pte keeps its weights in linear.ptd beside it (336 bytes).
        SizePanel panel;
        panel.setDocument(sample("executorch/linear.pte"));
        panel.resize(1000, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY(panel.breakdown()); // computed on a worker
        QCOMPARE(panel.breakdown()->externalData.size(), std::size_t(1));
        auto* trees = panel.findChild<QComboBox*>(QStringLiteral("sizeTrees"));
        QVERIFY(trees->isVisible());
        QCOMPARE(trees->count(), 2);
        QVERIFY(trees->itemText(1).startsWith(QStringLiteral("linear.ptd")));
        trees->setCurrentIndex(1);
        const SizeTree* ptd = panel.treemap()->tree();
        QCOMPARE(ptd, &panel.breakdown()->externalData.front());
        QCOMPARE(ptd->fileSize, std::uint64_t(336));
        QCOMPARE(ptd->root.bytes, std::uint64_t(336));
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("sizeTotal"))->text().contains(QStringLiteral("336 bytes")));
        checkTiling(*panel.treemap());
        saveShot(panel, QStringLiteral("size-linear-ptd.png"));
    }

    void ptdOpenedAlone()
    {
        DocumentController controller;
        controller.adopt(sample("executorch/linear.ptd"));
        DocumentView view(&controller, GraphContext {});
        view.resize(1200, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        SizePanel* panel = view.sizePanel();
        QVERIFY(panel->isVisible());
        QTRY_VERIFY(panel->breakdown());
        QCOMPARE(panel->breakdown()->main.fileSize, std::uint64_t(336));
        checkTiling(*panel->treemap());
        saveShot(view, QStringLiteral("size-ptd-alone.png"));
    }

    void exportsParse()
    {
        SizePanel panel;
        panel.setDocument(sample("djl-executorch-engine/stress_mlp.pte"));
        QTemporaryDir dir;
        QString error;
        // Never shown: exporting computes it, the picture is 1,000 × 600 under a caption line.
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("s.png")), &error), qPrintable(error));
        const QImage image(dir.filePath(QStringLiteral("s.png")));
        QCOMPARE(image.width(), 1000);
        QVERIFY(image.height() > 600);
        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("s.svg")), &error), qPrintable(error));
        QFile svg(dir.filePath(QStringLiteral("s.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("stress_mlp.pte")); // the caption, as text

        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("s.csv")), &error), qPrintable(error));
        const auto csv = readCsv(dir.filePath(QStringLiteral("s.csv")));
        QVERIFY(csv.size() > 1);
        QCOMPARE(csv[0],
            (std::vector<QString> { QStringLiteral("file"), QStringLiteral("offset"), QStringLiteral("bytes"),
                QStringLiteral("kind"), QStringLiteral("part"), QStringLiteral("backend"), QStringLiteral("segment"),
                QStringLiteral("refs"), QStringLiteral("detail") }));
        // The byte ranges partition the file: in offset order, each starts where the last ended.
        std::uint64_t next = 0;
        for (std::size_t i = 1; i < csv.size(); ++i) {
            QCOMPARE(csv[i].size(), std::size_t(9));
            QCOMPARE(csv[i][1].toULongLong(), next);
            next += csv[i][2].toULongLong();
        }
        QCOMPARE(next, kStressMlpBytes);

        QVERIFY2(panel.exportTo(dir.filePath(QStringLiteral("s.json")), &error), qPrintable(error));
        QFile jsonFile(dir.filePath(QStringLiteral("s.json")));
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(json.value(QStringLiteral("file_size")).toInteger(), qint64(kStressMlpBytes));
        QCOMPARE(json.value(QStringLiteral("tree")).toObject().value(QStringLiteral("bytes")).toInteger(),
            qint64(kStressMlpBytes));
        QVERIFY(json.value(QStringLiteral("external_data")).toArray().isEmpty());

        QVERIFY(!panel.exportTo(dir.filePath(QStringLiteral("s.pdf")), &error));
        QVERIFY(error.contains(QStringLiteral(".png, .svg, .csv or .json")));
    }

    void bigSample_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addRow("mobilenet_v2_vgf_segments") << QString::fromStdString(
            etscope::test::samplePath("pte-adapter-model-explorer/mobilenet_v2_vgf_segments.pte"));
        QTest::addRow("stories260k") << QString::fromStdString(
            etscope::test::samplePath("executorch/stories260k_hybrid_llama_qnn.pte"));
        // A synthetic giant when one is given (etscope-synth --shape llm --instructions 100000).
        if (qEnvironmentVariableIsSet("ETSCOPE_BIG_PTE"))
            QTest::addRow("big") << qEnvironmentVariable("ETSCOPE_BIG_PTE");
    }

    void bigSample()
    {
        QFETCH(QString, path);
        auto document = load(path.toStdString());
        QVERIFY(document);
        SizePanel panel;
        panel.setDocument(document);
        panel.resize(1300, 560);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY_WITH_TIMEOUT(panel.breakdown(), 60000); // computed on a worker
        const SizeTree& tree = panel.breakdown()->main;
        QCOMPARE(tree.root.bytes, tree.fileSize);
        QElapsedTimer painting;
        painting.start();
        const QImage shot = panel.grab().toImage();
        const qint64 paintMs = painting.elapsed();
        // What the UI thread does with a result: the whole synchronous path minus the breakdown.
        SizePanel again;
        again.setDocument(document);
        QElapsedTimer installing;
        installing.start();
        QVERIFY(again.ensureComputed());
        const qint64 installMs = installing.elapsed() - again.computeMilliseconds();
        qInfo("%s: breakdown %lld ms (worker), showing it %lld ms, layout and paint %lld ms, %zu boxes",
            qPrintable(QFileInfo(path).fileName()), panel.computeMilliseconds(), installMs, paintMs,
            panel.treemap()->boxes().size());
        checkTiling(*panel.treemap());
        if (qEnvironmentVariableIsSet("ETSCOPE_SHOTS"))
            shot.save(
                qEnvironmentVariable("ETSCOPE_SHOTS") + QStringLiteral("/size-%1.png").arg(QTest::currentDataTag()));
    }
};

ETSCOPE_TEST_MAIN(TestSizePanel)
#include "tst_sizepanel.moc"
