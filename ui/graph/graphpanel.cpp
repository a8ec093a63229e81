// SPDX-License-Identifier: MIT
#include "ui/graph/graphpanel.h"

#include "ui/common/nodestyle.h"
#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"

#include <QFrame>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <vector>

namespace etscope::ui {

namespace {

constexpr QSize kMinimapSize { 220, 160 }; ///< at most; a small graph area gets a smaller one
constexpr int kMinimapShare = 5; ///< at most a fifth of the graph area's width and of its height
constexpr int kMinimapMargin = 16; ///< from the right and bottom edges (clear of the scroll bars)
constexpr int kLegendMargin = 4;
/// Unconnected operations from which the legend says why they have no edges.
constexpr std::size_t kUnconnectedNote = 20;

} // namespace

GraphPanel::GraphPanel(QWidget* parent)
    : QWidget(parent)
{
    m_scene = new GraphScene(this);
    m_view = new GraphView(this);
    m_view->setScene(m_scene);
    m_view->setObjectName(QStringLiteral("graphView"));
    m_minimap = new Minimap(m_view, this);
    connect(m_view, &GraphView::viewportChanged, this, &GraphPanel::updateMinimap);

    // A strip above the view, not an overlay: it never covers a node. Its colours are the
    // palette's, so it follows the theme.
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setAutoFillBackground(true);
    m_legend->setMargin(kLegendMargin);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true); // a narrow graph area gets a taller strip, not a clipped one
    m_legend->hide();

    auto* busyPanel = new QFrame(this);
    busyPanel->setObjectName(QStringLiteral("busyPanel"));
    busyPanel->setFrameShape(QFrame::StyledPanel);
    busyPanel->setAutoFillBackground(true); // the palette's Window: dark in a dark theme
    m_busyPanel = busyPanel;
    auto* busyLayout = new QVBoxLayout(m_busyPanel);
    m_busyLabel = new QLabel(m_busyPanel);
    auto* busyBar = new QProgressBar(m_busyPanel);
    busyBar->setRange(0, 0);
    busyBar->setTextVisible(false); // a busy bar has no percentage to show
    auto* cancel = new QPushButton(tr("Cancel"), m_busyPanel);
    busyLayout->addWidget(m_busyLabel);
    busyLayout->addWidget(busyBar);
    busyLayout->addWidget(cancel);
    connect(cancel, &QPushButton::clicked, this, &GraphPanel::cancelRequested);
    m_busyPanel->hide();
}

GraphPanel::~GraphPanel()
{
    // The scene, a child, goes before the view lets go of it: no minimap update in between.
    disconnect(m_view, nullptr, this, nullptr);
}

void GraphPanel::showBusy(bool busy, const QString& text)
{
    m_busyLabel->setText(text);
    m_busyPanel->setVisible(busy);
    if (busy) {
        placeBusyPanel();
        m_busyPanel->raise();
    }
}

void GraphPanel::updateLegend(const Presentation* presentation)
{
    // The backends drawn: delegate boxes and expanded delegates' frames of this graph (a
    // delegate's own tab draws its inner nodes only, whatever the method holds elsewhere).
    std::map<QString, QColor> backends;
    if (presentation) {
        const auto add = [&backends](const std::string& label) {
            backends[QString::fromStdString(label)] = backendColour(QString::fromStdString(label));
        };
        for (const core::Node& node : presentation->flat.graph.nodes)
            if (node.kind == core::NodeKind::Delegate)
                add(node.label);
        if (!presentation->context.delegateNode.valid())
            for (const core::Cluster& cluster : presentation->flat.clusters)
                if (cluster.owner.valid())
                    add(presentation->methodGraph().node(cluster.owner).label);
    }
    m_backendsHtml.clear();
    for (const auto& [name, colour] : backends)
        m_backendsHtml += QStringLiteral("&nbsp;&nbsp; <span style=\"color:%1\">■</span>&nbsp;%2")
                              .arg(colour.name(), name.toHtmlEscaped());
    m_inferredEdges = presentation
        && std::any_of(presentation->flat.graph.edges.begin(), presentation->flat.graph.edges.end(),
            [](const core::Edge& edge) { return edge.inferred; });
    // A wall of unconnected boxes needs a word on the canvas (issue 38: a QNN delegate's inside
    // is 1,553 boxes and no edges, because its context binary names no tensor an op reads).
    m_unconnectedHtml.clear();
    if (presentation) {
        const core::Graph& graph = presentation->flat.graph;
        std::vector<bool> linked(graph.nodes.size(), false);
        for (const core::Edge& edge : graph.edges) {
            linked[edge.from.index()] = true;
            linked[edge.to.index()] = true;
        }
        std::size_t operators = 0;
        std::size_t unconnected = 0;
        for (std::size_t i = 0; i < graph.nodes.size(); ++i)
            if (graph.nodes[i].kind == core::NodeKind::Operator) {
                ++operators;
                unconnected += linked[i] ? 0 : 1;
            }
        if (unconnected >= kUnconnectedNote && unconnected * 2 >= operators)
            m_unconnectedHtml = tr("<b>%1 of %2 operations unconnected:</b> the payload does not record which "
                                   "tensors they read or write, so no edge is drawn (the delegate's Properties say "
                                   "what was read)")
                                    .arg(QLocale().toString(static_cast<qulonglong>(unconnected)),
                                        QLocale().toString(static_cast<qulonglong>(operators)));
    }
    composeLegend();
}

