// SPDX-License-Identifier: MIT
// The Load tab (loadcheckpanel.h): its widgets and layout, the kernel-list controls, the check
// run off the UI thread. The verdict and table are in loadchecktable.cpp, the links to the
// graph in loadchecklinks.cpp.
#include "ui/load/loadcheckpanel.h"
#include "ui/load/devicechoice.h"
#include "ui/load/loadcheckwidgets.h"

#include "core/document/document.h"
#include "ui/common/elidedelegate.h"
#include "ui/common/exports.h"
#include "ui/common/nodestyle.h"
#include "ui/common/reporttablemodel.h"
#include "ui/document/timings.h"
#include "ui/document/whenfinished.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;
using namespace loadcheck;

namespace {

/// The runtime combo's data for its Automatic entry.
constexpr const char* kAutomatic = "automatic";

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

/// A preset's lists, the build file they come from and what they leave out.
QString presetTip(const RuntimePreset& preset)
{
    QStringList lists;
    for (const std::string_view name : preset.lists)
        lists << fromView(name);
    QString tip = LoadCheckPanel::tr("%1: %2\nFrom %3")
                      .arg(fromView(preset.name), lists.join(QStringLiteral(" + ")), fromView(preset.source));
    if (!preset.note.empty())
        tip += QLatin1Char('\n') + fromView(preset.note);
    return tip;
}

} // namespace

LoadCheckPanel::LoadCheckPanel(QWidget* parent)
    : QWidget(parent)
    , m_headline(new WrappedLabel(this))
    , m_verdicts(new QVBoxLayout)
    , m_kernelVerdict(new QWidget(this))
    , m_verdict(new WrappedLabel(this))
    , m_answer(new WrappedLabel(this))
    , m_hint(new WrappedLabel(this))
    , m_device(new QComboBox(this))
    , m_deviceAnswer(new WrappedLabel(this))
    , m_deviceProblems(new WrappedLabel(this))
    , m_preset(new QComboBox(this))
    , m_builtinRow(new QGridLayout)
    , m_fileRow(new QVBoxLayout)
    , m_problems(new WrappedLabel(this))
    , m_filter(new QLineEdit(this))
    , m_model(new ReportTableModel(this))
    , m_proxy(new LoadCheckProxy(this))
    , m_view(new QTableView(this))
    , m_share(new WrappedLabel(this))
    , m_matchStatus(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
{
    setObjectName(QStringLiteral("loadCheckPanel"));
    m_headline->setObjectName(QStringLiteral("loadHeadline"));
    m_kernelVerdict->setObjectName(QStringLiteral("loadKernelVerdict"));
    m_verdict->setObjectName(QStringLiteral("loadVerdict"));
    m_answer->setObjectName(QStringLiteral("loadAnswer"));
    QFont bold = m_answer->font();
    bold.setBold(true);
    m_answer->setFont(bold);
    m_answer->hide();
    m_headline->setFont(bold);
    m_headline->hide();
    m_hint->setObjectName(QStringLiteral("loadHint"));
    m_hint->hide();
    m_problems->setObjectName(QStringLiteral("loadProblems"));
    m_problems->hide();
    buildListControls();
    buildDeviceControls();
    setUpTable();
    buildLayout();

    connect(&KernelListChoice::instance(), &KernelListChoice::changed, this, [this] {
        syncListControls();
        startCheck();
    });
    syncListControls();
    m_verdict->setWrappedText(tr("Open a program to check whether it loads."));
}

LoadCheckPanel::~LoadCheckPanel() = default;

/// The filter, the table and what selecting or clicking a row does.
void LoadCheckPanel::setUpTable()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ReportTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setObjectName(QStringLiteral("loadFilter"));
    m_filter->setPlaceholderText(tr("Filter operators and backends…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_view->setObjectName(QStringLiteral("loadTable"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // missing first, as built, until a header is clicked
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(22);
    // Set per column once the table has them (showCheck).
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight); // a status reads from its start
    // quantize_per_tensor.out and dequantize_per_tensor.out must not both read "quantized_d…tensor.out".
    m_view->setItemDelegateForColumn(kNameColumn, new DistinctNameDelegate(m_view));
    m_view->viewport()->installEventFilter(this);
    m_share->setObjectName(QStringLiteral("loadShare"));

    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (m_quiet || !current.isValid())
                return;
            onRowActivated(m_proxy->mapToSource(current).row(), false);
        });
    // Clicking the selected row again goes on to its next node.
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        const int row = m_proxy->mapToSource(index).row();
        if (row == m_activeRow && m_view->property("rowBeforePress").toInt() == row)
            walk(+1);
        else if (row != m_activeRow)
            onRowActivated(row, false);
    });
}

