// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <utility>

namespace kf {

// Runs f(result) in context's thread when future finishes, and never if context is gone by
// then. (Qt 6.4's QFuture::then(context, ...) asserts when the context died first, which
// happens whenever a monitor is closed while a remote command is still running.)
template <typename T, typename F> void whenReady(QObject* context, const QFuture<T>& future, F&& f)
{
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, f = std::forward<F>(f)]() mutable {
        watcher->deleteLater();
        f(watcher->result());
    });
    watcher->setFuture(future);
}

} // namespace kf
