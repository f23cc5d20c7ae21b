// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli key install, the real binary against the real sshd: the password asked on a
// terminal (a pty the test holds) and never an argument, a second run that adds nothing, an
// RSA-only login through the system ssh, and usage errors (exit 2).
#include "tests/support/testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

using namespace kf;

namespace {

const QString kUser = QStringLiteral("kfclikey");

QStringList demoOptions(const DemoHost& demo)
{
    return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("--known-hosts"),
        demo.knownHostsPath() };
}

// A pseudo-terminal the test holds the master side of.
struct Pty
{
    int master = -1;
    QByteArray slavePath;
    QString error;

    bool open()
    {
        master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
            error = QStringLiteral("no pty: %1").arg(QString::fromLocal8Bit(::strerror(errno)));
            return false;
        }
        slavePath = ::ptsname(master);
        return true;
    }
    ~Pty()
    {
        if (master >= 0)
            ::close(master);
    }
    // What the terminal shows within waitMs (0: only what is there now).
    QByteArray read(int waitMs)
    {
        QByteArray got;
        pollfd pfd { master, POLLIN, 0 };
        while (::poll(&pfd, 1, got.isEmpty() ? waitMs : 0) > 0 && (pfd.revents & POLLIN)) {
            char buf[512];
            const ssize_t n = ::read(master, buf, sizeof buf);
            if (n <= 0)
                break;
            got.append(buf, n);
        }
        return got;
    }
    // The line discipline's settings are shared by both sides: this is the CLI's echo flag.
    bool echoes() const
    {
        termios t {};
        return ::tcgetattr(master, &t) == 0 && (t.c_lflag & ECHO);
    }
    bool write(const QByteArray& typed)
    {
        return ::write(master, typed.constData(), size_t(typed.size())) == typed.size();
    }
};

} // namespace

class TestCliKey : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }
    void cleanupTestCase() { test::removeSystemUser(kUser); }

    void usageErrors()
    {
        QCOMPARE(test::runCli({ QStringLiteral("key") }).exitCode, 2);
        QCOMPARE(test::runCli({ QStringLiteral("key"), QStringLiteral("frob") }).exitCode, 2);
        QCOMPARE(test::runCli({ QStringLiteral("key"), QStringLiteral("install") }).exitCode, 2);
        QCOMPARE(test::runCli(
                     { QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("h"), QStringLiteral("--key") })
                     .exitCode,
            2);
        QCOMPARE(
            test::runCli({ QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("h:/tmp") }).exitCode, 2);
        const auto help = test::runCli({ QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--via-system-ssh"));
    }

    void passwordOnTheTerminal()
    {
        if (!test::isRoot())
            QSKIP("a password-only user needs root");
        QCOMPARE(test::ensureSystemUser(kUser, QStringLiteral("/bin/sh")), QString());
        DemoHost::Options opts;
        opts.user = kUser;
        KF_START_DEMO_HOST(demo, opts);
        const QByteArray password = "terminal only 31";
        QVERIFY(demo.addPasswordUser(kUser, QString::fromUtf8(password)).ok());
        QTemporaryDir home;
        const QString key = home.path() + QStringLiteral("/kernelforge_ed25519");
        QStringList cli { QStringLiteral(KF_CLI_BINARY), QStringLiteral("key"), QStringLiteral("install") };
        cli << demoOptions(demo) << QStringLiteral("--key") << key << kUser + QStringLiteral("@127.0.0.1");

        // The CLI gets a terminal of the test's own (a pty as its controlling terminal, stdout and
        // stderr on pipes). The password is typed the moment the prompt shows, as a quick user
        // does; echo must already be off then (OpenSSH's order), or typing can be flushed away.
        auto install = [&](QByteArray* output) {
            Pty pty;
            QVERIFY2(pty.open(), qPrintable(pty.error));
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), home.path());
            p.setProcessEnvironment(env);
            p.setProcessChannelMode(QProcess::MergedChannels);
            const QByteArray slave = pty.slavePath;
            p.setChildProcessModifier([slave] {
                ::setsid(); // a new session whose first terminal opened becomes its controlling one
                const int fd = ::open(slave.constData(), O_RDWR);
                if (fd >= 0)
                    ::close(fd);
            });
            p.start(cli.first(), cli.mid(1));
            QVERIFY(p.waitForStarted());
            QByteArray terminal;
            QElapsedTimer t;
            t.start();
            while (!terminal.contains("assword") && p.state() == QProcess::Running && t.elapsed() < 60000)
                terminal += pty.read(200);
            if (terminal.contains("assword")) {
                QVERIFY2(!pty.echoes(), "the prompt was shown while the terminal still echoed");
                QVERIFY(pty.write(password + '\n'));
            }
            const bool finished = p.waitForFinished(60000);
            *output += p.readAll();
            QVERIFY2(finished, output->constData());
            terminal += pty.read(0);
            QVERIFY2(!terminal.contains(password), terminal.constData()); // not echoed
            QVERIFY2(p.exitCode() == 0, output->constData());
        };
        QByteArray first;
        install(&first);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(first.contains(QByteArray(QByteArray("made the key ") + key.toUtf8())), first.constData());
        QVERIFY2(first.contains("added the key to ~/.ssh/authorized_keys"), first.constData());
        QVERIFY(!first.contains(password)); // not printed

        const auto login
            = test::runCli(QStringList { QStringLiteral("exec"), QStringLiteral("-i"), key } + demoOptions(demo)
                + QStringList { kUser + QStringLiteral("@127.0.0.1"), QStringLiteral("--"), QStringLiteral("echo"),
                    QStringLiteral("by-key") });
        QVERIFY2(login.exitCode == 0 && login.out.trimmed() == "by-key", login.err.constData());

        QByteArray second;
        install(&second);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(second.contains("using the key") && second.contains("already in ~/.ssh/authorized_keys"),
            second.constData());
        const QByteArray blob = test::readFile(key + QStringLiteral(".pub")).split(' ').value(1);
        QCOMPARE(test::readFile(demo.homeDir() + QStringLiteral("/.ssh/authorized_keys")).count(blob), 1);
    }

    void rsaThroughSystemSsh()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString rsa = test::makeKey(dir.path(), QStringLiteral("rsa"));
        QVERIFY(test::writeFile(demo.authorizedKeysPath(), test::readFile(rsa + QStringLiteral(".pub"))));
        const QString key = dir.path() + QStringLiteral("/kernelforge_ed25519");
        const QString dest = demo.user() + QStringLiteral("@127.0.0.1");
        const QStringList common = QStringList { QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("-i"),
            rsa, QStringLiteral("--key"), key }
            + demoOptions(demo) + QStringList { dest };
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
        // libssh2 cannot sign with the RSA key: the error says what to do.
        const auto stuck = test::runCli(common);
        QCOMPARE(stuck.exitCode, 255);
        QVERIFY2(stuck.err.contains("--via-system-ssh"), stuck.err.constData());
