// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: the context kept with a run. The build and the verification come from this
// machine's history as those features write it (copied whole, so what they grow to hold comes
// along); the server's arguments are kept without their secrets; two contexts are compared.
#include "core/events/verification.h"
#include "core/remotebuild/buildhistory.h"
#include "core/servebench/benchcontext.h"
#include "core/store/database.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

class TestBenchContext : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite"))); }

    void serverArgumentsWithoutSecrets()
    {
        const QJsonObject info { { QStringLiteral("tp_size"), 8 },
            { QStringLiteral("api_key"), QStringLiteral("sk-1") },
            { QStringLiteral("admin_api_key"), QStringLiteral("x") },
            { QStringLiteral("hf_token"), QStringLiteral("y") }, { QStringLiteral("chunked_prefill_size"), 8192 },
            { QStringLiteral("json_model_override_args"), QStringLiteral("{}") },
            { QStringLiteral("nested"), QJsonObject { { QStringLiteral("a"), 1 } } },
            { QStringLiteral("long"), QString(5000, u'x') } };
        const QJsonObject kept = keptServerArgs(info);
        QCOMPARE(kept.value(QStringLiteral("tp_size")).toInt(), 8);
        QCOMPARE(kept.value(QStringLiteral("chunked_prefill_size")).toInt(), 8192);
        for (const char* secret : { "api_key", "admin_api_key", "hf_token" })
            QVERIFY2(!kept.contains(QLatin1String(secret)), secret);
        QVERIFY(!kept.contains(QStringLiteral("nested")));
        QCOMPARE(kept.value(QStringLiteral("long")).toString().size(), 2000);
    }

    void buildAndVerificationFromTheHistory()
    {
        const QString host = QStringLiteral("alice@gpu1:22");
        BuildRecord b;
        b.jobId = QStringLiteral("build-1");
        b.profile = QStringLiteral("sgl-kernel-sm120");
        b.host = host;
        b.started = QDateTime::currentDateTimeUtc().addSecs(-3600);
        b.ended = b.started.addSecs(1800);
        b.result = QStringLiteral("succeeded");
        b.spec = { { QStringLiteral("build_dir"), QStringLiteral("/src/sgl-kernel/build") },
            { QStringLiteral("provenance"), QStringLiteral("anything a later version adds") } };
        const auto id = buildhistory::save(b);
        QVERIFY2(id, qPrintable(id.error()));
        timeline::VerificationResult v;
        v.ok = true;
        v.summary = QStringLiteral("every check passed");
        v.dir = QStringLiteral("/src/sgl-kernel");
        v.libraries = { { QStringLiteral("common_ops.abi3.so"), QStringLiteral("build"),
            { QStringLiteral("compute_120a"), QStringLiteral("sm_120a"), QStringLiteral("sm_90a") } } };
        timeline::recordVerification(host, v);
        // A build that started after the run is not its build.
        BuildRecord later = b;
        later.jobId = QStringLiteral("build-2");
        later.started = QDateTime::currentDateTimeUtc().addSecs(3600);
        QVERIFY(buildhistory::save(later));

        BenchContext c;
        readBuildContext(c, host, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(c.build.value(QStringLiteral("id")).toInteger(), id.value());
        QCOMPARE(c.build.value(QStringLiteral("job_id")).toString(), QStringLiteral("build-1"));
        QCOMPARE(c.build.value(QStringLiteral("spec")).toObject().value(QStringLiteral("provenance")).toString(),
            QStringLiteral("anything a later version adds"));
        QCOMPARE(libraryArches(c), QStringLiteral("common_ops.abi3.so: compute_120a sm_120a sm_90a"));
        const QStringList lines = contextLines(c);
        QVERIFY2(lines.join(u'\n').contains(QStringLiteral("build #%1 sgl-kernel-sm120 (succeeded").arg(id.value())),
            qPrintable(lines.join(u'\n')));
        QVERIFY(lines.join(u'\n').contains(QStringLiteral(": PASS; common_ops.abi3.so: compute_120a sm_120a sm_90a")));

        // Another host has none of it.
        BenchContext none;
        readBuildContext(none, QStringLiteral("bob@gpu2:22"), QDateTime::currentMSecsSinceEpoch());
        QVERIFY(none.build.isEmpty() && none.verification.isEmpty());
        QVERIFY(contextLines(none).contains(QStringLiteral("no build of this host in the history")));

        // Round trip and differences.
        c.kernelforgeVersion = QStringLiteral("1.2.0");
        c.driver = QStringLiteral("580.95.05");
        c.serverArgs = { { QStringLiteral("tp_size"), 8 }, { QStringLiteral("port"), 30000 } };
        c.otherRunning = 0;
        const BenchContext back = benchContextFromJson(toJson(c));
        QCOMPARE(back.driver, c.driver);
        QCOMPARE(back.build, c.build);
        QCOMPARE(back.verification, c.verification);
        QCOMPARE(back.otherRunning, 0.0);
        QCOMPARE(back.otherQueued, -1.0);
        QVERIFY(contextDifferences(c, back).isEmpty());
        BenchContext other = back;
        other.driver = QStringLiteral("575.51.03");
        other.serverArgs = { { QStringLiteral("tp_size"), 4 }, { QStringLiteral("port"), 31000 } };
        other.build = {};
        QCOMPARE(contextDifferences(c, other),
            (QStringList { QStringLiteral("driver 580.95.05 vs 575.51.03"),
                QStringLiteral("build #%1 vs ?").arg(id.value()), QStringLiteral("server argument tp_size 8 vs 4") }));
        other.otherRunning = 48;
        other.otherQueued = 5;
        QVERIFY(contextLines(other).contains(
            QStringLiteral("OTHER LOAD before the run: 48 requests running, 5 waiting on the server")));
    }
};

QTEST_GUILESS_MAIN(TestBenchContext)
#include "tst_benchcontext.moc"
