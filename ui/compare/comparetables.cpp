// SPDX-License-Identifier: MIT
// CompareView's tables under the graphs (nodes, operators, moved, sizes), their links to the
// graphs, and the exports.
#include "ui/compare/compareview.h"

#include "core/graph/search.h"
#include "ui/common/exports.h"
#include "ui/common/reporttablemodel.h"
#include "ui/compare/comparemarks.h"
#include "ui/document/documentcontroller.h"
#include "ui/graph/graphscene.h"
#include "ui/operators/operatorpanel.h"
#include "ui/window/documentview.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace etscope::ui {

using namespace etscope::core;

/// The nodes table without its `same` rows (unless asked for them).
class SameRowsFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setSame(const std::vector<char>* same)
    {
        m_same = same;
        invalidateFilter();
    }
    void setShowSame(bool show)
    {
        m_showSame = show;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex&) const override
    {
        return m_showSame || !m_same || static_cast<std::size_t>(row) >= m_same->size()
            || !(*m_same)[static_cast<std::size_t>(row)];
    }

private:
    const std::vector<char>* m_same = nullptr;
    bool m_showSame = false;
};

namespace {

QTableView* makeTable(QWidget* parent, ReportTableModel*& model, QSortFilterProxyModel*& proxy, const QString& name)
{
    model = new ReportTableModel(parent);
    proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(ReportTableModel::SortRole);
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the diff's own order until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

void fitColumns(QTableView* view)
{
    view->resizeColumnsToContents();
    // A long reason or label must not push the other columns out of sight.
    for (int c = 0; c < view->model()->columnCount(); ++c)
        view->setColumnWidth(c, std::min(view->columnWidth(c), 420));
}

} // namespace

void CompareView::buildTables(QWidget* page)
{
    m_tables = new QTabWidget(page);
    m_tables->setObjectName(QStringLiteral("compareTables"));
    m_tables->setDocumentMode(true);
    auto* nodesPage = new QWidget(page);
    m_showSame = new QCheckBox(tr("Show the nodes that are the same too"), nodesPage);
    connect(m_showSame, &QCheckBox::toggled, this, [this](bool show) { m_nodesFilter->setShowSame(show); });
    m_nodesView = makeTable(nodesPage, m_nodesModel, m_nodesProxy, QStringLiteral("compareNodes"));
    // model → filter (no `same` rows) → the sorting proxy makeTable made.
    m_nodesFilter = new SameRowsFilter(nodesPage);
    m_nodesFilter->setSourceModel(m_nodesModel);
    m_nodesProxy->setSourceModel(m_nodesFilter);
    auto* nodesLayout = new QVBoxLayout(nodesPage);
    nodesLayout->setContentsMargins(0, 2, 0, 0);
    nodesLayout->addWidget(m_showSame);
    nodesLayout->addWidget(m_nodesView, 1);
    m_operatorsView = makeTable(page, m_operatorsModel, m_operatorsProxy, QStringLiteral("compareOperators"));
    m_movedView = makeTable(page, m_movedModel, m_movedProxy, QStringLiteral("compareMoved"));
    m_sizesView = makeTable(page, m_sizesModel, m_sizesProxy, QStringLiteral("compareSizes"));
    auto* factsPage = new QWidget(page);
    m_factsNote = new QLabel(factsPage);
    m_factsNote->setObjectName(QStringLiteral("compareFactsNote"));
    m_factsNote->setWordWrap(true);
    m_factsNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_factsView = makeTable(factsPage, m_factsModel, m_factsProxy, QStringLiteral("compareFacts"));
    auto* factsLayout = new QVBoxLayout(factsPage);
    factsLayout->setContentsMargins(0, 2, 0, 0);
    factsLayout->addWidget(m_factsNote);
    factsLayout->addWidget(m_factsView, 1);
    m_tables->addTab(nodesPage, tr("Nodes"));
    m_tables->addTab(m_operatorsView, tr("Operators"));
    m_tables->addTab(m_movedView, tr("Moved"));
    m_tables->addTab(m_sizesView, tr("Sizes"));
    m_tables->addTab(factsPage, tr("Delegate facts"));
    connect(m_nodesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& index) { onNodeRowActivated(index); });
    connect(m_operatorsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& index) { onOperatorRowActivated(index); });
    connect(
        m_movedView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
            m_movedStep = -1;
            onMovedRowActivated(index);
        });
    // Double-click (or Enter) on a moved row walks through its operators.
    connect(m_movedView, &QTableView::activated, this, &CompareView::onMovedRowActivated);
}

QModelIndex CompareView::nodeRowOf(int match) const
{
    return m_nodesProxy->mapFromSource(m_nodesFilter->mapFromSource(m_nodesModel->index(match, 0)));
}

