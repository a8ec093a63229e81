// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "ui/models/heatmapmodel.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace etscope::ui {

/// A colour bar from the best to the worst value of the chosen column, with its bounds.
class HeatLegend : public QWidget {
    Q_OBJECT
public:
    explicit HeatLegend(QWidget* parent = nullptr);
    void setRange(const QString& low, const QString& high, bool higherIsWorse, bool logScale);
    QSize sizeHint() const override { return { 240, 34 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_low;
    QString m_high;
    bool m_higherIsWorse = true;
    bool m_log = false;
};

/// One row per matched node, one column per metric (and per run), cells coloured on a
/// colour-blind-safe ramp; range, log scale and a threshold are adjustable; a click selects the
/// node. It also says which column colours the graph.
class HeatmapPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapPanel(QWidget* parent = nullptr);

    void setTable(core::HeatTable table);
    void setTable(std::shared_ptr<const core::HeatTable> table);
    /// Several sources (numeric gap, latency, …): a combo picks the one shown.
    void setTables(std::vector<core::HeatTable> tables);
    int tableCount() const { return static_cast<int>(m_tables.size()); }
    void setCurrentTable(int index);
    HeatmapModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    /// The column colouring the graph (index into the table's columns), or -1 for none.
    int graphColumn() const;
    void setGraphColumn(int column);
    void setScale(const HeatScale& scale);
    /// The node → (position, label) map for GraphScene::setHeat, per the graph column.
    std::map<std::pair<int, int>, std::pair<double, QString>> graphHeat() const;
    /// What is shown, in the order shown (for exports).
    core::Table visibleTable() const;
    bool exportTable(const QString& path, core::TableFormat format, QString* error) const;
    bool exportImage(const QString& path, QString* error);

Q_SIGNALS:
    void nodeRequested(const core::NodeOrigin& origin);
    void graphColouringChanged();

private:
    void applyControls();
    void updateLegend();

    HeatmapModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QComboBox* m_source;
    /// Shared with the model: a million-row table is held once.
    std::vector<std::shared_ptr<const core::HeatTable>> m_tables;
    QComboBox* m_column;
    QComboBox* m_scaleBox;
    QCheckBox* m_autoRange;
    QLineEdit* m_low;
    QLineEdit* m_high;
    QLineEdit* m_threshold;
    QLabel* m_status;
    HeatLegend* m_legend;
};

} // namespace etscope::ui
