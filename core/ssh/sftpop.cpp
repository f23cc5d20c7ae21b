// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sftpop.h"

#include <QDateTime>

#include <algorithm>

namespace kf::ssh {
namespace {

FileInfo fromAttrs(const QString& name, const LIBSSH2_SFTP_ATTRIBUTES& a)
{
    FileInfo fi;
    fi.name = name;
    fi.exists = true;
    if (a.flags & LIBSSH2_SFTP_ATTR_PERMISSIONS) {
        fi.isDir = LIBSSH2_SFTP_S_ISDIR(a.permissions);
        fi.isSymlink = LIBSSH2_SFTP_S_ISLNK(a.permissions);
        fi.mode = quint32(a.permissions & 07777);
        fi.type = quint32(a.permissions & LIBSSH2_SFTP_S_IFMT);
    }
    if (a.flags & LIBSSH2_SFTP_ATTR_SIZE)
        fi.size = qint64(a.filesize);
    if (a.flags & LIBSSH2_SFTP_ATTR_UIDGID) {
        fi.uid = quint32(a.uid);
        fi.gid = quint32(a.gid);
    }
    if (a.flags & LIBSSH2_SFTP_ATTR_ACMODTIME)
        fi.mtime = qint64(a.mtime);
    return fi;
}

// What code may do about an SFTP status: a missing path, a request the server lacks.
ErrorKind errorKindOf(unsigned long sftpStatus)
{
    switch (sftpStatus) {
    case LIBSSH2_FX_NO_SUCH_FILE:
    case LIBSSH2_FX_NO_SUCH_PATH: return ErrorKind::NotFound;
    case LIBSSH2_FX_OP_UNSUPPORTED: return ErrorKind::Unsupported;
    default: return ErrorKind::Failed;
    }
}

} // namespace

QString sftpErrorText(unsigned long code)
{
    switch (code) {
    case LIBSSH2_FX_EOF: return QStringLiteral("end of file");
    case LIBSSH2_FX_NO_SUCH_FILE: return QStringLiteral("no such file");
    case LIBSSH2_FX_PERMISSION_DENIED: return QStringLiteral("permission denied");
    case LIBSSH2_FX_FAILURE: return QStringLiteral("failure");
    case LIBSSH2_FX_BAD_MESSAGE: return QStringLiteral("bad message");
    case LIBSSH2_FX_OP_UNSUPPORTED: return QStringLiteral("operation not supported by the server");
    case LIBSSH2_FX_NO_SUCH_PATH: return QStringLiteral("no such path");
    case LIBSSH2_FX_FILE_ALREADY_EXISTS: return QStringLiteral("file already exists");
    case LIBSSH2_FX_WRITE_PROTECT: return QStringLiteral("write protected");
    case LIBSSH2_FX_NO_SPACE_ON_FILESYSTEM: return QStringLiteral("no space left on the file system");
    case LIBSSH2_FX_QUOTA_EXCEEDED: return QStringLiteral("quota exceeded");
    case LIBSSH2_FX_DIR_NOT_EMPTY: return QStringLiteral("folder not empty");
    case LIBSSH2_FX_NOT_A_DIRECTORY: return QStringLiteral("not a folder");
    case LIBSSH2_FX_INVALID_FILENAME: return QStringLiteral("invalid file name");
    default: return QStringLiteral("SFTP status %1").arg(code);
    }
}

int sftpStat(LIBSSH2_SFTP* sftp, const QString& path, int how, LIBSSH2_SFTP_ATTRIBUTES* attrs)
{
    const QByteArray p = path.toUtf8();
    return libssh2_sftp_stat_ex(sftp, p.constData(), unsigned(p.size()), how, attrs);
}

SftpOp::Step SftpOp::step(OpContext& ctx)
{
    if (!m_haveToken) {
        if (!ctx.acquire(Token::Sftp, this))
            return Step::Blocked;
        m_haveToken = true;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!m_sessionWait.mayTry(ctx, now))
        return Step::Blocked;
    int rc = 0;
    LIBSSH2_SFTP* sftp = ctx.sftp(this, &rc);
    if (!sftp) {
        if (rc == LIBSSH2_ERROR_EAGAIN || ctx.fatal(rc))
            return Step::Blocked;
        // The SFTP subsystem is a session channel too: refused right after a command's closed,
        // it waits as a command's open does.
        if (rc == LIBSSH2_ERROR_CHANNEL_FAILURE && m_sessionWait.refused(ctx, now))
            return Step::Blocked;
        m_sessionWait.reset();
        m_outcome
            = Result<void>::failure(QStringLiteral("cannot start SFTP on %1: %2").arg(ctx.describe(), ctx.lastError()));
        finish(ctx);
        return Step::Done;
    }
    const Step s = stepSftp(ctx, sftp);
    if (s == Step::Done)
        finish(ctx);
    return s;
}

void SftpOp::finish(OpContext& ctx)
{
    ctx.release(Token::Sftp, this);
    m_haveToken = false;
    m_completion.finish();
}

void SftpOp::abort(const QString& why)
{
    if (m_outcome)
        m_outcome = Result<void>::failure(why);
    m_haveToken = false;
    m_completion.finish();
}

int SftpOp::releaseLibssh2()
{
    if (!m_handle)
        return 0;
    // libssh2 frees the handle whether or not the server confirms the close.
    if (libssh2_sftp_close_handle(m_handle) == LIBSSH2_ERROR_EAGAIN)
        return LIBSSH2_ERROR_EAGAIN;
    m_handle = nullptr;
    return 0;
}

bool SftpOp::closeBlocks(OpContext& ctx, const QString& path)
{
    if (!m_handle)
        return false;
    const int rc = libssh2_sftp_close_handle(m_handle);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return true;
    m_handle = nullptr; // libssh2 frees it whether or not the server confirms the close
    if (rc < 0) {
        if (ctx.fatal(rc))
            return true;
        if (m_outcome)
            m_outcome = Result<void>::failure(QStringLiteral("cannot close %1: %2").arg(path, ctx.lastError()));
    }
    return false;
}

SftpOp::Step SftpOp::failed(OpContext& ctx, LIBSSH2_SFTP* sftp, int rc, const QString& what)
{
    if (ctx.fatal(rc))
        return Step::Blocked;
    const bool sftpStatus = rc == LIBSSH2_ERROR_SFTP_PROTOCOL;
    m_sftpStatus = sftpStatus ? libssh2_sftp_last_error(sftp) : 0;
    m_outcome = Result<void>::failure(
        what + QStringLiteral(": ") + (sftpStatus ? sftpErrorText(m_sftpStatus) : ctx.lastError()),
        errorKindOf(m_sftpStatus));
    return Step::Done;
}

SftpOp::Step SftpStatOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    LIBSSH2_SFTP_ATTRIBUTES a {};
    const int rc = sftpStat(sftp, m_path, m_followed ? LIBSSH2_SFTP_STAT : LIBSSH2_SFTP_LSTAT, &a);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0) {
        const Step s = failed(ctx, sftp, rc, QStringLiteral("cannot stat ") + m_path);
        if (s == Step::Done && m_outcome.kind() == ErrorKind::NotFound) {
            m_outcome = {}; // missing (or a dangling link: keep what lstat said)
            if (!m_followed) {
                result = FileInfo {};
                result.name = m_path;
            }
        }
        return s;
    }
    if (!m_followed) {
        result = fromAttrs(m_path, a);
        if (result.isSymlink) {
            m_followed = true;
            return Step::Progress;
        }
        return Step::Done;
    }
    FileInfo target = fromAttrs(m_path, a);
    target.isSymlink = true;
    result = target;
    return Step::Done;
}

