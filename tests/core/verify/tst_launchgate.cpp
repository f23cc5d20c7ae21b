// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The launch gate: a server launch asks the host's last verification (its newest verify.result
// event) whether sgl_kernel can load and run there (launchBlockedBecause), the rule the
// Server pane and `kernelforge-cli server launch` share.
#include "core/events/verification.h"
#include "core/remotebuild/buildhistory.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "core/verify/verifyrun.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

const QString kHost = QStringLiteral("alice@gpu1:22");

// The verify script's output for one library with these cubins, on one H200 (9.0).
QByteArray scriptOutput(const QStringList& cubins, int importRc = 0, const QByteArray& importOutput = {})
{
    QByteArray out = "dir\t/home/alice/sgl-kernel\n"
                     "cuobjdump\t/usr/local/cuda/bin/cuobjdump\n"
                     "nvsmi\tindex, name, compute_cap\n"
                     "nvsmi\t0, NVIDIA H200, 9.0\n"
                     "python\t/usr/bin/python3\n"
                     "torch\t2.11.0+cu130\n"
                     "package\t/home/alice/sgl-kernel/python/sgl_kernel\n";
    out += "import_rc\t" + QByteArray::number(importRc) + "\n";
    for (const QByteArray& line : importOutput.split('\n'))
        if (!line.isEmpty())
            out += "import\t" + line + "\n";
    out += "lib\t4096\t/home/alice/sgl-kernel/build/common_ops.so\n"
           "objdump_begin\t/home/alice/sgl-kernel/build/common_ops.so\n";
    int n = 0;
    for (const QString& c : cubins)
        out += QStringLiteral("objdump\tELF file    %1: common_ops.%1.%2.cubin\n").arg(++n).arg(c).toUtf8();
    out += "objdump_end\t0\n";
    return out;
}

// Verified as kernelforge-cli verify and the Build pane record it.
void record(const QString& host, const QByteArray& output)
{
    VerifyReport r = parseVerifyOutput(output);
    evaluateVerify(r, std::nullopt);
    timeline::recordVerification(host, toVerificationResult(r));
}

} // namespace

class TestLaunchGate : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_db = 0;

