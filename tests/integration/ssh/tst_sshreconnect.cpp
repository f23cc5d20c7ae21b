// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Reconnecting against the real sshd when the login needs a secret: calls on a reconnecting
// connection fail at once instead of queueing behind the prompt, the state says the
// reconnect waits for the password, a secret kept for the session makes later reconnects
// unattended, keyboard-interactive gets three tries, and a refusal names only what was tried.
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <vector>

using namespace kf;
using kf::test::ScriptedInteraction;

namespace {

// Holds a reconnect's question (on the session thread) until opened, 60 s at most.
struct Gate
{
    std::mutex mutex;
    std::condition_variable cv;
    bool isOpen = false;
    std::atomic<int> reconnectQuestions { 0 };
    std::atomic<bool> reconnectOffersKeep { false };

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
    // Installs the hook: first logins are answered at once, reconnects wait for open().
    void hold(ScriptedInteraction& ui, bool keep)
    {
        ui.beforeAnswer = [this, &ui, keep](const SecretRequest& r) {
            if (!r.reconnecting)
                return;
            reconnectOffersKeep = r.offerKeepForSession;
            ui.keepForSession = keep;
            ++reconnectQuestions;
            wait();
        };
    }
};

struct GateOpener
{
    Gate& gate;
    ~GateOpener() { gate.open(); }
};

bool waitForState(SshSession& s, ConnectionState state, int timeoutMs)
{
    return QTest::qWaitFor([&] { return s.state() == state; }, timeoutMs);
}

} // namespace

