// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/demo/demohost.h"

#include "core/log/logging.h"
#include "core/util/procfs.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace kf {
namespace {

QString findTool(const QString& name)
{
    const QStringList extra { QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"), QStringLiteral("/sbin"),
        QStringLiteral("/bin") };
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name, extra);
    return p;
}

Result<void> runTool(
    const QString& program, const QStringList& args, QByteArray* out = nullptr, const QByteArray& input = {})
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return Result<void>::failure(QStringLiteral("cannot run %1: %2").arg(program, p.errorString()));
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        return Result<void>::failure(QStringLiteral("%1 did not finish").arg(program));
    }
    const QByteArray o = p.readAllStandardOutput();
    if (out)
        *out = o;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return Result<void>::failure(QStringLiteral("%1 failed (%2): %3")
                                         .arg(program)
                                         .arg(p.exitCode())
                                         .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed()));
    return {};
}

quint16 pickFreePort(const QString& address)
{
    QTcpServer s;
    if (!s.listen(QHostAddress(address), 0))
        return 0;
    const quint16 port = s.serverPort();
    s.close();
    return port;
}

bool answersWithBanner(const QString& address, quint16 port)
{
    QTcpSocket sock;
    sock.connectToHost(address, port);
    if (!sock.waitForConnected(500))
        return false;
    if (!sock.waitForReadyRead(2000))
        return false;
    return sock.readAll().startsWith("SSH-2.0-");
}

Result<void> copyTree(const QString& from, const QString& to, bool executable)
{
    if (!QDir(from).exists())
        return {};
    QDirIterator it(from, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString rel = src.mid(from.size() + 1);
        const QString dst = to + QLatin1Char('/') + rel;
        QDir().mkpath(QFileInfo(dst).absolutePath());
        QFile::remove(dst);
        if (!QFile::copy(src, dst))
            return Result<void>::failure(QStringLiteral("cannot copy demo file %1 to %2").arg(src, dst));
        // Files from Qt resources come out read-only; the demo project must be patchable.
        QFile::Permissions perms = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
        if (executable || rel.endsWith(QLatin1String(".sh")))
            perms |= QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther;
        QFile::setPermissions(dst, perms);
    }
    return {};
}

// "pid starttime": names one process for good (a pid alone can be reused).
QByteArray processIdentity(qint64 pid)
{
    const QList<QByteArray> fields = procfs::statFields(pid);
    return fields.size() > 19 ? QByteArray::number(pid) + ' ' + fields.at(19) : QByteArray();
}

// Parent of every process.
QHash<qint64, qint64> parentMap()
{
    QHash<qint64, qint64> parents;
    for (const qint64 pid : procfs::processIds()) {
        const QList<QByteArray> fields = procfs::statFields(pid);
        if (fields.size() > 1)
            parents.insert(pid, fields.at(1).toLongLong());
    }
    return parents;
}

QList<qint64> childrenOf(const QHash<qint64, qint64>& parents, qint64 pid)
{
    QList<qint64> out;
    for (auto it = parents.cbegin(); it != parents.cend(); ++it)
        if (it.value() == pid)
            out << it.key();
    return out;
}

constexpr auto kOwnerFile = "owner";

