// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/hosts/sshconfig.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// Saved host profiles: kf::paths::configDir()/hosts.yaml.
//
// File format (YAML, written by serializeHostProfiles, read by parseHostProfiles):
//
//   # KernelForge host profiles. Passwords and passphrases are never stored here.
//   version: 1
//   hosts:
//     - name: gpu1                 # required, unique
//       host: 10.0.0.11            # required
//       port: 22                   # optional, 1..65535, default 22
//       user: alice                # optional; empty: the local user
//       identityFiles: [~/.ssh/id_ed25519]
//       proxyJump: bastion         # optional, OpenSSH syntax
//       tags: [lab, h100]
//       knownHostsFile: ~/.ssh/known_hosts.lab   # optional
//       local: true                # optional: this machine through LocalTransport
//
// Unknown keys are kept out and reported as warnings (a newer version may add some).
// Keys that look like secrets (password, passphrase, secret, token) are refused the same
// way and never loaded, so a hand-edited secret cannot travel further. The demo profile
// is built in and never saved. Errors name the file and the YAML line (1-based).
namespace kf {

struct HostProfilesFile
{
    QList<HostProfile> profiles;
    QStringList warnings; // "hosts.yaml:12: unknown key 'colour' ignored"
};

// hosts.yaml never holds a control character: every field reaches a command line, an SSH
// option or an Ansible inventory, where a line break or an escape sequence would mean more.
// Checked when the file is read and written; the error names the host and the field.
Result<void> checkNoControlCharacters(const HostProfile& profile);

// Pure: bytes in, profiles out. A missing or empty document is an empty list.
Result<HostProfilesFile> parseHostProfiles(const QByteArray& yaml, const QString& fileName);
// Profiles with isDemo are skipped; the output parses back to the same list.
QByteArray serializeHostProfiles(const QList<HostProfile>& profiles);

// What importing ~/.ssh/config produced: one profile per importable alias.
struct SshImport
{
    QList<HostProfile> profiles;
    QStringList problems; // config errors, notes (Match, ProxyCommand), aliases that failed to resolve
};
SshImport importSshHosts(const SshConfig& config, const SshLocalContext& local = SshLocalContext::current());

// File access around the pure functions above. Not thread-safe; use it from one thread.
class HostProfileStore
{
public:
    // path empty: defaultPath().
    explicit HostProfileStore(QString path = {});
    static QString defaultPath(); // kf::paths::configDir() + "/hosts.yaml"
    QString path() const { return m_path; }

    // A missing file is an empty list, not an error.
    Result<HostProfilesFile> load() const;
    // Atomic (QSaveFile: temp file in the same folder, fsync, rename), mode 0600.
    // Refuses duplicate or empty names.
    Result<void> save(const QList<HostProfile>& profiles) const;
    // load + replace the profile with the same name (or append) + save.
    Result<void> upsert(const HostProfile& profile) const;
    Result<void> remove(const QString& name) const;

    // Reads ~/.ssh/config (following Includes) of the given home folder.
    static Result<SshImport> importFromSshConfig(const QString& homeDir = SshLocalContext::current().homeDir);

private:
    QString m_path;
};

} // namespace kf
