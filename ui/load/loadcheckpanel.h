// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/devicecheck.h"
#include "core/analysis/kernelcheck.h"
#include "core/table/table.h"
#include "ui/graph/graphitems.h"
#include "ui/graph/presentation.h"
#include "ui/load/kernellistchoice.h"

#include <QObject>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QVBoxLayout;
class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace etscope::ui {

class ReportTableModel;
class LoadCheckProxy;
class WrappedLabel;

/// The Load tab: will this program load on a runtime with the chosen kernel lists? A verdict
/// line, the lists (built-ins and files), every operator with the list that resolves it or
/// "missing", the backends the delegates need, the delegated share; linked to the graph both
/// ways, and the nodes without a kernel marked on it. The check runs off the UI thread.
class LoadCheckPanel final : public QWidget {
    Q_OBJECT
public:
    explicit LoadCheckPanel(QWidget* parent = nullptr);
    ~LoadCheckPanel() override;

    /// The document and graph a view shows; checks again when the document or the lists change.
    void setDocument(std::shared_ptr<const core::Document> document, const GraphContext& context);
    /// The drawn graph's grouping (a closed group holding nodes without a kernel is marked too)
    /// and the moment to restore an operator's highlight after a new layout.
    void setPresentation(const std::shared_ptr<const Presentation>& presentation);
    /// A node selected in the graph: its operator's (or delegate's backend's) row is selected.
    void showNode(const core::NodeOrigin& origin);
    /// Marks on the graph's nodes without a kernel (View › Mark Operators Without Kernel).
    void setMarksVisible(bool visible);
    bool marksVisible() const { return m_marksVisible; }
    /// Forgets the selected row's highlight (another panel highlights now).
    void clearActive();

    /// The last finished check, nullptr while none.
    const core::KernelCheck* check() const { return m_check.get(); }
    const core::KernelLists* lists() const { return m_checkedLists.get(); }
    /// The answer in one line of plain text ("Will load on a runtime with portable + prim
    /// kernels: no — 7 operators have no kernel (14 of 16 calls)"); empty while checking.
    QString verdictText() const;
    /// Which built-in lists (or preset) would resolve the missing operators, one line; empty
    /// when none is missing.
    QString hintText() const;
    /// The legend of `marks` (HTML): each kind of badge they hold (no kernel, device does not
    /// fit, unverified on the device) with its meaning; empty for no marks.
    static QString marksLegend(const std::map<std::pair<int, int>, NodeMark>& marks);
    /// Marks of the method shown (whatever marksVisible says).
    const std::map<std::pair<int, int>, NodeMark>& marks() const { return m_marks; }
    QTableView* view() const { return m_view; }
    /// Rows of the table for `name` (an operator or backend id) in the order shown, -1 when none.
    int rowOf(const QString& name) const;
    /// The nodes of the method shown that the row at `row` (view order) is about.
    std::vector<core::NodeOrigin> nodesOfRow(int row) const;
    /// The table as shown (filter and sort applied), share lines as notes.
    core::Table visibleTable() const;
    bool exportTable(const QString& path, core::TableFormat format, QString* error = nullptr) const;
    /// The whole check as `etscope check --format json` writes it.
    bool exportReport(const QString& path, QString* error = nullptr) const;
    /// Walks the selected row's nodes (+1 next, −1 previous), selecting each in the graph.
    void walk(int step);

    /// The device the delegates are checked against (issue 33; its id, a built-in profile), empty
    /// for none. Remembered per document (devicechoice.h); checked off the UI thread.
    QString deviceId() const { return m_deviceId; }
    /// As if chosen in the picker: remembers it for the document and checks again.
    void setDevice(const QString& id);
    /// The last finished device check's answers, one per delegate; nullptr without a device.
    const std::vector<core::DelegateFit>* deviceFits() const { return m_fits.get(); }
    /// "On Snapdragon 8 Gen 2 (SM8550): does not fit — …", one line; empty without a device.
    QString deviceText() const;
    /// With a device chosen, the worst of the two answers in one line, first on the tab: "Will not
    /// run: on Arm Corstone-320 FVP …: does not fit (1 of 1 delegates)" (fails > unverified >
    /// fits; ties name both). Empty without a device or while a check runs.
    QString headlineText() const;
    /// Reads a device file (docs/check.md "Device files") and offers its profiles in the picker,
    /// before the built-in ones; the path is remembered and read again by the next panel. The
    /// error, naming the file and the reason, when it cannot be read (nothing is offered then).
    std::optional<QString> loadDeviceFile(const QString& path);
    /// The device files whose profiles the picker offers.
    const QStringList& deviceFiles() const { return m_deviceFiles; }

Q_SIGNALS:
    void nodeRequested(const etscope::core::NodeOrigin& origin);
    /// Nodes to highlight (GraphScene::keyOf keys); empty to clear.
    void highlightRequested(const std::set<std::pair<int, int>>& keys);
    void marksChanged(const std::map<std::pair<int, int>, etscope::ui::NodeMark>& marks);
    void statusMessage(const QString& text);
    /// A check finished and the panel shows it.
    void checked();
    /// A device check finished (or the device was cleared) and the panel shows it.
    void deviceChecked();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The built-in lists' boxes, as many to a row as the panel's width takes.
    void arrangeListBoxes();
    struct Row {
        bool backend = false;
        std::string name;
        bool problem = false;
    };

