// SPDX-License-Identifier: MIT
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QUnhandledException>

#include <exception>
#include <optional>
#include <utility>

namespace etscope::ui {

namespace detail {

/// The message of the exception being handled: a worker's std::exception arrives wrapped in
/// QUnhandledException (Qt 6), whose own what() says nothing.
inline QString currentExceptionMessage()
{
    try {
        throw;
    } catch (const QUnhandledException& wrapped) {
        if (const std::exception_ptr inner = wrapped.exception()) {
            try {
                std::rethrow_exception(inner);
            } catch (const std::exception& error) {
                return QString::fromLocal8Bit(error.what());
            } catch (...) {
                return QStringLiteral("an exception that is not a std::exception");
            }
        }
        return QStringLiteral("an exception that is not a std::exception");
    } catch (const std::exception& error) {
        return QString::fromLocal8Bit(error.what());
    } catch (...) {
        return QStringLiteral("an exception that is not a std::exception");
    }
}

} // namespace detail

/// Runs `handler` with the future's result on `context`'s thread. A QFutureWatcher connected
/// before the future is set never misses a result that arrives early (a continuation attached
/// with QFuture::then could, under load, on Qt 6.4).
///
/// The boundary for the worker's exceptions (issue 27 #14): an analysis that throws (a bug, or
/// std::bad_alloc) is not rethrown on the GUI thread; `onError` gets its message instead, so the
/// panel can say what failed.
template <typename T, typename Handler, typename ErrorHandler>
void whenFinished(QObject* context, QFuture<T> future, Handler handler, ErrorHandler onError)
{
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, handler, onError]() mutable {
        watcher->deleteLater();
        std::optional<T> result;
        try {
            result.emplace(watcher->future().takeResult());
        } catch (...) {
            onError(detail::currentExceptionMessage());
            return;
        }
        handler(std::move(*result));
    });
    watcher->setFuture(std::move(future));
}

/// As above; a failure is only logged (for work whose caller has no place to show it).
template <typename T, typename Handler> void whenFinished(QObject* context, QFuture<T> future, Handler handler)
{
    whenFinished(context, std::move(future), std::move(handler),
        [](const QString& message) { qWarning("etscope: a background task failed: %s", qUtf8Printable(message)); });
}

} // namespace etscope::ui
