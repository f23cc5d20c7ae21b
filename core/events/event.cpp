// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/events/event.h"

#include <QHash>

namespace kf::timeline {

QStringList knownKinds()
{
    return { kind::PatchPlanned, kind::PatchApplied, kind::PatchRolledBack, kind::BuildStarted, kind::BuildFinished,
        kind::BuildPromoted, kind::VerifyResult, kind::ServerLaunched, kind::ServerHealthy, kind::ServerUnhealthy,
        kind::ServerStopped, kind::BenchRun, kind::FactsChanged, kind::ConnectionLost, kind::ConnectionRestored,
        kind::RecipeStep };
}

QString category(const QString& kind)
{
    const qsizetype dot = kind.indexOf(QLatin1Char('.'));
    return dot < 0 ? kind : kind.left(dot);
}

QStringList categories()
{
    QStringList out;
    for (const QString& k : knownKinds())
        if (!out.contains(category(k)))
            out.append(category(k));
    return out;
}

QString categoryColor(const QString& c)
{
    static const QHash<QString, QString> colors { { QStringLiteral("patch"), QStringLiteral("#1f77b4") },
        { QStringLiteral("build"), QStringLiteral("#ff7f0e") }, { QStringLiteral("verify"), QStringLiteral("#9467bd") },
        { QStringLiteral("server"), QStringLiteral("#2ca02c") }, { QStringLiteral("bench"), QStringLiteral("#17becf") },
        { QStringLiteral("facts"), QStringLiteral("#8c564b") },
        { QStringLiteral("connection"), QStringLiteral("#d62728") },
        { QStringLiteral("recipe"), QStringLiteral("#e377c2") } };
    return colors.value(c, QStringLiteral("#7f7f7f"));
}

bool isFailure(const Event& e)
{
    const QJsonObject& d = e.details;
    if (e.kind == kind::BuildFinished)
        return d.value(QStringLiteral("result")).toString() != QLatin1String("succeeded");
    if (e.kind == kind::ServerUnhealthy || e.kind == kind::ConnectionLost)
        return true;
    if (e.kind == kind::VerifyResult)
        return !d.value(QStringLiteral("ok")).toBool();
    if (e.kind == kind::PatchApplied)
        return !d.value(QStringLiteral("ok")).toBool(true);
    if (e.kind == kind::ServerStopped)
        return !d.value(QStringLiteral("cancelled")).toBool() && d.value(QStringLiteral("exit_status")).toInt() != 0;
    if (e.kind == kind::RecipeStep || e.kind == kind::BuildPromoted)
        return d.value(QStringLiteral("status")).toString() == QLatin1String("failed");
    return false;
}

QString paneFor(const QString& kind, const QJsonObject& details)
{
    const QString c = category(kind);
    if (c == QLatin1String("patch"))
        return QStringLiteral("patches");
    if (c == QLatin1String("build") || c == QLatin1String("verify"))
        return QStringLiteral("build");
    if (c == QLatin1String("server") || c == QLatin1String("bench"))
        return QStringLiteral("server");
    if (c == QLatin1String("recipe") && details.contains(QStringLiteral("pane")))
        return details.value(QStringLiteral("pane")).toString();
    return QStringLiteral("overview");
}

QJsonObject Event::toJson() const
{
    return { { QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs) }, { QStringLiteral("host"), host },
        { QStringLiteral("kind"), kind }, { QStringLiteral("actor"), actor }, { QStringLiteral("summary"), summary },
        { QStringLiteral("details"), details }, { QStringLiteral("source"), source } };
}

Result<Event> Event::fromJson(const QJsonObject& o)
{
    Event e;
    e.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    if (!e.time.isValid())
        return Result<Event>::failure(
            QStringLiteral("event without a valid time: %1").arg(o.value(QStringLiteral("time")).toString()));
    e.time = e.time.toUTC();
    e.kind = o.value(QStringLiteral("kind")).toString();
    if (e.kind.isEmpty())
        return Result<Event>::failure(QStringLiteral("event without a kind"));
    e.host = o.value(QStringLiteral("host")).toString();
    e.actor = o.value(QStringLiteral("actor")).toString();
    e.summary = o.value(QStringLiteral("summary")).toString();
    e.details = o.value(QStringLiteral("details")).toObject();
    e.source = o.value(QStringLiteral("source")).toString(QStringLiteral("events"));
    return e;
}

} // namespace kf::timeline
