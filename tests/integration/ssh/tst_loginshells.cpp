// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Every remote feature under every login shell: real users with bash, dash, zsh, fish and tcsh
// (each with a login script that prints a banner on stderr) on the demo host's real sshd,
// driven through the real CLI and SshTransport.
#include "core/jobs/remotejob.h"
#include "core/server/serverlaunchprofile.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

struct Shell
{
    QString name;
    QString path;
    QString rcFile; // relative to HOME; empty: the shell reads none for `-c`
    QByteArray rc;  // prints the banner on stderr
    QByteArray banner;
};

QList<Shell> shells()
{
    return {
        { QStringLiteral("bash"), QStringLiteral("/bin/bash"), QStringLiteral(".bashrc"), "echo 'bash banner' >&2\n",
            "bash banner\n" },
        { QStringLiteral("dash"), QStringLiteral("/bin/dash"), {}, {}, {} },
        { QStringLiteral("zsh"), QStringLiteral("/usr/bin/zsh"), QStringLiteral(".zshenv"), "echo 'zsh banner' >&2\n",
            "zsh banner\n" },
        { QStringLiteral("fish"), QStringLiteral("/usr/bin/fish"), QStringLiteral(".config/fish/config.fish"),
            "echo 'fish banner' >&2\n", "fish banner\n" },
        { QStringLiteral("tcsh"), QStringLiteral("/usr/bin/tcsh"), QStringLiteral(".tcshrc"),
            "sh -c 'echo tcsh banner >&2'\n", "tcsh banner\n" },
    };
}

QString userFor(const Shell& s)
{
    return QStringLiteral("kfsh-") + s.name;
}

QByteArray both(const test::ProcessOutput& r)
{
    return "stdout: " + r.out + "\nstderr: " + r.err;
}

} // namespace

class TestLoginShells : public QObject
{
    Q_OBJECT

    QTemporaryDir m_localHome; // the CLI's own HOME/XDG dirs (build history)

    QStringList cliEnv() const
    {
        return { QStringLiteral("HOME=") + m_localHome.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }
    static QStringList ssh(const DemoHost& demo)
    {
        return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"), demo.clientKeyPath(),
            QStringLiteral("--known-hosts"), demo.knownHostsPath() };
    }
    static QString dest(const DemoHost& demo) { return demo.user() + QStringLiteral("@127.0.0.1"); }
    test::ProcessOutput cli(const QStringList& args) const { return test::runCli(args, 120000, cliEnv()); }

private Q_SLOTS:
    void initTestCase()
    {
        if (!test::isRoot())
            QSKIP("login-shell tests create system users (useradd): run them as root (CI does)");
        for (const Shell& s : shells())
            QVERIFY2(QFile::exists(s.path), qPrintable(s.path + QStringLiteral(" missing: run scripts/bootstrap")));
    }

    void cleanupTestCase()
    {
        if (test::isRoot())
            for (const Shell& s : shells())
                test::removeSystemUser(userFor(s));
    }

    void everyFeature_data()
    {
        QTest::addColumn<int>("index");
        const auto all = shells();
        for (int i = 0; i < all.size(); ++i)
            QTest::newRow(qPrintable(all[i].name)) << i;
    }

