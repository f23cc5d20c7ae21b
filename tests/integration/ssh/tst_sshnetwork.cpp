// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ProxyJump through a second sshd, a local listening port for a browser, dead-peer
// detection through the fault proxy, and the second connection for bulk transfers.
#include "core/ssh/knownhosts.h"
#include "core/ssh/localportforward.h"
#include "core/ssh/sessionworker.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace kf;

namespace {

QByteArray hostKeyBlob(const DemoHost& demo)
{
    return QByteArray::fromBase64(test::readFile(demo.hostKeyPath() + QStringLiteral(".pub")).split(' ').value(1));
}

// The demo host through `proxy`, trusted (at the proxy's port) in a known_hosts file in `dir`.
HostProfile throughProxy(const DemoHost& demo, const test::FaultProxy& proxy, const QTemporaryDir& dir)
{
    HostProfile p = demo.profile();
    p.port = proxy.port();
    p.knownHostsFile = dir.path() + QStringLiteral("/known_hosts");
    if (Result<void> added = appendKnownHostsLine(p.knownHostsFile, knownHostsLine(p.host, p.port, hostKeyBlob(demo)));
        !added)
        qWarning("%s", qPrintable(added.error())); // connecting then fails on the unknown key
    return p;
}

int acceptedLogins(const DemoHost& demo)
{
    return int(demo.sshdLog().count(QLatin1String("Accepted publickey")));
}

} // namespace

