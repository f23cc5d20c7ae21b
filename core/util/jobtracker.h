// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>
#include <type_traits>
#include <utility>

namespace kf {

namespace detail {
struct RequestState
{
    quint64 generation = 0;
    bool cancelled = false;
    bool delivered = false;
};
} // namespace detail

// One tracked request: cancel() drops its result, isPending() says whether it may still
// arrive. Copies share the request. A default-constructed handle tracks nothing.
class RequestHandle
{
public:
    RequestHandle() = default;
    void cancel()
    {
        if (m_state)
            m_state->cancelled = true;
    }
    bool isPending() const { return m_state && !m_state->cancelled && !m_state->delivered; }

private:
    friend class JobTracker;
    explicit RequestHandle(std::shared_ptr<detail::RequestState> state)
        : m_state(std::move(state))
    { }
    std::shared_ptr<detail::RequestState> m_state;
};

// The one way background results come back to an object (docs/STYLE.md, "Async results").
// Every request carries the tracker's generation; cancelAll() (a host switch, detach, stop)
// makes all earlier requests stale; a result reaches done() on the context's thread only if
// its request is current, not cancelled, and the context still exists.
//
// Results come through a QFutureWatcher owned by the context rather than
// QFuture::then(context, ...): Qt 6.4 asserts when the context dies before the worker ends
// (a pane closed while a remote command runs); the watcher just goes away with it.
//
// A worker sees a cancel through stopToken(): the flag of the requests tracked from now until
// the next cancelAll(), which sets it (so a host switch stops a plan between files instead of
// letting it read on: core/patch/patchplan.h's stop). The tracker's destruction cancels too.
//
// track(), stopToken() and cancelAll() are called on the context's thread only. Objects with
// independent lanes of requests (a re-plan beside a history load) keep one tracker per lane.
class JobTracker
{
public:
    explicit JobTracker(QObject* context)
        : m_context(context)
    { }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;
    ~JobTracker() { cancelAll(); }

    // done(result) (done() for QFuture<void>) when future finishes, if still current then.
    template <typename T, typename Done> RequestHandle track(const QFuture<T>& future, Done&& done)
    {
        Q_ASSERT(QThread::currentThread() == m_context->thread());
        auto request = std::make_shared<detail::RequestState>();
        request->generation = *m_generation;
        auto* watcher = new QFutureWatcher<T>(m_context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_context,
            [watcher, request, generation = m_generation, done = std::forward<Done>(done)]() mutable {
                watcher->deleteLater();
                const bool current = !request->cancelled && request->generation == *generation;
                request->delivered = true;
                if (!current)
                    return;
                if constexpr (std::is_void_v<T>)
                    done();
                else
                    done(watcher->result());
            });
        watcher->setFuture(future);
        return RequestHandle(std::move(request));
    }

    // What a worker started now checks: true once cancelAll() made its request stale. Take it
    // before starting the worker and hand the worker token.get() (it may outlive the tracker).
    using StopToken = std::shared_ptr<const std::atomic<bool>>;
    StopToken stopToken() const { return m_stop; }

    // Every request tracked so far is stale: its result will be dropped, and its workers'
    // stop token is set.
    void cancelAll()
    {
        ++*m_generation;
        m_stop->store(true);
        m_stop = std::make_shared<std::atomic<bool>>(false);
    }

private:
    QObject* m_context;
    // Shared with the watchers' slots, which may outlive a tracker that is a member of a
    // class whose QObject base (and so the watchers) is destroyed after it.
    std::shared_ptr<quint64> m_generation = std::make_shared<quint64>(0);
    std::shared_ptr<std::atomic<bool>> m_stop = std::make_shared<std::atomic<bool>>(false);
};

} // namespace kf
