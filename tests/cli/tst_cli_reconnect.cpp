// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The real kernelforge-cli against the real sshd while the link fails: connections killed,
// the link frozen (SIGSTOP/SIGCONT of the per-connection sshd), the listener stopped and
// started again. The CLI reconnects like the app, resumes streams without repeating or
// losing output, and exits 255 with one clear line when the server does not come back.
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

// kernelforge-cli running in the background while the test breaks its connection.
class CliRun
{
public:
    CliRun(const QStringList& args, const QStringList& env)
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove(QStringLiteral("SSH_AUTH_SOCK"));
        for (const QString& kv : env)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        m_process.setProcessEnvironment(e);
        QObject::connect(
            &m_process, &QProcess::readyReadStandardOutput, [this] { out += m_process.readAllStandardOutput(); });
        QObject::connect(
            &m_process, &QProcess::readyReadStandardError, [this] { err += m_process.readAllStandardError(); });
        m_process.start(QStringLiteral(KF_CLI_BINARY), args);
    }
    ~CliRun()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    bool finished(int timeoutMs)
    {
        if (m_process.state() != QProcess::NotRunning && !m_process.waitForFinished(timeoutMs))
            return false;
        out += m_process.readAllStandardOutput();
        err += m_process.readAllStandardError();
        return true;
    }
    int exitCode() const { return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1; }
    int lines() const { return int(out.count('\n')); }
    QString diagnose() const
    {
        return QString::fromUtf8("stdout:\n" + out.right(2000) + "\nstderr:\n" + err.right(3000));
    }

    QByteArray out;
    QByteArray err;

private:
    QProcess m_process;
};

QStringList gpuWatch(const kf::DemoHost& demo, const QStringList& more)
{
    return QStringList { QStringLiteral("gpu"), QStringLiteral("watch") } + kf::test::cliSshTarget(demo)
        + QStringList { QStringLiteral("--json") } + more;
}

// Every sample line's time, in order; false when a line is not a sample.
bool sampleTimes(const QByteArray& out, QList<QDateTime>* times)
{
    for (const QByteArray& line : out.trimmed().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QDateTime t = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
        if (!t.isValid())
            return false;
        times->append(t);
    }
    return true;
}

// No sample twice, none out of order.
bool strictlyIncreasing(const QList<QDateTime>& times)
{
    for (qsizetype i = 1; i < times.size(); ++i)
        if (times[i] <= times[i - 1])
            return false;
    return true;
}

void signalConnections(const kf::DemoHost& demo, int sig)
{
    for (qint64 pid : demo.connectionPids())
        ::kill(pid_t(pid), sig);
}

} // namespace

class TestCliReconnect : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME=") };
    }