// Folders of earlier demo hosts whose process is gone (killed, crashed) would pile up in
// /tmp: each names its owner ("pid starttime") in a file; a folder whose owner is not running
// any more is removed. Folders without that file, or of a live owner, are left alone.
void sweepStaleRoots()
{
    const QDir tmp(QDir::tempPath());
    const QStringList names
        = tmp.entryList({ QStringLiteral("kernelforge-demo-??????") }, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : names) {
        QFile owner(tmp.filePath(name) + QLatin1Char('/') + QLatin1String(kOwnerFile));
        if (!owner.open(QIODevice::ReadOnly))
            continue;
        const QByteArray id = owner.readAll().trimmed();
        owner.close();
        const qint64 pid = id.left(id.indexOf(' ')).toLongLong();
        if (pid <= 0 || processIdentity(pid) == id)
            continue;
        // An sshd of that folder may have outlived its owner (started from a thread other
        // than the main one it gets no parent-death signal): it listens for nobody now.
        QFile pidFile(tmp.filePath(name) + QStringLiteral("/log/sshd.pid"));
        if (pidFile.open(QIODevice::ReadOnly)) {
            const QByteArray sshd = pidFile.readAll().trimmed();
            QFile cmdline(QStringLiteral("/proc/") + QLatin1String(sshd) + QStringLiteral("/cmdline"));
            if (sshd.toLongLong() > 0 && cmdline.open(QIODevice::ReadOnly)
                && cmdline.readAll().contains(
                    QFile::encodeName(tmp.filePath(name) + QStringLiteral("/etc/sshd_config"))))
                ::kill(pid_t(sshd.toLongLong()), SIGTERM);
        }
        if (QDir(tmp.filePath(name)).removeRecursively())
            log::app()->info("demo host: removed {} (left by process {}, which is gone)", tmp.filePath(name), pid);
    }
}

} // namespace

DemoHost::DemoHost()
    : DemoHost(Options {})
{ }

DemoHost::DemoHost(Options options)
    : m_options(std::move(options))
{ }

DemoHost::~DemoHost()
{
    stop();
}

QString DemoHost::user() const
{
    if (!m_options.user.isEmpty())
        return m_options.user;
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
}

QString DemoHost::sshdLog() const
{
    QFile f(sshdLogPath());
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readAll()) : QString();
}

qint64 DemoHost::sshdPid() const
{
    return m_sshd ? m_sshd->processId() : 0;
}

bool DemoHost::isRunning() const
{
    return m_sshd && m_sshd->state() == QProcess::Running;
}

HostProfile DemoHost::profile(const QString& name) const
{
    HostProfile p;
    p.name = name;
    p.host = host();
    p.port = m_port;
    p.user = user();
    p.identityFiles = { clientKeyPath() };
    p.knownHostsFile = knownHostsPath();
    p.isDemo = true;
    p.tags = { QStringLiteral("demo") };
    return p;
}

QStringList DemoHost::sshArguments() const
{
    return { QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-i"), clientKeyPath(), QStringLiteral("-o"),
        QStringLiteral("IdentitiesOnly=yes"), QStringLiteral("-o"),
        QStringLiteral("UserKnownHostsFile=") + knownHostsPath(), QStringLiteral("-o"),
        QStringLiteral("GlobalKnownHostsFile=/dev/null"), QStringLiteral("-o"),
        QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
        QStringLiteral("-F"), QStringLiteral("/dev/null"), user() + QLatin1Char('@') + host() };
}

