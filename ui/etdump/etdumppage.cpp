// SPDX-License-Identifier: MIT
#include "ui/etdump/etdumppage.h"

#include "core/analysis/timeline.h"
#include "core/debug/debugreports.h"
#include "core/debug/runtimeprofile.h"
#include "ui/common/exports.h"
#include "ui/common/reporttablemodel.h"
#include "ui/document/whenfinished.h"
#include "ui/timeline/timelineview.h"

#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <set>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kShortText = 110; ///< pixels: a text column this narrow keeps its width
constexpr int kBuildSteps = 4; ///< summary, profile, run blocks, timeline
constexpr std::size_t kLongestKept = 8; ///< texts per column measured in pixels on the UI thread

QString notesText(const Table& table)
{
    QStringList lines;
    for (const std::string& note : table.notes)
        lines << QString::fromStdString(note);
    return lines.join(QLatin1Char('\n'));
}

/// One line under the title: blocks, events and delegates, and the layout when it is unusual.
QString summaryText(const ETDump& dump)
{
    std::size_t profile = 0;
    std::size_t debug = 0;
    std::set<std::string> delegates;
    for (const RunBlock& block : dump.runs) {
        profile += block.profileEvents.size();
        debug += block.debugEvents.size();
        for (const ProfileEvent& event : block.profileEvents)
            if (event.isDelegateInternal())
                delegates.insert(event.delegateIdentifier());
    }
    QString text = ETDumpPage::tr("%1 run block(s), %2 Execute · %3 profile event(s) · %4 debug event(s) · %5 "
                                  "delegate event name(s)")
                       .arg(dump.runs.size())
                       .arg(dump.executeBlocks().size())
                       .arg(profile)
                       .arg(debug)
                       .arg(delegates.size());
    if (dump.alignedAfterPrefix)
        text += ETDumpPage::tr(" · written by ExecuTorch's Python serializer (aligned after the size prefix)");
    return text;
}

} // namespace

/// Whether a column holds text and its longest texts (by characters), found on the worker so
/// that the UI thread measures a few strings per column instead of every row.
struct ETDumpPage::ColumnHint {
    bool text = false;
    std::vector<QString> longest;
};

/// What the worker hands back.
struct ETDumpPage::Prepared {
    QString summary;
    Table profile;
    Table runs;
    std::vector<ColumnHint> profileColumns;
    std::vector<ColumnHint> runsColumns;
    std::shared_ptr<const Timeline> timeline;
};

std::vector<ETDumpPage::ColumnHint> ETDumpPage::columnHints(const Table& table)
{
    std::vector<ColumnHint> hints(table.columns.size());
    std::vector<std::vector<const std::string*>> longest(table.columns.size());
    for (const auto& row : table.rows)
        for (std::size_t column = 0; column < row.size() && column < hints.size(); ++column) {
            const auto* text = std::get_if<std::string>(&row[column]);
            if (!text || text->empty())
                continue;
            hints[column].text = true;
            auto& kept = longest[column];
            const auto shorter = [](const std::string* a, const std::string* b) { return a->size() > b->size(); };
            if (kept.size() < kLongestKept) {
                kept.push_back(text);
                std::push_heap(kept.begin(), kept.end(), shorter);
            } else if (text->size() > kept.front()->size()) {
                std::pop_heap(kept.begin(), kept.end(), shorter);
                kept.back() = text;
                std::push_heap(kept.begin(), kept.end(), shorter);
            }
        }
    for (std::size_t column = 0; column < hints.size(); ++column)
        for (const std::string* text : longest[column])
            hints[column].longest.push_back(QString::fromStdString(*text));
    return hints;
}

