// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Fleet rollouts in batches over several real sshd instances (one DemoHost each, each host over
// its own SSH connection): stop on the first failed batch, continue on error, a host whose plan
// differs from the reviewed one is refused unless confirmed, preflight and build start, a
// deployment recipe replayed host by host, and a host with an unhealthy GPU skipped.
#include "core/deploy/deployrecipe.h"
#include "core/deploy/recipestep.h"
#include "core/fleet/buildstartstep.h"
#include "core/fleet/patchstep.h"
#include "core/fleet/preflightstep.h"
#include "core/fleet/rollout.h"
#include "core/jobs/remotejob.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace kf;
using namespace kf::fleet;

namespace {

const QString kSet = QStringLiteral("builtin:sgl-kernel-sm120-cuda13");

QString cmakeOf(const DemoHost& d)
{
    return d.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
}

} // namespace

class TestRolloutSsh : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup() { m_hosts.clear(); }
    void stopsAfterTheFailedBatch();
    void continuesOnErrorAndRefusesADifferentPlan();
    void preflightAndBuildStartOnEveryHost();
    void recipeInBatchesStopsOrContinues();
    void skipsAHostWithAnUnhealthyGpu();

private:
    PlanFingerprint reviewedOn(const DemoHost& host);
    QList<HostProfile> profiles() const;
    QTemporaryDir m_state;
    std::vector<std::unique_ptr<DemoHost>> m_hosts;
};

void TestRolloutSsh::initTestCase()
{
    qunsetenv("SSH_AUTH_SOCK");
    QVERIFY(m_state.isValid());
    store::setDatabasePath(m_state.filePath(QStringLiteral("history.sqlite")));
}

void TestRolloutSsh::init()
{
    for (int i = 0; i < 3; ++i) {
        m_hosts.push_back(std::make_unique<DemoHost>());
        const auto started = m_hosts.back()->start();
        QVERIFY2(started.ok(), qPrintable(started.error()));
    }
}

QList<HostProfile> TestRolloutSsh::profiles() const
{
    QList<HostProfile> out;
    for (size_t i = 0; i < m_hosts.size(); ++i)
        out << m_hosts.at(i)->profile(QStringLiteral("gpu%1").arg(i + 1));
    return out;
}

PlanFingerprint TestRolloutSsh::reviewedOn(const DemoHost& host)
{
    auto t = SshTransport::connect(host.profile());
    if (!t)
        qFatal("review connect: %s", qPrintable(t.error()));
    const auto set = patch::loadPatchSet(kSet);
    const QString root = patch::resolveRoot(*t.value(), set.value(), QStringLiteral("sgl-kernel"));
    return fingerprint(patch::planSet(*t.value(), set.value(), root));
}

void TestRolloutSsh::stopsAfterTheFailedBatch()
{
    // gpu2 has no tree: its plan finds nothing to patch and fails; gpu3 must not be touched.
    QVERIFY(QDir(m_hosts.at(1)->homeDir() + QStringLiteral("/sgl-kernel")).removeRecursively());
    const QByteArray before3 = test::readFile(cmakeOf(*m_hosts.at(2)));
    PatchStep step(patch::loadPatchSet(kSet).value(), QStringLiteral("sgl-kernel"), true);
    step.setReviewed(reviewedOn(*m_hosts.at(0)));
    RolloutOptions o;
    o.batchSize = 1;
    QStringList events;
    RolloutCallbacks cb;
    std::mutex m;
    cb.changed = [&](int i, const HostRun& r) {
        std::lock_guard lock(m);
        events << QStringLiteral("%1:%2").arg(i).arg(hostRunStateName(r.state));
    };
    QStringList logs;
    cb.log = [&](int i, const QString& line) {
        std::lock_guard lock(m);
        logs << QStringLiteral("%1|%2").arg(i).arg(line);
    };
    const QList<HostRun> runs = runRollout(profiles(), step, o, cb);
    QCOMPARE(runs.at(0).state, HostRunState::Succeeded);
    QCOMPARE(runs.at(1).state, HostRunState::Failed);
    QCOMPARE(runs.at(2).state, HostRunState::Skipped);
    QCOMPARE(runs.at(2).summary, "not run: an earlier batch failed");
    QCOMPARE(runs.at(2).batch, 3);
    QVERIFY(test::readFile(cmakeOf(*m_hosts.at(0))).contains("if(POLICY CMP0169)"));
    QCOMPARE(test::readFile(cmakeOf(*m_hosts.at(2))), before3);
    // Live rows: each host went through connecting and running before its end state.
    QVERIFY2(events.indexOf("0:connecting") < events.indexOf("0:running")
            && events.indexOf("0:running") < events.indexOf("0:succeeded") && events.contains("2:skipped")
            && !events.contains("2:connecting"),
        qPrintable(events.join(u' ')));
    QVERIFY(std::any_of(logs.cbegin(), logs.cend(), [](const QString& l) { return l.startsWith("0|written"); }));
}

