// SPDX-License-Identifier: MIT
#include "ui/size/sizepanel.h"

#include "core/document/document.h"
#include "core/util/jsontext.h"
#include "core/util/text.h"
#include "ui/common/exports.h"
#include "ui/common/nodestyle.h"
#include "ui/document/whenfinished.h"
#include "ui/size/treemap.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace etscope::ui {

using namespace etscope::core;

namespace {

constexpr int kSummaryMargin = 8;
constexpr int kBarHeight = 5;
constexpr int kSummaryWidth = 260;
constexpr QSize kPictureMinimum { 1000, 600 };

QString human(std::uint64_t bytes)
{
    return QString::fromStdString(formatBytes(bytes));
}

QString grouped(std::uint64_t value)
{
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

/// "336 bytes", "2,709,120 bytes (2.6 MiB)".
QString bytesText(std::uint64_t bytes)
{
    const QString exact = QObject::tr("%1 bytes").arg(grouped(bytes));
    return bytes < 1024 ? exact : QStringLiteral("%1 (%2)").arg(exact, human(bytes));
}

QString fileName(const std::string& path)
{
    return QFileInfo(QString::fromStdString(path)).fileName();
}

double shareOf(std::uint64_t part, std::uint64_t whole)
{
    return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

} // namespace

SizeSummary::SizeSummary(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sizeSummary"));
    setMouseTracking(true);
}

int SizeSummary::rowHeight() const
{
    return fontMetrics().height() + kBarHeight + 6;
}

void SizeSummary::setTree(const SizeTree* tree)
{
    m_rows.clear();
    m_fileSize = tree ? tree->fileSize : 0;
    if (tree) {
        m_rows.push_back({ tr("By kind"), {}, 0, 0, true, {}, {} });
        for (const SizeGroup& group : sizeByKind(*tree))
            m_rows.push_back({ sizeKindLabel(group.kind), sizeKindColour(group.kind), group.bytes, group.parts, false,
                group.kind, {} });
        const auto backends = sizeByBackend(*tree);
        // Only worth a section when something is delegated (the last row is "not delegated").
        if (backends.size() > 1) {
            m_rows.push_back({ tr("By backend"), {}, 0, 0, true, {}, {} });
            for (std::size_t i = 0; i < backends.size(); ++i) {
                const bool rest = i + 1 == backends.size();
                m_rows.push_back({ QString::fromStdString(backends[i].name),
                    rest ? QColor(0xb4, 0xbc, 0xc6) : backendColour(QString::fromStdString(backends[i].name)),
                    backends[i].bytes, backends[i].parts, false, {}, rest ? std::string() : backends[i].name });
            }
        }
    }
    // Never squeezed below its rows: the scroll area around it scrolls instead.
    setMinimumHeight(static_cast<int>(m_rows.size()) * rowHeight() + 2 * kSummaryMargin);
    updateGeometry();
    update();
}

QSize SizeSummary::sizeHint() const
{
    return { kSummaryWidth, static_cast<int>(m_rows.size()) * rowHeight() + 2 * kSummaryMargin };
}

QSize SizeSummary::minimumSizeHint() const
{
    return { kSummaryWidth / 2, rowHeight() * 3 };
}

int SizeSummary::rowAt(QPoint point) const
{
    const int row = (point.y() - kSummaryMargin) / rowHeight();
    return point.y() >= kSummaryMargin && row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? row : -1;
}

void SizeSummary::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette palette = this->palette();
    const QFontMetrics metrics = fontMetrics();
    const int width = this->width() - 2 * kSummaryMargin;
    int y = kSummaryMargin;
    for (const Row& row : m_rows) {
        const QRect text(kSummaryMargin, y, width, metrics.height());
        if (row.title) {
            QFont bold = font();
            bold.setBold(true);
            painter.setFont(bold);
            painter.setPen(palette.windowText().color());
            painter.drawText(text.translated(0, rowHeight() - metrics.height() - 2), Qt::AlignLeft, row.label);
            painter.setFont(font());
            y += rowHeight();
            continue;
        }
        const double share = shareOf(row.bytes, m_fileSize);
        const QString amount = QStringLiteral("%1  %2%").arg(human(row.bytes)).arg(100 * share, 5, 'f', 1);
        const int amountWidth = metrics.horizontalAdvance(amount);
        painter.setPen(palette.windowText().color());
        painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter, amount);
        painter.drawText(text.adjusted(0, 0, -amountWidth - 8, 0), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(row.label, Qt::ElideMiddle, width - amountWidth - 8));
        const QRectF track(kSummaryMargin, y + metrics.height() + 1, width, kBarHeight);
        painter.fillRect(track, palette.alternateBase());
        // Even a sliver of the file gets a visible bar.
        painter.fillRect(QRectF(track.topLeft(), QSizeF(std::max(2.0, width * share), kBarHeight)), row.colour);
        y += rowHeight();
    }
}

