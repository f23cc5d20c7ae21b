// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `gpu processes` and `gpu kill` against the demo sshd, whose nvidia-smi lists one real worker
// process of the SSH user per GPU.
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

class TestCliGpuProcs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void usageErrorsExitTwo()
    {
        const QList<QStringList> bad = {
            { QStringLiteral("gpu"), QStringLiteral("kill") },
            { QStringLiteral("gpu"), QStringLiteral("kill"), QStringLiteral("1"), QStringLiteral("--local") },
            { QStringLiteral("gpu"), QStringLiteral("kill"), QStringLiteral("abc"), QStringLiteral("--local") },
            { QStringLiteral("gpu"), QStringLiteral("kill"), QStringLiteral("4100"), QStringLiteral("--signal"),
                QStringLiteral("HUP"), QStringLiteral("--local") },
            { QStringLiteral("gpu"), QStringLiteral("kill"), QStringLiteral("4100"), QStringLiteral("--signal") },
            { QStringLiteral("gpu"), QStringLiteral("processes"), QStringLiteral("--bogus"),
                QStringLiteral("--local") },
            { QStringLiteral("gpu"), QStringLiteral("processes"), QStringLiteral("--gpu"), QStringLiteral("x"),
                QStringLiteral("--local") },
        };
        for (const QStringList& args : bad) {
            const auto r = kf::test::runCli(args, 30000);
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(r.err)));
            QVERIFY(r.out.isEmpty());
        }
    }

    void listAndKillOverTheDemoSshd()
    {
        kf::DemoHost::Options withWorkers; // a worker on every GPU, no server needed
        withWorkers.standingGpuWorkers = true;
        KF_START_DEMO_HOST(demo, withWorkers);
        auto r = kf::test::runCli(
            QStringList { QStringLiteral("gpu"), QStringLiteral("processes") } + kf::test::cliSshTarget(demo));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 8);
        QVERIFY2(lines[0].simplified() == "GPU PID USER GPU MEM SM% CPU% RSS COMMAND", lines[0].constData());
        // Aligned: every row's PID starts where the header's does.
        const qsizetype pidColumn = lines[0].indexOf("PID");
        for (int i = 1; i <= 8; ++i) {
            QVERIFY2(lines[i].startsWith(QByteArray(QByteArray::number(i - 1) + ' ')), lines[i].constData());
            QVERIFY(lines[i].at(pidColumn) != ' ');
            QVERIFY(lines[i].at(pidColumn - 1) == ' ');
            QVERIFY2(lines[i].contains(QByteArray("sglang-demo-worker --tp-rank " + QByteArray::number(i - 1))),
                lines[i].constData());
            QVERIFY(lines[i].contains(demo.user().toUtf8()));
        }

        r = kf::test::runCli(QStringList { QStringLiteral("gpu"), QStringLiteral("processes"), QStringLiteral("--json"),
                                 QStringLiteral("--gpu"), QStringLiteral("1") }
            + kf::test::cliSshTarget(demo));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o.value(QStringLiteral("sm_known")).toBool());
        const QJsonArray processes = o.value(QStringLiteral("processes")).toArray();
        QCOMPARE(processes.size(), 1);
        const QJsonObject p = processes.at(0).toObject();
        QCOMPARE(p.value(QStringLiteral("gpu")).toInt(), 1);
        QCOMPARE(p.value(QStringLiteral("user")).toString(), demo.user());
        QVERIFY(p.value(QStringLiteral("may_signal")).toBool());
        for (const char* key : { "gpu_memory_mib", "sm_pct", "cpu_pct", "rss_kib" })
            QVERIFY2(p.value(QLatin1String(key)).isDouble(), key);
        QVERIFY(p.value(QStringLiteral("command")).toString().contains(QStringLiteral("sglang-demo-worker")));
        const qint64 pid = p.value(QStringLiteral("pid")).toInteger();
        QVERIFY(!kf::test::processGone(pid));

        // Kill it (TERM): printed on stdout, really gone on the host.
        r = kf::test::runCli(QStringList { QStringLiteral("gpu"), QStringLiteral("kill"), QString::number(pid) }
            + kf::test::cliSshTarget(demo));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith(QByteArray("sent TERM to " + QByteArray::number(pid))), r.out.constData());
        QTRY_VERIFY_WITH_TIMEOUT(kf::test::processGone(pid), 30000);
        // Again: no longer a GPU process there.
        r = kf::test::runCli(QStringList { QStringLiteral("gpu"), QStringLiteral("kill"), QString::number(pid),
                                 QStringLiteral("--signal"), QStringLiteral("KILL") }
            + kf::test::cliSshTarget(demo));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is not a GPU process"), r.err.constData());
        // A process that is not on a GPU (sshd itself) is refused before any signal.
        r = kf::test::runCli(
            QStringList { QStringLiteral("gpu"), QStringLiteral("kill"), QString::number(demo.sshdPid()) }
            + kf::test::cliSshTarget(demo));
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!kf::test::processGone(demo.sshdPid()));
    }
};

QTEST_GUILESS_MAIN(TestCliGpuProcs)
#include "tst_cli_gpuprocs.moc"