void TestRolloutSsh::continuesOnErrorAndRefusesADifferentPlan()
{
    QVERIFY(QDir(m_hosts.at(1)->homeDir() + QStringLiteral("/sgl-kernel")).removeRecursively());
    // gpu3's CMakeLists.txt was edited by hand: the patches still apply, but to another file.
    const QString c3 = cmakeOf(*m_hosts.at(2));
    QByteArray edited = test::readFile(c3) + "\n# local edit\n";
    {
        QFile f(c3);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(edited);
    }
    PatchStep step(patch::loadPatchSet(kSet).value(), QStringLiteral("sgl-kernel"), true);
    step.setReviewed(reviewedOn(*m_hosts.at(0)));
    RolloutOptions o;
    o.batchSize = 2;
    o.continueOnError = true;
    QStringList asked;
    RolloutCallbacks cb;
    std::mutex m;
    cb.confirmDifferent = [&](int i, const QString& why) {
        std::lock_guard lock(m);
        asked << QStringLiteral("%1:%2").arg(i).arg(why);
        return false;
    };
    QList<HostRun> runs = runRollout(profiles(), step, o, cb);
    QCOMPARE(runs.at(0).state, HostRunState::Succeeded);
    QCOMPARE(runs.at(1).state, HostRunState::Failed);
    QCOMPARE(runs.at(1).batch, 1);
    QCOMPARE(runs.at(2).batch, 2);
    QCOMPARE(runs.at(2).state, HostRunState::Refused); // batch 2 ran despite the failure in batch 1
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().startsWith("2:") && asked.first().contains("CMakeLists.txt"), qPrintable(asked.first()));
    QCOMPARE(test::readFile(c3), edited); // nothing written without asking
    // Confirmed: the different plan is applied.
    cb.confirmDifferent = [](int, const QString&) { return true; };
    runs = runRollout({ profiles().at(2) }, step, o, cb);
    QCOMPARE(runs.at(0).state, HostRunState::Succeeded);
    QVERIFY(test::readFile(c3).contains("if(POLICY CMP0169)"));
}

