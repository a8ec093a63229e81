// SPDX-License-Identifier: MIT
// etscope-docshots OUTPUT_DIR [NAME…] — the screenshots of docs/app.md and docs/diff.md, one PNG
// per view of the app, taken from the real samples (ETSCOPE_SAMPLES_DIR, ../shared/samples) in a
// 1280×800 window on Qt's offscreen platform. Each view is shown, its work (layout, check, plan,
// heat tables) waited for, then the window grabbed. NAMEs limit the run to those shots. Settings
// go to a temporary folder: the user's are neither read nor changed. Not a test: a tool that
// prints what it does (docs/HACKING.md, "Screenshots of the manual").
#include "ui/common/theme.h"
#include "ui/compare/compareview.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/memory/memorypanel.h"
#include "ui/operators/operatorpanel.h"
#include "ui/report/reportdialog.h"
#include "ui/size/sizepanel.h"
#include "ui/timeline/timelineview.h"
#include "ui/window/documentview.h"
#include "ui/window/mainwindow.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QProgressBar>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace etscope;
using core::NodeId;
using core::NodeOrigin;
using ui::DocumentView;
using ui::MainWindow;

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kTimeoutMs = 120000;
constexpr double kLegibleZoom = 0.8;

QString g_samples;
QString g_output;
/// Files the shots write (the QNN copy, the drifted run, the demo): a fixed folder, so that the
/// paths the pictures show are the same on every run.
QDir g_scratch;

QString sample(const char* relative)
{
    return QDir(g_samples).absoluteFilePath(QString::fromUtf8(relative));
}

/// Runs the event loop until `done` holds (true) or `ms` pass (false).
bool waitUntil(const std::function<bool()>& done, int ms = kTimeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return true;
}

/// Lets queued work run for `ms` (repaints, a layout's result, a panel filling in).
void settleFor(int ms)
{
    waitUntil([] { return false; }, ms);
}

/// A visible label or progress bar still telling of work in progress.
bool showsWork(const QWidget& root)
{
    static const QStringList busyWords = { QStringLiteral("Laying out"), QStringLiteral("Opening"),
        QStringLiteral("Reading the debug data"), QStringLiteral("Computing"), QStringLiteral("Checking") };
    for (const QLabel* label : root.findChildren<QLabel*>())
        if (label->isVisible())
            for (const QString& word : busyWords)
                if (label->text().startsWith(word))
                    return true;
    for (const QProgressBar* bar : root.findChildren<QProgressBar*>())
        if (bar->isVisible())
            return true;
    return false;
}

/// The view's layout is shown for its method and open delegates, its debug data read.
bool settled(const DocumentView* view)
{
    const auto document = view->controller()->document();
    if (document && !document->program) // an ETDump alone: its page, no graph
        return !view->controller()->debugBusy();
    const auto presentation = view->presentation();
    return presentation && presentation->context.method == view->context().method
        && presentation->expanded == view->expanded() && !view->controller()->debugBusy() && !view->debugDataPending();
}

bool waitSettled(const QWidget& window, const DocumentView* view)
{
    const bool done = waitUntil([&] { return settled(view) && !showsWork(window); });
    settleFor(300);
    return done && waitUntil([&] { return !showsWork(window); });
}

/// Saves `image` as OUTPUT/name.png, as small as PNG makes it.
bool save(const QImage& image, const QString& name)
{
    const QString path = QDir(g_output).filePath(name + QStringLiteral(".png"));
    QImageWriter writer(path, "png");
    writer.setQuality(0); // PNG: quality 0 is the strongest compression (lossless either way)
    // Screenshots have few colours: an 8-bit palette keeps text sharp at a third of the bytes.
    const QImage small = image.convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither);
    if (!writer.write(small)) {
        std::fprintf(stderr, "docshots: %s: %s\n", qUtf8Printable(path), qUtf8Printable(writer.errorString()));
        return false;
    }
    std::printf("%s %dx%d %lld bytes\n", qUtf8Printable(path), small.width(), small.height(),
        static_cast<long long>(QFileInfo(path).size()));
    return true;
}

