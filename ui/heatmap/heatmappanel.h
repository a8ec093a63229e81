// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/flatten.h"
#include "ui/heatmap/heatmapmodel.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QPushButton;
class QTableView;

namespace etscope::ui {

/// A colour bar from the best to the worst value of the chosen column, with its bounds.
class HeatLegend : public QWidget {
    Q_OBJECT
public:
    explicit HeatLegend(QWidget* parent = nullptr);
    /// `low` and `high` label the ends of the bar; `higherIsWorse` false paints it the other way
    /// round. With `allEqual` the bar is one flat colour (the best end) and says "all equal: low".
    void setRange(const QString& low, const QString& high, bool higherIsWorse, bool logScale, bool allEqual = false);
    /// The values off the ramp, each a swatch of its own: `identical` (its value as text; empty:
    /// the column has none) at the best end, in the ramp's darkest colour, the ramp itself
    /// starting `rampStart` away from it; `nan` a swatch in nanColour() after the bar.
    void setSpecials(const QString& identical, double rampStart, bool nan);
    /// What the bar says now, left to right ("0.000060 … worse → … 0.000672", "all equal: 0",
    /// "identical 0 · 0.000060 … worse → … 0.000672 · nan").
    QString text() const;
    /// A tick on the bar where the threshold sits (position in [0, 1], 1 = worst), or none.
    void setThreshold(std::optional<double> position, const QString& text = {});
    std::optional<double> thresholdPosition() const { return m_threshold; }
    QSize sizeHint() const override { return { 240, 34 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_low;
    QString m_high;
    bool m_higherIsWorse = true;
    bool m_log = false;
    bool m_allEqual = false;
    QString m_identical;
    double m_rampStart = 0;
    bool m_nan = false;
    std::optional<double> m_threshold;
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
    void setTable(std::shared_ptr<const PreparedHeatTable> table);
    /// Several sources (numeric gap, latency, …): a combo picks the one shown.
    void setTables(std::vector<core::HeatTable> tables);
    /// The same, prepared on a worker: shown without a pass over the rows.
    void setTables(std::vector<std::shared_ptr<const PreparedHeatTable>> tables);
    /// A line above the table while new data is being read or was not (empty: none).
    void setNote(const QString& text);
    /// The first-divergence line above the table (issue 24 #2): "First divergence: … — snr
    /// −17.6 dB < 20 dB" with a "Go to" button when `canGoTo`, or "No divergence: …"; empty
    /// text hides the line. `tooltip` explains the button (or why it is off).
    void setDivergence(const QString& text, bool canGoTo, const QString& tooltip = {});
    QString divergenceText() const;
    QPushButton* divergenceButton() const { return m_goToDivergence; }
    int tableCount() const { return static_cast<int>(m_tables.size()); }
    void setCurrentTable(int index);
    HeatmapModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    /// The column colouring the graph (index into the table's columns), or -1 for none.
    int graphColumn() const;
    void setGraphColumn(int column);
    void setScale(const HeatScale& scale);
    /// How each node is painted (GraphScene::setHeat), per the graph column.
    GraphHeat graphHeat() const;
    /// What the graph's colours mean now, for the legend above the graph (empty: no colouring).
    QString graphColouringText() const;
    /// What is shown, in the order shown (for exports).
    core::Table visibleTable() const;
    bool exportTable(const QString& path, core::TableFormat format, QString* error) const;
    bool exportImage(const QString& path, QString* error);

Q_SIGNALS:
    void nodeRequested(const core::NodeOrigin& origin);
    /// "Go to" of the first-divergence line was clicked.
    void divergenceRequested();
    void graphColouringChanged();

private:
    void applyControls();
    /// Each metric column as wide as its widest number or its header; the node column as
    /// measured by measureNames.
    void fitColumns();
    /// The width the node names need (the widest of the first rows), kept in m_namesWidth.
    void measureNames();
    /// The node column takes what the metric columns leave, but at least what its names need
    /// (up to kNameShare of the view): many metric columns scroll instead of squeezing the names.
    void fitNameColumn();
    bool eventFilter(QObject* watched, QEvent* event) override;
    /// Asks for the graph node of the row at `index` (a click, or a key moving the current row).
    void requestNodeOf(const QModelIndex& index);
    void updateLegend();
    /// Fills `legend` for the column `c` of the table shown (the panel's legend, an export's).
    void fillLegend(HeatLegend& legend, std::size_t c) const;
    /// The threshold field shows the graph column's own threshold.
    void showThreshold();

    HeatmapModel* m_model;
    QTableView* m_view;
    QComboBox* m_source;
    /// Shared with the model: a million-row table is held once.
    std::vector<std::shared_ptr<const PreparedHeatTable>> m_tables;
    QComboBox* m_column;
    QComboBox* m_scaleBox;
    QCheckBox* m_autoRange;
    std::map<std::size_t, double> m_thresholds; ///< per column of the table shown
    QLineEdit* m_low;
    QLineEdit* m_high;
    QLineEdit* m_threshold;
    QLabel* m_note; ///< what is being read for the panel, or was stopped
    QWidget* m_divergence; ///< the first-divergence line and its button
    QLabel* m_divergenceText;
    QPushButton* m_goToDivergence;
    QLabel* m_status;
    HeatLegend* m_legend;
    int m_namesWidth = 0; ///< pixels the node names need, padding included
    bool m_keyboardMove = false; ///< a key press is being handled by the table
};

} // namespace etscope::ui
