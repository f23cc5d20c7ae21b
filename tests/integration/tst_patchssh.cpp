// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Patch sets over the real sshd (DemoHost): the CLI applies the built-in set to the demo
// project, refuses after a concurrent change, survives a connection killed mid-apply with
// the old or the new file (never a mix), and rolls back.
#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QtTest>

using namespace kf;
using namespace kf::patch;

namespace { } // namespace

class TestPatchSsh : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cliApplyAgainRollback();
    void refusesAfterConcurrentChange();
    void killedMidApplyLeavesOldOrNew();

private:
    QTemporaryDir m_state;
};

void TestPatchSsh::initTestCase()
{
    qunsetenv("SSH_AUTH_SOCK");
    QVERIFY(m_state.isValid());
    store::setDatabasePath(m_state.filePath(QStringLiteral("history.sqlite")));
}

void TestPatchSsh::cliApplyAgainRollback()
{
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    const QByteArray original = test::readFile(cmake);
    QVERIFY(original.contains("cmake_policy(SET CMP0169 OLD)"));
    const QStringList ssh { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"),
        demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath() };
    const QString root = demo.user() + QLatin1Char('@') + demo.host() + QStringLiteral(":sgl-kernel");
    const QStringList env { QStringLiteral("XDG_STATE_HOME=") + m_state.filePath(QStringLiteral("cli-state")) };
    auto run = [&](const QString& action) {
        return test::runCli(QStringList { QStringLiteral("patch"), action, QStringLiteral("--set"),
                                QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), root,
                                QStringLiteral("--json") }
                + ssh,
            120000, env);
    };
    const auto apply = run(QStringLiteral("apply"));
    QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
    QCOMPARE(apply.out.count("\"status\":\"applied\""), 4);
    const QByteArray patched = test::readFile(cmake);
    QVERIFY(patched.contains("if(POLICY CMP0169)"));
    QVERIFY(test::readFile(demo.homeDir() + QStringLiteral("/sgl-kernel/python/sgl_kernel/flash_attn.py"))
                .contains("FA3_AVAILABLE = False"));
    // Backups live on the server, next to nothing of the user's.
    QVERIFY(QDir(demo.homeDir() + QStringLiteral("/.cache/kernelforge/patch-backups")).exists());

    const auto again = run(QStringLiteral("apply"));
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(again.out.count("\"status\":\"already-applied\""), 4);
    QCOMPARE(test::readFile(cmake), patched);

    const auto rollback = run(QStringLiteral("rollback"));
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(rollback.out.count("\"status\":\"rolled-back\""), 2);
    QCOMPARE(test::readFile(cmake), original);

    // A wrong key is a connection error (255), not a patch error.
    const auto bad
        = test::runCli({ QStringLiteral("patch"), QStringLiteral("plan"), QStringLiteral("--set"),
                           QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), root,
                           QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("--known-hosts"),
                           m_state.filePath(QStringLiteral("empty_known_hosts")) },
            60000, env);
    QCOMPARE(bad.exitCode, 255);
}

void TestPatchSsh::refusesAfterConcurrentChange()
{
    KF_START_DEMO_HOST(demo);
    auto transport = SshTransport::connect(demo.profile());
    QVERIFY2(transport, qPrintable(transport.error()));
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY(set);
    const SetPlan plan = planSet(*transport.value(), set.value(), QStringLiteral("sgl-kernel"));
    QVERIFY2(plan, qPrintable(plan.error));
    QCOMPARE(plan.count(PatchStatus::WillApply), 4);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    {
        QFile f(cmake);
        QVERIFY(f.open(QIODevice::Append));
        f.write("# someone edited this on the server meanwhile\n");
    }
    const QByteArray concurrent = test::readFile(cmake);
    const ApplyReport report = applyPlan(*transport.value(), plan);
    QVERIFY(report.changedSinceReview());
    QCOMPARE(test::readFile(cmake), concurrent);
    // Re-plan, apply, roll back over SSH.
    const SetPlan fresh = planSet(*transport.value(), set.value(), QStringLiteral("sgl-kernel"));
    const ApplyReport ok = applyPlan(*transport.value(), fresh);
    QVERIFY(ok.ok());
    for (const FileApply& f : ok.files) {
        if (f.outcome != FileApply::Written)
            continue;
        const auto r = rollbackApply(*transport.value(), f.journalId);
        QVERIFY2(r, qPrintable(r.error()));
    }
    QCOMPARE(test::readFile(cmake), concurrent);
}

void TestPatchSsh::killedMidApplyLeavesOldOrNew()
{
    KF_START_DEMO_HOST(demo);
    // A large file makes the upload take long enough to cut the connection in the middle.
    const QString dir = demo.homeDir() + QStringLiteral("/big");
    QDir().mkpath(dir);
    QByteArray old;
    for (int i = 0; i < 400000; ++i)
        old += "set(VAR_" + QByteArray::number(i) + " value)\n";
    {
        QFile f(dir + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(old);
    }
    const QByteArray yaml = "name: big\npatches:\n  - id: all\n    file: CMakeLists.txt\n    edits:\n      - replace: "
                            "{find: ' value)', with: ' other_value)'}\n";
    const auto set = parsePatchSetYaml(yaml, QStringLiteral("big.yaml"));
    QVERIFY2(set, qPrintable(set.error()));
    auto transport = SshTransport::connect(demo.profile());
    QVERIFY2(transport, qPrintable(transport.error()));
    const SetPlan plan = planSet(*transport.value(), set.value(), QStringLiteral("big"));
    QCOMPARE(plan.count(PatchStatus::WillApply), 1);
    const QByteArray proposed = plan.files.first().proposed;
    std::shared_ptr<Transport> t = transport.value();
    QFuture<ApplyReport> future = QtConcurrent::run([t, plan]() { return applyPlan(*t, plan); });
    // Cut the connection once the temporary upload file exists (the write is under way).
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished()
            || !QDir(dir)
                    .entryList({ QStringLiteral(".CMakeLists.txt.kf-tmp-*") }, QDir::Files | QDir::Hidden)
                    .isEmpty(),
        60000);
    const bool cut = !future.isFinished();
    if (cut)
        demo.dropConnections();
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 120000);
    const QByteArray now = test::readFile(dir + QStringLiteral("/CMakeLists.txt"));
    QVERIFY2(now == old || now == proposed, "the file is neither the old nor the new text");
    if (cut) {
        qInfo("connection cut mid-apply: file is %s", now == old ? "the old one" : "the new one");
        if (now == old)
            QVERIFY(!future.result().ok()); // and the report says it failed
    }
}

QTEST_GUILESS_MAIN(TestPatchSsh)
#include "tst_patchssh.moc"
