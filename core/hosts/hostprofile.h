// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kf {

// How to reach one server. Saved in the XDG config dir (hosts.yaml); imported from ~/.ssh/config.
struct HostProfile
{
    QString name; // shown in the sidebar; unique
    QString host; // HostName (address or DNS name)
    quint16 port = 22;
    QString user;              // empty: the local user name
    QStringList identityFiles; // private keys, ~ expanded
    QString proxyJump;         // "user@jump:port[,more]" (OpenSSH syntax), empty for none
    QStringList tags;
    QString knownHostsFile; // empty: ~/.ssh/known_hosts
    bool isLocal = false;   // this machine through LocalTransport, no SSH
    bool isDemo = false;    // the built-in demo server (core/demo)
    // Non-empty: the Host alias this profile follows in the user's ssh configuration
    // (imported from ~/.ssh/config). Connecting resolves it again (followSshConfig,
    // core/hosts/sshconfig.h), so later edits of the file count; the fields above are what it
    // resolved to when last shown or saved.
    QString sshConfigAlias;

    QString destination() const; // "user@host:port" for messages
    bool operator==(const HostProfile&) const = default;
};

enum class ConnectionState { Disconnected, Connecting, HostKeyPrompt, Authenticating, Ready, Reconnecting, Failed };

QString toString(ConnectionState state);

} // namespace kf

Q_DECLARE_METATYPE(kf::HostProfile)
Q_DECLARE_METATYPE(kf::ConnectionState)
