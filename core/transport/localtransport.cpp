// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/transport/localtransport.h"

#include "core/util/loginshell.h"
#include "core/util/shellquote.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTcpSocket>
#include <QTimer>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kf {
namespace {

QString errnoText(const QString& what, const QString& path)
{
    return what + QStringLiteral(" ") + path + QStringLiteral(": ") + QString::fromLocal8Bit(strerror(errno));
}

// The shell reports "killed by signal N" as exit code 128+N when we run `sh -c 'cmd'`
// with exec; QProcess::CrashExit does not say which signal, so commands are run as
// `exec sh -c ...` and decode 128+N ourselves only when QProcess says CrashExit.
// The environment goes into the process environment, never onto the command line (ps).
void setupProcess(QProcess& p, const CommandSpec& spec, const QString& home)
{
    if (!spec.env.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (auto it = spec.env.cbegin(); it != spec.env.cend(); ++it)
            if (isShellName(it.key()))
                env.insert(it.key(), it.value());
        p.setProcessEnvironment(env);
    }
    p.setProgram(QStringLiteral("/bin/sh"));
    p.setArguments(QStringList { QStringLiteral("-c"), spec.command, QStringLiteral("sh") } + spec.arguments);
    p.setWorkingDirectory(spec.workingDirectory.isEmpty() ? home : spec.workingDirectory);
    // Its own session and process group, so cancel() and timeouts stop everything the
    // command started (a shell's children too), as the SSH side does.
    p.setChildProcessModifier([] { ::setsid(); });
}

void killGroup(const QProcess& p, int sig)
{
    if (p.processId() > 0)
        ::kill(-pid_t(p.processId()), sig);
}

class LocalProcess final : public ProcessHandle
{
public:
    LocalProcess(const CommandSpec& spec, const QString& home)
    {
        setupProcess(m_proc, spec, home);
        connect(&m_proc, &QProcess::readyReadStandardOutput, this,
            [this] { Q_EMIT stdoutReceived(m_proc.readAllStandardOutput()); });
        connect(&m_proc, &QProcess::readyReadStandardError, this,
            [this] { Q_EMIT stderrReceived(m_proc.readAllStandardError()); });
        connect(&m_proc, &QProcess::finished, this,
            [this](int code, QProcess::ExitStatus status) { finish(code, status, {}); });
        connect(&m_proc, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                finish(-1, QProcess::CrashExit, m_proc.errorString());
        });
        m_proc.start();
    }
    ~LocalProcess() override
    {
        if (m_proc.state() != QProcess::NotRunning) {
            m_done = true;
            killGroup(m_proc, SIGKILL);
            m_proc.kill();
            m_proc.waitForFinished(2000);
        }
    }
    void writeStdin(const QByteArray& data) override { m_proc.write(data); }
    void closeStdin() override { m_proc.closeWriteChannel(); }
    void cancel() override
    {
        if (m_proc.state() == QProcess::NotRunning)
            return;
        killGroup(m_proc, SIGTERM);
        QTimer::singleShot(3000, this, [this] {
            if (m_proc.state() != QProcess::NotRunning)
                killGroup(m_proc, SIGKILL);
        });
    }
    bool isRunning() const override { return !m_done; }

private:
    void finish(int code, QProcess::ExitStatus status, const QString& error)
    {
        if (m_done)
            return;
        m_done = true;
        // Deliver whatever is still buffered before the end.
        if (const QByteArray out = m_proc.readAllStandardOutput(); !out.isEmpty())
            Q_EMIT stdoutReceived(out);
        if (const QByteArray err = m_proc.readAllStandardError(); !err.isEmpty())
            Q_EMIT stderrReceived(err);
        ProcessExit exit;
        exit.error = error;
        if (error.isEmpty()) {
            if (status == QProcess::CrashExit) {
                exit.signal = QStringLiteral("TERM");
            } else {
                exit.exitCode = code;
            }
        }
        Q_EMIT finished(exit);
    }

    QProcess m_proc;
    bool m_done = false;
};