/// The walk buttons, the export menu and the scrolling layout of the whole panel.
void LoadCheckPanel::buildLayout()
{
    m_previous->setText(tr("◀ Previous"));
    m_previous->setToolTip(tr("Previous node of the selected operator"));
    m_next->setText(tr("Next ▶"));
    m_next->setToolTip(tr("Next node of the selected operator (or click its row again)"));
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    connect(m_previous, &QToolButton::clicked, this, [this] { walk(-1); });
    connect(m_next, &QToolButton::clicked, this, [this] { walk(+1); });
    auto* exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("loadExport"));
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Table as CSV…"), this, [this] { exportInteractive(0); });
    exportMenu->addAction(tr("Table as JSON…"), this, [this] { exportInteractive(1); });
    exportMenu->addAction(tr("Check report as JSON (etscope check)…"), this, [this] { exportInteractive(2); });
    exportButton->setMenu(exportMenu);

    auto* walkRow = new QHBoxLayout;
    walkRow->addWidget(m_matchStatus, 1);
    walkRow->addWidget(m_previous);
    walkRow->addWidget(m_next);
    walkRow->addWidget(exportButton);
    // The runtime above its lists, the lists three to a row: in one row they made the panel
    // ~560 px wide, and the scroll area cut the verdict, hint and boxes at the pane's right
    // edge (a 1400 px window gives the pane ~420 px).
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(new QLabel(tr("Runtime:"), this));
    presetRow->addWidget(m_preset, 1);
    auto* listsTitle = new QLabel(tr("Kernel lists the runtime links:"), this);
    // Everything sits in a scroll area: the wrapped verdict, the list boxes and the table need
    // about 570 px together, and as a minimum that kept the window from being 700 px tall.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    // The worst answer first (issue 33 leftovers): with a device that does not fit, its answer
    // stands above the kernels' "yes", under a headline that says "Will not run" (orderVerdicts).
    layout->addWidget(m_headline);
    auto* kernelLayout = new QVBoxLayout(m_kernelVerdict);
    kernelLayout->setContentsMargins(0, 0, 0, 0);
    kernelLayout->addWidget(m_verdict);
    kernelLayout->addWidget(m_answer);
    kernelLayout->addWidget(m_hint);
    m_verdicts->addWidget(m_kernelVerdict);
    m_verdicts->addWidget(m_deviceAnswer);
    layout->addLayout(m_verdicts);
    layout->addSpacing(6);
    auto* deviceRow = new QHBoxLayout;
    deviceRow->addWidget(new QLabel(tr("Device:"), this));
    deviceRow->addWidget(m_device, 1);
    auto* deviceFile = new QToolButton(this);
    deviceFile->setObjectName(QStringLiteral("loadDeviceFile"));
    deviceFile->setText(tr("File…"));
    deviceFile->setToolTip(tr("Add the devices of a device file (JSON, as etscope check --device-file reads it: "
                              "docs/check.md \"Device files\"); remembered for the next start"));
    connect(deviceFile, &QToolButton::clicked, this, &LoadCheckPanel::addDeviceFileInteractive);
    deviceRow->addWidget(deviceFile);
    layout->addLayout(deviceRow);
    layout->addWidget(m_deviceProblems);
    layout->addSpacing(6);
    layout->addLayout(presetRow);
    layout->addWidget(listsTitle);
    layout->addLayout(m_builtinRow);
    layout->addLayout(m_fileRow);
    layout->addWidget(m_problems);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_share);
    layout->addLayout(walkRow);
}