void CompareView::fillTables()
{
    const MethodDiff* method = methodDiff();
    const CompareMarks* prepared = m_method >= 0 ? m_prepared[static_cast<std::size_t>(m_method)].get() : nullptr;
    Table sizes { tr("Sizes of %1").arg(title()).toStdString(), { "what", "A", "B", "change" }, {}, {} };
    if (m_diff) {
        for (const SizeDiff& size : m_diff->sizes)
            sizes.rows.push_back({ size.what + (size.isCount ? " (count)" : ""), static_cast<long long>(size.a),
                static_cast<long long>(size.b), static_cast<long long>(size.b) - static_cast<long long>(size.a) });
        for (const BackendDiff& backend : m_diff->backends) {
            sizes.rows.push_back({ backend.backend + " delegates (count)", static_cast<long long>(backend.countA),
                static_cast<long long>(backend.countB), static_cast<long long>(backend.countB - backend.countA) });
            sizes.rows.push_back({ backend.backend + " payload bytes", static_cast<long long>(backend.bytesA),
                static_cast<long long>(backend.bytesB),
                static_cast<long long>(backend.bytesB) - static_cast<long long>(backend.bytesA) });
            if (backend.differingBytes > 0)
                sizes.rows.push_back({ backend.backend + " payload bytes differing", 0LL,
                    static_cast<long long>(backend.differingBytes), static_cast<long long>(backend.differingBytes) });
        }
    }
    // The delegates' facts that differ, with what the inner nodes' match could compare (issue 38
    // item 3: two QNN builds' inner nodes were "same" by name while their context binaries differ).
    Table facts { tr("Delegate facts of %1").arg(title()).toStdString(), { "backend", "fact", "A", "B", "delegates" },
        {}, {} };
    int unverified = 0;
    if (m_diff) {
        for (const DeviceFactChange& change : m_diff->delegateFacts) {
            std::string where;
            for (const std::string& delegate : change.delegates)
                where += (where.empty() ? "" : ", ") + delegate;
            facts.rows.push_back({ change.backend, change.label, change.a.value_or("(not stated)"),
                change.b.value_or("(not stated)"), where });
        }
        for (const MethodDiff& m : m_diff->methods)
            unverified += m.unverified;
    }
    QStringList note;
    if (unverified > 0) {
        QString reason;
        for (const MethodDiff& m : m_diff->methods)
            for (const NodeMatch& match : m.matches)
                if (reason.isEmpty() && match.status == MatchStatus::Unverified)
                    reason = QString::fromStdString(match.reason);
        note << tr(
            "%n inner node(s) unverified: %1. Their delegates' facts that changed are below.", nullptr, unverified)
                    .arg(reason);
    }
    if (m_diff && facts.rows.empty())
        note << tr("The paired delegates state the same facts and hold the same payload bytes.");
    for (const QString& line : note)
        facts.notes.push_back(line.toStdString());
    m_factsNote->setText(note.join(QLatin1Char('\n')));
    m_factsNote->setVisible(!note.isEmpty());
    m_tables->setTabText(
        4, facts.rows.empty() ? tr("Delegate facts") : tr("Delegate facts (%1)").arg(facts.rows.size()));
    const int differing = method ? method->changed + method->onlyInA + method->onlyInB + method->unverified : 0;
    m_tables->setTabText(0, method ? tr("Nodes (%1 differ)").arg(differing) : tr("Nodes"));
    m_tables->setTabText(
        2, method ? tr("Moved (%1)").arg(method->movedIntoDelegates + method->movedOutOfDelegates) : tr("Moved"));
    m_nodesFilter->setSame(prepared ? &prepared->same : nullptr);
    m_nodesModel->setTable(prepared ? prepared->nodes : Table {});
    m_operatorsModel->setTable(prepared ? prepared->operators : Table {});
    m_movedModel->setTable(prepared ? prepared->moved : Table {});
    m_sizesModel->setTable(std::move(sizes));
    m_factsModel->setTable(std::move(facts));
    for (QTableView* table : { m_nodesView, m_operatorsView, m_movedView, m_sizesView, m_factsView })
        fitColumns(table);
}

void CompareView::onNodeRowActivated(const QModelIndex& index)
{
    if (index.isValid())
        selectMatch(m_nodesFilter->mapToSource(m_nodesProxy->mapToSource(index)).row());
}

void CompareView::onOperatorRowActivated(const QModelIndex& index)
{
    const MethodDiff* method = methodDiff();
    if (!index.isValid() || !method)
        return;
    const int row = m_operatorsProxy->mapToSource(index).row();
    const QString opType = QString::fromStdString(method->operators[static_cast<std::size_t>(row)].opType);
    // Each side marks its nodes of the type (as its own operator table would) and shows the first.
    for (const Side side : { Side::A, Side::B }) {
        DocumentView* shown = view(side);
        const auto document = shown->controller()->document();
        const auto nodes = nodesOfType(
            *document->methods[static_cast<std::size_t>(shown->context().method)].graph, opType.toStdString());
        if (nodes.empty()) {
            shown->operatorPanel()->clearOpType();
            shown->scene()->selectNode(std::nullopt);
            continue;
        }
        shown->operatorPanel()->selectOpType(opType);
        shown->selectNode(nodes.front());
    }
    const OperatorDiffRow& r = method->operators[static_cast<std::size_t>(row)];
    Q_EMIT statusMessage(tr("%1: A %2, B %3 (the first of each selected, all marked)")
                             .arg(opType)
                             .arg(r.delegatedA + r.nonDelegatedA)
                             .arg(r.delegatedB + r.nonDelegatedB));
}

