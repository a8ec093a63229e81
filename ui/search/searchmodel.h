// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/grouping.h"
#include "core/graph/search.h"

#include <QAbstractListModel>

#include <memory>

namespace etscope::ui {

/// Search results: one row per hit, "label — field: text".
class SearchModel final : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { TopNodeRole = Qt::UserRole + 1, InnerNodeRole };

    explicit SearchModel(QObject* parent = nullptr);

    /// `grouping` (may be null) names the group a hit lies in; `method` goes in the tooltip.
    void setResults(const core::Graph* top, std::vector<core::SearchHit> hits,
        std::shared_ptr<const core::Grouping> grouping = nullptr, QString method = {});
    const std::vector<core::SearchHit>& hits() const { return m_hits; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    const core::Graph* m_top = nullptr;
    std::vector<core::SearchHit> m_hits;
    std::shared_ptr<const core::Grouping> m_grouping;
    QString m_method;
};

} // namespace etscope::ui
