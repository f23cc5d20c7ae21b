// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/recipestep.h"

#include <QEventLoop>
#include <QTimer>

namespace kf::fleet {

using deploy::RecipeRunner;

RecipeStep::RecipeStep(deploy::DeployRecipe recipe, RecipeRunner::Options options)
    : m_recipe(std::move(recipe))
    , m_options(std::move(options))
{ }

QString RecipeStep::name() const
{
    return (m_options.dryRun ? QStringLiteral("recipe dry run ") : QStringLiteral("recipe "))
        + (m_recipe.name.isEmpty() ? QStringLiteral("(unnamed)") : m_recipe.name);
}

StepResult RecipeStep::run(Transport& transport, const StepContext& ctx)
{
    // The runner's requests run on transportPool() and may outlive a cancel: they keep the
    // connection alive through the rollout's shared pointer.
    std::shared_ptr<Transport> shared = ctx.transport;
    if (!shared)
        shared = std::shared_ptr<Transport>(&transport, [](Transport*) {});
    QEventLoop loop;
    RecipeRunner runner(shared, m_recipe, m_options);
    bool done = false;
    StepResult result { HostRunState::Failed, QStringLiteral("recipe did not finish") };
    QObject::connect(&runner, &RecipeRunner::stepStarted, &loop, [&](RecipeRunner::Step step, const QString& what) {
        ctx.log(QStringLiteral("== %1: %2").arg(RecipeRunner::stepName(step), what));
    });
    QObject::connect(&runner, &RecipeRunner::message, &loop, [&](const QString& line) { ctx.log(line); });
    QObject::connect(&runner, &RecipeRunner::stepFinished, &loop,
        [&](RecipeRunner::Step step, RecipeRunner::Status status, const QString& reason) {
            ctx.log(QStringLiteral("   %1 %2%3")
                        .arg(RecipeRunner::stepName(step), RecipeRunner::statusName(status).toUpper(),
                            reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
        });
    QObject::connect(&runner, &RecipeRunner::finished, &loop, [&](bool ok, const QString& reason) {
        done = true;
        result = { ok ? HostRunState::Succeeded : HostRunState::Failed, reason };
        loop.quit();
    });
    QTimer stopPoll;
    if (ctx.stop) {
        QObject::connect(&stopPoll, &QTimer::timeout, &loop, [&] {
            if (!ctx.stop->load())
                return;
            stopPoll.stop();
            ctx.log(QStringLiteral("stopped: no longer following (what runs detached on the host runs on)"));
            runner.interrupt(); // finished() follows, at once or when the apply in flight ends
        });
        stopPoll.start(200);
    }
    runner.start();
    if (!done && runner.isRunning())
        loop.exec();
    return result;
}

} // namespace kf::fleet