class LocalTunnel final : public TunnelStream
{
public:
    QTcpSocket socket;
    Result<void> write(const QByteArray& data) override
    {
        if (socket.write(data) != data.size())
            return Result<void>::failure(socket.errorString());
        while (socket.bytesToWrite() > 0)
            if (!socket.waitForBytesWritten(30000))
                return Result<void>::failure(socket.errorString());
        return {};
    }
    Result<QByteArray> read(int timeoutMs) override
    {
        if (socket.bytesAvailable() == 0 && socket.state() == QAbstractSocket::ConnectedState)
            socket.waitForReadyRead(timeoutMs);
        return socket.readAll();
    }
    bool atEnd() const override
    {
        return socket.state() != QAbstractSocket::ConnectedState && socket.bytesAvailable() == 0;
    }
    void close() override { socket.close(); }
};

// A regular file opened for reading, closed when this goes; error() says why it is not open.
// O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused here (not a regular file).
class RegularFileReader
{
public:
    explicit RegularFileReader(const QString& file)
        : m_file(file)
        , m_fd(::open(QFile::encodeName(file).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC))
    {
        if (m_fd < 0) {
            m_error = readError();
            return;
        }
        struct stat st
        { };
        if (::fstat(m_fd, &st) != 0)
            m_error = readError();
        else if (!S_ISREG(st.st_mode))
            m_error = notRegularFileMessage(file, quint32(st.st_mode & S_IFMT));
        m_size = qint64(st.st_size);
    }
    ~RegularFileReader()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    RegularFileReader(const RegularFileReader&) = delete;
    RegularFileReader& operator=(const RegularFileReader&) = delete;

    const QString& error() const { return m_error; }
    int fd() const { return m_fd; }
    qint64 size() const { return m_size; }
    // "cannot read <file>: <strerror(errno)>"
    QString readError() const { return errnoText(QStringLiteral("cannot read"), m_file); }

private:
    QString m_file;
    int m_fd = -1;
    qint64 m_size = 0;
    QString m_error;
};

} // namespace

LocalTransport::LocalTransport(QString homeDir)
    : m_home(homeDir.isEmpty() ? QDir::homePath() : std::move(homeDir))
{ }

QString LocalTransport::describe() const
{
    return QStringLiteral("local");
}

QString LocalTransport::resolve(const QString& path) const
{
    if (path == QLatin1String("~"))
        return m_home;
    if (path.startsWith(QLatin1String("~/")))
        return m_home + path.mid(1);
    if (QDir::isAbsolutePath(path))
        return path;
    return m_home + QLatin1Char('/') + path;
}

ExecResult LocalTransport::exec(const CommandSpec& spec, int timeoutMs)
{
    QProcess p;
    setupProcess(p, spec, m_home);
    p.start();
    ExecResult r;
    if (!p.waitForStarted(10000)) {
        r.error = QStringLiteral("could not start /bin/sh: ") + p.errorString();
        return r;
    }
    if (!spec.stdinData.isEmpty())
        p.write(spec.stdinData);
    p.closeWriteChannel();
    const qint64 cap = spec.maxOutputBytes > 0 ? spec.maxOutputBytes : CommandSpec::kDefaultMaxOutputBytes;
    QElapsedTimer clock;
    clock.start();
    bool capped = false;
    auto stop = [&p] {
        killGroup(p, SIGKILL);
        p.kill();
        p.waitForFinished(2000);
    };
    // Read as it comes, so that the cap bounds memory.
    while (p.state() != QProcess::NotRunning) {
        const qint64 left = timeoutMs < 0 ? 1000 : timeoutMs - clock.elapsed();
        if (left <= 0) {
            stop();
            r.error = QStringLiteral("timed out after %1 ms").arg(timeoutMs);
            break;
        }
        // Returns at once when the command closed its output but runs on: then wait a little.
        if (!p.waitForReadyRead(int(qMin<qint64>(left, 1000))) && p.state() != QProcess::NotRunning)
            p.waitForFinished(int(qMin<qint64>(left, 100)));
        r.stdOut += p.readAllStandardOutput();
        r.stdErr += p.readAllStandardError();
        if (r.stdOut.size() + r.stdErr.size() > cap) {
            capped = true;
            stop();
            break;
        }
    }
    r.stdOut += p.readAllStandardOutput();
    r.stdErr += p.readAllStandardError();
    if (capped || r.stdOut.size() + r.stdErr.size() > cap) {
        r.stdOut.truncate(qMin<qint64>(r.stdOut.size(), cap));
        r.stdErr.truncate(qMax<qint64>(0, cap - r.stdOut.size()));
        r.error = outputCapError(cap);
        return r;
    }
    if (r.error.isEmpty()) {
        if (p.exitStatus() == QProcess::CrashExit)
            r.signal = QStringLiteral("KILL");
        else
            r.exitCode = p.exitCode();
    }
    return r;
}