bool grab(QWidget& widget, const QString& name, const QRect& crop = {})
{
    // Nothing that depends on timing: no status message (they go after 5 s), no text caret.
    if (auto* window = qobject_cast<QMainWindow*>(&widget))
        window->statusBar()->clearMessage();
    if (QWidget* focused = QApplication::focusWidget())
        focused->clearFocus();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    QImage image = widget.grab().toImage();
    if (!crop.isNull())
        image = image.copy(crop);
    return save(image, name);
}

/// A window of the fixed size with `files` open (a program and the debug data named after it),
/// shown once the first view is drawn and the debug data attached.
struct Window {
    MainWindow window;

    bool open(const QStringList& files)
    {
        window.resize(kWidth, kHeight);
        window.show();
        bool painted = false;
        bool failed = false;
        QObject::connect(&window, &MainWindow::firstPainted, &window, [&] { painted = true; });
        QObject::connect(&window, &MainWindow::documentFailed, &window, [&](const QString& path, const QString& why) {
            std::fprintf(stderr, "docshots: %s: %s\n", qUtf8Printable(path), qUtf8Printable(why));
            failed = true;
        });
        window.openFiles(files);
        if (!waitUntil([&] { return failed || (painted && window.pendingAttachments() == 0); }) || failed)
            return false;
        if (!view() || !waitSettled(window, view()))
            return false;
        // The first view is chosen when the graph is first shown: fitted or at a legible zoom,
        // for the viewport of that moment, which the debug data's panels may shrink later.
        // Chosen again once all is shown, the picture no longer depends on which came first.
        if (view()->presentation()) {
            view()->graphView()->showLegible();
            settleFor(100);
        }
        return true;
    }
    DocumentView* view() const { return window.currentView(); }
    bool settle() { return waitSettled(window, view()); }
    /// Brings the side tab titled `title` (Operators, Search, Heatmap, Load) to the front.
    void showSideTab(const QString& title)
    {
        for (QTabWidget* tabs : view()->findChildren<QTabWidget*>())
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == title)
                    tabs->setCurrentIndex(i);
    }
    /// Shows the analysis area under the graph with `panel` in front, given `share` of the height.
    void showAnalysis(QWidget* panel, double share = 0.75)
    {
        view()->showAnalysis(panel);
        if (auto* splitter = qobject_cast<QSplitter*>(view()->analysisTabs()->parentWidget()))
            splitter->setSizes({ static_cast<int>(kHeight * (1 - share)), static_cast<int>(kHeight * share) });
        // The smaller graph shows its start again (inputs first), as a first view does.
        settleFor(100);
        view()->graphView()->showLegible();
    }
    /// Gives the side panes (operators, search, heatmap, load; properties) `width` pixels.
    void widenSide(int width)
    {
        for (QSplitter* splitter : view()->findChildren<QSplitter*>())
            if (splitter->orientation() == Qt::Horizontal && splitter->count() == 2)
                splitter->setSizes({ kWidth - width, width });
        // The narrower graph keeps its left edge in view, not its centre.
        settleFor(100);
        QScrollBar* across = view()->graphView()->horizontalScrollBar();
        across->setValue(across->minimum());
    }
    bool shot(const QString& name, const QRect& crop = {}) { return settle() && grab(window, name, crop); }
};

/// The delegate with the largest inner graph in the method shown.
std::optional<NodeId> largestDelegate(const DocumentView* view)
{
    std::optional<NodeId> largest;
    std::size_t most = 0;
    for (const core::Node& node : view->presentation()->methodGraph().nodes)
        if (node.kind == core::NodeKind::Delegate && node.subgraph && node.subgraph->nodes.size() > most) {
            most = node.subgraph->nodes.size();
            largest = node.id;
        }
    return largest;
}

