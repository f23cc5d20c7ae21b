// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// A deployment recipe as the one step model runs it (core/deploy/step.h): RecipeStep blocking on
// the caller's thread, RecipeRunner relaying it to a view's thread, and the stop token its
// worker sees (a closed dialog, Ctrl-C, a rollout's stop).
#include "core/deploy/reciperunner.h"
#include "core/events/eventlog.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace kf;
using namespace kf::deploy;

namespace {

constexpr auto kSet = R"(name: two-files
patches:
  - id: first
    file: a.txt
    edits: [{ensure: {text: "patched a"}}]
  - id: second
    file: b.txt
    edits: [{ensure: {text: "patched b"}}]
)";

QList<timeline::Event> recipeEvents()
{
    timeline::Query q;
    q.host = QStringLiteral("local");
    q.kinds = { timeline::kind::RecipeStep };
    const auto events = timeline::recorded(q);
    return events ? events.value() : QList<timeline::Event>();
}

} // namespace

class TestRecipeRunner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void theRunnerRelaysTheStepsInOrder();
    void aStepRunsOnAThreadWithoutAnEventLoop();
    void aStopBeforeTheStartStartsNothing();
    void cancelStopsTheApplyAtTheNextFile();
    void interruptEndsWithTheReason();

private:
    DeployRecipe recipe() const;
    QByteArray file(const char* name) const { return test::readFile(m_root.filePath(QLatin1String(name))); }

    std::unique_ptr<QTemporaryDir> m_home;
    QTemporaryDir m_root;
};

void TestRecipeRunner::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    qputenv("HOME", m_home->path().toUtf8()); // the applier's backups go under ~/.cache
    test::isolateAppState(QStringLiteral("tst_reciperunner"), m_home->path());
    qunsetenv("KF_TEST_HOLD_AFTER_RENAME");
    QVERIFY(test::writeFile(m_root.filePath("a.txt"), "a\n"));
    QVERIFY(test::writeFile(m_root.filePath("b.txt"), "b\n"));
    QVERIFY(test::writeFile(m_home->filePath("set.yaml"), kSet));
}

void TestRecipeRunner::cleanup()
{
    qunsetenv("KF_TEST_HOLD_AFTER_RENAME");
}

DeployRecipe TestRecipeRunner::recipe() const
{
    const QByteArray yaml = "kernelforge_recipe: 1\nname: two files\npatches:\n  set: "
        + m_home->filePath("set.yaml").toUtf8() + "\n  root: " + m_root.path().toUtf8() + "\n";
    const auto r = parseDeployRecipe(yaml, QStringLiteral("recipe.yaml"));
    if (!r)
        qFatal("%s", qPrintable(r.error()));
    return r.value();
}

// Each phase's start and end as signals on the runner's thread, in the recipe's order; what is
// not in the recipe is skipped; each phase's outcome is in the host's timeline once.
void TestRecipeRunner::theRunnerRelaysTheStepsInOrder()
{
    RecipeRunner runner(std::make_shared<LocalTransport>(), recipe(), {});
    QStringList seen;
    QList<QThread*> threads;
    connect(&runner, &RecipeRunner::phaseStarted, this, [&](RecipePhase p, const QString&) {
        seen << QStringLiteral("start ") + recipePhaseName(p);
        threads << QThread::currentThread();
    });
    connect(&runner, &RecipeRunner::phaseFinished, this, [&](RecipePhase p, StepStatus s, const QString&) {
        seen << recipePhaseName(p) + QLatin1Char(' ') + stepStatusName(s);
    });
    QSignalSpy finished(&runner, &RecipeRunner::finished);
    runner.start();
    QVERIFY(runner.isRunning());
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("recipe applied to local"));
    QVERIFY(!runner.isRunning());
    QCOMPARE(seen,
        QStringList({ "start facts", "facts skipped", "start plan", "plan ok", "start apply", "apply ok", "start build",
            "build skipped", "start verify", "verify skipped", "start launch", "launch skipped" }));
    for (QThread* t : std::as_const(threads))
        QCOMPARE(t, QThread::currentThread());
    QVERIFY(file("a.txt").contains("patched a"));
    QVERIFY(file("b.txt").contains("patched b"));
    QCOMPARE(recipeEvents().size(), 6);
}

