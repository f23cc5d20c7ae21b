// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// OpenSSH known_hosts, parsed by us because libssh2 1.10's reader stops at the first line
// it cannot parse, ignores @revoked, treats @cert-authority lines as host keys and
// reports a stored key of another type as "not found"; its writer rewrites the file.
//
// Wire format (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"), one entry a line:
//   [@revoked|@cert-authority] HOSTS KEYTYPE BASE64KEY [COMMENT...]
//   HOSTS   comma-separated patterns: name, 1.2.3.4, *.example.com, ?, !negated, and
//           [name]:port for a port other than 22; or one hashed entry |1|SALT|HASH where
//           HASH = HMAC-SHA1(key = SALT, data = "name" or "[name]:port"), both base64.
//   KEYTYPE ssh-ed25519, ecdsa-sha2-nistp256/384/521, ssh-rsa, ssh-dss, sk-*@openssh.com...
//   BASE64KEY the public key blob (SSH wire format: string keytype, then key data); the
//           type named inside the blob must equal KEYTYPE.
// Blank lines and lines starting with '#' are comments. A line that does not parse is
// reported in `errors` and skipped; later lines still count.
namespace kf {

struct SshConfigSources;

struct KnownHostEntry
{
    enum class Marker { None, Revoked, CertAuthority };
    Marker marker = Marker::None;
    int line = 0; // 1-based
    bool hashed = false;
    QStringList patterns; // plain entries: the comma-separated host patterns
    QByteArray salt;      // hashed entries
    QByteArray hash;
    QString keyType;
    QByteArray keyBlob;
    QString comment;
};

struct KnownHostsParseError
{
    int line = 0;
    QString message;
};

struct KnownHostsFile
{
    QString path;
    QList<KnownHostEntry> entries;
    QList<KnownHostsParseError> errors;
};

KnownHostsFile parseKnownHosts(const QByteArray& text, const QString& path = {});
// Reads and parses a file; a missing file is an empty result, not an error.
KnownHostsFile readKnownHostsFile(const QString& path);

// The name OpenSSH looks up: "host" for port 22, "[host]:port" otherwise (lower-cased).
QString knownHostsName(const QString& host, quint16 port);
// Whether an entry's host field matches host:port (negations and wildcards, or the hash).
bool knownHostMatches(const KnownHostEntry& entry, const QString& host, quint16 port);

struct HostKeyLookup
{
    enum class Status { NotFound, Match, Mismatch, Revoked };
    Status status = Status::NotFound;
    QString file; // Mismatch/Revoked/Match: the deciding entry
    int line = 0;
    QString oldKeyType; // Mismatch: the type stored for this host
};

// OpenSSH's rules, stricter on one point: a stored key of another type is a Mismatch
// (we ask the server for the stored type first, so a server that no longer offers it is
// suspicious), not "unknown". @revoked wins over everything; @cert-authority entries are
// recognised but never match a plain host key.
HostKeyLookup lookupHostKey(
    const QList<KnownHostsFile>& files, const QString& host, quint16 port, const QByteArray& keyBlob);
// Key types stored for host:port, in file order, without duplicates (for the KEX preference).
QStringList knownKeyTypes(const QList<KnownHostsFile>& files, const QString& host, quint16 port);

// "SHA256:" + base64 of SHA-256(blob) without '=' padding, as `ssh-keygen -l` prints it.
QString sshFingerprint(const QByteArray& keyBlob);
// The key type named at the start of a public key blob; empty if malformed.
QString keyTypeOfBlob(const QByteArray& keyBlob);
// One known_hosts line (with '\n') as OpenSSH writes it; hashed (HashKnownHosts) uses a random salt.
QByteArray knownHostsLine(const QString& host, quint16 port, const QByteArray& keyBlob, bool hashed = false);
// Appends one line with a single O_APPEND write and fsync, creating the file (0600) and its
// folder (0700) if needed; never rewrites what is there.
Result<void> appendKnownHostsLine(const QString& path, const QByteArray& line);

// Which known_hosts files apply to a host, as OpenSSH decides (ssh_config(5)):
//   UserKnownHostsFile   default ~/.ssh/known_hosts ~/.ssh/known_hosts2; read in order,
//                        new keys are appended to the first
//   GlobalKnownHostsFile default /etc/ssh/ssh_known_hosts /etc/ssh/ssh_known_hosts2; read only
//                        (its @revoked lines count like any other)
//   HashKnownHosts       new entries are written hashed (|1|salt|hash); Debian's
//                        /etc/ssh/ssh_config sets it for every host
// read from ~/.ssh/config and then the system ssh_config (the first value wins). A profile
// with its own knownHostsFile (the CLI's --known-hosts) uses that as the only user file.
struct KnownHostsSetup
{
    QStringList userFiles;
    QStringList globalFiles;
    bool hashNewEntries = false;
    QStringList notes; // config files that could not be read or resolved
    QString writeFile() const { return userFiles.value(0); }
    QList<KnownHostsFile> readAll() const; // user files, then global files; missing ones are empty
};

// Where the configuration is; tests point these at a temp dir instead of /etc/ssh.
struct KnownHostsSources
{
    QString homeDir;                                // empty: QDir::homePath()
    QString userConfig;                             // empty: <home>/.ssh/config
    QString systemDir = QStringLiteral("/etc/ssh"); // ssh_config and the default global files
};

// The ssh configuration files these sources name (the user's, then <systemDir>/ssh_config).
SshConfigSources sshConfigSources(const KnownHostsSources& sources);

KnownHostsSetup knownHostsSetup(
    const QString& alias, const QString& profileKnownHostsFile, const KnownHostsSources& sources = {});

} // namespace kf
