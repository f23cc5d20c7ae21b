// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchcontext.h"

#include "core/events/eventlog.h"
#include "core/log/logging.h"
#include "core/remotebuild/buildhistory.h"
#include "core/transport/transport.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace kf {

namespace {

constexpr int kMaxServerArgs = 400;
constexpr qsizetype kMaxArgText = 2000;

QString utc(const QString& iso)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) : iso;
}

QString argText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    if (v.isNull())
        return QStringLiteral("null");
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue& e : v.toArray())
            parts << argText(e);
        return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
    }
    return QStringLiteral("{…}");
}

} // namespace

bool BenchContext::isEmpty() const
{
    return kernelforgeVersion.isEmpty() && driver.isEmpty() && serverArgs.isEmpty() && build.isEmpty()
        && verification.isEmpty();
}

QJsonObject toJson(const BenchContext& c)
{
    return { { QStringLiteral("kernelforge_version"), c.kernelforgeVersion }, { QStringLiteral("driver"), c.driver },
        { QStringLiteral("server_args"), c.serverArgs }, { QStringLiteral("build"), c.build },
        { QStringLiteral("verification"), c.verification },
        { QStringLiteral("other_running_before"), c.otherRunning >= 0 ? QJsonValue(c.otherRunning) : QJsonValue() },
        { QStringLiteral("other_queued_before"), c.otherQueued >= 0 ? QJsonValue(c.otherQueued) : QJsonValue() } };
}

BenchContext benchContextFromJson(const QJsonObject& o)
{
    BenchContext c;
    c.kernelforgeVersion = o.value(QLatin1String("kernelforge_version")).toString();
    c.driver = o.value(QLatin1String("driver")).toString();
    c.serverArgs = o.value(QLatin1String("server_args")).toObject();
    c.build = o.value(QLatin1String("build")).toObject();
    c.verification = o.value(QLatin1String("verification")).toObject();
    c.otherRunning = o.value(QLatin1String("other_running_before")).toDouble(-1);
    c.otherQueued = o.value(QLatin1String("other_queued_before")).toDouble(-1);
    return c;
}

QJsonObject keptServerArgs(const QJsonObject& info)
{
    static const QRegularExpression secret(
        QStringLiteral("key|token|secret|passw|auth|credential|cookie"), QRegularExpression::CaseInsensitiveOption);
    QJsonObject kept;
    for (auto it = info.constBegin(); it != info.constEnd() && kept.size() < kMaxServerArgs; ++it) {
        if (secret.match(it.key()).hasMatch() || it.key().size() > 200)
            continue;
        const QJsonValue& v = it.value();
        if (v.isString())
            kept.insert(it.key(), v.toString().left(kMaxArgText));
        else if (v.isArray() && argText(v).size() <= kMaxArgText)
            kept.insert(it.key(), v);
        else if (v.isBool() || v.isDouble() || v.isNull())
            kept.insert(it.key(), v);
    }
    return kept;
}

void readBuildContext(BenchContext& c, const QString& host, qint64 beforeMs)
{
    const auto builds = buildhistory::list(host, 50);
    if (!builds)
        log::monitor()->warn("serving benchmark context: {}", builds.error().toStdString());
    for (const BuildRecord& b : builds ? builds.value() : QList<BuildRecord>()) {
        if (b.started.toMSecsSinceEpoch() > beforeMs)
            continue;
        c.build = { { QStringLiteral("id"), b.id }, { QStringLiteral("job_id"), b.jobId },
            { QStringLiteral("profile"), b.profile }, { QStringLiteral("result"), b.result },
            { QStringLiteral("started"), b.started.toUTC().toString(Qt::ISODateWithMs) },
            { QStringLiteral("ended"), b.ended.isValid() ? b.ended.toUTC().toString(Qt::ISODateWithMs) : QString() },
            { QStringLiteral("spec"), b.spec } };
        break;
    }
    std::optional<timeline::Event> verified;
    if (const auto latest = timeline::latest(host, timeline::kind::VerifyResult); !latest) {
        log::monitor()->warn("serving benchmark context: {}", latest.error().toStdString());
    } else if (latest.value() && latest.value()->time.toMSecsSinceEpoch() <= beforeMs) {
        verified = latest.value();
    } else if (latest.value()) {
        timeline::Query q;
        q.host = host;
        q.until = QDateTime::fromMSecsSinceEpoch(beforeMs, Qt::UTC);
        q.kinds = { timeline::kind::VerifyResult };
        if (const auto older = timeline::recorded(q); older && !older->isEmpty())
            verified = older->last();
    }
    if (verified)
        c.verification = { { QStringLiteral("time"), verified->time.toUTC().toString(Qt::ISODateWithMs) },
            { QStringLiteral("details"), verified->details } };
}

QString queryDriverVersion(Transport& transport)
{
    CommandSpec spec;
    spec.command
        = QStringLiteral("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1");
    spec.maxOutputBytes = 4096;
    const ExecResult r = transport.exec(spec, 20000);
    if (!r.ok())
        return {};
    const QString v = QString::fromUtf8(r.stdOut).trimmed();
    static const QRegularExpression version(QStringLiteral("^[0-9][0-9.]{0,31}$"));
    return version.match(v).hasMatch() ? v : QString();
}

