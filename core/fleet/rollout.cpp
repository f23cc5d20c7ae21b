// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/rollout.h"

#include "core/gpu/gpuhealthprobe.h"
#include "core/hosts/destination.h"
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/sshoptionarg.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "core/util/shellquote.h"
#include "core/util/terminaltext.h"

#include <QRegularExpression>

#include <QThreadPool>
#include <QtConcurrent>

#include <mutex>
#include <vector>

namespace kf::fleet {

QString hostRunStateName(HostRunState s)
{
    switch (s) {
    case HostRunState::Waiting: return QStringLiteral("waiting");
    case HostRunState::Connecting: return QStringLiteral("connecting");
    case HostRunState::Running: return QStringLiteral("running");
    case HostRunState::Succeeded: return QStringLiteral("succeeded");
    case HostRunState::Failed: return QStringLiteral("failed");
    case HostRunState::Refused: return QStringLiteral("refused");
    case HostRunState::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

HostRunState hostRunState(deploy::StepStatus s)
{
    switch (s) {
    case deploy::StepStatus::Ok: return HostRunState::Succeeded;
    case deploy::StepStatus::Failed: return HostRunState::Failed;
    case deploy::StepStatus::Refused: return HostRunState::Refused;
    case deploy::StepStatus::Skipped: return HostRunState::Skipped;
    }
    return HostRunState::Failed;
}

Result<std::shared_ptr<Transport>> connectQuietly(const HostProfile& p)
{
    if (p.isLocal)
        return std::shared_ptr<Transport>(std::make_shared<LocalTransport>());
    SshConnectOptions o;
    o.reconnect = false;
    auto t = SshTransport::connect(p, o);
    if (!t)
        return Result<std::shared_ptr<Transport>>::failure(t.error());
    return std::shared_ptr<Transport>(t.value());
}

Result<std::shared_ptr<Transport>> connectByName(const QList<HostProfile>& profiles, const QString& hostName)
{
    for (const HostProfile& p : profiles)
        if (p.name == hostName)
            return connectQuietly(p);
    return Result<std::shared_ptr<Transport>>::failure(QStringLiteral("no host profile named %1").arg(hostName));
}

Result<std::shared_ptr<Transport>> connectByName(const QString& hostsFile, const QString& hostName)
{
    const auto loaded = HostProfileStore(hostsFile).load();
    if (!loaded)
        return loaded.withoutValue();
    return connectByName(loaded->profiles, hostName);
}

QList<HostRun> runRollout(const QList<HostProfile>& hosts, deploy::Step& step, const RolloutOptions& options,
    const RolloutCallbacks& cb, const std::atomic<bool>* stop)
{
    const int batchSize = qMax(1, options.batchSize);
    QList<HostRun> runs;
    for (int i = 0; i < hosts.size(); ++i)
        runs.append({ hosts.at(i), HostRunState::Waiting, {}, i / batchSize + 1 });
    std::mutex mutex; // guards runs while a batch runs
    auto update = [&](int i, HostRunState state, const QString& summary) {
        HostRun copy;
        {
            std::lock_guard lock(mutex);
            runs[i].state = state;
            runs[i].summary = summary;
            copy = runs[i];
        }
        if (cb.changed)
            cb.changed(i, copy);
    };
    for (int i = 0; i < runs.size(); ++i)
        if (cb.changed)
            cb.changed(i, runs.at(i));
    const Connector connect = options.connect ? options.connect : Connector(connectQuietly);
    QThreadPool pool;
    pool.setMaxThreadCount(batchSize);
    bool failedBefore = false;
    // Skipped by skipUnhealthy: not a failure. Written by the batch's threads, an element each.
    std::vector<char> unhealthy(size_t(runs.size()), 0);
    for (int start = 0; start < runs.size(); start += batchSize) {
        const int end = qMin(int(runs.size()), start + batchSize);
        if ((failedBefore && !options.continueOnError) || (stop && stop->load())) {
            const QString why = stop && stop->load() ? QStringLiteral("not run: stopped")
                                                     : QStringLiteral("not run: an earlier batch failed");
            for (int i = start; i < runs.size(); ++i)
                update(i, HostRunState::Skipped, why);
            break;
        }
        QList<QFuture<void>> running;
        for (int i = start; i < end; ++i) {
            running.append(QtConcurrent::run(&pool, [&, i] {
                const HostProfile& profile = runs.at(i).profile;
                auto log = [&, i](const QString& line) {
                    if (cb.log)
                        cb.log(i, line);
                };
                update(i, HostRunState::Connecting, QStringLiteral("connecting to %1").arg(profile.destination()));
                auto transport = connect(profile);
                if (!transport) {
                    log(transport.error());
                    update(i, HostRunState::Failed, transport.error());
                    return;
                }
                if (options.skipUnhealthy) {
                    update(i, HostRunState::Running, QStringLiteral("checking GPU health"));
                    const auto health = checkGpuHealth(*transport.value());
                    if (!health) {
                        log(health.error());
                        update(i, HostRunState::Failed, health.error());
                        return;
                    }
                    log(QStringLiteral("GPU health: %1").arg(health->summary()));
                    if (health->verdict() == HealthLevel::Fail) {
                        unhealthy[size_t(i)] = 1;
                        update(i, HostRunState::Skipped, QStringLiteral("skipped, unhealthy: ") + health->summary());
                        return;
                    }
                }
                update(i, HostRunState::Running, step.name());
                deploy::StepContext ctx;
                ctx.hostName = profile.name;
                ctx.log = log;
                ctx.stop = stop;
                ctx.transport = transport.value();
                ctx.confirmDifferent
                    = [&, i](const QString& why) { return cb.confirmDifferent && cb.confirmDifferent(i, why); };
                const deploy::StepResult r = step.run(*transport.value(), ctx);
                update(i, hostRunState(r.status), r.summary);
            }));
        }
        for (QFuture<void>& f : running)
            f.waitForFinished();
        for (int i = start; i < end; ++i)
            failedBefore |= runs.at(i).state != HostRunState::Succeeded && !unhealthy[size_t(i)];
    }
    return runs;
}

namespace {

// A value Ansible's INI reader takes as it is. Its host lines are split like a shell's words
// (shlex: quotes, and '#' starts a comment even inside a word), then each value is read as a
// Python literal when it is one (ast.literal_eval: 8080 is a number, True a boolean). Plain:
// dotted IPv4 addresses, and words of the characters below that start with a letter, '_', '/'
// or '~' (never a number) and are not a Python keyword.
bool plainIniValue(const QString& v)
{
    static const QRegularExpression word(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_/~][A-Za-z0-9_./~@%+,:-]*")));
    static const QRegularExpression ipv4(
        QRegularExpression::anchoredPattern(QStringLiteral("[0-9]{1,3}(\\.[0-9]{1,3}){3}")));
    if (v == u"True" || v == u"False" || v == u"None")
        return false;
    return word.match(v).hasMatch() || ipv4.match(v).hasMatch();
}

// Anything else: a Python string literal (ast.literal_eval gives back exactly v) inside shell
// single quotes (shlex keeps it whole); its own ' is \x27, so the single quotes hold.
QString iniValue(const QString& v)
{
    if (plainIniValue(v))
        return v;
    QString e = v;
    e.replace(u'\\', QStringLiteral("\\\\"))
        .replace(u'"', QStringLiteral("\\\""))
        .replace(u'\'', QStringLiteral("\\x27"));
    return QStringLiteral("'\"%1\"'").arg(e);
}

// An inventory host name is read as a pattern (gpu[1:3] is three hosts, host:2222 a port): only
// names that read back as themselves.
Result<void> checkInventoryName(const HostProfile& p)
{
    static const QRegularExpression name(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9_][A-Za-z0-9_.-]*")));
    if (!name.match(p.name).hasMatch())
        return Result<void>::failure(QStringLiteral("host '%1': an Ansible inventory name is letters, digits, '_', "
                                                    "'.' and '-' (not first), and Ansible would read this one "
                                                    "otherwise; rename the host to export it")
                                         .arg(terminalSafe(p.name)));
    return {};
}

} // namespace

Result<QString> ansibleInventory(const QList<HostProfile>& profiles)
{
    auto groupName = [](const QString& tag) {
        QString g;
        for (QChar c : tag)
            g += (c.unicode() < 0x80 && (c.isLetterOrNumber() || c == u'_')) ? c : u'_';
        if (g.isEmpty() || g.at(0).isDigit())
            g.prepend(u'_');
        return g;
    };
    // INI inventory: host lines carry their variables; groups list host names only.
    QString out = QStringLiteral("# Written by kernelforge-cli hosts export --ansible (KernelForge host profiles)\n");
    out += QStringLiteral("[kernelforge]\n");
    QMap<QString, QStringList> groups;
    for (const HostProfile& p : profiles) {
        if (p.isDemo)
            continue;
        for (const auto& check : { checkNoControlCharacters(p), checkInventoryName(p) })
            if (!check)
                return Result<QString>::failure(check.error());
        QString line = p.name;
        if (p.isLocal) {
            line += QStringLiteral(" ansible_connection=local");
        } else {
            if (const auto host = checkHostName(p.host); !host)
                return Result<QString>::failure(QStringLiteral("host '%1': %2").arg(p.name, host.error()));
            line += QStringLiteral(" ansible_host=") + iniValue(p.host);
            if (p.port != 22)
                line += QStringLiteral(" ansible_port=%1").arg(p.port);
            if (!p.user.isEmpty())
                line += QStringLiteral(" ansible_user=") + iniValue(p.user);
            if (!p.identityFiles.isEmpty())
                line += QStringLiteral(" ansible_ssh_private_key_file=") + iniValue(p.identityFiles.first());
            // Ansible splits ansible_ssh_common_args like a shell before it hands them to ssh.
            QStringList common;
            if (!p.proxyJump.isEmpty()) {
                if (const auto jump = checkProxyJump(p.proxyJump); !jump)
                    return Result<QString>::failure(QStringLiteral("host '%1': %2").arg(p.name, jump.error()));
                common << QStringLiteral("-J") << p.proxyJump.trimmed();
            }
            if (!p.knownHostsFile.isEmpty()) {
                const auto option = userKnownHostsOption(p.knownHostsFile);
                if (!option)
                    return Result<QString>::failure(QStringLiteral("host '%1': %2").arg(p.name, option.error()));
                common << QStringLiteral("-o") << option.value();
            }
            if (!common.isEmpty())
                line += QStringLiteral(" ansible_ssh_common_args=") + iniValue(shellJoin(common));
        }
        out += line + u'\n';
        for (const QString& t : p.tags)
            groups[groupName(t)].append(p.name);
    }
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        out += QStringLiteral("\n[%1]\n").arg(it.key());
        for (const QString& h : it.value())
            out += h + u'\n';
    }
    return out;
}

} // namespace kf::fleet
