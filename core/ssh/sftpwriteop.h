// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/sftpop.h"

#include <QByteArray>
#include <QFile>

#include <memory>

namespace kf::ssh {

// Upload bytes handed to one libssh2_sftp_write() (= at most this much unacknowledged data).
// OpenSSH's sshd gives a session channel a 2 MiB window and re-opens it only as its
// sftp-server consumes data. With libssh2 1.10, filling that window stalls the pipeline: the
// write then advances one 30000-byte ack per server wake-up (measured 30 KB per 60-150 ms,
// bench_ssh upload x0.6 of OpenSSH). Staying ~0.6 MB below the window never hits zero and
// keeps 1.44 MB in flight (~70 MB/s at 20 ms RTT). Bigger buffers (4-8 MiB) are slower.
constexpr qsizetype kSftpWriteInFlight = 48 * 30000;

// Writes `data` (or the local file localPath) to a new file created exclusively, then
// fsync, mode and owner, close. The temp-file half of an atomic write. With Open::Existing it
// writes the range [offset, offset + length) of the local file at the same offset of a file
// that is already there (no create, no truncation): one chunk of bulkUpload()'s partial file. The mode request
// goes out right behind the fsync, so both take one round trip. (Owner and close cannot
// follow in libssh2 1.10: owner shares the mode's request slot, and close frees the handle
// that the pending answers are collected through.)
class SftpWriteOp final : public SftpOp
{
public:
    enum class Open {
        CreateExclusive, // a new file (fails when one is there), then mode and owner
        Existing,        // an existing file, written at `offset`; mode and owner only with applyMode
    };
    struct Params
    {
        QString path;
        QByteArray data;
        QString localPath;
        Open open = Open::CreateExclusive;
        // The range of the source written, at the same offset of the remote file; length < 0:
        // to the end. A range past the end of the source is cut at the end.
        qint64 offset = 0;
        qint64 length = -1;
        bool applyMode = true; // Existing: whether mode (and owner) are set after the fsync
        // False: no fsync (bulkUpload's chunks; one fsync of the file later covers them all).
        bool fsync = true;
        // Read on the session thread between writes: true ends the op as failed ("interrupted").
        std::function<bool()> stopRequested;
        quint32 mode = 0644;
        bool setOwner = false;
        quint32 uid = 0;
        quint32 gid = 0;
        Progress progress;
    };
    explicit SftpWriteOp(Params params);

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    enum class State { Open, Write, Fsync, Mode, Owner, Close };
    bool refill();
    bool setsMode() const { return m_p.open == Open::CreateExclusive || m_p.applyMode; }
    QString localReadError() const;
    // libssh2_sftp_fstat_ex setting the mode: sends the request on its first call, then
    // waits for the answer.
    int setMode();
    Params m_p;
    State m_state = State::Open;
    std::unique_ptr<QFile> m_local;
    qint64 m_total = 0;
    qint64 m_acked = 0;
    // Unacknowledged bytes start at m_window[m_windowPos]; libssh2 wants the same bytes again
    // after EAGAIN and after a partial return, so the window only shrinks from the front.
    QByteArray m_window;
    qsizetype m_windowPos = 0;
    qint64 m_sourcePos = 0;
    // The mode request sent behind the fsync: its answer once taken (EAGAIN: not yet), and
    // whether its packet is still half out (setMode() must be called before anything else).
    bool m_modeSent = false;
    bool m_modeHalfSent = false;
    int m_modeRc = LIBSSH2_ERROR_EAGAIN;
};

} // namespace kf::ssh