// The step itself blocks on the thread that calls it and needs no event loop there: without an
// observer its phases' lines go to the context's log, as a rollout's host log shows them.
void TestRecipeRunner::aStepRunsOnAThreadWithoutAnEventLoop()
{
    RecipeStep step(recipe(), {});
    QStringList log;
    StepResult result;
    std::thread worker([&] {
        LocalTransport local;
        StepContext ctx;
        ctx.log = [&](const QString& line) { log << line; };
        result = step.run(local, ctx);
    });
    worker.join();
    QVERIFY2(result.status == StepStatus::Ok, qPrintable(result.summary));
    QVERIFY(log.contains(phaseStartedLine(RecipePhase::Apply, QStringLiteral("applying on local:") + m_root.path())));
    QVERIFY(log.contains(phaseFinishedLine(RecipePhase::Apply, StepStatus::Ok, QStringLiteral("2 files written"))));
    QVERIFY(log.contains(QStringLiteral("   launch SKIPPED: the recipe has no server")));
}

void TestRecipeRunner::aStopBeforeTheStartStartsNothing()
{
    RecipeStep step(recipe(), {});
    LocalTransport local;
    std::atomic<bool> stop { true };
    StepContext ctx;
    ctx.stop = &stop;
    const StepResult result = step.run(local, ctx);
    QCOMPARE(result.status, StepStatus::Failed);
    QVERIFY2(result.summary.startsWith(QStringLiteral("interrupted before facts")), qPrintable(result.summary));
    QCOMPARE(file("a.txt"), QByteArray("a\n"));
    QVERIFY(recipeEvents().isEmpty());
}

// The recipe dialog closed while the apply has its first file renamed into place (the applier's
// test hook holds it there): the worker sees the cancel, finishes that file and starts no other;
// the dialog hears nothing more. Before, a cancel only dropped the answers: the apply went on
// and wrote every file after the dialog was gone.
void TestRecipeRunner::cancelStopsTheApplyAtTheNextFile()
{
    const QString marker = m_home->filePath("held");
    qputenv("KF_TEST_HOLD_AFTER_RENAME", marker.toUtf8());
    auto runner = std::make_unique<RecipeRunner>(std::make_shared<LocalTransport>(), recipe(), RecipeOptions {});
    QSignalSpy finished(runner.get(), &RecipeRunner::finished);
    QSignalSpy phases(runner.get(), &RecipeRunner::phaseFinished);
    runner->start();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 60000);
    QVERIFY(file("a.txt").contains("patched a"));
    runner->cancel();
    QVERIFY(!runner->isRunning());
    // The worker ends its apply and records why; the step's outcome is in the timeline.
    QTRY_VERIFY_WITH_TIMEOUT(recipeEvents().size() == 3, 60000); // facts, plan, apply
    const timeline::Event apply = recipeEvents().last();
    QCOMPARE(apply.details.value("step").toString(), QStringLiteral("apply"));
    QCOMPARE(apply.details.value("status").toString(), QStringLiteral("failed"));
    QVERIFY2(apply.details.value("reason").toString().startsWith(
                 QStringLiteral("interrupted: the file in flight was finished, nothing more started")),
        qPrintable(apply.details.value("reason").toString()));
    QCOMPARE(file("b.txt"), QByteArray("b\n"));
    QCoreApplication::processEvents();
    QCOMPARE(finished.size(), 0);
    QCOMPARE(phases.size(), 2); // facts, plan: nothing after the cancel
    runner.reset();             // the worker may still hold what it relays through
    QCoreApplication::processEvents();
}

// Ctrl-C in `recipe apply`: the same stop, and the reason comes back.
void TestRecipeRunner::interruptEndsWithTheReason()
{
    const QString marker = m_home->filePath("held");
    qputenv("KF_TEST_HOLD_AFTER_RENAME", marker.toUtf8());
    RecipeRunner runner(std::make_shared<LocalTransport>(), recipe(), {});
    QSignalSpy finished(&runner, &RecipeRunner::finished);
    runner.start();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 60000);
    runner.interrupt();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(finished.first().at(1).toString().startsWith(
                 QStringLiteral("apply: interrupted: the file in flight was finished, nothing more started")),
        qPrintable(finished.first().at(1).toString()));
    QCOMPARE(file("b.txt"), QByteArray("b\n"));
}

QTEST_GUILESS_MAIN(TestRecipeRunner)
#include "tst_reciperunner.moc"
