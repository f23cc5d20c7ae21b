// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli exec / get / put: ssh and scp-like commands over the SSH layer.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/ssh/bulkupload.h"
#include "core/ssh/sshtransport.h"
#include "core/util/terminaltext.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>
#include <unistd.h>

namespace {

using namespace kf;
using namespace kf::cli;

const char kSshOptionsHelp[]
    = "  -p PORT             port (default 22)\n"
      "  -i KEY              identity file (repeatable; default ~/.ssh/id_ed25519, id_ecdsa, id_rsa)\n"
      "  -J [USER@]JUMP      connect through a jump host (ProxyJump)\n"
      "  -F FILE             ssh configuration to read instead of ~/.ssh/config and /etc/ssh/ssh_config\n"
      "                      (\"none\": no file). HOST may be a Host alias of it or a saved host's name.\n"
      "  --known-hosts FILE  known_hosts file (default ~/.ssh/known_hosts)\n"
      "  --accept-new        trust and save an unknown host key (a changed key is always refused)\n";

int signalNumber(const QString& name)
{
    static const QList<QPair<QString, int>> table {
        { QStringLiteral("HUP"), SIGHUP },
        { QStringLiteral("INT"), SIGINT },
        { QStringLiteral("QUIT"), SIGQUIT },
        { QStringLiteral("ILL"), SIGILL },
        { QStringLiteral("ABRT"), SIGABRT },
        { QStringLiteral("FPE"), SIGFPE },
        { QStringLiteral("KILL"), SIGKILL },
        { QStringLiteral("SEGV"), SIGSEGV },
        { QStringLiteral("PIPE"), SIGPIPE },
        { QStringLiteral("ALRM"), SIGALRM },
        { QStringLiteral("TERM"), SIGTERM },
        { QStringLiteral("USR1"), SIGUSR1 },
        { QStringLiteral("USR2"), SIGUSR2 },
        { QStringLiteral("BUS"), SIGBUS },
    };
    for (const auto& [n, v] : table)
        if (n == name)
            return v;
    return 0;
}

// A one-line progress bar on stderr when it is a terminal.
class ProgressBar
{
public:
    explicit ProgressBar(QString label)
        : m_label(std::move(label))
        , m_tty(::isatty(2) == 1)
    {
        m_timer.start();
    }
    void update(qint64 done, qint64 total)
    {
        if (!m_tty || (m_timer.elapsed() - m_last < 200 && done != total))
            return;
        m_last = m_timer.elapsed();
        const double secs = qMax<qint64>(1, m_timer.elapsed()) / 1000.0;
        const double mbs = double(done) / 1e6 / secs;
        const int pct = total > 0 ? int(100 * done / total) : 0;
        const int width = 30;
        const int filled = total > 0 ? int(width * done / total) : 0;
        const QString bar = QString(filled, QLatin1Char('#')) + QString(width - filled, QLatin1Char('.'));
        fprintf(stderr, "\r%s [%s] %3d%% %8.1f MB %6.1f MB/s", qPrintable(terminalSafe(m_label)), qPrintable(bar), pct,
            double(done) / 1e6, mbs);
        fflush(stderr);
        m_drawn = true;
    }
    ~ProgressBar()
    {
        if (m_drawn)
            fputs("\n", stderr);
    }

private:
    QString m_label;
    bool m_tty;
    bool m_drawn = false;
    QElapsedTimer m_timer;
    qint64 m_last = -1000;
};

int runExec(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        out() << "Usage: kernelforge-cli exec [OPTIONS] [USER@]HOST -- COMMAND [ARGS...]\n\n"
              << "Runs COMMAND on the server, mirroring its stdout and stderr, and exits with its status\n"
              << "(128+N when it died of signal N; 255 when the connection, host key or login failed).\n\n"
              << kSshOptionsHelp << Qt::flush;
        return 0;
    }
    const auto parsed = takeSshOptions(args);
    if (!parsed) {
        err() << "kernelforge-cli exec: " << parsed.error() << "\n" << Qt::flush;
        return kExitUsage;
    }
    const SshCliOptions& opts = *parsed;
    if (!args.isEmpty() && args.first() == QLatin1String("--"))
        args.removeFirst();
    if (args.isEmpty()) {
        err() << "kernelforge-cli exec: missing COMMAND (after --)\n" << Qt::flush;
        return kExitUsage;
    }
    auto transport = connectForCli(opts);
    if (!transport)
        return connectionError(QStringLiteral("kernelforge-cli exec"), transport.error());

