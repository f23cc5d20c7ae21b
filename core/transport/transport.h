// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

// What every feature talks to: run a command, read/write a file, open a tunnel.
// Implementations: LocalTransport (this machine, QProcess/QFile) and SshTransport
// (one multiplexed libssh2 session per host, core/ssh).
//
// Threading contract:
//  - A Transport is thread-safe. The blocking calls (exec, readFile, writeFileAtomic, stat,
//    list, mkpath, openTunnel) may be called from any thread except the GUI thread and
//    the SSH session thread; the GUI runs them on transportPool() (docs/STYLE.md, Threads).
//  - start() returns a ProcessHandle that lives in the calling thread (which needs an
//    event loop) and reports output through queued signals as it arrives.
// Paths: absolute, or relative to the login user's home directory; a leading "~/" means
// the home directory too.
namespace kf {

struct CommandSpec
{
    // A POSIX sh script run by /bin/sh whatever the login shell (may span lines; quote words
    // with shellQuote/shellJoin); `arguments` are its $1, $2...
    QString command;
    QStringList arguments;
    // Exported before the command. The values never appear on a command line (ps): over SSH
    // they travel on stdin ahead of stdinData, locally in the process environment.
    QMap<QString, QString> env;
    QString workingDirectory; // empty: home
    QByteArray stdinData;     // written then closed, for exec(); start() keeps stdin open
    bool pty = false;         // no env with a pty (its stdin echoes)
    bool resumable = false;   // start(): reopen after a reconnect (e.g. `tail -f`, nvidia-smi -lms)
    // exec(): stdout + stderr kept at most; past it the command is stopped and the result's
    // error says "output exceeds ..." (a login script that prints without end must not
    // exhaust memory). start() streams and has no cap.
    qint64 maxOutputBytes = kDefaultMaxOutputBytes;
    static constexpr qint64 kDefaultMaxOutputBytes = 64LL * 1024 * 1024;
};

// The error of an exec() whose output passed spec.maxOutputBytes.
inline QString outputCapError(qint64 maxOutputBytes)
{
    return QStringLiteral(
        "output exceeds %1 MiB: stopped reading (does a login script such as ~/.bashrc print that much?)")
        .arg(double(maxOutputBytes) / (1024.0 * 1024.0), 0, 'g', 3);
}

struct ProcessExit
{
    int exitCode = -1; // -1 when killed by a signal or never ran
    QString signal;    // "KILL", "TERM"... when the remote process died of a signal
    QString error;     // transport failure (connection lost, could not start); empty otherwise
    bool ok() const { return error.isEmpty() && signal.isEmpty() && exitCode == 0; }
};

// [[nodiscard]] as Result is: a dropped ExecResult is a dropped error (its error, exit code, signal).
struct [[nodiscard]] ExecResult : ProcessExit
{
    QByteArray stdOut;
    QByteArray stdErr;
};

struct FileInfo
{
    QString name; // file name (list) or path as asked (stat)
    bool exists = false;
    bool isDir = false;
    bool isSymlink = false;
    qint64 size = 0;
    quint32 mode = 0; // permission bits, e.g. 0644
    // S_IFMT bits of what the path leads to (symlinks followed; a dangling link's own type):
    // S_IFREG, S_IFDIR, S_IFIFO, S_IFCHR, ... 0 when the server did not say.
    quint32 type = 0;
    quint32 uid = 0;
    quint32 gid = 0;
    qint64 mtime = 0; // seconds since the epoch
};

// "a FIFO", "a character device", "a folder", ... for messages ("not a regular file (a FIFO)").
QString fileTypeName(quint32 type);

// What readFile() reads unless the caller names its own limit for the purpose.
inline constexpr qint64 kDefaultReadLimit = qint64(64) << 20;
// The messages of refused reads, shared by every Transport:
//   "cannot read PATH: not a regular file (a FIFO)"
//   "cannot read PATH: file too large (N bytes, limit M)"
QString notRegularFileMessage(const QString& path, quint32 type);
// atLeast: the size is not known (the file grew while read, /proc files say 0): "at least N bytes".
QString fileTooLargeMessage(const QString& path, qint64 size, qint64 limit, bool atLeast = false);

struct WriteOptions
{
    int mode = -1;         // permission bits for a new file; -1: keep the existing file's, else 0644
    bool keepOwner = true; // copy uid/gid of the file being replaced (when permitted)
    // Owner for a file that does not exist yet (a backup keeps its original's); -1: the
    // writer's. Set when permitted (root, or a group the user is in); silently kept otherwise.
    qint64 uid = -1;
    qint64 gid = -1;
};

// A long-running command whose output arrives in chunks. Lives in the thread that called
// Transport::start(). finished() is emitted exactly once; after it nothing else is emitted.
class ProcessHandle : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~ProcessHandle() override = default;
    virtual void writeStdin(const QByteArray& data) = 0;
    virtual void closeStdin() = 0;
    // Asks the process to stop (signal TERM, then close the channel); finished() follows.
    virtual void cancel() = 0;
    virtual bool isRunning() const = 0;

Q_SIGNALS:
    void stdoutReceived(const QByteArray& chunk);
    void stderrReceived(const QByteArray& chunk);
    // A resumable stream was reopened after a reconnect; output may have a gap before this.
    void resumed();
    void finished(const kf::ProcessExit& exit);
};