void SizeSummary::mouseReleaseEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && row >= 0 && !m_rows[static_cast<std::size_t>(row)].title)
        Q_EMIT rowClicked(row);
}

bool SizeSummary::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos());
        if (row >= 0 && !m_rows[static_cast<std::size_t>(row)].title) {
            const Row& r = m_rows[static_cast<std::size_t>(row)];
            QToolTip::showText(help->globalPos(),
                tr("%1\n%2 bytes (%3), %4% of the file, %n part(s)\nClick to mark them in the treemap", nullptr,
                    static_cast<int>(r.parts))
                    .arg(r.label, grouped(r.bytes), human(r.bytes))
                    .arg(100 * shareOf(r.bytes, m_fileSize), 0, 'f', 1),
                this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

SizePanel::SizePanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sizePanel"));
    m_trees = new QComboBox(this);
    m_trees->setObjectName(QStringLiteral("sizeTrees"));
    m_trees->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_trees->setToolTip(tr("The file to break down: the program or an external data file (.ptd) it uses"));
    m_total = new QLabel(this);
    m_total->setObjectName(QStringLiteral("sizeTotal"));
    m_total->setTextFormat(Qt::RichText);
    m_total->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_breadcrumb = new QLabel(this);
    m_breadcrumb->setObjectName(QStringLiteral("sizeBreadcrumb"));
    m_breadcrumb->setTextFormat(Qt::RichText);
    m_breadcrumb->setToolTip(tr("Click a part of the path to go back up (or right click in the treemap)"));
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Save the treemap (PNG, SVG), the parts (CSV) or the whole breakdown (JSON)"));
    m_map = new TreemapView(this);
    m_summary = new SizeSummary(this);

    connect(m_trees, qOverload<int>(&QComboBox::currentIndexChanged), this, &SizePanel::setTreeIndex);
    connect(exportButton, &QPushButton::clicked, this, &SizePanel::exportInteractive);
    connect(m_map, &TreemapView::rootChanged, this, &SizePanel::updateHeader);
    connect(m_map, &TreemapView::partClicked, this, &SizePanel::onPartClicked);
    connect(m_summary, &SizeSummary::rowClicked, this, &SizePanel::onSummaryRow);
    connect(m_breadcrumb, &QLabel::linkActivated, this, [this](const QString& link) {
        const auto path = m_map->rootPath();
        const auto index = static_cast<std::size_t>(link.toInt());
        if (index < path.size())
            m_map->setShownRoot(path[index]);
    });

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_trees);
    bar->addWidget(m_total, 1);
    bar->addWidget(exportButton);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_map);
    // The lists scroll when the panel is lower than they are: at 1600×1000 "By backend" was cut
    // off below "By kind" with nothing to say so.
    auto* summaryScroll = new QScrollArea(this);
    summaryScroll->setObjectName(QStringLiteral("sizeSummaryScroll"));
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    summaryScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    summaryScroll->setMinimumWidth(m_summary->minimumSizeHint().width());
    split->addWidget(summaryScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_breadcrumb);
    layout->addWidget(split, 1);
    updateHeader();
}

SizePanel::~SizePanel() = default;

void SizePanel::setDocument(std::shared_ptr<const Document> document)
{
    if (document == m_document)
        return;
    m_document = std::move(document);
    ++m_generation;
    m_computing = false;
    m_map->setTree(nullptr);
    m_summary->setTree(nullptr);
    m_breakdown.reset();
    m_failure.clear();
    m_computeMs = -1;
    if (isVisible())
        computeInBackground();
    updateHeader();
}

