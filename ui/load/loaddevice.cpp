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
#include <QSignalBlocker>
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
                                        : findDeviceProfile(m_deviceId.toStdString());
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
        const auto key = GraphScene::keyOf({ node.id, NodeId::none() });
        const auto existing = m_marks.find(key);
        if (existing != m_marks.end()) { // a backend no list links: both reasons on one mark
            existing->second.tooltip += QLatin1Char('\n') + tip;
            continue;
        }
        m_marks.emplace(key,
            NodeMark { fails ? problemColour() : unverifiedColour(), fails ? tr("✕ device") : tr("? device"), tip });
    }
}

} // namespace etscope::ui
