// SPDX-License-Identifier: MIT
// The Load tab's device picker (issue 33, loadcheckpanel.h): a device profile chosen per
// document, every delegate checked against it off the UI thread (core::fitDelegate, the rules of
// docs/check.md "Devices"), the answer under the picker and the delegate boxes that do not fit
// marked on the graph. The kernels stay checked against the runtime chosen below it.
#include "ui/load/devicechoice.h"
#include "ui/load/loadcheckpanel.h"
#include "ui/load/loadcheckwidgets.h"

#include "core/document/document.h"
#include "ui/graph/graphscene.h"

#include "ui/document/whenfinished.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace etscope::ui {

using namespace etscope::core;

namespace {

/// Unverified delegates: Okabe–Ito orange, apart from the problem red and the selection.
QColor unverifiedColour()
{
    return { 0xE6, 0x9F, 0x00 };
}

QString where(const DelegateFit& fit)
{
    return QStringLiteral("%1 #%2 %3")
        .arg(QString::fromStdString(fit.method))
        .arg(fit.delegate)
        .arg(QString::fromStdString(fit.backendId));
}

/// The device files the picker offers, remembered for the next panel (docs/settings.md).
constexpr const char* kFilesKey = "deviceCheck/files";
/// A picker entry's role that says it comes from a device file.
constexpr int kFromFileRole = Qt::UserRole + 1;

/// The delegates' answer overall: does not fit when one does not, unverified when one is.
Fit overallOf(const std::vector<DelegateFit>& fits)
{
    Fit overall = Fit::Fits;
    for (const DelegateFit& fit : fits) {
        if (fit.fit == Fit::DoesNotFit)
            return Fit::DoesNotFit;
        if (fit.fit == Fit::Unverified)
            overall = Fit::Unverified;
    }
    return overall;
}

} // namespace

QString LoadCheckPanel::marksLegend(const std::map<std::pair<int, int>, NodeMark>& marks)
{
    bool kernel = false;
    bool device = false;
    bool unverified = false;
    for (const auto& [key, mark] : marks) {
        const bool ofDevice = mark.badge.endsWith(QStringLiteral("device"));
        kernel = kernel || !ofDevice;
        device = device || (ofDevice && mark.badge.startsWith(QStringLiteral("✕")));
        unverified = unverified || (ofDevice && mark.badge.startsWith(QStringLiteral("?")));
    }
    const auto chip = [](const QColor& colour, const QString& text) {
        return QStringLiteral("<span style=\"background:%1;color:%2\">&nbsp;%3&nbsp;</span>&nbsp;")
            .arg(colour.name(), colour.lightnessF() > 0.6 ? QStringLiteral("black") : QStringLiteral("white"), text);
    };
    QStringList parts;
    if (kernel)
        parts << chip(problemColour(), QStringLiteral("✕")) + tr("no kernel in the Load tab's lists");
    if (device)
        parts << chip(problemColour(), tr("✕ device")) + tr("does not fit the Load tab's device");
    if (unverified)
        parts << chip(unverifiedColour(), tr("? device")) + tr("unverified on the Load tab's device");
    return parts.join(QStringLiteral("&nbsp;&nbsp;"));
}

