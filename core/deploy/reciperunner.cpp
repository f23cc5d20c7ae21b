// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/reciperunner.h"

#include "core/remotebuild/buildsession.h"

#include <QMutex>
#include <QThreadPool>
#include <QtConcurrent>

namespace kf::deploy {
namespace {

// Recipes run for hours (a build followed to its end): never on transportPool(), whose threads
// the steps' own requests need.
QThreadPool* recipePool()
{
    static QThreadPool pool;
    pool.setMaxThreadCount(64);
    return &pool;
}

} // namespace

// The worker's way back to the runner: queued calls while the runner wants them. The worker
// holds it beyond the runner's life; the runner's end takes the target away under the lock
// (calls already queued die with the runner, as Qt drops an object's posted events).
struct RecipeRunner::Relay
{
    QMutex mutex;
    RecipeRunner* target = nullptr;
    std::atomic<bool> stop { false };

    template <typename F> void post(F&& f)
    {
        QMutexLocker lock(&mutex);
        if (target)
            QMetaObject::invokeMethod(
                target, [t = target, f = std::forward<F>(f)] { f(*t); }, Qt::QueuedConnection);
    }
    void drop()
    {
        QMutexLocker lock(&mutex);
        target = nullptr;
    }
};

RecipeRunner::RecipeRunner(
    std::shared_ptr<Transport> transport, DeployRecipe recipe, RecipeOptions options, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_step(std::make_shared<RecipeStep>(std::move(recipe), std::move(options)))
{ }

RecipeRunner::~RecipeRunner()
{
    cancel();
}

void RecipeRunner::start()
{
    Q_ASSERT(!m_relay);
    m_relay = std::make_shared<Relay>();
    m_relay->target = this;
    m_running = true;
    QThreadPool* pool = recipePool();
    pool->start([relay = m_relay, step = m_step, transport = m_transport]() mutable {
        StepContext ctx;
        ctx.hostName = transport->describe();
        ctx.transport = transport;
        ctx.stop = &relay->stop;
        ctx.log = [&](const QString& line) { relay->post([line](RecipeRunner& r) { Q_EMIT r.message(line); }); };
        RecipeObserver observer;
        observer.started = [&](RecipePhase phase, const QString& what) {
            relay->post([phase, what](RecipeRunner& r) { Q_EMIT r.phaseStarted(phase, what); });
        };
        observer.finished = [&](RecipePhase phase, StepStatus status, const QString& reason) {
            relay->post([=](RecipeRunner& r) { Q_EMIT r.phaseFinished(phase, status, reason); });
        };
        observer.buildStarted
            = [&](const QString& job) { relay->post([job](RecipeRunner& r) { Q_EMIT r.buildStarted(job); }); };
        observer.buildProgress
            = [&](const BuildProgress& p) { relay->post([p](RecipeRunner& r) { Q_EMIT r.buildProgress(p); }); };
        const StepResult result = step->run(*transport, ctx, observer);
        // The connection ends where it began (its holder's thread), never last on this one.
        ctx.transport.reset();
        transport.reset();
        relay->post([result](RecipeRunner& r) {
            r.m_running = false;
            Q_EMIT r.finished(result.status == StepStatus::Ok, result.summary);
        });
    });
}

void RecipeRunner::cancel()
{
    if (!m_relay)
        return;
    m_relay->stop = true;
    m_relay->drop();
    m_running = false;
}

void RecipeRunner::interrupt()
{
    if (m_relay)
        m_relay->stop = true;
}

} // namespace kf::deploy
