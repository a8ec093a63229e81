// SPDX-License-Identifier: MIT
#pragma once

#include "ui/document/documentcontroller.h"

#include <QObject>
#include <QString>
#include <QTest>

#include <memory>
#include <optional>

namespace etscope::test {

/// Attaches `path` through the controller's worker (issue 27 #13: attaching never blocks the UI
/// thread) and waits until it is attached and the heat tables the views asked for are built.
/// Returns the error text, empty when attached, "stopped" when stopped.
inline QString attachAndWait(
    ui::DocumentController& controller, ui::AttachKind kind, const QString& path, int timeoutMs = 60000)
{
    // Shared with the handler: an answer coming after a timeout must find it still there.
    const auto answer = std::make_shared<std::optional<QString>>();
    controller.attachArtifact(kind, path, [answer](ui::RequestOutcome outcome, const QString& error) {
        *answer = outcome == ui::RequestOutcome::Stopped ? QStringLiteral("stopped") : error;
    });
    const bool answered = QTest::qWaitFor([&] { return answer->has_value(); }, timeoutMs);
    if (!answered)
        return QStringLiteral("no answer within %1 ms").arg(timeoutMs);
    if (!QTest::qWaitFor([&] { return !controller.debugBusy(); }, timeoutMs))
        return QStringLiteral("heat tables not built within %1 ms").arg(timeoutMs);
    return **answer;
}

} // namespace etscope::test