void LoadCheckPanel::buildDeviceControls()
{
    m_device->setObjectName(QStringLiteral("devicePicker"));
    m_device->addItem(tr("No device"), QString());
    m_device->setItemData(0, tr("Check the kernels only, against the runtime below"), Qt::ToolTipRole);
    for (const DeviceProfile& profile : builtinDeviceProfiles()) {
        m_device->addItem(
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(profile.title), QString::fromStdString(profile.id)),
            QString::fromStdString(profile.id));
        m_device->setItemData(m_device->count() - 1, QString::fromStdString(profile.source), Qt::ToolTipRole);
    }
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_device->setMinimumContentsLength(12);
    m_device->setToolTip(tr("The phone, board or OS the program is meant for: each delegate's \"built for\" facts "
                            "(SoC, HTP architecture, QNN SDK, NPU, deployment target) are checked against it. "
                            "Remembered for this file."));
    connect(
        m_device, &QComboBox::activated, this, [this](int index) { setDevice(m_device->itemData(index).toString()); });
    m_deviceAnswer->setObjectName(QStringLiteral("deviceAnswer"));
    m_deviceAnswer->hide();
    m_deviceProblems->setObjectName(QStringLiteral("deviceProblems"));
    m_deviceProblems->setStyleSheet(QStringLiteral("color: %1").arg(attentionColour().name()));
    m_deviceProblems->hide();
    // The device files added before (by this or an earlier session) are offered again; one
    // that cannot be read any more is named with why, and forgotten.
    const QStringList remembered = QSettings().value(QLatin1String(kFilesKey)).toStringList();
    QStringList problems;
    for (const QString& path : remembered)
        if (const auto failure = loadDeviceFile(path))
            problems << *failure;
    if (!problems.isEmpty()) {
        m_deviceProblems->setWrappedText(problems.join(QLatin1Char('\n')));
        m_deviceProblems->show();
    }
}

std::optional<QString> LoadCheckPanel::loadDeviceFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    auto read = readDeviceFile(absolute.toStdString());
    QSettings settings;
    QStringList remembered = settings.value(QLatin1String(kFilesKey)).toStringList();
    if (!read) {
        remembered.removeAll(absolute);
        settings.setValue(QLatin1String(kFilesKey), remembered);
        return QString::fromStdString(read.error().message());
    }
    // Read again: the file's old profiles give way to what it says now.
    for (std::size_t i = m_fileProfiles.size(); i-- > 0;)
        if (m_fileProfileFiles[i] == absolute) {
            m_fileProfiles.erase(m_fileProfiles.begin() + static_cast<std::ptrdiff_t>(i));
            m_fileProfileFiles.erase(m_fileProfileFiles.begin() + static_cast<std::ptrdiff_t>(i));
        }
    for (DeviceProfile& profile : *read) {
        m_fileProfiles.push_back(std::move(profile));
        m_fileProfileFiles.push_back(absolute);
    }
    if (!m_deviceFiles.contains(absolute))
        m_deviceFiles << absolute;
    if (!remembered.contains(absolute)) {
        remembered << absolute;
        settings.setValue(QLatin1String(kFilesKey), remembered);
    }
    fillDeviceFileEntries();
    // The device chosen may be one of this file's, changed or gone: checked again.
    if (!m_deviceId.isEmpty()) {
        if (m_device->findData(m_deviceId) <= 0)
            m_deviceId.clear();
        startDeviceCheck();
    }
    return std::nullopt;
}

void LoadCheckPanel::fillDeviceFileEntries()
{
    const QSignalBlocker blocker(m_device);
    for (int i = m_device->count(); i-- > 0;)
        if (m_device->itemData(i, kFromFileRole).toBool())
            m_device->removeItem(i);
    // After "No device", before the built-in profiles: a file's id comes first, as in
    // findDeviceProfile (a file may redefine a built-in id).
    for (std::size_t i = 0; i < m_fileProfiles.size(); ++i) {
        const DeviceProfile& profile = m_fileProfiles[i];
        const int at = 1 + static_cast<int>(i);
        const QString file = QFileInfo(m_fileProfileFiles[i]).fileName();
        const QString title = QString::fromStdString(profile.title.empty() ? profile.id : profile.title);
        m_device->insertItem(at, tr("%1 (%2) — %3").arg(title, QString::fromStdString(profile.id), file),
            QString::fromStdString(profile.id));
        m_device->setItemData(at, true, kFromFileRole);
        m_device->setItemData(at, tr("From %1").arg(m_fileProfileFiles[i]), Qt::ToolTipRole);
    }
    m_device->setCurrentIndex(std::max(0, m_device->findData(m_deviceId)));
}

void LoadCheckPanel::addDeviceFileInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add a device file"), QString(), tr("Device files (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const auto failure = loadDeviceFile(path)) {
        m_deviceProblems->setWrappedText(*failure);
        m_deviceProblems->show();
        Q_EMIT statusMessage(*failure);
        return;
    }
    m_deviceProblems->hide();
    Q_EMIT statusMessage(tr("Devices of %1 added to the picker").arg(QFileInfo(path).fileName()));
}

