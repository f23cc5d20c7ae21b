// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "testsupport.h"

#include "factsfixture.h"

#include "core/ssh/sshtransport.h"
#include "core/store/database.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>

#include <cstdio>
#include <unistd.h>

namespace kf::test {

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString dataPath(const QString& relative)
{
    return QStringLiteral(KF_TEST_DATA_DIR "/") + relative;
}

QByteArray histogramPage(int buckets, int perBucket)
{
    QByteArray page = "# HELP kf:big_latency_seconds Many buckets.\n# TYPE kf:big_latency_seconds histogram\n";
    page.reserve(qsizetype(buckets) * 56 + 256);
    for (int i = 1; i <= buckets; ++i) {
        page += "kf:big_latency_seconds_bucket{le=\"" + QByteArray::number(i / 1000) + '.'
            + QByteArray::number(i % 1000).rightJustified(3, '0') + "\"} " + QByteArray::number(qint64(i) * perBucket)
            + '\n';
    }
    const QByteArray total = QByteArray::number(qint64(buckets) * perBucket);
    page += "kf:big_latency_seconds_bucket{le=\"+Inf\"} " + total + "\nkf:big_latency_seconds_sum 1\n"
        + "kf:big_latency_seconds_count " + total + '\n';
    return page;
}

QByteArray readData(const QString& relative)
{
    QFile f(dataPath(relative));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(f.fileName()));
    return f.readAll();
}

ServerFacts factsFixture(const QString& name)
{
    const auto r = parseServerFacts(readData(QStringLiteral("facts/") + name));
    if (!r)
        qFatal("%s: %s", qPrintable(name), qPrintable(r.error()));
    return r.value();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

QString screenshotPath(const QString& name)
{
    QDir().mkpath(QStringLiteral(KF_SCREENSHOT_DIR));
    return QStringLiteral(KF_SCREENSHOT_DIR "/") + name + QStringLiteral(".png");
}

void isolateAppState(const QString& appName, const QString& historyDir)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
    QCoreApplication::setApplicationName(appName);
    QSettings().clear();
    if (!historyDir.isEmpty())
        store::setDatabasePath(historyDir + QStringLiteral("/history.sqlite"));
}

ProcessOutput runProgram(const QString& program, const QStringList& args, int timeoutMs, const QByteArray& input,
    const QStringList& extraEnv)
{
    ProcessOutput r;
    QProcess p;
    if (!extraEnv.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : extraEnv) {
            const qsizetype eq = kv.indexOf(QLatin1Char('='));
            env.insert(kv.left(eq), kv.mid(eq + 1));
        }
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        r.err = p.errorString().toUtf8();
        return r;
    }
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(3000);
        r.crashed = true;
    }
    r.out = p.readAllStandardOutput();
    r.err += p.readAllStandardError();
    r.crashed = r.crashed || p.exitStatus() == QProcess::CrashExit;
    r.exitCode = p.exitCode();
    return r;
}

const char* printWhole(const ProcessOutput& p, const char* what)
{
    std::fprintf(stderr, "--- %s: exit %d%s, stdout:\n%s\n--- %s: stderr:\n%s\n--- end of %s\n", what, p.exitCode,
        p.crashed ? " (crashed)" : "", p.out.constData(), what, p.err.constData(), what);
    std::fflush(stderr);
    return "the whole output is printed above";
}

ProcessOutput runCli(const QStringList& args, int timeoutMs, const QStringList& extraEnv)
{
    return runProgram(QStringLiteral(KF_CLI_BINARY), args, timeoutMs, {}, extraEnv);
}

bool isRoot()
{
    return ::geteuid() == 0;
}

HostProfile localProfile(const QString& name)
{
    HostProfile profile;
    profile.name = name;
    profile.isLocal = true;
    return profile;
}

namespace {
QString demoUserSite(const DemoHost& demo)
{
    const auto t = SshTransport::connect(demo.profile());
    if (!t)
        return {};
    CommandSpec spec;
    spec.command = QStringLiteral("python3 -c 'import site; print(site.getusersitepackages())'");
    const ExecResult r = t.value()->exec(spec, 60000);
    const QString site = QString::fromUtf8(r.stdOut.trimmed());
    return r.ok() && site.startsWith(demo.homeDir()) ? site : QString();
}
} // namespace

bool installDemoTorch(const DemoHost& demo, const QString& version)
{
    const QString site = demoUserSite(demo);
    return !site.isEmpty()
        && writeFile(site + QStringLiteral("/torch/__init__.py"),
            QStringLiteral("__version__ = \"%1\"\n"
                           "class version:\n    cuda = \"13.0\"\n"
                           "def compiled_with_cxx11_abi():\n    return True\n")
                .arg(version)
                .toUtf8());
}

