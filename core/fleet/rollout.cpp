// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/rollout.h"

#include "core/jobs/remotejob.h"
#include "core/patch/applier.h"
#include "core/remotebuild/preflight.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"

#include <QCryptographicHash>
#include <QThreadPool>
#include <QtConcurrent>

#include <mutex>

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

QString PlanFingerprint::hash() const
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (auto it = files.cbegin(); it != files.cend(); ++it) // QMap: sorted by file
        h.addData(QString(it.key() + u'\t' + it.value() + u'\n').toUtf8());
    return QString::fromLatin1(h.result().toHex().left(16));
}

PlanFingerprint fingerprint(const patch::SetPlan& plan)
{
    PlanFingerprint f;
    for (const patch::FilePlan& file : plan.files) {
        if (!file.changes())
            continue; // a file this plan leaves alone is the same plan on every host
        f.files.insert(file.file,
            (file.exists ? file.sha256Before : QStringLiteral("absent")) + u'>'
                + (file.remove ? QStringLiteral("removed") : file.sha256After));
    }
    return f;
}

QStringList describeDifferences(const PlanFingerprint& reviewed, const PlanFingerprint& here)
{
    QStringList out;
    auto shortText = [](const QString& v) {
        const QString before = v.section(u'>', 0, 0), after = v.section(u'>', 1);
        return QStringLiteral("%1 -> %2").arg(before.left(12), after.left(12));
    };
    for (auto it = reviewed.files.cbegin(); it != reviewed.files.cend(); ++it) {
        const auto h = here.files.constFind(it.key());
        if (h == here.files.cend())
            out << QStringLiteral("%1: the reviewed plan changes it, this host's plan does not").arg(it.key());
        else if (h.value() != it.value())
            out << QStringLiteral("%1: this host %2, reviewed %3")
                       .arg(it.key(), shortText(h.value()), shortText(it.value()));
    }
    for (auto it = here.files.cbegin(); it != here.files.cend(); ++it)
        if (!reviewed.files.contains(it.key()))
            out << QStringLiteral("%1: this host's plan changes it, the reviewed plan does not").arg(it.key());
    return out;
}

PatchStep::PatchStep(patch::PatchSet set, QString root, bool apply)
    : m_set(std::move(set))
    , m_root(std::move(root))
    , m_apply(apply)
{ }

QString PatchStep::name() const
{
    return m_apply ? QStringLiteral("patch apply") : QStringLiteral("patch plan");
}

void PatchStep::setReviewed(const PlanFingerprint& reviewed)
{
    std::lock_guard lock(m_mutex);
    m_reviewed = reviewed;
}

std::optional<PlanFingerprint> PatchStep::reviewed() const
{
    std::lock_guard lock(m_mutex);
    return m_reviewed;
}