Result<void> DemoHost::prepare()
{
    if (!m_root.isEmpty())
        return {};
    if (m_options.rootDir.isEmpty()) {
        sweepStaleRoots();
        m_tempRoot = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/kernelforge-demo-XXXXXX"));
        if (!m_tempRoot->isValid())
            return Result<void>::failure(QStringLiteral("cannot create a temporary folder for the demo host"));
        m_root = m_tempRoot->path();
        QFile owner(m_root + QLatin1Char('/') + QLatin1String(kOwnerFile));
        if (owner.open(QIODevice::WriteOnly))
            owner.write(processIdentity(QCoreApplication::applicationPid()) + '\n');
    } else {
        m_root = QDir(m_options.rootDir).absolutePath();
    }
    for (const char* sub : { "etc", "client", "home", "bin", "log" })
        QDir().mkpath(m_root + QLatin1Char('/') + QLatin1String(sub));
    // sshd (StrictModes aside) and ssh insist on private key files and folders.
    QFile::setPermissions(m_root,
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther
            | QFile::ExeOther);
    QFile::setPermissions(m_root + QStringLiteral("/client"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

    const QString keygen = findTool(QStringLiteral("ssh-keygen"));
    if (keygen.isEmpty())
        return Result<void>::failure(
            QStringLiteral("ssh-keygen not found; install openssh-client (scripts/bootstrap does)"));
    if (auto s = generateHostKey(); !s)
        return s;
    if (auto s = runTool(keygen,
            { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
                QStringLiteral("-C"), QStringLiteral("kernelforge-demo-client"), QStringLiteral("-f"),
                clientKeyPath() });
        !s)
        return s;
    QFile::copy(clientKeyPath() + QStringLiteral(".pub"), authorizedKeysPath());
    QFile::setPermissions(authorizedKeysPath(), QFile::ReadOwner | QFile::WriteOwner);
    if (m_options.installAssets)
        if (auto s = installAssets(); !s)
            return s;
    if (!m_options.user.isEmpty()) {
        // sshd reads authorized_keys as the user; the session writes its home.
        if (::geteuid() != 0)
            return Result<void>::failure(QStringLiteral("a demo host for another user needs root"));
        if (!::getpwnam(m_options.user.toLocal8Bit().constData()))
            return Result<void>::failure(QStringLiteral("no such user: ") + m_options.user);
        if (auto s = runTool(findTool(QStringLiteral("chown")),
                { QStringLiteral("-R"), m_options.user + QLatin1Char(':'), homeDir(), authorizedKeysPath() });
            !s)
            return s;
    }
    return {};
}

Result<void> DemoHost::generateHostKey()
{
    const QString keygen = findTool(QStringLiteral("ssh-keygen"));
    QFile::remove(hostKeyPath());
    QFile::remove(hostKeyPath() + QStringLiteral(".pub"));
    return runTool(keygen,
        { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
            QStringLiteral("-C"), QStringLiteral("kernelforge-demo-host"), QStringLiteral("-f"), hostKeyPath() });
}

Result<void> DemoHost::installAssets()
{
    if (auto s = copyTree(QStringLiteral(":/demo/home"), homeDir(), false); !s)
        return s;
    return copyTree(QStringLiteral(":/demo/bin"), binDir(), true);
}

Result<void> DemoHost::writeConfig()
{
    QFile f(m_root + QStringLiteral("/etc/sshd_config"));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Result<void>::failure(QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString()));
    const QString path = binDir()
        + QStringLiteral(":/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin:/usr/local/cuda/bin");
    QStringList lines {
        QStringLiteral("Port %1").arg(m_port),
        QStringLiteral("ListenAddress %1").arg(m_options.listenAddress),
        QStringLiteral("HostKey %1").arg(hostKeyPath()),
        QStringLiteral("PidFile %1/log/sshd.pid").arg(m_root),
        // The demo's own keys, and the home's as on any server (key install writes there).
        QStringLiteral("AuthorizedKeysFile %1 %2/.ssh/authorized_keys").arg(authorizedKeysPath(), homeDir()),
        QStringLiteral("PubkeyAuthentication yes"),
        QStringLiteral("PasswordAuthentication %1").arg(m_passwordAuth ? QStringLiteral("yes") : QStringLiteral("no")),
        QStringLiteral("KbdInteractiveAuthentication %1")
            .arg(m_passwordAuth && m_options.usePam ? QStringLiteral("yes") : QStringLiteral("no")),
        QStringLiteral("UsePAM %1").arg(m_options.usePam ? QStringLiteral("yes") : QStringLiteral("no")),
        QStringLiteral("StrictModes no"),
        QStringLiteral("PermitRootLogin yes"),
        QStringLiteral("PrintMotd no"),
        QStringLiteral("PrintLastLog no"),
        QStringLiteral("UseDNS no"),
        QStringLiteral("MaxSessions %1").arg(m_options.maxSessions),
        QStringLiteral("MaxStartups 128"),
        QStringLiteral("AllowTcpForwarding yes"),
        QStringLiteral("LogLevel VERBOSE"),
        // KF_DEMO_WORKERS: the demo nvidia-smi's GPU processes are real processes of the user
        // (the demo servers' ranks, and standing workers when asked for).
        QStringLiteral("SetEnv HOME=%1 PATH=%2 KF_DEMO_WORKERS=1%3")
            .arg(homeDir(), path,
                m_options.standingGpuWorkers ? QStringLiteral(" KF_DEMO_STANDING_WORKERS=1") : QString()),
        QStringLiteral("Subsystem sftp internal-sftp -d %1").arg(homeDir()),
    };
    f.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    return {};
}

Result<void> DemoHost::launch()
{
    const QString sshd = findTool(QStringLiteral("sshd"));
    if (sshd.isEmpty())
        return Result<void>::failure(QStringLiteral("sshd not found; install openssh-server (scripts/bootstrap does)"));
    if (::geteuid() == 0)
        QDir().mkpath(QStringLiteral("/run/sshd")); // privilege separation folder sshd requires as root

    QString lastError;
    const bool fixedPort = m_port != 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
        if (!fixedPort)
            m_port = pickFreePort(m_options.listenAddress);
        if (m_port == 0)
            return Result<void>::failure(QStringLiteral("no free port on %1").arg(m_options.listenAddress));
        if (auto s = writeConfig(); !s)
            return s;
        m_sshd = std::make_unique<QProcess>();
        m_sshd->setProcessChannelMode(QProcess::MergedChannels);
        m_sshd->setStandardOutputFile(sshdLogPath(), QIODevice::Append);
        // If the app dies without running its destructors (killed, crashed), the kernel ends
        // sshd too, so no stale listener outlives it. The signal follows the *thread* that
        // forked, so only a start from the main thread (the app, the tests) asks for it.
        if (QCoreApplication::instance() && QThread::currentThread() == QCoreApplication::instance()->thread())
            m_sshd->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_sshd->start(sshd,
            { QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                m_root + QStringLiteral("/etc/sshd_config") });
        if (!m_sshd->waitForStarted(10000))
            return Result<void>::failure(QStringLiteral("cannot start sshd: ") + m_sshd->errorString());
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10000) {
            if (m_sshd->state() != QProcess::Running)
                break;
            if (answersWithBanner(m_options.listenAddress, m_port)) {
                log::app()->info(
                    "demo host: sshd pid {} listening on {}:{}", m_sshd->processId(), m_options.listenAddress, m_port);
                return {};
            }
            QThread::msleep(20);
        }
        m_sshd->kill();
        m_sshd->waitForFinished(3000);
        const QString tail = sshdLog().right(600).trimmed();
        lastError
            = QStringLiteral("sshd did not start on %1:%2: %3").arg(m_options.listenAddress).arg(m_port).arg(tail);
        if (fixedPort && !tail.contains(QLatin1String("Address already in use")))
            break;
        if (fixedPort)
            QThread::msleep(200); // the old listener's port may take a moment to be free
    }
    m_sshd.reset();
    return Result<void>::failure(lastError);
}