void LoadCheckPanel::buildListControls()
{
    // The presets: the kernel libraries ExecuTorch's own runners link (core/analysis/kernellists.cpp).
    m_preset->setObjectName(QStringLiteral("kernelPreset"));
    // Automatic first: the preset the document's delegates call for (its text names it, syncListControls).
    m_preset->addItem(tr("Automatic (from the program's delegates)"), QString::fromLatin1(kAutomatic));
    m_preset->addItem(tr("Custom"), QString());
    m_preset->setItemData(1, tr("The lists ticked below"), Qt::ToolTipRole);
    for (const RuntimePreset& preset : runtimePresets()) {
        const QString name = fromView(preset.name);
        m_preset->addItem(fromView(preset.title), name);
        m_preset->setItemData(m_preset->count() - 1, presetTip(preset), Qt::ToolTipRole);
    }
    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString name = m_preset->itemData(index).toString();
        if (name == QLatin1String(kAutomatic)) {
            KernelListChoice::instance().setAutomatic(true);
            return;
        }
        const RuntimePreset* preset = findRuntimePreset(name.toStdString());
        if (!preset)
            return;
        QStringList lists;
        for (const std::string_view list : preset->lists)
            lists << fromView(list);
        KernelListChoice::instance().setBuiltins(lists);
    });
    // Long runtime titles ("executor_runner with portable kernels") shorten with the pane.
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(12);
    m_builtinRow->setHorizontalSpacing(10);
    for (const std::string_view name : builtinKernelListNames()) {
        const QString text = QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
        auto* box = new QCheckBox(text, this);
        box->setObjectName(QStringLiteral("kernels_") + text);
        const auto list = builtinKernelList(name);
        QString tip = list ? QString::fromStdString(list->origin) : QString();
        if (list)
            tip = tr("%n operator(s) from %1", nullptr, static_cast<int>(list->operators.size())).arg(tip);
        if (name == "prim") {
            box->setChecked(true);
            box->setEnabled(false);
            tip += tr("\nAlways on: the runtime registers the prim ops itself.");
        }
        box->setToolTip(tip);
        // The boxes ticked become the choice: from automatic too, where they show the preset's lists.
        connect(box, &QCheckBox::toggled, this, [this] { KernelListChoice::instance().setBuiltins(tickedBuiltins()); });
        m_builtinBoxes.push_back(box);
    }
    arrangeListBoxes();
    auto* add = new QPushButton(tr("Add list file…"), this);
    add->setObjectName(QStringLiteral("addKernelList"));
    add->setToolTip(tr("A selected_operators.yaml of a selective build, a functions.yaml, or a plain list of operator "
                       "names (also what a runtime prints: _get_operator_names(), operator_registry log lines, "
                       "registered backend names)"));
    connect(add, &QPushButton::clicked, this, &LoadCheckPanel::addFileInteractive);
    m_fileRow->setSpacing(2);
    m_fileRow->addWidget(add, 0, Qt::AlignLeft);
}

void LoadCheckPanel::arrangeListBoxes()
{
    int widest = 1;
    for (const QCheckBox* box : m_builtinBoxes)
        widest = std::max(widest, box->sizeHint().width());
    const int room = width() - 2 * style()->pixelMetric(QStyle::PM_ScrollBarExtent) - 8;
    const int perRow
        = std::clamp((room + m_builtinRow->horizontalSpacing()) / (widest + m_builtinRow->horizontalSpacing()), 1,
            std::max(1, static_cast<int>(m_builtinBoxes.size())));
    if (perRow == m_boxesPerRow)
        return;
    if (m_boxesPerRow > 0)
        m_builtinRow->setColumnStretch(m_boxesPerRow, 0);
    m_boxesPerRow = perRow;
    for (QCheckBox* box : m_builtinBoxes)
        m_builtinRow->removeWidget(box);
    for (std::size_t i = 0; i < m_builtinBoxes.size(); ++i)
        m_builtinRow->addWidget(m_builtinBoxes[i], static_cast<int>(i) / perRow, static_cast<int>(i) % perRow);
    m_builtinRow->setColumnStretch(perRow, 1);
}

void LoadCheckPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeListBoxes();
}

QStringList LoadCheckPanel::tickedBuiltins() const
{
    QStringList names;
    for (const QCheckBox* box : m_builtinBoxes)
        if (box->isChecked() && box->text() != QLatin1String("prim"))
            names << box->text();
    return names;
}

