// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/destination.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kf::cli {

namespace {

// ssh's identity files when none is configured (readconf.c fill_default_options, OpenSSH 9.2),
// written as `ssh -G` prints them.
const QStringList& defaultIdentityFiles()
{
    static const QStringList files { QStringLiteral("~/.ssh/id_rsa"), QStringLiteral("~/.ssh/id_ecdsa"),
        QStringLiteral("~/.ssh/id_ecdsa_sk"), QStringLiteral("~/.ssh/id_ed25519"),
        QStringLiteral("~/.ssh/id_ed25519_sk"), QStringLiteral("~/.ssh/id_xmss"), QStringLiteral("~/.ssh/id_dsa") };
    return files;
}

// A ProxyJump value as `ssh -G` prints it (readconf.c dump_client_config): the hops before the
// last as written, the last one parsed (ssh:// dropped, a numeric host in brackets).
QString asSshGPrintsJump(const QString& raw)
{
    const qsizetype comma = raw.lastIndexOf(QLatin1Char(','));
    const QString extra = comma > 0 ? raw.left(comma) + QLatin1Char(',') : QString();
    QString last = raw.mid(comma + 1);
    if (last.startsWith(QLatin1String("ssh://")))
        last = last.mid(6);
    const auto d = parseDestination(last);
    if (!d)
        return raw;
    const bool numeric = d->host.contains(QLatin1Char(':'))
        || std::all_of(d->host.cbegin(), d->host.cend(), [](QChar c) { return c.isDigit() || c == QLatin1Char('.'); });
    QString out = extra;
    if (!d->user.isEmpty())
        out += d->user + QLatin1Char('@');
    out += numeric ? QLatin1Char('[') + d->host + QLatin1Char(']') : d->host;
    if (d->port)
        out += QLatin1Char(':') + QString::number(*d->port);
    return out;
}

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli hosts resolve [-F FILE] [-p PORT] [-i KEY]... [-J JUMP] [--explain | --json] "
         "[USER@]DEST\n"
      << "Prints what KernelForge connects to for DEST, resolved as OpenSSH resolves it (~/.ssh/config, then\n"
      << "/etc/ssh/ssh_config; -F FILE alone), then the saved hosts: the lines `ssh -G DEST` prints for user,\n"
      << "hostname, port, identityfile and proxyjump. --explain adds where each value came from (file:line).\n";
}

} // namespace

int hostsResolve(QStringList args)
{
    const QString me = QStringLiteral("kernelforge-cli hosts resolve");
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(out());
        return 0;
    }
    bool explain = false, json = false;
    FlagTable flags;
    flags.add("--explain", &explain).add("--json", &json);
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error(), usage);
    const auto ssh = takeSshOptions(args);
    if (!ssh)
        return usageError(me, ssh.error(), usage);
    if (!args.isEmpty())
        return usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
    if (ssh->hasRemotePath)
        return usageError(me, QStringLiteral("a destination takes no :PATH"), usage);

    const ResolvedDestination& r = ssh->resolved;
    const HostProfile p = ssh->profile();
    const SshHostConfig& c = r.config;
    const bool fromConfig = r.source != ResolvedDestination::Source::SavedHost;
    const QString localUser = SshLocalContext::current().user;
    auto origin = [&](const char* key) {
        if (!fromConfig)
            return r.describeSource();
        const auto it = c.origins.constFind(QString::fromLatin1(key));
        return it == c.origins.constEnd() ? QStringLiteral("default") : it->place();
    };

    // (keyword, value, where it came from); identity files as written, like ssh -G.
    QList<std::tuple<QString, QString, QString>> lines;
    lines.append({ QStringLiteral("user"), p.user.isEmpty() ? localUser : p.user, origin("user") });
    lines.append({ QStringLiteral("hostname"), p.host, origin("hostname") });
    lines.append({ QStringLiteral("port"), QString::number(p.port), origin("port") });
    if (fromConfig && !c.identityFilesAsWritten.isEmpty()) {
        for (qsizetype i = 0; i < c.identityFilesAsWritten.size(); ++i)
            lines.append({ QStringLiteral("identityfile"), c.identityFilesAsWritten[i],
                i < c.identityOrigins.size() ? c.identityOrigins[i].place() : QString() });
    } else if (!p.identityFiles.isEmpty()) {
        for (const QString& k : p.identityFiles)
            lines.append({ QStringLiteral("identityfile"), k, origin("identityfile") });
    } else {
        for (const QString& k : defaultIdentityFiles())
            lines.append({ QStringLiteral("identityfile"), k, QStringLiteral("default") });
    }
    const QString jump = asSshGPrintsJump(fromConfig ? c.proxyJump : p.proxyJump);
    if (!jump.isEmpty())
        lines.append({ QStringLiteral("proxyjump"), jump, origin("proxyjump") });

    if (json) {
        QJsonObject o;
        o.insert(QStringLiteral("destination"), ssh->host);
        o.insert(QStringLiteral("source"), r.describeSource());
        o.insert(QStringLiteral("user"), p.user.isEmpty() ? localUser : p.user);
        o.insert(QStringLiteral("hostname"), p.host);
        o.insert(QStringLiteral("port"), int(p.port));
        o.insert(QStringLiteral("identityFiles"), QJsonArray::fromStringList(p.identityFiles));
        o.insert(QStringLiteral("proxyJump"), p.proxyJump);
        o.insert(QStringLiteral("followsSshConfig"), !p.sshConfigAlias.isEmpty());
        QJsonObject origins;
        for (const auto& [key, value, where] : std::as_const(lines))
            if (key != QLatin1String("identityfile"))
                origins.insert(key, where);
        o.insert(QStringLiteral("origins"), origins);
        out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
        return 0;
    }
    for (const auto& [key, value, where] : std::as_const(lines)) {
        out() << key << ' ' << value;
        if (explain)
            out() << "    # " << where;
        out() << '\n';
    }
    if (explain) {
        out() << "# resolved from " << r.describeSource() << '\n';
        if (!p.proxyJump.isEmpty() && p.proxyJump != jump)
            out() << "# jump hops as KernelForge connects: " << p.proxyJump << '\n';
        if (!p.sshConfigAlias.isEmpty())
            out() << "# follows the ssh configuration: resolved again at every connect\n";
    }
    return 0;
}

} // namespace kf::cli
