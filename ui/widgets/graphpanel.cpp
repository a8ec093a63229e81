// SPDX-License-Identifier: MIT
#include "ui/widgets/graphpanel.h"

#include "ui/graph/graphscene.h"
#include "ui/graph/graphview.h"
#include "ui/models/nodestyle.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace etscope::ui {

namespace {

constexpr QSize kMinimapSize { 220, 160 };
constexpr int kMinimapMargin = 16; ///< from the right and bottom edges (clear of the scroll bars)
constexpr QPoint kLegendPosition { 10, 10 };

} // namespace

GraphPanel::GraphPanel(QWidget* parent)
    : QWidget(parent)
{
    m_scene = new GraphScene(this);
    m_view = new GraphView(this);
    m_view->setScene(m_scene);
    m_view->setObjectName(QStringLiteral("graphView"));
    m_minimap = new Minimap(m_view, this);

    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setStyleSheet(QStringLiteral(
        "QLabel { background: rgba(255,255,255,220); border: 1px solid #ccc; border-radius: 3px; padding: 4px; }"));
    m_legend->hide();

    m_busyPanel = new QFrame(this);
    m_busyPanel->setObjectName(QStringLiteral("busyPanel"));
    // By name: a plain QFrame rule would also box the label inside (QLabel is a QFrame).
    m_busyPanel->setStyleSheet(
        QStringLiteral("#busyPanel { background: white; border: 1px solid #999; border-radius: 4px; }"));
    auto* busyLayout = new QVBoxLayout(m_busyPanel);
    m_busyLabel = new QLabel(m_busyPanel);
    auto* busyBar = new QProgressBar(m_busyPanel);
    busyBar->setRange(0, 0);
    auto* cancel = new QPushButton(tr("Cancel"), m_busyPanel);
    busyLayout->addWidget(m_busyLabel);
    busyLayout->addWidget(busyBar);
    busyLayout->addWidget(cancel);
    connect(cancel, &QPushButton::clicked, this, &GraphPanel::cancelRequested);
    m_busyPanel->hide();
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
    std::map<QString, QColor> backends;
    if (presentation)
        for (const core::Node& node : presentation->methodGraph().nodes)
            if (node.kind == core::NodeKind::Delegate)
                backends[QString::fromStdString(node.label)] = backendColour(QString::fromStdString(node.label));
    const bool inferred = presentation
        && std::any_of(presentation->flat.graph.edges.begin(), presentation->flat.graph.edges.end(),
            [](const core::Edge& edge) { return edge.inferred; });
    if (backends.empty() && !inferred) {
        m_legend->hide();
        return;
    }
    QString html;
    if (!backends.empty())
        html = QStringLiteral("<b>Backends</b>");
    for (const auto& [name, colour] : backends)
        html += QStringLiteral("<br/><span style=\"color:%1\">■</span> %2").arg(colour.name(), name.toHtmlEscaped());
    if (inferred)
        html += (html.isEmpty() ? QString() : QStringLiteral("<br/>"))
            + tr("<span style=\"color:#6b7280\">╌╌</span> inferred edge: wiring guessed, not read from the "
                 "file");
    m_legend->setText(html);
    m_legend->adjustSize();
    m_legend->move(kLegendPosition);
    m_legend->show();
    m_legend->raise();
}

void GraphPanel::setMinimapVisible(bool visible)
{
    m_minimap->setVisible(visible);
}

void GraphPanel::resizeEvent(QResizeEvent*)
{
    m_view->setGeometry(rect());
    m_minimap->setGeometry(width() - kMinimapSize.width() - kMinimapMargin,
        height() - kMinimapSize.height() - kMinimapMargin, kMinimapSize.width(), kMinimapSize.height());
    m_legend->adjustSize();
    m_legend->move(kLegendPosition);
    placeBusyPanel();
}

void GraphPanel::placeBusyPanel()
{
    m_busyPanel->adjustSize();
    m_busyPanel->move((width() - m_busyPanel->width()) / 2, (height() - m_busyPanel->height()) / 2);
}

} // namespace etscope::ui