void CompareView::onMovedRowActivated(const QModelIndex& index)
{
    const MethodDiff* method = methodDiff();
    if (!index.isValid() || !method)
        return;
    const int row = m_movedProxy->mapToSource(index).row();
    const MovedOperators& moved = method->moved[static_cast<std::size_t>(row)];
    const auto token = [](const Node* node) {
        return !node ? std::string() : node->opType.empty() ? node->label : node->opType;
    };
    std::vector<int> found;
    for (int i = 0; i < static_cast<int>(method->matches.size()); ++i) {
        const NodeMatch& match = method->matches[static_cast<std::size_t>(i)];
        if (match.movement != moved.movement || !match.a || !match.b)
            continue;
        const bool into = moved.movement == Movement::IntoDelegate;
        const std::string from = token(diffNode(graph(into ? Side::A : Side::B), into ? *match.a : *match.b));
        const std::string to = token(diffNode(graph(into ? Side::B : Side::A), into ? *match.b : *match.a));
        if (from == moved.from && to == moved.to)
            found.push_back(i);
    }
    if (found.empty())
        return;
    if (m_movedRow != row)
        m_movedStep = -1;
    m_movedRow = row;
    m_movedStep = (m_movedStep + 1) % static_cast<int>(found.size());
    selectMatch(found[static_cast<std::size_t>(m_movedStep)]);
    Q_EMIT statusMessage(tr("%1 → %2: %3 of %4 (double-click the row for the next)")
                             .arg(QString::fromStdString(moved.from), QString::fromStdString(moved.to))
                             .arg(m_movedStep + 1)
                             .arg(found.size()));
}

Table CompareView::currentTable() const
{
    const std::pair<ReportTableModel*, QSortFilterProxyModel*> tables[]
        = { { m_nodesModel, m_nodesProxy }, { m_operatorsModel, m_operatorsProxy }, { m_movedModel, m_movedProxy },
              { m_sizesModel, m_sizesProxy }, { m_factsModel, m_factsProxy } };
    const auto [model, proxy] = tables[std::clamp(m_tables->currentIndex(), 0, 4)];
    const Table& all = model->table();
    Table table { all.title, all.columns, {}, all.notes };
    for (int row = 0; row < proxy->rowCount(); ++row) {
        QModelIndex index = proxy->mapToSource(proxy->index(row, 0));
        if (model == m_nodesModel)
            index = m_nodesFilter->mapToSource(index);
        table.rows.push_back(all.rows[static_cast<std::size_t>(index.row())]);
    }
    return table;
}

bool CompareView::exportDiff(const QString& path, TableFormat format, QString* error) const
{
    if (!m_diff) {
        if (error)
            *error = tr("Nothing compared yet");
        return false;
    }
    const std::string text
        = format == TableFormat::Json ? programDiffJson(*m_diff).dump(2) + "\n" : programDiffText(*m_diff, format);
    return succeeded(exportBytes(path, QByteArray::fromStdString(text)), error);
}

bool CompareView::exportTable(const QString& path, TableFormat format, QString* error) const
{
    return succeeded(exportTableFile(currentTable(), format, path), error);
}

void CompareView::exportInteractive(int what)
{
    if (!m_diff)
        return;
    if (what >= 5) {
        if (DocumentView* shown = view(what == 5 ? Side::A : Side::B))
            shown->exportImageInteractive();
        return;
    }
    const QString base = QFileInfo(m_controllerA->path()).completeBaseName() + QStringLiteral("-vs-")
        + QFileInfo(m_controllerB->path()).completeBaseName();
    QString saved;
    if (what < 3) {
        const TableFormat formats[] = { TableFormat::Markdown, TableFormat::Json, TableFormat::Text };
        const QString extensions[] = { QStringLiteral("md"), QStringLiteral("json"), QStringLiteral("txt") };
        const TableFormat format = formats[what];
        saved = saveWithDialog(this, tr("Export the diff"), base + QLatin1Char('.') + extensions[what],
            tr("Diff (*.%1)").arg(extensions[what]), [this, format](const QString& path) -> std::optional<QString> {
                QString error;
                return exportDiff(path, format, &error) ? std::nullopt : std::optional(error);
            });
    } else {
        const TableFormat format = what == 3 ? TableFormat::Csv : TableFormat::Json;
        const QString extension = what == 3 ? QStringLiteral("csv") : QStringLiteral("json");
        const QString tab = m_tables->tabText(m_tables->currentIndex()).section(QLatin1Char(' '), 0, 0).toLower();
        saved = saveWithDialog(this, tr("Export the table"),
            base + QLatin1Char('-') + tab + QLatin1Char('.') + extension, tr("Table (*.%1)").arg(extension),
            [this, format](const QString& path) { return exportTableFile(currentTable(), format, path); });
    }
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
