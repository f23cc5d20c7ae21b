// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/eventstore.h"

#include "core/remotebuild/buildhistory.h"
#include "core/servebench/benchstore.h"
#include "core/store/database.h"

#include <QJsonArray>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kf::timeline {
namespace {

QString durationText(qint64 ms)
{
    const qint64 s = (ms + 500) / 1000;
    if (s >= 3600)
        return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    if (s >= 60)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QStringLiteral("%1 s").arg(s);
}

// A build row is up to two events: started, and finished when it ended. A promotion's install
// row (core/deploy/promotestep.h) is there for provenance; its one event is build.promoted.
void appendBuildEvents(const BuildRecord& r, const QDateTime& since, const QDateTime& until, QList<Event>& out)
{
    if (r.spec.contains(QStringLiteral("promoted_from")))
        return;
    auto inRange = [&](const QDateTime& t) {
        return t.isValid() && (!since.isValid() || t >= since) && (!until.isValid() || t <= until);
    };
    const QString profile = r.profile.isEmpty() ? QStringLiteral("build") : r.profile;
    QJsonObject common { { QStringLiteral("job"), r.jobId }, { QStringLiteral("profile"), r.profile } };
    if (inRange(r.started)) {
        Event e;
        e.time = r.started;
        e.host = r.host;
        e.kind = kind::BuildStarted;
        e.actor = r.actor;
        e.source = QStringLiteral("builds");
        e.summary = QStringLiteral("Build %1 started (job %2)").arg(profile, r.jobId);
        e.details = common;
        if (!r.spec.isEmpty())
            e.details.insert(QStringLiteral("spec"), r.spec);
        out.append(e);
    }
    if (r.result != QLatin1String("running") && inRange(r.ended)) {
        Event e;
        e.time = r.ended;
        e.host = r.host;
        e.kind = kind::BuildFinished;
        e.actor = r.actor;
        e.source = QStringLiteral("builds");
        e.details = common;
        e.details.insert(QStringLiteral("result"), r.result);
        e.details.insert(QStringLiteral("exit_status"), r.exitStatus >= 0 ? QJsonValue(r.exitStatus) : QJsonValue());
        e.details.insert(QStringLiteral("duration_s"),
            r.durationMs() >= 0 ? QJsonValue(double(r.durationMs()) / 1000.0) : QJsonValue());
        e.details.insert(QStringLiteral("oom"), r.oom);
        e.details.insert(QStringLiteral("first_error"), r.firstError);
        e.details.insert(QStringLiteral("errors"), r.errors);
        e.details.insert(QStringLiteral("steps_done"), r.stepsDone);
        e.details.insert(QStringLiteral("steps_total"), r.stepsTotal);
        e.details.insert(QStringLiteral("peak_mem_kb"), r.peakMemKb);
        QString s = QStringLiteral("Build %1 %2").arg(profile, r.result);
        if (r.durationMs() >= 0)
            s += QStringLiteral(" after %1").arg(durationText(r.durationMs()));
        if (r.result == QLatin1String("failed") && r.exitStatus >= 0)
            s += QStringLiteral(" (exit status %1)").arg(r.exitStatus);
        if (r.oom)
            s += QStringLiteral("; out of memory");
        if (!r.firstError.isEmpty())
            s += QStringLiteral(": ") + r.firstError.left(160);
        e.summary = s;
        out.append(e);
    }
}

Event benchEvent(const BenchRun& run)
{
    Event e;
    e.time = run.started.toUTC();
    e.host = run.host;
    e.kind = kind::BenchRun;
    e.source = QStringLiteral("bench_runs");
    QJsonArray levels;
    double best = std::numeric_limits<double>::quiet_NaN();
    for (const LevelResult& l : run.levels) {
        const double tput = l.stats.outputThroughput;
        levels.append(QJsonObject { { QStringLiteral("concurrency"), l.concurrency },
            { QStringLiteral("output_tok_s"), std::isfinite(tput) ? QJsonValue(tput) : QJsonValue() },
            { QStringLiteral("completed"), l.stats.completed }, { QStringLiteral("failed"), l.stats.failed } });
        if (std::isfinite(tput) && !(tput <= best))
            best = tput;
    }
    e.details = { { QStringLiteral("run"), run.id }, { QStringLiteral("status"), run.status },
        { QStringLiteral("error"), run.error }, { QStringLiteral("model"), run.facts.model },
        { QStringLiteral("ended"), run.ended.isValid() ? run.ended.toUTC().toString(Qt::ISODateWithMs) : QString() },
        { QStringLiteral("levels"), levels } };
    e.summary = QStringLiteral("Serving benchmark #%1 %2: %3%4 level%5")
                    .arg(run.id)
                    .arg(run.status, run.facts.model.isEmpty() ? QString() : run.facts.model + QStringLiteral(", "))
                    .arg(run.levels.size())
                    .arg(run.levels.size() == 1 ? QString() : QStringLiteral("s"));
    if (std::isfinite(best))
        e.summary += QStringLiteral(", up to %1 output tok/s").arg(best, 0, 'f', 0);
    return e;
}

} // namespace

