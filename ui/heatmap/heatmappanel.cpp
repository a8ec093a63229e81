// SPDX-License-Identifier: MIT
// The Heatmap tab: its table, legend, controls and exports. Why one file: one panel whose parts
// (the cell delegate, the legend, the column fitting) all follow the table and scale shown;
// what the tables hold is built off the UI thread in ui/document/debugsession.cpp.
#include "ui/heatmap/heatmappanel.h"

#include "ui/common/elidedelegate.h"
#include "ui/common/exports.h"
#include "ui/common/nodestyle.h"
#include "ui/graph/scenerenderer.h"

#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHeaderView>
#include <QImage>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLinearGradient>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QSvgGenerator>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace etscope::ui {

namespace {

/// Paints a metric cell from its PositionRole: the model holds numbers, never colours.
class HeatCellDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    /// Room for the 4 px the number keeps from each edge of its coloured cell.
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        if (index.column() > 0)
            size.rwidth() += 8;
        return size;
    }

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const QVariant position = index.data(HeatmapModel::PositionRole);
        if (!position.isValid()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        const QColor colour = rampColour(position.toDouble());
        painter->save();
        painter->fillRect(option.rect, colour);
        if (option.state & QStyle::State_Selected) {
            painter->setPen(QPen(option.palette.highlight(), 2));
            painter->drawRect(option.rect.adjusted(1, 1, -1, -1));
        }
        if (index.data(HeatmapModel::FlaggedRole).toBool()) {
            painter->setPen(QPen(attentionColour(), 2));
            painter->drawRect(option.rect.adjusted(2, 2, -2, -2));
        }
        painter->setPen(colour.lightnessF() < 0.55 ? Qt::white : Qt::black);
        painter->drawText(
            option.rect.adjusted(4, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, index.data().toString());
        painter->restore();
    }
};

} // namespace

HeatLegend::HeatLegend(QWidget* parent)
    : QWidget(parent)
{
    setMinimumHeight(34);
}

void HeatLegend::setRange(const QString& low, const QString& high, bool higherIsWorse, bool logScale, bool allEqual)
{
    m_low = low;
    m_high = high;
    m_higherIsWorse = higherIsWorse;
    m_log = logScale;
    m_allEqual = allEqual;
    update();
}

void HeatLegend::setSpecials(const QString& identical, double rampStart, bool nan)
{
    m_identical = identical;
    m_rampStart = std::clamp(rampStart, 0.0, 1.0);
    m_nan = nan;
    update();
}

QString HeatLegend::text() const
{
    // Left to right as painted: the identical swatch at the best end, the ramp (low, the way to
    // the worse end, high), the NaN swatch last.
    QString ramp;
    if (m_allEqual) {
        ramp = tr("all equal: %1").arg(m_low);
    } else if (!m_low.isEmpty() || !m_high.isEmpty()) {
        const QString worse = m_higherIsWorse ? tr("worse →") : tr("← worse");
        ramp = QStringLiteral("%1 … %2 … %3").arg(m_low, m_log ? tr("log scale · %1").arg(worse) : worse, m_high);
    }
    QStringList parts;
    const QString identical = m_identical.isEmpty() ? QString() : tr("identical %1").arg(m_identical);
    if (!identical.isEmpty() && m_higherIsWorse)
        parts << identical;
    if (!ramp.isEmpty())
        parts << ramp;
    if (!identical.isEmpty() && !m_higherIsWorse)
        parts << identical;
    if (m_nan)
        parts << tr("nan");
    return parts.join(QStringLiteral(" · "));
}

void HeatLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    QRect bar(4, 2, width() - 8, 14);
    const QFont small = subtitleFont();
    const QFontMetrics smallMetrics(small);
    // The swatches off the ramp take their room from the bar: NaN on the right, the identical
    // value at the best end (left where higher is worse, right where higher is better).
    constexpr int kGap = 6;
    QRect nanRect;
    QRect identicalRect;
    const QString nanText = tr("nan");
    const QString identicalText = tr("identical");
    if (m_nan) {
        const int w = smallMetrics.horizontalAdvance(nanText) + 8;
        nanRect = QRect(bar.right() - w + 1, bar.top(), w, bar.height());
        bar.setRight(nanRect.left() - kGap);
    }
    if (!m_identical.isEmpty()) {
        const int w = smallMetrics.horizontalAdvance(identicalText) + 8;
        if (m_higherIsWorse) {
            identicalRect = QRect(bar.left(), bar.top(), w, bar.height());
            bar.setLeft(identicalRect.right() + kGap);
        } else {
            identicalRect = QRect(bar.right() - w + 1, bar.top(), w, bar.height());
            bar.setRight(identicalRect.left() - kGap);
        }
    }
    // The bar is the ramp alone: from its best position (m_rampStart) to the worst.
    const auto rampAt = [this](double t) { return m_rampStart + (1.0 - m_rampStart) * t; };
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 10; ++i) {
        const double t = i / 10.0;
        gradient.setColorAt(t, rampColour(rampAt(m_higherIsWorse ? t : 1.0 - t)));
    }
    if (m_allEqual)
        painter.fillRect(bar, rampColour(m_rampStart)); // nothing is worse than anything else
    else
        painter.fillRect(bar, gradient);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(bar);
    painter.setFont(small);
    const auto swatch = [&](const QRect& rect, const QColor& colour, const QString& label) {
        painter.fillRect(rect, colour);
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawRect(rect);
        painter.setPen(colour.lightnessF() < 0.55 ? Qt::white : Qt::black);
        painter.drawText(rect, Qt::AlignCenter, label);
    };
    if (!identicalRect.isNull())
        swatch(identicalRect, rampColour(0), identicalText);
    if (!nanRect.isNull())
        swatch(nanRect, nanColour(), nanText);
    painter.setFont(font());
    painter.setPen(palette().color(QPalette::WindowText));
    if (!identicalRect.isNull())
        painter.drawText(QRect(identicalRect.left() - 8, 18, identicalRect.width() + 16, height() - 18),
            Qt::AlignHCenter | Qt::AlignTop, m_identical);
    const QRect labels(bar.left(), 18, bar.width(), height() - 18);
    if (m_allEqual) {
        painter.drawText(labels, Qt::AlignHCenter | Qt::AlignTop, tr("all equal: %1").arg(m_low));
        return;
    }
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignTop, m_low);
    painter.drawText(labels, Qt::AlignRight | Qt::AlignTop, m_high);
    const QString worse = m_higherIsWorse ? tr("worse →") : tr("← worse");
    painter.drawText(labels, Qt::AlignHCenter | Qt::AlignTop, m_log ? tr("log scale · %1").arg(worse) : worse);
    if (m_threshold) {
        // The threshold as a tick through the bar, values beyond it flagged on the graph.
        // Positions run towards the worse end, which is on the left where higher is better.
        const double t
            = m_rampStart < 1 ? std::clamp((*m_threshold - m_rampStart) / (1.0 - m_rampStart), 0.0, 1.0) : 1.0;
        const double x = bar.left() + (m_higherIsWorse ? t : 1.0 - t) * bar.width();
        painter.setPen(QPen(attentionColour(), 2));
        painter.drawLine(QPointF(x, bar.top() - 2), QPointF(x, bar.bottom() + 2));
    }
}

void HeatLegend::setThreshold(std::optional<double> position, const QString& text)
{
    m_threshold = position;
    setToolTip(position ? tr("Threshold %1: values beyond the tick are flagged on the graph").arg(text) : QString());
    update();
}

