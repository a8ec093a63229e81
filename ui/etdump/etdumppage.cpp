// SPDX-License-Identifier: MIT
#include "ui/etdump/etdumppage.h"

#include "core/analysis/timeline.h"
#include "core/debug/debugreports.h"
#include "core/debug/runtimeprofile.h"
#include "ui/common/exports.h"
#include "ui/common/reporttablemodel.h"
#include "ui/timeline/timelineview.h"

#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kShortText = 110; ///< pixels: a text column this narrow keeps its width

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

ETDumpPage::ETDumpPage(const ETDump& dump, QWidget* parent)
    : QWidget(parent)
    , m_path(QString::fromStdString(dump.path()))
{
    setObjectName(QStringLiteral("etdumpPage"));
    auto* title = new QLabel(this);
    title->setTextFormat(Qt::PlainText);
    title->setText(tr("ETDump  %1").arg(QFileInfo(m_path).fileName()));
    QFont bold = title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    title->setFont(bold);
    auto* summary = new QLabel(summaryText(dump), this);
    summary->setObjectName(QStringLiteral("etdumpSummary"));
    summary->setWordWrap(true);
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* hint = new QLabel(tr("Events are not placed on nodes: open the program (.pte) and attach this file with "
                               "File › Attach Debug Data › Runtime Trace to see them on the graph."),
        this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    const RuntimeProfile profile = buildDumpProfile(dump);
    m_profile = new ReportTableModel(this);
    m_profile->setTable(eventProfileTable(profile));
    m_runs = new ReportTableModel(this);
    m_runs->setTable(etdumpRunsTable(dump));

    auto* filter = new QLineEdit(this);
    filter->setObjectName(QStringLiteral("etdumpFilter"));
    filter->setPlaceholderText(tr("Filter events"));
    filter->setClearButtonEnabled(true);
    auto* exportButton = new QPushButton(tr("Export table…"), this);
    connect(exportButton, &QPushButton::clicked, this, &ETDumpPage::exportCurrent);

    auto* profilePage = new QWidget(this);
    auto* profileLayout = new QVBoxLayout(profilePage);
    profileLayout->setContentsMargins(0, 0, 0, 0);
    profileLayout->addWidget(tableView(m_profile, m_profileProxy), 1);
    auto* profileNotes = new QLabel(notesText(m_profile->table()), profilePage);
    profileNotes->setWordWrap(true);
    profileLayout->addWidget(profileNotes);
    m_profileProxy->setFilterKeyColumn(-1);
    m_profileProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(filter, &QLineEdit::textChanged, m_profileProxy, &QSortFilterProxyModel::setFilterFixedString);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("etdumpTabs"));
    m_tabs->addTab(profilePage, tr("Profile by event"));
    m_tabs->addTab(tableView(m_runs, m_runsProxy), tr("Run blocks"));
    m_timeline = new TimelinePanel(this);
    if (auto timeline = buildTimeline(dump, nullptr))
        m_timeline->setTimeline(std::make_shared<const Timeline>(std::move(timeline).value()));
    connect(m_timeline, &TimelinePanel::statusMessage, this, &ETDumpPage::statusMessage);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    connect(m_tabs, &QTabWidget::currentChanged, filter, [this, filter, exportButton](int) {
        filter->setEnabled(m_tabs->currentIndex() == 0);
        // The timeline has its own export (picture, events, Chrome trace).
        exportButton->setEnabled(m_tabs->currentWidget() != m_timeline);
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(filter, 1);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(summary);
    layout->addWidget(hint);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
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
    // Numbers as wide as they need; the text columns (block, event and node names, kinds) share
    // what is left, elided in the middle (their tooltip and a drag of the header give the rest):
    // sized to the longest event name they pushed the time columns off a 1024-pixel window.
    QHeaderView* header = view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    int textColumns = 0;
    const QFontMetrics metrics = view->fontMetrics();
    for (int column = 0; column < model->columnCount(); ++column) {
        bool text = false;
        int widest = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QVariant value = model->index(row, column).data(ReportTableModel::SortRole);
            if (value.typeId() == QMetaType::QString && !value.toString().isEmpty()) {
                text = true;
                widest = std::max(widest, metrics.horizontalAdvance(value.toString()));
            }
        }
        // Short texts (a block name, a kind) keep their width; long ones share the rest.
        if (text && widest > kShortText) {
            header->setSectionResizeMode(column, QHeaderView::Stretch);
            ++textColumns;
        }
    }
    if (textColumns == 0)
        header->setStretchLastSection(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    return view;
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
