// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/transport/localtransport.h"
#include "tests/support/floodserver.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

class TestLocalTransport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void execCollectsBothStreamsAndExitCode()
    {
        kf::LocalTransport t;
        kf::CommandSpec spec;
        spec.command = QStringLiteral("echo out; echo err >&2; exit 7");
        const auto r = t.exec(spec, 10000);
        QCOMPARE(r.exitCode, 7);
        QCOMPARE(r.stdOut, QByteArray("out\n"));
        QCOMPARE(r.stdErr, QByteArray("err\n"));
        QVERIFY(!r.ok());
    }

    void execFeedsStdinAndHonoursWorkingDirectory()
    {
        QTemporaryDir dir;
        kf::LocalTransport t(dir.path());
        kf::CommandSpec spec;
        spec.command = QStringLiteral("cat; pwd");
        spec.stdinData = "from stdin\n";
        const auto r = t.exec(spec, 10000);
        QVERIFY(r.ok());
        QCOMPARE(r.stdOut, QByteArray("from stdin\n") + QFile::encodeName(dir.path()) + '\n');
    }

    void execTimesOut()
    {
        kf::LocalTransport t;
        kf::CommandSpec spec;
        spec.command = QStringLiteral("sleep 30");
        const auto r = t.exec(spec, 300);
        QVERIFY(r.error.contains(QStringLiteral("timed out")));
    }

    // Output past the cap stops the command (an endless one here) with a clear error; the
    // environment and arguments reach it without a command line.
    void execCapsOutputAndPassesEnvAndArguments()
    {
        kf::LocalTransport t;
        kf::CommandSpec flood;
        flood.command = QStringLiteral("yes");
        flood.maxOutputBytes = 1024 * 1024;
        const kf::ExecResult r = t.exec(flood, 60000);
        QCOMPARE(r.error, kf::outputCapError(flood.maxOutputBytes));
        QVERIFY(r.stdOut.size() <= flood.maxOutputBytes);
        kf::CommandSpec spec;
        spec.command = QStringLiteral("printf '%s|%s|' \"$K\" \"$1\"; tr '\\000' ' ' < /proc/$$/cmdline");
        spec.arguments = { QStringLiteral("it's \\ $x") };
        spec.env.insert(QStringLiteral("K"), QStringLiteral("secret-value"));
        const kf::ExecResult e = t.exec(spec, 30000);
        QVERIFY2(e.ok(), e.stdErr.constData());
        QVERIFY2(e.stdOut.startsWith("secret-value|it's \\ $x|"), e.stdOut.constData());
        QVERIFY(!e.stdOut.mid(qstrlen("secret-value|it's \\ $x|")).contains("secret-value"));
    }

    void startStreamsChunksAndFinishesOnce()
    {
        kf::LocalTransport t;
        kf::CommandSpec spec;
        spec.command = QStringLiteral("for i in 1 2 3; do echo line$i; done; exit 3");
        auto p = t.start(spec);
        QSignalSpy out(p.get(), &kf::ProcessHandle::stdoutReceived);
        QSignalSpy done(p.get(), &kf::ProcessHandle::finished);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QByteArray all;
        for (const auto& args : out)
            all += args.at(0).toByteArray();
        QCOMPARE(all, QByteArray("line1\nline2\nline3\n"));
        QCOMPARE(done.at(0).at(0).value<kf::ProcessExit>().exitCode, 3);
        QVERIFY(!p->isRunning());
    }

    void cancelStopsALongProcess()
    {
        kf::LocalTransport t;
        kf::CommandSpec spec;
        spec.command = QStringLiteral("exec sleep 60");
        auto p = t.start(spec);
        QSignalSpy done(p.get(), &kf::ProcessHandle::finished);
        QTest::qWait(100);
        p->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QVERIFY(!done.at(0).at(0).value<kf::ProcessExit>().ok());
    }

    void cancelStopsEverythingTheCommandStarted()
    {
        kf::LocalTransport t;
        kf::CommandSpec spec;
        spec.command = QStringLiteral("sleep 6001 & sleep 6002; wait");
        auto p = t.start(spec);
        QSignalSpy done(p.get(), &kf::ProcessHandle::finished);
        kf::CommandSpec probe;
        probe.command = QStringLiteral("pgrep -f '^sleep 600[12]$' | wc -l");
        QTRY_COMPARE_WITH_TIMEOUT(t.exec(probe, 5000).stdOut.trimmed(), QByteArray("2"), 10000);
        p->cancel();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(t.exec(probe, 5000).stdOut.trimmed(), QByteArray("0"), 10000);
    }

    void atomicWriteKeepsModeAndLeavesNoTemp()
    {
        QTemporaryDir dir;
        kf::LocalTransport t(dir.path());
        const QString path = dir.filePath(QStringLiteral("CMakeLists.txt"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old\n");
        }
        ::chmod(QFile::encodeName(path).constData(), 0640);
        QVERIFY(t.writeFileAtomic(QStringLiteral("CMakeLists.txt"), "new\n").ok());
        QCOMPARE(t.readFile(path).value(), QByteArray("new\n"));
        const auto st = t.stat(path);
        QVERIFY(st.ok() && st->exists);
        QCOMPARE(st->mode, 0640u);
        QCOMPARE(
            QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("CMakeLists.txt") });
    }

    void atomicWriteIntoMissingFolderFailsClearly()
    {
        kf::LocalTransport t;
        const auto s = t.writeFileAtomic(QStringLiteral("/nonexistent-kf-dir/x"), "data");
        QVERIFY(!s.ok());
        QVERIFY(s.error().contains(QStringLiteral("/nonexistent-kf-dir/x")));
    }

    void statListMkpath()
    {
        QTemporaryDir dir;
        kf::LocalTransport t(dir.path());
        QVERIFY(t.mkpath(QStringLiteral("a/b/c")).ok());
        QVERIFY(t.writeFileAtomic(QStringLiteral("~/a/f.txt"), "x").ok());
        const auto missing = t.stat(QStringLiteral("nope"));
        QVERIFY(missing.ok());
        QVERIFY(!missing->exists);
        const auto entries = t.list(QStringLiteral("a"));
        QVERIFY(entries.ok());
        QCOMPARE(entries->size(), 2);
        QCOMPARE(entries->at(0).name, QStringLiteral("b"));
        QVERIFY(entries->at(0).isDir);
        QCOMPARE(entries->at(1).name, QStringLiteral("f.txt"));
        QCOMPARE(entries->at(1).size, 1);
        QVERIFY(!t.readFile(QStringLiteral("nope")).ok());
    }

    void tunnelTalksToALocalPort()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        connect(&server, &QTcpServer::newConnection, this, [&server] {
            QTcpSocket* s = server.nextPendingConnection();
            connect(s, &QTcpSocket::readyRead, s, [s] {
                s->write("echo:" + s->readAll());
                s->disconnectFromHost();
            });
        });
        kf::LocalTransport t;
        std::unique_ptr<kf::TunnelStream> tunnel;
        QString writeError = QStringLiteral("not written");
        QThread* worker = QThread::create([&] {
            auto r = t.openTunnel(QStringLiteral("127.0.0.1"), server.serverPort());
            if (!r)
                return;
            tunnel = std::move(r).value();
            const kf::Result<void> wrote = tunnel->write("ping");
            writeError = wrote ? QString() : wrote.error();
        });
        worker->start();
        QTRY_VERIFY_WITH_TIMEOUT(worker->isFinished(), 10000);
        delete worker;
        QVERIFY(tunnel);
        QCOMPARE(writeError, QString());
    }

    // A local port that floods the tunnel while the reader reads nothing: the socket stops
    // being read at kTunnelBufferBytes unread and the sender blocks; nothing is lost once the
    // reader reads again.
    void tunnelStopsReadingWhileTheReaderDoesNot()
    {
        const qint64 total = 128 * 1024 * 1024;
        kf::test::FloodServer flood(total, 3000);
        QVERIFY(flood.port());
        kf::LocalTransport t;
        auto tunnel = t.openTunnel(QStringLiteral("127.0.0.1"), flood.port());
        QVERIFY2(tunnel, qPrintable(tunnel.error()));
        // The event loop runs while this waits: the socket reads whatever it is allowed to.
        QTRY_VERIFY_WITH_TIMEOUT(flood.stalledAt() >= 0 || flood.finished(), 120000);
        QVERIFY2(flood.stalledAt() >= 0,
            qPrintable(QStringLiteral("the sender never blocked: %1 bytes sent to a reader that read none")
                           .arg(flood.sent())));
        const auto first = tunnel.value()->read(0);
        QVERIFY2(first, qPrintable(first.error()));
        QVERIFY2(first->size() <= kf::kTunnelBufferBytes,
            qPrintable(QStringLiteral("%1 bytes buffered unread (sender blocked after %2)")
                           .arg(first->size())
                           .arg(flood.stalledAt())));
        qsizetype same = 0;
        while (same < first->size() && first->at(same) == kf::test::FloodServer::floodByte(same))
            ++same;
        QCOMPARE(same, first->size());
        const QString rest = kf::test::readFloodToEnd(*tunnel.value(), first->size(), total);
        QVERIFY2(rest.isEmpty(), qPrintable(rest));
    }
};

QTEST_GUILESS_MAIN(TestLocalTransport)
#include "tst_localtransport.moc"
