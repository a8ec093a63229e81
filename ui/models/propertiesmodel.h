// SPDX-License-Identifier: MIT
#pragma once

#include "document/document.h"
#include "graph/flatten.h"

#include <QStandardItemModel>

namespace etscope::ui {

/// Everything core knows about the selected node (or, with nothing selected, the file) as a
/// two-level tree: groups, then name/value rows. Values are plain text (copyable).
class PropertiesModel final : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { Name, Value, NUM_COLUMNS };

    explicit PropertiesModel(QObject* parent = nullptr);

    void showNode(const core::Document& document, int method, const core::NodeOrigin& origin);
    void showDocument(const core::Document& document, int method);
    /// An edge of a drawn graph: the value it carries, its type and shape, and its two ends.
    void showEdge(const core::Document& document, int method, const core::Graph& drawn,
        const core::NodeOrigin& fromOrigin, int edgeIndex);
    void clearAll();

private:
    QStandardItem* addGroup(const QString& title);
    static void addRow(QStandardItem* group, const QString& name, const QString& value);
};

} // namespace etscope::ui