HeatmapPanel::HeatmapPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new HeatmapModel(this))
    , m_view(new QTableView(this))
    , m_source(new QComboBox(this))
    , m_column(new QComboBox(this))
    , m_scaleBox(new QComboBox(this))
    , m_autoRange(new QCheckBox(tr("automatic range"), this))
    , m_low(new QLineEdit(this))
    , m_high(new QLineEdit(this))
    , m_threshold(new QLineEdit(this))
    , m_note(new QLabel(this))
    , m_divergence(new QWidget(this))
    , m_divergenceText(new QLabel(m_divergence))
    , m_goToDivergence(new QPushButton(tr("Go to"), m_divergence))
    , m_status(new QLabel(this))
    , m_legend(new HeatLegend(this))
{
    setObjectName(QStringLiteral("heatmapPanel"));
    m_view->setModel(m_model); // sorts itself (HeatmapModel::sort)
    m_view->setItemDelegate(new HeatCellDelegate(m_view));
    // Node names keep what tells them from the other rows (quantize / dequantize, layer numbers).
    m_view->setItemDelegateForColumn(0, new DistinctNameDelegate(m_view));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // execution order until the user sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->setDefaultSectionSize(20);
    // The names get the room: numbers share one format per column, so each column is as wide
    // as its longest number (fitColumns) and the node column takes the rest, but never less than
    // its names need (fitNameColumn): a latency table's many columns scroll instead.
    // Widths come from the table's range, not from ResizeToContents: that measured 1,000 rows
    // per column on every resize, tens of milliseconds each on a million-row table.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->viewport()->installEventFilter(this);
    m_view->setObjectName(QStringLiteral("heatmapTable"));

    m_scaleBox->addItems({ tr("linear"), tr("log") });
    m_autoRange->setChecked(true);
    auto* validator = new QDoubleValidator(this);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    for (QLineEdit* edit : { m_low, m_high, m_threshold }) {
        edit->setValidator(validator);
        edit->setClearButtonEnabled(true);
    }
    m_low->setPlaceholderText(tr("min"));
    m_high->setPlaceholderText(tr("max"));
    m_threshold->setPlaceholderText(tr("flag values worse than…"));
    m_threshold->setObjectName(QStringLiteral("heatThreshold"));
    m_threshold->setToolTip(tr("Per column: each metric keeps its own threshold"));
    m_low->setEnabled(false);
    m_high->setEnabled(false);
    m_status->setWordWrap(true);
    // One profiling ETDump already fills it (times per node); a second (a reference run) or an
    // Inspector table adds the numeric gap.
    m_status->setText(tr("No runtime data yet: attach an ETDump for times per node, a reference ETDump or an "
                         "Inspector gap table for the numeric gap (File menu)."));

    auto* range = new QHBoxLayout();
    range->addWidget(m_autoRange);
    range->addWidget(m_low);
    range->addWidget(m_high);
    auto* form = new QFormLayout();
    m_source->setObjectName(QStringLiteral("heatSource"));
    form->addRow(tr("Data"), m_source);
    form->addRow(tr("Colour graph by"), m_column);
    form->addRow(tr("Scale"), m_scaleBox);
    form->addRow(tr("Range"), range);
    form->addRow(tr("Threshold"), m_threshold);
    // The controls and the table scroll together when the pane is shorter than they need
    // (issue 38: at 1024×700 the pane below the tab bar is about 330 px high, and the controls
    // were squashed to half their height, their text cut, the table left a row or two). Every
    // control keeps its height; the table keeps kMinimumRows rows.
    constexpr int kMinimumRows = 6;
    auto* content = new QWidget(this);
    content->setObjectName(QStringLiteral("heatmapContent"));
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("heatmapScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidgetResizable(true);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    m_view->setMinimumHeight(m_view->horizontalHeader()->sizeHint().height()
        + kMinimumRows * m_view->verticalHeader()->defaultSectionSize() + 2 * m_view->frameWidth()
        + m_view->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_view));
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    m_note->setObjectName(QStringLiteral("heatNote"));
    m_note->setWordWrap(true);
    m_note->hide();
    layout->addWidget(m_note);
    m_divergence->setObjectName(QStringLiteral("heatDivergence"));
    m_divergenceText->setObjectName(QStringLiteral("heatDivergenceText"));
    m_divergenceText->setWordWrap(true);
    m_divergenceText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_goToDivergence->setObjectName(QStringLiteral("heatGoToDivergence"));
    auto* divergence = new QHBoxLayout(m_divergence);
    divergence->setContentsMargins(0, 0, 0, 0);
    divergence->addWidget(m_divergenceText, 1);
    divergence->addWidget(m_goToDivergence, 0, Qt::AlignTop);
    m_divergence->hide();
    connect(m_goToDivergence, &QPushButton::clicked, this, &HeatmapPanel::divergenceRequested);
    layout->addWidget(m_divergence);
    layout->addWidget(m_status);
    layout->addLayout(form);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);
    scroll->setWidget(content); // after its layout is filled: the scroll area sizes it from that

    connect(m_column, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        showThreshold();
        applyControls();
        Q_EMIT graphColouringChanged();
    });
    connect(m_scaleBox, qOverload<int>(&QComboBox::currentIndexChanged), this, &HeatmapPanel::applyControls);
    connect(m_source, qOverload<int>(&QComboBox::currentIndexChanged), this, &HeatmapPanel::setCurrentTable);
    connect(m_autoRange, &QCheckBox::toggled, this, [this](bool automatic) {
        m_low->setEnabled(!automatic);
        m_high->setEnabled(!automatic);
        applyControls();
    });
    for (QLineEdit* edit : { m_low, m_high, m_threshold })
        connect(edit, &QLineEdit::editingFinished, this, &HeatmapPanel::applyControls);
    connect(m_view, &QTableView::clicked, this, &HeatmapPanel::requestNodeOf);
    // The arrow keys (and Page Up/Down, Home, End) move the graph's selection as a click does
    // (issue 38): the row made current by a key is requested; a click's own is by `clicked`.
    m_view->installEventFilter(this);
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (m_keyboardMove && current.isValid())
                requestNodeOf(current);
            m_keyboardMove = false;
        });
}

