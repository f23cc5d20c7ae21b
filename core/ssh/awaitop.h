// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>

#include <memory>

// A caller thread's wait for an op it submitted to a session: SshTransport's blocking calls
// and bulkUpload()'s workers (one thread per session) run their ops through these.
namespace kf {

class SshSession;

namespace ssh {

class Op;
class SftpOp;

// Waits for an op submitted to `session`: until it completes, timeoutMs passes (< 0: no
// limit), or the connection is no longer Ready. Ops that were running when the link went
// are aborted before the session says Reconnecting; one still pending then is queued behind
// a login that may take as long as a person at a password prompt, so it is given up on
// (cancelled: the session drops it unrun). Returns empty when the op completed (its results
// may be read), else why it did not (its results must not be read: it may still run).
QString awaitOp(SshSession& session, const std::shared_ptr<Op>& op, int timeoutMs);

// Runs an SFTP op to completion from a caller thread: its outcome, or why it did not
// complete (ErrorKind::Failed; its results must not be read).
Result<void> runOp(SshSession& session, const std::shared_ptr<SftpOp>& op, int timeoutMs = -1);

} // namespace ssh
} // namespace kf
