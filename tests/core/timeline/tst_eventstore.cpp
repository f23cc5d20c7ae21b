// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildprofile.h"
#include "core/servebench/benchstore.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/hostkey.h"
#include "core/util/secretregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::timeline;

namespace {

QDateTime at(int minutes)
{
    return QDateTime(QDate(2026, 12, 1), QTime(10, 0), Qt::UTC).addSecs(minutes * 60);
}

Event makeEvent(const QString& host, const QString& kind, int minutes, const QString& summary = QStringLiteral("s"))
{
    Event e;
    e.host = host;
    e.kind = kind;
    e.time = at(minutes);
    e.summary = summary;
    return e;
}

QStringList kinds(const QList<Event>& events)
{
    QStringList out;
    for (const Event& e : events)
        out << e.kind;
    return out;
}

} // namespace

class TestEventStore : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_db = 0;

private Q_SLOTS:
    void init() { store::setDatabasePath(m_dir.filePath(QStringLiteral("h%1.sqlite").arg(++m_db))); }

    void recordsAndQueriesByHostAndTime()
    {
        QVERIFY(record(makeEvent(QStringLiteral("a@h:22"), kind::FactsChanged, 0)));
        QVERIFY(record(makeEvent(QStringLiteral("a@h:22"), kind::ServerLaunched, 10)));
        QVERIFY(record(makeEvent(QStringLiteral("a@h:22"), kind::ServerHealthy, 12)));
        QVERIFY(record(makeEvent(QStringLiteral("b@other:22"), kind::ServerLaunched, 11)));
        QVERIFY(record(makeEvent(QStringLiteral("a@h:22"), kind::ConnectionLost, 20)));

        auto all = events({ QStringLiteral("a@h:22") });
        QVERIFY2(all, qPrintable(all.error()));
        QCOMPARE(kinds(all.value()),
            (QStringList { kind::FactsChanged, kind::ServerLaunched, kind::ServerHealthy, kind::ConnectionLost }));
        QCOMPARE(all->first().actor, defaultActor()); // an empty actor is the program's
        QVERIFY(defaultActor().contains(QStringLiteral("tst_core_eventstore")));

        Query window { QStringLiteral("a@h:22"), at(10), at(12) };
        QCOMPARE(kinds(events(window).value()), (QStringList { kind::ServerLaunched, kind::ServerHealthy }));
        Query since { QStringLiteral("a@h:22"), at(13) };
        QCOMPARE(kinds(events(since).value()), QStringList { kind::ConnectionLost });
        Query only { QStringLiteral("a@h:22") };
        only.kinds = { kind::ServerHealthy, kind::ConnectionLost };
        QCOMPARE(kinds(events(only).value()), (QStringList { kind::ServerHealthy, kind::ConnectionLost }));

        const auto last = latest(QStringLiteral("a@h:22"), kind::ServerLaunched);
        QVERIFY(last && last->has_value());
        QCOMPARE((*last)->time, at(10));
        QVERIFY(!latest(QStringLiteral("nobody@x:22"), kind::ServerLaunched)->has_value());
        QCOMPARE(hosts().value(), (QStringList { QStringLiteral("a@h:22"), QStringLiteral("b@other:22") }));
        QCOMPARE(firstTime(QStringLiteral("a@h:22")).value(), at(0));
        QVERIFY(!firstTime(QStringLiteral("nobody@x:22")).value().isValid());
        QVERIFY(!events({ QString() })); // which host?
    }

    void keyedEventsAreRecordedOnce()
    {
        Event e = makeEvent(QStringLiteral("h"), kind::ServerStopped, 1);
        e.key = QStringLiteral("server.stopped h job1");
        QVERIFY(record(e).value() > 0);
        QCOMPARE(record(e).value(), 0);
        QCOMPARE(events({ QStringLiteral("h") })->size(), 1);
    }

    void secretsNeverReachTheDatabase()
    {
        SecretRegistry::add("hf_TopSecretTokenValue");
        Event e
            = makeEvent(QStringLiteral("h"), kind::RecipeStep, 1, QStringLiteral("token hf_TopSecretTokenValue used"));
        e.details.insert(QStringLiteral("env"), QStringLiteral("HF_TOKEN=hf_TopSecretTokenValue"));
        QVERIFY(record(e));
        SecretRegistry::remove("hf_TopSecretTokenValue");
        const Event stored = events({ QStringLiteral("h") })->first();
        QVERIFY(!stored.summary.contains(QStringLiteral("TopSecret")));
        QVERIFY(!stored.details.value(QStringLiteral("env")).toString().contains(QStringLiteral("TopSecret")));
        QSqlQuery q(store::database().value());
        QVERIFY(q.exec(QStringLiteral("SELECT summary || details FROM timeline_events")));
        QVERIFY(q.next());
        QVERIFY(!q.value(0).toString().contains(QStringLiteral("TopSecret")));
    }

    // One source of truth: builds and benchmark runs are read from their own tables.
    void buildsAndBenchRunsComeFromTheirTables()
    {
        BuildProfile p;
        p.name = QStringLiteral("demo");
        p.command = QStringLiteral("make");
        p.cmakeArgs = { QStringLiteral("-DX=1") };
        p.env.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("value-never-stored"));
        BuildRecord ok;
        ok.jobId = QStringLiteral("j1");
        ok.profile = p.name;
        ok.host = QStringLiteral("h");
        ok.started = at(0);
        ok.ended = at(3);
        ok.result = QStringLiteral("succeeded");
        ok.exitStatus = 0;
        ok.spec = buildSpec(p);
        QVERIFY(buildhistory::save(ok));
        BuildRecord bad = ok;
        bad.jobId = QStringLiteral("j2");
        bad.started = at(5);
        bad.ended = at(6);
        bad.result = QStringLiteral("failed");
        bad.exitStatus = 137;
        bad.oom = true;
        bad.firstError = QStringLiteral("Killed signal terminated program cicc");
        QVERIFY(buildhistory::save(bad));
        BuildRecord running = ok;
        running.jobId = QStringLiteral("j3");
        running.started = at(8);
        running.ended = {};
        running.result = QStringLiteral("running");
        QVERIFY(buildhistory::save(running));
        BenchRun run;
        run.host = QStringLiteral("h");
        run.started = at(9);
        run.ended = at(10);
        run.status = QStringLiteral("completed");
        run.facts.model = QStringLiteral("Qwen");
        LevelResult level;
        level.concurrency = 4;
        level.stats.outputThroughput = 812.5;
        run.levels << level;
        QVERIFY(benchstore::save(run));

        const auto all = events({ QStringLiteral("h") });
        QVERIFY2(all, qPrintable(all.error()));
        QCOMPARE(kinds(all.value()),
            (QStringList { kind::BuildStarted, kind::BuildFinished, kind::BuildStarted, kind::BuildFinished,
                kind::BuildStarted, kind::BenchRun }));
        const Event& started = all->at(0);
        QCOMPARE(started.source, QStringLiteral("builds"));
        QCOMPARE(started.details.value(QStringLiteral("spec")).toObject().value(QStringLiteral("env_names")).toArray(),
            QJsonArray { QStringLiteral("HF_TOKEN") });
        QVERIFY(!QJsonDocument(started.details).toJson().contains("value-never-stored"));
        const Event& failed = all->at(3);
        QCOMPARE(failed.details.value(QStringLiteral("exit_status")).toInt(), 137);
        QCOMPARE(failed.details.value(QStringLiteral("oom")).toBool(), true);
        QCOMPARE(failed.details.value(QStringLiteral("duration_s")).toDouble(), 60.0);
        QVERIFY2(
            failed.summary.contains(QStringLiteral("out of memory")) && failed.summary.contains(QStringLiteral("cicc")),
            qPrintable(failed.summary));
        QVERIFY(isFailure(failed));
        QVERIFY(!isFailure(all->at(1)));
        QCOMPARE(all->last().source, QStringLiteral("bench_runs"));
        QVERIFY2(all->last().summary.contains(QStringLiteral("813 output tok/s")), qPrintable(all->last().summary));
        // A window that holds only the failed build's end.
        Query end { QStringLiteral("h"), at(6), at(7) };
        QCOMPARE(kinds(events(end).value()), QStringList { kind::BuildFinished });
        QCOMPARE(firstTime(QStringLiteral("h")).value(), at(0));
    }

    // Patch events name their journal rows; files and hashes are the journal's.
    void patchEventsReadFilesFromTheJournal()
    {
        AppliedFile f;
        f.host = QStringLiteral("h");
        f.root = QStringLiteral("/r");
        f.file = QStringLiteral("CMakeLists.txt");
        f.path = QStringLiteral("/r/CMakeLists.txt");
        f.setName = QStringLiteral("set");
        f.sha256Before = QStringLiteral("aaa");
        f.sha256After = QStringLiteral("bbb");
        const qint64 id = HistoryStore().recordApply(f).value();
        Event e = makeEvent(QStringLiteral("h"), kind::PatchApplied, 1);
        e.details.insert(QStringLiteral("journal_ids"), QJsonArray { id });
        QVERIFY(record(e));
        QVERIFY(HistoryStore().markRolledBack(id, at(2)));
        const QJsonArray files
            = events({ QStringLiteral("h") })->first().details.value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), 1);
        const QJsonObject file = files.first().toObject();
        QCOMPARE(file.value(QStringLiteral("sha256_before")).toString(), QStringLiteral("aaa"));
        QCOMPARE(file.value(QStringLiteral("sha256_after")).toString(), QStringLiteral("bbb"));
        QCOMPARE(file.value(QStringLiteral("rolled_back")).toBool(), true);
    }

    // A database made before the builds table had versions is upgraded in place.
    void oldBuildsTableIsMigrated()
    {
        QSqlQuery q(store::database().value());
        QVERIFY(q.exec(QStringLiteral(
            "CREATE TABLE builds (id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, profile TEXT, host TEXT NOT NULL, "
            "started "
            "INTEGER, ended INTEGER, result TEXT, exit_status INTEGER, steps_done INTEGER, steps_total INTEGER, "
            "peak_mem_kb INTEGER, errors INTEGER, UNIQUE(host, job_id))")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO builds(job_id, profile, host, started, ended, result, exit_status) "
                                      "VALUES('old', 'p', 'h', %1, %2, 'succeeded', 0)")
                           .arg(at(0).toMSecsSinceEpoch())
                           .arg(at(1).toMSecsSinceEpoch())));
        const auto rows = buildhistory::list(QStringLiteral("h"));
        QVERIFY2(rows, qPrintable(rows.error()));
        QCOMPARE(rows->size(), 1);
        QCOMPARE(rows->first().jobId, QStringLiteral("old"));
        QVERIFY(rows->first().spec.isEmpty());
        QCOMPARE(
            kinds(events({ QStringLiteral("h") }).value()), (QStringList { kind::BuildStarted, kind::BuildFinished }));
    }

    void hostKeyIsTheTransportsDescription()
    {
        HostProfile p;
        p.host = QStringLiteral("gpu1");
        p.user = QStringLiteral("alice");
        p.port = 2222;
        QCOMPARE(hostKey(p), QStringLiteral("alice@gpu1:2222"));
        p.port = 22;
        QCOMPARE(hostKey(p), QStringLiteral("alice@gpu1:22"));
        p.user.clear();
        QVERIFY(hostKey(p).endsWith(QStringLiteral("@gpu1:22")));
        QVERIFY(!hostKey(p).startsWith(QLatin1Char('@')));
        p.isLocal = true;
        QCOMPARE(hostKey(p), QStringLiteral("local"));
    }

    void eventJsonRoundTrip()
    {
        Event e = makeEvent(QStringLiteral("h"), kind::VerifyResult, 3, QStringLiteral("ok"));
        e.actor = QStringLiteral("me");
        e.details.insert(QStringLiteral("ok"), true);
        e.source = QStringLiteral("events");
        const auto back = Event::fromJson(e.toJson());
        QVERIFY(back);
        QCOMPARE(back.value(), e);
        QVERIFY(!Event::fromJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("x") } }));
        QCOMPARE(paneFor(kind::BuildFinished), QStringLiteral("build"));
        QCOMPARE(paneFor(kind::PatchRolledBack), QStringLiteral("patches"));
        QCOMPARE(paneFor(kind::RecipeStep, { { QStringLiteral("pane"), QStringLiteral("server") } }),
            QStringLiteral("server"));
        QCOMPARE(paneFor(kind::ConnectionLost), QStringLiteral("overview"));
    }
};

QTEST_GUILESS_MAIN(TestEventStore)
#include "tst_eventstore.moc"