void LoadCheckPanel::syncListControls()
{
    const KernelListChoice& choice = KernelListChoice::instance();
    // Automatic shows this document's preset: its entry names it, its lists are ticked.
    const auto lists = choice.listsFor(m_document.get());
    QStringList ticked = choice.builtins();
    {
        const QSignalBlocker blocker(m_preset);
        if (choice.automatic() && lists->preset) {
            const QString title = fromView(lists->preset->title);
            m_preset->setItemText(0, tr("Automatic: %1").arg(title));
            QString tip = tr("Chosen from the program's delegates: the runtime preset that links the backend of "
                             "the most delegates (EthosUBackend: arm-ethos-u, XnnpackBackend: android-xnnpack), "
                             "else portable.");
            if (m_document && m_document->program)
                tip += QLatin1Char('\n')
                    + QString::fromStdString(runtimeText(*lists, delegatesPerBackend(*m_document->program)));
            tip += QLatin1Char('\n') + presetTip(*lists->preset);
            m_preset->setItemData(0, tip, Qt::ToolTipRole);
            m_preset->setToolTip(tip);
            m_preset->setCurrentIndex(0);
            ticked.clear();
            for (const std::string_view name : lists->preset->lists)
                ticked << fromView(name);
        } else {
            m_preset->setItemText(0, tr("Automatic (from the program's delegates)"));
            m_preset->setItemData(0,
                tr("Each program checks against the runtime preset its delegates call for (EthosUBackend: "
                   "arm-ethos-u, XnnpackBackend: android-xnnpack, else portable)"),
                Qt::ToolTipRole);
            m_preset->setToolTip(tr("Tick the kernel lists one of ExecuTorch's runners links"));
            m_preset->setCurrentIndex(std::max(1, m_preset->findData(choice.preset())));
        }
    }
    for (QCheckBox* box : m_builtinBoxes) {
        if (box->text() == QLatin1String("prim"))
            continue;
        const QSignalBlocker blocker(box);
        box->setChecked(ticked.contains(box->text()));
    }
    // One box per file, after the Add button; unchecked files stay offered for the session.
    // The change may come from one of these boxes (toggled → setFileEnabled → changed): while
    // the files are the same, the boxes stay and only follow; new boxes replace old ones only
    // after the event that changed them (deleteLater), never under the sender's feet.
    if (choice.files() == m_fileBoxPaths) {
        for (std::size_t i = 0; i < m_fileBoxes.size(); ++i) {
            const QSignalBlocker blocker(m_fileBoxes[i]);
            m_fileBoxes[i]->setChecked(
                !choice.automatic() && choice.fileEnabled(m_fileBoxPaths[static_cast<qsizetype>(i)]));
        }
        return;
    }
    for (QCheckBox* box : m_fileBoxes) {
        box->hide();
        box->setParent(nullptr); // out of the row and of findChildren now, freed after the event
        box->deleteLater();
    }
    m_fileBoxes.clear();
    m_fileBoxPaths = choice.files();
    for (const QString& path : choice.files()) {
        auto* box = new QCheckBox(QFileInfo(path).fileName(), this);
        box->setObjectName(QStringLiteral("kernelFile"));
        box->setChecked(!choice.automatic() && choice.fileEnabled(path));
        box->setToolTip(tr("%1\nRight-click to remove it").arg(path));
        box->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(box, &QCheckBox::toggled, this, [this, path](bool on) {
            leaveAutomatic();
            KernelListChoice::instance().setFileEnabled(path, on);
        });
        connect(box, &QWidget::customContextMenuRequested, this, [this, box, path](const QPoint& position) {
            QMenu menu(this);
            menu.addAction(tr("Remove %1").arg(QFileInfo(path).fileName()), this,
                [path] { KernelListChoice::instance().removeFile(path); });
            menu.exec(box->mapToGlobal(position));
        });
        m_fileRow->addWidget(box);
        m_fileBoxes.push_back(box);
    }
}

void LoadCheckPanel::setDocument(std::shared_ptr<const Document> document, const GraphContext& context)
{
    const bool newDocument = document != m_document;
    const bool newMethod = !(context == m_context);
    m_document = std::move(document);
    m_context = context;
    if (newDocument) {
        m_check.reset();
        m_grouping.reset();
        syncListControls(); // an automatic runtime is the document's own
        startCheck();
        // The device chosen for this file last time (devicechoice.h), checked again.
        m_deviceId = m_document ? rememberedDevice(QString::fromStdString(m_document->path)) : QString();
        if (m_device->findData(m_deviceId) <= 0)
            m_deviceId.clear();
        m_fits.reset();
        syncDeviceControls();
        startDeviceCheck();
    } else if (newMethod) {
        refreshMethod();
    }
}

