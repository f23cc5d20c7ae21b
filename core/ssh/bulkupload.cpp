// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/bulkupload.h"

#include "core/log/logging.h"
#include "core/ssh/awaitop.h"
#include "core/ssh/sftpop.h"
#include "core/ssh/sftpwriteop.h"
#include "core/ssh/sshsession.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <openssl/evp.h>
#include <thread>
#include <vector>

namespace kf {
namespace {

using namespace kf::ssh;

// A state file is a few KB (one index per chunk); one this big is not ours.
constexpr qint64 kStateMaxBytes = qint64(1) << 20;
constexpr int kStateVersion = 1;

QString partSuffix()
{
    return QStringLiteral(".kfpart");
}

QString stateSuffix()
{
    return QStringLiteral(".kfpart.json");
}

// Hex SHA-256 of the local file; empty when stopped; an error when it cannot be read.
// OpenSSL's (SHA-NI where the CPU has it: several times QCryptographicHash's speed, which
// counts in a transfer of hundreds of MB).
Result<QByteArray> localSha256(const QString& path, const std::function<bool()>& stop)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<QByteArray>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
        return Result<QByteArray>::failure(QStringLiteral("cannot hash %1: no SHA-256 in OpenSSL").arg(path));
    QByteArray block(4 << 20, Qt::Uninitialized);
    for (;;) {
        if (stop && stop())
            return QByteArray();
        const qint64 n = f.read(block.data(), block.size());
        if (n < 0)
            return Result<QByteArray>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
        if (n == 0)
            break;
        EVP_DigestUpdate(ctx.get(), block.constData(), size_t(n));
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx.get(), digest, &length);
    return QByteArray(reinterpret_cast<const char*>(digest), int(length)).toHex();
}

QByteArray stateJson(qint64 size, const QByteArray& sha, qint64 chunkBytes, const std::vector<char>& recorded)
{
    QJsonArray done;
    for (size_t i = 0; i < recorded.size(); ++i)
        if (recorded[i])
            done.append(qint64(i));
    QJsonObject o;
    o.insert(QStringLiteral("version"), kStateVersion);
    o.insert(QStringLiteral("size"), size);
    o.insert(QStringLiteral("sha256"), QString::fromLatin1(sha));
    o.insert(QStringLiteral("chunkBytes"), chunkBytes);
    o.insert(QStringLiteral("done"), done);
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

// The chunks a state file records for this source (size, SHA-256 and chunk size all equal);
// empty when it describes anything else or does not parse. Indices are checked against
// `chunks`: the file comes from the server.
std::vector<char> recordedChunks(
    const QByteArray& json, qint64 size, const QByteArray& sha, qint64 chunkBytes, qint64 chunks)
{
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return {};
    const QJsonObject o = doc.object();
    const auto integer = [&o](const QString& key) {
        const QJsonValue v = o.value(key);
        return v.isDouble() && v.toDouble() == double(v.toInteger()) ? v.toInteger() : qint64(-1);
    };
    if (integer(QStringLiteral("version")) != kStateVersion || integer(QStringLiteral("size")) != size
        || integer(QStringLiteral("chunkBytes")) != chunkBytes
        || o.value(QStringLiteral("sha256")).toString().toLatin1() != sha)
        return {};
    const QJsonValue done = o.value(QStringLiteral("done"));
    if (!done.isArray())
        return {};
    std::vector<char> recorded(size_t(chunks), 0);
    for (const QJsonValue& v : done.toArray()) {
        const qint64 i = v.isDouble() && v.toDouble() == double(v.toInteger()) ? v.toInteger() : -1;
        if (i < 0 || i >= chunks)
            return {};
        recorded[size_t(i)] = 1;
    }
    return recorded;
}

QString sizeText(qint64 bytes)
{
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

// Up to `want` new sessions to the transport's host that log in without a person (as
// SshTransport::bulkSession() opens its one), their logins started; the main session alone
// when the main login needed a prompt.
std::vector<std::shared_ptr<SshSession>> startSessions(SshTransport& transport, int want)
{
    const std::shared_ptr<SshSession> main = transport.session();
    if (!main->loggedInWithoutPrompt()) {
        log::ssh()->info("{}: the login needed a prompt; bulk upload on the main connection only", main->describe());
        return { main };
    }
    SshSessionOptions o = transport.helperSessionOptions();
    o.reconnect = false; // a lost helper fails its chunk; the call fails and a new one resumes
    std::vector<std::shared_ptr<SshSession>> opened;
    for (int i = 0; i < want; ++i) {
        opened.push_back(std::make_shared<SshSession>(o));
        opened.back()->connectToHost(); // all log in at once
    }
    return opened;
}

// Those of the started sessions that logged in (the main one when none did), said in the log.
std::vector<std::shared_ptr<SshSession>> readySessions(
    SshTransport& transport, const std::vector<std::shared_ptr<SshSession>>& started)
{
    const std::shared_ptr<SshSession> main = transport.session();
    if (started.size() == 1 && started.front() == main)
        return started;
    std::vector<std::shared_ptr<SshSession>> ready;
    QString why;
    for (const auto& s : started) {
        if (Result<void> r = s->waitUntilReady(main->options().timeoutMs * 2); r)
            ready.push_back(s);
        else if (why.isEmpty())
            why = r.error();
    }
    if (ready.empty()) {
        log::ssh()->info("{}: no extra connection for a bulk upload ({}); using the main one", main->describe(), why);
        return { main };
    }
    if (ready.size() < started.size())
        log::ssh()->info(
            "{}: bulk upload over {} of {} connections ({})", main->describe(), ready.size(), started.size(), why);
    return ready;
}

// What the workers and the coordinating caller share.
struct Shared
{
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<qint64> pending; // chunk indices still to send
    std::vector<qint64> landed; // written and fsynced, not yet in the state file
    int active = 0;             // workers still running
    QString error;              // the first failure other than a stop
    std::atomic<bool> stop { false };
    std::atomic<qint64> doneBytes { 0 };             // resumed + chunks landed this call
    std::unique_ptr<std::atomic<qint64>[]> inFlight; // per worker: bytes acked of its chunk
    int workers = 0;
    std::mutex progressMutex; // one progress call at a time
};

} // namespace

Result<BulkUploadResult> bulkUpload(
    SshTransport& transport, const QString& localPath, const QString& remotePath, const BulkUploadOptions& options)
{
    using R = Result<BulkUploadResult>;
    const auto stopRequested = [&options] { return options.stopRequested && options.stopRequested(); };
    const qint64 chunkBytes = qMax<qint64>(options.chunkBytes, 64 * 1024);
    QFile local(localPath);
    if (!local.open(QIODevice::ReadOnly))
        return R::failure(QStringLiteral("cannot read %1: %2").arg(localPath, local.errorString()));
    const qint64 total = local.size();
    local.close();
    const qint64 chunks = (total + chunkBytes - 1) / chunkBytes;
    QElapsedTimer clock; // the phases' times go to the log: where a slow upload spent them
    clock.start();
    QList<qint64> marks;
    // The local hash (a fraction of a second per 100 MB) while the server is asked what is
    // there and the extra connections log in.
    Result<QByteArray> sha = QByteArray();
    std::jthread hashing([&] { sha = localSha256(localPath, options.stopRequested); });

    const QString target = SshTransport::sftpPath(remotePath);
    const QString part = target + partSuffix();
    const QString statePath = target + stateSuffix();
    const QString shellState = SshTransport::shellPath(statePath);
    const QString stateTemp = SshTransport::shellPath(statePath + QStringLiteral(".tmp"));
    const auto old = transport.stat(target);
    if (!old)
        return R::failure(old.error());
    if (old->exists && old->isDir)
        return R::failure(QStringLiteral("cannot write %1: it is a folder").arg(remotePath));
    std::vector<std::shared_ptr<SshSession>> sessions;
    if (chunks > 0)
        sessions = startSessions(transport, int(qBound<qint64>(1, qint64(options.sessions), chunks)));
    hashing.join();
    marks << clock.elapsed(); // hash (and the target's stat)
    if (!sha)
        return R::failure(sha.error());
    if (sha->isEmpty())
        return R::failure(QStringLiteral("upload of %1 interrupted before it started").arg(localPath));

    // What an earlier call left: kept only when it describes this very source.
    std::vector<char> recorded;
    {
        const auto st = transport.stat(statePath);
        const auto partInfo = transport.stat(part);
        if (!st || !partInfo)
            return R::failure(!st ? st.error() : partInfo.error());
        if (st->exists && !st->isDir && st->size <= kStateMaxBytes && partInfo->exists && !partInfo->isDir) {
            const auto json = transport.readFile(statePath, kStateMaxBytes);
            if (!json && json.kind() != ErrorKind::NotFound)
                return R::failure(json.error());
            if (json)
                recorded = recordedChunks(json.value(), total, sha.value(), chunkBytes, chunks);
            // The partial file holds every recorded chunk whole, and nothing past the source.
            qint64 end = 0;
            for (size_t i = 0; i < recorded.size(); ++i)
                if (recorded[i])
                    end = qMax(end, qMin(total, qint64(i + 1) * chunkBytes));
            if (partInfo->size > total || partInfo->size < end)
                recorded.clear();
        }
        if (recorded.empty() && (st->exists || partInfo->exists))
            log::ssh()->info("{}: discarding the partial upload of {} (another source or an unreadable state)",
                transport.describe(), remotePath);
    }
    if (recorded.empty()) {
        // The state goes first: a partial file without one is never trusted.
        if (Result<void> r = transport.remove(statePath); !r)
            return R::failure(r.error());
        if (Result<void> r = transport.remove(part); !r)
            return R::failure(r.error());
        static_cast<void>(transport.remove(statePath + QStringLiteral(".tmp"))); // of a state write cut short
        SftpWriteOp::Params create;
        create.path = part;
        create.mode = 0600;
        if (Result<void> r = runOp(*transport.session(), std::make_shared<SftpWriteOp>(create)); !r)
            return R::failure(r.error());
        recorded.assign(size_t(chunks), 0);
    }

    BulkUploadResult result;
    result.total = total;
    Shared shared;
    for (qint64 i = 0; i < chunks; ++i) {
        if (recorded[size_t(i)])
            result.resumed += qMin(chunkBytes, total - i * chunkBytes);
        else
            shared.pending.push_back(i);
    }
    shared.doneBytes = result.resumed;
    const auto report = [&](bool always) {
        if (!options.progress)
            return;
        std::unique_lock lock(shared.progressMutex, std::defer_lock);
        if (always)
            lock.lock();
        else if (!lock.try_lock())
            return; // another thread is reporting; the next call covers this one
        qint64 done = shared.doneBytes;
        for (int w = 0; w < shared.workers; ++w)
            done += shared.inFlight[w];
        options.progress(qMin(done, total), total);
    };
    report(true);

    if (shared.pending.empty())
        sessions.clear(); // all there from a previous call
    else
        sessions = readySessions(transport, sessions);
    if (sessions.size() > shared.pending.size())
        sessions.resize(shared.pending.size()); // a resume with less left than sessions
    result.sessions = int(sessions.size());
    shared.workers = result.sessions;
    shared.inFlight = std::make_unique<std::atomic<qint64>[]>(size_t(qMax(1, shared.workers)));
    const auto stopNow = [&] {
        if (!shared.stop && stopRequested())
            shared.stop = true;
        return shared.stop.load();
    };

    const auto worker = [&](int w) {
        SshSession& session = *sessions[size_t(w)];
        for (;;) {
            qint64 index = -1;
            {
                std::lock_guard lock(shared.mutex);
                if (shared.pending.empty() || !shared.error.isEmpty())
                    break;
                index = shared.pending.front();
                shared.pending.pop_front();
            }
            SftpWriteOp::Params p;
            p.path = part;
            p.localPath = localPath;
            p.open = SftpWriteOp::Open::Existing;
            p.offset = index * chunkBytes;
            p.length = qMin(chunkBytes, total - p.offset);
            p.applyMode = false;
            p.fsync = false; // the coordinator's fsync covers it before it is recorded
            p.stopRequested = stopNow;
            p.progress = [&, w](qint64 done, qint64) {
                shared.inFlight[w] = done;
                report(false);
            };
            const qint64 length = p.length;
            const Result<void> r = stopNow() ? Result<void>::failure(QStringLiteral("stopped"))
                                             : runOp(session, std::make_shared<SftpWriteOp>(std::move(p)));
            shared.inFlight[w] = 0;
            std::lock_guard lock(shared.mutex);
            if (r) {
                shared.doneBytes += length;
                shared.landed.push_back(index);
                shared.cv.notify_all();
                continue;
            }
            shared.pending.push_front(index); // unsent: the others stop too, a later call sends it
            if (!shared.stop && shared.error.isEmpty())
                shared.error = r.error();
            break;
        }
        std::lock_guard lock(shared.mutex);
        --shared.active;
        shared.cv.notify_all();
    };
    std::vector<std::thread> threads;
    shared.active = result.sessions;
    marks << clock.elapsed(); // state read, partial file made, logins
    for (int w = 0; w < result.sessions; ++w)
        threads.emplace_back(worker, w);

    // The coordinator: the state file follows the chunks that landed, several per write while
    // one is on its way. A write that fails is retried with the next batch. Workers stop at
    // the first failure (after the chunks they are sending), or at a stop.
    QString stateError;
    {
        std::unique_lock lock(shared.mutex);
        for (;;) {
            shared.cv.wait(lock, [&] { return !shared.landed.empty() || shared.active == 0; });
            if (shared.landed.empty())
                break;
            if (shared.active == 0 && shared.pending.empty())
                break; // all there: the hash check and the rename follow at once
            const std::vector<qint64> batch = std::exchange(shared.landed, {});
            lock.unlock();
            // fsync(2) flushes the file whatever descriptor wrote it: the chunks that landed
            // before it started are on disk once it returns, and only then recorded.
            SftpWriteOp::Params flush;
            flush.path = part;
            flush.open = SftpWriteOp::Open::Existing;
            flush.length = 0;
            flush.applyMode = false;
            if (Result<void> f = runOp(*transport.session(), std::make_shared<SftpWriteOp>(flush)); !f) {
                stateError = f.error(); // the link is likely gone: nothing more is recorded
                lock.lock();
                shared.cv.wait(lock, [&] { return shared.active == 0; });
                break;
            }
            for (qint64 i : batch)
                recorded[size_t(i)] = 1;
            // One exec (3 round trips; writeFileAtomic takes 6): the JSON on stdin into a temp
            // file renamed over the state. Not fsynced: a state lost in a crash only costs a
            // resume, and one cut short does not parse (discarded); the chunks it names were.
            CommandSpec c;
            c.command = QStringLiteral("umask 077; cat > %1 && mv -f -- %1 %2").arg(stateTemp, shellState);
            c.stdinData = stateJson(total, sha.value(), chunkBytes, recorded);
            const ExecResult w = transport.exec(c, 120000);
            stateError = w.ok() ? QString() : !w.error.isEmpty() ? w.error : QString::fromUtf8(w.stdErr.left(4096));
            lock.lock();
        }
    }
    for (std::thread& t : threads)
        t.join();
    // The extra connections close (a round trip each) all at once, while the check below runs.
    std::jthread closing([all = std::move(sessions)]() mutable {
        std::vector<std::jthread> each;
        for (auto& s : all)
            each.emplace_back([one = std::move(s)]() mutable { one.reset(); });
    });
    result.sent = shared.doneBytes - result.resumed;
    report(true);

    if (!shared.pending.empty()) {
        const QString kept = QStringLiteral("%1 of %2 are on the server in %3; run it again to resume")
                                 .arg(sizeText(shared.doneBytes), sizeText(total), part);
        if (!stateError.isEmpty())
            log::ssh()->warn("{}: the state of {} was not saved: {}", transport.describe(), part, stateError);
        if (shared.stop)
            return R::failure(QStringLiteral("upload of %1 interrupted: %2").arg(localPath, kept));
        // A full disk: a partial file kept for a resume would only hold the space; it goes, as
        // upload()'s temp file does, and the message says so.
        const QString dir = target.contains(QLatin1Char('/')) ? target.left(target.lastIndexOf(QLatin1Char('/')))
                                                              : QStringLiteral(".");
        const QString shownDir = remotePath.contains(QLatin1Char('/'))
            ? remotePath.left(remotePath.lastIndexOf(QLatin1Char('/')))
            : QStringLiteral(".");
        if (!transport.diskFullReason(dir, shownDir, total - shared.doneBytes).isEmpty()) {
            static_cast<void>(transport.remove(statePath));
            static_cast<void>(transport.remove(part));
            const QString full = transport.diskFullReason(dir, shownDir, total);
            return R::failure(
                QStringLiteral("cannot write %1: %2")
                    .arg(remotePath,
                        full.isEmpty() ? QStringLiteral("no space left on device on %1").arg(shownDir) : full));
        }
        return R::failure(
            QStringLiteral("upload of %1 to %2 failed: %3; %4").arg(localPath, remotePath, shared.error, kept));
    }

    // Whole. One command on the server hashes the partial file and, only when it is the local
    // file's, gives it its mode (and owner, as SshTransport::upload does) and renames it over
    // the target: one exec instead of five round trips (hash, open, fsync+mode, close, mv).
    // The chunks were not fsynced one by one: `sync FILE` (coreutils >= 8.24; older ones sync
    // everything) makes the data durable before the rename, as upload()'s fsync does.
    // OpenSSH's sftp-server refuses an SFTP v3 rename onto an existing file and libssh2 1.10
    // has no posix-rename: `mv -f` is one rename(2). On a mismatch it removes both partial
    // files and prints its hash (exit 3); without a hasher it exits 127 and the client hashes
    // what it reads back (SshTransport::sha256), then runs it again with that hash.
    marks << clock.elapsed(); // chunks
    const WriteOptions& wo = options.write;
    const int mode = wo.mode >= 0 ? wo.mode : old->exists ? int(old->mode & 07777) : 0644;
    const bool keep = old->exists && wo.keepOwner;
    const qint64 uid = keep ? qint64(old->uid) : old->exists ? -1 : wo.uid;
    const qint64 gid = keep ? qint64(old->gid) : old->exists ? -1 : wo.gid;
    QString owner; // best effort: only root may give files away
    if (uid >= 0)
        owner += QStringLiteral("chown %1 \"$f\" 2>/dev/null; ").arg(uid);
    if (gid >= 0)
        owner += QStringLiteral("chgrp %1 \"$f\" 2>/dev/null; ").arg(gid);
    const auto swap = [&](const QString& hashing) {
        CommandSpec c;
        c.command
            = QStringLiteral("f=%1; %2; h=${h%% *}; "
                             "if [ \"$h\" != %3 ]; then rm -f -- \"$f\" %4 %8; printf '%s\\n' \"$h\"; exit 3; fi; "
                             "{ sync -- \"$f\" 2>/dev/null || sync; } && chmod %5 \"$f\" && { %6:; } && mv -f -- "
                             "\"$f\" %7 && rm -f -- %4 %8")
                  .arg(SshTransport::shellPath(part), hashing, QString::fromLatin1(sha.value()),
                      SshTransport::shellPath(statePath), QStringLiteral("0") + QString::number(mode, 8), owner,
                      SshTransport::shellPath(target), stateTemp);
        return transport.exec(c, 600000);
    };
    ExecResult swapped
        = swap(QStringLiteral("if command -v openssl >/dev/null 2>&1 && h=$(openssl dgst -sha256 -r \"$f\"); then :; "
                              "elif command -v sha256sum >/dev/null 2>&1 && h=$(sha256sum -b -- \"$f\"); then :; "
                              "else exit 127; fi"));
    if (swapped.error.isEmpty() && swapped.signal.isEmpty() && swapped.exitCode == 127) {
        const auto readBack = transport.sha256(part);
        if (!readBack)
            return R::failure(QStringLiteral("cannot check the upload of %1: %2").arg(remotePath, readBack.error()));
        swapped = swap(QStringLiteral("h=") + QString::fromLatin1(readBack.value()));
    }
    marks << clock.elapsed(); // the check and the rename
    if (swapped.error.isEmpty() && swapped.signal.isEmpty() && swapped.exitCode == 3) {
        // The server's hash: hostile bytes, shown only when they look like one.
        QByteArray theirs = swapped.stdOut.left(128).trimmed();
        const bool hex = theirs.size() == 64
            && std::all_of(theirs.cbegin(), theirs.cend(), [](char c) { return isxdigit(uchar(c)) != 0; });
        if (!hex)
            theirs = "(unreadable)";
        return R::failure(
            QStringLiteral("upload of %1 to %2 failed its check: SHA-256 %3 on the server, %4 here; the "
                           "partial upload was removed, a new one starts over")
                .arg(localPath, remotePath, QString::fromLatin1(theirs), QString::fromLatin1(sha.value())));
    }
    if (!swapped.ok()) {
        const QString why
            = !swapped.error.isEmpty() ? swapped.error : QString::fromUtf8(swapped.stdErr.left(4096)).trimmed();
        return R::failure(QStringLiteral("cannot replace %1: %2")
                              .arg(remotePath, why.isEmpty() ? QStringLiteral("the rename failed") : why));
    }
    result.sha256 = sha.value();
    log::ssh()->info("{}: {} to {}: {} sent, {} resumed, {} sessions; ms: hash {}, setup {}, chunks {}, check and "
                     "rename {}",
        transport.describe(), localPath, remotePath, sizeText(result.sent), sizeText(result.resumed), result.sessions,
        marks[0], marks[1] - marks[0], marks[2] - marks[1], marks[3] - marks[2]);
    return result;
}

} // namespace kf
