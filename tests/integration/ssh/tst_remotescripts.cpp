// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// What KernelForge sends to a server's shell, on the demo host's real sshd: build secrets never
// on a command line, long commands sent once (or refused clearly), exec output capped.
#include "core/jobs/remotejob.h"
#include "core/ssh/execop.h"
#include "core/ssh/sshtransport.h"
#include "core/util/loginshell.h"
#include "core/util/procfs.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QtTest>

using namespace kf;

namespace {

// Every process's argv on this machine (the demo server is this machine), NULs as spaces.
QByteArray allCommandLines()
{
    QByteArray all;
    for (const qint64 pid : procfs::processIds()) {
        QByteArray c = test::readFile(QStringLiteral("/proc/%1/cmdline").arg(pid));
        c.replace('\0', ' ');
        all += c + '\n';
    }
    return all;
}

} // namespace

class TestRemoteScripts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void buildSecretsNeverReachACommandLine()
    {
        KF_START_DEMO_HOST(demo);
        // The start script calls setsid while it runs: this one records every process's argv
        // at that moment (the starting shells are all alive then), then runs the real one.
        QFile hook(demo.binDir() + QStringLiteral("/setsid"));
        QVERIFY(hook.open(QIODevice::WriteOnly));
        hook.write("#!/bin/sh\nfor f in /proc/[0-9]*/cmdline; do tr '\\000' ' ' < \"$f\"; echo; done "
                   "> \"$HOME/argv-at-start\" 2>/dev/null\nexec /usr/bin/setsid \"$@\"\n");
        hook.close();
        QFile::setPermissions(hook.fileName(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        auto transport = SshTransport::connect(demo.profile());
        QVERIFY2(transport, qPrintable(transport.error()));
        const QByteArray token = "hf_" + QByteArray::number(QRandomGenerator::global()->generate64(), 16)
            + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
        JobSpec job;
        job.name = QStringLiteral("secret");
        job.command = QStringLiteral("printf '%s' \"$HF_TOKEN\" > seen-token; sleep 6031");
        job.env.insert(QStringLiteral("HF_TOKEN"), QString::fromLatin1(token));
        const auto started = RemoteJob::start(**transport, job);
        QVERIFY2(started, qPrintable(started.error()));

        // The job sees the value...
        const QString seen = demo.homeDir() + QStringLiteral("/seen-token");
        QTRY_COMPARE_WITH_TIMEOUT(test::readFile(seen), token, 30000);
        // ...which was on no command line while the job started, nor is while it runs.
        const QByteArray atStart = test::readFile(demo.homeDir() + QStringLiteral("/argv-at-start"));
        QVERIFY2(atStart.contains("setsid"), atStart.constData()); // the hook ran
        QVERIFY(!atStart.contains(token));
        QVERIFY(!allCommandLines().contains(token));
        // The file that carried it is gone; the job folder is the user's alone.
        const QString dir = demo.homeDir() + QStringLiteral("/.cache/kernelforge/jobs/") + started->id;
        QVERIFY(!QFile::exists(dir + QStringLiteral("/env")));
        QCOMPARE(QFileInfo(dir).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());
        QVERIFY(!demo.sshdLog().contains(QString::fromLatin1(token)));

        QVERIFY(RemoteJob::cancel(**transport, started->id));

        // Values are exported exactly (quotes, backslash, $ and a trailing newline).
        JobSpec quoted;
        quoted.command = QStringLiteral("printf '%s' \"$QUOTED\" > seen-quoted");
        quoted.env.insert(QStringLiteral("QUOTED"), QStringLiteral("it's \"x\" \\ $HOME\n"));
        QVERIFY(RemoteJob::start(**transport, quoted));
        QTRY_COMPARE_WITH_TIMEOUT(test::readFile(demo.homeDir() + QStringLiteral("/seen-quoted")),
            QByteArray("it's \"x\" \\ $HOME\n"), 30000);

        // exec() env travels the same way: on stdin, not the command line.
        CommandSpec env;
        env.command = QStringLiteral("printf '%s' \"$HF_TOKEN\"; cat");
        env.env.insert(QStringLiteral("HF_TOKEN"), QString::fromLatin1(token));
        env.stdinData = "and stdin\n";
        const ExecResult r = (*transport)->exec(env, 30000);
        QVERIFY2(r.ok(), qPrintable(r.error + QString::fromUtf8(r.stdErr)));
        QCOMPARE(r.stdOut, token + "and stdin\n");
        QVERIFY(!SshTransport::remoteCommand(env, {}).contains(token));
    }

    void longCommandsTravelOnceOrAreRefusedClearly()
    {
        KF_START_DEMO_HOST(demo);
        auto transport = SshTransport::connect(demo.profile());
        QVERIFY2(transport, qPrintable(transport.error()));
        // 480 quotes in 965 bytes: four nesting levels made this ~58 KB (libssh2 error -34).
        QString cmd = QStringLiteral("printf '%s\\n'");
        while (cmd.size() < 960)
            cmd += QStringLiteral(" 'x'");
        cmd = cmd.left(960) + QStringLiteral(" >/dev/null");
        QVERIFY(cmd.count(QLatin1Char('\'')) >= 470);
        JobSpec job;
        job.command = cmd;
        const auto started = RemoteJob::start(**transport, job);
        QVERIFY2(started, qPrintable(started.error()));
        QCOMPARE(test::readFile(demo.homeDir() + QStringLiteral("/.cache/kernelforge/jobs/") + started->id
                     + QStringLiteral("/cmd")),
            cmd.toUtf8() + '\n');

        // Too long for one SSH request: a clear refusal, before anything runs.
        JobSpec huge;
        huge.command = QStringLiteral("touch ran-anyway; : ") + QString(40000, QLatin1Char('\''));
        const auto refused = RemoteJob::start(**transport, huge);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1String("command too long")), qPrintable(refused.error()));
        QVERIFY(!QFile::exists(demo.homeDir() + QStringLiteral("/ran-anyway")));
        // Just under the limit still goes (the line's length does not depend on the pid nonce).
        for (int i = 0; i < 256; ++i)
            QCOMPARE(ssh::newPidMarker().size(), ssh::newPidMarker().size());
        CommandSpec edge;
        edge.command = QStringLiteral("echo ok #");
        const qsizetype room = loginshellRoom(edge);
        edge.command += QString(room, QLatin1Char('y'));
        const ExecResult fits = (*transport)->exec(edge, 30000);
        QVERIFY2(fits.ok(), qPrintable(fits.error));
        QCOMPARE(fits.stdOut, QByteArray("ok\n"));
        edge.command += QLatin1Char('y');
        const ExecResult over = (*transport)->exec(edge, 30000);
        QVERIFY(over.error.contains(QLatin1String("command too long")));
    }

    void execOutputIsCapped()
    {
        KF_START_DEMO_HOST(demo);
        auto transport = SshTransport::connect(demo.profile());
        QVERIFY2(transport, qPrintable(transport.error()));
        CommandSpec flood;
        flood.command = QStringLiteral("while :; do printf '%01000d\\n' 0; done");
        flood.maxOutputBytes = 3 * 1024 * 1024;
        const ExecResult r = (*transport)->exec(flood, 120000);
        QCOMPARE(r.error, outputCapError(flood.maxOutputBytes));
        QVERIFY(r.stdOut.size() <= flood.maxOutputBytes);
        // The flood was stopped, not left running.
        CommandSpec ps;
        ps.command = QStringLiteral("pgrep -f '%01000[d]' || true");
        QTRY_COMPARE_WITH_TIMEOUT((*transport)->exec(ps, 30000).stdOut.trimmed(), QByteArray(), 30000);
    }

private:
    // Characters a command may still grow by and fit one exec request.
    static qsizetype loginshellRoom(const CommandSpec& spec)
    {
        const QByteArray line = SshTransport::remoteCommand(spec, ssh::newPidMarker());
        return loginshell::kMaxLineBytes - line.size();
    }
};

QTEST_GUILESS_MAIN(TestRemoteScripts)
#include "tst_remotescripts.moc"