// Unread inbound bytes a tunnel buffers; past it, it stops reading from the network until
// the reader takes them (TCP / SSH window back-pressure).
inline constexpr qsizetype kTunnelBufferBytes = 4 * 1024 * 1024;

// A byte stream to host:port as seen from the server (direct-tcpip over SSH; a plain TCP
// socket locally). Blocking; use from a worker thread.
class TunnelStream
{
public:
    virtual ~TunnelStream() = default;
    virtual Result<void> write(const QByteArray& data) = 0;
    // Returns what is available, waiting up to timeoutMs for the first byte; an empty
    // array with atEnd() true means the peer closed.
    virtual Result<QByteArray> read(int timeoutMs) = 0;
    virtual bool atEnd() const = 0;
    virtual void close() = 0;
};

class Transport
{
public:
    virtual ~Transport() = default;

    // "alice@gpu1:22" or "local"; for messages and logs.
    virtual QString describe() const = 0;

    virtual ExecResult exec(const CommandSpec& spec, int timeoutMs = -1) = 0;
    virtual std::unique_ptr<ProcessHandle> start(const CommandSpec& spec) = 0;

    // Reads a regular file (symlinks followed) of at most maxBytes. Anything else is refused
    // before it is opened (a FIFO would block the reader, /dev/zero never ends), and a file
    // that grows past the limit while being read is refused too; see the messages above.
    virtual Result<QByteArray> readFile(const QString& path, qint64 maxBytes = kDefaultReadLimit) = 0;
    // Reads at most `length` bytes of a regular file from `offset` (fewer at its end, none
    // past it): formats read by their headers (an ELF's section table, a zip's central
    // directory) in files too large to read whole. Refused like readFile when not a regular file.
    virtual Result<QByteArray> readFileRange(const QString& path, qint64 offset, qint64 length) = 0;
    // Temp file in the same folder, fsync, mode/owner copied, swapped over the original in
    // one rename; an interrupted write leaves the old file or the new one, never a mix.
    virtual Result<void> writeFileAtomic(const QString& path, const QByteArray& data, const WriteOptions& options = {})
        = 0;
    // A missing file is not an error: exists == false.
    virtual Result<FileInfo> stat(const QString& path) = 0;
    virtual Result<QList<FileInfo>> list(const QString& directory) = 0;
    // Creates the folder and any missing parents with `mode` (existing folders are kept as they are).
    virtual Result<void> mkpath(const QString& directory, int mode = 0755) = 0;
    // The absolute path with every symlink, "." and ".." resolved (realpath(3)) of a path
    // that exists.
    virtual Result<QString> canonicalPath(const QString& path) = 0;
    virtual Result<std::unique_ptr<TunnelStream>> openTunnel(const QString& host, quint16 port) = 0;
};

} // namespace kf

Q_DECLARE_METATYPE(kf::ProcessExit)
