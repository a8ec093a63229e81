// SPDX-License-Identifier: MIT
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

namespace etscope::ui {

/// Runs `handler` with the future's result on `context`'s thread. A QFutureWatcher connected
/// before the future is set never misses a result that arrives early (a continuation attached
/// with QFuture::then could, under load, on Qt 6.4).
template <typename T, typename Handler> void whenFinished(QObject* context, QFuture<T> future, Handler handler)
{
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, handler]() mutable {
        watcher->deleteLater();
        handler(watcher->future().takeResult());
    });
    watcher->setFuture(std::move(future));
}

} // namespace etscope::ui