void HeatmapPanel::requestNodeOf(const QModelIndex& index)
{
    const int top = index.data(HeatmapModel::TopNodeRole).toInt();
    if (top >= 0)
        Q_EMIT nodeRequested({ core::NodeId(top), core::NodeId(index.data(HeatmapModel::InnerNodeRole).toInt()) });
}

void HeatmapPanel::setNote(const QString& text)
{
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

void HeatmapPanel::setDivergence(const QString& text, bool canGoTo, const QString& tooltip)
{
    m_divergenceText->setText(text);
    m_goToDivergence->setVisible(canGoTo);
    m_goToDivergence->setToolTip(tooltip);
    m_divergence->setVisible(!text.isEmpty());
}

QString HeatmapPanel::divergenceText() const
{
    return m_divergence->isHidden() ? QString() : m_divergenceText->text();
}

void HeatmapPanel::setTables(std::vector<core::HeatTable> tables)
{
    std::vector<std::shared_ptr<const PreparedHeatTable>> prepared;
    for (core::HeatTable& table : tables)
        prepared.push_back(prepareHeatTable(std::make_shared<const core::HeatTable>(std::move(table))));
    setTables(std::move(prepared));
}

void HeatmapPanel::setTables(std::vector<std::shared_ptr<const PreparedHeatTable>> tables)
{
    m_tables = std::move(tables);
    const QSignalBlocker blocker(m_source);
    m_source->clear();
    for (const auto& table : m_tables)
        m_source->addItem(QString::fromStdString(table->table->title.substr(0, table->table->title.find(" — "))));
    m_source->setEnabled(m_tables.size() > 1);
    if (m_tables.empty()) {
        m_model->setTable(core::HeatTable {});
        m_column->clear();
        m_status->setText(tr("No runtime data yet: attach an ETDump (and a reference ETDump, or an Inspector gap "
                             "table) from the File menu."));
        Q_EMIT graphColouringChanged();
        return;
    }
    setCurrentTable(0);
}

void HeatmapPanel::setCurrentTable(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_tables.size())
        return;
    if (m_source->currentIndex() != index) {
        const QSignalBlocker blocker(m_source);
        m_source->setCurrentIndex(index);
    }
    setTable(m_tables[static_cast<std::size_t>(index)]);
}

