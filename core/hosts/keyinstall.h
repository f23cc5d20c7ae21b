// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// Key login for a server that takes only a password, or only an RSA key that libssh2 1.10
// cannot sign with (rsa-sha2, required by OpenSSH >= 8.8): KernelForge makes a key of its own
// (ed25519, ~/.ssh/kernelforge_ed25519, with the local ssh-keygen) and appends its public half
// to the server's ~/.ssh/authorized_keys, as ssh-copy-id does.
//
// One remote script does the append, whatever carried the login: a Transport (libssh2, logged
// in with the password) or the system's OpenSSH client (`ssh`, which signs rsa-sha2 with the
// user's RSA key). The script
//  - refuses, with the reason, a home folder, ~/.ssh or authorized_keys that sshd's StrictModes
//    would ignore (not the user's or root's, or writable by group or others), and an
//    authorized_keys that is a symbolic link (the rename below would replace the link);
//  - makes ~/.ssh 0700 and a new authorized_keys 0600 (an existing file keeps its mode);
//  - adds nothing when the key is already there (same key blob on a line that is not a comment);
//  - writes the old content plus the key to a temporary file in ~/.ssh, then renames it over
//    authorized_keys: an interrupted install leaves the old file, never a truncated one.
// Nothing secret travels: the public key is the script's argument; a password only ever goes
// to libssh2 through UserInteraction (never argv, a log line or a file).
namespace kf {

class Transport;

namespace keyinstall {

// ~/.ssh/kernelforge_ed25519
QString defaultKeyPath();

struct LocalKey
{
    QString privateKeyPath;
    QByteArray publicKeyLine; // "ssh-ed25519 AAAA... comment", one line without its newline
    bool created = false;     // made now (else it was there)
};

// The key pair at privateKeyPath: read (KEY.pub, or derived with ssh-keygen -y), or made with
// `ssh-keygen -t ed25519 -N ""` when the file does not exist (its folder made 0700). No
// passphrase: the app logs in again unattended after a drop; the key is this app's alone and
// can be revoked by deleting its line on the server.
Result<LocalKey> ensureKey(const QString& privateKeyPath);

// Checks a public key line ("type base64 [comment]", one line of printable ASCII, a known
// key type); returns it trimmed.
Result<QByteArray> checkPublicKeyLine(const QByteArray& line);

struct InstallReport
{
    bool added = false; // false: the key was already authorized, nothing was written
    QString carrier;    // "libssh2" or "system ssh"
    QString message;    // for a person: what was done where
};

// Over a logged-in connection (exec channel; the script above).
Result<InstallReport> installKey(Transport& transport, const QByteArray& publicKeyLine);

struct SystemSshOptions
{
    QString program = QStringLiteral("ssh");
    // No prompts (the GUI has no terminal): a key with a passphrase must be in ssh-agent, and an
    // unknown host key fails. False (the CLI on a terminal): ssh asks on the terminal itself.
    bool batchMode = true;
    bool acceptNewHostKey = false; // StrictHostKeyChecking=accept-new
    int timeoutMs = 120000;
};

// The arguments for `ssh` that reach the profile's server as it would be reached with
// libssh2: port, user, identity files (IdentitiesOnly), ProxyJump, known_hosts file. Refused
// here, not left to the ssh version: a ProxyJump that checkProxyJump() refuses, and a
// known_hosts path that ssh cannot be told exactly (core/hosts/sshoptionarg.h).
Result<QStringList> systemSshArguments(const HostProfile& profile, const SystemSshOptions& options);

// Through the system's OpenSSH client: logs in with the profile's keys (RSA included) and runs
// the same script.
Result<InstallReport> installKeyWithSystemSsh(
    const HostProfile& profile, const QByteArray& publicKeyLine, const SystemSshOptions& options = {});

} // namespace keyinstall
} // namespace kf
