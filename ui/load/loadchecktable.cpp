// SPDX-License-Identifier: MIT
// The Load tab's answer: the verdict, the table of operators and backends over every method,
// the share lines and problems, and the table's exports (LoadCheckPanel, loadcheckpanel.h).
#include "ui/load/loadcheckpanel.h"
#include "ui/load/loadcheckwidgets.h"

#include "core/util/jsontext.h"
#include "ui/common/exports.h"
#include "ui/common/reporttablemodel.h"

#include <QHeaderView>
#include <QSignalBlocker>
#include <QTableView>
#include <QToolButton>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;
using namespace loadcheck;

namespace {

constexpr std::size_t kShownSites = 12;

std::string siteText(const CallSite& call)
{
    const std::string index = std::to_string(call.instruction.value);
    return call.chain == 0 ? index : std::to_string(call.chain) + ":" + index;
}

std::string backendStatus(const BackendNeed& need)
{
    switch (need.status) {
    case BackendNeed::Status::Linked:
        return "linked (" + need.linkedBy + ")";
    case BackendNeed::Status::NotLinked:
        return "NOT linked: no list registers it";
    case BackendNeed::Status::Unverified:
        break;
    }
    return "needs backend " + need.backendId + " linked" + (need.known ? "" : " (unknown backend id)");
}

/// One row over every method: an operator's (or a backend's) calls and the methods calling it.
struct Aggregate {
    std::string status;
    bool problem = false;
    long long calls = 0;
    std::vector<std::string> methods;
    std::vector<std::string> sites; ///< the first kShownSites + 1 only (an LLM calls some 10,000 times)
    std::size_t siteCount = 0;
};

void addCalls(Aggregate& row, const std::string& method, const std::vector<CallSite>& calls, bool manyMethods)
{
    row.calls += static_cast<long long>(calls.size());
    row.methods.push_back(method);
    for (const CallSite& call : calls) {
        if (row.sites.size() <= kShownSites)
            row.sites.push_back(manyMethods ? method + " " + siteText(call) : siteText(call));
        ++row.siteCount;
    }
}

std::string joined(const std::vector<std::string>& items, std::size_t limit, std::size_t total = 0)
{
    total = std::max(total, items.size());
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < limit; ++i)
        text += (i ? ", " : "") + items[i];
    if (total > limit)
        text += ", … (" + std::to_string(total - limit) + " more)";
    return text;
}

} // namespace

QString LoadCheckPanel::listsText() const
{
    const auto lists
        = m_checkedLists && !m_running ? m_checkedLists : KernelListChoice::instance().listsFor(m_document.get());
    QStringList names;
    for (const KernelList& list : lists->lists)
        names << listLabel(list);
    return names.join(QStringLiteral(" + "));
}

