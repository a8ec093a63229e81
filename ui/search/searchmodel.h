// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/grouping.h"
#include "core/graph/search.h"

#include <QAbstractListModel>

#include <memory>

namespace etscope::ui {

/// Search results: one row per hit, "label (where) — field: text". A hit inside a delegate
/// also shows the inner node's own number (Ethos-U command index, QNN/XNNPACK/Vulkan node id)
/// and the type and shape of what it writes: "Conv 1×1 · cmd 776 · int8 [1, 112, 112, 32]".
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
    /// Per hit inside a delegate: what tells it from equal labels (" · cmd 776 · int8 [1, …]").
    std::vector<QString> m_innerTags;
};

} // namespace etscope::ui
