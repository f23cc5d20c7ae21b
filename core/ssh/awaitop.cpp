// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/awaitop.h"

#include "core/ssh/sftpop.h"
#include "core/ssh/sshsession.h"

#include <QElapsedTimer>

namespace kf::ssh {

QString awaitOp(SshSession& session, const std::shared_ptr<Op>& op, int timeoutMs)
{
    Q_ASSERT(!session.isSessionThread());
    QElapsedTimer clock;
    clock.start();
    constexpr int kSliceMs = 100;
    for (;;) {
        const qint64 left = timeoutMs < 0 ? kSliceMs : timeoutMs - clock.elapsed();
        if (op->completion().wait(int(qBound<qint64>(0, left, qint64(kSliceMs)))))
            return {};
        if (session.state() != ConnectionState::Ready) {
            if (op->completion().wait(0))
                return {};
            session.cancel(op);
            const QString reason = session.stateReason();
            return QStringLiteral("not connected to %1 (%2%3)")
                .arg(session.describe(), toString(session.state()).toLower(),
                    reason.isEmpty() ? QString() : QStringLiteral(": ") + reason);
        }
        if (timeoutMs >= 0 && clock.elapsed() >= timeoutMs)
            break;
    }
    // Timed out on a live connection: cancel, and wait for the op to wind down as long as the
    // session is there to do it.
    session.cancel(op);
    while (!op->completion().wait(kSliceMs))
        if (session.state() != ConnectionState::Ready)
            return QStringLiteral("timed out after %1 ms").arg(timeoutMs);
    return QStringLiteral("timed out after %1 ms").arg(timeoutMs);
}

Result<void> runOp(SshSession& session, const std::shared_ptr<SftpOp>& op, int timeoutMs)
{
    session.submit(op);
    if (const QString notDone = awaitOp(session, op, timeoutMs); !notDone.isEmpty())
        return Result<void>::failure(notDone);
    return op->outcome();
}

} // namespace kf::ssh
