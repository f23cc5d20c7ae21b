// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/hosts/sshconfig.h"
#include "core/util/result.h"

#include <QList>
#include <QString>

// How a destination a person types (the CLI's [user@]host, the connect dialog) becomes a
// profile: as OpenSSH resolves it, then KernelForge's saved hosts.
//   1. The user's ssh configuration, when it defines the name: a Host pattern that is the name
//      itself, or any block that sets its HostName. The profile follows the file
//      (HostProfile::sshConfigAlias), so later edits count, unless something was typed with
//      it (user@, -p, -i, -J): then those win, as on ssh's command line, and the profile holds
//      what the file says now.
//   2. A saved host of that name (hosts.yaml), with what was typed over it.
//   3. The name as typed, with the configuration's blocks that apply to it (Host *, Match
//      all, wildcards) as ssh would apply them.
// ProxyJump hops go through the same configuration (core/hosts/sshconfig.h, resolveJumpHops).
namespace kf {

struct TypedDestination
{
    QString host;         // without user and port
    SshCommandLine given; // user@, -p, -i, -J as typed
};

struct ResolvedDestination
{
    enum class Source { SshConfig, SavedHost, AsTyped };
    HostProfile profile;
    Source source = Source::AsTyped;
    SshHostConfig config; // the ssh configuration's reading of the name (origins of each value)
    QList<SshConfigNote> notes;
    QString describeSource() const; // "ssh configuration (Host gpu1)", "saved host gpu1", "as typed"
};

Result<ResolvedDestination> resolveDestination(const TypedDestination& typed, const QList<HostProfile>& saved,
    const QList<SshConfig>& files, const SshLocalContext& local = SshLocalContext::current());

} // namespace kf
