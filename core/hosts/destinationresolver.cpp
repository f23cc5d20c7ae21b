// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/destinationresolver.h"

namespace kf {

namespace {

bool typedAnything(const SshCommandLine& given)
{
    return !given.user.isEmpty() || given.port || !given.identityFiles.isEmpty() || !given.proxyJump.isEmpty();
}

bool configDefines(const QList<SshConfig>& files, const SshHostConfig& resolved)
{
    if (resolved.origins.contains(QStringLiteral("hostname")))
        return true;
    return std::any_of(files.cbegin(), files.cend(),
        [&](const SshConfig& f) { return importableSshHosts(f).contains(resolved.alias); });
}

// The profile ssh would connect with: the resolution's values, hops resolved too.
Result<HostProfile> explicitProfile(const QString& name, const SshHostConfig& config, const QList<SshConfig>& files,
    const SshLocalContext& local, QList<SshConfigNote>* notes)
{
    HostProfile p;
    p.name = name;
    p.host = config.hostName;
    p.user = config.user;
    p.port = config.port;
    p.identityFiles = config.identityFiles;
    p.knownHostsFile = config.userKnownHostsFiles.value(0);
    const auto hops = resolveJumpHops(config.proxyJump, files, local, &p.identityFiles, notes);
    if (!hops)
        return hops.withoutValue();
    p.proxyJump = hops.value();
    return p;
}

} // namespace

QString ResolvedDestination::describeSource() const
{
    switch (source) {
    case Source::SshConfig: return QStringLiteral("ssh configuration (Host %1)").arg(config.alias);
    case Source::SavedHost: return QStringLiteral("saved host %1").arg(profile.name);
    case Source::AsTyped: break;
    }
    return QStringLiteral("as typed");
}

Result<ResolvedDestination> resolveDestination(const TypedDestination& typed, const QList<HostProfile>& saved,
    const QList<SshConfig>& files, const SshLocalContext& local)
{
    using R = Result<ResolvedDestination>;
    ResolvedDestination out;
    const auto resolved = resolveSshHost(files, typed.host, local, typed.given);
    if (!resolved)
        return R::failure(resolved.error());
    out.config = resolved.value();
    out.notes = out.config.notes;
    const bool typedMore = typedAnything(typed.given);

    if (configDefines(files, out.config)) {
        out.source = ResolvedDestination::Source::SshConfig;
        auto p = explicitProfile(typed.host, out.config, files, local, &out.notes);
        if (!p)
            return p.withoutValue();
        out.profile = p.value();
        if (!typedMore)
            out.profile.sshConfigAlias = typed.host;
        return out;
    }

    const auto named = std::find_if(
        saved.cbegin(), saved.cend(), [&](const HostProfile& h) { return h.name == typed.host && !h.isDemo; });
    if (named != saved.cend()) {
        out.source = ResolvedDestination::Source::SavedHost;
        out.profile = *named;
        if (!typedMore)
            return out;
        if (!named->sshConfigAlias.isEmpty()) {
            // It follows the file: resolve it now with what was typed winning.
            const auto again = resolveSshHost(files, named->sshConfigAlias, local, typed.given);
            if (!again)
                return R::failure(again.error());
            out.config = again.value();
            auto p = explicitProfile(named->name, out.config, files, local, &out.notes);
            if (!p)
                return p.withoutValue();
            out.profile = p.value();
            out.profile.tags = named->tags;
            return out;
        }
        HostProfile& p = out.profile;
        if (!typed.given.user.isEmpty())
            p.user = typed.given.user;
        if (typed.given.port)
            p.port = *typed.given.port;
        if (!typed.given.identityFiles.isEmpty())
            p.identityFiles = typed.given.identityFiles + p.identityFiles;
        if (!typed.given.proxyJump.isEmpty()) {
            const auto hops = resolveJumpHops(typed.given.proxyJump, files, local, &p.identityFiles, &out.notes);
            if (!hops)
                return hops.withoutValue();
            p.proxyJump = hops.value();
        }
        return out;
    }

    out.source = ResolvedDestination::Source::AsTyped;
    auto p = explicitProfile(typed.host, out.config, files, local, &out.notes);
    if (!p)
        return p.withoutValue();
    out.profile = p.value();
    return out;
}

} // namespace kf