SftpOp::Step SftpListOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    if (!m_handle && !m_listed) {
        const QByteArray p = m_path.toUtf8();
        m_handle = libssh2_sftp_open_ex(sftp, p.constData(), unsigned(p.size()), 0, 0, LIBSSH2_SFTP_OPENDIR);
        if (!m_handle) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return failed(ctx, sftp, rc, QStringLiteral("cannot list ") + m_path);
        }
    }
    while (m_handle && !m_listed) {
        char name[1024];
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int n = libssh2_sftp_readdir_ex(m_handle, name, sizeof name, nullptr, 0, &a);
        if (n == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (n < 0) {
            m_listed = true;
            const Step s = failed(ctx, sftp, n, QStringLiteral("cannot list ") + m_path);
            if (s == Step::Blocked)
                return s;
            break;
        }
        if (n == 0) {
            m_listed = true;
            break;
        }
        const QString entry = QString::fromUtf8(name, n);
        if (entry == QLatin1String(".") || entry == QLatin1String(".."))
            continue;
        result << fromAttrs(entry, a);
    }
    if (closeBlocks(ctx, m_path))
        return Step::Blocked;
    if (!m_outcome)
        return Step::Done;
    // Symlinks: report what they point to, as LocalTransport does.
    while (m_linkIndex < result.size()) {
        FileInfo& fi = result[m_linkIndex];
        if (!fi.isSymlink) {
            ++m_linkIndex;
            continue;
        }
        const QString path = (m_path.endsWith(QLatin1Char('/')) ? m_path : m_path + QLatin1Char('/')) + fi.name;
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = sftpStat(sftp, path, LIBSSH2_SFTP_STAT, &a);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc == 0) {
            FileInfo t = fromAttrs(fi.name, a);
            t.isSymlink = true;
            fi = t;
        } else if (ctx.fatal(rc)) {
            return Step::Blocked;
        }
        ++m_linkIndex;
    }
    std::sort(result.begin(), result.end(), [](const FileInfo& a, const FileInfo& b) { return a.name < b.name; });
    return Step::Done;
}