void HeatmapPanel::setTable(core::HeatTable table)
{
    setTable(std::make_shared<const core::HeatTable>(std::move(table)));
}

void HeatmapPanel::setTable(std::shared_ptr<const core::HeatTable> table)
{
    setTable(prepareHeatTable(std::move(table)));
}

void HeatmapPanel::showThreshold()
{
    const int column = graphColumn();
    m_threshold->setEnabled(column >= 0);
    const auto it = column >= 0 ? m_thresholds.find(static_cast<std::size_t>(column)) : m_thresholds.end();
    m_threshold->setText(it == m_thresholds.end() ? QString() : QString::number(it->second));
}

void HeatmapPanel::setTable(std::shared_ptr<const PreparedHeatTable> table)
{
    const int previous = m_column->currentIndex();
    if (!table || table->table.get() != &m_model->table())
        m_thresholds.clear(); // another table: other columns
    m_model->setTable(std::move(table));
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // execution order
    fitColumns();
    const QSignalBlocker blocker(m_column);
    m_column->clear();
    m_column->addItem(tr("(none)"));
    for (const auto& column : m_model->table().columns)
        m_column->addItem(QString::fromStdString(column.name));
    const int rows = static_cast<int>(m_model->table().rows.size());
    const int matched = static_cast<int>(m_model->prepared().matchedRows);
    m_status->setText(rows == 0 ? tr("The data has no rows.")
                                : tr("%1 — %2 row(s), %3 matched to graph nodes")
                                      .arg(QString::fromStdString(m_model->table().title))
                                      .arg(rows)
                                      .arg(matched));
    m_column->setCurrentIndex(
        previous > 0 && previous < m_column->count() ? previous : (m_model->table().columns.empty() ? 0 : 1));
    showThreshold();
    // Latencies and gaps often span decades: one slow delegate would paint everything else
    // dark on a linear scale. Start on a log scale when the chosen column spans 100× or more.
    if (const int column = graphColumn(); column >= 0) {
        const auto& summary = m_model->prepared().columns[static_cast<std::size_t>(column)].summary;
        const double smallest = summary.smallestPositive;
        const double largest = summary.range && summary.range->second > 0 ? summary.range->second : 0.0;
        const QSignalBlocker scaleBlocker(m_scaleBox);
        m_scaleBox->setCurrentIndex(smallest > 0 && largest / smallest >= 100 ? 1 : 0);
    }
    applyControls();
    Q_EMIT graphColouringChanged();
}

void HeatmapPanel::fitColumns()
{
    const QFontMetrics metrics(m_view->font());
    // As QCommonStyle pads an item's text, plus the 8 px HeatCellDelegate adds.
    const int padding = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 8;
    const PreparedHeatTable& prepared = m_model->prepared();
    for (std::size_t c = 0; c < prepared.columns.size(); ++c) {
        // One format per column: its widest number is one of its ends (or a non-finite one).
        QStringList texts { QStringLiteral("—"), QStringLiteral("-inf"), QStringLiteral("nan") };
        if (const auto& range = prepared.columns[c].range)
            texts << m_model->valueText(c, range->first) << m_model->valueText(c, range->second);
        int width = m_view->horizontalHeader()->sectionSizeHint(static_cast<int>(c) + 1);
        for (const QString& text : texts)
            width = std::max(width, metrics.horizontalAdvance(text) + padding);
        m_view->horizontalHeader()->resizeSection(static_cast<int>(c) + 1, width);
    }
    measureNames();
    fitNameColumn();
}