Result<QList<Event>> events(const Query& query)
{
    using R = Result<QList<Event>>;
    if (query.host.isEmpty())
        return R::failure(QStringLiteral("which host's timeline?"));
    const qint64 from = query.since.isValid() ? query.since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    const qint64 to = query.until.isValid() ? query.until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    auto wanted = [&](const QString& k) { return query.kinds.isEmpty() || query.kinds.contains(k); };

    auto stored = recorded(query);
    if (!stored)
        return stored;
    QList<Event> out = std::move(stored.value());
    if (wanted(kind::BuildStarted) || wanted(kind::BuildFinished)) {
        const auto builds = buildhistory::inRange(query.host, query.since, query.until);
        if (!builds)
            return R::failure(builds.error());
        QList<Event> buildEvents;
        for (const BuildRecord& r : builds.value())
            appendBuildEvents(r, query.since, query.until, buildEvents);
        for (const Event& e : std::as_const(buildEvents))
            if (wanted(e.kind))
                out.append(e);
    }
    if (wanted(kind::BenchRun)) {
        const auto runs = benchstore::list(query.host, query.limit);
        if (!runs)
            return R::failure(runs.error());
        for (const BenchRun& run : runs.value()) {
            const qint64 t = run.started.toMSecsSinceEpoch();
            if (t >= from && t <= to)
                out.append(benchEvent(run));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Event& a, const Event& b) { return a.time < b.time; });
    if (out.size() > query.limit)
        out.resize(query.limit);
    return out;
}

namespace {

// The tables a host's timeline is read from: its events, its builds and its benchmark runs.
Result<void> timelineSources()
{
    if (const Result<void> s = ensureSchema(); !s)
        return s;
    if (const Result<void> s = buildhistory::ensureSchema(); !s)
        return s;
    return benchstore::ensureSchema();
}

} // namespace

Result<QDateTime> firstTime(const QString& host)
{
    const auto first = store::readRow(&timelineSources,
        QStringLiteral("SELECT MIN(t) FROM (SELECT MIN(t) AS t FROM timeline_events WHERE host = ? UNION ALL "
                       "SELECT MIN(started) FROM builds WHERE host = ? UNION ALL SELECT MIN(started) FROM "
                       "bench_runs WHERE host = ?)"),
        { host, host, host }, QStringLiteral("cannot read the timeline"), [](const QSqlQuery& q) {
            return q.value(0).isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(q.value(0).toLongLong(), Qt::UTC);
        });
    if (!first)
        return first.withoutValue();
    return first.value().value_or(QDateTime());
}

Result<QStringList> hosts()
{
    return store::readRows(&timelineSources,
        QStringLiteral("SELECT host FROM timeline_events UNION SELECT host FROM builds UNION SELECT host FROM "
                       "bench_runs ORDER BY 1"),
        {}, QStringLiteral("cannot list the hosts"), [](const QSqlQuery& q) { return q.value(0).toString(); });
}

} // namespace kf::timeline