std::unique_ptr<ProcessHandle> LocalTransport::start(const CommandSpec& spec)
{
    return std::make_unique<LocalProcess>(spec, m_home);
}

Result<QByteArray> LocalTransport::readFile(const QString& path, qint64 maxBytes)
{
    const QString file = resolve(path);
    const RegularFileReader f(file);
    if (!f.error().isEmpty())
        return Result<QByteArray>::failure(f.error());
    if (f.size() > maxBytes)
        return Result<QByteArray>::failure(fileTooLargeMessage(file, f.size(), maxBytes));
    QByteArray data;
    data.resize(qsizetype(qMin<qint64>(qMax<qint64>(f.size(), 0) + 1, maxBytes + 1)));
    qsizetype got = 0;
    for (;;) {
        if (got == data.size()) {
            if (got > maxBytes)
                break;
            data.resize(qsizetype(qMin<qint64>(qint64(data.size()) * 2 + 4096, maxBytes + 1)));
        }
        const ssize_t n = ::read(f.fd(), data.data() + got, size_t(data.size() - got));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Result<QByteArray>::failure(f.readError());
        }
        if (n == 0)
            break;
        got += n;
    }
    if (got > maxBytes)
        return Result<QByteArray>::failure(fileTooLargeMessage(file, got, maxBytes, true));
    data.truncate(got);
    return data;
}

Result<QByteArray> LocalTransport::readFileRange(const QString& path, qint64 offset, qint64 length)
{
    const QString file = resolve(path);
    if (offset < 0 || length < 0)
        return Result<QByteArray>::failure(QStringLiteral("cannot read %1: bad range").arg(file));
    const RegularFileReader f(file);
    if (!f.error().isEmpty())
        return Result<QByteArray>::failure(f.error());
    QByteArray data;
    data.resize(qsizetype(qBound<qint64>(0, f.size() - offset, length)));
    qsizetype got = 0;
    while (got < data.size()) {
        const ssize_t n = ::pread(f.fd(), data.data() + got, size_t(data.size() - got), off_t(offset + got));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Result<QByteArray>::failure(f.readError());
        }
        if (n == 0)
            break; // the file shrank meanwhile
        got += n;
    }
    data.truncate(got);
    return data;
}

Result<void> LocalTransport::writeFileAtomic(const QString& path, const QByteArray& data, const WriteOptions& options)
{
    const QString target = resolve(path);
    const QFileInfo info(target);
    const QByteArray dir = QFile::encodeName(info.absolutePath());
    struct stat old
    { };
    const bool hadOld = ::stat(QFile::encodeName(target).constData(), &old) == 0;
    QByteArray tmpl = dir + "/." + QFile::encodeName(info.fileName()) + ".kf-tmp-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        return Result<void>::failure(errnoText(QStringLiteral("cannot create a temporary file next to"), target));
    auto fail = [&](const QString& what) {
        const Result<void> s = Result<void>::failure(errnoText(what, target));
        ::close(fd);
        ::unlink(tmpl.constData());
        return s;
    };
    for (qsizetype done = 0; done < data.size();) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(QStringLiteral("cannot write"));
        }
        done += n;
    }
    const mode_t mode = options.mode >= 0 ? mode_t(options.mode) : hadOld ? (old.st_mode & 07777) : 0644;
    if (::fchmod(fd, mode) != 0)
        return fail(QStringLiteral("cannot set the mode of"));
    if (hadOld && options.keepOwner && (old.st_uid != ::geteuid() || old.st_gid != ::getegid()))
        (void)::fchown(fd, old.st_uid, old.st_gid); // best effort: only root may give files away
    if (!hadOld && (options.uid >= 0 || options.gid >= 0))
        (void)::fchown(fd, options.uid >= 0 ? uid_t(options.uid) : uid_t(-1),
            options.gid >= 0 ? gid_t(options.gid) : gid_t(-1)); // best effort, as above
    if (::fsync(fd) != 0)
        return fail(QStringLiteral("cannot sync"));
    ::close(fd);
    if (::rename(tmpl.constData(), QFile::encodeName(target).constData()) != 0) {
        const Result<void> s = Result<void>::failure(errnoText(QStringLiteral("cannot replace"), target));
        ::unlink(tmpl.constData());
        return s;
    }
    if (const int dfd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return {};
}

