// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// SshTransport against the real sshd of the demo host: exec, streams, SFTP, tunnels.
#include "core/ssh/channelop.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/floodserver.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QtTest>

#include <sys/stat.h>

using namespace kf;

namespace {

std::shared_ptr<SshTransport> connectOrFail(const DemoHost& demo)
{
    auto t = SshTransport::connect(demo.profile());
    if (!t) {
        qWarning("connect failed: %s", qPrintable(t.error()));
        return nullptr;
    }
    return t.value();
}

} // namespace

class TestSshTransport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void execEchoAndHome()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        CommandSpec spec;
        spec.command = QStringLiteral("echo hello; echo $HOME; pwd; echo err >&2");
        const ExecResult r = t->exec(spec, 30000);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.stdOut.trimmed().split('\n');
        QCOMPARE(lines.value(0), QByteArray("hello"));
        QCOMPARE(QString::fromUtf8(lines.value(1)), demo.homeDir());
        // An empty working directory means the home directory, as `cd ~`.
        QCOMPARE(QString::fromUtf8(lines.value(2)), demo.homeDir());
        QCOMPARE(r.stdErr, QByteArray("err\n"));
    }

    void execExitCodesSignalsEnvAndStdin_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("signal");
        QTest::newRow("true") << QStringLiteral("true") << 0 << QString();
        QTest::newRow("exit 3") << QStringLiteral("exit 3") << 3 << QString();
        QTest::newRow("exit 255") << QStringLiteral("exit 255") << 255 << QString();
        QTest::newRow("false in a pipeline") << QStringLiteral("echo x | false") << 1 << QString();
        QTest::newRow("killed by TERM") << QStringLiteral("kill -TERM $$") << -1 << QStringLiteral("TERM");
        QTest::newRow("killed by KILL") << QStringLiteral("kill -KILL $$") << -1 << QStringLiteral("KILL");
        QTest::newRow("missing command") << QStringLiteral("no-such-command-kf") << 127 << QString();
    }
    void execExitCodesSignalsEnvAndStdin()
    {
        QFETCH(QString, command);
        QFETCH(int, exitCode);
        QFETCH(QString, signal);
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        CommandSpec spec;
        spec.command = command;
        const ExecResult r = t->exec(spec, 30000);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.exitCode, exitCode);
        QCOMPARE(r.signal, signal);
    }

    void execEnvStdinAndWorkingDirectory()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QVERIFY(t->mkpath(QStringLiteral("~/work dir/sub")).ok());
        CommandSpec spec;
        spec.command = QStringLiteral("printf '%s|%s|' \"$KF_A\" \"$KF_B\"; pwd; cat");
        spec.env = { { QStringLiteral("KF_A"), QStringLiteral("it's $HOME") },
            { QStringLiteral("KF_B"), QStringLiteral("two words") } };
        spec.workingDirectory = QStringLiteral("~/work dir/sub");
        spec.stdinData = QByteArray("from stdin\n");
        const ExecResult r = t->exec(spec, 30000);
        QVERIFY2(r.ok(), qPrintable(r.error + QString::fromUtf8(r.stdErr)));
        QCOMPARE(QString::fromUtf8(r.stdOut),
            QStringLiteral("it's $HOME|two words|") + demo.homeDir() + QStringLiteral("/work dir/sub\nfrom stdin\n"));
        spec = {};
        spec.command = QStringLiteral("true");
        spec.workingDirectory = QStringLiteral("/no/such/folder");
        const ExecResult bad = t->exec(spec, 30000);
        QCOMPARE(bad.exitCode, 1);
    }

    void largeStdoutAndStderrKeptApart()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        // 20 MB on each stream at once: a client that reads one stream at a time deadlocks.
        CommandSpec spec;
        spec.command = QStringLiteral(
            "head -c 20000000 /dev/zero | tr '\\0' o & head -c 20000000 /dev/zero | tr '\\0' e >&2; wait");
        const ExecResult r = t->exec(spec, 120000);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.stdOut.size(), 20000000);
        QCOMPARE(r.stdErr.size(), 20000000);
        QCOMPARE(r.stdOut.count('o'), 20000000);
        QCOMPARE(r.stdErr.count('e'), 20000000);
    }

    void streamingProcessWithStdinAndCancel()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        CommandSpec spec;
        spec.command = QStringLiteral("while read line; do echo \"got $line\"; done; echo done >&2");
        auto p = t->start(spec);
        QByteArray out, err;
        std::optional<ProcessExit> exit;
        connect(p.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& c) { out += c; });
        connect(p.get(), &ProcessHandle::stderrReceived, this, [&](const QByteArray& c) { err += c; });
        connect(p.get(), &ProcessHandle::finished, this, [&](const ProcessExit& e) { exit = e; });
        p->writeStdin("one\n");
        QTRY_COMPARE_WITH_TIMEOUT(out, QByteArray("got one\n"), 20000);
        p->writeStdin("two\n");
        QTRY_COMPARE_WITH_TIMEOUT(out, QByteArray("got one\ngot two\n"), 20000);
        p->closeStdin();
        QTRY_VERIFY_WITH_TIMEOUT(exit.has_value(), 20000);
        QCOMPARE(exit->exitCode, 0);
        QCOMPARE(err, QByteArray("done\n"));
        QVERIFY(!p->isRunning());

        // cancel(): TERM to the remote process group, then close.
        spec.command = QStringLiteral("echo started; sleep 6007");
        auto q = t->start(spec);
        QByteArray qout;
        std::optional<ProcessExit> qexit;
        connect(q.get(), &ProcessHandle::stdoutReceived, this, [&](const QByteArray& c) { qout += c; });
        connect(q.get(), &ProcessHandle::finished, this, [&](const ProcessExit& e) { qexit = e; });
        QTRY_COMPARE_WITH_TIMEOUT(qout, QByteArray("started\n"), 20000);
        QElapsedTimer timer;
        timer.start();
        q->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(qexit.has_value(), 20000);
        QVERIFY2(qexit->signal == QLatin1String("TERM") || !qexit->ok(), qPrintable(qexit->signal + qexit->error));
        QVERIFY(timer.elapsed() < 10000);
        // No `sleep 600` left behind on the server.
        const ExecResult ps = t->exec({ QStringLiteral("pgrep -f 'slee[p] 6007' || true") }, 30000);
        QCOMPARE(ps.stdOut.trimmed(), QByteArray());
    }

    void sftpStatListReadWriteMkpath()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QVERIFY(t->mkpath(QStringLiteral("~/a/b/c")).ok());
        QVERIFY(t->mkpath(QStringLiteral("a/b/c")).ok()); // existing: fine
        QVERIFY(QFileInfo(demo.homeDir() + QStringLiteral("/a/b/c")).isDir());
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/a/f.txt"), "hello\n").ok());
        auto data = t->readFile(QStringLiteral("a/f.txt"));
        QVERIFY2(data.ok(), qPrintable(data.error()));
        QCOMPARE(data.value(), QByteArray("hello\n"));
        auto st = t->stat(QStringLiteral("~/a/f.txt"));
        QVERIFY(st.ok());
        QVERIFY(st->exists);
        QVERIFY(!st->isDir);
        QCOMPARE(st->size, 6);
        QCOMPARE(st->mode, 0644u);
        auto missing = t->stat(QStringLiteral("~/nope"));
        QVERIFY(missing.ok());
        QVERIFY(!missing->exists);
        QVERIFY(!t->readFile(QStringLiteral("~/nope")).ok());
        QFile::link(demo.homeDir() + QStringLiteral("/a/f.txt"), demo.homeDir() + QStringLiteral("/a/link"));
        auto entries = t->list(QStringLiteral("~/a"));
        QVERIFY2(entries.ok(), qPrintable(entries.error()));
        QStringList names;
        for (const FileInfo& fi : entries.value())
            names << fi.name;
        QCOMPARE(names, (QStringList { QStringLiteral("b"), QStringLiteral("f.txt"), QStringLiteral("link") }));
        QVERIFY(entries->at(0).isDir);
        QVERIFY(entries->at(2).isSymlink);
        QCOMPARE(entries->at(2).size, 6);
        QVERIFY(!t->list(QStringLiteral("~/nope")).ok());
        // Mode is kept on replace; an explicit mode wins.
        QFile::setPermissions(
            demo.homeDir() + QStringLiteral("/a/f.txt"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/a/f.txt"), "second\n").ok());
        QCOMPARE(t->stat(QStringLiteral("~/a/f.txt"))->mode, 0700u);
        WriteOptions wo;
        wo.mode = 0600;
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/a/f.txt"), "third\n", wo).ok());
        QCOMPARE(t->stat(QStringLiteral("~/a/f.txt"))->mode, 0600u);
        QCOMPARE(t->readFile(QStringLiteral("~/a/f.txt")).value(), QByteArray("third\n"));
        QVERIFY(!t->writeFileAtomic(QStringLiteral("~/a/b"), "x").ok()); // a folder
        // No temp litter.
        QCOMPARE(QDir(demo.homeDir() + QStringLiteral("/a"))
                     .entryList(QDir::Files | QDir::Hidden)
                     .filter(QStringLiteral("kf-tmp")),
            QStringList());
        QCOMPARE(t->sha256(QStringLiteral("~/a/f.txt")).value(),
            QCryptographicHash::hash("third\n", QCryptographicHash::Sha256).toHex());
    }

    // A file call made while the session is still logging in fails with the reason instead of
    // returning results of an op that never ran (canonicalPath returned "" as a success).
    void sftpCallsBeforeReadyFailClearly()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("ed25519"), QStringLiteral("open sesame"));
        QVERIFY(test::authorizeKey(demo, key));
        test::ScriptedInteraction ui;
        ui.answers = { "open sesame" };
        QSemaphore asked;
        QSemaphore answer;
        ui.beforeAnswer = [&](const SecretRequest&) {
            asked.release();
            answer.acquire(); // the session thread waits here, in its login
        };
        SshSessionOptions so;
        so.profile = demo.profile();
        so.profile.identityFiles = { key };
        so.interaction = &ui;
        auto session = std::make_shared<SshSession>(so);
        session->connectToHost();
        QVERIFY(asked.tryAcquire(1, 60000));
        SshTransport t(session);
        const Result<QString> early = t.canonicalPath(QStringLiteral("~"));
        const Result<FileInfo> earlyStat = t.stat(QStringLiteral("~"));
        answer.release();
        QVERIFY2(!early.ok(), qPrintable(QStringLiteral("got \"%1\"").arg(early.ok() ? early.value() : QString())));
        QVERIFY2(early.error().contains(QLatin1String("not connected")), qPrintable(early.error()));
        QVERIFY2(!earlyStat.ok() && earlyStat.error().contains(QLatin1String("not connected")),
            qPrintable(earlyStat.error()));
        const Result<void> ready = session->waitUntilReady(60000);
        QVERIFY2(ready.ok(), qPrintable(ready.error()));
        const Result<QString> home = t.canonicalPath(QStringLiteral("~"));
        QVERIFY2(home.ok(), qPrintable(home.error()));
        QCOMPARE(home.value(), demo.homeDir());
    }

    // Ranged SFTP reads: any offset, ranges bigger than one SFTP buffer, short at the end,
    // empty past it; a FIFO is refused before it is opened (it would block sftp-server).
    void sftpRangedReads()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QByteArray data(5 * 1024 * 1024 + 17, '\0');
        for (qsizetype i = 0; i < data.size(); ++i)
            data[i] = char((i * 7919) >> 5);
        QVERIFY(t->writeFileAtomic(QStringLiteral("big.bin"), data).ok());
        QCOMPARE(t->readFileRange(QStringLiteral("big.bin"), 0, 64).value(), data.left(64));
        QCOMPARE(t->readFileRange(QStringLiteral("~/big.bin"), 1000003, 4 * 1024 * 1024).value(),
            data.mid(1000003, 4 * 1024 * 1024));
        QCOMPARE(t->readFileRange(QStringLiteral("big.bin"), data.size() - 5, 100).value(), data.right(5));
        QCOMPARE(t->readFileRange(QStringLiteral("big.bin"), data.size() + 10, 100).value(), QByteArray());
        QCOMPARE(t->readFileRange(QStringLiteral("big.bin"), 77, 0).value(), QByteArray());
        QVERIFY(!t->readFileRange(QStringLiteral("nope.bin"), 0, 10).ok());
        const QString fifo = demo.homeDir() + QStringLiteral("/fifo");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        const auto r = t->readFileRange(QStringLiteral("fifo"), 0, 10);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().endsWith(QLatin1String("not a regular file (a FIFO)")), qPrintable(r.error()));
    }

    void tunnelToAServerSidePort()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        // A blocking tunnel client on a worker thread, the echo server on this one.
        auto future = QtConcurrent::run([t, port = server.serverPort()]() -> QByteArray {
            auto tunnel = t->openTunnel(QStringLiteral("127.0.0.1"), port);
            if (!tunnel)
                return "open failed: " + tunnel.error().toUtf8();
            auto& s = *tunnel.value();
            if (!s.write("ping\n"))
                return "write failed";
            QByteArray got;
            for (int i = 0; i < 100 && !got.endsWith('\n'); ++i) {
                auto r = s.read(200);
                if (!r)
                    return "read failed: " + r.error().toUtf8();
                got += r.value();
            }
            s.close();
            return got;
        });
        QTRY_VERIFY_WITH_TIMEOUT(server.hasPendingConnections(), 20000);
        QTcpSocket* c = server.nextPendingConnection();
        QTRY_VERIFY_WITH_TIMEOUT(c->canReadLine(), 20000);
        const QByteArray line = c->readLine();
        QCOMPARE(line, QByteArray("ping\n"));
        c->write("pong:" + line);
        QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 20000);
        QCOMPARE(future.result(), QByteArray("pong:ping\n"));
    }

    // A server-side port that floods the tunnel while the reader reads nothing: the channel
    // stops being read at kTunnelBufferBytes unread (plus one step's read), its window closes
    // and the sender blocks; nothing is lost once the reader reads again.
    void tunnelStopsReadingWhileTheReaderDoesNot()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        const qint64 total = 128 * 1024 * 1024;
        test::FloodServer flood(total, 3000);
        QVERIFY(flood.port());
        auto tunnel = t->openTunnel(QStringLiteral("127.0.0.1"), flood.port());
        QVERIFY2(tunnel, qPrintable(tunnel.error()));
        QTRY_VERIFY_WITH_TIMEOUT(flood.stalledAt() >= 0 || flood.finished(), 120000);
        QVERIFY2(flood.stalledAt() >= 0,
            qPrintable(QStringLiteral("the sender never blocked: %1 bytes sent to a reader that read none")
                           .arg(flood.sent())));
        const auto first = tunnel.value()->read(0);
        QVERIFY2(first, qPrintable(first.error()));
        QVERIFY2(first->size() <= kTunnelBufferBytes + ssh::kMaxBytesPerStep,
            qPrintable(QStringLiteral("%1 bytes buffered unread (sender blocked after %2)")
                           .arg(first->size())
                           .arg(flood.stalledAt())));
        qsizetype same = 0;
        while (same < first->size() && first->at(same) == test::FloodServer::floodByte(same))
            ++same;
        QCOMPARE(same, first->size());
        const QString rest = test::readFloodToEnd(*tunnel.value(), first->size(), total);
        QVERIFY2(rest.isEmpty(), qPrintable(rest));
    }
};

QTEST_GUILESS_MAIN(TestSshTransport)
#include "tst_sshtransport.moc"
