// SPDX-License-Identifier: MIT
// The Load tab's own widgets and table columns, shared by loadcheckpanel.cpp (building the
// panel, the kernel lists), loadchecktable.cpp (the verdict and the table) and
// loadchecklinks.cpp (the table and the graph linked both ways). Private to ui/load.
#pragma once

#include "core/analysis/kernelcheck.h"
#include "ui/common/nodestyle.h"

#include <QFileInfo>
#include <QLabel>
#include <QSortFilterProxyModel>

#include <algorithm>
#include <vector>

namespace etscope::ui {

namespace loadcheck {

inline constexpr int kNameColumn = 0;
inline constexpr int kCallsColumn = 1;
inline constexpr int kMethodsColumn = 2;
inline constexpr int kStatusColumn = 3;
inline constexpr double kNameShare = 0.65; ///< of the table's width at most, for the name column
inline constexpr int kKindColumn = 4; ///< exported, not shown: the status says it
inline constexpr int kInstructionsColumn = 5; ///< exported, shown in the name's tooltip

inline QString listLabel(const core::KernelList& list)
{
    return list.builtin ? QString::fromStdString(list.name) : QFileInfo(QString::fromStdString(list.name)).fileName();
}

} // namespace loadcheck

/// A word-wrapped label that asks for the height of all its lines: a tab page's layout gives a
/// wrapped label only one line once its text changes (height-for-width is lost on the way).
class WrappedLabel final : public QLabel {
public:
    explicit WrappedLabel(QWidget* parent)
        : QLabel(parent)
    {
        setWordWrap(true);
        setTextFormat(Qt::PlainText);
        setAlignment(Qt::AlignLeft | Qt::AlignTop);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    void setWrappedText(const QString& text)
    {
        setText(text);
        fit();
    }
    /// Narrow: an operator name longer than the pane (a hint's
    /// "quantized_decomposed::dequantize_per_tensor.out") is cut at the pane's edge rather than
    /// widening the scrolled page past it, which cut every other line too.
    QSize minimumSizeHint() const override { return { fontMetrics().averageCharWidth() * 12, minimumHeight() }; }
    /// As tall as its lines at its width (fit() keeps the minimum there); QLabel's own hint is a
    /// taller, narrower box that the layout would honour.
    QSize sizeHint() const override
    {
        return { QLabel::sizeHint().width(), std::max(minimumHeight(), fontMetrics().height()) };
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        fit();
    }

private:
    void fit()
    {
        // Measured here: QLabel::heightForWidth never answers less than the minimum height.
        const QMargins margins = contentsMargins();
        const int available = std::max(width() - margins.left() - margins.right() - 2 * margin(), 1);
        const int lines = text().isEmpty()
            ? 0
            : fontMetrics().boundingRect(QRect(0, 0, available, 1 << 20), Qt::TextWordWrap, text()).height();
        const int height = lines + margins.top() + margins.bottom() + 2 * margin();
        if (height != minimumHeight())
            setMinimumHeight(height);
    }
};

/// The table's rows with the operators and backends that stop a load in the attention colour.
class LoadCheckProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    std::vector<bool> problems; ///< per source row

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role == Qt::ToolTipRole && index.column() == loadcheck::kNameColumn) {
            const QModelIndex source = mapToSource(index);
            const QString sites = sourceModel()->index(source.row(), loadcheck::kInstructionsColumn).data().toString();
            return tr("%1\ncalled at instruction(s) %2").arg(source.data().toString(), sites);
        }
        if (role == Qt::ForegroundRole
            && (index.column() == loadcheck::kNameColumn || index.column() == loadcheck::kStatusColumn)) {
            const int row = mapToSource(index).row();
            if (row >= 0 && static_cast<std::size_t>(row) < problems.size() && problems[static_cast<std::size_t>(row)])
                return attentionColour();
        }
        return QSortFilterProxyModel::data(index, role);
    }
};

} // namespace etscope::ui