LoadCheckPanel::Verdict LoadCheckPanel::verdict() const
{
    Verdict v;
    if (!m_check)
        return v;
    int missingOps = 0;
    int missingCalls = 0;
    int kernelCalls = 0;
    QStringList failing;
    QStringList unverified;
    QStringList notLinked;
    for (const MethodKernelCheck& m : m_check->methods) {
        kernelCalls += m.kernelCalls;
        missingCalls += m.missingCalls;
        for (const OperatorKernel& op : m.operators)
            missingOps += op.missing() ? 1 : 0;
        if (!m.loads())
            failing << QString::fromStdString(m.method);
        for (const BackendNeed& need : m.backends) {
            const QString id = QString::fromStdString(need.backendId);
            QStringList& into = need.status == BackendNeed::Status::NotLinked ? notLinked : unverified;
            if (need.status != BackendNeed::Status::Linked && !into.contains(id))
                into << id;
        }
    }
    unverified.sort();
    notLinked.sort();
    // An automatic runtime says which it is and why ("Arm Ethos-U executor_runner (…), chosen for
    // the program's EthosUBackend delegates"); lists the user chose read as they always did.
    const std::string runtime = m_checkedLists && m_checkedLists->automatic
        ? runtimeText(*m_checkedLists, m_check->delegatesPerBackend())
        : std::string();
    v.lead = runtime.empty()
        ? tr("Will load on a runtime with %1 kernels:").arg(listsText())
        : tr("Will load on %1, with %2 kernels:").arg(QString::fromStdString(runtime), listsText());
    if (!m_check->loads()) {
        QStringList why;
        if (missingOps > 0)
            why << tr("%n operator(s) have no kernel", nullptr, missingOps)
                    + tr(" (%1 of %n call(s))", nullptr, kernelCalls).arg(missingCalls);
        if (!notLinked.empty())
            why << tr("backend %1 not linked").arg(notLinked.join(QStringLiteral(", ")));
        v.answer = tr("no");
        v.detail = why.join(QStringLiteral("; "));
        if (m_check->methods.size() > 1)
            v.detail += tr(", in method(s) %1").arg(failing.join(QStringLiteral(", ")));
        v.problem = true;
        v.severity = 2;
        return v;
    }
    v.answer = unverified.empty() ? tr("yes")
                                  : tr("yes, if the runtime links %1").arg(unverified.join(QStringLiteral(", ")));
    v.detail = tr("every operator has a kernel (%n call(s))", nullptr, kernelCalls);
    v.severity = unverified.empty() ? 0 : 1;
    return v;
}

QString LoadCheckPanel::hintText() const
{
    if (!m_check || !m_checkedLists)
        return {};
    return QString::fromStdString(missingKernelHintText(missingKernelHint(*m_check, *m_checkedLists), false));
}

QString LoadCheckPanel::verdictText() const
{
    const Verdict v = verdict();
    return v.answer.isEmpty() ? QString() : QStringLiteral("%1 %2 — %3").arg(v.lead, v.answer, v.detail);
}

void LoadCheckPanel::showCheck()
{
    m_rows.clear();
    Table table;
    table.columns = { "name", "calls", "methods", "status", "kind", "instructions" };
    if (m_check) {
        showVerdict();
        fillTable(table);
    }
    showNotes(table);

    // Clear only this panel's own highlight: an op type picked in the operator table stays lit
    // when a (background) check finishes or the kernel lists change.
    const bool hadActiveRow = m_activeRow >= 0;
    forgetActiveRow();
    {
        const QSignalBlocker blocker(m_view->selectionModel());
        m_proxy->problems.clear();
        for (const Row& row : m_rows)
            m_proxy->problems.push_back(row.problem);
        m_model->setTable(std::move(table));
    }
    if (m_model->columnCount() > kInstructionsColumn) {
        // The side pane is narrow: the name first (up to kNameShare), the status takes the rest.
        QHeaderView* header = m_view->horizontalHeader();
        header->setSectionResizeMode(kNameColumn, QHeaderView::Interactive);
        for (const int column : { kCallsColumn, kMethodsColumn })
            header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(kStatusColumn, QHeaderView::Stretch);
        m_view->hideColumn(kKindColumn);
        m_view->hideColumn(kInstructionsColumn);
        // One method: the column would say its name on every row.
        m_view->setColumnHidden(kMethodsColumn, !m_check || m_check->methods.size() < 2);
        fitNameColumn();
    }
    if (hadActiveRow)
        Q_EMIT highlightRequested({});
    orderVerdicts();
    refreshMethod();
}

void LoadCheckPanel::showVerdict()
{
    const Verdict v = verdict();
    m_verdict->setWrappedText(v.lead);
    // The answer on its own line, bold; a problem in the attention colour, a yes in the text's.
    m_answer->setStyleSheet(v.problem ? QStringLiteral("color: %1").arg(attentionColour().name()) : QString());
    m_answer->setWrappedText(QStringLiteral("%1 — %2").arg(v.answer, v.detail));
    m_answer->show();
    const QString hint = hintText();
    m_hint->setWrappedText(hint);
    m_hint->setVisible(!hint.isEmpty());
}