void HeatmapPanel::measureNames()
{
    // The first rows stand for the rest: a million-row table repeats its node names.
    constexpr int kMeasuredRows = 4000;
    const QFontMetrics metrics(m_view->font());
    const int padding = 2 * (m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) + 8;
    int widest = m_view->horizontalHeader()->sectionSizeHint(0);
    const int rows = std::min(m_model->rowCount(), kMeasuredRows);
    for (int row = 0; row < rows; ++row)
        widest = std::max(
            widest, metrics.horizontalAdvance(m_model->index(row, 0).data(Qt::DisplayRole).toString()) + padding);
    m_namesWidth = widest;
}

void HeatmapPanel::fitNameColumn()
{
    // Past this share of the view the names elide (keeping what tells them apart) rather than
    // push every number out of sight.
    constexpr double kNameShare = 0.6;
    QHeaderView* header = m_view->horizontalHeader();
    const int available = m_view->viewport()->width();
    int others = 0;
    for (int c = 1; c < header->count(); ++c)
        others += header->sectionSize(c);
    const int wanted = std::min(m_namesWidth, static_cast<int>(available * kNameShare));
    const int width = std::max({ available - others, wanted, header->minimumSectionSize() });
    if (header->sectionSize(0) != width)
        header->resizeSection(0, width);
}

bool HeatmapPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fitNameColumn();
    if (watched == m_view->viewport() && event->type() == QEvent::MouseButtonPress)
        m_keyboardMove = false;
    if (watched == m_view && event->type() == QEvent::KeyPress)
        m_keyboardMove = true; // a key that moves the current row requests its node
    if (watched == m_view && event->type() == QEvent::KeyRelease)
        m_keyboardMove = false;
    return QWidget::eventFilter(watched, event);
}

int HeatmapPanel::graphColumn() const
{
    return m_column->currentIndex() - 1;
}

void HeatmapPanel::setGraphColumn(int column)
{
    m_column->setCurrentIndex(column + 1);
}

void HeatmapPanel::setScale(const HeatScale& scale)
{
    m_scaleBox->setCurrentIndex(scale.logScale ? 1 : 0);
    m_autoRange->setChecked(!scale.low && !scale.high);
    m_low->setText(scale.low ? QString::number(*scale.low) : QString());
    m_high->setText(scale.high ? QString::number(*scale.high) : QString());
    m_thresholds = scale.thresholds;
    showThreshold();
    applyControls();
}

void HeatmapPanel::applyControls()
{
    HeatScale scale;
    scale.logScale = m_scaleBox->currentIndex() == 1;
    const auto number = [](QLineEdit* edit) -> std::optional<double> {
        bool ok = false;
        const double value = edit->text().toDouble(&ok);
        return ok ? std::optional<double>(value) : std::nullopt;
    };
    if (!m_autoRange->isChecked()) {
        scale.low = number(m_low);
        scale.high = number(m_high);
    }
    // The threshold field belongs to the column colouring the graph.
    if (const int column = graphColumn(); column >= 0) {
        if (const auto value = number(m_threshold))
            m_thresholds[static_cast<std::size_t>(column)] = *value;
        else
            m_thresholds.erase(static_cast<std::size_t>(column));
    }
    scale.thresholds = m_thresholds;
    m_model->setScale(scale);
    updateLegend();
    Q_EMIT graphColouringChanged();
}

namespace {

/// The column has no value on the ramp: every value is its identical one (or NaN, or none).
bool nothingOnTheRamp(const HeatmapModel& model, std::size_t c)
{
    const core::HeatColumnSummary& summary = model.prepared().columns[c].summary;
    return !model.scale().low && !model.scale().high && !summary.range && !summary.hasWorseInfinity;
}

} // namespace

