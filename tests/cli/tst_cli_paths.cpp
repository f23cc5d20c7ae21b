// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The real kernelforge-cli refuses paths that would leave their place: a remote path with a
// newline in put/get, a unified diff naming ../ or an absolute path under --root (local).
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

void writeFile(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

} // namespace

class TestCliPaths : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    // `put local 'host:victim\n'` once replaced ~/victim (the shell split the word at the
    // newline) and changed its mode. Now the destination is refused before connecting.
    void putWithNewlineInTheRemotePathIsRefused()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString local = dir.filePath(QStringLiteral("local"));
        writeFile(local, "attacker's bytes\n");
        QFile::setPermissions(local,
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::WriteOther
                | QFile::ExeOther);
        const QString victim = demo.homeDir() + QStringLiteral("/victim");
        writeFile(victim, "precious\n");
        QFile::setPermissions(victim, QFile::ReadOwner | QFile::WriteOwner);
        const QStringList ssh = test::cliSshOptions(demo);
        // (argv cannot carry a NUL: that case is covered by tst_validators.)
        for (const QString& remote :
            { QStringLiteral("victim\n"), QStringLiteral("victim\nx"), QStringLiteral("vic\ttim") }) {
            const auto r = test::runCli(QStringList { QStringLiteral("put") }
                    << ssh << local << demo.user() + QStringLiteral("@") + demo.host() + QLatin1Char(':') + remote,
                60000);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("control character"), r.err.constData());
            const auto g = test::runCli(QStringList { QStringLiteral("get") }
                    << ssh << demo.user() + QStringLiteral("@") + demo.host() + QLatin1Char(':') + remote
                    << dir.filePath(QStringLiteral("got")),
                60000);
            QCOMPARE(g.exitCode, 2);
        }
        QCOMPARE(test::readFile(victim), QByteArray("precious\n"));
        QCOMPARE(int(QFile::permissions(victim) & 0x7077), int(QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(QDir(demo.homeDir()).entryList({ QStringLiteral("victim?*") }, QDir::Files | QDir::Hidden).isEmpty());
    }

    // --root PATH (local): a diff naming a/../victim.txt is refused as a YAML recipe would be;
    // nothing outside the root is read, written or backed up.
    void localDiffLeavingTheRootIsRefused()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("tree"));
        writeFile(root + QStringLiteral("/ok.txt"), "old\n");
        writeFile(dir.filePath(QStringLiteral("victim.txt")), "old\n");
        const QString patch = dir.filePath(QStringLiteral("evil.patch"));
        writeFile(patch, "--- a/../victim.txt\n+++ b/../victim.txt\n@@ -1 +1 @@\n-old\n+pwned\n");
        const QStringList env { QStringLiteral("XDG_STATE_HOME=") + dir.filePath(QStringLiteral("state")),
            QStringLiteral("HOME=") + dir.filePath(QStringLiteral("home")) };
        for (const QString& action : { QStringLiteral("plan"), QStringLiteral("apply") }) {
            const auto r = test::runCli(
                { QStringLiteral("patch"), action, QStringLiteral("--set"), patch, QStringLiteral("--root"), root },
                60000, env);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("evil.patch:1: path \"../victim.txt\" leaves the root: it has a \"..\" component"),
                r.err.constData());
        }
        QCOMPARE(test::readFile(dir.filePath(QStringLiteral("victim.txt"))), QByteArray("old\n"));
        QVERIFY(!QDir(dir.filePath(QStringLiteral("home/.cache"))).exists());
        // A symlinked folder inside the root that leads out of it.
        QVERIFY(QFile::link(dir.path(), root + QStringLiteral("/up")));
        writeFile(patch, "--- a/up/victim.txt\n+++ b/up/victim.txt\n@@ -1 +1 @@\n-old\n+pwned\n");
        const auto r = test::runCli({ QStringLiteral("patch"), QStringLiteral("apply"), QStringLiteral("--set"), patch,
                                        QStringLiteral("--root"), root },
            60000, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("\"up/victim.txt\" leads outside the root"), r.err.constData());
        QCOMPARE(test::readFile(dir.filePath(QStringLiteral("victim.txt"))), QByteArray("old\n"));
    }

    // Over SSH the history is keyed by the root as the server's shell resolves it: apply with
    // a relative root through a symlink, roll back with the absolute real path; then nothing
    // matches any more and the rollback exits 1 with one line saying so.
    void sshRollbackFindsTheApplyByTheRealRoot()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir state;
        const QString project = demo.homeDir() + QStringLiteral("/sgl-kernel");
        const QString real = QFileInfo(project).canonicalFilePath();
        QVERIFY(QFile::link(project, demo.homeDir() + QStringLiteral("/sk")));
        const QByteArray original = test::readFile(project + QStringLiteral("/CMakeLists.txt"));
        const QStringList ssh = test::cliSshOptions(demo);
        const QString at = demo.user() + QLatin1Char('@') + demo.host() + QLatin1Char(':');
        const QStringList env { QStringLiteral("XDG_STATE_HOME=") + state.filePath(QStringLiteral("state")),
            QStringLiteral("HOME=") + state.filePath(QStringLiteral("home")) };
        auto run = [&](const QString& action, const QString& root) {
            return test::runCli(
                QStringList { QStringLiteral("patch"), action, QStringLiteral("--set"),
                    QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), at + root }
                    + ssh,
                120000, env);
        };
        const auto apply = run(QStringLiteral("apply"), QStringLiteral("sk/"));
        QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
        QVERIFY2(apply.out.contains(QByteArray(":" + real.toUtf8() + "\n")), apply.out.constData());
        const auto rollback = run(QStringLiteral("rollback"), real);
        QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
        QCOMPARE(rollback.out.count("[rolled back]"), 2);
        QCOMPARE(test::readFile(project + QStringLiteral("/CMakeLists.txt")), original);
        const auto nothing = run(QStringLiteral("rollback"), QStringLiteral("~/sk"));
        QCOMPARE(nothing.exitCode, 1);
        QVERIFY2(nothing.err.contains("nothing to roll back"), nothing.err.constData());
        QVERIFY2(nothing.err.contains(QByteArray(":" + real.toUtf8() + "\n")), nothing.err.constData());
        QCOMPARE(nothing.err.trimmed().count('\n'), 0);
    }

    // Paths the CLI prints from what the user typed come out clean: "./a/../b/" is "b" and
    // "build//x/" is "build/x", in a local error, a job's folder and a server's root.
    void pathsArePrintedClean()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir state;
        const QStringList env { QStringLiteral("XDG_STATE_HOME=") + state.filePath(QStringLiteral("state")),
            QStringLiteral("XDG_CONFIG_HOME=") + state.filePath(QStringLiteral("config")),
            QStringLiteral("XDG_CACHE_HOME=") + state.filePath(QStringLiteral("cache")),
            QStringLiteral("HOME=") + state.filePath(QStringLiteral("home")) };
        QDir().mkpath(state.filePath(QStringLiteral("home/build/x")));

        // A local root that is not there: the error names it clean.
        const QString messy = state.path() + QStringLiteral("/./a/../no-such-root//");
        const auto plan
            = test::runCli({ QStringLiteral("patch"), QStringLiteral("plan"), QStringLiteral("--set"),
                               QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), messy },
                60000, env);
        QVERIFY2(plan.exitCode != 0, plan.out.constData());
        QVERIFY2(plan.err.contains((state.path() + QStringLiteral("/no-such-root")).toUtf8()), plan.err.constData());
        QVERIFY2(
            !plan.err.contains("/./") && !plan.err.contains("/../") && !plan.err.contains("//"), plan.err.constData());

        // A job's folder, as `build start --json` reports it.
        const auto start = test::runCli(
            { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"), QStringLiteral("--json"),
                QStringLiteral("--command"), QStringLiteral("true"), QStringLiteral("--dir"),
                state.filePath(QStringLiteral("home")) + QStringLiteral("/build//x/"), QStringLiteral("--job-root"),
                state.filePath(QStringLiteral("jobs")) + QStringLiteral("/./") },
            60000, env);
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QJsonObject started = QJsonDocument::fromJson(start.out.trimmed()).object();
        QCOMPARE(started.value(QStringLiteral("dir")).toString(), state.filePath(QStringLiteral("home/build/x")));

        // A server's root that is not there, typed as ./sgl-kernel/../no-such//: named clean.
        const auto remote = test::runCli(
            QStringList { QStringLiteral("patch"), QStringLiteral("plan"), QStringLiteral("--set"),
                QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"),
                demo.user() + QLatin1Char('@') + demo.host() + QStringLiteral(":./sgl-kernel/../no-such//") }
                << QStringLiteral("-p") << QString::number(demo.port()) << QStringLiteral("-i") << demo.clientKeyPath()
                << QStringLiteral("--known-hosts") << demo.knownHostsPath(),
            120000, env);
        QVERIFY2(remote.exitCode != 0, remote.out.constData());
        QVERIFY2(remote.err.contains("no-such") && !remote.err.contains("sgl-kernel/..") && !remote.err.contains("//"),
            remote.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliPaths)
#include "tst_cli_paths.moc"