void LoadCheckPanel::syncDeviceControls()
{
    const QSignalBlocker blocker(m_device);
    m_device->setCurrentIndex(std::max(0, m_device->findData(m_deviceId)));
}

void LoadCheckPanel::setDevice(const QString& id)
{
    m_deviceId = m_device->findData(id) > 0 ? id : QString();
    if (m_document)
        rememberDevice(QString::fromStdString(m_document->path), m_deviceId);
    syncDeviceControls();
    startDeviceCheck();
}

void LoadCheckPanel::startDeviceCheck()
{
    const quint64 generation = ++m_deviceGeneration;
    auto profile = m_deviceId.isEmpty() ? Result<DeviceProfile>(makeError(Error::Code::Usage, "", "no device"))
                                        : findDeviceProfile(m_deviceId.toStdString(), m_fileProfiles);
    if (!profile || !m_document || !m_document->program) {
        m_fits.reset();
        m_deviceProfile.reset();
        showDeviceAnswer();
        updateMarks();
        Q_EMIT deviceChecked();
        return;
    }
    m_deviceAnswer->setStyleSheet(QString());
    m_deviceAnswer->setWrappedText(
        tr("Checking the delegates against %1…").arg(QString::fromStdString(profile->title)));
    m_deviceAnswer->show();
    whenFinished(
        this, QtConcurrent::run([document = m_document, device = *profile] {
            auto fits = std::make_shared<std::vector<DelegateFit>>();
            const Program& program = *document->program;
            for (std::size_t m = 0; m < program.methods.size() && m < document->methods.size(); ++m) {
                const auto& delegates = document->methods[m].delegates;
                for (std::size_t d = 0; d < delegates.size(); ++d) {
                    DelegateFit fit = fitDelegate(delegates[d], device);
                    fit.method = program.methods[m].name;
                    fit.delegate = static_cast<int>(d);
                    fits->push_back(std::move(fit));
                }
            }
            return std::shared_ptr<const std::vector<DelegateFit>>(std::move(fits));
        }),
        [this, generation, device = *profile](std::shared_ptr<const std::vector<DelegateFit>> fits) {
            if (generation != m_deviceGeneration)
                return;
            m_fits = std::move(fits);
            m_deviceProfile = device;
            showDeviceAnswer();
            updateMarks();
            Q_EMIT deviceChecked();
        },
        [this, generation](const QString& message) {
            if (generation != m_deviceGeneration)
                return;
            m_deviceAnswer->setWrappedText(tr("The device check failed: %1").arg(message));
        });
}

int LoadCheckPanel::deviceSeverity() const
{
    if (!m_fits || !m_deviceProfile)
        return -1;
    switch (overallOf(*m_fits)) {
    case Fit::DoesNotFit:
        return 2;
    case Fit::Unverified:
        return 1;
    case Fit::Fits:
        break;
    }
    return 0;
}

QString LoadCheckPanel::headlineText() const
{
    if (!m_fits || !m_deviceProfile || !m_check || m_running)
        return {};
    const Verdict v = verdict();
    const int device = deviceSeverity();
    const int worst = std::max(v.severity, device);
    const QString title = QString::fromStdString(m_deviceProfile->title);
    QString devicePart;
    if (m_fits->empty()) {
        devicePart = tr("on %1: no delegates").arg(title);
    } else {
        const Fit overall = overallOf(*m_fits);
        const auto counted = std::count_if(
            m_fits->begin(), m_fits->end(), [overall](const DelegateFit& fit) { return fit.fit == overall; });
        devicePart = tr("on %1: %2 (%3 of %4 delegates)")
                         .arg(title, QString::fromLatin1(fitName(overall).data()))
                         .arg(counted)
                         .arg(static_cast<int>(m_fits->size()));
    }
    const QString kernelPart = tr("kernels (%1): %2").arg(listsText(), v.severity == 1 ? v.answer : v.detail);
    // In the order the lines below stand: the device first only when it is worse.
    QStringList parts;
    if (device > v.severity)
        parts << devicePart;
    else {
        if (v.severity == worst)
            parts << kernelPart;
        if (device == worst)
            parts << devicePart;
    }
    const QString lead = worst >= 2 ? tr("Will not run") : worst == 1 ? tr("Unverified") : tr("Will run");
    return QStringLiteral("%1 — %2").arg(lead, parts.join(QStringLiteral("; ")));
}