void TestRolloutSsh::preflightAndBuildStartOnEveryHost()
{
    const auto all = loadBuildProfiles();
    QVERIFY2(all, qPrintable(all.error()));
    const auto demoProfile = findBuildProfile(all.value(), QStringLiteral("Demo sgl-kernel (CMake + Ninja)"));
    QVERIFY(demoProfile);
    PreflightStep preflight(*demoProfile);
    RolloutOptions o;
    o.batchSize = 3;
    QMap<int, QStringList> logs;
    std::mutex m;
    RolloutCallbacks cb;
    cb.log = [&](int i, const QString& line) {
        std::lock_guard lock(m);
        logs[i] << line;
    };
    QList<HostRun> runs = runRollout(profiles(), preflight, o, cb);
    // The same checks ran on every host (what fails depends on this machine's tools: the state
    // follows the fail count, and the three identical hosts agree).
    for (int i = 0; i < 3; ++i) {
        const HostRun& r = runs.at(i);
        QVERIFY2(r.summary.contains(" check(s): "), qPrintable(r.summary));
        QCOMPARE(r.state, r.summary.contains(": 0 fail") ? HostRunState::Succeeded : HostRunState::Failed);
        QCOMPARE(r.summary, runs.at(0).summary);
        QCOMPARE(logs.value(i).size(), logs.value(0).size());
        QVERIFY(logs.value(i).size() >= 3);
    }
    BuildStartStep build(*demoProfile);
    runs = runRollout(profiles(), build, o, {});
    for (size_t i = 0; i < m_hosts.size(); ++i) {
        QVERIFY2(runs.at(int(i)).state == HostRunState::Succeeded, qPrintable(runs.at(int(i)).summary));
        auto t = SshTransport::connect(m_hosts.at(i)->profile());
        QVERIFY(t);
        const QString id = runs.at(int(i)).summary.section(u' ', 1, 1);
        const auto info = RemoteJob::info(*t.value(), id);
        QVERIFY2(info, qPrintable(info.error()));
        QCOMPARE(info->id, id);
    }
}

void TestRolloutSsh::recipeInBatchesStopsOrContinues()
{
    // The recipe expects an H200 and the patch set; gpu2 has another GPU: its facts step fails.
    const auto recipe = deploy::parseDeployRecipe("kernelforge_recipe: 1\n"
                                                  "name: fleet bring-up\n"
                                                  "facts:\n"
                                                  "  - {name: gpu, version: NVIDIA H200, rule: \"==\"}\n"
                                                  "patches:\n"
                                                  "  set: builtin:sgl-kernel-sm120-cuda13\n"
                                                  "  root: ~/sgl-kernel\n",
        QStringLiteral("fleet.yaml"));
    QVERIFY2(recipe, qPrintable(recipe.error()));
    QVERIFY(test::patchDemoNvidiaSmi(*m_hosts.at(1), "NAME = \"NVIDIA H200\"", "NAME = \"NVIDIA B200\""));
    const QByteArray before2 = test::readFile(cmakeOf(*m_hosts.at(1)));
    const QByteArray before3 = test::readFile(cmakeOf(*m_hosts.at(2)));
    deploy::RecipeStep step(recipe.value(), {});
    QCOMPARE(step.name(), QStringLiteral("recipe fleet bring-up"));
    RolloutOptions o;
    o.batchSize = 1;
    QMap<int, QStringList> logs;
    QStringList events;
    std::mutex m;
    RolloutCallbacks cb;
    cb.log = [&](int i, const QString& line) {
        std::lock_guard lock(m);
        logs[i] << line;
    };
    cb.changed = [&](int i, const HostRun& r) {
        std::lock_guard lock(m);
        events << QStringLiteral("%1:%2").arg(i).arg(hostRunStateName(r.state));
    };
    QList<HostRun> runs = runRollout(profiles(), step, o, cb);
    QVERIFY2(runs.at(0).state == HostRunState::Succeeded, qPrintable(runs.at(0).summary));
    QVERIFY2(runs.at(0).summary.startsWith(QStringLiteral("recipe applied to ")), qPrintable(runs.at(0).summary));
    QCOMPARE(runs.at(1).state, HostRunState::Failed);
    QVERIFY2(runs.at(1).summary.startsWith(QStringLiteral("facts: ")) && runs.at(1).summary.contains("NVIDIA B200"),
        qPrintable(runs.at(1).summary));
    QCOMPARE(runs.at(2).state, HostRunState::Skipped);
    QVERIFY(!events.contains("2:connecting"));
    QVERIFY(events.indexOf("0:running") < events.indexOf("0:succeeded"));
    // Each host's own log: the recipe's steps as they ran there.
    const QString log0 = logs.value(0).join(u'\n'), log1 = logs.value(1).join(u'\n');
    for (const char* line : { "== facts: ", "   facts OK", "== plan: planning builtin:sgl-kernel-sm120-cuda13",
             "   plan OK", "   apply OK", "   build SKIPPED", "   launch SKIPPED" })
        QVERIFY2(log0.contains(QLatin1String(line)), qPrintable(line + QStringLiteral(" not in:\n") + log0));
    QVERIFY2(log1.contains("   facts FAILED") && !log1.contains("== plan: "), qPrintable(log1));
    QVERIFY(logs.value(2).isEmpty());
    QVERIFY(test::readFile(cmakeOf(*m_hosts.at(0))).contains("if(POLICY CMP0169)"));
    QCOMPARE(test::readFile(cmakeOf(*m_hosts.at(1))), before2);
    QCOMPARE(test::readFile(cmakeOf(*m_hosts.at(2))), before3);

    // Continue on error, two at a time: gpu3 (batch 2) runs despite gpu2; gpu1 is already there.
    o.batchSize = 2;
    o.continueOnError = true;
    logs.clear();
    runs = runRollout(profiles(), step, o, cb);
    QVERIFY2(runs.at(0).state == HostRunState::Succeeded, qPrintable(runs.at(0).summary));
    QVERIFY2(logs.value(0).join(u'\n').contains("nothing to apply"), qPrintable(logs.value(0).join(u'\n')));
    QCOMPARE(runs.at(1).state, HostRunState::Failed);
    QCOMPARE(runs.at(2).batch, 2);
    QVERIFY2(runs.at(2).state == HostRunState::Succeeded, qPrintable(runs.at(2).summary));
    QVERIFY(test::readFile(cmakeOf(*m_hosts.at(2))).contains("if(POLICY CMP0169)"));
    QCOMPARE(test::readFile(cmakeOf(*m_hosts.at(1))), before2);
}

