// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/recipeexport.h"
#include "core/events/verification.h"
#include "core/remotebuild/buildhistory.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/timeline/eventstore.h"

#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::timeline;

namespace {

const QString kHost = QStringLiteral("alice@gpu1:22");

QDateTime at(int minutes)
{
    return QDateTime::currentDateTimeUtc().addSecs(-3600 + minutes * 60);
}

void put(const QString& kind, int minutes, const QJsonObject& details)
{
    Event e;
    e.host = kHost;
    e.kind = kind;
    e.time = at(minutes);
    e.summary = kind;
    e.details = details;
    QVERIFY(record(e));
}

qint64 journal(const QString& file)
{
    AppliedFile f;
    f.host = kHost;
    f.root = QStringLiteral("/home/alice/sgl-kernel");
    f.file = file;
    f.path = f.root + QLatin1Char('/') + file;
    f.setName = QStringLiteral("sgl-kernel-sm120-cuda13");
    return HistoryStore().recordApply(f).value();
}

} // namespace

class TestRecipeExport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_db = 0;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); } // no user build profiles
    void init() { store::setDatabasePath(m_dir.filePath(QStringLiteral("e%1.sqlite").arg(++m_db))); }

    void whatWorkedOnTheHost()
    {
        put(kind::FactsChanged, 0,
            { { QStringLiteral("home"), QStringLiteral("/home/alice") },
                { QStringLiteral("versions"),
                    QJsonObject { { QStringLiteral("nvcc"), QStringLiteral("13.0.88") },
                        { QStringLiteral("cmake"), QStringLiteral("3.31.6") },
                        { QStringLiteral("kernel"), QStringLiteral("6.8.0") } } } });
        // An older apply, then the one that stands, with a rejected hunk.
        const qint64 old = journal(QStringLiteral("CMakeLists.txt"));
        put(kind::PatchApplied, 1,
            { { QStringLiteral("set"), QStringLiteral("builtin:old") },
                { QStringLiteral("root"), QStringLiteral("/x") }, { QStringLiteral("ok"), true },
                { QStringLiteral("journal_ids"), QJsonArray { old } } });
        QVERIFY(HistoryStore().markRolledBack(old, at(2)));
        const qint64 standing = journal(QStringLiteral("CMakeLists.txt"));
        put(kind::PatchApplied, 3,
            { { QStringLiteral("set"), QStringLiteral("builtin:sgl-kernel-sm120-cuda13") },
                { QStringLiteral("root"), QStringLiteral("/home/alice/sgl-kernel") }, { QStringLiteral("ok"), true },
                { QStringLiteral("journal_ids"), QJsonArray { standing } },
                { QStringLiteral("decisions"),
                    QJsonArray { QJsonObject { { QStringLiteral("patch"), QStringLiteral("fa3-option") },
                        { QStringLiteral("file"), QStringLiteral("CMakeLists.txt") },
                        { QStringLiteral("accepted"), true },
                        { QStringLiteral("rejected_hunks"),
                            QJsonArray { QJsonObject { { QStringLiteral("hunk"), 2 },
                                { QStringLiteral("id"), QStringLiteral("00aa11bb22cc33dd") } } } } } } } });
        // A failed build, then one that worked (its spec: env names only).
        BuildProfile p;
        p.name = QStringLiteral("my profile");
        p.workingDirectory = QStringLiteral("~/sgl-kernel");
        p.command = QStringLiteral("make build");
        p.cmakeArgs = { QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF") };
        p.env.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("hf_never_exported"));
        for (const auto& [job, result, minutes] : { std::tuple { QStringLiteral("j1"), QStringLiteral("failed"), 4 },
                 std::tuple { QStringLiteral("j2"), QStringLiteral("succeeded"), 10 } }) {
            BuildRecord r;
            r.jobId = job;
            r.host = kHost;
            r.profile = p.name;
            r.started = at(minutes);
            r.ended = at(minutes + 2);
            r.result = result;
            r.exitStatus = result == QLatin1String("failed") ? 2 : 0;
            r.spec = buildSpec(p);
            QVERIFY(buildhistory::save(r));
        }
        VerificationResult v;
        v.ok = true;
        v.importOk = true;
        v.fa3 = false;
        v.libraries
            = { { QStringLiteral("common_ops.abi3.so"), QStringLiteral("build"), { QStringLiteral("sm_90a") } } };
        Event ve;
        ve.host = kHost;
        ve.kind = kind::VerifyResult;
        ve.time = at(13);
        ve.details = v.toJson();
        QVERIFY(record(ve));
        // A launch that never got healthy, then one that did.
        put(kind::ServerLaunched, 14,
            { { QStringLiteral("port"), 30000 }, { QStringLiteral("model_path"), QStringLiteral("bad") } });
        put(kind::ServerLaunched, 20,
            { { QStringLiteral("port"), 30001 }, { QStringLiteral("model_path"), QStringLiteral("Qwen/Qwen3") },
                { QStringLiteral("tp"), 8 }, { QStringLiteral("name"), QStringLiteral("sglang") },
                { QStringLiteral("python"), QStringLiteral("python3") }, { QStringLiteral("enable_metrics"), true },
                { QStringLiteral("extra_args"),
                    QJsonArray { QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8_e4m3") } },
                { QStringLiteral("demo"), false } });
        put(kind::ServerHealthy, 22, { { QStringLiteral("port"), 30001 } });

        const auto exported = deploy::exportRecipe(kHost, QStringLiteral("gpu1"));
        QVERIFY2(exported, qPrintable(exported.error()));
        QVERIFY2(exported->notes.isEmpty(), qPrintable(exported->notes.join(QLatin1Char('\n'))));
        const deploy::DeployRecipe& r = exported->recipe;
        QCOMPARE(r.name, QStringLiteral("gpu1"));
        QCOMPARE(r.sourceHost, kHost);
        QCOMPARE(r.facts.size(), 3);
        for (const deploy::FactExpectation& f : r.facts)
            QVERIFY(f.rule == deploy::defaultRule(f.name));
        QVERIFY(r.patches);
        QCOMPARE(r.patches->set, QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
        QCOMPARE(r.patches->root, QStringLiteral("~/sgl-kernel")); // the target's home
        QCOMPARE(r.patches->decisions.size(), 1);
        QCOMPARE(r.patches->decisions.first().rejectedHunks.first().id, QStringLiteral("00aa11bb22cc33dd"));
        QVERIFY(r.build);
        QCOMPARE(r.build->profile.command, QStringLiteral("make build"));
        QCOMPARE(r.build->profile.cmakeArgs, p.cmakeArgs);
        QCOMPARE(r.build->envNames, QStringList { QStringLiteral("HF_TOKEN") });
        QVERIFY(r.build->profile.env.isEmpty());
        QVERIFY(!deploy::serializeDeployRecipe(r).contains("hf_never_exported"));
        QVERIFY(r.verify);
        QCOMPARE(r.verify->fa3, std::optional<bool>(false));
        QCOMPARE(r.verify->libraries.first().name, QStringLiteral("common_ops"));
        QVERIFY(r.server);
        QCOMPARE(r.server->port, quint16(30001));
        QCOMPARE(r.server->modelPath, QStringLiteral("Qwen/Qwen3"));
        QCOMPARE(r.server->extraArgs.size(), 2);
    }

    void whatIsMissingIsSaid()
    {
        put(kind::ServerLaunched, 1,
            { { QStringLiteral("port"), 30000 }, { QStringLiteral("model_path"), QStringLiteral("m") } });
        const qint64 id = journal(QStringLiteral("a.txt"));
        put(kind::PatchApplied, 2,
            { { QStringLiteral("set"), QStringLiteral("s") }, { QStringLiteral("root"), QStringLiteral("/r") },
                { QStringLiteral("ok"), true }, { QStringLiteral("journal_ids"), QJsonArray { id } } });
        QVERIFY(HistoryStore().markRolledBack(id, at(3))); // rolled back: not what stands
        const auto exported = deploy::exportRecipe(kHost);
        QVERIFY(exported);
        const deploy::DeployRecipe& r = exported->recipe;
        QVERIFY(r.facts.isEmpty() && !r.patches && !r.build && !r.verify && !r.server);
        QCOMPARE(exported->notes.size(), 5);
        QVERIFY(exported->notes.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("server: no launch that answered healthy")));
    }
};

QTEST_GUILESS_MAIN(TestRecipeExport)
#include "tst_recipeexport.moc"