void LoadCheckPanel::orderVerdicts()
{
    // Worst first: fails above unverified above fits; the kernels first when they are as bad.
    const int kernel = m_check && !m_running ? verdict().severity : -1;
    const bool deviceFirst = deviceSeverity() > kernel;
    if ((m_verdicts->indexOf(m_deviceAnswer) == 0) != deviceFirst) {
        m_verdicts->removeWidget(m_kernelVerdict);
        m_verdicts->removeWidget(m_deviceAnswer);
        m_verdicts->addWidget(deviceFirst ? static_cast<QWidget*>(m_deviceAnswer) : m_kernelVerdict);
        m_verdicts->addWidget(deviceFirst ? static_cast<QWidget*>(m_kernelVerdict) : m_deviceAnswer);
    }
    const QString headline = headlineText();
    const bool fails = std::max(kernel, deviceSeverity()) >= 2;
    m_headline->setStyleSheet(fails ? QStringLiteral("color: %1").arg(attentionColour().name()) : QString());
    m_headline->setWrappedText(headline);
    m_headline->setVisible(!headline.isEmpty());
}

QString LoadCheckPanel::deviceText() const
{
    if (!m_fits || !m_deviceProfile)
        return {};
    const QString device = QString::fromStdString(m_deviceProfile->title);
    if (m_fits->empty())
        return tr("On %1: no delegates, nothing of its hardware is needed (the kernels are checked against the "
                  "runtime below)")
            .arg(device);
    const Fit overall = overallOf(*m_fits);
    int counted = 0;
    const DelegateFit* first = nullptr;
    for (const DelegateFit& fit : *m_fits)
        if (fit.fit == overall) {
            ++counted;
            first = first ? first : &fit;
        }
    QString text = tr("On %1: %2 (%3 of %4 delegates)")
                       .arg(device, QString::fromLatin1(fitName(overall).data()))
                       .arg(counted)
                       .arg(static_cast<int>(m_fits->size()));
    if (first && !first->reasons.empty())
        text += QStringLiteral(" — %1: %2").arg(where(*first), QString::fromStdString(first->reasons.front()));
    return text;
}

void LoadCheckPanel::showDeviceAnswer()
{
    if (!m_fits || !m_deviceProfile) {
        m_deviceAnswer->hide();
        orderVerdicts();
        return;
    }
    // The answer, then every delegate that does not fit or is unverified (a few), each with why.
    constexpr int kShown = 6;
    QStringList lines { deviceText() };
    const Fit overall = m_fits->empty() ? Fit::Fits : overallOf(*m_fits);
    bool inFirstLine = false; // deviceText names the first delegate with the overall answer
    int shown = 0;
    int more = 0;
    for (const DelegateFit& fit : *m_fits) {
        if (fit.fit == Fit::Fits || fit.reasons.empty())
            continue;
        if (fit.fit == overall && !inFirstLine) {
            inFirstLine = true;
            continue;
        }
        if (shown++ >= kShown) {
            ++more;
            continue;
        }
        lines << QStringLiteral("%1 %2: %3")
                     .arg(fit.fit == Fit::DoesNotFit ? QStringLiteral("✕") : QStringLiteral("?"), where(fit),
                         QString::fromStdString(fit.reasons.front()));
    }
    if (more > 0)
        lines << tr("… and %n more delegate(s)", nullptr, more);
    m_deviceAnswer->setStyleSheet(
        overall == Fit::DoesNotFit ? QStringLiteral("color: %1").arg(attentionColour().name()) : QString());
    m_deviceAnswer->setWrappedText(lines.join(QLatin1Char('\n')));
    m_deviceAnswer->show();
    orderVerdicts();
}