void LoadCheckPanel::fillTable(Table& table)
{
    const bool many = m_check->methods.size() > 1;
    std::map<std::string, Aggregate> operators;
    std::map<std::string, Aggregate> backends;
    for (const MethodKernelCheck& m : m_check->methods) {
        for (const OperatorKernel& op : m.operators) {
            Aggregate& row = operators[op.name];
            row.problem = op.missing();
            row.status = op.missing() ? "missing"
                                      : "resolved by " + listLabel(*m_checkedLists->resolve(op.name)).toStdString();
            addCalls(row, m.method, op.calls, many);
        }
        for (const BackendNeed& need : m.backends) {
            Aggregate& row = backends[need.backendId];
            row.problem = row.problem || need.status == BackendNeed::Status::NotLinked;
            row.status = backendStatus(need);
            addCalls(row, m.method, need.calls, many);
        }
    }
    const auto add = [&](const std::string& name, const Aggregate& row, bool backend) {
        table.rows.push_back({ name, row.calls, joined(row.methods, 6), row.status,
            std::string(backend ? "backend" : "operator"), joined(row.sites, kShownSites, row.siteCount) });
        m_rows.push_back({ backend, name, row.problem });
    };
    // What stops the load first, then what resolves, then the backends the delegates need.
    for (const auto& [name, row] : operators)
        if (row.problem)
            add(name, row, false);
    for (const auto& [name, row] : operators)
        if (!row.problem)
            add(name, row, false);
    for (const auto& [name, row] : backends)
        add(name, row, true);
    for (std::string& line : m_check->combinedTable().shareLines())
        table.notes.push_back(std::move(line));
}

void LoadCheckPanel::showNotes(const Table& table)
{
    QStringList notes;
    for (const std::string& line : table.notes)
        notes << QString::fromStdString(line);
    m_share->setWrappedText(notes.join(QLatin1Char('\n')));
    m_share->setVisible(!notes.isEmpty());

    QStringList problems = KernelListChoice::instance().problems();
    if (m_check)
        for (const Warning& warning : m_check->warnings)
            problems << QString::fromStdString(warning.message);
    m_problems->setWrappedText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
}

void LoadCheckPanel::fitNameColumn()
{
    if (m_model->columnCount() <= kNameColumn)
        return;
    const int wanted = static_cast<const QAbstractItemView*>(m_view)->sizeHintForColumn(kNameColumn)
        + m_view->fontMetrics().averageCharWidth();
    m_view->setColumnWidth(kNameColumn, std::min(wanted, static_cast<int>(m_view->viewport()->width() * kNameShare)));
}

Table LoadCheckPanel::visibleTable() const
{
    Table table;
    const Table& source = m_model->table();
    table.title = m_document
        ? "Will it load: " + QFileInfo(QString::fromStdString(m_document->path)).fileName().toStdString() + " with "
            + listsText().toStdString()
        : std::string();
    table.columns = source.columns;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        table.rows.push_back(source.rows[static_cast<std::size_t>(m_proxy->mapToSource(m_proxy->index(row, 0)).row())]);
    table.notes.push_back(verdictText().toStdString());
    table.notes.insert(table.notes.end(), source.notes.begin(), source.notes.end());
    return table;
}

bool LoadCheckPanel::exportTable(const QString& path, TableFormat format, QString* error) const
{
    if (!m_check)
        return succeeded(tr("No check to export yet"), error);
    return succeeded(exportTableFile(visibleTable(), format, path), error);
}

bool LoadCheckPanel::exportReport(const QString& path, QString* error) const
{
    if (!m_check)
        return succeeded(tr("No check to export yet"), error);
    return succeeded(
        exportBytes(path, QByteArray::fromStdString(jsonText(kernelCheckJson(*m_check, *m_checkedLists), 2) + "\n")),
        error);
}

} // namespace etscope::ui
