// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// OpenSSH client configuration (ssh_config(5)), the subset KernelForge needs to import hosts.
//
// Wire format, as OpenSSH 9.x reads it:
//   - one statement a line: `Keyword args...` or `Keyword=args...` (one '=' with optional
//     blanks around it); keywords are case-insensitive; blank lines and lines whose first
//     word starts with '#' are ignored, and so is everything from a word starting with '#'.
//   - arguments are split on blanks; "double" or 'single' quotes group blanks into one
//     argument; a backslash escapes the next quote or backslash inside an argument.
//   - `Host pattern...` starts a block that applies when the alias typed by the user
//     matches: '*' any run of characters, '?' one character, a leading '!' negates (a
//     matching negated pattern disables the block whatever else matches). Matching is
//     case-sensitive on the alias as typed, like ssh.
//   - `Match criteria...` starts a block that applies when every criterion holds, as
//     readconf.c's match_cfg_line: `all` (alone), `host`/`originalhost` (comma lists of
//     patterns, '!' negates one, case-insensitive; host is HostName as known so far with %h,
//     originalhost the alias), `user` (the remote user so far), `localuser`, `canonical` and
//     `final` (true only in the final pass), each negatable with a leading '!'. `exec` is
//     never run: its block does not apply, with a note. A `Match final` anywhere, or
//     CanonicalizeHostname, makes a second (final) pass over the files in which Host lines
//     match the final host name; values set in the first pass stay (first value wins).
//   - `Include path...` reads more files in place: ~ expands to the home folder, relative
//     paths are relative to ~/.ssh, globs are expanded and sorted, a missing file is not an
//     error, nesting deeper than 16 is (OpenSSH then rejects the whole file: here no further
//     Include is read, so a file that includes itself three times costs 17 reads, not 3^16),
//     and so are more than 4096 included files in all. An Include inside a block that does not apply
//     contributes nothing (its Host lines never match); the block state is restored after it.
//   - First obtained value wins for every single-valued option (HostName, User, Port,
//     ProxyJump, UserKnownHostsFile, GlobalKnownHostsFile, HashKnownHosts, ProxyCommand);
//     IdentityFile accumulates in order.
//   - Tokens expanded in IdentityFile and User/GlobalKnownHostsFile: %% %d (local home) %h (final
//     HostName) %i (local uid) %l (local host name) %L (its first label) %n (alias as typed)
//     %p (port) %r (remote user) %u (local user); a leading ~ is the home folder. HostName
//     expands %h (the alias) and %%. An unknown token is an error, as in ssh.
//
// The parser is pure: Include files come through a caller-supplied reader (the filesystem
// in loadSshConfig, a map in tests and fuzzing).
namespace kf {

// A problem or remark tied to a place in a config file.
struct SshConfigNote
{
    QString file;
    int line = 0;
    QString message;
    QString toString() const; // "file:line: message"
    QString place() const;    // "file:line" (or only file for "command line", "default")
    bool operator==(const SshConfigNote&) const = default;
};

struct SshConfigStatement
{
    enum class Kind { Option, Host, Match, Include };
    Kind kind = Kind::Option;
    QString keyword;  // lower case: "hostname", "identityfile", ...
    QStringList args; // unquoted arguments
    QString file;
    int line = 0;
    // Include: the statements of every file it named, in order (already parsed recursively).
    QList<SshConfigStatement> children;
};

struct SshConfig
{
    QList<SshConfigStatement> statements;
    QList<SshConfigNote> errors; // malformed lines; statements holds what could be read
    QList<SshConfigNote> notes;  // things skipped on purpose (Match blocks, ...)
    bool ok() const { return errors.isEmpty(); }
};

// How Include finds files. Both functions get absolute paths (after ~ and ~/.ssh handling).
struct SshConfigIncludeReader
{
    QString homeDir;                                                    // for ~
    std::function<QStringList(const QString& pattern)> glob;            // sorted matches of a glob
    std::function<std::optional<QByteArray>(const QString& path)> read; // nullopt: unreadable
    int maxDepth = 16;                                                  // OpenSSH's READCONF_MAX_DEPTH
};

// Parses one file's text. Without a reader, Include statements are kept (children empty)
// and noted but not followed, which keeps the function free of any file access.
SshConfig parseSshConfig(
    const QByteArray& text, const QString& fileName, const SshConfigIncludeReader* includes = nullptr);
// The real filesystem (QDir globbing, QFile reading) rooted at homeDir.
SshConfigIncludeReader fileSystemIncludeReader(const QString& homeDir);
// Reads path (normally ~/.ssh/config) and follows its Includes on the filesystem.
Result<SshConfig> loadSshConfig(const QString& path, const QString& homeDir);

// The files ssh reads for a destination: with -F only that file ("none": no file at all),
// else the user's ~/.ssh/config then the system's ssh_config. A missing default file is
// skipped; a missing -F file is an error, as in ssh.
struct SshConfigSources
{
    QString homeDir;    // empty: $HOME
    QString userConfig; // empty: <home>/.ssh/config
    QString systemConfig = QStringLiteral("/etc/ssh/ssh_config");
    bool explicitFile = false; // userConfig came from -F: read it alone, it must exist ("none": no file)
    QString home() const;
};
Result<QList<SshConfig>> loadSshConfigs(const SshConfigSources& sources);

// Facts about the local side used for token expansion.
struct SshLocalContext
{
    QString user;                     // %u, and %r when no User is configured
    QString homeDir;                  // ~ and %d
    QString hostName;                 // %l (%L: up to the first dot)
    quint32 uid = 0;                  // %i
    static SshLocalContext current(); // this process: $USER/getpwuid, $HOME, gethostname
};

// Values given with the destination (ssh's user@, -l, -p, -i, -J): obtained before any
// file is read, so they win over it.
struct SshCommandLine
{
    QString user;
    std::optional<quint16> port;
    QStringList identityFiles;
    QString proxyJump;
};

// What ssh would use for one alias.
struct SshHostConfig
{
    QString alias;    // as typed
    QString hostName; // HostName, or the alias when none is set
    QString user;     // empty: not configured (ssh uses the local user)
    quint16 port = 22;
    QStringList identityFiles;            // expanded, in order
    QList<SshConfigNote> identityOrigins; // where each of identityFiles was set
    QStringList identityFilesAsWritten;   // before expansion, as `ssh -G` prints them
    QString proxyJump;                    // empty for none ("ProxyJump none" included)
    QStringList userKnownHostsFiles;      // expanded; empty: not configured (or "none")
    QStringList globalKnownHostsFiles;    // GlobalKnownHostsFile, expanded likewise
    bool knownHostsConfigured = false;    // UserKnownHostsFile was set (possibly to "none")
    bool globalKnownHostsConfigured = false;
    std::optional<bool> hashKnownHosts; // HashKnownHosts yes/no; nullopt: not configured
    QString proxyCommand;               // recognised only, to warn: KernelForge does not run it
    // Where each value came from, by lower-case keyword ("hostname", "user", "port",
    // "proxyjump", "userknownhostsfile", ...): file and line, or "command line". A keyword
    // missing here has ssh's default.
    QMap<QString, SshConfigNote> origins;
    QList<SshConfigNote> notes; // Match exec not run, malformed Match lines, options KernelForge ignores