    void setUpTable();
    void buildLayout();
    void buildListControls();
    void syncListControls();
    /// The built-in boxes ticked (prim left out).
    QStringList tickedBuiltins() const;
    /// From automatic to the lists shown, before a file is added or switched.
    void leaveAutomatic();
    void startCheck();
    void showCheck();
    /// The parts of showCheck: the verdict lines, the table's rows, the share lines and problems.
    void showVerdict();
    void fillTable(core::Table& table);
    void showNotes(const core::Table& table);
    void refreshMethod();
    void updateMarks();
    void emitMarks();
    // The device picker (loaddevice.cpp).
    void buildDeviceControls();
    /// The picker shows m_deviceId (the document's remembered device after setDocument).
    void syncDeviceControls();
    void startDeviceCheck();
    void showDeviceAnswer();
    /// Marks the delegate nodes of the method shown that do not fit the device (or cannot be verified).
    void addDeviceMarks();
    void onRowActivated(int sourceRow, bool advance);
    void highlightActive();
    /// No row active: its nodes, the walk position and the walk buttons forgotten.
    void forgetActiveRow();
    void addFileInteractive();
    void exportInteractive(int kind);
    /// Source rows' nodes in the method shown, in instruction order.
    std::vector<core::NodeOrigin> nodesOfSourceRow(int sourceRow) const;
    QString listsText() const;
    /// The name column as wide as its names, up to a share of the table.
    void fitNameColumn();
    /// The verdict in parts: lead, answer ("no", "yes, if …"), why; `problem` when it fails.
    struct Verdict {
        QString lead;
        QString answer;
        QString detail;
        bool problem = false;
        /// 2 fails, 1 unverified ("yes, if the runtime links …"), 0 loads; -1 no answer yet.
        int severity = -1;
    };
    Verdict verdict() const;
    /// The device answer's severity as Verdict::severity; -1 without a device check.
    int deviceSeverity() const;
    /// The answers worst first (the device's above the kernels' when it is worse) under the headline.
    void orderVerdicts();
    void addDeviceFileInteractive();
    /// The picker's entries from device files, after "No device" and before the built-in ones.
    void fillDeviceFileEntries();

    std::shared_ptr<const core::Document> m_document;
    GraphContext m_context;
    std::shared_ptr<const core::Grouping> m_grouping;
    std::shared_ptr<const core::KernelLists> m_checkedLists;
    std::shared_ptr<const core::KernelCheck> m_check;
    quint64 m_generation = 0;
    bool m_running = false;
    /// Per chain, per instruction: the top-level node of the method shown.
    std::vector<std::vector<core::NodeId>> m_nodeAt;
    std::vector<Row> m_rows; ///< parallel to the model's rows
    std::map<std::pair<int, int>, NodeMark> m_marks;
    bool m_marksVisible = true;
    int m_activeRow = -1; ///< source row whose nodes are highlighted, -1 for none
    std::vector<core::NodeOrigin> m_matches;
    int m_matchIndex = -1;
    bool m_quiet = false; ///< selecting a row for a graph selection: no walk
    QString m_deviceId; ///< the device chosen for this document, empty for none
    std::optional<core::DeviceProfile> m_deviceProfile; ///< the profile of the last device check
    std::shared_ptr<const std::vector<core::DelegateFit>> m_fits;
    quint64 m_deviceGeneration = 0;
    QStringList m_deviceFiles; ///< device files read, in the order added
    std::vector<core::DeviceProfile> m_fileProfiles; ///< their profiles, searched before the built-in ones
    std::vector<QString> m_fileProfileFiles; ///< parallel to m_fileProfiles: the file each came from

    WrappedLabel* m_headline; ///< with a device: the worst answer (headlineText)
    QVBoxLayout* m_verdicts; ///< the kernel answer and the device answer, worst first
    QWidget* m_kernelVerdict; ///< m_verdict, m_answer and m_hint
    WrappedLabel* m_verdict; ///< "Will load on a runtime with … kernels:", or what the panel waits for
    WrappedLabel* m_answer; ///< "no — 7 operators have no kernel …"
    WrappedLabel* m_hint; ///< which built-in lists would resolve the missing operators
    QComboBox* m_device; ///< No device, then the built-in device profiles
    WrappedLabel* m_deviceAnswer; ///< the device answer, a line per delegate that does not fit
    WrappedLabel* m_deviceProblems; ///< device files that could not be read, each naming the file and why
    QComboBox* m_preset; ///< Automatic, Custom, the runtime presets: choosing one ticks its lists
    QGridLayout* m_builtinRow; ///< the built-in lists' boxes (arrangeListBoxes)
    int m_boxesPerRow = 0;
    QVBoxLayout* m_fileRow; ///< the Add button, then one box per file
    std::vector<QCheckBox*> m_builtinBoxes;
    std::vector<QCheckBox*> m_fileBoxes;
    QStringList m_fileBoxPaths; ///< the files m_fileBoxes stand for, in order
    WrappedLabel* m_problems;
    QLineEdit* m_filter;
    ReportTableModel* m_model;
    LoadCheckProxy* m_proxy;
    QTableView* m_view;
    WrappedLabel* m_share;
    QLabel* m_matchStatus;
    QToolButton* m_previous;
    QToolButton* m_next;
};

} // namespace etscope::ui
