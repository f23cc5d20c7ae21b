// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/sshtransport.h"

#include <QByteArray>
#include <QString>

#include <functional>

// Large uploads (wheels, caches: hundreds of MB) over several SFTP sessions in parallel, as
// rclone's multi-thread streams do: libssh2 1.10 encrypts one cipher block per call, so one
// stream is bound by one core, and one SFTP channel keeps one window of data in flight; N
// connections use N cores and N windows (what that gives on loopback and at 20/100 ms:
// docs/PERFORMANCE.md, bench_ssh's bulkUpload rows).
//
// The file is cut into chunks (the unit of work and of resume). Beside the target, on the
// server:
//   <remotePath>.kfpart       the data, each chunk written at its offset (no truncation)
//   <remotePath>.kfpart.json  {"version":1,"size":N,"sha256":"<hex>","chunkBytes":C,"done":[i,...]}:
//                             the source and the chunks known written AND fsynced
// Workers (one thread per session) take the next chunk index from a shared queue and stream
// it without an fsync of its own (a chunk's fsync would stall its session's stream). The
// calling thread, as chunks land, fsyncs the file (fsync(2) covers every descriptor's
// writes), then records the chunks that had landed before it in the state file (one exec);
// several at a time while the previous round is on its way. A later call with the same
// source (size, SHA-256, chunk size) keeps the recorded chunks and sends the rest; any other
// state, or one that does not parse (read at most 1 MiB: it comes from the server), is
// discarded with the partial file. At the end one command on the server checks the SHA-256
// of the .kfpart against the local file's, syncs it, gives it the mode (WriteOptions, as
// SshTransport::upload) and renames it over remotePath in one rename(2), and removes the
// state file. On a mismatch both partial files are removed.
namespace kf {

struct BulkUploadOptions
{
    int sessions = 4;               // SFTP sessions in parallel, each on its own SSH connection (1: one stream)
    qint64 chunkBytes = 16LL << 20; // the unit of work and of resume
    // May be called from any thread (one call at a time); keep it cheap.
    std::function<void(qint64 done, qint64 total)> progress;
    // Read between chunks (and often inside one); a stopped upload keeps its partial file for a resume.
    std::function<bool()> stopRequested;
    WriteOptions write; // mode etc. of the final file, as SshTransport::upload
};

struct BulkUploadResult
{
    QByteArray sha256; // hex, of the file now at remotePath (checked on the server)
    qint64 total = 0;
    qint64 sent = 0;    // bytes sent this call
    qint64 resumed = 0; // bytes a previous interrupted call had already put there and that were kept
    int sessions = 0;   // sessions actually used (0: nothing was left to send)
};

// Uploads localPath to remotePath (atomic on the remote side: nothing appears at remotePath
// until the whole file is there and its SHA-256 on the server equals the local file's).
// Blocking; call it on a worker thread. The extra sessions are opened as
// SshTransport::bulkSession() opens its one (the main session's options, no prompts, the
// host key it verified); when they cannot log in quietly, fewer are used (at least the main
// session), and the log says so. A failure (stopped, connection lost) keeps the partial file
// and its state: calling again resumes.
Result<BulkUploadResult> bulkUpload(SshTransport& transport, const QString& localPath, const QString& remotePath,
    const BulkUploadOptions& options = {});

} // namespace kf