bool SizePanel::ensureComputed()
{
    if (m_breakdown)
        return true;
    if (!m_document || !m_failure.isEmpty())
        return false;
    QElapsedTimer timer;
    timer.start();
    auto breakdown = sizeBreakdown(*m_document);
    return install(std::move(breakdown), timer.elapsed());
}

void SizePanel::computeInBackground()
{
    if (m_breakdown || m_computing || !m_document || !m_failure.isEmpty())
        return;
    m_computing = true;
    updateHeader();
    struct Computed {
        Result<SizeBreakdown> breakdown;
        qint64 milliseconds = 0;
    };
    whenFinished(
        this, QtConcurrent::run([document = m_document] {
            QElapsedTimer timer;
            timer.start();
            auto breakdown = sizeBreakdown(*document);
            return Computed { std::move(breakdown), timer.elapsed() };
        }),
        [this, generation = m_generation](Computed computed) {
            if (generation != m_generation || m_breakdown)
                return;
            m_computing = false;
            install(std::move(computed.breakdown), computed.milliseconds);
        },
        [this, generation = m_generation](const QString& message) {
            if (generation != m_generation || m_breakdown)
                return;
            m_computing = false;
            install(makeError(
                        Error::Code::Corrupt, m_document->path, "the size breakdown failed: " + message.toStdString()),
                0);
        });
}

bool SizePanel::install(Result<SizeBreakdown> breakdown, qint64 milliseconds)
{
    m_computing = false;
    m_computeMs = milliseconds;
    if (!breakdown) {
        m_failure = QString::fromStdString(breakdown.error().message());
        updateHeader();
        return false;
    }
    m_breakdown = std::make_unique<SizeBreakdown>(std::move(breakdown).value());
    {
        const QSignalBlocker blocker(m_trees);
        m_trees->clear();
        m_trees->addItem(
            tr("%1 (%2)").arg(fileName(m_breakdown->main.path), QString::fromStdString(m_breakdown->main.format)));
        for (const SizeTree& tree : m_breakdown->externalData)
            m_trees->addItem(tr("%1 (external data)").arg(fileName(tree.path)));
        m_trees->setVisible(m_trees->count() > 1);
    }
    setTreeIndex(0);
    Q_EMIT computed();
    return true;
}

void SizePanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    computeInBackground();
}

const SizeTree* SizePanel::currentTree() const
{
    if (!m_breakdown)
        return nullptr;
    const int index = m_trees->currentIndex();
    if (index <= 0)
        return &m_breakdown->main;
    return static_cast<std::size_t>(index - 1) < m_breakdown->externalData.size()
        ? &m_breakdown->externalData[static_cast<std::size_t>(index - 1)]
        : &m_breakdown->main;
}

int SizePanel::treeIndex() const
{
    return std::max(0, m_trees->currentIndex());
}

void SizePanel::setTreeIndex(int index)
{
    if (m_trees->currentIndex() != index) {
        const QSignalBlocker blocker(m_trees);
        m_trees->setCurrentIndex(index);
    }
    const SizeTree* tree = currentTree();
    m_map->setTree(tree);
    m_summary->setTree(tree);
    if (m_pendingNode)
        showNode(m_pendingNode->first, m_pendingNode->second);
    updateHeader();
}