void LoadCheckPanel::addDeviceMarks()
{
    if (!m_fits || !m_deviceProfile || !m_document || m_context.method < 0 || m_context.delegateNode.valid()
        || static_cast<std::size_t>(m_context.method) >= m_document->methods.size())
        return;
    const auto m = static_cast<std::size_t>(m_context.method);
    const Graph* graph = m_document->methods[m].graph.get();
    if (!graph)
        return;
    const std::string& method = m_document->program->methods[m].name;
    const QString device = QString::fromStdString(m_deviceProfile->title);
    /// Per closed group: its delegates that do not fit, those unverified, and their reasons.
    struct GroupCount {
        int fails = 0;
        int unverified = 0;
        QStringList lines;
    };
    std::map<int, GroupCount> perGroup;
    for (const Node& node : graph->nodes) {
        if (node.kind != NodeKind::Delegate || !node.delegate.valid())
            continue;
        const auto fit = std::find_if(m_fits->begin(), m_fits->end(),
            [&](const DelegateFit& f) { return f.method == method && f.delegate == node.delegate.value; });
        if (fit == m_fits->end() || fit->fit == Fit::Fits)
            continue;
        const bool fails = fit->fit == Fit::DoesNotFit;
        QString tip = (fails ? tr("Does not fit %1") : tr("Unverified on %1")).arg(device);
        if (!fit->builtFor.empty())
            tip += tr(" (built for %1)").arg(QString::fromStdString(fit->builtFor));
        for (const std::string& reason : fit->reasons)
            tip += QStringLiteral("\n• ") + QString::fromStdString(reason);
        if (m_grouping)
            if (const int group = m_grouping->groupOfNode(node.id); group >= 0) {
                GroupCount& count = perGroup[group];
                ++(fails ? count.fails : count.unverified);
                count.lines << QStringLiteral("%1 #%2 %3: %4")
                                   .arg(fails ? QStringLiteral("✕") : QStringLiteral("?"))
                                   .arg(node.delegate.value)
                                   .arg(QString::fromStdString(fit->backendId),
                                       fit->reasons.empty() ? QString() : QString::fromStdString(fit->reasons.front()));
            }
        const auto key = GraphScene::keyOf({ node.id, NodeId::none() });
        const auto existing = m_marks.find(key);
        if (existing != m_marks.end()) { // a backend no list links: both reasons on one mark
            existing->second.tooltip += QLatin1Char('\n') + tip;
            continue;
        }
        m_marks.emplace(key,
            NodeMark { fails ? problemColour() : unverifiedColour(), fails ? tr("✕ device") : tr("? device"), tip });
    }
    // A closed group holding such a delegate says so too: its box is all that is drawn of it
    // until it is opened (the ring was only on the delegate inside the open frame).
    for (const auto& [group, count] : perGroup) {
        const bool fails = count.fails > 0;
        const int n = fails ? count.fails : count.unverified;
        const QString badge = n == 1 ? (fails ? tr("✕ device") : tr("? device"))
                                     : (fails ? tr("✕ %1 device") : tr("? %1 device")).arg(n);
        QString tip = fails ? tr("%n delegate(s) inside do not fit %1", nullptr, count.fails).arg(device)
                            : tr("%n delegate(s) inside unverified on %1", nullptr, count.unverified).arg(device);
        if (fails && count.unverified > 0)
            tip += tr(", %n unverified", nullptr, count.unverified);
        tip += QStringLiteral("\n") + count.lines.join(QLatin1Char('\n'));
        const auto key = GraphScene::keyOf(NodeOrigin::ofGroup(group));
        const auto existing = m_marks.find(key);
        if (existing != m_marks.end()) { // operators without a kernel inside too: both on one mark
            existing->second.badge += QLatin1Char(' ') + badge;
            existing->second.tooltip += QLatin1Char('\n') + tip; // already in the problem red
            continue;
        }
        m_marks.emplace(key, NodeMark { fails ? problemColour() : unverifiedColour(), badge, tip });
    }
}

} // namespace etscope::ui
