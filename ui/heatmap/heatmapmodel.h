// SPDX-License-Identifier: MIT
#pragma once

#include "core/table/heatscale.h"
#include "core/table/heattable.h"

#include <QAbstractTableModel>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace etscope::ui {

/// A heat table with what the model, its legend and the graph colouring need from every row,
/// computed once (prepareHeatTable), on a worker: a million-row table is then shown without a
/// pass over its rows on the UI thread (issue 27 #13).
struct PreparedHeatTable {
    std::shared_ptr<const core::HeatTable> table;
    struct Column {
        std::optional<std::pair<double, double>> range; ///< core::HeatTable::range (every finite value)
        core::HeatColumnSummary summary; ///< what the scale is made from (core::summariseHeatColumn)
        core::NumberFormat format; ///< core::columnNumberFormat
        /// Per node key (GraphScene::keyOf of a row's origin): the worst value of its rows, and
        /// per delegate ({top, none}) the worst value of its inner nodes' rows (core::heatWorse).
        /// Every heat place is monotonic in that order, so the worst value paints the worst
        /// colour whatever the scale, range or threshold chosen later.
        std::map<std::pair<int, int>, double> worst;
        std::map<std::pair<int, int>, double> worstInside;
    };
    std::vector<Column> columns;
    std::size_t matchedRows = 0; ///< rows placed on a graph node
};

/// Scans every row of `table` once per column; runs on any thread.
std::shared_ptr<const PreparedHeatTable> prepareHeatTable(std::shared_ptr<const core::HeatTable> table);

/// What the user chose for the heat colours: shared by the heatmap cells, its legend and the
/// graph colouring, which all place values through column() (core::HeatColumnScale), so all
/// three agree.
struct HeatScale {
    bool logScale = false;
    std::optional<double> low; ///< nullopt: the column's smallest value (not counting the identical one)
    std::optional<double> high; ///< nullopt: the column's largest value
    /// Per metric column: values worse than this are flagged (an mse and a latency have
    /// nothing in common, so each column keeps its own).
    std::map<std::size_t, double> thresholds;

    std::optional<double> threshold(std::size_t column) const;
    /// The scale of `column` of a prepared table (no pass over the rows).
    core::HeatColumnScale column(const PreparedHeatTable& prepared, std::size_t column) const;
    /// The same for a table not prepared (one pass over its rows).
    core::HeatColumnScale column(const core::HeatTable& table, std::size_t column) const;
};

/// How one node is coloured on the graph: its position on the ramp (1 = worst; NaN for a NaN
/// value, painted grey), the value as text, and whether it is beyond the column's threshold.
struct NodeHeat {
    double position = 0;
    double rank = 0; ///< core::HeatPlace::rank: which of a node's values it shows
    QString label;
    bool flagged = false;
};
/// By GraphScene::keyOf(origin).
using GraphHeat = std::map<std::pair<int, int>, NodeHeat>;

/// The numeric-gap / latency heat table: one row per node in execution order, the node's name
/// then one column per metric. Holds numbers; the delegate paints them.
class HeatmapModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        ValueRole = Qt::UserRole + 1, ///< double, or invalid when the cell has no data
        PositionRole, ///< double in [0, 1], 1 = worst, per the current HeatScale; NaN for a NaN value
        FlaggedRole, ///< bool: beyond the threshold
        TopNodeRole,
        InnerNodeRole,
        SortRole,
    };

    explicit HeatmapModel(QObject* parent = nullptr);

    /// Prepares the table here (prepareHeatTable): for small tables; large ones come prepared.
    void setTable(core::HeatTable table);
    void setTable(std::shared_ptr<const core::HeatTable> table);
    void setTable(std::shared_ptr<const PreparedHeatTable> prepared);
    const core::HeatTable& table() const { return *m_table; }
    const PreparedHeatTable& prepared() const { return *m_prepared; }
    /// The scale of `column` as chosen (kept, never recomputed from the rows).
    const core::HeatColumnScale& columnScale(std::size_t column) const;
    void setScale(const HeatScale& scale);
    const HeatScale& scale() const { return m_scale; }

    /// A value of `column` (index into the table's columns) as the column shows it: every
    /// value of a column in one format and precision (core::columnNumberFormat).
    QString valueText(std::size_t column, double value) const;

    /// The row of table() shown at `row` (rows are shown sorted as sort() last asked).
    int sourceRow(int row) const;
    /// Sorts by the node name (column 0) or a metric, rows without a value last; column -1 is
    /// execution order. Done here, not by a QSortFilterProxyModel: the proxy mapped a
    /// million rows each time a table was shown, and again on each change of scale.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void updateBounds();

    std::shared_ptr<const core::HeatTable> m_table = std::make_shared<const core::HeatTable>();
    std::shared_ptr<const PreparedHeatTable> m_prepared = prepareHeatTable(m_table);
    HeatScale m_scale;
    std::vector<int> m_order; ///< shown row → table row; empty: execution order
    std::vector<core::HeatColumnScale> m_scales; ///< per column, from the prepared summary
    std::vector<core::NumberFormat> m_formats; ///< per column, from all of its values
};

} // namespace etscope::ui