void TestRolloutSsh::skipsAHostWithAnUnhealthyGpu()
{
    // gpu2's GPU 1 runs hot: an uncorrected ECC error, rows pending remapping and an Xid 48 in
    // its kernel log, as its nvidia-smi and dmesg report them.
    QVERIFY(test::patchDemoNvidiaSmi(
        *m_hosts.at(1), "os.environ.get(\"KF_DEMO_HOT_GPU\")", "os.environ.get(\"KF_DEMO_HOT_GPU\", \"1\")"));
    QVERIFY(test::patchDemoNvidiaSmi(
        *m_hosts.at(1), "os.environ.get(\"KF_DEMO_HOT_GPU\", \"\")", "os.environ.get(\"KF_DEMO_HOT_GPU\", \"1\")"));
    PatchStep plan(patch::loadPatchSet(kSet).value(), QStringLiteral("sgl-kernel"), false);
    RolloutOptions o;
    o.batchSize = 1;
    o.skipUnhealthy = true;
    QMap<int, QStringList> logs;
    std::mutex m;
    RolloutCallbacks cb;
    cb.log = [&](int i, const QString& line) {
        std::lock_guard lock(m);
        logs[i] << line;
    };
    const QList<HostRun> runs = runRollout(profiles(), plan, o, cb);
    QVERIFY2(runs.at(0).state == HostRunState::Succeeded, qPrintable(runs.at(0).summary));
    QCOMPARE(runs.at(1).state, HostRunState::Skipped);
    QVERIFY2(runs.at(1).summary.startsWith(
                 QStringLiteral("skipped, unhealthy: 8 GPU(s): 7 healthy, 1 unhealthy (GPU 1: unhealthy: Xid 48")),
        qPrintable(runs.at(1).summary));
    // A skipped host is not a failed batch: gpu3 still ran.
    QVERIFY2(runs.at(2).state == HostRunState::Succeeded, qPrintable(runs.at(2).summary));
    QVERIFY(logs.value(0).first().startsWith(QStringLiteral("GPU health: 8 GPU(s): 8 healthy")));
    // Without the option nothing is checked, and gpu2's plan runs like the others.
    o.skipUnhealthy = false;
    const QList<HostRun> again = runRollout(profiles(), plan, o, {});
    QCOMPARE(again.at(1).state, HostRunState::Succeeded);
}

QTEST_GUILESS_MAIN(TestRolloutSsh)
#include "tst_rolloutssh.moc"
