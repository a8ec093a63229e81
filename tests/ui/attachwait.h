// SPDX-License-Identifier: MIT
#pragma once

#include "ui/document/documentcontroller.h"

#include <QObject>
#include <QString>
#include <QTest>

#include <optional>

namespace etscope::test {

/// Attaches `path` through the controller's worker (issue 27 #13: attaching never blocks the UI
/// thread) and waits until it is attached and the heat tables the views asked for are built.
/// Returns the error text, empty when attached, "stopped" when stopped.
inline QString attachAndWait(
    ui::DocumentController& controller, ui::AttachKind kind, const QString& path, int timeoutMs = 60000)
{
    std::optional<QString> answer;
    const auto finished = QObject::connect(&controller, &ui::DocumentController::attachFinished,
        [&](ui::AttachKind, const QString& file, const QString& error) {
            if (file == path)
                answer = error;
        });
    const auto stopped = QObject::connect(
        &controller, &ui::DocumentController::attachStopped, [&](ui::AttachKind, const QString& file) {
            if (file == path)
                answer = QStringLiteral("stopped");
        });
    controller.attachArtifact(kind, path);
    const bool answered = QTest::qWaitFor([&] { return answer.has_value(); }, timeoutMs);
    QObject::disconnect(finished);
    QObject::disconnect(stopped);
    if (!answered)
        return QStringLiteral("no answer within %1 ms").arg(timeoutMs);
    if (!QTest::qWaitFor([&] { return !controller.debugBusy(); }, timeoutMs))
        return QStringLiteral("heat tables not built within %1 ms").arg(timeoutMs);
    return *answer;
}

} // namespace etscope::test
