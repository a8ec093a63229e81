// SPDX-License-Identifier: MIT
#include "ui/search/searchmodel.h"

namespace etscope::ui {

SearchModel::SearchModel(QObject* parent)
    : QAbstractListModel(parent)
{
}

void SearchModel::setResults(const core::Graph* top, std::vector<core::SearchHit> hits,
    std::shared_ptr<const core::Grouping> grouping, QString method)
{
    beginResetModel();
    m_top = top;
    m_hits = std::move(hits);
    m_grouping = std::move(grouping);
    m_method = std::move(method);
    endResetModel();
}

int SearchModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_hits.size());
}

QVariant SearchModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_top)
        return {};
    const core::SearchHit& hit = m_hits[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        const core::Node& top = m_top->node(hit.origin.top);
        QString where;
        QString label = QString::fromStdString(top.label);
        if (top.kind == core::NodeKind::Delegate && !hit.origin.inner.valid())
            label += QStringLiteral(" #%1").arg(top.delegate.value);
        // Tell equal labels apart: the instruction they run as, else the node (constants and
        // values have no instruction: a long program has hundreds of equal ones), and the group
        // of a long method they are drawn in.
        if (!hit.origin.inner.valid())
            where = top.instruction.valid() ? tr("instruction %1").arg(top.instruction.value)
                                            : tr("node %1").arg(hit.origin.top.value);
        if (hit.origin.inner.valid() && top.subgraph) {
            label = QString::fromStdString(top.subgraph->node(hit.origin.inner).label);
            where = QStringLiteral("in %1 #%2").arg(QString::fromStdString(top.label)).arg(top.delegate.value);
        }
        if (m_grouping)
            if (const int group = m_grouping->groupOfNode(hit.origin.top); group >= 0)
                where += QStringLiteral(", ")
                    + QString::fromStdString(core::groupLabel(m_grouping->groups[static_cast<std::size_t>(group)]));
        return QStringLiteral("%1 (%2) — %3: %4")
            .arg(label, where, QString::fromStdString(hit.field), QString::fromStdString(hit.text));
    }
    case Qt::ToolTipRole:
        return m_method.isEmpty() ? data(index, Qt::DisplayRole)
                                  : tr("method %1: %2").arg(m_method, data(index, Qt::DisplayRole).toString());
    case TopNodeRole:
        return hit.origin.top.value;
    case InnerNodeRole:
        return hit.origin.inner.value;
    default:
        return {};
    }
}

} // namespace etscope::ui