StepResult PatchStep::run(Transport& transport, const StepContext& ctx)
{
    using patch::PatchStatus;
    const QString root = patch::resolveRoot(transport, m_set, m_root);
    const patch::SetPlan plan = patch::planSet(transport, m_set, root, ctx.stop);
    if (!plan) {
        ctx.log(QStringLiteral("plan failed: ") + plan.error);
        return { HostRunState::Failed, plan.error };
    }
    const PlanFingerprint mine = fingerprint(plan);
    for (const patch::PatchPlan& p : plan.patches)
        ctx.log(QStringLiteral("%1  %2  %3%4")
                    .arg(patch::statusText(p.status).leftJustified(16), p.id, p.file,
                        p.reason.isEmpty() ? QString() : QStringLiteral(" (") + p.reason + u')'));
    const QString counts = QStringLiteral("%1 will apply, %2 already applied, %3 not applicable, %4 conflict(s)")
                               .arg(plan.count(PatchStatus::WillApply))
                               .arg(plan.count(PatchStatus::AlreadyApplied))
                               .arg(plan.count(PatchStatus::NotApplicable))
                               .arg(plan.count(PatchStatus::Conflict));
    ctx.log(QStringLiteral("plan %1 at %2: %3").arg(mine.hash(), plan.root, counts));
    const bool clean = plan.count(PatchStatus::Conflict) + plan.count(PatchStatus::NotApplicable) == 0;
    if (!m_apply)
        return { clean ? HostRunState::Succeeded : HostRunState::Failed,
            QStringLiteral("plan %1: %2").arg(mine.hash(), counts) };
    const std::optional<PlanFingerprint> reviewed = this->reviewed();
    if (!reviewed) {
        ctx.log(QStringLiteral("no reviewed plan: nothing applied"));
        return { HostRunState::Refused, QStringLiteral("no reviewed plan to compare with") };
    }
    if (!clean) {
        ctx.log(QStringLiteral("not applied: some patches do not apply here (%1)").arg(counts));
        return { HostRunState::Failed, QStringLiteral("plan %1: %2").arg(mine.hash(), counts) };
    }
    if (const QStringList diff = describeDifferences(*reviewed, mine); !diff.isEmpty()) {
        const QString why = QStringLiteral("the plan on %1 (%2) differs from the reviewed plan (%3):\n  %4")
                                .arg(ctx.hostName, mine.hash(), reviewed->hash(), diff.join(QStringLiteral("\n  ")));
        ctx.log(why);
        if (!ctx.confirmDifferent || !ctx.confirmDifferent(why))
            return {
                HostRunState::Refused,
                QStringLiteral("plan %1 differs from the reviewed %2: not applied").arg(mine.hash(), reviewed->hash())
            };
        ctx.log(QStringLiteral("applying the different plan: confirmed"));
    }
    const patch::ApplyReport report = patch::applyPlan(transport, plan);
    int written = 0;
    for (const patch::FileApply& f : report.files) {
        ctx.log(QStringLiteral("%1  %2  %3").arg(patch::outcomeText(f.outcome).leftJustified(10), f.file, f.message));
        written += f.outcome == patch::FileApply::Written;
    }
    if (!report.ok())
        return { HostRunState::Failed,
            report.changedSinceReview() ? QStringLiteral("a file changed while applying: plan again")
                                        : QStringLiteral("apply failed (see the log)") };
    return { HostRunState::Succeeded, QStringLiteral("plan %1: %2 file(s) written").arg(mine.hash()).arg(written) };
}

PreflightStep::PreflightStep(BuildProfile profile)
    : m_profile(std::move(profile))
{ }

StepResult PreflightStep::run(Transport& transport, const StepContext& ctx)
{
    const auto checks = runPreflight(transport, m_profile);
    if (!checks) {
        ctx.log(QStringLiteral("preflight failed: ") + checks.error());
        return { HostRunState::Failed, checks.error() };
    }
    int fails = 0, warns = 0;
    for (const PreflightCheck& c : checks.value()) {
        ctx.log(QStringLiteral("%1  %2: %3%4")
                    .arg(toString(c.level).leftJustified(4), c.id, c.message,
                        c.fix.isEmpty() ? QString() : QStringLiteral(" (") + c.fix + u')'));
        fails += c.level == PreflightCheck::Level::Fail;
        warns += c.level == PreflightCheck::Level::Warn;
    }
    const QString summary = QStringLiteral("%1 check(s): %2 fail, %3 warn").arg(checks->size()).arg(fails).arg(warns);
    return { fails ? HostRunState::Failed : HostRunState::Succeeded, summary };
}

BuildStartStep::BuildStartStep(BuildProfile profile)
    : m_profile(std::move(profile))
{ }

StepResult BuildStartStep::run(Transport& transport, const StepContext& ctx)
{
    const auto job = RemoteJob::start(transport, m_profile.toJobSpec());
    if (!job) {
        ctx.log(QStringLiteral("build start failed: ") + job.error());
        return { HostRunState::Failed, job.error() };
    }
    ctx.log(QStringLiteral("started job %1 (%2)").arg(job->id, m_profile.name));
    return { HostRunState::Succeeded, QStringLiteral("job %1").arg(job->id) };
}