    // name = alias; ProxyCommand is not representable and is only reported in notes.
    HostProfile toProfile() const;
};

// Evaluates the files (the user's, then the system's: one set of options, the first value
// obtained wins) for an alias like ssh does. Fails on a bad % token.
Result<SshHostConfig> resolveSshHost(const QList<SshConfig>& files, const QString& alias,
    const SshLocalContext& local = SshLocalContext::current(), const SshCommandLine& commandLine = {});
Result<SshHostConfig> resolveSshHost(const SshConfig& config, const QString& alias,
    const SshLocalContext& local = SshLocalContext::current(), const SshCommandLine& commandLine = {});

// A profile that follows the user's ssh configuration (HostProfile::sshConfigAlias set) as
// the files say now: host, user, port, identity files, ProxyJump and known_hosts file come
// from resolving the alias, so later edits of the file are followed. ProxyJump hops are
// resolved the same way (`ProxyJump bastion` with `Host bastion` in the file), each written
// as user@hostname:port, and their identity files are tried after the host's own. Any other
// profile is returned unchanged. Notes say what ssh would do that KernelForge does not.
struct FollowedProfile
{
    HostProfile profile;
    SshHostConfig config; // the alias's resolution, with origins
    QList<SshConfigNote> notes;
};
Result<FollowedProfile> followSshConfig(const HostProfile& profile, const QList<SshConfig>& files,
    const SshLocalContext& local = SshLocalContext::current());
// The same with the files read from sources (what connecting does).
Result<FollowedProfile> followSshConfig(const HostProfile& profile, const SshConfigSources& sources = {});
// Resolves every hop of a ProxyJump list through the files (hop user and port from the spec
// win) to user@hostname:port; identity files of the hops are appended to *identityFiles.
Result<QString> resolveJumpHops(const QString& proxyJump, const QList<SshConfig>& files, const SshLocalContext& local,
    QStringList* identityFiles, QList<SshConfigNote>* notes);

// Aliases worth importing: every Host pattern without wildcards or negation, in file order,
// without duplicates (Include files included, Match blocks not).
QStringList importableSshHosts(const SshConfig& config);

// Matches a single pattern (no '!') against a name: '*' and '?' wildcards, as OpenSSH's
// match_pattern (ssh_config Host, case-sensitive; known_hosts hosts, case-insensitive).
bool sshPatternMatches(QStringView pattern, QStringView name, Qt::CaseSensitivity cs = Qt::CaseSensitive);

} // namespace kf