void SizePanel::updateHeader()
{
    const SizeTree* tree = currentTree();
    if (!tree) {
        m_total->setText(m_computing  ? tr("Breaking the file down…")
                : m_failure.isEmpty() ? QString()
                                      : tr("No size breakdown: %1").arg(m_failure.toHtmlEscaped()));
        m_breadcrumb->clear();
        return;
    }
    QString total = tr("%1: %2 in %n part(s)", nullptr, static_cast<int>(sizeLeaves(*tree).size()))
                        .arg(fileName(tree->path).toHtmlEscaped(), bytesText(tree->fileSize));
    // The parts always add up to the file; say so, and loudly when they ever do not.
    if (tree->root.bytes == tree->fileSize)
        total += tr(" — they add up to the file size");
    else
        total += tr(" — <b>the parts add up to %1 bytes, not the file size</b>").arg(grouped(tree->root.bytes));
    for (const Warning& warning : tree->warnings)
        total += QStringLiteral(" · ") + QString::fromStdString(warning.message).toHtmlEscaped();
    m_total->setText(total);
    const auto path = m_map->rootPath();
    QStringList crumbs;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const QString name = (i == 0 ? fileName(tree->path) : QString::fromStdString(path[i]->name)).toHtmlEscaped();
        crumbs << (i + 1 == path.size() ? QStringLiteral("<b>%1</b>").arg(name)
                                        : QStringLiteral("<a href=\"%1\">%2</a>").arg(i).arg(name));
    }
    m_breadcrumb->setText(crumbs.join(QStringLiteral(" › "))
        + tr("  <span style=\"color:gray\">— click a group to open it, a part to select its node</span>"));
}

std::optional<std::pair<int, NodeOrigin>> SizePanel::nodeOf(const SizeNode& part) const
{
    if (!m_document || !m_document->program)
        return std::nullopt;
    const auto& methods = m_document->program->methods;
    const auto find = [&](const SizeRef& ref) -> std::optional<std::pair<int, NodeOrigin>> {
        for (std::size_t m = 0; m < methods.size() && m < m_document->methods.size(); ++m) {
            if (methods[m].name != ref.method || !m_document->methods[m].graph)
                continue;
            for (const Node& node : m_document->methods[m].graph->nodes) {
                const bool value = ref.kind == SizeRef::Kind::Value
                    && (node.kind == NodeKind::Constant || node.kind == NodeKind::State) && node.value == ref.value;
                const bool delegate = ref.kind == SizeRef::Kind::Delegate && node.kind == NodeKind::Delegate
                    && node.delegate == ref.delegate;
                if (value || delegate)
                    return std::pair { static_cast<int>(m), NodeOrigin { node.id, NodeId::none() } };
            }
        }
        return std::nullopt;
    };
    // A tensor is more precise than the delegate whose weights it is among.
    for (const SizeRef::Kind kind : { SizeRef::Kind::Value, SizeRef::Kind::Delegate })
        for (const SizeRef& ref : part.refs)
            if (ref.kind == kind)
                if (auto found = find(ref))
                    return found;
    return std::nullopt;
}

std::vector<const SizeNode*> SizePanel::partsOf(int method, const NodeOrigin& origin) const
{
    std::vector<const SizeNode*> parts;
    const SizeTree* tree = currentTree();
    if (!tree || !m_document || !m_document->program || method < 0
        || static_cast<std::size_t>(method) >= m_document->methods.size() || !origin.top.valid())
        return parts;
    const Graph& graph = *m_document->methods[static_cast<std::size_t>(method)].graph;
    if (origin.top.index() >= graph.nodes.size())
        return parts;
    const Node& node = graph.node(origin.top);
    const std::string& name = m_document->program->methods[static_cast<std::size_t>(method)].name;
    // A node inside a delegate counts as its delegate: the blob and the weights it names.
    const bool isDelegate = node.kind == NodeKind::Delegate;
    const bool isValue = !origin.inner.valid() && (node.kind == NodeKind::Constant || node.kind == NodeKind::State);
    if (!isDelegate && !isValue)
        return parts;
    for (const SizeNode* leaf : sizeLeaves(*tree))
        for (const SizeRef& ref : leaf->refs)
            if (ref.method == name
                && ((isDelegate && ref.kind == SizeRef::Kind::Delegate && ref.delegate == node.delegate)
                    || (isValue && ref.kind == SizeRef::Kind::Value && ref.value == node.value))) {
                parts.push_back(leaf);
                break;
            }
    return parts;
}

int SizePanel::showNode(int method, const NodeOrigin& origin)
{
    m_pendingNode = std::pair { method, origin };
    if (!m_breakdown)
        return 0;
    const auto parts = partsOf(method, origin);
    m_map->setMarked({ parts.begin(), parts.end() });
    return static_cast<int>(parts.size());
}

