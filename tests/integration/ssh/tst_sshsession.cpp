// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The session under load and trouble: many channels at once on one connection, large
// SFTP transfers, a dropped link with reconnect and resumed streams, interrupted writes.
#include "core/ssh/sshhostconnection.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <future>

using namespace kf;

namespace {

QByteArray fileSha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

// Pseudo-random content, fast to make: 1 MiB of random bytes, each MiB tagged with its index.
void makeFile(const QString& path, qint64 mib)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray block(1024 * 1024, Qt::Uninitialized);
    QRandomGenerator rng(42);
    rng.fillRange(reinterpret_cast<quint32*>(block.data()), block.size() / 4);
    for (qint64 i = 0; i < mib; ++i) {
        std::memcpy(block.data(), &i, sizeof i);
        QCOMPARE(f.write(block), block.size());
    }
}

QStringList tempLitter(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral(".kf-tmp-"));
}

} // namespace

class TestSshSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    void eightChannelsProgressTogether()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        // Every participant leaves a marker m_<name> in the home folder, and the six command
        // channels wait until all eight markers exist. That can only finish if the two
        // streams, four execs, the SFTP upload and the tunnel all progress at the same time.
        const QString barrier
            = QStringLiteral("touch m_%1; n=0; while [ $(ls m_* | wc -l) -lt 8 ]; do sleep 0.05; n=$((n+1)); "
                             "[ $n -gt 1200 ] && exit 9; done; echo all-$(ls m_* | wc -l)");
        std::vector<std::unique_ptr<ProcessHandle>> streams;
        QList<QByteArray> streamOut(2);
        QList<std::optional<ProcessExit>> streamExit(2);
        for (int i = 0; i < 2; ++i) {
            streams.push_back(t->start({ barrier.arg(QStringLiteral("s%1").arg(i)) }));
            connect(streams.back().get(), &ProcessHandle::stdoutReceived, this,
                [&, i](const QByteArray& d) { streamOut[i] += d; });
            connect(streams.back().get(), &ProcessHandle::finished, this,
                [&, i](const ProcessExit& e) { streamExit[i] = e; });
        }
        std::vector<std::future<ExecResult>> execs;
        for (int i = 0; i < 4; ++i)
            execs.push_back(std::async(std::launch::async,
                [t, cmd = barrier.arg(QStringLiteral("e%1").arg(i))] { return t->exec({ cmd }, 90000); }));
        auto upload = std::async(std::launch::async, [t] {
            QByteArray big(48 * 1024 * 1024, 'u');
            return t->writeFileAtomic(QStringLiteral("m_upload"), big);
        });
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        auto tunnel = std::async(std::launch::async, [t, port = server.serverPort()]() -> QString {
            auto s = t->openTunnel(QStringLiteral("127.0.0.1"), port);
            if (!s)
                return s.error();
            if (!s.value()->write("hello\n"))
                return QStringLiteral("write failed");
            QByteArray got;
            for (int i = 0; i < 300 && !got.endsWith('\n'); ++i)
                got += s.value()->read(100).value();
            if (got != "echo:hello\n")
                return QStringLiteral("tunnel got ") + QString::fromUtf8(got);
            return t->writeFileAtomic(QStringLiteral("m_tunnel"), "t").error();
        });
        QTRY_VERIFY_WITH_TIMEOUT(server.hasPendingConnections(), 30000);
        QTcpSocket* peer = server.nextPendingConnection();
        QTRY_VERIFY_WITH_TIMEOUT(peer->canReadLine(), 30000);
        peer->write("echo:" + peer->readLine());

        QTRY_VERIFY_WITH_TIMEOUT(streamExit[0].has_value() && streamExit[1].has_value(), 90000);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(streamExit[i]->exitCode, 0);
            QCOMPARE(streamOut[i], QByteArray("all-8\n"));
        }
        for (auto& e : execs) {
            const ExecResult r = e.get();
            QVERIFY2(r.ok(), qPrintable(r.error + QString::fromUtf8(r.stdErr)));
            QCOMPARE(r.stdOut, QByteArray("all-8\n"));
        }
        QVERIFY(upload.get().ok());
        QCOMPARE(tunnel.get(), QString());
        QCOMPARE(QFileInfo(demo.homeDir() + QStringLiteral("/m_upload")).size(), 48 * 1024 * 1024);
    }

    // Channels whose setup overlaps: libssh2 1.10 waits for a request's answer by packet
    // type, so two requests waiting at once took each other's answer and one failed as
    // "the server refused to run the command" (libssh2 error -1). Every round starts
    // commands with and without a terminal, streams and an SFTP write at the same moment.
    void channelsStartingTogetherAllRun()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        for (int round = 0; round < 4; ++round) {
            std::vector<std::future<ExecResult>> execs;
            for (int i = 0; i < 16; ++i) {
                CommandSpec spec;
                spec.pty = i % 4 == 3; // a terminal's stdin never ends: no input for those
                spec.command = spec.pty ? QStringLiteral("echo $1") : QStringLiteral("echo $1; wc -c");
                spec.arguments = QStringList { QString::number(i) };
                if (!spec.pty)
                    spec.stdinData = QByteArray(8 * 1024 + i, 'x');
                execs.push_back(std::async(std::launch::async, [t, spec] { return t->exec(spec, 90000); }));
            }
            std::vector<std::unique_ptr<ProcessHandle>> streams;
            QList<std::optional<ProcessExit>> streamExit(2);
            for (int i = 0; i < 2; ++i) {
                streams.push_back(t->start({ QStringLiteral("seq 1 2000") }));
                connect(streams.back().get(), &ProcessHandle::finished, this,
                    [&, i](const ProcessExit& e) { streamExit[i] = e; });
            }
            auto write = std::async(std::launch::async,
                [t, round] { return t->writeFileAtomic(QStringLiteral("round.txt"), QByteArray::number(round)); });
            for (int i = 0; i < 16; ++i) {
                const ExecResult r = execs[size_t(i)].get();
                QVERIFY2(r.ok(), qPrintable(QStringLiteral("round %1, command %2: %3").arg(round).arg(i).arg(r.error)));
                const QList<QByteArray> lines = r.stdOut.trimmed().split('\n');
                QCOMPARE(lines.value(0).trimmed(), QByteArray::number(i));
                if (i % 4 != 3)
                    QCOMPARE(lines.value(1).trimmed(), QByteArray::number(8 * 1024 + i));
            }
            const Result<void> written = write.get();
            QVERIFY2(written.ok(), qPrintable(written.error()));
            QTRY_VERIFY_WITH_TIMEOUT(streamExit[0].has_value() && streamExit[1].has_value(), 60000);
            for (const auto& e : streamExit)
                QVERIFY2(e->error.isEmpty() && e->exitCode == 0, qPrintable(e->error));
        }
        QCOMPARE(test::readFile(demo.homeDir() + QStringLiteral("/round.txt")), QByteArray("3"));
    }

    // A server that allows few sessions per connection (sshd's MaxSessions: OpenSSH's default
    // is 10, hardened servers allow fewer). Here three: the idle pump, SFTP and one command.
    // Commands beyond the limit wait for one of ours to close; they failed with "cannot open
    // a channel: Channel open failure".
    void commandsBeyondTheServersSessionLimitWaitForOne()
    {
        DemoHost::Options options;
        options.maxSessions = 3;
        KF_START_DEMO_HOST(demo, options);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QVERIFY(t->writeFileAtomic(QStringLiteral("first.txt"), "1").ok()); // SFTP holds one
        std::unique_ptr<ProcessHandle> stream = t->start({ QStringLiteral("echo streaming; sleep 3; echo done") });
        QByteArray streamOut;
        std::optional<ProcessExit> streamExit;
        connect(stream.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& d) { streamOut += d; });
        connect(stream.get(), &ProcessHandle::finished, this, [&](const ProcessExit& e) { streamExit = e; });
        QTRY_VERIFY_WITH_TIMEOUT(streamOut.contains("streaming"), 20000);
        std::vector<std::future<ExecResult>> execs;
        for (int i = 0; i < 6; ++i) {
            execs.push_back(std::async(std::launch::async, [t, i] {
                return t->exec({ QStringLiteral("sleep 0.2; echo $1"), { QString::number(i) } }, 60000);
            }));
        }
        for (int i = 0; i < 6; ++i) {
            const ExecResult r = execs[size_t(i)].get();
            QVERIFY2(r.ok(), qPrintable(QStringLiteral("command %1: %2").arg(i).arg(r.error)));
            QCOMPARE(r.stdOut, QByteArray::number(i) + '\n');
        }
        QTRY_VERIFY_WITH_TIMEOUT(streamExit.has_value(), 20000);
        QVERIFY2(streamExit->error.isEmpty(), qPrintable(streamExit->error));
        QCOMPARE(streamOut, QByteArray("streaming\ndone\n"));
        QVERIFY(t->writeFileAtomic(QStringLiteral("second.txt"), "2").ok());
        QCOMPARE(t->exec({ QStringLiteral("cat first.txt second.txt") }, 30000).stdOut, QByteArray("12"));

        // A command that times out waiting for a session says so. The pump gave its session up
        // above: SFTP and these two hold all three.
        std::vector<std::unique_ptr<ProcessHandle>> holders;
        QByteArray holderOut;
        for (int i = 0; i < 2; ++i) {
            holders.push_back(t->start({ QStringLiteral("echo holding; sleep 30") }));
            connect(holders.back().get(), &ProcessHandle::stdoutReceived, this,
                [&](const QByteArray& d) { holderOut += d; });
        }
        QTRY_COMPARE_WITH_TIMEOUT(holderOut.count("holding"), 2, 20000);
        const ExecResult waited = t->exec({ QStringLiteral("echo never") }, 1500);
        QVERIFY(!waited.ok());
        QVERIFY2(waited.error.startsWith(QLatin1String("timed out after 1500 ms: cancelled while waiting for a free "
                                                       "session"))
                && waited.error.contains(QLatin1String("MaxSessions")),
            qPrintable(waited.error));
        for (auto& h : holders)
            h->cancel();
    }

    // One session per connection (MaxSessions 1): the idle pump gives it up to a command, and
    // once SFTP holds it (SFTP is not one of the sessions ours can free) a command is refused
    // for good. It is retried for 5 s and then fails with the reason; it was retried without
    // end, because every retry's open restarted the 5 s.
    void aSessionNoneOfOursCanFreeFailsWithTheReason()
    {
        DemoHost::Options options;
        options.maxSessions = 1;
        KF_START_DEMO_HOST(demo, options);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QCOMPARE(t->exec({ QStringLiteral("echo one | tee one.txt") }, 30000).stdOut, QByteArray("one\n"));
        const Result<QByteArray> read = t->readFile(QStringLiteral("one.txt"));
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(read.value(), QByteArray("one\n"));
        const ExecResult refused = t->exec({ QStringLiteral("echo two") }, 30000);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.startsWith(
                     QLatin1String("the server refused a new session on this connection (its MaxSessions limit?)")),
            qPrintable(refused.error));
    }

    // The SFTP subsystem is a session channel like a command's: refused while the only one
    // the server allows is ours, it waits for ours to close, as a command does (it failed at
    // once with "cannot start SFTP", and under load right after a command had closed).
    void sftpWaitsForOurSessionToClose()
    {
        DemoHost::Options options;
        options.maxSessions = 1;
        KF_START_DEMO_HOST(demo, options);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QCOMPARE(t->exec({ QStringLiteral("echo one > one.txt") }, 30000).exitCode, 0);
        CommandSpec spec;
        spec.command = QStringLiteral("echo started; sleep 2; echo done");
        auto running = t->start(spec);
        QByteArray out;
        connect(running.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& d) { out += d; });
        QTRY_VERIFY_WITH_TIMEOUT(out == "started\n", 30000); // its channel is the one session
        const Result<QByteArray> read = t->readFile(QStringLiteral("one.txt"));
        QVERIFY2(read.ok(), qPrintable(read.error()));
        QCOMPARE(read.value(), QByteArray("one\n"));
        QTRY_COMPARE_WITH_TIMEOUT(out, QByteArray("started\ndone\n"), 30000);
    }

    void sftpLargeRoundTrip()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QTemporaryDir dir;
        const QString local = dir.path() + QStringLiteral("/big.bin");
        makeFile(local, 256);
        const QByteArray sha = fileSha256(local);
        qint64 lastProgress = 0;
        int progressCalls = 0;
        QVERIFY(t->upload(local, QStringLiteral("~/big.bin"), [&](qint64 done, qint64 total) {
                     ++progressCalls;
                     lastProgress = done;
                     Q_UNUSED(total);
                 }).ok());
        QCOMPARE(lastProgress, qint64(256) * 1024 * 1024);
        QVERIFY(progressCalls > 10);
        QCOMPARE(t->sha256(QStringLiteral("~/big.bin")).value(), sha);
        const QString back = dir.path() + QStringLiteral("/back.bin");
        QVERIFY(t->download(QStringLiteral("big.bin"), back).ok());
        QCOMPARE(fileSha256(back), sha);
        QCOMPARE(tempLitter(demo.homeDir()), QStringList());
    }

    void droppedLinkReconnectsAndResumesStreams()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QSignalSpy states(t->session().get(), &SshSession::stateChanged);
        CommandSpec spec;
        spec.command = QStringLiteral("while true; do echo tick; sleep 0.1; done");
        spec.resumable = true;
        auto stream = t->start(spec);
        QByteArray out;
        int resumed = 0;
        std::optional<ProcessExit> streamExit;
        connect(stream.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& d) { out += d; });
        connect(stream.get(), &ProcessHandle::resumed, this, [&] {
            ++resumed;
            out.clear();
        });
        connect(stream.get(), &ProcessHandle::finished, this, [&](const ProcessExit& e) { streamExit = e; });
        // A non-resumable stream fails with the reason instead.
        auto once = t->start({ QStringLiteral("sleep 600") });
        std::optional<ProcessExit> onceExit;
        connect(once.get(), &ProcessHandle::finished, this, [&](const ProcessExit& e) { onceExit = e; });
        QTRY_VERIFY_WITH_TIMEOUT(out.count("tick") >= 3, 20000);

        QVERIFY(demo.dropConnections() >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() != ConnectionState::Ready, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(onceExit.has_value(), 20000);
        QVERIFY2(onceExit->error.contains(QLatin1String("lost")), qPrintable(onceExit->error));
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Ready, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(resumed, 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(out.count("tick") >= 3, 20000);
        QVERIFY(!streamExit.has_value());
        bool sawReconnecting = false;
        for (const auto& s : states)
            sawReconnecting = sawReconnecting || s.at(0).value<ConnectionState>() == ConnectionState::Reconnecting;
        QVERIFY(sawReconnecting);
        // The transport works again.
        QCOMPARE(t->exec({ QStringLiteral("echo back") }, 30000).stdOut, QByteArray("back\n"));
        stream->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(streamExit.has_value(), 20000);
    }

    void interruptedAtomicWriteLeavesTheOriginal()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/victim.txt"), "ORIGINAL\n").ok());
        auto big = std::async(std::launch::async,
            [t] { return t->writeFileAtomic(QStringLiteral("~/victim.txt"), QByteArray(400 * 1024 * 1024, 'N')); });
        // Kill the link while the temporary file is being written.
        QTRY_VERIFY_WITH_TIMEOUT(!tempLitter(demo.homeDir()).isEmpty()
                && QFileInfo(demo.homeDir() + QLatin1Char('/') + tempLitter(demo.homeDir()).first()).size() > 0,
            30000);
        QVERIFY(demo.dropConnections() >= 1);
        const Result<void> s = big.get();
        QVERIFY(!s.ok());
        QFile victim(demo.homeDir() + QStringLiteral("/victim.txt"));
        QVERIFY(victim.open(QIODevice::ReadOnly));
        QCOMPARE(victim.readAll(), QByteArray("ORIGINAL\n"));
        victim.close();
        // After the reconnect, the next good write replaces it and sweeps the leftovers.
        QTRY_VERIFY_WITH_TIMEOUT(t->session()->state() == ConnectionState::Ready, 30000);
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/victim.txt"), "NEW\n").ok());
        QCOMPARE(t->readFile(QStringLiteral("~/victim.txt")).value(), QByteArray("NEW\n"));
        QCOMPARE(tempLitter(demo.homeDir()), QStringList());
    }

    void hostConnectionFollowsTheSession()
    {
        KF_START_DEMO_HOST(demo);
        HostManager manager;
        manager.setFactory(SshHostConnection::factory(nullptr));
        HostConnection* h = manager.add(demo.profile());
        QVERIFY(qobject_cast<SshHostConnection*>(h));
        QSignalSpy spy(h, &HostConnection::stateChanged);
        h->connectToHost();
        QTRY_VERIFY_WITH_TIMEOUT(h->state() == ConnectionState::Ready, 30000);
        QVERIFY(h->transport());
        QCOMPARE(h->transport()->exec({ QStringLiteral("echo via-host") }, 30000).stdOut, QByteArray("via-host\n"));
        QVERIFY(spy.first().at(0).value<ConnectionState>() == ConnectionState::Connecting);
        HostProfile local;
        local.name = QStringLiteral("here");
        local.isLocal = true;
        QVERIFY(qobject_cast<LocalHostConnection*>(manager.add(local)));
        h->disconnectFromHost();
        QTRY_VERIFY_WITH_TIMEOUT(h->state() == ConnectionState::Disconnected, 20000);

        // A failure says why.
        demo.stop();
        HostProfile gone = demo.profile(QStringLiteral("gone"));
        HostConnection* g = manager.add(gone);
        g->connectToHost();
        QTRY_VERIFY_WITH_TIMEOUT(g->state() == ConnectionState::Failed, 30000);
        QVERIFY2(g->stateReason().contains(QLatin1String("cannot connect")), qPrintable(g->stateReason()));
    }
};

QTEST_GUILESS_MAIN(TestSshSession)
#include "tst_sshsession.moc"
