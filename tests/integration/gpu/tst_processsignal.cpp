// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Signalling a listed GPU process over a real sshd: the list carries each process' start time,
// and a signal goes only to the pid that still has it. A pid that now names another process
// (the listed one ended, the pid was reused) is left alone, whatever the user confirmed.
#include "core/gpu/gpuprocesses.h"
#include "core/gpu/processsignal.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {

// Field 22 of /proc/PID/stat on this machine (the demo sshd's processes are this machine's).
qint64 startTicks(qint64 pid)
{
    const QByteArray stat = test::readFile(QStringLiteral("/proc/%1/stat").arg(pid));
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(") ") + 2).split(' ');
    return fields.size() >= 20 ? fields.at(19).toLongLong() : -1;
}

} // namespace

class TestProcessSignal : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void signalsOnlyTheListedProcess()
    {
        kf::DemoHost::Options withWorkers; // a worker on every GPU, no server needed
        withWorkers.standingGpuWorkers = true;
        KF_START_DEMO_HOST(demo, withWorkers);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        Transport& t = *connected.value();
        const auto listed = listGpuProcesses(t);
        QVERIFY2(listed, qPrintable(listed.error()));
        QVERIFY(!listed->processes.isEmpty());
        const GpuProcess p = listed->processes.first();
        QVERIFY(p.startTicks > 0);
        QCOMPARE(p.startTicks, startTicks(p.pid));

        // The pid with another start time: a reused pid. Nothing is sent; it runs on.
        const SignalResult other = signalProcess(t, p.pid, QStringLiteral("TERM"), p.startTicks + 1);
        QCOMPARE(other.outcome, SignalOutcome::Gone);
        QVERIFY2(other.message.contains(QStringLiteral("nothing sent")), qPrintable(other.message));
        QVERIFY(!test::processGone(p.pid));
        QCOMPARE(signalProcess(t, p.pid, QStringLiteral("0"), p.startTicks + 1).outcome, SignalOutcome::Gone);

        // The listed one itself.
        QCOMPARE(signalProcess(t, p.pid, QStringLiteral("0"), p.startTicks).outcome, SignalOutcome::Signalled);
        const SignalResult sent = signalProcess(t, p.pid, QStringLiteral("TERM"), p.startTicks);
        QCOMPARE(sent.outcome, SignalOutcome::Signalled);
        QTRY_VERIFY_WITH_TIMEOUT(test::processGone(p.pid), 30000);
    }
};

QTEST_GUILESS_MAIN(TestProcessSignal)
#include "tst_processsignal.moc"
