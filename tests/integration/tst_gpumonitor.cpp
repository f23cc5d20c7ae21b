// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// GpuMonitor end to end against the replaying nvidia-smi (resources/demo/bin): over
// LocalTransport with the script on PATH, and over the real sshd of the demo host (whose bin
// dir is on the remote PATH), where the stream must survive dropped connections.
#include "core/monitor/gpumonitor.h"
#include "core/transport/localtransport.h"
#include "core/transport/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QSignalSpy>
#include <QtTest>

using namespace kf;

class TestGpuMonitor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // The replaying nvidia-smi first on PATH, as the demo host does remotely.
        qputenv("PATH", QByteArray(KF_SOURCE_DIR "/resources/demo/bin:") + qgetenv("PATH"));
        qRegisterMetaType<QList<kf::GpuSample>>();
    }

    void eightGpusAtOneHertzWithProcesses()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 1000;
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        QSignalSpy blocks(&monitor, &GpuMonitor::samplesUpdated);
        QSignalSpy processes(&monitor, &GpuMonitor::processesUpdated);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(blocks.size() >= 3, 30000);
        QCOMPARE(monitor.state(), GpuMonitor::State::Streaming);
        QVERIFY2(monitor.fields().missing.isEmpty(), qPrintable(monitor.fields().missing.join(u',')));
        QVERIFY(monitor.streamCommand().contains(QStringLiteral("-lms 1000")));
        const auto gpus = monitor.latest();
        QCOMPARE(gpus.size(), 8);
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(gpus[i].index, i);
            QCOMPARE(gpus[i].name, QStringLiteral("NVIDIA H200"));
            QCOMPARE(gpus[i].memTotalMiB, 143771.0);
            QVERIFY(hasValue(gpus[i].utilGpu));
            QVERIFY(hasValue(gpus[i].powerW));
            QVERIFY(gpus[i].hasReasons);
        }
        // One block per second: three blocks took at least ~2 s of stream time.
        const auto* util0 = monitor.history().series(0, GpuMetric::Utilization);
        QVERIFY(util0);
        QVERIFY(util0->levelSize(0) >= 3);
        const auto t = util0->points(0, 0, std::numeric_limits<qint64>::max());
        const qint64 spacing = t.back().t - t[t.size() - 2].t;
        QVERIFY2(spacing > 500 && spacing < 2500, qPrintable(QString::number(spacing)));
        // The replay runs a process on every loaded GPU; processes join GPUs by uuid.
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.processes().isEmpty(), 30000);
        for (const auto& p : monitor.processes()) {
            QVERIFY(p.gpuIndex >= 0);
            QCOMPARE(p.name, QStringLiteral("python3"));
        }
        const QByteArray csv = monitor.history().toCsv(0, std::numeric_limits<qint64>::max());
        QVERIFY(csv.startsWith("time,gpu,utilization_pct,memory_used_pct,temperature_c,power_w,sm_clock_mhz"));
        QVERIFY(csv.count('\n') >= 1 + 8 * 3);
        monitor.stop();
        QCOMPARE(monitor.state(), GpuMonitor::State::Stopped);
    }

    void overSshdSurvivesDroppedConnections()
    {
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        std::shared_ptr<Transport> transport = connected.value();
        GpuMonitor::Options options;
        options.processIntervalMs = 1000;
        GpuMonitor monitor(transport, QStringLiteral("demo"), options);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= 3, 60000);
        QCOMPARE(monitor.latest().size(), 8);
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.processes().isEmpty(), 60000);
        // Kill every sshd session: the transport reconnects and the stream resumes (or, if the
        // process ended, the monitor restarts it); samples keep coming either way.
        for (int round = 0; round < 2; ++round) {
            QVERIFY(demo.dropConnections() > 0);
            const qint64 before = monitor.blocks();
            QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= before + 3, 90000);
            QCOMPARE(monitor.latest().size(), 8);
        }
        QVERIFY(monitor.resumes() + monitor.restarts() >= 1);
        monitor.stop();
    }

    void restartsWhenNvidiaSmiExits()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.intervalMs = 200;
        options.env.insert(QStringLiteral("KF_DEMO_EXIT_AFTER"), QStringLiteral("2"));
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        QSignalSpy raised(&monitor, &GpuMonitor::alertRaised);
        QSignalSpy cleared(&monitor, &GpuMonitor::alertCleared);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.restarts() >= 1, 30000);
        const qint64 before = monitor.blocks();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() > before, 30000);
        // The exit (status 15, "GPU is lost") was an alert and cleared when samples came back.
        bool sawFailure = false;
        for (const auto& args : raised)
            sawFailure |= args.at(0).value<Alert>().kind == AlertKind::SmiFailure;
        QVERIFY(sawFailure);
        QTRY_VERIFY_WITH_TIMEOUT(!cleared.isEmpty(), 30000);
        monitor.stop();
    }

    void nvmlMismatchIsAnAlert()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.env.insert(QStringLiteral("KF_DEMO_NVML_FAIL"), QStringLiteral("1"));
        GpuMonitor monitor(transport, QStringLiteral("gpu1"), options);
        QSignalSpy raised(&monitor, &GpuMonitor::alertRaised);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(!raised.isEmpty(), 30000);
        const Alert a = raised.first().at(0).value<Alert>();
        QCOMPARE(a.kind, AlertKind::SmiFailure);
        QVERIFY(a.critical);
        QCOMPARE(a.message, QStringLiteral("gpu1: Failed to initialize NVML: Driver/library version mismatch"));
        QCOMPARE(monitor.state(), GpuMonitor::State::Restarting);
        monitor.stop();
    }

    void hotGpuRaisesAndRulesChange()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_HOT_GPU"), QStringLiteral("1"));
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        QSignalSpy raised(&monitor, &GpuMonitor::alertRaised);
        QSignalSpy cleared(&monitor, &GpuMonitor::alertCleared);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= 1, 30000);
        QSet<int> kinds;
        for (const auto& a : monitor.activeAlerts()) {
            QCOMPARE(a.gpu, 1);
            kinds.insert(int(a.kind));
        }
        QVERIFY(kinds.contains(int(AlertKind::GpuTemperature)));
        QVERIFY(kinds.contains(int(AlertKind::Thermal)));
        QVERIFY(kinds.contains(int(AlertKind::EccErrors)));
        // The user raises the temperature limit above 92 C: that alert clears at once.
        AlertRules rules = monitor.alertRules();
        rules.gpuTempC = 99;
        monitor.setAlertRules(rules);
        QVERIFY(!cleared.isEmpty());
        QCOMPARE(cleared.last().at(0).value<Alert>().kind, AlertKind::GpuTemperature);
        monitor.stop();
    }
};

QTEST_GUILESS_MAIN(TestGpuMonitor)
#include "tst_gpumonitor.moc"
