// SPDX-License-Identifier: MIT
#pragma once

#include "ui/graph/presentation.h"

#include <QWidget>

class QLabel;

namespace etscope::ui {

class GraphScene;
class GraphView;
class Minimap;

/// The graph area of a tab: the backend legend in a strip above the view (never over a node),
/// the scene in its view, with the overlays placed on top of it — the minimap (bottom-right) and
/// the busy panel with Cancel (centred) while a layout runs.
class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(QWidget* parent = nullptr);
    ~GraphPanel() override;

    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    Minimap* minimap() const { return m_minimap; }

    /// Shows or hides the busy panel with its text.
    void showBusy(bool busy, const QString& text = {});
    /// The legend of the delegate backends drawn in `presentation` (hidden when there are none).
    void updateLegend(const Presentation* presentation);
    /// What the fill colours mean while a heat column colours the graph (empty: none). With
    /// it, backends are named as the border colour of their delegates.
    void setHeatDescription(const QString& html);
    /// What the marks on the nodes mean (the Load tab's ✕ badge), as legend entries; empty
    /// when no node is marked.
    void setMarksDescription(const QString& html);
    QString legendHtml() const;
    /// Shows the legend strip when there is a backend to name (View › Show Legend).
    void setLegendEnabled(bool enabled);
    void setMinimapVisible(bool visible);

Q_SIGNALS:
    void cancelRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateMinimap();
    void composeLegend();
    void placeChildren();
    void placeBusyPanel();

    GraphScene* m_scene = nullptr;
    GraphView* m_view = nullptr;
    Minimap* m_minimap = nullptr;
    QLabel* m_legend = nullptr;
    QString m_backendsHtml; ///< the backends of the graph shown, as legend entries
    bool m_inferredEdges = false;
    QString m_unconnectedHtml; ///< says why most operations are drawn without edges, when they are
    QString m_heatDescription;
    QString m_marksDescription;
    QWidget* m_busyPanel = nullptr;
    QLabel* m_busyLabel = nullptr;
    bool m_legendEnabled = true;
    bool m_minimapWanted = true; ///< View › Show Minimap; shown only when the graph does not fit
};

} // namespace etscope::ui