Result<FileInfo> LocalTransport::stat(const QString& path)
{
    FileInfo fi;
    fi.name = path;
    struct stat st
    { };
    const QByteArray p = QFile::encodeName(resolve(path));
    if (::lstat(p.constData(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return fi;
        return Result<FileInfo>::failure(errnoText(QStringLiteral("cannot stat"), path));
    }
    fi.isSymlink = S_ISLNK(st.st_mode);
    if (fi.isSymlink)
        ::stat(p.constData(), &st); // a dangling link keeps what lstat said
    fi.exists = true;
    fi.type = quint32(st.st_mode & S_IFMT);
    fi.isDir = S_ISDIR(st.st_mode);
    fi.size = st.st_size;
    fi.mode = st.st_mode & 07777;
    fi.uid = st.st_uid;
    fi.gid = st.st_gid;
    fi.mtime = st.st_mtime;
    return fi;
}

Result<QList<FileInfo>> LocalTransport::list(const QString& directory)
{
    QDir dir(resolve(directory));
    if (!dir.exists())
        return Result<QList<FileInfo>>::failure(QStringLiteral("no such folder: ") + directory);
    QList<FileInfo> out;
    const auto names = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& name : names) {
        auto st = stat(dir.filePath(name));
        if (!st)
            continue;
        FileInfo fi = st.value();
        fi.name = name;
        out << fi;
    }
    return out;
}

Result<void> LocalTransport::mkpath(const QString& directory, int mode)
{
    const QString target = QDir::cleanPath(resolve(directory));
    QString cur;
    for (const QString& part : target.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        cur += QLatin1Char('/') + part;
        const QByteArray p = QFile::encodeName(cur);
        if (::mkdir(p.constData(), mode_t(mode)) == 0) {
            ::chmod(p.constData(), mode_t(mode)); // exactly `mode`, whatever the umask says
            continue;
        }
        struct stat st
        { };
        if (errno != EEXIST || ::stat(p.constData(), &st) != 0 || !S_ISDIR(st.st_mode))
            return Result<void>::failure(errnoText(QStringLiteral("cannot create folder"), cur));
    }
    return {};
}

Result<QString> LocalTransport::canonicalPath(const QString& path)
{
    char buf[PATH_MAX];
    if (!::realpath(QFile::encodeName(resolve(path)).constData(), buf))
        return Result<QString>::failure(errnoText(QStringLiteral("cannot resolve"), path));
    return QFile::decodeName(buf);
}

Result<std::unique_ptr<TunnelStream>> LocalTransport::openTunnel(const QString& host, quint16 port)
{
    auto t = std::make_unique<LocalTunnel>();
    t->socket.setReadBufferSize(kTunnelBufferBytes); // Qt stops reading the socket when full
    t->socket.connectToHost(host, port);
    if (!t->socket.waitForConnected(10000))
        return Result<std::unique_ptr<TunnelStream>>::failure(
            QStringLiteral("cannot connect to %1:%2: %3").arg(host).arg(port).arg(t->socket.errorString()));
    return std::unique_ptr<TunnelStream>(std::move(t));
}

} // namespace kf