void SizePanel::onPartClicked(const SizeNode* part)
{
    const SizeTree* tree = currentTree();
    if (!part || !tree)
        return;
    const QString what = tr("%1: %2 bytes (%3), %4% of %5")
                             .arg(QString::fromStdString(part->name), grouped(part->bytes), human(part->bytes))
                             .arg(100 * shareOf(part->bytes, tree->fileSize), 0, 'f', 1)
                             .arg(fileName(tree->path));
    if (const auto node = nodeOf(*part)) {
        Q_EMIT statusMessage(what);
        Q_EMIT placeRequested(node->first, node->second);
    } else {
        Q_EMIT statusMessage(what + tr(" — no node of the graph stands for it"));
    }
}

void SizePanel::onSummaryRow(int row)
{
    const SizeTree* tree = currentTree();
    if (!tree || row < 0 || static_cast<std::size_t>(row) >= m_summary->rows().size())
        return;
    const SizeSummary::Row& r = m_summary->rows()[static_cast<std::size_t>(row)];
    std::set<const SizeNode*> marked;
    for (const SizeNode* leaf : sizeLeaves(*tree))
        if ((r.kind && leaf->kind == *r.kind) || (r.backend && leaf->backend == *r.backend))
            marked.insert(leaf);
    m_map->setMarked(std::move(marked));
    Q_EMIT statusMessage(tr("%1: %n part(s) marked", nullptr, static_cast<int>(r.parts)).arg(r.label));
}

QString SizePanel::caption() const
{
    const SizeTree* tree = currentTree();
    if (!tree)
        return {};
    QStringList names;
    for (const SizeNode* node : m_map->rootPath())
        names << (node == &tree->root ? fileName(tree->path) : QString::fromStdString(node->name));
    const SizeNode* root = m_map->shownRoot();
    return tr("%1 — %2 (%3 bytes) of %4 bytes")
        .arg(names.join(QStringLiteral(" › ")), human(root->bytes), grouped(root->bytes), grouped(tree->fileSize));
}

bool SizePanel::exportTo(const QString& path, QString* error)
{
    if (!ensureComputed()) {
        if (error)
            *error = m_failure.isEmpty() ? tr("No size breakdown to export") : m_failure;
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return succeeded(exportTableFile(sizeLeavesTable(*m_breakdown), TableFormat::Csv, path), error);
    if (suffix == QLatin1String("json"))
        return succeeded(
            exportBytes(path, QByteArray::fromStdString(jsonText(sizeBreakdownJson(*m_breakdown), 2) + "\n")), error);
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        if (error)
            *error = tr("Export the size breakdown as .png, .svg, .csv or .json");
        return false;
    }
    // The treemap as on screen (at least 1,000 × 600 when small or never shown) under a caption.
    const QSize mapSize
        = m_map->isVisible() && m_map->width() >= kPictureMinimum.width() && m_map->height() >= kPictureMinimum.height()
        ? m_map->size()
        : kPictureMinimum;
    const int captionHeight = fontMetrics().height() + 10;
    const QSize size(mapSize.width(), mapSize.height() + captionHeight);
    const QString text = caption();
    return succeeded(exportPainting(path, size, fileName(currentTree()->path),
                         [&](QPainter& painter) {
                             painter.setPen(QColor(0x1f, 0x23, 0x28));
                             painter.drawText(
                                 QRect(6, 0, size.width() - 12, captionHeight), Qt::AlignVCenter | Qt::AlignLeft, text);
                             painter.translate(0, captionHeight);
                             m_map->paintMap(painter, mapSize);
                         }),
        error);
}

void SizePanel::exportInteractive()
{
    const SizeTree* tree = currentTree();
    if (!tree)
        return;
    const QString base = QFileInfo(QString::fromStdString(tree->path)).completeBaseName() + QStringLiteral("-size");
    const QString saved = saveWithDialog(this, tr("Export size breakdown"), base + QStringLiteral(".png"),
        tr("PNG picture (*.png);;SVG picture (*.svg);;Parts as CSV (*.csv);;Breakdown as JSON (*.json)"),
        [this](const QString& path, QString* error) { return exportTo(path, error); });
    if (!saved.isEmpty())
        Q_EMIT statusMessage(tr("Saved %1").arg(saved));
}

} // namespace etscope::ui
