// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/producers.h"

#include "core/hosts/serverfacts.h"
#include "core/patch/applier.h"
#include "core/server/serverclient.h"
#include "core/server/serverlaunchprofile.h"
#include "core/timeline/eventstore.h"

#include <QJsonArray>

namespace kf::timeline {
namespace {

QJsonArray decisionsJson(const QList<patch::DecisionRecord>& decisions)
{
    QJsonArray out;
    for (const patch::DecisionRecord& d : decisions) {
        QJsonArray hunks;
        for (const patch::RejectedHunk& h : d.rejectedHunks)
            hunks.append(QJsonObject { { QStringLiteral("hunk"), h.index }, { QStringLiteral("id"), h.id } });
        out.append(QJsonObject { { QStringLiteral("patch"), d.patchId }, { QStringLiteral("file"), d.file },
            { QStringLiteral("accepted"), d.accepted }, { QStringLiteral("rejected_hunks"), hunks } });
    }
    return out;
}

QString plural(qsizetype n, const QString& word)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(word, n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace

void recordPatchPlanned(const patch::SetPlan& plan)
{
    if (!plan)
        return;
    QJsonArray patches;
    for (const patch::PatchPlan& p : plan.patches)
        patches.append(QJsonObject { { QStringLiteral("id"), p.id }, { QStringLiteral("file"), p.file },
            { QStringLiteral("status"), patch::statusKey(p.status) }, { QStringLiteral("reason"), p.reason } });
    Event e;
    e.host = plan.host;
    e.kind = kind::PatchPlanned;
    e.summary = QStringLiteral("Planned %1 on %2: %3").arg(plan.set.name, plan.root, plan.countsText());
    e.details = { { QStringLiteral("set"), plan.set.source }, { QStringLiteral("set_name"), plan.set.name },
        { QStringLiteral("root"), plan.root }, { QStringLiteral("patches"), patches } };
    recordOrWarn(e);
}

void recordPatchApplied(
    const patch::SetPlan& plan, const patch::ApplyOptions& options, const patch::ApplyReport& report)
{
    if (report.files.isEmpty())
        return;
    QJsonArray ids, outcomes;
    int written = 0, unchanged = 0, refused = 0, unparsable = 0, failed = 0, interrupted = 0;
    for (const patch::FileApply& f : report.files) {
        if (f.journalId > 0)
            ids.append(f.journalId);
        outcomes.append(QJsonObject { { QStringLiteral("file"), f.file },
            { QStringLiteral("outcome"), patch::outcomeText(f.outcome) }, { QStringLiteral("message"), f.message },
            { QStringLiteral("patches"), QJsonArray::fromStringList(f.patchIds) } });
        written += f.outcome == patch::FileApply::Written;
        unchanged += f.outcome == patch::FileApply::Unchanged;
        refused += f.outcome == patch::FileApply::Refused && !f.unparsable;
        unparsable += f.unparsable;
        failed += f.outcome == patch::FileApply::Failed;
        interrupted += f.outcome == patch::FileApply::Interrupted;
    }
    Event e;
    e.host = plan.host;
    e.kind = kind::PatchApplied;
    e.summary = QStringLiteral("Applied %1 to %2: %3 written")
                    .arg(plan.set.name, plan.root, plural(written, QStringLiteral("file")));
    if (unchanged)
        e.summary += QStringLiteral(", %1 unchanged").arg(unchanged);
    if (refused)
        e.summary += QStringLiteral(", %1 refused (changed since review)").arg(refused);
    if (unparsable)
        e.summary += QStringLiteral(", %1 refused (would no longer parse)").arg(unparsable);
    if (failed)
        e.summary += QStringLiteral(", %1 failed").arg(failed);
    if (interrupted)
        e.summary += QStringLiteral(", %1 not started (interrupted)").arg(interrupted);
    e.details = { { QStringLiteral("set"), plan.set.source }, { QStringLiteral("set_name"), plan.set.name },
        { QStringLiteral("root"), plan.root }, { QStringLiteral("journal_ids"), ids },
        { QStringLiteral("outcomes"), outcomes }, { QStringLiteral("ok"), report.ok() },
        { QStringLiteral("decisions"), decisionsJson(options.decisions) },
        { QStringLiteral("reviewed"), !options.decisions.isEmpty() } };
    recordOrWarn(e);
}

void recordPatchRolledBack(const patch::RollbackPlan& plan, const QList<patch::RollbackResult>& results)
{
    if (results.isEmpty() && plan.refused.isEmpty())
        return;
    QJsonArray ids, steps;
    QStringList sets;
    int done = 0;
    for (const patch::RollbackResult& r : results) {
        if (r.ok) {
            ids.append(r.step.entry.id);
            ++done;
        }
        if (!sets.contains(r.step.entry.setName))
            sets.append(r.step.entry.setName);
        steps.append(QJsonObject { { QStringLiteral("journal_id"), r.step.entry.id },
            { QStringLiteral("file"), r.step.entry.file }, { QStringLiteral("root"), r.step.entry.root },
            { QStringLiteral("ok"), r.ok }, { QStringLiteral("requested"), r.step.requested },
            { QStringLiteral("message"), r.message } });
    }
    Event e;
    e.host = plan.host;
    e.kind = kind::PatchRolledBack;
    e.summary = QStringLiteral("Rolled back %1%2")
                    .arg(plural(done, QStringLiteral("change")),
                        sets.isEmpty() ? QString() : QStringLiteral(" of ") + sets.join(QStringLiteral(", ")));
    const qsizetype notDone = results.size() - done + plan.refused.size();
    if (notDone > 0)
        e.summary += QStringLiteral("; %1 not rolled back").arg(notDone);
    e.details = { { QStringLiteral("journal_ids"), ids }, { QStringLiteral("steps"), steps },
        { QStringLiteral("refused"), QJsonArray::fromStringList(plan.refused) } };
    recordOrWarn(e);
}

void recordServerLaunched(
    const QString& host, const ServerLaunchProfile& p, const QString& jobId, const QStringList& forcedPast)
{
    Event e;
    e.host = host;
    e.kind = kind::ServerLaunched;
    e.summary = QStringLiteral("Server launched: %1, TP %2, port %3 (job %4)")
                    .arg(p.modelPath)
                    .arg(p.tp)
                    .arg(p.port)
                    .arg(jobId);
    e.details = { { QStringLiteral("job"), jobId }, { QStringLiteral("name"), p.name },
        { QStringLiteral("python"), p.python }, { QStringLiteral("model_path"), p.modelPath },
        { QStringLiteral("tp"), p.tp }, { QStringLiteral("port"), int(p.port) },
        { QStringLiteral("enable_metrics"), p.enableMetrics },
        { QStringLiteral("extra_args"), QJsonArray::fromStringList(p.extraArgs) }, { QStringLiteral("demo"), p.demo },
        { QStringLiteral("command"), p.command() } };
    if (!forcedPast.isEmpty()) {
        e.summary += QStringLiteral(", forced");
        e.details.insert(QStringLiteral("forced_past"), QJsonArray::fromStringList(forcedPast));
    }
    recordOrWarn(e);
}

void recordServerStopped(const QString& host, const QString& jobId, int exitStatus, bool cancelled)
{
    Event e;
    e.host = host;
    e.kind = kind::ServerStopped;
    e.key = QStringLiteral("server.stopped %1 %2").arg(host, jobId); // a job ends once
    e.summary = QStringLiteral("Server job %1 %2 (exit status %3)")
                    .arg(jobId, cancelled ? QStringLiteral("stopped") : QStringLiteral("exited"))
                    .arg(exitStatus);
    e.details = { { QStringLiteral("job"), jobId }, { QStringLiteral("exit_status"), exitStatus },
        { QStringLiteral("cancelled"), cancelled } };
    recordOrWarn(e);
}

void recordServerHealth(const QString& host, const ServerStatus* previous, const ServerStatus& now)
{
    const bool was = previous && previous->healthy();
    if (was == now.healthy())
        return;
    Event e;
    e.host = host;
    e.kind = now.healthy() ? kind::ServerHealthy : kind::ServerUnhealthy;
    e.time = QDateTime::fromMSecsSinceEpoch(now.timeMs, Qt::UTC);
    if (now.healthy())
        e.summary = QStringLiteral("Server healthy on port %1%2%3")
                        .arg(now.port)
                        .arg(now.modelPath.isEmpty() ? QString() : QStringLiteral(": ") + now.modelPath,
                            now.tpSize > 0 ? QStringLiteral(", TP %1").arg(now.tpSize) : QString());
    else
        e.summary
            = QStringLiteral("Server on port %1 unhealthy: %2")
                  .arg(now.port)
                  .arg(now.reachable ? QStringLiteral("/health answered HTTP %1").arg(now.healthStatus) : now.error);
    e.details = { { QStringLiteral("port"), int(now.port) }, { QStringLiteral("reachable"), now.reachable },
        { QStringLiteral("http_status"), now.healthStatus }, { QStringLiteral("error"), now.error },
        { QStringLiteral("model_path"), now.modelPath }, { QStringLiteral("tp"), now.tpSize } };
    recordOrWarn(e);
}

QJsonObject factsVersions(const ServerFacts& f)
{
    QJsonObject v;
    auto put = [&](const char* name, const QString& value) {
        if (!value.isEmpty())
            v.insert(QLatin1String(name), value);
    };
    put("os", f.os);
    put("kernel", f.kernel);
    put("driver", f.driverVersion);
    put("nvcc", f.nvcc);
    put("cmake", f.cmake);
    put("ninja", f.ninja);
    put("gcc", f.gcc);
    put("python", f.python);
    put("torch", f.torch);
    put("sglang", f.sglang);
    put("sgl-kernel", f.sglKernel);
    put("sglang-kernel", f.sglangKernel);
    if (!f.gpus.isEmpty()) {
        put("gpu", f.gpus.first().name);
        v.insert(QStringLiteral("gpu_count"), QString::number(f.gpus.size()));
        put("compute_capability", f.gpus.first().computeCapability);
    }
    return v;
}

void recordFacts(const QString& host, const ServerFacts& facts)
{
    if (!facts.complete)
        return; // a cut-short run is no evidence that a tool went away
    const QJsonObject versions = factsVersions(facts);
    const auto last = latest(host, kind::FactsChanged);
    if (!last) {
        recordOrWarn(Event { 0, {}, host, kind::FactsChanged, {}, QStringLiteral("Facts not compared: ") + last.error(),
            { { QStringLiteral("versions"), versions } } });
        return;
    }
    const QJsonObject previous
        = last->has_value() ? (*last)->details.value(QStringLiteral("versions")).toObject() : QJsonObject();
    if (last->has_value() && previous == versions)
        return;
    QStringList changed, parts;
    QStringList names = versions.keys() + previous.keys();
    names.removeDuplicates();
    for (const QString& name : std::as_const(names)) {
        const QString a = previous.value(name).toString(), b = versions.value(name).toString();
        if (a == b)
            continue;
        changed.append(name);
        if (name != QLatin1String("os") && name != QLatin1String("kernel"))
            parts.append(
                QStringLiteral("%1 %2 \u2192 %3")
                    .arg(name, a.isEmpty() ? QStringLiteral("none") : a, b.isEmpty() ? QStringLiteral("none") : b));
    }
    Event e;
    e.host = host;
    e.kind = kind::FactsChanged;
    e.summary = last->has_value()
        ? QStringLiteral("Tool versions changed: ")
            + (parts.isEmpty() ? changed.join(QStringLiteral(", ")) : parts.join(QStringLiteral(", ")))
        : QStringLiteral("First facts: driver %1, nvcc %2, CMake %3, PyTorch %4")
              .arg(facts.driverVersion.isEmpty() ? QStringLiteral("none") : facts.driverVersion,
                  facts.nvcc.isEmpty() ? QStringLiteral("none") : facts.nvcc,
                  facts.cmake.isEmpty() ? QStringLiteral("none") : facts.cmake,
                  facts.torch.isEmpty() ? QStringLiteral("none") : facts.torch);
    e.details = { { QStringLiteral("versions"), versions }, { QStringLiteral("previous"), previous },
        { QStringLiteral("changed"), QJsonArray::fromStringList(changed) }, { QStringLiteral("home"), facts.homeDir } };
    recordOrWarn(e);
}

void recordConnection(const QString& host, ConnectionState from, ConnectionState to, const QString& reason)
{
    const bool lost
        = from == ConnectionState::Ready && (to == ConnectionState::Reconnecting || to == ConnectionState::Failed);
    const bool restored = from == ConnectionState::Reconnecting && to == ConnectionState::Ready;
    if (!lost && !restored)
        return;
    Event e;
    e.host = host;
    e.kind = lost ? kind::ConnectionLost : kind::ConnectionRestored;
    e.summary = lost ? QStringLiteral("Connection lost: ") + reason : QStringLiteral("Connection restored");
    e.details = { { QStringLiteral("state"), toString(to) }, { QStringLiteral("reason"), reason } };
    recordOrWarn(e);
}

void recordVerification(const QString& host, const VerificationResult& result)
{
    Event e;
    e.host = host;
    e.kind = kind::VerifyResult;
    e.summary = (result.ok ? QStringLiteral("Verification passed: ") : QStringLiteral("Verification failed: "))
        + result.summary;
    e.details = result.toJson();
    recordOrWarn(e);
}

} // namespace kf::timeline
