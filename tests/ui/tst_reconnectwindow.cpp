// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The real window on the real sshd while the connection drops and the reconnect waits for a
// person: the event loop keeps running (no blocking SSH call parks Qt's global thread pool,
// which the raster paint engine waits on), the window says the reconnect needs the
// passphrase, the GPU cards are marked stale, the server poll fails at once instead of
// queueing, and the stream resumes. A secret kept for the session makes the next reconnect
// unattended.
#include "core/demo/demohost.h"
#include "core/gpu/gpumonitor.h"
#include "core/hosts/hostmanager.h"
#include "core/server/serverclient.h"
#include "core/server/serversession.h"
#include "core/ssh/sshhostconnection.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"
#include "ui/mainwindow.h"
#include "ui/server/serverpane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>

using namespace kf;

namespace {

// Holds the reconnect's secret question (on the session thread) until the test opens it,
// or 60 s at most, so that a frozen GUI thread cannot deadlock the test.
struct Gate
{
    std::mutex mutex;
    std::condition_variable cv;
    bool isOpen = false;
    std::atomic<int> reconnectQuestions { 0 };

    void open()
    {
        std::lock_guard lock(mutex);
        isOpen = true;
        cv.notify_all();
    }
    void wait()
    {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, std::chrono::seconds(60), [this] { return isOpen; });
    }
};

// Opens the gate when the test function ends, before the hosts (whose sessions may be waiting
// on it) are destroyed.
struct GateOpener
{
    Gate& gate;
    ~GateOpener() { gate.open(); }
};

bool allCardsStale(const QWidget& w, bool stale)
{
    const auto cards = w.findChildren<GpuCard*>();
    return !cards.isEmpty()
        && std::all_of(cards.cbegin(), cards.cend(), [stale](const GpuCard* c) { return c->isStale() == stale; });
}

bool statusBarSays(const QWidget& w, const QString& words)
{
    const auto labels = w.findChild<QStatusBar*>()->findChildren<QLabel*>();
    return std::any_of(labels.cbegin(), labels.cend(), [&](const QLabel* l) { return l->text().contains(words); });
}

} // namespace

class TestReconnectWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolateAppState(QStringLiteral("kernelforge-test"));
        qunsetenv("SSH_AUTH_SOCK"); // the passphrase key below is the only way in
    }

    void windowStaysLiveWhileReconnectWaitsForTheSecret()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir keys;
        const QString passphrase = QStringLiteral("window pass 7");
        const QString key = test::makeKey(keys.path(), QStringLiteral("ed25519"), passphrase);
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile profile = demo.profile(QStringLiteral("flaky"));
        profile.identityFiles = { key };

        // The report came from a 2-core machine, where Qt's global pool has 2 threads: the GPU
        // process poll and the server poll were enough to fill it.
        QThreadPool::globalInstance()->setMaxThreadCount(2);

        Gate gate;
        test::ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { passphrase.toUtf8() };
        ui.beforeAnswer = [&gate, &ui](const SecretRequest& r) {
            if (!r.reconnecting)
                return; // the first login is answered at once
            ++gate.reconnectQuestions;
            ui.keepForSession = r.offerKeepForSession; // so the next reconnect needs nobody
            gate.wait();
        };
        HostManager hosts;
        hosts.setFactory(SshHostConnection::factory(&ui));
        HostConnection* host = hosts.add(profile);
        GateOpener opener { gate };
        host->connectToHost();

        AppContext ctx;
        ctx.hosts = &hosts;
        MainWindow w(ctx);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(host->state() == ConnectionState::Ready, 30000);
        QCOMPARE(w.currentHost(), host);

        auto* gpus = qobject_cast<GpuPane*>(w.pane(MainWindow::Tab::Gpus));
        auto* server = qobject_cast<ServerPane*>(w.pane(MainWindow::Tab::Server));
        QVERIFY(gpus && server);
        w.showTab(MainWindow::Tab::Server);
        QTRY_VERIFY_WITH_TIMEOUT(server->session() && server->session()->isPolling(), 10000);
        w.showTab(MainWindow::Tab::Gpus);
        QTRY_VERIFY_WITH_TIMEOUT(gpus->monitor() && gpus->cardCount() > 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(gpus->monitor()->latestTimeMs() > 0, 30000);

        // Server polls that fail while the connection is down, and how they failed.
        int failedWhileDown = 0;
        QString lastServerError;
        connect(server->session(), &ServerSession::statusUpdated, this, [&](quint16, const ServerStatus& s) {
            if (host->state() != ConnectionState::Ready && !s.reachable) {
                ++failedWhileDown;
                lastServerError = s.error;
            }
        });

        // The heartbeat: the longest time the GUI thread did not get back to its event loop.
        qint64 maxStallMs = 0;
        QElapsedTimer sinceBeat;
        QTimer heart;
        heart.setInterval(10);
        connect(&heart, &QTimer::timeout, this, [&] { maxStallMs = qMax(maxStallMs, sinceBeat.restart()); });
        sinceBeat.start();
        heart.start();
        // For comparison: the same window streaming on a healthy connection, 300 beats long.
        int beats = 0;
        auto counter = connect(&heart, &QTimer::timeout, this, [&] { ++beats; });
        QTRY_VERIFY_WITH_TIMEOUT(beats >= 300, 60000);
        disconnect(counter);
        qInfo("longest event-loop stall while streaming normally: %lld ms", maxStallMs);
        maxStallMs = 0;

        const qint64 lastSampleBefore = gpus->monitor()->latestTimeMs();
        QVERIFY(demo.dropConnections() >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(gate.reconnectQuestions.load() == 1, 30000);
        QElapsedTimer questionWaits;
        questionWaits.start();

        // While the question waits: the window says so plainly and the cards are stale.
        QTRY_VERIFY_WITH_TIMEOUT(statusBarSays(w, QStringLiteral("needs the passphrase")), 10000);
        QVERIFY2(host->stateReason().contains(QLatin1String("waiting for it to be entered")),
            qPrintable(host->stateReason()));
        QTRY_VERIFY_WITH_TIMEOUT(allCardsStale(w, true), 10000);
        // Both tabs paint while the polls run into the reconnecting connection: three failed
        // server polls (every 2 s) span at least one GPU process poll (every 5 s) too.
        w.showTab(MainWindow::Tab::Server);
        QTRY_VERIFY_WITH_TIMEOUT(failedWhileDown >= 1, 15000);
        w.showTab(MainWindow::Tab::Gpus);
        QTRY_VERIFY_WITH_TIMEOUT(failedWhileDown >= 3, 15000);
        QVERIFY2(lastServerError.contains(QLatin1String("reconnecting")), qPrintable(lastServerError));
        QVERIFY(host->state() == ConnectionState::Reconnecting);

        const qint64 waitedMs = questionWaits.elapsed();
        gate.open(); // the person types the passphrase
        QTRY_VERIFY_WITH_TIMEOUT(host->state() == ConnectionState::Ready, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(
            gpus->monitor()->resumes() >= 1 && gpus->monitor()->latestTimeMs() > lastSampleBefore, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(allCardsStale(w, false), 10000);
        heart.stop();
        qInfo("longest event-loop stall from the drop to the resumed stream: %lld ms", maxStallMs);
        // A frozen loop stalls for as long as the question waits (three server polls, 2 s
        // apart); a live one only as long as its slowest event (under 100 ms here, 0.8-2.2 s
        // under AddressSanitizer on a loaded machine), whatever the machine's speed.
        QVERIFY2(maxStallMs < qMax<qint64>(2000, waitedMs / 2),
            qPrintable(QStringLiteral("the window froze for %1 ms of the %2 ms the question waited")
                           .arg(maxStallMs)
                           .arg(waitedMs)));

        // The passphrase was kept for the session: the next drop reconnects with nobody asked.
        const int resumes = gpus->monitor()->resumes();
        const qint64 lastSample = gpus->monitor()->latestTimeMs();
        QVERIFY(demo.dropConnections() >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(gpus->monitor()->resumes() > resumes && gpus->monitor()->latestTimeMs() > lastSample
                && host->state() == ConnectionState::Ready,
            60000);
        QCOMPARE(gate.reconnectQuestions.load(), 1);
    }
};

QTEST_MAIN(TestReconnectWindow)
#include "tst_reconnectwindow.moc"