    // Like ssh: the words are joined with spaces and the remote shell parses them.
    CommandSpec spec;
    spec.command = args.join(QLatin1Char(' '));
    auto handle = transport.value()->start(spec);
    ProcessExit result;
    QEventLoop loop;
    QObject::connect(handle.get(), &ProcessHandle::stdoutReceived, &loop, [](const QByteArray& c) {
        fwrite(c.constData(), 1, size_t(c.size()), stdout);
        fflush(stdout);
    });
    QObject::connect(handle.get(), &ProcessHandle::stderrReceived, &loop, [](const QByteArray& c) {
        fwrite(c.constData(), 1, size_t(c.size()), stderr);
        fflush(stderr);
    });
    QObject::connect(handle.get(), &ProcessHandle::finished, &loop, [&](const ProcessExit& e) {
        result = e;
        loop.quit();
    });
    // Our stdin goes to the remote command, as with ssh. The reader thread may block in
    // read(2) forever (a terminal); it only posts to the application object, which
    // outlives it, and stops posting once the command finished.
    auto alive = std::make_shared<std::atomic<bool>>(true);
    ProcessHandle* raw = handle.get();
    std::thread([alive, raw] {
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(0, buf, sizeof buf);
            if (!*alive)
                return;
            if (n <= 0) {
                QMetaObject::invokeMethod(
                    qApp,
                    [alive, raw] {
                        if (*alive)
                            raw->closeStdin();
                    },
                    Qt::QueuedConnection);
                return;
            }
            QByteArray chunk(buf, n);
            QMetaObject::invokeMethod(
                qApp,
                [alive, raw, chunk] {
                    if (*alive)
                        raw->writeStdin(chunk);
                },
                Qt::QueuedConnection);
        }
    }).detach();
    loop.exec();
    *alive = false;
    if (!result.error.isEmpty())
        return connectionError(QStringLiteral("kernelforge-cli exec"), result.error);
    if (!result.signal.isEmpty()) {
        const int n = signalNumber(result.signal);
        return n ? 128 + n : kExitConnection;
    }
    return result.exitCode;
}

std::shared_ptr<SshTransport> sshOf(const std::shared_ptr<Transport>& t)
{
    return std::dynamic_pointer_cast<SshTransport>(t);
}

int runGet(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        out() << "Usage: kernelforge-cli get [OPTIONS] [USER@]HOST:REMOTE LOCAL\n\n"
              << "Downloads REMOTE over SFTP (LOCAL may be a folder).\n\n"
              << kSshOptionsHelp << Qt::flush;
        return 0;
    }
    const auto parsed = takeSshOptions(args);
    if (!parsed || !parsed->hasRemotePath || parsed->remotePath.isEmpty() || args.size() != 1) {
        err() << "kernelforge-cli get: "
              << (parsed ? QStringLiteral("usage: get [OPTIONS] [USER@]HOST:REMOTE LOCAL") : parsed.error()) << "\n"
              << Qt::flush;
        return kExitUsage;
    }
    const SshCliOptions& opts = *parsed;
    QString local = args.first();
    if (QFileInfo(local).isDir())
        local += QLatin1Char('/') + QFileInfo(opts.remotePath).fileName();
    auto transport = connectForCli(opts);
    if (!transport)
        return connectionError(QStringLiteral("kernelforge-cli get"), transport.error());
    ProgressBar bar(QFileInfo(opts.remotePath).fileName());
    const Result<void> s
        = sshOf(transport.value())->download(opts.remotePath, local, [&bar](qint64 d, qint64 t) { bar.update(d, t); });
    if (!s) {
        err() << "kernelforge-cli get: " << s.error() << "\n" << Qt::flush;
        return 1;
    }
    return 0;
}

