// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/events/eventlog.h"

#include "core/log/logging.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/util/secretregistry.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QVariant>

#include <limits>
#include <pwd.h>
#include <unistd.h>

namespace kf::timeline {
namespace {

QString compact(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// Patch events name their journal rows; the files, paths and hashes are the journal's.
void expandJournal(Event& e)
{
    const QJsonArray ids = e.details.value(QStringLiteral("journal_ids")).toArray();
    if (ids.isEmpty())
        return;
    HistoryStore history;
    QJsonArray files;
    for (const QJsonValue& id : ids) {
        const auto row = history.entry(id.toInteger());
        if (!row)
            continue;
        files.append(QJsonObject { { QStringLiteral("journal_id"), row->id }, { QStringLiteral("file"), row->file },
            { QStringLiteral("path"), row->path }, { QStringLiteral("sha256_before"), row->sha256Before },
            { QStringLiteral("sha256_after"), row->sha256After }, { QStringLiteral("backup"), row->backupPath },
            { QStringLiteral("rolled_back"), row->rolledBack() } });
    }
    e.details.insert(QStringLiteral("files"), files);
}

Event fromQuery(const QSqlQuery& q)
{
    Event e;
    e.id = q.value(0).toLongLong();
    e.time = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong(), Qt::UTC);
    e.host = q.value(2).toString();
    e.kind = q.value(3).toString();
    e.actor = q.value(4).toString();
    e.summary = q.value(5).toString();
    e.details = QJsonDocument::fromJson(q.value(6).toString().toUtf8()).object();
    e.key = q.value(7).toString();
    return e;
}

const char* kColumns = "id, t, host, kind, actor, summary, details, key";

} // namespace

Result<void> ensureSchema()
{
    return store::migrate(QStringLiteral("timeline"),
        { {
              QStringLiteral(
                  "CREATE TABLE timeline_events(id INTEGER PRIMARY KEY, t INTEGER NOT NULL, host TEXT NOT NULL, "
                  "kind TEXT NOT NULL, actor TEXT NOT NULL, summary TEXT NOT NULL, details TEXT NOT NULL, "
                  "key TEXT UNIQUE)"),
              QStringLiteral("CREATE INDEX timeline_events_host ON timeline_events(host, t)"),
              QStringLiteral("CREATE TABLE timeline_minutes(host TEXT NOT NULL, t INTEGER NOT NULL, power_w REAL, "
                             "temp_c REAL, mem_pct REAL, tok_s REAL, PRIMARY KEY(host, t)) WITHOUT ROWID"),
          },
            // Each server's tok/s apart, named by port and model (timeline_minutes' tok_s held one
            // unlabelled line per host, joining servers; it is read, no longer written).
            {
                QStringLiteral("CREATE TABLE timeline_server_minutes(host TEXT NOT NULL, port INTEGER NOT NULL, "
                               "model TEXT NOT NULL, t INTEGER NOT NULL, tok_s REAL NOT NULL, "
                               "PRIMARY KEY(host, port, model, t)) WITHOUT ROWID"),
            } });
}

QString defaultActor()
{
    static const QString actor = [] {
        const passwd* pw = ::getpwuid(::geteuid());
        const QString user = pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
        const QString program = QCoreApplication::instance()
            ? QFileInfo(QCoreApplication::applicationFilePath()).fileName()
            : QStringLiteral("kernelforge");
        return QStringLiteral("%1 (%2)").arg(user, program);
    }();
    return actor;
}

Result<qint64> record(Event e)
{
    if (e.host.isEmpty() || e.kind.isEmpty())
        return Result<qint64>::failure(QStringLiteral("a timeline event needs a host and a kind"));
    if (!e.time.isValid())
        e.time = QDateTime::currentDateTimeUtc();
    if (e.actor.isEmpty())
        e.actor = defaultActor();
    const auto q = store::exec(&ensureSchema,
        QStringLiteral("INSERT OR IGNORE INTO timeline_events(t, host, kind, actor, summary, details, key) "
                       "VALUES(?, ?, ?, ?, ?, ?, ?)"),
        { e.time.toMSecsSinceEpoch(), e.host, e.kind, e.actor, redact(e.summary), redact(compact(e.details)),
            e.key.isEmpty() ? QVariant() : QVariant(e.key) },
        QStringLiteral("cannot record the event"));
    if (!q)
        return q.withoutValue();
    return q->numRowsAffected() == 1 ? q->lastInsertId().toLongLong() : qint64(0);
}

void recordOrWarn(const Event& event)
{
    if (const Result<qint64> r = record(event); !r)
        log::app()->warn("timeline: {} on {} not recorded: {}", event.kind, event.host, r.error());
}

Result<QList<Event>> recorded(const Query& query)
{
    using R = Result<QList<Event>>;
    if (query.host.isEmpty())
        return R::failure(QStringLiteral("which host's timeline?"));
    const qint64 from = query.since.isValid() ? query.since.toMSecsSinceEpoch() : std::numeric_limits<qint64>::min();
    const qint64 to = query.until.isValid() ? query.until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
    auto stored = store::readRows(&ensureSchema,
        QStringLiteral("SELECT %1 FROM timeline_events WHERE host = ? AND t BETWEEN ? AND ? ORDER BY t, id LIMIT ?")
            .arg(QLatin1String(kColumns)),
        { query.host, from, to, query.limit }, QStringLiteral("cannot read the timeline"), fromQuery);
    if (!stored)
        return stored;
    QList<Event> out;
    for (Event& e : stored.value()) {
        if (!query.kinds.isEmpty() && !query.kinds.contains(e.kind))
            continue;
        if (e.kind == kind::PatchApplied || e.kind == kind::PatchRolledBack)
            expandJournal(e);
        out.append(e);
    }
    return out;
}

Result<std::optional<Event>> latest(const QString& host, const QString& kind)
{
    auto found = store::readRow(&ensureSchema,
        QStringLiteral("SELECT %1 FROM timeline_events WHERE host = ? AND kind = ? ORDER BY t DESC, id DESC LIMIT 1")
            .arg(QLatin1String(kColumns)),
        { host, kind }, QStringLiteral("cannot read the timeline"), fromQuery);
    if (found && found.value()) {
        Event& e = *found.value();
        if (e.kind == kind::PatchApplied || e.kind == kind::PatchRolledBack)
            expandJournal(e);
    }
    return found;
}

} // namespace kf::timeline