QString libraryArches(const BenchContext& c)
{
    QStringList parts;
    const QJsonArray libs
        = c.verification.value(QLatin1String("details")).toObject().value(QLatin1String("libraries")).toArray();
    for (const QJsonValue& v : libs) {
        const QJsonObject lib = v.toObject();
        QStringList targets;
        for (const QJsonValue& t : lib.value(QLatin1String("targets")).toArray())
            targets << t.toString();
        parts << QStringLiteral("%1: %2").arg(lib.value(QLatin1String("name")).toString(), targets.join(u' '));
    }
    return parts.join(QStringLiteral("; "));
}

QStringList contextLines(const BenchContext& c)
{
    QStringList lines;
    if (!c.kernelforgeVersion.isEmpty())
        lines << QStringLiteral("KernelForge %1").arg(c.kernelforgeVersion);
    lines << (c.driver.isEmpty() ? QStringLiteral("driver unknown") : QStringLiteral("driver %1").arg(c.driver));
    if (c.build.isEmpty()) {
        lines << QStringLiteral("no build of this host in the history");
    } else {
        lines << QStringLiteral("build #%1 %2 (%3, started %4)")
                     .arg(c.build.value(QLatin1String("id")).toInteger())
                     .arg(c.build.value(QLatin1String("profile")).toString(),
                         c.build.value(QLatin1String("result")).toString(),
                         utc(c.build.value(QLatin1String("started")).toString()));
    }
    if (c.verification.isEmpty()) {
        lines << QStringLiteral("no verification of this host in the history");
    } else {
        const QJsonObject d = c.verification.value(QLatin1String("details")).toObject();
        const QString arches = libraryArches(c);
        lines << QStringLiteral("verified %1: %2%3")
                     .arg(utc(c.verification.value(QLatin1String("time")).toString()),
                         d.value(QLatin1String("ok")).toBool() ? QStringLiteral("PASS") : QStringLiteral("FAIL"),
                         arches.isEmpty() ? QString() : QStringLiteral("; ") + arches);
    }
    if (!c.serverArgs.isEmpty()) {
        QStringList shown;
        for (const char* key : { "tp_size", "dp_size", "attention_backend", "kv_cache_dtype", "quantization",
                 "max_running_requests", "chunked_prefill_size", "mem_fraction_static" })
            if (c.serverArgs.contains(QLatin1String(key)))
                shown << QStringLiteral("%1 %2").arg(
                    QLatin1String(key), argText(c.serverArgs.value(QLatin1String(key))));
        lines << QStringLiteral("server arguments: %1 kept%2")
                     .arg(c.serverArgs.size())
                     .arg(shown.isEmpty() ? QString() : QStringLiteral(" (") + shown.join(QStringLiteral(", ")) + u')');
    }
    if (c.otherRunning > 0 || c.otherQueued > 0)
        lines << QStringLiteral("OTHER LOAD before the run: %1 requests running, %2 waiting on the server")
                     .arg(c.otherRunning, 0, 'f', 0)
                     .arg(std::max(0.0, c.otherQueued), 0, 'f', 0);
    else if (c.otherRunning == 0)
        lines << QStringLiteral("no other load before the run (0 requests running on the server)");
    return lines;
}

QStringList contextDifferences(const BenchContext& a, const BenchContext& b)
{
    QStringList out;
    auto differ = [&](const QString& what, const QString& va, const QString& vb) {
        if (va != vb)
            out << QStringLiteral("%1 %2 vs %3")
                       .arg(what, va.isEmpty() ? QStringLiteral("?") : va, vb.isEmpty() ? QStringLiteral("?") : vb);
    };
    differ(QStringLiteral("KernelForge"), a.kernelforgeVersion, b.kernelforgeVersion);
    differ(QStringLiteral("driver"), a.driver, b.driver);
    auto buildId = [](const BenchContext& c) {
        return c.build.isEmpty() ? QString()
                                 : QStringLiteral("#%1").arg(c.build.value(QLatin1String("id")).toInteger());
    };
    differ(QStringLiteral("build"), buildId(a), buildId(b));
    differ(QStringLiteral("library arches"), libraryArches(a), libraryArches(b));
    QStringList keys = a.serverArgs.keys() + b.serverArgs.keys();
    keys.removeDuplicates();
    keys.sort();
    int shown = 0;
    for (const QString& k : std::as_const(keys)) {
        // Ports and paths of one server differ between hosts without changing what it computes.
        if (k == QLatin1String("port") || k == QLatin1String("host"))
            continue;
        const QString va = a.serverArgs.contains(k) ? argText(a.serverArgs.value(k)) : QString();
        const QString vb = b.serverArgs.contains(k) ? argText(b.serverArgs.value(k)) : QString();
        if (va == vb)
            continue;
        if (++shown > 8) {
            out << QStringLiteral("more server arguments differ");
            break;
        }
        differ(QStringLiteral("server argument %1").arg(k), va, vb);
    }
    return out;
}

} // namespace kf