    void everyFeature()
    {
        QFETCH(int, index);
        const Shell sh = shells().at(index);
        const QString user = userFor(sh);
        const QString made = test::ensureSystemUser(user, sh.path);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        DemoHost::Options options;
        options.user = user;
        KF_START_DEMO_HOST(demo, options);
        const QString home = demo.homeDir();
        if (!sh.rcFile.isEmpty()) {
            const QString rc = home + QLatin1Char('/') + sh.rcFile;
            QDir().mkpath(QFileInfo(rc).absolutePath());
            QFile f(rc);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(sh.rc);
        }
        QCOMPARE(
            test::runProgram(QStringLiteral("chown"), { QStringLiteral("-R"), user + QLatin1Char(':'), home }).exitCode,
            0);
        QDir().mkpath(home + QStringLiteral("/work"));
        test::runProgram(QStringLiteral("chown"), { user + QLatin1Char(':'), home + QStringLiteral("/work") });
        const QString passwdHome = QStringLiteral("/home/") + user;

        // exec: /bin/sh parses the command, byte for byte, whatever the login shell; the banner
        // stays, the pid marker never shows.
        const auto ex = cli(QStringList { QStringLiteral("exec") } + ssh(demo)
            + QStringList { dest(demo), QStringLiteral("--"),
                QStringLiteral("printf '%s|' 'a\\\\b' \"it's\" '\"q\"' '!x' '$HOME' 'tab\tx'; echo; echo err >&2; "
                               "exit 7") });
        QVERIFY2(ex.exitCode == 7, both(ex).constData());
        QCOMPARE(ex.out, QByteArray("a\\\\b|it's|\"q\"|!x|$HOME|tab\tx|\n"));
        QCOMPARE(ex.err, sh.banner + "err\n");

        // facts
        const auto facts = cli(
            QStringList { QStringLiteral("facts") } + ssh(demo) + QStringList { dest(demo), QStringLiteral("--json") });
        QVERIFY2(facts.exitCode == 0, both(facts).constData());
        QCOMPARE(QJsonDocument::fromJson(facts.out).object().value(QStringLiteral("gpus")).toArray().size(), 8);

        // build start / attach / list: the command runs as written, in its folder only.
        const QString buildCmd = QStringLiteral(
            "touch made-by-build\nprintf '%s\\n' \"it's \\\"quoted\\\" \\\\ ok\" 'a\\\\b' \"$HOME\"\nexit 3");
        const auto start
            = cli(QStringList { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--command"), buildCmd,
                      QStringLiteral("--dir"), QStringLiteral("~/work") }
                + ssh(demo) + QStringList { dest(demo) });
        QVERIFY2(start.exitCode == 0, both(start).constData());
        const QString id = QString::fromUtf8(start.out.trimmed());
        const auto attach = cli(QStringList { QStringLiteral("build"), QStringLiteral("attach"), id } + ssh(demo)
            + QStringList { dest(demo) });
        QVERIFY2(attach.exitCode == 3, both(attach).constData());
        QCOMPARE(attach.out, QByteArray("it's \"quoted\" \\ ok\na\\\\b\n") + QFile::encodeName(home) + '\n');
        QVERIFY(QFile::exists(home + QStringLiteral("/work/made-by-build")));
        QVERIFY(!QFile::exists(home + QStringLiteral("/made-by-build")));
        QVERIFY(!QFile::exists(passwdHome + QStringLiteral("/made-by-build")));
        const auto list = cli(
            QStringList { QStringLiteral("build"), QStringLiteral("list") } + ssh(demo) + QStringList { dest(demo) });
        QVERIFY2(list.exitCode == 0 && list.out.contains(id.toUtf8()), both(list).constData());

        // A build that cannot start (its job root is a file) runs no line of its command anywhere.
        QFile blocker(home + QStringLiteral("/not-a-folder"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const auto refused = cli(QStringList { QStringLiteral("build"), QStringLiteral("start"),
                                     QStringLiteral("--command"), QStringLiteral("touch must-not-exist\necho it's"),
                                     QStringLiteral("--job-root"), QStringLiteral("~/not-a-folder/jobs") }
            + ssh(demo) + QStringList { dest(demo) });
        QVERIFY2(refused.exitCode != 0, both(refused).constData());
        for (const QString& dir : QStringList { home, home + QStringLiteral("/work"), passwdHome })
            QVERIFY2(!QFile::exists(dir + QStringLiteral("/must-not-exist")), qPrintable(dir));

        // cancel
        const auto longStart = cli(QStringList { QStringLiteral("build"), QStringLiteral("start"),
                                       QStringLiteral("--command"), QStringLiteral("echo up; sleep 6021") }
            + ssh(demo) + QStringList { dest(demo) });
        QVERIFY2(longStart.exitCode == 0, both(longStart).constData());
        const QString longId = QString::fromUtf8(longStart.out.trimmed());
        const auto cancel = cli(QStringList { QStringLiteral("build"), QStringLiteral("cancel"), longId } + ssh(demo)
            + QStringList { dest(demo) });
        QVERIFY2(cancel.exitCode == 0, both(cancel).constData());
        const auto cancelled
            = cli(QStringList { QStringLiteral("build"), QStringLiteral("attach"), longId, QStringLiteral("--json") }
                + ssh(demo) + QStringList { dest(demo) });
        QVERIFY2(cancelled.out.contains("\"cancelled\":true"), both(cancelled).constData());

        // An id that names no job: said so at once, no reconnect loop.
        for (const QString& bad : { QString(), QStringLiteral("20260101-000000-dead") }) {
            const auto none = cli(QStringList { QStringLiteral("build"), QStringLiteral("attach"), bad } + ssh(demo)
                + QStringList { dest(demo) });
            QVERIFY2(!none.crashed && none.exitCode == 1 && none.err.contains("no such job"), both(none).constData());
        }

        // patch apply
        const QStringList set { QStringLiteral("--set"), QStringLiteral("builtin:sgl-kernel-sm120-cuda13"),
            QStringLiteral("--root"), dest(demo) + QStringLiteral(":sgl-kernel") };
        const auto apply = cli(QStringList { QStringLiteral("patch"), QStringLiteral("apply") } + set + ssh(demo));
        QVERIFY2(apply.exitCode == 0, both(apply).constData());

        // server launch (what the Server pane starts), seen healthy through the CLI's tunnel
        auto transport = SshTransport::connect(demo.profile());
        QVERIFY2(transport, qPrintable(transport.error()));
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        ServerLaunchProfile server = ServerLaunchProfile::demoProfile();
        server.port = port;
        JobSpec job;
        job.name = QStringLiteral("sglang-server");
        job.command = server.command();
        const auto launched = RemoteJob::start(**transport, job);
        QVERIFY2(launched, qPrintable(launched.error()));
        QTRY_VERIFY_WITH_TIMEOUT(cli(QStringList { QStringLiteral("server"), QStringLiteral("status") } + ssh(demo)
                                     + QStringList { dest(demo), QStringLiteral("--port"), QString::number(port) })
                                     .exitCode
                == 0,
            60000);
        QVERIFY(RemoteJob::cancel(**transport, launched->id));

        // The pid marker survives the banner, so cancel reaches the process group.
        CommandSpec spec;
        spec.command = QStringLiteral("echo started; echo own-stderr >&2; sleep 6011");
        auto p = (*transport)->start(spec);
        QByteArray out, err;
        std::optional<ProcessExit> exit;
        connect(p.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& c) { out += c; });
        connect(p.get(), &ProcessHandle::stderrReceived, this, [&](const QByteArray& c) { err += c; });
        connect(p.get(), &ProcessHandle::finished, this, [&](const ProcessExit& e) { exit = e; });
        QTRY_COMPARE_WITH_TIMEOUT(out, QByteArray("started\n"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(err, sh.banner + "own-stderr\n", 30000);
        p->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(exit.has_value(), 30000);
        CommandSpec ps;
        ps.command = QStringLiteral("pgrep -f 'slee[p] 6011' || true");
        QTRY_COMPARE_WITH_TIMEOUT((*transport)->exec(ps, 30000).stdOut.trimmed(), QByteArray(), 30000);
        QVERIFY(!err.contains("KFPID"));
    }

    // A login script that prints without end (here 300 MB) must not exhaust `facts`: it stops
    // at its cap and says so.
    void factsStopAtTheOutputCap()
    {
        const Shell sh = shells().at(0); // bash: ~/.bashrc runs for every ssh command
        const QString user = userFor(sh);
        const QString made = test::ensureSystemUser(user, sh.path);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        DemoHost::Options options;
        options.user = user;
        KF_START_DEMO_HOST(demo, options);
        QFile rc(demo.homeDir() + QStringLiteral("/.bashrc"));
        QVERIFY(rc.open(QIODevice::WriteOnly));
        rc.write("head -c 300000000 /dev/zero\n");
        rc.close();
        const auto facts = cli(QStringList { QStringLiteral("facts") } + ssh(demo) + QStringList { dest(demo) });
        QVERIFY2(!facts.crashed && facts.exitCode != 0, both(facts).right(2000).constData());
        QVERIFY2(facts.err.contains("output exceeds 1 MiB: stopped reading"), facts.err.constData());
        QVERIFY(facts.out.size() < 2 * 1024 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestLoginShells)
#include "tst_loginshells.moc"