/// The first node running `opType` in the method shown.
std::optional<NodeId> firstOperator(const DocumentView* view, const std::string& opType)
{
    for (const core::Node& node : view->presentation()->methodGraph().nodes)
        if (node.kind == core::NodeKind::Operator && node.opType.find(opType) != std::string::npos)
            return node.id;
    return std::nullopt;
}

/// Opens `file`, expands its first delegate in place and fits the graph.
bool expandedDelegate(const QString& name, const QString& file, int method = -1)
{
    Window w;
    if (!w.open({ file }))
        return false;
    if (method >= 0) {
        w.view()->setMethod(method);
        w.settle();
    }
    const auto delegate = largestDelegate(w.view());
    if (!delegate) {
        std::fprintf(stderr, "docshots: %s: no delegate with an inner graph\n", qUtf8Printable(file));
        return false;
    }
    w.view()->toggleExpanded({ *delegate, NodeId::none() });
    w.settle();
    w.view()->graphView()->fitAll();
    // A large inner graph fitted whole is a grey smear: its start at a zoom where text reads.
    if (w.view()->graphView()->zoom() < kLegibleZoom) {
        w.view()->graphView()->setZoom(kLegibleZoom);
        w.view()->graphView()->centerOn(w.view()->graphView()->sceneRect().center().x(), 0);
        const QRectF frame = w.view()->scene()->clusterItems().front()->sceneBoundingRect();
        const QRectF shown
            = w.view()->graphView()->mapToScene(w.view()->graphView()->viewport()->rect()).boundingRect();
        w.view()->graphView()->centerOn(frame.left() + shown.width() / 2 - 60, frame.top() + shown.height() / 2 - 80);
    }
    return w.shot(name);
}

/// Opens `file` and shows the analysis panel `panel` (Memory, Size) once it has computed.
template <typename Panel>
bool computedPanel(const QString& name, const QString& file, Panel* (DocumentView::*panel)() const)
{
    Window w;
    if (!w.open({ file }))
        return false;
    Panel* shown = (w.view()->*panel)();
    bool computed = false;
    QObject::connect(shown, &Panel::computed, shown, [&] { computed = true; });
    w.showAnalysis(shown);
    waitUntil([&] { return computed; }, 20000);
    return w.shot(name);
}

/// The bundled demo (program + device/host ETDump pair, written by the build into
/// ETSCOPE_DEMO_DIR), copied into the scratch folder so that the paths it shows are the same
/// wherever the build tree is.
QString copyDemo()
{
    const QString from = QStringLiteral(ETSCOPE_DEMO_DIR);
    for (const char* name :
        { "demo.pte", "demo.etdp", "demo.debug.bin", "demo.reference.etdp", "demo.reference.debug.bin" }) {
        const QString file = QString::fromLatin1(name);
        if (!QFile::copy(QDir(from).filePath(file), g_scratch.filePath(file)) && !g_scratch.exists(file))
            return {};
    }
    return g_scratch.filePath(QStringLiteral("demo.pte"));
}

