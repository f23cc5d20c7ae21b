// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostevents.h"
#include "core/hosts/serverfacts.h"
#include "core/patch/applier.h"
#include "core/patch/patchevents.h"
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "core/server/serverclient.h"
#include "core/server/serverevents.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::timeline;

namespace {

const QString kHost = QStringLiteral("alice@gpu1:22");

QList<Event> all()
{
    return events({ kHost }).value();
}

ServerFacts facts(const QString& nvcc)
{
    ServerFacts f;
    f.complete = true;
    f.driverVersion = QStringLiteral("580.95.05");
    f.nvcc = nvcc;
    f.cmake = QStringLiteral("3.31.6");
    f.homeDir = QStringLiteral("/home/alice");
    GpuFact g;
    g.index = 0;
    g.name = QStringLiteral("NVIDIA H200");
    g.computeCapability = QStringLiteral("9.0");
    f.gpus = { g, g };
    return f;
}

ServerStatus status(bool reachable, int http)
{
    ServerStatus s;
    s.timeMs = QDateTime::currentMSecsSinceEpoch();
    s.port = 30000;
    s.reachable = reachable;
    s.healthStatus = http;
    s.error = reachable ? QString() : QStringLiteral("connection refused");
    return s;
}

} // namespace

class TestDomainEvents : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_db = 0;