QString patchDemo(const DemoHost& demo, const QStringList& env)
{
    const auto patched = runCli(QStringList { QStringLiteral("patch"), QStringLiteral("apply"), QStringLiteral("--set"),
                                    QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"),
                                    demo.user() + QStringLiteral("@127.0.0.1:sgl-kernel") }
            + cliSshOptions(demo),
        120000, env);
    return patched.exitCode == 0 ? QString() : QString::fromLatin1(printWhole(patched, "patch apply"));
}

QString patchAndBuildDemo(const DemoHost& demo, const QString& profile, const QStringList& env)
{
    const QString dest = demo.user() + QStringLiteral("@127.0.0.1");
    if (const QString failed = patchDemo(demo, env); !failed.isEmpty())
        return failed;
    const auto started
        = runCli(QStringList { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--profile"), profile }
                + cliSshOptions(demo) + QStringList { dest },
            120000, env);
    if (started.exitCode != 0)
        return QString::fromLatin1(printWhole(started, "build start"));
    const QString job = QString::fromUtf8(started.out.trimmed().split('\n').last()).trimmed();
    const auto built = runCli(QStringList { QStringLiteral("build"), QStringLiteral("attach"), job }
            + cliSshOptions(demo) + QStringList { dest },
        540000, env);
    return built.exitCode == 0 ? QString() : QString::fromLatin1(printWhole(built, "build attach"));
}

bool installDemoDistribution(const DemoHost& demo, const QString& name, const QString& version)
{
    const QString site = demoUserSite(demo);
    return !site.isEmpty()
        && writeFile(site + QStringLiteral("/%1-%2.dist-info/METADATA").arg(name, version),
            QStringLiteral("Metadata-Version: 2.1\nName: %1\nVersion: %2\n").arg(name, version).toUtf8());
}

bool patchDemoNvidiaSmi(const DemoHost& demo, const QByteArray& from, const QByteArray& to)
{
    QFile f(demo.binDir() + QStringLiteral("/nvidia-smi"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QByteArray text = f.readAll();
    f.close();
    if (!text.contains(from))
        return false;
    text.replace(from, to);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

QStringList cliSshOptions(const DemoHost& demo)
{
    return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"), demo.clientKeyPath(),
        QStringLiteral("--known-hosts"), demo.knownHostsPath() };
}

QStringList cliSshTarget(const DemoHost& demo)
{
    return cliSshOptions(demo) << demo.user() + QStringLiteral("@127.0.0.1");
}

bool processGone(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray s = stat.readAll();
    return s.mid(s.lastIndexOf(')') + 2, 1) == "Z";
}

quint16 freeLocalPort()
{
    QTcpServer s;
    return s.listen(QHostAddress::LocalHost, 0) ? s.serverPort() : 0;
}

QString ensureSystemUser(const QString& name, const QString& shell)
{
    if (!isRoot())
        return QStringLiteral("creating users needs root");
    const bool exists = runProgram(QStringLiteral("id"), { QStringLiteral("-u"), name }).exitCode == 0;
    const auto r = exists
        ? runProgram(QStringLiteral("usermod"), { QStringLiteral("-s"), shell, name })
        : runProgram(QStringLiteral("useradd"), { QStringLiteral("-m"), QStringLiteral("-s"), shell, name });
    if (r.exitCode != 0)
        return QStringLiteral("useradd/usermod %1 failed: %2").arg(name, QString::fromLocal8Bit(r.err));
    // useradd leaves the password locked ("!"), and sshd without PAM refuses locked accounts
    // even for keys; "*" is no password, not locked.
    const auto unlock = runProgram(QStringLiteral("usermod"), { QStringLiteral("-p"), QStringLiteral("*"), name });
    return unlock.exitCode == 0 ? QString() : QString::fromLocal8Bit(unlock.err);
}

void removeSystemUser(const QString& name)
{
    if (isRoot())
        runProgram(QStringLiteral("userdel"), { QStringLiteral("-r"), QStringLiteral("-f"), name });
}

QString makeKey(const QString& dir, const QString& type, const QString& passphrase)
{
    const QString path = dir + QStringLiteral("/id_") + type;
    QStringList args { QStringLiteral("-q"), QStringLiteral("-t"), type, QStringLiteral("-N"), passphrase,
        QStringLiteral("-C"), QStringLiteral("kf-test"), QStringLiteral("-f"), path };
    if (type == QLatin1String("rsa"))
        args << QStringLiteral("-b") << QStringLiteral("2048");
    const auto r = runProgram(QStringLiteral("ssh-keygen"), args);
    if (r.exitCode != 0)
        qWarning("ssh-keygen failed: %s", r.err.constData());
    return path;
}

bool authorizeKey(const DemoHost& demo, const QString& keyPath)
{
    QFile pub(keyPath + QStringLiteral(".pub"));
    QFile ak(demo.authorizedKeysPath());
    if (!pub.open(QIODevice::ReadOnly) || !ak.open(QIODevice::Append))
        return false;
    return ak.write(pub.readAll()) > 0;
}

} // namespace kf::test