ETDumpPage::ETDumpPage(std::shared_ptr<const Document> document, QWidget* parent)
    : QWidget(parent)
    , m_document(std::move(document))
    , m_path(m_document && m_document->etdump ? QString::fromStdString(m_document->etdump->path()) : QString())
{
    setObjectName(QStringLiteral("etdumpPage"));
    auto* title = new QLabel(this);
    title->setTextFormat(Qt::PlainText);
    title->setText(tr("ETDump  %1").arg(QFileInfo(m_path).fileName()));
    QFont bold = title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    title->setFont(bold);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("etdumpSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* hint = new QLabel(tr("Events are not placed on nodes: open the program (.pte) and attach this file with "
                               "File › Attach Debug Data › Runtime Trace to see them on the graph."),
        this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    // Shown while the worker builds the tables: what it is doing, and Stop.
    m_busy = new QWidget(this);
    m_busy->setObjectName(QStringLiteral("etdumpBusy"));
    auto* busyLayout = new QHBoxLayout(m_busy);
    busyLayout->setContentsMargins(0, 0, 0, 0);
    m_busyText = new QLabel(m_busy);
    m_busyBar = new QProgressBar(m_busy);
    m_busyBar->setRange(0, kBuildSteps);
    m_busyBar->setTextVisible(false);
    m_stopButton = new QPushButton(m_busy);
    m_stopButton->setObjectName(QStringLiteral("etdumpStop"));
    connect(m_stopButton, &QPushButton::clicked, this, [this] {
        if (m_cancel && !m_cancel->load())
            stop();
        else
            build();
    });
    busyLayout->addWidget(m_busyText);
    busyLayout->addWidget(m_busyBar, 1);
    busyLayout->addWidget(m_stopButton);

    m_profile = new ReportTableModel(this);
    m_runs = new ReportTableModel(this);

    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("etdumpFilter"));
    m_filter->setPlaceholderText(tr("Filter events"));
    m_filter->setClearButtonEnabled(true);
    m_exportButton = new QPushButton(tr("Export table…"), this);
    connect(m_exportButton, &QPushButton::clicked, this, &ETDumpPage::exportCurrent);

    auto* profilePage = new QWidget(this);
    auto* profileLayout = new QVBoxLayout(profilePage);
    profileLayout->setContentsMargins(0, 0, 0, 0);
    m_profileView = tableView(m_profile, m_profileProxy);
    profileLayout->addWidget(m_profileView, 1);
    m_profileNotes = new QLabel(profilePage);
    m_profileNotes->setWordWrap(true);
    profileLayout->addWidget(m_profileNotes);
    m_profileProxy->setFilterKeyColumn(-1);
    m_profileProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_profileProxy, &QSortFilterProxyModel::setFilterFixedString);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("etdumpTabs"));
    m_tabs->addTab(profilePage, tr("Profile by event"));
    m_runsView = tableView(m_runs, m_runsProxy);
    m_tabs->addTab(m_runsView, tr("Run blocks"));
    m_timeline = new TimelinePanel(this);
    connect(m_timeline, &TimelinePanel::statusMessage, this, &ETDumpPage::statusMessage);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int) {
        m_filter->setEnabled(m_ready && m_tabs->currentIndex() == 0);
        // The timeline has its own export (picture, events, Chrome trace).
        m_exportButton->setEnabled(m_ready && m_tabs->currentWidget() != m_timeline);
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_summary);
    layout->addWidget(hint);
    layout->addWidget(m_busy);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
    build();
}

ETDumpPage::~ETDumpPage()
{
    if (m_cancel)
        m_cancel->store(true); // a worker still running stops at its next step; its result is dropped
}

void ETDumpPage::build()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    m_ready = false;
    m_filter->setEnabled(false);
    m_exportButton->setEnabled(false);
    m_tabs->setEnabled(false);
    m_busy->show();
    m_busyBar->show();
    m_busyBar->setValue(0);
    m_busyText->setText(tr("Reading the events…"));
    m_stopButton->setText(tr("Stop"));
    if (!m_document || !m_document->etdump) {
        m_busy->hide();
        return;
    }
    QPointer<ETDumpPage> self(this);
    // Steps report to the UI thread; a newer build (or the page gone) drops them.
    const auto step = [self, generation](int done, QString text) {
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, done, text] {
                if (self && self->m_generation == generation && !self->m_ready) {
                    self->m_busyBar->setValue(done);
                    self->m_busyText->setText(text);
                }
            },
            Qt::QueuedConnection);
    };
    whenFinished(
        this, QtConcurrent::run([document = m_document, cancel = m_cancel, step]() -> std::shared_ptr<Prepared> {
            const ETDump& dump = *document->etdump;
            auto prepared = std::make_shared<Prepared>();
            prepared->summary = summaryText(dump);
            step(1, ETDumpPage::tr("Profiling each event…"));
            if (cancel->load())
                return nullptr;
            prepared->profile = eventProfileTable(buildDumpProfile(dump));
            prepared->profileColumns = columnHints(prepared->profile);
            step(2, ETDumpPage::tr("Listing the run blocks…"));
            if (cancel->load())
                return nullptr;
            prepared->runs = etdumpRunsTable(dump);
            prepared->runsColumns = columnHints(prepared->runs);
            step(3, ETDumpPage::tr("Building the timeline…"));
            if (cancel->load())
                return nullptr;
            if (auto timeline = buildTimeline(dump, nullptr))
                prepared->timeline = std::make_shared<const Timeline>(std::move(timeline).value());
            return cancel->load() ? nullptr : prepared;
        }),
        [this, generation](std::shared_ptr<Prepared> prepared) {
            if (generation != m_generation)
                return; // stopped and built again meanwhile
            if (!prepared) {
                m_busyBar->hide();
                m_busyText->setText(tr("Stopped: the tables and the timeline were not built."));
                m_stopButton->setText(tr("Build them"));
                return;
            }
            fill(std::move(prepared));
        },
        [this, generation](const QString& message) {
            if (generation != m_generation)
                return;
            m_busyBar->hide();
            m_busyText->setText(tr("Building the tables failed: %1").arg(message));
            m_stopButton->setText(tr("Try again"));
        });
}