private Q_SLOTS:
    void init() { store::setDatabasePath(m_dir.filePath(QStringLiteral("p%1.sqlite").arg(++m_db))); }

    void factsAreRecordedWhenTheyChange()
    {
        recordFacts(kHost, facts(QStringLiteral("12.8.93")));
        recordFacts(kHost, facts(QStringLiteral("12.8.93"))); // the same: nothing new
        ServerFacts cut = facts(QStringLiteral("13.0.88"));
        cut.complete = false; // a cut-short run proves nothing
        recordFacts(kHost, cut);
        QCOMPARE(all().size(), 1);
        QVERIFY2(all().first().summary.startsWith(QStringLiteral("First facts")), qPrintable(all().first().summary));
        recordFacts(kHost, facts(QStringLiteral("13.0.88")));
        const QList<Event> e = all();
        QCOMPARE(e.size(), 2);
        QCOMPARE(e.last().kind, kind::FactsChanged);
        QCOMPARE(e.last().details.value(QStringLiteral("changed")).toArray(), QJsonArray { QStringLiteral("nvcc") });
        QVERIFY2(
            e.last().summary.contains(QStringLiteral("nvcc 12.8.93 \u2192 13.0.88")), qPrintable(e.last().summary));
        const QJsonObject v = e.last().details.value(QStringLiteral("versions")).toObject();
        QCOMPARE(v.value(QStringLiteral("gpu")).toString(), QStringLiteral("NVIDIA H200"));
        QCOMPARE(v.value(QStringLiteral("gpu_count")).toString(), QStringLiteral("2"));
        QCOMPARE(e.last().details.value(QStringLiteral("home")).toString(), QStringLiteral("/home/alice"));
    }

    void healthTransitionsOnly()
    {
        const ServerStatus none = status(false, 0), starting = status(true, 503), healthy = status(true, 200);
        recordServerHealth(kHost, nullptr, none);      // nothing there: nothing to say
        recordServerHealth(kHost, &none, starting);    // loading: not healthy yet
        recordServerHealth(kHost, &starting, healthy); // healthy
        recordServerHealth(kHost, &healthy, healthy);  // still
        recordServerHealth(kHost, &healthy, none);     // gone
        recordServerHealth(kHost, nullptr, healthy);   // a new client sees it healthy at once
        QStringList kinds;
        for (const Event& e : all())
            kinds << e.kind;
        QCOMPARE(kinds, (QStringList { kind::ServerHealthy, kind::ServerUnhealthy, kind::ServerHealthy }));
        QVERIFY2(all().at(1).summary.contains(QStringLiteral("connection refused")), qPrintable(all().at(1).summary));
    }

    void connectionLostAndRestored()
    {
        using S = ConnectionState;
        recordConnection(kHost, S::Disconnected, S::Connecting, {});
        recordConnection(kHost, S::Authenticating, S::Ready, {}); // a first connect is not a restore
        recordConnection(kHost, S::Ready, S::Reconnecting, QStringLiteral("connection reset"));
        recordConnection(kHost, S::Reconnecting, S::Ready, {});
        recordConnection(kHost, S::Ready, S::Disconnected, {}); // the user disconnected
        const QList<Event> e = all();
        QCOMPARE(e.size(), 2);
        QCOMPARE(e[0].kind, kind::ConnectionLost);
        QVERIFY(e[0].summary.contains(QStringLiteral("connection reset")));
        QCOMPARE(e[1].kind, kind::ConnectionRestored);
    }

    void serverStopRecordedOncePerJob()
    {
        recordServerStopped(kHost, QStringLiteral("job-1"), 0, true);
        recordServerStopped(kHost, QStringLiteral("job-1"), 0, true); // a reattach sees the end again
        recordServerStopped(kHost, QStringLiteral("job-2"), 1, false);
        const QList<Event> e = all();
        QCOMPARE(e.size(), 2);
        QVERIFY(!isFailure(e[0])); // stopped on purpose
        QVERIFY(isFailure(e[1]));  // exited with 1
    }

    void patchPlanAndApplyCarryTheReview()
    {
        const auto set = patch::parsePatchSetYaml(R"(name: demo
title: Demo
patches:
  - id: two-lines
    title: Change two separate lines
    file: f.txt
    edits:
      - replace: {find: "alpha", with: "ALPHA"}
      - replace: {find: "omega", with: "OMEGA"}
)",
            QStringLiteral("demo.yaml"));
        QVERIFY2(set, qPrintable(set.error()));
        patch::SetPlan plan = patch::planSetOnFiles(
            set.value(), { { QStringLiteral("f.txt"), QByteArray("alpha\n1\n2\n3\n4\n5\n6\n7\n8\nomega\n") } });
        plan.host = kHost;
        plan.root = QStringLiteral("/home/alice/proj");
        recordPatchPlanned(plan);
        patch::Review review(plan);
        QCOMPARE(review.hunkCount(0), 2);
        review.setHunkAccepted(0, 1, false);
        const patch::ApplyOptions options = review.applyOptions();
        QCOMPARE(options.decisions.size(), 1);
        QCOMPARE(options.decisions.first().rejectedHunks.size(), 1);
        patch::ApplyReport report;
        patch::FileApply f;
        f.file = QStringLiteral("f.txt");
        f.outcome = patch::FileApply::Written;
        f.patchIds = { QStringLiteral("two-lines") };
        report.files << f;
        recordPatchApplied(plan, options, report);
        recordPatchApplied(plan, options, patch::ApplyReport {}); // nothing done: nothing recorded
        const QList<Event> e = all();
        QCOMPARE(e.size(), 2);
        QCOMPARE(e[0].kind, kind::PatchPlanned);
        QVERIFY2(e[0].summary.contains(QStringLiteral("1 will apply")), qPrintable(e[0].summary));
        QCOMPARE(e[1].kind, kind::PatchApplied);
        const QJsonArray decisions = e[1].details.value(QStringLiteral("decisions")).toArray();
        QCOMPARE(decisions.size(), 1);
        const QJsonObject d = decisions.first().toObject();
        QCOMPARE(d.value(QStringLiteral("patch")).toString(), QStringLiteral("two-lines"));
        QCOMPARE(d.value(QStringLiteral("rejected_hunks"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("hunk"))
                     .toInt(),
            2);
    }
};

QTEST_GUILESS_MAIN(TestDomainEvents)
#include "tst_domainevents.moc"
