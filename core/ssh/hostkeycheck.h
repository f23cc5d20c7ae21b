// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/knownhosts.h"
#include "core/ssh/sshsession.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace kf::ssh {

// The host-key decision of one session: whether to go on with the key a server offered.
// Pure but for the known_hosts files it reads (and appends to) and the person it may ask;
// no libssh2 here, so it is tested without a server (tests/core/ssh/tst_hostkeycheck.cpp).
//
// In order: the known_hosts files OpenSSH would read for the host decide first (a match
// goes on; a @revoked or a different key is refused and shown to the person, whatever the
// options say); then a key another session to this host verified (trustedHostKey); then a
// key accepted once in this session (any other key is now refused: it changed); then
// StrictHostKeyChecking: accept-new saves it, ask puts it to the person (reject, accept
// once, accept and save to the first user known_hosts file), yes refuses it.
//
// Refusals are ErrorKind::Permanent: logging in again cannot help.
class HostKeyCheck
{
public:
    explicit HostKeyCheck(SshSessionOptions options);

    KnownHostsSetup knownHosts() const;
    // The key types stored for the host, to ask the server for first (a server with several
    // keys then shows one we can verify, as OpenSSH does).
    QStringList knownKeyTypes() const;
    // keyBlob: the server's key in wire format. `asking` is called with the state's reason
    // before a person is asked about an unknown key (session thread: it blocks until answered).
    Result<void> check(const QByteArray& keyBlob, const std::function<void(const QString&)>& asking = {});

private:
    SshSessionOptions m_options;
    QByteArray m_acceptedOnce; // "accept once": holds for the reconnects of this session
};

} // namespace kf::ssh