void ETDumpPage::stop()
{
    if (m_ready || !m_cancel)
        return;
    m_cancel->store(true);
    m_busyText->setText(tr("Stopping…"));
}

void ETDumpPage::fill(std::shared_ptr<Prepared> prepared)
{
    m_summary->setText(prepared->summary);
    m_profile->setTable(std::move(prepared->profile));
    m_runs->setTable(std::move(prepared->runs));
    m_profileNotes->setText(notesText(m_profile->table()));
    sizeColumns(m_profileView, prepared->profileColumns);
    sizeColumns(m_runsView, prepared->runsColumns);
    m_timeline->setTimeline(std::move(prepared->timeline));
    m_ready = true;
    m_busy->hide();
    m_tabs->setEnabled(true);
    m_filter->setEnabled(m_tabs->currentIndex() == 0);
    m_exportButton->setEnabled(m_tabs->currentWidget() != m_timeline);
    Q_EMIT ready();
}

const ReportTableModel* ETDumpPage::currentModel() const
{
    return m_tabs->currentIndex() == 0 ? m_profile : m_runs;
}

QTableView* ETDumpPage::tableView(ReportTableModel* model, QSortFilterProxyModel*& proxy)
{
    proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    proxy->setSortRole(ReportTableModel::SortRole);
    auto* view = new QTableView(this);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the table's own order until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    return view;
}

void ETDumpPage::sizeColumns(QTableView* view, const std::vector<ColumnHint>& columns)
{
    // Numbers as wide as they need; the text columns (block, event and node names, kinds) share
    // what is left, elided in the middle (their tooltip and a drag of the header give the rest):
    // sized to the longest event name they pushed the time columns off a 1024-pixel window.
    QHeaderView* header = view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    int textColumns = 0;
    const QFontMetrics metrics = view->fontMetrics();
    for (std::size_t column = 0; column < columns.size(); ++column) {
        int widest = 0;
        for (const QString& text : columns[column].longest)
            widest = std::max(widest, metrics.horizontalAdvance(text));
        // Short texts (a block name, a kind) keep their width; long ones share the rest.
        if (columns[column].text && widest > kShortText) {
            header->setSectionResizeMode(static_cast<int>(column), QHeaderView::Stretch);
            ++textColumns;
        }
    }
    header->setStretchLastSection(textColumns == 0);
}

void ETDumpPage::exportCurrent()
{
    const bool profile = m_tabs->currentIndex() == 0;
    const Table& table = currentModel()->table();
    const QString base = QFileInfo(m_path).completeBaseName()
        + (profile ? QStringLiteral("-profile.csv") : QStringLiteral("-runs.csv"));
    const QString saved = saveWithDialog(this, tr("Export table"), base,
        tr("CSV (*.csv);;TSV (*.tsv);;Markdown (*.md);;HTML (*.html);;JSON (*.json)"), [&table](const QString& path) {
            const auto format = parseTableFormat(QFileInfo(path).suffix().toLower().toStdString());
            return exportTableFile(table, format.value_or(TableFormat::Csv), path);
        });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
