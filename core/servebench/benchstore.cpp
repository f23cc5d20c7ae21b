// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchstore.h"

#include "core/store/database.h"

#include <QBuffer>
#include <QDataStream>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cmath>

namespace kf::benchstore {
namespace {

constexpr quint32 kSamplesMagicV1 = 0x4b465331; // "KFS1"
constexpr quint32 kSamplesMagic = 0x4b465332;   // "KFS2": with the scheduled time
constexpr quint32 kMaxSamples = 10'000'000;
constexpr quint32 kMaxItl = 100'000'000;

QVariant real(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(QMetaType::fromType<double>());
}

double fromReal(const QVariant& v)
{
    return v.isNull() ? noValue() : v.toDouble();
}

QString json(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject object(const QVariant& v)
{
    return QJsonDocument::fromJson(v.toString().toUtf8()).object();
}

Result<void> sqlError(const QSqlQuery& q, const char* what)
{
    return Result<void>::failure(
        QStringLiteral("history database: %1: %2").arg(QLatin1String(what), q.lastError().text()));
}

} // namespace

Result<void> ensureSchema()
{
    return store::migrate(QStringLiteral("servebench"),
        { {
              QStringLiteral("CREATE TABLE bench_runs(id INTEGER PRIMARY KEY, host TEXT NOT NULL, started INTEGER NOT "
                             "NULL, ended INTEGER, status TEXT NOT NULL, error TEXT, api TEXT, input_len INTEGER, "
                             "output_len INTEGER, model TEXT, params TEXT NOT NULL, facts TEXT NOT NULL, prompt_words "
                             "INTEGER, prompt_calibrated INTEGER, gpu_note TEXT)"),
              QStringLiteral("CREATE INDEX bench_runs_host ON bench_runs(host, started)"),
              QStringLiteral("CREATE TABLE bench_levels(run_id INTEGER NOT NULL REFERENCES bench_runs(id) ON DELETE "
                             "CASCADE, idx INTEGER NOT NULL, concurrency INTEGER NOT NULL, started INTEGER, ended "
                             "INTEGER, cancelled INTEGER, not_sent INTEGER, stats TEXT NOT NULL, samples BLOB, "
                             "PRIMARY KEY(run_id, idx))"),
              QStringLiteral("CREATE TABLE bench_gpu_samples(run_id INTEGER NOT NULL REFERENCES bench_runs(id) ON "
                             "DELETE CASCADE, t INTEGER NOT NULL, gpu INTEGER NOT NULL, util REAL, power REAL, "
                             "mem_used REAL)"),
              QStringLiteral("CREATE INDEX bench_gpu_samples_run ON bench_gpu_samples(run_id)"),
              QStringLiteral("CREATE TABLE bench_metrics(run_id INTEGER NOT NULL REFERENCES bench_runs(id) ON DELETE "
                             "CASCADE, t INTEGER NOT NULL, running REAL, queued REAL, gen_throughput REAL, kv_usage "
                             "REAL, cache_hit_rate REAL, prompt_tokens_total REAL, generation_tokens_total REAL)"),
              QStringLiteral("CREATE INDEX bench_metrics_run ON bench_metrics(run_id)"),
          },
            {
                QStringLiteral("ALTER TABLE bench_runs ADD COLUMN context TEXT"),
                QStringLiteral("ALTER TABLE bench_runs ADD COLUMN note TEXT"),
                QStringLiteral("ALTER TABLE bench_levels ADD COLUMN request_rate REAL"),
                QStringLiteral("ALTER TABLE bench_levels ADD COLUMN before_poll TEXT"),
                QStringLiteral("ALTER TABLE bench_levels ADD COLUMN after_poll TEXT"),
                QStringLiteral("ALTER TABLE bench_levels ADD COLUMN analysis TEXT"),
                QStringLiteral("ALTER TABLE bench_gpu_samples ADD COLUMN sm_clock REAL"),
                QStringLiteral("ALTER TABLE bench_gpu_samples ADD COLUMN mem_clock REAL"),
                QStringLiteral("ALTER TABLE bench_gpu_samples ADD COLUMN reasons INTEGER"),
                QStringLiteral("ALTER TABLE bench_metrics ADD COLUMN cached_tokens_total REAL"),
                QStringLiteral("ALTER TABLE bench_gpu_samples ADD COLUMN sm_active REAL"),
                QStringLiteral("ALTER TABLE bench_gpu_samples ADD COLUMN tensor_active REAL"),
                QStringLiteral("ALTER TABLE bench_gpu_samples ADD COLUMN dram_active REAL"),
                QStringLiteral("ALTER TABLE bench_runs ADD COLUMN gpm_note TEXT"),
            } });
}

QByteArray encodeSamples(const QList<RequestSample>& samples)
{
    QByteArray raw;
    QDataStream s(&raw, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_6_4);
    s << kSamplesMagic << quint32(samples.size());
    for (const RequestSample& r : samples) {
        s << r.ok << r.error << r.start << r.scheduled << r.ttft << r.latency << qint32(r.promptTokens)
          << r.promptTokensReported << qint32(r.outputTokens) << r.outputTokensReported << qint32(r.textEvents)
          << quint32(r.itl.size());
        for (double v : r.itl)
            s << float(v);
    }
    return qCompress(raw, 6);
}

Result<QList<RequestSample>> decodeSamples(const QByteArray& blob)
{
    using R = Result<QList<RequestSample>>;
    if (blob.isEmpty())
        return QList<RequestSample> {};
    const QByteArray raw = qUncompress(blob);
    if (raw.isEmpty())
        return R::failure(QStringLiteral("stored request samples are damaged (cannot uncompress)"));
    QDataStream s(raw);
    s.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    quint32 count = 0;
    s >> magic >> count;
    const bool v1 = magic == kSamplesMagicV1;
    if ((magic != kSamplesMagic && !v1) || count > kMaxSamples)
        return R::failure(QStringLiteral("stored request samples are damaged (bad header)"));
    QList<RequestSample> out;
    out.reserve(qsizetype(qMin<quint32>(count, 100000)));
    for (quint32 i = 0; i < count; ++i) {
        RequestSample r;
        qint32 prompt = 0;
        qint32 output = 0;
        qint32 events = 0;
        quint32 itl = 0;
        s >> r.ok >> r.error >> r.start;
        if (v1)
            r.scheduled = r.start;
        else
            s >> r.scheduled;
        s >> r.ttft >> r.latency >> prompt >> r.promptTokensReported >> output >> r.outputTokensReported >> events
            >> itl;
        if (s.status() != QDataStream::Ok || itl > kMaxItl || qint64(itl) * 4 > raw.size())
            return R::failure(QStringLiteral("stored request samples are damaged (request %1)").arg(i));
        r.promptTokens = prompt;
        r.outputTokens = output;
        r.textEvents = events;
        r.itl.reserve(itl);
        for (quint32 k = 0; k < itl; ++k) {
            float v = 0;
            s >> v;
            r.itl.append(double(v));
        }
        if (s.status() != QDataStream::Ok)
            return R::failure(QStringLiteral("stored request samples are damaged (request %1)").arg(i));
        out.append(std::move(r));
    }
    return out;
}

Result<qint64> save(const BenchRun& run)
{
    using R = Result<qint64>;
    if (const Result<void> s = ensureSchema(); !s)
        return R(s);
    auto db = store::database();
    if (!db)
        return R(db.withoutValue());
    QSqlDatabase d = db.value();
    d.transaction();
    auto fail = [&](const QSqlQuery& q, const char* what) {
        d.rollback();
        return R(sqlError(q, what));
    };
    QSqlQuery q(d);
    q.prepare(
        QStringLiteral("INSERT INTO bench_runs(host, started, ended, status, error, api, input_len, output_len, "
                       "model, params, facts, prompt_words, prompt_calibrated, gpu_note, context, note, gpm_note) "
                       "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    q.addBindValue(run.host);
    q.addBindValue(run.started.toMSecsSinceEpoch());
    q.addBindValue(run.ended.isValid() ? QVariant(run.ended.toMSecsSinceEpoch()) : QVariant());
    q.addBindValue(run.status);
    q.addBindValue(run.error);
    q.addBindValue(serveApiName(run.params.api));
    q.addBindValue(run.params.inputTokens);
    q.addBindValue(run.params.outputTokens);
    q.addBindValue(run.facts.model);
    q.addBindValue(json(toJson(run.params)));
    q.addBindValue(json(toJson(run.facts)));
    q.addBindValue(run.promptWords);
    q.addBindValue(run.promptCalibrated ? 1 : 0);
    q.addBindValue(run.gpuNote);
    q.addBindValue(json(toJson(run.context)));
    q.addBindValue(run.note);
    q.addBindValue(run.gpmNote);
    if (!q.exec())
        return fail(q, "saving a benchmark run");
    const qint64 id = q.lastInsertId().toLongLong();
    for (qsizetype i = 0; i < run.levels.size(); ++i) {
        const LevelResult& l = run.levels.at(i);
        QSqlQuery lq(d);
        lq.prepare(QStringLiteral("INSERT INTO bench_levels(run_id, idx, concurrency, started, ended, cancelled, "
                                  "not_sent, stats, samples, request_rate, before_poll, after_poll, analysis) "
                                  "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)"));
        lq.addBindValue(id);
        lq.addBindValue(int(i));
        lq.addBindValue(l.concurrency);
        lq.addBindValue(l.startedMs);
        lq.addBindValue(l.endedMs);
        lq.addBindValue(l.cancelled ? 1 : 0);
        lq.addBindValue(l.notSent);
        lq.addBindValue(json(toJson(l.stats)));
        lq.addBindValue(encodeSamples(l.samples));
        lq.addBindValue(l.requestRate);
        lq.addBindValue(json(toJson(l.before)));
        lq.addBindValue(json(toJson(l.after)));
        lq.addBindValue(json(toJson(l.analysis)));
        if (!lq.exec())
            return fail(lq, "saving a benchmark level");
    }
    QSqlQuery gq(d);
    gq.prepare(
        QStringLiteral("INSERT INTO bench_gpu_samples(run_id, t, gpu, util, power, mem_used, sm_clock, mem_clock, "
                       "reasons, sm_active, tensor_active, dram_active) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"));
    for (const GpuPoint& g : run.gpu) {
        gq.addBindValue(id);
        gq.addBindValue(g.timeMs);
        gq.addBindValue(g.gpu);
        gq.addBindValue(real(g.utilPercent));
        gq.addBindValue(real(g.powerW));
        gq.addBindValue(real(g.memUsedMiB));
        gq.addBindValue(real(g.smClockMhz));
        gq.addBindValue(real(g.memClockMhz));
        gq.addBindValue(g.hasReasons ? QVariant(qint64(g.reasons)) : QVariant(QMetaType::fromType<qint64>()));
        gq.addBindValue(real(g.smActivePercent));
        gq.addBindValue(real(g.tensorActivePercent));
        gq.addBindValue(real(g.dramActivePercent));
        if (!gq.exec())
            return fail(gq, "saving GPU samples");
    }
    QSqlQuery mq(d);
    mq.prepare(QStringLiteral("INSERT INTO bench_metrics(run_id, t, running, queued, gen_throughput, kv_usage, "
                              "cache_hit_rate, prompt_tokens_total, generation_tokens_total, cached_tokens_total) "
                              "VALUES(?,?,?,?,?,?,?,?,?,?)"));
    for (const MetricsPoint& m : run.metrics) {
        mq.addBindValue(id);
        mq.addBindValue(m.timeMs);
        mq.addBindValue(real(m.running));
        mq.addBindValue(real(m.queued));
        mq.addBindValue(real(m.genThroughput));
        mq.addBindValue(real(m.kvUsage));
        mq.addBindValue(real(m.cacheHitRate));
        mq.addBindValue(real(m.promptTokensTotal));
        mq.addBindValue(real(m.generationTokensTotal));
        mq.addBindValue(real(m.cachedTokensTotal));
        if (!mq.exec())
            return fail(mq, "saving /metrics snapshots");
    }
    if (!d.commit())
        return R::failure(QStringLiteral("history database: saving a benchmark run: %1").arg(d.lastError().text()));
    return id;
}

namespace {

const QString kRunColumns = QStringLiteral(
    "id, host, started, ended, status, error, params, facts, prompt_words, prompt_calibrated, gpu_note, context, note, "
    "gpm_note");

BenchRun runFromQuery(const QSqlQuery& q)
{
    BenchRun r;
    r.id = q.value(0).toLongLong();
    r.host = q.value(1).toString();
    r.started = QDateTime::fromMSecsSinceEpoch(q.value(2).toLongLong(), Qt::UTC);
    if (!q.value(3).isNull())
        r.ended = QDateTime::fromMSecsSinceEpoch(q.value(3).toLongLong(), Qt::UTC);
    r.status = q.value(4).toString();
    r.error = q.value(5).toString();
    r.params = benchParamsFromJson(object(q.value(6)));
    r.facts = serverIdentityFromJson(object(q.value(7)));
    r.promptWords = q.value(8).toInt();
    r.promptCalibrated = q.value(9).toInt() != 0;
    r.gpuNote = q.value(10).toString();
    r.context = benchContextFromJson(object(q.value(11)));
    r.note = q.value(12).toString();
    r.gpmNote = q.value(13).toString();
    return r;
}

Result<void> loadLevels(BenchRun& run, bool withSamples)
{
    auto q = store::exec(&ensureSchema,
        QStringLiteral("SELECT concurrency, started, ended, cancelled, not_sent, stats, request_rate, before_poll, "
                       "after_poll, analysis%1 FROM bench_levels WHERE run_id = ? ORDER BY idx")
            .arg(withSamples ? QStringLiteral(", samples") : QString()),
        { run.id }, QStringLiteral("reading benchmark levels"));
    if (!q)
        return q.withoutValue();
    for (QSqlQuery& l = q.value(); l.next();) {
        LevelResult level;
        level.concurrency = l.value(0).toInt();
        level.startedMs = l.value(1).toLongLong();
        level.endedMs = l.value(2).toLongLong();
        level.cancelled = l.value(3).toInt() != 0;
        level.notSent = l.value(4).toInt();
        level.stats = levelStatsFromJson(object(l.value(5)));
        level.requestRate = l.value(6).toDouble();
        level.before = metricsPointFromJson(object(l.value(7)));
        level.after = metricsPointFromJson(object(l.value(8)));
        level.analysis = levelAnalysisFromJson(object(l.value(9)));
        if (withSamples) {
            auto samples = decodeSamples(l.value(10).toByteArray());
            if (!samples)
                return Result<void>::failure(QStringLiteral("run %1: %2").arg(run.id).arg(samples.error()));
            level.samples = samples.value();
        }
        run.levels.append(level);
    }
    return {};
}

} // namespace

Result<QList<BenchRun>> list(const QString& host, int limit)
{
    QVariantList binds;
    if (!host.isEmpty())
        binds.append(host);
    binds.append(limit);
    auto runs = store::readRows(&ensureSchema,
        QStringLiteral("SELECT %1 FROM bench_runs %2 ORDER BY started DESC, id DESC LIMIT ?")
            .arg(kRunColumns, host.isEmpty() ? QString() : QStringLiteral("WHERE host = ?")),
        binds, QStringLiteral("listing benchmark runs"), runFromQuery);
    if (!runs)
        return runs;
    for (BenchRun& r : runs.value())
        if (const Result<void> l = loadLevels(r, false); !l)
            return l;
    return runs;
}

Result<BenchRun> load(qint64 id, bool withSeries)
{
    using R = Result<BenchRun>;
    const auto found
        = store::readRow(&ensureSchema, QStringLiteral("SELECT %1 FROM bench_runs WHERE id = ?").arg(kRunColumns),
            { id }, QStringLiteral("reading a benchmark run"), runFromQuery);
    if (!found)
        return found.withoutValue();
    if (!found.value())
        return R::failure(
            QStringLiteral("no benchmark run %1 in %2").arg(id).arg(store::databasePath()), ErrorKind::NotFound);
    BenchRun run = *found.value();
    if (const Result<void> l = loadLevels(run, withSeries); !l)
        return l;
    if (!withSeries)
        return run;
    const auto gpu = store::readRows(&ensureSchema,
        QStringLiteral("SELECT t, gpu, util, power, mem_used, sm_clock, mem_clock, reasons, sm_active, tensor_active, "
                       "dram_active FROM bench_gpu_samples "
                       "WHERE run_id = ? ORDER BY rowid"),
        { id }, QStringLiteral("reading GPU samples"), [](const QSqlQuery& g) {
            return GpuPoint { g.value(0).toLongLong(), g.value(1).toInt(), fromReal(g.value(2)), fromReal(g.value(3)),
                fromReal(g.value(4)), fromReal(g.value(5)), fromReal(g.value(6)), quint64(g.value(7).toLongLong()),
                !g.value(7).isNull(), fromReal(g.value(8)), fromReal(g.value(9)), fromReal(g.value(10)) };
        });
    if (!gpu)
        return gpu.withoutValue();
    run.gpu = gpu.value();
    const auto metrics = store::readRows(&ensureSchema,
        QStringLiteral("SELECT t, running, queued, gen_throughput, kv_usage, cache_hit_rate, "
                       "prompt_tokens_total, generation_tokens_total, cached_tokens_total FROM bench_metrics "
                       "WHERE run_id = ? ORDER BY rowid"),
        { id }, QStringLiteral("reading /metrics snapshots"), [](const QSqlQuery& m) {
            return MetricsPoint { m.value(0).toLongLong(), fromReal(m.value(1)), fromReal(m.value(2)),
                fromReal(m.value(3)), fromReal(m.value(4)), fromReal(m.value(5)), fromReal(m.value(6)),
                fromReal(m.value(7)), fromReal(m.value(8)) };
        });
    if (!metrics)
        return metrics.withoutValue();
    run.metrics = metrics.value();
    return run;
}

Result<void> remove(qint64 id)
{
    const auto q = store::exec(&ensureSchema, QStringLiteral("DELETE FROM bench_runs WHERE id = ?"), { id },
        QStringLiteral("deleting a benchmark run"));
    if (!q)
        return q.withoutValue();
    if (q->numRowsAffected() == 0)
        return Result<void>::failure(QStringLiteral("no benchmark run %1").arg(id), ErrorKind::NotFound);
    return {};
}

} // namespace kf::benchstore
