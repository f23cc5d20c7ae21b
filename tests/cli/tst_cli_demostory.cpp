// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The whole demo story through the real kernelforge-cli against the demo host (a real sshd):
// patch plan -> apply -> build (cmake + ninja, nvcc when present) -> verify -> gpu watch -> server
// status -> rollback. Every step is what a person (or a CI job) would type. The story runs for
// both layouts: ~/sgl-kernel (an sgl-kernel folder) and ~/sglang (a checkout of late 2026, the
// kernels in python/sglang/kernels/aot).
#include "tests/support/testsupport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>
#include <QtTest>

class TestCliDemoStory : public QObject
{
    Q_OBJECT

    QString dest(const kf::DemoHost& demo) const { return demo.user() + "@127.0.0.1"; }

    static QList<QJsonObject> jsonLines(const QByteArray& out)
    {
        QList<QJsonObject> objects;
        for (const QByteArray& line : out.split('\n'))
            if (line.startsWith('{'))
                objects << QJsonDocument::fromJson(line).object();
        return objects;
    }

    static QStringList builtinSet(const QString& root)
    {
        return { "--set", "builtin:sgl-kernel-sm120-cuda13", "--root", root };
    }

private Q_SLOTS:
    void wholeStory()
    {
        KF_START_DEMO_HOST(demo);
        const QStringList set = builtinSet(dest(demo) + ":sgl-kernel");
        const QString cmakeFile = demo.homeDir() + "/sgl-kernel/CMakeLists.txt";
        const QByteArray before = kf::test::readFile(cmakeFile);
        QVERIFY(!before.isEmpty());

        // 1. Plan: all four patches will apply, nothing changes yet.
        auto plan = kf::test::runCli(
            QStringList { "patch", "plan" } + set + kf::test::cliSshOptions(demo) + QStringList { "--json" });
        QVERIFY2(plan.exitCode == 0 || plan.exitCode == 1, plan.err.constData());
        const auto planned = jsonLines(plan.out);
        QCOMPARE(planned.size(), 4);
        for (const auto& p : planned)
            QCOMPARE(p.value("status").toString(), QStringLiteral("will-apply"));

        // 2. Apply, then a second apply changes nothing.
        auto apply = kf::test::runCli(QStringList { "patch", "apply" } + set + kf::test::cliSshOptions(demo));
        QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
        auto again = kf::test::runCli(
            QStringList { "patch", "apply" } + set + kf::test::cliSshOptions(demo) + QStringList { "--json" });
        QCOMPARE(again.exitCode, 0);
        for (const auto& p : jsonLines(again.out))
            QCOMPARE(p.value("status").toString(), QStringLiteral("already-applied"));

        // 3. Build the patched demo project detached on the server with its built-in profile;
        //    attach until it ends.
        auto start = kf::test::runCli(QStringList { "build", "start", "--profile", "Demo sgl-kernel (CMake + Ninja)" }
            + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QString job = QString::fromUtf8(start.out.trimmed().split('\n').last()).trimmed();
        QVERIFY2(!job.isEmpty(), start.out.constData());
        auto attach = kf::test::runCli(QStringList { "build", "attach", job, "--json" } + kf::test::cliSshOptions(demo)
                + QStringList { dest(demo) },
            540000);
        QVERIFY2(attach.exitCode == 0, QByteArray(attach.out.right(3000) + attach.err).constData());
        bool sawFinish = false;
        int lastDone = -1, lastTotal = -1;
        for (const auto& e : jsonLines(attach.out)) {
            // Progress events only: the memory gate's events carry "done" too (units it let
            // through), and one after the last progress read as a total of 0.
            if (e.value("event").toString() == "progress") {
                lastDone = e.value("done").toInt();
                lastTotal = e.value("total").toInt();
            }
            if (e.value("event").toString() == "finished" || e.contains("exit_status")) {
                sawFinish = true;
                QCOMPARE(e.value("exit_status").toInt(), 0);
            }
        }
        QVERIFY(sawFinish);
        QVERIFY(lastTotal > 0);
        QCOMPARE(lastDone, lastTotal);

        // 3b. Verify what the build produced against the demo's GPUs (8 x H200, 9.0): with nvcc the
        //     library carries sm_90a (and sm_120a), without it the host compiler's stand-in has no
        //     CUDA code; FA3 stays off as the profile asks now that the patch lets OFF win.
        auto verify
            = kf::test::runCli(QStringList { "verify", "--profile", "Demo sgl-kernel (CMake + Ninja)", "--json" }
                    + kf::test::cliSshOptions(demo) + QStringList { dest(demo) },
                300000);
        QVERIFY2(verify.exitCode == 0, QByteArray(verify.out + verify.err).constData());
        const bool nvcc = QFileInfo(QStringLiteral("/usr/local/cuda/bin/nvcc")).isExecutable();
        bool sawCommonOps = false;
        for (const auto& o : jsonLines(verify.out)) {
            if (o.value("type").toString() == "library") {
                QVERIFY2(!o.value("path").toString().contains("flash_ops"), qPrintable(o.value("path").toString()));
                if (!o.value("path").toString().endsWith("/common_ops.so"))
                    continue;
                sawCommonOps = true;
                QCOMPARE(o.value("cuda").toBool(), nvcc);
                if (nvcc) {
                    QVERIFY(o.value("targets").toArray().contains(QJsonValue("sm_90a")));
                    QVERIFY(o.value("gpus").toArray().first().toObject().value("runs").toBool());
                }
            }
            if (o.value("type").toString() == "check" && o.value("id").toString() == "fa3")
                QCOMPARE(o.value("level").toString(), QStringLiteral("pass"));
        }
        QVERIFY(sawCommonOps);

        // 4. A few GPU samples from the replaying nvidia-smi: 8 GPUs each.
        auto gpu = kf::test::runCli(QStringList { "gpu", "watch", "--json", "--count", "3" }
                + kf::test::cliSshOptions(demo) + QStringList { dest(demo) },
            120000);
        QVERIFY2(gpu.exitCode == 0, gpu.err.constData());
        const auto samples = jsonLines(gpu.out);
        QCOMPARE(samples.size(), 3);
        for (const auto& s : samples)
            QCOMPARE(s.value("gpus").toArray().size(), 8);

        // 5. Launch the demo SGLang server detached, read its status through the tunnel, stop it.
        const QString port = QString::number(kf::test::freeLocalPort());
        auto server = kf::test::runCli(QStringList { "build", "start", "--command",
                                           "sglang-demo-server --port " + port + " --enable-metrics --tp 2" }
            + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
        QVERIFY2(server.exitCode == 0, server.err.constData());
        const QString serverJob = QString::fromUtf8(server.out.trimmed().split('\n').last()).trimmed();
        kf::test::ProcessOutput status;
        for (int i = 0; i < 60; ++i) { // the demo server answers 503 while it "loads the model"
            status = kf::test::runCli(QStringList { "server", "status", "--port", port, "--json" }
                + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
            if (status.exitCode == 0 && status.out.contains("\"healthy\":true"))
                break;
            QThread::msleep(500);
        }
        QVERIFY2(status.exitCode == 0, QByteArray(status.out + status.err).constData());
        QVERIFY2(status.out.contains("\"healthy\":true"), status.out.constData());
        auto cancel = kf::test::runCli(
            QStringList { "build", "cancel", serverJob } + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
        QCOMPARE(cancel.exitCode, 0);

        // 6. Roll back: the file is byte-identical to what was there before.
        auto rollback = kf::test::runCli(QStringList { "patch", "rollback" } + set + kf::test::cliSshOptions(demo));
        QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
        QCOMPARE(kf::test::readFile(cmakeFile), before);
    }

    // The same story from the demo's sglang checkout (~/sglang), whose kernels live in
    // python/sglang/kernels/aot as sglang keeps them since July 2026: the plan finds the tree
    // from the checkout root and says so; fa3-option-respected is truthfully not applicable
    // (upstream passes the FA3 default to option() since June 2026); facts --root reads what the
    // tree asks for; the aot demo profile builds in the tree; verify names it.
    void aotLayoutStory()
    {
        KF_START_DEMO_HOST(demo);
        const QStringList set = builtinSet(dest(demo) + ":sglang");
        const QString cmakeFile = demo.homeDir() + "/sglang/python/sglang/kernels/aot/CMakeLists.txt";
        const QByteArray before = kf::test::readFile(cmakeFile);
        QVERIFY(!before.isEmpty());

        auto plan = kf::test::runCli(
            QStringList { "patch", "plan" } + set + kf::test::cliSshOptions(demo) + QStringList { "--json" });
        QCOMPARE(plan.exitCode, 1); // a patch is not applicable
        const auto planned = jsonLines(plan.out);
        QCOMPARE(planned.size(), 4);
        const QStringList expected { "will-apply", "will-apply", "not-applicable", "will-apply" };
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(planned[i].value("status").toString(), expected[i]);
            QVERIFY2(planned[i].value("tree").toString().startsWith("sgl-kernel tree: python/sglang/kernels/aot below"),
                qPrintable(planned[i].value("tree").toString()));
        }
        QCOMPARE(planned[2].value("not_applicable").toString(), QStringLiteral("fixed-upstream"));
        QVERIFY2(planned[2].value("reason").toString().startsWith("already fixed upstream since June 2026"),
            qPrintable(planned[2].value("reason").toString()));

        auto apply = kf::test::runCli(QStringList { "patch", "apply" } + set + kf::test::cliSshOptions(demo));
        QCOMPARE(apply.exitCode, 1);
        QVERIFY2(apply.out.contains("sgl-kernel tree: python/sglang/kernels/aot below"), apply.out.constData());
        auto again = kf::test::runCli(
            QStringList { "patch", "plan" } + set + kf::test::cliSshOptions(demo) + QStringList { "--json" });
        const auto replanned = jsonLines(again.out);
        QCOMPARE(replanned.size(), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(replanned[i].value("status").toString(),
                i == 2 ? QStringLiteral("not-applicable") : QStringLiteral("already-applied"));

        // What the tree asks for, read from it over SSH.
        auto facts = kf::test::runCli(QStringList { "facts", "--root", "sglang" } + kf::test::cliSshTarget(demo));
        QVERIFY2(facts.exitCode == 0, facts.err.constData());
        QVERIFY2(
            facts.out.contains("hint: sgl-kernel tree: python/sglang/kernels/aot below sglang"), facts.out.constData());

        const QString profile = QStringLiteral("Demo sglang checkout, aot layout (CMake + Ninja)");
        auto start = kf::test::runCli(QStringList { "build", "start", "--profile", profile }
            + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
        QVERIFY2(start.exitCode == 0, start.err.constData());
        QVERIFY2(
            start.err.contains("sgl-kernel tree: python/sglang/kernels/aot below ~/sglang"), start.err.constData());
        const QString job = QString::fromUtf8(start.out.trimmed().split('\n').last()).trimmed();
        auto attach = kf::test::runCli(QStringList { "build", "attach", job, "--json" } + kf::test::cliSshOptions(demo)
                + QStringList { dest(demo) },
            540000);
        QVERIFY2(attach.exitCode == 0, QByteArray(attach.out.right(3000) + attach.err).constData());
        QVERIFY(QFileInfo::exists(demo.homeDir() + "/sglang/python/sglang/kernels/aot/build/.ninja_log"));

        auto verify = kf::test::runCli(QStringList { "verify", "--profile", profile, "--json" }
                + kf::test::cliSshOptions(demo) + QStringList { dest(demo) },
            300000);
        QVERIFY2(verify.exitCode == 0, QByteArray(verify.out + verify.err).constData());
        bool sawTree = false, sawCommonOps = false;
        for (const auto& o : jsonLines(verify.out)) {
            if (o.value("type").toString() == "check" && o.value("id").toString() == "tree")
                sawTree = o.value("message").toString().contains("python/sglang/kernels/aot below ~/sglang");
            if (o.value("type").toString() == "library") {
                QVERIFY2(!o.value("path").toString().contains("flash_ops"), qPrintable(o.value("path").toString()));
                sawCommonOps = sawCommonOps || o.value("path").toString().endsWith("/aot/build/common_ops.so");
            }
        }
        QVERIFY(sawTree);
        QVERIFY(sawCommonOps);

        auto rollback = kf::test::runCli(QStringList { "patch", "rollback" } + set + kf::test::cliSshOptions(demo));
        QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
        QCOMPARE(kf::test::readFile(cmakeFile), before);
    }
};

QTEST_GUILESS_MAIN(TestCliDemoStory)
#include "tst_cli_demostory.moc"
