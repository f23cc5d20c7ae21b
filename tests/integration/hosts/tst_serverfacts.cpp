// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The server facts script over the real demo sshd (SshTransport), directly, through the
// fault proxy at 100 ms round trip, and through `kernelforge-cli facts`.
#include "core/hosts/serverfacts.h"
#include "core/remotebuild/preflight.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace kf;

namespace {

QStringList cliOptions(const DemoHost& demo)
{
    return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"), demo.clientKeyPath(),
        QStringLiteral("--known-hosts"), demo.knownHostsPath() };
}

QString destination(const DemoHost& demo)
{
    return demo.user() + QLatin1Char('@') + demo.host();
}

// The demo's known_hosts line rewritten for another port (the proxy's), same key.
bool writeKnownHostsForPort(const DemoHost& demo, quint16 port, const QString& path)
{
    QFile in(demo.knownHostsPath());
    if (!in.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> parts = in.readAll().trimmed().split(' ');
    QFile out(path);
    if (parts.size() < 3 || !out.open(QIODevice::WriteOnly))
        return false;
    out.write("[127.0.0.1]:" + QByteArray::number(port) + ' ' + parts[1] + ' ' + parts[2] + '\n');
    return true;
}

} // namespace

class TestServerFactsOverSsh : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void overTheDemoHost()
    {
        KF_START_DEMO_HOST(demo);
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QElapsedTimer timer;
        timer.start();
        const auto facts = collectServerFacts(*t.value());
        const qint64 ms = timer.elapsed();
        QVERIFY2(facts.ok(), qPrintable(facts.error()));
        qInfo("server facts over ssh on loopback: %lld ms", ms);
        QVERIFY(facts->complete);
        // The demo host is this machine with a private HOME.
        QCOMPARE(facts->homeDir, demo.homeDir());
        QCOMPARE(facts->kernel, QSysInfo::kernelVersion());
        QCOMPARE(facts->cpuCount, int(::sysconf(_SC_NPROCESSORS_ONLN)));
        QVERIFY(facts->memory.memTotalKiB > 0);
        QVERIFY(facts->diskHomeAvailableKiB >= 0);
        QVERIFY(!facts->os.isEmpty());
    }

    void atAHundredMillisecondRoundTrip()
    {
        KF_START_DEMO_HOST(demo);
        test::FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        QTemporaryDir dir;
        const QString kh = dir.path() + QStringLiteral("/known_hosts");
        QVERIFY(writeKnownHostsForPort(demo, proxy.port(), kh));
        HostProfile p = demo.profile();
        p.port = proxy.port();
        p.knownHostsFile = kh;
        auto t = SshTransport::connect(p);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        proxy.setLatency(50); // 100 ms round trip from now on
        QElapsedTimer timer;
        timer.start();
        const auto facts = collectServerFacts(*t.value());
        const qint64 ms = timer.elapsed();
        QVERIFY2(facts.ok(), qPrintable(facts.error()));
        QVERIFY(facts->complete);
        QCOMPARE(facts->homeDir, demo.homeDir());
        // One exec channel: open, request, output, close; the script itself runs remotely.
        qInfo("server facts at 100 ms RTT: %lld ms", ms);
        QVERIFY2(ms >= 200, qPrintable(QString::number(ms))); // at least open + exec round trips
    }

    // Preflight runs the same probe over SSH with a project: the profile's folder is read there,
    // its environment reaches the script (on stdin, not the command line), the card's facts
    // come along, and the checks judge them.
    void preflightProbeOverTheDemoHost()
    {
        KF_START_DEMO_HOST(demo);
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t.ok(), qPrintable(t.error()));
        BuildProfile p;
        p.name = QStringLiteral("demo");
        p.workingDirectory = QStringLiteral("~/sgl-kernel");
        p.buildDir = QStringLiteral("build");
        p.env.insert(QStringLiteral("SGL_KERNEL_ENABLE_FA3"), QStringLiteral("OFF"));
        const auto facts = collectServerFacts(*t.value(), 120000, preflightProbe(p));
        QVERIFY2(facts.ok(), qPrintable(facts.error()));
        QVERIFY(facts->complete);
        QCOMPARE(facts->homeDir, demo.homeDir());
        QVERIFY(facts->project.probed);
        QVERIFY(facts->project.workDirExists);
        QVERIFY2(facts->project.cmakeLists.contains(QStringLiteral("cmake_policy(SET CMP0177 NEW)")),
            qPrintable(facts->project.cmakeLists.join(QLatin1Char('\n'))));
        QCOMPARE(facts->project.exportedCMakeVariables, QStringList { QStringLiteral("SGL_KERNEL_ENABLE_FA3=OFF") });
        QVERIFY(facts->project.diskAvailableKiB > 0);

        const auto checks = runPreflight(*t.value(), p);
        QVERIFY2(checks.ok(), qPrintable(checks.error()));
        QStringList ids;
        for (const PreflightCheck& c : *checks)
            ids << c.id;
        QVERIFY2(!ids.contains(QStringLiteral("workdir")), qPrintable(ids.join(u' ')));
        for (const char* id : { "ninja", "python", "ram", "disk" })
            QVERIFY2(ids.contains(QLatin1String(id)), id);
        QCOMPARE(ids.count(QStringLiteral("env-dflag")), 1); // the profile's own, not again from the server's env
    }

    void cliFactsJsonAndRefusals()
    {
        if (!QFile::exists(QStringLiteral(KF_CLI_BINARY)))
            QSKIP("kernelforge-cli is not built");
        KF_START_DEMO_HOST(demo);
        const auto r = test::runCli(QStringList { QStringLiteral("facts") } << cliOptions(demo) << destination(demo)
                                                                            << QStringLiteral("--json"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject j = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(j.value(QStringLiteral("home")).toString(), demo.homeDir());
        QVERIFY(j.value(QStringLiteral("complete")).toBool());

        const auto table
            = test::runCli(QStringList { QStringLiteral("facts") } << cliOptions(demo) << destination(demo));
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.contains("Disk (home)"));
        QVERIFY(table.out.contains(demo.homeDir().toUtf8()));

        // A changed host key: refused before login, 255 and one line, like OpenSSH.
        QVERIFY(demo.restart(/*newHostKey=*/true).ok());
        const auto refused
            = test::runCli(QStringList { QStringLiteral("facts") } << cliOptions(demo) << destination(demo));
        QCOMPARE(refused.exitCode, 255);
        QCOMPARE(refused.err.count('\n'), 1);
        QVERIFY(refused.out.isEmpty());

        const auto usage = test::runCli({ QStringLiteral("facts"), QStringLiteral("a@b:/path") });
        QCOMPARE(usage.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestServerFactsOverSsh)
#include "tst_serverfacts.moc"