void HeatmapPanel::fillLegend(HeatLegend& legend, std::size_t c) const
{
    const core::HeatTable& table = m_model->table();
    const core::HeatColumnScale& scale = m_model->columnScale(c);
    const core::HeatColumnSummary& summary = m_model->prepared().columns[c].summary;
    const bool worse = table.columns[c].higherIsWorse;
    const auto identical = table.columns[c].identical;
    const QString identicalText = identical ? m_model->valueText(c, *identical) : QString();
    if (nothingOnTheRamp(*m_model, c)) {
        // Every value the identical one (two equal runs): one flat colour, the best.
        legend.setRange(identicalText, identicalText, worse, scale.logScale, summary.hasIdentical);
        legend.setSpecials({}, 0, summary.hasNaN);
        return;
    }
    if (!summary.range && !m_model->scale().low && !m_model->scale().high) {
        // Only infinities at the worse end besides the identical values.
        const QString worst = m_model->valueText(
            c, worse ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
        legend.setRange(worst, worst, worse, scale.logScale, true);
    } else {
        // Low on the left, high on the right, the ramp running towards the worse end: a
        // cosine's bar ends best at 1 on the right.
        legend.setRange(m_model->valueText(c, scale.low), m_model->valueText(c, scale.high), worse, scale.logScale,
            scale.allEqual());
    }
    legend.setSpecials(identicalText, scale.rampStart(), summary.hasNaN);
}

void HeatmapPanel::updateLegend()
{
    const int column = std::max(graphColumn(), 0);
    const core::HeatTable& table = m_model->table();
    if (table.columns.empty()) {
        m_legend->setRange({}, {}, true, false);
        m_legend->setSpecials({}, 0, false);
        return;
    }
    const auto c = static_cast<std::size_t>(column);
    fillLegend(*m_legend, c);
    const auto threshold = graphColumn() >= 0 ? m_model->scale().threshold(c) : std::nullopt;
    m_legend->setThreshold(
        threshold ? std::optional<double>(m_model->columnScale(c).place(*threshold).position) : std::nullopt,
        threshold ? QString::number(*threshold) : QString());
}

QString HeatmapPanel::graphColouringText() const
{
    const int column = graphColumn();
    const core::HeatTable& table = m_model->table();
    if (column < 0 || static_cast<std::size_t>(column) >= table.columns.size())
        return {};
    const auto c = static_cast<std::size_t>(column);
    const core::HeatColumnScale& scale = m_model->columnScale(c);
    const core::HeatColumnSummary& summary = m_model->prepared().columns[c].summary;
    const bool worse = table.columns[c].higherIsWorse;
    const auto identical = table.columns[c].identical;
    const QString name = QString::fromStdString(table.columns[c].name).toHtmlEscaped();
    QString text;
    if (nothingOnTheRamp(*m_model, c)) {
        text = tr("<b>Colour:</b> %1: all equal (%2)")
                   .arg(name, identical ? m_model->valueText(c, *identical) : tr("no value"));
    } else if (scale.allEqual()) {
        text = tr("<b>Colour:</b> %1: all equal (%2)").arg(name, m_model->valueText(c, scale.low));
    } else {
        // With an identical value the ramp's best end is a step lighter than the darkest colour,
        // which only the identical value gets.
        text = tr("<b>Colour:</b> %1 %2, best %3 (%4) → worst %5 (yellow)%6")
                   .arg(name, scale.logScale ? tr("on a log scale") : tr("on a linear scale"),
                       m_model->valueText(c, worse ? scale.low : scale.high), identical ? tr("blue") : tr("dark"),
                       m_model->valueText(c, worse ? scale.high : scale.low),
                       worse ? QString() : tr(", higher is better"));
    }
    if (identical && !nothingOnTheRamp(*m_model, c))
        text += tr(" · identical %1 (darkest)").arg(m_model->valueText(c, *identical));
    if (summary.hasNaN)
        text += tr(" · <span style=\"color:%1\">■</span> nan").arg(nanColour().name());
    if (const auto threshold = m_model->scale().threshold(c))
        text += tr(" · <span style=\"color:#d55e00\">⚑</span> worse than %1").arg(QString::number(*threshold));
    return text;
}

GraphHeat HeatmapPanel::graphHeat() const
{
    GraphHeat heat;
    const int column = graphColumn();
    const core::HeatTable& table = m_model->table();
    if (column < 0 || static_cast<std::size_t>(column) >= table.columns.size())
        return heat;
    const auto c = static_cast<std::size_t>(column);
    const PreparedHeatTable::Column& summary = m_model->prepared().columns[c];
    const core::HeatColumnScale& scale = m_model->columnScale(c);
    // A node with several rows (one per output) is painted with its worst one, and a collapsed
    // delegate with the worst of its own rows and its inner nodes' rows (worst values kept per
    // node when the table was prepared: one pass per node here, not per row). The legend above
    // the graph names the column, so the node shows the number alone.
    const auto paint = [&](std::pair<int, int> key, double value, const QString& label) {
        const core::HeatPlace place = scale.place(value);
        const bool flagged = scale.beyondThreshold(value);
        const auto [it, fresh] = heat.try_emplace(key);
        if (fresh || place.rank() > it->second.rank)
            it->second = { place.position, place.rank(), label, it->second.flagged || flagged };
        else
            it->second.flagged = it->second.flagged || flagged;
    };
    for (const auto& [key, value] : summary.worst)
        paint(key, value, m_model->valueText(c, value));
    for (const auto& [key, value] : summary.worstInside)
        paint(key, value, tr("inside: %1").arg(m_model->valueText(c, value)));
    return heat;
}

core::Table HeatmapPanel::visibleTable() const
{
    const core::Table all = m_model->table().toTable();
    core::Table table = all;
    table.rows.clear();
    for (int row = 0; row < m_model->rowCount(); ++row)
        table.rows.push_back(all.rows[static_cast<std::size_t>(m_model->sourceRow(row))]);
    return table;
}

bool HeatmapPanel::exportTable(const QString& path, core::TableFormat format, QString* error) const
{
    return succeeded(exportTableFile(visibleTable(), format, path), error);
}

bool HeatmapPanel::exportImage(const QString& path, QString* error)
{
    const auto format = imageFormatFor(path);
    if (!format || *format == ImageFormat::Pdf) {
        if (error)
            *error = tr("%1: the heatmap exports as .png or .svg").arg(path);
        return false;
    }
    // The legend and the whole table, not just the scrolled part: size the view to its content.
    QWidget sheet;
    auto* layout = new QVBoxLayout(&sheet);
    auto* title = new QLabel(QString::fromStdString(m_model->table().title), &sheet);
    auto* legend = new HeatLegend(&sheet);
    const int column = std::max(graphColumn(), 0);
    if (!m_model->table().columns.empty())
        fillLegend(*legend, static_cast<std::size_t>(column));
    auto* table = new QTableView(&sheet);
    table->setModel(m_model);
    table->setItemDelegate(new HeatCellDelegate(table));
    table->setItemDelegateForColumn(0, new DistinctNameDelegate(table));
    table->verticalHeader()->setDefaultSectionSize(20);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->resizeColumnsToContents();
    int width = table->verticalHeader()->width() + 4;
    for (int c = 0; c < m_model->columnCount(); ++c)
        width += table->columnWidth(c);
    const int height = table->horizontalHeader()->height() + 20 * m_model->rowCount() + 4;
    table->setFixedSize(width, height);
    layout->addWidget(title);
    layout->addWidget(legend);
    layout->addWidget(table);
    sheet.setAttribute(Qt::WA_DontShowOnScreen);
    sheet.adjustSize();
    sheet.show();

    if (*format == ImageFormat::Png) {
        // A widget grab keeps the table's own look (grid, header) pixel for pixel.
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        sheet.grab().toImage().save(&buffer, "PNG");
        return succeeded(exportBytes(path, bytes), error);
    }
    return succeeded(exportPainting(path, sheet.size(), QString::fromStdString(m_model->table().title),
                         [&sheet](QPainter& painter) { sheet.render(&painter); }),
        error);
}

} // namespace etscope::ui
