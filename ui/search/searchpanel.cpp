// SPDX-License-Identifier: MIT
#include "ui/search/searchpanel.h"

#include "ui/document/nodefacts.h"
#include "ui/graph/clicktiming.h"
#include "ui/search/searchmodel.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace etscope::ui {

namespace {

constexpr int kDebounceMilliseconds = 200;
constexpr int kMargin = 4;

} // namespace

SearchPanel::SearchPanel(QLineEdit* edit, QWidget* parent)
    : QWidget(parent)
    , m_edit(edit)
{
    m_model = new SearchModel(this);
    m_view = new QListView(this);
    m_view->setModel(m_model);
    m_view->setObjectName(QStringLiteral("searchResults"));
    m_status = new QLabel(tr("Type in the search box (Ctrl+F)."), this);
    m_status->setObjectName(QStringLiteral("searchStatus"));
    m_status->setWordWrap(true); // "The first 1,000 results …" in a narrow side pane
    m_cpuOnly = new QCheckBox(tr("Left on the CPU"), this);
    m_cpuOnly->setObjectName(QStringLiteral("searchCpuOnly"));
    m_cpuOnly->setToolTip(tr("Only the operators outside every delegate, each with why it stayed on the CPU "
                             "(the search box narrows them)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin, kMargin, kMargin, kMargin);
    layout->addWidget(m_cpuOnly);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMilliseconds);
    connect(m_edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { Q_EMIT searchRequested(m_edit->text()); });
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        m_pressed.start(); // search-jump (--timings) runs from the key press, the search included
        // Enter walks the hits; a fresh search only when the text changed since the last one.
        if (m_debounce->isActive() || m_edit->text() != m_searchedText) {
            m_debounce->stop();
            Q_EMIT searchRequested(m_edit->text());
            m_view->setCurrentIndex({});
        }
        if (m_model->rowCount() == 0) {
            m_pressed.invalidate();
            return;
        }
        activate((m_view->currentIndex().row() + 1) % m_model->rowCount());
    });
    connect(m_cpuOnly, &QCheckBox::toggled, this, [this] { Q_EMIT searchRequested(m_edit->text()); });
    connect(m_view, &QListView::activated, this, [this](const QModelIndex& index) { activate(index.row()); });
    connect(m_view, &QListView::clicked, this, [this](const QModelIndex& index) { activate(index.row()); });
}

void SearchPanel::search(const core::Graph& top, const QString& text, core::NodeId delegateScope,
    std::shared_ptr<const core::Grouping> grouping, const QString& method)
{
    m_searchedText = text;
    // One hit more than shown tells whether the list is cut. A delegate's tab keeps its own
    // hits only, so it searches without a cap before it picks them.
    const std::size_t limit = delegateScope.valid() ? std::numeric_limits<std::size_t>::max() : kMaxHits + 1;
    const bool cpuOnly = m_cpuOnly->isChecked();
    std::vector<core::SearchHit> hits
        = cpuOnly ? cpuHits(top, text.trimmed(), method) : core::searchGraph(top, text.trimmed().toStdString(), limit);
    if (delegateScope.valid())
        std::erase_if(hits,
            [&](const core::SearchHit& hit) { return hit.origin.top != delegateScope || !hit.origin.inner.valid(); });
    const bool capped = hits.size() > kMaxHits;
    if (capped)
        hits.resize(kMaxHits);
    m_model->setResults(&top, std::move(hits), std::move(grouping), method);
    if (cpuOnly)
        m_status->setText(m_facts
                ? tr("%n operator(s) left on the CPU", nullptr, m_model->rowCount())
                : tr("%n operator(s) left on the CPU (why: being worked out…)", nullptr, m_model->rowCount()));
    else if (text.trimmed().isEmpty())
        m_status->setText(tr("Type in the search box (Ctrl+F)."));
    else if (capped)
        m_status->setText(tr("The first %1 results, in graph order: more match (type more to narrow the search) — "
                             "Enter jumps to the next")
                              .arg(QLocale().toString(static_cast<qulonglong>(kMaxHits))));
    else
        m_status->setText(tr("%n result(s) — Enter jumps to the next", nullptr, m_model->rowCount()));
}

void SearchPanel::setFacts(std::shared_ptr<const NodeFacts> facts)
{
    m_facts = std::move(facts);
    if (m_cpuOnly->isChecked())
        Q_EMIT searchRequested(m_edit->text());
}

std::vector<core::SearchHit> SearchPanel::cpuHits(
    const core::Graph& top, const QString& text, const QString& method) const
{
    std::vector<core::SearchHit> hits;
    const std::string methodName = method.toStdString();
    for (const core::Node& node : top.nodes) {
        if (node.kind != core::NodeKind::Operator)
            continue;
        if (!text.isEmpty() && !QString::fromStdString(node.label).contains(text, Qt::CaseInsensitive)
            && !QString::fromStdString(node.opType).contains(text, Qt::CaseInsensitive))
            continue;
        core::SearchHit hit { { node.id, core::NodeId::none() }, "on the CPU", {} };
        if (m_facts && node.instruction.valid()) {
            const auto answers = m_facts->whyOf(methodName, node.chain, static_cast<int>(node.instruction.value));
            QStringList lines;
            for (const core::NodeWhy* answer : answers)
                lines << whyLine(*m_facts, *answer);
            hit.text = lines.isEmpty() ? tr("no answer (no delegate's rules apply)").toStdString()
                                       : lines.join(QStringLiteral(" | ")).toStdString();
        }
        hits.push_back(std::move(hit));
    }
    return hits;
}

void SearchPanel::activate(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    m_view->setCurrentIndex(m_model->index(row));
    const core::NodeOrigin origin = m_model->hits()[static_cast<std::size_t>(row)].origin;
    QElapsedTimer pressed = m_pressed;
    m_pressed.invalidate();
    clicktiming::beginJump(origin, pressed);
    Q_EMIT nodeRequested(origin);
}

} // namespace etscope::ui
