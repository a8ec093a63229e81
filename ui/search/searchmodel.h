// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/search.h"

#include <QAbstractListModel>

namespace etscope::ui {

/// Search results: one row per hit, "label — field: text".
class SearchModel final : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { TopNodeRole = Qt::UserRole + 1, InnerNodeRole };

    explicit SearchModel(QObject* parent = nullptr);

    void setResults(const core::Graph* top, std::vector<core::SearchHit> hits);
    const std::vector<core::SearchHit>& hits() const { return m_hits; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    const core::Graph* m_top = nullptr;
    std::vector<core::SearchHit> m_hits;
};

} // namespace etscope::ui