private Q_SLOTS:
    void init() { store::setDatabasePath(m_dir.filePath(QStringLiteral("g%1.sqlite").arg(++m_db))); }

    void nothingVerifiedBlocksNothing() { QVERIFY(launchBlockedBecause(kHost).isEmpty()); }

    void noKernelImageForTheGpusBlocks()
    {
        record(kHost, scriptOutput({ QStringLiteral("sm_100a"), QStringLiteral("sm_120a") }));
        const QString why = launchBlockedBecause(kHost);
        QVERIFY2(why.contains(QStringLiteral("common_ops.so cannot run on GPU 0: no kernel image for 9.0")),
            qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("/home/alice/sgl-kernel")), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("verify again")), qPrintable(why));
        // Another host's history says nothing about this one.
        QVERIFY(launchBlockedBecause(QStringLiteral("bob@gpu2:22")).isEmpty());
    }

    void torchAbiMismatchBlocks()
    {
        record(kHost,
            scriptOutput({ QStringLiteral("sm_90a") }, 1,
                "Traceback (most recent call last):\n"
                "ImportError: /home/alice/sgl-kernel/build/common_ops.so: undefined symbol: "
                "_ZN3c106SymInt19promote_to_negativeEv\n"));
        const QString why = launchBlockedBecause(kHost);
        QVERIFY2(why.contains(QStringLiteral("import sgl_kernel fails")), qPrintable(why));
    }

    // The newest verification decides: a passing one after a fix lifts the block, a new
    // failure brings it back.
    void theLastVerificationDecides()
    {
        record(kHost, scriptOutput({ QStringLiteral("sm_120a") }));
        QVERIFY(!launchBlockedBecause(kHost).isEmpty());
        record(kHost, scriptOutput({ QStringLiteral("sm_90a"), QStringLiteral("sm_120a") }));
        QVERIFY2(launchBlockedBecause(kHost).isEmpty(), qPrintable(launchBlockedBecause(kHost)));
        record(kHost, scriptOutput({ QStringLiteral("sm_100a") }));
        QVERIFY(!launchBlockedBecause(kHost).isEmpty());
    }

    // Failures a server gets past (FA3 asked for but not built, a folder without libraries next
    // to an installed package) are the Build pane's to show, not a reason to refuse a launch.
    void failuresThatAreNotBlockersDoNotBlock()
    {
        VerifyReport r = parseVerifyOutput(scriptOutput({ QStringLiteral("sm_90a") }));
        BuildProfile p;
        p.cmakeArgs << QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=ON");
        evaluateVerify(r, p);
        QVERIFY(r.failed());
        QVERIFY(r.launchBlockers().isEmpty());
        timeline::recordVerification(kHost, toVerificationResult(r));
        QVERIFY(launchBlockedBecause(kHost).isEmpty());
    }

    // A verify.result from before the blockers were kept says nothing about them.
    void olderEventsWithoutBlockersDoNotBlock()
    {
        timeline::Event e;
        e.host = kHost;
        e.kind = timeline::kind::VerifyResult;
        e.summary = QStringLiteral("Verification failed: verify: ...");
        e.details = { { QStringLiteral("ok"), false }, { QStringLiteral("dir"), QStringLiteral("/x") } };
        QVERIFY(timeline::record(e));
        QVERIFY(launchBlockedBecause(kHost).isEmpty());
    }

    // Issue #30 item 3: the gate follows provenance. A passing verification, then a build of its
    // folder that failed: what it passed is not what the sources build now. A later build that
    // succeeds lifts it; a job in the home folder (a server) is no build of the folder.
    void aBuildThatFailedAfterTheVerificationBlocks()
    {
        record(kHost, "home\t/home/alice\n" + scriptOutput({ QStringLiteral("sm_90a") }));
        QVERIFY(launchBlockedBecause(kHost).isEmpty());
        auto build = [](const QString& job, const QString& folder, const QString& result, int afterS) {
            BuildRecord b;
            b.jobId = job;
            b.profile = QStringLiteral("sgl-kernel");
            b.host = kHost;
            b.started = QDateTime::currentDateTimeUtc().addSecs(afterS);
            b.ended = b.started.addSecs(5);
            b.result = result;
            b.spec = { { QStringLiteral("working_dir"), folder } };
            return buildhistory::save(b).ok();
        };
        QVERIFY(build(QStringLiteral("server"), QString(), QStringLiteral("cancelled"), 1));
        QVERIFY(launchBlockedBecause(kHost).isEmpty());
        QVERIFY(build(QStringLiteral("broken"), QStringLiteral("~/sgl-kernel"), QStringLiteral("failed"), 2));
        const QString why = launchBlockedBecause(kHost);
        QVERIFY2(why.startsWith(QStringLiteral("build broken (sgl-kernel, "))
                && why.contains(QStringLiteral("of /home/alice/sgl-kernel failed after the last verification")),
            qPrintable(why));
        QVERIFY(build(QStringLiteral("fixed"), QStringLiteral("~/sgl-kernel"), QStringLiteral("succeeded"), 3));
        QVERIFY2(launchBlockedBecause(kHost).isEmpty(), qPrintable(launchBlockedBecause(kHost)));
    }

    void blockersSurviveTheTimeline()
    {
        VerifyReport r = parseVerifyOutput(scriptOutput({ QStringLiteral("sm_100a") }));
        evaluateVerify(r, std::nullopt);
        const timeline::VerificationResult v = toVerificationResult(r);
        QCOMPARE(v.launchBlockers.size(), 1);
        QCOMPARE(timeline::VerificationResult::fromJson(v.toJson()), v);
    }
};

QTEST_GUILESS_MAIN(TestLaunchGate)
#include "tst_launchgate.moc"