void GraphPanel::setHeatDescription(const QString& html)
{
    m_heatDescription = html;
    composeLegend();
}

void GraphPanel::setMarksDescription(const QString& html)
{
    if (html == m_marksDescription)
        return;
    m_marksDescription = html;
    composeLegend();
}

QString GraphPanel::legendHtml() const
{
    return m_legend->text();
}

void GraphPanel::composeLegend()
{
    QString html;
    if (!m_backendsHtml.isEmpty())
        html
            = (m_heatDescription.isEmpty() ? tr("<b>Backends:</b>") : tr("<b>Backends</b> (border):")) + m_backendsHtml;
    if (m_inferredEdges)
        html += (html.isEmpty() ? QString() : QStringLiteral("&nbsp;&nbsp;&nbsp; "))
            + tr("<span style=\"color:#6b7280\">╌╌</span>&nbsp;inferred edge: wiring guessed, not read from the "
                 "file");
    if (!m_marksDescription.isEmpty())
        html += (html.isEmpty() ? QString() : QStringLiteral("&nbsp;&nbsp;&nbsp; ")) + m_marksDescription;
    if (!m_unconnectedHtml.isEmpty())
        html += (html.isEmpty() ? QString() : QStringLiteral("<br/>")) + m_unconnectedHtml;
    if (!m_heatDescription.isEmpty())
        html = html.isEmpty() ? m_heatDescription : m_heatDescription + QStringLiteral("<br/>") + html;
    m_legend->setText(html);
    placeChildren();
}

void GraphPanel::setLegendEnabled(bool enabled)
{
    m_legendEnabled = enabled;
    placeChildren();
}

void GraphPanel::setMinimapVisible(bool visible)
{
    m_minimapWanted = visible;
    updateMinimap();
}

void GraphPanel::updateMinimap()
{
    // Nothing to give an overview of when the whole graph is in view: no box over it then.
    const bool show = m_minimapWanted && !m_view->showsEverything();
    if (show == m_minimap->isHidden())
        m_minimap->setVisible(show);
}

void GraphPanel::resizeEvent(QResizeEvent*)
{
    placeChildren();
}

void GraphPanel::placeChildren()
{
    const bool legend = m_legendEnabled && !m_legend->text().isEmpty();
    const int legendHeight = legend ? m_legend->heightForWidth(width()) : 0;
    m_legend->setVisible(legend);
    m_legend->setGeometry(0, 0, width(), legendHeight);
    m_view->setGeometry(0, legendHeight, width(), height() - legendHeight);
    // At 1024×700 a fixed 220×160 overview covered a good part of the graph it summarises.
    const QSize minimap(std::min(kMinimapSize.width(), width() / kMinimapShare),
        std::min(kMinimapSize.height(), (height() - legendHeight) / kMinimapShare));
    m_minimap->setGeometry(width() - minimap.width() - kMinimapMargin, height() - minimap.height() - kMinimapMargin,
        minimap.width(), minimap.height());
    updateMinimap();
    placeBusyPanel();
}

void GraphPanel::placeBusyPanel()
{
    m_busyPanel->adjustSize();
    m_busyPanel->move((width() - m_busyPanel->width()) / 2, (height() - m_busyPanel->height()) / 2);
}

} // namespace etscope::ui