private Q_SLOTS:
    void gpuWatchResumesAfterKilledConnection()
    {
        KF_START_DEMO_HOST(demo);
        CliRun run(gpuWatch(demo, { QStringLiteral("--count"), QStringLiteral("6") }), env());
        QVERIFY2(QTest::qWaitFor([&] { return run.lines() >= 2; }, 60000), qPrintable(run.diagnose()));
        QVERIFY(demo.dropConnections() >= 1);
        QVERIFY2(run.finished(90000), qPrintable(run.diagnose()));
        QVERIFY2(run.exitCode() == 0, qPrintable(run.diagnose()));
        QVERIFY2(run.err.contains("reconnecting") && run.err.contains("reconnected to"), qPrintable(run.diagnose()));
        QList<QDateTime> times;
        QVERIFY2(sampleTimes(run.out, &times), qPrintable(run.diagnose()));
        QCOMPARE(times.size(), 6);
        QVERIFY2(strictlyIncreasing(times), qPrintable(run.diagnose()));
    }

    void gpuWatchResumesAfterFrozenLink()
    {
        KF_START_DEMO_HOST(demo);
        CliRun run(gpuWatch(demo, { QStringLiteral("--count"), QStringLiteral("4") }), env());
        QVERIFY2(QTest::qWaitFor([&] { return run.lines() >= 2; }, 60000), qPrintable(run.diagnose()));
        // The link freezes: the server neither answers nor closes. The silent link is declared
        // dead after three keepalive intervals, then the CLI logs in again on a new connection.
        const QList<qint64> frozen = demo.connectionPids();
        QVERIFY(!frozen.isEmpty());
        signalConnections(demo, SIGSTOP);
        const bool noticed = QTest::qWaitFor([&] { return run.err.contains("reconnecting"); }, 60000);
        for (qint64 pid : frozen)
            ::kill(pid_t(pid), SIGCONT);
        QVERIFY2(noticed, qPrintable(run.diagnose()));
        QVERIFY2(run.finished(90000), qPrintable(run.diagnose()));
        QVERIFY2(run.exitCode() == 0, qPrintable(run.diagnose()));
        QList<QDateTime> times;
        QVERIFY2(sampleTimes(run.out, &times), qPrintable(run.diagnose()));
        QCOMPARE(times.size(), 4);
        QVERIFY2(strictlyIncreasing(times), qPrintable(run.diagnose()));
    }

    void gpuWatchExitCodesAfterADrop()
    {
        KF_START_DEMO_HOST(demo);
        {
            // --no-reconnect and no --count: samples were printed, then the link went: 255, not 1.
            CliRun run(gpuWatch(demo, { QStringLiteral("--no-reconnect") }), env());
            QVERIFY2(QTest::qWaitFor([&] { return run.lines() >= 2; }, 60000), qPrintable(run.diagnose()));
            QVERIFY(demo.dropConnections() >= 1);
            QVERIFY2(run.finished(30000), qPrintable(run.diagnose()));
            QVERIFY2(run.exitCode() == 255, qPrintable(run.diagnose()));
            QVERIFY2(run.err.contains("not reconnecting (--no-reconnect)"), qPrintable(run.diagnose()));
        }
        {
            // A large --count and a server that stays away: give up after --timeout, with 255.
            CliRun run(gpuWatch(demo,
                           { QStringLiteral("--count"), QStringLiteral("100000"), QStringLiteral("--timeout"),
                               QStringLiteral("3") }),
                env());
            QVERIFY2(QTest::qWaitFor([&] { return run.lines() >= 2; }, 60000), qPrintable(run.diagnose()));
            demo.stopListenerKeepJobs();
            QVERIFY2(run.finished(60000), qPrintable(run.diagnose()));
            QVERIFY2(run.exitCode() == 255, qPrintable(run.diagnose()));
            QVERIFY2(run.err.contains("giving up (--timeout 3)"), qPrintable(run.diagnose()));
            QVERIFY2(run.err.contains("unreachable for"), qPrintable(run.diagnose()));
        }
    }

    void buildAttachResumesAtTheByteOffset()
    {
        KF_START_DEMO_HOST(demo);
        const auto start = kf::test::runCli(
            QStringList { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--command"),
                QStringLiteral("i=1; while [ $i -le 80 ]; do echo \"line $i\"; "
                               "i=$((i+1)); sleep 0.1; done; exit 3") }
                + kf::test::cliSshTarget(demo),
            60000, env());
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QString id = QString::fromUtf8(start.out.trimmed());
        QByteArray expected;
        for (int i = 1; i <= 80; ++i)
            expected += "line " + QByteArray::number(i) + '\n';

        CliRun run(QStringList { QStringLiteral("build"), QStringLiteral("attach"), id } + kf::test::cliSshTarget(demo),
            env());
        QVERIFY2(QTest::qWaitFor([&] { return run.out.contains("line 5\n"); }, 60000), qPrintable(run.diagnose()));
        // The server goes away for a while (listener and connections; the build lives on) ...
        demo.stopListenerKeepJobs();
        QVERIFY2(QTest::qWaitFor([&] { return run.err.contains("reconnecting"); }, 30000), qPrintable(run.diagnose()));
        // ... and comes back.
        QVERIFY(demo.start().ok());
        QVERIFY2(run.finished(120000), qPrintable(run.diagnose()));
        QVERIFY2(run.exitCode() == 3, qPrintable(run.diagnose()));
        QVERIFY2(run.err.contains("reconnected to"), qPrintable(run.diagnose()));
        // Every byte of the log once, in order: resumed at the offset it had.
        QCOMPARE(run.out, expected);
    }
};

QTEST_GUILESS_MAIN(TestCliReconnect)
#include "tst_cli_reconnect.moc"