void LoadCheckPanel::setPresentation(const std::shared_ptr<const Presentation>& presentation)
{
    if (!presentation || presentation->document != m_document || !(presentation->context == m_context))
        return;
    if (presentation->grouping != m_grouping) {
        m_grouping = presentation->grouping;
        updateMarks();
    }
    // A new layout drew new items: the selected operator's nodes are highlighted again.
    if (m_activeRow >= 0)
        highlightActive();
}

void LoadCheckPanel::startCheck()
{
    const auto lists = KernelListChoice::instance().listsFor(m_document.get());
    if (!m_document || !m_document->program
        || (m_document->kind != FileKind::Program && m_document->kind != FileKind::BundledProgram)) {
        m_check.reset();
        m_answer->hide();
        m_hint->hide();
        m_verdict->setWrappedText(m_document ? tr("The load check reads programs (.pte, .bpte); this file is a %1.")
                                                   .arg(QString::fromLatin1(fileKindName(m_document->kind).data()))
                                             : tr("Open a program to check whether it loads."));
        showCheck();
        return;
    }
    const quint64 generation = ++m_generation;
    m_running = true;
    m_answer->hide();
    m_hint->hide();
    m_verdict->setWrappedText(tr("Checking every operator against %1…").arg(listsText()));
    orderVerdicts();
    whenFinished(
        this, QtConcurrent::run([document = m_document, lists] {
            QElapsedTimer timer;
            timer.start();
            auto check = std::make_shared<const KernelCheck>(checkKernels(*document, *lists));
            return std::pair(check, timings::millisecondsSince(timer));
        }),
        [this, generation, lists](std::pair<std::shared_ptr<const KernelCheck>, double> result) {
            if (generation != m_generation)
                return;
            m_running = false;
            timings::report("kernel-check", result.second);
            m_check = std::move(result.first);
            m_checkedLists = lists;
            showCheck();
            Q_EMIT checked();
        },
        [this, generation](const QString& message) {
            if (generation != m_generation)
                return;
            m_running = false;
            m_verdict->setWrappedText(tr("The check failed: %1").arg(message));
        });
}

bool LoadCheckPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fitNameColumn();
    if (watched == m_view->viewport() && event->type() == QEvent::MouseButtonPress)
        m_view->setProperty("rowBeforePress", m_activeRow);
    return QWidget::eventFilter(watched, event);
}

void LoadCheckPanel::leaveAutomatic()
{
    // The lists shown (the automatic preset's) stay ticked when a file joins them.
    if (KernelListChoice::instance().automatic())
        KernelListChoice::instance().setBuiltins(tickedBuiltins());
}

void LoadCheckPanel::addFileInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add a kernel list"), QString(), tr("Kernel lists (*.yaml *.yml *.txt *.log);;All files (*)"));
    if (path.isEmpty())
        return;
    leaveAutomatic();
    if (const auto failure = KernelListChoice::instance().addFile(path)) {
        m_problems->setWrappedText(*failure);
        m_problems->show();
        Q_EMIT statusMessage(*failure);
    }
}

void LoadCheckPanel::exportInteractive(int kind)
{
    if (!m_check || !m_document)
        return;
    const QString base = QFileInfo(QString::fromStdString(m_document->path)).completeBaseName();
    QString saved;
    if (kind == 2)
        saved = saveWithDialog(this, tr("Export check report"), base + QStringLiteral("-check.json"),
            tr("JSON (*.json)"), [this](const QString& path) -> std::optional<QString> {
                QString error;
                return exportReport(path, &error) ? std::nullopt : std::optional(error);
            });
    else {
        const TableFormat format = kind == 0 ? TableFormat::Csv : TableFormat::Json;
        const QString extension = QString::fromLatin1(tableFormatExtension(format).data());
        saved = saveWithDialog(this, tr("Export load check table"), base + QStringLiteral("-load.") + extension,
            tr("Table (*.%1)").arg(extension), [this, format](const QString& path) -> std::optional<QString> {
                QString error;
                return exportTable(path, format, &error) ? std::nullopt : std::optional(error);
            });
    }
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
