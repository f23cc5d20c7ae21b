// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// GpuMonitor end to end against the replaying nvidia-smi (resources/demo/bin): over
// LocalTransport with the script on PATH, and over the real sshd of the demo host (whose bin
// dir is on the remote PATH), where the stream must survive dropped connections with
// nothing lost twice or duplicated: per GPU, sample timestamps strictly increase, repeated
// ones are dropped, and the outage is an explicit gap in the history.
#include "core/gpu/gpumonitor.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace kf;

namespace {

// Per GPU: every timestamp delivered, in order of delivery.
struct SampleLog
{
    QHash<int, QList<qint64>> times;
    void add(const QList<GpuSample>& gpus)
    {
        for (const auto& g : gpus)
            times[g.index].append(g.timeMs);
    }
    // Empty when every GPU's timestamps are non-zero and strictly increasing.
    QString problem() const
    {
        for (auto it = times.cbegin(); it != times.cend(); ++it) {
            for (int i = 0; i < it->size(); ++i) {
                if (it->at(i) == 0)
                    return QStringLiteral("GPU %1: sample %2 has no timestamp").arg(it.key()).arg(i);
                if (i > 0 && it->at(i) <= it->at(i - 1))
                    return QStringLiteral("GPU %1: sample %2 at %3 after %4 (duplicate or out of order)")
                        .arg(it.key())
                        .arg(i)
                        .arg(it->at(i))
                        .arg(it->at(i - 1));
            }
        }
        return {};
    }
};

// The history of one GPU's utilization across a recorded gap: raw times strictly increase,
// exactly one NaN marker sits right after the gap's start, and a chart's decimation of the
// window keeps it as a gap.
QString checkHistoryGap(const GpuMonitor& monitor, int gpu, const GpuMonitor::Gap& gap)
{
    const SeriesBuffer* s = monitor.history().series(gpu, GpuField::UtilGpu);
    if (!s)
        return QStringLiteral("no history for GPU %1").arg(gpu);
    const auto raw = s->points(0, 0, std::numeric_limits<qint64>::max());
    int markers = 0;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (i > 0 && raw[i].t <= raw[i - 1].t)
            return QStringLiteral("history of GPU %1 not strictly increasing at %2").arg(gpu).arg(i);
        if (std::isnan(raw[i].min)) {
            // (A block torn by the drop may lack this GPU: its neighbours are then further out.)
            if (raw[i].t == gap.fromMs + 1 && i > 0 && i + 1 < raw.size() && raw[i - 1].t <= gap.fromMs
                && raw[i + 1].t >= gap.toMs)
                ++markers;
            else if (raw[i].t > gap.fromMs && raw[i].t < gap.toMs)
                return QStringLiteral("a stray NaN at %1").arg(raw[i].t);
        }
    }
    if (markers != 1)
        return QStringLiteral("GPU %1: %2 gap markers between %3 and %4")
            .arg(gpu)
            .arg(markers)
            .arg(gap.fromMs)
            .arg(gap.toMs);
    const auto drawn = s->decimated(gap.fromMs - 60000, gap.toMs + 60000, 2000);
    const bool broken = std::any_of(drawn.cbegin(), drawn.cend(),
        [&](const QPointF& p) { return std::isnan(p.y()) && p.x() > gap.fromMs && p.x() < gap.toMs; });
    return broken ? QString() : QStringLiteral("the decimated series joins across the gap");
}

} // namespace

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
            QCOMPARE(gpus[i].text(GpuField::Name), QStringLiteral("NVIDIA H200"));
            QCOMPARE(gpus[i].value(GpuField::MemTotal), 143771.0);
            QVERIFY(hasValue(gpus[i].value(GpuField::UtilGpu)));
            QVERIFY(hasValue(gpus[i].value(GpuField::PowerDraw)));
            QVERIFY(gpus[i].hasReasons);
        }
        // One block per second: three blocks took at least ~2 s of stream time.
        const auto* util0 = monitor.history().series(0, GpuField::UtilGpu);
        QVERIFY(util0);
        QVERIFY(util0->levelSize(0) >= 3);
        const auto t = util0->points(0, 0, std::numeric_limits<qint64>::max());
        const qint64 spacing = t.back().t - t[t.size() - 2].t;
        // -lms 1000, not the default 5 s (the upper bound leaves room for a starved machine).
        QVERIFY2(spacing > 500 && spacing < 4500, qPrintable(QString::number(spacing)));
        const QByteArray csv = monitor.history().toCsv(0, std::numeric_limits<qint64>::max());
        QVERIFY(csv.startsWith("time,gpu,utilization_pct,memory_used_pct,temperature_c,power_w,sm_clock_mhz"));
        QVERIFY(csv.count('\n') >= 1 + 8 * 3);
        monitor.stop();
        QCOMPARE(monitor.state(), GpuMonitor::State::Stopped);
    }

    // The replay runs a made-up process on every GPU that has memory in use (asked for with
    // KF_DEMO_MADE_UP_PROCESSES); processes join GPUs by uuid. All eight GPUs idle for 42 s of every 150 s cycle, so
    // the load pattern runs 50x faster here: a poll finds processes within a second or two whenever the test starts.
    void processesJoinGpusByUuid()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 500;
        options.env.insert(QStringLiteral("KF_DEMO_TIME_SCALE"), QStringLiteral("50"));
        options.env.insert(QStringLiteral("KF_DEMO_MADE_UP_PROCESSES"), QStringLiteral("1"));
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        monitor.start();
        QTRY_COMPARE_WITH_TIMEOUT(monitor.latest().size(), 8, 60000);
        // The first poll may come before the first samples: its processes have no GPU yet.
        const auto joined = [&] {
            const auto ps = monitor.processes();
            return !ps.isEmpty() && std::all_of(ps.begin(), ps.end(), [](const auto& p) { return p.gpuIndex >= 0; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(joined(), 60000);
        for (const auto& p : monitor.processes()) {
            QVERIFY(p.gpuIndex < 8);
            QCOMPARE(p.name, QStringLiteral("python3"));
            QCOMPARE(p.pid, qint64(4100 + p.gpuIndex)); // the replay's pid for that GPU
        }
        monitor.stop();
    }

    void overSshdSurvivesDroppedConnections()
    {
        kf::DemoHost::Options withWorkers; // a worker on every GPU, no server needed
        withWorkers.standingGpuWorkers = true;
        KF_START_DEMO_HOST(demo, withWorkers);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        std::shared_ptr<Transport> transport = connected.value();
        GpuMonitor::Options options;
        options.processIntervalMs = 1000;
        GpuMonitor monitor(transport, QStringLiteral("demo"), options);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= 3, 60000);
        QCOMPARE(monitor.latest().size(), 8);
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.processes().isEmpty(), 90000); // the standing workers
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

    // A relay in front of nvidia-smi repeats the tail of the previous run when it starts
    // again (as a log-following wrapper does after a reconnect): the repeated samples carry
    // timestamps already seen and must be dropped; the restart is a gap.
    void repeatedSamplesAfterRestartAreDropped()
    {
        QTemporaryDir dir;
        const QString relay = dir.filePath(QStringLiteral("relay-nvidia-smi"));
        {
            QFile f(relay);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#!/bin/sh\n"
                    "case \" $* \" in\n"
                    "*\" -lms \"*)\n"
                    "  [ -f \"$KF_RELAY_LOG\" ] && tail -n 6 \"$KF_RELAY_LOG\"\n"
                    "  nvidia-smi \"$@\" | tee -a \"$KF_RELAY_LOG\" ;;\n"
                    "*) exec nvidia-smi \"$@\" ;;\n"
                    "esac\n");
            f.close();
            QVERIFY(f.setPermissions(f.permissions() | QFile::ExeOwner));
        }
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.nvidiaSmi = relay;
        options.processIntervalMs = 0;
        options.intervalMs = 200;
        options.env.insert(QStringLiteral("KF_DEMO_EXIT_AFTER"), QStringLiteral("4"));
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        options.env.insert(QStringLiteral("KF_RELAY_LOG"), dir.filePath(QStringLiteral("stream.log")));
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        SampleLog log;
        connect(&monitor, &GpuMonitor::samplesUpdated, this, [&](const QList<GpuSample>& gpus) { log.add(gpus); });
        monitor.start();
        // Two runs of 4 blocks; the second starts with the first's last 3 blocks again.
        QTRY_VERIFY_WITH_TIMEOUT(monitor.restarts() >= 2 && monitor.blocks() >= 7, 60000);
        QVERIFY(monitor.streamCommand().startsWith(QStringLiteral("%1 --query-gpu=timestamp,index,").arg(relay)));
        QCOMPARE(monitor.duplicatesDropped(), 6);
        QVERIFY2(log.problem().isEmpty(), qPrintable(log.problem()));
        QCOMPARE(log.times.value(0).size(), log.times.value(1).size());
        // Sample times are the server's clock mapped to the epoch: close to ours here.
        QVERIFY(qAbs(monitor.latestTimeMs() - QDateTime::currentMSecsSinceEpoch()) < 60000);
        QVERIFY(!monitor.gaps().isEmpty());
        const GpuMonitor::Gap gap = monitor.gaps().first();
        QVERIFY(gap.toMs > gap.fromMs);
        QVERIFY(log.times.value(0).contains(gap.fromMs));
        QVERIFY(log.times.value(0).contains(gap.toMs));
        for (int gpu = 0; gpu < 2; ++gpu) {
            const QString problem = checkHistoryGap(monitor, gpu, gap);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        monitor.stop();
    }

    // The connection is reset mid-stream by a fault proxy between the client and the real
    // sshd; the resumable stream comes back on a new connection.
    void continuityAcrossDroppedConnection()
    {
        KF_START_DEMO_HOST(demo);
        test::FaultProxy proxy(demo.port());
        const Result<void> listening = proxy.start();
        QVERIFY2(listening.ok(), qPrintable(listening.error()));
        QTemporaryDir dir;
        HostProfile profile = demo.profile();
        profile.port = proxy.port();
        profile.knownHostsFile = dir.filePath(QStringLiteral("known_hosts"));
        QFile pub(demo.hostKeyPath() + QStringLiteral(".pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QByteArray blob = QByteArray::fromBase64(pub.readAll().split(' ').value(1));
        QVERIFY(appendKnownHostsLine(profile.knownHostsFile, knownHostsLine(profile.host, profile.port, blob)).ok());
        SshConnectOptions connectOptions;
        connectOptions.keepaliveIntervalS = 2;
        auto connected = SshTransport::connect(profile, connectOptions);
        QVERIFY2(connected, qPrintable(connected.error()));
        GpuMonitor::Options options;
        options.intervalMs = 250;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        GpuMonitor monitor(connected.value(), QStringLiteral("demo"), options);
        SampleLog log;
        connect(&monitor, &GpuMonitor::samplesUpdated, this, [&](const QList<GpuSample>& gpus) { log.add(gpus); });
        QSignalSpy gapSignals(&monitor, &GpuMonitor::gapRecorded);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= 5, 60000);
        QVERIFY(monitor.gaps().isEmpty());
        const qint64 lastBeforeDrop = monitor.latestTimeMs();
        const qint64 blocksBeforeDrop = monitor.blocks();
        proxy.resetAll();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.resumes() + monitor.restarts() >= 1, 60000);
        // The stream resumes: new blocks, later than anything before the drop.
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= blocksBeforeDrop + 5, 60000);
        QCOMPARE(monitor.state(), GpuMonitor::State::Streaming);
        QVERIFY2(log.problem().isEmpty(), qPrintable(log.problem()));
        QCOMPARE(monitor.gaps().size(), 1);
        QCOMPARE(gapSignals.size(), 1);
        const GpuMonitor::Gap gap = monitor.gaps().first();
        QVERIFY(gap.fromMs >= lastBeforeDrop);
        QVERIFY(gap.toMs > gap.fromMs);
        QCOMPARE(gapSignals.first().at(0).toLongLong(), gap.fromMs);
        QCOMPARE(gapSignals.first().at(1).toLongLong(), gap.toMs);
        QVERIFY(log.times.value(0).contains(gap.fromMs) || log.times.value(1).contains(gap.fromMs));
        QVERIFY(log.times.value(0).contains(gap.toMs) || log.times.value(1).contains(gap.toMs));
        for (int gpu = 0; gpu < 2; ++gpu) {
            const QString problem = checkHistoryGap(monitor, gpu, gap);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        qInfo("gap of %lld ms; %lld duplicate samples dropped; resumes %d, restarts %d", gap.toMs - gap.fromMs,
            monitor.duplicatesDropped(), monitor.resumes(), monitor.restarts());
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

    // GPM: probed once, then a dmon stream beside the query; its values ride on the query's
    // blocks (none in dmon's first interval) and reach the history.
    void gpmStreamsBesideTheQuery()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        QSignalSpy gpm(&monitor, &GpuMonitor::gpmChanged);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.gpm().phase == GpuMonitor::GpmStatus::Phase::Streaming, 60000);
        QCOMPARE(monitor.gpm().intervalS, 1);
        QCOMPARE(monitor.gpm().support.gpus, (QList<int> { 0, 1 }));
        auto hasGpm = [&] {
            const auto& latest = monitor.latest();
            return latest.size() == 2 && hasValue(latest[0].value(GpuField::SmActive))
                && hasValue(latest[1].value(GpuField::TensorActive)) && hasValue(latest[0].value(GpuField::NvlinkRx));
        };
        QTRY_VERIFY_WITH_TIMEOUT(hasGpm(), 60000);
        QVERIFY(monitor.history().series(1, GpuField::DramActive));
        QVERIFY(monitor.history().series(0, GpuField::SmActive)->levelSize(0) >= 1);
        // The query's own values are untouched by the merge.
        QVERIFY(hasValue(monitor.latest()[0].value(GpuField::UtilGpu)));
        QVERIFY(gpm.size() >= 2); // probing, then streaming
        // A new interval restarts dmon with it.
        monitor.setIntervalMs(2000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.gpm().intervalS, 2, 10000);
        QCOMPARE(monitor.gpm().phase, GpuMonitor::GpmStatus::Phase::Streaming);
        monitor.stop();
    }

    // A replay folder with a dmon capture (KF_DEMO_REPLAY's dmon_gpm.txt) replays its GPM rows
    // beside the query's: here the real H200 stream with the documented-format dmon fixture.
    void gpmReplaysACapture()
    {
        QTemporaryDir dir;
        for (const char* f : { "stream_fields.txt", "stream.csv" })
            QVERIFY(QFile::copy(
                test::dataPath(QStringLiteral("field-h200/") + QLatin1String(f)), dir.filePath(QLatin1String(f))));
        QVERIFY(QFile::copy(test::dataPath(QStringLiteral("nvidia-smi/gpm/dmon_gpm_2gpus.txt")),
            dir.filePath(QStringLiteral("dmon_gpm.txt"))));
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_REPLAY"), dir.path());
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        monitor.start();
        // GPU 0's rows of the capture: "-", then 93 and 94 % SM active.
        QTRY_VERIFY_WITH_TIMEOUT(
            !monitor.latest().isEmpty() && hasValue(monitor.latest()[0].value(GpuField::SmActive)), 60000);
        const double sm = monitor.latest()[0].value(GpuField::SmActive);
        QVERIFY2(sm == 93 || sm == 94, qPrintable(QString::number(sm)));
        QCOMPARE(monitor.latest().size(), 1); // the capture's one GPU; dmon's rows of GPU 1 are not its
        monitor.stop();
    }

    void gpmUnavailableSaysWhy_data()
    {
        QTest::addColumn<QString>("knob");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("why");
        QTest::newRow("an older GPU") << "KF_DEMO_GPU_MODELS"
                                      << "NVIDIA A100-SXM4-80GB=8.0"
                                      << "predates Hopper: GPM needs compute capability 9.0 or newer";
        QTest::newRow("a driver without GPM") << "KF_DEMO_GPM"
                                              << "unsupported-driver"
                                              << "has no `dmon --gpm-metrics` (GPM came with driver 525)";
        QTest::newRow("counters held elsewhere") << "KF_DEMO_GPM"
                                                 << "busy"
                                                 << "in use by another client";
    }
    void gpmUnavailableSaysWhy()
    {
        QFETCH(QString, knob);
        QFETCH(QString, value);
        QFETCH(QString, why);
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        options.env.insert(knob, value);
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.gpm().phase == GpuMonitor::GpmStatus::Phase::Unavailable, 60000);
        QVERIFY2(monitor.gpm().why.contains(why), qPrintable(monitor.gpm().why));
        QVERIFY(monitor.gpm().text().startsWith(QStringLiteral("GPM not available: ")));
        QTRY_VERIFY_WITH_TIMEOUT(monitor.blocks() >= 3, 30000);
        for (const GpuSample& g : monitor.latest())
            QVERIFY(!hasValue(g.value(GpuField::SmActive)));
        QVERIFY(!monitor.history().series(0, GpuField::SmActive));
        monitor.stop();
    }

    void healthCheckAfterTheFirstBlock()
    {
        auto transport = std::make_shared<LocalTransport>();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.gpm = false;
        options.healthIntervalMs = 10 * 60 * 1000;
        options.env.insert(QStringLiteral("KF_DEMO_HOT_GPU"), QStringLiteral("1"));
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        GpuMonitor monitor(transport, QStringLiteral("local"), options);
        QSignalSpy health(&monitor, &GpuMonitor::healthUpdated);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.hasHealth(), 60000);
        QCOMPARE(health.size(), 1);
        QCOMPARE(monitor.gpm().phase, GpuMonitor::GpmStatus::Phase::Off); // not asked for
        const GpuHealthReport& r = monitor.health();
        QCOMPARE(r.gpus.size(), 2);
        QCOMPARE(r.gpus[0].verdict, HealthLevel::Pass);
        QCOMPARE(r.gpus[1].verdict, HealthLevel::Fail);
        QCOMPARE(r.verdict(), HealthLevel::Fail);
        // On demand, once more.
        monitor.checkHealth();
        QTRY_COMPARE_WITH_TIMEOUT(health.size(), 2, 60000);
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