SftpMkpathOp::SftpMkpathOp(QString path, int mode)
    : m_mode(mode)
{
    const bool absolute = path.startsWith(QLatin1Char('/'));
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString cur = absolute ? QStringLiteral("/") : QString();
    for (const QString& part : parts) {
        if (part == QLatin1String("."))
            continue;
        cur += (cur.isEmpty() || cur.endsWith(QLatin1Char('/')) ? QString() : QStringLiteral("/")) + part;
        m_prefixes << cur;
    }
}

SftpOp::Step SftpMkpathOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    while (m_index < m_prefixes.size()) {
        const QString& dir = m_prefixes[m_index];
        if (m_chmodPending) {
            // sftp-server applies its umask to mkdir's mode: set the bits asked for.
            LIBSSH2_SFTP_ATTRIBUTES a {};
            a.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS;
            a.permissions = unsigned(m_mode);
            if (const int rc = sftpStat(sftp, dir, LIBSSH2_SFTP_SETSTAT, &a); rc != 0) {
                if (rc == LIBSSH2_ERROR_EAGAIN)
                    return Step::Blocked;
                m_chmodPending = false;
                return failed(ctx, sftp, rc, QStringLiteral("cannot set the mode of ") + dir);
            }
            m_chmodPending = false;
            ++m_index;
            continue;
        }
        if (!m_statting) {
            const QByteArray p = dir.toUtf8();
            const int rc = libssh2_sftp_mkdir_ex(sftp, p.constData(), unsigned(p.size()), long(m_mode));
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            if (rc == 0) {
                m_chmodPending = true;
                continue;
            }
            if (ctx.fatal(rc))
                return Step::Blocked;
            m_statting = true; // probably exists already: check it is a folder
        }
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = sftpStat(sftp, dir, LIBSSH2_SFTP_STAT, &a);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_statting = false;
        if (rc < 0)
            return failed(ctx, sftp, rc, QStringLiteral("cannot create folder ") + dir);
        if (!LIBSSH2_SFTP_S_ISDIR(a.permissions)) {
            m_outcome
                = Result<void>::failure(QStringLiteral("cannot create folder %1: a file of that name exists").arg(dir));
            return Step::Done;
        }
        ++m_index;
    }
    return Step::Done;
}

SftpOp::Step SftpUnlinkOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    const int rc = libssh2_sftp_unlink_ex(sftp, p.constData(), unsigned(p.size()));
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0)
        return failed(ctx, sftp, rc, QStringLiteral("cannot remove ") + m_path);
    return Step::Done;
}

SftpOp::Step SftpStatvfsOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    LIBSSH2_SFTP_STATVFS st {};
    const int rc = libssh2_sftp_statvfs(sftp, p.constData(), size_t(p.size()), &st);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0) {
        const Step s = failed(ctx, sftp, rc, QStringLiteral("cannot read the free space of ") + m_path);
        // libssh2 reports a missing extension as an SFTP failure status or as an unexpected packet.
        if (s == Step::Done && (m_sftpStatus == LIBSSH2_FX_FAILURE || m_sftpStatus == 0))
            m_outcome = Result<void>::failure(m_outcome.error(), ErrorKind::Unsupported);
        return s;
    }
    const quint64 unit = st.f_frsize ? st.f_frsize : st.f_bsize;
    availableBytes = qint64(st.f_bavail * unit);
    availableInodes = qint64(st.f_favail);
    return Step::Done;
}

#if LIBSSH2_VERSION_NUM >= 0x010b01
SftpOp::Step SftpPosixRenameOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray from = m_from.toUtf8();
    const QByteArray to = m_to.toUtf8();
    const int rc
        = libssh2_sftp_posix_rename_ex(sftp, from.constData(), size_t(from.size()), to.constData(), size_t(to.size()));
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0)
        return failed(ctx, sftp, rc, QStringLiteral("cannot rename %1 to %2").arg(m_from, m_to));
    return Step::Done;
}
#endif

SftpOp::Step SftpRealpathOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    char target[4096];
    const int rc = libssh2_sftp_symlink_ex(
        sftp, p.constData(), unsigned(p.size()), target, unsigned(sizeof target), LIBSSH2_SFTP_REALPATH);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0)
        return failed(ctx, sftp, rc, QStringLiteral("cannot resolve ") + m_path);
    result = QString::fromUtf8(target, rc);
    return Step::Done;
}

} // namespace kf::ssh