Result<void> DemoHost::start()
{
    if (isRunning())
        return {};
    if (auto s = prepare(); !s)
        return s;
    if (auto s = launch(); !s)
        return s;
    // The client's known_hosts holds exactly the key sshd serves now (OpenSSH's format).
    QFile pub(hostKeyPath() + QStringLiteral(".pub"));
    if (!pub.open(QIODevice::ReadOnly))
        return Result<void>::failure(QStringLiteral("cannot read the demo host key"));
    const QList<QByteArray> parts = pub.readAll().trimmed().split(' ');
    QFile kh(knownHostsPath());
    if (!kh.exists() || kh.size() == 0) {
        if (!kh.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return Result<void>::failure(QStringLiteral("cannot write ") + knownHostsPath());
        const QByteArray hostPattern = m_port == 22
            ? m_options.listenAddress.toLatin1()
            : "[" + m_options.listenAddress.toLatin1() + "]:" + QByteArray::number(m_port);
        kh.write(hostPattern + ' ' + parts.value(0) + ' ' + parts.value(1) + '\n');
    }
    return {};
}

void DemoHost::stop()
{
    stopListener(/*endDetachedJobs=*/true);
}

void DemoHost::stopListener(bool endDetachedJobs)
{
    if (!m_sshd)
        return;
    killSessionTrees(endDetachedJobs);
    m_sshd->terminate();
    if (!m_sshd->waitForFinished(3000)) {
        m_sshd->kill();
        m_sshd->waitForFinished(3000);
    }
    m_sshd.reset();
}

Result<void> DemoHost::restart(bool newHostKey)
{
    stopListener(/*endDetachedJobs=*/false); // like an sshd restart: users' detached jobs live on
    if (newHostKey)
        if (auto s = generateHostKey(); !s)
            return s;
    return launch();
}

QList<qint64> DemoHost::connectionPids() const
{
    const qint64 listener = sshdPid();
    return listener > 0 ? childrenOf(parentMap(), listener) : QList<qint64> {};
}

int DemoHost::dropConnections()
{
    const qint64 listener = sshdPid();
    if (listener <= 0)
        return 0;
    // Children of the listener are the per-connection sshd processes. Killing them drops
    // the link as a network failure would; the user's commands under them live on, as on a
    // real server after a dropped connection. A login as another user than sshd's has a
    // privilege-separated sshd child that holds the socket too: it goes with its parent.
    // The parents are stopped first, so that none forks that child after the list is made
    // (it does so right after the login) and leaves it serving the link as an orphan.
    const QList<qint64> sessions = childrenOf(parentMap(), listener);
    for (qint64 pid : sessions)
        ::kill(pid_t(pid), SIGSTOP);
    const auto parents = parentMap();
    for (qint64 pid : sessions) {
        for (qint64 child : childrenOf(parents, pid))
            if (procfs::commandName(child) == "sshd")
                ::kill(pid_t(child), SIGKILL);
        ::kill(pid_t(pid), SIGKILL);
    }
    return int(sessions.size());
}

void DemoHost::killSessionTrees(bool endDetachedJobs)
{
    const qint64 listener = sshdPid();
    if (listener <= 0)
        return;
    const auto parents = parentMap();
    QList<qint64> todo = childrenOf(parents, listener);
    while (!todo.isEmpty()) {
        const qint64 pid = todo.takeFirst();
        todo << childrenOf(parents, pid);
        ::kill(pid_t(pid), SIGKILL);
    }
    if (!endDetachedJobs)
        return;
    // Detached jobs (setsid builds, the demo server) left the session's tree; every process
    // of the demo carries the demo's private HOME (sshd's SetEnv), nothing else does.
    const QByteArray marker = "HOME=" + QFile::encodeName(homeDir()) + '\0';
    for (auto it = parents.cbegin(); it != parents.cend(); ++it) {
        const int fd = ::open(QByteArray("/proc/" + QByteArray::number(it.key()) + "/environ").constData(), O_RDONLY);
        if (fd < 0)
            continue;
        QByteArray env;
        char buf[4096];
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
            env.append(buf, n);
        ::close(fd);
        if (env.startsWith(marker) || env.contains(QByteArray('\0' + marker)))
            ::kill(pid_t(it.key()), SIGKILL);
    }
}

Result<void> DemoHost::addPasswordUser(const QString& name, const QString& password)
{
    if (::geteuid() != 0)
        return Result<void>::failure(QStringLiteral("adding a password user needs root"));
    if (!::getpwnam(name.toLocal8Bit().constData()))
        if (auto s = runTool(findTool(QStringLiteral("useradd")),
                { QStringLiteral("-m"), QStringLiteral("-s"), QStringLiteral("/bin/sh"), name });
            !s)
            return s;
    if (auto s = runTool(findTool(QStringLiteral("chpasswd")), {}, nullptr,
            (name + QLatin1Char(':') + password + QLatin1Char('\n')).toUtf8());
        !s)
        return s;
    m_passwordAuth = true;
    if (isRunning())
        return restart(false);
    return {};
}

} // namespace kf