class TestSshReconnect : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    void callsFailFastWhileTheReconnectWaitsForTheSecret()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("ed25519"), QStringLiteral("fast fail"));
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile p = demo.profile();
        p.identityFiles = { key };
        Gate gate;
        ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { "fast fail" };
        gate.hold(ui, /*keep=*/true);
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        GateOpener opener { gate };
        SshSession& session = *t.value()->session();

        QVERIFY(demo.dropConnections() >= 1);
        QVERIFY(QTest::qWaitFor([&] { return gate.reconnectQuestions.load() == 1; }, 30000));
        QVERIFY(gate.reconnectOffersKeep.load());
        QVERIFY(session.state() == ConnectionState::Reconnecting);
        QVERIFY2(
            session.stateReason().contains(QLatin1String("needs the passphrase")), qPrintable(session.stateReason()));

        // Blocking calls from worker threads, with no timeout of their own, while nobody answers.
        auto transport = t.value();
        auto exec
            = std::async(std::launch::async, [transport] { return transport->exec({ QStringLiteral("echo hi") }); });
        auto read = std::async(std::launch::async, [transport] { return transport->readFile(QStringLiteral("x")); });
        auto tunnel = std::async(
            std::launch::async, [transport] { return transport->openTunnel(QStringLiteral("127.0.0.1"), 1); });
        auto ready = [](auto& f) { return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready; };
        const bool settled = QTest::qWaitFor([&] { return ready(exec) && ready(read) && ready(tunnel); }, 10000);
        gate.open();
        QVERIFY2(settled, "calls on a reconnecting connection queued behind the prompt");
        const ExecResult r = exec.get();
        QVERIFY2(r.error.contains(QLatin1String("reconnecting")), qPrintable(r.error));
        const auto file = read.get();
        QVERIFY(!file.ok());
        QVERIFY2(file.error().contains(QLatin1String("reconnecting")), qPrintable(file.error()));
        QVERIFY(!tunnel.get().ok());

        // Answered: Ready again, and calls work.
        QVERIFY(waitForState(session, ConnectionState::Ready, 30000));
        QCOMPARE(transport->exec({ QStringLiteral("echo back") }, 30000).stdOut.trimmed(), QByteArray("back"));

        // The passphrase was kept for the session: the next drop needs nobody.
        QVERIFY(demo.dropConnections() >= 1);
        QVERIFY(QTest::qWaitFor([&] { return session.state() != ConnectionState::Ready; }, 30000));
        QVERIFY(waitForState(session, ConnectionState::Ready, 30000));
        QCOMPARE(gate.reconnectQuestions.load(), 1);
        QCOMPARE(transport->exec({ QStringLiteral("echo again") }, 30000).stdOut.trimmed(), QByteArray("again"));
    }

    void passwordReconnectSaysSoAndKeepsThePassword()
    {
        if (!test::isRoot())
            QSKIP("password logins need a local user with a password (root only)");
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.addPasswordUser(QStringLiteral("kftestrc"), QStringLiteral("reconnect me")).ok());
        HostProfile p = demo.profile();
        p.user = QStringLiteral("kftestrc");
        p.identityFiles = {};
        Gate gate;
        ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { "reconnect me" };
        gate.hold(ui, /*keep=*/true);
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        GateOpener opener { gate };
        std::shared_ptr<SshTransport> transport = t.value();
        SshSession& session = *transport->session();
        // A dropped link is found when the session reads from it: at once when the server's end
        // closed, else by keepalive while busy. A command after each drop keeps it busy, as a
        // user's next action does, so the test does not hang on how fast the kernel tells.
        std::vector<std::future<void>> commands;
        auto busy = [&] {
            commands.push_back(std::async(
                std::launch::async, [transport] { (void)transport->exec({ QStringLiteral("true") }, 20000); }));
        };
        QVERIFY(demo.dropConnections() >= 1);
        busy();
        QVERIFY2(QTest::qWaitFor([&] { return gate.reconnectQuestions.load() == 1; }, 30000),
            qPrintable(toString(session.state()) + QStringLiteral(": ") + session.stateReason()));
        QVERIFY2(
            session.stateReason().contains(QLatin1String("needs the password")), qPrintable(session.stateReason()));
        gate.open();
        QVERIFY(waitForState(session, ConnectionState::Ready, 30000));
        QVERIFY(demo.dropConnections() >= 1);
        busy();
        QVERIFY2(QTest::qWaitFor([&] { return session.state() != ConnectionState::Ready; }, 30000),
            qPrintable(toString(session.state())));
        QVERIFY(waitForState(session, ConnectionState::Ready, 30000));
        QCOMPARE(gate.reconnectQuestions.load(), 1);
        for (auto& c : commands)
            c.wait();
    }

    void keyboardInteractiveGetsThreeTries()
    {
        if (!test::isRoot())
            QSKIP("keyboard-interactive needs PAM and a local user with a password (root only)");
        DemoHost::Options opts;
        opts.usePam = true;
        KF_START_DEMO_HOST(demo, opts);
        QVERIFY(demo.addPasswordUser(QStringLiteral("kftestkbd3"), QStringLiteral("third time")).ok());
        HostProfile p = demo.profile();
        p.user = QStringLiteral("kftestkbd3");
        p.identityFiles = {};
        ScriptedInteraction ui;
        ui.answers = { "first", "second", "third time" };
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(ui.asked.size(), 3);
        for (const SecretRequest& r : std::as_const(ui.asked))
            QCOMPARE(r.kind, SecretRequest::Kind::KeyboardInteractive);
        QVERIFY2(ui.asked.at(1).prompt.contains(QLatin1String("Wrong answer")), qPrintable(ui.asked.at(1).prompt));
    }

    void refusalNamesOnlyWhatWasTried()
    {
        if (!test::isRoot())
            QSKIP("password logins need a local user with a password (root only)");
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.addPasswordUser(QStringLiteral("kftestnone"), QStringLiteral("never sent")).ok());
        HostProfile p = demo.profile();
        p.user = QStringLiteral("kftestnone");
        p.identityFiles = { demo.rootDir() + QStringLiteral("/no-such-key") };
        ScriptedInteraction ui; // cancels every question: no password is ever sent
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QLatin1String("Permission denied")), qPrintable(t.error()));
        QVERIFY2(!t.error().contains(QLatin1String("tried: password")), qPrintable(t.error()));
        QVERIFY2(t.error().contains(QLatin1String("password prompt cancelled")), qPrintable(t.error()));
    }
};

QTEST_GUILESS_MAIN(TestSshReconnect)
#include "tst_sshreconnect.moc"