QList<HostRun> runRollout(const QList<HostProfile>& hosts, RolloutStep& step, const RolloutOptions& options,
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
    const Connector connect
        = options.connect ? options.connect : Connector([](const HostProfile& p) -> Result<std::shared_ptr<Transport>> {
              if (p.isLocal)
                  return std::shared_ptr<Transport>(std::make_shared<LocalTransport>());
              SshConnectOptions o;
              o.reconnect = false;
              auto t = SshTransport::connect(p, o);
              if (!t)
                  return Result<std::shared_ptr<Transport>>::failure(t.error());
              return std::shared_ptr<Transport>(t.value());
          });
    QThreadPool pool;
    pool.setMaxThreadCount(batchSize);
    bool failedBefore = false;
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
                update(i, HostRunState::Running, step.name());
                StepContext ctx;
                ctx.hostName = profile.name;
                ctx.log = log;
                ctx.stop = stop;
                ctx.transport = transport.value();
                ctx.confirmDifferent
                    = [&, i](const QString& why) { return cb.confirmDifferent && cb.confirmDifferent(i, why); };
                const StepResult r = step.run(*transport.value(), ctx);
                update(i, r.state, r.summary);
            }));
        }
        for (QFuture<void>& f : running)
            f.waitForFinished();
        for (int i = start; i < end; ++i)
            failedBefore |= runs.at(i).state != HostRunState::Succeeded;
    }
    return runs;
}

QString ansibleInventory(const QList<HostProfile>& profiles)
{
    // INI inventory: host lines carry their variables; groups list host names only.
    auto quote = [](const QString& v) {
        if (!v.contains(u' ') && !v.contains(u'\'') && !v.contains(u'"') && !v.contains(u'#') && !v.isEmpty())
            return v;
        QString e = v;
        e.replace(u'\\', QStringLiteral("\\\\")).replace(u'\'', QStringLiteral("\\'"));
        return QString(u'\'' + e + u'\'');
    };
    auto groupName = [](const QString& tag) {
        QString g;
        for (QChar c : tag)
            g += (c.isLetterOrNumber() || c == u'_') ? c : u'_';
        if (g.isEmpty() || g.at(0).isDigit())
            g.prepend(u'_');
        return g;
    };
    QString out = QStringLiteral("# Written by kernelforge-cli hosts export --ansible (KernelForge host profiles)\n");
    out += QStringLiteral("[kernelforge]\n");
    QMap<QString, QStringList> groups;
    for (const HostProfile& p : profiles) {
        if (p.isDemo)
            continue;
        QString line = quote(p.name);
        if (p.isLocal) {
            line += QStringLiteral(" ansible_connection=local");
        } else {
            line += QStringLiteral(" ansible_host=") + quote(p.host);
            if (p.port != 22)
                line += QStringLiteral(" ansible_port=%1").arg(p.port);
            if (!p.user.isEmpty())
                line += QStringLiteral(" ansible_user=") + quote(p.user);
            if (!p.identityFiles.isEmpty())
                line += QStringLiteral(" ansible_ssh_private_key_file=") + quote(p.identityFiles.first());
            QStringList common;
            if (!p.proxyJump.isEmpty())
                common << QStringLiteral("-J ") + p.proxyJump;
            if (!p.knownHostsFile.isEmpty())
                common << QStringLiteral("-o UserKnownHostsFile=") + p.knownHostsFile;
            if (!common.isEmpty())
                line += QStringLiteral(" ansible_ssh_common_args=") + quote(common.join(u' '));
        }
        out += line + u'\n';
        for (const QString& t : p.tags)
            groups[groupName(t)].append(quote(p.name));
    }
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        out += QStringLiteral("\n[%1]\n").arg(it.key());
        for (const QString& h : it.value())
            out += h + u'\n';
    }
    return out;
}

} // namespace kf::fleet