int runPut(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        out() << "Usage: kernelforge-cli put [OPTIONS] LOCAL [USER@]HOST:REMOTE\n\n"
              << "Uploads LOCAL over SFTP and swaps it into place atomically: readers see the old file or the\n"
              << "new one, never a mix. The file goes in 16 MiB chunks over several SSH connections at once\n"
              << "into REMOTE.kfpart (REMOTE.kfpart.json records the chunks on disk); once the SHA-256 of the\n"
              << "whole on the server equals the local file's, it is renamed over REMOTE. An upload that was\n"
              << "cut off (Ctrl-C, a lost connection) resumes when run again with the same file.\n\n"
              << "  --sessions N        SSH connections in parallel, 1-16 (default 4; 1: one stream)\n"
              << kSshOptionsHelp << Qt::flush;
        return 0;
    }
    int sessions = 4;
    if (const qsizetype at = args.indexOf(QStringLiteral("--sessions")); at >= 0) {
        bool ok = false;
        sessions = args.value(at + 1).toInt(&ok);
        if (!ok || sessions < 1 || sessions > 16) {
            err() << "kernelforge-cli put: --sessions takes a number from 1 to 16\n" << Qt::flush;
            return kExitUsage;
        }
        args.remove(at, 2);
    }
    const auto parsed = takeSshOptions(args);
    if (!parsed || !parsed->hasRemotePath || args.size() != 1) {
        err() << "kernelforge-cli put: "
              << (parsed ? QStringLiteral("usage: put [OPTIONS] LOCAL [USER@]HOST:REMOTE") : parsed.error()) << "\n"
              << Qt::flush;
        return kExitUsage;
    }
    const SshCliOptions& opts = *parsed;
    const QFileInfo local(args.first());
    if (!local.isFile()) {
        err() << "kernelforge-cli put: no such file: " << cleanPath(args.first()) << "\n" << Qt::flush;
        return 1;
    }
    auto transport = connectForCli(opts);
    if (!transport)
        return connectionError(QStringLiteral("kernelforge-cli put"), transport.error());
    auto ssh = sshOf(transport.value());
    QString remote = opts.remotePath.isEmpty() ? local.fileName() : opts.remotePath;
    if (remote.endsWith(QLatin1Char('/'))) {
        remote += local.fileName();
    } else if (auto st = ssh->stat(remote); st && st->exists && st->isDir) {
        remote += QLatin1Char('/') + local.fileName();
    }
    WriteOptions wo;
    // A new file gets the local file's permission bits, as scp does.
    if (auto st = ssh->stat(remote); st && !st->exists) {
        const QFile::Permissions p = local.permissions();
        int mode = 0;
        if (p & QFile::ReadOwner)
            mode |= 0400;
        if (p & QFile::WriteOwner)
            mode |= 0200;
        if (p & QFile::ExeOwner)
            mode |= 0100;
        if (p & QFile::ReadGroup)
            mode |= 0040;
        if (p & QFile::WriteGroup)
            mode |= 0020;
        if (p & QFile::ExeGroup)
            mode |= 0010;
        if (p & QFile::ReadOther)
            mode |= 0004;
        if (p & QFile::WriteOther)
            mode |= 0002;
        if (p & QFile::ExeOther)
            mode |= 0001;
        wo.mode = mode;
    }
    BulkUploadOptions bo;
    bo.sessions = sessions;
    bo.write = wo;
    std::optional<BulkUploadResult> done;
    {
        ProgressBar bar(local.fileName());
        bo.progress = [&bar](qint64 d, qint64 t) { bar.update(d, t); }; // one call at a time
        const Result<BulkUploadResult> s = bulkUpload(*ssh, local.filePath(), remote, bo);
        if (!s) {
            err() << "kernelforge-cli put: " << s.error() << "\n" << Qt::flush;
            return 1;
        }
        done = s.value();
    }
    const auto mib = [](qint64 bytes) { return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1); };
    out() << terminalSafe(remote) << ": " << mib(done->sent) << " MiB sent, " << mib(done->resumed)
          << " MiB resumed, over " << done->sessions << (done->sessions == 1 ? " connection" : " connections")
          << "; SHA-256 " << QString::fromLatin1(done->sha256) << " checked on the server\n"
          << Qt::flush;
    return 0;
}

const Registration regExec { "exec", "Run a command on a server over SSH (like ssh HOST -- CMD)", &runExec };
const Registration regGet { "get", "Download a file over SFTP (like scp HOST:REMOTE LOCAL)", &runGet };
const Registration regPut { "put",
    "Upload a file over SFTP (parallel, resumable, hash-checked), replacing the remote file atomically", &runPut };

} // namespace
