// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/hostkeycheck.h"

#include "core/log/logging.h"

namespace kf::ssh {
namespace {

Result<void> refuse(const QString& why)
{
    return Result<void>::failure(why, ErrorKind::Permanent);
}

} // namespace

HostKeyCheck::HostKeyCheck(SshSessionOptions options)
    : m_options(std::move(options))
{ }

KnownHostsSetup HostKeyCheck::knownHosts() const
{
    const HostProfile& p = m_options.profile;
    return knownHostsSetup(p.name.isEmpty() ? p.host : p.name, p.knownHostsFile, m_options.knownHostsSources);
}

QStringList HostKeyCheck::knownKeyTypes() const
{
    const HostProfile& p = m_options.profile;
    return kf::knownKeyTypes(knownHosts().readAll(), p.host, p.port);
}

Result<void> HostKeyCheck::check(const QByteArray& blob, const std::function<void(const QString&)>& asking)
{
    const HostProfile& p = m_options.profile;
    UserInteraction* const ui = m_options.interaction;
    // Every file OpenSSH reads (User/GlobalKnownHostsFile); new keys go to the first user file.
    const KnownHostsSetup kh = knownHosts();
    const QString khPath = kh.writeFile();
    const HostKeyLookup found = lookupHostKey(kh.readAll(), p.host, p.port, blob);
    HostKeyInfo info;
    info.host = p.host;
    info.port = p.port;
    info.keyType = keyTypeOfBlob(blob);
    info.fingerprint = sshFingerprint(blob);
    info.keyBlob = blob;
    info.knownHostsFile = khPath;
    info.oldEntryFile = found.file;
    info.oldEntryLine = found.line;
    info.oldKeyType = found.oldKeyType;
    const QString name = knownHostsName(p.host, p.port);
    switch (found.status) {
    case HostKeyLookup::Status::Match: return {};
    case HostKeyLookup::Status::Revoked:
        info.kind = HostKeyInfo::Kind::Revoked;
        if (ui)
            ui->askHostKey(info);
        return refuse(QStringLiteral("The host key of %1 (%2 %3) is marked @revoked in %4:%5. Refusing to connect.")
                          .arg(name, info.keyType, info.fingerprint, found.file)
                          .arg(found.line));
    case HostKeyLookup::Status::Mismatch:
        info.kind = HostKeyInfo::Kind::Changed;
        if (ui)
            ui->askHostKey(info);
        return refuse(QStringLiteral(
            "HOST KEY CHANGED for %1: the server offers %2 %3, but %4:%5 holds a different %6 key. Someone could be "
            "intercepting the connection, or the server was reinstalled. Refusing to connect; if the change is "
            "expected, remove line %5 of %4.")
                          .arg(name, info.keyType, info.fingerprint, found.file)
                          .arg(found.line)
                          .arg(found.oldKeyType));
    case HostKeyLookup::Status::NotFound: break;
    }
    if (!m_options.trustedHostKey.isEmpty() && m_options.trustedHostKey == blob)
        return {};
    if (!m_acceptedOnce.isEmpty()) {
        if (m_acceptedOnce == blob)
            return {};
        return refuse(
            QStringLiteral("HOST KEY CHANGED for %1 since it was accepted in this session (now %2 %3). Refusing to "
                           "connect.")
                .arg(name, info.keyType, info.fingerprint));
    }
    HostKeyDecision decision = HostKeyDecision::Reject;
    if (m_options.acceptNewHostKey) {
        decision = HostKeyDecision::AcceptAndSave;
    } else if (ui && m_options.promptForHostKeys) {
        if (asking)
            asking(QStringLiteral("unknown host key %1 %2").arg(info.keyType, info.fingerprint));
        info.kind = HostKeyInfo::Kind::Unknown;
        decision = ui->askHostKey(info);
    } else {
        return refuse(QStringLiteral("The host key of %1 is not known (%2 %3). Refusing to connect; use --accept-new "
                                     "to trust it on first use, or add it to %4.")
                          .arg(name, info.keyType, info.fingerprint, khPath));
    }
    switch (decision) {
    case HostKeyDecision::Reject:
        return refuse(
            QStringLiteral("The host key of %1 (%2 %3) was not accepted.").arg(name, info.keyType, info.fingerprint));
    case HostKeyDecision::AcceptOnce: m_acceptedOnce = blob; return {};
    case HostKeyDecision::AcceptAndSave:
        if (khPath.isEmpty())
            return refuse(QStringLiteral("cannot save the host key: UserKnownHostsFile is \"none\""));
        if (Result<void> s = appendKnownHostsLine(khPath, knownHostsLine(p.host, p.port, blob, kh.hashNewEntries)); !s)
            return refuse(QStringLiteral("cannot save the host key: ") + s.error());
        log::ssh()->info("{}: added {} {} to {}", name, info.keyType, info.fingerprint, khPath);
        return {};
    }
    return refuse(QStringLiteral("host key not accepted"));
}

} // namespace kf::ssh