/// The QNN pair of docs/diff.md: the stories260k sample and a copy of it whose QNN payload has
/// 1000 bytes flipped (as tests/analysis/tst_programdiff.cpp makes it), in the temporary folder.
QString writeRebuiltQnn(const QString& original)
{
    Window probe; // the payload's place, read as the app reads it
    if (!probe.open({ original }))
        return {};
    const auto document = probe.view()->controller()->document();
    std::optional<core::ByteRange> payload;
    for (const core::Method& method : document->program->methods)
        for (const core::DelegateRef& ref : method.delegates)
            if (ref.backendId == "QnnBackend")
                payload = ref.payload;
    QFile in(original);
    if (!payload || !in.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = in.readAll();
    const std::uint64_t start = payload->offset + 4096;
    if (start + 1000 > static_cast<std::uint64_t>(bytes.size()))
        return {};
    for (std::uint64_t i = 0; i < 1000; ++i)
        bytes[static_cast<qsizetype>(start + i)] ^= char(0xff);
    const QString path = g_scratch.filePath(QStringLiteral("stories260k_rebuilt.pte"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
        return {};
    return path;
}

/// File › Compare… on the QNN pair: `qnn` against its copy with payload bytes inverted.
bool compareShot(const QString& name, const QString& qnn)
{
    const QString rebuilt = writeRebuiltQnn(qnn);
    if (rebuilt.isEmpty())
        return false;
    MainWindow window;
    window.resize(kWidth, kHeight);
    window.show();
    auto* compare = new ui::CompareView(window.tabs());
    if (window.tabs()->count() == 1) // the welcome page, as File › Compare… removes it
        window.tabs()->removeTab(0);
    bool ready = false;
    QObject::connect(compare, &ui::CompareView::ready, compare, [&] { ready = true; });
    QObject::connect(compare, &ui::CompareView::failed, compare,
        [](const QString& why) { std::fprintf(stderr, "docshots: compare: %s\n", qUtf8Printable(why)); });
    compare->compareFiles(qnn, rebuilt);
    window.tabs()->setCurrentIndex(window.tabs()->addTab(compare, compare->title()));
    if (!waitUntil([&] { return ready; }))
        return false;
    using Side = ui::CompareView::Side;
    if (!waitUntil([&] {
            return compare->view(Side::A) && compare->view(Side::B) && settled(compare->view(Side::A))
                && settled(compare->view(Side::B)) && !showsWork(window);
        }))
        return false;
    settleFor(500);
    return grab(window, name);
}

/// A run that drifts from its reference half-way: the reference is stress_mlp's real run with
/// its intermediate outputs (generated/stress_mlp), the run a copy of it in the temporary folder
/// whose debug buffer has the top mantissa bit of every float flipped from its middle on (each
/// value off by 25-50 %). Returns {run, reference} ETDumps, each with its .debug.bin beside it.
QStringList writeDivergentPair()
{
    const QString stem = sample("generated/stress_mlp/stress_mlp.intermediates");
    QFile etdump(stem + QStringLiteral(".etdp"));
    QFile buffer(stem + QStringLiteral(".debug.bin"));
    if (!etdump.open(QIODevice::ReadOnly) || !buffer.open(QIODevice::ReadOnly))
        return {};
    const QByteArray events = etdump.readAll();
    const QByteArray original = buffer.readAll();
    QByteArray drifted = original;
    // Tensors start 64-byte aligned (generated/README.md): byte 2 of each word is a float's top
    // mantissa byte.
    for (qsizetype i = drifted.size() / 2 / 4 * 4 + 2; i < drifted.size(); i += 4)
        drifted[i] = static_cast<char>(drifted[i] ^ 0x40);
    const auto write = [](const QString& path, const QByteArray& bytes) {
        QFile out(path);
        return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
    };
    const QString run = g_scratch.filePath(QStringLiteral("stress_mlp.device"));
    const QString reference = g_scratch.filePath(QStringLiteral("stress_mlp.host"));
    if (!write(run + QStringLiteral(".etdp"), events) || !write(run + QStringLiteral(".debug.bin"), drifted)
        || !write(reference + QStringLiteral(".etdp"), events)
        || !write(reference + QStringLiteral(".debug.bin"), original))
        return {};
    return { run + QStringLiteral(".etdp"), reference + QStringLiteral(".etdp") };
}

/// Takes one picture, saved under the name it is given; false when it could not be taken.
using Take = std::function<bool(const QString& name)>;

/// Opens `files` in a window, does `action` (when given), then takes the window.
Take inWindow(const QStringList& files, const std::function<bool(Window&)>& action = {})
{
    return [=](const QString& name) {
        Window w;
        return w.open(files) && (!action || action(w)) && w.shot(name);
    };
}

std::vector<std::pair<QString, Take>> shots()
{
    const QString mlp = sample("djl-executorch-engine/stress_mlp.pte");
    const QString mlpRun = sample("generated/stress_mlp/stress_mlp.profile.etdp");
    const QString qnn = sample("executorch/stories260k_hybrid_llama_qnn.pte");
    const QString training = sample("dnf-executorch/dnf_xnnpack_training.pte");
    const QString kws = sample("executorch/arduino_KeywordSpotting_model.pte");
    const auto expanded
        = [](const QString& file) { return [file](const QString& name) { return expandedDelegate(name, file); }; };
    const Take heatmap = [=](const QString& name) {
        const QStringList pair = name == QStringLiteral("heatmap") ? QStringList { mlpRun } : writeDivergentPair();
        return !pair.isEmpty() && inWindow(QStringList { mlp } + pair, [&name](Window& w) {
            w.showSideTab(QStringLiteral("Heatmap"));
            w.widenSide(kWidth / 2);
            return name == QStringLiteral("heatmap") || w.view()->goToFirstDivergence();
        })(name);
    };
    return {
        { QStringLiteral("graph"), inWindow({ mlp }) },
        { QStringLiteral("delegate-ethosu"), expanded(sample("cmsis-executorch/ethos_u_minimal_example_u55.pte")) },
        { QStringLiteral("delegate-coreml"), expanded(sample("react-native-executorch/style_candy_640_coreml.pte")) },
        { QStringLiteral("delegate-qnn"), expanded(qnn) },
        { QStringLiteral("delegate-tab"),
            inWindow({ mlp },
                [](Window& w) {
                    const auto delegate = largestDelegate(w.view());
                    if (!delegate)
                        return false;
                    Q_EMIT w.view()->openDelegateRequested(w.view()->context().method, *delegate);
                    return waitUntil([&] { return w.view()->context().delegateNode.valid(); });
                }) },
        { QStringLiteral("properties"),
            inWindow({ training },
                [](Window& w) {
                    // addmm: its arguments named from the schema (self, mat1, mat2, beta, alpha, out).
                    const auto node = firstOperator(w.view(), "addmm");
                    if (node)
                        w.view()->selectNode({ *node, NodeId::none() });
                    return node.has_value();
                }) },
        // What a QNN delegate was built for (issue 33): its "Built for" group in Properties.
        { QStringLiteral("properties-built-for"),
            inWindow({ qnn },
                [](Window& w) {
                    const auto delegate = largestDelegate(w.view());
                    if (delegate)
                        w.view()->selectNode({ *delegate, NodeId::none() });
                    w.widenSide(kWidth / 2);
                    return delegate.has_value();
                }) },
        { QStringLiteral("operators"),
            inWindow({ training },
                [](Window& w) {
                    w.showSideTab(QStringLiteral("Operators"));
                    w.view()->expandAll();
                    w.settle();
                    // A row selected, as a click does: its nodes light up, inside delegates too.
                    auto* table = w.view()->operatorPanel()->findChild<QTableView*>();
                    for (int row = 0; table && row < table->model()->rowCount(); ++row)
                        if (table->model()->index(row, 0).data().toString() == QStringLiteral("XNNMultiply"))
                            table->selectRow(row);
                    return table != nullptr;
                }) },
        { QStringLiteral("search"),
            inWindow({ mlp },
                [](Window& w) {
                    w.showSideTab(QStringLiteral("Search"));
                    w.view()->searchEdit()->setText(QStringLiteral("FullyConnected"));
                    w.view()->runSearch(QStringLiteral("FullyConnected"));
                    settleFor(300);
                    w.view()->activateSearchResult(0);
                    return true;
                }) },
        // The latency of a real run, then the first divergence against a drifted copy of a run.
        { QStringLiteral("heatmap"), heatmap },
        { QStringLiteral("first-divergence"), heatmap },
        { QStringLiteral("load"),
            inWindow({ kws },
                [](Window& w) {
                    w.view()->showLoadCheck();
                    w.widenSide(kWidth / 2);
                    return waitUntil([&] { return w.view()->loadCheckPanel()->check() != nullptr; });
                }) },
        // Activations planned in ping-pong over one arena.
        { QStringLiteral("memory"),
            [=](const QString& name) { return computedPanel(name, kws, &DocumentView::memoryPanel); } },
        { QStringLiteral("size"),
            [=](const QString& name) { return computedPanel(name, mlp, &DocumentView::sizePanel); } },
        // Four XNNPACK delegates between portable kernels: a lane per delegate.
        { QStringLiteral("timeline"),
            inWindow({ training, sample("generated/dnf_xnnpack_training/dnf_xnnpack_training.profile.etdp") },
                [](Window& w) {
                    w.showAnalysis(w.view()->timelinePanel(), 0.5);
                    return true;
                }) },
        { QStringLiteral("etdump"), inWindow({ mlpRun }) },
        { QStringLiteral("compare-qnn"), [=](const QString& name) { return compareShot(name, qnn); } },
        { QStringLiteral("report"),
            [=](const QString& name) {
                Window w;
                if (!w.open({ mlp, mlpRun }))
                    return false;
                ui::ReportDialog dialog(w.view()->controller()->document(), &w.view()->controller()->debug(), w.view());
                dialog.setPath(QStringLiteral("/home/you/stress_mlp.report.html"));
                dialog.show();
                settleFor(500);
                return grab(dialog, name);
            } },
        { QStringLiteral("dark"),
            [](const QString& name) {
                ui::applyTheme(ui::Theme::Dark);
                const QString demo = copyDemo();
                const bool done = !demo.isEmpty() && inWindow({ demo })(name);
                ui::applyTheme(ui::Theme::Light);
                return done;
            } },
    };
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR [NAME…]\n", argc > 0 ? argv[0] : "etscope-docshots");
        return 2;
    }
    // Offscreen unless told otherwise: the pictures do not depend on a desktop.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    g_scratch.setPath(QDir::temp().filePath(QStringLiteral("etscope-docshots")));
    g_scratch.removeRecursively();
    if (!g_scratch.mkpath(QStringLiteral("."))) {
        std::fprintf(stderr, "docshots: cannot make %s\n", qUtf8Printable(g_scratch.path()));
        return 1;
    }
    // The app's remembered settings (theme, panels, recent files) come from an empty folder.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, g_scratch.filePath(QStringLiteral("settings")));
    QApplication application(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("ETScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ETScope-docshots"));
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    ui::applyTheme(ui::Theme::Light);
    g_output = QString::fromLocal8Bit(argv[1]);
    g_samples = qEnvironmentVariableIsSet("ETSCOPE_SAMPLES_DIR") ? qEnvironmentVariable("ETSCOPE_SAMPLES_DIR")
                                                                 : QStringLiteral(ETSCOPE_SAMPLES_DIR);
    if (!QDir().mkpath(g_output) || !QFile::exists(QDir(g_samples).filePath(QStringLiteral("SOURCES.md")))) {
        std::fprintf(stderr, "docshots: no output folder %s or no samples in %s\n", argv[1], qUtf8Printable(g_samples));
        return 1;
    }
    QStringList only;
    for (int i = 2; i < argc; ++i)
        only << QString::fromLocal8Bit(argv[i]);
    int failed = 0;
    for (const auto& [name, take] : shots()) {
        if (!only.isEmpty() && !only.contains(name))
            continue;
        if (!take(name)) {
            std::fprintf(stderr, "docshots: %s: not taken\n", qUtf8Printable(name));
            ++failed;
        }
    }
    g_scratch.removeRecursively();
    return failed == 0 ? 0 : 1;
}
