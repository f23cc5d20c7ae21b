// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildhistory.h"

#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QVariant>

#include <limits>

namespace kf {

QJsonObject buildSpec(const BuildProfile& p)
{
    return { { QStringLiteral("name"), p.name }, { QStringLiteral("working_dir"), p.workingDirectory },
        { QStringLiteral("command"), p.command },
        { QStringLiteral("cmake_args"), QJsonArray::fromStringList(p.cmakeArgs) },
        { QStringLiteral("max_jobs"), p.maxJobs }, { QStringLiteral("nvcc_threads"), p.nvccThreads },
        { QStringLiteral("nvcc_threads_define"), p.nvccThreadsDefine }, { QStringLiteral("build_dir"), p.buildDir },
        { QStringLiteral("kernel_tree"), p.kernelTree }, { QStringLiteral("ccache"), p.ccache },
        { QStringLiteral("memory_gate"), p.memoryGate },
        { QStringLiteral("env_names"), QJsonArray::fromStringList(p.env.keys()) } };
}

QString BuildRecord::folder() const
{
    return spec.value(QStringLiteral("working_dir")).toString();
}

QString buildResultFor(int exitStatus, bool cancelled)
{
    if (cancelled)
        return QStringLiteral("cancelled");
    return exitStatus == 0 ? QStringLiteral("succeeded") : QStringLiteral("failed");
}

namespace {

QString duration(qint64 ms)
{
    const qint64 s = ms / 1000;
    if (s == 0)
        return QStringLiteral("under 1 s"); // the job folder counts whole seconds
    if (s >= 3600)
        return QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
    if (s >= 60)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QStringLiteral("%1 s").arg(s);
}

} // namespace

QString compareBuilds(const BuildRecord& cur, const BuildRecord& prev)
{
    QStringList parts;
    parts << QStringLiteral("previous run %1 (%2)")
                 .arg(prev.result, prev.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    const QString succeeded = QStringLiteral("succeeded");
    if (cur.durationMs() >= 0 && prev.durationMs() > 0 && cur.result == succeeded && prev.result == succeeded) {
        const qint64 d = cur.durationMs() - prev.durationMs();
        parts << QStringLiteral("%1 vs %2 (%3%4%)")
                     .arg(duration(cur.durationMs()), duration(prev.durationMs()),
                         d >= 0 ? QStringLiteral("+") : QString())
                     .arg(double(d) * 100.0 / double(prev.durationMs()), 0, 'f', 0);
    } else if (cur.durationMs() >= 0 && prev.durationMs() >= 0) {
        parts << QStringLiteral("this run %1 after %2; that one took %3")
                     .arg(cur.result, duration(cur.durationMs()), duration(prev.durationMs()));
    } else if (prev.durationMs() >= 0) {
        parts << QStringLiteral("took %1").arg(duration(prev.durationMs()));
    }
    // "now" only for what this run has measured yet (not "0/0 now" before its first step).
    if (prev.stepsTotal > 0)
        parts << QStringLiteral("%1/%2 steps then").arg(prev.stepsDone).arg(prev.stepsTotal)
                + (cur.stepsTotal > 0 ? QStringLiteral(", %1/%2 now").arg(cur.stepsDone).arg(cur.stepsTotal)
                                      : QString());
    if (prev.peakMemKb > 0)
        parts << QStringLiteral("peak memory %1 GB then").arg(double(prev.peakMemKb) / 1048576.0, 0, 'f', 1)
                + (cur.peakMemKb > 0 ? QStringLiteral(", %1 GB now").arg(double(cur.peakMemKb) / 1048576.0, 0, 'f', 1)
                                     : QString());
    return parts.join(QStringLiteral("; "));
}

namespace buildhistory {
namespace {

BuildRecord fromQuery(const QSqlQuery& q)
{
    BuildRecord r;
    r.id = q.value(0).toLongLong();
    r.jobId = q.value(1).toString();
    r.profile = q.value(2).toString();
    r.host = q.value(3).toString();
    r.started = QDateTime::fromMSecsSinceEpoch(q.value(4).toLongLong(), Qt::UTC);
    if (!q.value(5).isNull())
        r.ended = QDateTime::fromMSecsSinceEpoch(q.value(5).toLongLong(), Qt::UTC);
    r.result = q.value(6).toString();
    r.exitStatus = q.value(7).isNull() ? -1 : q.value(7).toInt();
    r.stepsDone = q.value(8).toInt();
    r.stepsTotal = q.value(9).toInt();
    r.peakMemKb = q.value(10).toLongLong();
    r.errors = q.value(11).toInt();
    r.spec = QJsonDocument::fromJson(q.value(12).toString().toUtf8()).object();
    r.oom = q.value(13).toInt() != 0;
    r.firstError = q.value(14).toString();
    r.actor = q.value(15).toString();
    return r;
}

const char* kColumns = "id, job_id, profile, host, started, ended, result, exit_status, steps_done, steps_total, "
                       "peak_mem_kb, errors, spec, oom, first_error, actor";

} // namespace

Result<void> ensureSchema()
{
    // Version 1 is the table made before versions existed (IF NOT EXISTS: already there in those).
    return store::migrate(QStringLiteral("builds"),
        { { QStringLiteral(
              "CREATE TABLE IF NOT EXISTS builds (id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, profile TEXT, host "
              "TEXT "
              "NOT NULL, started INTEGER, ended INTEGER, result TEXT, exit_status INTEGER, steps_done INTEGER, "
              "steps_total INTEGER, peak_mem_kb INTEGER, errors INTEGER, UNIQUE(host, job_id))") },
            { QStringLiteral("ALTER TABLE builds ADD COLUMN spec TEXT"),
                QStringLiteral("ALTER TABLE builds ADD COLUMN oom INTEGER"),
                QStringLiteral("ALTER TABLE builds ADD COLUMN first_error TEXT"),
                QStringLiteral("ALTER TABLE builds ADD COLUMN actor TEXT"),
                QStringLiteral("CREATE INDEX IF NOT EXISTS builds_host_started ON builds(host, started)") },
            { QStringLiteral("CREATE TABLE build_unit_peaks (host TEXT NOT NULL, profile TEXT NOT NULL, unit TEXT NOT "
                             "NULL, kind TEXT, peak_kb INTEGER, job_id TEXT, updated INTEGER, PRIMARY KEY(host, "
                             "profile, unit))") } });
}

Result<qint64> save(const BuildRecord& r)
{
    // What a later save does not know (the spec, the first error, who started it) is kept.
    const auto q = store::exec(&ensureSchema,
        QStringLiteral(
            "INSERT INTO builds (job_id, profile, host, started, ended, result, exit_status, steps_done, steps_total, "
            "peak_mem_kb, errors, spec, oom, first_error, actor)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(host, job_id) DO UPDATE SET"
            " profile=COALESCE(NULLIF(excluded.profile,''), builds.profile),"
            " started=excluded.started, ended=excluded.ended, result=excluded.result, exit_status=excluded.exit_status,"
            " steps_done=excluded.steps_done, steps_total=excluded.steps_total,"
            " peak_mem_kb=MAX(COALESCE(builds.peak_mem_kb,0), excluded.peak_mem_kb), errors=excluded.errors,"
            " spec=COALESCE(excluded.spec, builds.spec), oom=MAX(COALESCE(builds.oom,0), excluded.oom),"
            " first_error=COALESCE(builds.first_error, excluded.first_error), actor=COALESCE(builds.actor, "
            "excluded.actor)"),
        { r.jobId, r.profile, r.host, r.started.isValid() ? QVariant(r.started.toMSecsSinceEpoch()) : QVariant(),
            r.ended.isValid() ? QVariant(r.ended.toMSecsSinceEpoch()) : QVariant(), r.result,
            r.exitStatus >= 0 ? QVariant(r.exitStatus) : QVariant(), r.stepsDone, r.stepsTotal, r.peakMemKb, r.errors,
            r.spec.isEmpty() ? QVariant()
                             : QVariant(QString::fromUtf8(QJsonDocument(r.spec).toJson(QJsonDocument::Compact))),
            int(r.oom), r.firstError.isEmpty() ? QVariant() : QVariant(r.firstError),
            r.actor.isEmpty() ? QVariant() : QVariant(r.actor) },
        QStringLiteral("saving a build"));
    if (!q)
        return q.withoutValue();
    const auto id = store::readRow(&ensureSchema, QStringLiteral("SELECT id FROM builds WHERE host=? AND job_id=?"),
        { r.host, r.jobId }, QStringLiteral("saving a build"),
        [](const QSqlQuery& row) { return row.value(0).toLongLong(); });
    if (!id)
        return id.withoutValue();
    if (!id.value())
        return Result<qint64>::failure(QStringLiteral("history database: saving a build: the row is not there"));
    return *id.value();
}

Result<QList<BuildRecord>> list(const QString& host, int limit)
{
    return store::readRows(&ensureSchema,
        QStringLiteral("SELECT %1 FROM builds WHERE (?='' OR host=?) ORDER BY started DESC, id DESC LIMIT ?")
            .arg(QLatin1String(kColumns)),
        { host, host, limit }, QStringLiteral("listing builds"), fromQuery);
}

Result<QList<BuildRecord>> inRange(const QString& host, const QDateTime& since, const QDateTime& until)
{
    const qint64 from = since.isValid() ? since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    const qint64 to = until.isValid() ? until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    return store::readRows(&ensureSchema,
        QStringLiteral("SELECT %1 FROM builds WHERE host=? AND ((started BETWEEN ? AND ?) OR (ended BETWEEN ? AND "
                       "?)) ORDER BY started, id")
            .arg(QLatin1String(kColumns)),
        { host, from, to, from, to }, QStringLiteral("listing builds"), fromQuery);
}

Result<std::optional<BuildRecord>> find(const QString& host, const QString& jobId)
{
    return store::readRow(&ensureSchema,
        QStringLiteral("SELECT %1 FROM builds WHERE host=? AND job_id=?").arg(QLatin1String(kColumns)), { host, jobId },
        QStringLiteral("reading a build"), fromQuery);
}

Result<std::optional<BuildRecord>> previous(const QString& host, const QString& profile, const QString& excludeJobId)
{
    return store::readRow(&ensureSchema,
        QStringLiteral("SELECT %1 FROM builds WHERE host=? AND profile=? AND job_id<>? AND ended IS NOT NULL "
                       "ORDER BY started DESC, id DESC LIMIT 1")
            .arg(QLatin1String(kColumns)),
        { host, profile, excludeJobId }, QStringLiteral("reading a build"), fromQuery);
}

Result<QList<UnitPeak>> learnedPeaks(const QString& host, const QString& profile)
{
    return store::readRows(&ensureSchema,
        QStringLiteral("SELECT unit, kind, peak_kb FROM build_unit_peaks WHERE host=? AND profile=? ORDER BY unit"),
        { host, profile }, QStringLiteral("reading learned peaks"), [](const QSqlQuery& q) {
            return UnitPeak { q.value(0).toString(), q.value(1).toString(), q.value(2).toLongLong() };
        });
}

Result<void> saveLearnedPeaks(
    const QString& host, const QString& profile, const QString& jobId, const QList<UnitPeak>& peaks)
{
    const QString what = QStringLiteral("saving learned peaks");
    // The schema is ensured once, before BEGIN: its migration takes a transaction of its own.
    if (const Result<void> s = ensureSchema(); !s)
        return s;
    auto exec = [&](const QString& sql, const QVariantList& binds) {
        return store::exec([] { return Result<void>(); }, sql, binds, what).withoutValue();
    };
    // One transaction: a profile's peaks are replaced whole or not at all. Rows go 100 to a
    // statement (700 binds, under SQLite's 999).
    auto replace = [&]() -> Result<void> {
        if (Result<void> r
            = exec(QStringLiteral("DELETE FROM build_unit_peaks WHERE host=? AND profile=?"), { host, profile });
            !r)
            return r;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (qsizetype i = 0; i < peaks.size(); i += 100) {
            QStringList rows;
            QVariantList binds;
            for (const UnitPeak& p : peaks.mid(i, 100)) {
                rows << QStringLiteral("(?,?,?,?,?,?,?)");
                binds << host << profile << p.unit << p.kind << p.peakKb << jobId << now;
            }
            if (Result<void> r = exec(QStringLiteral("INSERT INTO build_unit_peaks(host, profile, unit, kind, peak_kb, "
                                                     "job_id, updated) VALUES ")
                        + rows.join(QLatin1Char(',')),
                    binds);
                !r)
                return r;
        }
        return exec(QStringLiteral("COMMIT"), {});
    };
    if (Result<void> r = exec(QStringLiteral("BEGIN"), {}); !r)
        return r;
    const Result<void> r = replace();
    if (!r)
        (void)exec(QStringLiteral("ROLLBACK"), {});
    return r;
}

JobSpec seededJobSpec(const BuildProfile& profile, const QString& host)
{
    if (!profile.memoryGate)
        return profile.toJobSpec();
    const auto learned = learnedPeaks(host, profile.name);
    return profile.toJobSpec(learned ? *learned : QList<UnitPeak>());
}

} // namespace buildhistory
} // namespace kf