#endif
        const auto viaSsh = test::runCli(common + QStringList { QStringLiteral("--via-system-ssh") });
        QVERIFY2(viaSsh.exitCode == 0, viaSsh.err.constData());
        QVERIFY2(viaSsh.out.contains("through system ssh"), viaSsh.out.constData());
        const auto login
            = test::runCli(QStringList { QStringLiteral("exec"), QStringLiteral("-i"), key } + demoOptions(demo)
                + QStringList { dest, QStringLiteral("--"), QStringLiteral("echo"), QStringLiteral("ed25519") });
        QVERIFY2(login.exitCode == 0 && login.out.trimmed() == "ed25519", login.err.constData());
    }

    // Through the system ssh: a known_hosts path with a space and a '%' reaches ssh as that one
    // file (quoted as ssh's option parser reads it), and a -J that a shell would read as more
    // than a host is refused here, before any ssh runs, whatever that ssh's version checks.
    void systemSshTakesTheKnownHostsPathAsItIs()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("known hosts %d"));
        QVERIFY(QDir().mkpath(folder));
        const QString knownHosts = folder + QStringLiteral("/kh");
        QVERIFY(test::writeFile(knownHosts, test::readFile(demo.knownHostsPath())));
        const QString key = dir.filePath(QStringLiteral("kernelforge_ed25519"));
        const QStringList common { QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("--via-system-ssh"),
            QStringLiteral("-i"), demo.clientKeyPath(), QStringLiteral("-p"), QString::number(demo.port()),
            QStringLiteral("--known-hosts"), knownHosts, QStringLiteral("--key"), key };
        const auto installed = test::runCli(common + QStringList { demo.user() + QStringLiteral("@127.0.0.1") });
        QVERIFY2(installed.exitCode == 0, QByteArray(installed.out + installed.err).constData());
        QVERIFY2(installed.out.contains("through system ssh"), installed.out.constData());

        // A user name that a shell runs ($(...) with no '/' or space: parseDestination takes it).
        const QString pwned = QDir::current().filePath(QStringLiteral("kf-jump-pwned"));
        const auto jumped = test::runCli(common
            + QStringList { QStringLiteral("-J"), QStringLiteral("a$(touch${IFS}kf-jump-pwned)@127.0.0.1"),
                demo.user() + QStringLiteral("@127.0.0.1") });
        QCOMPARE(jumped.exitCode, 1);
        QVERIFY2(jumped.err.contains("ProxyJump: the user name 'a$(touch${IFS}kf-jump-pwned)' has '$'"),
            jumped.err.constData());
        QVERIFY(!QFile::exists(pwned));
    }
};

QTEST_GUILESS_MAIN(TestCliKey)
#include "tst_cli_key.moc"