class TestSshNetwork : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    void proxyJumpThroughASecondSshd()
    {
        KF_START_DEMO_HOST(jump);
        KF_START_DEMO_HOST(target);
        QTemporaryDir dir;
        const QString kh = dir.path() + QStringLiteral("/known_hosts");
        {
            QFile f(kh);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(test::readFile(jump.knownHostsPath()) + test::readFile(target.knownHostsPath()));
        }
        HostProfile p = target.profile();
        p.knownHostsFile = kh;
        p.identityFiles = { jump.clientKeyPath(), target.clientKeyPath() };
        p.proxyJump = jump.user() + QStringLiteral("@127.0.0.1:") + QString::number(jump.port());
        auto c = SshTransport::connect(p);
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        const ExecResult r = t->exec({ QStringLiteral("echo $HOME") }, 30000);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(QString::fromUtf8(r.stdOut.trimmed()), target.homeDir());
        QCOMPARE(acceptedLogins(jump), 1);
        QVERIFY(t->session()->options().jump);
        // The target's link runs inside the jump host's connection: dropping that one drops it.
        QVERIFY(jump.dropConnections() >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() != ConnectionState::Ready, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Ready, 40000);
        QCOMPARE(t->exec({ QStringLiteral("echo again") }, 30000).stdOut, QByteArray("again\n"));
        QCOMPARE(acceptedLogins(jump), 2);

        // A jump host with an unknown key is refused like any other host.
        HostProfile bad = p;
        bad.knownHostsFile = target.knownHostsPath(); // knows the target only
        auto refused = SshTransport::connect(bad);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(QLatin1String("jump host"))
                && refused.error().contains(QLatin1String("not known")),
            qPrintable(refused.error()));
    }

    void localPortForBrowser()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        QTcpServer web; // stands for the SGLang server on the remote side
        QVERIFY(web.listen(QHostAddress::LocalHost));
        LocalPortForward forward(c.value()->session(), QStringLiteral("127.0.0.1"), web.serverPort());
        QVERIFY(forward.listen().ok());
        QVERIFY(forward.localPort() != 0);
        QVERIFY(forward.url().startsWith(QLatin1String("http://127.0.0.1:")));
        for (int round = 0; round < 2; ++round) {
            QTcpSocket browser;
            browser.connectToHost(QHostAddress::LocalHost, forward.localPort());
            QVERIFY(browser.waitForConnected(10000));
            browser.write("GET /metrics HTTP/1.0\r\n\r\n");
            QTRY_VERIFY_WITH_TIMEOUT(web.hasPendingConnections(), 20000);
            QTcpSocket* server = web.nextPendingConnection();
            QTRY_VERIFY_WITH_TIMEOUT(server->bytesAvailable() >= 25, 20000);
            QCOMPARE(server->readAll(), QByteArray("GET /metrics HTTP/1.0\r\n\r\n"));
            const QByteArray body(300000, 'm'); // more than one read
            server->write("HTTP/1.0 200 OK\r\n\r\n" + body);
            server->disconnectFromHost();
            QByteArray got;
            QTRY_VERIFY_WITH_TIMEOUT((got += browser.readAll(), got.size() == 19 + body.size()), 20000);
            QVERIFY(got.startsWith("HTTP/1.0 200 OK"));
            QTRY_VERIFY_WITH_TIMEOUT(browser.state() == QAbstractSocket::UnconnectedState, 20000);
        }
        QCOMPARE(forward.connectionsAccepted(), 2);
    }

    void deadPeerIsDetectedAndTheSessionReconnects()
    {
        KF_START_DEMO_HOST(demo);
        kf::test::FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        QTemporaryDir dir;
        const HostProfile p = throughProxy(demo, proxy, dir);
        SshConnectOptions o;
        o.keepaliveIntervalS = 1;
        auto c = SshTransport::connect(p, o);
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QSignalSpy spy(t->session().get(), &SshSession::stateChanged);
        proxy.setHang(true); // a black hole: no FIN, no RST, nothing
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Reconnecting, 20000);
        QVERIFY2(
            t->session()->stateReason().contains(QLatin1String("no reply")), qPrintable(t->session()->stateReason()));
        proxy.clearFaults();
        proxy.resetAll();
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Ready, 60000);
        QCOMPARE(t->exec({ QStringLiteral("echo alive") }, 30000).stdOut, QByteArray("alive\n"));
    }

    // Disconnecting while the server has stopped answering: closing the open channel waits
    // for the server's close, which never comes. The session is still freed (it was left half
    // freed, and its memory held, once the teardown's deadline passed).
    void disconnectFromAHungPeerFreesTheSession()
    {
        KF_START_DEMO_HOST(demo);
        kf::test::FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        QTemporaryDir dir;
        const HostProfile p = throughProxy(demo, proxy, dir);
        const int before = kf::ssh::liveLibssh2Sessions();
        auto c = SshTransport::connect(p);
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QCOMPARE(kf::ssh::liveLibssh2Sessions(), before + 1);
        auto stream = t->start({ QStringLiteral("echo started; sleep 600") });
        QByteArray out;
        connect(stream.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& d) { out += d; });
        QTRY_VERIFY_WITH_TIMEOUT(out.contains("started"), 20000);
        proxy.setHang(true);
        t->session()->disconnectFromHost();
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Disconnected, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(kf::ssh::liveLibssh2Sessions(), before, 20000);
    }

    void bulkTransfersUseASecondConnection()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QCOMPARE(acceptedLogins(demo), 1);
        QTemporaryDir dir;
        const QString local = dir.path() + QStringLiteral("/f.bin");
        {
            QFile f(local);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(8 * 1024 * 1024, 'b'));
        }
        // A live stream on the main connection keeps flowing during the transfer.
        auto stream = t->start({ QStringLiteral("while true; do echo tick; sleep 0.05; done") });
        int ticks = 0;
        connect(stream.get(), &ProcessHandle::stdoutReceived, this,
            [&](const QByteArray& d) { ticks += int(d.count("tick")); });
        QTRY_VERIFY_WITH_TIMEOUT(ticks > 0, 20000);
        QVERIFY(t->upload(local, QStringLiteral("~/f.bin")).ok());
        QVERIFY(t->download(QStringLiteral("~/f.bin"), local + QStringLiteral(".back")).ok());
        QCOMPARE(QFileInfo(local + QStringLiteral(".back")).size(), 8 * 1024 * 1024);
        QCOMPARE(acceptedLogins(demo), 2); // one more login, reused for both transfers
        const int before = ticks;
        QTRY_VERIFY_WITH_TIMEOUT(ticks > before, 20000);
        stream->cancel();
    }

    // upload() goes over the bulk connection while the swap (`mv`) waits, started early, on
    // the main one: a write cut off half way must never swap, whichever connection goes.
    void uploadCutMidWriteKeepsTheOldFile()
    {
        KF_START_DEMO_HOST(demo);
        test::FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        proxy.setLatency(5);
        QTemporaryDir dir;
        const HostProfile p = throughProxy(demo, proxy, dir);
        auto c = SshTransport::connect(p);
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        const QString local = dir.path() + QStringLiteral("/f.bin");
        const QString remote = demo.homeDir() + QStringLiteral("/f.bin");
        const auto writeLocal = [&](char fill, qint64 size) {
            QFile f(local);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray(size, fill));
        };
        writeLocal('o', 1024 * 1024);
        QVERIFY(t->upload(local, QStringLiteral("~/f.bin")).ok());
        const QByteArray old = test::readFile(remote);
        QCOMPARE(old.size(), 1024 * 1024);

        // Both connections reset with a quarter of the data acknowledged.
        writeLocal('n', 24 * 1024 * 1024);
        std::atomic<bool> cut = false;
        const Result<void> r = t->upload(local, QStringLiteral("~/f.bin"), [&](qint64 done, qint64 total) {
            if (done * 4 >= total && !cut.exchange(true))
                proxy.resetAll();
        });
        QVERIFY(cut);
        QVERIFY(!r.ok());
        QCOMPARE(test::readFile(remote), old);

        // The write fails on our side (the local file shrinks under it) with both connections
        // up: the early-started swap gets EOF instead of its line, and nothing is replaced.
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Ready, 60000);
        writeLocal('n', 24 * 1024 * 1024);
        std::atomic<bool> shrunk = false;
        const Result<void> r2 = t->upload(local, QStringLiteral("~/f.bin"), [&](qint64 done, qint64 total) {
            if (done * 4 >= total && !shrunk.exchange(true))
                QFile::resize(local, 0);
        });
        QVERIFY(shrunk);
        QVERIFY2(!r2.ok() && r2.error().contains(QLatin1String("cannot read")), qPrintable(r2.error()));
        QCOMPARE(t->exec({ QStringLiteral("echo alive") }, 30000).stdOut, QByteArray("alive\n"));
        QCOMPARE(test::readFile(remote), old);

        // The next good upload replaces it and sweeps the temp files.
        writeLocal('g', 3 * 1024 * 1024);
        const Result<void> good = t->upload(local, QStringLiteral("~/f.bin"));
        QVERIFY2(good.ok(), qPrintable(good.error()));
        QCOMPARE(test::readFile(remote), QByteArray(3 * 1024 * 1024, 'g'));
        QCOMPARE(
            QDir(demo.homeDir()).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral("kf-tmp")), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestSshNetwork)
#include "tst_sshnetwork.moc"
